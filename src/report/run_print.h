/*
 * run_print.h - what `copyscope run` prints as its session goes
 * (run_print.c): the preamble (samples, warm-up, the clock), each job's
 * tables (or a suite's line per configuration), and at the end --explain,
 * the JSON document or where the run was stored, the suite summary and an
 * interruption; and the end of `run --runs N`.
 */
#ifndef COPYSCOPE_REPORT_RUN_PRINT_H
#define COPYSCOPE_REPORT_RUN_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/run.h"
#include "results/summary_line.h"

/* The clock a run reads, as its preamble names it. */
struct run_print_clock {
	const char *unit;		/* "ns", "tsc-cycles" or "cycles" */
	bool tsc;			/* not the ns clock: say the TSC's Hz */
	double tsc_hz;
	double overhead_ns;		/* one read pair */
	const char *counter;		/* the counter's text, else the TSC's */
	const char *cycles;		/* "" or NULL, else whether core
					   cycles can be read: "yes: ..." or
					   "no: <why>" */
};

/* How one run prints, and where it is. */
struct run_print {
	bool json;			/* nothing but the document at the end */
	int mail;			/* enum mail_format (report/mail_print.h):
					   nothing but the mail at the end */
	bool brief;			/* one line per configuration */
	double precision_pct;		/* --precision, 0: none */
	int64_t max_time_ns;		/* its --max-time */
	bool explain;			/* --explain */
	/* the suite summary's line of each job from a suite (else
	   workload NULL), [njobs] */
	const struct summary_line *from;
	size_t njobs;
	bool any_suite;
	const char *db;			/* --db, for the summary's hint */
	bool brief_started;		/* the brief heading is out */
};

/*
 * The preamble of run (nothing with --json): what is measured, the timer,
 * and one line naming the noise sources env shows (env_noise_sources).
 */
void run_print_preamble(FILE *out, const struct run_print *p,
			const struct run_info *run, const struct env *env,
			const struct run_print_clock *clk);

/* One job's results res[0..n-1], as it completes (nothing with --json). */
void run_print_job(FILE *out, struct run_print *p, const struct result *res,
		   size_t n);

/* How the session ended, for run_print_end(). */
struct run_print_end {
	const struct run_data *run;	/* id 0 when not stored */
	int exit_code;			/* the session's */
	const char *path;		/* the database, as named */
	bool store_failed, store_lost;	/* store_lost: the caller keeps it */
	size_t stored;			/* results the store took */
	size_t planned, ran, skipped;	/* configurations */
	int signal;			/* with exit code 130 */
	/* kept samples, and those flagged: the noisy-machine warning */
	size_t nsamples, nflagged, n_other, n_steal, n_canary, n_offcpu;
	/* with store_lost: keep the run elsewhere and say where (on
	   stderr), in the place of "stored as"; returns the exit code */
	int (*keep_lost)(void *arg);
	void *keep_arg;
};

/*
 * After the session: the noisy-machine warning on stderr, --explain's table, the JSON document or "stored as"
 * (or what of the run was stored), the suite summary, and on stderr an
 * interruption.  Returns the exit code: end's, or 1 when --explain or the
 * JSON failed, or keep_lost's.
 */
int run_print_end(FILE *out, const struct run_print *p,
		  const struct run_print_end *end);

/*
 * The end of `run --runs N`: how many of runs runs were stored as group
 * (ids[0..n-1]), and how to compare them as one side (by tag, when the
 * runs have one, else by their ids).
 */
void run_print_group_end(FILE *out, int runs, const char *group,
			 const int64_t *ids, size_t n, const char *tag);

/* --runs N --json: one document holding the group's runs[0..n-1]. */
int run_print_group_json(FILE *out, const char *group,
			 const struct run_data *runs, size_t n);

#endif
