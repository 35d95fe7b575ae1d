/*
 * show.c - `copyscope show RUN`: one stored run's results (the same tables
 * `run` printed) and its environment, or the whole run as JSON.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "report/ab_print.h"
#include "report/observe.h"
#include "report/report.h"
#include "results/kernel_records.h"
#include "util/array.h"

struct show_cli {
	const char *db;
	bool json, csv, no_env;
};

static const struct opt_row show_rows[] = {
	OPT_ROW_JSON(struct show_cli, json, "the run as a JSON document (same "
		     "schema as run --json)"),
	OPT_ROW_CSV(struct show_cli, csv, "one CSV line per result row, with a "
		    "header line"),
	{ OPT_R("--no-env", OPT_FLAG, NULL), "leave the environment out",
	  offsetof(struct show_cli, no_env) },
	OPT_ROW_DB(struct show_cli, db, OPT_HELP_DB),
};

static void show_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd show_cmd = {
	.name = "show", .rows = show_rows,
	.nrows = ARRAY_SIZE(show_rows), .help_col = 13,
	.max_pos = 1, .pos = OPT_C_LAST, .usage = show_usage,
};

static void show_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"usage: copyscope show RUN [--json|--csv] [--no-env] [--db PATH|URL]\n"
"\n"
"Prints one stored run: its header, results tables and environment.\n"
"RUN is a run id as listed by 'copyscope runs', or 'last'.\n");
	opt_print_options(out, c);
}

/* "options: 10 samples of >= 100ms after 200ms warm-up; cpus 0-1" */
static void print_options(const struct run_info *run)
{
	const struct run_options *o = &run->opts;

	if (!run->have_options)
		return;
	printf("options: %d samples of >= %.0fms after %.0fms warm-up; cpus "
	       "%s%s%s", o->reps, o->sample_time_ns / 1e6, o->warmup_ns / 1e6,
	       o->cpus[0] ? o->cpus : "?", o->hist ? "; --hist" : "",
	       o->perf_counters ? "; --perf-counters" : "");
	if (o->interleave)
		printf("; interleaved, seed %llu",
		       (unsigned long long)o->interleave_seed);
	if (o->kviews) {
		char views[32];

		kview_mask_text(o->kviews, views, sizeof(views));
		printf("\n  --kernel %s: a traced sample after each kept one",
		       views);
	}
	printf("\n");
}

/* An observation run's observation, as `observe` printed it. */
static void show_observation(const char *json)
{
	struct observation o;
	char err[256];

	if (observation_from_text(json, &o, err, sizeof(err))) {
		printf("(the observation cannot be read: %s)\n", err);
		return;
	}
	report_observation(stdout, &o);
	observation_free(&o);
}

int cmd_show(int argc, char **argv)
{
	const char *which;
	struct show_cli sc = { 0 };
	struct opt_result res;
	struct run_data run;
	struct store *st;
	char path[4096], err[512], t0[32], t1[32], *end, *cmd;
	char tag[512], host[512];
	int64_t id = 0, *ids = NULL;
	size_t nids = 0;
	int e, rc;

	e = opt_parse(&show_cmd, argc, argv, &sc, &res);
	if (e)
		return e < 0 ? EXIT_OK : e;
	which = res.npos ? res.pos[0] : NULL;
	opt_result_free(&res);
	if (sc.json && sc.csv)
		return cli_usage("show", "--json or --csv, not both");
	if (!which)
		return cli_usage("show", "which run? (an id from 'copyscope "
				 "runs', or 'last')");
	if (strcmp(which, "last") != 0) {
		errno = 0;
		id = strtoll(which, &end, 10);
		if (errno || *end || id <= 0)
			return cli_usage("show", "RUN: '%s' is not a run id "
					 "(a positive integer or 'last')",
					 which);
	}
	e = cli_open_existing_store(sc.db, &st, path, sizeof(path), NULL);
	if (e)
		return e;
	if (id == 0) {
		rc = store_select_runs(st, "last", &ids, &nids, err,
				       sizeof(err));
		if (rc == STORE_SELECT_ERROR) {
			cli_error("%s", err);
			store_close(st);
			return EXIT_FAIL;
		}
		id = nids ? ids[0] : -1;
		free(ids);
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
	if (sc.csv) {
		e = report_csv(stdout, &run.info, run.results.v,
			       run.results.n) ? EXIT_FAIL : EXIT_OK;
	} else if (sc.json && run.observation) {
		e = report_observation_json(stdout, &run.info, &run.env,
					    run.observation) ?
			EXIT_FAIL : EXIT_OK;
	} else if (sc.json) {
		e = report_json(stdout, &run.info, &run.env, run.results.v,
				run.results.n) ? EXIT_FAIL : EXIT_OK;
	} else {
		cli_format_time(run.info.started_ns, t0, sizeof(t0));
		cli_format_time(run.info.finished_ns, t1, sizeof(t1));
		cli_clean_text(run.info.tag[0] ? run.info.tag : "-", tag,
			       sizeof(tag));
		cli_clean_text(run.info.host, host, sizeof(host));
		printf("run %lld  %s  tag %s  host %s  boot %s\n",
		       (long long)run.info.id, run.info.status, tag, host,
		       run.info.boot_id);
		printf("started %s UTC, finished %s UTC, copyscope %s (%s)\n",
		       t0, t1, run.info.tool_version, run.info.build_flavour);
		print_options(&run.info);
		cmd = calloc(1, (run.info.cmdline ? strlen(run.info.cmdline)
				 : 0) * 4 + 1);
		if (cmd)
			cli_clean_text(run.info.cmdline, cmd,
				       (run.info.cmdline ?
					strlen(run.info.cmdline) : 0) * 4 + 1);
		printf("%s\n\n", cmd ? cmd : "?");
		free(cmd);
		if (run.results.n)
			report_results(stdout, run.results.v, run.results.n);
		else if (!run.observation)
			printf("(no results)\n");
		else
			show_observation(run.observation);
		if (run.results.n && ab_env_is_ab(&run.env)) {
			printf("\n");
			ab_print_stored(stdout, &run.info, &run.env,
					run.results.v, run.results.n);
		}
		if (!sc.no_env) {
			printf("\nenvironment:\n");
			env_print(&run.env, stdout);
		}
		e = EXIT_OK;
	}
	run_data_free(&run);
	store_close(st);
	return e;
}
