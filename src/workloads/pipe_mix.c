/*
 * pipe_mix.c - pipe.mix: writers whose write sizes follow a mix (E3), and
 * free-for-all readers, on ONE pipe.
 *
 * One op: one write(2) by one writer, of a size drawn from the mix (see
 * mix.h; default `fleet`, the production mix of E3: 98% of writes under
 * 128 B and a tail to 72 KiB).  Every writer is op-timed: the core times
 * each write and files it under the size class of its size (<128B,
 * 128B-4K, 4K-8K, 8K+), so the per-class percentiles show small writes
 * stalling behind multi-page ones.  With big_writers=N, N more writers
 * write big_size bytes every time, as their own class "big": their times
 * stay out of the four mix classes (they show in `p99 all` and on the
 * per-worker lines).  `readers` readers drain the pipe with reads of up to
 * rsize bytes, whichever reader gets there first.
 *
 * Sizes: setup draws a table of MIX_TABLE_LEN sizes from the mix with the
 * seed (each mix entry gets its exact share of the table; see
 * mix_fill_table()); writer i starts at its own offset into the table and
 * steps through it, one size per write.  The sequence is reproducible for
 * a seed, and the bytes a batch moves are known in advance: every worker
 * runs the same nops per sample, so each reader computes the batch's total
 * from the table's prefix sums.  The reader whose read brings the shared
 * byte count to that total ends the sample (run_batch returns 0: the
 * window ends there); any other reader is blocked in read() on an empty
 * pipe or about to be, and is woken by SIGUSR1 (no SA_RESTART, so read()
 * fails with EINTR), acknowledges and returns WL_IDLE_END.  A signal can
 * land between a reader's check and its read(), so the ending reader
 * resends every 100 us until every other reader has acknowledged.
 *
 * Not measured: pipe creation, thread/fork start, table and buffer
 * allocation; each timed write includes one clock-read pair; the ending
 * reader's wait for the others' acknowledgements (with readers > 1) falls
 * inside the window, as do each reader's per-read atomic add to the shared
 * byte count and its start-of-batch sum over the size table (one prefix
 * lookup per writer).  There is no data check here (see pipe.matrix's
 * verify=1 for integrity under contention).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/common_params.h"
#include "util/array.h"
#include "workloads/mix.h"
#include "workloads/wl_util.h"
#include "workloads/pipe_common.h"
#include "workloads/workloads.h"

/* Sizes in the table the writers cycle through: 2^18 draws, so even the
   fleet mix's 0.08% entry has about 210 different sizes in it. */
#define MIX_TABLE_LEN (1u << 18)
#define CLASS_BIG MIX_NCLASSES
/* How often the reader that ends a sample resends the wake-up signal. */
#define RESEND_NS 100000L

/* The parameters, bound by the core (ctx->params). */
struct pipe_mix_params {
	int64_t writers, readers, rsize, pipe_size, big_writers, big_size;
	int64_t seed;
	const char *mix;
	int mode, place;
};

static const struct param_def pipe_mix_param_defs[] = {
	{ .name = "writers", .type = PARAM_INT, .def = "4", .min = 1,
	  .max = 32, .help = "writers drawing sizes from the mix",
	  PARAM_FIELD(struct pipe_mix_params, writers) },
	{ .name = "readers", .type = PARAM_INT, .def = "1", .min = 1,
	  .max = 32, .help = "readers draining the pipe, free-for-all",
	  PARAM_FIELD(struct pipe_mix_params, readers) },
	{ .name = "rsize", .type = PARAM_SIZE, .def = "64k", .min = 1,
	  .max = 16LL << 20, .help = "bytes asked for per read",
	  PARAM_FIELD(struct pipe_mix_params, rsize) },
	{ .name = "mix", .type = PARAM_STRING, .def = "fleet",
	  .max = MIX_MAX_TEXT,
	  .help = "write-size mix: a preset (fleet, small, page, bimodal, "
		  "large) or SIZE:WEIGHT,LO-HI:WEIGHT,...",
	  PARAM_FIELD(struct pipe_mix_params, mix) },
	WL_PARAM_PIPE_SIZE(struct pipe_mix_params, pipe_size, "0"),
	{ .name = "big_writers", .type = PARAM_INT, .def = "0", .min = 0,
	  .max = 16,
	  .help = "extra writers that always write big_size bytes",
	  PARAM_FIELD(struct pipe_mix_params, big_writers) },
	{ .name = "big_size", .type = PARAM_SIZE, .def = "64k", .min = 1,
	  .max = MIX_MAX_SIZE, .help = "bytes per write of a big writer",
	  PARAM_FIELD(struct pipe_mix_params, big_size) },
	{ .name = "seed", .type = PARAM_INT, .def = "1", .min = 0,
	  .max = UINT32_MAX, .help = "seed of the size table",
	  PARAM_FIELD(struct pipe_mix_params, seed) },
	WL_PARAM_MODE(struct pipe_mix_params, mode, "thread"),
	WL_PARAM_PLACE(struct pipe_mix_params, place),
};

enum {
	M_WRITES, M_BANDWIDTH,
};

#define CLASS_PCT(n, c, p, h)						\
	{ .name = (n), .kind = METRIC_OP_PCT, .dir = METRIC_LOWER_BETTER, \
	  .pct = (p), .op_class = (c), .help = (h) }

static const struct metric_def pipe_mix_metrics[] = {
	[M_WRITES] = { .name = "writes/s", .kind = METRIC_CUSTOM,
	  .same_window = true,
	  .dir = METRIC_HIGHER_BETTER, .unit = "ops/s",
	  .help = "writes per second, all writers together" },
	[M_BANDWIDTH] = { .name = "bandwidth", .kind = METRIC_CUSTOM,
	  .same_window = true,
	  .dir = METRIC_HIGHER_BETTER, .unit = "bytes/s",
	  .help = "bytes written and read per second" },
	CLASS_PCT("p50 <128B", 0, 50, "median write under 128 B"),
	CLASS_PCT("p99 <128B", 0, 99, "99th percentile write under 128 B"),
	CLASS_PCT("max <128B", 0, 100, "slowest write under 128 B (exact)"),
	CLASS_PCT("p50 128B-4K", 1, 50, "median write of 128 B-4 KiB"),
	CLASS_PCT("p99 128B-4K", 1, 99, "99th percentile write of "
		  "128 B-4 KiB"),
	CLASS_PCT("p50 4K-8K", 2, 50, "median write of 4-8 KiB"),
	CLASS_PCT("p99 4K-8K", 2, 99, "99th percentile write of 4-8 KiB"),
	CLASS_PCT("p50 8K+", 3, 50, "median write of 8 KiB or more"),
	CLASS_PCT("p99 8K+", 3, 99, "99th percentile write of 8 KiB or more"),
	CLASS_PCT("p99 all", -1, 99, "99th percentile of every timed write, "
		  "big writers' included"),
};

/* Shared by all workers (ctx->shared, zeroed before the workers start). */
struct pipe_mix_shared {
	_Atomic uint64_t consumed;		/* bytes read, cumulative */
	_Atomic uint64_t stop_at;		/* cumulative total of the
						   sample that ended */
	_Atomic uint64_t ack[WL_MAX_WORKERS];	/* per reader: stop_at it
						   left at */
	pid_t pid[WL_MAX_WORKERS];		/* per reader */
	pid_t tid[WL_MAX_WORKERS];
	uint64_t last_bytes;		/* bytes of the last sample */
};

/* Coordinator state, read-only once the workers start. */
struct pipe_mix {
	int fd[2];
	int nmix, nbig, nreaders;
	size_t rsize, big_size;
	struct mix mix;
	uint32_t *sizes;			/* MIX_TABLE_LEN */
	uint64_t *prefix;			/* MIX_TABLE_LEN + 1 */
	uint64_t off[WL_MAX_WORKERS];	/* mix writer's table start */
	char names[WL_MAX_WORKERS][16];
	struct sigaction old_usr1;
	bool usr1_set;
	long pipe_bytes;
};

struct pipe_mix_worker {
	uint8_t *buf;
	size_t buf_len;
	uint64_t done;		/* writes each writer made so far */
	uint64_t target;	/* readers: cumulative bytes at sample end */
};

static const struct mix_preset *find_preset(const char *name)
{
	size_t i;

	for (i = 0; i < mix_npresets; i++)
		if (strcmp(mix_presets[i].name, name) == 0)
			return &mix_presets[i];
	return NULL;
}

/*
 * The mix a configuration asks for: a preset by name, else the text as a
 * mix.  -1 with err (naming the offending entry) on failure.
 */
static int load_mix(const struct pipe_mix_params *pp, struct mix *m,
		    char *err, size_t len)
{
	const char *name = pp->mix;
	const struct mix_preset *pr = find_preset(name);
	char why[WL_ERR_LEN];

	if (mix_parse(pr ? pr->text : name, m, why, sizeof(why)) != 0) {
		if (pr)
			snprintf(err, len, "mix %s: %s", name, why);
		else
			snprintf(err, len, "mix: '%s' is neither a preset "
				 "(fleet, small, page, bimodal, large) nor a "
				 "mix: %s", name, why);
		return -1;
	}
	return 0;
}

static int pipe_mix_validate(const void *params, char *err, size_t len)
{
	const struct pipe_mix_params *pp = params;
	int64_t n = pp->writers + pp->big_writers + pp->readers;
	struct mix m;

	if (n > WL_MAX_WORKERS) {
		snprintf(err, len, "writers + big_writers + readers: %lld "
			 "workers, at most %d", (long long)n, WL_MAX_WORKERS);
		return WL_EUSAGE;
	}
	if (load_mix(pp, &m, err, len) != 0)
		return WL_EUSAGE;
	return pipe_check_size(pp->pipe_size, err, len);
}

static void on_usr1(int sig)
{
	(void)sig;	/* only there to make read() fail with EINTR */
}

/*
 * "98% <128B, 0.4% 128B-4K, ..." and the classes the mix never hits, then
 * the pipe's capacity; the placement note, if any, comes after these.
 */
static void describe_mix(struct wl_ctx *ctx, const struct pipe_mix *p,
			 const char *name)
{
	const struct pipe_mix_params *pp = ctx->params;
	char *t = ctx->note, empty[96] = "";
	size_t len = sizeof(ctx->note), e = 0;
	const char *sep = "";
	int c;

	t[0] = '\0';
	wl_text_add(t, len, "mix %s:", name);
	for (c = 0; c < MIX_NCLASSES; c++) {
		double share = mix_class_share(&p->mix, c) * 100.0;

		if (share > 0) {
			wl_text_add(t, len, "%s %.3g%% %s", sep, share,
				    mix_class_names[c]);
			sep = ",";
		} else if (e < sizeof(empty)) {
			e += (size_t)snprintf(empty + e, sizeof(empty) - e,
					      "%s%s", e ? ", " : "",
					      mix_class_names[c]);
		}
	}
	if (e)
		wl_text_add(t, len, " (no writes in %s: no rows for them)",
			    empty);
	if (p->nbig)
		wl_text_add(t, len, "; %d big writer%s of %zu bytes", p->nbig,
			    p->nbig == 1 ? "" : "s", p->big_size);
	wl_text_add(t, len, "; pipe capacity %ld bytes%s", p->pipe_bytes,
		    pp->pipe_size ? "" : " (kernel default)");
	ctx->note_first = true;
}

static int make_table(struct pipe_mix *p, uint64_t seed, char *err,
		      size_t len)
{
	size_t i;

	p->sizes = malloc(MIX_TABLE_LEN * sizeof(*p->sizes));
	p->prefix = malloc((MIX_TABLE_LEN + 1) * sizeof(*p->prefix));
	if (!p->sizes || !p->prefix) {
		snprintf(err, len, "out of memory for the size table");
		return -1;
	}
	if (mix_fill_table(&p->mix, seed, p->sizes, MIX_TABLE_LEN) != 0) {
		snprintf(err, len, "mix: cannot fill the size table");
		return -1;
	}
	p->prefix[0] = 0;
	for (i = 0; i < MIX_TABLE_LEN; i++)
		p->prefix[i + 1] = p->prefix[i] + p->sizes[i];
	for (i = 0; i < (size_t)p->nmix; i++)
		p->off[i] = (uint64_t)i * MIX_TABLE_LEN / (uint64_t)p->nmix;
	return 0;
}

static int pipe_mix_setup(struct wl_ctx *ctx)
{
	const struct pipe_mix_params *pp = ctx->params;
	struct pipe_mix *p = calloc(1, sizeof(*p));
	int i, n, rc;

	if (!p) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	ctx->priv = p;
	p->fd[0] = p->fd[1] = -1;
	p->nmix = (int)pp->writers;
	p->nbig = (int)pp->big_writers;
	p->nreaders = (int)pp->readers;
	p->rsize = (size_t)pp->rsize;
	p->big_size = (size_t)pp->big_size;
	n = p->nmix + p->nbig + p->nreaders;
	if (n > WL_MAX_WORKERS) {
		snprintf(ctx->err, sizeof(ctx->err), "writers + big_writers + "
			 "readers: %d workers, at most %d", n, WL_MAX_WORKERS);
		return WL_EUSAGE;
	}
	if (load_mix(pp, &p->mix, ctx->err, sizeof(ctx->err)) != 0)
		return WL_EUSAGE;
	if (make_table(p, (uint64_t)pp->seed, ctx->err,
		       sizeof(ctx->err)) != 0)
		return WL_EFAIL;
	rc = pipe_open(p->fd, pp->pipe_size, &p->pipe_bytes, ctx->err,
		       sizeof(ctx->err));
	if (rc != WL_OK)
		return rc;
	if (p->nreaders > 1) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sigemptyset(&sa.sa_mask);
		/* no SA_RESTART: a blocked read() returns EINTR */
		if (sigaction(SIGUSR1, &sa, &p->old_usr1) != 0) {
			snprintf(ctx->err, sizeof(ctx->err), "sigaction"
				 "(SIGUSR1): %s", strerror(errno));
			return WL_EFAIL;
		}
		p->usr1_set = true;
	}
	ctx->nworkers = n;
	for (i = 0; i < n; i++) {
		if (i < p->nmix)
			snprintf(p->names[i], sizeof(p->names[i]), "writer%d",
				 i);
		else if (i < p->nmix + p->nbig)
			snprintf(p->names[i], sizeof(p->names[i]), "big%d",
				 i - p->nmix);
		else
			snprintf(p->names[i], sizeof(p->names[i]), "reader%d",
				 i - p->nmix - p->nbig);
		ctx->worker_name[i] = p->names[i];
		ctx->op_timed[i] = i < p->nmix + p->nbig;
	}
	ctx->nclasses = MIX_NCLASSES + (p->nbig ? 1 : 0);
	for (i = 0; i < MIX_NCLASSES; i++)
		ctx->class_name[i] = mix_class_names[i];
	ctx->class_name[CLASS_BIG] = "big";
	ctx->hist_worker = 0;
	ctx->shared_bytes = sizeof(struct pipe_mix_shared);
	describe_mix(ctx, p, pp->mix);
	return WL_OK;
}

static bool is_reader(const struct pipe_mix *p, int idx)
{
	return idx >= p->nmix + p->nbig;
}

static int pipe_mix_worker_init(struct wl_worker *w)
{
	struct pipe_mix *p = w->ctx->priv;
	struct pipe_mix_shared *sh = w->ctx->shared;
	struct pipe_mix_worker *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(w->err, WL_ERR_LEN, "out of memory");
		return WL_EFAIL;
	}
	w->priv = s;
	if (is_reader(p, w->idx)) {
		int r = w->idx - p->nmix - p->nbig;
		sigset_t usr1;

		s->buf_len = p->rsize;
		sh->pid[r] = getpid();
		sh->tid[r] = (pid_t)syscall(SYS_gettid);
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		/* the runner starts workers with every signal blocked */
		if (p->nreaders > 1 &&
		    pthread_sigmask(SIG_UNBLOCK, &usr1, NULL) != 0) {
			snprintf(w->err, WL_ERR_LEN, "pthread_sigmask: "
				 "cannot unblock SIGUSR1");
			return WL_EFAIL;
		}
	} else {
		s->buf_len = w->idx < p->nmix ? p->mix.max_bytes
					      : p->big_size;
	}
	s->buf = wl_alloc_buf(s->buf_len, 0x3c);
	if (!s->buf) {
		snprintf(w->err, WL_ERR_LEN, "cannot allocate a buffer of "
			 "%zu bytes: %s", s->buf_len, strerror(errno));
		return WL_EFAIL;
	}
	return 0;
}

/* Sum of k consecutive table sizes from index start (< MIX_TABLE_LEN),
   wrapping around. */
static uint64_t table_sum(const struct pipe_mix *p, uint64_t start,
			  uint64_t k)
{
	uint64_t sum = (k / MIX_TABLE_LEN) * p->prefix[MIX_TABLE_LEN];
	uint64_t end = start + k % MIX_TABLE_LEN;

	if (end <= MIX_TABLE_LEN)
		return sum + p->prefix[end] - p->prefix[start];
	return sum + p->prefix[MIX_TABLE_LEN] - p->prefix[start] +
	       p->prefix[end - MIX_TABLE_LEN];
}

/* Bytes all writers write in a batch of nops each, after `done` each. */
static uint64_t batch_bytes(const struct pipe_mix *p, uint64_t done,
			    uint64_t nops)
{
	uint64_t sum = (uint64_t)p->nbig * nops * p->big_size;
	int i;

	for (i = 0; i < p->nmix; i++)
		sum += table_sum(p, (p->off[i] + done) % MIX_TABLE_LEN, nops);
	return sum;
}

static int writer_batch(struct wl_worker *w, uint64_t nops)
{
	struct pipe_mix *p = w->ctx->priv;
	struct pipe_mix_worker *s = w->priv;
	uint64_t i;

	for (i = 0; i < nops; i++) {
		size_t len;

		if (w->idx < p->nmix) {
			len = p->sizes[(p->off[w->idx] + s->done) %
				       MIX_TABLE_LEN];
			w->op_class = mix_class_of(len);
		} else {
			len = p->big_size;
			w->op_class = CLASS_BIG;
		}
		s->done++;
		if (wl_write_all(p->fd[1], s->buf, len, w->err) != 0)
			return WL_EFAIL;
	}
	return 0;
}

/*
 * The ending reader: signal the others that have not acknowledged, then
 * sleep RESEND_NS and look again, until each has.  A reader can check its
 * stop flag just before it blocks in read(), so one signal may be lost:
 * the resend covers that.  No clock is read (the core owns the clocks);
 * the sleep also lets a woken reader on this CPU run.
 */
static int wake_readers(struct wl_worker *w, int me, uint64_t target)
{
	const struct timespec pause = { 0, RESEND_NS };
	struct pipe_mix *p = w->ctx->priv;
	struct pipe_mix_shared *sh = w->ctx->shared;

	for (;;) {
		int r, pending = 0;

		for (r = 0; r < p->nreaders; r++) {
			if (r == me || atomic_load(&sh->ack[r]) == target)
				continue;
			pending++;
			if (syscall(SYS_tgkill, sh->pid[r], sh->tid[r],
				    SIGUSR1) != 0) {
				snprintf(w->err, WL_ERR_LEN, "tgkill(reader%d,"
					 " SIGUSR1): %s", r, strerror(errno));
				return WL_EFAIL;
			}
		}
		if (!pending)
			return 0;
		nanosleep(&pause, NULL);
	}
}

static int reader_batch(struct wl_worker *w, uint64_t nops)
{
	struct pipe_mix *p = w->ctx->priv;
	struct pipe_mix_shared *sh = w->ctx->shared;
	struct pipe_mix_worker *s = w->priv;
	int me = w->idx - p->nmix - p->nbig;
	uint64_t batch = batch_bytes(p, s->done, nops);

	s->done += nops;
	s->target += batch;
	for (;;) {
		uint64_t c;
		ssize_t n;

		if (atomic_load(&sh->stop_at) == s->target) {
			atomic_store(&sh->ack[me], s->target);
			return WL_IDLE_END;
		}
		n = pipe_read_once(p->fd[0], s->buf, p->rsize, "unexpected "
				   "end of file: the writers' end of the pipe "
				   "is closed", w->err);
		if (n == 0)
			continue;	/* EINTR: SIGUSR1 may mean stop */
		if (n < 0)
			return WL_EFAIL;
		c = atomic_fetch_add(&sh->consumed, (uint64_t)n) +
		    (uint64_t)n;
		if (c == s->target) {
			sh->last_bytes = batch;
			atomic_store(&sh->stop_at, s->target);
			atomic_store(&sh->ack[me], s->target);
			return p->nreaders > 1 ?
			       wake_readers(w, me, s->target) : 0;
		}
		if (c > s->target) {
			snprintf(w->err, WL_ERR_LEN, "readers got %llu bytes "
				 "more than the writers wrote in this sample",
				 (unsigned long long)(c - s->target));
			return WL_EFAIL;
		}
	}
}

static int pipe_mix_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct pipe_mix *p = w->ctx->priv;

	return is_reader(p, w->idx) ? reader_batch(w, nops)
				    : writer_batch(w, nops);
}

static double pipe_mix_sample_metric(struct wl_ctx *ctx, size_t m,
				     const struct wl_sample *smp)
{
	const struct pipe_mix *p = ctx->priv;
	const struct pipe_mix_shared *sh = ctx->shared;
	double secs = smp->window_ns / 1e9;

	if (secs <= 0)
		return 0;
	if (m == M_WRITES)
		return (double)smp->nops * (p->nmix + p->nbig) / secs;
	if (m == M_BANDWIDTH)
		return (double)sh->last_bytes / secs;
	return 0;
}

static void pipe_mix_worker_fini(struct wl_worker *w)
{
	struct pipe_mix_worker *s = w->priv;

	if (!s)
		return;
	wl_free_buf(s->buf, s->buf_len);
	free(s);
	w->priv = NULL;
}

static void pipe_mix_teardown(struct wl_ctx *ctx)
{
	struct pipe_mix *p = ctx->priv;

	if (!p)
		return;
	pipe_close(p->fd);
	if (p->usr1_set)
		sigaction(SIGUSR1, &p->old_usr1, NULL);
	free(p->sizes);
	free(p->prefix);
	free(p);
	ctx->priv = NULL;
}

const struct workload wl_pipe_mix = {
	.name = "pipe.mix",
	.summary = "writers drawing write sizes from a mix (E3), readers, one "
		   "pipe: latency per size class",
	.op = "one write of a size drawn from the mix (or big_size), by one "
	      "writer",
	.not_measured = "pipe creation, thread/fork start, size table and "
			"buffers; each write includes one clock-read pair",
	.params = pipe_mix_param_defs,
	.nparams = ARRAY_SIZE(pipe_mix_param_defs),
	.params_size = sizeof(struct pipe_mix_params),
	.metrics = pipe_mix_metrics,
	.nmetrics = ARRAY_SIZE(pipe_mix_metrics),
	.validate = pipe_mix_validate,
	.setup = pipe_mix_setup,
	.worker_init = pipe_mix_worker_init,
	.run_batch = pipe_mix_run_batch,
	.sample_metric = pipe_mix_sample_metric,
	.worker_fini = pipe_mix_worker_fini,
	.teardown = pipe_mix_teardown,
};
