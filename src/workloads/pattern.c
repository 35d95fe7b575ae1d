/*
 * pattern.c - the verification byte stream (see pattern.h).
 */
#include "workloads/pattern.h"

#include <stdio.h>
#include <string.h>

#define PATTERN_IDX_BITS 40
#define PATTERN_IDX_MASK ((UINT64_C(1) << PATTERN_IDX_BITS) - 1)
#define PATTERN_IDX_HALF (UINT64_C(1) << (PATTERN_IDX_BITS - 1))

static uint64_t hash24(uint64_t k)
{
	/*
	 * Fibonacci hashing: the top 24 bits of (k + 1) * 2^64/phi.  The +1
	 * keeps hash24(0) non-zero, so that zeroed memory is not a valid
	 * word (it would otherwise decode as word 0: "duplicated").
	 */
	return ((k + 1) * UINT64_C(0x9E3779B97F4A7C15)) >> 40;
}

static uint64_t pattern_word(uint64_t k)
{
	return (k & PATTERN_IDX_MASK) | hash24(k & PATTERN_IDX_MASK)
						<< PATTERN_IDX_BITS;
}

void pattern_fill(uint8_t *buf, size_t n, uint64_t pos)
{
	size_t i = 0;

	/* Head up to a word boundary, then whole words, then the tail. */
	while (i < n && (pos + i) % 8) {
		uint64_t off = pos + i;

		buf[i++] = (uint8_t)(pattern_word(off / 8) >> (8 * (off % 8)));
	}
	for (; i + 8 <= n; i += 8) {
		uint64_t w = pattern_word((pos + i) / 8);

		memcpy(buf + i, &w, 8);
	}
	while (i < n) {
		uint64_t off = pos + i;

		buf[i++] = (uint8_t)(pattern_word(off / 8) >> (8 * (off % 8)));
	}
}

/*
 * Decode the whole word at buf[j] (j at a stream word boundary) that is
 * known to differ from the expected one.  A valid word for an earlier
 * stream position means duplicated data, for a later one lost data.  The
 * word index is 40 bits and wraps, so the direction is that of the
 * shorter way round (distances below 2^39 words, 4 TiB, ahead are lost).
 */
static enum pattern_error_kind classify(const uint8_t *buf, size_t n,
					size_t j, uint64_t pos)
{
	uint64_t w, k, want;

	if (j + 8 > n)
		return PATTERN_CORRUPTED;
	memcpy(&w, buf + j, 8);
	k = w & PATTERN_IDX_MASK;
	if (pattern_word(k) != w)
		return PATTERN_CORRUPTED;
	want = ((pos + j) / 8) & PATTERN_IDX_MASK;
	if (k == want)		/* not reached: the word differs */
		return PATTERN_CORRUPTED;
	if (((k - want) & PATTERN_IDX_MASK) < PATTERN_IDX_HALF)
		return PATTERN_LOST;
	return PATTERN_DUPLICATED;
}

size_t pattern_check(const uint8_t *buf, size_t n, uint64_t pos,
		     uint8_t *scratch, struct pattern_errors *e)
{
	enum pattern_error_kind kind = PATTERN_CORRUPTED;
	size_t i, j, in_word, bad = 0;

	e->bytes_checked += n;
	pattern_fill(scratch, n, pos);
	if (memcmp(buf, scratch, n) == 0)
		return 0;
	for (j = 0; buf[j] == scratch[j]; j++)
		;
	for (i = j; i < n; i++)
		bad += buf[i] != scratch[i];
	/*
	 * Classify from the word holding the first mismatch when it lies
	 * wholly in buf; failing that (it is cut by the chunk's start, or
	 * does not decode: a corrupted byte or a shift that is not a whole
	 * number of words), from the next whole word if that one differs
	 * from the expected.  Leading bytes of a shifted word can match by
	 * chance (high index bytes are mostly zero), so j itself need not
	 * be where the word starts.
	 */
	in_word = (size_t)((pos + j) % 8);
	if (j >= in_word)
		kind = classify(buf, n, j - in_word, pos);
	if (kind == PATTERN_CORRUPTED && in_word) {
		size_t a = j + (8 - in_word);

		if (a + 8 <= n && memcmp(buf + a, scratch + a, 8) != 0)
			kind = classify(buf, n, a, pos);
	}
	if (pattern_error_total(e) == 0) {
		e->first_offset = pos + j;
		e->first_kind = kind;
	}
	if (kind == PATTERN_LOST)
		e->lost += bad;
	else if (kind == PATTERN_DUPLICATED)
		e->duplicated += bad;
	else
		e->corrupted += bad;
	return bad;
}

uint64_t pattern_error_total(const struct pattern_errors *e)
{
	return e->lost + e->duplicated + e->corrupted;
}

const char *pattern_kind_name(enum pattern_error_kind k)
{
	switch (k) {
	case PATTERN_OK:
		return "ok";
	case PATTERN_LOST:
		return "lost";
	case PATTERN_DUPLICATED:
		return "duplicated";
	case PATTERN_CORRUPTED:
		return "corrupted";
	}
	return "?";
}

long pattern_report(const struct pattern_errors *e, uint64_t n,
		    const char *what, char *buf, size_t len)
{
	long total = (long)pattern_error_total(e);
	int used;

	used = snprintf(buf, len, "%llu bytes in %llu %s: %llu lost, %llu "
			"duplicated, %llu corrupted",
			(unsigned long long)e->bytes_checked,
			(unsigned long long)n, what,
			(unsigned long long)e->lost,
			(unsigned long long)e->duplicated,
			(unsigned long long)e->corrupted);
	if (total && used > 0 && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, "; first bad byte at "
			 "stream offset %llu (%s)",
			 (unsigned long long)e->first_offset,
			 pattern_kind_name(e->first_kind));
	return total;
}
