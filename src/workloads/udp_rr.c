/*
 * udp_rr.c - udp.rr: loopback UDP request/response, in the manner of
 * neper's udp_rr (E6).
 *
 * `flows` flows, each a pair of connected UDP sockets on the loopback
 * (IPv6 [::1], or IPv4 127.0.0.1 with family=4 or when IPv6 is not
 * available here, which the run's note says): a client socket and a
 * server socket of its own, as neper does.  The flows are split into
 * contiguous blocks over `client_threads` client workers, and dealt round
 * robin (flow % server_threads) to `server_threads` server workers, each
 * running an epoll loop (level-triggered, blocking epoll_wait) over its
 * server sockets and echoing every request back.
 *
 * One op: one transaction by one client: send a request of `size` bytes
 * on its next flow (round robin over its block) and block in recv() until
 * the response of `size` bytes comes back.  Each client has one
 * transaction outstanding at a time (one per flow, like neper's default,
 * but a client does not start on its next flow before the response):
 * the core times every transaction, so the round-trip percentiles are
 * the core's, and transactions/s counts all clients over one window.
 * A request or response lost (possible in UDP, rare on the loopback) is
 * sent again after 100 ms without a response; retransmits are a metric,
 * and a flow that stays silent for 5 s fails the run.
 * The time includes both sides' syscalls (sendmsg, recvmsg, epoll_wait),
 * the UDP/IP stack over the loopback device in both directions, softirq
 * processing and the wake-ups of the server and the client.
 * Not measured: socket creation, bind and connect; the server's handling
 * of events apart from recv and send.  The client that completes the
 * batch's last transaction also writes one eventfd per server to stop
 * them (inside that last transaction's time).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/common_params.h"
#include "util/array.h"
#include "workloads/fdlimit.h"
#include "workloads/workloads.h"

static const char *const family_choices[] = { "6", "4", NULL };

enum { FAMILY_6, FAMILY_4 };

#define UDP_RR_MAX_FLOWS 10000	/* two ephemeral ports per flow */
#define UDP_RR_MAX_SERVERS 16
#define UDP_RR_MAX_CLIENTS 32
#define UDP_RR_MAX_SIZE 65507	/* largest IPv4 UDP payload */
/* Resend after this long without a response; give up after so many. */
#define UDP_RR_TIMEOUT_MS 100
#define UDP_RR_MAX_TRIES 50
#define UDP_RR_MAX_EVENTS 1024	/* per server epoll_wait */
#define STOP_MARK UINT32_MAX	/* epoll data of the stop eventfd */

/* The parameters, bound by the core (ctx->params). */
struct udp_rr_params {
	int64_t flows, server_threads, client_threads, size, drop;
	int family, mode, place;
};

static const struct param_def udp_rr_param_defs[] = {
	{ .name = "flows", .type = PARAM_INT, .def = "1000", .min = 1,
	  .max = UDP_RR_MAX_FLOWS,
	  .help = "connected client/server socket pairs",
	  PARAM_FIELD(struct udp_rr_params, flows) },
	{ .name = "server_threads", .type = PARAM_INT, .def = "1", .min = 1,
	  .max = UDP_RR_MAX_SERVERS,
	  .help = "server workers, each an epoll loop over its flows",
	  PARAM_FIELD(struct udp_rr_params, server_threads) },
	{ .name = "client_threads", .type = PARAM_INT, .def = "2", .min = 1,
	  .max = UDP_RR_MAX_CLIENTS,
	  .help = "client workers, each with one transaction in flight",
	  PARAM_FIELD(struct udp_rr_params, client_threads) },
	{ .name = "size", .type = PARAM_SIZE, .def = "1", .min = 1,
	  .max = UDP_RR_MAX_SIZE,
	  .help = "bytes of each request and of each response",
	  PARAM_FIELD(struct udp_rr_params, size) },
	{ .name = "family", .type = PARAM_ENUM, .def = "6",
	  .choices = family_choices,
	  .help = "6: [::1] (127.0.0.1 if IPv6 is off, announced), "
		  "4: 127.0.0.1",
	  PARAM_FIELD(struct udp_rr_params, family) },
	WL_PARAM_MODE(struct udp_rr_params, mode, "thread"),
	/* split takes the CPUs in turn, servers first */
	WL_PARAM_PLACE(struct udp_rr_params, place),
	{ .name = "drop", .type = PARAM_INT, .def = "0", .min = 0,
	  .max = 1000000000,
	  .help = "servers ignore every Nth request: injected loss "
		  "(0: none)",
	  PARAM_FIELD(struct udp_rr_params, drop) },
};

enum {
	M_TPS, M_MEAN, M_P50, M_P99, M_P999, M_MAX, M_EVENTS_WAIT, M_RETRANS,
};

static const struct metric_def udp_rr_metrics[] = {
	[M_TPS] = { .name = "transactions/s", .kind = METRIC_CUSTOM,
	  .same_window = true,
		    .dir = METRIC_HIGHER_BETTER, .unit = "ops/s",
		    .help = "transactions of all clients per second of the "
			    "sample window" },
	/* named as pipe.lat's, so that round trips compare alike */
	[M_MEAN] = { .name = "rtt mean", .kind = METRIC_OP_MEAN,
		     .op_class = -1, .dir = METRIC_LOWER_BETTER,
		     .help = "mean of the timed round trips" },
	[M_P50] = { .name = "rtt p50", .kind = METRIC_OP_PCT, .pct = 50,
		    .op_class = -1, .dir = METRIC_LOWER_BETTER,
		    .help = "median round trip" },
	[M_P99] = { .name = "rtt p99", .kind = METRIC_OP_PCT, .pct = 99,
		    .op_class = -1, .dir = METRIC_LOWER_BETTER,
		    .help = "99th percentile round trip" },
	[M_P999] = { .name = "rtt p99.9", .kind = METRIC_OP_PCT,
		     .pct = 99.9, .op_class = -1,
		     .dir = METRIC_LOWER_BETTER,
		     .help = "99.9th percentile round trip" },
	[M_MAX] = { .name = "rtt max", .kind = METRIC_OP_PCT, .pct = 100,
		    .op_class = -1, .dir = METRIC_LOWER_BETTER,
		    .help = "slowest round trip of the sample (exact)" },
	[M_EVENTS_WAIT] = { .name = "events/wait", .kind = METRIC_CUSTOM,
			    .dir = METRIC_INFO, .unit = "count",
			    .help = "mean events returned per server "
				    "epoll_wait" },
	[M_RETRANS] = { .name = "retransmits", .kind = METRIC_CUSTOM,
			.dir = METRIC_LOWER_BETTER, .unit = "count",
			.help = "requests resent after 100 ms without a "
				"response, per sample" },
};

/* Coordinator state; forked workers inherit a copy (and the sockets). */
struct udp_rr {
	int nflows, nservers, nclients;
	size_t size;
	int *cfd, *sfd;			/* per flow: client, server socket */
	int nopen;			/* flows with both sockets open */
	int stopfd[UDP_RR_MAX_SERVERS];	/* eventfd in each server's set */
	char names[UDP_RR_MAX_SERVERS + UDP_RR_MAX_CLIENTS][16];
};

/*
 * Shared by all workers (ctx->shared).  Servers publish the batch's
 * transaction count (nops x clients); clients count completed
 * transactions, and the one completing the last wakes every server
 * through its stop eventfd.  The last server to leave the batch keeps
 * the batch's counters in last_* (for the sample's metrics) and resets
 * the live ones, so the next batch starts from zero.
 */
struct udp_rr_shared {
	_Atomic uint64_t target;
	_Atomic uint64_t done_tx;
	_Atomic uint64_t waits, events, retrans;
	_Atomic uint32_t servers_out;
	_Atomic uint32_t abort;		/* a worker failed: all stop */
	uint64_t last_waits, last_events, last_retrans;
};

struct udp_rr_worker {
	uint8_t *buf, *rbuf;		/* size bytes each */
	/* server */
	int epfd;
	struct epoll_event *evs;
	int maxevents;
	uint64_t drop, received;	/* drop=N: every Nth is ignored */
	/* client: flows first .. first + nown - 1 */
	int first, nown, next;
	uint8_t *seq;			/* per flow: last request's tag */
};

static size_t fds_needed(const struct udp_rr_params *pp)
{
	/* two sockets per flow, a stop eventfd and an epoll per server */
	return 2 * (size_t)pp->flows + 2 * (size_t)pp->server_threads +
	       FDLIMIT_SLACK;
}

static int raise_limit(const struct udp_rr_params *pp, char *err,
		       size_t len)
{
	char what[64];

	snprintf(what, sizeof(what), "flows=%lld", (long long)pp->flows);
	return fdlimit_ensure(fds_needed(pp), what, err, len);
}

static int udp_rr_validate(const void *params, char *err, size_t len)
{
	const struct udp_rr_params *pp = params;

	if (pp->flows < pp->client_threads) {
		snprintf(err, len, "flows: %lld is fewer than client_threads "
			 "(%lld); every client needs a flow",
			 (long long)pp->flows, (long long)pp->client_threads);
		return WL_EUSAGE;
	}
	if (pp->flows < pp->server_threads) {
		snprintf(err, len, "flows: %lld is fewer than server_threads "
			 "(%lld); every server needs a flow",
			 (long long)pp->flows, (long long)pp->server_threads);
		return WL_EUSAGE;
	}
	return raise_limit(pp, err, len) ? WL_EUSAGE : WL_OK;
}

/* The loopback address of `family` with port 0. */
static socklen_t loopback(int family, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		return sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return sizeof(*a);
	}
}

static const char *family_addr(int family)
{
	return family == AF_INET6 ? "[::1]" : "127.0.0.1";
}

/* A UDP socket bound to the loopback on an ephemeral port; -1 on error. */
static int bound_socket(int family, struct sockaddr_storage *ss,
			socklen_t *sl, char *err, size_t len)
{
	int fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		snprintf(err, len, "socket(%s, SOCK_DGRAM): %s",
			 family == AF_INET6 ? "AF_INET6" : "AF_INET",
			 strerror(errno));
		return -1;
	}
	*sl = loopback(family, ss);
	if (bind(fd, (struct sockaddr *)ss, *sl) != 0 ||
	    getsockname(fd, (struct sockaddr *)ss, sl) != 0) {
		snprintf(err, len, "bind(%s:0): %s", family_addr(family),
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Can a UDP socket be bound to [::1]?  Else the reason in why. */
static bool ipv6_loopback_ok(char *why, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd = bound_socket(AF_INET6, &ss, &sl, why, len);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Open flow f: two sockets, bound, connected to each other. */
static int open_flow(struct udp_rr *u, int f, int family, char *err,
		     size_t len)
{
	struct timeval tv = { 0, (suseconds_t)UDP_RR_TIMEOUT_MS * 1000 };
	struct sockaddr_storage sa, ca;
	socklen_t sl, cl;
	char e[WL_ERR_LEN];

	u->sfd[f] = bound_socket(family, &sa, &sl, e, sizeof(e));
	if (u->sfd[f] < 0)
		goto fail;
	u->cfd[f] = bound_socket(family, &ca, &cl, e, sizeof(e));
	if (u->cfd[f] < 0) {
		close(u->sfd[f]);
		goto fail;
	}
	u->nopen = f + 1;
	if (connect(u->sfd[f], (struct sockaddr *)&ca, cl) != 0 ||
	    connect(u->cfd[f], (struct sockaddr *)&sa, sl) != 0) {
		snprintf(e, sizeof(e), "connect: %s%s", strerror(errno),
			 errno == ENETUNREACH ? " (is the loopback device "
			 "up?)" : "");
		goto fail;
	}
	if (setsockopt(u->cfd[f], SOL_SOCKET, SO_RCVTIMEO, &tv,
		       sizeof(tv)) != 0) {
		snprintf(e, sizeof(e), "setsockopt(SO_RCVTIMEO): %s",
			 strerror(errno));
		goto fail;
	}
	return 0;
fail:
	snprintf(err, len, "flow %d: %s", f, e);
	return -1;
}

static void udp_rr_teardown(struct wl_ctx *ctx)
{
	struct udp_rr *u = ctx->priv;
	int i;

	if (!u)
		return;
	for (i = 0; i < u->nopen; i++) {
		close(u->cfd[i]);
		close(u->sfd[i]);
	}
	for (i = 0; i < UDP_RR_MAX_SERVERS; i++)
		if (u->stopfd[i] >= 0)
			close(u->stopfd[i]);
	free(u->cfd);
	free(u->sfd);
	free(u);
	ctx->priv = NULL;
}

static int udp_rr_open(struct wl_ctx *ctx, struct udp_rr *u)
{
	const struct udp_rr_params *pp = ctx->params;
	char why[WL_ERR_LEN] = "";
	int f, s, family = AF_INET6;

	if (raise_limit(pp, ctx->err, sizeof(ctx->err)) != 0)
		return WL_EUSAGE;
	if (pp->family == FAMILY_4)
		family = AF_INET;
	else if (!ipv6_loopback_ok(why, sizeof(why)))
		family = AF_INET;
	u->cfd = calloc((size_t)u->nflows, sizeof(int));
	u->sfd = calloc((size_t)u->nflows, sizeof(int));
	if (!u->cfd || !u->sfd) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	for (f = 0; f < u->nflows; f++)
		if (open_flow(u, f, family, ctx->err, sizeof(ctx->err)))
			return WL_EFAIL;
	for (s = 0; s < u->nservers; s++) {
		u->stopfd[s] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (u->stopfd[s] < 0) {
			snprintf(ctx->err, sizeof(ctx->err), "eventfd: %s",
				 strerror(errno));
			return WL_EFAIL;
		}
	}
	if (why[0]) {
		static bool announced;

		snprintf(ctx->note, sizeof(ctx->note), "IPv6 loopback "
			 "unavailable (%s): using IPv4 127.0.0.1", why);
		if (!announced)
			fprintf(stderr, "copyscope: udp.rr: %s\n", ctx->note);
		announced = true;
	} else {
		snprintf(ctx->note, sizeof(ctx->note), "loopback %s, a "
			 "socket per flow on each side", family_addr(family));
	}
	return WL_OK;
}

static int udp_rr_setup(struct wl_ctx *ctx)
{
	const struct udp_rr_params *pp = ctx->params;
	struct udp_rr *u = calloc(1, sizeof(*u));
	int i, rc;

	if (!u) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	ctx->priv = u;
	for (i = 0; i < UDP_RR_MAX_SERVERS; i++)
		u->stopfd[i] = -1;
	u->nflows = (int)pp->flows;
	u->nservers = (int)pp->server_threads;
	u->nclients = (int)pp->client_threads;
	u->size = (size_t)pp->size;
	rc = udp_rr_open(ctx, u);
	if (rc != WL_OK) {
		/* teardown() follows only a setup() that succeeded */
		udp_rr_teardown(ctx);
		return rc;
	}
	ctx->nworkers = u->nservers + u->nclients;
	for (i = 0; i < ctx->nworkers; i++) {
		if (i < u->nservers)
			snprintf(u->names[i], sizeof(u->names[i]), "server%d",
				 i);
		else
			snprintf(u->names[i], sizeof(u->names[i]), "client%d",
				 i - u->nservers);
		ctx->worker_name[i] = u->names[i];
		ctx->op_timed[i] = i >= u->nservers;
	}
	ctx->hist_worker = u->nservers;
	ctx->shared_bytes = sizeof(struct udp_rr_shared);
	/* the loopback note, then the placement note */
	ctx->note_first = true;
	return WL_OK;
}

/* Prefaulted buffer of n bytes, or NULL. */
static uint8_t *alloc_buf(size_t n)
{
	uint8_t *b = malloc(n);

	if (b)
		memset(b, 0, n);
	return b;
}

static int server_init(struct wl_worker *w, struct udp_rr *u,
		       struct udp_rr_worker *s)
{
	const struct udp_rr_params *pp = w->ctx->params;
	struct epoll_event ev;
	int f, idx = w->idx, n = 0;

	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0) {
		snprintf(w->err, WL_ERR_LEN, "epoll_create1: %s",
			 strerror(errno));
		return WL_EFAIL;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	for (f = idx; f < u->nflows; f += u->nservers) {
		ev.data.u32 = (uint32_t)f;
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, u->sfd[f], &ev) != 0) {
			snprintf(w->err, WL_ERR_LEN, "epoll_ctl(ADD, flow "
				 "%d): %s", f, strerror(errno));
			return WL_EFAIL;
		}
		n++;
	}
	ev.data.u32 = STOP_MARK;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, u->stopfd[idx], &ev) != 0) {
		snprintf(w->err, WL_ERR_LEN, "epoll_ctl(ADD, stop eventfd): "
			 "%s", strerror(errno));
		return WL_EFAIL;
	}
	s->drop = (uint64_t)pp->drop;
	s->maxevents = n + 1 < UDP_RR_MAX_EVENTS ? n + 1 : UDP_RR_MAX_EVENTS;
	s->evs = calloc((size_t)s->maxevents, sizeof(*s->evs));
	if (!s->evs) {
		snprintf(w->err, WL_ERR_LEN, "out of memory");
		return WL_EFAIL;
	}
	memset(s->evs, 0, (size_t)s->maxevents * sizeof(*s->evs));
	return WL_OK;
}

static void udp_rr_worker_fini(struct wl_worker *w)
{
	struct udp_rr_worker *s = w->priv;

	if (!s)
		return;
	if (s->epfd >= 0)
		close(s->epfd);
	free(s->evs);
	free(s->seq);
	free(s->buf);
	free(s->rbuf);
	free(s);
	w->priv = NULL;
}

static int worker_open(struct wl_worker *w)
{
	struct udp_rr *u = w->ctx->priv;
	struct udp_rr_worker *s = w->priv;
	int c;

	s->buf = alloc_buf(u->size);
	s->rbuf = alloc_buf(u->size);
	if (!s->buf || !s->rbuf) {
		snprintf(w->err, WL_ERR_LEN, "out of memory");
		return WL_EFAIL;
	}
	if (w->idx < u->nservers)
		return server_init(w, u, s);
	/* client c: a contiguous block of flows, spread over the servers */
	c = w->idx - u->nservers;
	s->first = (int)((int64_t)u->nflows * c / u->nclients);
	s->nown = (int)((int64_t)u->nflows * (c + 1) / u->nclients) -
		  s->first;
	s->seq = calloc((size_t)s->nown, 1);
	if (!s->seq) {
		snprintf(w->err, WL_ERR_LEN, "out of memory");
		return WL_EFAIL;
	}
	return WL_OK;
}

static int udp_rr_worker_init(struct wl_worker *w)
{
	struct udp_rr_worker *s = calloc(1, sizeof(*s));
	int rc;

	if (!s) {
		snprintf(w->err, WL_ERR_LEN, "out of memory");
		return WL_EFAIL;
	}
	w->priv = s;
	s->epfd = -1;
	rc = worker_open(w);
	/* the core calls worker_fini() only after a worker_init() that
	   succeeded */
	if (rc != WL_OK)
		udp_rr_worker_fini(w);
	return rc;
}

/* Wake every server through its stop eventfd.  0, or -1 (err set). */
static int stop_servers(const struct udp_rr *u, char *err)
{
	uint64_t one = 1;
	int s;

	for (s = 0; s < u->nservers; s++)
		if (write(u->stopfd[s], &one, sizeof(one)) != sizeof(one)) {
			snprintf(err, WL_ERR_LEN, "write(stop eventfd of "
				 "server %d): %s", s, strerror(errno));
			return -1;
		}
	return 0;
}

/* A worker failed: make every other one stop soon. */
static int abort_all(const struct udp_rr *u, struct udp_rr_shared *sh)
{
	char ignored[WL_ERR_LEN];

	atomic_store(&sh->abort, 1);
	stop_servers(u, ignored);
	return WL_EFAIL;
}

/* Serve until the clients have completed the batch's transactions. */
static int server_batch(struct wl_worker *w, uint64_t nops)
{
	struct udp_rr *u = w->ctx->priv;
	struct udp_rr_shared *sh = w->ctx->shared;
	struct udp_rr_worker *s = w->priv;
	uint64_t waits = 0, events = 0, v;
	bool stop = false;
	int i;

	atomic_store(&sh->target, nops * (uint64_t)u->nclients);
	while (!stop) {
		int n = epoll_wait(s->epfd, s->evs, s->maxevents, -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(w->err, WL_ERR_LEN, "epoll_wait: %s",
				 strerror(errno));
			return abort_all(u, sh);
		}
		/* a wait that returned only the stop event is the harness's */
		if (n > 1 || (n == 1 && s->evs[0].data.u32 != STOP_MARK))
			waits++;
		for (i = 0; i < n; i++) {
			uint32_t f = s->evs[i].data.u32;
			ssize_t r;

			if (f == STOP_MARK) {
				stop = true;
				continue;
			}
			events++;
			r = recv(u->sfd[f], s->buf, u->size, MSG_DONTWAIT);
			if (r < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (r >= 0 && s->drop && ++s->received % s->drop == 0)
				continue;
			if (r < 0 || send(u->sfd[f], s->buf, (size_t)r, 0) !=
				     r) {
				snprintf(w->err, WL_ERR_LEN, "%s (flow %u): "
					 "%s", r < 0 ? "recv" : "send", f,
					 strerror(errno));
				return abort_all(u, sh);
			}
		}
	}
	if (read(u->stopfd[w->idx], &v, sizeof(v)) != sizeof(v)) {
		snprintf(w->err, WL_ERR_LEN, "read(stop eventfd): %s",
			 strerror(errno));
		return abort_all(u, sh);
	}
	atomic_fetch_add(&sh->waits, waits);
	atomic_fetch_add(&sh->events, events);
	if (atomic_fetch_add(&sh->servers_out, 1) + 1 ==
	    (uint32_t)u->nservers) {
		sh->last_waits = atomic_exchange(&sh->waits, 0);
		sh->last_events = atomic_exchange(&sh->events, 0);
		sh->last_retrans = atomic_exchange(&sh->retrans, 0);
		atomic_store(&sh->done_tx, 0);
		atomic_store(&sh->servers_out, 0);
	}
	return WL_IDLE_END;
}

/* One transaction on the client's next flow. */
static int client_op(struct wl_worker *w)
{
	struct udp_rr *u = w->ctx->priv;
	struct udp_rr_shared *sh = w->ctx->shared;
	struct udp_rr_worker *c = w->priv;
	int k = c->next, f = c->first + k, tries = 0;
	uint8_t tag;
	ssize_t r;

	/* Another worker failed and reports it: leave quietly (the
	   configuration fails with that worker's message). */
	if (atomic_load(&sh->abort))
		return WL_IDLE_END;
	tag = ++c->seq[k];
	if (++c->next == c->nown)
		c->next = 0;
	c->buf[0] = tag;
	for (;;) {
		if (send(u->cfd[f], c->buf, u->size, 0) != (ssize_t)u->size) {
			snprintf(w->err, WL_ERR_LEN, "send (flow %d): %s", f,
				 strerror(errno));
			return abort_all(u, sh);
		}
		for (;;) {
			r = recv(u->cfd[f], c->rbuf, u->size, 0);
			/* a late answer to a resent request: drop it */
			if (r > 0 && c->rbuf[0] != tag)
				continue;
			if (r >= 0 || errno != EINTR)
				break;
		}
		if (r == (ssize_t)u->size)
			break;
		if (r >= 0) {
			snprintf(w->err, WL_ERR_LEN, "recv (flow %d): %zd "
				 "bytes, expected %zu", f, r, u->size);
			return abort_all(u, sh);
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			snprintf(w->err, WL_ERR_LEN, "recv (flow %d): %s", f,
				 strerror(errno));
			return abort_all(u, sh);
		}
		if (atomic_load(&sh->abort))
			return WL_IDLE_END;
		if (++tries >= UDP_RR_MAX_TRIES) {
			snprintf(w->err, WL_ERR_LEN, "flow %d: no response "
				 "in %d tries of %d ms", f, tries,
				 UDP_RR_TIMEOUT_MS);
			return abort_all(u, sh);
		}
		atomic_fetch_add(&sh->retrans, 1);
	}
	if (atomic_fetch_add(&sh->done_tx, 1) + 1 == atomic_load(&sh->target) &&
	    stop_servers(u, w->err) != 0)
		return abort_all(u, sh);
	return 0;
}

static int udp_rr_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct udp_rr *u = w->ctx->priv;
	uint64_t i;

	if (w->idx < u->nservers)
		return server_batch(w, nops);
	/* op-timed: the core calls this with nops = 1 per transaction */
	for (i = 0; i < nops; i++) {
		int rc = client_op(w);

		if (rc != 0)
			return rc;
	}
	return 0;
}

static double udp_rr_sample_metric(struct wl_ctx *ctx, size_t m,
				   const struct wl_sample *smp)
{
	const struct udp_rr *u = ctx->priv;
	const struct udp_rr_shared *sh = ctx->shared;

	switch (m) {
	case M_TPS:
		return (double)smp->nops * u->nclients /
		       (smp->window_ns / 1e9);
	case M_EVENTS_WAIT:
		return sh->last_waits ? (double)sh->last_events /
					(double)sh->last_waits : 0.0;
	case M_RETRANS:
		return (double)sh->last_retrans;
	default:
		return 0.0;
	}
}

const struct workload wl_udp_rr = {
	.name = "udp.rr",
	.summary = "loopback UDP request/response over many flows "
		   "(neper udp_rr)",
	.op = "one transaction: size bytes to the server, size bytes back",
	.not_measured = "socket setup; each client keeps one transaction "
			"in flight, not one per flow; the last transaction "
			"of a sample also wakes the servers (one eventfd "
			"write each)",
	.params = udp_rr_param_defs,
	.nparams = ARRAY_SIZE(udp_rr_param_defs),
	.params_size = sizeof(struct udp_rr_params),
	.metrics = udp_rr_metrics,
	.nmetrics = ARRAY_SIZE(udp_rr_metrics),
	.validate = udp_rr_validate,
	.setup = udp_rr_setup,
	.worker_init = udp_rr_worker_init,
	.run_batch = udp_rr_run_batch,
	.worker_fini = udp_rr_worker_fini,
	.sample_metric = udp_rr_sample_metric,
	.teardown = udp_rr_teardown,
};
