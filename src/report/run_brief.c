/*
 * run_brief.c - `run`'s short output (see run_brief.h): a configuration
 * per line while a suite runs, and the spread of a group's run medians
 * for `run --runs N`, in the spirit of hyperfine's "mean ± σ, min … max".
 */
#include "report/run_brief.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/workload.h"
#include "report/format.h"
#include "results/codec.h"

#define LINE 80
/* Columns of a brief line: label, value, ±sd, state. */
#define VALUE_W 10
#define SD_W 4
#define STATE_W 16		/* "100/100 flagged", bimodal may pass */
#define LABEL_W (LINE - 2 - 1 - VALUE_W - 1 - SD_W - 1 - STATE_W)

/* Does any configuration of res[0..n-1] give param name another value? */
static bool param_varies(const struct result *res, size_t n,
			 const struct result_param *p)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *v = result_param(res[i].cfg, p->name);

		if (!v || strcmp(v, p->value) != 0)
			return true;
	}
	return false;
}

/* "size=4k writers=2": the parameters of cfg that vary within the job. */
static void varying(const struct result *res, size_t n,
		    const struct result_config *cfg, char *buf, size_t len)
{
	size_t k, used = 0;

	buf[0] = '\0';
	for (k = 0; k < cfg->nparams && used < len; k++)
		if (param_varies(res, n, &cfg->params[k]))
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s=%s", used ? " " : "",
						 cfg->params[k].name,
						 cfg->params[k].value);
}

/* "quiet", "3/10 flagged", with " bimodal" or the status after it. */
static void cfg_state(const struct result_config *cfg, const struct result *r,
		      char *buf, size_t len)
{
	size_t k, nflagged = 0;

	for (k = 0; cfg->load && k < cfg->nsamples; k++)
		nflagged += cfg->load->flags[k] != 0;
	if (nflagged)
		snprintf(buf, len, "%zu/%zu flagged", nflagged, cfg->nsamples);
	else
		snprintf(buf, len, "quiet");
	if (r && r->modes.bimodal)
		strncat(buf, " bimodal", len - strlen(buf) - 1);
	if (cfg->status) {
		strncat(buf, " ", len - strlen(buf) - 1);
		strncat(buf, cfg->status, len - strlen(buf) - 1);
	}
}

/* The result of cfg that a line shows: metric, else its first kept one. */
static const struct result *pick(const struct result *res, size_t n,
				 const struct result_config *cfg,
				 const char *metric)
{
	const struct result *first = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];

		if (r->cfg != cfg || r->trace || r->traced)
			continue;
		if (metric && strcmp(r->metric, metric) == 0)
			return r;
		if (!first)
			first = r;
	}
	return metric ? NULL : first;
}

void run_brief_heading(FILE *out)
{
	fprintf(out, "each configuration: its headline median, ±sd, state "
		"(-v: every table)\n");
}

void run_brief_job(FILE *out, const struct result *res, size_t n,
		   const char *metric)
{
	const struct result_config *last = NULL;
	size_t i, wlw = 0;

	for (i = 0; i < n; i++)
		if (strlen(res[i].cfg->workload) > wlw)
			wlw = strlen(res[i].cfg->workload);
	for (i = 0; i < n; i++) {
		const struct result_config *cfg = res[i].cfg;
		const struct result *r;
		char params[256], label[512], clean[2048], value[32];
		char sd[16], state[64];

		if (cfg == last)
			continue;
		r = pick(res, n, cfg, metric);
		varying(res, n, cfg, params, sizeof(params));
		snprintf(label, sizeof(label), "%-*s %s", (int)wlw,
			 last ? "" : cfg->workload, params);
		last = cfg;
		fmt_clean_text(label, clean, sizeof(clean));
		if (r && r->withheld) {
			/* stats/headline.h: `show RUN` says why */
			snprintf(value, sizeof(value), "withheld");
			snprintf(sd, sizeof(sd), "-");
		} else if (r && r->nsamples) {
			fmt_value(r->summary.median, r->unit, value,
				  sizeof(value));
			snprintf(sd, sizeof(sd), "%.0f%%",
				 r->summary.n > 1 ? r->summary.cv * 100 : 0.0);
		} else {
			snprintf(value, sizeof(value), "-");
			snprintf(sd, sizeof(sd), "-");
		}
		cfg_state(cfg, r, state, sizeof(state));
		if (strlen(clean) > LABEL_W) {
			fprintf(out, "  %s\n", clean);
			clean[0] = '\0';
		}
		fprintf(out, "  %-*s %*s %*s %s\n", LABEL_W, clean, VALUE_W,
			value, SD_W, sd, state);
	}
}

/* The result of runs[k] that matches r (workload, parameters, metric). */
static const struct result *match(const struct run_data *run,
				  const struct result *r)
{
	size_t i;

	for (i = 0; i < run->results.n; i++) {
		const struct result *x = &run->results.v[i];

		if (x->cfg && r->cfg && strcmp(x->metric, r->metric) == 0 &&
		    strcmp(x->cfg->workload, r->cfg->workload) == 0 &&
		    strcmp(x->cfg->params_json, r->cfg->params_json) == 0)
			return x;
	}
	return NULL;
}

/* One metric's line: mean ± sd of the run medians, min .. max, N. */
static void group_line(FILE *out, const struct run_data *runs, size_t nruns,
		       const struct result *r)
{
	double sum = 0, sq = 0, lo = INFINITY, hi = -INFINITY, mean, sd, div;
	char a[32], b[32], c[32], spread[48], range[64];
	const char *unit;
	size_t k, n = 0;

	for (k = 0; k < nruns; k++) {
		const struct result *x = match(&runs[k], r);

		if (!x || !x->nsamples || x->withheld)
			continue;
		sum += x->summary.median;
		lo = fmin(lo, x->summary.median);
		hi = fmax(hi, x->summary.median);
		n++;
	}
	if (!n)
		return;
	mean = sum / (double)n;
	for (k = 0; k < nruns; k++) {
		const struct result *x = match(&runs[k], r);

		if (x && x->nsamples && !x->withheld)
			sq += (x->summary.median - mean) *
			      (x->summary.median - mean);
	}
	sd = n > 1 ? sqrt(sq / (double)(n - 1)) : NAN;
	unit = fmt_scale(mean, r->unit, &div);
	fmt_number(mean / div, a, sizeof(a));
	fmt_number(lo / div, b, sizeof(b));
	fmt_number(hi / div, c, sizeof(c));
	if (isnan(sd) || mean == 0)
		snprintf(spread, sizeof(spread), "%s%s%s ± -", a,
			 *unit ? " " : "", unit);
	else
		snprintf(spread, sizeof(spread), "%s%s%s ± %.1f%%", a,
			 *unit ? " " : "", unit, 100.0 * sd / fabs(mean));
	snprintf(range, sizeof(range), "%s .. %s%s%s", b, c, *unit ? " " : "",
		 unit);
	/* "±" is two bytes and one column */
	fprintf(out, "  %-16.16s %-23s %-24s %3zu\n", r->metric, spread,
		range, n);
}

void run_brief_group(FILE *out, const struct run_data *runs, size_t nruns)
{
	const struct result_config *last = NULL;
	size_t i;

	if (!nruns)
		return;
	fprintf(out, "the runs' medians: mean ± sd (%% of the mean), min .. "
		"max, over N runs\n");
	for (i = 0; i < runs[0].results.n; i++) {
		const struct result *r = &runs[0].results.v[i];
		char head[512], clean[2048];
		size_t k, used;

		if (r->trace || r->traced)
			continue;
		if (r->cfg != last) {
			used = (size_t)snprintf(head, sizeof(head), "%s",
						r->cfg->workload);
			for (k = 0; k < r->cfg->nparams && used < sizeof(head);
			     k++)
				used += (size_t)snprintf(head + used,
					sizeof(head) - used, "  %s=%s",
					r->cfg->params[k].name,
					r->cfg->params[k].value);
			fmt_clean_text(head, clean, sizeof(clean));
			fputc('\n', out);
			fmt_wrap(out, 0, 2, clean);
			fprintf(out, "  %-16s %-23s %-24s %3s\n", "metric",
				"mean ± sd", "min .. max", "N");
		}
		last = r->cfg;
		group_line(out, runs, nruns, r);
	}
}
