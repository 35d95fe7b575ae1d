/*
 * test_histogram.c - unit tests of the log-linear histogram (histogram.c).
 *
 * Bucket bounds are checked against values worked out by hand from the
 * geometry (32 sub-buckets per power of two), percentiles against known
 * distributions, and the log2 print against literal expected lines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/histogram.h"
#include "stats/summary.h"

static void test_small_values_exact(void **state)
{
	uint64_t v;

	(void)state;
	for (v = 0; v < 64; v++) {
		assert_int_equal(hist_bucket_of(v), v);
		assert_int_equal(hist_bucket_lo(v), v);
		assert_int_equal(hist_bucket_hi(v), v);
	}
}

static void test_large_value_bounds(void **state)
{
	(void)state;
	/* 64: k = 6, width 2, first sub-bucket of group 2 -> index 64. */
	assert_int_equal(hist_bucket_of(64), 64);
	assert_int_equal(hist_bucket_of(65), 64);
	assert_int_equal(hist_bucket_of(66), 65);
	assert_int_equal(hist_bucket_hi(64), 65);
	/* 1000: k = 9, width 16, 1000 >> 4 = 62 -> index 5*32 + 30. */
	assert_int_equal(hist_bucket_of(1000), 190);
	assert_int_equal(hist_bucket_lo(190), 992);
	assert_int_equal(hist_bucket_hi(190), 1007);
	/* The top bucket ends exactly at 2^64 - 1. */
	assert_int_equal(hist_bucket_of(UINT64_MAX), 1919);
	assert_true(hist_bucket_lo(1919) == 63ULL << 58);
	assert_true(hist_bucket_hi(1919) == UINT64_MAX);
	assert_true(hist_bucket_lo(hist_bucket_of(1ULL << 63)) == 1ULL << 63);
}

/* v lies in its bucket and the bucket is at most 1/32 of its lower bound. */
static void check_value(uint64_t v)
{
	size_t i = hist_bucket_of(v);
	uint64_t lo = hist_bucket_lo(i), hi = hist_bucket_hi(i);

	assert_true(lo <= v);
	assert_true(v <= hi);
	if (lo > 0)
		assert_true((double)(hi - lo) / (double)lo <=
			    hist_max_relative_error());
}

static void test_values_in_their_bucket(void **state)
{
	uint64_t v, rng = 1;
	unsigned int k;
	size_t i;

	(void)state;
	assert_float_equal(hist_max_relative_error(), 1.0 / 32, 0);
	for (v = 0; v < 100000; v++)
		check_value(v);
	for (k = 1; k < 64; k++) {
		check_value((1ULL << k) - 1);
		check_value(1ULL << k);
		check_value((1ULL << k) + 1);
	}
	check_value(UINT64_MAX);
	for (i = 0; i < 100000; i++) {
		v = stats_rng_next(&rng);
		check_value(v >> (v & 63));
	}
	/* Buckets tile [0, 2^64) without gaps or overlaps. */
	for (i = 0; i < 1919; i++)
		assert_true(hist_bucket_hi(i) + 1 == hist_bucket_lo(i + 1));
}

static void test_new_shape(void **state)
{
	struct histogram *h;

	(void)state;
	assert_null(hist_new(0));
	h = hist_new(1000);
	assert_non_null(h);
	assert_int_equal(h->nbuckets, 191);
	assert_int_equal(h->total, 0);
	assert_int_equal(hist_percentile(h, 50), 0);
	assert_float_equal(hist_mean(h), 0.0, 0);
	hist_free(h);
	hist_free(NULL);
}

static void test_percentiles_uniform(void **state)
{
	struct histogram *h = hist_new(1000000);
	uint64_t v, p50;

	(void)state;
	assert_non_null(h);
	for (v = 1000; v >= 1; v--)
		hist_record(h, v);
	assert_int_equal(h->total, 1000);
	assert_int_equal(h->min_seen, 1);
	assert_int_equal(h->max_seen, 1000);
	assert_float_equal(hist_mean(h), 500.5, 1e-9);

	/* Rank 500 lies in [496, 503]; the upper bound is reported. */
	p50 = hist_percentile(h, 50);
	assert_int_equal(p50, 503);
	assert_true((double)(p50 - 500) / 500 <= hist_max_relative_error());
	/* Rank 990 in [976, 991]. */
	assert_int_equal(hist_percentile(h, 99), 991);
	/* Rank 999 in [992, 1007], clamped to the maximum seen. */
	assert_int_equal(hist_percentile(h, 99.9), 1000);
	assert_int_equal(hist_percentile(h, 100), 1000);
	/* Ranks below 32 are exact. */
	assert_int_equal(hist_percentile(h, 0), 1);
	assert_int_equal(hist_percentile(h, 1), 10);
	assert_int_equal(hist_percentile(h, 2.05), 21);
	hist_free(h);
}

static void test_overflow(void **state)
{
	struct histogram *h = hist_new(100);
	uint64_t v;

	(void)state;
	assert_non_null(h);
	for (v = 1; v <= 100; v++)
		hist_record(h, v);
	hist_record(h, 101);
	hist_record(h, 5000);
	hist_record(h, 1000);
	assert_int_equal(h->total, 103);
	assert_int_equal(h->overflow, 3);
	assert_int_equal(h->max_seen, 5000);
	assert_float_equal(hist_mean(h), (5050.0 + 6101.0) / 103, 1e-9);
	/* Rank 52 is bucketed and exact. */
	assert_int_equal(hist_percentile(h, 50), 52);
	/* Rank ceil(0.98 * 103) = 101 is in the overflow: the exact max. */
	assert_int_equal(hist_percentile(h, 98), 5000);
	assert_int_equal(hist_percentile(h, 100), 5000);
	/* Rank 100 is the last bucketed one. */
	assert_int_equal(hist_percentile(h, 97), 100);
	hist_free(h);
}

static void test_merge_and_reset(void **state)
{
	struct histogram *a = hist_new(1000), *b = hist_new(1000);
	struct histogram *c = hist_new(2000), *e = hist_new(1000);

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_non_null(e);
	hist_record(a, 10);
	hist_record(a, 500);
	hist_record(b, 3);
	hist_record(b, 500);
	hist_record(b, 4000);

	assert_int_equal(hist_merge(a, c), -1);
	assert_int_equal(a->total, 2);
	assert_int_equal(hist_merge(a, e), 0);
	assert_int_equal(a->min_seen, 10);

	assert_int_equal(hist_merge(a, b), 0);
	assert_int_equal(a->total, 5);
	assert_int_equal(a->overflow, 1);
	assert_int_equal(a->min_seen, 3);
	assert_int_equal(a->max_seen, 4000);
	assert_int_equal(a->counts[hist_bucket_of(500)], 2);
	assert_int_equal(a->counts[hist_bucket_of(3)], 1);
	assert_float_equal(hist_mean(a), 5013.0 / 5, 1e-9);
	/* b is unchanged. */
	assert_int_equal(b->total, 3);

	/* Merging into an empty histogram takes the source's extremes. */
	assert_int_equal(hist_merge(e, b), 0);
	assert_int_equal(e->min_seen, 3);
	assert_int_equal(e->max_seen, 4000);

	hist_reset(a);
	assert_int_equal(a->total, 0);
	assert_int_equal(a->overflow, 0);
	assert_int_equal(a->counts[hist_bucket_of(500)], 0);
	assert_int_equal(hist_percentile(a, 50), 0);
	assert_float_equal(hist_mean(a), 0.0, 0);
	hist_record(a, 700);
	assert_int_equal(a->min_seen, 700);
	assert_int_equal(a->max_seen, 700);
	assert_int_equal(a->max_value, 1000);

	hist_free(a);
	hist_free(b);
	hist_free(c);
	hist_free(e);
}

/* Print h into a malloc'ed string. */
static char *print_to_string(const struct histogram *h, const char *unit)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	hist_print_log2(h, f, unit);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

static void check_line_widths(const char *s, int expect_lines)
{
	int lines = 0;

	while (*s) {
		const char *nl = strchr(s, '\n');

		assert_non_null(nl);
		assert_true(nl - s <= 80);
		lines++;
		s = nl + 1;
	}
	assert_int_equal(lines, expect_lines);
}

static void test_print_ns(void **state)
{
	struct histogram *h = hist_new(1000000);
	char expect[128], *out;
	int i;

	(void)state;
	assert_non_null(h);
	hist_record(h, 600);
	for (i = 0; i < 3; i++)
		hist_record(h, 1500);
	hist_record(h, 5000);
	hist_record(h, 2000000);
	hist_record(h, 3000000);
	out = print_to_string(h, "ns");

	/* 16-column label, 8-column count, 52-column bar: 80 in all. */
	snprintf(expect, sizeof(expect), "[1us, 2us)       %8d |%.52s|\n", 3,
		 "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	assert_non_null(strstr(out, expect));
	/* 1 * 52 / 3 = 17 '@'. */
	snprintf(expect, sizeof(expect), "[512ns, 1us)     %8d |%-52s|\n", 1,
		 "@@@@@@@@@@@@@@@@@");
	assert_non_null(strstr(out, expect));
	/* The empty row between two non-empty ones is kept. */
	assert_non_null(strstr(out, "\n[2us, 4us)              0 |   "));
	assert_non_null(strstr(out, "\n[4us, 8us)              1 |@@@"));
	/* Leading and trailing empty rows are not. */
	assert_null(strstr(out, "[256ns"));
	assert_null(strstr(out, "[8us"));
	assert_true(strncmp(out, "[512ns, 1us)", 12) == 0);
	assert_non_null(strstr(out, "\noverflow (> 1000000 ns): 2\n"));
	check_line_widths(out, 5);
	free(out);
	hist_free(h);
}

/* Indented: the same rows, the bars shorter so that lines fit 80. */
static void test_print_indent(void **state)
{
	struct histogram *h = hist_new(1000000);
	char *buf = NULL, expect[128];
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(h);
	hist_record(h, 600);
	hist_record(h, 1500);
	hist_record(h, 2000000);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	hist_print_log2_at(h, f, "ns", 6);
	assert_int_equal(fclose(f), 0);
	/* 6 + 16 + 1 + 8 + " |" + 46 + "|": 80 columns */
	snprintf(expect, sizeof(expect), "      [1us, 2us)       %8d |%.46s|\n",
		 1, "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	assert_non_null(strstr(buf, expect));
	assert_true(strncmp(buf, "      [512ns, 1us)", 18) == 0);
	assert_non_null(strstr(buf, "\n      overflow (> 1000000 ns): 1\n"));
	check_line_widths(buf, 3);
	free(buf);
	hist_free(h);
}

static void test_print_generic_units(void **state)
{
	struct histogram *h = hist_new(1 << 20);
	char *out;

	(void)state;
	assert_non_null(h);
	hist_record(h, 1);
	hist_record(h, 2048);
	hist_record(h, 4095);
	out = print_to_string(h, "cycles");
	assert_true(strncmp(out, "[1]  ", 5) == 0);
	assert_non_null(strstr(out, "\n[2, 4)  "));
	assert_non_null(strstr(out, "\n[512, 1K)  "));
	assert_non_null(strstr(out, "\n[2K, 4K)                2 |@@@@"));
	assert_null(strstr(out, "[0]"));
	assert_null(strstr(out, "[4K"));
	assert_null(strstr(out, "overflow"));
	/* Rows [1], [2,4), ..., [2K,4K): 12 lines. */
	check_line_widths(out, 12);
	free(out);
	hist_free(h);
}

static void test_print_extremes(void **state)
{
	struct histogram *h = hist_new(UINT64_MAX);
	char *out;

	(void)state;
	assert_non_null(h);
	hist_record(h, 0);
	hist_record(h, UINT64_MAX);
	out = print_to_string(h, NULL);
	assert_true(strncmp(out, "[0]  ", 5) == 0);
	assert_non_null(strstr(out, "\n[8E, 16E)  "));
	/* [0], [1], [2, 4), ..., [8E, 16E): 65 rows. */
	check_line_widths(out, 65);
	free(out);
	hist_free(h);

	/* Only overflowed values: just the overflow line. */
	h = hist_new(10);
	assert_non_null(h);
	hist_record(h, 11);
	out = print_to_string(h, "");
	assert_string_equal(out, "overflow (> 10): 1\n");
	free(out);
	hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_large_value_bounds),
		cmocka_unit_test(test_values_in_their_bucket),
		cmocka_unit_test(test_new_shape),
		cmocka_unit_test(test_percentiles_uniform),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_merge_and_reset),
		cmocka_unit_test(test_print_ns),
		cmocka_unit_test(test_print_indent),
		cmocka_unit_test(test_print_generic_units),
		cmocka_unit_test(test_print_extremes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
