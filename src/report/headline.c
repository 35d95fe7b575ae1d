/*
 * headline.c - the summary that ends a suite's run (see summary.h).
 */
#include "report/headline.h"

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

static void print_line(FILE *out, const struct summary_line *l,
		       const struct result *res, size_t n, bool stopped)
{
	const char *metric = line_metric(l);
	const struct result *lo = NULL, *hi = NULL;
	size_t i, k, nconf = 0, nsamples = 0, nflagged = 0;
	double cv = 0;
	bool bimodal = false, broken = false;
	char value[64], a[32], b[32], sd[16], state[48];

	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];

		if (r->cfg->job != l->job || r->trace)
			continue;
		if (i == 0 || res[i - 1].cfg != r->cfg) {
			nsamples += r->cfg->nsamples;
			for (k = 0; r->cfg->load && k < r->cfg->nsamples; k++)
				nflagged += r->cfg->load->flags[k] != 0;
			broken |= r->cfg->status != NULL;
		}
		if (strcmp(r->metric, metric) != 0 || !r->nsamples)
			continue;
		nconf++;
		if (!lo || r->summary.median < lo->summary.median)
			lo = r;
		if (!hi || r->summary.median > hi->summary.median)
			hi = r;
		if (r->summary.n > 1 && r->summary.cv > cv)
			cv = r->summary.cv;
		bimodal |= r->modes.bimodal;
	}
	fprintf(out, "  %-5s %-11s %-14s", l->label ? l->label : "",
		l->workload, metric);
	if (!lo) {
		/* a run that stopped early never came to the rest */
		fprintf(out, "     %s\n", broken ? "no value (see above)" :
			stopped ? "not measured: the run stopped" :
			"not measured here");
		return;
	}
	if (nconf == 1) {
		fmt_value(lo->summary.median, lo->unit, value, sizeof(value));
	} else {
		double div;
		const char *unit = fmt_scale(lo->summary.median, lo->unit,
					     &div);

		fmt_number(lo->summary.median / div, a, sizeof(a));
		fmt_number(hi->summary.median / div, b, sizeof(b));
		snprintf(value, sizeof(value), "%s .. %s%s%s", a, b,
			 *unit ? " " : "", unit);
	}
	snprintf(sd, sizeof(sd), "%.0f%%", cv * 100);
	if (nflagged)
		snprintf(state, sizeof(state), "%zu/%zu flagged", nflagged,
			 nsamples);
	else
		snprintf(state, sizeof(state), "quiet");
	if (bimodal)
		strncat(state, " bimodal", sizeof(state) - strlen(state) - 1);
	if (broken)
		strncat(state, " incomplete",
			sizeof(state) - strlen(state) - 1);
	fprintf(out, " %18s %4s %s\n", value, sd, state);
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
	fprintf(out, "  %-5s %-11s %-14s %18s %5s %s\n", "exp", "workload",
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
