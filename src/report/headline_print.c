/*
 * headline_print.c - the summary that ends a suite's run (see
 * headline_print.h): each line's figures, and the text form `run` and
 * `show` print.
 */
#include "report/headline_print.h"

#include <stdbool.h>
#include <string.h>

#include "core/workload.h"
#include "report/format.h"

/* The metric a line shows: its own, else its workload's first. */
static const char *line_metric(const struct summary_line *l)
{
	const struct workload *wl;

	if (l->metric)
		return l->metric;
	wl = workload_find(l->workload);
	return wl && wl->nmetrics ? wl->metrics[0].name : "";
}

void headline_compute(const struct summary_line *l, const struct result *res,
		      size_t n, struct headline_row *row)
{
	const struct result *lo = NULL, *hi = NULL;
	size_t i, k, nconf = 0, nsamples = 0, nflagged = 0, nwithheld = 0;
	double cv = 0;
	bool bimodal = false;
	char a[32], b[32];

	memset(row, 0, sizeof(*row));
	row->label = l->label ? l->label : "";
	row->workload = l->workload;
	row->metric = line_metric(l);
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];

		if (r->cfg->job != l->job || r->trace)
			continue;
		if (i == 0 || res[i - 1].cfg != r->cfg) {
			nsamples += r->cfg->nsamples;
			for (k = 0; r->cfg->load && k < r->cfg->nsamples; k++)
				nflagged += r->cfg->load->flags[k] != 0;
			row->broken |= r->cfg->status != NULL;
		}
		if (strcmp(r->metric, row->metric) != 0 || !r->nsamples)
			continue;
		if (r->withheld) {	/* stats/headline.h: no figure */
			nwithheld++;
			continue;
		}
		nconf++;
		if (!lo || r->summary.median < lo->summary.median)
			lo = r;
		if (!hi || r->summary.median > hi->summary.median)
			hi = r;
		if (r->summary.n > 1 && r->summary.cv > cv)
			cv = r->summary.cv;
		bimodal |= r->modes.bimodal;
	}
	if (!lo && nwithheld) {
		/* every configuration withheld it (stats/headline.h): no
		   figure, and the samples that made it so */
		row->measured = true;
		snprintf(row->value, sizeof(row->value), "withheld");
		snprintf(row->sd, sizeof(row->sd), "-");
		snprintf(row->state, sizeof(row->state), "%zu/%zu flagged",
			 nflagged, nsamples);
		return;
	}
	if (!lo) {
		snprintf(row->state, sizeof(row->state), "%s", row->broken ?
			 "no value" : "not measured here");
		return;
	}
	row->measured = true;
	if (nconf == 1) {
		fmt_value(lo->summary.median, lo->unit, row->value,
			  sizeof(row->value));
	} else {
		double div;
		const char *unit = fmt_scale(lo->summary.median, lo->unit,
					     &div);

		fmt_number(lo->summary.median / div, a, sizeof(a));
		fmt_number(hi->summary.median / div, b, sizeof(b));
		snprintf(row->value, sizeof(row->value), "%s .. %s%s%s", a, b,
			 *unit ? " " : "", unit);
	}
	snprintf(row->sd, sizeof(row->sd), "%.0f%%", cv * 100);
	if (nflagged)
		snprintf(row->state, sizeof(row->state), "%zu/%zu flagged",
			 nflagged, nsamples);
	else
		snprintf(row->state, sizeof(row->state), "quiet");
	if (bimodal)
		strncat(row->state, " bimodal",
			sizeof(row->state) - strlen(row->state) - 1);
	if (nwithheld)	/* withheld implies flagged; the column is short */
		snprintf(row->state, sizeof(row->state), "%zu of %zu withheld",
			 nwithheld, nwithheld + nconf);
	if (row->broken)
		strncat(row->state, " incomplete",
			sizeof(row->state) - strlen(row->state) - 1);
}

static void print_line(FILE *out, const struct summary_line *l,
		       const struct result *res, size_t n, bool stopped)
{
	struct headline_row row;

	headline_compute(l, res, n, &row);
	fprintf(out, "  %-5s %-13s %-14s", row.label, row.workload,
		row.metric);
	if (!row.measured) {
		/* a run that stopped early never came to the rest */
		fprintf(out, "     %s\n", row.broken ? "no value (see above)" :
			stopped ? "not measured: the run stopped" :
			"not measured here");
		return;
	}
	fprintf(out, " %18s %4s %s\n", row.value, row.sd, row.state);
}

void summary_print(FILE *out, const struct run_info *run, const char *db,
		   const struct summary_line *lines, size_t nl,
		   const struct result *res, size_t n)
{
	size_t i;

	if (run->id > 0)
		fprintf(out, "summary of run %lld: headline medians (a "
			"sweep's range), largest ±sd, state\n",
			(long long)run->id);
	else
		fprintf(out, "summary (not stored): headline medians (a "
			"sweep's range), largest ±sd, state\n");
	fprintf(out, "  %-5s %-13s %-14s %18s %5s %s\n", "exp", "workload",
		"metric", "median", "±sd", "state");
	for (i = 0; i < nl; i++)
		print_line(out, &lines[i], res, n,
			   strcmp(run->status, "complete") != 0);
	if (run->id > 0)
		fprintf(out, "draw it: copyscope report %lld%s%s -o "
			"run-%lld.html\n", (long long)run->id, db ? " --db " :
			"", db ? db : "", (long long)run->id);
	else
		fprintf(out, "(not stored: nothing for 'copyscope report' to "
			"draw)\n");
}
