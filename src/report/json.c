/*
 * json.c - the JSON document of a run (see report.h), built with jansson
 * so that it is always valid JSON.
 *
 * {
 *   "schema_version": 1,
 *   "run": { "id", "tag", "host", "boot_id", "started_ns", "finished_ns",
 *            "status", "tool_version", "build_flavour", "cmdline" },
 *   "environment": { key: value, ... },
 *   "results": [ { "workload", "params": {..}, "metric", "unit",
 *                  "direction": "higher"|"lower"|"info",
 *                  "summary": { n, median, mean, min, max, stddev, mad,
 *                               cv, ci95_lo, ci95_hi },
 *                  "samples": [..], "info": {..},
 *                  "histogram": { "buckets": [[lo, hi, count], ..],
 *                                 "overflow": n } } ]
 * }
 */
#include <jansson.h>

#include "report/report.h"
#include "stats/summary.h"

static json_t *run_json(const struct store_run *run)
{
	return json_pack("{s:I, s:s, s:s, s:s, s:I, s:I, s:s, s:s, s:s, s:s}",
			 "id", (json_int_t)run->id, "tag", run->tag,
			 "host", run->host, "boot_id", run->boot_id,
			 "started_ns", (json_int_t)run->started_ns,
			 "finished_ns", (json_int_t)run->finished_ns,
			 "status", run->status,
			 "tool_version", run->tool_version,
			 "build_flavour", run->build_flavour,
			 "cmdline", run->cmdline ? run->cmdline : "");
}

static json_t *env_json(const struct env *env)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; o && i < env->n; i++)
		json_object_set_new(o, env->items[i].key,
				    json_string(env->items[i].value));
	return o;
}

static const char *dir_name(int d)
{
	return d > 0 ? "higher" : d < 0 ? "lower" : "info";
}

static json_t *result_json(const struct store_result *r)
{
	struct summary s;
	json_t *o, *samples, *hist = NULL;
	size_t i;

	if (summary_compute(r->samples, r->nsamples, &s) != 0)
		return NULL;
	samples = json_array();
	for (i = 0; samples && i < r->nsamples; i++)
		json_array_append_new(samples, json_real(r->samples[i]));
	if (r->nbuckets) {
		json_t *b = json_array();
		json_int_t overflow = 0;

		for (i = 0; b && i < r->nbuckets; i++) {
			if (r->buckets[i].hi < 0)
				overflow += (json_int_t)r->buckets[i].count;
			else
				json_array_append_new(b, json_pack("[I,I,I]",
					(json_int_t)r->buckets[i].lo,
					(json_int_t)r->buckets[i].hi,
					(json_int_t)r->buckets[i].count));
		}
		hist = json_pack("{s:o, s:I}", "buckets", b, "overflow",
				 overflow);
	}
	o = json_pack("{s:s, s:o, s:s, s:s, s:s, s:{s:I, s:f, s:f, s:f, s:f, "
		      "s:f, s:f, s:f, s:f, s:f}, s:o, s:o}",
		      "workload", r->workload,
		      "params", json_loads(r->params_json, 0, NULL),
		      "metric", r->metric, "unit", r->unit,
		      "direction", dir_name(r->direction),
		      "summary", "n", (json_int_t)s.n, "median", s.median,
		      "mean", s.mean, "min", s.min, "max", s.max,
		      "stddev", s.stddev, "mad", s.mad, "cv", s.cv,
		      "ci95_lo", s.ci_lo, "ci95_hi", s.ci_hi,
		      "samples", samples,
		      "info", r->info_json ? json_loads(r->info_json, 0, NULL)
					   : json_object());
	if (o && hist)
		json_object_set_new(o, "histogram", hist);
	else
		json_decref(hist);
	return o;
}

int report_json(FILE *out, const struct store_run *run, const struct env *env,
		const struct store_result *res, size_t n)
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
