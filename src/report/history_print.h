/*
 * history_print.h - a lab's history (results/history_series.h) printed:
 * each series as an 80-column table of its points with a sparkline and
 * its change points (history_text.c), check --history's line per series
 * (history_text.c), and every series as JSON or as CSV
 * (history_json.c).  The HTML form is html_report_history() (html.h).
 */
#ifndef COPYSCOPE_REPORT_HISTORY_PRINT_H
#define COPYSCOPE_REPORT_HISTORY_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/history_series.h"

/*
 * Whether the text table shows point i of s: every point of a series up
 * to 24 long, else the newest 10 and the points either side of each
 * change point.  The builder computes the CIs of these points only
 * (struct hist_opts, want_ci).
 */
bool history_text_shows(const struct hist_series *s, size_t i);

/* Print every series of h as text to out, a blank line between them. */
void history_print_text(FILE *out, const struct history *h);

/*
 * Print check --history's line for s with its verdict v to out:
 * "worse: host H  WORKLOAD PARAMS  METRIC: ..." and what it rests on.
 */
void history_print_check(FILE *out, const struct hist_series *s,
			 const struct hist_check *v);

/*
 * Print h as one JSON document (schema_version, histories: each series'
 * host, workload, params, metric, unit, direction, points and change
 * points).  Returns 0, or -1 when it could not be written.
 */
int history_print_json(FILE *out, const struct history *h);

/* Print h as CSV: a header line, then one line per point. */
void history_print_csv(FILE *out, const struct history *h);

#endif
