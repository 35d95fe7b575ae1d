/*
 * runner_more.c - the kept samples a configuration takes beyond --reps
 * (see runner_priv.h): with --precision, until its figures are precise
 * enough; otherwise, in place of disturbed ones while the headline
 * would be withheld (docs/methodology.md, "The headline").
 */
#include "runner/runner_priv.h"

#include <math.h>
#include <stdio.h>

#include "runner/interference.h"
#include "stats/headline.h"
#include "stats/summary.h"

/*
 * The precision of the samples so far: the worst metric's (% of its
 * median) into res->precision_pct and _metric; metrics whose median is 0
 * have no relative precision and are left out.  Returns whether every
 * other metric is within the asked precision, -1 on allocation failure.
 */
int runner_precision_check(const struct runner *r, struct config_result *res)
{
	double worst = NAN, pct;
	const char *which = "";
	size_t m;

	for (m = 0; m < r->wl->nmetrics; m++) {
		if (stats_median_precision_pct(res->values[m], res->nsamples,
					       &pct))
			return -1;
		if (!isnan(pct) && (isnan(worst) || pct > worst)) {
			worst = pct;
			which = r->wl->metrics[m].name;
		}
	}
	res->precision_pct = worst;
	snprintf(res->precision_metric, sizeof(res->precision_metric), "%s",
		 which);
	return !isnan(worst) && worst <= r->opts->precision_pct;
}

/*
 * Whether to check the precision after sample n: after every sample up to
 * 50, then every n/20 (a check costs a bootstrap of every metric).
 */
bool runner_precision_due(size_t n, size_t reps)
{
	if (n < reps)
		return false;
	return n < 50 || n % (n / 20) == 0;
}

/*
 * Whether each worker has a CPU of its own (one worker, or each pinned
 * to a CPU no other one asked for): only then does the headline rule
 * leave a disturbed sample out (results/result.c, result_config_own_cpus),
 * so only then can a retake give a headline.
 */
static bool own_cpus(const struct config_result *res)
{
	int i, j;

	if (res->nworkers <= 1)
		return true;
	for (i = 0; i < res->nworkers; i++) {
		if (res->worker_cpu[i] < 0)
			return false;
		for (j = 0; j < i; j++)
			if (res->worker_cpu[j] == res->worker_cpu[i])
				return false;
	}
	return true;
}

/* The kept samples so far that a worker's wait for a CPU disturbed. */
static size_t disturbed(const struct config_result *res)
{
	size_t k, n = 0;

	for (k = 0; k < res->nsamples; k++)
		n += (res->interf_flags[k] & INTERF_FLAG_OFFCPU) != 0;
	return n;
}

/*
 * After the --reps samples: while the headline would be withheld (too
 * few undisturbed samples, stats/headline.h) and enough room is left
 * for undisturbed ones to give one, another kept sample in place of a
 * disturbed one, at most --reps more in all.  The disturbed samples stay
 * (stored, counted, left out of the headline); the retakes are counted
 * in res->retaken.  Not with --precision (it takes samples until it is
 * precise) nor --interleave (its rounds are the design).
 */
enum config_status runner_retake_disturbed(struct runner *r,
					   struct config_result *res)
{
	enum config_status st = CONFIG_OK;

	if (!own_cpus(res))
		return st;
	while (st == CONFIG_OK &&
	       headline_retake(res->nsamples, disturbed(res),
			       (size_t)r->cap)) {
		size_t before = res->nsamples;

		st = runner_sample(r, res);
		res->retaken += res->nsamples > before;
	}
	return st;
}
