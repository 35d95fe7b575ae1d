/*
 * test_pattern.c - unit tests for src/workloads/pattern.c, the
 * verification byte stream: fill/check round trips at odd offsets and
 * lengths, and classification of corrupted, duplicated and lost data, with
 * errors accumulating across chunks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workloads/pattern.h"

#define BUFSZ 4096

static uint8_t buf[BUFSZ];
static uint8_t scratch[BUFSZ];

static void expect_clean(const struct pattern_errors *e)
{
	assert_int_equal(e->lost, 0);
	assert_int_equal(e->duplicated, 0);
	assert_int_equal(e->corrupted, 0);
	assert_int_equal(pattern_error_total(e), 0);
}

static void test_roundtrip_odd(void **state)
{
	static const uint64_t positions[] = {
		0, 1, 3, 7, 8, 9, 13, 4093, UINT64_C(1) << 32,
		(UINT64_C(1) << 43) - 5,	/* the 40-bit word index wraps */
	};
	struct pattern_errors e;
	uint64_t checked = 0;
	size_t p, n;

	(void)state;
	memset(&e, 0, sizeof(e));
	for (p = 0; p < sizeof(positions) / sizeof(positions[0]); p++) {
		for (n = 1; n <= 100; n++) {
			memset(buf, 0xa5, sizeof(buf));
			pattern_fill(buf, n, positions[p]);
			assert_int_equal(pattern_check(buf, n, positions[p],
						       scratch, &e), 0);
			/* fill writes exactly n bytes */
			assert_int_equal(buf[n], 0xa5);
			checked += n;
		}
	}
	expect_clean(&e);
	assert_int_equal(e.bytes_checked, checked);
}

/* Filling in pieces at any split gives the same bytes as in one go. */
static void test_fill_consistent(void **state)
{
	static uint8_t whole[256];
	size_t split, i;

	(void)state;
	pattern_fill(whole, sizeof(whole), 3);
	for (split = 0; split <= sizeof(whole); split += 5) {
		memset(buf, 0, sizeof(whole));
		pattern_fill(buf, split, 3);
		pattern_fill(buf + split, sizeof(whole) - split, 3 + split);
		assert_memory_equal(buf, whole, sizeof(whole));
	}
	/* The stream is the documented little-endian words: byte 0 of
	   word k holds the low byte of k. */
	pattern_fill(buf, 64, 0);
	for (i = 0; i < 8; i++)
		assert_int_equal(buf[8 * i], i);
	/* Not a constant: different words differ. */
	assert_memory_not_equal(buf, buf + 8, 8);
}

static void test_one_byte_flipped(void **state)
{
	static const size_t flips[] = { 0, 1, 5, 8, 50, 64, 97, 99 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
		struct pattern_errors e;
		const uint64_t pos = 3;

		memset(&e, 0, sizeof(e));
		pattern_fill(buf, 100, pos);
		buf[flips[i]] ^= 0x10;
		assert_int_equal(pattern_check(buf, 100, pos, scratch, &e), 1);
		assert_int_equal(e.corrupted, 1);
		assert_int_equal(e.lost, 0);
		assert_int_equal(e.duplicated, 0);
		assert_int_equal(pattern_error_total(&e), 1);
		assert_int_equal(e.first_offset, pos + flips[i]);
		assert_int_equal(e.first_kind, PATTERN_CORRUPTED);
		assert_int_equal(e.bytes_checked, 100);
	}
}

/* The bytes of [pos - 64, ...) presented at pos. */
static void test_duplicated(void **state)
{
	static const uint64_t positions[] = { 64, 128, 131, 4096, 100005 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(positions) / sizeof(positions[0]); i++) {
		struct pattern_errors e;
		uint64_t pos = positions[i];
		size_t bad;

		memset(&e, 0, sizeof(e));
		pattern_fill(buf, 256, pos - 64);
		bad = pattern_check(buf, 256, pos, scratch, &e);
		if (e.first_kind != PATTERN_DUPLICATED)
			fail_msg("pos %llu: kind %s, want duplicated",
				 (unsigned long long)pos,
				 pattern_kind_name(e.first_kind));
		assert_true(bad > 0);
		assert_int_equal(e.duplicated, bad);
		assert_int_equal(e.lost, 0);
		assert_int_equal(e.corrupted, 0);
		assert_true(e.first_offset >= pos);
		assert_true(e.first_offset < pos + 8);
	}
}

/* The bytes of [pos + 64, ...) presented at pos. */
static void test_lost(void **state)
{
	static const uint64_t positions[] = { 0, 64, 131, 4096, 100005 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(positions) / sizeof(positions[0]); i++) {
		struct pattern_errors e;
		uint64_t pos = positions[i];
		size_t bad;

		memset(&e, 0, sizeof(e));
		pattern_fill(buf, 256, pos + 64);
		bad = pattern_check(buf, 256, pos, scratch, &e);
		if (e.first_kind != PATTERN_LOST)
			fail_msg("pos %llu: kind %s, want lost",
				 (unsigned long long)pos,
				 pattern_kind_name(e.first_kind));
		assert_true(bad > 0);
		assert_int_equal(e.lost, bad);
		assert_int_equal(e.duplicated, 0);
		assert_int_equal(e.corrupted, 0);
		assert_true(e.first_offset >= pos);
		assert_true(e.first_offset < pos + 8);
	}
}

/* Good data, then a mismatch part way into the chunk. */
static void test_mismatch_mid_chunk(void **state)
{
	struct pattern_errors e;
	const uint64_t pos = 1000;

	(void)state;
	memset(&e, 0, sizeof(e));
	pattern_fill(buf, 128, pos);
	pattern_fill(buf + 40, 88, pos + 40 + 4096);	/* skipped 4 KiB */
	assert_true(pattern_check(buf, 128, pos, scratch, &e) > 0);
	assert_int_equal(e.first_kind, PATTERN_LOST);
	/* The first mismatching byte: byte 40 (the low byte of word
	   130 vs 642) matches by chance. */
	assert_int_equal(e.first_offset, pos + 41);
	assert_int_equal(e.duplicated + e.corrupted, 0);
}

/*
 * Near the point where the 40-bit word index wraps (2^43 bytes), loss
 * and duplication are still told apart.
 */
static void test_index_wrap(void **state)
{
	static const uint64_t positions[] = {
		(UINT64_C(1) << 43) - 32, (UINT64_C(1) << 43) + 128,
		(UINT64_C(1) << 44) + 8,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(positions) / sizeof(positions[0]); i++) {
		struct pattern_errors e;
		uint64_t pos = positions[i];

		memset(&e, 0, sizeof(e));
		pattern_fill(buf, 128, pos + 64);
		pattern_check(buf, 128, pos, scratch, &e);
		if (e.first_kind != PATTERN_LOST)
			fail_msg("pos %llu: kind %s, want lost",
				 (unsigned long long)pos,
				 pattern_kind_name(e.first_kind));
		memset(&e, 0, sizeof(e));
		pattern_fill(buf, 128, pos - 64);
		pattern_check(buf, 128, pos, scratch, &e);
		if (e.first_kind != PATTERN_DUPLICATED)
			fail_msg("pos %llu: kind %s, want duplicated",
				 (unsigned long long)pos,
				 pattern_kind_name(e.first_kind));
	}
}

/* Zeroed or constant memory is not mistaken for stream data. */
static void test_garbage_is_corrupted(void **state)
{
	static const int fills[] = { 0x00, 0xff, 0x5a };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(fills) / sizeof(fills[0]); i++) {
		struct pattern_errors e;

		memset(&e, 0, sizeof(e));
		memset(buf, fills[i], 128);
		assert_true(pattern_check(buf, 128, 4096, scratch, &e) > 0);
		if (e.first_kind != PATTERN_CORRUPTED)
			fail_msg("memset 0x%02x: kind %s, want corrupted",
				 fills[i], pattern_kind_name(e.first_kind));
		assert_int_equal(e.lost + e.duplicated, 0);
	}
}

static void test_accumulate(void **state)
{
	struct pattern_errors e;
	size_t b1, b2, b3;

	(void)state;
	memset(&e, 0, sizeof(e));

	/* An intact chunk first: nothing recorded. */
	pattern_fill(buf, 100, 0);
	assert_int_equal(pattern_check(buf, 100, 0, scratch, &e), 0);
	expect_clean(&e);

	/* Lost data at 1000. */
	pattern_fill(buf, 200, 1000 + 64);
	b1 = pattern_check(buf, 200, 1000, scratch, &e);
	assert_true(b1 > 0);
	assert_int_equal(e.first_kind, PATTERN_LOST);
	assert_int_equal(e.first_offset, 1000);

	/* A flipped byte later: counted, first stays. */
	pattern_fill(buf, 100, 5000);
	buf[17] ^= 0xff;
	b2 = pattern_check(buf, 100, 5000, scratch, &e);
	assert_int_equal(b2, 1);
	assert_int_equal(e.first_kind, PATTERN_LOST);
	assert_int_equal(e.first_offset, 1000);

	/* Duplicated data later still. */
	pattern_fill(buf, 200, 9000 - 64);
	b3 = pattern_check(buf, 200, 9000, scratch, &e);
	assert_true(b3 > 0);

	assert_int_equal(e.lost, b1);
	assert_int_equal(e.corrupted, 1);
	assert_int_equal(e.duplicated, b3);
	assert_int_equal(pattern_error_total(&e), b1 + b2 + b3);
	assert_int_equal(e.first_offset, 1000);
	assert_int_equal(e.first_kind, PATTERN_LOST);
	assert_int_equal(e.bytes_checked, 100 + 200 + 100 + 200);
}

static void test_error_total(void **state)
{
	struct pattern_errors e;

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_int_equal(pattern_error_total(&e), 0);
	e.lost = 3;
	e.duplicated = 5;
	e.corrupted = 7;
	e.bytes_checked = 1000;
	assert_int_equal(pattern_error_total(&e), 15);
}

static void test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(pattern_kind_name(PATTERN_OK), "ok");
	assert_string_equal(pattern_kind_name(PATTERN_LOST), "lost");
	assert_string_equal(pattern_kind_name(PATTERN_DUPLICATED),
			    "duplicated");
	assert_string_equal(pattern_kind_name(PATTERN_CORRUPTED),
			    "corrupted");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_odd),
		cmocka_unit_test(test_fill_consistent),
		cmocka_unit_test(test_one_byte_flipped),
		cmocka_unit_test(test_duplicated),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_mismatch_mid_chunk),
		cmocka_unit_test(test_index_wrap),
		cmocka_unit_test(test_garbage_is_corrupted),
		cmocka_unit_test(test_accumulate),
		cmocka_unit_test(test_error_total),
		cmocka_unit_test(test_kind_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
