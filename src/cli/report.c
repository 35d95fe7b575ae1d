/*
 * report.c - `copyscope report RUN|TAG|LIST ... [-o FILE.html]` and
 * `copyscope report --compare BASE NEW`: one self-contained HTML file
 * with plots (report/html.c), from stored runs or a comparison of two
 * sets of them (comparison/comparison.c, as `compare` judges them), and
 * `copyscope report --history`: the series of a lab's history
 * (cli/history.c loads them) drawn by report/html_plots_history.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/history.h"
#include "cli/options.h"
#include "report/comparison_print.h"
#include "report/html.h"
#include "session/compare_session.h"
#include "session/run_plan.h"
#include "util/array.h"

struct report_cli {
	const char *db, *path;
	char *args[256];
	size_t nargs;
	bool compare;
	bool history;			/* report --history */
	struct history_cli_opts ho;	/* with --history */
	double hist_alpha;		/* with --history */
	struct cmp_opts opts;
	struct cmp_ignore ig;
};

#define OPT_BASE struct report_cli
static const struct opt_row report_rows[] = {
	OPT_ROW_STR("-o", "FILE", "write FILE (complete or not at all); "
	  "default stdout, which must then not be a terminal", path,
	  .complete = OPT_C_FILE),
	OPT_ROW_FLAG("--compare", "the comparison of BASE and NEW "
	  "(as 'copyscope compare') instead of runs", compare),
	OPT_ROW_FLAG("--drop-noisy", "with --compare: leave out "
	  "samples flagged as disturbed", opts.drop_noisy),
	OPT_ROW_FLAG("--by-sample", "with --compare: judge over "
	  "samples also with fewer than 3 runs a side (as compare)",
	  opts.by_sample),
	OPT_ROW_FLAG("--allow-emulated", "with --compare: give "
	  "verdicts on emulated runs too (as compare)",
	  opts.allow_emulated),
	OPT_ROW_IGNORE_PARAM(ig, "with --compare: leave "
			     "these parameters out of the matching"),
	OPT_ROW_DB(db, "database (default $COPYSCOPE_DB, "
		   "else $XDG_DATA_HOME/copyscope/results.db)"),
	OPT_ROW_FLAG("--history", "draw the history of the "
	  "configurations instead of runs", history),
	OPT_ROWS_HISTORY(ho),
	OPT_ROW_HISTORY_ALPHA(hist_alpha),
	OPT_ROW_HISTORY_MIN_CHANGE(ho),
};
#undef OPT_BASE

static void report_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd report_cmd = {
	.name = "report", .rows = report_rows,
	.nrows = ARRAY_SIZE(report_rows), .help_col = 16,
	.max_pos = 256, .pos = OPT_C_RUNS, .usage = report_usage,
	.synopsis = OPT_SYNOPSIS("RUN|TAG|LIST ... [-o] [--db]",
				 "--compare BASE NEW [--drop-noisy] "
				 "[--by-sample]\n"
				 "[--allow-emulated] [--ignore-param]\n"
				 "[-o]",
				 "--history [SELECTOR ...] [WORKLOAD "
				 "[KEY=VALUE ...]]\n[--metric] [--by] "
				 "[--alpha]\n[--min-change] [-o]"),
};

const struct opt_cmd *cli_report_options(void)
{
	return &report_cmd;
}

static void report_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"Writes one self-contained HTML file (the charting code inside, nothing\n"
"fetched: it opens offline and can be mailed).  For runs: each job's results\n"
"table and notes, size sweeps as lines with their 95%% CI band, the writers\n"
"x readers heat map, the fits with their points, per-op latency percentiles,\n"
"every sample against its median (flagged samples marked, bimodal clusters\n"
"coloured, folded), the --explain breakdown when the run has its floors,\n"
"with --kernel profile a flame graph per configuration (an ab run's B and A'\n"
"also against A, differential: coloured by the change of each frame's self\n"
"share; counts, no CI), and the environment (folded).  A suite's run opens\n"
"with its summary, each row linked to its results.  With --compare: the\n"
"%%change of every row with its 95%% CI as a forest plot coloured by\n"
"verdict, the table of 'copyscope compare' with each row's note, each row's\n"
"run medians in time order (base and new), a differential flame graph per\n"
"configuration both sides profiled, and the environment keys that differ\n"
"(the rest folded).  Every plot has its numbers in a table beside it.  BASE\n"
"and NEW with nothing in common: no file; it says why and exits 2, as\n"
"compare does.  With --history: the series 'copyscope history' prints\n"
"(SELECTOR, WORKLOAD and KEY=VALUE as there), for each configuration and\n"
"metric on each host a chart of its run medians in time order (--by kernel:\n"
"its kernels in version order) with their 95%% CI as a band, each change\n"
"point marked at its first point with its %%change, and the kernel release\n"
"named on the top axis where it changes; beside each chart its numbers as a\n"
"table.  At most 24 charts: narrow with a workload, KEY=VALUE or --metric.\n"
"RUN, TAG, LIST, BASE and NEW: a run id, a tag, 'last' or a comma list.\n");
	opt_print_options(out, c);
	fprintf(out,
"\nexamples:\n"
"  copyscope report last -o run.html\n"
"  copyscope report --compare baseline patched -o change.html\n"
"  copyscope report --history sys.null --metric time/call -o h.html\n");
}


/* The options of one form only. */
static const char *const compare_only[] = { "--compare", "--drop-noisy",
	"--by-sample", "--allow-emulated", NULL };
static const char *const history_only[] = { "--metric", "--by", "--alpha",
	"--min-change", NULL };

static int parse(struct report_cli *rc, int argc, char **argv)
{
	struct opt_result res;
	const char *const *wrong;
	int i, e = opt_parse(&report_cmd, argc, argv, rc, &res);

	if (e)
		return e;
	rc->nargs = (size_t)res.npos;
	memcpy(rc->args, res.pos, rc->nargs * sizeof(*rc->args));
	wrong = rc->history ? compare_only : history_only;
	for (i = 0; wrong[i] && !e; i++)
		if (opt_given(&report_cmd, &res, wrong[i]))
			e = cli_usage("report", "%s only applies %s --history",
				      wrong[i], rc->history ? "without" :
				      "with");
	opt_result_free(&res);
	if (e || rc->history)
		return e;
	if (rc->compare && rc->nargs != 2)
		return cli_usage("report", "--compare needs BASE and NEW (run "
				 "ids, tags or comma lists)");
	if (!rc->compare && (rc->ig.n || rc->opts.drop_noisy ||
			     rc->opts.by_sample || rc->opts.allow_emulated))
		return cli_usage("report", "--ignore-param, --drop-noisy, "
				 "--by-sample and --allow-emulated only with "
				 "--compare");
	if (!rc->nargs)
		return cli_usage("report", "which runs? (run ids, tags, "
				 "'last' or comma lists; 'copyscope runs' "
				 "lists them)");
	return 0;
}

/* The page must go to a file, or to a stdout that is not a terminal. */
static int check_out(const struct report_cli *rc)
{
	if ((!rc->path || strcmp(rc->path, "-") == 0) &&
	    isatty(STDOUT_FILENO))
		return cli_usage("report", "the report is a whole HTML page: "
				 "name a file with -o FILE.html, or redirect "
				 "stdout");
	return 0;
}

/* The report of the runs, each suite's summary first. */
static int runs_report(FILE *f, const struct cmp_side *runs)
{
	struct html_suite *suites;
	struct summary_line *lines;
	size_t i;
	int plots = -1;

	if (!runs) {
		errno = EINVAL;
		return -1;
	}
	suites = calloc(runs->nruns + 1, sizeof(*suites));
	lines = calloc((runs->nruns + 1) * 256, sizeof(*lines));
	if (suites && lines) {
		for (i = 0; i < runs->nruns; i++) {
			suites[i].lines = lines + i * 256;
			suites[i].nl = run_plan_suite_lines(&runs->runs[i],
						       lines + i * 256, 256);
		}
		plots = html_report_runs(f, runs->runs, suites, runs->nruns);
	} else {
		errno = ENOMEM;
	}
	free(suites);
	free(lines);
	return plots;
}

/* The page of the runs, of the comparison c or of the history h. */
static int write_report(const struct report_cli *rc, const char *db,
			const struct cmp_side *runs, const struct cmp *c,
			const struct history *h)
{
	struct cli_out o;
	int e, plots;

	e = cli_out_open("report", rc->path, db, &o);
	if (e)
		return e;
	plots = h ? html_report_history(o.f, h, HISTORY_BY_KERNEL(&rc->ho)) :
		c ? html_report_compare(o.f, c) : runs_report(o.f, runs);
	if (plots < 0)
		cli_error("cannot write the report: %s", strerror(errno));
	e = cli_out_close(&o, plots >= 0);
	if (!e && rc->path && strcmp(rc->path, "-") != 0) {
		char clean[4096 * 4 + 1];

		cli_clean_text(rc->path, clean, sizeof(clean));
		printf("wrote %s: %d plot%s\n", clean, plots,
		       plots == 1 ? "" : "s");
	}
	return e;
}

/* report --history: the series the arguments name, drawn.  Exit code. */
static int report_history(const struct report_cli *rc)
{
	struct hist_request rq;
	struct history h;
	char path[4096];
	int e;

	rq.o = (struct hist_opts){ .metric = rc->ho.metric,
				   .ignore = rc->ig.keys, .nignore = rc->ig.n,
				   .by_kernel = HISTORY_BY_KERNEL(&rc->ho),
				   .alpha = rc->hist_alpha,
				   .min_change_pct = rc->ho.min_change_pct };
	e = cli_history_load("report", rc->db, (char **)rc->args,
			     (int)rc->nargs, &rq, &h, path, sizeof(path));
	if (e)
		return e;
	e = check_out(rc);
	if (!e)
		e = write_report(rc, path, NULL, NULL, &h);
	history_free(&h);
	return e;
}

int cmd_report(int argc, char **argv)
{
	struct report_cli *rc = calloc(1, sizeof(*rc));
	struct cmp_side runs;
	struct cmp c;
	struct store *st;
	char path[4096];
	int e;

	memset(&runs, 0, sizeof(runs));
	memset(&c, 0, sizeof(c));
	if (!rc) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	rc->opts.alpha = 0.05;
	rc->opts.noise_pct = 1.0;
	rc->hist_alpha = HIST_DEFAULT_ALPHA;
	e = parse(rc, argc, argv);
	if (!e && rc->history)
		e = report_history(rc);
	if (!e)
		e = check_out(rc);
	if (e || rc->history)
		goto out;
	e = cli_open_existing_store(rc->db, &st, path, sizeof(path), NULL);
	if (e)
		goto out;
	if (rc->compare) {
		e = cli_load_side(st, "report", rc->args[0], &c.base);
		if (!e)
			e = cli_load_side(st, "report", rc->args[1], &c.new);
	} else {
		e = cli_load_runs(st, "report", rc->args, rc->nargs, &runs);
	}
	store_close(st);
	if (!e && rc->compare) {
		rc->opts.ignore = rc->ig.keys;
		rc->opts.nignore = rc->ig.n;
		e = cmp_ignore_check("report", &rc->ig, &c.base, &c.new);
		if (!e && session_compare(&c, &rc->opts) != 0) {
			cli_error("out of memory");
			e = EXIT_FAIL;
		}
		if (!e && cmp_print_explain_none("report", &c))
			e = EXIT_USAGE;
	}
	if (!e)
		e = write_report(rc, path, &runs, rc->compare ? &c : NULL,
				 NULL);
	session_compare_free(&c);
	cli_free_side(&c.base);
	cli_free_side(&c.new);
	cli_free_side(&runs);
out:
	cmp_ignore_free(&rc->ig);
	free(rc);
	return e < 0 ? EXIT_OK : e;
}
