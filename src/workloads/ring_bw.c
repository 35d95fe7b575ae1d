/*
 * ring_bw.c - ring.bw: pipe.bw with no kernel in the data path, the upper
 * bound pipes are held against.
 *
 * One writer and one reader share a byte ring (ring.c) in the MAP_SHARED
 * anonymous memory the runner maps before fork (so the same code serves
 * processes and threads).  One op: one message of `size` bytes copied into
 * the ring by the writer (memcpy, in chunks of at most 4 KiB or a quarter
 * of the ring, publishing head after each) and copied out by the reader in
 * reads of up to `rsize` bytes: two copies, like a pipe's copy_from_user
 * and copy_to_user.  When the ring is empty or full the waiting side spins
 * `spin` times (pause; the default 1000 is tens of microseconds, about
 * what a futex wake-up costs on a virtual machine) and then sleeps on a
 * futex; the other side wakes it only if it announced it may sleep, so
 * while both keep up no system call is made.  The sample window runs from
 * the first side starting its batch to the reader holding the last byte:
 * bandwidth is bytes delivered per second of wall time.
 * Not measured: ring and buffer allocation, fork/thread start, the verify
 * pass (every byte checked against the pattern stream, untimed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common_metrics.h"
#include "core/common_params.h"
#include "util/array.h"
#include "workloads/pattern.h"
#include "workloads/ring.h"
#include "workloads/wl_util.h"
#include "workloads/workloads.h"

enum { WRITER, READER };

#define RING_BW_MAX_MSG (256LL << 20)
#define RING_BW_DEFAULT_CAP 65536	/* a default pipe: 16 pages of 4 KiB */
/*
 * Publish head and tail every page (a pipe buffer's unit), or every
 * quarter of a smaller ring so that the two copies still overlap.
 */
#define RING_BW_CHUNK 4096

/* The parameters, bound by the core (ctx->params). */
struct ring_bw_params {
	int64_t size, rsize, pipe_size, spin;
	int mode, place;
	bool verify;
};

static const struct param_def ring_bw_param_defs[] = {
	{ .name = "size", .type = PARAM_SIZE, .def = "64k", .min = 1,
	  .max = RING_BW_MAX_MSG, .help = "bytes per write (one op)",
	  PARAM_FIELD(struct ring_bw_params, size) },
	{ .name = "rsize", .type = PARAM_SIZE, .def = "0", .min = 0,
	  .max = RING_BW_MAX_MSG,
	  .help = "bytes per read (0: same as size)",
	  PARAM_FIELD(struct ring_bw_params, rsize) },
	/* named as pipe.bw's (a sweep applies to both), but not a pipe */
	{ .name = "pipe_size", .type = PARAM_SIZE, .def = "0", .min = 0,
	  .max = 1LL << 30,
	  .help = "ring capacity in bytes (0: 64k, a default pipe's)",
	  PARAM_FIELD(struct ring_bw_params, pipe_size) },
	WL_PARAM_MODE(struct ring_bw_params, mode, "proc"),
	WL_PARAM_PLACE(struct ring_bw_params, place),
	{ .name = "spin", .type = PARAM_INT, .def = "1000", .min = 0,
	  .max = 100000000,
	  .help = "empty/full checks (with pause) before a futex sleep "
		  "(0 when both sides share one CPU)",
	  PARAM_FIELD(struct ring_bw_params, spin) },
	WL_PARAM_VERIFY(struct ring_bw_params, verify),
};

static const struct metric_def ring_bw_metrics[] = {
	WL_METRIC_BANDWIDTH("bytes delivered to the reader per second"),
	{ .name = "time/write", .kind = METRIC_NS_PER_OP,
	  .dir = METRIC_LOWER_BETTER,
	  .help = "wall time per message of size bytes" },
};

/* Coordinator state, inherited by forked workers. */
struct ring_bw {
	size_t size, rsize, cap, chunk;
	unsigned spin;
	bool verify, procs;
};

/* The shared area: what the reader found in the verify pass, the ring. */
struct ring_bw_shared {
	struct pattern_errors errs;
	uint64_t msgs;
	_Alignas(RING_CACHELINE) uint8_t ring[];
};

struct ring_bw_worker {
	struct ring_port port;
	uint8_t *buf;
	size_t buf_len;
	uint8_t *scratch;
};

static int ring_bw_setup(struct wl_ctx *ctx)
{
	const struct ring_bw_params *pp = ctx->params;
	struct ring_bw *p = calloc(1, sizeof(*p));
	bool one_cpu;
	size_t used;

	if (!p) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	ctx->priv = p;
	p->size = (size_t)pp->size;
	p->rsize = pp->rsize ? (size_t)pp->rsize : p->size;
	p->cap = pp->pipe_size ? (size_t)pp->pipe_size : RING_BW_DEFAULT_CAP;
	p->chunk = p->cap / 4 < RING_BW_CHUNK ? p->cap / 4 : RING_BW_CHUNK;
	if (p->chunk == 0)
		p->chunk = 1;
	p->spin = (unsigned)pp->spin;
	p->verify = pp->verify;
	p->procs = ctx->mode == WL_MODE_PROC;
	ctx->nworkers = 2;
	ctx->worker_name[WRITER] = "writer";
	ctx->worker_name[READER] = "reader";
	ctx->bytes_per_op = (double)p->size;
	ctx->hist_worker = WRITER;
	ctx->shared_bytes = sizeof(struct ring_bw_shared) +
			    ring_mem_bytes(p->cap);
	/*
	 * Placed here, not by the core after setup: on one CPU (place=same,
	 * or split over a single allowed CPU) the other side cannot run
	 * while this one spins.
	 */
	wl_place_workers(ctx, (enum wl_place)pp->place);
	one_cpu = ctx->worker_cpu[WRITER] >= 0 &&
		  ctx->worker_cpu[WRITER] == ctx->worker_cpu[READER];
	if (one_cpu)
		p->spin = 0;
	used = strlen(ctx->note);
	snprintf(ctx->note + used, sizeof(ctx->note) - used, "%sring capacity "
		 "%zu bytes%s, published every %zu bytes%s", used ? "; " : "",
		 p->cap, pp->pipe_size ? "" : " (a default pipe's)", p->chunk,
		 one_cpu ? "; writer and reader on one CPU: no spinning, sleep "
		 "at once" : "");
	return WL_OK;
}

static int ring_bw_worker_init(struct wl_worker *w)
{
	struct ring_bw *p = w->ctx->priv;
	struct ring_bw_shared *sh = w->ctx->shared;
	struct ring_bw_worker *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(w->err, WL_ERR_LEN, "out of memory");
		return WL_EFAIL;
	}
	w->priv = s;
	ring_port_init(&s->port, sh->ring, p->cap, p->chunk, p->spin,
		       p->procs);
	s->buf_len = w->idx == WRITER ? p->size : p->rsize;
	s->buf = wl_alloc_buf(s->buf_len, 0xa5);
	if (p->verify && s->buf)
		s->scratch = wl_alloc_buf(s->buf_len, 0xa5);
	if (!s->buf || (p->verify && !s->scratch)) {
		snprintf(w->err, WL_ERR_LEN, "mmap of %zu bytes: %s",
			 s->buf_len, strerror(errno));
		return WL_EFAIL;
	}
	if (w->idx == WRITER) {
		/* Prefault the ring's pages from this side too. */
		volatile uint8_t *d = sh->ring;
		size_t i, n = ring_mem_bytes(p->cap);

		for (i = 0; i < n; i += 4096)
			(void)d[i];
	}
	return WL_OK;
}

static int ring_bw_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct ring_bw *p = w->ctx->priv;
	struct ring_bw_worker *s = w->priv;
	uint64_t i, left;

	if (w->idx == WRITER) {
		for (i = 0; i < nops; i++)
			if (ring_write(&s->port, s->buf, p->size) != 0)
				goto closed;
		return WL_OK;
	}
	for (left = nops * p->size; left > 0;) {
		size_t want = left < p->rsize ? (size_t)left : p->rsize;
		ssize_t n = ring_read(&s->port, s->buf, want);

		if (n <= 0)
			goto closed;
		left -= (uint64_t)n;
	}
	return WL_OK;
closed:
	snprintf(w->err, WL_ERR_LEN, "the ring was closed by the other side");
	return WL_EFAIL;
}

static int ring_bw_verify_batch(struct wl_worker *w, uint64_t nops)
{
	struct ring_bw *p = w->ctx->priv;
	struct ring_bw_worker *s = w->priv;
	struct ring_bw_shared *sh = w->ctx->shared;
	uint64_t i, pos = 0, total = nops * p->size;

	if (w->idx == WRITER) {
		for (i = 0; i < nops; i++, pos += p->size) {
			pattern_fill(s->buf, p->size, pos);
			if (ring_write(&s->port, s->buf, p->size) != 0)
				goto closed;
		}
		return WL_OK;
	}
	memset(&sh->errs, 0, sizeof(sh->errs));
	while (pos < total) {
		size_t want = total - pos < p->rsize ? (size_t)(total - pos)
						     : p->rsize;
		ssize_t n = ring_read(&s->port, s->buf, want);

		if (n <= 0)
			goto closed;
		pattern_check(s->buf, (size_t)n, pos, s->scratch, &sh->errs);
		pos += (uint64_t)n;
	}
	sh->msgs = nops;
	return WL_OK;
closed:
	snprintf(w->err, WL_ERR_LEN, "the ring was closed by the other side");
	return WL_EFAIL;
}

static long ring_bw_verify(struct wl_ctx *ctx, char *buf, size_t len)
{
	const struct ring_bw_shared *sh = ctx->shared;

	return pattern_report(&sh->errs, sh->msgs, "writes checked", buf,
			      len);
}

static void ring_bw_worker_fini(struct wl_worker *w)
{
	struct ring_bw_worker *s = w->priv;

	if (!s)
		return;
	/* A side that stops early must not leave the other asleep. */
	ring_close(&s->port);
	wl_free_buf(s->buf, s->buf_len);
	wl_free_buf(s->scratch, s->buf_len);
	free(s);
	w->priv = NULL;
}

static void ring_bw_teardown(struct wl_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

const struct workload wl_ring_bw = {
	.name = "ring.bw",
	.summary = "pipe.bw through a shared-memory ring with futex "
		   "wake-ups: no kernel in the data path",
	.op = "one write of size bytes into the ring, drained by reads of "
	      "rsize bytes (two copies)",
	.not_measured = "ring and buffer allocation, fork; the verify pass",
	.params = ring_bw_param_defs,
	.nparams = ARRAY_SIZE(ring_bw_param_defs),
	.params_size = sizeof(struct ring_bw_params),
	.metrics = ring_bw_metrics,
	.nmetrics = ARRAY_SIZE(ring_bw_metrics),
	.setup = ring_bw_setup,
	.worker_init = ring_bw_worker_init,
	.run_batch = ring_bw_run_batch,
	.verify_batch = ring_bw_verify_batch,
	.verify = ring_bw_verify,
	.worker_fini = ring_bw_worker_fini,
	.teardown = ring_bw_teardown,
	.caps = WL_CAP_VERIFY,
};
