/*
 * check_plan.h - what `copyscope check BASE` measures again: from BASE's
 * stored runs, the distinct configurations (of the named workloads only,
 * when some are named) as jobs of one configuration each, BASE's run
 * options (reps, sample time, warm-up, histogram, CPUs, interleaving,
 * counters) and how many runs.  Planning only: nothing is measured or
 * printed here.
 */
#ifndef COPYSCOPE_SESSION_CHECK_PLAN_H
#define COPYSCOPE_SESSION_CHECK_PLAN_H

#include <stddef.h>

#include "results/run.h"
#include "session/session.h"

/* What check was asked to measure again. */
struct check_plan_request {
	const struct run_data *base;	/* BASE's runs, as loaded */
	size_t nbase;
	const char *const *workloads;	/* only these workloads (by name);
					   NULL or none: all of BASE's */
	size_t nworkloads;
	int reps;			/* kept samples; 0: BASE's */
	int runs;			/* runs to measure; 0: as many as
					   BASE has when that is at least
					   CMP_MIN_RUNS, else 1 */
};

/* The plan: a session specification and how many sessions. */
struct check_plan {
	/*
	 * jobs (owned, one configuration each, in BASE's order, each
	 * distinct configuration once), njobs, ro, interleave and
	 * perf_counters set; tag, group_id, cmdline, store and the output
	 * hooks are the caller's to set.
	 */
	struct session_spec spec;
	int nruns;			/* sessions to run, >= 1 */
	/* not empty: BASE's CPU list cannot be used here (the reason,
	   ending "using every allowed CPU"); the plan takes every CPU this
	   process may use instead */
	char warning[512];
};

/*
 * Plan the re-measurement of req->base into plan (free with
 * check_plan_free(), also after an error).  BASE's options are those of
 * its first run; runs stored before options were recorded leave the run
 * defaults (session_spec_init()), and --interleave is dropped when there
 * are more configurations than SESSION_MAX_INTERLEAVE.  Returns 0, or 1
 * with the reason in err: a configuration of BASE cannot be measured by
 * this build ("cannot rerun run ID: ..."), BASE has nothing (of the
 * named workloads) to measure, or memory ran out.
 */
int check_plan_make(const struct check_plan_request *req,
		    struct check_plan *plan, char *err, size_t errlen);

/* Free what check_plan_make() allocated; plan can be made again. */
void check_plan_free(struct check_plan *plan);

#endif
