/*
 * sys_null.c - sys.null: the cost of the cheapest system calls (E4 baseline).
 *
 * One op: one raw system call, gettid() or getppid(), through syscall(2),
 * in one pinned thread.  The time includes the syscall instruction, kernel
 * entry and exit (with page-table isolation where it is on: a CR3 switch
 * each way), the trivial handler and the libc syscall() wrapper.
 * Not measured: the loop itself is not subtracted (one compare and branch
 * per call); vDSO calls are never used.  trace=N times each of the first
 * N calls of a freshly exec'ed process, one by one, to show the cold cost
 * against the steady state.
 *
 * spin_ns=N is for testing the comparison statistics only: it adds a busy
 * wait of about N ns (a loop of dependent multiply-adds whose speed setup()
 * calibrates against CLOCK_MONOTONIC_RAW, outside any sample) after each
 * call, a known slowdown that `copyscope compare` must detect.  Never use
 * it to measure anything.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/common_params.h"
#include "core/timer.h"
#include "workloads/workloads.h"

/* Coordinator state, read by the caller thread. */
struct sys_null_state {
	long nr;			/* the system call number */
	uint64_t spin_iters;		/* spin loop iterations per call */
};

/* Keeps the spin loop's result alive. */
static volatile uint64_t spin_sink;

static const char *const call_choices[] = { "gettid", "getppid", NULL };

enum { CALL_GETTID, CALL_GETPPID };

/* The parameters, bound by the core (ctx->params). */
struct sys_null_params {
	int64_t trace, spin_ns;
	int call;
};

static const struct param_def sys_null_param_defs[] = {
	{ .name = "call", .type = PARAM_ENUM, .def = "gettid",
	  .choices = call_choices,
	  .help = "system call to make: gettid or getppid",
	  PARAM_FIELD(struct sys_null_params, call) },
	WL_PARAM_TRACE(struct sys_null_params, trace),
	/* a bare number is ns (the name says so): spin_ns=100 */
	{ .name = "spin_ns", .type = PARAM_TIME, .def = "0", .min = 0,
	  .max = 1000000,
	  .help = "TESTING ONLY: busy wait of about this many ns added to "
		  "each call, to test compare (0: off)",
	  PARAM_FIELD(struct sys_null_params, spin_ns) },
};

static const struct metric_def sys_null_metrics[] = {
	{ .name = "time/call", .kind = METRIC_NS_PER_OP,
	  .dir = METRIC_LOWER_BETTER,
	  .help = "wall time per call" },
	{ .name = "cycles/call", .kind = METRIC_TICKS_PER_OP,
	  .dir = METRIC_LOWER_BETTER,
	  .help = "timer ticks per call (unit says which counter)" },
};

static inline void spin(uint64_t iters)
{
	uint64_t x = spin_sink | 1, i;

	for (i = 0; i < iters; i++) {
		/* one dependent multiply-add per iteration */
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ __volatile__("" : "+r"(x));
	}
	spin_sink = x;
}

/*
 * Spin loop iterations per ns: the fastest of 5 timed runs of 200000
 * iterations (the fastest is the loop's own speed; slower runs were
 * interrupted).
 */
static double spin_iters_per_ns(void)
{
	double best = 0;
	int k;

	for (k = 0; k < 5; k++) {
		uint64_t t0 = timer_mono_raw_ns(), t1;
		double rate;

		spin(200000);
		t1 = timer_mono_raw_ns();
		rate = t1 > t0 ? 200000.0 / (double)(t1 - t0) : 0.0;
		if (rate > best)
			best = rate;
	}
	return best;
}

static int sys_null_setup(struct wl_ctx *ctx)
{
	const struct sys_null_params *pp = ctx->params;
	struct sys_null_state *s = calloc(1, sizeof(*s));
	int64_t spin_ns = pp->spin_ns;

	if (!s) {
		snprintf(ctx->err, sizeof(ctx->err), "setup: calloc: %s",
			 strerror(ENOMEM));
		return WL_EFAIL;
	}
	ctx->nworkers = 1;
	ctx->worker_name[0] = "caller";
	ctx->hist_worker = 0;
	s->nr = pp->call == CALL_GETTID ? SYS_gettid : SYS_getppid;
	if (spin_ns > 0) {
		double rate = spin_iters_per_ns();

		s->spin_iters = (uint64_t)((double)spin_ns * rate + 0.5);
		snprintf(ctx->note, sizeof(ctx->note), "spin_ns=%lld (testing "
			 "only): %llu spin iterations added to each call",
			 (long long)spin_ns,
			 (unsigned long long)s->spin_iters);
	}
	ctx->priv = s;
	return WL_OK;
}

static int sys_null_run_batch(struct wl_worker *w, uint64_t nops)
{
	const struct sys_null_state *s = w->ctx->priv;
	uint64_t i;

	if (s->spin_iters == 0) {
		for (i = 0; i < nops; i++)
			syscall(s->nr);
		return 0;
	}
	for (i = 0; i < nops; i++) {
		syscall(s->nr);
		spin(s->spin_iters);
	}
	return 0;
}

static void sys_null_teardown(struct wl_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

const struct workload wl_sys_null = {
	.name = "sys.null",
	.summary = "cost of a null system call (gettid, getppid)",
	.op = "one raw syscall(2) of the chosen call",
	.not_measured = "vDSO paths; the loop's compare-and-branch is not "
			"subtracted",
	.params = sys_null_param_defs,
	.nparams = sizeof(sys_null_param_defs) /
		   sizeof(sys_null_param_defs[0]),
	.params_size = sizeof(struct sys_null_params),
	.metrics = sys_null_metrics,
	.nmetrics = sizeof(sys_null_metrics) / sizeof(sys_null_metrics[0]),
	.setup = sys_null_setup,
	.run_batch = sys_null_run_batch,
	.teardown = sys_null_teardown,
	.caps = WL_CAP_TRACE,
};
