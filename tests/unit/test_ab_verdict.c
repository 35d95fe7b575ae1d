/*
 * test_ab_verdict.c - the paired A/B verdict (comparison/ab_verdict.c) on
 * seeded samples: a verdict needs B's CI to clear the control's whole CI,
 * a control whose CI reaches past the noise band without such a clearance is
 * "cannot tell", and a metric of the same timed window (time/segment)
 * counts once.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "comparison/ab_verdict.h"
#include "result_fixture.h"
#include "workloads/workloads.h"

#define ROUNDS 40

/* A seeded uniform in [-1, 1). */
static double noise(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return ((*seed >> 8) & 0xffff) / 32768.0 - 1.0;
}

/*
 * An ab run of sys.null in set: per round a drift shared by A, B and
 * A', then B at (1 + b_pct%) and A' at (1 + a2_pct%), each with its
 * own noise of +-own_pct%.
 */
static void make_run(struct result_set *set, double b_pct, double a2_pct,
		     double own_pct, bool segment)
{
	double v[3][ROUNDS], seg[3][ROUNDS];
	const double scale[3] = { 1, 1 + b_pct / 100, 1 + a2_pct / 100 };
	unsigned seed = 7;
	int j, k;

	for (k = 0; k < ROUNDS; k++) {
		double drift = 1 + 0.2 * noise(&seed);

		for (j = 0; j < 3; j++)
			v[j][k] = 100 * drift * scale[j] *
				  (1 + own_pct / 100 * noise(&seed));
		for (j = 0; j < 3; j++)
			seg[j][k] = v[j][k] / (j == 1 ? 2 : 1);
	}
	for (j = 0; j < 3; j++) {
		char info[64], params[64];

		snprintf(info, sizeof(info), "{\"job\":%d}", j);
		snprintf(params, sizeof(params), "{\"segs\":\"%d\"}",
			 j == 1 ? 2 : 1);
		fx_add(set, segment ? "sys.iov" : "sys.null", params,
		       "time/call", "ns", -1, v[j], ROUNDS, info);
		if (segment)
			fx_add(set, "sys.iov", params, "time/segment", "ns",
			       -1, seg[j], ROUNDS, info);
	}
}

static void analyze_hint(struct result_set *set, struct ab_analysis *a,
			 bool hint_fresh)
{
	struct ab_opts o = { .alpha = 0.05, .noise_pct = 1.0, .looks = 1,
			     .hint_fresh = hint_fresh };
	char err[256];

	assert_int_equal(ab_analyze(set->v, set->n, &o, a, err,
				    sizeof(err)), 0);
	assert_true(a->n >= 1);
}

static void analyze(struct result_set *set, struct ab_analysis *a)
{
	analyze_hint(set, a, false);
}

/* +10% with a quiet control: worse. */
static void test_clear_change_is_worse(void **state)
{
	struct result_set set = { 0 };
	struct ab_analysis a;

	(void)state;
	make_run(&set, 10, 0, 0.2, false);
	analyze(&set, &a);
	assert_int_equal(a.rows[0].verdict, VERDICT_WORSE);
	assert_true(a.rows[0].ctl_ci_hi_pct < 1 &&
		    a.rows[0].ctl_ci_lo_pct > -1);
	ab_analysis_free(&a);
	result_set_free(&set);
}

/* The hint is set from the run's options: only a run that kept its
   workers and could have started them anew (no kernel views). */
static void test_could_refresh(void **state)
{
	struct run_options ro = { 0 };

	(void)state;
	assert_true(ab_could_refresh(&ro));
	ro.fresh_workers = true;
	assert_false(ab_could_refresh(&ro));
	ro.fresh_workers = false;
	ro.kviews = 1;
	assert_false(ab_could_refresh(&ro));
}

/*
 * +3% while the control's own noise spreads its CI past the 1% band
 * (its point near 0): not a verdict, and not "~" either.
 */
static void test_noisy_control_cannot_tell(void **state)
{
	struct result_set set = { 0 };
	struct ab_analysis a;

	(void)state;
	make_run(&set, 3, 0, 12, false);
	analyze(&set, &a);
	assert_true(fmax(fabs(a.rows[0].ctl_ci_lo_pct),
			 fabs(a.rows[0].ctl_ci_hi_pct)) > 1);
	assert_true(fabs(a.rows[0].ctl_change_pct) < 3);
	assert_int_equal(a.rows[0].verdict, VERDICT_CANNOT_TELL);
	assert_non_null(strstr(a.rows[0].reason, "the control moved"));
	/* the words name a CI end past the band, not the CI's width */
	assert_non_null(strstr(a.rows[0].reason, "reaching past the +-1% "
				"noise band"));
	assert_non_null(strstr(a.rows[0].reason, "more rounds or a quieter"));
	ab_analysis_free(&a);
	/* a run that kept its workers: --fresh-workers named too */
	analyze_hint(&set, &a, true);
	assert_int_equal(a.rows[0].verdict, VERDICT_CANNOT_TELL);
	assert_non_null(strstr(a.rows[0].reason, "more rounds, "
				"--fresh-workers or a quieter machine"));
	ab_analysis_free(&a);
	result_set_free(&set);
}

/*
 * +50% beyond a noisy control's whole CI: worse, since B's CI clears
 * it.
 */
static void test_change_beyond_noisy_control(void **state)
{
	struct result_set set = { 0 };
	struct ab_analysis a;

	(void)state;
	make_run(&set, 50, 0, 5, false);
	analyze(&set, &a);
	assert_true(a.rows[0].ci_lo_pct > a.rows[0].ctl_ci_hi_pct);
	assert_int_equal(a.rows[0].verdict, VERDICT_WORSE);
	ab_analysis_free(&a);
	result_set_free(&set);
}

/* time/segment is time/call over segs: the same reading, counted once. */
static void test_derived_metric_counts_once(void **state)
{
	struct result_set set = { 0 };
	struct ab_analysis a;
	size_t i, judged;

	(void)state;
	make_run(&set, 10, 0, 0.2, true);
	analyze(&set, &a);
	assert_int_equal(a.n, 2);
	for (i = 0; i < a.n; i++)
		if (strcmp(a.rows[i].metric, "time/segment") == 0)
			assert_string_equal(a.rows[i].same_reading_as,
					    "time/call");
	judged = a.worse + a.better + a.same + a.cannot_tell;
	assert_int_equal(judged, 1);
	assert_int_equal(a.worse, 1);
	ab_analysis_free(&a);
	result_set_free(&set);
}

/*
 * A' itself 3% off A with little noise (the control moved, p tiny):
 * B +50% lies beyond the control's whole CI and is worse, saying the
 * control moved; B -1.5% (between A and A') does not clear it, so the
 * pairing did not hold.
 */
static void test_moved_control(void **state)
{
	struct result_set set = { 0 };
	struct ab_analysis a;

	(void)state;
	make_run(&set, 50, -3, 0.2, false);
	analyze(&set, &a);
	assert_true(a.rows[0].ctl_ci_hi_pct < -1);
	assert_int_equal(a.rows[0].verdict, VERDICT_WORSE);
	assert_non_null(strstr(a.rows[0].reason, "control moved"));
	assert_non_null(strstr(a.rows[0].reason, "beyond the control's"));
	ab_analysis_free(&a);
	result_set_free(&set);

	memset(&set, 0, sizeof(set));
	make_run(&set, -1.5, -3, 0.2, false);
	analyze(&set, &a);
	assert_int_equal(a.rows[0].verdict, VERDICT_CANNOT_TELL);
	assert_non_null(strstr(a.rows[0].reason, "pairing did not hold"));
	assert_null(strstr(a.rows[0].reason, "--fresh-workers"));
	ab_analysis_free(&a);
	/* a run that kept its workers, without kernel views: named */
	analyze_hint(&set, &a, true);
	assert_int_equal(a.rows[0].verdict, VERDICT_CANNOT_TELL);
	assert_non_null(strstr(a.rows[0].reason, "pairing did not hold; "
				"each side kept its workers, whose offset "
				"--fresh-workers averages out"));
	ab_analysis_free(&a);
	result_set_free(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clear_change_is_worse),
		cmocka_unit_test(test_noisy_control_cannot_tell),
		cmocka_unit_test(test_change_beyond_noisy_control),
		cmocka_unit_test(test_moved_control),
		cmocka_unit_test(test_could_refresh),
		cmocka_unit_test(test_derived_metric_counts_once),
	};

	workload_registry_set(workload_table, workload_count);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
