/*
 * ab_combine.h - several `copyscope ab` runs of the same A/B (on several
 * boots or hosts) judged together: `compare` of ab runs.
 *
 * Each run's rounds give paired log ratios d_r (comparison/ab_verdict.h).  The
 * runs are pooled hierarchically: the estimate is the median of all the
 * runs' d_r, its 95% CI a two-level bootstrap (runs drawn with
 * replacement, then rounds within each drawn run), so that runs which
 * disagree widen the interval; the p-value is the signed-rank test of the
 * pooled rounds.  The verdict follows ab's rule: p < alpha, the CI beyond
 * the noise band and beyond the pooled A'/A control.  Each run's own
 * estimate is kept so that a run that disagrees can be seen.
 */
#ifndef COPYSCOPE_COMPARISON_AB_COMBINE_H
#define COPYSCOPE_COMPARISON_AB_COMBINE_H

#include <stddef.h>

#include "comparison/ab_verdict.h"
#include "results/run.h"

/* Bootstrap resamples of the combined CI, and their fixed seed. */
#define AB_COMBINE_ITERS 2000
#define AB_COMBINE_SEED 0xab5eedULL

struct ab_combined_row {
	const char *metric, *unit;	/* the first run's */
	int direction;
	const char *same_reading_as;
	size_t nruns, rounds;		/* runs with the metric, rounds */
	double *run_change_pct;		/* [nruns]: each run's estimate */
	double change_pct, ci_lo_pct, ci_hi_pct, p;
	double ctl_change_pct;		/* the pooled control */
	double band_pct;
	enum verdict verdict;
	char reason[200];
};

struct ab_combined {
	const char *workload, *a, *b;	/* the first run's */
	struct ab_analysis *per_run;	/* [nruns] */
	size_t nruns;
	struct ab_combined_row *rows;
	size_t n;
};

/*
 * Judge the ab runs runs[0..n-1] together with o.  Every run must be an
 * ab run of the same workload and sides (else -1 with the difference in
 * err).  Returns 0, or -1 (err says why; ENOMEM too).  Free with
 * ab_combined_free().
 */
int ab_combine(const struct run_data *const *runs, size_t n,
	       const struct ab_opts *o, struct ab_combined *out, char *err,
	       size_t errlen);

void ab_combined_free(struct ab_combined *c);

#endif
