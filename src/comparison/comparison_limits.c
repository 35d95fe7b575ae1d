/*
 * comparison_limits.c - what a comparison cannot judge, said as such
 * (see comparison_priv.h): a verdict is only as good as the test behind
 * it.
 *
 *   - Fewer than CMP_MIN_RUNS runs on a side: the test is over samples,
 *     which cannot see how much separate runs of one configuration differ
 *     (10-25% on a shared VM, far more than the samples of one run), so a
 *     verdict would be a guess.  No verdict unless cmp_opts.by_sample says
 *     the caller knows runs agree on this machine.
 *   - Samples too few for the test to reach alpha at all: Mann-Whitney's
 *     smallest two-sided p over m and n samples is 2 / C(m + n, m) (3
 *     against 3: 0.1), so a '~' there says nothing.
 *   - A better/worse verdict that does not hold on the samples that were
 *     not flagged as disturbed rests on the disturbance.
 *   - Metrics computed from the same timed window (time per op, cycles
 *     per op, bytes/s, ops/s) are one measurement: one change counts once.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "comparison/comparison_priv.h"

/* Mann-Whitney's smallest two-sided p with m and n samples, no ties. */
static double mw_min_p(size_t m, size_t n)
{
	double log_c;

	if (!m || !n)
		return 1;
	log_c = lgamma((double)(m + n) + 1) - lgamma((double)m + 1) -
		lgamma((double)n + 1);
	return fmin(1.0, 2.0 * exp(-log_c));
}

/* The fewest samples a side (both sides equal) that can reach alpha. */
static size_t mw_min_reps(double alpha)
{
	size_t k = 2;

	while (k < 1000 && mw_min_p(k, k) >= alpha)
		k++;
	return k;
}

static bool judged(enum verdict v)
{
	return v == VERDICT_BETTER || v == VERDICT_WORSE ||
	       v == VERDICT_SAME;
}

/* Fewer than CMP_MIN_RUNS runs on a side: the spread between runs is
   unknown. */
static void too_few_runs(struct cmp_row *r)
{
	size_t nb = r->b.nruns, nn = r->n.nruns;

	r->verdict = VERDICT_CANNOT_TELL;
	r->few_runs = true;
	if (nb == nn)
		snprintf(r->reason, sizeof(r->reason), "%zu run%s a side: the "
			 "spread between runs is unknown; take --runs 5, or "
			 "measure the pair with ab", nb, nb == 1 ? "" : "s");
	else
		snprintf(r->reason, sizeof(r->reason), "%zu run%s on the base "
			 "side, %zu on the new: the spread between runs is "
			 "unknown; take --runs 5 a side, or measure the pair "
			 "with ab", nb, nb == 1 ? "" : "s", nn);
}

/* The verdict of r on its unflagged samples alone, into *out. */
static int clean_verdict(const struct cmp *c, const struct cmp_row *r,
			 const struct cmp_opts *opts, enum verdict *out)
{
	struct cmp_row t = *r;
	int rc = -1;

	memset(&t.b, 0, sizeof(t.b));
	memset(&t.n, 0, sizeof(t.n));
	if (cmp_gather(&t.b, &c->base, c->match_base, r, true) != 0 ||
	    cmp_gather(&t.n, &c->new, c->match_new, r, true) != 0)
		goto out;
	if (!t.b.n || !t.n.n) {
		*out = VERDICT_EMPTY;
		rc = 0;
		goto out;
	}
	if (cmp_judge(&t, opts) != 0)
		goto out;
	*out = t.verdict;
	rc = 0;
out:
	cmp_val_free(&t.b);
	cmp_val_free(&t.n);
	return rc;
}

/* A better/worse verdict that the flagged samples carry is withheld. */
static int disturbed(const struct cmp *c, struct cmp_row *r,
		     const struct cmp_opts *opts)
{
	enum verdict clean;

	if (opts->drop_noisy || (!r->b.flagged && !r->n.flagged) ||
	    (r->verdict != VERDICT_BETTER && r->verdict != VERDICT_WORSE))
		return 0;
	if (clean_verdict(c, r, opts, &clean) != 0)
		return -1;
	if (clean == r->verdict)
		return 0;
	snprintf(r->reason, sizeof(r->reason), "the verdict '%s' rests on "
		 "disturbed samples (%zu of %zu base, %zu of %zu new "
		 "flagged): on the others alone it is %s; rerun on a quiet "
		 "machine, or judge those with --drop-noisy",
		 stats_verdict_name(r->verdict), r->b.flagged, r->b.n,
		 r->n.flagged, r->n.n, clean == VERDICT_EMPTY ?
		 "nothing (every sample flagged)" :
		 clean == VERDICT_SAME ? "'~'" : stats_verdict_name(clean));
	r->verdict = VERDICT_CANNOT_TELL;
	return 0;
}

static bool same_config(const struct cmp_row *a, const struct cmp_row *b)
{
	return strcmp(a->ref->cfg->workload, b->ref->cfg->workload) == 0 &&
	       a->match && b->match && strcmp(a->match, b->match) == 0;
}

/* The first earlier row of r's configuration read from the same window. */
static void mark_same_reading(struct cmp *c, size_t i)
{
	struct cmp_row *r = &c->rows[i];
	size_t j;

	if (!r->in_base || !r->in_new || r->ref->trace || r->ref->traced ||
	    !result_window_reading(r->ref))
		return;
	for (j = 0; j < i; j++) {
		const struct cmp_row *e = &c->rows[j];

		if (e->in_base && e->in_new && !e->ref->trace &&
		    !e->ref->traced && same_config(e, r) &&
		    result_window_reading(e->ref)) {
			r->same_reading_as = e->ref->metric;
			return;
		}
	}
}

int cmp_limits(struct cmp *c, const struct cmp_opts *opts)
{
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		struct cmp_row *r = &c->rows[i];

		r->reason[0] = '\0';
		r->same_reading_as = NULL;
		r->few_runs = false;
		mark_same_reading(c, i);
		if (!r->in_base || !r->in_new || !judged(r->verdict))
			continue;
		if (!r->by_run && !opts->by_sample &&
		    (r->b.nruns < CMP_MIN_RUNS || r->n.nruns < CMP_MIN_RUNS)) {
			too_few_runs(r);
			continue;
		}
		if (!r->by_run && mw_min_p(r->b.n, r->n.n) >= opts->alpha) {
			r->verdict = VERDICT_CANNOT_TELL;
			snprintf(r->reason, sizeof(r->reason), "%zu samples "
				 "against %zu cannot reach p < %g (the "
				 "smallest p is %.3g); take --reps %zu or more",
				 r->b.n, r->n.n, opts->alpha,
				 mw_min_p(r->b.n, r->n.n),
				 mw_min_reps(opts->alpha));
			continue;
		}
		if (disturbed(c, r, opts) != 0)
			return -1;
	}
	return 0;
}
