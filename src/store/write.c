/*
 * write.c - writing runs: a run begins (its row, options and environment),
 * gets its results one configuration at a time, and finishes with its
 * status.  Each step is one transaction (see db.c).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/codec.h"
#include "store/db.h"
#include "util/random_id.h"

/* Fill empty identity fields of run from the environment. */
static void run_defaults(struct run_info *run, const struct env *env)
{
	const char *v;

	if (!env)
		return;
	if (!run->host[0] && (v = env_get(env, "hostname")))
		db_copy_str(run->host, sizeof(run->host), v);
	if (!run->boot_id[0] && (v = env_get(env, "boot_id")))
		db_copy_str(run->boot_id, sizeof(run->boot_id), v);
	if (!run->tool_version[0] && (v = env_get(env, "copyscope.version")))
		db_copy_str(run->tool_version, sizeof(run->tool_version), v);
	if (!run->build_flavour[0] &&
	    (v = env_get(env, "copyscope.build_flavour")))
		db_copy_str(run->build_flavour, sizeof(run->build_flavour), v);
}

/* Bind the run options to columns first .. first + run_option_count - 1. */
static int bind_options(struct db_stmt *s, int first,
			const struct run_info *run)
{
	struct run_option_value v;
	size_t i;
	int rc;

	for (i = 0; i < run_option_count; i++) {
		int col = first + (int)i;

		if (!run->have_options) {
			rc = db_bind_null(s, col);
		} else {
			run_option_get(&run->opts, &run_option_fields[i], &v);
			rc = v.type == RUN_OPTION_NULL ? db_bind_null(s, col) :
			     v.type == RUN_OPTION_INT ?
			     db_bind_int64(s, col, v.i) :
			     DB_BIND_STR(s, col, v.text);
		}
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * Environment rows per INSERT: one statement for a whole environment (a
 * round trip each on PostgreSQL, where a row per statement was most of
 * an import's time); 4 parameters a row stays far below SQLite's limit.
 */
#define ENV_ROWS 128
/* Likewise samples (3 parameters a row). */
#define SAMPLE_ROWS 256

/* head followed by n copies of row, ", " between them (malloc'ed). */
static char *values_sql(const char *head, const char *row, size_t n)
{
	size_t len = strlen(head) + n * (strlen(row) + 2) + 1, i, used;
	char *sql = malloc(len);

	if (!sql)
		return NULL;
	used = (size_t)snprintf(sql, len, "%s", head);
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(sql + used, len - used, "%s%s",
					 i ? ", " : "", row);
	return sql;
}

/*
 * Prepare head followed by n copies of row into *s (what: what it
 * inserts, for the message).  Returns 0 or -1 (message in err).
 */
static int prepare_values(struct store *st, const char *head,
			  const char *row, size_t n, const char *what,
			  struct db_stmt **s, char *err, size_t errlen)
{
	char *sql = values_sql(head, row, n);
	int rc;

	if (!sql) {
		db_set_err(err, errlen, "cannot insert %s: %s", what,
			   strerror(ENOMEM));
		return -1;
	}
	rc = db_prepare(st, sql, s, err, errlen);
	free(sql);
	return rc ? -1 : 0;
}

/* Rows from..from+n-1 of env in one statement. */
static int insert_env_rows(struct store *st, int64_t run_id,
			   const struct env *env, size_t from, size_t n,
			   char *err, size_t errlen)
{
	struct db_stmt *s = NULL;
	size_t i;
	int p = 1;

	if (prepare_values(st, "INSERT INTO environment (run_id, key, value, "
			   "seq) VALUES ", "(?, ?, ?, ?)", n, "environment",
			   &s, err, errlen))
		return -1;
	for (i = from; i < from + n; i++, p += 4)
		if (db_bind_int64(s, p, run_id) ||
		    db_bind_text(s, p + 1, env->items[i].key, 0) ||
		    db_bind_text(s, p + 2, env->items[i].value, 0) ||
		    db_bind_int64(s, p + 3, (int64_t)i)) {
			db_err(st, err, errlen, "cannot bind environment");
			(void)db_finalize(s);
			return -1;
		}
	if (db_step_done(st, s, "cannot insert environment", err, errlen)) {
		(void)db_finalize(s);
		return -1;
	}
	if (db_finalize(s)) {
		db_err(st, err, errlen, "cannot insert environment");
		return -1;
	}
	return 0;
}

static int insert_env(struct store *st, int64_t run_id,
		      const struct env *env, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; env && i < env->n; i += ENV_ROWS)
		if (insert_env_rows(st, run_id, env, i,
				    env->n - i < ENV_ROWS ? env->n - i :
				    ENV_ROWS, err, errlen))
			return -1;
	return 0;
}

/*
 * The runs row of run with status; sets run->id.  In a transaction.  A
 * run whose unique id is there already is not added: run->id is 0.
 */
static int insert_run_row(struct store *st, struct run_info *run,
			  const char *status, char *err, size_t errlen)
{
	char sql[1024], cols[512] = "", marks[128] = "";
	size_t i, len = 0, mlen = 0;
	struct db_stmt *ins = NULL;
	int rc;

	for (i = 0; i < run_option_count; i++) {
		len += (size_t)snprintf(cols + len, sizeof(cols) - len, ", %s",
					run_option_fields[i].name);
		mlen += (size_t)snprintf(marks + mlen, sizeof(marks) - mlen,
					 ", ?");
	}
	snprintf(sql, sizeof(sql), "INSERT INTO runs (started_ns, "
		 "finished_ns, tag, host, boot_id, tool_version, "
		 "build_flavour, cmdline, status, pid, uuid, group_id%s) "
		 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?%s) "
		 "ON CONFLICT (uuid) DO NOTHING RETURNING id", cols, marks);
	if (db_prepare(st, sql, &ins, err, errlen))
		return -1;
	if (db_bind_int64(ins, 1, run->started_ns) ||
	    (run->finished_ns ? db_bind_int64(ins, 2, run->finished_ns) :
	     db_bind_null(ins, 2)) ||
	    DB_BIND_STR(ins, 3, run->tag) ||
	    DB_BIND_STR(ins, 4, run->host) ||
	    DB_BIND_STR(ins, 5, run->boot_id) ||
	    DB_BIND_STR(ins, 6, run->tool_version) ||
	    DB_BIND_STR(ins, 7, run->build_flavour) ||
	    db_bind_text(ins, 8, run->cmdline, 0) ||
	    db_bind_text(ins, 9, status, 0) ||
	    (run->pid > 0 ? db_bind_int64(ins, 10, run->pid) :
	     db_bind_null(ins, 10)) ||
	    DB_BIND_STR(ins, 11, run->uuid) ||
	    db_bind_text(ins, 12, run->group_id[0] ? run->group_id : NULL,
			 sizeof(run->group_id)) ||
	    bind_options(ins, 13, run) != 0) {
		db_err(st, err, errlen, "cannot bind run");
		(void)db_finalize(ins);
		return -1;
	}
	rc = db_step_id(st, ins, "cannot insert run", &run->id, err, errlen);
	if (db_finalize(ins) && rc == 0) {
		db_err(st, err, errlen, "cannot insert run");
		rc = -1;
	}
	return rc;
}

int store_begin_run(struct store *st, struct run_info *run,
		    const struct env *env, char *err, size_t errlen)
{
	run_defaults(run, env);
	if (run->started_ns == 0)
		run->started_ns = db_now_ns();
	if (!run->uuid[0] && util_random_id(run->uuid, sizeof(run->uuid))) {
		db_set_err(err, errlen, "cannot make a run id: getrandom: %s",
			   strerror(errno));
		return -1;
	}
	if (db_begin_write(st, err, errlen))
		return -1;
	if (insert_run_row(st, run, "running", err, errlen))
		goto fail;
	if (!run->id) {
		db_set_err(err, errlen, "cannot insert run in database '%s': "
			   "its unique id %s is taken", st->path, run->uuid);
		goto fail;
	}
	if (insert_env(st, run->id, env, err, errlen) ||
	    db_commit(st, err, errlen))
		goto fail;
	db_copy_str(run->status, sizeof(run->status), "running");
	return 0;
fail:
	db_rollback(st);
	run->id = 0;
	return -1;
}

/* What cannot be stored, said before the transaction starts. */
static int check_result(const struct result *r, char *err, size_t errlen)
{
	const char *wl = r->cfg->workload;
	size_t i;

	if (!r->cfg->params_json) {
		db_set_err(err, errlen, "cannot store result '%s/%s': no "
			   "parameters", wl, r->metric);
		return -1;
	}
	if (r->direction < -1 || r->direction > 1) {
		db_set_err(err, errlen, "cannot store result '%s/%s': invalid "
			   "direction %d", wl, r->metric, r->direction);
		return -1;
	}
	for (i = 0; i < r->nsamples; i++)
		if (isnan(r->samples[i])) {
			db_set_err(err, errlen, "cannot store result '%s/%s': "
				   "sample %zu is NaN", wl, r->metric, i);
			return -1;
		}
	for (i = 0; r->hist && i < r->hist->nbuckets; i++)
		if (r->hist->buckets[i].count > INT64_MAX) {
			db_set_err(err, errlen, "cannot store result '%s/%s': "
				   "histogram count out of range", wl,
				   r->metric);
			return -1;
		}
	return 0;
}

/* Samples from..from+n-1 of r (stored: r->id set) in one statement. */
static int insert_samples(struct store *st, const struct result *r,
			  size_t from, size_t n, char *err, size_t errlen)
{
	struct db_stmt *s = NULL;
	size_t i;
	int p = 1;

	if (prepare_values(st, "INSERT INTO samples (result_id, idx, value) "
			   "VALUES ", "(?, ?, ?)", n, "samples", &s, err,
			   errlen))
		return -1;
	for (i = from; i < from + n; i++, p += 3)
		if (db_bind_int64(s, p, r->id) ||
		    db_bind_int64(s, p + 1, (int64_t)i) ||
		    db_bind_double(s, p + 2, r->samples[i])) {
			db_err(st, err, errlen, "cannot bind sample");
			(void)db_finalize(s);
			return -1;
		}
	if (db_step_done(st, s, "cannot insert sample", err, errlen)) {
		(void)db_finalize(s);
		return -1;
	}
	if (db_finalize(s)) {
		db_err(st, err, errlen, "cannot insert sample");
		return -1;
	}
	return 0;
}

/* The rows of one result (its info text made by the caller). */
static int insert_result(struct store *st, struct db_stmt *ins,
			 struct db_stmt *hst,
			 int64_t run_id,
			 struct result *r, const char *info, char *err,
			 size_t errlen)
{
	size_t i;

	if (db_bind_int64(ins, 1, run_id) ||
	    db_bind_int64(ins, 2, r->seq) ||
	    db_bind_text(ins, 3, r->cfg->workload, 0) ||
	    db_bind_text(ins, 4, r->cfg->params_json, 0) ||
	    db_bind_text(ins, 5, r->metric, 0) ||
	    db_bind_text(ins, 6, r->unit, 0) ||
	    db_bind_int64(ins, 7, r->direction) ||
	    db_bind_text(ins, 8, info, 0)) {
		db_err(st, err, errlen, "cannot bind result");
		return -1;
	}
	if (db_step_id(st, ins, "cannot insert result", &r->id, err, errlen))
		return -1;
	for (i = 0; i < r->nsamples; i += SAMPLE_ROWS)
		if (insert_samples(st, r, i, r->nsamples - i < SAMPLE_ROWS ?
				   r->nsamples - i : SAMPLE_ROWS, err, errlen))
			return -1;
	for (i = 0; r->hist && i < r->hist->nbuckets; i++) {
		const struct result_bucket *b = &r->hist->buckets[i];

		if (db_bind_int64(hst, 1, r->id) ||
		    db_bind_int64(hst, 2, b->lo) ||
		    db_bind_int64(hst, 3, b->hi) ||
		    db_bind_int64(hst, 4, (int64_t)b->count)) {
			db_err(st, err, errlen, "cannot bind histogram");
			return -1;
		}
		if (db_step_done(st, hst, "cannot insert histogram bucket",
				 err, errlen))
			return -1;
	}
	return 0;
}

/* Insert res[0..n-1] of run_id; inside the caller's transaction. */
static int insert_results(struct store *st, int64_t run_id,
			  struct result *res, size_t n, char *err,
			  size_t errlen)
{
	struct db_stmt *ins = NULL, *hst = NULL;
	char *info = NULL;
	size_t i;
	int rc;

	if (db_prepare(st, "INSERT INTO results (run_id, seq, workload, "
		       "params, metric, unit, direction, info) "
		       "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id", &ins,
		       err, errlen) ||
	    db_prepare(st, "INSERT INTO histograms (result_id, lo, hi, count) "
		       "VALUES (?, ?, ?, ?)", &hst, err, errlen))
		goto fail;
	for (i = 0; i < n; i++) {
		info = result_info_text(&res[i]);
		if (!info) {
			db_set_err(err, errlen, "cannot store result '%s/%s': "
				   "out of memory", res[i].cfg->workload,
				   res[i].metric);
			goto fail;
		}
		if (insert_result(st, ins, hst, run_id, &res[i], info,
				  err, errlen))
			goto fail;
		free(info);
		info = NULL;
	}
	rc = db_finalize(ins);
	rc |= db_finalize(hst);
	if (rc) {
		db_err(st, err, errlen, "cannot insert result");
		return -1;
	}
	return 0;
fail:
	free(info);
	(void)db_finalize(ins);
	(void)db_finalize(hst);
	return -1;
}

int store_add_results(struct store *st, int64_t run_id, struct result *res,
		      size_t n, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (check_result(&res[i], err, errlen))
			return -1;
	if (n == 0)
		return 0;
	if (db_begin_write(st, err, errlen))
		return -1;
	if (insert_results(st, run_id, res, n, err, errlen) ||
	    db_commit(st, err, errlen)) {
		db_rollback(st);
		for (i = 0; i < n; i++)
			res[i].id = 0;
		return -1;
	}
	return 0;
}

int store_find_uuid(struct store *st, const char *uuid, int64_t *id,
		    char *err, size_t errlen)
{
	struct db_stmt *s;
	int rc, ret;

	*id = 0;
	if (db_prepare(st, "SELECT id FROM runs WHERE uuid = ?", &s, err,
		       errlen))
		return -1;
	if (db_bind_text(s, 1, uuid, 0)) {
		db_err(st, err, errlen, "cannot bind run id");
		(void)db_finalize(s);
		return -1;
	}
	rc = db_step(s);
	if (rc == DB_ROW) {
		*id = db_col_int64(s, 0);
		ret = 0;
	} else if (rc == DB_DONE) {
		ret = 1;
	} else {
		db_err(st, err, errlen, "cannot look a run up");
		ret = -1;
	}
	if (db_finalize(s) && ret != -1) {
		db_err(st, err, errlen, "cannot look a run up");
		ret = -1;
	}
	return ret;
}

/* Forget the ids an add that was rolled back gave run. */
static void unset_ids(struct run_data *run)
{
	size_t i;

	run->info.id = 0;
	for (i = 0; i < run->results.n; i++)
		run->results.v[i].id = 0;
}

/*
 * Add run inside the write transaction open: 0 added, 1 there already
 * (run->info.id set), 2 added meanwhile by another adder's transaction
 * (PostgreSQL: the insert waited for it; roll back and look again), -1
 * on error.
 */
static int add_run_in(struct store *st, struct run_data *run, char *err,
		      size_t errlen)
{
	struct run_info *ri = &run->info;
	int64_t existing;
	int rc;

	/* SQLite: inside the write lock, two adders cannot both add it */
	rc = store_find_uuid(st, ri->uuid, &existing, err, errlen);
	if (rc == 0) {
		ri->id = existing;
		return 1;
	}
	if (rc < 0 ||
	    insert_run_row(st, ri, ri->status[0] ? ri->status : "complete",
			   err, errlen))
		return -1;
	if (!ri->id)
		return 2;
	if (insert_env(st, ri->id, &run->env, err, errlen) ||
	    db_insert_observation(st, ri->id, run->observation, err,
				  errlen) ||
	    insert_results(st, ri->id, run->results.v, run->results.n, err,
			   errlen))
		return -1;
	return 0;
}

/* Whether run can be added: its unique id and its results.  0 or -1. */
static int check_run(const struct run_data *run, char *err, size_t errlen)
{
	size_t i;

	if (!run->info.uuid[0]) {
		db_set_err(err, errlen, "cannot add a run without its unique "
			   "id");
		return -1;
	}
	for (i = 0; i < run->results.n; i++)
		if (check_result(&run->results.v[i], err, errlen))
			return -1;
	return 0;
}

int store_add_run(struct store *st, struct run_data *run, char *err,
		  size_t errlen)
{
	struct run_info *ri = &run->info;
	int64_t existing;
	int rc;

	if (check_run(run, err, errlen) || db_begin_write(st, err, errlen))
		return -1;
	rc = add_run_in(st, run, err, errlen);
	if (rc == 0 && db_commit(st, err, errlen) == 0)
		return 0;
	db_rollback(st);
	if (rc == 1)
		return 1;
	unset_ids(run);
	if (rc != 2)
		return -1;
	rc = store_find_uuid(st, ri->uuid, &existing, err, errlen);
	if (rc == 0) {
		ri->id = existing;
		return 1;
	}
	if (rc > 0)
		db_set_err(err, errlen, "cannot add run %s to database '%s': "
			   "it was there and is gone", ri->uuid, st->path);
	return -1;
}

int store_add_runs(struct store *st, struct run_data *runs, size_t n,
		   int *status, char *err, size_t errlen)
{
	size_t i, j;
	int rc = 0;

	for (i = 0; i < n; i++)
		status[i] = -2;
	for (i = 0; i < n; i++)
		if (check_run(&runs[i], err, errlen)) {
			status[i] = -1;
			return -1;
		}
	if (db_begin_write(st, err, errlen))
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		rc = add_run_in(st, &runs[i], err, errlen);
		status[i] = rc;
		if (rc == 1)
			rc = 0;
	}
	if (rc == 0 && db_commit(st, err, errlen) == 0)
		return 0;
	db_rollback(st);
	for (j = 0; j < n; j++) {
		if (status[j] == 0 || status[j] == 2)
			unset_ids(&runs[j]);
		status[j] = -2;
	}
	if (rc < 0) {
		status[i - 1] = -1;
		return -1;	/* that run failed: it would alone too */
	}
	/* another adder's transaction, or the commit failed: one by one */
	for (i = 0; i < n; i++) {
		status[i] = store_add_run(st, &runs[i], err, errlen);
		if (status[i] < 0)
			return -1;
	}
	return 0;
}

int store_finish_run(struct store *st, int64_t run_id, const char *status,
		     int64_t finished_ns, char *err, size_t errlen)
{
	struct db_stmt *s = NULL;
	bool valid = false;
	size_t i;

	for (i = 0; status && i < store_nrun_statuses; i++)
		valid |= strcmp(status, store_run_statuses[i]) == 0;
	if (!valid) {
		db_set_err(err, errlen, "cannot finish run %lld: invalid "
			   "status '%s'", (long long)run_id,
			   status ? status : "(null)");
		return -1;
	}
	if (db_begin_write(st, err, errlen))
		return -1;
	if (db_prepare(st, "UPDATE runs SET status = ?, finished_ns = ? "
		       "WHERE id = ?", &s, err, errlen))
		goto fail;
	if (db_bind_text(s, 1, status, 0) ||
	    db_bind_int64(s, 2, finished_ns) ||
	    db_bind_int64(s, 3, run_id)) {
		db_err(st, err, errlen, "cannot bind run status");
		goto fail;
	}
	if (db_step_done(st, s, "cannot update run", err, errlen))
		goto fail;
	if (db_changes(st) != 1) {
		db_set_err(err, errlen, "cannot finish run %lld in database "
			   "'%s': no such run", (long long)run_id, st->path);
		goto fail;
	}
	if (db_finalize(s)) {
		s = NULL;
		db_err(st, err, errlen, "cannot update run");
		goto fail;
	}
	s = NULL;
	if (db_commit(st, err, errlen))
		goto fail;
	return 0;
fail:
	(void)db_finalize(s);
	db_rollback(st);
	return -1;
}

/*
 * Is the process pid of a run on this host and boot gone?  Gone when it
 * does not exist, or when the pid now belongs to something that is not
 * copyscope (pid reuse).  A process we may not signal (EPERM) exists.
 */
static bool process_gone(int64_t pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (pid <= 0 || pid > INT32_MAX)
		return false;
	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return true;
	snprintf(path, sizeof(path), "/proc/%lld/comm", (long long)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return strncmp(comm, "copyscope", 9) != 0;
}

int store_mark_abandoned(struct store *st, const char *host,
			 const char *boot_id, size_t *marked, char *err,
			 size_t errlen)
{
	struct db_stmt *s = NULL, *u = NULL;
	int64_t dead[64];
	size_t n = 0, i;
	int rc;

	*marked = 0;
	if (db_prepare(st, "SELECT id, pid, boot_id FROM runs WHERE status = "
		       "'running' AND host = ?", &s, err, errlen))
		return -1;
	if (db_bind_text(s, 1, host, 0)) {
		db_err(st, err, errlen, "cannot bind host");
		(void)db_finalize(s);
		return -1;
	}
	while ((rc = db_step(s)) == DB_ROW && n < 64) {
		const char *b = db_col_text(s, 2);
		bool other_boot = b && *b && strcmp(b, boot_id) != 0;

		if (other_boot || process_gone(db_col_int64(s, 1)))
			dead[n++] = db_col_int64(s, 0);
	}
	if (rc == DB_ERROR) {
		db_err(st, err, errlen, "cannot list running runs");
		(void)db_finalize(s);
		return -1;
	}
	if (db_finalize(s)) {
		db_err(st, err, errlen, "cannot list running runs");
		return -1;
	}
	if (n == 0)
		return 0;
	if (db_begin_write(st, err, errlen))
		return -1;
	if (db_prepare(st, "UPDATE runs SET status = 'interrupted' WHERE id = "
		       "? AND status = 'running'", &u, err, errlen))
		goto fail;
	for (i = 0; i < n; i++) {
		if (db_bind_int64(u, 1, dead[i])) {
			db_err(st, err, errlen, "cannot bind run id");
			goto fail;
		}
		if (db_step_done(st, u, "cannot mark a run", err, errlen))
			goto fail;
		*marked += (size_t)db_changes(st);
	}
	if (db_finalize(u)) {
		u = NULL;
		db_err(st, err, errlen, "cannot mark a run");
		goto fail;
	}
	u = NULL;
	if (db_commit(st, err, errlen))
		goto fail;
	return 0;
fail:
	(void)db_finalize(u);
	db_rollback(st);
	*marked = 0;
	return -1;
}
