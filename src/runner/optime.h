/*
 * optime.h - per-op times, for the runner.
 *
 * Two ways to get them.  Op-timed workers (ctx->op_timed) have every op
 * of the kept samples timed one by one (two clock reads per op) and
 * recorded into shared per-(worker, class) histograms; the METRIC_OP_*
 * metrics and the per-class and per-worker histograms come from these.
 * A workload without op-timed workers gets a separate --hist pass after
 * the kept samples: one worker's ops timed one by one into a shared tick
 * buffer, converted to one histogram.
 */
#ifndef COPYSCOPE_OPTIME_H
#define COPYSCOPE_OPTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runner/runner.h"
#include "core/workload.h"
#include "stats/histogram.h"

/* Most per-op times one worker records in the --hist pass. */
#define HIST_MAX_OPS 200000
/* Largest per-op time the histograms bucket (10 s); more is overflow. */
#define HIST_MAX_NS 10000000000ULL

struct optime {
	const struct wl_ctx *ctx;
	const struct workload *wl;
	/*
	 * Op-timed workers record into shared per-(worker, class) bucket
	 * arrays of stride words: n, overflow, min, max, sum (as the bits
	 * of a double), then the histogram buckets.  NULL: none op-timed.
	 */
	uint64_t *counts;
	size_t stride, bytes;
	size_t nbuckets;
	double ns_per_tick;
	struct histogram *scratch;	/* coordinator: one sample's view */
	uint64_t *hist_ticks;		/* --hist: [worker][HIST_MAX_OPS] */
};

/*
 * Map what the workers of ctx will record into (before they start) and
 * make res's histograms: the op-timed counts and res's class, worker and
 * merged histograms when any worker is op-timed, else the --hist pass's
 * tick buffer when hist.  0, or -1 when out of memory (then call
 * optime_close()).
 */
int optime_open(struct optime *ot, const struct wl_ctx *ctx, bool hist,
		struct config_result *res);

/* Unmap and free what optime_open() made (res's histograms stay). */
void optime_close(struct optime *ot);

/* Before each sample: the op-timed counts start from zero. */
void optime_reset(struct optime *ot);

/*
 * In an op-timed worker: perform nops ops one by one, each timed and
 * recorded under the class w->op_class it leaves.  *t0 gets the first
 * op's start, *t1 the last op's end, *rc the last run_batch() result (it
 * stops at the first below 0); all three are the worker's slot in the
 * runner's shared block.
 */
void optime_run_ops(const struct optime *ot, struct wl_worker *w,
		    uint64_t nops, int *rc, uint64_t *t0, uint64_t *t1);

/* METRIC_OP_PCT or METRIC_OP_MEAN of the sample just taken, or NAN. */
double optime_metric(struct optime *ot, const struct metric_def *m);

/* Fold the sample just taken into res's histograms. */
void optime_keep(struct optime *ot, struct config_result *res);

/*
 * In a worker, the --hist pass: perform nops (at most HIST_MAX_OPS) ops
 * one by one, keeping each one's ticks.  *rc (the worker's slot): 0 or
 * the failed run_batch() result.
 */
void optime_hist_run(const struct optime *ot, struct wl_worker *w,
		     uint64_t nops, int *rc);

/* After the --hist pass: worker w's nops times as res->hist.  0 or -1. */
int optime_hist_result(const struct optime *ot, int w, uint64_t nops,
		       struct config_result *res);

#endif
