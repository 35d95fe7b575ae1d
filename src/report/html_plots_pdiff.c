/*
 * html_plots_pdiff.c - the table of a kernel profile diff
 * (comparison/profile_diff.h, by function) beside the report's
 * differential flame graphs (html_plots_flame.c): the text's diff
 * (report/profile_diff_print.c) as an HTML table.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison/profile_diff.h"
#include "report/format.h"
#include "report/html_plots.h"
#include "report/html_plots_priv.h"
#include "report/profile_diff_print.h"

static void pd_cell(FILE *f, double v, bool sign)
{
	char a[32];

	pdiff_ns_text(v, sign, a, sizeof(a));
	html_tdn(f, a);
}

static void pd_cell_ci(FILE *f, const struct mean_ci *c)
{
	char a[72];

	pdiff_ci_text(c, " .. ", a, sizeof(a));
	html_tdn(f, a);
}

/* The change a table of d shows for row r: B - A, or the control's. */
static const struct mean_ci *pd_change(const struct pdiff_row *r,
				       bool control)
{
	return control ? &r->ctl : &r->change;
}

/* qsort_r: indices into the rows rows, by the control's |change|. */
static int by_ctl(const void *x, const void *y, void *rows)
{
	const struct pdiff_row *v = rows;
	const struct pdiff_row *p = &v[*(const size_t *)x];
	const struct pdiff_row *q = &v[*(const size_t *)y];
	double a = fabs(p->ctl.est), b = fabs(q->ctl.est);

	if (a != b)
		return a > b ? -1 : 1;
	return strcmp(p->function, q->function);
}

/* What the table's rows are: how many units, what a value is. */
static void pd_how(FILE *f, const struct pdiff *d, bool control,
		   const char *an, const char *bn)
{
	char t[900];

	if (d->paired)
		snprintf(t, sizeof(t), "Self ns per op, the profile diff's "
			 "(as the text's and --json's profile_diff): a "
			 "function's value in a round is its share of the "
			 "round's profile samples x the op's time; the change "
			 "is the mean of %s - %s over the %zu rounds (%zu left "
			 "out: a side without samples in them) with its "
			 "Student t 95%% CI%s.", control ? "A'" : bn, an,
			 d->units[0], d->left_out, control ? "" :
			 ", beside the control's (A' - A)");
	else if (d->by_run)
		snprintf(t, sizeof(t), "Self ns per op, the profile diff's "
			 "(as compare's text and --json's profile_diff), "
			 "unpaired, by run: %zu runs on %s, %zu on %s, each a "
			 "unit (its traced samples' mean); the change is %s's "
			 "mean - %s's with Welch's 95%% CI from the runs' "
			 "spread.  No control.", d->units[0], an, d->units[1],
			 bn, bn, an);
	else
		snprintf(t, sizeof(t), "Self ns per op, the profile diff's "
			 "(as compare's text and --json's profile_diff), "
			 "unpaired: %zu traced samples of %zu run(s) on %s, "
			 "%zu of %zu on %s, each a unit (%zu left out: no "
			 "samples); the change is %s's mean - %s's with "
			 "Welch's 95%% CI from the samples' spread (drift "
			 "between runs is in it only as far as it spreads the "
			 "samples).  No control.", d->units[0], d->nruns[0],
			 an, d->units[1], d->nruns[1], bn, d->left_out, bn,
			 an);
	fprintf(f, "<p class=\"muted\">");
	html_text(f, t);
	if (d->paired && d->dropped)
		fprintf(f, "  %zu disturbed rounds left out (--drop-noisy).",
			d->dropped);
	fprintf(f, "</p>\n");
}

void html_pdiff_table(FILE *f, const struct pdiff *d, bool control,
		      const char *an, const char *bn)
{
	size_t *ord = calloc(d->n + 1, sizeof(*ord));
	size_t i, shown = 0;
	const struct mean_ci *op = control ? &d->op_ctl : &d->op;
	double sum = 0;
	char t[600], x[32], y[32], ci[160], chg[64];

	if (!ord) {
		fprintf(f, "<p>(out of memory)</p>\n");
		return;
	}
	for (i = 0; i < d->n; i++)
		ord[i] = i;
	if (control)
		qsort_r(ord, d->n, sizeof(*ord), by_ctl, (void *)d->rows);
	snprintf(chg, sizeof(chg), "%s - %s", control ? "A'" : bn, an);
	fprintf(f, "<table class=\"profile-diff\"><tr>");
	html_th(f, "function");
	snprintf(t, sizeof(t), "%s ns/op", an);
	html_th(f, t);
	if (!control) {
		snprintf(t, sizeof(t), "%s ns/op", bn);
		html_th(f, t);
	}
	html_th(f, chg);
	html_th(f, "95% CI");
	if (d->paired && !control)
		html_th(f, "A' - A 95% CI");
	if (!control)
		html_th(f, "moved");
	fprintf(f, "</tr>\n");
	for (i = 0; i < d->n && shown < HTML_PDIFF_TOP; i++) {
		const struct pdiff_row *r = &d->rows[ord[i]];
		const struct mean_ci *c = pd_change(r, control);
		bool mv = !control && r->moved;

		if (r->a_ns == 0 && (control ? c->est == 0 : r->b_ns == 0))
			continue;	/* no sample on either side */
		shown++;
		sum += c->est;
		fprintf(f, "<tr class=\"%s\">", !mv ? "unmoved" :
			c->est > 0 ? "grew" : "shrank");
		html_td(f, r->function);
		pd_cell(f, r->a_ns, false);
		if (!control)
			pd_cell(f, r->b_ns, false);
		pd_cell(f, c->est, true);
		pd_cell_ci(f, c);
		if (d->paired && !control)
			pd_cell_ci(f, &r->ctl);
		if (!control)
			html_tdn(f, mv ? "*" : "");
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	pd_how(f, d, control, an, bn);
	pdiff_ns_text(sum, true, x, sizeof(x));
	pdiff_ns_text(op->est, true, y, sizeof(y));
	pdiff_ci_text(op, " .. ", ci, sizeof(ci));
	if (d->paired && !control) {
		char cc[80];

		pdiff_ci_text(&d->op_ctl, " .. ", cc, sizeof(cc));
		snprintf(ci + strlen(ci), sizeof(ci) - strlen(ci),
			 "; the control's %s", cc);
	}
	if (control)
		snprintf(t, sizeof(t), "These %zu explain %s of %s ns per op: "
			 "the op's mean change A' - A over the same rounds "
			 "(95%% CI %s).  What moves here is noise: it is the "
			 "control the other figure's marks must clear.",
			 shown, x, y, ci);
	else
		snprintf(t, sizeof(t), "These %zu explain %s of %s ns per op: "
			 "the op's mean change over the same %s (95%% CI %s).  "
			 "*: moved, its CI excludes 0%s (%zu of %zu "
			 "functions).", shown, x, y, d->paired ? "rounds" :
			 d->by_run ? "runs" : "samples", ci, d->paired ?
			 " and clears the control's" : "", pdiff_moved(d),
			 d->n);
	fprintf(f, "<p class=\"muted\">");
	html_text(f, t);
	if (d->n > shown)
		fprintf(f, "  %zu function%s more (--json: profile_diff).",
			d->n - shown, d->n - shown == 1 ? "" : "s");
	fprintf(f, "</p>\n");
	free(ord);
}
