/*
 * comparison_print.h - printing a comparison (comparison/comparison.h): the 80-column
 * text of `compare` and `check`, and its JSON and CSV forms.
 *
 * Layout of the text (kernel test robot style):
 *
 *   copyscope compare
 *     base: tag a (runs 1, 2; 1 boot)
 *     new:  tag b (runs 3, 4; 1 boot)
 *   environment differences (base -> new): ...
 *
 *   sys.null  call=gettid  inject_ns=0->30ns  trace=0
 *     metric      base  ±sd %change    new  ±sd unit     p 95% CI verdict
 *     time/call    102  ±6%  +27.0%    130  ±5% ns   0.008 +22..+31 worse
 */
#ifndef COPYSCOPE_REPORT_COMPARISON_PRINT_H
#define COPYSCOPE_REPORT_COMPARISON_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "comparison/comparison.h"

/*
 * Print the comparison as text (80 columns): header, environment
 * differences, the rows (only those for which keep() is true when keep is
 * given; then rows on one side only are left out), and the one-side rows.
 */
void cmp_print_text(FILE *out, const struct cmp *c,
		    bool (*keep)(const struct cmp_row *row, void *arg),
		    void *arg);

/*
 * The note the text prints under a row, unwrapped, into text: what a '~'
 * rules out ("~: no change larger than 3.1%"), why '?' cannot tell, the
 * smallest change the test would see, the spread (base/new) in a run,
 * between runs and between boots when judged over runs, and the runs a
 * --target needs; or "the same reading as METRIC: counted once".
 * An informational row that changed as a verdict would need says so when
 * o (the comparison's options) is given; o may be NULL.
 * Returns its length (0: no note).
 */
size_t cmp_power_text(const struct cmp_row *r, const struct cmp_opts *o,
		      char *text, size_t len);

/* The comparison as JSON (schema_version 1).  Returns 0 or -1. */
int cmp_print_json(FILE *out, const struct cmp *c);

/* The comparison as CSV, one line per row, with a header line. */
void cmp_print_csv(FILE *out, const struct cmp *c);

/*
 * When no row of c (built) is on both sides, print to stderr why, naming
 * cmd: the configurations of each side and the parameters whose values
 * differ (what --ignore-param would match), and return true; else print
 * nothing and return false (report/compare_none.c).
 */
bool cmp_print_explain_none(const char *cmd, const struct cmp *c);

#endif
