/*
 * explain_plan.h - what `run --explain` measures besides the run's own
 * configurations: for every job of a workload with an explain recipe
 * (struct wl_explain, core/workload.h), a job of each of its floors at
 * the same sizes, so that explain_results() (report/explain.c) can place
 * them side by side.  Planning only: nothing is measured or printed here.
 */
#ifndef COPYSCOPE_SESSION_EXPLAIN_PLAN_H
#define COPYSCOPE_SESSION_EXPLAIN_PLAN_H

#include <stddef.h>

#include "session/session.h"

/*
 * Append to jobs[0 .. *njobs) the floor jobs of every job that has an
 * explain recipe: each floor's workload with its fixed settings (the
 * recipe's "set") and the explained job's values of the shared
 * parameters (its "same"), unless a job already measures exactly that
 * (several explained jobs at the same sizes share their floors, and a
 * floor the user named is not measured twice).  At most max_jobs jobs in
 * all.  Returns 0 (*njobs grown); 2 with the reason in err when the
 * request cannot be explained (no job with a recipe: err names the
 * workloads that have one; a job outside its recipe's "only" settings; a
 * shared value the floor does not take; more than max_jobs jobs); 1 with
 * err starting "BUG:" when a recipe names a workload or setting this
 * build does not have.  On an error *njobs and jobs[0 .. *njobs) are
 * those before the call or with some floors added.
 */
int explain_plan_add_floors(struct session_job *jobs, size_t *njobs,
			    size_t max_jobs, char *err, size_t errlen);

#endif
