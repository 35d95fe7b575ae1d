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
 * inject_ns=N is for testing the comparison statistics only: the core's
 * calibrated injection (runner/inject.h) adds N ns of dependent steps
 * after each call, and measures and stores what they delivered, a known
 * slowdown that `copyscope compare` must detect.  Every call, inject_ns=0
 * included, runs the injection's wait (with zero steps: two fences and a
 * jump, a few ns), so that both sides of a comparison run the same code.
 * Never use inject_ns to measure anything.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/common_metrics.h"
#include "core/common_params.h"
#include "runner/inject.h"
#include "util/array.h"
#include "workloads/workloads.h"

/* Coordinator state, read by the caller thread. */
struct sys_null_state {
	long nr;			/* the system call number */
};

static const char *const call_choices[] = { "gettid", "getppid", NULL };

enum { CALL_GETTID, CALL_GETPPID };

/* The parameters, bound by the core (ctx->params). */
struct sys_null_params {
	int64_t trace, inject_ns;
	int call;
};

static const struct param_def sys_null_param_defs[] = {
	{ .name = "call", .type = PARAM_ENUM, .def = "gettid",
	  .choices = call_choices,
	  .help = "system call to make: gettid or getppid",
	  PARAM_FIELD(struct sys_null_params, call) },
	WL_PARAM_TRACE(struct sys_null_params, trace),
	WL_PARAM_INJECT(struct sys_null_params, inject_ns),
};

static const struct metric_def sys_null_metrics[] = {
	WL_METRIC_TIME_CALL("wall time per call"),
	WL_METRIC_CYCLES_CALL,
};

static int sys_null_setup(struct wl_ctx *ctx)
{
	const struct sys_null_params *pp = ctx->params;
	struct sys_null_state *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(ctx->err, sizeof(ctx->err), "setup: calloc: %s",
			 strerror(ENOMEM));
		return WL_EFAIL;
	}
	ctx->nworkers = 1;
	ctx->worker_name[0] = "caller";
	ctx->hist_worker = 0;
	s->nr = pp->call == CALL_GETTID ? SYS_gettid : SYS_getppid;
	ctx->priv = s;
	return WL_OK;
}

static int sys_null_run_batch(struct wl_worker *w, uint64_t nops)
{
	const struct sys_null_state *s = w->ctx->priv;
	uint64_t i, x = 0;

	/* every call waits on its result and hands the wait's end, masked
	   to zero, to the next call (runner/inject.h), with or without an
	   injection: inject_ns=0 runs this same loop */
	for (i = 0; i < nops; i++) {
		x = (uint64_t)syscall(s->nr + (long)inject_zero(x));
		x = wl_inject(w, x);
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
	.not_measured = "vDSO paths; the loop's compare-and-branch and the "
			"injection's empty wait (a few ns) are not "
			"subtracted",
	.params = sys_null_param_defs,
	.nparams = ARRAY_SIZE(sys_null_param_defs),
	.params_size = sizeof(struct sys_null_params),
	.metrics = sys_null_metrics,
	.nmetrics = ARRAY_SIZE(sys_null_metrics),
	.setup = sys_null_setup,
	.run_batch = sys_null_run_batch,
	.teardown = sys_null_teardown,
	.caps = WL_CAP_TRACE | WL_CAP_INJECT,
};
