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
 */
#include <sys/syscall.h>
#include <unistd.h>

#include "core/runner.h"
#include "workloads/workloads.h"

static const char *const call_choices[] = { "gettid", "getppid", NULL };

enum { CALL_GETTID, CALL_GETPPID };

static const struct param_def sys_null_params[] = {
	{ .name = "call", .type = PARAM_ENUM, .def = "gettid",
	  .choices = call_choices,
	  .help = "system call to make: gettid or getppid" },
	{ .name = "trace", .type = PARAM_INT, .def = "0", .min = 0,
	  .max = 100000,
	  .help = "time each of the first N calls of a fresh process "
		  "(0: off)" },
};

static const struct metric_def sys_null_metrics[] = {
	{ .name = "time/call", .kind = METRIC_NS_PER_OP,
	  .dir = METRIC_LOWER_BETTER,
	  .help = "wall time per call" },
	{ .name = "cycles/call", .kind = METRIC_TICKS_PER_OP,
	  .dir = METRIC_LOWER_BETTER,
	  .help = "timer ticks per call (unit says which counter)" },
};

static int sys_null_setup(struct wl_ctx *ctx)
{
	ctx->nworkers = 1;
	ctx->mode = WL_MODE_THREAD;
	ctx->worker_name[0] = "caller";
	ctx->hist_worker = 0;
	ctx->priv = (void *)(long)(wl_param(ctx, "call") == CALL_GETTID ?
				   SYS_gettid : SYS_getppid);
	if (ctx->ncpus > 0)
		wl_place_workers(ctx, PLACE_SPLIT);
	return WL_OK;
}

static int sys_null_run_batch(struct wl_worker *w, uint64_t nops)
{
	long nr = (long)w->ctx->priv;
	uint64_t i;

	for (i = 0; i < nops; i++)
		syscall(nr);
	return 0;
}

const struct workload wl_sys_null = {
	.name = "sys.null",
	.summary = "cost of a null system call (gettid, getppid)",
	.op = "one raw syscall(2) of the chosen call",
	.not_measured = "vDSO paths; the loop's compare-and-branch is not "
			"subtracted",
	.params = sys_null_params,
	.nparams = sizeof(sys_null_params) / sizeof(sys_null_params[0]),
	.metrics = sys_null_metrics,
	.nmetrics = sizeof(sys_null_metrics) / sizeof(sys_null_metrics[0]),
	.setup = sys_null_setup,
	.run_batch = sys_null_run_batch,
	.trace_param = "trace",
};
