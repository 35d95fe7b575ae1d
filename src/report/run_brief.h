/*
 * run_brief.h - `run`'s short output (run_brief.c): one line per
 * configuration as each job ends (a suite's run without -v), and the table
 * of `run --runs N` across the runs of a group (their medians' spread).
 */
#ifndef COPYSCOPE_REPORT_RUN_BRIEF_H
#define COPYSCOPE_REPORT_RUN_BRIEF_H

#include <stddef.h>
#include <stdio.h>

#include "results/run.h"

/*
 * One line per configuration of one job's results res[0..n-1]: the
 * workload (on the job's first line), the parameters that differ between
 * the job's configurations, the median of metric (NULL: the workload's
 * first metric) with its unit, its ±sd, and its state ("quiet", "k/n
 * flagged", "bimodal", the status of an incomplete configuration).  Lines
 * fit 80 columns (a label too long for its column gets a line of its own).
 */
void run_brief_job(FILE *out, const struct result *res, size_t n,
		   const char *metric);

/* The heading run_brief_job()'s lines go under. */
void run_brief_heading(FILE *out);

/*
 * The table of the runs runs[0..nruns-1] of one group (the same request
 * run nruns times): per configuration and metric (the cold-call trace and
 * the kernel views left out), the mean ± sd (% of the mean) of the runs'
 * medians, their min .. max, and how many runs have it.  Metrics are
 * matched by workload, parameters and name; the first run's order is
 * kept.
 */
void run_brief_group(FILE *out, const struct run_data *runs, size_t nruns);

#endif
