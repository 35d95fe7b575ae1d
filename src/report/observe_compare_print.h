/*
 * observe_compare_print.h - observations side by side
 * (comparison/observation_compare.h) printed: text within 80 columns for
 * up to OBS_CMP_TEXT_MAX_COLS observations, JSON for any number
 * (observe_compare_print.c).
 */
#ifndef COPYSCOPE_REPORT_OBSERVE_COMPARE_PRINT_H
#define COPYSCOPE_REPORT_OBSERVE_COMPARE_PRINT_H

#include <stdio.h>

#include "comparison/observation_compare.h"

/* The most columns the text holds within 80 columns. */
#define OBS_CMP_TEXT_MAX_COLS 4

/*
 * The legend (one line per column: run, tag, host, start, duration,
 * filter), then the pipe writes' size classes, the lock table (total
 * wait by caller, c->caller_pattern's only), the pipe mutex-wait
 * histogram and the wake-ups; with two columns the change (%, or points
 * for shares).  Returns 0, or -1 on ENOMEM.
 */
int report_observation_compare(FILE *out, const struct obs_cmp *c);

/*
 * The same as one JSON document ("kind": "observation_compare"): per
 * row an array with one entry per column, null where that observation
 * did not watch it.  Returns 0, or -1 on ENOMEM or a write error.
 */
int report_observation_compare_json(FILE *out, const struct obs_cmp *c);

#endif
