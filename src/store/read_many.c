/*
 * read_many.c - many runs loaded whole at once (store_load_runs): a few
 * queries per chunk of runs, one for each table, with the rows put in
 * their runs by id, instead of several queries for every run and every
 * result.  What a comparison of hundreds of runs a side reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/codec.h"
#include "store/db.h"

/*
 * Runs per query: the id list is written into the SQL text (integers
 * only), which SQLite keeps under its 1,000,000-byte statement limit.
 */
#define MANY_CHUNK 500

/* A run id and where its run goes in the caller's array. */
struct run_pos {
	int64_t id;
	size_t pos;
};

/* One sample or bucket and the result it belongs to. */
struct series_row {
	int64_t result_id;
	double value;			/* samples */
	struct result_bucket b;		/* histograms */
};

/* What one chunk of runs is loaded with. */
struct chunk {
	struct store *st;
	struct run_data *out;
	struct run_pos *pos;		/* sorted by id */
	size_t n;
	char *list;			/* "id,id,..." */
	struct series_row *smp, *hst;	/* sorted by result id */
	size_t nsmp, nhst, smp_cap, hst_cap;
	char *err;
	size_t errlen;
};

static int pos_by_id(const void *a, const void *b)
{
	const struct run_pos *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Where run id goes; NULL if it is not one of the chunk's. */
static struct run_data *run_of(const struct chunk *c, int64_t id)
{
	struct run_pos key = { .id = id }, *p;

	p = bsearch(&key, c->pos, c->n, sizeof(*p), pos_by_id);
	return p ? &c->out[p->pos] : NULL;
}

/* The first of rows[0..n-1] (sorted by result id) of result id. */
static size_t series_find(const struct series_row *rows, size_t n,
			  int64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rows[mid].result_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int nomem(struct chunk *c, const char *what)
{
	db_set_err(c->err, c->errlen, "cannot load %s: %s", what,
		   strerror(ENOMEM));
	return -1;
}

/* Prepare head || "(" list ")" || tail. */
static int prepare_in(struct chunk *c, const char *head, const char *tail,
		      struct db_stmt **s)
{
	char *sql;
	int rc;

	*s = NULL;
	if (asprintf(&sql, "%s(%s)%s", head, c->list, tail) < 0)
		return nomem(c, "runs");
	rc = db_prepare(c->st, sql, s, c->err, c->errlen);
	free(sql);
	return rc;
}

/* Step s to its end: each row to row_fn; 0 or -1. */
static int each_row(struct chunk *c, struct db_stmt *s, const char *what,
		    int (*row_fn)(struct chunk *c, struct db_stmt *s))
{
	int rc;

	while ((rc = db_step(s)) == DB_ROW)
		if (row_fn(c, s)) {
			(void)db_finalize(s);
			return -1;
		}
	if (rc != DB_DONE) {
		db_err(c->st, c->err, c->errlen, what);
		(void)db_finalize(s);
		return -1;
	}
	if (db_finalize(s)) {
		db_err(c->st, c->err, c->errlen, what);
		return -1;
	}
	return 0;
}

static int info_row(struct chunk *c, struct db_stmt *s)
{
	struct run_data *r = run_of(c, db_col_int64(s, 0));

	if (!r)
		return 0;
	return db_row_to_run(s, &r->info) ? nomem(c, "run") : 0;
}

static int env_row(struct chunk *c, struct db_stmt *s)
{
	struct run_data *r = run_of(c, db_col_int64(s, 0));
	const char *k = db_col_text(s, 1), *v = db_col_text(s, 2);

	if (!r)
		return 0;
	if (!k || !v || env_set(&r->env, k, v))
		return nomem(c, "environment");
	return 0;
}

/* Append a row to *rows (capacity *cap); NULL on ENOMEM. */
static struct series_row *series_add(struct series_row **rows, size_t *n,
				     size_t *cap)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		struct series_row *v = realloc(*rows, nc * sizeof(*v));

		if (!v)
			return NULL;
		*rows = v;
		*cap = nc;
	}
	memset(&(*rows)[*n], 0, sizeof(**rows));
	return &(*rows)[(*n)++];
}

static int sample_row(struct chunk *c, struct db_stmt *s)
{
	struct series_row *r = series_add(&c->smp, &c->nsmp, &c->smp_cap);

	if (!r)
		return nomem(c, "samples");
	r->result_id = db_col_int64(s, 0);
	r->value = db_col_double(s, 1);
	return 0;
}

static int bucket_row(struct chunk *c, struct db_stmt *s)
{
	struct series_row *r = series_add(&c->hst, &c->nhst, &c->hst_cap);

	if (!r)
		return nomem(c, "histogram");
	r->result_id = db_col_int64(s, 0);
	r->b.lo = db_col_int64(s, 1);
	r->b.hi = db_col_int64(s, 2);
	r->b.count = (uint64_t)db_col_int64(s, 3);
	return 0;
}

/* The samples and buckets of row->id, copied into row. */
static int row_series(struct chunk *c, struct result_row *row)
{
	size_t i = series_find(c->smp, c->nsmp, row->id), k;

	for (k = i; k < c->nsmp && c->smp[k].result_id == row->id; k++)
		;
	row->nsamples = k - i;
	row->samples = malloc((row->nsamples ? row->nsamples : 1) *
			      sizeof(double));
	if (!row->samples)
		return nomem(c, "samples");
	for (k = 0; k < row->nsamples; k++)
		row->samples[k] = c->smp[i + k].value;
	i = series_find(c->hst, c->nhst, row->id);
	for (k = i; k < c->nhst && c->hst[k].result_id == row->id; k++)
		;
	row->nbuckets = k - i;
	if (!row->nbuckets)
		return 0;
	row->buckets = malloc(row->nbuckets * sizeof(*row->buckets));
	if (!row->buckets)
		return nomem(c, "histogram");
	for (k = 0; k < row->nbuckets; k++)
		row->buckets[k] = c->hst[i + k].b;
	return 0;
}

static int result_row(struct chunk *c, struct db_stmt *s)
{
	struct run_data *r = run_of(c, db_col_int64(s, 0));
	struct result_row row;

	if (!r)
		return 0;
	memset(&row, 0, sizeof(row));
	if (db_row_to_result(s, 1, &row))	/* after run_id */
		return nomem(c, "results");
	if (row_series(c, &row) == 0 &&
	    result_decode_row(&r->results, &row, c->err, c->errlen))
		return 0;
	free(row.samples);
	free(row.buckets);
	return -1;
}

/* The runs of one chunk: 0, 1 (a run is not there) or -1. */
static int load_chunk(struct chunk *c)
{
	struct db_stmt *s;
	char head[1200];
	size_t i;

	snprintf(head, sizeof(head), "SELECT %s FROM runs r WHERE r.id IN ",
		 db_run_columns());
	if (prepare_in(c, head, "", &s) ||
	    each_row(c, s, "cannot load runs", info_row))
		return -1;
	for (i = 0; i < c->n; i++)
		if (c->out[c->pos[i].pos].info.id != c->pos[i].id) {
			db_set_err(c->err, c->errlen, "no run %lld in "
				   "database '%s'", (long long)c->pos[i].id,
				   c->st->path);
			return 1;
		}
	if (prepare_in(c, "SELECT run_id, key, value FROM environment "
		       "WHERE run_id IN ", " ORDER BY run_id, seq, key", &s) ||
	    each_row(c, s, "cannot load environment", env_row))
		return -1;
	if (prepare_in(c, "SELECT s.result_id, s.value FROM samples s "
		       "JOIN results r ON r.id = s.result_id "
		       "WHERE r.run_id IN ", " ORDER BY s.result_id, s.idx",
		       &s) ||
	    each_row(c, s, "cannot load samples", sample_row))
		return -1;
	if (prepare_in(c, "SELECT h.result_id, h.lo, h.hi, h.count "
		       "FROM histograms h JOIN results r "
		       "ON r.id = h.result_id WHERE r.run_id IN ",
		       " ORDER BY h.result_id, h.lo", &s) ||
	    each_row(c, s, "cannot load histogram", bucket_row))
		return -1;
	if (prepare_in(c, "SELECT run_id, " DB_RESULT_COLUMNS " FROM results "
		       "WHERE run_id IN ",
		       " ORDER BY run_id, seq, id", &s) ||
	    each_row(c, s, "cannot load results", result_row))
		return -1;
	return 0;
}

/* Chunk c over ids[0..n-1] going to out[0..n-1]; 0, or -1 (ENOMEM). */
static int chunk_init(struct chunk *c, const int64_t *ids, size_t n)
{
	size_t i, used = 0, len = n * 21 + 1;

	c->pos = calloc(n ? n : 1, sizeof(*c->pos));
	c->list = malloc(len);
	if (!c->pos || !c->list)
		return nomem(c, "runs");
	for (i = 0; i < n; i++) {
		c->pos[i] = (struct run_pos) { .id = ids[i], .pos = i };
		used += (size_t)snprintf(c->list + used, len - used, "%s%lld",
					 i ? "," : "", (long long)ids[i]);
	}
	c->n = n;
	qsort(c->pos, n, sizeof(*c->pos), pos_by_id);
	for (i = 1; i < n; i++)
		if (c->pos[i].id == c->pos[i - 1].id) {
			db_set_err(c->err, c->errlen, "cannot load runs: run "
				   "%lld named twice", (long long)c->pos[i].id);
			return -1;
		}
	return 0;
}

static void chunk_free(struct chunk *c)
{
	free(c->pos);
	free(c->list);
	free(c->smp);
	free(c->hst);
	c->pos = NULL;
	c->list = NULL;
	c->smp = c->hst = NULL;
	c->nsmp = c->nhst = c->smp_cap = c->hst_cap = 0;
}

int store_load_runs(struct store *st, const int64_t *ids, size_t n,
		    struct run_data *out, char *err, size_t errlen)
{
	struct chunk c = { .st = st, .err = err, .errlen = errlen };
	size_t at, i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		result_set_init(&out[i].results);
	}
	/* one read transaction: a consistent snapshot */
	if (db_begin_read(st, err, errlen))
		return -1;
	for (at = 0; at < n && ret == 0; at += MANY_CHUNK) {
		size_t m = n - at < MANY_CHUNK ? n - at : MANY_CHUNK;

		c.out = out + at;
		ret = chunk_init(&c, ids + at, m);
		if (ret == 0)
			ret = load_chunk(&c);
		chunk_free(&c);
	}
	/* an observation is a run without results (store/observation_rows.c) */
	for (i = 0; i < n && ret == 0; i++)
		if (!out[i].results.n)
			ret = db_load_observation(st, ids[i],
						  &out[i].observation, err,
						  errlen);
	if (ret == 0 && db_exec(st, "COMMIT", err, errlen))
		ret = -1;
	if (ret != 0) {
		db_rollback(st);
		for (i = 0; i < n; i++)
			run_data_free(&out[i]);
	}
	return ret;
}
