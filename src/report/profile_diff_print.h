/*
 * profile_diff_print.h - the kernel profile diff of ab and compare
 * (comparison/profile_diff.h) as 80-column text and as the JSON list
 * "profile_diff".
 */
#ifndef COPYSCOPE_REPORT_PROFILE_DIFF_PRINT_H
#define COPYSCOPE_REPORT_PROFILE_DIFF_PRINT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "comparison/profile_diff.h"

/* ns per op, 3 significant digits, signed when sign ("+12.3"); "0" for
   0, "-" where there is none. */
void pdiff_ns_text(double v, bool sign, char *buf, size_t len);

/* A CI as "lo" sep "hi" in pdiff_ns_text's form; "-" where there is
   none. */
void pdiff_ci_text(const struct mean_ci *c, const char *sep, char *buf,
		   size_t len);

/* Functions the text shows (the ones that moved most). */
#define PDIFF_TEXT_TOP 10

/*
 * Print d indented by indent spaces: what was sampled and how, the
 * PDIFF_TEXT_TOP functions with the largest changes (A and B ns per op,
 * the change and its 95% CI, the control's CI when paired, '*' where it
 * moved), and what they explain of the op's measured change; or why
 * there is no diff.
 */
void report_profile_diff(FILE *out, const struct pdiff *d, int indent);

/*
 * The same under a mail (ab --mail, --markdown; f: enum mail_format of
 * report/mail_print.h): a blank line, a heading, then the text as
 * report_profile_diff() prints it, which fits a plain-text mail; in
 * markdown inside a fenced block, so that its columns stay aligned.
 */
void mail_print_profile_diff(FILE *out, const struct pdiff *d, int f);

/*
 * The rows as a JSON array, every function: function, a_ns_per_op,
 * b_ns_per_op, change_ns_per_op, ci [lo, hi], control_change_ns_per_op
 * and control_ci (null unpaired), moved, a_samples, b_samples.  NULL on
 * ENOMEM.
 */
json_t *profile_diff_rows_json(const struct pdiff *d);

/*
 * How the diff was made as a JSON object (written as
 * "profile_diff_summary" beside the rows' "profile_diff"): paired,
 * a_units, b_units, left_out, a_runs, b_runs, event, hz, pmu, samples
 * [A, B, A'], the op's a_ns_per_op, b_ns_per_op, change_ns_per_op and
 * ci, the control's, and "why" when there are no rows.  NULL on ENOMEM.
 */
json_t *profile_diff_json(const struct pdiff *d);

#endif
