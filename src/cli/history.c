/*
 * history.c - `copyscope history`: the series of run medians of each
 * configuration on each host and their change points
 * (session/history_session.c), printed as an 80-column table with a
 * sparkline, as JSON or as CSV (report/history_text.c,
 * report/history_json.c); and the loading of the history that `check
 * --history` (cli/check.c) and `report --history` (cli/report.c) share.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/history.h"
#include "cli/options.h"
#include "report/history_print.h"
#include "report/mail_print.h"
#include "session/history_newest.h"
#include "util/array.h"

const char *const history_by_words[] = { "time", "kernel", NULL };

struct history_cli {
	const char *db;
	struct history_cli_opts ho;
	struct cmp_ignore ig;
	double alpha;
	bool json, csv;
	bool mail, markdown;		/* report/mail_print.h */
};

#define OPT_BASE struct history_cli
static const struct opt_row history_rows[] = {
	OPT_ROW_JSON(json, "the series and change points as JSON"),
	OPT_ROW_CSV(csv, "one CSV line per point"),
	OPT_ROW_FLAG("--mail", "one line per series in the kernel test "
	  "robot's layout within 72 columns (either side of the last change "
	  "point, else the first and newest points), for a mail", mail),
	OPT_ROW_FLAG("--markdown", "the same as --mail as markdown tables",
	  markdown),
	OPT_ROWS_HISTORY(ho),
	OPT_ROW_IGNORE_PARAM(ig, "leave these "
			     "parameters out of the grouping into series"),
	OPT_ROW_HISTORY_ALPHA(alpha),
	OPT_ROW_HISTORY_MIN_CHANGE(ho),
	OPT_ROW_DB(db, OPT_HELP_DB),
};
#undef OPT_BASE

static void history_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd history_cmd = {
	.name = "history", .rows = history_rows,
	.nrows = ARRAY_SIZE(history_rows), .help_col = 26,
	.max_pos = -1, .pos = OPT_C_RUNS, .usage = history_usage,
	.synopsis = OPT_SYNOPSIS("[SELECTOR ...] [WORKLOAD [KEY=VALUE ...]]\n"
				 "[--metric] [--by]\n"
				 "[--json|--csv|--mail|--markdown]\n"
				 "[--ignore-param] [--alpha]\n"
				 "[--min-change] [--db]"),
};

const struct opt_cmd *cli_history_options(void)
{
	return &history_cmd;
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
"it) on the log medians with a permutation test (999 permutations at\n"
"--alpha 0.01, ten times as many in a segment of 10 to 17 points); each\n"
"gives the runs either side, the %%change of the segment after against\n"
"the one before with its 95%% CI (Welch's t on the log medians), p, and\n"
"the environment keys that changed there.  Where no split of the newest\n"
"points could reach alpha however large a change (a split of k of n\n"
"points has p 2/C(n,k) at best: the newest 3 of 10, 0.017), the last line\n"
"says so, with that p and the points that could, not \"no change point\".\n"
"\n"
"options:\n");
	opt_print_options(out, c);
	fprintf(out,
"\nexamples:\n"
"  copyscope history host:lab3 pipe.bw size=64k --metric bandwidth\n"
"  copyscope history sys.null --by kernel\n"
"  copyscope history tag:nightly --json\n");
}

int cli_history_load(const char *cmd, const char *db, char **pos, int npos,
		     struct hist_request *rq, struct history *h,
		     char *dbpath, size_t len)
{
	struct store *st;
	char err[512];
	int e;

	memset(h, 0, sizeof(*h));
	rq->args = pos;
	rq->nargs = (size_t)npos;
	e = cli_open_existing_store(db, &st, dbpath, len, NULL);
	if (e)
		return e;
	e = history_load(st, rq, h, err, sizeof(err));
	store_close(st);
	if (e == 1)
		return cli_usage(cmd, "%s", err);
	if (e) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	return 0;
}

/* history --mail: the series, with the newest run's machine. */
static int history_mail(const struct history_cli *hc, const struct history *h)
{
	struct run_data run;
	struct store *st;
	char path[4096], err[512];
	int e, le;

	e = cli_open_existing_store(hc->db, &st, path, sizeof(path), NULL);
	if (e)
		return e;
	le = history_load_newest(st, h, &run, err, sizeof(err));
	store_close(st);
	if (le < 0) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	e = mail_print_history(stdout, h, le ? NULL : &run, hc->alpha,
			       mail_format_of(hc->mail, hc->markdown)) ?
		EXIT_FAIL : EXIT_OK;
	if (!le)
		run_data_free(&run);
	return e;
}

int cmd_history(int argc, char **argv)
{
	struct history_cli hc;
	struct hist_request rq;
	struct history h = { 0 };
	struct opt_result res;
	char dbpath[4096];
	int e;

	memset(&hc, 0, sizeof(hc));
	hc.alpha = HIST_DEFAULT_ALPHA;
	e = opt_parse(&history_cmd, argc, argv, &hc, &res);
	if (e)
		return e < 0 ? EXIT_OK : e;
	if (hc.json + hc.csv + hc.mail + hc.markdown > 1) {
		e = cli_usage("history", "one of --json, --csv, --mail and "
			      "--markdown");
		goto out;
	}
	rq.o = (struct hist_opts){ .metric = hc.ho.metric,
				   .ignore = hc.ig.keys, .nignore = hc.ig.n,
				   .by_kernel = HISTORY_BY_KERNEL(&hc.ho),
				   .alpha = hc.alpha,
				   .min_change_pct = hc.ho.min_change_pct,
				   .want_ci = hc.json || hc.csv ? NULL :
					      history_text_shows };
	e = cli_history_load("history", hc.db, res.pos, res.npos, &rq, &h,
			     dbpath, sizeof(dbpath));
	if (e)
		goto out;
	if (hc.json)
		e = history_print_json(stdout, &h) ? EXIT_FAIL : EXIT_OK;
	else if (hc.csv)
		history_print_csv(stdout, &h);
	else if (hc.mail || hc.markdown)
		e = history_mail(&hc, &h);
	else
		history_print_text(stdout, &h);
	if (!e && fflush(stdout) != 0) {
		cli_error("cannot write the output: %s", strerror(errno));
		e = EXIT_FAIL;
	}
	history_free(&h);
out:
	opt_result_free(&res);
	cmp_ignore_free(&hc.ig);
	return e;
}
