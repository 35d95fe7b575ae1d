/*
 * pattern.c - the verification byte stream (see pattern.h).
 */
#include "workloads/pattern.h"

#include <string.h>

#define PATTERN_IDX_BITS 40
#define PATTERN_IDX_MASK ((UINT64_C(1) << PATTERN_IDX_BITS) - 1)

static uint64_t hash24(uint64_t k)
{
	/* Fibonacci hashing: the top 24 bits of k * 2^64/phi. */
	return (k * UINT64_C(0x9E3779B97F4A7C15)) >> 40;
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

static enum pattern_error_kind classify(const uint8_t *buf, size_t n,
					size_t j, uint64_t pos)
{
	uint64_t w, k;

	if ((pos + j) % 8 != 0 || j + 8 > n)
		return PATTERN_CORRUPTED;
	memcpy(&w, buf + j, 8);
	k = w & PATTERN_IDX_MASK;
	if (pattern_word(k) != w)
		return PATTERN_CORRUPTED;
	return k * 8 < pos + j ? PATTERN_DUPLICATED : PATTERN_LOST;
}

size_t pattern_check(const uint8_t *buf, size_t n, uint64_t pos,
		     uint8_t *scratch, struct pattern_errors *e)
{
	enum pattern_error_kind kind;
	size_t i, j, bad = 0;

	e->bytes_checked += n;
	pattern_fill(scratch, n, pos);
	if (memcmp(buf, scratch, n) == 0)
		return 0;
	for (j = 0; buf[j] == scratch[j]; j++)
		;
	for (i = j; i < n; i++)
		bad += buf[i] != scratch[i];
	/* Classify from the first whole word at or after the mismatch. */
	kind = classify(buf, n, j, pos);
	if (kind == PATTERN_CORRUPTED && (pos + j) % 8) {
		size_t a = j + (8 - (pos + j) % 8);

		if (a < n && buf[a] != scratch[a])
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
