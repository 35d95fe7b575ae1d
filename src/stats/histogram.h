/*
 * histogram.h - log-linear latency histogram.
 *
 * Values (non-negative integers, e.g. ns) are bucketed HDR-style: values
 * below 2^HIST_SUB_BITS are exact; above, each power-of-two range
 * [2^k, 2^(k+1)) is split into 2^HIST_SUB_BITS equal linear sub-buckets.
 * The derivation of the relative error bound sits in histogram.c.
 * Values above the configured maximum go to an overflow count that is
 * always reported, never dropped.
 */
#ifndef COPYSCOPE_HISTOGRAM_H
#define COPYSCOPE_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HIST_SUB_BITS 5		/* 32 sub-buckets per power of two */

struct histogram {
	uint64_t max_value;	/* largest value that is bucketed */
	size_t nbuckets;
	uint64_t *counts;
	uint64_t total;		/* all recorded values, overflow included */
	uint64_t overflow;	/* values > max_value */
	uint64_t min_seen, max_seen;	/* exact, overflow included */
	long double sum;	/* exact sum for the mean */
};

/*
 * Create a histogram covering [0, max_value].  Returns NULL on allocation
 * failure or max_value == 0.
 */
struct histogram *hist_new(uint64_t max_value);
void hist_free(struct histogram *h);
void hist_reset(struct histogram *h);

/* Record one value (overflow counted when value > max_value). */
void hist_record(struct histogram *h, uint64_t value);

/* Add all counts of src into dst (same max_value); -1 if shapes differ. */
int hist_merge(struct histogram *dst, const struct histogram *src);

/* Bucket index of a value (value <= max_value) and its bounds. */
size_t hist_bucket_of(uint64_t value);
uint64_t hist_bucket_lo(size_t idx);
uint64_t hist_bucket_hi(size_t idx);	/* inclusive */

/*
 * Upper bound of the relative error of any reported percentile, from the
 * bucket geometry: 1 / 2^HIST_SUB_BITS.
 */
double hist_max_relative_error(void);

/*
 * Value at percentile p (0..100): the upper bound of the bucket that holds
 * the ceil(p/100 * total)-th value, clamped to max_seen.  If that rank
 * falls into the overflow, returns max_seen (the exact maximum).
 * 0 when empty.
 */
uint64_t hist_percentile(const struct histogram *h, double p);
double hist_mean(const struct histogram *h);

/*
 * Print a log2 ASCII histogram in the style of bpftrace's hist():
 *   [1K, 2K)            12 |@@@@                                  |
 * with values scaled by `scale_unit` ("ns" gives ns/us/ms labels) and an
 * overflow line when there is any.  Fits 80 columns.
 */
void hist_print_log2(const struct histogram *h, FILE *out, const char *unit);

/*
 * The same, each line indented by indent columns (the bars shorter, so
 * that lines still fit 80 columns).  The text report prints --hist's
 * per-op times and the kernel views' histograms with one indent, so
 * that both look alike.
 */
void hist_print_log2_at(const struct histogram *h, FILE *out,
			const char *unit, int indent);

/*
 * The label of log2 row row (0 to 64) as the printers write it: "[0ns]",
 * "[1ns]", "[512ns, 1us)" for unit "ns", "[2K, 4K)" for other units.
 */
void hist_row_label(char *buf, size_t len, unsigned int row,
		    const char *unit);

/*
 * The rows of such a histogram from counts already in log2 rows:
 * rows[0] counts the value 0, rows[1] the value 1, rows[r] the values in
 * [2^(r-1), 2^r) (at most 65 rows); the first to the last non-empty row,
 * each "label count |bar|" in unit's labels as above, indented by
 * indent columns, the fullest row's bar the longest (80 columns in all
 * for counts of up to 8 digits).  Nothing when every row is empty.
 */
void hist_print_log2_rows(FILE *out, const uint64_t *rows, size_t nrows,
			  int indent, const char *unit);

#endif
