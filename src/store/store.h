/*
 * store.h - the SQLite result store (DESIGN §7).
 *
 * One database file, WAL mode, every write in its own transaction so that a
 * crash, SIGINT or a second writer never loses what is already stored.
 * Schema versioned through PRAGMA user_version with forward migrations.
 *
 * Tables:
 *   runs(id, started_ns, finished_ns, tag, host, boot_id, tool_version,
 *        build_flavour, cmdline, status)          status: running, complete,
 *                                                  interrupted, failed
 *   environment(run_id, key, value)
 *   results(id, run_id, seq, workload, params, metric, unit, direction,
 *           info)          params: canonical JSON; info: JSON (placement,
 *                          batch, timer, counters); direction: +1 higher is
 *                          better, -1 lower is better, 0 informational
 *   samples(result_id, idx, value)
 *   histograms(result_id, lo, hi, count)     hi = -1 marks the overflow row
 */
#ifndef COPYSCOPE_STORE_H
#define COPYSCOPE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "env/env.h"

#define STORE_SCHEMA_VERSION 1

struct store;

struct store_run {
	int64_t id;
	int64_t started_ns, finished_ns;	/* CLOCK_REALTIME, 0 if unset */
	char tag[128];
	char host[128];
	char boot_id[64];
	char tool_version[64];
	char build_flavour[32];		/* "release", "sanitize", "debug" */
	char *cmdline;			/* owned */
	char status[16];
	int nresults;			/* filled by store_list_runs */
	char kernel[96];		/* kernel.release from the environment,
					   filled when listing or loading */
};

struct store_hist_bucket {
	int64_t lo, hi;		/* inclusive bounds; hi == -1: overflow */
	uint64_t count;
};

struct store_result {
	int64_t id;
	int seq;			/* order within the run */
	int direction;			/* +1, -1, 0 */
	char workload[64];
	char *params_json;		/* owned; canonical JSON object */
	char metric[64];
	char unit[32];
	char *info_json;		/* owned; may be NULL */
	double *samples;		/* owned */
	size_t nsamples;
	struct store_hist_bucket *buckets;	/* owned; may be NULL */
	size_t nbuckets;
};

/*
 * Open (creating the file and its parent directories) and migrate to
 * STORE_SCHEMA_VERSION.  On failure returns -1 with a message naming the
 * path and the reason in err.  A database newer than this build is refused.
 */
int store_open(const char *path, struct store **out, char *err,
	       size_t errlen);
void store_close(struct store *st);

/*
 * The default path: $COPYSCOPE_DB, else $XDG_DATA_HOME/copyscope/results.db,
 * else $HOME/.local/share/copyscope/results.db.  Writes into buf; -1 if
 * none can be formed (no HOME).
 */
int store_default_path(char *buf, size_t len);

/*
 * Insert a run with status "running" and its environment, in one
 * transaction; sets run->id.  Returns 0 or -1 (message in err).
 */
int store_begin_run(struct store *st, struct store_run *run,
		    const struct env *env, char *err, size_t errlen);

/* Add one result with its samples and histogram (one transaction). */
int store_add_result(struct store *st, int64_t run_id,
		     struct store_result *res, char *err, size_t errlen);

/* Set the final status and finished time. */
int store_finish_run(struct store *st, int64_t run_id, const char *status,
		     char *err, size_t errlen);

/*
 * All runs, oldest first.  *runs is malloc'ed; free with
 * store_free_runs().  Returns 0 or -1.
 */
int store_list_runs(struct store *st, struct store_run **runs, size_t *n,
		    char *err, size_t errlen);
void store_free_runs(struct store_run *runs, size_t n);

/*
 * Load one run, its environment and its results (ordered by seq).
 * Returns 0, 1 if there is no such run, -1 on error.
 */
int store_load_run(struct store *st, int64_t run_id, struct store_run *run,
		   struct env *env, struct store_result **results,
		   size_t *nresults, char *err, size_t errlen);
void store_free_results(struct store_result *res, size_t n);

/* Schema version of the open database (for tests). */
int store_schema_version(struct store *st);

#endif
