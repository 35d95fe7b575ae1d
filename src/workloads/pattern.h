/*
 * pattern.h - the self-describing byte stream used to verify data paths.
 *
 * The byte at stream offset off is byte (off % 8) of the 64-bit word
 * W(k), k = off / 8, little-endian, where
 *   W(k) = (k & 2^40-1) | hash24(k) << 40.
 * A reader that finds a mismatch at a word boundary can decode the word it
 * got: a valid word for an earlier offset means duplicated data, for a
 * later offset lost data, anything else corrupted data.
 */
#ifndef COPYSCOPE_PATTERN_H
#define COPYSCOPE_PATTERN_H

#include <stddef.h>
#include <stdint.h>

enum pattern_error_kind {
	PATTERN_OK,
	PATTERN_LOST,
	PATTERN_DUPLICATED,
	PATTERN_CORRUPTED,
};

struct pattern_errors {
	uint64_t bytes_checked;
	uint64_t lost, duplicated, corrupted;	/* bytes that mismatched,
						   by the kind of the first
						   mismatch of each chunk */
	uint64_t first_offset;			/* of the first mismatch */
	enum pattern_error_kind first_kind;
};

/* Fill buf with the stream bytes [pos, pos + n). */
void pattern_fill(uint8_t *buf, size_t n, uint64_t pos);

/*
 * Check that buf holds stream bytes [pos, pos + n); account mismatches in
 * e.  scratch must hold n bytes.  Returns the number of bytes that
 * mismatched (0 when the chunk is intact).
 */
size_t pattern_check(const uint8_t *buf, size_t n, uint64_t pos,
		     uint8_t *scratch, struct pattern_errors *e);

/* Total errors in e. */
uint64_t pattern_error_total(const struct pattern_errors *e);

/* Name of a kind ("lost", ...). */
const char *pattern_kind_name(enum pattern_error_kind k);

/*
 * Write a verify pass's report into buf: "B bytes in N <what>: L lost,
 * D duplicated, C corrupted", and when anything mismatched, the stream
 * offset and kind of the first bad byte.  what names the units and how
 * they were checked ("writes checked").  Returns the error total, as the
 * workload's verify() does.
 */
long pattern_report(const struct pattern_errors *e, uint64_t n,
		    const char *what, char *buf, size_t len);

#endif
