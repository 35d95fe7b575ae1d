/*
 * history_read.c - every stored result of complete runs with its run's
 * identity and samples, in one query (see history_read.h).  The query walks
 * results by results_workload (workload, metric), samples by their
 * primary key (result_id, idx) and the kernel release by environment's
 * (run_id, key); it sorts by the run's start: linear in the rows apart
 * from that sort.  The run ids a selection names are kept in a sorted
 * array and looked up per result (log n), never per pair.  A second
 * query reads each result's info without its samples (so that the sort
 * of the first never carries it), and the results model decodes it
 * (results/codec.h, result_decode_row()) to apply the headline rule.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/codec.h"
#include "results/result.h"
#include "store/db.h"
#include "store/history_read.h"

#define HIST_SQL \
	"SELECT r.id, r.started_ns, r.uuid, r.host, r.boot_id, e.value, " \
	"x.id, x.workload, x.params, x.metric, x.unit, x.direction, " \
	"s.value FROM runs r JOIN results x ON x.run_id = r.id " \
	"JOIN samples s ON s.result_id = x.id " \
	"LEFT JOIN environment e ON e.run_id = r.id " \
	"AND e.key = 'kernel.release' WHERE r.status = 'complete'"
#define HIST_ORDER " ORDER BY r.started_ns, r.id, x.seq, s.idx"
#define INFO_SQL \
	"SELECT x.id, x.info FROM runs r JOIN results x ON x.run_id = r.id " \
	"WHERE r.status = 'complete'"

void store_history_free(struct store_history *h)
{
	size_t i;

	for (i = 0; h->r && i < h->n; i++) {
		struct store_hist_result *r = &h->r[i];

		free(r->uuid);
		free(r->host);
		free(r->boot_id);
		free(r->kernel);
		free(r->workload);
		free(r->params);
		free(r->metric);
		free(r->unit);
		free(r->samples);
	}
	free(h->r);
	h->r = NULL;
	h->n = 0;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static char *dup_col(struct db_stmt *s, int col)
{
	const char *v = db_col_text(s, col);

	return strdup(v ? v : "");
}

/* A new result from the row at s into h (capacity *cap); -1 on ENOMEM. */
static int add_result(struct store_history *h, size_t *cap,
		      struct db_stmt *s)
{
	struct store_hist_result *r;

	if (h->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		void *t = realloc(h->r, nc * sizeof(*h->r));

		if (!t)
			return -1;
		h->r = t;
		*cap = nc;
	}
	r = &h->r[h->n++];
	memset(r, 0, sizeof(*r));
	r->run_id = db_col_int64(s, 0);
	r->started_ns = db_col_int64(s, 1);
	r->uuid = dup_col(s, 2);
	r->host = dup_col(s, 3);
	r->boot_id = dup_col(s, 4);
	r->kernel = dup_col(s, 5);
	r->workload = dup_col(s, 7);
	r->params = dup_col(s, 8);
	r->metric = dup_col(s, 9);
	r->unit = dup_col(s, 10);
	r->direction = db_col_int(s, 11);
	r->result_id = db_col_int64(s, 6);
	if (!r->uuid || !r->host || !r->boot_id || !r->kernel ||
	    !r->workload || !r->params || !r->metric || !r->unit)
		return -1;
	return 0;
}

/* Append one sample to the last result (capacity *cap); -1 on ENOMEM. */
static int add_sample(struct store_history *h, size_t *cap, double v)
{
	struct store_hist_result *r = &h->r[h->n - 1];

	if (r->nsamples == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		double *t = realloc(r->samples, nc * sizeof(*t));

		if (!t)
			return -1;
		r->samples = t;
		*cap = nc;
	}
	r->samples[r->nsamples++] = v;
	r->stored = r->nsamples;
	return 0;
}

/* The rows of s into out, results of runs not in ids[] skipped. */
static int read_rows(struct store *st, struct db_stmt *s, const int64_t *ids,
		     size_t nids, struct store_history *out, char *err,
		     size_t errlen)
{
	int64_t last_result = 0, rid;
	size_t cap = 0, scap = 0;
	bool skip = false;
	int rc;

	while ((rc = db_step(s)) == DB_ROW) {
		rid = db_col_int64(s, 6);
		if (out->n == 0 || rid != last_result) {
			int64_t run = db_col_int64(s, 0);

			last_result = rid;
			skip = ids && !bsearch(&run, ids, nids, sizeof(*ids),
					       cmp_id);
			if (skip)
				continue;
			if (add_result(out, &cap, s) != 0)
				goto nomem;
			scap = 0;
		}
		if (!skip && add_sample(out, &scap, db_col_double(s, 12)) != 0)
			goto nomem;
	}
	if (rc != DB_DONE) {
		db_err(st, err, errlen, "cannot read the history");
		return -1;
	}
	return 0;
nomem:
	db_set_err(err, errlen, "cannot read the history: %s",
		   strerror(ENOMEM));
	return -1;
}

/* A result of the history, as sorted by its id. */
typedef struct store_hist_result *hist_ref;

static int cmp_result_id(const void *a, const void *b)
{
	const struct store_hist_result *x = *(const struct store_hist_result
					      *const *)a;
	const struct store_hist_result *y = *(const struct store_hist_result
					      *const *)b;

	return (x->result_id > y->result_id) - (x->result_id < y->result_id);
}

/*
 * The headline rule on r from its info text (NULL: none stored): r's
 * samples become those its headline counts.  0, or -1 with err.
 */
static int apply_headline(struct store_hist_result *r, const char *info,
			  char *err, size_t errlen)
{
	struct result_set set;
	struct result_row row = {
		.id = r->result_id, .workload = r->workload,
		.params_json = r->params, .metric = r->metric,
		.unit = r->unit, .direction = r->direction,
		.info_json = info, .nsamples = r->nsamples,
	};
	const struct result *x;
	size_t i, n = 0;

	row.samples = malloc((r->nsamples ? r->nsamples : 1) *
			     sizeof(*row.samples));
	if (!row.samples) {
		db_set_err(err, errlen, "cannot read the history: %s",
			   strerror(ENOMEM));
		return -1;
	}
	memcpy(row.samples, r->samples, r->nsamples * sizeof(*r->samples));
	result_set_init(&set);
	x = result_decode_row(&set, &row, err, errlen);
	if (!x) {
		free(row.samples);
		result_set_free(&set);
		return -1;
	}
	r->withheld = x->withheld;
	r->left_out = x->left_out;
	for (i = 0; i < r->nsamples; i++)
		if (result_value_counts(x, i))
			r->samples[n++] = r->samples[i];
	r->nsamples = n;
	result_set_free(&set);
	return 0;
}

/* The headline rule on every result of out, by a second query. */
static int read_headlines(struct store *st, const char *workload,
			  const char *metric, struct store_history *out,
			  char *err, size_t errlen)
{
	hist_ref *by_id, *hit, kp;
	struct store_hist_result key;
	struct db_stmt *s = NULL;
	char sql[512];
	size_t i;
	int rc = -1, k = 1, step;

	kp = &key;
	if (out->n == 0)
		return 0;
	by_id = malloc(out->n * sizeof(hist_ref));
	if (!by_id) {
		db_set_err(err, errlen, "cannot read the history: %s",
			   strerror(ENOMEM));
		return -1;
	}
	for (i = 0; i < out->n; i++)
		by_id[i] = &out->r[i];
	qsort(by_id, out->n, sizeof(hist_ref), cmp_result_id);
	snprintf(sql, sizeof(sql), "%s%s%s", INFO_SQL,
		 workload ? " AND x.workload = ?" : "",
		 metric ? " AND x.metric = ?" : "");
	if (db_prepare(st, sql, &s, err, errlen) != 0)
		goto out;
	if ((workload && db_bind_text(s, k++, workload, 0)) ||
	    (metric && db_bind_text(s, k++, metric, 0))) {
		db_err(st, err, errlen, "cannot bind the history's filter");
		goto out;
	}
	while ((step = db_step(s)) == DB_ROW) {
		key.result_id = db_col_int64(s, 0);
		hit = bsearch(&kp, by_id, out->n, sizeof(hist_ref),
			      cmp_result_id);
		if (hit && apply_headline(*hit, db_col_text(s, 1), err,
					  errlen) != 0)
			goto out;
	}
	if (step != DB_DONE) {
		db_err(st, err, errlen, "cannot read the history");
		goto out;
	}
	rc = 0;
out:
	db_finalize(s);
	free(by_id);
	return rc;
}

int store_history_load(struct store *st, const char *workload,
		       const char *metric, const int64_t *ids, size_t nids,
		       struct store_history *out, char *err, size_t errlen)
{
	struct db_stmt *s = NULL;
	int64_t *sorted = NULL;
	char sql[512];
	int rc = -1, k = 1;

	memset(out, 0, sizeof(*out));
	snprintf(sql, sizeof(sql), "%s%s%s%s", HIST_SQL,
		 workload ? " AND x.workload = ?" : "",
		 metric ? " AND x.metric = ?" : "", HIST_ORDER);
	if (ids) {
		sorted = malloc((nids ? nids : 1) * sizeof(*sorted));
		if (!sorted) {
			db_set_err(err, errlen, "cannot read the history: %s",
				   strerror(ENOMEM));
			return -1;
		}
		memcpy(sorted, ids, nids * sizeof(*ids));
		qsort(sorted, nids, sizeof(*sorted), cmp_id);
	}
	if (db_begin_read(st, err, errlen) != 0) {
		free(sorted);
		return -1;
	}
	if (db_prepare(st, sql, &s, err, errlen) != 0)
		goto out;
	if ((workload && db_bind_text(s, k++, workload, 0)) ||
	    (metric && db_bind_text(s, k++, metric, 0))) {
		db_err(st, err, errlen, "cannot bind the history's filter");
		goto out;
	}
	rc = read_rows(st, s, sorted, nids, out, err, errlen);
	if (rc == 0)
		rc = read_headlines(st, workload, metric, out, err, errlen);
out:
	db_finalize(s);
	if (rc == 0)
		rc = db_commit(st, err, errlen);
	else
		db_rollback(st);
	if (rc != 0)
		store_history_free(out);
	free(sorted);
	return rc;
}
