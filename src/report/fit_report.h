/*
 * fit_report.h - the least-squares fit printed under a sweep: time per
 * call split into a fixed cost and a cost per unit of the swept parameter
 * (sys.iov: per segment over segs; sys.rw: per byte over size).
 *
 * Works from the results model, so `run` and `show` print the same.
 */
#ifndef COPYSCOPE_FIT_REPORT_H
#define COPYSCOPE_FIT_REPORT_H

#include <stdio.h>

#include "core/workload.h"
#include "results/result.h"

/*
 * Print the fits that apply to one block of results (one job: a workload
 * and its sweep, res[0..n-1]) to out, indented to sit under the block.
 * A fit applies when the workload's descriptor has one (struct wl_fit)
 * and its parameter takes at least two values in the block; the
 * results are split into groups by the other parameters that vary, and
 * each group gets its own line.  Prints nothing when no fit applies.
 */
void fit_report_block(FILE *out, const struct result *res, size_t n);

#endif
