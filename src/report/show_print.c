/*
 * show_print.c - what `copyscope show RUN` prints of one stored run as
 * text (see show_print.h): its header, options and command line, a
 * suite's summary, the results tables (or the observation), the paired
 * A/B table and the environment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/env.h"
#include "report/ab_print.h"
#include "report/format.h"
#include "report/headline_print.h"
#include "report/notes.h"
#include "report/observe_print.h"
#include "report/report.h"
#include "report/run_options_print.h"
#include "report/show_print.h"
#include "results/codec.h"
#include "results/kernel_records.h"
#include "results/observation.h"
#include "util/array.h"

/* "options: 10 samples of >= 100ms after 200ms warm-up; cpus 0-1" */
static void print_options(FILE *out, const struct run_info *run)
{
	const struct run_options *o = &run->opts;
	char line[400];

	if (!run->have_options)
		return;
	run_options_line(o, line, sizeof(line));
	fprintf(out, "options: %s", line);
	if (strcmp(run->status, "interrupted") == 0)
		fprintf(out, " asked (interrupted: fewer were taken)");
	else if (strcmp(run->status, "failed") == 0)
		fprintf(out, " asked (the run failed: fewer may have been "
			"taken)");
	if (o->interleave)
		fprintf(out, "; interleaved, seed %llu",
		       (unsigned long long)o->interleave_seed);
	if (o->kviews) {
		char views[32];

		kview_mask_text(o->kviews, views, sizeof(views));
		fprintf(out, "\n  --kernel %s: a traced sample after each kept one",
		       views);
	}
	fprintf(out, "\n");
}

/* An observation run's observation, as `observe` printed it. */
static void show_observation(FILE *out, const char *json)
{
	struct observation o;
	char err[256];

	if (observation_from_text(json, &o, err, sizeof(err))) {
		fprintf(out, "(the observation cannot be read: %s)\n", err);
		return;
	}
	report_observation(out, &o);
	observation_free(&o);
}

void report_show_run(FILE *out, const struct run_data *run, const char *db,
		     const struct summary_line *lines, size_t nl,
		     bool with_env)
{
	char t0[32], t1[32], tag[512], host[512], hw[400], line[1400], *cmd;

	fmt_utc_time(run->info.started_ns, t0, sizeof(t0));
	fmt_utc_time(run->info.finished_ns, t1, sizeof(t1));
	fmt_clean_text(run->info.tag[0] ? run->info.tag : "-", tag, sizeof(tag));
	fmt_clean_text(run->info.host, host, sizeof(host));
	fprintf(out, "run %lld  %s  tag %s  host %s  boot %s\n",
		(long long)run->info.id, run->info.status, tag, host,
		run->info.boot_id);
	/* wrapped at 80 columns: the version of a dirty tree made it 100 */
	snprintf(line, sizeof(line), "started %s UTC, finished %s UTC, "
		 "copyscope %s (%s)", t0, t1, run->info.tool_version,
		 run->info.build_flavour);
	fmt_wrap(out, 0, 2, line);
	print_options(out, &run->info);
	if (report_hw_line(&run->env, hw, sizeof(hw)))
		fmt_wrap(out, 2, 4, hw);
	cmd = calloc(1, (run->info.cmdline ? strlen(run->info.cmdline)
			 : 0) * 4 + 1);
	if (cmd)
		fmt_clean_text(run->info.cmdline, cmd,
			   (run->info.cmdline ? strlen(run->info.cmdline) :
			    0) * 4 + 1);
	fprintf(out, "%s\n\n", cmd ? cmd : "?");
	free(cmd);
	if (nl) {
		summary_print(out, &run->info, db, lines, nl, run->results.v,
			      run->results.n);
		fprintf(out, "\n");
	}
	if (run->results.n && ab_env_is_ab(&run->env)) {
		static const char *const roles[] = { "A", "B", "A' (A again)" };

		report_results_labelled(out, run->results.v, run->results.n,
					roles, ARRAY_SIZE(roles));
	} else if (run->results.n) {
		report_results(out, run->results.v, run->results.n);
	}
	else if (!run->observation)
		fprintf(out, "(no results)\n");
	else
		show_observation(out, run->observation);
	if (run->results.n && ab_env_is_ab(&run->env)) {
		fprintf(out, "\n");
		ab_print_stored(out, &run->info, &run->env,
				run->results.v, run->results.n);
	}
	if (with_env) {
		fprintf(out, "\nenvironment:\n");
		env_print(&run->env, out);
	}
}

void report_show_env(FILE *out, const struct env *env)
{
	env_print(env, out);
}
