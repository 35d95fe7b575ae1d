/*
 * run_args.c - the command line of `copyscope run` into its plan: the
 * options (run.c's table) and how they go together, the workloads and
 * suites named (session/run_plan.h), the key=value settings, a replay's
 * mix; and the one place the session specification is filled from them.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "results/kernel_records.h"
#include "cli/run_priv.h"
#include "util/array.h"

/* A plan's error: 2 is a usage error of run, else printed as it is. */
static int plan_error(int e, const char *err)
{
	if (e == EXIT_USAGE)
		return cli_usage("run", "%s", err);
	if (e)
		cli_error("%s", err);
	return e;
}

/* The options that go together, and the defaults that follow. */
static int check_options(struct run_cli *rc)
{
	if (rc->seed_set && !rc->ro.stored.interleave)
		return cli_usage("run", "--seed: only with --interleave");
	if (rc->ro.profile_hz && !kview_mask_has(rc->ro.stored.kviews, "profile"))
		return cli_usage("run", "--profile-hz: only with --kernel "
				 "profile");
	if (rc->kbackend && !rc->ro.stored.kviews)
		return cli_usage("run", "--kernel-backend: only with --kernel");
	if (rc->ro.stored.kviews && rc->ro.stored.interleave)
		return cli_usage("run", "--kernel: not with --interleave (each "
				 "configuration holds its tracer and rings "
				 "while open; interleaved, all are open at "
				 "once)");
	if (rc->max_time_set && !(rc->ro.precision_pct > 0))
		return cli_usage("run", "--max-time: only with --precision");
	if (rc->ro.precision_pct > 0 && rc->ro.stored.interleave)
		return cli_usage("run", "--precision: not with --interleave "
				 "(an interleaved run takes the same number "
				 "of samples of every configuration, round by "
				 "round)");
	if (rc->ro.precision_pct > 0 && !rc->max_time_set)
		rc->ro.max_time_ns = RUN_DEFAULT_PRECISION_MAX_NS;
	if (rc->runs > 1 && rc->no_store)
		return cli_usage("run", "--runs: the runs are stored to be "
				 "compared; not with --no-store");
	if (rc->json + rc->mail + rc->markdown > 1)
		return cli_usage("run", "one of --json, --mail and --markdown");
	if (rc->runs > 1 && (rc->mail || rc->markdown))
		return cli_usage("run", "--mail, --markdown: one run; for a "
				 "group, compare its tag with another's "
				 "--mail");
	if (rc->runs > 1 && rc->group)
		return cli_usage("run", "--group is set by --runs, not with "
				 "it");
	if (rc->plan.quick) {
		if (!rc->reps_set)
			rc->ro.stored.reps = RUN_QUICK_REPS;
		if (!rc->sample_set)
			rc->ro.stored.sample_time_ns = RUN_QUICK_SAMPLE_NS;
		if (!rc->warmup_set)
			rc->ro.stored.warmup_ns = RUN_QUICK_WARMUP_NS;
	}
	return 0;
}

int run_parse_args(struct run_cli *rc, int argc, char **argv)
{
	const struct opt_cmd *cmd = cli_run_options();
	struct opt_result res;
	char err[512];
	int i, e;

	e = opt_parse(cmd, argc, argv, rc, &res);
	if (e)
		return e;
	rc->reps_set = opt_given(cmd, &res, "--reps");
	rc->sample_set = opt_given(cmd, &res, "--sample-time");
	rc->warmup_set = opt_given(cmd, &res, "--warmup");
	rc->seed_set = opt_given(cmd, &res, "--seed");
	rc->max_time_set = opt_given(cmd, &res, "--max-time");
	for (i = 0; i < res.npos && !e; i++) {
		if (!strchr(res.pos[i], '='))
			e = plan_error(run_plan_add_name(&rc->plan,
							 res.pos[i], err,
							 sizeof(err)), err);
		else if (rc->nassign >= ARRAY_SIZE(rc->assign))
			e = cli_usage("run", "too many key=value arguments");
		else
			rc->assign[rc->nassign++] = res.pos[i];
	}
	opt_result_free(&res);
	if (!e && rc->plan.njobs == 0)
		e = plan_error(run_plan_add_name(&rc->plan, "default", err,
						 sizeof(err)), err);
	if (!e)
		e = check_options(rc);
	if (!e)
		e = cli_run_replay(rc->db, rc->assign, rc->nassign,
				   rc->replay_mix, sizeof(rc->replay_mix),
				   rc->replayed, sizeof(rc->replayed));
	if (!e)
		e = plan_error(run_plan_apply(&rc->plan, rc->assign,
					      rc->nassign, rc->verify, err,
					      sizeof(err)), err);
	if (!e && rc->explain)
		e = plan_error(run_plan_add_explain(&rc->plan, err,
						    sizeof(err)), err);
	return e;
}

void run_fill_spec(const struct run_cli *rc, struct session_spec *spec)
{
	spec->jobs = (struct session_job *)rc->plan.jobs;
	spec->njobs = rc->plan.njobs;
	spec->ro = rc->ro;
	spec->seed_set = rc->seed_set;
	spec->seed = rc->seed;
	spec->tag = rc->tag;
	spec->group_id = rc->group;
}

int cli_run_check_args(int argc, char **argv)
{
	struct run_cli *rc = calloc(1, sizeof(*rc));
	struct session_spec spec;
	char err[512];
	int e;

	if (!rc) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	session_spec_init(&spec);
	rc->ro = spec.ro;
	e = run_parse_args(rc, argc, argv);
	if (!e) {
		run_fill_spec(rc, &spec);
		/* only a usage error is this machine's business: what the
		   guest can run is the guest's */
		if (session_check(&spec, err, sizeof(err)) == EXIT_USAGE)
			e = cli_usage("run", "%s", err);
	}
	free(rc);
	return e < 0 ? EXIT_USAGE : e;
}
