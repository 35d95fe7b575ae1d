/*
 * lock_table.h - the one lock table of the text output (lock_table.c),
 * printed alike by `run --kernel lock` (report/kernel_text.c) and by
 * `observe` (report/observe_text.c): perf lock contention's columns
 * (contended, total wait, max wait, avg wait, type, caller) with its
 * time format ("8.50 ms"), callers named with their offset
 * ("anon_pipe_write+0x43"), rows by total wait, within 80 columns; and
 * the log2 histogram of one caller's waits, in the labels of every
 * histogram of the text report ([1us, 2us): stats/histogram.h).
 */
#ifndef COPYSCOPE_REPORT_LOCK_TABLE_H
#define COPYSCOPE_REPORT_LOCK_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One row: a caller (or a comm) and its waits. */
struct lock_table_row {
	const char *caller;		/* "anon_pipe_write+0x43", a comm */
	const char *type;		/* perf lock's "mutex"; "" none */
	uint64_t contended, total_ns, max_ns;
	bool last;			/* kept after the others ([other
					   tasks]), whatever its wait */
};

/*
 * Sort rows by total wait, most first (ties: more contentions, then
 * the caller's name), the rows marked last after the others.
 */
void lock_table_sort(struct lock_table_row *rows, size_t n);

/*
 * Print the table's heading ("caller" or "comm" as who names the last
 * column) and rows[0..n) in their order, at most max (0: all; the rest
 * counted on one line saying so), each line indented by indent columns
 * and within 80: a caller that does not fit after the numbers goes on
 * the next line, indented further.
 */
void lock_table_print(FILE *out, int indent, const char *who,
		      const struct lock_table_row *rows, size_t n,
		      size_t max);

/*
 * Print the heading "wait of CALLER (TYPE): N waits" at indent, then the
 * log2 histogram h[0..nb) of ns (bucket b: [2^b, 2^(b+1)), bucket 0
 * under 2 ns) in the text report's one histogram style, at indent.
 */
void lock_table_hist(FILE *out, int indent, const char *caller,
		     const char *type, uint64_t waits, const uint64_t *h,
		     size_t nb);

/*
 * The log2 histogram h[0..nb) of ns alone (as lock_table_hist() prints
 * it): the kernel views' and observe's wait and wake-up histograms.
 */
void lock_table_log2_ns(FILE *out, int indent, const uint64_t *h,
			size_t nb);

#endif
