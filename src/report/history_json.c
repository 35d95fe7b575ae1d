/*
 * history_json.c - a lab's history as JSON and as CSV (see
 * history_print.h): every series with its points, change points and
 * undecidable newest points, or one CSV line per point.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "report/history_print.h"

static bool is_change(const struct hist_series *s, size_t i)
{
	size_t k;

	for (k = 0; k < s->ncp; k++)
		if (s->cps[k].index == i)
			return true;
	return false;
}

/* Whether point i is one of the newest that no split can tell. */
static bool in_tail(const struct hist_series *s, size_t i)
{
	return !s->nonpositive && s->tail.newest &&
		i + s->tail.newest >= s->n;
}

/* v, or null where it is not finite (a point without a CI). */
static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *points_json(const struct hist_series *s)
{
	json_t *pts = json_array();
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct hist_point *p = &s->pts[i];

		json_array_append_new(pts, json_pack(
			"{s:I, s:I, s:s, s:I, s:s, s:s, s:I, s:f, s:[o, o]}",
			"run_id", (json_int_t)p->run_id, "first_run_id",
			(json_int_t)p->first_run_id, "uuid", p->uuid,
			"started_ns", (json_int_t)p->started_ns, "kernel",
			p->kernel, "boot_id", p->boot_id, "runs",
			(json_int_t)p->nruns, "median", p->median, "ci",
			num_or_null(p->ci_lo), num_or_null(p->ci_hi)));
	}
	return pts;
}

/*
 * What the change points cannot tell about the newest points (struct
 * hist_tail), or null when nothing: the newest segment (from, points),
 * the newest points a change in cannot reach alpha (newest; all of the
 * segment's points when no split can), the fewest a side, the smallest
 * p, alpha, and the points the segment would need (null: no number).
 */
static json_t *tail_json(const struct hist_series *s)
{
	const struct hist_tail *t = &s->tail;

	if (s->nonpositive || !t->newest)
		return json_null();
	return json_pack("{s:I, s:I, s:I, s:I, s:o, s:f, s:o}",
			 "from", (json_int_t)t->from, "points",
			 (json_int_t)(s->n - t->from), "newest",
			 (json_int_t)t->newest, "min_size",
			 (json_int_t)t->min_size, "smallest_p",
			 num_or_null(t->min_p), "alpha", t->alpha,
			 "points_needed", t->need ?
			 json_integer((json_int_t)t->need) : json_null());
}

/*
 * What E-divisive rejected (struct hist_rejected): the likeliest split
 * it tried and did not accept (null when none), and the change points
 * smaller than min_change_pct it left out (their count, the largest).
 */
static json_t *rejected_json(const struct hist_series *s)
{
	const struct hist_rejected *r = &s->rejected;
	json_t *split = json_null();

	if (r->index && !s->nonpositive)
		split = json_pack("{s:I, s:o, s:[o, o], s:o, s:I, s:I}",
				  "index", (json_int_t)r->index, "change_pct",
				  num_or_null(r->change_pct), "ci",
				  num_or_null(r->ci_lo), num_or_null(r->ci_hi),
				  "p", num_or_null(r->p), "before", (json_int_t)r->before_run,
				  "after", (json_int_t)r->after_run);
	return json_pack("{s:o, s:I, s:o, s:f}", "likeliest_split", split,
			 "smaller_than_min_change", (json_int_t)r->nsmall,
			 "largest_smaller", r->nsmall ?
			 json_pack("{s:I, s:o}", "index",
				   (json_int_t)r->small_index, "change_pct",
				   num_or_null(r->small_pct)) : json_null(),
			 "min_change_pct", r->min_change_pct);
}

static json_t *series_json(const struct hist_series *s)
{
	json_t *o = json_object(), *cps = json_array();
	size_t i, k;

	json_object_set_new(o, "host", json_string(s->host));
	json_object_set_new(o, "workload", json_string(s->workload));
	json_object_set_new(o, "params", json_string(s->params));
	json_object_set_new(o, "metric", json_string(s->metric));
	json_object_set_new(o, "unit", json_string(s->unit));
	json_object_set_new(o, "direction", json_integer(s->direction));
	for (i = 0; i < s->ncp; i++) {
		const struct hist_change *c = &s->cps[i];
		json_t *env = json_array();

		for (k = 0; k < c->nenv; k++)
			json_array_append_new(env, json_string(c->env_keys[k]));
		json_array_append_new(cps, json_pack(
			"{s:I, s:f, s:[f, f], s:f, s:b, s:I, s:I, s:o}",
			"index", (json_int_t)c->index, "change_pct",
			c->change_pct, "ci", c->ci_lo, c->ci_hi, "p", c->p,
			"worse", c->worse, "before", (json_int_t)c->before_run,
			"after", (json_int_t)c->after_run, "env_changed",
			env));
	}
	json_object_set_new(o, "undecidable_tail", tail_json(s));
	json_object_set_new(o, "rejected", rejected_json(s));
	json_object_set_new(o, "withheld_runs",
			    json_integer((json_int_t)s->nwithheld));
	json_object_set_new(o, "series", points_json(s));
	json_object_set_new(o, "change_points", cps);
	return o;
}

int history_print_json(FILE *out, const struct history *h)
{
	json_t *doc = json_object(), *arr = json_array();
	size_t i;
	int rc;

	json_object_set_new(doc, "schema_version", json_integer(1));
	for (i = 0; i < h->n; i++)
		json_array_append_new(arr, series_json(&h->s[i]));
	json_object_set_new(doc, "histories", arr);
	rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(doc);
	return rc;
}

/* A CSV field: quoted, with its quotes doubled. */
static void csv_text(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputs("\",", out);
}

/* ",v", or "," alone where v is not finite. */
static void csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.10g", v);
	else
		fputc(',', out);
}

void history_print_csv(FILE *out, const struct history *h)
{
	size_t i, k;

	fprintf(out, "host,workload,params,metric,unit,index,run_id,uuid,"
		"started_ns,kernel,boot_id,runs,median,ci_lo,ci_hi,"
		"change_point,undecidable_tail\n");
	for (i = 0; i < h->n; i++) {
		const struct hist_series *s = &h->s[i];

		for (k = 0; k < s->n; k++) {
			const struct hist_point *p = &s->pts[k];

			csv_text(out, s->host);
			csv_text(out, s->workload);
			csv_text(out, s->params);
			csv_text(out, s->metric);
			csv_text(out, s->unit);
			fprintf(out, "%zu,%lld,", k, (long long)p->run_id);
			csv_text(out, p->uuid);
			fprintf(out, "%lld,", (long long)p->started_ns);
			csv_text(out, p->kernel);
			csv_text(out, p->boot_id);
			/* a point without a CI: empty fields */
			fprintf(out, "%zu,%.10g", p->nruns, p->median);
			csv_num(out, p->ci_lo);
			csv_num(out, p->ci_hi);
			fprintf(out, ",%d,%d\n", is_change(s, k) ? 1 : 0,
				in_tail(s, k) ? 1 : 0);
		}
	}
}
