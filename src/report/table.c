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
 * The results' info JSON (written by cli/run.c) carries the job number,
 * the workers and their CPUs, counters, notes, verify, trace and
 * histogram details.
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/workload.h"
#include "report/fit_report.h"
#include "report/format.h"
#include "report/grid.h"
#include "report/report.h"
#include "stats/histogram.h"
#include "stats/modes.h"
#include "stats/summary.h"

#define MAX_COLS 16
#define LINE 80

/* One block: results [first, last) of one job. */
struct block {
	const struct store_result *res;
	size_t first, last;
	const char *vary[MAX_COLS];	/* parameter names that vary */
	size_t nvary;
	size_t width[MAX_COLS];
};

static json_t *load_json(const char *s)
{
	return s ? json_loads(s, 0, NULL) : NULL;
}

static json_int_t info_job(const struct store_result *r)
{
	json_t *j = load_json(r->info_json);
	json_int_t job = j ? json_integer_value(json_object_get(j, "job")) : 0;

	json_decref(j);
	return job;
}

static const char *param_str(json_t *params, const char *key)
{
	const char *s = json_string_value(json_object_get(params, key));

	return s ? s : "";
}

/*
 * The parameter names of a result in the order its workload declares them
 * (JSON key order for a workload this build does not know).  Returns the
 * count; names point into the workload table or into params.
 */
static size_t ordered_keys(const char *workload, json_t *params,
			   const char **keys, size_t max)
{
	const struct workload *wl = workload_find(workload);
	const char *key;
	json_t *val;
	size_t n = 0, i;

	if (wl) {
		for (i = 0; i < wl->nparams && n < max; i++)
			if (json_object_get(params, wl->params[i].name))
				keys[n++] = wl->params[i].name;
	}
	json_object_foreach(params, key, val) {
		bool known = false;

		for (i = 0; i < n; i++)
			known |= strcmp(keys[i], key) == 0;
		if (!known && n < max)
			keys[n++] = key;
	}
	return n;
}

/* Find which parameters vary across the configurations of a block. */
static void find_varying(struct block *b)
{
	json_t *first = load_json(b->res[b->first].params_json);
	const char *keys[MAX_COLS * 2];
	size_t i, k, nkeys;

	nkeys = ordered_keys(b->res[b->first].workload, first, keys,
			     sizeof(keys) / sizeof(keys[0]));
	b->nvary = 0;
	for (k = 0; k < nkeys; k++) {
		const char *key = keys[k];
		json_t *val = json_object_get(first, key);
		bool varies = false;

		for (i = b->first + 1; i < b->last && !varies; i++) {
			json_t *p = load_json(b->res[i].params_json);

			varies = strcmp(param_str(p, key),
					json_string_value(val) ?
					json_string_value(val) : "") != 0;
			json_decref(p);
		}
		if (varies && b->nvary < MAX_COLS) {
			b->vary[b->nvary] = strdup(key);
			b->width[b->nvary] = strlen(key);
			b->nvary++;
		}
	}
	for (i = b->first; i < b->last; i++) {
		json_t *p = load_json(b->res[i].params_json);
		size_t c;

		for (c = 0; c < b->nvary; c++) {
			size_t w = strlen(param_str(p, b->vary[c]));

			if (w > b->width[c])
				b->width[c] = w;
		}
		json_decref(p);
	}
	json_decref(first);
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
	const struct store_result *r = &b->res[b->first];
	json_t *p = load_json(r->params_json);
	size_t col = strlen(r->workload), k, nkeys;
	const char *keys[MAX_COLS * 2];

	nkeys = ordered_keys(r->workload, p, keys, sizeof(keys) / sizeof(keys[0]));
	fprintf(out, "%s", r->workload);
	for (k = 0; k < nkeys; k++) {
		const char *key = keys[k];
		json_t *val = json_object_get(p, key);
		char kv[160];
		size_t len;

		if (is_varying(b, key))
			continue;
		len = (size_t)snprintf(kv, sizeof(kv), "%s=%s", key,
				       json_string_value(val));
		if (col + 2 + len > LINE) {
			fprintf(out, "\n ");
			col = 1;
		}
		fprintf(out, "%s%s", col == 1 ? " " : "  ", kv);
		col += 2 + len;
	}
	fputc('\n', out);
	json_decref(p);
}

static void print_columns(FILE *out, const struct block *b)
{
	size_t c;

	fprintf(out, "  ");
	for (c = 0; c < b->nvary; c++)
		fprintf(out, "%-*s  ", (int)b->width[c], b->vary[c]);
	fprintf(out, "%-12s %11s %6s   %-20s %4s\n", "metric", "median",
		"±sd", "95% CI of median", "n");
}

static void print_param_cells(FILE *out, const struct block *b,
			      const struct store_result *r, bool show)
{
	json_t *p = show ? load_json(r->params_json) : NULL;
	size_t c;

	fprintf(out, "  ");
	for (c = 0; c < b->nvary; c++)
		fprintf(out, "%-*s  ", (int)b->width[c],
			show ? param_str(p, b->vary[c]) : "");
	json_decref(p);
}

static void print_metric_row(FILE *out, const struct store_result *r)
{
	struct summary s;
	char med[32], lo[32], hi[32], ci[48], sd[16];
	const char *label;
	double div;

	if (summary_compute(r->samples, r->nsamples, &s) != 0) {
		fprintf(out, "%-12s (out of memory)\n", r->metric);
		return;
	}
	label = fmt_scale(s.median, r->unit, &div);
	fmt_number(s.median / div, med, sizeof(med));
	fmt_number(s.ci_lo / div, lo, sizeof(lo));
	fmt_number(s.ci_hi / div, hi, sizeof(hi));
	snprintf(ci, sizeof(ci), "%s .. %s%s%s", lo, hi, *label ? " " : "",
		 label);
	if (s.n > 1)
		snprintf(sd, sizeof(sd), "%.1f%%", s.cv * 100.0);
	else
		snprintf(sd, sizeof(sd), "-");
	if (*label) {
		char m[48];

		snprintf(m, sizeof(m), "%s %s", med, label);
		fprintf(out, "%-12s %11s %6s   %-20s %4zu\n", r->metric, m, sd,
			ci, s.n);
	} else {
		fprintf(out, "%-12s %11s %6s   %-20s %4zu\n", r->metric, med,
			sd, ci, s.n);
	}
}

/* "writer cpu 0, reader cpu 1" from info.workers. */
static void placement_text(json_t *info, char *buf, size_t len)
{
	json_t *workers = json_object_get(info, "workers");
	size_t i, used = 0;
	json_t *w;

	buf[0] = '\0';
	json_array_foreach(workers, i, w) {
		json_t *cpus = json_object_get(w, "cpus");
		json_int_t asked = json_integer_value(
			json_object_get(w, "cpu_requested"));
		char list[64] = "";
		size_t k, l = 0;
		json_t *c;

		json_array_foreach(cpus, k, c)
			l += (size_t)snprintf(list + l, sizeof(list) - l,
					      "%s%lld", k ? "," : "",
					      (long long)json_integer_value(c));
		used += (size_t)snprintf(buf + used, len - used, "%s%s cpu %s%s",
					 i ? ", " : "",
					 json_string_value(json_object_get(
						 w, "name")),
					 json_array_size(cpus) ? list : "?",
					 asked < 0 ? " (unpinned)" : "");
		if (used >= len)
			break;
	}
}

static double median_per_op(json_t *arr, double ops)
{
	size_t i, n = json_array_size(arr);
	double *v, m;

	if (n == 0 || ops <= 0)
		return NAN;
	v = calloc(n, sizeof(*v));
	if (!v)
		return NAN;
	for (i = 0; i < n; i++) {
		json_t *x = json_array_get(arr, i);

		if (!json_is_integer(x)) {
			free(v);
			return NAN;
		}
		v[i] = (double)json_integer_value(x) / ops;
	}
	m = stats_median(v, n);
	free(v);
	return m;
}

static void wrap_print(FILE *out, const char *text)
{
	fmt_wrap(out, 4, 6, text);
}

static void print_config_info(FILE *out, const struct store_result *r)
{
	json_t *info = load_json(r->info_json);
	json_int_t ops;
	char text[512], place[256];
	double cs, mig;
	size_t used;

	if (!info)
		return;
	ops = json_integer_value(json_object_get(info, "batch_ops"));
	placement_text(info, place, sizeof(place));
	used = (size_t)snprintf(text, sizeof(text), "%s;", place);
	cs = median_per_op(json_object_get(info, "ctx_switches"), (double)ops);
	mig = median_per_op(json_object_get(info, "migrations"), (double)ops);
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
	snprintf(text + used, sizeof(text) - used, " %lld ops/sample",
		 (long long)ops);
	wrap_print(out, text);
	if (json_array_size(json_object_get(info, "per_worker"))) {
		json_t *pw = json_object_get(info, "per_worker"), *w;
		size_t i;

		wrap_print(out, "per worker: mean, p50, p99, max");
		json_array_foreach(pw, i, w) {
			char mean[32], p50[32], p99[32], mx[32];

			fmt_value(json_real_value(json_object_get(w,
				  "mean_ns")), "ns", mean, sizeof(mean));
			fmt_value((double)json_integer_value(json_object_get(
				  w, "p50_ns")), "ns", p50, sizeof(p50));
			fmt_value((double)json_integer_value(json_object_get(
				  w, "p99_ns")), "ns", p99, sizeof(p99));
			fmt_value((double)json_integer_value(json_object_get(
				  w, "max_ns")), "ns", mx, sizeof(mx));
			fprintf(out, "      %-10s %10s %10s %10s %10s\n",
				json_string_value(json_object_get(w, "name")),
				mean, p50, p99, mx);
		}
	}
	if (json_string_value(json_object_get(info, "note")) &&
	    *json_string_value(json_object_get(info, "note")))
		wrap_print(out, json_string_value(json_object_get(info,
								  "note")));
	if (json_object_get(info, "verify")) {
		json_t *v = json_object_get(info, "verify");

		snprintf(text, sizeof(text), "verify: %s: %s",
			 json_integer_value(json_object_get(v, "errors")) ?
			 "FAILED" : "ok",
			 json_string_value(json_object_get(v, "report")));
		wrap_print(out, text);
	}
	if (json_string_value(json_object_get(info, "status"))) {
		const char *st = json_string_value(json_object_get(info,
								   "status"));
		const char *msg = json_string_value(json_object_get(info,
								    "message"));

		/* "status: interrupted", not "status: interrupted: interrupted" */
		if (msg && *msg && strcmp(msg, st) != 0)
			snprintf(text, sizeof(text), "status: %s: %s", st, msg);
		else
			snprintf(text, sizeof(text), "status: %s", st);
		wrap_print(out, text);
	}
	json_decref(info);
}

static void print_trace(FILE *out, const struct store_result *r)
{
	char text[4096], v[32];
	size_t i, used;
	double steady;

	used = (size_t)snprintf(text, sizeof(text), "cold calls in a fresh "
				"process, %s:", r->metric);
	for (i = 0; i < r->nsamples && used < sizeof(text) - 64; i++) {
		fmt_value(r->samples[i], r->unit, v, sizeof(v));
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 " #%zu %s", i + 1, v);
	}
	if (r->nsamples >= 4) {
		/* the last half of the trace as its own steady state */
		steady = stats_median(r->samples + r->nsamples / 2,
				      r->nsamples - r->nsamples / 2);
		fmt_value(steady, r->unit, v, sizeof(v));
		snprintf(text + used, sizeof(text) - used,
			 "; median of the last half %s", v);
	}
	wrap_print(out, text);
}

static void print_hist(FILE *out, const struct store_result *r)
{
	json_t *info = load_json(r->info_json);
	json_t *h = json_object_get(info, "hist");
	struct histogram *hist = hist_new(UINT64_MAX - 1);
	static const double pct[] = { 50, 90, 99, 99.9 };
	char text[256], v[32];
	size_t i, used;
	uint64_t k;

	if (!hist || !h) {
		hist_free(hist);
		json_decref(info);
		return;
	}
	for (i = 0; i < r->nbuckets; i++)
		for (k = 0; k < r->buckets[i].count; k++)
			hist_record(hist, r->buckets[i].hi < 0 ?
				    (uint64_t)json_integer_value(
					    json_object_get(h, "max")) :
				    (uint64_t)r->buckets[i].lo);
	hist->min_seen = (uint64_t)json_integer_value(json_object_get(h,
								      "min"));
	hist->max_seen = (uint64_t)json_integer_value(json_object_get(h,
								      "max"));
	used = (size_t)snprintf(text, sizeof(text), "per-op times of the %s "
				"(%lld ops, each with one timer read):",
				json_string_value(json_object_get(h, "of")),
				(long long)json_integer_value(
					json_object_get(h, "ops")));
	for (i = 0; i < 4; i++) {
		fmt_value((double)hist_percentile(hist, pct[i]), "ns", v,
			  sizeof(v));
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 " p%g %s", pct[i], v);
	}
	fmt_value((double)hist->max_seen, "ns", v, sizeof(v));
	snprintf(text + used, sizeof(text) - used, " max %s", v);
	wrap_print(out, text);
	hist_print_log2(hist, out, "ns");
	hist_free(hist);
	json_decref(info);
}

/* Median of the non-null numbers of a JSON array; NAN if none. */
static double json_median(json_t *arr, double *max)
{
	size_t i, k = 0, n = json_array_size(arr);
	double *v = n ? calloc(n, sizeof(*v)) : NULL, m = NAN;
	json_t *x;

	*max = NAN;
	if (!v)
		return NAN;
	json_array_foreach(arr, i, x)
		if (json_is_number(x)) {
			v[k] = json_number_value(x);
			if (isnan(*max) || v[k] > *max)
				*max = v[k];
			k++;
		}
	if (k)
		m = stats_median(v, k);
	free(v);
	return m;
}

static bool is_trace(const struct store_result *r);

/*
 * Under a configuration (results res[0..n-1]): the outside load and the
 * flagged samples (info.interference, see core/interference.h), and for
 * each metric whose samples form two clusters the cluster medians.
 */
static void print_quality(FILE *out, const struct store_result *res,
			  size_t n)
{
	json_t *info = load_json(res[0].info_json);
	json_t *it = json_object_get(info, "interference");
	char text[320], a[32], b[32];
	size_t i, nf = 0, ns;
	json_t *x;

	if (it) {
		double omax, smax;
		double o = json_median(json_object_get(it, "other_cpu_pct"),
				       &omax);
		double st = json_median(json_object_get(it, "steal_pct"),
					&smax);

		ns = json_array_size(json_object_get(it, "flagged"));
		json_array_foreach(json_object_get(it, "flagged"), i, x)
			nf += json_is_true(x);
		snprintf(text, sizeof(text), "outside load: other CPU %.0f%% "
			 "(max %.0f%%), steal %.1f%% of the machine; %zu of "
			 "%zu samples flagged%s", isnan(o) ? 0.0 : o,
			 isnan(omax) ? 0.0 : omax, isnan(st) ? 0.0 : st, nf,
			 ns, nf ? " (not quiet)" : "");
		wrap_print(out, text);
	}
	json_decref(info);
	for (i = 0; i < n; i++) {
		struct modes md;

		if (is_trace(&res[i]) ||
		    modes_detect(res[i].samples, res[i].nsamples, &md) != 0 ||
		    !md.bimodal)
			continue;
		fmt_value(md.median_lo, res[i].unit, a, sizeof(a));
		fmt_value(md.median_hi, res[i].unit, b, sizeof(b));
		snprintf(text, sizeof(text), "%s is bimodal: %zu samples near "
			 "%s, %zu near %s; the median describes neither",
			 res[i].metric, md.n_lo, a, md.n_hi, b);
		wrap_print(out, text);
	}
}

static bool is_trace(const struct store_result *r)
{
	json_t *info = load_json(r->info_json);
	bool t = info && json_is_true(json_object_get(info, "trace"));

	json_decref(info);
	return t;
}

static void print_block(FILE *out, struct block *b)
{
	size_t i, c;

	find_varying(b);
	print_heading(out, b);
	print_columns(out, b);
	for (i = b->first; i < b->last;) {
		size_t j, end = i + 1;

		while (end < b->last && strcmp(b->res[end].params_json,
					       b->res[i].params_json) == 0)
			end++;
		for (j = i; j < end; j++) {
			if (is_trace(&b->res[j]))
				continue;
			print_param_cells(out, b, &b->res[j], j == i);
			print_metric_row(out, &b->res[j]);
		}
		print_config_info(out, &b->res[i]);
		print_quality(out, b->res + i, end - i);
		for (j = i; j < end; j++) {
			if (is_trace(&b->res[j]))
				print_trace(out, &b->res[j]);
			else if (b->res[j].nbuckets)
				print_hist(out, &b->res[j]);
		}
		i = end;
	}
	fit_report_block(out, b->res + b->first, b->last - b->first);
	if (grid_print(out, b->res + b->first, b->last - b->first) < 0)
		fprintf(out, "  (grid: out of memory)\n");
	for (c = 0; c < b->nvary; c++)
		free((char *)b->vary[c]);
}

void report_results(FILE *out, const struct store_result *res, size_t n)
{
	size_t i = 0;

	while (i < n) {
		struct block b = { .res = res, .first = i };
		json_int_t job = info_job(&res[i]);

		b.last = i + 1;
		while (b.last < n &&
		       strcmp(res[b.last].workload, res[i].workload) == 0 &&
		       info_job(&res[b.last]) == job)
			b.last++;
		if (i)
			fputc('\n', out);
		print_block(out, &b);
		i = b.last;
	}
}
