/*
 * fit_report.h - the least-squares fit under a sweep: time per call split
 * into a fixed cost and a cost per unit of the swept parameter (sys.iov:
 * per segment over segs; sys.rw: per byte over size).
 *
 * fit_report_compute() finds the fits of one block of results and their
 * points; the text under the table (fit_report_block), the JSON document
 * and the HTML report all use it, so they show the same lines.  Works
 * from the results model, so `run` and `show` print the same.
 */
#ifndef COPYSCOPE_FIT_REPORT_H
#define COPYSCOPE_FIT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/workload.h"
#include "results/result.h"
#include "stats/fit.h"

/* Other varying parameters that label the groups of a fit, at most. */
#define FIT_MAX_LABEL 4

/* The points of one group (the other varying parameters equal). */
struct fit_group {
	const char *label_value[FIT_MAX_LABEL];	/* per fit_set.label */
	double *x, *y;			/* parameter value, median */
	const struct result **res;	/* the result of each point */
	size_t n;
	bool fitted;			/* at least two distinct x values */
	struct fit_line line;		/* when fitted */
	double rate_bps;		/* rule->bytes and a positive slope
					   in ns: 1 / slope as bytes/s; else
					   0 */
};

/* The fits of one block. */
struct fit_set {
	const struct wl_fit *rule;	/* NULL: no fit applies */
	const char *workload;
	const char *unit;		/* of the fitted metric */
	const char *label[FIT_MAX_LABEL];	/* parameter names */
	size_t nlabel;
	struct fit_group *groups;
	size_t ngroups;
};

/*
 * The fits that apply to one block of results (one job: a workload and
 * its sweep, res[0..n-1]).  A fit applies when the workload's descriptor
 * has one (struct wl_fit) and its parameter takes at least two values in
 * the block; the results are split into groups by the other parameters
 * that vary, each group fitted on its own, points weighted by 1 /
 * median^2.  out->rule is NULL when no fit applies.  Returns 0, or -1
 * when memory ran out.  Free with fit_set_free().
 */
int fit_report_compute(const struct result *res, size_t n,
		       struct fit_set *out);
void fit_set_free(struct fit_set *fs);

/*
 * Print the fits of one block to out, indented to sit under the block
 * (one line, or a table with a row per group).  Prints nothing when no
 * fit applies.
 */
void fit_report_block(FILE *out, const struct result *res, size_t n);

#endif
