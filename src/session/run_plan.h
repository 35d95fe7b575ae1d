/*
 * run_plan.h - what `copyscope run` will measure, planned from its
 * command line: the jobs (each workload named, each entry of each suite
 * named, else the suite 'default'), every key=value applied to the jobs
 * that have the key, verify=1 where asked, and the floors of --explain;
 * with the suite summary's line of each job that came from a suite.
 * Planning only: nothing is measured or printed here (cli/run.c prints
 * the errors, session/session.c measures the plan).
 */
#ifndef COPYSCOPE_SESSION_RUN_PLAN_H
#define COPYSCOPE_SESSION_RUN_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/suite.h"
#include "results/summary_line.h"
#include "session/session.h"

#define RUN_PLAN_MAX_JOBS 256

/* The jobs of one run, and the suite lines they came with. */
struct run_plan {
	struct session_job jobs[RUN_PLAN_MAX_JOBS];
	size_t njobs;
	/* the suite summary's line of each job from a suite (else unset) */
	struct summary_line from[RUN_PLAN_MAX_JOBS];
	bool any_suite;			/* some job came from a suite */
	bool quick;			/* a suite named asks for --quick */
};

/*
 * Add the jobs of name: a workload (one job) or a suite (a job per entry,
 * with the entry's own settings).  Returns 0; 2 with the usage error in
 * err (an unknown name, with the closest one; too many jobs); 1 with err
 * starting "BUG:" when a suite names what this build does not have.
 */
int run_plan_add_name(struct run_plan *p, const char *name, char *err,
		      size_t errlen);

/*
 * Apply every key=value of assign[0..n-1] to the jobs that have the key,
 * and with verify, verify=1 to the jobs that can verify data.  Returns
 * 0, or 2 with the usage error in err (a key given twice, a key no job
 * has, a value out of range).
 */
int run_plan_apply(struct run_plan *p, const char *const *assign, size_t n,
		   bool verify, char *err, size_t errlen);

/*
 * --explain: add the floors of every explained job
 * (explain_plan_add_floors(): 0, 2 or 1 with err).
 */
int run_plan_add_explain(struct run_plan *p, char *err, size_t errlen);

/*
 * The names `run` takes, for its usage: into names[0..max-1] the suites'
 * (suites true) or the workloads' (false), in the registry's order.
 * Returns how many were written.
 */
size_t run_plan_names(bool suites, const char **names, size_t max);

/*
 * The registry: every workload (*n of them) and every suite, for the
 * commands that list them (list).
 */
const struct workload *const *run_plan_workloads(size_t *n);
const struct suite *const *run_plan_suites(size_t *n);

/* The workload, or the suite, called name; NULL when there is none. */
const struct workload *run_plan_workload(const char *name);
const struct suite *run_plan_suite(const char *name);

/*
 * The suite summary lines of a stored run, found again from its command
 * line: each suite named there gives a line per entry, on the job it ran
 * as.  Writes at most max lines and returns their number: 0 when the run
 * ran no suite, or when its jobs do not match what its command line names
 * (then nothing is claimed).
 */
size_t run_plan_suite_lines(const struct run_data *run,
			    struct summary_line *lines, size_t max);

#endif
