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
#include "report/report.h"

static void show_usage(FILE *out)
{
	fprintf(out,
"usage: copyscope show RUN [--json] [--no-env] [--db PATH]\n"
"\n"
"Prints one stored run: its header, results tables and environment.\n"
"RUN is a run id as listed by 'copyscope runs', or 'last'.\n"
"  --json     the run as a JSON document (same schema as run --json)\n"
"  --no-env   leave the environment out\n");
}

static int64_t last_run(struct store *st)
{
	struct store_run *runs = NULL;
	char err[512];
	size_t n = 0;
	int64_t id = -1;

	if (store_list_runs(st, &runs, &n, err, sizeof(err)) == 0 && n > 0)
		id = runs[n - 1].id;
	store_free_runs(runs, n);
	return id;
}

int cmd_show(int argc, char **argv)
{
	const char *db = NULL, *which = NULL, *v;
	struct store_result *res = NULL;
	struct store_run run;
	struct env env = { 0 };
	struct store *st;
	bool json = false, no_env = false;
	char path[4096], err[512], t0[32], t1[32], *end;
	size_t n = 0;
	int64_t id;
	int e, missing, rc;

	for (int a = 1; a < argc; a++) {
		if (cli_is_help(argv[a])) {
			show_usage(stdout);
			return EXIT_OK;
		}
		v = cli_opt_value(argc, argv, &a, "--db", &missing);
		if (missing)
			return cli_usage("show", "--db needs a value");
		if (v)
			db = v;
		else if (strcmp(argv[a], "--json") == 0)
			json = true;
		else if (strcmp(argv[a], "--no-env") == 0)
			no_env = true;
		else if (argv[a][0] == '-' || which)
			return cli_usage("show", "unknown argument '%s'",
					 argv[a]);
		else
			which = argv[a];
	}
	if (!which)
		return cli_usage("show", "which run? (an id from 'copyscope "
				 "runs', or 'last')");
	e = cli_open_existing_store(db, &st, path, sizeof(path), NULL);
	if (e)
		return e;
	if (strcmp(which, "last") == 0) {
		id = last_run(st);
	} else {
		errno = 0;
		id = strtoll(which, &end, 10);
		if (errno || *end || id <= 0) {
			store_close(st);
			return cli_usage("show", "RUN: '%s' is not a run id "
					 "(a positive integer or 'last')",
					 which);
		}
	}
	memset(&run, 0, sizeof(run));
	rc = id > 0 ? store_load_run(st, id, &run, &env, &res, &n, err,
				     sizeof(err)) : 1;
	if (rc != 0) {
		if (rc > 0)
			cli_error("no run %s in %s ('copyscope runs' lists "
				  "them)", which, path);
		else
			cli_error("%s", err);
		store_close(st);
		return rc > 0 ? EXIT_USAGE : EXIT_FAIL;
	}
	if (json) {
		e = report_json(stdout, &run, &env, res, n) ? EXIT_FAIL
							     : EXIT_OK;
	} else {
		cli_format_time(run.started_ns, t0, sizeof(t0));
		cli_format_time(run.finished_ns, t1, sizeof(t1));
		printf("run %lld  %s  tag %s  host %s  boot %s\n",
		       (long long)run.id, run.status,
		       run.tag[0] ? run.tag : "-", run.host, run.boot_id);
		printf("started %s UTC, finished %s UTC, copyscope %s (%s)\n",
		       t0, t1, run.tool_version, run.build_flavour);
		printf("%s\n\n", run.cmdline ? run.cmdline : "");
		if (n)
			report_results(stdout, res, n);
		else
			printf("(no results)\n");
		if (!no_env) {
			printf("\nenvironment:\n");
			env_print(&env, stdout);
		}
		e = EXIT_OK;
	}
	store_free_results(res, n);
	free(run.cmdline);
	env_free(&env);
	store_close(st);
	return e;
}
