/*
 * history_check.c - check --history's verdict on one series (see
 * history_check.h).
 */
#include "session/history_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/predict.h"

/* Where the earlier points of a window from index to start: the last
   change point with HIST_CHECK_MIN_EARLIER points between it and to. */
static size_t earlier_from(const struct hist_series *s, size_t to)
{
	size_t i;

	for (i = s->ncp; i-- > 0;)
		if (s->cps[i].index + HIST_CHECK_MIN_EARLIER <= to)
			return s->cps[i].index;
	return 0;
}

/* The newest k points of s against the earlier ones into pi; 0, or -1. */
static int window_test(const struct hist_series *s, const double *med,
		       size_t k, double alpha, struct pred_interval *pi,
		       size_t *from)
{
	size_t to = s->n - k;

	*from = earlier_from(s, to);
	return stats_predict_log_mean(med + *from, to - *from, med + to, k,
				      alpha, pi);
}

/* The test of the newest points (see history_check.h) into out. */
static int newest_test(const struct hist_series *s,
		       const struct hist_check_opts *o,
		       struct hist_check *out)
{
	struct pred_interval pi;
	double *med, adj, a, half, best = INFINITY;
	size_t k, from, i;

	med = malloc(s->n * sizeof(*med));
	if (!med)
		return -1;
	for (i = 0; i < s->n; i++)
		med[i] = s->pts[i].median;
	out->windows = s->n - HIST_CHECK_MIN_EARLIER;
	if (out->windows > HIST_CHECK_MAX_NEWEST)
		out->windows = HIST_CHECK_MAX_NEWEST;
	out->nseries = o->nseries ? o->nseries : 1;
	adj = (double)out->windows * (double)out->nseries;
	a = o->alpha / adj;
	for (k = 1; k <= out->windows; k++) {
		if (window_test(s, med, k, a, &pi, &from) != 0 ||
		    !(pi.p * adj <= best))
			continue;
		best = pi.p * adj;
		half = log(pi.hi) - pi.mean_log;
		out->tested = true;
		out->newest = k;
		out->from = from;
		out->to = s->n - k;
		out->change_pct = pi.change_pct;
		out->lo_pct = 100 * expm1(-half);
		out->hi_pct = 100 * expm1(half);
		out->p = best < 1 ? best : 1;
	}
	free(med);
	out->moved = out->tested && out->p < o->alpha &&
		fabs(out->change_pct) >= o->min_change_pct;
	return 0;
}

int history_check(const struct hist_series *s,
		  const struct hist_check_opts *o, struct hist_check *out)
{
	bool worse;

	memset(out, 0, sizeof(*out));
	out->cp = s->ncp ? &s->cps[s->ncp - 1] : NULL;
	out->needed = HIST_CHECK_MIN_POINTS;
	out->min_earlier = HIST_CHECK_MIN_EARLIER;
	if (s->n < HIST_CHECK_MIN_POINTS) {
		out->verdict = HIST_TOO_SHORT;
		return 0;
	}
	if (s->nonpositive) {
		out->verdict = HIST_NO_LOG;
		return 0;
	}
	if (newest_test(s, o, out) != 0)
		return -1;
	worse = (s->direction > 0 && out->change_pct < 0) ||
		(s->direction < 0 && out->change_pct > 0);
	if (out->cp && out->cp->worse)
		out->verdict = HIST_WORSE;
	else if (out->moved && worse)
		out->verdict = HIST_WORSE;
	else if (out->moved && s->direction != 0)
		out->verdict = HIST_BETTER;
	else
		out->verdict = HIST_SAME;
	return 0;
}

bool history_check_wants_ci(const struct hist_series *s, size_t i)
{
	(void)s;
	(void)i;
	return false;
}
