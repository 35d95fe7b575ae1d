/*
 * histogram.c - log-linear (HDR-style) latency histogram.
 *
 * Records non-negative integer values (ns, cycles) into buckets whose width
 * grows with the value, so that any reported percentile is within a fixed
 * relative error of the true one, and prints a bpftrace-style log2 view.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "stats/histogram.h"

/*
 * Bucket geometry.  Let S = HIST_SUB_BITS and SUB = 2^S.
 *
 *  - Values v < SUB get one bucket each: index v, width 1, no error.
 *  - A value v >= SUB with k = floor(log2(v)) (so k >= S) lies in
 *    [2^k, 2^(k+1)).  That range is cut into SUB linear sub-buckets of
 *    width 2^k / SUB = 2^(k-S).  The sub-bucket is s = (v >> (k-S)) - SUB
 *    (0 <= s < SUB) and the index is (k - S + 1) * SUB + s, which continues
 *    the exact range without a gap: k = S starts at index SUB.
 *
 * Relative error: a bucket of group k has lower bound lo >= 2^k and width
 * w = 2^(k-S), so for any value v in it, reporting any other value of the
 * same bucket (e.g. its upper bound hi = lo + w - 1) is off by at most
 *
 *	(hi - v) / v <= (w - 1) / lo < w / lo <= 2^(k-S) / 2^k = 2^-S,
 *
 * i.e. at most 1/32 (3.125%) with S = 5.  Exact buckets have error 0.
 * The largest index, for v = 2^64 - 1, is (63 - S + 1) * SUB + SUB - 1.
 */
#define HIST_SUB		(1ULL << HIST_SUB_BITS)
#define HIST_MAX_BUCKETS	((size_t)(64 - HIST_SUB_BITS + 1) * HIST_SUB)

/* Number of log2 rows: [0], [1], [2,4), ..., [2^63, 2^64). */
#define HIST_LOG2_ROWS		65
#define HIST_LINE_COLS		80

size_t hist_bucket_of(uint64_t value)
{
	unsigned int k, shift;

	if (value < HIST_SUB)
		return (size_t)value;
	k = 63 - (unsigned int)__builtin_clzll(value);
	shift = k - HIST_SUB_BITS;
	return (size_t)(k - HIST_SUB_BITS + 1) * HIST_SUB +
	       (size_t)((value >> shift) - HIST_SUB);
}

uint64_t hist_bucket_lo(size_t idx)
{
	size_t group = idx >> HIST_SUB_BITS;
	uint64_t sub = idx & (HIST_SUB - 1);

	if (group == 0)
		return (uint64_t)idx;
	return (HIST_SUB + sub) << (group - 1);
}

uint64_t hist_bucket_hi(size_t idx)
{
	size_t group = idx >> HIST_SUB_BITS;

	if (group == 0)
		return (uint64_t)idx;
	/* lo + (width - 1): does not overflow for the last bucket. */
	return hist_bucket_lo(idx) + ((1ULL << (group - 1)) - 1);
}

double hist_max_relative_error(void)
{
	return 1.0 / (double)HIST_SUB;
}

struct histogram *hist_new(uint64_t max_value)
{
	struct histogram *h;

	if (max_value == 0)
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->max_value = max_value;
	h->nbuckets = hist_bucket_of(max_value) + 1;
	h->counts = calloc(h->nbuckets, sizeof(*h->counts));
	if (!h->counts) {
		free(h);
		return NULL;
	}
	return h;
}

void hist_free(struct histogram *h)
{
	if (!h)
		return;
	free(h->counts);
	free(h);
}

/* Forget every recorded value; the shape (max_value) is kept. */
void hist_reset(struct histogram *h)
{
	memset(h->counts, 0, h->nbuckets * sizeof(*h->counts));
	h->total = 0;
	h->overflow = 0;
	h->min_seen = 0;
	h->max_seen = 0;
	h->sum = 0;
}

/* min_seen and max_seen are 0 while the histogram is empty. */
void hist_record(struct histogram *h, uint64_t value)
{
	if (h->total == 0) {
		h->min_seen = value;
		h->max_seen = value;
	} else {
		if (value < h->min_seen)
			h->min_seen = value;
		if (value > h->max_seen)
			h->max_seen = value;
	}
	h->total++;
	h->sum += (long double)value;
	if (value > h->max_value)
		h->overflow++;
	else
		h->counts[hist_bucket_of(value)]++;
}

int hist_merge(struct histogram *dst, const struct histogram *src)
{
	size_t i;

	if (dst->max_value != src->max_value ||
	    dst->nbuckets != src->nbuckets)
		return -1;
	if (src->total == 0)
		return 0;
	for (i = 0; i < dst->nbuckets; i++)
		dst->counts[i] += src->counts[i];
	if (dst->total == 0) {
		dst->min_seen = src->min_seen;
		dst->max_seen = src->max_seen;
	} else {
		if (src->min_seen < dst->min_seen)
			dst->min_seen = src->min_seen;
		if (src->max_seen > dst->max_seen)
			dst->max_seen = src->max_seen;
	}
	dst->total += src->total;
	dst->overflow += src->overflow;
	dst->sum += src->sum;
	return 0;
}

/*
 * p outside [0, 100] is clamped; rank 0 (p == 0) is taken as rank 1.  The
 * bucket's upper bound is also clamped to max_value: the top bucket may
 * extend past it, but no bucketed value does.
 */
uint64_t hist_percentile(const struct histogram *h, double p)
{
	uint64_t rank, cum = 0;
	double r;
	size_t i;

	if (h->total == 0)
		return 0;
	if (!(p > 0.0))
		p = 0.0;
	if (p > 100.0)
		p = 100.0;
	/* Multiply first: 99.9 * 1000 / 100 is 999; 99.9 / 100 * 1000 not. */
	r = p * (double)h->total / 100.0;
	rank = (uint64_t)r;
	if ((double)rank < r)
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank > h->total)
		rank = h->total;

	for (i = 0; i < h->nbuckets; i++) {
		cum += h->counts[i];
		if (cum >= rank) {
			uint64_t hi = hist_bucket_hi(i);

			if (hi > h->max_value)
				hi = h->max_value;
			return hi < h->max_seen ? hi : h->max_seen;
		}
	}
	/* The rank lies in the overflow: only the exact maximum is known. */
	return h->max_seen;
}

/* Exact mean of all recorded values (overflow included); 0 when empty. */
double hist_mean(const struct histogram *h)
{
	if (h->total == 0)
		return 0.0;
	return (double)(h->sum / (long double)h->total);
}

/* Row of the log2 view: 0 for value 0, else floor(log2(v)) + 1. */
static unsigned int log2_row(uint64_t v)
{
	return v ? 64 - (unsigned int)__builtin_clzll(v) : 0;
}

/*
 * Format 2^e (0 <= e <= 64) for a row label.  For "ns" the steps are
 * ns, us, ms, s at powers of 1024 (so "1us" is 1024 ns, as bpftrace's "1K"
 * is 1024), beyond that plain seconds; other units use bpftrace's
 * 1024-based K, M, G, T, P, E suffixes.
 */
static void fmt_pow2(char *buf, size_t len, unsigned int e, int is_ns)
{
	static const char *const ns_sfx[] = { "ns", "us", "ms", "s" };
	static const char *const sfx[] = { "", "K", "M", "G", "T", "P", "E" };
	unsigned int step = e / 10;

	if (is_ns) {
		if (step > 3)
			step = 3;
		snprintf(buf, len, "%" PRIu64 "%s",
			 (uint64_t)1 << (e - 10 * step), ns_sfx[step]);
	} else {
		snprintf(buf, len, "%" PRIu64 "%s",
			 (uint64_t)1 << (e - 10 * step), sfx[step]);
	}
}

static void row_label(char *buf, size_t len, unsigned int row, int is_ns)
{
	char a[24], b[24];

	if (row <= 1) {
		snprintf(buf, len, "[%u%s]", row, is_ns ? "ns" : "");
		return;
	}
	fmt_pow2(a, sizeof(a), row - 1, is_ns);
	fmt_pow2(b, sizeof(b), row, is_ns);
	snprintf(buf, len, "[%s, %s)", a, b);
}

void hist_row_label(char *buf, size_t len, unsigned int row,
		    const char *unit)
{
	row_label(buf, len, row, unit && strcmp(unit, "ns") == 0);
}

static int digits_u64(uint64_t v)
{
	int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

void hist_print_log2_rows(FILE *out, const uint64_t *rows, size_t nrows,
			  int indent, const char *unit)
{
	uint64_t peak = 0;
	int is_ns = unit && strcmp(unit, "ns") == 0;
	int first = -1, last = -1, label_w = 16, count_w = 8, bar_w, r;
	char label[64];
	char bar[HIST_LINE_COLS + 1];

	if (nrows > HIST_LOG2_ROWS)
		nrows = HIST_LOG2_ROWS;
	for (r = 0; r < (int)nrows; r++) {
		if (!rows[r])
			continue;
		if (first < 0)
			first = r;
		last = r;
		if (rows[r] > peak)
			peak = rows[r];
	}
	if (first < 0)
		return;
	for (r = first; r <= last; r++) {
		int n;

		row_label(label, sizeof(label), (unsigned int)r, is_ns);
		n = (int)strlen(label);
		if (n > label_w)
			label_w = n;
	}
	if (digits_u64(peak) > count_w)
		count_w = digits_u64(peak);
	/* indent, label ' ' count " |" bar '|' */
	bar_w = HIST_LINE_COLS - indent - label_w - count_w - 4;
	if (bar_w < 8)
		bar_w = 8;
	for (r = first; r <= last; r++) {
		unsigned __int128 scaled;
		int n;

		scaled = (unsigned __int128)rows[r] * (unsigned int)bar_w;
		n = (int)(scaled / peak);
		memset(bar, '@', (size_t)n);
		memset(bar + n, ' ', (size_t)(bar_w - n));
		bar[bar_w] = '\0';
		row_label(label, sizeof(label), (unsigned int)r, is_ns);
		fprintf(out, "%*s%-*s %*" PRIu64 " |%s|\n", indent, "", label_w,
			label, count_w, rows[r], bar);
	}
}

void hist_print_log2_at(const struct histogram *h, FILE *out,
			const char *unit, int indent)
{
	uint64_t rows[HIST_LOG2_ROWS] = { 0 };
	size_t i;

	for (i = 0; i < h->nbuckets; i++)
		rows[log2_row(hist_bucket_lo(i))] += h->counts[i];
	hist_print_log2_rows(out, rows, HIST_LOG2_ROWS, indent, unit);
	if (h->overflow) {
		if (unit && *unit)
			fprintf(out, "%*soverflow (> %" PRIu64 " %s): %" PRIu64
				"\n", indent, "", h->max_value, unit,
				h->overflow);
		else
			fprintf(out, "%*soverflow (> %" PRIu64 "): %" PRIu64
				"\n", indent, "", h->max_value, h->overflow);
	}
}

void hist_print_log2(const struct histogram *h, FILE *out, const char *unit)
{
	hist_print_log2_at(h, out, unit, 0);
}
