/*
 * store.h - the result store: runs with their environment and results (the
 * records of results/run.h and results/result.h), saved and loaded, and
 * the selection of runs by id, tag, 'last', host, kernel or boot setting.
 *
 * A store is a SQLite file (one per host: WAL mode) or a PostgreSQL
 * database named by a postgresql:// URL (the shared store of a lab, through
 * libpq); both hold the same schema, made by the same migrations
 * (store/schema.c), behind this one interface.  Every write is in its own
 * transaction so that a crash, SIGINT or a second writer never loses what
 * is already stored.  The schema version (SQLite: PRAGMA user_version;
 * PostgreSQL: the table copyscope_schema) only moves forward.
 *
 * Tables:
 *   runs(id, started_ns, finished_ns, tag, host, boot_id, tool_version,
 *        build_flavour, cmdline, status,     status: running, complete,
 *        reps, sample_time_ns, warmup_ns,             interrupted, failed
 *        cpus, hist, interleave_seed,
 *        perf_counters, kernel_views,        the run options, typed;
 *        pid, uuid, group_id)                the measuring process; a
 *                                            globally unique id; the
 *                                            group of `run --runs N`
 *   environment(run_id, key, value, seq)     seq: the key's place
 *   results(id, run_id, seq, workload, params, metric, unit, direction,
 *           info)          params: canonical JSON; info: JSON, written and
 *                          read by results/codec.c; direction: +1 higher
 *                          is better, -1 lower is better, 0 informational
 *   samples(result_id, idx, value)
 *   histograms(result_id, lo, hi, count)     hi = -1 marks the overflow row
 */
#ifndef COPYSCOPE_STORE_H
#define COPYSCOPE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "env/env.h"
#include "results/run.h"

#define STORE_SCHEMA_VERSION 5

struct store;

/*
 * Open target and migrate it to STORE_SCHEMA_VERSION.  target is a file
 * path (the file and its parent directories are created) or a URL:
 * postgresql://... or postgres://... (libpq's URL, TLS options and all; the
 * database must exist, its tables are created on first use).  Any other
 * scheme:// is refused, never taken for a path.  On failure returns -1
 * with a message naming the database (passwords masked) and the reason in
 * err.  A database newer than this build, or one holding tables but no
 * copyscope schema version, is refused and left unchanged.
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
 * Whether target names a database by URL (it begins with scheme://, or
 * with postgresql: or postgres:) rather than by path.  A URL is never a
 * path, whether its scheme is supported or not.
 */
bool store_is_url(const char *target);

/*
 * A copy of text (malloc'ed; NULL on ENOMEM) in which the passwords of
 * connection URLs are masked as '***': the password of user:password@,
 * and the value of every password=, sslpassword=... parameter.  For
 * messages and for the command line stored with a run.
 */
char *store_mask_secrets(const char *text);

/*
 * Insert a run with status "running", its options and its environment, in
 * one transaction; sets run->id, gives the run a globally unique id
 * (run->uuid) unless it has one, and fills empty host, boot id, version
 * and flavour from env.  Returns 0 or -1 (message in err).
 */
int store_begin_run(struct store *st, struct run_info *run,
		    const struct env *env, char *err, size_t errlen);

/*
 * Add results res[0..n-1] (typically one configuration's metrics) with
 * their samples and histograms to run_id, in one transaction; sets each
 * res[i].id.  Returns 0 or -1 (message in err; nothing of them stored).
 */
int store_add_results(struct store *st, int64_t run_id, struct result *res,
		      size_t n, char *err, size_t errlen);

/*
 * The run whose globally unique id (run_info.uuid) is uuid: 0 with *id
 * set, 1 when there is none, -1 on error.
 */
int store_find_uuid(struct store *st, const char *uuid, int64_t *id,
		    char *err, size_t errlen);

/*
 * Add a whole run (its row with the status, times and unique id it
 * carries, its environment and every result) in one transaction, as
 * import and push do: nothing of it is stored unless all of it is.
 * Idempotent by the unique id: when a run with run->info.uuid is there
 * already, nothing is written, run->info.id gets the existing run's id and
 * 1 is returned.  0 when added (ids set), -1 on error (message in err).
 */
int store_add_run(struct store *st, struct run_data *run, char *err,
		  size_t errlen);

/*
 * Store what an observation saw (json: its JSON text, results/
 * observation.h) with run run_id, in one transaction (store/
 * observation.c).  Returns 0 or -1 (message in err).
 */
int store_add_observation(struct store *st, int64_t run_id,
			  const char *json, char *err, size_t errlen);

/* Set the final status and finished time (CLOCK_REALTIME ns). */
int store_finish_run(struct store *st, int64_t run_id, const char *status,
		     int64_t finished_ns, char *err, size_t errlen);

/*
 * Mark as interrupted every run of this host that says 'running' but
 * whose process is gone: one from another boot, or whose pid no longer
 * exists or is no longer copyscope (a run killed with SIGKILL, by the OOM
 * killer or a power cut cannot mark itself).  Runs of other hosts (a
 * shared lab store) and runs without a pid on this boot are left alone.
 * *marked gets the count.  Returns 0 or -1 (message in err).
 */
int store_mark_abandoned(struct store *st, const char *host,
			 const char *boot_id, size_t *marked, char *err,
			 size_t errlen);

/*
 * All runs, oldest first (without environment and results).  *runs is
 * malloc'ed; free with store_free_runs().  Returns 0 or -1.
 */
int store_list_runs(struct store *st, struct run_info **runs, size_t *n,
		    char *err, size_t errlen);
void store_free_runs(struct run_info *runs, size_t n);

/*
 * Load one run with its environment and its results (in stored order,
 * decoded by results/codec.c), from one consistent snapshot.  Returns 0,
 * 1 if there is no such run, -1 on error (message in err).  Free out with
 * run_data_free().
 */
int store_load_run(struct store *st, int64_t run_id, struct run_data *out,
		   char *err, size_t errlen);

/* Why store_select_runs() found nothing. */
enum store_select_status {
	STORE_SELECT_OK = 0,
	STORE_SELECT_ERROR = -1,	/* the database failed */
	STORE_SELECT_EMPTY_ITEM = 1,	/* "", "a,,b", "a," */
	STORE_SELECT_NO_MATCH = 2,	/* an item names no run */
};

/*
 * The runs a side of a comparison names: spec is a comma list of items;
 * an item is a run id, a tag (every run with it), 'last', or a selector:
 * host:PATTERN (the host measured on), kernel:PATTERN (kernel.release),
 * boot:PATTERN (a word of the kernel command line, e.g. boot:nosmap or
 * boot:mitigations=off) or tag:PATTERN, where PATTERN is a shell glob.
 * Terms joined by '+' must all hold (host:lab3+tag:nightly); a '+' only
 * joins when a selector or 'last' follows it, and 'last' among terms is
 * the newest run the others select.  *ids gets the distinct run ids,
 * item by item, each item's runs oldest first (malloc'ed; free it).  On
 * STORE_SELECT_NO_MATCH err names the item; on an empty item (or a
 * selector without its pattern) it quotes the spec.
 */
enum store_select_status store_select_runs(struct store *st,
					   const char *spec, int64_t **ids,
					   size_t *n, char *err,
					   size_t errlen);

/*
 * Whether text, given as a side of a comparison, would select the runs
 * tagged with it (and not be read as a run id, 'last', a list or a
 * selector): a tag that is not could never be selected.
 */
bool store_spec_is_tag(const char *text);

/* Schema version of the open database (for tests). */
int store_schema_version(struct store *st);

#endif
