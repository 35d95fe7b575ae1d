/*
 * html.h - the HTML report: one self-contained file (the charting code
 * embedded, nothing fetched: it opens offline and can be mailed) with,
 * for each run, its results tables and plots, every plot with its
 * numbers in a table beside it, and the environment at the end; or a
 * comparison's forest plot and table with the environment differences.
 *
 * Renderers take the results model (results/run.h) and the comparison
 * (comparison/comparison.h), never the store or JSON text.
 */
#ifndef COPYSCOPE_HTML_H
#define COPYSCOPE_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "results/run.h"
#include "comparison/comparison.h"
#include "report/headline.h"

/* The suite summary of a run: its lines (none: the run is no suite's). */
struct html_suite {
	const struct summary_line *lines;
	size_t nl;
};

/*
 * Write the report of runs[0..n-1] to out: first the summary of each
 * run that has one (suites[i].nl lines, the table `run` prints at a
 * suite's end, each row linked to its results; suites may be NULL),
 * then each run's results with their plots (per-sample scatters folded
 * under <details>), the environment folded at the end.  Returns the
 * number of plots written, or -1 on a write error.
 */
int html_report_runs(FILE *out, const struct run_data *runs,
		     const struct html_suite *suites, size_t n);

/*
 * Write the report of a built comparison to out.  Returns the number of
 * plots written, or -1 on a write error.
 */
int html_report_compare(FILE *out, const struct cmp *c);

#endif
