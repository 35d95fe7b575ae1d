/*
 * html_plots_forest.c - the comparison's forest plot in the HTML report
 * (see html_plots.h): %change and its CI per row, coloured by verdict,
 * beside its table, each row's p as the text prints it and its note
 * (what a '~' rules out, the spread between runs and boots) under it.
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/comparison_print.h"
#include "report/format.h"
#include "report/html_plots.h"
#include "report/html_plots_priv.h"

/* ---- a comparison ---- */

/*
 * "pipe.bw size=64k: bandwidth": the row's workload, its parameters that
 * differ between rows of that workload or between the sides ("inject_ns=
 * 0->30ns", with --ignore-param), its metric.
 */
void html_cmp_row_label(const struct cmp *c, const struct cmp_row *row,
			char *buf, size_t len)
{
	const struct result_config *me = row->ref->cfg;
	const char *other;
	size_t k, i, used;

	used = (size_t)snprintf(buf, len, "%s", me->workload);
	for (k = 0; k < me->nparams && used < len; k++) {
		bool varies = false;

		for (i = 0; i < c->nrows && !varies; i++) {
			const struct result_config *o = c->rows[i].ref->cfg;
			const char *x = result_param(o, me->params[k].name);

			varies = strcmp(o->workload, me->workload) == 0 &&
				 (!x || strcmp(x, me->params[k].value) != 0);
		}
		other = row->ref_new ? result_param(row->ref_new->cfg,
						    me->params[k].name) : NULL;
		if (other && strcmp(other, me->params[k].value) != 0)
			used += (size_t)snprintf(buf + used, len - used,
						 " %s=%s->%s",
						 me->params[k].name,
						 me->params[k].value, other);
		else if (varies)
			used += (size_t)snprintf(buf + used, len - used,
						 " %s=%s", me->params[k].name,
						 me->params[k].value);
	}
	if (used < len)
		snprintf(buf + used, len - used, ": %s", row->ref->metric);
}

static const char *verdict_key(const struct cmp_row *r)
{
	switch (r->verdict) {
	case VERDICT_BETTER:
		return "better";
	case VERDICT_WORSE:
		return "worse";
	case VERDICT_INFO:
		return "info";
	case VERDICT_EMPTY:
		return "empty";
	case VERDICT_WITHHELD:
		return "withheld";
	default:
		return "same";
	}
}

int html_forest_plot(FILE *f, const struct cmp *c)
{
	json_t *rows = json_array();
	char label[LABEL_LEN], note[512];
	size_t i, nr = 0;

	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->in_base || !r->in_new || isnan(r->change_pct))
			continue;
		html_cmp_row_label(c, r, label, sizeof(label));
		json_array_append_new(rows, json_pack(
			"{s:s, s:f, s:o, s:o, s:s}", "label", label,
			"change", r->change_pct,
			"lo", isnan(r->ci_lo) ? json_real(r->change_pct) :
			json_real(r->ci_lo),
			"hi", isnan(r->ci_hi) ? json_real(r->change_pct) :
			json_real(r->ci_hi), "verdict", verdict_key(r)));
		nr++;
	}
	if (!nr) {
		json_decref(rows);
		return 0;
	}
	html_figure(f, "forest", "%change of the medians (new against base) "
	       "with its 95% CI, by verdict: better green, worse red, ~ grey",
	       60 + 24 * (int)nr, json_pack("{s:s, s:o}", "xlabel",
					    "%change", "rows", rows));
	fprintf(f, "<table><tr>");
	html_th(f, "row");
	html_th(f, "base");
	html_th(f, "±sd");
	html_th(f, "%change");
	html_th(f, "new");
	html_th(f, "±sd");
	html_th(f, "p");
	html_th(f, "95% CI");
	html_th(f, "verdict");
	fprintf(f, "</tr>\n");
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		char a[64];

		fprintf(f, "<tr class=\"%s\">", r->in_base && r->in_new ?
			verdict_key(r) : "one-side");
		html_cmp_row_label(c, r, label, sizeof(label));
		html_td(f, label);
		if (r->in_base) {
			fmt_value(r->b.s.median, r->ref->unit, a, sizeof(a));
			html_tdn(f, a);
			snprintf(a, sizeof(a), "±%.0f%%", r->b.s.cv * 100);
			html_tdn(f, a);
		} else {
			html_tdn(f, "-");
			html_tdn(f, "");
		}
		if (r->in_base && r->in_new && !isnan(r->change_pct))
			snprintf(a, sizeof(a), "%+.1f%%", r->change_pct);
		else
			snprintf(a, sizeof(a), "%s", r->in_base ? "base only"
				 : "new only");
		html_tdn(f, a);
		if (r->in_new) {
			fmt_value(r->n.s.median, r->ref->unit, a, sizeof(a));
			html_tdn(f, a);
			snprintf(a, sizeof(a), "±%.0f%%", r->n.s.cv * 100);
			html_tdn(f, a);
		} else {
			html_tdn(f, "-");
			html_tdn(f, "");
		}
		if (r->in_base && r->in_new) {
			/* the p that decides, as the text prints it */
			fmt_p(r->p, a, sizeof(a));
			fprintf(f, "<td class=\"num p\">");
			html_text(f, a);
			fprintf(f, "</td>");
			snprintf(a, sizeof(a), "%+.0f..%+.0f", r->ci_lo,
				 r->ci_hi);
			html_tdn(f, isnan(r->ci_lo) ? "-" : a);
			html_td(f, r->verdict == VERDICT_INFO ? "info" :
			   stats_verdict_name(r->verdict));
		} else {
			html_tdn(f, "");
			html_tdn(f, "");
			html_td(f, "");
		}
		fprintf(f, "</tr>\n");
		if (r->in_base && r->in_new &&
		    cmp_power_text(r, &c->opts, note, sizeof(note))) {
			fprintf(f, "<tr class=\"note\"><td></td><td colspan="
				"\"8\">");
			html_text(f, note);
			fprintf(f, "</td></tr>\n");
		}
	}
	fprintf(f, "</table>\n");
	html_end_figure(f);
	return 1;
}
