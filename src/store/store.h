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
 *        hw_counters, fresh_workers,
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

#define STORE_SCHEMA_VERSION 8

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
 * The timeouts of the PostgreSQL store, for the stores opened from now
 * on (0: the default).  connect_s bounds making the connection, logging
 * in included (default 10 s, unless the URL's connect_timeout or
 * PGCONNECT_TIMEOUT says otherwise; connect_s > 0 overrides both);
 * statement_s bounds each statement, both on the server (its
 * statement_timeout, unless PGOPTIONS or the URL's options set options)
 * and here, where waiting for an answer stops 2 s after it even when the
 * server cannot answer at all (stopped, or its machine gone): default
 * 60 s.  TCP keepalives are on (idle 30 s, then every 10 s, 3 lost: the
 * connection is dropped) unless the URL sets them.  A statement that
 * timed out leaves the store unusable: every later command fails with
 * the same message, which names the database.
 */
void store_set_timeouts(int connect_s, int statement_s);

/*
 * As store_open, for a command that only reads: a SQLite file that exists
 * but that this process may not write (the file, or its directory where
 * SQLite keeps the -wal and -shm files) is opened read-only, and
 * immutable where no -wal or -shm can be made beside it; its schema is
 * then not migrated (an older one is refused) and runs left 'running' are
 * not marked.  Anything else is opened as store_open does.  Returns 0 or
 * -1 (message in err).
 */
int store_open_read(const char *path, struct store **out, char *err,
		    size_t errlen);

/* Whether st was opened read-only (store_open_read). */
bool store_is_read_only(const struct store *st);

/* The SQLite file st has open (its path as given); NULL for PostgreSQL. */
const char *store_file(const struct store *st);

/*
 * Whether the run uuid, with nresults results, is really stored: for a
 * SQLite file, the file at its path is still the one opened (a regular
 * file, the same device and inode, linked) and a second connection to
 * that path reads the run back with nresults results (a -wal file removed
 * under this one leaves what it wrote out of reach); for PostgreSQL, the
 * run reads back.  Returns 0; -1 with what went wrong in err, after which
 * st must not write its WAL into the file when it is closed (it is not
 * written: another writer's pages are not overwritten by a lost run's).
 */
int store_check_stored(struct store *st, const char *uuid, size_t nresults,
		       char *err, size_t errlen);

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
 * and the value of every password=, sslpassword=... parameter, its name
 * spelled in any way libpq decodes (pass%77ord=) and its value quoted or
 * not (conninfo: password='x y').  Then each postgresql:// URL left is
 * read as libpq reads it (PQconninfoParse): one in which libpq still
 * finds a password is masked whole after "://".  For messages and for
 * the command line stored with a run.
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
 * Add runs[0..n-1] as store_add_run() does each, in one transaction (the
 * commit is most of the cost of adding a run: import of thousands).
 * status[i] gets 0 (added) or 1 (there already; runs[i].info.id is the
 * existing run).  Should another adder's transaction add one of them
 * meanwhile, or the commit fail, they are added one by one instead.
 * Returns 0, or -1 with the message in err: status -1 marks the run that
 * failed and -2 those not stored because of it (rolled back, or not
 * tried); those marked 0 or 1 are stored.
 */
int store_add_runs(struct store *st, struct run_data *runs, size_t n,
		   int *status, char *err, size_t errlen);

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

/*
 * Load the runs ids[0..n-1] (distinct) whole, as store_load_run() does,
 * into out[0..n-1] (the caller's array), from one consistent snapshot,
 * with a few queries per 500 runs rather than several per run and per
 * result.  Returns 0, 1 if a run is not there (err names it), -1 on error
 * (message in err); on failure nothing is left in out.  Free each with
 * run_data_free().
 */
int store_load_runs(struct store *st, const int64_t *ids, size_t n,
		    struct run_data *out, char *err, size_t errlen);

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
