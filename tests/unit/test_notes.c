/*
 * test_notes.c - unit tests of the notes under a configuration
 * (report/notes.c): the note on per-op times that are only a few timer
 * ticks (a coarse counter, such as a 25 MHz arm64 one), from the tick
 * stored with the run (info tick_ns, results/codec_info.c); the inject
 * note, and its word when the steps did not deliver what they should.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "report/notes.h"
#include "result_fixture.h"
#include "results/result.h"

struct seen {
	int ntick, ninject;
	char inject[512];
	char text[512];
	const struct result *about;
};

static void emit(void *arg, enum note_kind kind, const struct result *r,
		 const char *text)
{
	struct seen *s = arg;

	if (kind == NOTE_INJECT) {
		s->ninject++;
		snprintf(s->inject, sizeof(s->inject), "%s", text);
		return;
	}
	if (kind != NOTE_TICK)
		return;
	s->ntick++;
	s->about = r;
	snprintf(s->text, sizeof(s->text), "%s", text);
}

/* 1000 ops: 600 at 300-319 ns, 400 at 1000-1039 ns (the median as the
   renderers read it: 303 ns). */
static struct result_bucket buckets[] = {
	{ 300, 319, 600 }, { 1000, 1039, 400 },
};
static struct result_hist hist = {
	.buckets = buckets, .nbuckets = 2, .of = "caller", .ops = 1000,
	.min_ns = 300, .max_ns = 1039, .mean_ns = 600,
};

/* One configuration with info, its time metric carrying the histogram. */
static struct seen notes_of(const char *info)
{
	static const double x[] = { 610, 600, 590 };
	struct result_set set;
	struct result *r;
	struct seen s;

	memset(&s, 0, sizeof(s));
	result_set_init(&set);
	r = fx_add(&set, "sys.null", "{}", "time/call", "ns", -1, x, 3, info);
	r->hist = &hist;
	report_notes(r, 1, emit, &s);
	r->hist = NULL;
	result_set_free(&set);
	return s;
}

/* A 40 ns tick: the median op of 303 ns is 8 ticks: said, with the sums. */
static void test_coarse_tick(void **state)
{
	struct seen s;

	(void)state;
	s = notes_of("{\"tick_ns\":40.0}");
	assert_int_equal(s.ntick, 1);
	assert_non_null(strstr(s.text, "time/call per op of caller: the "
				       "median op, 303 ns, is 8 ticks of the "
				       "timer (40.0 ns a tick)"));
	assert_non_null(strstr(s.text, "off by up to one (13% of it)"));
}

/* The TSC's half-nanosecond tick, and a run stored without one: none. */
static void test_fine_or_unknown_tick(void **state)
{
	(void)state;
	assert_int_equal(notes_of("{\"tick_ns\":0.477}").ntick, 0);
	assert_int_equal(notes_of("{}").ntick, 0);
	assert_int_equal(notes_of(NULL).ntick, 0);
	/* a hostile tick is not a tick */
	assert_int_equal(notes_of("{\"tick_ns\":-40}").ntick, 0);
}

/* info.inject as the runner stores it: 37 steps of 0.268 ns (9.9 ns). */
static struct seen inject_of(const char *added, const char *err)
{
	char info[256];

	snprintf(info, sizeof(info), "{\"inject\":{\"asked_ns\":10,"
		 "\"steps\":37,\"step_ns\":0.268,\"added_ns\":%s,"
		 "\"err_ns\":%s,\"base_ns\":1000}}", added, err);
	return notes_of(info);
}

/* Delivered within its error of the steps: the figure alone. */
static void test_inject_as_asked(void **state)
{
	struct seen s;

	(void)state;
	s = inject_of("9.5", "2.0");
	assert_int_equal(s.ninject, 1);
	assert_non_null(strstr(s.inject, "inject delivered 9.50 ns ± 2.00 ns "
				"per op (asked "));
	assert_non_null(strstr(s.inject, ": 37 steps of 0.268 ns), 0.9% ± "
				"0.2% of 1.00 us, measured in place"));
	assert_null(strstr(s.inject, "not what"));
	/* off by more than the error, but under 0.3 ns: said nothing */
	s = inject_of("9.7", "0.1");
	assert_null(strstr(s.inject, "not what"));
}

/* -44.4 ns for 9.9 ns of steps, or 30 ns: said, with by how much. */
static void test_inject_not_additive(void **state)
{
	struct seen s;

	(void)state;
	s = inject_of("-44.4", "12.2");
	assert_int_equal(s.ninject, 1);
	assert_non_null(strstr(s.inject, "; not what the steps should give "
				"(54.3 ns less, beyond the error)"));
	s = inject_of("30", "5");
	assert_non_null(strstr(s.inject, "(20.1 ns more, beyond the error)"));
	/* far off but within a wide error: no word */
	s = inject_of("30", "25");
	assert_null(strstr(s.inject, "not what"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coarse_tick),
		cmocka_unit_test(test_fine_or_unknown_tick),
		cmocka_unit_test(test_inject_as_asked),
		cmocka_unit_test(test_inject_not_additive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
