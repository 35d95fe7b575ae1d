/*
 * history_noise.c - history as the noise model of a single run (see
 * comparison.h, struct cmp_hist).  With one run on a side the test over
 * runs cannot see how much runs of the configuration differ, and the
 * samples of one run cannot either; a lab's store often can: the earlier
 * runs of the same configuration on the same host spread between runs as
 * the new one does.  The caller finds them (session/history_runs.c);
 * here the row is judged by the prediction interval for one new run
 * (stats/predict.h) on their log medians.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison/comparison.h"

bool cmp_hist_wanted(const struct cmp *c, const struct cmp_row *r,
		     const struct run_data **run, bool *judged_base)
{
	bool b1 = c->base.nruns == 1 && r->b.nruns == 1;
	bool n1 = c->new.nruns == 1 && r->n.nruns == 1;

	if (!r->few_runs || r->verdict != VERDICT_CANNOT_TELL ||
	    (!b1 && !n1))
		return false;
	*judged_base = b1 && (!n1 || c->base.runs[0].info.started_ns >
			      c->new.runs[0].info.started_ns);
	*run = *judged_base ? &c->base.runs[0] : &c->new.runs[0];
	return true;
}

/* Too few earlier runs: the reason also says how many would decide. */
static void too_short(struct cmp_row *r, const struct run_data *run,
		      size_t n)
{
	size_t used = strlen(r->reason);

	if (used < sizeof(r->reason))
		snprintf(r->reason + used, sizeof(r->reason) - used, "; the "
			 "store has %zu earlier run%s of this configuration on "
			 "host %.40s: %d or more would allow a verdict from "
			 "their spread", n, n == 1 ? "" : "s", run->info.host,
			 CMP_HIST_MIN_RUNS);
}

int cmp_hist_judge(const struct cmp *c, struct cmp_row *r,
		   const struct run_data *run, bool judged_base,
		   const int64_t *ids, const double *med, size_t n)
{
	struct cmp_hist *h = &r->hist;
	const struct cmp_val *v = judged_base ? &r->b : &r->n;
	double d, half;

	if (n < CMP_HIST_MIN_RUNS) {
		too_short(r, run, n);
		return 0;
	}
	if (n > CMP_HIST_MAX_RUNS) {
		ids += n - CMP_HIST_MAX_RUNS;
		med += n - CMP_HIST_MAX_RUNS;
		n = CMP_HIST_MAX_RUNS;
	}
	if (!v->nruns || stats_predict_log(med, n, v->run_med[0],
					   c->opts.alpha, &h->pi) != 0)
		return 0;	/* a median <= 0: stays cannot tell */
	h->runs = malloc(n * sizeof(*h->runs));
	if (!h->runs)
		return -1;
	memcpy(h->runs, ids, n * sizeof(*h->runs));
	h->nruns = n;
	h->used = true;
	h->judged_base = judged_base;
	h->judged_run = run->info.id;
	h->median = v->run_med[0];
	h->alpha = c->opts.alpha;
	snprintf(h->host, sizeof(h->host), "%s", run->info.host);
	/*
	 * The judged run's shift from the runs' mean log median, with its CI
	 * (the interval's half width around it: p < alpha exactly when the CI
	 * leaves out 0); NEW read against BASE, so a judged base run counts
	 * the other way.
	 */
	d = log(h->median) - h->pi.mean_log;
	half = log(h->pi.hi) - h->pi.mean_log;
	if (judged_base)
		d = -d;
	r->change_pct = 100 * expm1(d);
	r->ci_lo = 100 * expm1(d - half);
	r->ci_hi = 100 * expm1(d + half);
	r->p = h->pi.p;
	r->reason[0] = '\0';
	r->few_runs = false;
	r->verdict = stats_verdict(r->direction, r->change_pct, r->p,
				   r->ci_lo, r->ci_hi, c->opts.alpha,
				   c->opts.noise_pct);
	return 0;
}
