/*
 * html_plots_kernel.c - the kernel views of run --kernel in the HTML
 * report (see html_plots_priv.h), from the results model
 * (results/kernel_records.h), as the text prints them (kernel_text.c):
 * the lock table in perf lock contention's columns beside the log2
 * histograms of the workers' waits by caller, the wake-up latency's log2
 * histogram beside its percentiles, and the workers' time in the kernel
 * per system call; the profile's flame graph (html_plots_flame.c).
 * The histograms' bins are labelled as the text's
 * (stats/histogram.h: "[8us, 16us)").
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/html_plots_priv.h"
#include "report/kview_render.h"
#include "results/kernel_records.h"
#include "stats/histogram.h"

/* Lock callers drawn (the workers' first, by total wait). */
#define MAX_CALLERS 6

/*
 * The bins from the first to the last bucket any of h[0..nh-1] holds:
 * [{lo, label}] (a kernel bucket b holds [2^b, 2^(b+1)) ns: the text's
 * log2 row b + 1); the bucket range into *first, *last.  NULL when every
 * histogram is empty.
 */
static json_t *bins_json(const uint64_t *const *h, size_t nh, size_t *first,
			 size_t *last)
{
	json_t *bins;
	size_t b, i;
	char label[64];

	*first = KV_LOG2_BUCKETS;
	*last = 0;
	for (i = 0; i < nh; i++)
		for (b = 0; b < KV_LOG2_BUCKETS; b++)
			if (h[i][b]) {
				*first = b < *first ? b : *first;
				*last = b > *last ? b : *last;
			}
	if (*first == KV_LOG2_BUCKETS)
		return NULL;
	bins = json_array();
	for (b = *first; bins && b <= *last; b++) {
		hist_row_label(label, sizeof(label), (unsigned int)b + 1, "ns");
		json_array_append_new(bins, json_pack("{s:I, s:s}", "lo",
			(json_int_t)(b ? 1ULL << b : 0), "label", label));
	}
	return bins;
}

static json_t *counts_json(const uint64_t *h, size_t first, size_t last)
{
	json_t *a = json_array();
	size_t b;

	for (b = first; a && b <= last; b++)
		json_array_append_new(a, json_integer((json_int_t)h[b]));
	return a;
}

static void lock_table(FILE *f, const struct result_kernel *k)
{
	size_t i;

	fprintf(f, "<table><tr>");
	html_th(f, "contended");
	html_th(f, "total wait");
	html_th(f, "max wait");
	html_th(f, "avg wait");
	html_th(f, "type");
	html_th(f, "caller");
	fprintf(f, "</tr>\n");
	for (i = 0; i < k->nlocks; i++) {
		const struct kv_lock_row *r = &k->locks[i];
		char a[32];

		fprintf(f, "<tr>");
		snprintf(a, sizeof(a), "%llu",
			 (unsigned long long)r->contended);
		html_tdn(f, a);
		fmt_perf_time((double)r->total_ns, a, sizeof(a));
		html_tdn(f, a);
		fmt_perf_time((double)r->max_ns, a, sizeof(a));
		html_tdn(f, a);
		fmt_perf_time(r->contended ? (double)r->total_ns /
			  (double)r->contended : 0, a, sizeof(a));
		html_tdn(f, a);
		html_td(f, r->type);
		html_td(f, r->caller);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* The lock table beside the wait histograms of its callers. */
int html_plot_kernel_lock(FILE *f, const struct result_kernel *k,
			  const char *cfg)
{
	const uint64_t *h[MAX_CALLERS] = { NULL };
	const struct kv_lock_row *rows[MAX_CALLERS];
	json_t *bins, *series;
	size_t i, nh = 0, first, last;
	char title[LABEL_LEN + 96], name[300];

	for (i = 0; i < k->nlocks && nh < MAX_CALLERS; i++) {
		rows[nh] = &k->locks[i];
		h[nh++] = k->locks[i].hist;
	}
	bins = bins_json(h, nh, &first, &last);
	if (!bins)
		return 0;
	series = json_array();
	for (i = 0; series && i < nh; i++) {
		snprintf(name, sizeof(name), "%s (%s)", rows[i]->caller,
			 rows[i]->type);
		json_array_append_new(series, json_pack("{s:s, s:o}", "name",
			name, "counts", counts_json(h[i], first, last)));
	}
	snprintf(title, sizeof(title), "lock: contended waits by caller%s%s, "
		 "log2 histograms", *cfg ? ", " : "", cfg);
	html_figure(f, "log2", title, 300, json_pack("{s:s, s:s, s:o, s:o}",
		"xlabel", "wait", "ylabel", "waits", "bins", bins, "series",
		series));
	lock_table(f, k);
	html_end_figure(f);
	return 1;
}

/* The wake-up latency's histogram beside its percentiles. */
int html_plot_kernel_sched(FILE *f, const struct result_kernel *k,
			   const char *cfg)
{
	const uint64_t *h = k->wake_hist;
	json_t *bins;
	size_t first, last;
	char title[LABEL_LEN + 96], a[32];

	bins = k->wakeups ? bins_json(&h, 1, &first, &last) : NULL;
	if (!bins)
		return 0;
	snprintf(title, sizeof(title), "sched: wake-up latency of the "
		 "workers%s%s, log2 histogram", *cfg ? ", " : "", cfg);
	html_figure(f, "log2", title, 260, json_pack(
		"{s:s, s:s, s:o, s:[{s:s, s:o}]}", "xlabel", "wake-up latency",
		"ylabel", "wake-ups", "bins", bins, "series", "name",
		"wake-ups", "counts", counts_json(h, first, last)));
	fprintf(f, "<table><tr>");
	html_th(f, "wake-ups");
	html_th(f, "p50");
	html_th(f, "p99");
	html_th(f, "max");
	html_th(f, "mean");
	html_th(f, "run-queue wait per op");
	fprintf(f, "</tr>\n<tr>");
	snprintf(a, sizeof(a), "%llu", (unsigned long long)k->wakeups);
	html_tdn(f, a);
	fmt_value((double)k->wake_p50_ns, "ns", a, sizeof(a));
	html_tdn(f, a);
	fmt_value((double)k->wake_p99_ns, "ns", a, sizeof(a));
	html_tdn(f, a);
	fmt_value((double)k->wake_max_ns, "ns", a, sizeof(a));
	html_tdn(f, a);
	fmt_value(k->wake_mean_ns, "ns", a, sizeof(a));
	html_tdn(f, a);
	fmt_value(k->ops ? (double)k->rq_wait_ns / (double)k->ops : NAN,
		  "ns", a, sizeof(a));
	html_tdn(f, a);
	fprintf(f, "</tr>\n</table>\n");
	html_end_figure(f);
	return 1;
}

/* The share of the workers' wall time in each system call. */
int html_plot_kernel_sys(FILE *f, const struct result_kernel *k,
			 const char *cfg)
{
	json_t *bars = json_array();
	char title[LABEL_LEN + 96], a[32];
	size_t i;

	if (!bars || !k->nsys || !(k->thread_ns > 0)) {
		json_decref(bars);
		return 0;
	}
	for (i = 0; i < k->nsys; i++)
		json_array_append_new(bars, json_pack("{s:s, s:f}", "label",
			k->sys[i].name, "share", 100.0 *
			(double)k->sys[i].total_ns / k->thread_ns));
	snprintf(title, sizeof(title), "syscall: the workers' wall time in "
		 "each system call%s%s (in the kernel %.1f%%)",
		 *cfg ? ", " : "", cfg, 100.0 * (double)k->sys_ns /
		 k->thread_ns);
	html_figure(f, "syscall", title, 60 + 28 * (int)k->nsys, json_pack(
		"{s:s, s:o}", "xlabel", "% of the wall time (window x workers)",
		"bars", bars));
	fprintf(f, "<table><tr>");
	html_th(f, "syscall");
	html_th(f, "calls/op");
	html_th(f, "mean");
	html_th(f, "p99");
	html_th(f, "max");
	html_th(f, "share");
	fprintf(f, "</tr>\n");
	for (i = 0; i < k->nsys; i++) {
		const struct kv_sys_row *r = &k->sys[i];

		fprintf(f, "<tr>");
		html_td(f, r->name);
		snprintf(a, sizeof(a), "%.4g", k->ops ? (double)r->count /
			 (double)k->ops : NAN);
		html_tdn(f, a);
		fmt_value((double)r->total_ns / (double)r->count, "ns", a,
			  sizeof(a));
		html_tdn(f, a);
		fmt_value((double)r->p99_ns, "ns", a, sizeof(a));
		html_tdn(f, a);
		fmt_value((double)r->max_ns, "ns", a, sizeof(a));
		html_tdn(f, a);
		snprintf(a, sizeof(a), "%.1f%%", 100.0 * (double)r->total_ns /
			 k->thread_ns);
		html_tdn(f, a);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	html_end_figure(f);
	return 1;
}

int html_plot_kernel(FILE *f, const struct result *res, size_t n,
		     const struct vary *v)
{
	char cfg[LABEL_LEN];
	int done = 0, id;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct result_kernel *k = res[i].cfg->kernel;

		if (!k || (i && res[i - 1].cfg == res[i].cfg))
			continue;
		html_cfg_label(res[i].cfg, v, NULL, cfg, sizeof(cfg));
		for (id = 0; id < KVIEW_NVIEWS; id++)
			if (k->views & KVIEW_BIT(id))
				done += kview_renderers[id].html(f, k, cfg);
	}
	return done;
}
