/*
 * show.c - `copyscope show RUN`: one stored run's results (the same tables
 * `run` printed, a suite's summary first) and its environment
 * (report/show_print.c), or the whole run as JSON or CSV.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "report/observe_print.h"
#include "report/report.h"
#include "report/mail_print.h"
#include "report/show_print.h"
#include "results/kernel_records.h"
#include "session/run_plan.h"
#include "util/array.h"

struct show_cli {
	const char *db;
	bool json, csv, no_env, folded;
	bool mail, markdown;		/* report/mail_print.h */
};

#define OPT_BASE struct show_cli
static const struct opt_row show_rows[] = {
	OPT_ROW_JSON(json, "the run as a JSON document (same "
		     "schema as run --json)"),
	OPT_ROW_CSV(csv, "one CSV line per result row, with a "
		    "header line"),
	OPT_ROW_FLAG("--mail", "only the header, the machine, the "
	  "parameters and the table within 72 columns, for a mail", mail),
	OPT_ROW_FLAG("--markdown", "the same as --mail as markdown tables",
	  markdown),
	OPT_ROW_FLAG("--no-env", "leave the environment out",
	  no_env),
	OPT_ROW_FLAG("--folded", "the folded stacks of a configuration's "
	  "--kernel profile, one a line, root first (\"a;b;c COUNT\", "
	  "as flamegraph.pl, inferno and speedscope read them); JOB, after "
	  "RUN, is the configuration's number (1: the first) when the run "
	  "profiled several", folded),
	OPT_ROW_DB(db, OPT_HELP_DB),
};
#undef OPT_BASE

static void show_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd show_cmd = {
	.name = "show", .rows = show_rows,
	.nrows = ARRAY_SIZE(show_rows), .help_col = 13,
	.max_pos = 2, .pos = OPT_C_LAST, .usage = show_usage,
	.synopsis = OPT_SYNOPSIS("RUN [--json|--csv|--mail|--markdown]\n"
				 "[--no-env] [--db]",
				 "RUN --folded [JOB] [--db]"),
};

const struct opt_cmd *cli_show_options(void)
{
	return &show_cmd;
}

static void show_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"Prints one stored run: its header, results tables and environment.\n"
"RUN is a run id as listed by 'copyscope runs', 'last', a tag or a\n"
"selector (host:, kernel:, boot:, tag:; as for runs and compare): of\n"
"several runs, the newest.\n");
	opt_print_options(out, c);
}

/*
 * The run that RUN names when it is not an id: 'last', a tag or a
 * selector (as for runs and compare); of several, the newest, saying so
 * on stderr.  Returns 0 with *id set, 2 (no such run; printed) or 1.
 */
static int select_one(struct store *st, const char *which, int64_t *id)
{
	char err[512], clean[512];
	int64_t *ids = NULL;
	size_t nids = 0, i;
	int rc;

	rc = store_select_runs(st, which, &ids, &nids, err, sizeof(err));
	if (rc == STORE_SELECT_ERROR) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	if (rc != STORE_SELECT_OK || !nids) {
		free(ids);
		return cli_usage("show", "%s ('copyscope runs' lists them)",
				 err);
	}
	*id = ids[0];
	for (i = 1; i < nids; i++)
		if (ids[i] > *id)
			*id = ids[i];
	if (nids > 1) {
		cli_clean_text(which, clean, sizeof(clean));
		cli_error("show: '%s' selects %zu runs; showing the newest, "
			  "%lld ('copyscope runs %s' lists them)", clean, nids,
			  (long long)*id, clean);
	}
	free(ids);
	return 0;
}

/* The configurations of run that hold a profile. */
static size_t profiled(const struct run_data *run, size_t *first)
{
	size_t i, n = 0;

	for (i = run->results.ncfgs; i-- > 0;) {
		const struct result_config *c = run->results.cfgs[i];

		if (c->kernel && kview_mask_has(c->kernel->views, "profile")) {
			*first = i;
			n++;
		}
	}
	return n;
}

/*
 * show RUN --folded [JOB]: configuration JOB's folded stacks (without
 * JOB: the one configuration profiled).  Returns the exit code.
 */
static int show_folded(const struct run_data *run, const char *job)
{
	size_t first = 0, n = profiled(run, &first), ncfg = run->results.ncfgs;
	char *end;
	long j;

	if (!n)
		return cli_usage("show", "--folded: the run has no --kernel "
				 "profile");
	if (!job && n > 1)
		return cli_usage("show", "--folded: %zu configurations have "
				 "a profile: say which, JOB 1 to %zu", n, ncfg);
	if (job) {
		errno = 0;
		j = strtol(job, &end, 10);
		if (errno || *end || end == job || j < 1 || (size_t)j > ncfg)
			return cli_usage("show", "--folded: JOB '%s' is not a "
					 "configuration's number (1 to %zu)",
					 job, ncfg);
		first = (size_t)j - 1;
		if (!run->results.cfgs[first]->kernel ||
		    !kview_mask_has(run->results.cfgs[first]->kernel->views,
				    "profile"))
			return cli_usage("show", "--folded: configuration %ld "
					 "has no --kernel profile", j);
	}
	report_folded(stdout, run->results.cfgs[first]->kernel);
	return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}

int cmd_show(int argc, char **argv)
{
	const char *which, *job;
	struct show_cli sc = { 0 };
	struct opt_result res;
	struct run_data run;
	struct store *st;
	char path[4096], err[512], *end;
	int64_t id = 0;
	struct summary_line lines[256];
	size_t nl;
	int e, rc;

	e = opt_parse(&show_cmd, argc, argv, &sc, &res);
	if (e)
		return e < 0 ? EXIT_OK : e;
	which = res.npos ? res.pos[0] : NULL;
	job = res.npos > 1 ? res.pos[1] : NULL;
	opt_result_free(&res);
	if (sc.json + sc.csv + sc.mail + sc.markdown > 1)
		return cli_usage("show", "one of --json, --csv, --mail and "
				 "--markdown");
	if (sc.folded && (sc.json || sc.csv || sc.mail || sc.markdown))
		return cli_usage("show", "--folded: not with --json, --csv, "
				 "--mail or --markdown");
	if (job && !sc.folded)
		return cli_usage("show", "unexpected argument '%s' (a second "
				 "word, JOB, only with --folded)", job);
	if (!which)
		return cli_usage("show", "which run? (an id from 'copyscope "
				 "runs', or 'last')");
	errno = 0;
	id = strtoll(which, &end, 10);
	if (errno || *end || id <= 0 ||
	    strspn(which, "0123456789") != strlen(which))
		id = 0;		/* 'last', a tag or a selector */
	e = cli_open_existing_store(sc.db, &st, path, sizeof(path), NULL);
	if (e)
		return e;
	if (id == 0) {
		e = select_one(st, which, &id);
		if (e) {
			store_close(st);
			return e;
		}
	}
	rc = id > 0 ? store_load_run(st, id, &run, err, sizeof(err)) : 1;
	if (rc != 0) {
		if (rc > 0)
			cli_error("no run %s in %s ('copyscope runs' lists "
				  "them)", which, path);
		else
			cli_error("%s", err);
		store_close(st);
		return rc > 0 ? EXIT_USAGE : EXIT_FAIL;
	}
	if (sc.folded) {
		e = show_folded(&run, job);
	} else if (sc.mail || sc.markdown) {
		e = mail_print_run(stdout, &run, mail_format_of(sc.mail,
				   sc.markdown)) ? EXIT_FAIL : EXIT_OK;
	} else if (sc.csv) {
		e = report_csv(stdout, &run.info, run.results.v,
			       run.results.n) ? EXIT_FAIL : EXIT_OK;
	} else if (sc.json && run.observation) {
		json_t *o = observation_stored_json(run.observation);

		e = report_observation_json(stdout, &run.info, &run.env, o) ?
			EXIT_FAIL : EXIT_OK;
		json_decref(o);
	} else if (sc.json) {
		nl = run_plan_suite_lines(&run, lines, ARRAY_SIZE(lines));
		e = report_json_summary(stdout, &run.info, &run.env,
					run.results.v, run.results.n, lines,
					nl) ? EXIT_FAIL : EXIT_OK;
	} else {
		nl = run_plan_suite_lines(&run, lines, ARRAY_SIZE(lines));
		report_show_run(stdout, &run, sc.db, lines, nl, !sc.no_env);
		e = EXIT_OK;
	}
	run_data_free(&run);
	store_close(st);
	return e;
}
