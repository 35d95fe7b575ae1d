/*
 * build_results.h - where a result is made: the runner's output for one
 * configuration (struct config_result, runner/runner.h) turned into the
 * typed records of the results model, once.
 */
#ifndef COPYSCOPE_SESSION_BUILD_RESULTS_H
#define COPYSCOPE_SESSION_BUILD_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runner/runner.h"
#include "results/result.h"

/* How an interleaved run took this configuration's samples. */
struct result_interleave {
	uint64_t seed;
	const int64_t *order;		/* global index of each kept sample */
	size_t norder;
	int64_t of;			/* samples of the whole run */
};

/*
 * Append the results of cr to out: one configuration and one result per
 * metric that has a value in at least one kept sample (samples without a
 * value, e.g. a percentile of an op class that had no op, are left out),
 * finalized.  With want_hist the per-op histogram goes with the first time
 * metric; a cold-call trace becomes one more result (trace set).  job
 * numbers the workload entry of the run; il is NULL unless interleaved.
 * Returns 0, or -1 on ENOMEM (out keeps what was appended before).
 */
int results_build(const struct config_result *cr, int job, bool want_hist,
		  const struct result_interleave *il, struct result_set *out);

#endif
