/*
 * test_record.c - unit tests for src/workloads/record.c, the records that
 * verify a pipe shared by several writers and readers: clean streams in
 * any split, and each kind of fault injected on purpose (a corrupted
 * record, a duplicate, a gap, an out-of-order record) counted as exactly
 * that, also when two readers share the set of sequence numbers seen.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workloads/record.h"

#define MAX_SEQ 200
#define NWRITERS 3

static uint64_t bitmap[NWRITERS * ((MAX_SEQ + 63) / 64)];

/* A fresh shared set for nseq records per writer, and one reader. */
static void fresh(struct record_seen *s, struct record_reader *rd,
		  size_t len, uint64_t nseq)
{
	assert_true(record_seen_bytes(NWRITERS, MAX_SEQ) <= sizeof(bitmap));
	memset(bitmap, 0, sizeof(bitmap));
	record_seen_view(s, bitmap, NWRITERS, MAX_SEQ, nseq);
	assert_int_equal(record_reader_init(rd, NWRITERS, len), 0);
}

static void expect_counts(const struct record_reader *rd, uint64_t corrupted,
			  uint64_t duplicated, uint64_t reordered)
{
	assert_int_equal(rd->counts.corrupted, corrupted);
	assert_int_equal(rd->counts.duplicated, duplicated);
	assert_int_equal(rd->counts.reordered, reordered);
}

/* Feed record (writer, seq) of len bytes, whole. */
static enum record_status feed_one(struct record_reader *rd,
				   struct record_seen *s, uint32_t writer,
				   uint64_t seq)
{
	uint8_t buf[512];

	assert_true(rd->len <= sizeof(buf));
	record_fill(buf, rd->len, writer, seq);
	return record_check(rd, s, buf);
}

/* Three writers' records interleaved, fed in chunks of odd sizes. */
static void test_clean_any_split(void **state)
{
	static const size_t lens[] = { 32, 33, 40, 100, 256 };
	static const size_t chunks[] = { 1, 7, 31, 32, 64, 1000, 4096 };
	size_t li, ci;

	(void)state;
	for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		size_t len = lens[li], total = (size_t)NWRITERS * MAX_SEQ * len;
		uint8_t *stream = malloc(total);
		uint64_t seq;

		assert_non_null(stream);
		for (seq = 0; seq < MAX_SEQ; seq++) {
			uint32_t wr;

			for (wr = 0; wr < NWRITERS; wr++)
				record_fill(stream + (seq * NWRITERS + wr) *
						     len, len, wr, seq);
		}
		for (ci = 0; ci < sizeof(chunks) / sizeof(chunks[0]); ci++) {
			struct record_seen s;
			struct record_reader rd;
			size_t off;

			fresh(&s, &rd, len, MAX_SEQ);
			for (off = 0; off < total; off += chunks[ci]) {
				size_t n = total - off < chunks[ci] ?
					   total - off : chunks[ci];

				record_feed(&rd, &s, stream + off, n);
			}
			assert_false(record_reader_finish(&rd));
			expect_counts(&rd, 0, 0, 0);
			assert_int_equal(rd.counts.checked,
					 NWRITERS * MAX_SEQ);
			assert_int_equal(record_seen_lost(&s), 0);
			assert_int_equal(rd.counts.first, RECORD_OK);
			record_reader_free(&rd);
		}
		free(stream);
	}
}

/* Every single flipped byte, header or payload, is caught. */
static void test_corrupted_any_byte(void **state)
{
	uint8_t buf[100];
	size_t pos;

	(void)state;
	for (pos = 0; pos < sizeof(buf); pos++) {
		struct record_seen s;
		struct record_reader rd;

		fresh(&s, &rd, sizeof(buf), 2);
		record_fill(buf, sizeof(buf), 1, 0);
		buf[pos] ^= 0x10;
		assert_int_equal(record_check(&rd, &s, buf),
				 RECORD_CORRUPTED);
		record_fill(buf, sizeof(buf), 1, 1);
		assert_int_equal(record_check(&rd, &s, buf), RECORD_OK);
		expect_counts(&rd, 1, 0, 0);
		assert_int_equal(rd.counts.first, RECORD_CORRUPTED);
		assert_int_equal(rd.counts.first_writer, UINT32_MAX);
		/* the corrupted record's sequence was never seen: lost
		   (writer 1 seq 0) plus writers 0 and 2 sent nothing here */
		assert_int_equal(record_seen_lost(&s), 1 + 2 * 2);
		record_reader_free(&rd);
	}
}

/* A record that is valid but not from this stream: wrong length, an
   unknown writer, a sequence number past the end. */
static void test_corrupted_header_fields(void **state)
{
	struct record_seen s;
	struct record_reader rd;
	uint8_t buf[64];

	(void)state;
	fresh(&s, &rd, 64, 10);
	record_fill(buf, 48, 0, 0);		/* a 48-byte record */
	memset(buf + 48, 0, 16);
	assert_int_equal(record_check(&rd, &s, buf), RECORD_CORRUPTED);
	record_fill(buf, 64, NWRITERS, 0);	/* no such writer */
	assert_int_equal(record_check(&rd, &s, buf), RECORD_CORRUPTED);
	record_fill(buf, 64, 0, 10);		/* seq 10 of 0..9 */
	assert_int_equal(record_check(&rd, &s, buf), RECORD_CORRUPTED);
	memset(buf, 0, sizeof(buf));		/* zeroes */
	assert_int_equal(record_check(&rd, &s, buf), RECORD_CORRUPTED);
	expect_counts(&rd, 4, 0, 0);
	record_reader_free(&rd);
}

static void test_duplicate(void **state)
{
	struct record_seen s;
	struct record_reader rd;

	(void)state;
	fresh(&s, &rd, 64, 3);
	assert_int_equal(feed_one(&rd, &s, 2, 0), RECORD_OK);
	assert_int_equal(feed_one(&rd, &s, 2, 1), RECORD_OK);
	assert_int_equal(feed_one(&rd, &s, 2, 1), RECORD_DUPLICATED);
	assert_int_equal(feed_one(&rd, &s, 2, 2), RECORD_OK);
	/* the same sequence number from another writer is no duplicate */
	assert_int_equal(feed_one(&rd, &s, 0, 1), RECORD_OK);
	expect_counts(&rd, 0, 1, 0);
	assert_int_equal(rd.counts.first, RECORD_DUPLICATED);
	assert_int_equal(rd.counts.first_writer, 2);
	assert_int_equal(rd.counts.first_seq, 1);
	/* writer 0: 0 and 2 missing; writer 1: all 3 */
	assert_int_equal(record_seen_lost(&s), 2 + 3);
	record_reader_free(&rd);
}

static void test_gap_is_lost(void **state)
{
	struct record_seen s;
	struct record_reader rd;
	uint32_t wr;

	(void)state;
	fresh(&s, &rd, 64, 3);
	for (wr = 0; wr < NWRITERS; wr++) {
		assert_int_equal(feed_one(&rd, &s, wr, 0), RECORD_OK);
		if (wr != 1)
			assert_int_equal(feed_one(&rd, &s, wr, 1), RECORD_OK);
		assert_int_equal(feed_one(&rd, &s, wr, 2), RECORD_OK);
	}
	/* skipping a number is not reordering: only the gap counts */
	expect_counts(&rd, 0, 0, 0);
	assert_int_equal(record_seen_lost(&s), 1);
	record_reader_free(&rd);
}

static void test_out_of_order(void **state)
{
	struct record_seen s;
	struct record_reader rd;
	uint32_t wr;

	(void)state;
	fresh(&s, &rd, 64, 4);
	assert_int_equal(feed_one(&rd, &s, 1, 0), RECORD_OK);
	assert_int_equal(feed_one(&rd, &s, 1, 2), RECORD_OK);
	assert_int_equal(feed_one(&rd, &s, 1, 1), RECORD_REORDERED);
	assert_int_equal(feed_one(&rd, &s, 1, 3), RECORD_OK);
	for (wr = 0; wr < NWRITERS; wr += 2) {
		uint64_t q;

		for (q = 0; q < 4; q++)
			assert_int_equal(feed_one(&rd, &s, wr, q), RECORD_OK);
	}
	expect_counts(&rd, 0, 0, 1);
	assert_int_equal(rd.counts.first, RECORD_REORDERED);
	assert_int_equal(rd.counts.first_writer, 1);
	assert_int_equal(rd.counts.first_seq, 1);
	assert_int_equal(record_seen_lost(&s), 0);
	record_reader_free(&rd);
}

/*
 * Two readers share one set: each sees a writer's records in order but
 * not all of them (no error); a record both see is one duplicate; order
 * is judged per reader.
 */
static void test_two_readers(void **state)
{
	struct record_seen s;
	struct record_reader a, b;
	struct record_counts total;
	uint32_t wr;

	(void)state;
	fresh(&s, &a, 64, 6);
	assert_int_equal(record_reader_init(&b, NWRITERS, 64), 0);
	for (wr = 0; wr < NWRITERS; wr++) {
		assert_int_equal(feed_one(&a, &s, wr, 0), RECORD_OK);
		assert_int_equal(feed_one(&b, &s, wr, 1), RECORD_OK);
		assert_int_equal(feed_one(&b, &s, wr, 2), RECORD_OK);
		assert_int_equal(feed_one(&a, &s, wr, 3), RECORD_OK);
		assert_int_equal(feed_one(&b, &s, wr, 5), RECORD_OK);
		/* a's 4 after b's 5: in order for a */
		assert_int_equal(feed_one(&a, &s, wr, 4), RECORD_OK);
	}
	expect_counts(&a, 0, 0, 0);
	expect_counts(&b, 0, 0, 0);
	assert_int_equal(record_seen_lost(&s), 0);
	assert_int_equal(feed_one(&a, &s, 0, 2), RECORD_DUPLICATED);
	expect_counts(&a, 0, 1, 0);
	memset(&total, 0, sizeof(total));
	record_counts_add(&total, &b.counts);
	record_counts_add(&total, &a.counts);
	assert_int_equal(total.checked, 2 * NWRITERS * 3 + 1);
	assert_int_equal(total.duplicated, 1);
	assert_int_equal(total.first, RECORD_DUPLICATED);
	record_reader_free(&a);
	record_reader_free(&b);
}

/* A record cut short at the end of the stream is corrupted. */
static void test_partial_at_end(void **state)
{
	struct record_seen s;
	struct record_reader rd;
	uint8_t buf[64];

	(void)state;
	fresh(&s, &rd, 64, 2);
	record_fill(buf, 64, 0, 0);
	record_feed(&rd, &s, buf, 64);
	record_fill(buf, 64, 0, 1);
	record_feed(&rd, &s, buf, 40);
	expect_counts(&rd, 0, 0, 0);
	assert_true(record_reader_finish(&rd));
	expect_counts(&rd, 1, 0, 0);
	assert_false(record_reader_finish(&rd));
	record_reader_free(&rd);
}

/* lost counts only sequence numbers below nseq, at any boundary. */
static void test_lost_boundaries(void **state)
{
	static const uint64_t ns[] = { 1, 63, 64, 65, 128, 199, 200 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct record_seen s;
		struct record_reader rd;
		uint64_t q;

		fresh(&s, &rd, 32, ns[i]);
		assert_int_equal(record_seen_lost(&s), NWRITERS * ns[i]);
		for (q = 0; q < ns[i]; q++)
			assert_int_equal(feed_one(&rd, &s, 1, q), RECORD_OK);
		assert_int_equal(record_seen_lost(&s), 2 * ns[i]);
		record_reader_free(&rd);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_any_split),
		cmocka_unit_test(test_corrupted_any_byte),
		cmocka_unit_test(test_corrupted_header_fields),
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_gap_is_lost),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_two_readers),
		cmocka_unit_test(test_partial_at_end),
		cmocka_unit_test(test_lost_boundaries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
