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
 *                               cv, ci95_lo, ci95_hi (null below 6
 *                               samples, with ci95_reason saying so) },
 *                  "samples": [..], "info": {..},
 *                  "histogram": { "buckets": [[lo, hi, count], ..],
 *                                 "overflow": n },
 *                  "modes": { bimodal, n_lo, n_hi, median_lo, median_hi,
 *                             split, score } } ],
 *   "fits": [ { workload, job, param, metric, per, unit, group, points,
 *               fitted, fixed, slope, r2, se_fixed, se_slope,
 *               bytes_per_s } ],
 *   "explain": [ { title, size_bytes, rows: [{what, bytes_per_s,
 *                  ns_per_64k, pipe_fraction, ctx_switches_per_mib}],
 *                  kernel_ns_per_64k, kernel_share,
 *                  extra_ctx_switches_per_mib },
 *                { kind: "per_byte", title, workload, per,
 *                  points: [{size, size_bytes, bytes_per_s, ns_per_op,
 *                            ns_per_byte, floors: [{what, bytes_per_s,
 *                            ns_per_byte, speed, beyond_ns}]}],
 *                  fit: null | {points, fixed_ns, ns_per_byte, r2,
 *                               floors: [{what, ns_per_byte, speed}]} } ],
 *   "notes": [ { job, workload, params, metric, kind, text } ],
 *   "summary": [ { label, workload, metric, measured, value, sd,
 *                  state } ]      (a suite's run only)
 * }
 * "info" is the stored form of the result's details (results/codec.h).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "report/ab_print.h"
#include "report/explain.h"
#include "report/fit_report.h"
#include "report/headline_print.h"
#include "report/notes.h"
#include "report/report.h"
#include "results/codec.h"
#include "results/job_block.h"

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

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *modes_json(const struct modes *m)
{
	return json_pack("{s:b, s:I, s:I, s:o, s:o, s:o, s:o}",
			 "bimodal", m->bimodal, "n_lo", (json_int_t)m->n_lo,
			 "n_hi", (json_int_t)m->n_hi,
			 "median_lo", num(m->median_lo),
			 "median_hi", num(m->median_hi), "split", num(m->split),
			 "score", num(m->score));
}

/*
 * The headline rule's outcome in a result's summary (stats/headline.h):
 * the disturbed samples left out of it, or the headline withheld, with
 * no median, mean or CI and the reason (the note's text).
 */
static void headline_json(json_t *summary, const struct result *r)
{
	char why[512];

	json_object_set_new(summary, "left_out", json_integer(
		(json_int_t)(r->withheld ? 0 : r->left_out)));
	if (!r->withheld)
		return;
	report_headline_note(r, 1, why, sizeof(why));
	json_object_set_new(summary, "median", json_null());
	json_object_set_new(summary, "mean", json_null());
	json_object_set_new(summary, "ci95_lo", json_null());
	json_object_set_new(summary, "ci95_hi", json_null());
	json_object_del(summary, "ci95_reason");
	json_object_set_new(summary, "withheld", json_string(why));
}

static json_t *result_json(const struct result *r)
{
	const struct summary *s = &r->summary;
	json_t *o, *samples = json_array();
	size_t i;

	for (i = 0; samples && i < r->nsamples; i++)
		json_array_append_new(samples, json_real(r->samples[i]));
	o = json_pack("{s:o, s:o, s:o, s:o, s:s, s:{s:I, s:f, s:f, s:f, s:f, "
		      "s:f, s:f, s:f, s:o, s:o}, s:o, s:o}",
		      "workload", codec_json_text(r->cfg->workload),
		      "params", report_params_json(r->cfg),
		      "metric", codec_json_text(r->metric),
		      "unit", codec_json_text(r->unit),
		      "direction", dir_name(r->direction),
		      "summary", "n", (json_int_t)s->n, "median", s->median,
		      "mean", s->mean, "min", s->min, "max", s->max,
		      "stddev", s->stddev, "mad", s->mad, "cv", s->cv,
		      "ci95_lo", num(s->ci_lo), "ci95_hi", num(s->ci_hi),
		      "samples", samples,
		      "info", result_info_json(r));
	/* a null CI says why: the stats layer decided there is none */
	if (o && summary_ci_reason(s->n))
		json_object_set_new(json_object_get(o, "summary"),
				    "ci95_reason",
				    json_string(summary_ci_reason(s->n)));
	if (o && (r->left_out || r->withheld))
		headline_json(json_object_get(o, "summary"), r);
	if (o && r->hist && r->hist->nbuckets)
		json_object_set_new(o, "histogram", hist_json(r->hist));
	if (o)
		json_object_set_new(o, "modes", modes_json(&r->modes));
	return o;
}

static json_t *fit_group_json(const struct fit_set *fs,
			      const struct fit_group *g, int job)
{
	json_t *group = json_object(), *points = json_array();
	const struct fit_line *l = &g->line;
	size_t k;

	for (k = 0; group && k < fs->nlabel; k++)
		json_object_set_new(group, fs->label[k],
				    codec_json_text(g->label_value[k]));
	for (k = 0; points && k < g->n; k++)
		json_array_append_new(points, json_pack("[f, f]", g->x[k],
							g->y[k]));
	return json_pack("{s:o, s:i, s:s, s:s, s:s, s:o, s:o, s:o, s:b, "
			 "s:o, s:o, s:o, s:o, s:o, s:o}",
			 "workload", codec_json_text(fs->workload), "job", job,
			 "param", fs->rule->param, "metric", fs->rule->metric,
			 "per", fs->rule->per, "unit", codec_json_text(fs->unit),
			 "group", group, "points", points,
			 "fitted", g->fitted,
			 "fixed", g->fitted ? num(l->a) : json_null(),
			 "slope", g->fitted ? num(l->b) : json_null(),
			 "r2", g->fitted && l->n >= 3 ? num(l->r2) : json_null(),
			 "se_fixed", g->fitted ? num(l->se_a) : json_null(),
			 "se_slope", g->fitted ? num(l->se_b) : json_null(),
			 "bytes_per_s", g->rate_bps > 0 ? num(g->rate_bps) :
			 json_null());
}

/* The fits of every block (fit_report.c), as the table prints them. */
static json_t *fits_json(const struct result *res, size_t n)
{
	json_t *a = json_array();
	size_t i = 0, e, g;

	for (; a && i < n; i = e) {
		struct fit_set fs;

		e = result_block_end(res, n, i);
		if (fit_report_compute(res + i, e - i, &fs) != 0) {
			json_decref(a);
			return NULL;
		}
		for (g = 0; fs.rule && g < fs.ngroups; g++)
			json_array_append_new(a, fit_group_json(&fs,
				&fs.groups[g], res[i].cfg->job));
		fit_set_free(&fs);
	}
	return a;
}

struct notes_arg {
	json_t *a;
	const struct result_config *c;
};

static void note_json(void *arg, enum note_kind kind, const struct result *r,
		      const char *text)
{
	struct notes_arg *na = arg;

	json_array_append_new(na->a, json_pack(
		"{s:i, s:o, s:o, s:o, s:s, s:o}", "job", na->c->job,
		"workload", codec_json_text(na->c->workload),
		"params", report_params_json(na->c),
		"metric", r ? codec_json_text(r->metric) : json_null(),
		"kind", note_kind_name(kind), "text", codec_json_text(text)));
}

/* The notes printed under each configuration (notes.c), and the run's. */
static json_t *notes_json(const struct result *res, size_t n)
{
	struct notes_arg na = { .a = json_array() };
	char noisy[512];
	size_t i = 0, e;

	for (; na.a && i < n; i = e) {
		e = i + 1;
		while (e < n && res[e].cfg == res[i].cfg)
			e++;
		na.c = res[i].cfg;
		report_notes(res + i, e - i, note_json, &na);
	}
	if (na.a && report_noisy_note(res, n, noisy, sizeof(noisy)))
		json_array_append_new(na.a, json_pack(
			"{s:n, s:n, s:n, s:n, s:s, s:o}", "job", "workload",
			"params", "metric", "kind", "noisy",
			"text", codec_json_text(noisy)));
	return na.a;
}

static json_t *explain_row(const char *label, double bps, double ns,
			   double frac, double cs)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o}",
			 "what", codec_json_text(label), "bytes_per_s", num(bps),
			 "ns_per_64k", num(ns), "pipe_fraction", num(frac),
			 "ctx_switches_per_mib", cs >= 0 ? num(cs) :
			 json_null());
}

/* A pipe recipe's block: its rows and the kernel path. */
static json_t *explain_pipe_json(const struct explain_block *b)
{
	const struct explain_figures *f = &b->f;
	const struct explain_input *in = &b->in;

	return json_pack(
		"{s:o, s:o, s:[o, o, o, o], s:o, s:o, s:o}",
		"title", codec_json_text(b->title),
		"size_bytes", num(in->size_bytes),
		"rows",
		explain_row(b->copy_label, in->copy_bps, f->copy_ns_64k,
			    f->pipe_of_copy, -1),
		explain_row("two-copy floor (1/2)", f->floor_bps,
			    f->floor_ns_64k, f->pipe_of_floor, -1),
		explain_row(b->ring_label, in->ring_bps, f->ring_ns_64k,
			    f->pipe_of_ring, in->ring_cs_per_mib),
		explain_row(b->self_label, in->pipe_bps, f->pipe_ns_64k, 1.0,
			    in->pipe_cs_per_mib),
		"kernel_ns_per_64k", num(f->kernel_ns_64k),
		"kernel_share", num(f->kernel_share),
		"extra_ctx_switches_per_mib",
		f->extra_cs_per_mib >= 0 ? num(f->extra_cs_per_mib) :
		json_null());
}

/* A number that is only meaningful when positive, else null. */
static json_t *pos(double v)
{
	return v > 0 ? num(v) : json_null();
}

/* One size of a per-byte block: the workload and each floor. */
static json_t *explain_pb_point_json(const struct explain_pb_block *b,
				     const struct explain_pb_point *p)
{
	json_t *floors = json_array();
	char name[96];
	size_t k;

	for (k = 0; floors && k < b->x->nfloors; k++) {
		bool has = p->row.floor_ns[k] > 0;

		explain_floor_name(&b->x->floors[k], name, sizeof(name));
		json_array_append_new(floors, json_pack(
			"{s:o, s:o, s:o, s:o, s:o}",
			"what", codec_json_text(name),
			"bytes_per_s", pos(p->in.floor_bps[k]),
			"ns_per_byte", has ? num(p->row.floor_ns_byte[k]) :
			json_null(),
			"speed", has ? num(p->row.speed[k]) : json_null(),
			"beyond_ns", has ? num(p->row.beyond_ns[k]) :
			json_null()));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
			 "size", codec_json_text(p->size),
			 "size_bytes", num(p->in.size_bytes),
			 "bytes_per_s", num(p->in.self_bps),
			 "ns_per_op", num(p->row.self_ns),
			 "ns_per_byte", num(p->row.self_ns_byte),
			 "floors", floors);
}

/* The least-squares lines of a per-byte block, or null without two
   sizes. */
static json_t *explain_pb_fit_json(const struct explain_pb_block *b)
{
	const struct explain_pb_fit *f = &b->fit;
	json_t *floors;
	char name[96];
	size_t k;

	if (!b->fitted)
		return json_null();
	floors = json_array();
	for (k = 0; floors && k < b->x->nfloors; k++) {
		explain_floor_name(&b->x->floors[k], name, sizeof(name));
		json_array_append_new(floors, json_pack(
			"{s:o, s:o, s:o}", "what", codec_json_text(name),
			"ns_per_byte", f->floor_ok[k] ? num(f->floor[k].b) :
			json_null(),
			"speed", pos(f->speed[k])));
	}
	return json_pack("{s:I, s:o, s:o, s:o, s:o}",
			 "points", (json_int_t)f->self.n,
			 "fixed_ns", num(f->self.a),
			 "ns_per_byte", num(f->self.b),
			 "r2", f->self.n >= 3 ? num(f->self.r2) : json_null(),
			 "floors", floors);
}

/* A per-byte recipe's block: a point per size and the fit. */
static json_t *explain_pb_json(const struct explain_pb_block *b)
{
	json_t *pts = json_array();
	size_t i;

	for (i = 0; pts && i < b->npts; i++)
		json_array_append_new(pts, explain_pb_point_json(b,
								 &b->pts[i]));
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}",
			 "kind", "per_byte",
			 "title", codec_json_text(b->title),
			 "workload", codec_json_text(b->workload),
			 "per", codec_json_text(b->x->per),
			 "points", pts,
			 "fit", explain_pb_fit_json(b));
}

/* The --explain view (results/explain_view.h) of the run's results. */
static json_t *explain_json(const struct result *res, size_t n)
{
	struct explain_view v;
	json_t *a = json_array();
	char err[512];
	size_t i;

	if (!a)
		return NULL;
	if (explain_view_build(res, n, &v, err, sizeof(err)) > 0) {
		for (i = 0; i < v.npipe; i++)
			json_array_append_new(a, explain_pipe_json(&v.pipe[i]));
		for (i = 0; i < v.npb; i++)
			json_array_append_new(a, explain_pb_json(&v.pb[i]));
	}
	explain_view_free(&v);
	return a;
}

/* The suite's summary, a row per line as `show` prints it. */
static json_t *summary_json(const struct summary_line *lines, size_t nl,
			    const struct result *res, size_t n)
{
	json_t *a = json_array();
	struct headline_row row;
	size_t i;

	for (i = 0; a && i < nl; i++) {
		headline_compute(&lines[i], res, n, &row);
		json_array_append_new(a, json_pack(
			"{s:o, s:o, s:o, s:b, s:o, s:o, s:o}",
			"label", codec_json_text(row.label),
			"workload", codec_json_text(row.workload),
			"metric", codec_json_text(row.metric),
			"measured", row.measured,
			"value", row.measured ? codec_json_text(row.value) :
			json_null(),
			"sd", row.measured ? codec_json_text(row.sd) :
			json_null(),
			"state", codec_json_text(row.state)));
	}
	return a;
}

int report_json(FILE *out, const struct run_info *run, const struct env *env,
		const struct result *res, size_t n)
{
	return report_json_summary(out, run, env, res, n, NULL, 0);
}

int report_json_summary(FILE *out, const struct run_info *run,
			const struct env *env, const struct result *res,
			size_t n, const struct summary_line *lines, size_t nl)
{
	json_t *doc = json_object(), *results = json_array();
	int rc = -1;
	size_t i;

	if (!doc || !results)
		goto out;
	json_object_set_new(doc, "schema_version",
			    json_integer(REPORT_JSON_SCHEMA_VERSION));
	json_object_set_new(doc, "run", run ? codec_run_json(run) : json_null());
	json_object_set_new(doc, "environment",
			    env ? env_json(env) : json_null());
	for (i = 0; i < n; i++) {
		json_t *r = result_json(&res[i]);

		if (!r)
			goto out;
		json_array_append_new(results, r);
	}
	json_object_set(doc, "results", results);
	json_object_set_new(doc, "fits", fits_json(res, n));
	json_object_set_new(doc, "explain", explain_json(res, n));
	json_object_set_new(doc, "notes", notes_json(res, n));
	if (nl)
		json_object_set_new(doc, "summary", summary_json(lines, nl, res,
								 n));
	if (env && ab_env_is_ab(env))
		json_object_set_new(doc, "ab", ab_json_stored(run, env, res,
							      n));
	if (json_dumpf(doc, out, JSON_INDENT(2) | JSON_ENSURE_ASCII) == 0 &&
	    fputc('\n', out) != EOF && fflush(out) == 0)
		rc = 0;
out:
	json_decref(results);
	json_decref(doc);
	return rc;
}
