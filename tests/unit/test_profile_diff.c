/*
 * test_profile_diff.c - the kernel profile diff (comparison/profile_diff.h)
 * and its t intervals (stats/meanci.h) on profiles built by hand: the
 * paired change of a function over rounds, its control, the moved rule
 * (a CI beyond 0 and beyond the control's), rounds left out (without
 * samples, or disturbed with --drop-noisy), the sum of the functions'
 * changes equal to the op's, the unpaired Welch diff pooled over runs
 * or by run (3 runs a side), the reasons given where no diff can be
 * made; and the text in 80 columns with the JSON rows.  Expected
 * intervals by hand from the t table: t(0.975, 3) = 3.182446305,
 * t(0.975, 6) = 2.446911851, t(0.975, 4) = 2.776445105.
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
#include <jansson.h>

#include "comparison/profile_diff.h"
#include "report/profile_diff_print.h"
#include "results/kernel_records.h"
#include "stats/meanci.h"

#define T3 3.182446305
#define T6 2.446911851

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.9g, want %.9g", got, want);
}

static void test_mean_ci(void **state)
{
	const double x[] = { 75, 125, 75, 125 }, c[] = { 25, 0, 0, 0 };
	const double same[] = { 3, 3, 3 }, bad[] = { 1, NAN };
	struct mean_ci m;

	(void)state;
	assert_int_equal(stats_mean_ci(x, 4, 0.95, &m), 0);
	near(m.est, 100, 1e-12);
	/* sd 28.8675, se 14.4338 */
	near(m.lo, 100 - T3 * 25 / sqrt(3), 1e-6);
	near(m.hi, 100 + T3 * 25 / sqrt(3), 1e-6);
	assert_int_equal(stats_mean_ci(c, 4, 0.95, &m), 0);
	near(m.est, 6.25, 1e-12);
	near(m.lo, 6.25 - T3 * 6.25, 1e-6);
	assert_int_equal(stats_mean_ci(same, 3, 0.95, &m), 0);
	near(m.lo, 3, 0);
	near(m.hi, 3, 0);
	assert_int_equal(stats_mean_ci(x, 1, 0.95, &m), 0);
	assert_true(isnan(m.lo) && isnan(m.hi));
	assert_int_equal(stats_mean_ci(x, 0, 0.95, &m), -1);
	assert_int_equal(stats_mean_ci(bad, 2, 0.95, &m), -1);
	assert_int_equal(stats_mean_ci(x, 4, 1.0, &m), -1);
}

static void test_welch_ci(void **state)
{
	const double x[] = { 1, 2, 3, 4 }, y[] = { 3, 4, 5, 6 };
	const double z[] = { 5, 5 };
	struct mean_ci m;

	(void)state;
	/* equal spreads and sizes: df = 6, se = sqrt(5/6) */
	assert_int_equal(stats_welch_diff_ci(x, 4, y, 4, 0.95, &m), 0);
	near(m.est, 2, 1e-12);
	near(m.df, 6, 1e-9);
	near(m.lo, 2 - T6 * sqrt(5.0 / 6), 1e-6);
	near(m.hi, 2 + T6 * sqrt(5.0 / 6), 1e-6);
	assert_int_equal(stats_welch_diff_ci(z, 2, z, 2, 0.95, &m), 0);
	near(m.lo, 0, 0);
	near(m.hi, 0, 0);
	assert_int_equal(stats_welch_diff_ci(x, 0, y, 4, 0.95, &m), -1);
}

static const char *const STACKS[] = {
	"[user];entry_SYSCALL_64;do_syscall_64;read_zero",
	"[user]",
	"[user];entry_SYSCALL_64;do_syscall_64;fdget",
	"[user];entry_SYSCALL_64;do_syscall_64;a_function_name_long_enough_to_be_cut",
};

/* A profile of nr rounds: per round rz read_zero and user [user]
   samples, the op's time op_ns (a round with none: no samples). */
static struct result_kernel *prof(size_t nr, const unsigned *rz,
				  const unsigned *user, double op_ns)
{
	struct result_kernel *k = calloc(1, sizeof(*k));
	size_t i;

	assert_non_null(k);
	k->views = KVIEW_PROFILE;
	snprintf(k->prof_event, sizeof(k->prof_event), "cpu-clock");
	k->prof_hz = 499;
	k->nstacks = 4;
	k->stacks = calloc(4, sizeof(*k->stacks));
	assert_non_null(k->stacks);
	for (i = 0; i < 4; i++)
		k->stacks[i].frames = strdup(STACKS[i]);
	k->prof_per = calloc(nr, sizeof(*k->prof_per));
	assert_non_null(k->prof_per);
	for (i = 0; i < nr; i++) {
		struct kv_prof_sample *p = &k->prof_per[i];

		p->op_ns = op_ns;
		p->stack = calloc(2, sizeof(*p->stack));
		p->count = calloc(2, sizeof(*p->count));
		assert_non_null(p->stack);
		assert_non_null(p->count);
		p->stack[0] = 0;
		p->count[0] = rz[i];
		p->stack[1] = 1;
		p->count[1] = user[i];
		p->n = 2;
		p->samples = rz[i] + user[i];
		k->stacks[0].count += rz[i];
		k->stacks[1].count += user[i];
		k->prof_samples += p->samples;
	}
	k->nprof_per = nr;
	return k;
}

static const struct pdiff_row *row_of(const struct pdiff *d, const char *f)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->rows[i].function, f))
			return &d->rows[i];
	fail_msg("no row %s", f);
	return NULL;
}

/*
 * 5 rounds, the last left out (B has no sample in it).  A: 1 read_zero
 * and 3 user samples of 100 ns ops (25 and 75 ns); A' the same but 2
 * and 2 in round 0; B: 200 ns ops with 2, 3, 2, 3 read_zero of 4.
 * read_zero: d = 75, 125, 75, 125; control 25, 0, 0, 0: moved.
 * [user]: d = 25, -25, 25, -25: not.
 */
static struct pdiff paired_case(struct result_kernel *k[3])
{
	static const unsigned a_rz[] = { 1, 1, 1, 1, 1 },
			      a_us[] = { 3, 3, 3, 3, 3 },
			      c_rz[] = { 2, 1, 1, 1, 1 },
			      c_us[] = { 2, 3, 3, 3, 3 },
			      b_rz[] = { 2, 3, 2, 3, 0 },
			      b_us[] = { 2, 1, 2, 1, 0 };
	const struct result_kernel *ck[3];
	struct pdiff d;

	k[0] = prof(5, a_rz, a_us, 100);
	k[1] = prof(5, b_rz, b_us, 200);
	k[2] = prof(5, c_rz, c_us, 100);
	ck[0] = k[0];
	ck[1] = k[1];
	ck[2] = k[2];
	assert_int_equal(pdiff_paired(ck, NULL, 0, &d), 0);
	return d;
}

/*
 * The paired case by frame: every frame's path with its total.  [user]
 * (the root) holds every sample, so its value is the op's time: d = 100
 * in every round, control 0; entry_SYSCALL_64 and do_syscall_64 hold
 * read_zero's samples only, so they move as read_zero does (75, 125,
 * 75, 125: +100); the frames of stacks without samples have no row.
 */
static void test_paired_by_frame(void **state)
{
	static const unsigned a_rz[] = { 1, 1, 1, 1, 1 },
			      a_us[] = { 3, 3, 3, 3, 3 },
			      c_rz[] = { 2, 1, 1, 1, 1 },
			      c_us[] = { 2, 3, 3, 3, 3 },
			      b_rz[] = { 2, 3, 2, 3, 0 },
			      b_us[] = { 2, 1, 2, 1, 0 };
	const struct result_kernel *ck[3];
	struct result_kernel *k[3];
	const struct pdiff_row *r;
	struct pdiff d;
	size_t i;

	(void)state;
	k[0] = prof(5, a_rz, a_us, 100);
	k[1] = prof(5, b_rz, b_us, 200);
	k[2] = prof(5, c_rz, c_us, 100);
	for (i = 0; i < 3; i++)
		ck[i] = k[i];
	assert_int_equal(pdiff_paired_by(ck, NULL, 0, true, &d), 0);
	assert_true(d.by_frame);
	assert_int_equal(d.units[0], 4);
	assert_int_equal(d.n, 4);
	r = row_of(&d, "[user]");
	near(r->a_ns, 100, 1e-9);
	near(r->b_ns, 200, 1e-9);
	near(r->change.est, 100, 1e-9);
	near(r->change.lo, 100, 1e-9);
	near(r->ctl.est, 0, 1e-9);
	assert_true(r->moved);
	r = row_of(&d, "[user];entry_SYSCALL_64");
	near(r->a_ns, 25, 1e-9);
	near(r->change.est, 100, 1e-9);
	near(r->change.lo, 100 - T3 * 25 / sqrt(3), 1e-6);
	near(r->ctl.est, 6.25, 1e-9);
	r = row_of(&d, "[user];entry_SYSCALL_64;do_syscall_64;read_zero");
	near(r->change.est, 100, 1e-9);
	assert_true(r->moved);
	pdiff_free(&d);
	/* by function, the same profiles: [user] is the self of its
	   stack alone, +25 -25 +25 -25 */
	assert_int_equal(pdiff_paired_by(ck, NULL, 0, false, &d), 0);
	assert_false(d.by_frame);
	r = row_of(&d, "[user]");
	near(r->change.est, 0, 1e-9);
	assert_false(r->moved);
	pdiff_free(&d);
	for (i = 0; i < 3; i++)
		result_kernel_free(k[i]);
}

static void test_paired(void **state)
{
	struct result_kernel *k[3];
	struct pdiff d = paired_case(k);
	const struct pdiff_row *rz, *us;
	int i;

	(void)state;
	assert_true(d.paired);
	assert_int_equal(d.units[0], 4);
	assert_int_equal(d.left_out, 1);
	assert_int_equal(d.n, 2);
	rz = row_of(&d, "read_zero");
	us = row_of(&d, "[user]");
	assert_ptr_equal(rz, &d.rows[0]);	/* the larger change first */
	near(rz->a_ns, 25, 1e-9);
	near(rz->b_ns, 125, 1e-9);
	near(rz->change.est, 100, 1e-9);
	near(rz->change.lo, 100 - T3 * 25 / sqrt(3), 1e-6);
	near(rz->ctl.est, 6.25, 1e-9);
	near(rz->ctl.hi, 6.25 + T3 * 6.25, 1e-6);
	assert_true(rz->moved);
	assert_int_equal(rz->a_samples, 4);
	assert_int_equal(rz->b_samples, 10);
	near(us->change.est, 0, 1e-9);
	assert_false(us->moved);
	/* the op: 100 ns more every round; the functions add up to it */
	near(d.op.est, 100, 1e-9);
	near(d.op.lo, 100, 1e-9);
	near(pdiff_top_sum(&d, 10), d.op.est, 1e-9);
	near(pdiff_top_sum(&d, 1), 100, 1e-9);
	assert_int_equal(pdiff_moved(&d), 1);
	pdiff_free(&d);
	for (i = 0; i < 3; i++)
		result_kernel_free(k[i]);
}

/*
 * From an ab run's results: the kernel records by job, and with
 * --drop-noisy the rounds with a flagged kept sample left out (round 0,
 * flagged in A' only): read_zero's d = 125, 75, 125, control 0, 0, 0.
 */
static void test_ab_drop_noisy(void **state)
{
	struct result_kernel *k[3];
	struct pdiff d = paired_case(k);
	struct result_config cfg[3];
	struct result_load load[3];
	struct result res[3];
	unsigned flags[3][5];
	int i;

	(void)state;
	pdiff_free(&d);
	memset(cfg, 0, sizeof(cfg));
	memset(load, 0, sizeof(load));
	memset(res, 0, sizeof(res));
	memset(flags, 0, sizeof(flags));
	flags[2][0] = 1;
	for (i = 0; i < 3; i++) {
		cfg[i].job = i;
		cfg[i].kernel = k[i];
		cfg[i].nsamples = 5;
		cfg[i].load = &load[i];
		load[i].flags = flags[i];
		res[i].cfg = &cfg[i];
	}
	/* none profiled: 1 */
	for (i = 0; i < 3; i++)
		cfg[i].kernel = NULL;
	assert_int_equal(pdiff_ab(res, 3, false, &d), 1);
	for (i = 0; i < 3; i++)
		cfg[i].kernel = k[i];
	assert_int_equal(pdiff_ab(res, 3, false, &d), 0);
	assert_int_equal(d.units[0], 4);
	assert_int_equal(d.dropped, 0);
	near(row_of(&d, "read_zero")->change.est, 100, 1e-9);
	pdiff_free(&d);
	assert_int_equal(pdiff_ab(res, 3, true, &d), 0);
	assert_int_equal(d.units[0], 3);
	assert_int_equal(d.dropped, 1);
	assert_int_equal(d.left_out, 1);
	near(row_of(&d, "read_zero")->change.est, 325.0 / 3, 1e-9);
	near(row_of(&d, "read_zero")->ctl.lo, 0, 1e-12);
	near(row_of(&d, "read_zero")->ctl.hi, 0, 1e-12);
	pdiff_free(&d);
	for (i = 0; i < 3; i++)
		result_kernel_free(k[i]);
}

/* The same read_zero change, but the control moved as much: not moved. */
static void test_control_blocks(void **state)
{
	static const unsigned a_rz[] = { 1, 1, 1, 1 }, a_us[] = { 3, 3, 3, 3 },
			      b_rz[] = { 2, 3, 2, 3 }, b_us[] = { 2, 1, 2, 1 };
	struct result_kernel *k[3];
	const struct result_kernel *ck[3];
	struct pdiff d;
	int i;

	(void)state;
	k[0] = prof(4, a_rz, a_us, 100);
	k[1] = prof(4, b_rz, b_us, 200);
	k[2] = prof(4, b_rz, b_us, 200);	/* A' behaves as B */
	for (i = 0; i < 3; i++)
		ck[i] = k[i];
	assert_int_equal(pdiff_paired(ck, NULL, 0, &d), 0);
	assert_true(row_of(&d, "read_zero")->change.lo > 0);
	assert_false(row_of(&d, "read_zero")->moved);
	pdiff_free(&d);
	for (i = 0; i < 3; i++)
		result_kernel_free(k[i]);
}

static void test_why(void **state)
{
	static const unsigned one[] = { 1 }, none[] = { 0 };
	struct result_kernel *k[3];
	const struct result_kernel *ck[3];
	struct pdiff d;
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		k[i] = prof(1, one, one, 100);
	for (i = 0; i < 3; i++)
		ck[i] = k[i];
	/* one round: no interval */
	assert_int_equal(pdiff_paired(ck, NULL, 0, &d), 0);
	assert_int_equal(d.n, 0);
	assert_non_null(strstr(d.why, "1 of 1 rounds"));
	pdiff_free(&d);
	/* a profile stored before the traced samples were */
	free(k[1]->prof_per[0].stack);
	free(k[1]->prof_per[0].count);
	free(k[1]->prof_per);
	k[1]->prof_per = NULL;
	k[1]->nprof_per = 0;
	assert_int_equal(pdiff_paired(ck, NULL, 0, &d), 0);
	assert_int_equal(d.n, 0);
	assert_non_null(strstr(d.why, "B's profile was stored without"));
	pdiff_free(&d);
	ck[1] = NULL;
	assert_int_equal(pdiff_paired(ck, NULL, 0, &d), 0);
	assert_non_null(strstr(d.why, "B was not profiled"));
	pdiff_free(&d);
	result_kernel_free(k[0]);
	k[0] = prof(1, none, none, 100);	/* no samples at all */
	ck[0] = k[0];
	ck[1] = k[2];
	assert_int_equal(pdiff_paired(ck, NULL, 0, &d), 0);
	assert_int_equal(d.left_out, 1);
	assert_int_equal(d.n, 0);
	pdiff_free(&d);
	for (i = 0; i < 3; i++)
		result_kernel_free(k[i]);
}

/*
 * Unpaired: base two runs of 2 samples, read_zero 1, 2 / 3, 4 of 4
 * samples of 400 ns (100, 200, 300, 400 ns); new one run of 4 with
 * 3, 4, 5, 6 of 8 samples of 800 ns (300 .. 600 ns): +200, df 6,
 * CI -23.4 .. +423.4.
 */
static void test_unpaired(void **state)
{
	static const unsigned b1[] = { 1, 2 }, u1[] = { 3, 2 },
			      b2[] = { 3, 4 }, u2[] = { 1, 0 },
			      n1[] = { 3, 4, 5, 6 }, v1[] = { 5, 4, 3, 2 };
	struct result_kernel *k[3];
	const struct result_kernel *a[2], *b[1];
	const struct pdiff_row *rz;
	struct pdiff d;
	int i;

	(void)state;
	k[0] = prof(2, b1, u1, 400);
	k[1] = prof(2, b2, u2, 400);
	k[2] = prof(4, n1, v1, 800);
	a[0] = k[0];
	a[1] = k[1];
	b[0] = k[2];
	assert_int_equal(pdiff_unpaired(a, 2, b, 1, 2, 1, &d), 0);
	assert_false(d.paired);
	assert_int_equal(d.units[0], 4);
	assert_int_equal(d.units[1], 4);
	assert_int_equal(d.nruns[0], 2);
	rz = row_of(&d, "read_zero");
	near(rz->a_ns, 250, 1e-9);
	near(rz->b_ns, 450, 1e-9);
	near(rz->change.est, 200, 1e-9);
	near(rz->change.df, 6, 1e-9);
	near(rz->change.lo, 200 - T6 * 100 * sqrt(5.0 / 6), 1e-6);
	assert_true(isnan(rz->ctl.est));
	assert_false(rz->moved);	/* lo = -23.4: 0 is in it */
	assert_true(rz->change.lo < 0);
	near(d.op.est, 400, 1e-9);
	near(pdiff_top_sum(&d, 10), 400, 1e-9);
	pdiff_free(&d);
	assert_int_equal(pdiff_unpaired(a, 2, b, 0, 2, 0, &d), 0);
	assert_non_null(strstr(d.why, "new was not profiled"));
	pdiff_free(&d);
	for (i = 0; i < 3; i++)
		result_kernel_free(k[i]);
}

/*
 * Three runs a side: each run (the mean of its 2 traced samples) is a
 * unit.  read_zero per run: 100, 200, 300 ns on base, 300, 400, 500 on
 * new: +200, df 4, se sqrt(20000 / 3).
 */
static void test_unpaired_by_run(void **state)
{
	static const unsigned c[6][2] = { { 1, 1 }, { 2, 2 }, { 3, 3 },
					  { 3, 3 }, { 4, 4 }, { 5, 5 } };
	struct result_kernel *k[6];
	const struct result_kernel *a[3], *b[3];
	const struct pdiff_row *rz;
	struct pdiff d;
	int i;

	(void)state;
	for (i = 0; i < 6; i++) {
		unsigned us[2] = { 4 - c[i][0], 4 - c[i][1] };

		k[i] = prof(2, c[i], us, 400);
	}
	for (i = 0; i < 3; i++) {
		a[i] = k[i];
		b[i] = k[3 + i];
	}
	assert_int_equal(pdiff_unpaired(a, 3, b, 3, 3, 3, &d), 0);
	assert_true(d.by_run);
	assert_int_equal(d.units[0], 3);
	assert_int_equal(d.units[1], 3);
	rz = row_of(&d, "read_zero");
	near(rz->a_ns, 200, 1e-9);
	near(rz->b_ns, 400, 1e-9);
	near(rz->change.df, 4, 1e-9);
	near(rz->change.lo, 200 - 2.776445105 * sqrt(20000.0 / 3), 1e-6);
	assert_int_equal(rz->a_samples, 12);
	pdiff_free(&d);
	/* two runs a side: the samples are the units */
	assert_int_equal(pdiff_unpaired(a, 2, b, 2, 2, 2, &d), 0);
	assert_false(d.by_run);
	assert_int_equal(d.units[0], 4);
	pdiff_free(&d);
	for (i = 0; i < 6; i++)
		result_kernel_free(k[i]);
}

static void test_text_json(void **state)
{
	struct result_kernel *k[3];
	struct pdiff d = paired_case(k);
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	const char *p;
	json_t *j, *r0;

	(void)state;
	/* a third function with a name longer than its column */
	k[1]->prof_per[0].stack[1] = 3;
	pdiff_free(&d);
	{
		const struct result_kernel *ck[3] = { k[0], k[1], k[2] };

		assert_int_equal(pdiff_paired(ck, NULL, 0, &d), 0);
	}
	assert_non_null(f);
	report_profile_diff(f, &d, 2);
	fclose(f);
	for (p = buf; *p;) {
		size_t l = strcspn(p, "\n");

		if (l > 80)
			fail_msg("line of %zu columns: %.*s", l, (int)l, p);
		p += l + (p[l] == '\n');
	}
	assert_non_null(strstr(buf, "* read_zero"));
	assert_non_null(strstr(buf, "explain"));
	assert_non_null(strstr(buf, "'~' ends a name cut"));
	assert_non_null(strstr(buf, "a_function_name_long_e~"));
	free(buf);
	j = profile_diff_rows_json(&d);
	assert_non_null(j);
	assert_int_equal(json_array_size(j), d.n);
	r0 = json_array_get(j, 0);
	assert_string_equal(json_string_value(json_object_get(r0,
			    "function")), "read_zero");
	for (i = 0; i < json_array_size(j); i++) {
		json_t *r = json_array_get(j, i);

		assert_true(json_is_number(json_object_get(r, "a_ns_per_op")));
		assert_true(json_is_number(json_object_get(r, "b_ns_per_op")));
		assert_true(json_is_number(json_object_get(r,
				"change_ns_per_op")));
		assert_int_equal(json_array_size(json_object_get(r, "ci")), 2);
		assert_int_equal(json_array_size(json_object_get(r,
				 "control_ci")), 2);
	}
	assert_true(json_is_true(json_object_get(r0, "moved")));
	json_decref(j);
	j = profile_diff_json(&d);
	assert_true(json_is_true(json_object_get(j, "paired")));
	assert_int_equal(json_integer_value(json_object_get(j, "a_units")), 4);
	json_decref(j);
	pdiff_free(&d);
	for (i = 0; i < 3; i++)
		result_kernel_free(k[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_ci),
		cmocka_unit_test(test_welch_ci),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_paired_by_frame),
		cmocka_unit_test(test_ab_drop_noisy),
		cmocka_unit_test(test_control_blocks),
		cmocka_unit_test(test_why),
		cmocka_unit_test(test_unpaired),
		cmocka_unit_test(test_unpaired_by_run),
		cmocka_unit_test(test_text_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
