/*
 * test_headline.c - unit tests of the headline rule (stats/headline.c)
 * and its use in the results model (results/result.c): samples flagged
 * offcpu left out of the summary when at least 3 and half of the samples
 * remain, the headline withheld otherwise; other flags, a trace,
 * values not one per sample, a count and workers sharing a CPU
 * untouched; and the note that says so
 * (report/notes.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/notes.h"
#include "results/result.h"
#include "results/sample_flags.h"
#include "stats/headline.h"

static void test_rule(void **state)
{
	(void)state;
	assert_int_equal(headline_rule(10, 0), HEADLINE_ALL);
	assert_int_equal(headline_rule(0, 0), HEADLINE_ALL);
	assert_int_equal(headline_rule(10, 1), HEADLINE_LEFT_OUT);
	assert_int_equal(headline_rule(10, 5), HEADLINE_LEFT_OUT);
	assert_int_equal(headline_rule(10, 6), HEADLINE_WITHHELD);
	assert_int_equal(headline_rule(10, 10), HEADLINE_WITHHELD);
	/* three undisturbed at least */
	assert_int_equal(headline_rule(5, 2), HEADLINE_LEFT_OUT);
	assert_int_equal(headline_rule(5, 3), HEADLINE_WITHHELD);
	assert_int_equal(headline_rule(4, 1), HEADLINE_LEFT_OUT);
	assert_int_equal(headline_rule(3, 1), HEADLINE_WITHHELD);
	assert_int_equal(headline_rule(1, 1), HEADLINE_WITHHELD);
}

/* When a run takes a sample again in place of a disturbed one. */
static void test_retake(void **state)
{
	(void)state;
	/* a headline already: no retake */
	assert_false(headline_retake(3, 0, 6));
	assert_false(headline_retake(10, 4, 20));
	/* 3 of 3 disturbed: 3 clean of 6 would do */
	assert_true(headline_retake(3, 3, 6));
	/* one more disturbed (4 of 4): 2 clean of 6 cannot; stop */
	assert_false(headline_retake(4, 4, 6));
	/* 1 of 3: one clean retake gives 3 of 4 */
	assert_true(headline_retake(3, 1, 6));
	assert_false(headline_retake(4, 1, 6));
	/* no room left */
	assert_false(headline_retake(6, 3, 6));
	/* 10 reps, 6 disturbed: 4 more clean give 8 of 14 */
	assert_true(headline_retake(10, 6, 20));
	assert_false(headline_retake(10, 6, 10));
}

/* One configuration of n samples, values v, load flags f. */
static struct result *make(struct result_set *set, const double *v,
			   const unsigned *f, size_t n)
{
	struct result_config *c = result_set_new_config(set);
	struct result *r;

	assert_non_null(c);
	c->workload = strdup("pipe.bw");
	c->nsamples = n;
	c->load = calloc(1, sizeof(*c->load));
	assert_non_null(c->load);
	c->load->flags = calloc(n, sizeof(unsigned));
	memcpy(c->load->flags, f, n * sizeof(unsigned));
	r = result_set_new_result(set, c);
	assert_non_null(r);
	r->metric = strdup("bandwidth");
	r->unit = strdup("bytes/s");
	r->direction = 1;
	r->samples = malloc(n * sizeof(double));
	memcpy(r->samples, v, n * sizeof(double));
	r->nsamples = n;
	return r;
}

static void test_left_out(void **state)
{
	/* 7 quiet samples near 100, 3 disturbed ones far lower */
	static const double v[10] = { 100, 101, 99, 20, 102, 98, 25, 100,
				      30, 101 };
	const unsigned O = INTERF_FLAG_OFFCPU;
	const unsigned f[10] = { 0, INTERF_FLAG_OTHER, 0, O, 0, 0,
				 O | INTERF_FLAG_OTHER, 0, O, 0 };
	struct result_set set;
	struct result *r;
	char note[512];

	(void)state;
	result_set_init(&set);
	r = make(&set, v, f, 10);
	assert_int_equal(result_finalize(r), 0);
	assert_false(r->withheld);
	assert_int_equal(r->left_out, 3);
	/* the median of the 7 that count; "other" alone counts */
	assert_int_equal(r->summary.n, 7);
	assert_float_equal(r->summary.median, 100, 1e-9);
	assert_float_equal(r->summary.min, 98, 1e-9);
	assert_false(result_value_counts(r, 3));
	assert_true(result_value_counts(r, 1));
	assert_true(result_value_disturbed(r, 6));
	/* the samples stay */
	assert_int_equal(r->nsamples, 10);
	assert_true(report_headline_note(r, 1, note, sizeof(note)));
	assert_string_equal(note, "headline over 7 of 10 samples: 3 had a "
			    "worker off its CPU >5% and are left out (stored; "
			    "the figures of those samples carry the wait)");
	result_set_free(&set);
}

static void test_withheld(void **state)
{
	static const double v[5] = { 100, 20, 25, 30, 101 };
	const unsigned O = INTERF_FLAG_OFFCPU;
	const unsigned f[5] = { 0, O, O, O, 0 };
	struct result_set set;
	struct result *r;
	char note[512];

	(void)state;
	result_set_init(&set);
	r = make(&set, v, f, 5);
	assert_int_equal(result_finalize(r), 0);
	assert_true(r->withheld);
	assert_int_equal(r->left_out, 0);
	/* the summary stays over every sample, for arithmetic; nothing
	   counts for a comparison */
	assert_int_equal(r->summary.n, 5);
	assert_false(result_value_counts(r, 0));
	assert_true(report_headline_note(r, 1, note, sizeof(note)));
	assert_string_equal(note, "withheld: 3 of 5 samples had a worker off "
			    "its CPU >5%; rerun on a quiet machine or with "
			    "--cpus (a headline needs 3 undisturbed samples "
			    "and half of them; all are stored)");
	result_set_free(&set);
}

static void test_untouched(void **state)
{
	static const double v[4] = { 100, 20, 25, 30 };
	const unsigned O = INTERF_FLAG_OFFCPU;
	const unsigned f[4] = { O, O, O, O };
	const unsigned q[4] = { INTERF_FLAG_OTHER, INTERF_FLAG_STEAL,
				INTERF_FLAG_CANARY, 0 };
	struct result_set set;
	struct result *r;
	char note[512];

	(void)state;
	result_set_init(&set);
	/* a trace: one value per call, not per sample */
	r = make(&set, v, f, 4);
	r->trace = true;
	assert_int_equal(result_finalize(r), 0);
	assert_false(r->withheld);
	assert_int_equal(r->summary.n, 4);
	/* values not one per kept sample (some had none) */
	r = make(&set, v, f, 4);
	r->cfg->nsamples = 5;
	assert_int_equal(result_finalize(r), 0);
	assert_false(r->withheld);
	assert_int_equal(r->left_out, 0);
	/* a count carries no wait: a workload not in this build, by unit */
	r = make(&set, v, f, 4);
	free(r->unit);
	r->unit = strdup("count");
	assert_int_equal(result_finalize(r), 0);
	assert_false(r->withheld);
	assert_int_equal(r->summary.n, 4);
	/* two workers sharing a CPU: a wait may be the partner's turn */
	r = make(&set, v, f, 4);
	r->cfg->workers = calloc(2, sizeof(*r->cfg->workers));
	r->cfg->nworkers = 2;
	r->cfg->workers[0].name = strdup("writer");
	r->cfg->workers[1].name = strdup("reader");
	r->cfg->workers[0].cpu_requested = 1;
	r->cfg->workers[1].cpu_requested = 1;
	assert_false(result_config_own_cpus(r->cfg));
	assert_int_equal(result_finalize(r), 0);
	assert_false(r->withheld);
	assert_int_equal(r->summary.n, 4);
	assert_true(report_headline_note(r, 1, note, sizeof(note)));
	assert_non_null(strstr(note, "the workers share CPUs"));
	/* the same on CPUs of their own: withheld */
	r->cfg->workers[1].cpu_requested = 0;
	assert_true(result_config_own_cpus(r->cfg));
	assert_int_equal(result_finalize(r), 0);
	assert_true(r->withheld);
	/* unpinned */
	r->cfg->workers[1].cpu_requested = -1;
	assert_false(result_config_own_cpus(r->cfg));
	/* flags other than offcpu */
	r = make(&set, v, q, 4);
	assert_int_equal(result_finalize(r), 0);
	assert_false(r->withheld);
	assert_int_equal(r->summary.n, 4);
	assert_false(report_headline_note(r, 1, note, sizeof(note)));
	assert_string_equal(note, "");
	result_set_free(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_retake),
		cmocka_unit_test(test_left_out),
		cmocka_unit_test(test_withheld),
		cmocka_unit_test(test_untouched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
