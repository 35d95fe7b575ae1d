/*
 * read.c - reading runs: the list of runs, and one run loaded whole (its
 * row, options, environment and results) from one consistent snapshot.
 * Results are decoded into the results model by results/codec.c; the
 * row decoders db_row_to_run() and db_row_to_result() are shared with
 * read_many.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/codec.h"
#include "store/db.h"

const char *db_run_columns(void)
{
	static char cols[1024];
	size_t i, len;

	if (cols[0])
		return cols;
	len = (size_t)snprintf(cols, sizeof(cols), "%s", DB_RUN_OWN_COLUMNS);
	for (i = 0; i < run_option_count && len < sizeof(cols); i++)
		len += (size_t)snprintf(cols + len, sizeof(cols) - len,
					", r.%s", run_option_fields[i].name);
	return cols;
}

int db_prepare_runs(struct store *st, const char *tail, struct db_stmt **s,
		    char *err, size_t errlen)
{
	char *sql;
	int rc;

	*s = NULL;
	if (asprintf(&sql, "SELECT %s FROM runs r %s", db_run_columns(),
		     tail) < 0) {
		db_set_err(err, errlen, "cannot read runs: %s",
			   strerror(ENOMEM));
		return -1;
	}
	rc = db_prepare(st, sql, s, err, errlen);
	free(sql);
	return rc;
}

/* The run's options from the columns after its own. */
static void row_options(struct db_stmt *s, struct run_info *run)
{
	struct run_option_value v;
	char ignored[128];
	size_t i;
	int col;

	run->have_options = !db_col_null(s, DB_RUN_OWN_NCOLUMNS);
	if (!run->have_options)
		return;
	for (i = 0; i < run_option_count; i++) {
		const struct run_option_field *f = &run_option_fields[i];

		col = DB_RUN_OWN_NCOLUMNS + (int)i;
		memset(&v, 0, sizeof(v));
		if (run_option_text_column(f)) {
			const char *t = db_col_text(s, col);

			v.type = t ? RUN_OPTION_STR : RUN_OPTION_NULL;
			db_copy_str(v.text, sizeof(v.text), t);
		} else {
			/* NULL where a run was stored before the column */
			v.type = RUN_OPTION_INT;
			v.i = db_col_int64(s, col);
		}
		/* what a store holds is read as it is, never refused */
		(void)run_option_put(&run->opts, f, &v, ignored,
				     sizeof(ignored));
	}
}

int db_row_to_run(struct db_stmt *s, struct run_info *run)
{
	memset(run, 0, sizeof(*run));
	run->id = db_col_int64(s, 0);
	run->started_ns = db_col_int64(s, 1);
	run->finished_ns = db_col_int64(s, 2);	/* NULL -> 0 */
	db_copy_str(run->tag, sizeof(run->tag), db_col_text(s, 3));
	db_copy_str(run->host, sizeof(run->host), db_col_text(s, 4));
	db_copy_str(run->boot_id, sizeof(run->boot_id), db_col_text(s, 5));
	db_copy_str(run->tool_version, sizeof(run->tool_version),
		    db_col_text(s, 6));
	db_copy_str(run->build_flavour, sizeof(run->build_flavour),
		    db_col_text(s, 7));
	db_copy_str(run->status, sizeof(run->status), db_col_text(s, 9));
	run->nresults = db_col_int(s, 10);
	db_copy_str(run->kernel, sizeof(run->kernel), db_col_text(s, 11));
	run->pid = db_col_int64(s, 12);
	db_copy_str(run->uuid, sizeof(run->uuid), db_col_text(s, 13));
	db_copy_str(run->group_id, sizeof(run->group_id), db_col_text(s, 14));
	row_options(s, run);
	return db_col_dup(s, 8, &run->cmdline);
}

int store_list_runs(struct store *st, struct run_info **runs, size_t *n,
		    char *err, size_t errlen)
{
	struct run_info *v = NULL, *tmp;
	size_t cnt = 0, cap = 0;
	struct db_stmt *s;
	int rc;

	*runs = NULL;
	*n = 0;
	if (db_prepare_runs(st, "ORDER BY r.started_ns, r.id", &s, err,
			    errlen))
		return -1;
	while ((rc = db_step(s)) == DB_ROW) {
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			tmp = realloc(v, cap * sizeof(*v));
			if (!tmp)
				goto nomem;
			v = tmp;
		}
		if (db_row_to_run(s, &v[cnt])) {
			free(v[cnt].cmdline);
			goto nomem;
		}
		cnt++;
	}
	if (rc != DB_DONE) {
		db_err(st, err, errlen, "cannot list runs");
		goto fail;
	}
	if (db_finalize(s)) {
		s = NULL;
		db_err(st, err, errlen, "cannot list runs");
		goto fail;
	}
	*runs = v;
	*n = cnt;
	return 0;
nomem:
	db_set_err(err, errlen, "cannot list runs: %s", strerror(ENOMEM));
fail:
	(void)db_finalize(s);
	store_free_runs(v, cnt);
	return -1;
}

void store_free_runs(struct run_info *runs, size_t n)
{
	size_t i;

	if (!runs)
		return;
	for (i = 0; i < n; i++)
		free(runs[i].cmdline);
	free(runs);
}

/* Samples and histogram buckets of one result into row. */
static int load_series(struct store *st, struct db_stmt *smp,
		       struct db_stmt *hst, struct result_row *row, char *err,
		       size_t errlen)
{
	size_t cap = 0;
	void *tmp;
	int rc;

	if (db_bind_int64(smp, 1, row->id) ||
	    db_bind_int64(hst, 1, row->id)) {
		db_err(st, err, errlen, "cannot bind result id");
		return -1;
	}
	while ((rc = db_step(smp)) == DB_ROW) {
		if (row->nsamples == cap) {
			cap = cap ? cap * 2 : 64;
			tmp = realloc(row->samples, cap * sizeof(double));
			if (!tmp)
				goto nomem;
			row->samples = tmp;
		}
		row->samples[row->nsamples++] = db_col_double(smp, 0);
	}
	if (rc != DB_DONE || db_reset(smp)) {
		db_err(st, err, errlen, "cannot load samples");
		return -1;
	}
	cap = 0;
	while ((rc = db_step(hst)) == DB_ROW) {
		struct result_bucket *b;

		if (row->nbuckets == cap) {
			cap = cap ? cap * 2 : 64;
			tmp = realloc(row->buckets, cap * sizeof(*b));
			if (!tmp)
				goto nomem;
			row->buckets = tmp;
		}
		b = &row->buckets[row->nbuckets++];
		b->lo = db_col_int64(hst, 0);
		b->hi = db_col_int64(hst, 1);
		b->count = (uint64_t)db_col_int64(hst, 2);
	}
	if (rc != DB_DONE || db_reset(hst)) {
		db_err(st, err, errlen, "cannot load histogram");
		return -1;
	}
	return 0;
nomem:
	(void)db_reset(smp);
	(void)db_reset(hst);
	db_set_err(err, errlen, "cannot load result: %s", strerror(ENOMEM));
	return -1;
}

int db_row_to_result(struct db_stmt *s, int first, struct result_row *row)
{
	row->id = db_col_int64(s, first);
	row->seq = db_col_int(s, first + 1);
	row->workload = db_col_text(s, first + 2);
	row->params_json = db_col_text(s, first + 3);
	row->metric = db_col_text(s, first + 4);
	row->unit = db_col_text(s, first + 5);
	row->direction = db_col_int(s, first + 6);
	row->info_json = db_col_text(s, first + 7);
	return row->workload && row->params_json && row->metric &&
	       row->unit ? 0 : -1;
}

/* The results of run_id into set; -1 on error. */
static int load_results(struct store *st, int64_t run_id,
			struct result_set *set, char *err, size_t errlen)
{
	struct db_stmt *s = NULL, *smp = NULL, *hst = NULL;
	struct result_row row;
	int rc;

	memset(&row, 0, sizeof(row));
	if (db_prepare(st, "SELECT " DB_RESULT_COLUMNS " FROM results "
		       "WHERE run_id = ? ORDER BY seq, id", &s, err, errlen) ||
	    db_prepare(st, "SELECT value FROM samples WHERE result_id = ? "
		       "ORDER BY idx", &smp, err, errlen) ||
	    db_prepare(st, "SELECT lo, hi, count FROM histograms "
		       "WHERE result_id = ? ORDER BY lo", &hst, err, errlen))
		goto fail;
	if (db_bind_int64(s, 1, run_id)) {
		db_err(st, err, errlen, "cannot bind run id");
		goto fail;
	}
	while ((rc = db_step(s)) == DB_ROW) {
		memset(&row, 0, sizeof(row));
		if (db_row_to_result(s, 0, &row)) {
			db_set_err(err, errlen, "cannot load results: %s",
				   strerror(ENOMEM));
			goto fail;
		}
		if (load_series(st, smp, hst, &row, err, errlen) ||
		    !result_decode_row(set, &row, err, errlen))
			goto fail;
		free(row.buckets);
		row.buckets = NULL;
	}
	if (rc != DB_DONE) {
		db_err(st, err, errlen, "cannot load results");
		goto fail;
	}
	rc = db_finalize(s);
	rc |= db_finalize(smp);
	rc |= db_finalize(hst);
	s = smp = hst = NULL;
	if (rc) {
		db_err(st, err, errlen, "cannot load results");
		goto fail;
	}
	return 0;
fail:
	free(row.samples);
	free(row.buckets);
	(void)db_finalize(s);
	(void)db_finalize(smp);
	(void)db_finalize(hst);
	return -1;
}

static int load_env(struct store *st, int64_t run_id, struct env *env,
		    char *err, size_t errlen)
{
	struct db_stmt *s;
	int rc;

	if (db_prepare(st, "SELECT key, value FROM environment "
		       "WHERE run_id = ? ORDER BY seq, key", &s, err, errlen))
		return -1;
	if (db_bind_int64(s, 1, run_id)) {
		db_err(st, err, errlen, "cannot bind run id");
		goto fail;
	}
	while ((rc = db_step(s)) == DB_ROW) {
		const char *k = db_col_text(s, 0), *v = db_col_text(s, 1);

		if (!k || !v || env_set(env, k, v)) {
			db_set_err(err, errlen, "cannot load environment: %s",
				   strerror(ENOMEM));
			goto fail;
		}
	}
	if (rc != DB_DONE) {
		db_err(st, err, errlen, "cannot load environment");
		goto fail;
	}
	if (db_finalize(s)) {
		db_err(st, err, errlen, "cannot load environment");
		return -1;
	}
	return 0;
fail:
	(void)db_finalize(s);
	return -1;
}

/* The run's row into info: 0, 1 (no such run) or -1. */
static int load_info(struct store *st, int64_t run_id, struct run_info *info,
		     char *err, size_t errlen)
{
	struct db_stmt *s;
	int rc, ret = -1;

	if (db_prepare_runs(st, "WHERE r.id = ?", &s, err, errlen))
		return -1;
	if (db_bind_int64(s, 1, run_id)) {
		db_err(st, err, errlen, "cannot bind run id");
		(void)db_finalize(s);
		return -1;
	}
	rc = db_step(s);
	if (rc == DB_DONE) {
		db_set_err(err, errlen, "no run %lld in database '%s'",
			   (long long)run_id, st->path);
		ret = 1;
	} else if (rc != DB_ROW) {
		db_err(st, err, errlen, "cannot load run");
	} else if (db_row_to_run(s, info)) {
		db_set_err(err, errlen, "cannot load run: %s",
			   strerror(ENOMEM));
	} else {
		ret = 0;
	}
	if (db_finalize(s) && ret == 0) {
		db_err(st, err, errlen, "cannot load run");
		ret = -1;
	}
	return ret;
}

int store_load_run(struct store *st, int64_t run_id, struct run_data *out,
		   char *err, size_t errlen)
{
	int ret;

	memset(out, 0, sizeof(*out));
	result_set_init(&out->results);
	/* one read transaction: a consistent snapshot */
	if (db_begin_read(st, err, errlen))
		return -1;
	ret = load_info(st, run_id, &out->info, err, errlen);
	if (ret == 0 && (load_env(st, run_id, &out->env, err, errlen) ||
			 load_results(st, run_id, &out->results, err,
				      errlen) ||
			 db_load_observation(st, run_id, &out->observation,
					     err, errlen)))
		ret = -1;
	if (ret == 0 && db_exec(st, "COMMIT", err, errlen))
		ret = -1;
	if (ret != 0) {
		db_rollback(st);
		run_data_free(out);
	}
	return ret;
}
