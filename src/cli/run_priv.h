/*
 * run_priv.h - what the two halves of `copyscope run` share: run.c (the
 * option table, the usage, the session and its output) and run_args.c
 * (the command line into the plan and the session specification).
 */
#ifndef COPYSCOPE_CLI_RUN_PRIV_H
#define COPYSCOPE_CLI_RUN_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/run_replay.h"
#include "report/run_print.h"
#include "session/kernel_backend.h"
#include "session/run_plan.h"
#include "session/session.h"

/* What run's command line holds, and the run as it goes. */
struct run_cli {
	struct run_opts ro;
	int runs;			/* --runs N (0: one run) */
	const char *group;		/* --group ID (set by --runs) */
	bool reps_set, sample_set, warmup_set, max_time_set;
	const char *tag;
	const char *db;
	bool json, no_store, verify, explain;
	bool mail, markdown;		/* report/mail_print.h */
	bool verbose;			/* -v: every table, also of suites */
	struct run_plan plan;		/* the jobs, and their suite lines */
	const char *assign[256];
	size_t nassign;
	bool seed_set;
	uint64_t seed;
	const char *kbackend;		/* --kernel-backend, NULL: auto */
	struct kernel_backend rk;		/* what --kernel runs on, and why */
	/* mix=observed:ID made explicit, and the observation it names */
	char replay_mix[RUN_REPLAY_MAX];
	char replayed[128];
	struct run_print out;		/* how the run prints */
	/* a run the store lost: where it was to go */
	const struct store *store;
	const char *path;
	const struct run_data *run;
};

/*
 * Parse run's arguments (argv[0] is "run") into rc, whose ro holds the
 * defaults (session_spec_init()): the options, then the plan.  Returns 0,
 * -1 after --help, or the exit code after printing the usage error (2)
 * or why (1).
 */
int run_parse_args(struct run_cli *rc, int argc, char **argv);

/* The session specification of what rc parsed (all but the hooks). */
void run_fill_spec(const struct run_cli *rc, struct session_spec *spec);

#endif
