/*
 * session.h - one run session: what `run` and `check` both do between
 * parsing their command lines and printing.
 *
 * A session checks every configuration before measuring, captures the
 * environment and the timer, begins a stored run, measures each
 * configuration (one after another, or all open at once with their
 * samples interleaved in a shuffled round-robin), turns each into the
 * results model (session/build_results.c) and stores it as soon as it exists,
 * counts flagged samples, and finishes the run with its status.  It never
 * prints tables: the caller's output hooks do, as each job completes.
 * Errors of single configurations and of the store go to stderr as
 * "copyscope: ..." as they happen.
 */
#ifndef COPYSCOPE_SESSION_H
#define COPYSCOPE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/param.h"
#include "runner/runner.h"
#include "runner/timer.h"
#include "results/run.h"
#include "session/kernel_backend.h"
#include "store/store.h"

/* The run defaults, in one place. */
#define RUN_DEFAULT_REPS 10
#define RUN_DEFAULT_SAMPLE_NS 100000000LL	/* 100 ms */
#define RUN_DEFAULT_WARMUP_NS 200000000LL	/* 200 ms */
/* run --precision without --max-time: the most time of kept samples a
   configuration may take */
#define RUN_DEFAULT_PRECISION_MAX_NS 60000000000LL	/* 60 s */
/* --quick (and quick suites): for tests, not for numbers */
#define RUN_QUICK_REPS 3
#define RUN_QUICK_SAMPLE_NS 10000000LL		/* 10 ms */
#define RUN_QUICK_WARMUP_NS 0LL
/* Configurations open at once with --interleave. */
#define SESSION_MAX_INTERLEAVE 64

/* One workload entry of a run: a workload and its sweep. */
struct session_job {
	const struct workload *wl;
	struct param_request req;
};

/* The run's clock as the preamble states it. */
struct session_clock {
	const char *unit;		/* "ns", "tsc-cycles" or "cycles" */
	bool tsc;			/* not the ns clock: the TSC's Hz */
	double tsc_hz;
	double overhead_ns;		/* one timer read pair */
	char counter[96];		/* the counter's text: "TSC 2.1 GHz",
					   "CNTVCT_EL0 25.000 MHz, ..." */
	/* where the counter is not core cycles (arm64's CNTVCT_EL0):
	   whether they could be read, "yes: PMCCNTR_EL0, ..." or "no:
	   <why>" (timer.cycles); else "" */
	char cycles[256];
};

/* What the caller is told as the session goes (any may be NULL). */
struct session_output {
	/* the run has begun (stored when run->id > 0), with the
	   environment it stores and its clock; before measuring */
	void (*begin)(void *arg, const struct run_info *run,
		      const struct env *env, const struct session_clock *clk);
	/* the results of one job, all its configurations done */
	void (*job_done)(void *arg, const struct result *res, size_t n);
};

/* One typed run specification: what to measure and how. */
struct session_spec {
	struct session_job *jobs;
	size_t njobs;
	/* reps, times, hist, views, interleave, perf counters (ro.stored)
	   and the CPUs */
	struct run_opts ro;
	bool seed_set;			/* else the seed is the clock */
	uint64_t seed;
	const char *tag;		/* NULL: none */
	const char *group_id;		/* NULL: the run is alone */
	const char *cmdline;		/* stored with the run */
	struct store *store;		/* NULL: nothing stored */
	/* what records --kernel's views (session/kernel_backend.h), kept in
	   the environment as kernel_views.*; NULL: none */
	const struct kernel_backend *kernel_backend;
	/* the observation a replay came from (env replay.observation);
	   NULL or "": not a replay */
	const char *replayed;
	const struct session_output *out;
	void *out_arg;
	/*
	 * Interleaved runs only (any may be NULL; hook_arg is passed):
	 * before_config is called before configuration `config` (0-based
	 * over every job's configurations, in job order) is opened and
	 * before each of its kept samples, outside the timed window;
	 * non-zero stops the run as failed.  round_done is called after each
	 * round with every configuration's results so far (cr[config], NULL
	 * where a configuration is closed); true stops taking rounds.
	 */
	int (*before_config)(void *arg, size_t config);
	/* any run: keys to add to the run's environment after it is
	   captured, before the run is stored (seed: the run's interleave
	   seed); non-zero fails the run */
	int (*add_env)(void *arg, struct env *env, uint64_t seed);
	bool (*round_done)(void *arg, int rounds,
			   const struct config_result *const *cr, size_t n);
	void *hook_arg;
	/*
	 * Interleaved runs whose configurations are judged in pairs (ab):
	 * a configuration that fails stops the others at once, since they
	 * cannot be paired without it (session_result.pair_lost).
	 */
	bool pair_all;
};

/* What a session produced. */
struct session_result {
	struct run_data run;		/* info (id 0 when not stored), env,
					   results of every configuration */
	int exit_code;			/* 0, 1, 2, 77 or 130 */
	int signal;			/* the signal that interrupted it */
	size_t ran, skipped;		/* configurations */
	size_t planned;			/* configurations the run was to
					   measure (ran + skipped when it
					   was not stopped early) */
	size_t stored;			/* results written to the store */
	bool store_failed;		/* a write to the store failed: the
					   stored run is incomplete */
	bool store_lost;		/* written, but not found there at the
					   end (store_check_stored): the
					   database file was removed or
					   replaced; run holds all of it */
	/* pair_all: the configuration (0-based) whose failure stopped the
	   run, -1 when none did, and the reason it gave */
	int pair_lost;
	char pair_lost_why[256];
	/* kept samples and flagged ones, by reason */
	size_t nsamples, nflagged, n_other, n_steal, n_canary, n_offcpu;
	/* configurations with a headline withheld (stats/headline.h: too
	   few undisturbed samples); `run` exits 4 for them */
	size_t nwithheld;
};

/*
 * Fill spec->ro with the run defaults (RUN_DEFAULT_*, every CPU this
 * process may use) and everything else with zeros.
 */
void session_spec_init(struct session_spec *spec);

/*
 * Parse a CPU list ("0,2-3") into ro->cpus; each CPU must be in this
 * process's affinity mask.  Returns 0, or -1 with the reason in err
 * naming --cpus.
 */
int session_parse_cpus(const char *text, struct run_opts *ro, char *err,
		       size_t errlen);

/*
 * Check every configuration of spec before anything is measured: sweep
 * sizes, each workload's validate(), the --interleave limit.  Returns 0,
 * EXIT code 2 with a message in err (bad input) or 1 (a check failed).
 */
int session_check(const struct session_spec *spec, char *err,
		  size_t errlen);

/*
 * Measure spec and store it as one run (when spec->store).  Always fills
 * out (free with session_result_free()); returns out->exit_code.  Errors
 * of single configurations are printed on stderr as they happen.
 */
int session_run(const struct session_spec *spec, struct session_result *out);

void session_result_free(struct session_result *out);

#endif
