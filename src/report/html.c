/*
 * html.c - the page of the HTML report (see html.h): head and style,
 * a suite's summary first, the runs with their results tables, notes
 * and plots (html_plots.c), the environment at the end (folded), and
 * the embedded charting code (bundle.h) last, so that it finds every
 * figure when it runs; the flame graphs' code after it, only where the
 * report has a flame graph (run --kernel profile).
 *
 * The page records its own script errors on <html data-errors="...">,
 * so that a test (or a reader) can see that nothing went wrong.
 */
#include "report/html.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "comparison/ab_verdict.h"
#include "report/bundle.h"
#include "report/format.h"
#include "report/headline_print.h"
#include "report/run_options_print.h"
#include "report/html_plots.h"
#include "report/observe_print.h"
#include "report/notes.h"
#include "results/job_block.h"

#ifndef COPYSCOPE_VERSION
#define COPYSCOPE_VERSION "unknown"
#endif

static const char style[] =
"body{font:14px/1.4 sans-serif;margin:1.5em auto;max-width:1300px;"
"padding:0 1em;color:#222}\n"
"h1{font-size:1.6em}h2{font-size:1.35em;border-bottom:2px solid #1f77b4;"
"margin-top:2em}h3{font-size:1.1em;margin-top:1.6em;font-family:monospace}\n"
"table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 8px;"
"border-bottom:1px solid #ddd;text-align:left;vertical-align:top}\n"
"th{background:#f3f5f8}td.num{text-align:right;white-space:nowrap;"
"font-variant-numeric:tabular-nums}\n"
".pair{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start;"
"margin:1em 0;padding:.5em;border:1px solid #e3e6ea;border-radius:4px}\n"
"figure.plot{flex:1 1 560px;min-width:420px;margin:0}"
"figure.plot figcaption{font-weight:bold;margin-bottom:.3em}\n"
".canvas{position:relative;width:100%}.numbers{flex:1 1 360px;"
"overflow-x:auto;font-size:13px}\n"
"ul.notes{margin:.3em 0;color:#555;font-size:13px}"
"tr.worse td{color:#b00}tr.better td{color:#070}\n"
"tr.differs td{background:#fff4d6}pre{background:#f6f6f6;padding:.5em;"
"overflow-x:auto}\n"
".flagged{color:#b00}.muted{color:#777}\n"
"table.headline caption{text-align:left;font-weight:bold}"
"table.headline tr.flagged td:last-child,table.headline tr.missing td"
"{color:#b00}\n"
"details{margin:.5em 0}summary{cursor:pointer;color:#1f77b4}\n"
"figure.flame{flex:1 1 100%;min-width:0;margin:0}figure.flame figcaption"
"{font-weight:bold}.flamegraph{width:100%;overflow-x:auto}"
".flame-controls{margin:.3em 0;font-size:13px;color:#555}"
".flame-details{min-height:1.4em;font-size:13px}"
"tr.grew td{color:#c00}tr.shrank td{color:#24c}\n";

/* Installed first: every script error of the page lands on <html>. */
static const char error_hook[] =
"(function(){var h=document.documentElement;function add(m){"
"h.setAttribute('data-errors',(h.getAttribute('data-errors')||'')+m+"
"'\\n');}window.addEventListener('error',function(e){add(e.message);});"
"var ce=console.error;console.error=function(){add(Array.prototype.join."
"call(arguments,' '));ce.apply(console,arguments);};})();";

static void head(FILE *f, const char *title)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
		"charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width="
		"device-width, initial-scale=1\">\n<meta name=\"generator\" "
		"content=\"copyscope %s\">\n<title>", COPYSCOPE_VERSION);
	html_text(f, title);
	fprintf(f, "</title>\n<script>%s</script>\n<style>\n%s</style>\n"
		"</head>\n<body>\n", error_hook, style);
}

static void foot(FILE *f, bool flames)
{
	fprintf(f, "<p class=\"muted\">Written by copyscope %s. The plots "
		"are drawn by Chart.js and chartjs-chart-matrix (MIT "
		"licence)%s, embedded in this file.</p>\n<script>\n",
		COPYSCOPE_VERSION, flames ? ", the flame graphs by "
		"d3-flame-graph (Apache-2.0 licence) with d3's modules (ISC "
		"licence; d3-ease BSD-3-Clause)" : "");
	fwrite(report_bundle, 1, report_bundle_len, f);
	fprintf(f, "\n</script>\n");
	if (flames) {
		fprintf(f, "<script>\n");
		fwrite(flame_bundle, 1, flame_bundle_len, f);
		fprintf(f, "\n</script>\n");
	}
	fprintf(f, "</body>\n</html>\n");
}

static void utc(int64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (ns <= 0 || !gmtime_r(&t, &tm))
		snprintf(buf, len, "-");
	else
		strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

static void kv(FILE *f, const char *k, const char *v)
{
	fprintf(f, "<tr><th>");
	html_text(f, k);
	fprintf(f, "</th><td>");
	html_text(f, v);
	fprintf(f, "</td></tr>\n");
}

static void run_title(const struct run_info *ri, char *buf, size_t len)
{
	snprintf(buf, len, "run %lld%s%s%s", (long long)ri->id,
		 ri->tag[0] ? " [" : "", ri->tag, ri->tag[0] ? "]" : "");
}

static void run_header(FILE *f, const struct run_data *run)
{
	const struct run_info *ri = &run->info;
	const struct run_options *o = &ri->opts;
	const char *kernel = env_get(&run->env, "kernel.release");
	char t[480], a[64];

	run_title(ri, t, sizeof(t));
	fprintf(f, "<h2 id=\"run-%lld\">", (long long)ri->id);
	html_text(f, t);
	fprintf(f, "</h2>\n<table>\n");
	kv(f, "command", ri->cmdline ? ri->cmdline : "?");
	kv(f, "status", ri->status);
	utc(ri->started_ns, a, sizeof(a));
	kv(f, "started", a);
	utc(ri->finished_ns, a, sizeof(a));
	kv(f, "finished", a);
	kv(f, "host", ri->host);
	kv(f, "kernel", kernel ? kernel : "?");
	kv(f, "boot", ri->boot_id);
	snprintf(t, sizeof(t), "%s (%s)", ri->tool_version, ri->build_flavour);
	kv(f, "copyscope", t);
	kv(f, "unique id", ri->uuid);
	if (ri->have_options) {
		char line[400];

		run_options_line(o, line, sizeof(line));
		snprintf(t, sizeof(t), "%s%s", line,
			 o->interleave ? "; interleaved" : "");
		kv(f, "options", t);
	}
	/* --hw-counters: the line show and run print, word for word */
	if (report_hw_line(&run->env, t, sizeof(t)))
		kv(f, "hardware counters", t);
	fprintf(f, "</table>\n");
}

static bool varies(const struct result *res, size_t n, const char *key)
{
	const char *v0 = result_param(res[0].cfg, key), *v;
	size_t i;

	for (i = 1; i < n; i++) {
		v = result_param(res[i].cfg, key);
		if (!v || !v0 || strcmp(v, v0) != 0)
			return true;
	}
	return false;
}

static void note_item(void *arg, enum note_kind kind, const struct result *r,
		      const char *text)
{
	FILE *f = arg;

	(void)r;
	fprintf(f, "<li%s>", kind == NOTE_LOAD && strstr(text, "not quiet") ?
		" class=\"flagged\"" : "");
	html_text(f, text);
	fprintf(f, "</li>\n");
}

/* "size=4k writers=2": the parameters of c that vary in the block. */
static void config_label(FILE *f, const struct result *res, size_t n,
			 const struct result_config *c)
{
	const struct result_config *c0 = res[0].cfg;
	bool any = false;
	size_t k;

	for (k = 0; k < c0->nparams; k++) {
		const char *v;

		if (!varies(res, n, c0->params[k].name))
			continue;
		v = result_param(c, c0->params[k].name);
		fprintf(f, "%s", any ? " " : "");
		html_text(f, c0->params[k].name);
		fputc('=', f);
		html_text(f, v ? v : "");
		any = true;
	}
	if (!any)
		fprintf(f, "configuration %d", c->job);
}

/*
 * The results table of one block, then the notes of its configs (each
 * under its configuration's parameters when the block has several).  The
 * first block of a job is the target of the summary's links: its
 * heading's id is "run-RUN-job-JOB" (anchor, else no id).
 */
static void block_table(FILE *f, const struct result *res, size_t n,
			const char *anchor, const char *label)
{
	const struct result_config *c0 = res[0].cfg;
	bool several = false;
	size_t i, k, e;

	fprintf(f, "<h3%s%s%s>", anchor ? " id=\"" : "", anchor ? anchor : "",
		anchor ? "\"" : "");
	if (label) {
		html_text(f, label);
		fprintf(f, ": ");
	}
	html_text(f, c0->workload);
	for (k = 0; k < c0->nparams; k++) {
		if (varies(res, n, c0->params[k].name))
			continue;
		fprintf(f, " &nbsp;");
		html_text(f, c0->params[k].name);
		fputc('=', f);
		html_text(f, c0->params[k].value);
	}
	fprintf(f, "</h3>\n<table class=\"results\"><tr>");
	for (k = 0; k < c0->nparams; k++)
		if (varies(res, n, c0->params[k].name)) {
			fprintf(f, "<th>");
			html_text(f, c0->params[k].name);
			fprintf(f, "</th>");
		}
	fprintf(f, "<th>metric</th><th>median</th><th>±sd</th><th>95%% CI "
		"of median</th><th>n</th><th>flagged</th></tr>\n");
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];
		const struct summary *s = &r->summary;
		char a[48], b[48], t[128];
		size_t nf = 0;

		if (r->trace)
			continue;
		for (k = 0; k < r->nsamples; k++)
			nf += result_value_flagged(r, k);
		fprintf(f, "<tr>");
		for (k = 0; k < c0->nparams; k++)
			if (varies(res, n, c0->params[k].name)) {
				const char *v = result_param(
					r->cfg, c0->params[k].name);

				fprintf(f, "<td>");
				if (i == 0 || res[i - 1].cfg != r->cfg)
					html_text(f, v ? v : "");
				fprintf(f, "</td>");
			}
		fprintf(f, "<td>");
		html_text(f, r->metric);
		fmt_value(s->median, r->unit, a, sizeof(a));
		if (r->withheld)	/* stats/headline.h: a note says why */
			snprintf(a, sizeof(a), "withheld");
		fprintf(f, "</td><td class=\"num\">");
		html_text(f, a);
		if (s->n > 1 && !r->withheld)
			snprintf(t, sizeof(t), "%.1f%%", s->cv * 100);
		else
			snprintf(t, sizeof(t), "-");
		fprintf(f, "</td><td class=\"num\">%s</td>", t);
		fmt_value(s->ci_lo, r->unit, a, sizeof(a));
		fmt_value(s->ci_hi, r->unit, b, sizeof(b));
		snprintf(t, sizeof(t), "%s .. %s", a, b);
		if (isnan(s->ci_lo) || isnan(s->ci_hi))	/* no CI exists */
			snprintf(t, sizeof(t), "none: %s",
				 summary_ci_reason(s->n));
		if (r->withheld)
			snprintf(t, sizeof(t), "none: withheld");
		fprintf(f, "<td class=\"num\">");
		html_text(f, t);
		fprintf(f, "</td><td class=\"num\">%zu</td><td class=\"num%s\">"
			"%zu</td></tr>\n", s->n, nf ? " flagged" : "", nf);
	}
	fprintf(f, "</table>\n<ul class=\"notes\">\n");
	for (i = 0; i < n; i = e) {
		e = i + 1;
		while (e < n && res[e].cfg == res[i].cfg)
			e++;
		several = several || e < n;
		if (several) {
			/* a note says which configuration it is about */
			fprintf(f, "<li class=\"config\">");
			config_label(f, res, n, res[i].cfg);
			fprintf(f, "<ul>\n");
		}
		report_notes(res + i, e - i, note_item, f);
		if (several)
			fprintf(f, "</ul></li>\n");
	}
	fprintf(f, "</ul>\n");
}

static void job_anchor(const struct run_info *ri, int job, char *buf,
		       size_t len)
{
	snprintf(buf, len, "run-%lld-job-%d", (long long)ri->id, job);
}

/* Whether res[i] opens the first block of its job. */
static bool first_of_job(const struct result *res, size_t i)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (res[k].cfg->job == res[i].cfg->job)
			return false;
	return true;
}

/*
 * The suite's summary of a run (the table `run` prints at its end): a
 * row per suite entry, its workload linked down to the entry's results.
 */
static void headline_table(FILE *f, const struct run_data *run,
			   const struct html_suite *suite)
{
	const struct result *res = run->results.v;
	size_t n = run->results.n, i;
	struct headline_row row;
	char anchor[64];

	fprintf(f, "<table class=\"headline\" id=\"summary-run-%lld\">\n"
		"<caption>summary of run %lld: headline medians (a sweep's "
		"range), largest ±sd, state</caption>\n<tr><th>exp</th><th>"
		"workload</th><th>metric</th><th>median</th><th>±sd</th><th>"
		"state</th></tr>\n", (long long)run->info.id,
		(long long)run->info.id);
	for (i = 0; i < suite->nl; i++) {
		headline_compute(&suite->lines[i], res, n, &row);
		job_anchor(&run->info, suite->lines[i].job, anchor,
			   sizeof(anchor));
		fprintf(f, "<tr class=\"%s\" data-job=\"%d\"><td>",
			!row.measured ? "missing" : strcmp(row.state, "quiet") ?
			"flagged" : "quiet", suite->lines[i].job);
		html_text(f, row.label);
		fprintf(f, "</td><td><a href=\"#%s\">", anchor);
		html_text(f, row.workload);
		fprintf(f, "</a></td><td>");
		html_text(f, row.metric);
		fprintf(f, "</td><td class=\"num\">");
		html_text(f, row.measured ? row.value : "-");
		fprintf(f, "</td><td class=\"num\">");
		html_text(f, row.measured ? row.sd : "-");
		fprintf(f, "</td><td>");
		html_text(f, row.state);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
}

static int run_body(FILE *f, const struct run_data *run)
{
	const struct result *res = run->results.v;
	size_t n = run->results.n, i, e;
	bool ab = ab_env_is_ab(&run->env);
	char noisy[512];
	int plots = 0;

	run_header(f, run);
	if (report_noisy_note(res, n, noisy, sizeof(noisy))) {
		fprintf(f, "<p class=\"flagged\">");
		html_text(f, noisy);
		fprintf(f, "</p>\n");
	}
	if (!n && run->observation)
		report_observation_html(f, run->observation);
	else if (!n)
		fprintf(f, "<p>(no results)</p>\n");
	/* an ab run: its verdicts first, on the first screen */
	if (n && ab)
		html_ab_summary(f, &run->info, &run->env, res, n);
	for (i = 0; i < n; i = e) {
		static const char *const roles[] = { "A", "B", "A' (A again)" };
		int job = res[i].cfg->job;
		char anchor[64];

		e = result_block_end(res, n, i);
		job_anchor(&run->info, job, anchor, sizeof(anchor));
		block_table(f, res + i, e - i,
			    first_of_job(res, i) ? anchor : NULL,
			    ab && job >= 0 && job < 3 ? roles[job] : NULL);
		plots += html_block_plots(f, res + i, e - i);
	}
	if (n) {
		plots += html_explain_plot(f, res, n);
		plots += html_ab_plot(f, &run->info, &run->env, res, n);
		plots += html_ab_flames(f, &run->env, res, n);
	}
	return plots;
}

/* The environment of runs[0..n-1]: a column per run, differences marked. */
static void environment(FILE *f, const struct run_data *const *runs,
			size_t n)
{
	size_t i, k, j;
	char t[320];

	if (n > 1)
		fprintf(f, "<p>Rows marked are keys whose values differ "
			"between the runs.</p>\n");
	fprintf(f, "<table class=\"env\"><tr><th>key</th>");
	for (i = 0; i < n; i++) {
		run_title(&runs[i]->info, t, sizeof(t));
		fprintf(f, "<th>");
		html_text(f, t);
		fprintf(f, "</th>");
	}
	fprintf(f, "</tr>\n");
	for (i = 0; i < n; i++)
		for (k = 0; k < runs[i]->env.n; k++) {
			const char *key = runs[i]->env.items[k].key;
			bool seen = false, differs = false;
			const char *v0;

			for (j = 0; j < i && !seen; j++)
				seen = env_get(&runs[j]->env, key) != NULL;
			if (seen)
				continue;
			v0 = env_get(&runs[0]->env, key);
			for (j = 1; j < n; j++) {
				const char *v = env_get(&runs[j]->env, key);

				differs |= !v || !v0 || strcmp(v, v0) != 0;
			}
			fprintf(f, "<tr%s><th>", differs ?
				" class=\"differs\"" : "");
			html_text(f, key);
			fprintf(f, "</th>");
			for (j = 0; j < n; j++) {
				const char *v = env_get(&runs[j]->env, key);

				fprintf(f, "<td>");
				html_text(f, v ? v : "-");
				fprintf(f, "</td>");
			}
			fprintf(f, "</tr>\n");
		}
	fprintf(f, "</table>\n");
}

int html_report_runs(FILE *out, const struct run_data *runs,
		     const struct html_suite *suites, size_t n)
{
	const struct run_data **list = calloc(n ? n : 1, sizeof(void *));
	char title[320], page[400];
	int plots = 0;
	size_t i;

	if (!list)
		return -1;
	if (n == 1)
		run_title(&runs[0].info, title, sizeof(title));
	else
		snprintf(title, sizeof(title), "%zu runs", n);
	snprintf(page, sizeof(page), "copyscope report: %s", title);
	head(out, page);
	fprintf(out, "<h1>copyscope report: ");
	html_text(out, title);
	fprintf(out, "</h1>\n");
	for (i = 0; suites && i < n; i++)
		if (suites[i].nl)
			headline_table(out, &runs[i], &suites[i]);
	fprintf(out, "<p>");
	for (i = 0; i < n; i++) {
		run_title(&runs[i].info, title, sizeof(title));
		fprintf(out, "%s<a href=\"#run-%lld\">", i ? " &middot; " : "",
			(long long)runs[i].info.id);
		html_text(out, title);
		fprintf(out, "</a>");
		list[i] = &runs[i];
	}
	fprintf(out, " &middot; <a href=\"#environment\">environment</a>"
		"</p>\n<noscript><p>The plots need JavaScript; every number "
		"is in the tables beside them.</p></noscript>\n");
	for (i = 0; i < n; i++)
		plots += run_body(out, &runs[i]);
	fprintf(out, "<h2 id=\"environment\">environment</h2>\n<details "
		"class=\"env\"><summary>the environment of each run</summary>"
		"\n");
	environment(out, list, n);
	fprintf(out, "</details>\n");
	foot(out, html_runs_have_flames(runs, n));
	free(list);
	return fflush(out) == 0 && !ferror(out) ? plots : -1;
}

/* "tag a (runs 1, 2; 1 boot)" */
static void side_line(FILE *f, const char *name, const struct cmp_side *s)
{
	char t[96];
	size_t i;

	fprintf(f, "<tr><th>%s</th><td>", name);
	for (i = 0; i < s->nruns; i++) {
		run_title(&s->runs[i].info, t, sizeof(t));
		fprintf(f, "%s", i ? ", " : "");
		html_text(f, t);
	}
	fprintf(f, " (%zu run%s, %zu boot%s)</td></tr>\n", s->nruns,
		s->nruns == 1 ? "" : "s", s->nboots,
		s->nboots == 1 ? "" : "s");
}

int html_report_compare(FILE *out, const struct cmp *c)
{
	const struct run_data *list[2];
	struct cmp_counts cnt;
	int plots, flames;
	size_t i;

	head(out, "copyscope report: comparison");
	fprintf(out, "<h1>copyscope report: comparison</h1>\n<table>\n");
	side_line(out, "base", &c->base);
	side_line(out, "new", &c->new);
	cmp_count(c, &cnt);
	fprintf(out, "<tr><th>rows</th><td>%zu compared: %zu worse, %zu "
		"better, %zu ~, %zu informational</td></tr>\n</table>\n"
		"<noscript><p>The plot needs JavaScript; every number is in "
		"the table beside it.</p></noscript>\n", cnt.compared,
		cnt.worse, cnt.better, cnt.same, cnt.info);
	if (c->flavour_differs)
		fprintf(out, "<p class=\"flagged\">The sides were measured "
			"with different build flavours: the comparison is "
			"meaningless.</p>\n");
	fprintf(out, "<h2>change per row</h2>\n");
	plots = html_forest_plot(out, c);
	if (!plots)
		fprintf(out, "<p>No row is on both sides.</p>\n");
	if (plots) {
		fprintf(out, "<h2 id=\"runs\">run medians in time order</h2>"
			"\n<p>Each point is one run's median: a drift shows "
			"as a slope, a change between the sides as a step."
			"</p>\n");
		plots += html_strip_plots(out, c);
	}
	flames = html_cmp_flames(NULL, c);
	if (flames) {
		fprintf(out, "<h2 id=\"profile\">kernel profile: what moved"
			"</h2>\n");
		plots += html_cmp_flames(out, c);
	}
	fprintf(out, "<h2 id=\"environment\">environment</h2>\n");
	if (c->nenvd) {
		fprintf(out, "<p>Differences between the sides (base &rarr; "
			"new):</p>\n<table class=\"env\"><tr><th>key</th><th>"
			"base</th><th>new</th></tr>\n");
		for (i = 0; i < c->nenvd; i++) {
			fprintf(out, "<tr class=\"differs\"><th>");
			html_text(out, c->envd[i].key);
			fprintf(out, "</th><td>");
			html_text(out, c->envd[i].base);
			fprintf(out, "</td><td>");
			html_text(out, c->envd[i].new);
			fprintf(out, "</td></tr>\n");
		}
		fprintf(out, "</table>\n");
	} else {
		fprintf(out, "<p>The sides do not differ in their "
			"environment.</p>\n");
	}
	if (c->base.nruns && c->new.nruns) {
		fprintf(out, "<details class=\"env\"><summary>the whole "
			"environment of the first run of each side</summary>"
			"\n");
		list[0] = &c->base.runs[0];
		list[1] = &c->new.runs[0];
		environment(out, list, 2);
		fprintf(out, "</details>\n");
	}
	foot(out, flames > 0);
	return fflush(out) == 0 && !ferror(out) ? plots : -1;
}

int html_report_history(FILE *out, const struct history *h, bool by_kernel)
{
	size_t i, npts = 0, ncp = 0;
	int plots;

	for (i = 0; i < h->n; i++) {
		npts += h->s[i].n;
		ncp += h->s[i].ncp;
	}
	head(out, "copyscope report: history");
	fprintf(out, "<h1>copyscope report: history</h1>\n<p>%zu series "
		"(a configuration and metric on a host), %zu points, %zu "
		"change point%s. Each point is %s's median with its 95%% CI "
		"(the band); a change point (E-divisive means on the log "
		"medians, as 'copyscope history') is marked at its first "
		"point with its %%change; the top axis names the kernel "
		"release where it changes.</p>\n<noscript><p>The plots need "
		"JavaScript; every number is in the table beside "
		"them.</p></noscript>\n", h->n, npts, ncp, ncp == 1 ? "" : "s",
		by_kernel ? "a kernel release (its runs' medians)" : "a run");
	plots = html_history_plots(out, h, by_kernel);
	foot(out, false);
	return fflush(out) == 0 && !ferror(out) ? plots : -1;
}
