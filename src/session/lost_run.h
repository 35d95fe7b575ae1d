/*
 * lost_run.h - a run written to the store but not found there at the end
 * (store_check_stored), kept whole as an export file (lost_run.c); and
 * the stop signals of the commands that add runs one after the other;
 * runs left 'running' by a process that is gone.
 */
#ifndef COPYSCOPE_SESSION_LOST_RUN_H
#define COPYSCOPE_SESSION_LOST_RUN_H

#include "results/run.h"
#include "store/store.h"

/*
 * Write all of run as an export file beside the database file of st
 * (named path in messages), DB.lost-run-UUID.json (else in the current
 * directory, copyscope-lost-run-UUID.json), and say on stderr where it
 * is, or why it could not be kept.
 */
void session_keep_lost_run(const struct store *st, const char *path,
			   const struct run_data *run);

/*
 * Catch SIGINT, SIGTERM, SIGHUP and SIGPIPE as run does (the runner's
 * handlers), so that a command finishes what it is adding, then stops.
 */
void session_catch_stop(void);

/* The signal that asked to stop since session_catch_stop(), 0 if none. */
int session_stop_signal(void);

/*
 * Runs of this host and boot left 'running' by a process that is gone
 * (SIGKILL, the OOM killer, a power cut) marked interrupted (said on
 * stderr); called whenever a command opens the store.  A failure to do
 * so only warns.
 */
void session_mark_abandoned(struct store *st);

#endif
