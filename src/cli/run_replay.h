/*
 * run_replay.h - `run pipe.mix mix=observed:ID[/COMM]`: the observation's
 * pipe-write sizes put in place of the reference before any workload
 * parses it (cli/run_replay.c).
 */
#ifndef COPYSCOPE_CLI_RUN_REPLAY_H
#define COPYSCOPE_CLI_RUN_REPLAY_H

#include <stddef.h>

/* Longest "mix=TEXT" a replay writes (pipe.mix's MIX_MAX_TEXT + key). */
#define RUN_REPLAY_MAX 1032

/*
 * For the first of assign[0 .. n) that is "mix=observed:SPEC", open the
 * store db (the --db value, NULL: the default), read observation SPEC
 * (session_observed_mix) and point that assignment at buf, "mix=" and
 * the mix text; replayed gets what the run records of it ("" when no
 * assignment asks for a replay), and stderr says which observation it
 * replays ("replaying observation ID (HOST, DATE, COMM)").  Returns 0, or the exit code after
 * printing the error (2: no such observation or a bad SPEC, 1: the
 * store failed).
 */
int cli_run_replay(const char *db, const char **assign, size_t n, char *buf,
		   size_t len, char *replayed, size_t rlen);

#endif
