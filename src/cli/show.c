/*
 * show.c - `copyscope show RUN`: one stored run's results (the same tables
 * `run` printed, a suite's summary first) and its environment, or the
 * whole run as JSON; and the suite summary lines of a stored run, found
 * again from its command line (for show and report).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "report/ab_print.h"
#include "report/headline.h"
#include "report/observe_print.h"
#include "report/report.h"
#include "results/kernel_records.h"
#include "util/array.h"
#include "workloads/workloads.h"

struct show_cli {
	const char *db;
	bool json, csv, no_env;
};

#define OPT_BASE struct show_cli
static const struct opt_row show_rows[] = {
	OPT_ROW_JSON(json, "the run as a JSON document (same "
		     "schema as run --json)"),
	OPT_ROW_CSV(csv, "one CSV line per result row, with a "
		    "header line"),
	OPT_ROW_FLAG("--no-env", "leave the environment out",
	  no_env),
	OPT_ROW_DB(db, OPT_HELP_DB),
};
#undef OPT_BASE

static void show_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd show_cmd = {
	.name = "show", .rows = show_rows,
	.nrows = ARRAY_SIZE(show_rows), .help_col = 13,
	.max_pos = 1, .pos = OPT_C_LAST, .usage = show_usage,
	.synopsis = OPT_SYNOPSIS("RUN [--json|--csv] [--no-env] [--db]"),
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

/* Whether the run's job number job ran workload name. */
static bool job_is(const struct run_data *run, int job, const char *name)
{
	size_t i;

	for (i = 0; i < run->results.n; i++)
		if (run->results.v[i].cfg->job == job)
			return strcmp(run->results.v[i].cfg->workload,
				      name) == 0;
	return false;
}

/* The lines of suite s, its first entry job number job, into lines. */
static size_t add_suite(const struct suite *s, int job,
			struct summary_line *lines, size_t nl, size_t max)
{
	size_t i;

	for (i = 0; i < s->nentries && nl < max; i++)
		lines[nl++] = (struct summary_line) {
			.job = job + (int)i,
			.workload = s->entries[i].workload,
			.label = s->headlines ? s->headlines[i].label : NULL,
			.metric = s->headlines ? s->headlines[i].metric : NULL,
		};
	return nl;
}

size_t cli_suite_lines(const struct run_data *run, struct summary_line *lines,
		       size_t max)
{
	const char *p = run->info.cmdline;
	const struct suite *s;
	bool in_run = false;
	size_t nl = 0, len, i;
	char word[128];
	int job = 0;

	/* "copyscope run [options] NAME|SUITE|key=value ...": each
	   workload named is a job, each suite its entries' jobs */
	for (; p && *p; p += len + strspn(p + len, " ")) {
		len = strcspn(p, " ");
		if (!len || len >= sizeof(word))
			continue;
		memcpy(word, p, len);
		word[len] = '\0';
		if (!in_run) {
			in_run = strcmp(word, "run") == 0;
			continue;
		}
		if (word[0] == '-' || strchr(word, '='))
			continue;
		if (workload_find(word)) {
			job++;
		} else if ((s = suite_find(word)) != NULL) {
			nl = add_suite(s, job, lines, nl, max);
			job += (int)s->nentries;
		}
	}
	for (i = 0; i < nl; i++)
		if (!job_is(run, lines[i].job, lines[i].workload))
			return 0;
	return nl;
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
	int64_t id = 0;
	struct summary_line lines[256];
	size_t nl;
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
	if (sc.csv) {
		e = report_csv(stdout, &run.info, run.results.v,
			       run.results.n) ? EXIT_FAIL : EXIT_OK;
	} else if (sc.json && run.observation) {
		e = report_observation_json(stdout, &run.info, &run.env,
					    run.observation) ?
			EXIT_FAIL : EXIT_OK;
	} else if (sc.json) {
		nl = cli_suite_lines(&run, lines, ARRAY_SIZE(lines));
		e = report_json_summary(stdout, &run.info, &run.env,
					run.results.v, run.results.n, lines,
					nl) ? EXIT_FAIL : EXIT_OK;
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
		nl = cli_suite_lines(&run, lines, ARRAY_SIZE(lines));
		if (nl) {
			summary_print(stdout, &run.info, sc.db, lines, nl,
				      run.results.v, run.results.n);
			printf("\n");
		}
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
