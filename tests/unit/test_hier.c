/*
 * test_hier.c - the hierarchical statistics (stats/hier.h) on answers
 * known in advance: a synthetic hierarchy of boots, runs and samples with
 * known variance components and a known ratio between two sides; Welch's
 * t against R's published t.test example; the minimum detectable effect
 * and the runs a target needs against each other; the bootstrap's bound
 * on its resamples.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "stats/hier.h"
#include "stats/summary.h"

/* A standard normal from the stats generator (Box-Muller). */
static double gauss(uint64_t *rng)
{
	double u = ((double)(stats_rng_next(rng) >> 11) + 0.5) /
		   9007199254740992.0;
	double v = ((double)(stats_rng_next(rng) >> 11) + 0.5) /
		   9007199254740992.0;

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

#define MAXN 4000

/*
 * A side of nboots x nruns x nsamples values around median: each boot,
 * each run and each sample multiplies by (1 + cv * N(0,1)) with its own
 * level's cv.
 */
struct fx {
	double x[MAXN];
	size_t start[200], len[200], boot[200];
	struct hier_side s;
};

static void make_side(struct fx *f, size_t nboots, size_t nruns,
		      size_t nsamples, double median, double cv_boot,
		      double cv_run, double cv_sample, uint64_t seed)
{
	uint64_t rng = seed;
	size_t b, r, i, k = 0, nr = 0;

	assert_true(nboots * nruns * nsamples <= MAXN);
	assert_true(nboots * nruns <= 200);
	for (b = 0; b < nboots; b++) {
		double mb = median * (1.0 + cv_boot * gauss(&rng));

		for (r = 0; r < nruns; r++) {
			double mr = mb * (1.0 + cv_run * gauss(&rng));

			f->start[nr] = k;
			f->len[nr] = nsamples;
			f->boot[nr] = b;
			nr++;
			for (i = 0; i < nsamples; i++)
				f->x[k++] = mr * (1.0 + cv_sample *
						  gauss(&rng));
		}
	}
	f->s.x = f->x;
	f->s.run_start = f->start;
	f->s.run_len = f->len;
	f->s.run_boot = f->boot;
	f->s.nruns = nr;
	f->s.nboots = nboots;
}

/* The spread at each level recovers the components put in. */
static void test_spread_recovers_components(void **state)
{
	static struct fx f;
	struct hier_spread sp;

	(void)state;
	/* 12 boots x 6 runs x 40 samples: 2% in a run, 3% between runs,
	   5% between boots */
	make_side(&f, 12, 6, 40, 1000.0, 0.05, 0.03, 0.02, 42);
	assert_int_equal(hier_spread(&f.s, &sp), 0);
	assert_true(fabs(sp.within_run - 0.02) < 0.002);
	/* 60 degrees of freedom: about 9% relative error */
	assert_true(sp.between_runs > 0.03 * 0.7 &&
		    sp.between_runs < 0.03 * 1.3);
	/* 11 degrees of freedom: the boot medians also carry the runs'
	   spread over 6 runs (~1.2%): sqrt(5^2 + 1.2^2) = 5.1% */
	assert_true(sp.between_boots > 0.051 * 0.6 &&
		    sp.between_boots < 0.051 * 1.4);

	/* one boot: no between-boot spread to tell */
	make_side(&f, 1, 5, 20, 1000.0, 0.0, 0.03, 0.02, 7);
	assert_int_equal(hier_spread(&f.s, &sp), 0);
	assert_true(isnan(sp.between_boots));
	assert_false(isnan(sp.between_runs));
	/* one sample per run: no within-run spread */
	make_side(&f, 1, 5, 1, 1000.0, 0.0, 0.03, 0.02, 8);
	assert_int_equal(hier_spread(&f.s, &sp), 0);
	assert_true(isnan(sp.within_run));
}

/*
 * The hierarchical CI of the change covers the known ratio (+10%) in
 * about 95% of replicates of 5 runs a side with 3% between runs; a CI
 * that ignored the runs (samples only, 1% wide) would cover it far less.
 */
static void test_ci_covers_known_ratio(void **state)
{
	static struct fx b, n;
	int rep, covered = 0, reps = 100;
	double lo, hi;

	(void)state;
	for (rep = 0; rep < reps; rep++) {
		make_side(&b, 1, 5, 20, 1000.0, 0.0, 0.03, 0.02,
			  1000 + (uint64_t)rep);
		make_side(&n, 1, 5, 20, 1100.0, 0.0, 0.03, 0.02,
			  5000 + (uint64_t)rep);
		assert_int_equal(hier_change_ci(&b.s, &n.s, 1000, 99, 0.95,
						&lo, &hi), 0);
		assert_true(lo < hi);
		covered += lo <= 10.0 && 10.0 <= hi;
	}
	/* a percentile bootstrap over 5 runs under-covers a little */
	assert_true(covered >= 80);

	/* two boots a side, each with its own offset: the CI widens */
	make_side(&b, 2, 3, 20, 1000.0, 0.0, 0.03, 0.02, 11);
	make_side(&n, 2, 3, 20, 1000.0, 0.0, 0.03, 0.02, 12);
	assert_int_equal(hier_change_ci(&b.s, &n.s, 1000, 99, 0.95, &lo,
					&hi), 0);
	assert_true(lo < 0 && hi > 0);
}

/*
 * The bootstrap's cost is bounded as the summary's is: resamples capped
 * by the samples both sides hold (stats_bootstrap_iters()).  The sizes
 * copyscope's own runs have keep every resample asked for, and so the
 * interval they always had.  (A call at the bound still costs about 4e7
 * draws, seconds, so the capped interval is not computed here.)
 */
static void test_ci_resamples_capped(void **state)
{
	static struct fx b, n;
	double lo, hi;

	(void)state;
	/* 3 runs x 20 samples a side: every resample asked for, so the
	   interval is the one compare always gave */
	make_side(&b, 1, 3, 20, 1000.0, 0.0, 0.03, 0.02, 21);
	make_side(&n, 1, 3, 20, 1100.0, 0.0, 0.03, 0.02, 22);
	assert_int_equal(hier_bootstrap_iters(&b.s, &n.s, 2000), 2000);
	assert_int_equal(hier_bootstrap_iters(&b.s, &n.s, 100000), 100000);
	assert_int_equal(hier_change_ci(&b.s, &n.s, 2000, 5, 0.95, &lo, &hi),
			 0);
	/* as before the bound (seed 5): the interval is unchanged */
	assert_float_equal(lo, 5.9220666395945729, 1e-9);
	assert_float_equal(hi, 15.213553367807579, 1e-9);

	/* 4 runs x 500 samples a side: 4000 draws a resample, so 20000
	   resamples (8e7 draws) are capped at 4e7 / 4000 = 10000 */
	make_side(&b, 1, 4, 500, 1000.0, 0.0, 0.03, 0.02, 31);
	make_side(&n, 1, 4, 500, 1100.0, 0.0, 0.03, 0.02, 32);
	assert_int_equal(hier_bootstrap_iters(&b.s, &n.s, 2000), 2000);
	assert_int_equal(hier_bootstrap_iters(&b.s, &n.s, 20000), 10000);

	/* one huge run a side (1e6 samples, the most an import takes):
	   never fewer than 200 resamples */
	b.len[0] = n.len[0] = 1000000;
	b.s.nruns = n.s.nruns = 1;
	assert_int_equal(hier_bootstrap_iters(&b.s, &n.s, 2000), 200);
}

/*
 * Welch's t on logs against R's example: t.test(1:10, y = c(7:20)) gives
 * t = -5.4349, df = 21.982, p-value = 1.855e-05; here on exp() of those
 * values (so that the logs are 1:10 and 7:20), y against x.
 */
static void test_welch_r_example(void **state)
{
	double x[10], y[14];
	struct welch_result w;
	int i;

	(void)state;
	for (i = 0; i < 10; i++)
		x[i] = exp(1.0 + i);
	for (i = 0; i < 14; i++)
		y[i] = exp(7.0 + i);
	assert_int_equal(stats_welch_log(x, 10, y, 14, &w), 0);
	assert_float_equal(w.t, 5.4349, 0.0001);
	assert_float_equal(w.df, 21.982, 0.001);
	assert_float_equal(w.p, 1.855e-05, 0.001e-05);
	assert_float_equal(w.diff_log, 8.0, 1e-12);
	/* a value <= 0 has no logarithm; one value a side no variance */
	x[3] = 0;
	assert_int_equal(stats_welch_log(x, 10, y, 14, &w), -1);
	assert_int_equal(stats_welch_log(y, 1, y + 1, 1, &w), -1);
}

/*
 * The same test on plain values (R: t.test(1:10, y = c(7:20)) gives
 * p = 1.855e-05) and the sample variance it is built on (var(1:10) is
 * 55 / 6).
 */
static void test_welch_plain_and_variance(void **state)
{
	double x[10], y[14];
	int i;

	(void)state;
	for (i = 0; i < 10; i++)
		x[i] = 1.0 + i;
	for (i = 0; i < 14; i++)
		y[i] = 7.0 + i;
	assert_float_equal(stats_welch_p(x, 10, y, 14), 1.855e-05, 0.001e-05);
	assert_float_equal(stats_welch_p(y, 14, x, 10), 1.855e-05, 0.001e-05);
	assert_float_equal(stats_variance(x, 10), 55.0 / 6.0, 1e-12);
	assert_float_equal(stats_variance(x, 1), 0.0, 0.0);
	/* no spread: equal means are certain to be equal, others differ */
	assert_float_equal(stats_welch_p(y, 2, y, 2), 1.0, 0.0);
	x[1] = x[0];
	y[0] = y[1] = 5.0;
	assert_float_equal(stats_welch_p(x, 2, y, 2), 0.0, 0.0);
	assert_true(isnan(stats_welch_p(x, 1, y, 2)));
}

/* The runs a target needs is the first n whose MDE reaches it. */
static void test_mde_and_runs_needed(void **state)
{
	double sd = 0.03, target = 5.0;
	int n;

	(void)state;
	n = stats_runs_needed(sd, target, 0.05, 0.8, 1000);
	assert_true(n >= 2);
	assert_true(stats_mde_pct(sd * sqrt(2.0 / n), 2.0 * n - 2, 0.05,
				  0.8) <= target);
	assert_true(stats_mde_pct(sd * sqrt(2.0 / (n - 1)), 2.0 * n - 4,
				  0.05, 0.8) > target);
	/* a smaller target needs more runs; one out of reach gives 0 */
	assert_true(stats_runs_needed(sd, 2.0, 0.05, 0.8, 1000) > n);
	assert_int_equal(stats_runs_needed(sd, 0.01, 0.05, 0.8, 1000), 0);
	/* the MDE grows with the standard error */
	assert_true(stats_mde_pct(0.02, 8, 0.05, 0.8) >
		    stats_mde_pct(0.01, 8, 0.05, 0.8));
	assert_true(isnan(stats_mde_pct(-1, 8, 0.05, 0.8)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread_recovers_components),
		cmocka_unit_test(test_ci_covers_known_ratio),
		cmocka_unit_test(test_ci_resamples_capped),
		cmocka_unit_test(test_welch_r_example),
		cmocka_unit_test(test_welch_plain_and_variance),
		cmocka_unit_test(test_mde_and_runs_needed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
