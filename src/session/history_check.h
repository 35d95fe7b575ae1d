/*
 * history_check.h - check --history's verdict on one series of a lab's
 * history (results/history_series.h): whether its newest points moved
 * for the worse, lie within the history, or cannot be told apart yet.
 */
#ifndef COPYSCOPE_SESSION_HISTORY_CHECK_H
#define COPYSCOPE_SESSION_HISTORY_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "results/history_series.h"

/* The fewest points check --history judges (two segments of 3). */
#define HIST_CHECK_MIN_POINTS 6

/*
 * The verdict on s into out: HIST_WORSE when its last change point (the
 * segment the newest points belong to against the one before it) is for
 * the worse by the metric's direction (the change points are already
 * beyond the history's min_change_pct); informational metrics (direction
 * 0) are never worse.  out->cp points into s.
 */
void history_check(const struct hist_series *s, struct hist_check *out);

/*
 * check --history prints no point's CI: its want_ci (struct hist_opts),
 * false for every point, so that no point's CI is computed.
 */
bool history_check_wants_ci(const struct hist_series *s, size_t i);

#endif
