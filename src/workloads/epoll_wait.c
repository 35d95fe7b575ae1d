/*
 * epoll_wait.c - epoll.wait: what delivering ready events costs (E5).
 *
 * `fds` sources that are always ready sit in one epoll instance,
 * level-triggered: eventfds holding a non-zero count (source=eventfd) or
 * pipes with one byte in them (source=pipe, the read ends watched).
 * Nothing ever reads them, so every source stays ready for the whole run.
 * One op: one epoll_wait(maxevents, timeout 0) call in one pinned thread,
 * which returns min(fds, maxevents) events; a level-triggered item that
 * was delivered goes back on the tail of the ready list, so successive
 * calls rotate over all the sources.  The time includes the syscall entry
 * and exit (with page-table isolation where it is on), the walk of the
 * ready list, the poll of each delivered source (eventfd_poll or
 * pipe_poll) and the copy-out of each struct epoll_event to user space.
 * Not measured: creating the sources, filling them and EPOLL_CTL_ADD;
 * reading or handling the events (a real event loop does that too);
 * wake-ups (nothing ever sleeps: the timeout is 0).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/common_metrics.h"
#include "util/array.h"
#include "workloads/fdlimit.h"
#include "workloads/workloads.h"

static const char *const source_choices[] = { "eventfd", "pipe", NULL };

enum { SOURCE_EVENTFD, SOURCE_PIPE };

/* Most sources and events per call: fs.nr_open's default is 1048576. */
#define EPOLL_WAIT_MAX_FDS 500000
#define EPOLL_WAIT_MAX_EVENTS 1000000

/* The parameters, bound by the core (ctx->params). */
struct epoll_wait_params {
	int64_t fds, maxevents;
	int source;
};

static const struct param_def epoll_wait_param_defs[] = {
	{ .name = "fds", .type = PARAM_INT, .def = "1000", .min = 1,
	  .max = EPOLL_WAIT_MAX_FDS,
	  .help = "ready sources in the epoll set",
	  PARAM_FIELD(struct epoll_wait_params, fds) },
	{ .name = "maxevents", .type = PARAM_INT, .def = "64", .min = 1,
	  .max = EPOLL_WAIT_MAX_EVENTS,
	  .help = "maxevents of each epoll_wait call",
	  PARAM_FIELD(struct epoll_wait_params, maxevents) },
	{ .name = "source", .type = PARAM_ENUM, .def = "eventfd",
	  .choices = source_choices,
	  .help = "eventfd (count 1) or pipe (1 byte buffered)",
	  PARAM_FIELD(struct epoll_wait_params, source) },
};

enum {
	M_TIME_CALL, M_CYCLES_CALL, M_TIME_EVENT, M_EVENTS_CALL, M_EVENTS_SEC,
};

static const struct metric_def epoll_wait_metrics[] = {
	[M_TIME_CALL] = WL_METRIC_TIME_CALL("wall time per epoll_wait call"),
	[M_CYCLES_CALL] = WL_METRIC_CYCLES_CALL,
	[M_TIME_EVENT] = { .name = "time/event", .kind = METRIC_CUSTOM,
			   .dir = METRIC_LOWER_BETTER, .unit = "ns",
			   .help = "wall time per event delivered (window / "
				   "events returned)" },
	[M_EVENTS_CALL] = { .name = "events/call", .kind = METRIC_CUSTOM,
			    .dir = METRIC_INFO, .unit = "count",
			    .help = "events returned per call" },
	[M_EVENTS_SEC] = { .name = "events/s", .kind = METRIC_CUSTOM,
			   .dir = METRIC_HIGHER_BETTER, .unit = "ops/s",
			   .help = "events delivered per second" },
};

/* Coordinator state. */
struct epoll_wait_state {
	int epfd;
	int *fd;		/* fds sources (pipe: the read ends) */
	int *wfd;		/* source=pipe: the write ends */
	int nfds;
	int maxevents;
	int expect;		/* events every call must return */
};

/* Descriptors a configuration needs, with the program's own. */
static size_t fds_needed(const struct epoll_wait_params *pp)
{
	size_t n = (size_t)pp->fds;

	if (pp->source == SOURCE_PIPE)
		n *= 2;
	return n + 1 + FDLIMIT_SLACK;	/* + the epoll instance */
}

static int raise_limit(const struct epoll_wait_params *pp, char *err,
		       size_t len)
{
	char what[96];

	snprintf(what, sizeof(what), "fds=%lld with source=%s",
		 (long long)pp->fds, source_choices[pp->source]);
	return fdlimit_ensure(fds_needed(pp), what, err, len);
}

/* Before any measuring: room for the descriptors under RLIMIT_NOFILE. */
static int epoll_wait_validate(const void *params, char *err, size_t len)
{
	return raise_limit(params, err, len) ? WL_EUSAGE : WL_OK;
}

static void epoll_wait_teardown(struct wl_ctx *ctx)
{
	struct epoll_wait_state *st = ctx->priv;
	int i;

	if (!st)
		return;
	for (i = 0; i < st->nfds; i++) {
		close(st->fd[i]);
		if (st->wfd)
			close(st->wfd[i]);
	}
	if (st->epfd >= 0)
		close(st->epfd);
	free(st->fd);
	free(st->wfd);
	free(st);
	ctx->priv = NULL;
}

/* Open source i, make it ready and add it to the epoll set. */
static int add_source(struct epoll_wait_state *st, int i, int source,
		      char *err, size_t len)
{
	struct epoll_event ev;
	int p[2];

	if (source == SOURCE_EVENTFD) {
		p[0] = eventfd(1, EFD_CLOEXEC | EFD_NONBLOCK);
		if (p[0] < 0) {
			snprintf(err, len, "eventfd (source %d): %s", i,
				 strerror(errno));
			return -1;
		}
	} else {
		if (pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0) {
			snprintf(err, len, "pipe2 (source %d): %s", i,
				 strerror(errno));
			return -1;
		}
		st->wfd[i] = p[1];
	}
	st->fd[i] = p[0];
	st->nfds = i + 1;
	if (source == SOURCE_PIPE && write(p[1], "x", 1) != 1) {
		snprintf(err, len, "write to pipe (source %d): %s", i,
			 strerror(errno));
		return -1;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.u32 = (uint32_t)i;
	if (epoll_ctl(st->epfd, EPOLL_CTL_ADD, p[0], &ev) != 0) {
		if (errno == ENOSPC)
			snprintf(err, len, "epoll_ctl(ADD, source %d): %s: "
				 "over fs.epoll.max_user_watches", i,
				 strerror(errno));
		else
			snprintf(err, len, "epoll_ctl(ADD, source %d): %s", i,
				 strerror(errno));
		return -1;
	}
	return 0;
}

static int epoll_wait_open(struct wl_ctx *ctx, struct epoll_wait_state *st)
{
	const struct epoll_wait_params *pp = ctx->params;
	int source = pp->source;
	int i, nfds = (int)pp->fds;

	st->maxevents = (int)pp->maxevents;
	st->expect = st->maxevents < nfds ? st->maxevents : nfds;
	/* validate() raised the limit already; this only matters when
	   something lowered it since. */
	if (raise_limit(pp, ctx->err, sizeof(ctx->err)) != 0)
		return WL_EUSAGE;
	st->fd = calloc((size_t)nfds, sizeof(int));
	if (source == SOURCE_PIPE)
		st->wfd = calloc((size_t)nfds, sizeof(int));
	if (!st->fd || (source == SOURCE_PIPE && !st->wfd)) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	st->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (st->epfd < 0) {
		snprintf(ctx->err, sizeof(ctx->err), "epoll_create1: %s",
			 strerror(errno));
		return WL_EFAIL;
	}
	for (i = 0; i < nfds; i++)
		if (add_source(st, i, source, ctx->err, sizeof(ctx->err)))
			return WL_EFAIL;
	return WL_OK;
}

static int epoll_wait_setup(struct wl_ctx *ctx)
{
	struct epoll_wait_state *st = calloc(1, sizeof(*st));
	int rc;

	if (!st) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	ctx->priv = st;
	st->epfd = -1;
	rc = epoll_wait_open(ctx, st);
	if (rc != WL_OK) {
		/* The core calls teardown() only after a setup() that
		   succeeded. */
		epoll_wait_teardown(ctx);
		return rc;
	}
	ctx->nworkers = 1;
	ctx->worker_name[0] = "waiter";
	ctx->hist_worker = 0;
	return WL_OK;
}

static int epoll_wait_worker_init(struct wl_worker *w)
{
	struct epoll_wait_state *st = w->ctx->priv;
	struct epoll_event *evs = calloc((size_t)st->maxevents, sizeof(*evs));

	if (!evs) {
		snprintf(w->err, WL_ERR_LEN, "out of memory (%d events)",
			 st->maxevents);
		return WL_EFAIL;
	}
	/* calloc'ed pages are touched now, not in the first sample. */
	memset(evs, 0xff, (size_t)st->maxevents * sizeof(*evs));
	w->priv = evs;
	return WL_OK;
}

static int epoll_wait_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct epoll_wait_state *st = w->ctx->priv;
	struct epoll_event *evs = w->priv;
	uint64_t i;

	for (i = 0; i < nops; i++) {
		int n = epoll_wait(st->epfd, evs, st->maxevents, 0);

		if (n != st->expect) {
			if (n < 0)
				snprintf(w->err, WL_ERR_LEN, "epoll_wait: %s",
					 strerror(errno));
			else
				snprintf(w->err, WL_ERR_LEN, "epoll_wait "
					 "returned %d events, expected %d: a "
					 "source stopped being ready", n,
					 st->expect);
			return WL_EFAIL;
		}
	}
	return 0;
}

static void epoll_wait_worker_fini(struct wl_worker *w)
{
	free(w->priv);
	w->priv = NULL;
}

/*
 * Every call of a batch returned exactly st->expect events (run_batch()
 * fails the run otherwise), so the events of a sample are nops x expect:
 * nothing is counted inside the timed loop.
 */
static double epoll_wait_sample_metric(struct wl_ctx *ctx, size_t m,
				       const struct wl_sample *s)
{
	const struct epoll_wait_state *st = ctx->priv;
	double ev = (double)s->nops * (double)st->expect;

	if (ev <= 0 || s->nops == 0)
		return 0.0;
	switch (m) {
	case M_TIME_EVENT:
		return s->window_ns / ev;
	case M_EVENTS_CALL:
		return ev / (double)s->nops;
	case M_EVENTS_SEC:
		return ev / (s->window_ns / 1e9);
	default:
		return 0.0;
	}
}

const struct workload wl_epoll_wait = {
	.name = "epoll.wait",
	.summary = "epoll_wait over always-ready sources: cost per call "
		   "and per event",
	.op = "one epoll_wait(maxevents, timeout 0): min(fds, maxevents) "
	      "events",
	.not_measured = "creating, filling and adding the sources; handling "
			"the events after the call; sleeping and wake-ups "
			"(the timeout is 0 and every source is always ready)",
	.params = epoll_wait_param_defs,
	.nparams = ARRAY_SIZE(epoll_wait_param_defs),
	.params_size = sizeof(struct epoll_wait_params),
	.metrics = epoll_wait_metrics,
	.nmetrics = ARRAY_SIZE(epoll_wait_metrics),
	.validate = epoll_wait_validate,
	.setup = epoll_wait_setup,
	.worker_init = epoll_wait_worker_init,
	.run_batch = epoll_wait_run_batch,
	.worker_fini = epoll_wait_worker_fini,
	.sample_metric = epoll_wait_sample_metric,
	.teardown = epoll_wait_teardown,
};
