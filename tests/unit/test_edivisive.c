/*
 * test_edivisive.c - E-divisive means (stats/edivisive.h): the statistic
 * Q on small series against values worked out by hand, the O(n log n)
 * search against the direct O(n^2) sums, and the detection rates on
 * seeded synthetic series of log values: one +5% step under 3% noise
 * found within +-1 point, flat series without a false change, two steps
 * both found, and what normal noise of sd 3% allows.  The series are 40 to 60 points and each test uses the
 * default 199 permutations, which keeps the whole test well under 20 s.
 * And what a short segment cannot tell (issue 30): the smallest p of a
 * split, 2 / C(n, k), against the exact p of every shuffle of a 9-point
 * series with a 3x step in its newest 3, the permutations of segments
 * whose exact p can fall just below alpha, and ediv_tail()'s undecidable
 * newest points on seeded 10- and 16-point series with that step.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "stats/edivisive.h"
#include "stats/summary.h"

/*
 * x = 1, 2, 10, 11 split before index 2: within the left |1-2| = 1,
 * within the right |10-11| = 1, across 9 + 10 + 8 + 9 = 36; m = k = 2,
 * n = 4: Q = 4/4 * (2 * 36/4 - 1/1 - 1/1) = 16.
 *
 * x = 0, 1, 3, 6, 10 split before index 2: left 1, right 3 + 7 + 4 = 14,
 * across 3 + 6 + 10 + 2 + 5 + 9 = 35; m = 2, k = 3, n = 5:
 * Q = 6/5 * (2 * 35/6 - 1/1 - 14/3) = 6/5 * 6 = 7.2.
 */
static void test_known_answers(void **state)
{
	const double a[] = { 1, 2, 10, 11 };
	const double b[] = { 0, 1, 3, 6, 10 };
	size_t tau;
	double q;

	(void)state;
	assert_true(fabs(ediv_q_direct(a, 4, 2) - 16) < 1e-12);
	assert_true(fabs(ediv_q_direct(b, 5, 2) - 7.2) < 1e-12);
	assert_true(isnan(ediv_q_direct(b, 5, 1)));
	assert_true(isnan(ediv_q_direct(b, 5, 4)));
	assert_int_equal(ediv_best_split(a, 4, 2, &tau, &q), 0);
	assert_int_equal(tau, 2);
	assert_true(fabs(q - 16) < 1e-12);
	/* too short for two sides of 3 */
	assert_int_equal(ediv_best_split(b, 5, 3, &tau, &q), 1);
}

/* A standard normal draw (Box-Muller) from the shared generator. */
static double normal(uint64_t *rng)
{
	double u1 = ((double)(stats_rng_next(rng) >> 11) + 1) /
		9007199254740993.0;
	double u2 = (double)(stats_rng_next(rng) >> 11) / 9007199254740992.0;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* The fast search finds the tau and Q of the direct sums, ties and all. */
static void test_fast_matches_direct(void **state)
{
	const size_t sizes[] = { 6, 11, 37 };
	uint64_t rng = 7;
	double x[37], q, best, v;
	size_t n, i, k, t, tau, at;

	(void)state;
	for (k = 0; k < 3; k++) {
		n = sizes[k];
		for (i = 0; i < n; i++)	/* rounded: ties on purpose */
			x[i] = round(normal(&rng) * 4) + (i > n / 3 ? 3 : 0);
		assert_int_equal(ediv_best_split(x, n, 3, &tau, &q), 0);
		best = -INFINITY;
		at = 0;
		for (t = 3; t + 3 <= n; t++) {
			v = ediv_q_direct(x, n, t);
			if (v > best) {
				best = v;
				at = t;
			}
		}
		assert_int_equal(tau, at);
		assert_true(fabs(q - best) < 1e-9 * fabs(best) + 1e-12);
	}
}

/*
 * n log values around 0 with noise uniform in +-noise (each point within
 * that fraction of its level) and +log(1+step) from each at[].
 */
static void series(double *x, size_t n, double noise, const size_t *at,
		   const double *step, size_t nsteps, uint64_t *rng)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		x[i] = log1p(noise * (2 * (double)(stats_rng_next(rng) >> 11) /
				      9007199254740992.0 - 1));
		for (k = 0; k < nsteps; k++)
			if (i >= at[k])
				x[i] += log1p(step[k]);
	}
}

static const struct ediv_opts dflt = {
	.alpha = EDIV_DEFAULT_ALPHA, .perms = EDIV_DEFAULT_PERMS,
	.min_size = EDIV_DEFAULT_MIN_SIZE, .seed = EDIV_DEFAULT_SEED,
};

/*
 * +5% at index 30 of 60 under 3% noise: found within +-1 in >= 95/100.
 * The noise is uniform within +-3%: under normal noise of sd 3% the step
 * is 1.7 sd, and no estimator places it within +-1 that often (least
 * squares does in 75%, E-divisive in about 70%; it finds it at all in
 * 80%), which test_normal_noise pins.
 */
static void test_single_step(void **state)
{
	const size_t at[] = { 30 };
	const double step[] = { 0.05 };
	struct ediv_point *p;
	uint64_t rng = 0x51e9;
	double x[60];
	size_t np, k, found = 0;

	(void)state;
	for (k = 0; k < 100; k++) {
		series(x, 60, 0.03, at, step, 1, &rng);
		assert_int_equal(ediv_find(x, 60, &dflt, &p, &np), 0);
		if (np == 1 && p[0].index >= 29 && p[0].index <= 31)
			found++;
		free(p);
	}
	print_message("single step found within +-1: %zu/100\n", found);
	assert_true(found >= 95);
}

/*
 * +5% at index 20 of 40 under normal noise of sd 3%: a change point is
 * found in >= 75 of 100, within +-3 of the step in >= 70.
 */
static void test_normal_noise(void **state)
{
	struct ediv_point *p;
	uint64_t rng = 0x3a0d;
	double x[40];
	size_t np, k, i, any = 0, near = 0;

	(void)state;
	for (k = 0; k < 100; k++) {
		for (i = 0; i < 40; i++)
			x[i] = 0.03 * normal(&rng) + (i >= 20 ? log1p(0.05) : 0);
		assert_int_equal(ediv_find(x, 40, &dflt, &p, &np), 0);
		any += np > 0;
		for (i = 0; i < np; i++)
			if (labs((long)p[i].index - 20) <= 3) {
				near++;
				break;
			}
		free(p);
	}
	print_message("sd 3%%: found %zu/100, within +-3 %zu/100\n", any,
		      near);
	assert_true(any >= 75);
	assert_true(near >= 70);
}

/* Flat series of 40 under 3% noise: a change point in <= 5 of 100. */
static void test_flat(void **state)
{
	struct ediv_point *p;
	uint64_t rng = 0xf1a7;
	double x[40];
	size_t np, k, false_cp = 0;

	(void)state;
	for (k = 0; k < 100; k++) {
		series(x, 40, 0.03, NULL, NULL, 0, &rng);
		assert_int_equal(ediv_find(x, 40, &dflt, &p, &np), 0);
		false_cp += np > 0;
		free(p);
	}
	print_message("flat series with a change point: %zu/100\n",
		      false_cp);
	assert_true(false_cp <= 5);
}

/*
 * +5% at 20 and +5% more at 40 of 60 under 3% noise: both found (+-2)
 * in >= 80 of 100 (86 with this seed).
 * A step that goes back (up then down) is a weaker split of the whole
 * series, since the search ends every segment at its end (as Otava does;
 * ecp also searches the end, at O(n^2) a pass): such a bump is found
 * when it is larger or longer.
 */
static void test_two_steps(void **state)
{
	const size_t at[] = { 20, 40 };
	const double step[] = { 0.05, 0.05 };
	struct ediv_point *p;
	uint64_t rng = 0x2572;
	double x[60];
	size_t np, k, both = 0;

	(void)state;
	for (k = 0; k < 100; k++) {
		series(x, 60, 0.03, at, step, 2, &rng);
		assert_int_equal(ediv_find(x, 60, &dflt, &p, &np), 0);
		if (np == 2 && labs((long)p[0].index - 20) <= 2 &&
		    labs((long)p[1].index - 40) <= 2)
			both++;
		free(p);
	}
	print_message("two steps both found within +-2: %zu/100\n", both);
	assert_true(both >= 80);
}

/* Bad options are refused; short series have no change point. */
static void test_edges(void **state)
{
	const double x[] = { 1, 2, 3, 4, 5 };
	struct ediv_opts o = dflt;
	struct ediv_point *p;
	size_t np;

	(void)state;
	assert_int_equal(ediv_find(x, 5, &o, &p, &np), 0);
	assert_int_equal(np, 0);
	assert_null(p);
	o.alpha = 1;
	assert_int_equal(ediv_find(x, 5, &o, &p, &np), -1);
	o = dflt;
	o.perms = 0;
	assert_int_equal(ediv_find(x, 5, &o, &p, &np), -1);
	o = dflt;
	o.min_size = 1;
	assert_int_equal(ediv_find(x, 5, &o, &p, &np), -1);
}

/*
 * The permutations a level needs: the smallest p, 1 / (1 + perms), at
 * alpha / 10 or below, never under the default nor over the cap.
 */
static void test_perms_for(void **state)
{
	(void)state;
	assert_int_equal(ediv_perms_for(0.01), 999);
	assert_true(1.0 / (1 + ediv_perms_for(0.01)) <= 0.01 / 10);
	assert_int_equal(ediv_perms_for(0.05), EDIV_DEFAULT_PERMS);
	assert_int_equal(ediv_perms_for(0.5), EDIV_DEFAULT_PERMS);
	assert_int_equal(ediv_perms_for(0.001), EDIV_MAX_PERMS);
	assert_int_equal(ediv_perms_for(1e-6), EDIV_MAX_PERMS);
}

/*
 * The smallest p of a split of n into n - k and k: 2 / C(n, k), the same
 * for the mirror split, never below 1 / (1 + perms); NAN without a side.
 */
static void test_min_p(void **state)
{
	(void)state;
	assert_true(fabs(ediv_min_p(10, 3, 999) - 2.0 / 120) < 1e-15);
	assert_true(fabs(ediv_min_p(10, 7, 999) - 2.0 / 120) < 1e-15);
	assert_true(fabs(ediv_min_p(11, 3, 999) - 2.0 / 165) < 1e-15);
	assert_true(fabs(ediv_min_p(12, 3, 999) - 2.0 / 220) < 1e-15);
	assert_true(fabs(ediv_min_p(10, 5, 999) - 2.0 / 252) < 1e-15);
	/* C(40, 20) is huge: the permutations' floor */
	assert_true(fabs(ediv_min_p(40, 20, 199) - 1.0 / 200) < 1e-15);
	assert_true(isnan(ediv_min_p(10, 0, 999)));
	assert_true(isnan(ediv_min_p(10, 10, 999)));
}

/* log(140 ns) with noise uniform in +-1.5%, x3 from index step. */
static void stepped(double *x, size_t n, size_t step, uint64_t *rng)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = log(140 * (1 + 0.03 * ((double)(stats_rng_next(rng) >> 11) /
					      9007199254740992.0 - 0.5))) +
			(i >= step ? log(3) : 0);
}

/*
 * The exact p of a 3x step in the newest 3 of 9 points: of all 9! orders
 * of the points, those whose largest Q reaches the series' own.  It is
 * 2 / C(9, 3) = 2/84 exactly (the step's 3 points last or first, in any
 * order; no other order comes near), which ediv_min_p() gives.
 */
static void test_min_p_exact(void **state)
{
	enum { N = 9 };
	double x[N], q0, q, t;
	size_t c[N] = { 0 }, i = 1, tau, hits = 1, total = 1;
	uint64_t rng = 42;

	(void)state;
	stepped(x, N, N - 3, &rng);
	assert_int_equal(ediv_best_split(x, N, 3, &tau, &q0), 0);
	assert_int_equal(tau, N - 3);
	while (i < N) {		/* Heap's algorithm: every order once */
		if (c[i] < i) {
			size_t j = i % 2 ? c[i] : 0;

			t = x[j];
			x[j] = x[i];
			x[i] = t;
			assert_int_equal(ediv_best_split(x, N, 3, &tau, &q), 0);
			total++;
			hits += q >= q0 * (1 - 1e-12);
			c[i]++;
			i = 1;
		} else {
			c[i++] = 0;
		}
	}
	assert_int_equal(total, 362880);
	assert_int_equal(hits, 2 * 6 * 720);	/* 2 * 3! * 6! */
	assert_true(fabs((double)hits / (double)total -
			 ediv_min_p(N, 3, EDIV_MAX_PERMS)) < 1e-15);
}

/*
 * Ten times the permutations where a split's exact p falls just below
 * alpha (within a factor 4): at 0.01 segments of 10 to 17 points (the
 * newest 4 of 10: 2/210, the newest 3 of 17: 2/680); none at 9 (no split
 * reaches 0.01) or 18 (2/816 is far below it), nor beyond the cap.
 */
static void test_perms_at(void **state)
{
	struct ediv_opts o = dflt;
	size_t n;

	(void)state;
	o.perms = ediv_perms_for(0.01);
	assert_int_equal(ediv_perms_at(9, &o), 999);
	for (n = 10; n <= 17; n++)
		assert_int_equal(ediv_perms_at(n, &o), 9990);
	assert_int_equal(ediv_perms_at(18, &o), 999);
	assert_int_equal(ediv_perms_at(60, &o), 999);
	o.perms = EDIV_MAX_PERMS;
	assert_int_equal(ediv_perms_at(12, &o), EDIV_MAX_PERMS);
}

/*
 * What a segment cannot tell at alpha 0.01 (999 permutations, sides of
 * 3): the newest 3 of 10 or 11 points (smallest p 2/120, 2/165), 12
 * points could (2/220 = 0.009); no split of 6 to 9 points (the best,
 * halves of 9: 2/126), 10 could; none of 5 at all.  At 0.05 (199
 * permutations) 7 points cannot, 8 can; at 0.001 (9999) the newest 3 to
 * 4 of 16 cannot (2/1820), 24 points could a change in the newest 3;
 * below 1 / (1 + 9999) no number of points can.
 */
static void test_tail(void **state)
{
	struct ediv_opts o = dflt;
	struct ediv_tail t;

	(void)state;
	o.perms = ediv_perms_for(0.01);
	assert_int_equal(ediv_tail(10, &o, &t), 0);
	assert_int_equal(t.newest, 3);
	assert_true(fabs(t.min_p - 2.0 / 120) < 1e-15);
	assert_int_equal(t.need, 12);
	assert_int_equal(ediv_tail(11, &o, &t), 0);
	assert_int_equal(t.newest, 3);
	assert_true(fabs(t.min_p - 2.0 / 165) < 1e-15);
	assert_int_equal(t.need, 12);
	assert_int_equal(ediv_tail(12, &o, &t), 0);
	assert_int_equal(t.newest, 0);
	assert_true(isnan(t.min_p));
	assert_int_equal(ediv_tail(9, &o, &t), 0);
	assert_int_equal(t.newest, 9);
	assert_true(fabs(t.min_p - 2.0 / 126) < 1e-15);
	assert_int_equal(t.need, 10);
	assert_int_equal(ediv_tail(5, &o, &t), 0);
	assert_int_equal(t.newest, 5);
	assert_true(isnan(t.min_p));
	assert_int_equal(t.need, 10);
	o.alpha = 0.05;
	o.perms = ediv_perms_for(0.05);
	assert_int_equal(ediv_tail(7, &o, &t), 0);
	assert_int_equal(t.newest, 7);
	assert_int_equal(t.need, 8);
	assert_int_equal(ediv_tail(8, &o, &t), 0);
	assert_int_equal(t.newest, 0);
	o.alpha = 0.001;
	o.perms = ediv_perms_for(0.001);
	assert_int_equal(ediv_tail(16, &o, &t), 0);
	assert_int_equal(t.newest, 4);
	assert_true(fabs(t.min_p - 2.0 / 1820) < 1e-15);
	assert_int_equal(t.need, 24);
	o.alpha = 1e-5;
	assert_int_equal(ediv_tail(100, &o, &t), 0);
	assert_int_equal(t.newest, 100);
	assert_int_equal(t.need, 0);
	o.alpha = 0;
	assert_int_equal(ediv_tail(10, &o, &t), -1);
}

/*
 * The decision on seeded series, 140 ns then 3x: with 7 + 3 points
 * E-divisive finds no change point at alpha 0.01 and cannot (the newest
 * 3 of 10 are undecidable, their smallest p above alpha); with 13 + 3
 * (smallest p 2/560) it finds the step at 13.
 */
static void test_tail_decision(void **state)
{
	struct ediv_opts o = dflt;
	struct ediv_point *p;
	struct ediv_tail t;
	uint64_t rng = 0x3a7;
	double x[16];
	size_t np;

	(void)state;
	o.perms = ediv_perms_for(o.alpha);
	stepped(x, 10, 7, &rng);
	assert_int_equal(ediv_find(x, 10, &o, &p, &np), 0);
	assert_int_equal(np, 0);
	assert_int_equal(ediv_tail(10, &o, &t), 0);
	assert_int_equal(t.newest, 3);
	assert_true(t.min_p >= o.alpha);
	stepped(x, 16, 13, &rng);
	assert_int_equal(ediv_find(x, 16, &o, &p, &np), 0);
	assert_int_equal(np, 1);
	assert_int_equal(p[0].index, 13);
	assert_true(p[0].p < o.alpha);
	free(p);
	assert_int_equal(ediv_tail(16, &o, &t), 0);
	assert_int_equal(t.newest, 0);
}

/*
 * The split E-divisive stops at: with 7 + 3 points the 3x step at 7 is
 * the likeliest split, rejected with the p no shuffle can go below
 * (2/C(10, 3), never the Monte Carlo estimate under it); on 16 points
 * with the step found, the one it rejected next lies in a segment either
 * side of it; with max_points stopping the search none is reported.
 */
static void test_rejected(void **state)
{
	struct ediv_opts o = dflt;
	struct ediv_rejected r;
	struct ediv_point *p;
	uint64_t rng = 0x3a7;
	double x[16];
	size_t np;

	(void)state;
	o.perms = ediv_perms_for(o.alpha);
	stepped(x, 10, 7, &rng);
	assert_int_equal(ediv_find_rejected(x, 10, &o, &p, &np, &r), 0);
	assert_int_equal(np, 0);
	assert_int_equal(r.index, 7);
	assert_int_equal(r.lo, 0);
	assert_int_equal(r.hi, 10);
	assert_true(r.p >= 2.0 / 120 - 1e-12);
	assert_true(r.p < 0.03);
	stepped(x, 16, 13, &rng);
	assert_int_equal(ediv_find_rejected(x, 16, &o, &p, &np, &r), 0);
	assert_int_equal(np, 1);
	free(p);
	assert_true(r.index == 0 || r.hi <= 13 || r.lo >= 13);
	assert_true(r.index == 0 || r.p >= o.alpha);
	o.max_points = 1;
	assert_int_equal(ediv_find_rejected(x, 16, &o, &p, &np, &r), 0);
	assert_int_equal(np, 1);
	free(p);
	assert_int_equal(r.index, 0);
	assert_true(isnan(r.p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_fast_matches_direct),
		cmocka_unit_test(test_single_step),
		cmocka_unit_test(test_normal_noise),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_perms_for),
		cmocka_unit_test(test_min_p),
		cmocka_unit_test(test_min_p_exact),
		cmocka_unit_test(test_perms_at),
		cmocka_unit_test(test_tail),
		cmocka_unit_test(test_tail_decision),
		cmocka_unit_test(test_rejected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
