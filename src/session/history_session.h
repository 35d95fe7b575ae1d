/*
 * history_session.h - a lab's history (`copyscope history`, `check --history`):
 * the series of run medians of one configuration (workload, parameters
 * less the ignored ones, metric) on one host, in time order or by kernel
 * release in version order, and its change points.
 *
 * Each point is one run (its median and the 95% bootstrap CI of the
 * median, stats/summary.h) or, by kernel, the runs of one kernel release
 * (the median of their run medians and the bootstrap CI of that median).
 * Change points are found by E-divisive means with a permutation test
 * (stats/edivisive.h) on the logarithms of the point medians.  For each:
 * the last point before and the first after, the change of the mean log
 * median from the segment before to the segment after as a percentage,
 * with the 95% CI of Welch's t on those log medians (stats_welch_log), the
 * permutation p, and the environment keys that differ between the last
 * run before and the first run after (the comparison's environment diff,
 * comparison/comparison.c).  Change points smaller than min_change_pct
 * are dropped.
 */
#ifndef COPYSCOPE_SESSION_HISTORY_H
#define COPYSCOPE_SESSION_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/history_series.h"
#include "store/store.h"

/* What a history is made of. */
struct hist_opts {
	const char *workload;			/* NULL: every workload */
	const char *const *filters;		/* KEY=VALUE the parameters
						   must hold */
	size_t nfilters;
	const char *metric;			/* NULL: every metric */
	const char *const *ignore;		/* parameters left out of the
						   grouping */
	size_t nignore;
	bool by_kernel;
	/*
	 * Which points need their median's CI (a bootstrap of the run's
	 * samples, most of a long history's cost), asked once the series'
	 * change points are found; NULL: every point.  By kernel every
	 * point has it.
	 */
	bool (*want_ci)(const struct hist_series *s, size_t i);
	double alpha;				/* of the permutation test */
	double min_change_pct;			/* smaller changes dropped */
};

/*
 * The history of the runs ids[0..nids) (ids NULL: every stored run) with
 * o, change points included, into out (free with history_free()).  Returns
 * 0, 1 when a KEY=VALUE filter is malformed (err says which), -1 on a
 * store error or out of memory (err says which).
 */
int history_build(struct store *st, const int64_t *ids, size_t nids,
	       const struct hist_opts *o, struct history *out, char *err,
	       size_t errlen);
void history_free(struct history *h);

/* The fewest points check --history judges (two segments of 3). */
#define HIST_CHECK_MIN_POINTS 6

/* check --history's verdict on one series. */
enum hist_verdict {
	HIST_SAME,		/* the newest points lie within the history */
	HIST_WORSE,		/* the last change point is for the worse */
	HIST_TOO_SHORT,		/* fewer than HIST_CHECK_MIN_POINTS */
	HIST_NO_LOG,		/* a median <= 0: not judged */
};

/*
 * The verdict on s: HIST_WORSE when its last change point (the segment
 * the newest points belong to against the one before it) is for the
 * worse by the metric's direction (the change points are already beyond
 * min_change_pct); informational metrics (direction 0) are never worse.
 */
enum hist_verdict history_judge(const struct hist_series *s);

#endif
