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
 * are dropped.  And the series' tail (struct hist_tail): the newest
 * points of the segment after the last change point found (before
 * min_change_pct) that no split could reach alpha with, however large a
 * change there (stats/edivisive.h, ediv_tail), and the points that could.
 */
#ifndef COPYSCOPE_SESSION_HISTORY_H
#define COPYSCOPE_SESSION_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/history_series.h"
#include "stats/edivisive.h"
#include "store/store.h"

/* The default significance level of a change point's permutation test. */
#define HIST_DEFAULT_ALPHA EDIV_DEFAULT_ALPHA

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

/*
 * What `history`, `check --history` and `report --history` ask for: the
 * positional arguments SELECTOR ... [WORKLOAD [KEY=VALUE ...]] (selectors
 * as for 'runs': ids, tags, host:, kernel:, boot:, tag:; none: every
 * run) and the options; o's workload and filters come from args.
 */
struct hist_request {
	char *const *args;
	size_t nargs;
	struct hist_opts o;
};

/* The most selectors, and KEY=VALUE filters, one request holds. */
#define HIST_MAX_ARGS 64

/*
 * The history that rq asks for from the store st, into out (free with
 * history_free()).  Returns 0; 1 when the request is refused (a selector
 * that matches nothing, a malformed KEY=VALUE, too many arguments, or no
 * stored complete run of what was asked: err says which); -1 on a store
 * error or out of memory (err says which).
 */
int history_load(struct store *st, const struct hist_request *rq,
		 struct history *out, char *err, size_t errlen);

#endif
