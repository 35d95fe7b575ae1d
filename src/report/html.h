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

#include <stdbool.h>

#include "results/history_series.h"
#include "results/run.h"
#include "comparison/comparison.h"
#include "report/headline_print.h"

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

/*
 * Write the report of a lab's history h (built by session/history_session.c;
 * by_kernel: its points are kernels in version order) to out: what it
 * holds, then each series' chart (html_history_plots()).  Returns the
 * number of plots written, or -1 on a write error.
 */
int html_report_history(FILE *out, const struct history *h, bool by_kernel);

#endif
