/*
 * pipe_matrix.c - pipe.matrix: W writers and R readers on ONE pipe (E2,
 * the kernel's pipe N x M discussions; threads by default, as in the
 * kernel's pipe_bench selftest).
 *
 * One op: one write(2) of `size` bytes by one writer.  In a sample every
 * writer makes nops writes; the readers read(2) `rsize` bytes at a time,
 * free for all, until together they hold every byte written
 * (W * nops * size).  The reader whose read brings the shared count to
 * that total ends the sample: it writes one stop byte for each other
 * reader into the now empty pipe (one write() of R - 1 bytes) and
 * returns; the others, blocked in read() or about to be, each take one
 * (see reader_batch()) and return WL_IDLE_END, so their end times do not
 * count.  The sample window is one shared wall-clock window, from the
 * first worker starting to the last byte read (and the last write
 * returned), so the bandwidth is W * nops * size / window, never a sum of
 * per-worker rates.  Writers are op-timed: the core times every write()
 * one by one (two clock reads each), which gives the merged and the
 * per-writer latency percentiles.
 * Inside the window besides the reads: after each read a reader makes one
 * atomic add to the byte count all readers share (with several readers
 * its cache line moves between their CPUs) and loads done_gen.
 * Not measured: pipe creation, thread/process start, buffer allocation
 * and prefaulting; the verify pass (verify=1) runs after the kept samples,
 * untimed; of the stop bytes only the one write() that sends them is
 * inside the window, not the other readers' waking up.  With pressure=vm
 * a stress-ng vm stressor runs alongside; it is started before and
 * stopped after the configuration.
 */
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/common_metrics.h"
#include "core/common_params.h"
#include "util/array.h"
#include "util/process.h"
#include "workloads/record.h"
#include "workloads/wl_util.h"
#include "workloads/pipe_common.h"
#include "workloads/pipe_matrix_pressure.h"
#include "workloads/workloads.h"

static const char *const pressure_choices[] = { "none", "vm", NULL };

enum { PRESSURE_NONE, PRESSURE_VM };

#define PM_MAX_MSG (64LL << 20)
/* Records per writer in the verify pass, at most (bitmap: 128 KiB each). */
#define PM_VERIFY_MAX_SEQ (UINT64_C(1) << 20)

/* The parameters, bound by the core (ctx->params). */
struct pipe_matrix_params {
	int64_t writers, readers, size, rsize, pipe_size, vm_pct;
	int mode, place, pressure;
	bool verify;
};

static const struct param_def pipe_matrix_param_defs[] = {
	{ .name = "writers", .type = PARAM_INT, .def = "1", .min = 1,
	  .max = WL_MAX_WORKERS - 1, .help = "writer threads or processes",
	  PARAM_FIELD(struct pipe_matrix_params, writers) },
	{ .name = "readers", .type = PARAM_INT, .def = "1", .min = 1,
	  .max = WL_MAX_WORKERS - 1, .help = "reader threads or processes",
	  PARAM_FIELD(struct pipe_matrix_params, readers) },
	{ .name = "size", .type = PARAM_SIZE, .def = "64k", .min = 1,
	  .max = PM_MAX_MSG, .help = "bytes per write (one op)",
	  PARAM_FIELD(struct pipe_matrix_params, size) },
	{ .name = "rsize", .type = PARAM_SIZE, .def = "64k", .min = 1,
	  .max = PM_MAX_MSG, .help = "bytes per read",
	  PARAM_FIELD(struct pipe_matrix_params, rsize) },
	WL_PARAM_PIPE_SIZE(struct pipe_matrix_params, pipe_size, "1M"),
	WL_PARAM_MODE(struct pipe_matrix_params, mode, "thread"),
	/* split takes the CPUs in turn, writers first */
	WL_PARAM_PLACE(struct pipe_matrix_params, place),
	WL_PARAM_VERIFY(struct pipe_matrix_params, verify),
	{ .name = "pressure", .type = PARAM_ENUM, .def = "none",
	  .choices = pressure_choices,
	  .help = "vm: run stress-ng's vm stressor alongside",
	  PARAM_FIELD(struct pipe_matrix_params, pressure) },
	{ .name = "vm_pct", .type = PARAM_INT, .def = "50", .min = 1,
	  .max = 90,
	  .help = "pressure=vm: percent of MemAvailable the stressor takes",
	  PARAM_FIELD(struct pipe_matrix_params, vm_pct) },
};

enum {
	M_BANDWIDTH,
	M_WRITE_MEAN,
	M_WRITE_P50,
	M_WRITE_P99,
	M_WRITE_MAX,
	M_FAIRNESS,
	M_MINMAX,
	M_CTXSW,
};

static const struct metric_def pipe_matrix_metrics[] = {
	[M_BANDWIDTH] = WL_METRIC_BANDWIDTH("bytes through the pipe per "
		"second of the shared window"),
	[M_WRITE_MEAN] = { .name = "write mean", .kind = METRIC_OP_MEAN,
	  .dir = METRIC_LOWER_BETTER, .op_class = -1,
	  .help = "mean time in one write() call, all writers" },
	[M_WRITE_P50] = { .name = "write p50", .kind = METRIC_OP_PCT,
	  .dir = METRIC_LOWER_BETTER, .pct = 50, .op_class = -1,
	  .help = "median time in one write() call, all writers" },
	[M_WRITE_P99] = { .name = "write p99", .kind = METRIC_OP_PCT,
	  .dir = METRIC_LOWER_BETTER, .pct = 99, .op_class = -1,
	  .help = "99th percentile of one write(), all writers" },
	[M_WRITE_MAX] = { .name = "write max", .kind = METRIC_OP_PCT,
	  .dir = METRIC_LOWER_BETTER, .pct = 100, .op_class = -1,
	  .help = "longest write() of the sample" },
	[M_FAIRNESS] = { .name = "fairness", .kind = METRIC_CUSTOM,
	  .dir = METRIC_HIGHER_BETTER, .unit = "ratio",
	  .help = "Jain's index over bytes per reader (1: equal shares)" },
	[M_MINMAX] = { .name = "min/max rd", .kind = METRIC_CUSTOM,
	  .dir = METRIC_HIGHER_BETTER, .unit = "ratio",
	  .help = "least bytes any reader got over the most" },
	[M_CTXSW] = { .name = "ctxsw/MiB", .kind = METRIC_CUSTOM,
	  .dir = METRIC_INFO, .unit = "count",
	  .help = "context switches of all workers per MiB (-1: n/a)" },
};

/* Coordinator state, inherited by forked workers. */
struct pm {
	int fd[2];
	int writers, readers;
	size_t size, rsize;
	long pipe_bytes;
	bool verify;
	size_t seen_off;		/* offset of the bitmap in shared */
	pid_t stress_pid;		/* pressure=vm, 0: none */
	char names[WL_MAX_WORKERS][16];
};

/* A 64-bit counter alone on its cache line. */
struct pm_line {
	_Atomic uint64_t v;
} __attribute__((aligned(64)));

/* One reader's slot in the shared area. */
struct pm_reader_slot {
	_Atomic uint64_t bytes;		/* read in the current batch */
	struct record_counts counts;	/* verify pass */
} __attribute__((aligned(64)));

/*
 * Per-sample state shared by all workers.  Batches are numbered by every
 * reader alike (gen: the count of batches it has run, from 1), so nothing
 * needs resetting between samples: batch g uses consumed[g & 1], which the
 * reader ending batch g - 1 zeroed while no one could use it; batch g is
 * over when done_gen == g.
 */
struct pm_shared {
	struct pm_line consumed[2];
	struct pm_line done_gen;
	uint64_t verify_nseq;		/* records per writer in verify */
	struct pm_reader_slot reader[WL_MAX_WORKERS];
	/* the verify bitmap follows, at struct pm's seen_off */
};

struct pm_worker {
	uint8_t *buf;
	size_t buf_len;
	uint32_t gen;			/* readers: batches run */
};

/*
 * Several writers: only writes of at most PIPE_BUF bytes are atomic, so a
 * larger record may be interleaved with another writer's.  Several
 * readers: a read must end on a record boundary, or a record's pieces go
 * to two readers; with atomic writes the pipe only ever holds whole
 * records, so reads of a multiple of the record size always do.
 */
static int check_verify(const struct pipe_matrix_params *pp, char *err,
			size_t len)
{
	int64_t w = pp->writers, r = pp->readers;
	int64_t size = pp->size, rsize = pp->rsize;

	if (size < RECORD_HDR_BYTES) {
		snprintf(err, len, "verify=1 needs size >= %d: a record "
			 "carries a %d-byte header {writer, sequence, length, "
			 "checksum}", RECORD_HDR_BYTES, RECORD_HDR_BYTES);
		return WL_EUSAGE;
	}
	if ((w > 1 || r > 1) && size > PIPE_BUF) {
		snprintf(err, len, "verify=1 with %lld writer%s and %lld "
			 "reader%s needs size <= %d (PIPE_BUF), not %lld: the "
			 "kernel keeps a write whole only up to PIPE_BUF "
			 "bytes, so a larger record may be %s and could not "
			 "be checked; use size=4k or less",
			 (long long)w, w == 1 ? "" : "s", (long long)r,
			 r == 1 ? "" : "s", PIPE_BUF, (long long)size,
			 w > 1 ? "interleaved with another writer's"
			       : "split between two readers");
		return WL_EUSAGE;
	}
	if (r > 1 && rsize % size != 0) {
		snprintf(err, len, "verify=1 with %lld readers needs rsize "
			 "to be a multiple of size (%lld), not %lld: a read "
			 "that ends inside a record leaves its pieces with "
			 "two readers", (long long)r, (long long)size,
			 (long long)rsize);
		return WL_EUSAGE;
	}
	return WL_OK;
}

/* Before any measuring: worker count, verify rules, pipe size, stressor. */
static int pipe_matrix_validate(const void *params, char *err, size_t len)
{
	const struct pipe_matrix_params *pp = params;
	int64_t w = pp->writers, r = pp->readers;
	char path[PATH_MAX];
	int rc;

	if (w + r > WL_MAX_WORKERS) {
		snprintf(err, len, "writers + readers is %lld; at most %d "
			 "workers", (long long)w + (long long)r,
			 WL_MAX_WORKERS);
		return WL_EUSAGE;
	}
	if (pp->verify) {
		rc = check_verify(pp, err, len);
		if (rc != WL_OK)
			return rc;
	}
	if (pp->pressure == PRESSURE_VM &&
	    util_find_program("stress-ng", path, sizeof(path)) != 0) {
		snprintf(err, len, "pressure=vm needs stress-ng (apt-get "
			 "install stress-ng)");
		return WL_EFAIL;
	}
	return pipe_check_size(pp->pipe_size, err, len);
}

static void pipe_matrix_teardown(struct wl_ctx *ctx)
{
	struct pm *p = ctx->priv;

	if (!p)
		return;
	pm_pressure_stop(&p->stress_pid);
	pipe_close(p->fd);
	free(p);
	ctx->priv = NULL;
}

static int setup_fail(struct wl_ctx *ctx, int rc)
{
	pipe_matrix_teardown(ctx);
	return rc;
}

static int pipe_matrix_setup(struct wl_ctx *ctx)
{
	const struct pipe_matrix_params *pp = ctx->params;
	struct pm *p = calloc(1, sizeof(*p));
	char pnote[WL_ERR_LEN] = "";
	int i, rc;

	if (!p) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	ctx->priv = p;
	p->fd[0] = p->fd[1] = -1;
	p->writers = (int)pp->writers;
	p->readers = (int)pp->readers;
	p->size = (size_t)pp->size;
	p->rsize = (size_t)pp->rsize;
	p->verify = pp->verify;
	if (p->writers + p->readers > WL_MAX_WORKERS) {
		snprintf(ctx->err, sizeof(ctx->err), "writers + readers: at "
			 "most %d workers", WL_MAX_WORKERS);
		return setup_fail(ctx, WL_EUSAGE);
	}
	rc = pipe_open(p->fd, pp->pipe_size, &p->pipe_bytes, ctx->err,
		       sizeof(ctx->err));
	if (rc != WL_OK)
		return setup_fail(ctx, rc);
	if (pp->pressure == PRESSURE_VM) {
		rc = pm_pressure_start(pp->vm_pct, &p->stress_pid, ctx->err,
				       sizeof(ctx->err), pnote, sizeof(pnote));
		if (rc != WL_OK)
			return setup_fail(ctx, rc);
	}

	ctx->nworkers = p->writers + p->readers;
	for (i = 0; i < ctx->nworkers; i++) {
		if (i < p->writers)
			snprintf(p->names[i], sizeof(p->names[i]), "writer%d",
				 i);
		else
			snprintf(p->names[i], sizeof(p->names[i]), "reader%d",
				 i - p->writers);
		ctx->worker_name[i] = p->names[i];
		ctx->op_timed[i] = i < p->writers;
	}
	ctx->nclasses = 1;
	ctx->class_name[0] = "write";
	ctx->hist_worker = 0;
	ctx->bytes_per_op = (double)p->writers * (double)p->size;
	p->seen_off = (sizeof(struct pm_shared) + 63) / 64 * 64;
	ctx->shared_bytes = p->seen_off +
			    (p->verify ? record_seen_bytes((uint32_t)p->writers,
							   PM_VERIFY_MAX_SEQ)
				       : 0);
	snprintf(ctx->note, sizeof(ctx->note), "pipe capacity %ld bytes%s%s",
		 p->pipe_bytes, pp->pipe_size ? "" : " (kernel default)",
		 pnote);
	return WL_OK;
}

static bool is_writer(const struct wl_worker *w)
{
	const struct pm *p = w->ctx->priv;

	return w->idx < p->writers;
}

static int pipe_matrix_worker_init(struct wl_worker *w)
{
	struct pm *p = w->ctx->priv;
	struct pm_worker *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(w->err, WL_ERR_LEN, "out of memory");
		return WL_EFAIL;
	}
	w->priv = s;
	s->buf_len = is_writer(w) ? p->size : p->rsize;
	s->buf = wl_alloc_buf(s->buf_len, 0xa5);
	if (!s->buf) {
		snprintf(w->err, WL_ERR_LEN, "cannot allocate a buffer of "
			 "%zu bytes: %s", s->buf_len, strerror(errno));
		return WL_EFAIL;
	}
	return WL_OK;
}

/*
 * One reader's batch: read until all readers together hold total bytes
 * (the reader that gets there returns 0) or until it takes a stop byte
 * (WL_IDLE_END).  rd: check records (verify pass), or NULL.
 *
 * Stopping uses the pipe itself, so no wake-up can be lost: the reader
 * that completes the count sets done_gen, then writes R - 1 stop bytes.
 * Bytes read once done_gen is set can only be stop bytes: done_gen is set
 * after every data byte was counted, and a reader counts its bytes only
 * after its read() returned them, so no reader can hold uncounted data
 * then.  Each other reader keeps exactly one stop byte and writes back any
 * more it got, so the pipe is empty when the batch ends.
 */
static const uint8_t stop_bytes[WL_MAX_WORKERS];

static int reader_batch(struct wl_worker *w, uint64_t total,
			struct record_reader *rd, struct record_seen *seen)
{
	struct pm *p = w->ctx->priv;
	struct pm_shared *sh = w->ctx->shared;
	struct pm_worker *s = w->priv;
	struct pm_reader_slot *me = &sh->reader[w->idx - p->writers];
	uint32_t g = ++s->gen;
	_Atomic uint64_t *consumed = &sh->consumed[g & 1].v;
	uint64_t mine = 0, got;

	atomic_store_explicit(&me->bytes, 0, memory_order_relaxed);
	for (;;) {
		ssize_t n = pipe_read_once(p->fd[0], s->buf, p->rsize,
					   "read: unexpected end of file: the "
					   "write end was closed", w->err);

		if (n == 0)
			continue;
		if (n < 0)
			return WL_EFAIL;
		if (atomic_load_explicit(&sh->done_gen.v,
					 memory_order_acquire) == g) {
			/* stop bytes: keep one, pass the rest on */
			if (n > 1 && wl_write_all(p->fd[1], s->buf,
						  (size_t)n - 1, w->err))
				return WL_EFAIL;
			return WL_IDLE_END;
		}
		if (rd)
			record_feed(rd, seen, s->buf, (size_t)n);
		mine += (uint64_t)n;
		atomic_store_explicit(&me->bytes, mine, memory_order_relaxed);
		got = atomic_fetch_add(consumed, (uint64_t)n) + (uint64_t)n;
		if (got > total) {
			snprintf(w->err, WL_ERR_LEN, "the readers got %llu "
				 "bytes, more than the %llu written",
				 (unsigned long long)got,
				 (unsigned long long)total);
			return WL_EFAIL;
		}
		if (got == total)
			break;
	}
	/* nobody uses the other slot until batch g + 1 */
	atomic_store(&sh->consumed[(g + 1) & 1].v, 0);
	atomic_store(&sh->done_gen.v, g);
	if (p->readers > 1 &&
	    wl_write_all(p->fd[1], stop_bytes, (size_t)p->readers - 1,
			 w->err) != 0)
		return WL_EFAIL;
	return 0;
}

static int pipe_matrix_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct pm *p = w->ctx->priv;
	struct pm_worker *s = w->priv;
	uint64_t i;

	if (!is_writer(w))
		return reader_batch(w, (uint64_t)p->writers * nops * p->size,
				    NULL, NULL);
	for (i = 0; i < nops; i++)
		if (wl_write_all(p->fd[1], s->buf, p->size, w->err) != 0)
			return WL_EFAIL;
	return 0;
}

static uint64_t verify_nseq(uint64_t nops)
{
	return nops < PM_VERIFY_MAX_SEQ ? nops : PM_VERIFY_MAX_SEQ;
}

/* The verify pass: records instead of filler, every one checked. */
static int pipe_matrix_verify_batch(struct wl_worker *w, uint64_t nops)
{
	struct pm *p = w->ctx->priv;
	struct pm_shared *sh = w->ctx->shared;
	struct pm_worker *s = w->priv;
	uint64_t seq, nseq = verify_nseq(nops);
	struct pm_reader_slot *me;
	struct record_reader rd;
	struct record_seen seen;
	int rc;

	if (is_writer(w)) {
		sh->verify_nseq = nseq;
		for (seq = 0; seq < nseq; seq++) {
			record_fill(s->buf, p->size, (uint32_t)w->idx, seq);
			if (wl_write_all(p->fd[1], s->buf, p->size,
					 w->err) != 0)
				return WL_EFAIL;
		}
		return 0;
	}
	me = &sh->reader[w->idx - p->writers];
	if (record_reader_init(&rd, (uint32_t)p->writers, p->size) != 0) {
		snprintf(w->err, WL_ERR_LEN, "out of memory");
		return WL_EFAIL;
	}
	record_seen_view(&seen, (uint8_t *)sh + p->seen_off,
			 (uint32_t)p->writers, PM_VERIFY_MAX_SEQ, nseq);
	rc = reader_batch(w, (uint64_t)p->writers * nseq * p->size, &rd,
			  &seen);
	record_reader_finish(&rd);
	me->counts = rd.counts;
	record_reader_free(&rd);
	return rc;
}

static long pipe_matrix_verify(struct wl_ctx *ctx, char *buf, size_t len)
{
	struct pm *p = ctx->priv;
	struct pm_shared *sh = ctx->shared;
	struct record_counts total;
	struct record_seen seen;
	uint64_t lost, errors;
	int i, n;

	memset(&total, 0, sizeof(total));
	total.first_writer = UINT32_MAX;
	for (i = 0; i < p->readers; i++)
		record_counts_add(&total, &sh->reader[i].counts);
	record_seen_view(&seen, (uint8_t *)sh + p->seen_off,
			 (uint32_t)p->writers, PM_VERIFY_MAX_SEQ,
			 sh->verify_nseq);
	lost = record_seen_lost(&seen);
	errors = lost + total.corrupted + total.duplicated + total.reordered;
	n = snprintf(buf, len, "%llu records of %zu bytes (%llu per writer) "
		     "checked by %d reader%s: %llu lost, %llu duplicated, "
		     "%llu corrupted, %llu reordered",
		     (unsigned long long)total.checked, p->size,
		     (unsigned long long)sh->verify_nseq, p->readers,
		     p->readers == 1 ? "" : "s", (unsigned long long)lost,
		     (unsigned long long)total.duplicated,
		     (unsigned long long)total.corrupted,
		     (unsigned long long)total.reordered);
	if (sh->verify_nseq == 0 && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; no records were "
			      "sent");
	if (total.first != RECORD_OK && n > 0 && (size_t)n < len) {
		if (total.first_writer == UINT32_MAX)
			snprintf(buf + n, len - (size_t)n, "; first error: a "
				 "%s record", record_status_name(total.first));
		else
			snprintf(buf + n, len - (size_t)n, "; first error: "
				 "writer%u seq %llu %s", total.first_writer,
				 (unsigned long long)total.first_seq,
				 record_status_name(total.first));
	}
	if (sh->verify_nseq == 0)
		errors++;
	return errors > LONG_MAX ? LONG_MAX : (long)errors;
}

/* Fairness, min/max share and context switches per MiB of a sample. */
static double pipe_matrix_sample_metric(struct wl_ctx *ctx, size_t m,
					const struct wl_sample *smp)
{
	struct pm *p = ctx->priv;
	struct pm_shared *sh = ctx->shared;
	double sum = 0, sum2 = 0, lo = 0, hi = 0, mib;
	int i;

	if (m == M_CTXSW) {
		/* unknown: no value (the sample is left out of the row) */
		if (smp->ctx_switches == UINT64_MAX)
			return NAN;
		mib = (double)p->writers * (double)smp->nops *
		      (double)p->size / (1024.0 * 1024.0);
		return mib > 0 ? (double)smp->ctx_switches / mib : 0.0;
	}
	for (i = 0; i < p->readers; i++) {
		double x = (double)atomic_load(&sh->reader[i].bytes);

		sum += x;
		sum2 += x * x;
		if (i == 0 || x < lo)
			lo = x;
		if (i == 0 || x > hi)
			hi = x;
	}
	if (m == M_FAIRNESS)
		return sum2 > 0 ? sum * sum / ((double)p->readers * sum2)
				: 0.0;
	return hi > 0 ? lo / hi : 0.0;
}

static void pipe_matrix_worker_fini(struct wl_worker *w)
{
	struct pm_worker *s = w->priv;

	if (!s)
		return;
	wl_free_buf(s->buf, s->buf_len);
	free(s);
	w->priv = NULL;
}

/* E2's nine mixes at a glance: writers x readers of the bandwidth */
static const struct wl_grid pipe_matrix_grid = {
	.row = "writers", .col = "readers", .metric = "bandwidth",
};

const struct workload wl_pipe_matrix = {
	.name = "pipe.matrix",
	.summary = "W writers x R readers on one pipe: bandwidth, latency, "
		   "fairness",
	.op = "one write() of size bytes by a writer; readers take rsize "
	      "at a time",
	.not_measured = "pipe creation, thread/process start, buffers; the "
			"verify pass; the stopped readers' wake-up after the "
			"last byte",
	.params = pipe_matrix_param_defs,
	.nparams = ARRAY_SIZE(pipe_matrix_param_defs),
	.params_size = sizeof(struct pipe_matrix_params),
	.metrics = pipe_matrix_metrics,
	.nmetrics = ARRAY_SIZE(pipe_matrix_metrics),
	.validate = pipe_matrix_validate,
	.setup = pipe_matrix_setup,
	.worker_init = pipe_matrix_worker_init,
	.run_batch = pipe_matrix_run_batch,
	.verify_batch = pipe_matrix_verify_batch,
	.verify = pipe_matrix_verify,
	.worker_fini = pipe_matrix_worker_fini,
	.sample_metric = pipe_matrix_sample_metric,
	.teardown = pipe_matrix_teardown,
	.caps = WL_CAP_VERIFY,
	.grid = &pipe_matrix_grid,
};
