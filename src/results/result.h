/*
 * result.h - the results model: what a run measured, as typed records.
 *
 * One configuration (one point of a sweep) is a struct result_config: its
 * workload and parameters, where its workers ran, the batch, the software
 * counters and outside load of every kept sample, notes, the verify
 * outcome, its status and, for an interleaved run, the order its samples
 * were taken in.  Each metric of a configuration is a struct result that
 * points at its configuration: unit, direction, the sample values, the
 * per-op histogram when there is one, and the summary (n, median, CI,
 * spread) and bimodality, both computed once by result_finalize().
 *
 * Where a result comes from and goes:
 *   made      session/build_results.c    from the runner's config_result
 *   stored    store/             saved and loaded as these records
 *   decoded   results/codec*.c   the one place the stored text form
 *                                (parameters and info JSON) is read;
 *                                each parameter parsed once, with its
 *                                definition
 *   judged    comparison/comparison.c compare and check
 *   explained results/explain_view.c the --explain view, computed once
 *   printed   report/            tables, grids, fits, explain, JSON
 * Renderers take these records, never the store or JSON text, and parse
 * no parameter text.
 */
#ifndef COPYSCOPE_RESULT_H
#define COPYSCOPE_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/kernel_records.h"
#include "stats/modes.h"
#include "stats/summary.h"

struct param_def;
struct workload;

/*
 * A flagged sample whose reason was not recorded (load flags are
 * INTERF_FLAG_* bits, runner/interference.h).
 */
#define RESULT_FLAG_UNKNOWN 0x100u

/*
 * One parameter of a configuration: its canonical text ("64k") and its
 * value, parsed once where the configuration was made or decoded
 * (results/codec_params.c), so that no renderer parses text.
 */
struct result_param {
	char *name;
	char *value;			/* canonical text, as stored */
	const struct param_def *def;	/* its definition; NULL when the
					   workload or the parameter is not
					   in this build, or this build
					   refuses the stored text */
	int64_t v;			/* the value as def holds it
					   (core/param.h: bytes, ns, a
					   choice's index); when def is
					   NULL, the integer the text spells */
	bool has_v;			/* v is known: def is set, or the
					   text is a plain decimal integer */
};

/* One worker: its name, the CPU it was pinned to, the CPUs it ran on. */
struct result_worker {
	char *name;
	int cpu_requested;		/* -1: not pinned */
	int *cpus;			/* CPUs seen at sample starts/ends */
	size_t ncpus;
};

/* Per-op times of one op-timed worker over the kept samples. */
struct result_worker_ops {
	char *name;
	uint64_t ops;
	double mean_ns;
	uint64_t p50_ns, p99_ns, max_ns;
};

/* What else ran during each kept sample (runner/interference.h). */
struct result_load {
	double *other_cpu_pct;		/* [nsamples]; NAN: unknown */
	double *steal_pct;		/* [nsamples]; NAN: unknown */
	double *canary_ns;		/* [nsamples] */
	unsigned *flags;		/* [nsamples]; INTERF_FLAG_* bits */
	double canary_ref_ns;		/* the canary's calibrated median */
	/* [nsamples]: the share of the window the workers did not run, %
	   (NAN: unknown); NULL: not recorded (runs before it was) */
	double *offcpu_pct;
};

/* One configuration and everything its samples carried beside values. */
struct result_config {
	char *workload;
	const struct workload *wl;	/* NULL: not in this build */
	struct result_param *params;	/* in the workload's declared order
					   (name order when wl is NULL) */
	size_t nparams;
	char *params_json;		/* canonical JSON: keys sorted, values
					   as text; the key a comparison
					   matches on */
	uint64_t batch_ops;		/* ops per kept sample */
	int64_t target_ns;		/* the sample time asked for; 0:
					   not recorded */
	double tick_ns;			/* one tick of the timer that timed
					   the ops, ns; 0: not recorded
					   (runs stored before 2026-12-02) */
	double *window_ns;		/* per kept sample: how long it took
					   (ns); NULL: not recorded */
	double *oncpu_ns;		/* per kept sample: the one worker's
					   on-CPU ns, which its window
					   metrics are computed from (the
					   on-CPU estimator); NULL: they
					   use the wall window */
	/* testing only (inject_ns > 0): one step of the wait (ns; NAN:
	   not recorded) and the steps asked (0: not recorded); what they
	   delivered per op, measured in place, its 95% error and the time
	   per op with zero steps */
	int64_t inject_ns;
	double inject_step_ns;
	uint64_t inject_steps;
	double inject_added_ns, inject_err_ns, inject_base_ns;
	/*
	 * run --precision (precision_asked_pct > 0): the precision reached
	 * (the worst metric's 95% CI half-width, % of its median; NAN: none
	 * known), that metric, whether every metric reached the asked
	 * precision and how long the kept samples took
	 */
	double precision_asked_pct, precision_pct;
	char *precision_metric;
	int64_t precision_time_ns;
	struct result_worker *workers;
	size_t nworkers;
	size_t nsamples;		/* kept samples taken */
	size_t retaken;			/* of them, taken beyond --reps in
					   place of disturbed ones (the
					   headline rule), 0: none */
	/* per kept sample, summed over workers; NULL: unknown */
	uint64_t *ctx_switches, *migrations, *faults;
	char *note;			/* placement/fallback notes, or "" */
	struct result_load *load;	/* NULL: not recorded */
	struct result_worker_ops *per_worker;
	size_t nper_worker;
	long verify_errors;
	char *verify_report;
	char *status;			/* NULL when the configuration was
					   measured whole; else "failed",
					   "interrupted", "verify-failed" */
	char *message;
	/* --interleave: the seed and the global index of each sample */
	uint64_t interleave_seed;
	int64_t *interleave_order;
	size_t ninterleave_order;
	int64_t interleave_of;
	/* run --kernel: the kernel views of the traced samples, or NULL */
	struct result_kernel *kernel;
	int job;			/* which workload entry of the run */
	bool precision_met;		/* run --precision (above) */
	bool verified;			/* verify_errors holds a count */
	bool interleaved;		/* the interleave_* above hold */
};

/* One bucket of a per-op histogram; hi == -1 marks the overflow. */
struct result_bucket {
	int64_t lo, hi;			/* inclusive bounds, ns */
	uint64_t count;
};

/* The per-op histogram that goes with one time metric. */
struct result_hist {
	struct result_bucket *buckets;
	size_t nbuckets;
	char *of;			/* whose ops: the worker's name */
	uint64_t ops, min_ns, max_ns;
	double mean_ns;
};

/* One metric of one configuration. */
struct result {
	int64_t id;			/* in the store; 0: not stored */
	int seq;			/* order within the run */
	struct result_config *cfg;	/* shared by the config's metrics */
	char *metric;			/* "bandwidth", "time/write" */
	char *unit;			/* "bytes/s", "ns", "tsc-cycles" */
	int direction;			/* +1 higher better, -1 lower, 0 info */
	bool trace;			/* the cold-call trace: one value per
					   call, not per sample */
	bool traced;			/* from the --kernel traced samples,
					   not the kept ones; the one named
					   KVIEW_METRIC_TIME carries
					   cfg->kernel in its info */
	bool withheld;			/* the headline rule (below): too
					   few undisturbed samples for a
					   headline */
	double *samples;
	size_t nsamples;
	struct result_hist *hist;	/* NULL: none */
	/* computed once by result_finalize() */
	struct summary summary;		/* over the samples that count
					   (result_value_counts()) */
	struct modes modes;		/* over the same samples */
	/* the headline rule (stats/headline.h): samples left out of the
	   summary as disturbed (flagged offcpu); when too few undisturbed
	   ones remained for a headline (withheld, above), the summary is
	   over every sample, and no renderer prints its median */
	size_t left_out;
};

/*
 * A growable list of results and the configurations they point at (owned
 * here).  Pointers to results are stable once the set stops growing.
 */
struct result_set {
	struct result *v;
	size_t n, cap;
	struct result_config **cfgs;
	size_t ncfgs, cfgcap;
	int next_seq;
};

void result_set_init(struct result_set *set);
void result_set_free(struct result_set *set);

/*
 * A new zeroed configuration owned by set (note "" and job 0), or NULL on
 * ENOMEM.
 */
struct result_config *result_set_new_config(struct result_set *set);

/*
 * A new zeroed result of cfg at the end of set, its seq the next one, or
 * NULL on ENOMEM.  Earlier result pointers may move.
 */
struct result *result_set_new_result(struct result_set *set,
				     struct result_config *cfg);

/*
 * Move every result and configuration of src to the end of dst (seq
 * renumbered), leaving src empty.  Returns 0, or -1 on ENOMEM (src
 * untouched).
 */
int result_set_take(struct result_set *dst, struct result_set *src);

/*
 * Compute r's summary and modes from its samples, after the headline
 * rule (stats/headline.h) on the samples disturbed (result_value_
 * disturbed()): left_out and withheld set.  The configuration's load
 * must be set before.  0, or -1 on ENOMEM.
 */
int result_finalize(struct result *r);

/*
 * Whether each worker of cfg was pinned to a CPU of its own (one worker:
 * true).  Where workers share a CPU (place=same, more workers than CPUs,
 * unpinned), one waits in the run queue while another runs, which is
 * the workload's own cost: their run-queue wait cannot tell outside load.
 */
bool result_config_own_cpus(const struct result_config *cfg);

/*
 * Whether value i of r comes from a sample flagged offcpu: a worker
 * waited for a CPU for more than SAMPLE_OFFCPU_PCT of its window and the
 * value carries that wait (a time, cycles or a rate: not a count or a
 * ratio of counts such as fairness), the workers on CPUs of their own
 * (result_config_own_cpus()).  False when r's values are not one per
 * kept sample (a trace, the traced samples, values left out) or no load
 * was recorded.
 */
bool result_value_disturbed(const struct result *r, size_t i);

/*
 * Whether value i of r counts in its headline and in what compares it:
 * false for a disturbed value left out, and for every value of a
 * withheld result.
 */
bool result_value_counts(const struct result *r, size_t i);

/* Text of parameter name in cfg, or NULL when it has none. */
const char *result_param(const struct result_config *cfg, const char *name);

/* Parameter name of cfg with its parsed value, or NULL when it has none. */
const struct result_param *result_param_find(const struct result_config *cfg,
					     const char *name);

/*
 * The parsed value of parameter name of cfg into *v: true when cfg has
 * the parameter and its value is known (has_v), else false (*v
 * untouched).
 */
bool result_param_value(const struct result_config *cfg, const char *name,
			int64_t *v);

/*
 * Pointers to cfg's parameters sorted by name (the canonical order) into
 * out, which has room for cfg->nparams.
 */
void result_params_sorted(const struct result_config *cfg,
			  const struct result_param **out);

/*
 * Whether value i of r comes from a sample flagged as disturbed: false
 * when r's values are not one per kept sample (a trace, or values left
 * out) or no load was recorded.
 */
bool result_value_flagged(const struct result *r, size_t i);

/*
 * Kept samples of cfg shorter than the sample time asked for (0 when not
 * recorded), and the shortest one's length into *shortest_ns.
 */
size_t result_config_short(const struct result_config *cfg,
			   double *shortest_ns);

/* Number of flagged kept samples of cfg (0 when no load was recorded). */
size_t result_config_flagged(const struct result_config *cfg);

/* Of those, the samples flagged offcpu. */
size_t result_config_flagged_offcpu(const struct result_config *cfg);

/*
 * Median over the kept samples of counter[k] / per_sample, or NAN when the
 * counter is unknown or per_sample <= 0.  counter is one of cfg's
 * ctx_switches, migrations, faults.
 */
double result_counter_median(const struct result_config *cfg,
			     const uint64_t *counter, double per_sample);

/* "other,canary" from INTERF_FLAG_* bits ("" for a quiet sample). */
void result_flag_text(unsigned flags, char *buf, size_t len);

/*
 * True when r is a metric computed from its sample's timed window and op
 * count alone (time per op, cycles per op, bytes/s, ops/s: the
 * METRIC_NS_PER_OP .. METRIC_OPS_PER_SEC kinds of its workload's
 * descriptor): the metrics of one configuration for which this holds are
 * one reading, so one change of them counts once.  False for a workload
 * not in this build.
 */
bool result_window_reading(const struct result *r);

#endif
