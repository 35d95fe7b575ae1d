/*
 * table.c - the human results table (see report.h).
 *
 * Layout of one job (a workload and its sweep):
 *
 *   pipe.bw  mode=proc place=split io=write reader=read verify=0
 *     size  metric          median    ±sd   95% CI of median          n
 *     4k    bandwidth   1.23 GiB/s   2.1%   1.20 .. 1.25 GiB/s       10
 *           time/write     3.33 us   2.1%   3.30 .. 3.40 us          10
 *           writer cpu 0, reader cpu 1; 0.52 ctx switches/op; ...
 *
 * Everything comes from the results model: the configuration of each
 * result carries the job number, the workers and their CPUs, counters,
 * notes, verify, and the result its trace or histogram details.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/fit_report.h"
#include "report/format.h"
#include "report/grid.h"
#include "report/notes.h"
#include "report/report.h"
#include "stats/histogram.h"

#define MAX_COLS 16
#define METRIC_COL 12		/* the metric column's least width */
/* One block: results [first, last) of one job. */
struct block {
	const struct result *res;
	size_t first, last;
	const char *vary[MAX_COLS];	/* parameter names that vary */
	size_t nvary;
	size_t width[MAX_COLS];
	int mw;				/* the metric column: its longest
					   name, at least METRIC_COL */
	const char *label;		/* "A", "B", "A'" of an ab run; NULL */
};

static const char *param_str(const struct result *r, const char *key)
{
	const char *s = result_param(r->cfg, key);

	return s ? s : "";
}

/* Find which parameters vary across the configurations of a block. */
static void find_varying(struct block *b)
{
	const struct result_config *first = b->res[b->first].cfg;
	size_t i, k;

	b->nvary = 0;
	for (k = 0; k < first->nparams; k++) {
		const char *key = first->params[k].name;
		bool varies = false;

		for (i = b->first + 1; i < b->last && !varies; i++)
			varies = strcmp(param_str(&b->res[i], key),
					first->params[k].value) != 0;
		if (varies && b->nvary < MAX_COLS) {
			b->vary[b->nvary] = key;
			b->width[b->nvary] = strlen(key);
			b->nvary++;
		}
	}
	b->mw = METRIC_COL;
	for (i = b->first; i < b->last; i++) {
		size_t c, m = strlen(b->res[i].metric);

		if (!b->res[i].trace && m > (size_t)b->mw && m < 40)
			b->mw = (int)m;
		for (c = 0; c < b->nvary; c++) {
			size_t w = strlen(param_str(&b->res[i], b->vary[c]));

			if (w > b->width[c])
				b->width[c] = w;
		}
	}
}

static bool is_varying(const struct block *b, const char *key)
{
	size_t c;

	for (c = 0; c < b->nvary; c++)
		if (strcmp(b->vary[c], key) == 0)
			return true;
	return false;
}

static void print_heading(FILE *out, const struct block *b)
{
	const struct result_config *c = b->res[b->first].cfg;
	struct fmt_items line;
	size_t k;

	if (b->label) {
		char first[200];

		snprintf(first, sizeof(first), "%s: %s", b->label,
			 c->workload);
		fmt_items_begin(&line, out, first);
	} else {
		fmt_items_begin(&line, out, c->workload);
	}
	for (k = 0; k < c->nparams; k++) {
		if (is_varying(b, c->params[k].name))
			continue;
		fmt_items_addf(&line, "%s=%s", c->params[k].name,
			       c->params[k].value);
	}
	fmt_items_end(&line);
}

static void print_columns(FILE *out, const struct block *b)
{
	size_t c;

	fprintf(out, "  ");
	for (c = 0; c < b->nvary; c++)
		fprintf(out, "%-*s  ", (int)b->width[c], b->vary[c]);
	/* "±" is two bytes and one column: its cell is 6 columns */
	fprintf(out, "%-*s %11s %7s   %-20s %4s\n", b->mw, "metric", "median",
		"±sd", "95% CI of median", "n");
}

static void print_param_cells(FILE *out, const struct block *b,
			      const struct result *r, bool show)
{
	size_t c;

	fprintf(out, "  ");
	for (c = 0; c < b->nvary; c++)
		fprintf(out, "%-*s  ", (int)b->width[c],
			show ? param_str(r, b->vary[c]) : "");
}

static void print_metric_row(FILE *out, const struct result *r, int mw)
{
	const struct summary *s = &r->summary;
	char med[32], lo[32], hi[32], ci[48], sd[16];
	const char *label;
	double div;

	label = fmt_scale(s->median, r->unit, &div);
	fmt_number(s->median / div, med, sizeof(med));
	fmt_number(s->ci_lo / div, lo, sizeof(lo));
	fmt_number(s->ci_hi / div, hi, sizeof(hi));
	snprintf(ci, sizeof(ci), "%s .. %s%s%s", lo, hi, *label ? " " : "",
		 label);
	if (strlen(ci) > 20)	/* the column: the median names the unit */
		snprintf(ci, sizeof(ci), "%s .. %s", lo, hi);
	/* the stats layer decided (summary_ci_reason()): below 6 samples no
	   interval of the median reaches 95%, and there is none to print */
	if (isnan(s->ci_lo) || isnan(s->ci_hi))
		snprintf(ci, sizeof(ci), "n too small for a CI");
	if (s->n > 1)
		snprintf(sd, sizeof(sd), "%.1f%%", s->cv * 100.0);
	else
		snprintf(sd, sizeof(sd), "-");
	if (r->withheld) {
		/* no figure: the note under the rows says why */
		fprintf(out, "%-*s %11s %6s   %-20s %4zu\n", mw, r->metric,
			"withheld", "-", "(see below)", r->nsamples);
		return;
	}
	if (*label) {
		char m[48];

		snprintf(m, sizeof(m), "%s %s", med, label);
		fprintf(out, "%-*s %11s %6s   %-20s %4zu\n", mw, r->metric, m,
			sd, ci, s->n);
	} else {
		fprintf(out, "%-*s %11s %6s   %-20s %4zu\n", mw, r->metric,
			med, sd, ci, s->n);
	}
}

/* "writer cpu 0, reader cpu 1" from the configuration's workers. */
static void placement_text(const struct result_config *c, char *buf,
			   size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < c->nworkers; i++) {
		const struct result_worker *w = &c->workers[i];
		char list[64] = "";
		size_t k, l = 0;

		for (k = 0; k < w->ncpus && l < sizeof(list); k++)
			l += (size_t)snprintf(list + l, sizeof(list) - l,
					      "%s%d", k ? "," : "", w->cpus[k]);
		used += (size_t)snprintf(buf + used, len - used, "%s%s cpu %s%s",
					 i ? ", " : "", w->name,
					 w->ncpus ? list : "?",
					 w->cpu_requested < 0 ? " (unpinned)"
							      : "");
		if (used >= len)
			break;
	}
}

static void wrap_print(FILE *out, const char *text)
{
	fmt_wrap(out, 4, 6, text);
}

static void print_per_worker(FILE *out, const struct result_config *c)
{
	size_t i;

	if (!c->nper_worker)
		return;
	wrap_print(out, "per worker: mean, p50, p99, max");
	for (i = 0; i < c->nper_worker; i++) {
		const struct result_worker_ops *w = &c->per_worker[i];
		char mean[32], p50[32], p99[32], mx[32];

		fmt_value(w->mean_ns, "ns", mean, sizeof(mean));
		fmt_value((double)w->p50_ns, "ns", p50, sizeof(p50));
		fmt_value((double)w->p99_ns, "ns", p99, sizeof(p99));
		fmt_value((double)w->max_ns, "ns", mx, sizeof(mx));
		fprintf(out, "      %-10s %10s %10s %10s %10s\n", w->name, mean,
			p50, p99, mx);
	}
}

static void print_config_info(FILE *out, const struct result_config *c)
{
	char text[512], place[256];
	double ops = (double)c->batch_ops, cs, mig;
	size_t used;

	placement_text(c, place, sizeof(place));
	used = (size_t)snprintf(text, sizeof(text), "%s;", place);
	cs = result_counter_median(c, c->ctx_switches, ops);
	mig = result_counter_median(c, c->migrations, ops);
	if (!isnan(cs) && cs >= 0.001)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 " %.3g ctx switches/op;", cs);
	else if (!isnan(cs))
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 " %.3g ctx switches per 1M ops;",
					 cs * 1e6);
	if (!isnan(mig) && mig > 0)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 " %.3g migrations/op;", mig);
	snprintf(text + used, sizeof(text) - used, " %llu ops/sample",
		 (unsigned long long)c->batch_ops);
	wrap_print(out, text);
	print_per_worker(out, c);
}

static void print_trace(FILE *out, const struct result *r)
{
	char text[4096], v[32];
	size_t i, used;
	double steady;

	used = (size_t)snprintf(text, sizeof(text), "cold calls in a fresh "
				"process, %s:", r->metric);
	for (i = 0; i < r->nsamples && used < sizeof(text) - 64; i++) {
		fmt_value(r->samples[i], r->unit, v, sizeof(v));
		/* "#3 142 ns" is one item: never broken over two lines */
		for (char *sp = strchr(v, ' '); sp; sp = strchr(sp, ' '))
			*sp = FMT_NBSP;
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 " #%zu%c%s", i + 1, FMT_NBSP, v);
	}
	if (r->nsamples >= 4) {
		/* the last half of the trace as its own steady state */
		steady = stats_median(r->samples + r->nsamples / 2,
				      r->nsamples - r->nsamples / 2);
		fmt_value(steady, r->unit, v, sizeof(v));
		for (char *sp = strchr(v, ' '); sp; sp = strchr(sp, ' '))
			*sp = FMT_NBSP;
		snprintf(text + used, sizeof(text) - used,
			 "; median of the last half %s", v);
	}
	wrap_print(out, text);
}

struct histogram *report_hist_rebuild(const struct result_hist *h)
{
	struct histogram *hist = hist_new(UINT64_MAX - 1);
	size_t i;
	uint64_t k;

	if (!hist)
		return NULL;
	for (i = 0; i < h->nbuckets; i++)
		for (k = 0; k < h->buckets[i].count; k++)
			hist_record(hist, h->buckets[i].hi < 0 ?
				    h->max_ns : (uint64_t)h->buckets[i].lo);
	hist->min_seen = h->min_ns;
	hist->max_seen = h->max_ns;
	return hist;
}

static void print_hist(FILE *out, const struct result *r)
{
	const struct result_hist *h = r->hist;
	struct histogram *hist = report_hist_rebuild(h);
	static const double pct[] = { 50, 90, 99, 99.9 };
	char text[256], v[32];
	size_t i, used;

	if (!hist)
		return;
	used = (size_t)snprintf(text, sizeof(text), "per-op times of the %s "
				"(%llu ops, each with one timer read):",
				h->of ? h->of : "?",
				(unsigned long long)h->ops);
	for (i = 0; i < 4; i++) {
		fmt_value((double)hist_percentile(hist, pct[i]), "ns", v,
			  sizeof(v));
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 " p%g %s", pct[i], v);
	}
	fmt_value((double)hist->max_seen, "ns", v, sizeof(v));
	snprintf(text + used, sizeof(text) - used, " max %s", v);
	wrap_print(out, text);
	hist_print_log2_at(hist, out, "ns", REPORT_HIST_INDENT);
	hist_free(hist);
}

/* One note under a configuration, wrapped. */
static void print_note(void *arg, enum note_kind kind,
		       const struct result *r, const char *text)
{
	(void)kind;
	(void)r;
	wrap_print(arg, text);
}

static void print_block(FILE *out, struct block *b)
{
	size_t i;

	find_varying(b);
	print_heading(out, b);
	print_columns(out, b);
	for (i = b->first; i < b->last;) {
		size_t j, end = i + 1;

		while (end < b->last && b->res[end].cfg == b->res[i].cfg)
			end++;
		for (j = i; j < end; j++) {
			if (b->res[j].trace)
				continue;
			print_param_cells(out, b, &b->res[j], j == i);
			print_metric_row(out, &b->res[j], b->mw);
		}
		print_config_info(out, b->res[i].cfg);
		report_notes(b->res + i, end - i, print_note, out);
		for (j = i; j < end; j++) {
			if (b->res[j].trace)
				print_trace(out, &b->res[j]);
			else if (b->res[j].hist && b->res[j].hist->nbuckets)
				print_hist(out, &b->res[j]);
		}
		report_kernel(out, b->res[i].cfg);
		i = end;
	}
	fit_report_block(out, b->res + b->first, b->last - b->first);
	if (grid_print(out, b->res + b->first, b->last - b->first) < 0)
		fprintf(out, "  (grid: out of memory)\n");
}

void report_results(FILE *out, const struct result *res, size_t n)
{
	report_results_labelled(out, res, n, NULL, 0);
}

void report_results_labelled(FILE *out, const struct result *res, size_t n,
			     const char *const *labels, size_t nlabels)
{
	size_t i = 0;

	while (i < n) {
		struct block b = { .res = res, .first = i };
		const struct result_config *c = res[i].cfg;

		if (c->job >= 0 && (size_t)c->job < nlabels)
			b.label = labels[c->job];

		b.last = i + 1;
		while (b.last < n &&
		       strcmp(res[b.last].cfg->workload, c->workload) == 0 &&
		       res[b.last].cfg->job == c->job)
			b.last++;
		if (i)
			fputc('\n', out);
		print_block(out, &b);
		i = b.last;
	}
}
