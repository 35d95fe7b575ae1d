/*
 * codec.c - the stored text form of results, written and read (see
 * codec.h): text made safe for JSON, a stored row decoded into the results
 * model, and the run's header.  The info object is codec_info.c (its
 * kernel views codec_kernel.c), the parameters codec_params.c.  Objects
 * are built with their keys in sorted order, so the stored text and
 * `--json` print them as the store always has.
 */
#include "results/codec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/workload.h"
#include "results/codec_priv.h"
#include "results/kernel_records.h"
#include "results/run.h"

/* ---- text ---- */

/*
 * Bytes in the UTF-8 sequence that starts with lead (RFC 3629), or 0 for
 * a byte that cannot start one.  Whether the sequence is valid (no
 * overlong form, no surrogate, at most U+10FFFF) jansson decides.
 */
static size_t utf8_len(unsigned char lead)
{
	if (lead < 0x80)
		return 1;
	if (lead >= 0xc2 && lead <= 0xdf)
		return 2;
	if (lead >= 0xe0 && lead <= 0xef)
		return 3;
	if (lead >= 0xf0 && lead <= 0xf4)
		return 4;
	return 0;
}

static bool valid_seq(const char *s, size_t k)
{
	json_t *j;
	size_t i;

	for (i = 1; i < k; i++)
		if (s[i] == '\0')
			return false;
	j = json_stringn(s, k);
	json_decref(j);
	return j != NULL;
}

char *codec_clean_text(const char *s, bool controls)
{
	size_t n = s ? strlen(s) : 0, i = 0, o = 0;
	char *out = malloc(n * 4 + 1);

	if (!out)
		return NULL;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t k = utf8_len(c);

		if (k && i + k <= n && valid_seq(s + i, k) &&
		    !(controls && k == 1 && (c < 0x20 || c == 0x7f))) {
			memcpy(out + o, s + i, k);
			o += k;
			i += k;
		} else {
			o += (size_t)sprintf(out + o, "\\x%02x", c);
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

json_t *codec_json_text(const char *s)
{
	json_t *j = json_string(s ? s : "");
	char *clean;

	if (j)
		return j;
	clean = codec_clean_text(s, false);
	j = clean ? json_string(clean) : NULL;
	free(clean);
	return j;
}

static int hist_decode(struct result *r, json_t *h, struct result_row *row)
{
	if (!json_is_object(h) && !row->nbuckets)
		return 0;
	r->hist = calloc(1, sizeof(*r->hist));
	if (!r->hist)
		return -1;
	r->hist->of = codec_dup_str(json_object_get(h, "of"));
	if (!r->hist->of)
		return -1;
	r->hist->ops = codec_juint(json_object_get(h, "ops"));
	r->hist->min_ns = codec_juint(json_object_get(h, "min"));
	r->hist->max_ns = codec_juint(json_object_get(h, "max"));
	r->hist->mean_ns = codec_num_or_nan(json_object_get(h, "mean"));
	return 0;
}

static bool same_config(const struct result_set *set,
			const struct result_row *row, int job)
{
	const struct result_config *c;

	if (set->n == 0)
		return false;
	c = set->v[set->n - 1].cfg;
	return strcmp(c->workload, row->workload) == 0 &&
	       strcmp(c->params_json, row->params_json) == 0 && c->job == job;
}

struct result *result_decode_row(struct result_set *set,
				 struct result_row *row, char *err,
				 size_t errlen)
{
	json_t *info = NULL;
	struct result_config *c;
	struct result *r;
	json_error_t je;
	int job;

	if (row->info_json) {
		info = json_loads(row->info_json, 0, &je);
		if (!json_is_object(info)) {
			snprintf(err, errlen, "result %lld (%s %s): its info "
				 "is not a JSON object: %s",
				 (long long)row->id, row->workload,
				 row->metric, je.text);
			json_decref(info);
			return NULL;
		}
	}
	job = (int)json_integer_value(json_object_get(info, "job"));
	if (same_config(set, row, job)) {
		c = set->v[set->n - 1].cfg;
	} else {
		c = result_set_new_config(set);
		if (!c)
			goto nomem;
		c->workload = strdup(row->workload);
		if (!c->workload)
			goto nomem;
		c->wl = workload_find(row->workload);
		if (result_params_decode(c, row->params_json) != 0) {
			snprintf(err, errlen, "result %lld (%s %s): its "
				 "parameters are not a JSON object of "
				 "strings", (long long)row->id, row->workload,
				 row->metric);
			json_decref(info);
			return NULL;
		}
		if (codec_config_decode(c, info) != 0)
			goto nomem;
	}
	r = result_set_new_result(set, c);
	if (!r)
		goto nomem;
	r->id = row->id;
	r->seq = row->seq;
	r->direction = row->direction;
	r->trace = json_is_true(json_object_get(info, "trace"));
	r->traced = json_is_true(json_object_get(info, "traced"));
	if (codec_kernel_decode(c, json_object_get(info, "kernel")) != 0)
		goto nomem_r;
	r->metric = strdup(row->metric);
	r->unit = strdup(row->unit);
	if (!r->metric || !r->unit ||
	    hist_decode(r, json_object_get(info, "hist"), row) != 0)
		goto nomem_r;
	r->samples = row->samples;
	r->nsamples = row->nsamples;
	if (r->hist) {
		r->hist->buckets = row->buckets;
		r->hist->nbuckets = row->nbuckets;
	}
	if (result_finalize(r) != 0) {
		/* the arrays are the result's now; the set frees them */
		row->samples = NULL;
		row->buckets = NULL;
		goto nomem;
	}
	row->samples = NULL;
	row->buckets = r->hist ? NULL : row->buckets;
	json_decref(info);
	return r;
nomem_r:
	/* drop the half-made result; its config stays in the set */
	free(r->metric);
	free(r->unit);
	if (r->hist) {
		free(r->hist->of);
		free(r->hist);
	}
	set->n--;
	set->next_seq--;
nomem:
	snprintf(err, errlen, "cannot load results: %s", strerror(ENOMEM));
	json_decref(info);
	return NULL;
}

/* ---- the run's header ---- */

/* Field f of o as its JSON member. */
static json_t *option_json(const struct run_options *o,
			   const struct run_option_field *f)
{
	struct run_option_value v;

	run_option_get(o, f, &v);
	switch (f->kind) {
	case RUN_OPTION_FLAG:
		return json_boolean(v.i);
	case RUN_OPTION_SEED:
		/* the seed's 64 bits in a signed integer */
		return o->interleave ?
		       json_integer((json_int_t)o->interleave_seed) :
		       json_null();
	case RUN_OPTION_TEXT:
	case RUN_OPTION_VIEWS:
		return codec_json_text(v.text);
	default:
		return json_integer((json_int_t)v.i);
	}
}

static json_t *options_json(const struct run_info *run)
{
	json_t *j;
	size_t i;

	if (!run->have_options)
		return json_null();
	j = json_object();
	for (i = 0; j && i < run_option_count; i++)
		if (json_object_set_new(j, run_option_fields[i].name,
					option_json(&run->opts,
						    &run_option_fields[i]))) {
			json_decref(j);
			return NULL;
		}
	return j;
}

json_t *codec_run_json(const struct run_info *run)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:o, s:o, "
			 "s:o, s:o, s:o}",
			 "id", (json_int_t)run->id,
			 "uuid", codec_json_text(run->uuid),
			 "group", run->group_id[0] ?
			 codec_json_text(run->group_id) : json_null(),
			 "tag", codec_json_text(run->tag),
			 "host", codec_json_text(run->host),
			 "boot_id", codec_json_text(run->boot_id),
			 "started_ns", (json_int_t)run->started_ns,
			 "finished_ns", (json_int_t)run->finished_ns,
			 "status", codec_json_text(run->status),
			 "tool_version", codec_json_text(run->tool_version),
			 "build_flavour", codec_json_text(run->build_flavour),
			 "cmdline", codec_json_text(run->cmdline),
			 "options", options_json(run));
}

/* String member key of o into buf (len bytes, the text must fit). */
static int get_text(json_t *o, const char *key, char *buf, size_t len,
		    char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);
	const char *s = json_string_value(v);

	if (!json_is_string(v)) {
		snprintf(err, errlen, "'%s' is not a string", key);
		return -1;
	}
	if (strlen(s) >= len || strlen(s) != json_string_length(v)) {
		snprintf(err, errlen, "'%s' is longer than %zu bytes or holds "
			 "a NUL", key, len - 1);
		return -1;
	}
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

static int get_int(json_t *o, const char *key, int64_t lo, int64_t hi,
		   int64_t *out, char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi) {
		snprintf(err, errlen, "'%s' is not an integer in %lld .. %lld",
			 key, (long long)lo, (long long)hi);
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
}

/* Member f->name of o as the value its column would hold. */
static int option_value(json_t *o, const struct run_option_field *f,
			struct run_option_value *v, char *err, size_t errlen)
{
	json_t *m = json_object_get(o, f->name);

	memset(v, 0, sizeof(*v));
	if ((!m || json_is_null(m)) &&
	    (f->kind == RUN_OPTION_SEED || f->kind == RUN_OPTION_VIEWS)) {
		/* kernel_views is absent from runs stored before it */
		return 0;
	} else if (f->kind == RUN_OPTION_COUNT || f->kind == RUN_OPTION_NS) {
		/* not an integer: run_option_put says what is allowed */
		v->type = json_is_integer(m) ? RUN_OPTION_INT : RUN_OPTION_NULL;
		v->i = json_integer_value(m);
		return 0;
	} else if ((!m || json_is_null(m)) && f->optional) {
		/* a flag absent from runs exported before it: off */
		v->type = RUN_OPTION_INT;
		return 0;
	} else if (json_is_boolean(m) && f->kind == RUN_OPTION_FLAG) {
		v->type = RUN_OPTION_INT;
		v->i = json_is_true(m);
		return 0;
	} else if (json_is_integer(m) && f->kind == RUN_OPTION_SEED) {
		v->type = RUN_OPTION_INT;
		v->i = json_integer_value(m);
		return 0;
	} else if (json_is_string(m) && f->kind != RUN_OPTION_SEED &&
		   run_option_text_column(f)) {
		unsigned views;

		v->type = RUN_OPTION_STR;
		if (get_text(o, f->name, v->text, f->kind == RUN_OPTION_TEXT ?
			     f->size : sizeof(v->text), err, errlen))
			return -1;
		/* an export names only views this version knows */
		return f->kind == RUN_OPTION_VIEWS && v->text[0] ?
		       kview_parse(v->text, &views, err, errlen) : 0;
	}
	snprintf(err, errlen, "'%s' is %s", f->name,
		 f->kind == RUN_OPTION_FLAG ? "not true or false" :
		 f->kind == RUN_OPTION_SEED ? "neither an integer nor null" :
		 "not a string");
	return -1;
}

static int options_decode(json_t *o, struct run_info *run, char *err,
			  size_t errlen)
{
	struct run_option_value v;
	size_t i;

	if (json_is_null(o))
		return 0;
	if (!json_is_object(o)) {
		snprintf(err, errlen, "'options' is neither an object nor "
			 "null");
		return -1;
	}
	run->have_options = true;
	for (i = 0; i < run_option_count; i++)
		if (option_value(o, &run_option_fields[i], &v, err, errlen) ||
		    run_option_put(&run->opts, &run_option_fields[i], &v, err,
				   errlen))
			return -1;
	return 0;
}

int codec_run_decode(json_t *o, struct run_info *run, char *err,
		     size_t errlen)
{
	json_t *cmd = json_object_get(o, "cmdline");

	memset(run, 0, sizeof(*run));
	if (!json_is_object(o)) {
		snprintf(err, errlen, "the run is not a JSON object");
		return -1;
	}
	if (get_text(o, "uuid", run->uuid, sizeof(run->uuid), err, errlen) ||
	    get_text(o, "tag", run->tag, sizeof(run->tag), err, errlen) ||
	    get_text(o, "host", run->host, sizeof(run->host), err, errlen) ||
	    get_text(o, "boot_id", run->boot_id, sizeof(run->boot_id), err,
		     errlen) ||
	    get_int(o, "started_ns", 0, INT64_MAX, &run->started_ns, err,
		    errlen) ||
	    get_int(o, "finished_ns", 0, INT64_MAX, &run->finished_ns, err,
		    errlen) ||
	    get_text(o, "status", run->status, sizeof(run->status), err,
		     errlen) ||
	    get_text(o, "tool_version", run->tool_version,
		     sizeof(run->tool_version), err, errlen) ||
	    get_text(o, "build_flavour", run->build_flavour,
		     sizeof(run->build_flavour), err, errlen))
		return -1;
	if (json_is_string(json_object_get(o, "group"))) {
		if (get_text(o, "group", run->group_id, sizeof(run->group_id),
			     err, errlen))
			return -1;
	} else if (!json_is_null(json_object_get(o, "group"))) {
		snprintf(err, errlen, "'group' is neither a string nor null");
		return -1;
	}
	if (!json_is_string(cmd) ||
	    strlen(json_string_value(cmd)) != json_string_length(cmd)) {
		snprintf(err, errlen, "'cmdline' is not a string without NUL");
		return -1;
	}
	if (options_decode(json_object_get(o, "options"), run, err, errlen))
		return -1;
	run->cmdline = strdup(json_string_value(cmd));
	if (!run->cmdline) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	return 0;
}
