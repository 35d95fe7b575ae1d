/*
 * runner.c - runs one configuration of a workload: workers, barrier,
 * placement, clock reads, batch growth, warm-up, kept samples, histogram,
 * verify and cold-call trace passes.
 *
 * Protocol between the coordinator (the calling thread) and its workers,
 * all through one MAP_SHARED control block so that threads and processes
 * behave the same:
 *   coordinator: writes cmd and nops, resets the barrier and done counts,
 *                bumps gen and wakes the workers (futex on gen);
 *   each worker: sees gen change, enters the start barrier (spin briefly,
 *                then futex), reads counters, reads the clock, runs the
 *                batch, reads the clock, reads counters, bumps done;
 *   coordinator: sleeps on done in 100 ms slices, checking for signals,
 *                dead workers and a watchdog.
 * Clock reads sit right around run_batch(); the window of a sample is the
 * earliest worker t0 to the latest worker t1 (the TSC agrees across CPUs:
 * timer_init() checks it, and falls back to CLOCK_MONOTONIC_RAW if not).
 */
#include "core/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/interference.h"
#include "core/swcount.h"
#include "core/timer.h"

const char *const wl_place_choices[] = { "split", "same", "none", NULL };

volatile sig_atomic_t runner_interrupted;
volatile sig_atomic_t runner_signal;

enum worker_cmd { CMD_NONE, CMD_RUN, CMD_VERIFY, CMD_HIST, CMD_EXIT };

/* Most per-op times one worker records in the --hist pass. */
#define HIST_MAX_OPS 200000
/* Largest per-op time the histogram buckets (10 s); more is overflow. */
#define HIST_MAX_NS 10000000000ULL
/* Iterations a worker spins at the barrier before sleeping in futex. */
#define BARRIER_SPINS 2000
/* A sample taking longer than this many target times is a hang. */
#define WATCHDOG_FACTOR 100
#define WATCHDOG_MIN_NS 20000000000LL

struct worker_slot {
	uint64_t t0, t1;
	int cpu_start, cpu_end;
	int rc;
	bool idle_end;			/* run_batch returned WL_IDLE_END */
	struct swcount_values sw0, sw1;
	char err[WL_ERR_LEN];
};

struct control {
	_Atomic uint32_t gen;
	_Atomic uint32_t go;
	_Atomic uint32_t arrived;
	_Atomic uint32_t done;
	uint32_t cmd;
	uint32_t nworkers;
	uint64_t nops;
	struct worker_slot slot[WL_MAX_WORKERS];
};

struct runner {
	const struct workload *wl;
	const struct run_opts *opts;
	struct wl_ctx ctx;
	struct control *ctl;
	uint64_t *hist_ticks;		/* shared: [worker][HIST_MAX_OPS] */
	/*
	 * Op-timed workers record into shared per-(worker, class) bucket
	 * arrays of op_stride words: n, overflow, min, max, sum (as the bits
	 * of a double), then the histogram buckets.
	 */
	uint64_t *op_counts;
	size_t op_stride, op_bytes;
	size_t nbuckets;
	double ns_per_tick;
	struct histogram *scratch;	/* coordinator: one sample's view */
	uint64_t nops;			/* batch size after growth */
	pid_t pid[WL_MAX_WORKERS];
	pthread_t tid[WL_MAX_WORKERS];
	int nstarted;
	bool workers_stuck;		/* threads we could not stop */
	bool unsynced;			/* a wait for the workers gave up */
	bool ctx_setup;
};

/* A runner whose threads could not be stopped (see stop_workers()). */
static struct runner *abandoned_runner;

struct worker_arg {
	struct runner *r;
	int idx;
};

static long futex(_Atomic uint32_t *addr, int op, uint32_t val,
		  const struct timespec *ts)
{
	return syscall(SYS_futex, addr, op, val, ts, NULL, 0);
}

static void futex_wait(_Atomic uint32_t *addr, uint32_t val,
		       const struct timespec *ts)
{
	/* Shared (not PRIVATE) futexes: the block may be shared by fork. */
	futex(addr, FUTEX_WAIT, val, ts);
}

static void futex_wake_all(_Atomic uint32_t *addr)
{
	futex(addr, FUTEX_WAKE, INT32_MAX, NULL);
}

static inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}

/* The CPU we are on, from the kernel (never rdtscp/rdpid: under a
   hypervisor those can report the host's CPU). */
static int current_cpu(void)
{
	unsigned int cpu = 0;

	if (syscall(SYS_getcpu, &cpu, NULL, NULL) != 0)
		return -1;
	return (int)cpu;
}

static void signal_handler(int sig)
{
	runner_interrupted = 1;
	runner_signal = sig;
}

void runner_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = signal_handler;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking call in the coordinator returns EINTR. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* the terminal went away, or stdout was closed (| head -1): stop
	   and keep what was measured, as for SIGINT */
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

void wl_place_workers(struct wl_ctx *ctx, enum wl_place place)
{
	int i;

	for (i = 0; i < ctx->nworkers; i++) {
		switch (place) {
		case PLACE_SPLIT:
			ctx->worker_cpu[i] = ctx->cpus[i % ctx->ncpus];
			break;
		case PLACE_SAME:
			ctx->worker_cpu[i] = ctx->cpus[0];
			break;
		case PLACE_NONE:
		default:
			ctx->worker_cpu[i] = -1;
			break;
		}
	}
	if (place == PLACE_SPLIT && ctx->ncpus < ctx->nworkers)
		snprintf(ctx->note, sizeof(ctx->note),
			 "place=split: %d workers on %d allowed CPU%s, "
			 "some share a CPU", ctx->nworkers, ctx->ncpus,
			 ctx->ncpus == 1 ? "" : "s");
}

static int pin_to(int cpu, char *err)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		snprintf(err, WL_ERR_LEN, "sched_setaffinity(cpu %d): %s",
			 cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* All workers arrive; the last one releases the others. */
static void barrier_wait(struct control *ctl, uint32_t gen)
{
	uint32_t n = atomic_fetch_add(&ctl->arrived, 1) + 1;
	uint32_t v;
	int spins = 0;

	if (n == ctl->nworkers) {
		atomic_store(&ctl->go, gen);
		futex_wake_all(&ctl->go);
		return;
	}
	while ((v = atomic_load(&ctl->go)) != gen) {
		if (spins++ < BARRIER_SPINS)
			cpu_relax();
		else
			futex_wait(&ctl->go, v, NULL);
	}
}

static void report_done(struct control *ctl)
{
	if (atomic_fetch_add(&ctl->done, 1) + 1 == ctl->nworkers)
		futex_wake_all(&ctl->done);
}

enum { OPC_N, OPC_OVERFLOW, OPC_MIN, OPC_MAX, OPC_SUM, OPC_BUCKETS };

static uint64_t *op_slot(const struct runner *r, int worker, int cls)
{
	return r->op_counts +
	       ((size_t)worker * WL_MAX_CLASSES + (size_t)cls) * r->op_stride;
}

/* Account one op of `ticks` in the worker's class slot (in the worker). */
static void op_record(const struct runner *r, int worker, int cls,
		      uint64_t ticks)
{
	uint64_t *c, ns = (uint64_t)((double)ticks * r->ns_per_tick + 0.5);
	double sum;

	if (cls < 0 || cls >= WL_MAX_CLASSES)
		cls = 0;
	c = op_slot(r, worker, cls);
	if (c[OPC_N] == 0 || ns < c[OPC_MIN])
		c[OPC_MIN] = ns;
	if (ns > c[OPC_MAX])
		c[OPC_MAX] = ns;
	c[OPC_N]++;
	memcpy(&sum, &c[OPC_SUM], sizeof(sum));
	sum += (double)ns;
	memcpy(&c[OPC_SUM], &sum, sizeof(sum));
	if (ns > HIST_MAX_NS)
		c[OPC_OVERFLOW]++;
	else
		c[OPC_BUCKETS + hist_bucket_of(ns)]++;
}

static void run_timed_ops(struct runner *r, struct wl_worker *w,
			  struct worker_slot *s, uint64_t nops)
{
	uint64_t i, t0 = 0, t1 = 0;

	s->rc = 0;
	for (i = 0; i < nops; i++) {
		w->op_class = 0;
		t0 = timer_ticks();
		s->rc = r->wl->run_batch(w, 1);
		t1 = timer_ticks();
		if (i == 0)
			s->t0 = t0;
		if (s->rc < 0)
			break;
		op_record(r, w->idx, w->op_class, t1 - t0);
	}
	s->t1 = t1;
}

static void worker_run_cmd(struct runner *r, struct wl_worker *w,
			   struct swcount *sc, uint32_t cmd, uint64_t nops)
{
	const struct workload *wl = r->wl;
	struct worker_slot *s = &r->ctl->slot[w->idx];
	uint64_t i, *ticks;

	switch (cmd) {
	case CMD_RUN:
		s->cpu_start = current_cpu();
		swcount_read(sc, &s->sw0);
		if (r->ctx.op_timed[w->idx]) {
			run_timed_ops(r, w, s, nops);
		} else {
			s->t0 = timer_ticks();
			s->rc = wl->run_batch(w, nops);
			s->t1 = timer_ticks();
		}
		s->idle_end = s->rc == WL_IDLE_END;
		if (s->idle_end)
			s->rc = 0;
		swcount_read(sc, &s->sw1);
		s->cpu_end = current_cpu();
		break;
	case CMD_VERIFY:
		s->rc = wl->verify_batch ? wl->verify_batch(w, nops) : 0;
		if (s->rc > 0)
			s->rc = 0;
		break;
	case CMD_HIST:
		ticks = r->hist_ticks + (size_t)w->idx * HIST_MAX_OPS;
		s->rc = 0;
		for (i = 0; i < nops && s->rc >= 0; i++) {
			uint64_t t0 = timer_ticks();

			s->rc = wl->run_batch(w, 1);
			ticks[i] = timer_ticks() - t0;
		}
		if (s->rc > 0)
			s->rc = 0;
		break;
	default:
		break;
	}
}

static void worker_main(struct runner *r, int idx)
{
	struct control *ctl = r->ctl;
	struct worker_slot *s = &ctl->slot[idx];
	struct wl_worker w = {
		.idx = idx, .ctx = &r->ctx, .priv = NULL, .err = s->err,
	};
	struct swcount sc;
	uint32_t seen = 0;

	s->rc = pin_to(r->ctx.worker_cpu[idx], s->err);
	if (s->rc == 0 && timer_thread_init() != 0) {
		snprintf(s->err, WL_ERR_LEN, "cannot open the cycle counter "
			 "in worker %d", idx);
		s->rc = -1;
	}
	swcount_open(&sc);
	if (s->rc == 0 && r->wl->worker_init)
		s->rc = r->wl->worker_init(&w);
	s->cpu_start = current_cpu();
	report_done(ctl);
	if (s->rc != 0)
		goto out;

	for (;;) {
		uint32_t g, cmd;

		while ((g = atomic_load(&ctl->gen)) == seen)
			futex_wait(&ctl->gen, g, NULL);
		seen = g;
		cmd = ctl->cmd;
		if (cmd == CMD_EXIT)
			break;
		barrier_wait(ctl, seen);
		worker_run_cmd(r, &w, &sc, cmd, ctl->nops);
		report_done(ctl);
	}
	if (r->wl->worker_fini)
		r->wl->worker_fini(&w);
out:
	swcount_close(&sc);
}

static void *worker_thread(void *p)
{
	struct worker_arg *a = p;

	worker_main(a->r, a->idx);
	free(a);
	return NULL;
}

static bool worker_died(struct runner *r, char *msg, size_t len)
{
	int i, st;

	if (r->ctx.mode != WL_MODE_PROC)
		return false;
	for (i = 0; i < r->nstarted; i++) {
		pid_t p;

		if (r->pid[i] <= 0)
			continue;
		p = waitpid(r->pid[i], &st, WNOHANG);
		if (p == r->pid[i]) {
			r->pid[i] = 0;
			if (WIFSIGNALED(st))
				snprintf(msg, len, "%s: worker %d (%s) killed "
					 "by signal %d (%s)", r->wl->name, i,
					 r->ctx.worker_name[i], WTERMSIG(st),
					 strsignal(WTERMSIG(st)));
			else
				snprintf(msg, len, "%s: worker %d (%s) exited "
					 "with status %d", r->wl->name, i,
					 r->ctx.worker_name[i],
					 WEXITSTATUS(st));
			return true;
		}
	}
	return false;
}

/*
 * Wait until all workers reported done.  Returns CONFIG_OK, or
 * CONFIG_INTERRUPTED / CONFIG_FAILED with msg filled.
 */
static enum config_status wait_done(struct runner *r, int64_t limit_ns,
				    char *msg, size_t len)
{
	struct control *ctl = r->ctl;
	struct timespec slice = { 0, 100000000 };
	uint64_t start = timer_mono_raw_ns();
	uint32_t d;

	while ((d = atomic_load(&ctl->done)) < ctl->nworkers) {
		futex_wait(&ctl->done, d, &slice);
		if (runner_interrupted)
			return CONFIG_INTERRUPTED;
		if (worker_died(r, msg, len))
			return CONFIG_FAILED;
		if (limit_ns > 0 &&
		    (int64_t)(timer_mono_raw_ns() - start) > limit_ns) {
			snprintf(msg, len, "%s: workers did not finish within "
				 "%.0f s (watchdog); the workload hangs",
				 r->wl->name, limit_ns / 1e9);
			return CONFIG_FAILED;
		}
	}
	return CONFIG_OK;
}

static enum config_status check_rcs(struct runner *r, char *msg, size_t len)
{
	int i;

	for (i = 0; i < r->ctx.nworkers; i++) {
		struct worker_slot *s = &r->ctl->slot[i];

		if (s->rc != 0) {
			snprintf(msg, len, "%s: %s: %s", r->wl->name,
				 r->ctx.worker_name[i],
				 s->err[0] ? s->err : "failed");
			return s->rc == WL_EUSAGE ? CONFIG_USAGE
						  : CONFIG_FAILED;
		}
	}
	return CONFIG_OK;
}

static enum config_status command(struct runner *r, uint32_t cmd,
				  uint64_t nops, char *msg, size_t len)
{
	struct control *ctl = r->ctl;
	int64_t limit = (int64_t)WATCHDOG_FACTOR * r->opts->sample_time_ns;
	enum config_status st;

	if (limit < WATCHDOG_MIN_NS)
		limit = WATCHDOG_MIN_NS;
	if (cmd == CMD_HIST || cmd == CMD_VERIFY)
		limit *= 10;
	ctl->cmd = cmd;
	ctl->nops = nops;
	atomic_store(&ctl->arrived, 0);
	atomic_store(&ctl->done, 0);
	atomic_fetch_add(&ctl->gen, 1);
	futex_wake_all(&ctl->gen);
	st = wait_done(r, limit, msg, len);
	if (st != CONFIG_OK) {
		r->unsynced = true;
		return st;
	}
	return check_rcs(r, msg, len);
}

static enum config_status start_workers(struct runner *r, char *msg,
					size_t len)
{
	struct wl_ctx *ctx = &r->ctx;
	sigset_t all, old;
	int i;

	r->ctl->nworkers = ctx->nworkers;
	atomic_store(&r->ctl->done, 0);
	fflush(NULL);
	/* Workers never take SIGINT/SIGTERM: the coordinator handles them
	   and kills or abandons the workers. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < ctx->nworkers; i++) {
		if (ctx->mode == WL_MODE_PROC) {
			pid_t ppid = getpid();
			pid_t p = fork();

			if (p < 0) {
				snprintf(msg, len, "%s: fork: %s",
					 r->wl->name, strerror(errno));
				break;
			}
			if (p == 0) {
				signal(SIGINT, SIG_IGN);
				signal(SIGTERM, SIG_IGN);
				signal(SIGHUP, SIG_IGN);
				signal(SIGPIPE, SIG_DFL);
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				if (getppid() != ppid)
					_exit(1);
				worker_main(r, i);
				_exit(0);
			}
			r->pid[i] = p;
		} else {
			struct worker_arg *a = malloc(sizeof(*a));
			int e;

			if (!a) {
				snprintf(msg, len, "%s: out of memory",
					 r->wl->name);
				break;
			}
			a->r = r;
			a->idx = i;
			e = pthread_create(&r->tid[i], NULL, worker_thread, a);
			if (e != 0) {
				free(a);
				snprintf(msg, len, "%s: pthread_create: %s",
					 r->wl->name, strerror(e));
				break;
			}
		}
		r->nstarted++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r->nstarted < ctx->nworkers)
		return CONFIG_FAILED;
	return CONFIG_OK;
}

/*
 * Stop the workers.  Processes are told to exit and reaped, or killed
 * (SIGKILL) and reaped when `kill_them`.  Threads are told to exit and
 * joined when they can be; otherwise they are left blocked and the caller
 * must exit the process (workers_stuck).
 */
static void stop_workers(struct runner *r, bool kill_them)
{
	struct control *ctl = r->ctl;
	int i;

	if (r->nstarted == 0)
		return;
	if (!kill_them) {
		ctl->cmd = CMD_EXIT;
		atomic_fetch_add(&ctl->gen, 1);
		futex_wake_all(&ctl->gen);
	}
	if (r->ctx.mode == WL_MODE_PROC) {
		for (i = 0; i < r->nstarted; i++) {
			if (r->pid[i] <= 0)
				continue;
			if (kill_them)
				kill(r->pid[i], SIGKILL);
			while (waitpid(r->pid[i], NULL, 0) < 0 &&
			       errno == EINTR)
				;
			r->pid[i] = 0;
		}
	} else if (!kill_them) {
		for (i = 0; i < r->nstarted; i++)
			pthread_join(r->tid[i], NULL);
	} else {
		r->workers_stuck = true;
	}
	r->nstarted = 0;
}

static void *map_shared(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static double sample_window_ticks(const struct runner *r)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;
	int i;

	for (i = 0; i < r->ctx.nworkers; i++) {
		const struct worker_slot *s = &r->ctl->slot[i];

		if (s->t0 < t0)
			t0 = s->t0;
		if (s->t1 > t1 && !s->idle_end)
			t1 = s->t1;
	}
	return t1 > t0 ? (double)(t1 - t0) : 0.0;
}

static void note_cpus(struct runner *r, struct config_result *res)
{
	int i;

	for (i = 0; i < r->ctx.nworkers; i++) {
		const struct worker_slot *s = &r->ctl->slot[i];

		if (s->cpu_start >= 0)
			CPU_SET(s->cpu_start, &res->cpus_seen[i]);
		if (s->cpu_end >= 0)
			CPU_SET(s->cpu_end, &res->cpus_seen[i]);
	}
}

static uint64_t sum_counter(const struct runner *r, int which)
{
	uint64_t total = 0;
	int i;

	for (i = 0; i < r->ctx.nworkers; i++) {
		const struct worker_slot *s = &r->ctl->slot[i];
		struct swcount_values d;
		uint64_t v;

		swcount_diff(&s->sw0, &s->sw1, &d);
		v = which == 0 ? d.ctx_switches :
		    which == 1 ? d.migrations : d.faults;
		if (v == SWCOUNT_NA)
			return SWCOUNT_NA;
		total += v;
	}
	return total;
}

/* Sum the op-timed workers' class slots (worker -1: all) into h. */
static void op_hist_view(const struct runner *r, int cls, int worker,
			 struct histogram *h)
{
	int w, c;
	size_t k;
	double sum = 0;

	hist_reset(h);
	h->min_seen = UINT64_MAX;
	for (w = 0; w < r->ctx.nworkers; w++) {
		if (!r->ctx.op_timed[w] || (worker >= 0 && w != worker))
			continue;
		for (c = 0; c < WL_MAX_CLASSES; c++) {
			const uint64_t *o;
			double x;

			if (cls >= 0 && c != cls)
				continue;
			o = op_slot(r, w, c);
			if (!o[OPC_N])
				continue;
			for (k = 0; k < r->nbuckets; k++)
				h->counts[k] += o[OPC_BUCKETS + k];
			h->overflow += o[OPC_OVERFLOW];
			h->total += o[OPC_N];
			if (o[OPC_MIN] < h->min_seen)
				h->min_seen = o[OPC_MIN];
			if (o[OPC_MAX] > h->max_seen)
				h->max_seen = o[OPC_MAX];
			memcpy(&x, &o[OPC_SUM], sizeof(x));
			sum += x;
		}
	}
	if (h->total == 0)
		h->min_seen = 0;
	h->sum = sum;
}

static double metric_value(struct runner *r, size_t mi, uint64_t nops,
			   double ticks)
{
	const struct metric_def *m = &r->wl->metrics[mi];
	double ns = timer_ticks_to_ns((uint64_t)ticks);
	struct wl_sample smp;

	/* no window (every worker only served others): no value, never a
	   made-up one; the sample is left out of the row */
	if (ns <= 0)
		return NAN;
	switch (m->kind) {
	case METRIC_NS_PER_OP:
		return ns / (double)nops;
	case METRIC_TICKS_PER_OP:
		return ticks / (double)nops;
	case METRIC_BYTES_PER_SEC:
		return r->ctx.bytes_per_op * (double)nops / (ns / 1e9);
	case METRIC_OPS_PER_SEC:
		return (double)nops / (ns / 1e9);
	case METRIC_OP_PCT:
	case METRIC_OP_MEAN:
		op_hist_view(r, m->op_class, -1, r->scratch);
		/* no op of that class in this sample: no value */
		if (r->scratch->total == 0)
			return NAN;
		if (m->kind == METRIC_OP_MEAN)
			return hist_mean(r->scratch);
		if (m->pct >= 100.0)
			return (double)r->scratch->max_seen;
		return (double)hist_percentile(r->scratch, m->pct);
	case METRIC_CUSTOM:
		smp.nops = nops;
		smp.window_ns = ns;
		smp.ctx_switches = sum_counter(r, 0);
		return r->wl->sample_metric ?
		       r->wl->sample_metric(&r->ctx, mi, &smp) : 0.0;
	}
	return 0;
}

static bool any_op_timed(const struct runner *r)
{
	int w;

	for (w = 0; w < r->ctx.nworkers; w++)
		if (r->ctx.op_timed[w])
			return true;
	return false;
}

/* Fold this sample's per-op times into the result's histograms. */
static void keep_op_hists(struct runner *r, struct config_result *res)
{
	int c, w;

	for (c = 0; c < res->nclasses; c++) {
		op_hist_view(r, c, -1, r->scratch);
		hist_merge(res->class_hist[c], r->scratch);
		if (r->scratch->total &&
		    r->scratch->max_seen > res->class_hist[c]->max_seen)
			res->class_hist[c]->max_seen = r->scratch->max_seen;
	}
	for (w = 0; w < r->ctx.nworkers; w++) {
		if (!res->worker_hist[w])
			continue;
		op_hist_view(r, -1, w, r->scratch);
		hist_merge(res->worker_hist[w], r->scratch);
	}
	op_hist_view(r, -1, -1, r->scratch);
	hist_merge(res->hist, r->scratch);
	res->hist_ops = res->hist->total;
}

static void record_sample(struct runner *r, struct config_result *res,
			  uint64_t nops)
{
	double ticks = sample_window_ticks(r);
	size_t k = res->nsamples;
	size_t m;

	for (m = 0; m < r->wl->nmetrics; m++)
		res->values[m][k] = metric_value(r, m, nops, ticks);
	res->ctx_switches[k] = sum_counter(r, 0);
	res->migrations[k] = sum_counter(r, 1);
	res->faults[k] = sum_counter(r, 2);
	note_cpus(r, res);
	if (r->op_counts)
		keep_op_hists(r, res);
	res->nsamples++;
}

static void progress(const struct runner *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void progress(const struct runner *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->opts->progress)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "\r\033[K%s: ", r->wl->name);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* A sample command; the op-timed counts start from zero each time. */
static enum config_status sample_cmd(struct runner *r, uint64_t nops,
				     char *msg, size_t len)
{
	if (r->op_counts)
		memset(r->op_counts, 0, r->op_bytes);
	return command(r, CMD_RUN, nops, msg, len);
}

/* Grow the batch until one sample lasts the target time. */
static enum config_status grow_batch(struct runner *r, uint64_t *nops_out,
				     char *msg, size_t len)
{
	double target = (double)r->opts->sample_time_ns;
	uint64_t nops = 1;
	enum config_status st;

	for (;;) {
		double ns, factor;

		st = sample_cmd(r, nops, msg, len);
		if (st != CONFIG_OK)
			return st;
		ns = timer_ticks_to_ns((uint64_t)sample_window_ticks(r));
		if (ns >= target || nops >= (UINT64_C(1) << 40))
			break;
		/* Aim 20% past the target so the next try usually lands;
		   at least double, at most x100 per step. */
		factor = ns > 0 ? target * 1.2 / ns : 100.0;
		if (factor < 2.0)
			factor = 2.0;
		if (factor > 100.0)
			factor = 100.0;
		nops = (uint64_t)ceil((double)nops * factor);
	}
	*nops_out = nops;
	return CONFIG_OK;
}

static enum config_status warm_up(struct runner *r, struct config_result *res)
{
	enum config_status st;
	uint64_t start;

	progress(r, "growing the batch");
	st = grow_batch(r, &r->nops, res->msg, sizeof(res->msg));
	if (st != CONFIG_OK)
		return st;
	res->batch_ops = r->nops;
	start = timer_mono_raw_ns();
	do {
		progress(r, "warm-up");
		st = sample_cmd(r, r->nops, res->msg, sizeof(res->msg));
		if (st != CONFIG_OK)
			return st;
	} while ((int64_t)(timer_mono_raw_ns() - start) < r->opts->warmup_ns);
	return CONFIG_OK;
}

/* What else ran during kept sample res->nsamples (before record_sample). */
static void record_interference(struct config_result *res,
				const struct interference_mark *m0,
				const struct interference_mark *m1)
{
	struct interference_sample is;
	size_t k = res->nsamples;

	interference_between(m0, m1, res->canary_ref_ns,
			     interference_tick_ns(), &is);
	res->other_cpu_pct[k] = is.other_cpu_pct;
	res->steal_pct[k] = is.steal_pct;
	res->canary_ns[k] = is.canary_ns;
	res->interf_flags[k] = is.flags;
}

enum config_status runner_sample(struct runner *r, struct config_result *res)
{
	struct interference_mark m0, m1;
	enum config_status st;

	if (res->nsamples >= (size_t)r->opts->reps)
		return CONFIG_OK;
	progress(r, "sample %zu/%d", res->nsamples + 1, r->opts->reps);
	interference_mark(&m0, r->pid, r->nstarted);
	st = sample_cmd(r, r->nops, res->msg, sizeof(res->msg));
	if (st != CONFIG_OK)
		return st;
	interference_mark(&m1, r->pid, r->nstarted);
	record_interference(res, &m0, &m1);
	record_sample(r, res, r->nops);
	return CONFIG_OK;
}

/* The separate per-op pass of workloads that are not op-timed. */
static enum config_status hist_pass(struct runner *r,
				    struct config_result *res)
{
	uint64_t hops = r->nops * (uint64_t)r->opts->reps;
	int w = r->ctx.hist_worker;
	enum config_status st;
	uint64_t k, *t;

	if (hops > HIST_MAX_OPS)
		hops = HIST_MAX_OPS;
	progress(r, "per-op histogram, %llu ops", (unsigned long long)hops);
	st = command(r, CMD_HIST, hops, res->msg, sizeof(res->msg));
	if (st != CONFIG_OK)
		return st;
	res->hist = hist_new(HIST_MAX_NS);
	if (!res->hist) {
		snprintf(res->msg, sizeof(res->msg), "out of memory");
		return CONFIG_FAILED;
	}
	t = r->hist_ticks + (size_t)w * HIST_MAX_OPS;
	for (k = 0; k < hops; k++)
		hist_record(res->hist,
			    (uint64_t)llround(timer_ticks_to_ns(t[k])));
	res->hist_ops = hops;
	res->hist_worker = w;
	return CONFIG_OK;
}

enum config_status runner_finish(struct runner *r, struct config_result *res)
{
	enum config_status st;

	if (r->opts->hist && !r->op_counts) {
		st = hist_pass(r, res);
		if (st != CONFIG_OK)
			return st;
	}
	if (r->wl->verify && r->wl->verify_param &&
	    wl_param(&r->ctx, r->wl->verify_param)) {
		progress(r, "verifying");
		st = command(r, CMD_VERIFY, r->nops, res->msg,
			     sizeof(res->msg));
		if (st != CONFIG_OK)
			return st;
		res->verified = true;
		res->verify_errors = r->wl->verify(&r->ctx, res->verify_report,
						   sizeof(res->verify_report));
		if (res->verify_errors != 0) {
			snprintf(res->msg, sizeof(res->msg),
				 "%s: verification failed: %.400s", r->wl->name,
				 res->verify_report);
			return CONFIG_VERIFY_FAILED;
		}
	}
	return CONFIG_OK;
}

static int alloc_result(struct config_result *res, size_t nmetrics, int reps,
			int nworkers)
{
	size_t m;

	for (m = 0; m < nmetrics; m++) {
		res->values[m] = calloc((size_t)reps, sizeof(double));
		if (!res->values[m])
			return -1;
	}
	res->ctx_switches = calloc((size_t)reps, sizeof(uint64_t));
	res->migrations = calloc((size_t)reps, sizeof(uint64_t));
	res->faults = calloc((size_t)reps, sizeof(uint64_t));
	res->other_cpu_pct = calloc((size_t)reps, sizeof(double));
	res->steal_pct = calloc((size_t)reps, sizeof(double));
	res->canary_ns = calloc((size_t)reps, sizeof(double));
	res->interf_flags = calloc((size_t)reps, sizeof(unsigned));
	if (!res->other_cpu_pct || !res->steal_pct || !res->canary_ns ||
	    !res->interf_flags)
		return -1;
	res->cpus_seen = calloc((size_t)(nworkers > 0 ? nworkers : 1),
				sizeof(cpu_set_t));
	if (!res->ctx_switches || !res->migrations || !res->faults ||
	    !res->cpus_seen)
		return -1;
	return 0;
}

/* Shared per-op counters and the result's histograms, op-timed only. */
static int alloc_op_timing(struct runner *r, struct config_result *res)
{
	int c, w, ntimed = 0;

	if (!any_op_timed(r))
		return 0;
	r->scratch = hist_new(HIST_MAX_NS);
	if (!r->scratch)
		return -1;
	r->nbuckets = r->scratch->nbuckets;
	r->op_stride = OPC_BUCKETS + r->nbuckets;
	r->op_bytes = (size_t)r->ctx.nworkers * WL_MAX_CLASSES *
		      r->op_stride * sizeof(uint64_t);
	r->op_counts = map_shared(r->op_bytes);
	r->ns_per_tick = timer_ticks_to_ns(1000000) / 1e6;
	if (!r->op_counts)
		return -1;
	res->nclasses = r->ctx.nclasses > 0 ? r->ctx.nclasses : 1;
	if (res->nclasses > WL_MAX_CLASSES)
		res->nclasses = WL_MAX_CLASSES;
	for (c = 0; c < res->nclasses; c++) {
		snprintf(res->class_names[c], sizeof(res->class_names[c]),
			 "%s", r->ctx.class_name[c] ? r->ctx.class_name[c]
						    : "all");
		res->class_hist[c] = hist_new(HIST_MAX_NS);
		if (!res->class_hist[c])
			return -1;
	}
	for (w = 0; w < r->ctx.nworkers; w++)
		ntimed += r->ctx.op_timed[w];
	for (w = 0; w < r->ctx.nworkers && ntimed > 1; w++) {
		if (!r->ctx.op_timed[w])
			continue;
		res->worker_hist[w] = hist_new(HIST_MAX_NS);
		if (!res->worker_hist[w])
			return -1;
	}
	res->hist = hist_new(HIST_MAX_NS);
	if (!res->hist)
		return -1;
	for (w = 0; w < r->ctx.nworkers; w++)
		if (r->ctx.op_timed[w]) {
			res->hist_worker = w;
			break;
		}
	return 0;
}

static const char *metric_unit(const struct metric_def *m)
{
	switch (m->kind) {
	case METRIC_TICKS_PER_OP:
		return timer_get_info()->unit;
	case METRIC_NS_PER_OP:
	case METRIC_OP_PCT:
	case METRIC_OP_MEAN:
		return "ns";
	case METRIC_BYTES_PER_SEC:
		return "bytes/s";
	case METRIC_OPS_PER_SEC:
		return "ops/s";
	case METRIC_CUSTOM:
		return m->unit ? m->unit : "count";
	}
	return "?";
}

static enum config_status run_trace(const struct workload *wl,
				    const struct param_set *ps,
				    struct config_result *res);

static void runner_free(struct runner *r)
{
	if (r->ctl)
		munmap(r->ctl, sizeof(*r->ctl));
	if (r->ctx.shared)
		munmap(r->ctx.shared, r->ctx.shared_bytes);
	if (r->hist_ticks)
		munmap(r->hist_ticks, (size_t)r->ctx.nworkers * HIST_MAX_OPS *
				      sizeof(uint64_t));
	if (r->op_counts)
		munmap(r->op_counts, r->op_bytes);
	hist_free(r->scratch);
	free(r);
}

struct runner *runner_open(const struct workload *wl,
			   const struct param_set *ps,
			   const struct run_opts *opts,
			   struct config_result *res)
{
	struct runner *r;
	enum config_status st = CONFIG_OK;
	char why[WL_ERR_LEN] = "";
	size_t m;
	int rc, i;

	memset(res, 0, sizeof(*res));
	res->wl = wl;
	res->ps = *ps;
	if ((wl->supported && !wl->supported(why, sizeof(why))) ||
	    (wl->config_supported &&
	     !wl->config_supported(ps, why, sizeof(why)))) {
		res->status = CONFIG_UNSUPPORTED;
		snprintf(res->msg, sizeof(res->msg), "%s", why);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		res->status = CONFIG_FAILED;
		snprintf(res->msg, sizeof(res->msg), "out of memory");
		return NULL;
	}
	r->wl = wl;
	r->opts = opts;
	r->ctx.wl = wl;
	r->ctx.ps = *ps;
	r->ctx.cpus = opts->cpus;
	r->ctx.ncpus = opts->ncpus;
	r->ctx.mode = WL_MODE_THREAD;
	for (i = 0; i < WL_MAX_WORKERS; i++)
		r->ctx.worker_cpu[i] = -1;

	rc = wl->setup(&r->ctx);
	if (rc != WL_OK) {
		st = rc == WL_EUSAGE ? CONFIG_USAGE : CONFIG_FAILED;
		snprintf(res->msg, sizeof(res->msg), "%s: %s", wl->name,
			 r->ctx.err);
		goto fail;
	}
	r->ctx_setup = true;
	snprintf(res->note, sizeof(res->note), "%s", r->ctx.note);
	if (r->ctx.nworkers < 1 || r->ctx.nworkers > WL_MAX_WORKERS) {
		st = CONFIG_FAILED;
		snprintf(res->msg, sizeof(res->msg), "%s: bad worker count %d",
			 wl->name, r->ctx.nworkers);
		goto fail;
	}
	res->nworkers = r->ctx.nworkers;
	for (i = 0; i < r->ctx.nworkers; i++) {
		snprintf(res->worker_names[i], sizeof(res->worker_names[i]),
			 "%s", r->ctx.worker_name[i] ? r->ctx.worker_name[i]
						     : "worker");
		res->worker_cpu[i] = r->ctx.worker_cpu[i];
	}
	for (m = 0; m < wl->nmetrics; m++)
		res->units[m] = metric_unit(&wl->metrics[m]);
	r->ctl = map_shared(sizeof(*r->ctl));
	if (r->ctx.shared_bytes)
		r->ctx.shared = map_shared(r->ctx.shared_bytes);
	if (opts->hist && !any_op_timed(r))
		r->hist_ticks = map_shared((size_t)r->ctx.nworkers *
					   HIST_MAX_OPS * sizeof(uint64_t));
	if (!r->ctl || (r->ctx.shared_bytes && !r->ctx.shared) ||
	    (opts->hist && !any_op_timed(r) && !r->hist_ticks) ||
	    alloc_op_timing(r, res) ||
	    alloc_result(res, wl->nmetrics, opts->reps, r->ctx.nworkers)) {
		st = CONFIG_FAILED;
		snprintf(res->msg, sizeof(res->msg), "%s: out of memory",
			 wl->name);
		goto fail;
	}

	st = start_workers(r, res->msg, sizeof(res->msg));
	if (st == CONFIG_OK) {
		/* worker_init results */
		st = wait_done(r, WATCHDOG_MIN_NS, res->msg, sizeof(res->msg));
		if (st == CONFIG_OK)
			st = check_rcs(r, res->msg, sizeof(res->msg));
		else
			r->unsynced = true;
	}
	if (st == CONFIG_OK)
		st = warm_up(r, res);
	if (st == CONFIG_OK) {
		res->canary_ref_ns = interference_canary_calibrate();
		return r;
	}
fail:
	runner_close(r, res, st);
	return NULL;
}

enum config_status runner_close(struct runner *r, struct config_result *res,
				enum config_status st)
{
	const struct workload *wl = r->wl;

	if (r->opts->progress)
		fprintf(stderr, "\r\033[K");
	/*
	 * Workers that all reported done wait for the next command and can
	 * be told to exit, even after a failure; only after a wait that gave
	 * up (interrupt, watchdog, dead worker) may they be mid-op.
	 */
	stop_workers(r, r->unsynced);
	if (st == CONFIG_OK && wl->trace_param &&
	    wl_param(&r->ctx, wl->trace_param) > 0)
		st = run_trace(wl, &r->ctx.ps, res);
	if (r->workers_stuck) {
		/* Threads still blocked in the workload: keep everything they
		   may touch alive and reachable; the process is about to exit
		   (exit kills them). */
		abandoned_runner = r;
		if (st != CONFIG_INTERRUPTED) {
			size_t l = strlen(res->msg);

			snprintf(res->msg + l, sizeof(res->msg) - l,
				 "; its threads could not be stopped and "
				 "stay until copyscope exits");
		}
	} else {
		if (r->ctx_setup && wl->teardown)
			wl->teardown(&r->ctx);
		runner_free(r);
	}
	if (st == CONFIG_OK && runner_interrupted)
		st = CONFIG_INTERRUPTED;
	if (st == CONFIG_INTERRUPTED && !res->msg[0])
		snprintf(res->msg, sizeof(res->msg), "interrupted");
	res->status = st;
	return st;
}

enum config_status runner_run_config(const struct workload *wl,
				     const struct param_set *ps,
				     const struct run_opts *opts,
				     struct config_result *res)
{
	struct runner *r = runner_open(wl, ps, opts, res);
	enum config_status st = CONFIG_OK;
	int i;

	if (!r)
		return res->status;
	for (i = 0; i < opts->reps && st == CONFIG_OK; i++)
		st = runner_sample(r, res);
	if (st == CONFIG_OK)
		st = runner_finish(r, res);
	return runner_close(r, res, st);
}

void config_result_free(struct config_result *res)
{
	size_t m;
	int i;

	for (m = 0; m < WL_MAX_METRICS; m++)
		free(res->values[m]);
	free(res->ctx_switches);
	free(res->migrations);
	free(res->faults);
	free(res->other_cpu_pct);
	free(res->steal_pct);
	free(res->canary_ns);
	free(res->interf_flags);
	free(res->cpus_seen);
	hist_free(res->hist);
	for (i = 0; i < WL_MAX_CLASSES; i++)
		hist_free(res->class_hist[i]);
	for (i = 0; i < WL_MAX_WORKERS; i++)
		hist_free(res->worker_hist[i]);
	free(res->trace_ns);
	free(res->trace_ticks);
	memset(res, 0, sizeof(*res));
}

/*
 * Cold-call trace.  The parent re-executes its own binary with the hidden
 * subcommand "__trace" so the calls run in a fresh process image (cold
 * caches, TLB and branch predictors for this code path); the child prints
 * raw clock ticks, one per line, and the parent converts them with its own
 * calibration (the child does not calibrate, so nothing warms up first).
 */
static enum config_status run_trace(const struct workload *wl,
				    const struct param_set *ps,
				    struct config_result *res)
{
	const struct timer_info *ti = timer_get_info();
	const char *clock = ti->source == TIMER_CLOCK_NS ? "ns" : "tsc";
	int64_t n = wl_param_of(wl, ps, wl->trace_param);
	char *argv[PARAM_MAX + 6];
	char vals[PARAM_MAX][320], nbuf[32];
	int pfd[2], st, argc = 0;
	size_t i, got = 0;
	FILE *in;
	pid_t p;

	argv[argc++] = "copyscope";
	argv[argc++] = "__trace";
	argv[argc++] = (char *)wl->name;
	argv[argc++] = (char *)clock;
	snprintf(nbuf, sizeof(nbuf), "%lld", (long long)n);
	argv[argc++] = nbuf;
	for (i = 0; i < wl->nparams; i++) {
		char v[300];

		param_format_value(&wl->params[i], ps->v[i], v, sizeof(v));
		snprintf(vals[i], sizeof(vals[i]), "%s=%s",
			 wl->params[i].name, v);
		argv[argc++] = vals[i];
	}
	argv[argc] = NULL;

	res->trace_ns = calloc((size_t)n, sizeof(double));
	res->trace_ticks = calloc((size_t)n, sizeof(double));
	if (!res->trace_ns || !res->trace_ticks || pipe(pfd) != 0) {
		snprintf(res->msg, sizeof(res->msg), "%s: trace: %s", wl->name,
			 strerror(errno ? errno : ENOMEM));
		return CONFIG_FAILED;
	}
	fflush(NULL);
	p = fork();
	if (p < 0) {
		snprintf(res->msg, sizeof(res->msg), "%s: trace: fork: %s",
			 wl->name, strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return CONFIG_FAILED;
	}
	if (p == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(pfd[1], STDOUT_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "copyscope: trace: exec /proc/self/exe: %s\n",
			strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	in = fdopen(pfd[0], "r");
	if (in) {
		char line[32], *end;
		unsigned long long t;

		while (got < (size_t)n && fgets(line, sizeof(line), in)) {
			errno = 0;
			t = strtoull(line, &end, 10);
			if (errno || end == line || *end != '\n')
				break;
			res->trace_ticks[got] = (double)t;
			res->trace_ns[got] = ti->source == TIMER_CLOCK_NS ?
					     (double)t :
					     (double)t * 1e9 / ti->tsc_hz;
			got++;
		}
		fclose(in);
	} else {
		close(pfd[0]);
	}
	while (waitpid(p, &st, 0) < 0 && errno == EINTR)
		;
	if (runner_interrupted)
		return CONFIG_INTERRUPTED;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || got != (size_t)n) {
		snprintf(res->msg, sizeof(res->msg), "%s: trace: the traced "
			 "process failed (%zu of %lld calls reported)",
			 wl->name, got, (long long)n);
		return CONFIG_FAILED;
	}
	res->ntrace = got;
	return CONFIG_OK;
}

static uint64_t trace_clock(bool tsc)
{
	return tsc ? timer_rdtsc() : timer_mono_raw_ns();
}

int runner_trace_main(int argc, char **argv)
{
	const struct workload *wl;
	struct param_request req;
	struct param_set ps;
	struct runner *r;
	struct wl_worker w;
	char err[256], *end;
	uint64_t *t;
	long long n;
	bool tsc;
	int i, rc = 1;

	if (argc < 4)
		return 2;
	wl = workload_find(argv[1]);
	tsc = strcmp(argv[2], "tsc") == 0;
	errno = 0;
	n = strtoll(argv[3], &end, 10);
	if (errno || end == argv[3] || *end)
		n = 0;
	if (!wl || n <= 0 ||
	    param_request_init(&req, wl->params, wl->nparams, err,
			       sizeof(err)) != 0)
		return 2;
	for (i = 4; i < argc; i++) {
		if (param_request_apply(&req, wl->name, argv[i], err,
					sizeof(err)) != 0) {
			fprintf(stderr, "copyscope: trace: %s\n", err);
			return 2;
		}
	}
	param_request_get(&req, 0, &ps);
	r = calloc(1, sizeof(*r));
	t = calloc((size_t)n, sizeof(*t));
	if (!r || !t) {
		free(r);
		free(t);
		return 1;
	}
	r->wl = wl;
	r->ctx.wl = wl;
	r->ctx.ps = ps;
	r->ctx.mode = WL_MODE_THREAD;
	if (wl->setup(&r->ctx) != WL_OK || r->ctx.nworkers != 1) {
		fprintf(stderr, "copyscope: trace: %s: %s\n", wl->name,
			r->ctx.err[0] ? r->ctx.err : "needs one worker");
		goto out;
	}
	memset(&w, 0, sizeof(w));
	w.ctx = &r->ctx;
	w.err = r->ctx.err;
	if (wl->worker_init && wl->worker_init(&w) != 0) {
		fprintf(stderr, "copyscope: trace: %s: %s\n", wl->name,
			w.err[0] ? w.err : "worker_init failed");
		goto out_teardown;
	}
	for (i = 0; i < n; i++) {
		uint64_t t0 = trace_clock(tsc);

		if (wl->run_batch(&w, 1) != 0) {
			fprintf(stderr, "copyscope: trace: %s: call %d: %s\n",
				wl->name, i + 1, w.err[0] ? w.err : "failed");
			goto out_fini;
		}
		t[i] = trace_clock(tsc) - t0;
	}
	for (i = 0; i < n; i++)
		printf("%llu\n", (unsigned long long)t[i]);
	rc = fflush(stdout) == 0 ? 0 : 1;
out_fini:
	if (wl->worker_fini)
		wl->worker_fini(&w);
out_teardown:
	if (wl->teardown)
		wl->teardown(&r->ctx);
out:
	free(t);
	free(r);
	return rc;
}
