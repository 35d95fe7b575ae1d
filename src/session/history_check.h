/*
 * history_check.h - check --history's verdict on one series of a lab's
 * history (results/history_series.h): whether its newest points moved
 * for the worse, lie within the history, or cannot be told apart yet.
 *
 * Two tests, either of which can find a change.  The change points
 * (E-divisive, session/history_session.h) see a step anywhere, but their
 * permutation p cannot reach a small alpha when the step is in the
 * newest few of a short series (a step in the newest 3 of 10 points has
 * an exact p of 2/C(10,3) = 0.017 at best).  So the newest 1, 2 and 3
 * points are also read against the spread between the earlier runs: a t
 * test of their mean log median against the earlier points' (the
 * prediction interval for new runs that compare's history noise model
 * uses, stats/predict.h), with the p multiplied by the windows tried and
 * the series judged (Bonferroni).  That test can reach any alpha once
 * HIST_CHECK_MIN_EARLIER earlier points are there; below that neither
 * test can, and the verdict is "cannot tell" with the points needed.
 */
#ifndef COPYSCOPE_SESSION_HISTORY_CHECK_H
#define COPYSCOPE_SESSION_HISTORY_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "results/history_series.h"

/* The fewest earlier points the newest are read against (as compare's
   history noise model, CMP_HIST_MIN_RUNS). */
#define HIST_CHECK_MIN_EARLIER 5
/* The most newest points read together. */
#define HIST_CHECK_MAX_NEWEST 3
/* The fewest points check --history judges: the newest and 5 before. */
#define HIST_CHECK_MIN_POINTS (HIST_CHECK_MIN_EARLIER + 1)

/* What the verdict is judged at. */
struct hist_check_opts {
	double alpha;			/* of both tests, (0, 1) */
	double min_change_pct;		/* smaller moves are not worse */
	size_t nseries;			/* the series judged (Bonferroni) */
};

/*
 * The verdict on s with o into out.  HIST_TOO_SHORT (out->needed: the
 * points a verdict needs) below HIST_CHECK_MIN_POINTS points; HIST_NO_LOG
 * when a median is <= 0.  Else HIST_WORSE when its last change point
 * (the segment the newest points belong to against the one before it)
 * is for the worse by the metric's direction (change points are already
 * beyond min_change_pct), or when the newest 1..3 points moved for the
 * worse against the earlier points' spread (adjusted p < alpha, at least
 * min_change_pct); HIST_BETTER when they moved for the better; else
 * HIST_SAME.  The earlier points start at the last change point before
 * them when HIST_CHECK_MIN_EARLIER points follow it, else at the first.
 * Informational metrics (direction 0) are never worse.  out->cp points
 * into s.  Returns 0, or -1 when out of memory.
 */
int history_check(const struct hist_series *s,
		  const struct hist_check_opts *o, struct hist_check *out);

/*
 * check --history prints no point's CI: its want_ci (struct hist_opts),
 * false for every point, so that no point's CI is computed.
 */
bool history_check_wants_ci(const struct hist_series *s, size_t i);

#endif
