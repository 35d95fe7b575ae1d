/*
 * runner.c - runs one configuration of a workload: its set-up
 * (runner/context.c: parameters, mode, placement), its workers
 * (runner/worker.c), the kept samples and their metrics, the histogram
 * and verify passes, the cold-call trace (runner/trace.c) and the
 * teardown.  Batch growth, warm-up and the injection's measurement are
 * runner_batch.c's; per-op times are kept by runner/optime.c.
 */
#include "runner/runner.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "runner/context.h"
#include "runner/inject.h"
#include "runner/interference.h"
#include "runner/optime.h"
#include "runner/runner_priv.h"
#include "runner/swcount.h"
#include "runner/timer.h"
#include "stats/summary.h"
#include "runner/trace.h"
#include "runner/worker.h"

volatile sig_atomic_t runner_interrupted;
volatile sig_atomic_t runner_signal;

/* A sample taking longer than this many target times is a hang. */
#define WATCHDOG_FACTOR 100

/* A runner whose threads could not be stopped (see workers_stop()). */
static struct runner *abandoned_runner;

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

bool wl_interrupted(void)
{
	return runner_interrupted != 0;
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
		const struct worker_slot *s = &r->ws.ctl->slot[i];

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
		const struct worker_slot *s = &r->ws.ctl->slot[i];

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
		const struct worker_slot *s = &r->ws.ctl->slot[i];
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
		return optime_metric(&r->ot, m);
	case METRIC_CUSTOM:
		smp.nops = nops;
		smp.window_ns = ns;
		smp.ctx_switches = sum_counter(r, 0);
		return r->wl->sample_metric ?
		       r->wl->sample_metric(&r->ctx, mi, &smp) : 0.0;
	}
	return 0;
}

/*
 * The window's ticks the metrics of kept sample k use: the wall window,
 * or for one worker its on-CPU share of it (interference_offcpu());
 * sets res's offcpu_pct[k], oncpu_ns[k] and the flag.
 */
/* The workers' clocks over the sample just taken, for interference_offcpu(). */
static unsigned last_offcpu(const struct runner *r, double wall_ns,
			    double *offcpu_pct, double *oncpu_ns)
{
	struct interference_worker w[WL_MAX_WORKERS];
	int i;

	for (i = 0; i < r->ctx.nworkers; i++) {
		const struct worker_slot *s = &r->ws.ctl->slot[i];

		w[i].cpu_ns = s->cpu0_ns >= 0 && s->cpu1_ns >= s->cpu0_ns ?
			      s->cpu1_ns - s->cpu0_ns : -1;
		w[i].wait_ns = s->wait0_ns >= 0 && s->wait1_ns >= s->wait0_ns ?
			       s->wait1_ns - s->wait0_ns : -1;
		w[i].timed = !s->idle_end;
	}
	return interference_offcpu(w, r->ctx.nworkers, wall_ns, offcpu_pct,
				   oncpu_ns);
}

static double metric_ticks(struct runner *r, struct config_result *res,
			   size_t k, double ticks)
{
	double wall = timer_ticks_to_ns((uint64_t)ticks);

	res->interf_flags[k] |= last_offcpu(r, wall, &res->offcpu_pct[k],
					    &res->oncpu_ns[k]);
	return isnan(res->oncpu_ns[k]) ? ticks :
	       ticks * res->oncpu_ns[k] / wall;
}

static void record_sample(struct runner *r, struct config_result *res,
			  uint64_t nops)
{
	double ticks = sample_window_ticks(r);
	double mticks = metric_ticks(r, res, res->nsamples, ticks);
	size_t k = res->nsamples;
	size_t m;

	for (m = 0; m < r->wl->nmetrics; m++)
		res->values[m][k] = metric_value(r, m, nops, mticks);
	res->window_ns[k] = timer_ticks_to_ns((uint64_t)ticks);
	res->ctx_switches[k] = sum_counter(r, 0);
	res->migrations[k] = sum_counter(r, 1);
	res->faults[k] = sum_counter(r, 2);
	runner_hw_record(r, res, k, nops);
	note_cpus(r, res);
	optime_keep(&r->ot, res);
	res->nsamples++;
}

void runner_progress(const struct runner *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->opts->progress)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "\r\033[K%s: ", r->wl->name);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* Give the workers cmd, with a watchdog of WATCHDOG_FACTOR samples. */
static enum config_status command(struct runner *r, uint32_t cmd,
				  uint64_t nops, char *msg, size_t len)
{
	int64_t limit = (int64_t)WATCHDOG_FACTOR * r->opts->stored.sample_time_ns;

	if (limit < WATCHDOG_MIN_NS)
		limit = WATCHDOG_MIN_NS;
	if (cmd == CMD_HIST || cmd == CMD_VERIFY)
		limit *= 10;
	return workers_command(&r->ws, cmd, nops, limit, msg, len);
}

/* A sample command; the op-timed counts start from zero each time. */
enum config_status runner_sample_cmd(struct runner *r, uint64_t nops,
				     char *msg, size_t len)
{
	optime_reset(&r->ot);
	return command(r, CMD_RUN, nops, msg, len);
}

/* The window of the sample just taken, ns. */
double runner_last_window_ns(const struct runner *r)
{
	return timer_ticks_to_ns((uint64_t)sample_window_ticks(r));
}

/* What the metrics of the sample just taken come from, ns. */
double runner_last_metric_ns(const struct runner *r)
{
	double wall = runner_last_window_ns(r), pct, oncpu;

	last_offcpu(r, wall, &pct, &oncpu);
	return isnan(oncpu) ? wall : oncpu;
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

/*
 * --kernel: one traced sample of the same batch right after a kept one
 * (so the two sides of the overhead see the same machine), recorded only
 * while the workers run it, and never among the kept samples.
 */
static enum config_status traced_sample(struct runner *r,
					struct config_result *res)
{
	uint64_t lo[WL_MAX_WORKERS], hi[WL_MAX_WORKERS];
	struct kview_sample_info si = {
		.nops = r->nops, .nworkers = r->ctx.nworkers,
		.lo_ns = lo, .hi_ns = hi,
	};
	enum config_status st;
	int i;

	runner_progress(r, "sample %zu/%d, traced", res->nsamples,
			r->opts->stored.reps);
	if (kview_begin(r->kv, res->msg, sizeof(res->msg)) != 0)
		return CONFIG_FAILED;
	r->ws.ctl->mono_marks = 1;
	st = runner_sample_cmd(r, r->nops, res->msg, sizeof(res->msg));
	r->ws.ctl->mono_marks = 0;
	if (st != CONFIG_OK) {
		kview_stop(r->kv);	/* recording off; no more samples */
		return st;
	}
	si.op_workers = 0;
	for (i = 0; i < r->ctx.nworkers; i++) {
		lo[i] = r->ws.ctl->slot[i].mono0;
		hi[i] = r->ws.ctl->slot[i].mono1;
		si.op_workers += r->ctx.op_timed[i];
	}
	si.window_ns = runner_last_window_ns(r);
	if (kview_end(r->kv, &si, res->msg, sizeof(res->msg)) != 0)
		return CONFIG_FAILED;
	return CONFIG_OK;
}

/*
 * --kernel: open the views' tracepoints for this configuration's
 * workers (their task ids, as each reported it), disabled until the
 * first traced sample.
 */
static enum config_status kview_start(struct runner *r,
				      struct config_result *res)
{
	pid_t tids[WL_MAX_WORKERS];
	struct kview_workers w = {
		.tids = tids, .ntids = r->ctx.nworkers, .marks = true,
		.mark0 = &r->ws.ctl->slot[0].in_batch,
		.mark_stride = sizeof(r->ws.ctl->slot[0]),
		.profile_hz = (unsigned)r->opts->profile_hz,
		.profile_backend = r->opts->kprof_backend,
	};
	char err[400];
	int i;

	if (!r->opts->stored.kviews)
		return CONFIG_OK;
	for (i = 0; i < r->ctx.nworkers; i++)
		tids[i] = r->ws.ctl->slot[i].tid;
	r->kv = kview_open(r->opts->stored.kviews, r->opts->kbackend, &w,
			   (size_t)r->cap, err, sizeof(err));
	if (!r->kv) {
		snprintf(res->msg, sizeof(res->msg), "%s: --kernel: %s",
			 r->wl->name, err);
		return CONFIG_FAILED;
	}
	return CONFIG_OK;
}

enum config_status runner_sample(struct runner *r, struct config_result *res)
{
	struct interference_mark m0, m1;
	enum config_status st;

	if (res->nsamples >= (size_t)r->cap)
		return CONFIG_OK;
	if (r->opts->precision_pct > 0 &&
	    res->nsamples >= (size_t)r->opts->stored.reps)
		runner_progress(r, "sample %zu (precision %s)",
				res->nsamples + 1, res->precision_metric);
	else if (res->nsamples >= (size_t)r->opts->stored.reps)
		runner_progress(r, "sample %zu (in place of a disturbed one)",
				res->nsamples + 1);
	else
		runner_progress(r, "sample %zu/%d", res->nsamples + 1,
				r->opts->stored.reps);
	if (r->opts->stored.fresh_workers && res->nsamples > 0 && !r->kv) {
		st = runner_fresh_workers(r, res);
		if (st != CONFIG_OK)
			return st;
	}
	interference_mark(&m0, r->ws.pid, r->ws.nstarted);
	st = runner_sample_cmd(r, r->nops, res->msg, sizeof(res->msg));
	if (st != CONFIG_OK)
		return st;
	interference_mark(&m1, r->ws.pid, r->ws.nstarted);
	record_interference(res, &m0, &m1);
	record_sample(r, res, r->nops);
	return r->kv ? traced_sample(r, res) : CONFIG_OK;
}

/* The separate per-op pass of workloads that are not op-timed. */
static enum config_status hist_pass(struct runner *r,
				    struct config_result *res)
{
	uint64_t hops = r->nops * (uint64_t)r->opts->stored.reps;
	enum config_status st;

	if (hops > HIST_MAX_OPS)
		hops = HIST_MAX_OPS;
	runner_progress(r, "per-op histogram, %llu ops",
			(unsigned long long)hops);
	st = command(r, CMD_HIST, hops, res->msg, sizeof(res->msg));
	if (st != CONFIG_OK)
		return st;
	if (optime_hist_result(&r->ot, r->ctx.hist_worker, hops, res) != 0) {
		snprintf(res->msg, sizeof(res->msg), "out of memory");
		return CONFIG_FAILED;
	}
	return CONFIG_OK;
}

enum config_status runner_finish(struct runner *r, struct config_result *res)
{
	int row = param_find_role(r->wl->params, r->wl->nparams,
				  PARAM_ROLE_VERIFY);
	enum config_status st;

	runner_hw_note(res);
	if (r->opts->stored.hist && !r->ot.counts) {
		st = hist_pass(r, res);
		if (st != CONFIG_OK)
			return st;
	}
	if ((r->wl->caps & WL_CAP_VERIFY) && row >= 0 && r->ctx.ps.v[row]) {
		runner_progress(r, "verifying");
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
	res->window_ns = calloc((size_t)reps, sizeof(double));
	res->offcpu_pct = calloc((size_t)reps, sizeof(double));
	res->oncpu_ns = calloc((size_t)reps, sizeof(double));
	if (!res->other_cpu_pct || !res->steal_pct || !res->canary_ns ||
	    !res->interf_flags || !res->window_ns || !res->offcpu_pct ||
	    !res->oncpu_ns || runner_hw_alloc(res, reps))
		return -1;
	res->cpus_seen = calloc((size_t)(nworkers > 0 ? nworkers : 1),
				sizeof(cpu_set_t));
	if (!res->ctx_switches || !res->migrations || !res->faults ||
	    !res->cpus_seen)
		return -1;
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

static void runner_free(struct runner *r)
{
	if (r->ws.ctl)
		munmap(r->ws.ctl, sizeof(*r->ws.ctl));
	if (r->ctx.shared)
		munmap(r->ctx.shared, r->ctx.shared_bytes);
	optime_close(&r->ot);
	free(r);
}

/*
 * --precision: the room to make for kept samples: enough for max_time_ns
 * of samples a quarter of the target long (a batch is sized so a sample
 * lasts the target; shorter ones are rare), at least reps, at most
 * RUN_PRECISION_MAX_SAMPLES.
 */
static int precision_cap(const struct run_opts *o)
{
	int64_t q = o->stored.sample_time_ns / 4 > 0 ? o->stored.sample_time_ns / 4 : 1;
	int64_t n;

	if (o->precision_pct <= 0)	/* room for the retakes too */
		return o->stored.reps > INT32_MAX / 2 ? o->stored.reps : 2 * o->stored.reps;
	n = o->max_time_ns / q + o->stored.reps;
	if (n > RUN_PRECISION_MAX_SAMPLES)
		n = RUN_PRECISION_MAX_SAMPLES;
	return n < o->stored.reps ? o->stored.reps : (int)n;
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
	res->target_ns = opts->stored.sample_time_ns;
	res->tick_ns = timer_get_info()->ns_per_tick;
	res->wl = wl;
	res->ps = *ps;
	if (!wl_can_run(wl, ps, why, sizeof(why))) {
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
	r->cap = precision_cap(opts);
	res->precision_asked_pct = opts->precision_pct;
	res->precision_pct = NAN;
	rc = wl_ctx_setup(&r->ctx, wl, ps, opts->cpus, opts->ncpus);
	if (rc != WL_OK) {
		/* a set-up that gave up on a signal (pipe.matrix waiting
		   for its stressor) was interrupted, not failed */
		st = runner_interrupted ? CONFIG_INTERRUPTED :
		     rc == WL_EUSAGE ? CONFIG_USAGE : CONFIG_FAILED;
		snprintf(res->msg, sizeof(res->msg), "%s: %s", wl->name,
			 r->ctx.err);
		goto fail;
	}
	r->ctx_setup = true;
	runner_inject_calibrate(r, res);
	snprintf(res->note, sizeof(res->note), "%s", r->ctx.note);
	res->nworkers = r->ctx.nworkers;
	for (i = 0; i < r->ctx.nworkers; i++) {
		snprintf(res->worker_names[i], sizeof(res->worker_names[i]),
			 "%s", r->ctx.worker_name[i] ? r->ctx.worker_name[i]
						     : "worker");
		res->worker_cpu[i] = r->ctx.worker_cpu[i];
	}
	for (m = 0; m < wl->nmetrics; m++)
		res->units[m] = metric_unit(&wl->metrics[m]);
	r->ws.ctl = map_shared(sizeof(*r->ws.ctl));
	if (r->ws.ctl)
		r->ctx.inject_on = &r->ws.ctl->inject_on;
	r->ws.ctx = &r->ctx;
	r->ws.ot = &r->ot;
	if (r->ctx.shared_bytes)
		r->ctx.shared = map_shared(r->ctx.shared_bytes);
	if (!r->ws.ctl || (r->ctx.shared_bytes && !r->ctx.shared) ||
	    optime_open(&r->ot, &r->ctx, opts->stored.hist, res) ||
	    alloc_result(res, wl->nmetrics, r->cap, r->ctx.nworkers)) {
		st = CONFIG_FAILED;
		snprintf(res->msg, sizeof(res->msg), "%s: out of memory",
			 wl->name);
		goto fail;
	}

	st = workers_start(&r->ws, res->msg, sizeof(res->msg));
	if (st == CONFIG_OK)	/* worker_init results */
		st = workers_wait(&r->ws, WATCHDOG_MIN_NS, res->msg,
				  sizeof(res->msg));
	if (st == CONFIG_OK)
		st = runner_warm_up(r, res);
	if (st == CONFIG_OK)
		st = runner_inject_measure(r, res);
	if (st == CONFIG_OK)
		st = kview_start(r, res);
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
	int trace;

	if (r->opts->progress)
		fprintf(stderr, "\r\033[K");
	/*
	 * Workers that all reported done wait for the next command and can
	 * be told to exit, even after a failure; only after a wait that gave
	 * up (interrupt, watchdog, dead worker) may they be mid-op.
	 */
	workers_stop(&r->ws, r->ws.unsynced);
	if (r->kv) {
		/* the aggregate goes with the result; the tracer closes */
		kview_stop(r->kv);
		res->kview = r->kv;
		r->kv = NULL;
	}
	trace = param_find_role(wl->params, wl->nparams, PARAM_ROLE_TRACE);
	if (st == CONFIG_OK && (wl->caps & WL_CAP_TRACE) && trace >= 0 &&
	    r->ctx.ps.v[trace] > 0)
		st = trace_run(wl, &r->ctx.ps, res);
	if (r->ws.stuck) {
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
		if (r->ctx_setup)
			wl_ctx_teardown(&r->ctx);
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
	bool precise = opts->precision_pct > 0;
	int64_t t0;
	int i, ok = 0;

	if (!r)
		return res->status;
	t0 = (int64_t)timer_mono_raw_ns();
	for (i = 0; i < opts->stored.reps && st == CONFIG_OK; i++)
		st = runner_sample(r, res);
	if (!precise && st == CONFIG_OK)
		st = runner_retake_disturbed(r, res);
	while (precise && st == CONFIG_OK) {
		if (runner_precision_due(res->nsamples, (size_t)opts->stored.reps)) {
			ok = runner_precision_check(r, res);
			if (ok != 0)
				break;
		}
		if ((int64_t)timer_mono_raw_ns() - t0 >= opts->max_time_ns ||
		    res->nsamples >= (size_t)r->cap)
			break;
		st = runner_sample(r, res);
	}
	if (precise) {
		if (ok == 0 && st == CONFIG_OK)
			ok = runner_precision_check(r, res);
		if (ok < 0) {
			snprintf(res->msg, sizeof(res->msg), "out of memory");
			st = CONFIG_FAILED;
		}
		res->precision_met = ok > 0;
		res->precision_time_ns = (int64_t)timer_mono_raw_ns() - t0;
	}
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
	runner_hw_free(res);
	free(res->other_cpu_pct);
	free(res->steal_pct);
	free(res->canary_ns);
	free(res->window_ns);
	free(res->offcpu_pct);
	free(res->oncpu_ns);
	free(res->interf_flags);
	free(res->cpus_seen);
	hist_free(res->hist);
	for (i = 0; i < WL_MAX_CLASSES; i++)
		hist_free(res->class_hist[i]);
	for (i = 0; i < WL_MAX_WORKERS; i++)
		hist_free(res->worker_hist[i]);
	free(res->trace_ns);
	free(res->trace_ticks);
	kview_free(res->kview);
	memset(res, 0, sizeof(*res));
}
