/*
 * exchange_check.h - what the reader of an export file (exchange.c)
 * checks beyond the form of each line: everything the store would refuse
 * (two results at one seq, a histogram bucket twice) and everything the
 * results model cannot hold honestly (numbers that are not finite, times
 * and counts below zero, per-sample arrays of different lengths, a run
 * that finished before it started), so that an import stores a file
 * whole or not at all.  The limits are in exchange.h.
 */
#ifndef COPYSCOPE_EXCHANGE_CHECK_H
#define COPYSCOPE_EXCHANGE_CHECK_H

#include <jansson.h>
#include <stddef.h>

#include "results/run.h"

/*
 * The run header's times: started_ns, and finished_ns when not 0 (a
 * run that never finished), at least started_ns.  Returns 0, or -1 with
 * "'finished_ns' ..." in err.
 */
int exchange_check_run(const struct run_info *ri, char *err, size_t errlen);

/*
 * The samples v[0..n-1] of a result in unit: each finite, and not below
 * zero where the unit is a time, a count or a rate (ns, cycles, count,
 * bytes/s, ...).  Returns 0, or -1 with "sample I ..." in err.
 */
int exchange_check_samples(const char *unit, const double *v, size_t n,
			   char *err, size_t errlen);

/*
 * The histogram buckets b[0..n-1]: no two with the same lower bound
 * (the store keeps one per lower bound).  Sorts nothing in place; n log n.
 * Returns 0, or -1 with "histogram bucket I ..." in err.
 */
int exchange_check_buckets(const struct result_bucket *b, size_t n,
			   char *err, size_t errlen);

/*
 * A result's info object: its per-sample arrays (ctx_switches,
 * migrations, faults, window_ns and interference's flagged, why,
 * other_cpu_pct, steal_pct), where they are arrays, all of one length,
 * and their numbers (and interference.canary_ns's) finite and, but for
 * the percentages, not below zero; batch_ops and target_ns not below
 * zero.  Returns 0, or -1 with "'info' ..." in err.
 */
int exchange_check_info(json_t *info, char *err, size_t errlen);

/*
 * The results of one run, all read: no two at the same seq, and no
 * metric twice in one configuration.  On a finding, *first and *second
 * are the indexes of the two results (first < second) and err says what;
 * returns -1.  Returns 0 when the run is consistent, -2 when memory ran
 * out.  n log n.
 */
int exchange_check_results(const struct result_set *set, size_t *first,
			   size_t *second, char *err, size_t errlen);

#endif
