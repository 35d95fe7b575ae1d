/*
 * json.c - the JSON document of a run (see report.h), built with jansson
 * so that it is always valid JSON.
 *
 * {
 *   "schema_version": 1,
 *   "run": { "id", "tag", "host", "boot_id", "started_ns", "finished_ns",
 *            "status", "tool_version", "build_flavour", "cmdline",
 *            "options": { "reps", "sample_time_ns", "warmup_ns", "cpus",
 *                         "hist", "interleave_seed", "perf_counters" } },
 *   "environment": { key: value, ... },
 *   "results": [ { "workload", "params": {..}, "metric", "unit",
 *                  "direction": "higher"|"lower"|"info",
 *                  "summary": { n, median, mean, min, max, stddev, mad,
 *                               cv, ci95_lo, ci95_hi },
 *                  "samples": [..], "info": {..},
 *                  "histogram": { "buckets": [[lo, hi, count], ..],
 *                                 "overflow": n } } ]
 * }
 * "info" is the stored form of the result's details (results/codec.h).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "results/codec.h"

static json_t *options_json(const struct run_info *run)
{
	const struct run_options *o = &run->opts;

	if (!run->have_options)
		return json_null();
	return json_pack("{s:i, s:I, s:I, s:o, s:b, s:o, s:b}",
			 "reps", o->reps,
			 "sample_time_ns", (json_int_t)o->sample_time_ns,
			 "warmup_ns", (json_int_t)o->warmup_ns,
			 "cpus", codec_json_text(o->cpus), "hist", o->hist,
			 "interleave_seed", o->interleave ?
			 json_integer((json_int_t)o->interleave_seed) :
			 json_null(),
			 "perf_counters", o->perf_counters);
}

static json_t *run_json(const struct run_info *run)
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

static json_t *env_json(const struct env *env)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; o && i < env->n; i++)
		json_object_set_new(o, env->items[i].key,
				    codec_json_text(env->items[i].value));
	return o;
}

static const char *dir_name(int d)
{
	return d > 0 ? "higher" : d < 0 ? "lower" : "info";
}

/* The parameters as an object with sorted keys (the canonical form). */
json_t *report_params_json(const struct result_config *c)
{
	/* an array of pointers */
	const struct result_param **p = calloc(c->nparams ? c->nparams : 1,
					       sizeof(void *));
	json_t *o = json_object();
	size_t i;

	if (!p || !o) {
		free(p);
		json_decref(o);
		return NULL;
	}
	result_params_sorted(c, p);
	for (i = 0; i < c->nparams; i++)
		json_object_set_new(o, p[i]->name,
				    codec_json_text(p[i]->value));
	free(p);
	return o;
}

static json_t *hist_json(const struct result_hist *h)
{
	json_t *b = json_array();
	json_int_t overflow = 0;
	size_t i;

	for (i = 0; b && i < h->nbuckets; i++) {
		if (h->buckets[i].hi < 0)
			overflow += (json_int_t)h->buckets[i].count;
		else
			json_array_append_new(b, json_pack("[I,I,I]",
				(json_int_t)h->buckets[i].lo,
				(json_int_t)h->buckets[i].hi,
				(json_int_t)h->buckets[i].count));
	}
	return json_pack("{s:o, s:I}", "buckets", b, "overflow", overflow);
}

static json_t *result_json(const struct result *r)
{
	const struct summary *s = &r->summary;
	json_t *o, *samples = json_array();
	size_t i;

	for (i = 0; samples && i < r->nsamples; i++)
		json_array_append_new(samples, json_real(r->samples[i]));
	o = json_pack("{s:o, s:o, s:o, s:o, s:s, s:{s:I, s:f, s:f, s:f, s:f, "
		      "s:f, s:f, s:f, s:f, s:f}, s:o, s:o}",
		      "workload", codec_json_text(r->cfg->workload),
		      "params", report_params_json(r->cfg),
		      "metric", codec_json_text(r->metric),
		      "unit", codec_json_text(r->unit),
		      "direction", dir_name(r->direction),
		      "summary", "n", (json_int_t)s->n, "median", s->median,
		      "mean", s->mean, "min", s->min, "max", s->max,
		      "stddev", s->stddev, "mad", s->mad, "cv", s->cv,
		      "ci95_lo", s->ci_lo, "ci95_hi", s->ci_hi,
		      "samples", samples,
		      "info", result_info_json(r));
	if (o && r->hist && r->hist->nbuckets)
		json_object_set_new(o, "histogram", hist_json(r->hist));
	return o;
}

int report_json(FILE *out, const struct run_info *run, const struct env *env,
		const struct result *res, size_t n)
{
	json_t *doc = json_object(), *results = json_array();
	int rc = -1;
	size_t i;

	if (!doc || !results)
		goto out;
	json_object_set_new(doc, "schema_version",
			    json_integer(REPORT_JSON_SCHEMA_VERSION));
	json_object_set_new(doc, "run", run ? run_json(run) : json_null());
	json_object_set_new(doc, "environment",
			    env ? env_json(env) : json_null());
	for (i = 0; i < n; i++) {
		json_t *r = result_json(&res[i]);

		if (!r)
			goto out;
		json_array_append_new(results, r);
	}
	json_object_set(doc, "results", results);
	if (json_dumpf(doc, out, JSON_INDENT(2) | JSON_ENSURE_ASCII) == 0 &&
	    fputc('\n', out) != EOF && fflush(out) == 0)
		rc = 0;
out:
	json_decref(results);
	json_decref(doc);
	return rc;
}
