/*
 * report.h - what `run` and `show` print: the human results table and the
 * JSON document of a run.
 *
 * Both take the results model (results/result.h), so a run prints the
 * same whether it was just measured or read back later.
 */
#ifndef COPYSCOPE_REPORT_H
#define COPYSCOPE_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "env/env.h"
#include "report/headline_print.h"
#include "results/run.h"
#include "stats/histogram.h"

/* Version of the JSON document layout (`"schema_version"`). */
#define REPORT_JSON_SCHEMA_VERSION 1

/*
 * Print results as tables that fit 80 columns: one block per job (a
 * workload and its sweep), the parameters that vary as leading columns,
 * one row per metric with median, ±%stddev, 95% CI of the median and n,
 * then where each worker ran, software counters, notes, the cold-call
 * trace and the per-op histogram where present.
 */
void report_results(FILE *out, const struct result *res, size_t n);

/*
 * The same with each job's heading labelled labels[job] ("A: sys.iov
 * ..."), for the jobs below nlabels: an ab run's A, B and A'.
 */
void report_results_labelled(FILE *out, const struct result *res, size_t n,
			     const char *const *labels, size_t nlabels);

/*
 * The indent of every log2 histogram of the text report (--hist's per-op
 * times and the kernel views' waits and wake-ups alike): one style, the
 * labels in human units ([512ns, 1us)), stats/histogram.h's bars.
 */
#define REPORT_HIST_INDENT 6

/*
 * The kernel views of configuration c (run --kernel), when it has them:
 * the traced samples' overhead, the lock table in perf lock contention's
 * layout, wake-up latency, in-kernel time per system call.
 */
void report_kernel(FILE *out, const struct result_config *c);

/*
 * The profile view of k (report/profile_text.c): the event and its
 * frequency, the top functions by self samples with their ns per op and
 * its 95% CI, in 80 columns, and what the event's skew hides.
 */
void report_profile(FILE *out, const struct result_kernel *k);

/*
 * k's folded stacks, one a line, root first: "a;b;c COUNT" (show
 * --folded), as flamegraph.pl, inferno and speedscope read them.
 */
void report_folded(FILE *out, const struct result_kernel *k);

/*
 * A per-op histogram as stats/histogram.c holds it, rebuilt from a
 * result's stored buckets (the overflow at the exact maximum), so that
 * every renderer reads the same percentiles; NULL on ENOMEM.  Free with
 * hist_free().
 */
struct histogram *report_hist_rebuild(const struct result_hist *h);

/*
 * Print the run as one JSON document (schema_version, run, environment,
 * results with summaries, samples, info and histograms).  run or env may
 * be NULL.  Returns 0, or -1 on allocation or write failure.
 */
int report_json(FILE *out, const struct run_info *run, const struct env *env,
		const struct result *res, size_t n);

/*
 * As report_json(), and with nl > 0 a "summary" array: the suite's
 * summary lines[0..nl-1] as headline_compute() gives them (the rows
 * `show` prints in text).  Returns 0, or -1 on allocation or write
 * failure.
 */
int report_json_summary(FILE *out, const struct run_info *run,
			const struct env *env, const struct result *res,
			size_t n, const struct summary_line *lines, size_t nl);

/*
 * Print the results as CSV: a header line, then one line per result row
 * (run id, uuid, job, workload, parameters as canonical JSON, metric,
 * unit, direction, trace, the summary, flagged samples, bimodality).
 * Returns 0, or -1 on a write error.
 */
int report_csv(FILE *out, const struct run_info *run,
	       const struct result *res, size_t n);

/* A CSV field: s quoted, inner quotes doubled. */
void report_csv_str(FILE *out, const char *s);

/* ",v" with 17 significant digits; "," alone for NaN or infinity. */
void report_csv_num(FILE *out, double v);

/*
 * The parameters of a configuration as a JSON object with sorted keys
 * (the canonical form), or NULL on ENOMEM.
 */
json_t *report_params_json(const struct result_config *c);

#endif
