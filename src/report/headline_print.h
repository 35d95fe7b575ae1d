/*
 * headline_print.h - the one-screen summary that ends a suite's run, in
 * the spirit of lmbench's summary table: one line per suite entry (for
 * the default suite, one per experiment E1-E7) with its headline figure
 * at its published parameters, its spread, whether the machine was
 * quiet, and how to see the run drawn.
 */
#ifndef COPYSCOPE_REPORT_HEADLINE_PRINT_H
#define COPYSCOPE_REPORT_HEADLINE_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/run.h"
#include "results/summary_line.h"

/* One line of the summary as figures, for the text and the HTML report. */
struct headline_row {
	const char *label;		/* "E1", or "" */
	const char *workload, *metric;
	bool measured;			/* a value: value, sd and state set */
	bool broken;			/* a configuration did not finish */
	char value[64];			/* "758 MiB/s", "1.38 .. 2.80 GiB/s" */
	char sd[16];			/* the largest ±sd, "19%" */
	char state[48];			/* "quiet", "2/90 flagged bimodal" */
};

/*
 * Fill row with line l's figures from a run's results res[0..n-1]: the
 * median of its metric (the range of the medians for several
 * configurations), the largest ±sd, and its state; a line without
 * results has measured false and state "no value" (a configuration
 * failed) or "not measured here".
 */
void headline_compute(const struct summary_line *l, const struct result *res,
		      size_t n, struct headline_row *row);

/*
 * Print the summary of a run's results res[0..n-1] for lines[0..nl-1]:
 *
 *   summary of run 12: headline medians (a sweep's range), largest ±sd, state
 *     exp   workload      metric                     median  ±sd state
 *     E1    pipe.bw       bandwidth               758 MiB/s  19% quiet
 *     E2    pipe.matrix   bandwidth      1.38 .. 2.80 GiB/s  22% 2/90 flagged
 *   draw it: copyscope report 12 -o run-12.html
 *
 * ±sd is the largest over the configurations; state says whether any
 * kept sample was flagged (outside load), bimodal or incomplete.
 * A job with several configurations shows the range of their medians
 * and the largest spread; one without results says so.  Lines fit 80
 * columns.  run->id 0 (not
 * stored) prints that there is nothing to draw.  db, when not NULL, is
 * the --db the report command needs.
 */
void summary_print(FILE *out, const struct run_info *run, const char *db,
		   const struct summary_line *lines, size_t nl,
		   const struct result *res, size_t n);

#endif
