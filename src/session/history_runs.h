/*
 * history_runs.h - the store's part of history as the noise model of a
 * single run (comparison.h, struct cmp_hist): for each row of a built
 * comparison that has one run on a side and cannot be judged by runs, the
 * medians of the earlier complete runs of its configuration (workload,
 * parameters less the ignored ones, metric, unit) on that run's host are
 * read from the store and the row is judged against them.
 */
#ifndef COPYSCOPE_SESSION_HISTORY_NOISE_H
#define COPYSCOPE_SESSION_HISTORY_NOISE_H

#include <stddef.h>

#include "comparison/comparison.h"
#include "store/store.h"

/*
 * Judge every such row of c (after cmp_build()) against its history in
 * st (cmp_hist_judge()): one read of the store per (workload, metric).
 * Returns 0, or -1 on a store error or ENOMEM (err says which).
 */
int history_noise_apply(struct store *st, struct cmp *c, char *err,
			size_t errlen);

#endif
