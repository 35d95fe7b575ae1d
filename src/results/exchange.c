/*
 * exchange.c - the export file of whole runs, written and read (see
 * exchange.h and docs/export-format.md).  Reading checks every line
 * before anything is handed back, so that import stores nothing of a
 * file that is malformed anywhere.
 */
#include "results/exchange.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "results/codec.h"
#include "results/exchange_check.h"
#include "results/observation.h"

#ifndef COPYSCOPE_VERSION
#define COPYSCOPE_VERSION "unknown"
#endif

/* ---- writing ---- */

static const char *dir_name(int d)
{
	return d > 0 ? "higher" : d < 0 ? "lower" : "info";
}

/* One line: o (stolen) as compact ASCII JSON and a newline. */
static int put_line(FILE *out, json_t *o, char *err, size_t errlen)
{
	char *s = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
	int rc = 0;

	json_decref(o);
	if (!s) {
		snprintf(err, errlen, "cannot write the export: %s",
			 strerror(ENOMEM));
		return -1;
	}
	if (fputs(s, out) == EOF || fputc('\n', out) == EOF) {
		snprintf(err, errlen, "cannot write the export: %s",
			 strerror(errno));
		rc = -1;
	}
	free(s);
	return rc;
}

static json_t *run_line(const struct run_data *run)
{
	json_t *hdr = codec_run_json(&run->info), *env = json_object(), *o;
	size_t i;

	if (!hdr || !env) {
		json_decref(hdr);
		json_decref(env);
		return NULL;
	}
	/* a run id belongs to one database; the uuid names the run */
	json_object_del(hdr, "id");
	for (i = 0; i < run->env.n; i++)
		json_object_set_new(env, run->env.items[i].key,
				    codec_json_text(run->env.items[i].value));
	o = json_pack("{s:s, s:o, s:o, s:I}", "type", "run", "run", hdr,
		      "environment", env, "results",
		      (json_int_t)run->results.n);
	/* an observation (copyscope observe): what it saw, as stored */
	if (o && run->observation &&
	    json_object_set_new(o, "observation",
				json_loads(run->observation, 0, NULL))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *result_line(const struct run_data *run, const struct result *r,
			   char *err, size_t errlen)
{
	json_t *params = json_loads(r->cfg->params_json, 0, NULL);
	json_t *samples = json_array(), *hist = json_array();
	size_t i;

	for (i = 0; samples && i < r->nsamples; i++) {
		json_t *v = json_real(r->samples[i]);

		if (!v) {
			snprintf(err, errlen, "run %lld, %s %s: sample %zu is "
				 "not a finite number", (long long)run->info.id,
				 r->cfg->workload, r->metric, i);
			goto fail;
		}
		json_array_append_new(samples, v);
	}
	for (i = 0; hist && r->hist && i < r->hist->nbuckets; i++) {
		const struct result_bucket *b = &r->hist->buckets[i];

		json_array_append_new(hist, json_pack("[I, I, I]",
			(json_int_t)b->lo, (json_int_t)b->hi,
			(json_int_t)b->count));
	}
	if (!json_is_object(params)) {
		snprintf(err, errlen, "run %lld, %s %s: its parameters are not "
			 "a JSON object", (long long)run->info.id,
			 r->cfg->workload, r->metric);
		goto fail;
	}
	return json_pack("{s:s, s:o, s:i, s:o, s:o, s:o, s:o, s:s, s:o, s:o, "
			 "s:o}", "type", "result",
			 "run", codec_json_text(run->info.uuid), "seq", r->seq,
			 "workload", codec_json_text(r->cfg->workload),
			 "params", params, "metric", codec_json_text(r->metric),
			 "unit", codec_json_text(r->unit),
			 "direction", dir_name(r->direction),
			 "info", result_info_json(r), "samples", samples,
			 "histogram", hist);
fail:
	json_decref(params);
	json_decref(samples);
	json_decref(hist);
	return NULL;
}

int exchange_write(FILE *out, const struct run_data *runs, size_t n,
		   char *err, size_t errlen)
{
	size_t i, k, total = 0;

	err[0] = '\0';
	if (put_line(out, json_pack("{s:s, s:i, s:s}", "format",
				    EXCHANGE_FORMAT, "schema_version",
				    EXCHANGE_SCHEMA_VERSION, "copyscope",
				    COPYSCOPE_VERSION), err, errlen))
		return -1;
	for (i = 0; i < n; i++) {
		if (put_line(out, run_line(&runs[i]), err, errlen))
			return -1;
		for (k = 0; k < runs[i].results.n; k++) {
			json_t *o = result_line(&runs[i],
						&runs[i].results.v[k], err,
						errlen);

			if (!o && err[0])
				return -1;
			if (put_line(out, o, err, errlen))
				return -1;
		}
		total += runs[i].results.n;
	}
	return put_line(out, json_pack("{s:s, s:I, s:I}", "type", "end",
				       "runs", (json_int_t)n, "results",
				       (json_int_t)total), err, errlen);
}

/* ---- reading ---- */

struct reader {
	const char *name;
	size_t line;
	char *err;
	size_t errlen;
	bool nomem;
	struct run_data *runs;
	size_t nruns, cap;
	size_t expect;			/* results still due to the last run */
	size_t run_line;		/* the last run's line */
	size_t total;			/* results read */
	json_t *uuids;			/* the runs' uuids so far, as keys */
	char what[96];			/* "run UUID, seq S: " or "" */
	bool ended;
};

static int bad(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "NAME:LINE: message"; returns -1. */
static int bad(struct reader *rd, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	used = (size_t)snprintf(rd->err, rd->errlen, "%s:%zu: %s", rd->name,
				rd->line, rd->what);
	if (used >= rd->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(rd->err + used, rd->errlen - used, fmt, ap);
	va_end(ap);
	return -1;
}

static int nomem(struct reader *rd)
{
	rd->nomem = true;
	return bad(rd, "%s", strerror(ENOMEM));
}

/* Every member of o is one of the NULL-ended keys. */
static int only_keys(struct reader *rd, json_t *o, const char *what,
		     const char *const *keys)
{
	void *it;

	for (it = json_object_iter(o); it; it = json_object_iter_next(o, it)) {
		const char *k = json_object_iter_key(it);
		const char *const *p;

		for (p = keys; *p && strcmp(*p, k) != 0; p++)
			;
		if (!*p)
			return bad(rd, "%s: unknown member '%s' (this copyscope "
				   "reads export schema %d)", what, k,
				   EXCHANGE_SCHEMA_VERSION);
	}
	for (; *keys; keys++)
		if (!json_object_get(o, *keys))
			return bad(rd, "%s: no '%s'", what, *keys);
	return 0;
}

/* A string member without NUL bytes, or NULL after bad(). */
static const char *text_of(struct reader *rd, json_t *o, const char *key,
			   bool nonempty)
{
	json_t *v = json_object_get(o, key);
	const char *s = json_string_value(v);

	if (!s || strlen(s) != json_string_length(v) || (nonempty && !*s)) {
		bad(rd, "'%s' is not a%s string", key,
		    nonempty ? " non-empty" : "");
		return NULL;
	}
	return s;
}

static int read_header(struct reader *rd, json_t *o)
{
	static const char *const keys[] = { "format", "schema_version",
		"copyscope", NULL };
	const char *f = json_string_value(json_object_get(o, "format"));
	json_t *v = json_object_get(o, "schema_version");

	if (!f || strcmp(f, EXCHANGE_FORMAT) != 0)
		return bad(rd, "not a copyscope export (the first line must "
			   "say \"format\":\"%s\")", EXCHANGE_FORMAT);
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return bad(rd, "'schema_version' is not a positive integer");
	if (json_integer_value(v) > EXCHANGE_SCHEMA_VERSION)
		return bad(rd, "export schema %lld is newer than this "
			   "copyscope reads (%d): import it with a newer "
			   "copyscope", (long long)json_integer_value(v),
			   EXCHANGE_SCHEMA_VERSION);
	if (only_keys(rd, o, "the header", keys) ||
	    !text_of(rd, o, "copyscope", false))
		return -1;
	return 0;
}

static bool is_uuid(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return i == 32;
}

/* An observation's member: checked, kept as compact text. */
static int read_observation(struct reader *rd, const json_t *j,
			    struct run_data *run)
{
	struct observation obs;
	char msg[256];

	if (observation_from_json(j, &obs, msg, sizeof(msg)))
		return bad(rd, "%s", msg);
	observation_free(&obs);
	run->observation = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	return run->observation ? 0 : nomem(rd);
}

static int read_run(struct reader *rd, json_t *o)
{
	static const char *const keys[] = { "type", "run", "environment",
		"results", NULL };
	static const char *const hdr_keys[] = { "uuid", "group", "tag",
		"host", "boot_id", "started_ns", "finished_ns", "status",
		"tool_version", "build_flavour", "cmdline", "options", NULL };
	json_t *env = json_object_get(o, "environment");
	json_t *nres = json_object_get(o, "results");
	json_t *obs = json_object_get(o, "observation");
	struct run_data *run;
	char msg[256];
	void *it;
	int known;

	if (rd->expect)
		return bad(rd, "a run line where %zu more result line%s of "
			   "the run before %s due", rd->expect,
			   rd->expect == 1 ? "" : "s",
			   rd->expect == 1 ? "was" : "were");
	/* observation: only an observation's run line has it */
	json_incref(obs);
	json_object_del(o, "observation");
	known = only_keys(rd, o, "run line", keys);
	if (obs)
		json_object_set_new(o, "observation", obs);
	if (known ||
	    (json_is_object(json_object_get(o, "run")) &&
	     only_keys(rd, json_object_get(o, "run"), "'run'", hdr_keys)))
		return -1;
	if (rd->nruns == rd->cap) {
		size_t cap = rd->cap ? rd->cap * 2 : 8;

		run = realloc(rd->runs, cap * sizeof(*run));
		if (!run)
			return nomem(rd);
		rd->runs = run;
		rd->cap = cap;
	}
	run = &rd->runs[rd->nruns++];
	memset(run, 0, sizeof(*run));
	result_set_init(&run->results);
	if (codec_run_decode(json_object_get(o, "run"), &run->info, msg,
			     sizeof(msg)))
		return bad(rd, "run: %s", msg);
	if (!is_uuid(run->info.uuid))
		return bad(rd, "run: 'uuid' is not 32 hex digits");
	if (strcmp(run->info.status, "complete") != 0 &&
	    strcmp(run->info.status, "interrupted") != 0 &&
	    strcmp(run->info.status, "failed") != 0)
		return bad(rd, "run: status '%s' is not complete, interrupted "
			   "or failed", run->info.status);
	if (exchange_check_run(&run->info, msg, sizeof(msg)))
		return bad(rd, "run %s: %s", run->info.uuid, msg);
	/* a hash set: a file of many runs is not checked in n^2 */
	if (json_object_get(rd->uuids, run->info.uuid))
		return bad(rd, "run %s is in the file twice", run->info.uuid);
	if (json_object_set_new(rd->uuids, run->info.uuid, json_true()))
		return nomem(rd);
	if (!json_is_object(env))
		return bad(rd, "run %s: 'environment' is not an object",
			   run->info.uuid);
	if (json_object_size(env) > EXCHANGE_MAX_ENV_KEYS)
		return bad(rd, "run %s: 'environment' has %zu keys, more than "
			   "the %d a run may have", run->info.uuid,
			   json_object_size(env), EXCHANGE_MAX_ENV_KEYS);
	for (it = json_object_iter(env); it;
	     it = json_object_iter_next(env, it)) {
		json_t *v = json_object_iter_value(it);
		const char *k = json_object_iter_key(it);

		if (!*k || strlen(k) != json_object_iter_key_len(it))
			return bad(rd, "run %s: an environment key is empty "
				   "or holds a NUL", run->info.uuid);
		if (!json_is_string(v) ||
		    strlen(json_string_value(v)) != json_string_length(v))
			return bad(rd, "run %s: environment '%s' is not a "
				   "string", run->info.uuid, k);
		if (env_set(&run->env, k, json_string_value(v)))
			return nomem(rd);
	}
	if (!json_is_integer(nres) || json_integer_value(nres) < 0 ||
	    json_integer_value(nres) > EXCHANGE_MAX_RESULTS)
		return bad(rd, "run %s: 'results' is not a count from 0 to "
			   "%d", run->info.uuid, EXCHANGE_MAX_RESULTS);
	if (obs && read_observation(rd, obs, run))
		return -1;
	rd->expect = (size_t)json_integer_value(nres);
	rd->run_line = rd->line;
	return 0;
}

static int read_samples(struct reader *rd, json_t *a, struct result_row *row)
{
	char msg[256];
	size_t i;

	if (!json_is_array(a))
		return bad(rd, "'samples' is not an array");
	if (json_array_size(a) > EXCHANGE_MAX_SAMPLES)
		return bad(rd, "'samples' has %zu values, more than the %d a "
			   "result may have", json_array_size(a),
			   EXCHANGE_MAX_SAMPLES);
	row->samples = malloc((json_array_size(a) + 1) * sizeof(double));
	if (!row->samples)
		return nomem(rd);
	for (i = 0; i < json_array_size(a); i++) {
		json_t *v = json_array_get(a, i);

		if (!json_is_number(v))
			return bad(rd, "sample %zu is not a number", i);
		row->samples[row->nsamples++] = json_number_value(v);
	}
	if (exchange_check_samples(row->unit, row->samples, row->nsamples,
				   msg, sizeof(msg)))
		return bad(rd, "%s", msg);
	return 0;
}

static int read_hist(struct reader *rd, json_t *a, struct result_row *row)
{
	size_t i, n = json_array_size(a);
	char msg[256];

	if (!json_is_array(a))
		return bad(rd, "'histogram' is not an array");
	if (n > EXCHANGE_MAX_BUCKETS)
		return bad(rd, "'histogram' has %zu buckets, more than the %d "
			   "a result may have", n, EXCHANGE_MAX_BUCKETS);
	if (n == 0)
		return 0;
	row->buckets = calloc(n, sizeof(*row->buckets));
	if (!row->buckets)
		return nomem(rd);
	for (i = 0; i < n; i++) {
		json_t *b = json_array_get(a, i);
		json_t *lo = json_array_get(b, 0), *hi = json_array_get(b, 1);
		json_t *cnt = json_array_get(b, 2);
		struct result_bucket *rb = &row->buckets[row->nbuckets];

		if (json_array_size(b) != 3 || !json_is_integer(lo) ||
		    !json_is_integer(hi) || !json_is_integer(cnt) ||
		    json_integer_value(lo) < 0 ||
		    json_integer_value(cnt) < 0 ||
		    (json_integer_value(hi) != -1 &&
		     json_integer_value(hi) < json_integer_value(lo)))
			return bad(rd, "histogram bucket %zu is not [lo, hi, "
				   "count] with 0 <= lo <= hi (hi -1: the "
				   "overflow) and count >= 0", i);
		rb->lo = json_integer_value(lo);
		rb->hi = json_integer_value(hi);
		rb->count = (uint64_t)json_integer_value(cnt);
		row->nbuckets++;
	}
	if (exchange_check_buckets(row->buckets, row->nbuckets, msg,
				   sizeof(msg)))
		return bad(rd, "%s", msg);
	return 0;
}

/*
 * The last result of run is read: what only the whole run shows (a seq
 * or a metric twice), named by the lines of the two results.
 */
static int run_done(struct reader *rd, const struct run_data *run)
{
	size_t a, b;
	char msg[256];
	int rc = exchange_check_results(&run->results, &a, &b, msg,
					sizeof(msg));

	if (rc == -2)
		return nomem(rd);
	if (rc)
		return bad(rd, "run %s: %s (lines %zu and %zu)",
			   run->info.uuid, msg, rd->run_line + 1 + a,
			   rd->run_line + 1 + b);
	return 0;
}

static int read_result(struct reader *rd, json_t *o)
{
	static const char *const keys[] = { "type", "run", "seq", "workload",
		"params", "metric", "unit", "direction", "info", "samples",
		"histogram", NULL };
	struct run_data *run = rd->nruns ? &rd->runs[rd->nruns - 1] : NULL;
	json_t *seq = json_object_get(o, "seq");
	json_t *params = json_object_get(o, "params");
	json_t *info = json_object_get(o, "info");
	char *params_text = NULL, *info_text = NULL, msg[512];
	const char *dir, *uuid;
	struct result_row row;
	int rc = -1;

	memset(&row, 0, sizeof(row));
	if (!run || !rd->expect)
		return bad(rd, "a result line that no run line announced");
	if (only_keys(rd, o, "result line", keys))
		return -1;
	uuid = text_of(rd, o, "run", true);
	if (!uuid)
		return -1;
	if (strcmp(uuid, run->info.uuid) != 0)
		return bad(rd, "the result of run %s inside run %s", uuid,
			   run->info.uuid);
	if (!json_is_integer(seq) || json_integer_value(seq) < 0 ||
	    json_integer_value(seq) > INT32_MAX)
		return bad(rd, "'seq' is not a non-negative integer");
	row.seq = (int)json_integer_value(seq);
	snprintf(rd->what, sizeof(rd->what), "run %s, seq %d: ", uuid,
		 row.seq);
	row.workload = text_of(rd, o, "workload", true);
	row.metric = row.workload ? text_of(rd, o, "metric", true) : NULL;
	row.unit = row.metric ? text_of(rd, o, "unit", false) : NULL;
	dir = row.unit ? text_of(rd, o, "direction", true) : NULL;
	if (!dir)
		return -1;
	if (strcmp(dir, "higher") == 0)
		row.direction = 1;
	else if (strcmp(dir, "lower") == 0)
		row.direction = -1;
	else if (strcmp(dir, "info") == 0)
		row.direction = 0;
	else
		return bad(rd, "'direction' is not higher, lower or info");
	if (!json_is_object(params))
		return bad(rd, "'params' is not an object");
	if (!json_is_object(info))
		return bad(rd, "'info' is not an object");
	if (exchange_check_info(info, msg, sizeof(msg)))
		return bad(rd, "%s", msg);
	params_text = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
	info_text = json_dumps(info, JSON_COMPACT | JSON_SORT_KEYS);
	if (!params_text || !info_text) {
		nomem(rd);
		goto out;
	}
	row.params_json = params_text;
	row.info_json = info_text;
	if (read_samples(rd, json_object_get(o, "samples"), &row) ||
	    read_hist(rd, json_object_get(o, "histogram"), &row))
		goto out;
	if (!result_decode_row(&run->results, &row, msg, sizeof(msg))) {
		if (strstr(msg, strerror(ENOMEM)))
			nomem(rd);
		else
			bad(rd, "%s", msg);
		goto out;
	}
	rd->expect--;
	rd->total++;
	rd->what[0] = '\0';
	rc = rd->expect ? 0 : run_done(rd, run);
out:
	/* what the decoder did not take over */
	free(row.samples);
	free(row.buckets);
	free(params_text);
	free(info_text);
	return rc;
}

static int read_end(struct reader *rd, json_t *o)
{
	static const char *const keys[] = { "type", "runs", "results", NULL };
	json_t *r = json_object_get(o, "runs");
	json_t *m = json_object_get(o, "results");

	if (rd->expect)
		return bad(rd, "the end line where %zu more result line%s of "
			   "the last run %s due", rd->expect,
			   rd->expect == 1 ? "" : "s",
			   rd->expect == 1 ? "was" : "were");
	if (only_keys(rd, o, "end line", keys))
		return -1;
	if (!json_is_integer(r) || !json_is_integer(m) ||
	    json_integer_value(r) != (json_int_t)rd->nruns ||
	    json_integer_value(m) != (json_int_t)rd->total)
		return bad(rd, "the end line counts do not match the file "
			   "(%zu runs, %zu results)", rd->nruns, rd->total);
	rd->ended = true;
	return 0;
}

static int read_line(struct reader *rd, const char *text, size_t len)
{
	json_error_t je;
	const char *type;
	json_t *o;
	int rc;

	rd->what[0] = '\0';
	if (rd->ended)
		return bad(rd, "a line after the end line");
	if (len == 0)
		return bad(rd, "an empty line");
	o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!json_is_object(o)) {
		json_decref(o);
		if (!o)
			return bad(rd, "not JSON: %s (column %d)", je.text,
				   je.column);
		return bad(rd, "not a JSON object");
	}
	if (rd->line == 1) {
		rc = read_header(rd, o);
		json_decref(o);
		return rc;
	}
	type = json_string_value(json_object_get(o, "type"));
	if (!type)
		rc = bad(rd, "no 'type'");
	else if (strcmp(type, "run") == 0)
		rc = read_run(rd, o);
	else if (strcmp(type, "result") == 0)
		rc = read_result(rd, o);
	else if (strcmp(type, "end") == 0)
		rc = read_end(rd, o);
	else
		rc = bad(rd, "unknown line type '%s' (this copyscope reads "
			 "export schema %d)", type, EXCHANGE_SCHEMA_VERSION);
	json_decref(o);
	return rc;
}

void exchange_free(struct run_data *runs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		run_data_free(&runs[i]);
	free(runs);
}

/*
 * Like getline(), but a line longer than EXCHANGE_MAX_LINE_BYTES is not
 * read into memory: -2 once that many bytes came without a newline.  -1
 * at the end of the file (or a read error) with nothing read, -3 when
 * memory ran out.
 */
static ssize_t get_line(FILE *in, char **buf, size_t *cap)
{
	size_t len = 0;
	int c;

	while ((c = getc_unlocked(in)) != EOF) {
		if (len + 2 > *cap) {
			size_t ncap = *cap ? *cap * 2 : 4096;
			char *nb = realloc(*buf, ncap);

			if (!nb)
				return -3;
			*buf = nb;
			*cap = ncap;
		}
		(*buf)[len++] = (char)c;
		if (c == '\n')
			break;
		if (len > EXCHANGE_MAX_LINE_BYTES)
			return -2;
	}
	if (len == 0)
		return -1;
	(*buf)[len] = '\0';
	return (ssize_t)len;
}

int exchange_read(FILE *in, const char *name, struct run_data **runs,
		  size_t *n, char *err, size_t errlen)
{
	struct reader rd = { .name = name, .err = err, .errlen = errlen };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	*runs = NULL;
	*n = 0;
	err[0] = '\0';
	rd.uuids = json_object();
	if (!rd.uuids)
		rc = nomem(&rd);
	while (rc == 0 && (len = get_line(in, &line, &cap)) != -1) {
		rd.line++;
		if (len == -3) {
			rc = nomem(&rd);
			break;
		}
		if (len == -2) {
			rc = bad(&rd, "the line is longer than %zu bytes, the "
				 "most a line may have", EXCHANGE_MAX_LINE_BYTES);
			break;
		}
		if (len == 0 || line[len - 1] != '\n') {
			rc = bad(&rd, "the line does not end: the file is "
				 "truncated");
			break;
		}
		if ((size_t)len != strlen(line)) {
			rc = bad(&rd, "a NUL byte in the line");
			break;
		}
		rc = read_line(&rd, line, (size_t)len - 1);
	}
	free(line);
	json_decref(rd.uuids);
	if (rc == 0 && ferror(in)) {
		snprintf(err, errlen, "%s: cannot read: %s", name,
			 strerror(errno));
		rc = -1;
	}
	if (rc == 0 && rd.line == 0) {
		snprintf(err, errlen, "%s: empty file (not a copyscope "
			 "export)", name);
		rc = -1;
	}
	if (rc == 0 && !rd.ended) {
		rd.line++;
		rc = bad(&rd, "the file ends without its end line: it is "
			 "truncated%s", rd.expect ? " inside a run" : "");
	}
	if (rc != 0) {
		exchange_free(rd.runs, rd.nruns);
		return rd.nomem ? -2 : -1;
	}
	*runs = rd.runs;
	*n = rd.nruns;
	return 0;
}
