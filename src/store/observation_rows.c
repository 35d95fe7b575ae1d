/*
 * observation_rows.c - the observations table (schema version 5): what
 * `copyscope observe` saw, as its JSON text, beside the run row that
 * holds its time, host and environment.
 */
#include <stdlib.h>

#include "store/db.h"
#include "store/store.h"

int db_insert_observation(struct store *st, int64_t run_id,
			  const char *json, char *err, size_t errlen)
{
	struct db_stmt *s = NULL;
	int rc;

	if (!json)
		return 0;
	if (db_prepare(st, "INSERT INTO observations (run_id, data) "
		       "VALUES (?, ?)", &s, err, errlen))
		return -1;
	if (db_bind_int64(s, 1, run_id) || db_bind_text(s, 2, json, 0)) {
		db_err(st, err, errlen, "cannot bind the observation");
		(void)db_finalize(s);
		return -1;
	}
	rc = db_step_done(st, s, "cannot insert the observation", err,
			  errlen);
	if (db_finalize(s) && !rc) {
		db_err(st, err, errlen, "cannot insert the observation");
		rc = -1;
	}
	return rc;
}

int db_load_observation(struct store *st, int64_t run_id, char **json,
			char *err, size_t errlen)
{
	struct db_stmt *s = NULL;
	int rc = 0, step;

	*json = NULL;
	if (db_prepare(st, "SELECT data FROM observations WHERE run_id = ?",
		       &s, err, errlen))
		return -1;
	if (db_bind_int64(s, 1, run_id)) {
		db_err(st, err, errlen, "cannot bind the run id");
		(void)db_finalize(s);
		return -1;
	}
	step = db_step(s);
	if (step > 0 && db_col_dup(s, 0, json) < 0) {
		db_set_err(err, errlen, "cannot load the observation of run "
			   "%lld: out of memory", (long long)run_id);
		rc = -1;
	} else if (step < 0) {
		db_err(st, err, errlen, "cannot load the observation");
		rc = -1;
	}
	(void)db_finalize(s);
	return rc;
}

int store_add_observation(struct store *st, int64_t run_id,
			  const char *json, char *err, size_t errlen)
{
	if (db_begin_write(st, err, errlen))
		return -1;
	if (db_insert_observation(st, run_id, json, err, errlen) ||
	    db_commit(st, err, errlen)) {
		db_rollback(st);
		return -1;
	}
	return 0;
}
