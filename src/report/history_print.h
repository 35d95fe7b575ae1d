/*
 * history_print.h - a lab's history (results/history_series.h) printed:
 * each series as an 80-column table of its points with a sparkline, its
 * change points and what they cannot tell about the newest points
 * (history_text.c), check --history's line per series
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

/*
 * What the change points of s cannot tell about its newest points
 * (struct hist_tail) as a sentence into buf: "no change point at 4..6;
 * one in the newest 3 of 10 points cannot reach alpha 0.01 here
 * (smallest p 0.017); 12 points could", or "no change point can reach
 * alpha 0.01 in 8 points (smallest p 0.029); 10 points could" when no
 * split of the newest segment can ("no later change point ... the 10
 * points from 14" after a change point).  false (buf untouched) when
 * every split there could reach alpha, or a median is <= 0.
 */
bool history_tail_text(const struct hist_series *s, char *buf, size_t len);

/*
 * What E-divisive rejected in s (struct hist_rejected) as a sentence into
 * buf: "no change point: the likeliest split, at 7 (run 12 -> 13), +3.1%
 * [-2.0..+8.4%], has p 0.21, not below alpha 0.01", "no other change
 * point: ..." after change points; "no change point of --min-change 50% or more
 * (1 smaller left out: at 14, +10.2%)" before the split where
 * --min-change dropped some.  false (buf untouched) when nothing was
 * rejected, or a median is <= 0.
 */
bool history_rejected_text(const struct hist_series *s, char *buf,
			   size_t len);

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
