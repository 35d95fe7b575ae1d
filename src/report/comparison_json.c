/*
 * comparison_json.c - a comparison as JSON and as CSV (see report/comparison_print.h).
 * JSON is built with jansson, so it is always valid.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/comparison_print.h"
#include "report/profile_diff_print.h"
#include "report/report.h"
#include "results/codec.h"

static json_t *jnum(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *side_json(const struct cmp_side *side)
{
	json_t *o = json_object(), *runs = json_array(), *boots = json_array();
	json_t *tags = json_array();
	size_t i, j;

	for (i = 0; i < side->nruns; i++) {
		const struct run_info *r = &side->runs[i].info;
		bool db = false, dt = false;

		json_array_append_new(runs, json_integer(r->id));
		for (j = 0; j < i; j++) {
			db |= strcmp(side->runs[j].info.boot_id,
				      r->boot_id) == 0;
			dt |= strcmp(side->runs[j].info.tag, r->tag) == 0;
		}
		if (!db)
			json_array_append_new(boots,
					      codec_json_text(r->boot_id));
		if (!dt && *r->tag)
			json_array_append_new(tags, codec_json_text(r->tag));
	}
	json_object_set_new(o, "runs", runs);
	json_object_set_new(o, "boots", boots);
	json_object_set_new(o, "tags", tags);
	return o;
}

static json_t *val_json(const struct cmp_val *v)
{
	json_t *o = json_object(), *boots = json_array();
	size_t k;

	json_object_set_new(o, "n", json_integer((json_int_t)v->n));
	json_object_set_new(o, "median", jnum(v->s.median));
	json_object_set_new(o, "stddev_pct", jnum(v->s.cv * 100.0));
	json_object_set_new(o, "flagged", json_integer((json_int_t)v->flagged));
	json_object_set_new(o, "dropped", json_integer((json_int_t)v->dropped));
	/* only where a run's headline left samples out: older output
	   unchanged */
	if (v->headline_out)
		json_object_set_new(o, "headline_left_out",
				    json_integer((json_int_t)v->headline_out));
	for (k = 0; k < v->nboots; k++)
		json_array_append_new(boots, json_pack("{s:o, s:I, s:o}",
			"boot_id", codec_json_text(v->boots[k].boot_id),
			"runs", (json_int_t)v->boots[k].nruns,
			"median", jnum(v->boots[k].median)));
	json_object_set_new(o, "per_boot", boots);
	json_object_set_new(o, "boots_disagree",
			    json_boolean(v->boots_disagree));
	json_object_set_new(o, "spread_cv", json_pack("{s:o, s:o, s:o}",
		"within_run", jnum(v->spread.within_run),
		"between_runs", jnum(v->spread.between_runs),
		"between_boots", jnum(v->spread.between_boots)));
	if (v->md.bimodal)
		json_object_set_new(o, "bimodal", json_pack("{s:I, s:o, s:I, "
			"s:o}", "n_low", (json_int_t)v->md.n_lo,
			"median_low", jnum(v->md.median_lo),
			"n_high", (json_int_t)v->md.n_hi,
			"median_high", jnum(v->md.median_hi)));
	else
		json_object_set_new(o, "bimodal", json_null());
	return o;
}

/*
 * A row judged against history: "noise_model": "history" and what set
 * it (the judged run, the earlier runs, host, the interval, the test).
 */
static void add_hist(json_t *o, const struct cmp_hist *h)
{
	json_t *ids = json_array();
	size_t i;

	for (i = 0; ids && i < h->nruns; i++)
		json_array_append_new(ids, json_integer((json_int_t)h->runs[i]));
	json_object_set_new(o, "p_method", json_string("t-prediction-interval"));
	json_object_set_new(o, "unit_of_test", json_string("run"));
	json_object_set_new(o, "noise_model", json_string("history"));
	json_object_set_new(o, "history", json_pack(
		"{s:s, s:I, s:o, s:s, s:o, s:I, s:[o, o], s:o, s:o, s:o, s:o, "
		"s:o, s:o}",
		"judged", h->judged_base ? "base" : "new",
		"judged_run", (json_int_t)h->judged_run,
		"judged_median", jnum(h->median),
		"host", h->host, "runs", ids ? ids : json_null(),
		"nruns", (json_int_t)h->nruns,
		"interval", jnum(h->pi.lo), jnum(h->pi.hi),
		"confidence", jnum(1 - h->alpha),
		"geomean", jnum(h->pi.center),
		"sd_log", jnum(h->pi.sd_log),
		"change_pct", jnum(h->pi.change_pct),
		"t", jnum(h->pi.t), "df", jnum((double)h->nruns - 1)));
}

static const char *dir_name(int d)
{
	return d > 0 ? "higher" : d < 0 ? "lower" : "info";
}

/* A row's modes when a side is bimodal (comparison.h: struct cmp_modes). */
static json_t *modes_json(const struct cmp_modes *m)
{
	return json_pack("{s:o, s:o, s:o, s:f, s:f, s:o, s:o, s:o, s:o, s:o, "
			 "s:o, s:o, s:s, s:b}",
		"centre_low", jnum(m->centre_lo),
		"centre_high", jnum(m->centre_hi),
		"split", jnum(m->split),
		"share_high_base", m->share_hi_b,
		"share_high_new", m->share_hi_n,
		"median_low_base", jnum(m->med_lo_b),
		"median_high_base", jnum(m->med_hi_b),
		"median_low_new", jnum(m->med_lo_n),
		"median_high_new", jnum(m->med_hi_n),
		"low_change_pct", jnum(m->lo_change_pct),
		"high_change_pct", jnum(m->hi_change_pct),
		"p_share", jnum(m->p_share),
		"p_share_method", m->by_run ? "welch-t-run-shares" :
					      "fisher-exact-samples",
		"share_changed", m->share_changed);
}

/* The row of a profiled configuration's traced time: its profile diff
   as "profile_diff" and "profile_diff_summary".  0, or -1 on ENOMEM. */
static int profile_json(const struct cmp *c, const struct cmp_row *r,
			json_t *o)
{
	struct pdiff d;
	int rc = pdiff_cmp_row(c, r, &d);

	if (rc == 0 &&
	    (json_object_set_new(o, "profile_diff",
				 profile_diff_rows_json(&d)) != 0 ||
	     json_object_set_new(o, "profile_diff_summary",
				 profile_diff_json(&d)) != 0))
		rc = -1;
	pdiff_free(&d);
	return rc < 0 ? -1 : 0;
}

int cmp_print_json(FILE *out, const struct cmp *c)
{
	int rc_pd = 0;
	json_t *doc = json_object(), *rows = json_array();
	json_t *ob = json_array(), *on = json_array(), *env = json_array();
	size_t i;
	int rc;

	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "base", side_json(&c->base));
	json_object_set_new(doc, "new", side_json(&c->new));
	json_object_set_new(doc, "alpha", json_real(c->opts.alpha));
	json_object_set_new(doc, "noise_pct", json_real(c->opts.noise_pct));
	json_object_set_new(doc, "drop_noisy",
			    json_boolean(c->opts.drop_noisy));
	for (i = 0; i < c->nenvd; i++)
		json_array_append_new(env, json_pack("{s:o, s:o, s:o}",
			"key", codec_json_text(c->envd[i].key),
			"base", codec_json_text(c->envd[i].base),
			"new", codec_json_text(c->envd[i].new)));
	json_object_set_new(doc, "environment_differences", env);
	json_object_set_new(doc, "build_flavour_differs",
			    json_boolean(c->flavour_differs));
	json_object_set_new(doc, "emulated", json_pack("{s:I, s:I, s:b}",
		"base_runs", (json_int_t)c->emulated_base,
		"new_runs", (json_int_t)c->emulated_new,
		"verdicts_withheld", (c->emulated_base || c->emulated_new) &&
				     !c->opts.allow_emulated));
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:s}",
			"workload", codec_json_text(r->ref->cfg->workload),
			"params", report_params_json(r->ref->cfg),
			"metric", codec_json_text(r->ref->metric),
			"unit", codec_json_text(r->ref->unit),
			"direction", dir_name(r->direction));

		if (r->ref_new && r->ref != r->ref_new &&
		    strcmp(r->ref->cfg->params_json,
			   r->ref_new->cfg->params_json) != 0)
			json_object_set_new(o, "params_new",
					    report_params_json(r->ref_new->cfg));
		if (profile_json(c, r, o) != 0)
			rc_pd = -1;
		if (r->in_base && r->in_new) {
			json_object_set_new(o, "base", val_json(&r->b));
			json_object_set_new(o, "new", val_json(&r->n));
			json_object_set_new(o, "change_pct",
					    jnum(r->change_pct));
			json_object_set_new(o, "ci_change_pct",
				json_pack("[o, o]", jnum(r->ci_lo),
					  jnum(r->ci_hi)));
			json_object_set_new(o, "p", jnum(r->p));
			json_object_set_new(o, "u", r->by_run ? json_null() :
					    jnum(r->mw.u));
			json_object_set_new(o, "p_method", json_string(
				r->by_run ? "welch-t-log-run-medians" :
				r->mw.exact ? "exact" : "normal"));
			json_object_set_new(o, "unit_of_test", json_string(
				r->by_run ? "run" : "sample"));
			json_object_set_new(o, "mde_pct", jnum(r->mde_pct));
			json_object_set_new(o, "no_change_beyond_pct",
				r->verdict == VERDICT_SAME ?
				jnum(cmp_no_change_beyond(r)) : json_null());
			if (r->runs_needed >= 0)
				json_object_set_new(o, "runs_needed",
					json_integer(r->runs_needed));
			if (r->by_run)
				json_object_set_new(o, "welch", json_pack(
					"{s:o, s:o, s:o}",
					"t", jnum(r->welch.t),
					"df", jnum(r->welch.df),
					"se_log", jnum(r->welch.se_log)));
			if (r->modes.shown)
				json_object_set_new(o, "modes", modes_json(
					&r->modes));
			json_object_set_new(o, "verdict", json_string(
				r->verdict == VERDICT_INFO ? "info" :
				r->verdict == VERDICT_SAME ? "same" :
				r->verdict == VERDICT_WITHHELD ? "withheld" :
				stats_verdict_name(r->verdict)));
			if (r->reason[0])
				json_object_set_new(o, "reason",
						    json_string(r->reason));
			if (r->same_reading_as)
				json_object_set_new(o, "same_reading_as",
					json_string(r->same_reading_as));
			if (r->hist.used)
				add_hist(o, &r->hist);
			json_array_append_new(rows, o);
		} else if (r->in_base) {
			json_object_set_new(o, "base", val_json(&r->b));
			json_array_append_new(ob, o);
		} else {
			json_object_set_new(o, "new", val_json(&r->n));
			json_array_append_new(on, o);
		}
	}
	json_object_set_new(doc, "rows", rows);
	json_object_set_new(doc, "only_base", ob);
	json_object_set_new(doc, "only_new", on);
	rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
	return rc == 0 && rc_pd == 0 && !ferror(out) ? 0 : -1;
}

void cmp_print_csv(FILE *out, const struct cmp *c)
{
	size_t i;

	fprintf(out, "workload,params,metric,unit,direction,side,base_n,"
		"base_median,base_stddev_pct,new_n,new_median,"
		"new_stddev_pct,change_pct,ci_lo_pct,ci_hi_pct,p,verdict,"
		"unit_of_test,mde_pct\n");
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		report_csv_str(out, r->ref->cfg->workload);
		fputc(',', out);
		report_csv_str(out, r->ref->cfg->params_json);
		fputc(',', out);
		report_csv_str(out, r->ref->metric);
		fprintf(out, ",%s,%s,%s", r->ref->unit, dir_name(r->direction),
			r->in_base && r->in_new ? "both" :
			r->in_base ? "base" : "new");
		if (r->in_base)
			fprintf(out, ",%zu", r->b.n);
		else
			fprintf(out, ",");
		report_csv_num(out, r->in_base ? r->b.s.median : NAN);
		report_csv_num(out, r->in_base ? r->b.s.cv * 100.0 : NAN);
		if (r->in_new)
			fprintf(out, ",%zu", r->n.n);
		else
			fprintf(out, ",");
		report_csv_num(out, r->in_new ? r->n.s.median : NAN);
		report_csv_num(out, r->in_new ? r->n.s.cv * 100.0 : NAN);
		report_csv_num(out, r->change_pct);
		report_csv_num(out, r->ci_lo);
		report_csv_num(out, r->ci_hi);
		report_csv_num(out, r->p);
		fprintf(out, ",%s", !(r->in_base && r->in_new) ? "" :
			r->verdict == VERDICT_INFO ? "info" :
			r->verdict == VERDICT_SAME ? "same" :
			r->verdict == VERDICT_WITHHELD ? "withheld" :
			stats_verdict_name(r->verdict));
		fprintf(out, ",%s", !(r->in_base && r->in_new) ? "" :
			r->by_run ? "run" : "sample");
		report_csv_num(out, r->mde_pct);
		fputc('\n', out);
	}
}

