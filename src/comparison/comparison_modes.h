/*
 * comparison_modes.h - inside the comparison engine: the two modes of a
 * bimodal row (comparison_modes.c), for comparison.c.
 */
#ifndef COPYSCOPE_COMPARISON_MODES_H
#define COPYSCOPE_COMPARISON_MODES_H

#include "comparison/comparison.h"

/*
 * Fill r->modes for a row whose sides both have samples: when either side
 * is bimodal, the two modes' centres over both sides' samples pooled
 * (mode_centres()), each side's share of samples nearer the high one,
 * the median of each mode, and whether the share moved (a p under
 * opts->alpha - Welch's t over the runs' shares with
 * CMP_MIN_RUNS runs a side, else Fisher's exact test over the samples -
 * and a shift of CMP_MODE_SHIFT_MIN_PCT points or more).  r->modes.shown
 * is false for a row that is not bimodal.  Returns 0, or -1 on ENOMEM.
 */
int cmp_modes_of(struct cmp_row *r, const struct cmp_opts *opts);

#endif
