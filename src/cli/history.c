/*
 * history.c - `copyscope history` and `copyscope check --history`: the
 * series of run medians of each configuration on each host, their change
 * points (session/history_session.c), printed as an 80-column table with a
 * sparkline, as JSON or as CSV; and check's verdict on the newest runs
 * of each series (exit 3 when they form a change for the worse).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "core/workload.h"
#include "report/format.h"
#include "report/html.h"
#include "session/history_session.h"
#include "stats/edivisive.h"
#include "util/array.h"

#define HIST_MAX_ARGS 64
/* Series up to this long print every point; longer: the tail and the
   change points' neighbours. */
#define HIST_ALL_POINTS 24
#define HIST_TAIL 10
#define HIST_SPARK_WIDTH 70

struct history_cli {
	const char *metric, *by, *db, *path;
	char dbpath[4096];		/* the database read (history_load) */
	struct cmp_ignore ig;
	double alpha, min_change_pct;
	bool json, csv, history;
	/* the points whose CI the text prints (NULL: all), hist_opts */
	bool (*want_ci)(const struct hist_series *s, size_t i);
};

static const char *const by_words[] = { "time", "kernel", NULL };

#define OPT_BASE struct history_cli
#define HISTORY_ROWS \
	OPT_ROW_STR("--metric", "M", "only this metric (e.g. " \
	  "bandwidth, time/call; default: every metric)", metric), \
	OPT_ROW_STR("--by", "time|kernel", "order the points by " \
	  "start time (default), or by kernel release in version order " \
	  "with the runs of one kernel as one point", by, \
	  .words = by_words, .complete = OPT_C_WORDS), \
	OPT_ROW_IGNORE_PARAM(ig, "leave these " \
			     "parameters out of the grouping into series"), \
	OPT_ROW_NUM("--alpha", "A", "significance level of a change " \
	  "point's permutation test (default 0.01)", alpha, .lo = 0, \
	  .hi = 1, .flags = OPT_LO_OPEN | OPT_HI_OPEN), \
	OPT_ROW_PCT("--min-change", "PCT", "leave out change points " \
	  "smaller than PCT (default 0%)", min_change_pct, .lo = 0, \
	  .hi = 1000, .unit = "2%"), \
	OPT_ROW_DB(db, OPT_HELP_DB)

static const struct opt_row history_rows[] = {
	OPT_ROW_JSON(json, "the series and change points "
		     "as JSON"),
	OPT_ROW_CSV(csv, "one CSV line per point"),
	HISTORY_ROWS,
};

static const struct opt_row check_history_rows[] = {
	OPT_ROW_FLAG("--history", "judge the newest stored runs "
	  "against their history", history),
	HISTORY_ROWS,
};
static const struct opt_row report_history_rows[] = {
	OPT_ROW_FLAG("--history", "draw the history of the "
	  "configurations instead of runs", history),
	OPT_ROW_STR("-o", "FILE", "write FILE (complete or not at "
	  "all); default stdout, which must then not be a terminal",
	  path, .complete = OPT_C_FILE),
	HISTORY_ROWS,
};
#undef OPT_BASE

static void history_usage(FILE *out, const struct opt_cmd *c);
static void check_history_usage(FILE *out, const struct opt_cmd *c);
static void report_history_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd report_history_cmd = {
	.name = "report", .rows = report_history_rows,
	.nrows = ARRAY_SIZE(report_history_rows), .help_col = 26,
	.max_pos = -1, .pos = OPT_C_RUNS, .usage = report_history_usage,
	.synopsis = OPT_SYNOPSIS("--history [SELECTOR ...] "
				 "[WORKLOAD [KEY=VALUE ...]]\n"
				 "[--metric] [--by] [-o] [options]"),
};

const struct opt_cmd *cli_report_history_options(void)
{
	return &report_history_cmd;
}

static const struct opt_cmd history_cmd = {
	.name = "history", .rows = history_rows,
	.nrows = ARRAY_SIZE(history_rows), .help_col = 26,
	.max_pos = -1, .pos = OPT_C_RUNS, .usage = history_usage,
	.synopsis = OPT_SYNOPSIS("[SELECTOR ...] [WORKLOAD [KEY=VALUE ...]]\n"
				 "[--metric] [--by] [--json|--csv]\n"
				 "[--ignore-param] [--alpha]\n"
				 "[--min-change] [--db]"),
};

const struct opt_cmd *cli_history_options(void)
{
	return &history_cmd;
}

static const struct opt_cmd check_history_cmd = {
	.name = "check", .rows = check_history_rows,
	.nrows = ARRAY_SIZE(check_history_rows), .help_col = 26,
	.max_pos = -1, .pos = OPT_C_RUNS, .usage = check_history_usage,
	.synopsis = OPT_SYNOPSIS("--history [SELECTOR ...] "
				 "[WORKLOAD [KEY=VALUE ...]]\n"
				 "[--metric] [--min-change] [options]"),
};

const struct opt_cmd *cli_check_history_options(void)
{
	return &check_history_cmd;
}

static void history_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"The series of run medians of each configuration (workload, parameters,\n"
"metric) on each host, over the complete runs SELECTORs name (as for\n"
"'runs': ids, tags, host:, kernel:, boot:, tag:; default: every run), with\n"
"each run's 95%% CI, kernel and boot, oldest first (--by kernel: in kernel\n"
"version order, the runs of one kernel as one point).  Change points are\n"
"found by E-divisive means (Matteson & James 2014, as Apache Otava uses\n"
"it) on the log medians with a permutation test (199 permutations); each\n"
"gives the runs either side, the %%change of the segment after against\n"
"the one before with its 95%% CI (Welch's t on the log medians), p, and\n"
"the environment keys that changed there.\n"
"\n"
"options:\n");
	opt_print_options(out, c);
	fprintf(out,
"\nexamples:\n"
"  copyscope history host:lab3 pipe.bw size=64k --metric bandwidth\n"
"  copyscope history sys.null --by kernel\n"
"  copyscope history tag:nightly --json\n");
}

static void check_history_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"Judges the newest runs of each series that 'copyscope history' would\n"
"show: exit 3 when the last change point is for the worse (by the\n"
"metric's direction) and at least --min-change, 0 when the newest runs\n"
"lie within the history, 4 (cannot tell) when a series has fewer than %d\n"
"points.  Nothing is measured.\n"
"\n"
"options:\n", HIST_CHECK_MIN_POINTS);
	opt_print_options(out, c);
	fprintf(out,
"\nexit: 0 within the history, 3 worse, 4 cannot tell, 1 store error,\n"
"      2 usage error.\n"
"\nexamples:\n"
"  copyscope run --tag nightly sys.null && \\\n"
"    copyscope check --history host:$(hostname)+tag:nightly sys.null \\\n"
"      --metric time/call --min-change 3%%\n");
}

static void report_history_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"Draws the series that 'copyscope history' prints into one self-contained\n"
"HTML file: for each configuration and metric on each host a chart of its\n"
"run medians in time order (--by kernel: its kernels in version order)\n"
"with their 95%% CI as a band, each change point marked at its first point\n"
"with its %%change, and the kernel release named on the top axis where it\n"
"changes; beside each chart its numbers as a table.  At most 24 charts:\n"
"narrow with a workload, KEY=VALUE or --metric.\n"
"\n"
"options:\n");
	opt_print_options(out, c);
	fprintf(out,
"\nexamples:\n"
"  copyscope report --history sys.null --metric time/call -o h.html\n"
"  copyscope report --history host:lab3 pipe.bw --by kernel -o k.html\n");
}

/* The runs the selectors name, into *ids (NULL when none are given). */
static int select_ids(struct store *st, const char *cmd, char **sel,
		      size_t nsel, int64_t **ids, size_t *nids)
{
	enum store_select_status ss;
	char err[512];
	int64_t *one;
	size_t i, n;
	void *t;

	*ids = NULL;
	*nids = 0;
	for (i = 0; i < nsel; i++) {
		ss = store_select_runs(st, sel[i], &one, &n, err, sizeof(err));
		if (ss == STORE_SELECT_EMPTY_ITEM || ss == STORE_SELECT_NO_MATCH)
			return cli_usage(cmd, "%s", err);
		if (ss != STORE_SELECT_OK) {
			cli_error("%s", err);
			return EXIT_FAIL;
		}
		t = realloc(*ids, (*nids + n + 1) * sizeof(**ids));
		if (!t) {
			free(one);
			cli_error("out of memory");
			return EXIT_FAIL;
		}
		*ids = t;
		memcpy(*ids + *nids, one, n * sizeof(*one));
		*nids += n;
		free(one);
	}
	return 0;
}

/* The positional arguments split into selectors, workload and filters. */
struct history_args {
	char *sel[HIST_MAX_ARGS];
	size_t nsel;
	const char *workload;
	const char *filters[HIST_MAX_ARGS];
	size_t nfilters;
};

static int split_args(const char *cmd, char **pos, int npos,
		      struct history_args *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	if (npos > HIST_MAX_ARGS)
		return cli_usage(cmd, "at most %d selectors and KEY=VALUE",
				 HIST_MAX_ARGS);
	for (i = 0; i < npos; i++) {
		const struct workload *w = a->workload ? NULL :
			workload_find(pos[i]);

		if (a->workload && strchr(pos[i], '='))
			a->filters[a->nfilters++] = pos[i];
		else if (a->workload)
			return cli_usage(cmd, "'%s' after the workload %s is "
					 "not KEY=VALUE", pos[i], a->workload);
		else if (w)
			a->workload = w->name;
		else
			a->sel[a->nsel++] = pos[i];
	}
	return 0;
}

/*
 * Read the command line of cmd c and build the history: 0 with h made,
 * -1 after --help, or the exit code (printed).
 */
static int history_load(const struct opt_cmd *c, int argc, char **argv,
			struct history_cli *hc, struct history *h)
{
	struct history_args a;
	struct hist_opts o;
	struct opt_result res;
	struct store *st;
	int64_t *ids = NULL;
	size_t nids = 0;
	char err[512];
	int e;

	hc->alpha = EDIV_DEFAULT_ALPHA;
	e = opt_parse(c, argc, argv, hc, &res);
	if (e)
		return e;
	e = split_args(c->name, res.pos, res.npos, &a);
	if (!e && hc->json && hc->csv)
		e = cli_usage(c->name, "--json or --csv, not both");
	if (e)
		goto out;
	o = (struct hist_opts){ .workload = a.workload, .filters = a.filters,
				.nfilters = a.nfilters, .metric = hc->metric,
				.ignore = hc->ig.keys, .nignore = hc->ig.n,
				.by_kernel = hc->by &&
					     strcmp(hc->by, "kernel") == 0,
				.alpha = hc->alpha,
				.min_change_pct = hc->min_change_pct,
				.want_ci = hc->json || hc->csv ? NULL :
					   hc->want_ci };
	e = cli_open_existing_store(hc->db, &st, hc->dbpath,
				    sizeof(hc->dbpath), NULL);
	if (e)
		goto out;
	e = select_ids(st, c->name, a.sel, a.nsel, &ids, &nids);
	if (!e) {
		e = history_build(st, a.nsel ? ids : NULL, nids, &o, h, err,
			       sizeof(err));
		if (e == 1)
			e = cli_usage(c->name, "%s", err);
		else if (e)
			cli_error("%s", err);
		e = e ? (e == EXIT_USAGE ? e : EXIT_FAIL) : 0;
	}
	store_close(st);
	free(ids);
	if (!e && h->n == 0) {
		e = cli_usage(c->name, "no stored complete run has %s%s%s",
			      a.workload ? a.workload : "results",
			      hc->metric ? " with the metric " : "",
			      hc->metric ? hc->metric : "");
		history_free(h);
	}
out:
	opt_result_free(&res);
	return e;
}

/* ---- text ---- */

static void sparkline(FILE *out, const struct hist_series *s)
{
	static const char *const blocks[] = { "\u2581", "\u2582", "\u2583",
		"\u2584", "\u2585", "\u2586", "\u2587", "\u2588" };
	double lo = INFINITY, hi = -INFINITY, v;
	size_t per = (s->n + HIST_SPARK_WIDTH - 1) / HIST_SPARK_WIDTH, i, k;

	for (i = 0; i < s->n; i++) {
		lo = fmin(lo, s->pts[i].median);
		hi = fmax(hi, s->pts[i].median);
	}
	fprintf(out, "  ");
	for (i = 0; i < s->n; i += per) {
		size_t m = 0;

		for (v = 0, k = i; k < s->n && k < i + per; k++, m++)
			v += s->pts[k].median;
		v /= (double)m;
		k = hi > lo ? (size_t)((v - lo) / (hi - lo) * 7.999) : 0;
		fputs(blocks[k], out);
	}
	fprintf(out, "\n");
}

static bool is_change(const struct hist_series *s, size_t i)
{
	size_t k;

	for (k = 0; k < s->ncp; k++)
		if (s->cps[k].index == i)
			return true;
	return false;
}

static bool shown(const struct hist_series *s, size_t i)
{
	return s->n <= HIST_ALL_POINTS || i + HIST_TAIL >= s->n ||
		is_change(s, i) || (i + 1 < s->n && is_change(s, i + 1));
}

static void print_point(FILE *out, const struct hist_series *s, size_t i)
{
	const struct hist_point *p = &s->pts[i];
	char when[32], kernel[64], med[32], ci[48], runs[24];

	cli_format_time(p->started_ns, when, sizeof(when));
	cli_clean_text(p->kernel[0] ? p->kernel : "?", kernel, sizeof(kernel));
	fmt_value(p->median, s->unit, med, sizeof(med));
	fmt_ci(100 * (p->ci_lo / p->median - 1),
	       100 * (p->ci_hi / p->median - 1), ci, sizeof(ci));
	if (p->nruns > 1)
		snprintf(runs, sizeof(runs), "%zu runs", p->nruns);
	else
		snprintf(runs, sizeof(runs), "%lld", (long long)p->run_id);
	fprintf(out, "%c%4zu %-8.8s %-16.16s %-18.18s %11s %s%%\n",
		is_change(s, i) ? '>' : ' ', i, runs, when, kernel, med, ci);
}

static void print_change(FILE *out, const struct hist_series *s,
			 const struct hist_change *cp)
{
	char chg[32], ci[48], p[16], line[1024];
	size_t used, k;

	fmt_change(cp->change_pct, chg, sizeof(chg));
	fmt_ci(cp->ci_lo, cp->ci_hi, ci, sizeof(ci));
	fmt_p(cp->p, p, sizeof(p));
	fprintf(out, "  change at %zu (run %lld -> %lld): %s [%s%%] p %s%s\n",
		cp->index, (long long)cp->before_run,
		(long long)cp->after_run, chg, ci, p,
		s->direction == 0 ? "" : cp->worse ? "  worse" : "  better");
	used = (size_t)snprintf(line, sizeof(line), "environment changed:");
	for (k = 0; k < cp->nenv && used < sizeof(line); k++)
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "%s %s", k ? "," : "",
					 cp->env_keys[k]);
	if (!cp->nenv)
		snprintf(line + used, sizeof(line) - used, " nothing");
	fmt_wrap(out, 4, 6, line);
}

/*
 * A series' parameters as the other commands print them, "call=gettid
 * inject_ns=0", from their stored JSON object (its text when it is not
 * one), cleaned of control bytes, into buf.
 */
static void params_text(const char *json, char *buf, size_t len)
{
	json_t *o = json_loads(json, 0, NULL), *v;
	const char *key;
	char raw[512];
	size_t used = 0;

	if (!json_is_object(o)) {
		json_decref(o);
		cli_clean_text(json, buf, len);
		return;
	}
	raw[0] = '\0';
	json_object_foreach(o, key, v) {
		char *d = json_is_string(v) ? NULL :
			  json_dumps(v, JSON_ENCODE_ANY);

		if (used < sizeof(raw))
			used += (size_t)snprintf(raw + used, sizeof(raw) - used,
						 "%s%s=%s", used ? " " : "", key,
						 d ? d : json_string_value(v));
		free(d);
	}
	json_decref(o);
	cli_clean_text(raw, buf, len);
}

static void print_series(FILE *out, const struct hist_series *s)
{
	char host[128], params[512], head[1024];
	size_t i, last = 0;

	cli_clean_text(s->host[0] ? s->host : "?", host, sizeof(host));
	params_text(s->params, params, sizeof(params));
	snprintf(head, sizeof(head), "host %s  %s %s  %s (%s), %zu point%s",
		 host, s->workload, params, s->metric, s->unit, s->n,
		 s->n == 1 ? "" : "s");
	fmt_wrap(out, 0, 2, head);
	if (s->n > HIST_ALL_POINTS)
		sparkline(out, s);
	fprintf(out, "%5s %-8s %-16s %-18s %11s %s\n", "#", "run",
		"started (UTC)", "kernel", "median", "95% CI");
	for (i = 0; i < s->n; i++) {
		if (!shown(s, i))
			continue;
		if (i > last + 1 || (i == 1 && last == 0 && !shown(s, 0)))
			fprintf(out, "  ...\n");
		print_point(out, s, i);
		last = i;
	}
	if (s->nonpositive)
		fprintf(out, "  no change points: a median is <= 0\n");
	else if (!s->ncp)
		fprintf(out, "  no change point\n");
	for (i = 0; i < s->ncp; i++)
		print_change(out, s, &s->cps[i]);
}

/* ---- JSON and CSV ---- */

static json_t *series_json(const struct hist_series *s)
{
	json_t *o = json_object(), *pts = json_array(), *cps = json_array();
	size_t i, k;

	json_object_set_new(o, "host", json_string(s->host));
	json_object_set_new(o, "workload", json_string(s->workload));
	json_object_set_new(o, "params", json_string(s->params));
	json_object_set_new(o, "metric", json_string(s->metric));
	json_object_set_new(o, "unit", json_string(s->unit));
	json_object_set_new(o, "direction", json_integer(s->direction));
	for (i = 0; i < s->n; i++) {
		const struct hist_point *p = &s->pts[i];

		json_array_append_new(pts, json_pack(
			"{s:I, s:I, s:s, s:I, s:s, s:s, s:I, s:f, s:[f, f]}",
			"run_id", (json_int_t)p->run_id, "first_run_id",
			(json_int_t)p->first_run_id, "uuid", p->uuid,
			"started_ns", (json_int_t)p->started_ns, "kernel",
			p->kernel, "boot_id", p->boot_id, "runs",
			(json_int_t)p->nruns, "median", p->median, "ci",
			p->ci_lo, p->ci_hi));
	}
	for (i = 0; i < s->ncp; i++) {
		const struct hist_change *c = &s->cps[i];
		json_t *env = json_array();

		for (k = 0; k < c->nenv; k++)
			json_array_append_new(env, json_string(c->env_keys[k]));
		json_array_append_new(cps, json_pack(
			"{s:I, s:f, s:[f, f], s:f, s:b, s:I, s:I, s:o}",
			"index", (json_int_t)c->index, "change_pct",
			c->change_pct, "ci", c->ci_lo, c->ci_hi, "p", c->p,
			"worse", c->worse, "before", (json_int_t)c->before_run,
			"after", (json_int_t)c->after_run, "env_changed",
			env));
	}
	json_object_set_new(o, "series", pts);
	json_object_set_new(o, "change_points", cps);
	return o;
}

static int print_json(FILE *out, const struct history *h)
{
	json_t *doc = json_object(), *arr = json_array();
	size_t i;
	int rc;

	json_object_set_new(doc, "schema_version", json_integer(1));
	for (i = 0; i < h->n; i++)
		json_array_append_new(arr, series_json(&h->s[i]));
	json_object_set_new(doc, "histories", arr);
	rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(doc);
	return rc;
}

/* A CSV field: quoted, with its quotes doubled. */
static void csv_text(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputs("\",", out);
}

static void print_csv(FILE *out, const struct history *h)
{
	size_t i, k;

	fprintf(out, "host,workload,params,metric,unit,index,run_id,uuid,"
		"started_ns,kernel,boot_id,runs,median,ci_lo,ci_hi,"
		"change_point\n");
	for (i = 0; i < h->n; i++) {
		const struct hist_series *s = &h->s[i];

		for (k = 0; k < s->n; k++) {
			const struct hist_point *p = &s->pts[k];

			csv_text(out, s->host);
			csv_text(out, s->workload);
			csv_text(out, s->params);
			csv_text(out, s->metric);
			csv_text(out, s->unit);
			fprintf(out, "%zu,%lld,", k, (long long)p->run_id);
			csv_text(out, p->uuid);
			fprintf(out, "%lld,", (long long)p->started_ns);
			csv_text(out, p->kernel);
			csv_text(out, p->boot_id);
			fprintf(out, "%zu,%.10g,%.10g,%.10g,%d\n", p->nruns,
				p->median, p->ci_lo, p->ci_hi,
				is_change(s, k) ? 1 : 0);
		}
	}
}

static int flush_out(void)
{
	if (fflush(stdout) != 0) {
		cli_error("cannot write the output: %s", strerror(errno));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int cmd_history(int argc, char **argv)
{
	struct history_cli hc;
	struct history h = { 0 };
	size_t i;
	int e;

	memset(&hc, 0, sizeof(hc));
	hc.want_ci = shown;
	e = history_load(&history_cmd, argc, argv, &hc, &h);
	if (e) {
		cmp_ignore_free(&hc.ig);
		return e < 0 ? EXIT_OK : e;
	}
	if (hc.json)
		e = print_json(stdout, &h) ? EXIT_FAIL : EXIT_OK;
	else if (hc.csv)
		print_csv(stdout, &h);
	for (i = 0; i < h.n && !hc.json && !hc.csv; i++) {
		if (i)
			printf("\n");
		print_series(stdout, &h.s[i]);
	}
	if (!e)
		e = flush_out();
	history_free(&h);
	cmp_ignore_free(&hc.ig);
	return e;
}

/* check --history's line for one series; returns its verdict. */
static enum hist_verdict check_series(const struct hist_series *s)
{
	enum hist_verdict v = history_judge(s);
	char host[128], params[512], chg[32], ci[48], p[16], line[1024];
	size_t used;
	const struct hist_change *cp = s->ncp ? &s->cps[s->ncp - 1] : NULL;

	cli_clean_text(s->host[0] ? s->host : "?", host, sizeof(host));
	params_text(s->params, params, sizeof(params));
	if (cp) {
		fmt_change(cp->change_pct, chg, sizeof(chg));
		fmt_ci(cp->ci_lo, cp->ci_hi, ci, sizeof(ci));
		fmt_p(cp->p, p, sizeof(p));
	}
	used = (size_t)snprintf(line, sizeof(line), "%s: host %s  %s %s  "
				"%s: ", v == HIST_WORSE ? "worse" :
				v == HIST_SAME ? "same" : "cannot tell", host,
				s->workload, params, s->metric);
	if (used >= sizeof(line))
		used = sizeof(line) - 1;
	if (v == HIST_TOO_SHORT)
		snprintf(line + used, sizeof(line) - used, "%zu point%s, %d "
			 "needed", s->n, s->n == 1 ? "" : "s",
			 HIST_CHECK_MIN_POINTS);
	else if (v == HIST_NO_LOG)
		snprintf(line + used, sizeof(line) - used, "a median is <= 0");
	else if (v == HIST_WORSE && cp)
		snprintf(line + used, sizeof(line) - used, "%s [%s%%] p %s "
			 "from point %zu of %zu (run %lld)", chg, ci, p,
			 cp->index, s->n, (long long)cp->after_run);
	else
		snprintf(line + used, sizeof(line) - used, "the newest of %zu "
			 "points lie within the history%s", s->n,
			 cp ? " (after its last change point)" : "");
	fmt_wrap(stdout, 0, 2, line);
	return v;
}

/* check --history prints no point's CI. */
static bool no_point_ci(const struct hist_series *s, size_t i)
{
	(void)s;
	(void)i;
	return false;
}

int cmd_history_check(int argc, char **argv)
{
	struct history_cli hc;
	struct history h = { 0 };
	size_t i, worse = 0, unsure = 0;
	int e;

	memset(&hc, 0, sizeof(hc));
	hc.want_ci = no_point_ci;
	e = history_load(&check_history_cmd, argc, argv, &hc, &h);
	if (e) {
		cmp_ignore_free(&hc.ig);
		return e < 0 ? EXIT_OK : e;
	}
	for (i = 0; i < h.n; i++) {
		enum hist_verdict v = check_series(&h.s[i]);

		worse += v == HIST_WORSE;
		unsure += v == HIST_TOO_SHORT || v == HIST_NO_LOG;
	}
	e = flush_out();
	if (!e)
		e = worse ? EXIT_REGRESSION : unsure ? EXIT_CANNOT_TELL :
			EXIT_OK;
	history_free(&h);
	cmp_ignore_free(&hc.ig);
	return e;
}

int cmd_history_report(int argc, char **argv)
{
	struct history_cli hc;
	struct history h = { 0 };
	struct cli_out o;
	int e, plots;

	memset(&hc, 0, sizeof(hc));
	e = history_load(&report_history_cmd, argc, argv, &hc, &h);
	if (e) {
		cmp_ignore_free(&hc.ig);
		return e < 0 ? EXIT_OK : e;
	}
	if ((!hc.path || strcmp(hc.path, "-") == 0) &&
	    isatty(STDOUT_FILENO)) {
		e = cli_usage("report", "the report is a whole HTML page: "
			      "name a file with -o FILE.html, or redirect "
			      "stdout");
		goto out;
	}
	e = cli_out_open("report", hc.path, hc.dbpath, &o);
	if (e)
		goto out;
	plots = html_report_history(o.f, &h, hc.by &&
				    strcmp(hc.by, "kernel") == 0);
	if (plots < 0)
		cli_error("cannot write the report: %s", strerror(errno));
	e = cli_out_close(&o, plots >= 0);
	if (!e && hc.path && strcmp(hc.path, "-") != 0) {
		char clean[4096 * 4 + 1];

		cli_clean_text(hc.path, clean, sizeof(clean));
		printf("wrote %s: %d plot%s\n", clean, plots,
		       plots == 1 ? "" : "s");
	}
out:
	history_free(&h);
	cmp_ignore_free(&hc.ig);
	return e;
}
