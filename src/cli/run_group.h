/*
 * run_group.h - `run --runs N` (run_group.c): N runs, each in a fresh
 * process, sharing a group id (session/run_group_session.h runs them),
 * then their table or JSON document (report/run_print.h).
 */
#ifndef COPYSCOPE_CLI_RUN_GROUP_H
#define COPYSCOPE_CLI_RUN_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"

struct run_group_opts {
	int runs;			/* N >= 2 */
	bool json;			/* one document of the N runs */
	bool verbose;			/* -v: each run prints in full */
	const char *db;			/* --db, or NULL */
	const char *tag;		/* --tag, or NULL */
	bool seed_set;			/* --seed S: run k takes S + k */
	uint64_t seed;
	const struct opt_cmd *cmd;	/* run's options, to strip some */
};

/*
 * Re-execute this binary N times with argv (`run` and its arguments)
 * less --runs and with --group ID; print the table of the runs' medians
 * (run_brief_group(); with verbose each run's own output before it) and
 * how the runs were stored.
 * Returns the first exit status that was not 0, else 0 (1 when the runs
 * cannot be read back).
 */
int run_group(int argc, char **argv, const struct run_group_opts *o);

#endif
