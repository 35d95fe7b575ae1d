/*
 * pipe_lat.c - pipe.lat: ping-pong round trips over two pipes.
 *
 * One op: one round trip.  The ping worker writes `size` bytes into pipe A
 * and reads `size` bytes back from pipe B; the pong worker reads them from
 * A and writes them into B.  The ping worker is op-timed: the core reads
 * the clock around every round trip, so the metrics are the mean and the
 * percentiles of individual round trips, not a batch average.  Each
 * round-trip time includes the two wake-ups (or, with place=same, the two
 * context switches on one CPU), four system calls, the copies in and out
 * of both pipes, and one clock-read pair (tens of ns; `copyscope env`
 * prints the timer overhead).
 * Not measured: pipe creation, fork/thread start, buffer allocation and
 * prefaulting; with verify=1 the byte check runs in a separate untimed
 * pass after the kept samples.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/common_params.h"
#include "util/array.h"
#include "workloads/pattern.h"
#include "workloads/wl_util.h"
#include "workloads/pipe_common.h"
#include "workloads/workloads.h"

enum { PING, PONG };

#define PIPE_LAT_MAX_MSG (1LL << 20)

/* The parameters, bound by the core (ctx->params). */
struct pipe_lat_params {
	int64_t size, pipe_size;
	int mode, place;
	bool verify;
};

static const struct param_def pipe_lat_param_defs[] = {
	{ .name = "size", .type = PARAM_SIZE, .def = "1", .min = 1,
	  .max = PIPE_LAT_MAX_MSG,
	  .help = "bytes sent each way per round trip",
	  PARAM_FIELD(struct pipe_lat_params, size) },
	WL_PARAM_PIPE_SIZE(struct pipe_lat_params, pipe_size, "0"),
	WL_PARAM_MODE(struct pipe_lat_params, mode, "proc"),
	WL_PARAM_PLACE(struct pipe_lat_params, place),
	WL_PARAM_VERIFY(struct pipe_lat_params, verify),
};

static const struct metric_def pipe_lat_metrics[] = {
	{ .name = "rtt mean", .kind = METRIC_OP_MEAN,
	  .dir = METRIC_LOWER_BETTER, .op_class = -1,
	  .help = "mean of the timed round trips" },
	{ .name = "rtt p50", .kind = METRIC_OP_PCT,
	  .dir = METRIC_LOWER_BETTER, .pct = 50, .op_class = -1,
	  .help = "median round trip" },
	{ .name = "rtt p99", .kind = METRIC_OP_PCT,
	  .dir = METRIC_LOWER_BETTER, .pct = 99, .op_class = -1,
	  .help = "99th percentile round trip" },
	{ .name = "rtt p99.9", .kind = METRIC_OP_PCT,
	  .dir = METRIC_LOWER_BETTER, .pct = 99.9, .op_class = -1,
	  .help = "99.9th percentile round trip" },
	{ .name = "rtt max", .kind = METRIC_OP_PCT,
	  .dir = METRIC_LOWER_BETTER, .pct = 100, .op_class = -1,
	  .help = "slowest round trip of the sample (exact)" },
};

/* Coordinator state, inherited by forked workers. */
struct pipe_lat {
	int a[2];			/* ping -> pong */
	int b[2];			/* pong -> ping */
	size_t size;
	long pipe_bytes;
	bool verify;
};

/* What ping found in the verify pass (in ctx->shared). */
struct pipe_lat_shared {
	struct pattern_errors errs;
	uint64_t round_trips;
};

struct pipe_lat_worker {
	uint8_t *buf;			/* size bytes */
	uint8_t *scratch;		/* verify: size bytes */
};

/* Before any measuring: can this pipe size be had? */
static int pipe_lat_validate(const void *params, char *err, size_t len)
{
	const struct pipe_lat_params *pp = params;

	return pipe_check_size(pp->pipe_size, err, len);
}

static int pipe_lat_setup(struct wl_ctx *ctx)
{
	const struct pipe_lat_params *pp = ctx->params;
	struct pipe_lat *p = calloc(1, sizeof(*p));
	int64_t want = pp->pipe_size;
	long b_bytes;
	int rc;

	if (!p) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	ctx->priv = p;
	p->a[0] = p->a[1] = p->b[0] = p->b[1] = -1;
	p->size = (size_t)pp->size;
	p->verify = pp->verify;
	rc = pipe_open(p->a, want, &p->pipe_bytes, ctx->err,
		       sizeof(ctx->err));
	if (rc == WL_OK)
		rc = pipe_open(p->b, want, &b_bytes, ctx->err,
			       sizeof(ctx->err));
	if (rc != WL_OK)
		return rc;
	ctx->nworkers = 2;
	ctx->worker_name[PING] = "ping";
	ctx->worker_name[PONG] = "pong";
	ctx->op_timed[PING] = true;
	ctx->nclasses = 1;
	ctx->class_name[0] = "round trip";
	ctx->hist_worker = PING;
	ctx->bytes_per_op = 2.0 * (double)p->size;
	ctx->shared_bytes = sizeof(struct pipe_lat_shared);
	snprintf(ctx->note, sizeof(ctx->note), "pipe capacity %ld bytes each "
		 "way%s", p->pipe_bytes, want ? "" : " (kernel default)");
	return WL_OK;
}

static int pipe_lat_worker_init(struct wl_worker *w)
{
	struct pipe_lat *p = w->ctx->priv;
	struct pipe_lat_worker *s = calloc(1, sizeof(*s));

	if (!s)
		goto oom;
	w->priv = s;
	s->buf = wl_alloc_buf(p->size, 0x5a);
	if (!s->buf)
		goto oom;
	if (p->verify && w->idx == PING) {
		s->scratch = wl_alloc_buf(p->size, 0x5a);
		if (!s->scratch)
			goto oom;
	}
	return 0;
oom:
	snprintf(w->err, WL_ERR_LEN, "cannot allocate buffers of %zu bytes",
		 p->size);
	return WL_EFAIL;
}

/* Read exactly len bytes from fd. */
static int read_all(struct wl_worker *w, int fd, uint8_t *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = pipe_read_once(fd, buf, len, "unexpected end of "
					   "file: the other side closed its "
					   "pipe", w->err);

		if (n < 0)
			return WL_EFAIL;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* pong: echo nops messages from A back into B. */
static int echo(struct wl_worker *w, uint64_t nops)
{
	struct pipe_lat *p = w->ctx->priv;
	struct pipe_lat_worker *s = w->priv;
	uint64_t i;

	for (i = 0; i < nops; i++)
		if (read_all(w, p->a[0], s->buf, p->size) != 0 ||
		    wl_write_all(p->b[1], s->buf, p->size, w->err) != 0)
			return WL_EFAIL;
	return 0;
}

static int pipe_lat_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct pipe_lat *p = w->ctx->priv;
	struct pipe_lat_worker *s = w->priv;
	uint64_t i;

	if (w->idx == PONG)
		return echo(w, nops);
	for (i = 0; i < nops; i++)
		if (wl_write_all(p->a[1], s->buf, p->size, w->err) != 0 ||
		    read_all(w, p->b[0], s->buf, p->size) != 0)
			return WL_EFAIL;
	return 0;
}

/* Untimed: ping sends the pattern stream and checks what comes back. */
static int pipe_lat_verify_batch(struct wl_worker *w, uint64_t nops)
{
	struct pipe_lat *p = w->ctx->priv;
	struct pipe_lat_worker *s = w->priv;
	struct pipe_lat_shared *sh = w->ctx->shared;
	uint64_t i, pos = 0;

	if (w->idx == PONG)
		return echo(w, nops);
	memset(sh, 0, sizeof(*sh));
	for (i = 0; i < nops; i++, pos += p->size) {
		pattern_fill(s->buf, p->size, pos);
		if (wl_write_all(p->a[1], s->buf, p->size, w->err) != 0)
			return WL_EFAIL;
		/* what comes back must not be what we still hold */
		memset(s->buf, 0, p->size);
		if (read_all(w, p->b[0], s->buf, p->size) != 0)
			return WL_EFAIL;
		pattern_check(s->buf, p->size, pos, s->scratch, &sh->errs);
	}
	sh->round_trips = nops;
	return 0;
}

static long pipe_lat_verify(struct wl_ctx *ctx, char *buf, size_t len)
{
	const struct pipe_lat_shared *sh = ctx->shared;

	return pattern_report(&sh->errs, sh->round_trips,
			      "round trips checked end to end", buf, len);
}

static void pipe_lat_worker_fini(struct wl_worker *w)
{
	struct pipe_lat *p = w->ctx->priv;
	struct pipe_lat_worker *s = w->priv;

	if (!s)
		return;
	wl_free_buf(s->buf, p->size);
	wl_free_buf(s->scratch, p->size);
	free(s);
	w->priv = NULL;
}

static void pipe_lat_teardown(struct wl_ctx *ctx)
{
	struct pipe_lat *p = ctx->priv;

	if (!p)
		return;
	pipe_close(p->a);
	pipe_close(p->b);
	free(p);
	ctx->priv = NULL;
}

const struct workload wl_pipe_lat = {
	.name = "pipe.lat",
	.summary = "ping-pong over two pipes: round-trip time and its "
		   "percentiles",
	.op = "one round trip: size bytes to the pong worker and back",
	.not_measured = "pipe creation, fork, buffer allocation; the verify "
			"pass; each round trip includes one clock-read pair",
	.params = pipe_lat_param_defs,
	.nparams = ARRAY_SIZE(pipe_lat_param_defs),
	.params_size = sizeof(struct pipe_lat_params),
	.metrics = pipe_lat_metrics,
	.nmetrics = ARRAY_SIZE(pipe_lat_metrics),
	.validate = pipe_lat_validate,
	.setup = pipe_lat_setup,
	.worker_init = pipe_lat_worker_init,
	.run_batch = pipe_lat_run_batch,
	.verify_batch = pipe_lat_verify_batch,
	.verify = pipe_lat_verify,
	.worker_fini = pipe_lat_worker_fini,
	.teardown = pipe_lat_teardown,
	.caps = WL_CAP_VERIFY,
};
