/*
 * ab_verdict.h - the paired A/B analysis of one run (`copyscope ab`): A,
 * B and a control A' (a second copy of A) measured together, one kept
 * sample of each per round, the order shuffled every round.
 *
 * Per round r and metric: d_r = ln B_r - (ln A_r + ln A'_r) / 2, the log
 * ratio of B to the two copies of A of the same round, and the control
 * c_r = ln A'_r - ln A_r.  Drift between rounds moves A, A' and B alike
 * and cancels in d_r; what is left is tested over the rounds with the
 * Wilcoxon signed-rank test, and estimated with the Hodges-Lehmann
 * estimate and its interval (stats/paired.h), reported as %change
 * (e^x - 1).
 *
 * A verdict (better/worse by the metric's direction) needs all three of
 *   - p < alpha (alpha / looks when rounds were added until a precision
 *     was reached: a Bonferroni correction over the looks taken),
 *   - the whole CI beyond the noise band (+-noise_pct),
 *   - the whole CI beyond the control's whole CI (the shift between
 *     A and its identical copy), where that reaches past the band.
 * A row without a verdict whose control's CI reaches past the noise
 * band is "cannot tell: the control moved lo..hi%" (the rounds cannot
 * separate two identical sides by that much), never "~".
 * Otherwise "~" with the largest change the CI allows, or "cannot tell"
 * where the rounds cannot decide: too few to reach alpha, values that
 * cannot be put in a ratio, or a control that itself moved (A and its
 * copy differ beyond noise: the pairing did not hold).
 *
 * Metrics derived from one timed window (time per op, cycles per op,
 * bytes/s, ops/s) are one reading: the first of them carries the
 * verdict; the others name it in same_reading_as, so that one change
 * counts once.
 */
#ifndef COPYSCOPE_COMPARISON_AB_H
#define COPYSCOPE_COMPARISON_AB_H

#include <stdbool.h>
#include <stddef.h>

#include "env/env.h"
#include "results/result.h"
#include "results/run.h"
#include "results/run_options.h"
#include "stats/mannwhitney.h"

/* The environment key that marks an ab run (session/ab_session.c sets it). */
#define AB_ENV_ROLES "ab.roles"

/* The job index of each configuration of an ab run. */
enum ab_role { AB_ROLE_A = 0, AB_ROLE_B = 1, AB_ROLE_A2 = 2, AB_NROLES };

/* Noise band default, %: as compare's. */
#define AB_DEFAULT_NOISE_PCT 1.0

struct ab_opts {
	double alpha;		/* e.g. 0.05 */
	double noise_pct;	/* the band a change must clear, % */
	int looks;		/* times the rounds were tested while taking
				   them (precision mode), >= 1 */
	bool drop_noisy;	/* leave out rounds with a flagged sample */
	bool hint_fresh;	/* the run kept its workers and could have
				   started them anew (ab_could_refresh): a
				   "control moved" reason names
				   --fresh-workers.  Not from the env: the
				   caller sets it from the run's options */
};

/* One metric of the paired comparison. */
struct ab_row {
	const struct result *res[AB_NROLES];	/* A, B, A' */
	const char *metric, *unit;
	int direction;
	size_t rounds;		/* rounds tested */
	size_t disturbed;	/* rounds with a flagged sample */
	size_t dropped;		/* of those, left out (drop_noisy) */
	double median[AB_NROLES];
	double change_pct, ci_lo_pct, ci_hi_pct, p;	/* B against A, A' */
	double ctl_change_pct, ctl_ci_lo_pct, ctl_ci_hi_pct, ctl_p;
	double band_pct;	/* what the CI must clear: the larger of
				   the noise band and the control's CI */
	double bound_pct;	/* "~": no change larger than this */
	double alpha_used;	/* alpha / looks */
	enum verdict verdict;
	const char *same_reading_as;	/* a metric of the same window, or
					   NULL: this row's verdict counts */
	char reason[200];	/* why "cannot tell" or "~", or "" */
	double *ratio_pct;	/* [rounds]: B/A per round, % change */
	double *ctl_ratio_pct;	/* [rounds]: A'/A per round, % change */
	double *log_ratio;	/* [rounds]: d_r, what the test takes */
	double *ctl_log_ratio;	/* [rounds]: c_r */
};

struct ab_analysis {
	struct ab_row *rows;
	size_t n;
	size_t worse, better, same, cannot_tell;	/* counting rows whose
							   verdict counts */
};

/*
 * Pair the results res[0..nres-1] of an ab run (configurations of jobs
 * 0, 1, 2: A, B, A') metric by metric and judge each.  Trace and traced
 * results are left out.  Returns 0, or -1 when the set has no configuration of one
 * of the roles (with a message in err), or on ENOMEM.  Free with
 * ab_analysis_free().
 */
int ab_analyze(const struct result *res, size_t nres,
	       const struct ab_opts *o, struct ab_analysis *out, char *err,
	       size_t errlen);

void ab_analysis_free(struct ab_analysis *a);

/* True when env is the environment of an ab run. */
bool ab_env_is_ab(const struct env *env);

/*
 * The options an ab run was judged with, from its environment (ab.alpha,
 * ab.noise_pct, ab.looks, ab.drop_noisy); defaults where a key is
 * missing or not a number.
 */
void ab_opts_from_env(const struct env *env, struct ab_opts *o);

/* Whether a run with these options kept its workers for all rounds and
   could have started them anew (--fresh-workers, which the kernel views
   refuse): what ab_opts.hint_fresh is set from. */
bool ab_could_refresh(const struct run_options *ro);

/* A stored ab run's options: ab_opts_from_env, and hint_fresh from the
   run's stored options. */
void ab_opts_from_run(const struct run_info *run, const struct env *env,
		      struct ab_opts *o);

/*
 * The half-width, in %, of the 95%..(1-alpha) CI of metric m's paired
 * change after `rounds` rounds of A, B, A' values (each [rounds]), for
 * --precision's stopping rule; NAN when it cannot be computed yet.  The
 * half-width of the A'/A control's CI at the same level goes to
 * *ctl_pct (NAN likewise): a verdict needs both narrow.
 */
double ab_ci_halfwidth_pct(const double *a, const double *b,
			   const double *a2, size_t rounds, double conf,
			   double *ctl_pct);

#endif
