/*
 * lock_table.c - the lock table and the wait histograms that `run
 * --kernel lock` and `observe` print alike (report/lock_table.h).
 *
 * The columns are perf lock contention's, in its order and with its time
 * format (fmt_perf_time: "262.86 us"), narrowed so that a row with a
 * caller of 22 characters ("anon_pipe_write+0x43") fits 80 columns at
 * the deepest indent used (6); a longer caller goes on its own line.
 */
#include "report/lock_table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "stats/histogram.h"

#define LINE_COLS 80
/* "contended total wait  max wait  avg wait      type  " */
#define ROW_FMT "%9s %10s %9s %9s %9s  "

static int cmp_row(const void *a, const void *b)
{
	const struct lock_table_row *x = a, *y = b;

	if (x->last != y->last)
		return x->last ? 1 : -1;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	if (x->contended != y->contended)
		return x->contended > y->contended ? -1 : 1;
	return strcmp(x->caller ? x->caller : "", y->caller ? y->caller : "");
}

void lock_table_sort(struct lock_table_row *rows, size_t n)
{
	if (n > 1)
		qsort(rows, n, sizeof(*rows), cmp_row);
}

static void print_row(FILE *out, int indent, const struct lock_table_row *r)
{
	char n[32], tot[32], mx[32], avg[32], ty[4 * 24 + 1];
	char who[4 * 128 + 1], nums[160];
	int w;

	snprintf(n, sizeof(n), "%" PRIu64, r->contended);
	fmt_perf_time((double)r->total_ns, tot, sizeof(tot));
	fmt_perf_time((double)r->max_ns, mx, sizeof(mx));
	fmt_perf_time(r->contended ? (double)r->total_ns /
		      (double)r->contended : 0, avg, sizeof(avg));
	fmt_clean_text(r->type ? r->type : "", ty, sizeof(ty));
	fmt_clean_text(r->caller ? r->caller : "", who, sizeof(who));
	w = snprintf(nums, sizeof(nums), ROW_FMT, n, tot, mx, avg,
		     *ty ? ty : "-");
	if (indent + w + (int)strlen(who) <= LINE_COLS) {
		fprintf(out, "%*s%s%s\n", indent, "", nums, who);
		return;
	}
	/* the caller on its own line, under the row */
	while (w > 0 && nums[w - 1] == ' ')
		nums[--w] = '\0';
	fprintf(out, "%*s%s\n%*s%s\n", indent, "", nums, indent + 4, "", who);
}

void lock_table_print(FILE *out, int indent, const char *who,
		      const struct lock_table_row *rows, size_t n,
		      size_t max)
{
	size_t i, shown = max && n > max ? max : n;

	fprintf(out, "%*s" ROW_FMT "%s\n", indent, "", "contended",
		"total wait", "max wait", "avg wait", "type", who);
	for (i = 0; i < shown; i++)
		print_row(out, indent, &rows[i]);
	if (!n)
		fprintf(out, "%*s(none)\n", indent, "");
	if (shown < n)
		fprintf(out, "%*s(%zu more with less wait; --json has them "
			"all)\n", indent, "", n - shown);
}

void lock_table_log2_ns(FILE *out, int indent, const uint64_t *h,
			size_t nb)
{
	uint64_t rows[65] = { 0 };
	size_t b;

	/* bucket b [2^b, 2^(b+1)) is the histogram's row b + 1; bucket 0
	   (under 2 ns) goes on the row of 1 ns: no wait is shorter */
	for (b = 0; b < nb && b + 1 < 65; b++)
		rows[b + 1] = h[b];
	hist_print_log2_rows(out, rows, nb + 1 < 65 ? nb + 1 : 65, indent,
			     "ns");
}

void lock_table_hist(FILE *out, int indent, const char *caller,
		     const char *type, uint64_t waits, const uint64_t *h,
		     size_t nb)
{
	char who[4 * 128 + 1], ty[4 * 24 + 1], line[sizeof(who) + 128];

	fmt_clean_text(caller, who, sizeof(who));
	fmt_clean_text(type, ty, sizeof(ty));
	snprintf(line, sizeof(line), "wait of %s (%s): %" PRIu64 " wait%s",
		 who, ty, waits, waits == 1 ? "" : "s");
	fmt_wrap(out, (size_t)indent, (size_t)indent + 2, line);
	lock_table_log2_ns(out, indent, h, nb);
}
