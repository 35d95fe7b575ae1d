/*
 * hw_metrics.h - the hardware counter metrics (`run --hw-counters`): their
 * names, units and what they mean, defined once, and the environment keys
 * that say which counters a run had.
 *
 * The runner (runner/hwcount.h) reads core cycles, instructions, cache
 * misses and dTLB load misses from the PMU around each kept sample; per
 * sample these become the figures below, summed over the
 * configuration's workers and divided by the sample's ops, as perf stat
 * gives them for a process.  They are results like any other (stored,
 * exported, compared), all of direction info: a comparison shows their
 * change but no verdict counts them, since they explain the time per op
 * rather than measure something of their own.  They count only while
 * the workers run, so a sample a worker was preempted in does not
 * disturb them (result_value_disturbed()).
 */
#ifndef COPYSCOPE_HW_METRICS_H
#define COPYSCOPE_HW_METRICS_H

#include <stdbool.h>

enum hw_metric {
	HW_METRIC_CYCLES,	/* core cycles per op */
	HW_METRIC_INSTR,	/* instructions retired per op */
	HW_METRIC_IPC,		/* instructions / cycles */
	HW_METRIC_CACHE,	/* cache misses per op (perf's cache-misses) */
	HW_METRIC_DTLB,		/* dTLB load misses per op */
	HW_NMETRICS
};

struct hw_metric_def {
	const char *name;	/* the result's metric */
	const char *unit;
	const char *help;
};

extern const struct hw_metric_def hw_metric_defs[HW_NMETRICS];

/* Whether metric names a hardware counter metric. */
bool hw_metric_name(const char *metric);

/*
 * The environment keys of a run with --hw-counters (set by the runner's
 * hwcount_env(), read by the run's preamble):
 *   hw.counters          the counters read, perf's names comma separated
 *                        ("cycles,instructions,cache-misses,
 *                        dTLB-load-misses"), or "none"
 *   hw.counters_pmu      "none" when perf_event_open said there is no
 *                        such event for every counter (no PMU here: a
 *                        guest without a virtual PMU), else "present"
 *   hw.counters_scope    "user+kernel", or "user" where the kernel's
 *                        share was refused (perf_event_paranoid); only
 *                        when some were read
 *   hw.counters_missing  what could not be read and why ("dTLB-load-
 *                        misses: Operation not supported"; for none,
 *                        "perf_event_open: No such file or directory");
 *                        only when some are missing
 */
#define HW_ENV_COUNTERS "hw.counters"
#define HW_ENV_PMU "hw.counters_pmu"
#define HW_ENV_SCOPE "hw.counters_scope"
#define HW_ENV_MISSING "hw.counters_missing"

#endif
