/*
 * test_comparison.c - unit tests of the comparison engine
 * (src/comparison/comparison.c) on injected data with a known answer: A/A
 * sides drawn from one seeded distribution are '~', a 10% slowdown is
 * 'worse' (and 'better' by the metric's direction), several runs per
 * side make the run the unit of the test, --drop-noisy leaves flagged
 * samples out without inventing a median for a run that lost them all,
 * rows on one side only, ignored parameters, and the differences of
 * environment and run options; and what it cannot judge: one run a side,
 * too few samples to reach alpha, a verdict carried by flagged samples,
 * and a second metric of the same timed window counted once.
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

#include "result_fixture.h"
#include "comparison/comparison.h"
#include "workloads/workloads.h"

#define MAXRUNS 8
#define NS 10			/* samples per run */

/* Normal-ish noise from the stats generator: the sum of 12 uniforms. */
static double noise(uint64_t *rng)
{
	double s = 0;
	int i;

	for (i = 0; i < 12; i++)
		s += (double)(stats_rng_next(rng) >> 11) / 9007199254740992.0;
	return s - 6.0;
}

/* NS values around median with a relative spread sd (seeded). */
static void draw(double *x, double median, double sd, uint64_t seed)
{
	uint64_t rng = seed;
	int i;

	for (i = 0; i < NS; i++)
		x[i] = median * (1.0 + sd * noise(&rng));
}

struct side_fx {
	struct run_data runs[MAXRUNS];
	size_t n;
};

/*
 * A run of sys.null with time/call around median (seeded), in boot
 * boot; flags marks which of its NS samples are flagged (a bit each),
 * params the canonical parameters.
 */
static void add_run_x(struct side_fx *s, const char *boot, const double *xs,
		      unsigned flags, const char *params);

static void add_run(struct side_fx *s, const char *boot, double median,
		    uint64_t seed, unsigned flags, const char *params)
{
	double x[NS];

	draw(x, median, 0.02, seed);
	add_run_x(s, boot, x, flags, params);
}

/* A run of the NS values x (the samples of time/call). */
static void add_run_x(struct side_fx *s, const char *boot, const double *xs,
		      unsigned flags, const char *params)
{
	struct run_data *r = &s->runs[s->n++];
	char info[1024], *p;
	double x[NS];
	int i;

	memcpy(x, xs, sizeof(x));
	assert_true(s->n <= MAXRUNS);
	memset(r, 0, sizeof(*r));
	result_set_init(&r->results);
	r->info.id = (int64_t)s->n;
	snprintf(r->info.boot_id, sizeof(r->info.boot_id), "%s", boot);
	r->info.have_options = true;
	r->info.opts.reps = NS;
	p = info + sprintf(info, "{\"batch_ops\":1000,\"interference\":{"
			   "\"flagged\":[");
	for (i = 0; i < NS; i++)
		p += sprintf(p, "%s%s", i ? "," : "",
			     flags & (1u << i) ? "true" : "false");
	p += sprintf(p, "],\"why\":[");
	for (i = 0; i < NS; i++)
		p += sprintf(p, "%s\"%s\"", i ? "," : "",
			     flags & (1u << i) ? "other" : "");
	sprintf(p, "]},\"job\":0}");
	fx_add(&r->results, "sys.null", params, "time/call", "ns", -1, x, NS,
	       info);
	for (i = 0; i < NS; i++)
		x[i] = 1e9 / x[i];
	fx_add(&r->results, "sys.null", params, "calls/s", "ops/s", 1, x, NS,
	       info);
}

#define P0 "{\"call\":\"gettid\",\"inject_ns\":\"0\"}"

static void free_side(struct side_fx *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		run_data_free(&s->runs[i]);
	s->n = 0;
}

static void build(struct cmp *c, struct side_fx *b, struct side_fx *n,
		  const struct cmp_opts *o)
{
	memset(c, 0, sizeof(*c));
	c->base.runs = b->runs;
	c->base.nruns = b->n;
	c->new.runs = n->runs;
	c->new.nruns = n->n;
	assert_int_equal(cmp_build(c, o), 0);
}

static const struct cmp_row *row(const struct cmp *c, const char *metric)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (strcmp(c->rows[i].ref->metric, metric) == 0)
			return &c->rows[i];
	fail_msg("no row %s", metric);
	return NULL;
}

/* the sample-unit tests judged as such (the runs' spread asserted known) */
static const struct cmp_opts defaults = { .alpha = 0.05, .noise_pct = 1.0,
					  .by_sample = true };
/* what compare and check use */
static const struct cmp_opts honest = { .alpha = 0.05, .noise_pct = 1.0 };

static void test_aa_same(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	struct cmp_counts k;
	struct cmp c;
	uint64_t seed;

	(void)state;
	/* eight seeded A/A pairs, one run a side: never a verdict */
	for (seed = 1; seed <= 8; seed++) {
		add_run(&b, "boot1", 100.0, seed, 0, P0);
		add_run(&n, "boot1", 100.0, seed + 1000, 0, P0);
		build(&c, &b, &n, &defaults);
		cmp_count(&c, &k);
		assert_int_equal(k.compared, 2);
		assert_int_equal(k.same, 2);
		assert_false(row(&c, "time/call")->by_run);
		cmp_free(&c);
		free_side(&b);
		free_side(&n);
	}
}

static void test_ab_worse_better(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	const struct cmp_row *t, *r;
	struct cmp c;

	(void)state;
	add_run(&b, "boot1", 100.0, 7, 0, P0);
	add_run(&n, "boot1", 110.0, 8, 0, P0);
	build(&c, &b, &n, &defaults);
	t = row(&c, "time/call");
	r = row(&c, "calls/s");
	/* time up 10%: worse; the rate down ~9%: worse too */
	assert_int_equal(t->verdict, VERDICT_WORSE);
	assert_true(t->mw.p < 0.05);
	assert_true(t->change_pct > 5 && t->change_pct < 15);
	assert_true(t->ci_lo > 1 && t->ci_lo <= t->change_pct &&
		    t->change_pct <= t->ci_hi);
	assert_int_equal(r->verdict, VERDICT_WORSE);
	assert_true(r->change_pct < -5);
	cmp_free(&c);
	/* the other way round: better */
	build(&c, &n, &b, &defaults);
	assert_int_equal(row(&c, "time/call")->verdict, VERDICT_BETTER);
	assert_int_equal(row(&c, "calls/s")->verdict, VERDICT_BETTER);
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

static void test_runs_as_unit(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	const struct cmp_row *t;
	struct cmp c;
	uint64_t i;

	(void)state;
	for (i = 0; i < 5; i++) {
		add_run(&b, "boot1", 100.0 + (double)i, 10 + i, 0, P0);
		add_run(&n, "boot1", 110.0 + (double)i, 20 + i, 0, P0);
	}
	build(&c, &b, &n, &defaults);
	t = row(&c, "time/call");
	assert_true(t->by_run);
	assert_int_equal(t->b.nruns, 5);
	assert_int_equal(t->b.n, 5 * NS);
	/* Welch's t on log run medians: far below Mann-Whitney's floor of
	   2 / C(10, 5) for 5 against 5 */
	assert_true(t->p < 0.001);
	assert_true(t->welch.df > 3);
	assert_int_equal(t->verdict, VERDICT_WORSE);
	assert_true(t->mde_pct > 0 && t->mde_pct < 10);
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

/* 3 runs against 3 with a large real difference: worse (Mann-Whitney
   over 3 run medians could not go below p = 0.1). */
static void test_three_against_three(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	struct cmp_opts o = defaults;
	const struct cmp_row *t;
	struct cmp c;
	uint64_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		add_run(&b, "boot1", 100.0 + (double)i, 60 + i, 0, P0);
		add_run(&n, "boot1", 130.0 + (double)i, 70 + i, 0, P0);
	}
	o.target_pct = 2;
	build(&c, &b, &n, &o);
	t = row(&c, "time/call");
	assert_true(t->by_run);
	assert_true(t->p < 0.01);
	assert_int_equal(t->verdict, VERDICT_WORSE);
	/* about 1% between runs: a 2% change wants a handful of runs */
	assert_true(t->runs_needed >= 2 && t->runs_needed <= 20);
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

/* An A/A hierarchy (two boots of four runs a side) is '~', and says what
   it rules out. */
static void test_aa_hierarchy(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	const struct cmp_row *t;
	struct cmp c;
	uint64_t i;

	(void)state;
	for (i = 0; i < 8; i++) {
		add_run(&b, i < 4 ? "bootA" : "bootB", 100.0 * (1 + 0.01 *
			(double)(i % 3)), 80 + i, 0, P0);
		add_run(&n, i < 4 ? "bootC" : "bootD", 100.0 * (1 + 0.01 *
			(double)((i + 1) % 3)), 90 + i, 0, P0);
	}
	build(&c, &b, &n, &defaults);
	t = row(&c, "time/call");
	assert_true(t->by_run);
	assert_int_equal(t->b.nboots, 2);
	assert_int_equal(t->verdict, VERDICT_SAME);
	assert_true(t->ci_lo < 0 && t->ci_hi > 0);
	assert_true(cmp_no_change_beyond(t) > 0 &&
		    cmp_no_change_beyond(t) < 10);
	assert_false(isnan(t->b.spread.between_boots));
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

static void test_drop_noisy(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	const struct cmp_row *t;
	struct cmp c;
	struct cmp_opts o = defaults;
	size_t k;

	(void)state;
	/*
	 * Boot X: run 1 entirely flagged, run 2 quiet, both near 100;
	 * boot Y: run 3 quiet near 100.  With --drop-noisy run 1 has no
	 * samples: it must count for nothing, not as a median of 0.
	 */
	add_run(&b, "bootX", 100.0, 31, 0x3ff, P0);
	add_run(&b, "bootX", 100.0, 32, 0, P0);
	add_run(&b, "bootY", 100.0, 33, 0, P0);
	add_run(&n, "bootX", 100.0, 34, 0x1, P0);
	o.drop_noisy = true;
	build(&c, &b, &n, &o);
	t = row(&c, "time/call");
	assert_int_equal(t->b.flagged, NS);
	assert_int_equal(t->b.dropped, NS);
	assert_int_equal(t->b.n, 2 * NS);
	assert_int_equal(t->b.nruns, 2);
	assert_int_equal(t->b.nboots, 2);
	for (k = 0; k < t->b.nboots; k++) {
		assert_int_equal(t->b.boots[k].nruns, 1);
		assert_true(t->b.boots[k].median > 90.0);
	}
	assert_false(t->b.boots_disagree);
	assert_int_equal(t->n.dropped, 1);
	assert_int_equal(t->n.n, NS - 1);
	cmp_free(&c);
	/* without --drop-noisy every sample counts, flagged ones counted */
	build(&c, &b, &n, &defaults);
	t = row(&c, "time/call");
	assert_int_equal(t->b.flagged, NS);
	assert_int_equal(t->b.dropped, 0);
	assert_int_equal(t->b.n, 3 * NS);
	assert_int_equal(t->b.nruns, 3);
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

static void test_one_side_and_ignore(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	static const char *const ign[] = { "inject_ns" };
	struct cmp_opts o = defaults;
	struct cmp_counts k;
	struct cmp c;

	(void)state;
	add_run(&b, "boot1", 100.0, 41, 0, P0);
	add_run(&n, "boot1", 130.0, 42, 0,
		"{\"call\":\"gettid\",\"inject_ns\":\"30ns\"}");
	build(&c, &b, &n, &o);
	cmp_count(&c, &k);
	assert_int_equal(k.compared, 0);
	assert_int_equal(c.nrows, 4);
	assert_true(c.rows[0].in_base && !c.rows[0].in_new);
	assert_true(!c.rows[3].in_base && c.rows[3].in_new);
	cmp_free(&c);
	o.ignore = ign;
	o.nignore = 1;
	build(&c, &b, &n, &o);
	cmp_count(&c, &k);
	assert_int_equal(k.compared, 2);
	assert_int_equal(k.worse, 2);
	assert_string_equal(row(&c, "time/call")->ref_new->cfg->params_json,
			    "{\"call\":\"gettid\",\"inject_ns\":\"30ns\"}");
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

static void test_env_and_options(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	struct cmp c;
	size_t i;
	bool reps = false, kernel = false;

	(void)state;
	add_run(&b, "boot1", 100.0, 51, 0, P0);
	add_run(&n, "boot2", 100.0, 52, 0, P0);
	assert_int_equal(env_set(&b.runs[0].env, "kernel.release", "6.1"), 0);
	assert_int_equal(env_set(&n.runs[0].env, "kernel.release", "6.2"), 0);
	assert_int_equal(env_set(&b.runs[0].env, "boot_id", "boot1"), 0);
	assert_int_equal(env_set(&n.runs[0].env, "boot_id", "boot2"), 0);
	n.runs[0].info.opts.reps = 9;
	build(&c, &b, &n, &defaults);
	for (i = 0; i < c.nenvd; i++) {
		if (strcmp(c.envd[i].key, "run.reps") == 0) {
			reps = true;
			assert_string_equal(c.envd[i].base, "10");
			assert_string_equal(c.envd[i].new, "9");
		}
		if (strcmp(c.envd[i].key, "kernel.release") == 0)
			kernel = true;
		/* a new boot is not a difference */
		assert_string_not_equal(c.envd[i].key, "boot_id");
	}
	assert_true(reps && kernel);
	assert_false(c.flavour_differs);
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

/* The environment diff over many runs (comparison_env.c): keys in the
   order the runs first show them, each side's distinct values in run
   order, "(absent)" for a run without the key, and runs without results
   left out; boots counted as distinct boot ids, however interleaved. */
static void test_env_many_runs(void **state)
{
	static const char *const bboots[] = { "a", "b", "a", "c", "b", "a" };
	struct side_fx b = { 0 }, n = { 0 };
	struct run_data *f;
	struct cmp c;
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++) {
		add_run(&b, bboots[i], 100.0, 60 + i, 0, P0);
		add_run(&n, "z", 100.0, 70 + i, 0, P0);
		assert_int_equal(env_set(&b.runs[i].env, "same", "s"), 0);
		assert_int_equal(env_set(&n.runs[i].env, "same", "s"), 0);
		/* base: 2 1 2 1 2 1; new: 1, then 3 from the third run */
		assert_int_equal(env_set(&b.runs[i].env, "k",
					 i % 2 ? "1" : "2"), 0);
		assert_int_equal(env_set(&n.runs[i].env, "k",
					 i < 2 ? "1" : "3"), 0);
		if (i != 4)	/* new run 4 lacks it */
			assert_int_equal(env_set(&n.runs[i].env, "only.new",
						 "x"), 0);
	}
	/* a new run without results shows a value nobody else has */
	f = &n.runs[n.n++];
	memset(f, 0, sizeof(*f));
	result_set_init(&f->results);
	f->info.id = 99;
	assert_int_equal(env_set(&f->env, "k", "9"), 0);
	build(&c, &b, &n, &defaults);
	assert_int_equal(c.base.nboots, 3);
	assert_int_equal(c.new.nboots, 1);
	assert_int_equal(c.nenvd, 2);
	assert_string_equal(c.envd[0].key, "k");
	assert_string_equal(c.envd[0].base, "2 | 1");
	assert_string_equal(c.envd[0].new, "1 | 3");
	assert_string_equal(c.envd[1].key, "only.new");
	assert_string_equal(c.envd[1].base, "(absent)");
	assert_string_equal(c.envd[1].new, "x | (absent)");
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

/* A run with nhi of its NS samples near hi, the others near lo. */
static void add_bimodal_run(struct side_fx *s, double lo, double hi, int nhi,
			    uint64_t seed)
{
	double x[NS], y[NS];
	int i;

	draw(x, lo, 0.01, seed);
	draw(y, hi, 0.01, seed + 1000);
	for (i = NS - nhi; i < NS; i++)
		x[i] = y[i];
	add_run_x(s, "boot-1", x, 0, P0);
}

/*
 * A mixture whose modes stay put while their shares move: the median
 * moves, and the modes line says the shares changed and neither mode did;
 * the same shares on both sides: no change of the shares.
 */
static void test_mode_shares(void **state)
{
	struct side_fx b = { .n = 0 }, n = { .n = 0 };
	const struct cmp_row *r;
	struct cmp c;
	uint64_t k;

	(void)state;
	for (k = 0; k < 5; k++) {
		add_bimodal_run(&b, 1000, 1500, 3, 10 + k);
		add_bimodal_run(&n, 1000, 1500, 7, 20 + k);
	}
	build(&c, &b, &n, &defaults);
	r = row(&c, "time/call");
	assert_true(r->modes.shown);
	assert_true(r->modes.by_run);
	assert_true(r->modes.split > 1050 && r->modes.split < 1450);
	assert_float_equal(r->modes.share_hi_b, 0.3, 1e-9);
	assert_float_equal(r->modes.share_hi_n, 0.7, 1e-9);
	assert_true(r->modes.p_share < 0.001);
	assert_true(r->modes.share_changed);
	assert_true(fabs(r->modes.lo_change_pct) < 2);
	assert_true(fabs(r->modes.hi_change_pct) < 2);
	assert_int_equal(r->verdict, VERDICT_WORSE);
	cmp_free(&c);
	free_side(&b);
	free_side(&n);

	/* A/A: the same shares */
	for (k = 0; k < 5; k++) {
		add_bimodal_run(&b, 1000, 1500, 4, 30 + k);
		add_bimodal_run(&n, 1000, 1500, 4, 40 + k);
	}
	build(&c, &b, &n, &defaults);
	r = row(&c, "time/call");
	assert_true(r->modes.shown);
	assert_false(r->modes.share_changed);
	assert_true(r->modes.p_share > 0.5);
	cmp_free(&c);
	free_side(&b);
	free_side(&n);

	/* two runs a side: Fisher's exact test over the samples */
	for (k = 0; k < 2; k++) {
		add_bimodal_run(&b, 1000, 1500, 2, 50 + k);
		add_bimodal_run(&n, 1000, 1500, 9, 60 + k);
	}
	build(&c, &b, &n, &defaults);
	r = row(&c, "time/call");
	assert_false(r->modes.by_run);
	/* 4 of 20 against 18 of 20: two-sided p = 1.664e-5 (the sum of the
	   hypergeometric tables no likelier than this one, as R fisher.test) */
	assert_float_equal(r->modes.p_share, 1.664e-5, 0.001e-5);
	assert_true(r->modes.share_changed);
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

/*
 * Modes found over both sides pooled, each sample in the mode of the
 * nearer centre: a base all near 119 and a new side bimodal near 288 and
 * 410 once made the new side's 288s "the mode near 119" (its own split
 * lay between 288 and 410) and printed a +142% change within that mode.
 * Now no sample sits in a mode whose centre is farther from it than the
 * other's, and each side's share is the count of its samples above the
 * split.
 */
static void test_mode_pooled_nearest(void **state)
{
	struct side_fx b = { .n = 0 }, n = { .n = 0 };
	const struct cmp_row *r;
	const struct cmp_val *sides[2];
	struct cmp c;
	uint64_t k;
	size_t i, s;

	(void)state;
	for (k = 0; k < 3; k++) {
		double x[NS];

		draw(x, 119, 0.01, 70 + k);
		add_run_x(&b, "boot-1", x, 0, P0);
		add_bimodal_run(&n, 288, 410, 4, 80 + k);
	}
	build(&c, &b, &n, &defaults);
	r = row(&c, "time/call");
	assert_false(r->b.md.bimodal);
	assert_true(r->n.md.bimodal);
	assert_true(r->modes.shown);
	/* the pool's modes: the base's 119 and the new side's 288/410 */
	assert_true(fabs(r->modes.centre_lo - 119) < 3);
	assert_true(r->modes.centre_hi > 285 && r->modes.centre_hi < 410);
	assert_float_equal(r->modes.split,
			   (r->modes.centre_lo + r->modes.centre_hi) / 2, 1e-9);
	sides[0] = &r->b;
	sides[1] = &r->n;
	for (s = 0; s < 2; s++)
		for (i = 0; i < sides[s]->n; i++) {
			double x = sides[s]->x[i];
			bool hi = x > r->modes.split;

			assert_true(fabs(x - (hi ? r->modes.centre_hi :
					      r->modes.centre_lo)) <=
				    fabs(x - (hi ? r->modes.centre_lo :
					      r->modes.centre_hi)));
		}
	assert_float_equal(r->modes.share_hi_b, 0.0, 1e-9);
	assert_float_equal(r->modes.share_hi_n, 1.0, 1e-9);
	assert_true(r->modes.share_changed);
	/* neither mode holds both sides: no change "within" a mode */
	assert_true(isnan(r->modes.lo_change_pct));
	assert_true(isnan(r->modes.hi_change_pct));
	assert_true(isnan(r->modes.med_lo_n));
	assert_true(isnan(r->modes.med_hi_b));
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

/*
 * Emulated runs (virt.emulated, copyscope boot under TCG): a 10%
 * slowdown keeps its numbers but gets VERDICT_WITHHELD, and is judged
 * with allow_emulated; a run without results (a failed boot) is no boot
 * and no environment.
 */
static void test_emulated_and_failed_boot(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	struct cmp_opts allow = defaults;
	struct cmp_counts k;
	struct run_data *f;
	struct cmp c;
	size_t i;

	(void)state;
	add_run(&b, "boot1", 100.0, 7, 0, P0);
	add_run(&n, "boot2", 110.0, 8, 0, P0);
	assert_int_equal(env_set(&n.runs[0].env, "virt.emulated",
				 "yes (qemu TCG)"), 0);
	assert_int_equal(env_set(&b.runs[0].env, "virt.emulated",
				 "no (qemu KVM)"), 0);
	build(&c, &b, &n, &defaults);
	assert_int_equal(c.emulated_base, 0);
	assert_int_equal(c.emulated_new, 1);
	assert_int_equal(row(&c, "time/call")->verdict, VERDICT_WITHHELD);
	assert_true(row(&c, "time/call")->change_pct > 5);
	assert_true(row(&c, "time/call")->mw.p < 0.05);
	cmp_count(&c, &k);
	assert_int_equal(k.withheld, 2);
	assert_string_equal(stats_verdict_name(VERDICT_WITHHELD), "emul");
	cmp_free(&c);
	allow.allow_emulated = true;
	build(&c, &b, &n, &allow);
	assert_int_equal(row(&c, "time/call")->verdict, VERDICT_WORSE);
	cmp_free(&c);
	/* a failed boot: a run with no results, other environment */
	f = &n.runs[n.n++];
	memset(f, 0, sizeof(*f));
	result_set_init(&f->results);
	f->info.id = 99;
	snprintf(f->info.boot_id, sizeof(f->info.boot_id), "boot3");
	assert_int_equal(env_set(&f->env, "boot.failure", "timeout"), 0);
	assert_int_equal(env_set(&f->env, "virt.emulated", "yes"), 0);
	build(&c, &b, &n, &allow);
	assert_int_equal(c.new.nboots, 1);
	assert_int_equal(c.emulated_new, 1);
	for (i = 0; i < c.nenvd; i++)
		assert_string_not_equal(c.envd[i].key, "boot.failure");
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

/* One run a side: the spread between runs is unknown, so no verdict
   however clear the samples are; the change is still given. */
static void test_single_run_cannot_tell(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	const struct cmp_row *t;
	struct cmp_counts k;
	struct cmp c;

	(void)state;
	add_run(&b, "boot1", 100.0, 7, 0, P0);
	add_run(&n, "boot1", 110.0, 8, 0, P0);
	build(&c, &b, &n, &honest);
	t = row(&c, "time/call");
	assert_int_equal(t->verdict, VERDICT_CANNOT_TELL);
	assert_non_null(strstr(t->reason, "1 run a side: the spread between "
				"runs is unknown"));
	assert_true(t->change_pct > 5 && t->change_pct < 15);
	cmp_count(&c, &k);
	assert_int_equal(k.cannot_tell, 2);
	assert_int_equal(k.worse, 0);
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

/* Three samples against three: Mann-Whitney cannot go below p = 0.1. */
static void test_too_few_samples(void **state)
{
	const double lo[NS] = { 100, 101, 99, 100, 101, 99, 100, 101, 99,
				100 };
	struct side_fx b = { 0 }, n = { 0 };
	const struct cmp_row *t;
	struct cmp c;
	double hi[NS];
	size_t i;

	(void)state;
	for (i = 0; i < NS; i++)
		hi[i] = lo[i] * 2;
	add_run_x(&b, "boot1", lo, 0, P0);
	add_run_x(&n, "boot1", hi, 0, P0);
	for (i = 0; i < b.runs[0].results.n; i++)
		b.runs[0].results.v[i].nsamples = 3;
	for (i = 0; i < n.runs[0].results.n; i++)
		n.runs[0].results.v[i].nsamples = 3;
	build(&c, &b, &n, &defaults);
	t = row(&c, "time/call");
	assert_int_equal(t->verdict, VERDICT_CANNOT_TELL);
	assert_non_null(strstr(t->reason, "3 samples against 3 cannot reach "
				"p < 0.05"));
	assert_non_null(strstr(t->reason, "take --reps 4 or more"));
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

/* A slowdown seen only in samples flagged as disturbed is withheld. */
static void test_verdict_on_flagged(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	const struct cmp_row *t;
	double x[NS];
	struct cmp c;
	size_t i;

	(void)state;
	add_run(&b, "boot1", 100.0, 3, 0, P0);
	/* the new side: 4 clean samples as the base, 6 flagged ones 3x */
	draw(x, 100.0, 0.02, 4);
	for (i = 4; i < NS; i++)
		x[i] *= 3;
	add_run_x(&n, "boot1", x, 0x3f0, P0);
	build(&c, &b, &n, &defaults);
	t = row(&c, "time/call");
	assert_int_equal(t->verdict, VERDICT_CANNOT_TELL);
	assert_non_null(strstr(t->reason, "rests on disturbed samples"));
	cmp_free(&c);
	/* --drop-noisy judges the clean ones: no verdict to withhold */
	{
		struct cmp_opts o = defaults;

		o.drop_noisy = true;
		build(&c, &b, &n, &o);
		assert_int_not_equal(row(&c, "time/call")->verdict,
				     VERDICT_CANNOT_TELL);
		cmp_free(&c);
	}
	free_side(&b);
	free_side(&n);
}

/* cycles/call is the same timed window as time/call: counted once. */
static void test_same_reading(void **state)
{
	struct side_fx b = { 0 }, n = { 0 };
	struct cmp_counts k;
	struct cmp c;
	double x[NS];
	struct side_fx *sides[2] = { &b, &n };
	int s, i;

	(void)state;
	for (s = 0; s < 2; s++) {
		add_run(sides[s], "boot1", s ? 120.0 : 100.0, 9 + s, 0, P0);
		draw(x, s ? 276.0 : 230.0, 0.02, 20 + s);
		fx_add(&sides[s]->runs[0].results, "sys.null", P0,
		       "cycles/call", "tsc-cycles", -1, x, NS,
		       "{\"batch_ops\":1000,\"job\":0}");
	}
	build(&c, &b, &n, &defaults);
	assert_int_equal(row(&c, "time/call")->verdict, VERDICT_WORSE);
	assert_null(row(&c, "time/call")->same_reading_as);
	assert_string_equal(row(&c, "cycles/call")->same_reading_as,
			    "time/call");
	cmp_count(&c, &k);
	/* time/call and the fixture's calls/s (not a metric sys.null
	   declares, so not known to be the same window) */
	assert_int_equal(k.worse, 2);
	assert_int_equal(k.same_reading, 1);
	(void)i;
	cmp_free(&c);
	free_side(&b);
	free_side(&n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aa_same),
		cmocka_unit_test(test_ab_worse_better),
		cmocka_unit_test(test_runs_as_unit),
		cmocka_unit_test(test_three_against_three),
		cmocka_unit_test(test_aa_hierarchy),
		cmocka_unit_test(test_drop_noisy),
		cmocka_unit_test(test_one_side_and_ignore),
		cmocka_unit_test(test_env_and_options),
		cmocka_unit_test(test_env_many_runs),
		cmocka_unit_test(test_mode_shares),
		cmocka_unit_test(test_mode_pooled_nearest),
		cmocka_unit_test(test_emulated_and_failed_boot),
		cmocka_unit_test(test_single_run_cannot_tell),
		cmocka_unit_test(test_too_few_samples),
		cmocka_unit_test(test_verdict_on_flagged),
		cmocka_unit_test(test_same_reading),
	};

	/* what main() does first: the codec finds workloads by name */
	workload_registry_set(workload_table, workload_count);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
