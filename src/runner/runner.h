/*
 * runner.h - runs one configuration of a workload and returns its samples.
 *
 * The runner sets the configuration up (runner/context.h: parameters, mode,
 * placement), starts the workers (threads or processes), pins them, holds
 * them behind a start barrier for every sample, reads the clock around each
 * worker's batch, grows the batch until one sample lasts the target sample
 * time, runs warm-up samples that are not kept, then the kept samples, then
 * (when asked) a per-op histogram pass, a verify pass and a cold-call
 * trace in a fresh process (runner/trace.h).  Aggregate rates use one shared
 * window: from the earliest worker start to the latest worker end of the
 * sample.
 */
#ifndef COPYSCOPE_RUNNER_H
#define COPYSCOPE_RUNNER_H

#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/workload.h"
#include "kernel/kview.h"
#include "results/hw_metrics.h"
#include "results/run_options.h"
#include "stats/histogram.h"

struct run_opts {
	/*
	 * What the run stores of them (results/run_options.h): reps (kept
	 * samples), sample_time_ns, warmup_ns (after batch growth), hist
	 * (the per-op histogram pass), kviews (--kernel: KVIEW_* bits; each
	 * kept sample is then followed by a traced sample of the same batch,
	 * recorded by kernel/kview.c and never counted among the kept
	 * ones), interleave and perf_counters (the session's).  Its cpus
	 * text is filled when the run is stored.
	 */
	struct run_options stored;
	int cpus[CPU_SETSIZE];		/* allowed CPUs, in order */
	int ncpus;
	bool progress;			/* progress lines on stderr */
	int kbackend;			/* enum kview_backend, resolved */
	int kprof_backend;		/* the profile's: BPF (in the
					   kernel), TRACEFS (the rings),
					   AUTO (in the kernel where the
					   program loads) */
	int profile_hz;			/* --profile-hz (0: the default) */
	/*
	 * --precision: after the reps kept samples, keep adding samples
	 * until the 95% CI of every metric's median is within
	 * +-precision_pct of it, or max_time_ns of kept samples have run
	 * (0: off).
	 */
	double precision_pct;
	int64_t max_time_ns;
};

/* The most kept samples a --precision configuration may take. */
#define RUN_PRECISION_MAX_SAMPLES 100000

enum config_status {
	CONFIG_OK = 0,
	CONFIG_FAILED,		/* a hook or worker failed: exit 1 */
	CONFIG_USAGE,		/* bad parameters found late: exit 2 */
	CONFIG_INTERRUPTED,	/* SIGINT/SIGTERM: exit 130 */
	CONFIG_UNSUPPORTED,	/* cannot run here */
	CONFIG_VERIFY_FAILED,	/* integrity errors: exit 1 */
};

/* Everything one configuration produced. */
struct config_result {
	const struct workload *wl;
	struct param_set ps;
	enum config_status status;
	char msg[512];			/* error, or reason unsupported */
	char note[WL_NOTE_LEN];		/* placement or fallback notes */

	size_t nsamples;		/* kept samples actually taken */
	double *values[WL_MAX_METRICS];	/* [metric][sample] */
	const char *units[WL_MAX_METRICS];
	uint64_t batch_ops;		/* ops per kept sample */
	double *window_ns;		/* per kept sample: its window, ns */
	int64_t target_ns;		/* the sample time asked for */
	double tick_ns;			/* the timer's tick (timer_init) */
	/*
	 * inject_ns > 0 (runner/inject.h): the time of one step of the wait
	 * and the steps asked; what they delivered per op, measured in place
	 * (median, 95% error), and the time per op with zero steps, ns.
	 */
	int64_t inject_ns;
	double inject_step_ns;
	uint64_t inject_steps;
	double inject_added_ns, inject_err_ns, inject_base_ns;
	/*
	 * --precision: what was asked, the precision reached (the worst
	 * metric's, % of its median; NAN: none had a non-zero median), that
	 * metric, whether every metric reached it, and how long the kept
	 * samples took, ns.
	 */
	double precision_asked_pct, precision_pct;
	char precision_metric[32];
	bool precision_met;
	int64_t precision_time_ns;
	/* kept samples taken beyond --reps in place of disturbed ones, so
	   that the headline is not withheld (runner_run_config) */
	size_t retaken;
	int nworkers;
	char worker_names[WL_MAX_WORKERS][16];
	cpu_set_t *cpus_seen;		/* per worker: CPUs it ran on */
	int worker_cpu[WL_MAX_WORKERS];	/* requested CPU, -1 none */
	/* per kept sample, summed over workers; SWCOUNT_NA if unknown */
	uint64_t *ctx_switches, *migrations, *faults;
	/*
	 * --hw-counters (runner/hwcount.h): per kept sample, the per-op
	 * figures of results/hw_metrics.h summed over the workers (NAN:
	 * unknown), and the least share of the sample any counter was on
	 * the PMU, % (NAN: none was); all NULL when the counters are off.
	 */
	double *hw[HW_NMETRICS];
	double *hw_running_pct;
	/*
	 * per kept sample, what else ran (runner/interference.h): other CPU
	 * and steal as % of the machine (NAN unknown), the canary's ns and
	 * INTERF_FLAG_* bits (0: a quiet sample); the canary's calibrated
	 * median when the configuration started.
	 */
	double *other_cpu_pct, *steal_pct, *canary_ns;
	unsigned *interf_flags;
	double canary_ref_ns;
	/*
	 * per kept sample: the share of the window the workers did not
	 * run (one worker: wall minus its own CPU time; several: the
	 * longest run-queue wait of any), % (NAN unknown); and, for a
	 * configuration of one worker, its on-CPU ns over the batch, which
	 * the window metrics are computed from (NAN: unknown, they use the
	 * wall window; see docs/methodology.md, "The headline")
	 */
	double *offcpu_pct, *oncpu_ns;

	struct histogram *hist;		/* per-op ns of hist_worker, or NULL */
	int hist_worker;
	uint64_t hist_ops;
	/* op-timed workloads: per-op ns over the kept samples */
	int nclasses;
	char class_names[WL_MAX_CLASSES][24];
	struct histogram *class_hist[WL_MAX_CLASSES];
	struct histogram *worker_hist[WL_MAX_WORKERS];	/* op-timed only */

	bool verified;
	long verify_errors;
	char verify_report[512];

	/* --kernel: the traced samples, aggregated (kernel/kview.h), or
	   NULL; its tracer is closed by runner_close() */
	struct kview *kview;

	double *trace_ns;		/* cold-call trace, or NULL */
	double *trace_ticks;
	size_t ntrace;
};

/*
 * Set by SIGINT, SIGTERM, SIGHUP or SIGPIPE (a closed stdout) once
 * runner_install_signals() was called.
 */
extern volatile sig_atomic_t runner_interrupted;
extern volatile sig_atomic_t runner_signal;

/* Catch SIGINT, SIGTERM, SIGHUP and SIGPIPE into runner_interrupted. */
void runner_install_signals(void);

/*
 * Run one configuration: runner_open(), opts->stored.reps x runner_sample()
 * (with opts->precision_pct, more until the precision is reached or the
 * time is up), runner_finish(), runner_close().  Never exits; always fills res (free it
 * with config_result_free()).  Returns res->status.
 */
enum config_status runner_run_config(const struct workload *wl,
				     const struct param_set *ps,
				     const struct run_opts *opts,
				     struct config_result *res);

/*
 * The same in steps, so that the samples of several configurations can be
 * interleaved.  runner_open() sets up the workload, starts its workers,
 * grows the batch and warms up; it returns NULL with res->status set when
 * the configuration cannot go on (then do not call the others).
 * runner_sample() takes one kept sample (at most opts->stored.reps in all, or
 * the --precision cap).
 * runner_finish() runs the histogram and verify passes.  runner_close()
 * stops the workers, runs the cold-call trace if asked and the status is
 * CONFIG_OK, tears down, frees r, and sets and returns res->status.
 */
struct runner;
struct runner *runner_open(const struct workload *wl,
			   const struct param_set *ps,
			   const struct run_opts *opts,
			   struct config_result *res);
enum config_status runner_sample(struct runner *r, struct config_result *res);
enum config_status runner_finish(struct runner *r, struct config_result *res);
enum config_status runner_close(struct runner *r, struct config_result *res,
				enum config_status st);

void config_result_free(struct config_result *res);

#endif
