/*
 * check.c - `copyscope check BASE`: measure BASE's workloads and
 * parameters again (or take --new RUN), compare, and exit 3 when any
 * metric got worse by more than the threshold with significance, so that
 * it can drive `git bisect run` (docs/comparing.md).
 *
 * The new run goes through the same run session as `run` (session/session.c:
 * validation, runner, interference, storage) with BASE's reps, sample
 * time, warm-up, CPUs and interleaving as stored with it (the plan:
 * session/check_plan.c), and is stored tagged "check" (or --tag).
 *
 * `copyscope check --history`: the newest stored runs of each series (loaded
 * by cli/history.c) judged by session/history_check.c, printed by
 * report/history_text.c; no measurement.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/history.h"
#include "cli/options.h"
#include "report/comparison_print.h"
#include "report/history_print.h"
#include "report/notes.h"
#include "session/check_plan.h"
#include "session/check_verdict.h"
#include "session/compare_session.h"
#include "session/history_check.h"
#include "session/run_plan.h"
#include "session/session.h"
#include "util/array.h"
#include "util/random_id.h"

#define MAX_FILTER 128
/* The most runs check measures (--runs). */
#define CHECK_MAX_RUNS 1000

struct check_cli {
	const char *base, *new_run, *db, *tag;
	double threshold_pct;
	int reps;
	int runs;			/* --runs N; 0: as many as BASE has */
	bool json, drop_noisy, allow_emulated, by_sample;
	bool history;			/* check --history */
	struct history_cli_opts ho;	/* with --history */
	double alpha;
	const char *filter[MAX_FILTER];
	size_t nfilter;
	struct cmp_ignore ig;
};

#define OPT_BASE struct check_cli
static const struct opt_row check_rows[] = {
	OPT_ROW_PCT("--threshold", "PCT", "how much worse counts as a "
	  "regression (default 5%)", threshold_pct, .lo = 0, .hi = 1000,
	  .unit = "5%"),
	OPT_ROW_STR("--new", "RUN", "compare with stored run(s) instead "
	  "of measuring", new_run, .complete = OPT_C_RUNS),
	OPT_ROW_TAG(tag, "tag of the new run (default "
		    "'check')"),
	OPT_ROW_IGNORE_PARAM(ig, "with --new: leave these "
			     "parameters out of the matching (as for "
			     "compare); with --history: out of the grouping "
			     "into series"),
	OPT_ROW_INT("--reps", "N", "kept samples per configuration "
	  "(default: BASE's)", reps, .lo = 1, .hi = 100000),
	OPT_ROW_INT("--runs", "N", "measure N runs (default: as many as "
	  "BASE has when it has 3 or more, so the run is the unit on both "
	  "sides; else 1)", runs, .lo = 1, .hi = CHECK_MAX_RUNS),
	OPT_ROW_FLAG("--drop-noisy", "leave out samples flagged "
	  "as disturbed", drop_noisy),
	OPT_ROW_FLAG("--by-sample", "judge over samples also with "
	  "fewer than 3 runs a side (without it check cannot tell and exits "
	  "4): only where separate runs are known to agree", by_sample),
	OPT_ROW_FLAG("--allow-emulated", "judge runs measured "
	  "under an emulator (virt.emulated) too; without it they make check "
	  "exit 1", allow_emulated),
	OPT_ROW_NUM("--alpha", "A", "significance level (default 0.05; "
	  "with --history 0.01)", alpha, .lo = 0, .hi = 1,
	  .flags = OPT_LO_OPEN | OPT_HI_OPEN),
	OPT_ROW_JSON(json, "the comparison as JSON"),
	OPT_ROW_DB(db, OPT_HELP_DB),
	OPT_ROW_FLAG("--history", "judge the newest stored runs "
	  "against their history instead, measuring nothing", history),
	OPT_ROWS_HISTORY(ho),
	OPT_ROW_HISTORY_MIN_CHANGE(ho),
};
#undef OPT_BASE

static void check_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd check_cmd = {
	.name = "check", .rows = check_rows,
	.nrows = ARRAY_SIZE(check_rows), .help_col = 19,
	.max_pos = -1, .pos = OPT_C_WORKLOADS, .usage = check_usage,
	.synopsis = OPT_SYNOPSIS("BASE [WORKLOAD|SUITE ...] [--threshold]\n"
				 "[--new] [options]",
				 "--history [SELECTOR ...] [WORKLOAD "
				 "[KEY=VALUE ...]]\n[--metric] [--by]\n"
				 "[--min-change] [options]"),
};

const struct opt_cmd *cli_check_options(void)
{
	return &check_cmd;
}

static void check_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"Measures the workloads and parameters of BASE again (the same reps, sample\n"
"time, warm-up and CPUs), stores that run tagged 'check', compares it with\n"
"BASE and prints the metrics that got worse by more than the threshold with\n"
"significance (p < alpha and a 95%% CI of the change beyond +-1%%); when\n"
"none did, every row it compared.\n"
"BASE is a run id, a tag, 'last', a selector (host:, kernel:, boot:, tag:)\n"
"or a comma list, as for compare.  Named workloads or suites restrict the\n"
"check to those workloads.  A side of a single run is judged against 5 or\n"
"more earlier runs of its configuration on its host when the store has\n"
"them (history-based, as for compare).\n"
"With --history: judges the newest runs of each series of 'copyscope\n"
"history' (SELECTOR, WORKLOAD, KEY=VALUE as there): exit 3 when the last\n"
"change point, or the newest 1-3 runs against the earlier runs' spread\n"
"(t on log medians, p x windows x series < --alpha), are worse by at\n"
"least --min-change; 0 when they lie within the history; 4 (cannot tell,\n"
"saying how many more runs decide) below %d points.  Nothing is measured.\n"
"\n"
"options:\n", HIST_CHECK_MIN_POINTS);
	opt_print_options(out, c);
	fprintf(out,
"\n"
"exit: 0 no regression, 3 regression found, 4 cannot tell (the runs or\n"
"      samples cannot reach a verdict: the rows say what would), 1 could\n"
"      not run or compare, 2 usage error, 130 interrupted.  With git\n"
"      bisect run, map 1 and 4 to 125 (skip): see docs/comparing.md.\n"
"\nexamples:\n"
"  copyscope check baseline\n"
"  copyscope check baseline sys.null --threshold 3%%\n"
"  copyscope check 12 --new 15\n"
"  copyscope run --tag nightly sys.null && \\\n"
"    copyscope check --history host:$(hostname)+tag:nightly sys.null \\\n"
"      --metric time/call --min-change 3%%\n");
}

static int add_filter(struct check_cli *cc, const char *name)
{
	const struct suite *s = run_plan_suite(name);
	const struct workload *wl = run_plan_workload(name);
	size_t i;

	if (wl && cc->nfilter < MAX_FILTER)
		cc->filter[cc->nfilter++] = wl->name;
	if (wl)
		return 0;
	if (!s)
		return cli_usage("check", "unknown workload or suite '%s' "
				 "('copyscope list' shows them)",
				 msg_quote(name));
	for (i = 0; i < s->nentries && cc->nfilter < MAX_FILTER; i++)
		cc->filter[cc->nfilter++] = s->entries[i].workload;
	return 0;
}

/* The options of the one form and not the other. */
static const char *const measure_only[] = { "--threshold", "--new", "--tag",
	"--reps", "--runs", "--drop-noisy", "--by-sample", "--allow-emulated",
	"--json", NULL }, *const history_only[] = { "--metric", "--by",
	"--min-change", NULL };

/* Read the command line into cc and res (opt_result_free() it). */
static int parse_args(struct check_cli *cc, int argc, char **argv,
		      struct opt_result *res)
{
	const char *const *wrong;
	int i, e;

	cc->threshold_pct = 5.0;
	cc->alpha = 0.05;
	e = opt_parse(&check_cmd, argc, argv, cc, res);
	if (e)
		return e;
	wrong = cc->history ? measure_only : history_only;
	for (i = 0; wrong[i]; i++)
		if (opt_given(&check_cmd, res, wrong[i]))
			return cli_usage("check", "%s only applies %s "
					 "--history", wrong[i], cc->history ?
					 "without" : "with");
	if (cc->history && !opt_given(&check_cmd, res, "--alpha"))
		cc->alpha = HIST_DEFAULT_ALPHA;
	if (cc->history)
		return 0;
	cc->base = res->npos ? res->pos[0] : NULL;
	for (i = 1; i < res->npos && !e; i++)
		e = add_filter(cc, res->pos[i]);
	if (e)
		return e;
	if (!cc->base)
		return cli_usage("check", "which BASE? (a run id, tag or "
				 "list; 'copyscope runs' lists them)");
	if (cc->new_run && (cc->runs || cc->reps))
		return cli_usage("check", "%s only applies when check "
				 "measures (not with --new)",
				 cc->runs ? "--runs" : "--reps");
	return 0;
}

/* check --history: each series res names judged and printed; exit 3
   when one is worse, else 4 when one cannot be told, else 0. */
static int check_history(const struct check_cli *cc,
			 const struct opt_result *res)
{
	struct hist_request rq;
	struct history h;
	struct hist_check v;
	struct hist_check_opts ho;
	char dbpath[4096];
	size_t i, worse = 0, unsure = 0;
	int e;

	rq.o = (struct hist_opts){ .metric = cc->ho.metric, .alpha = cc->alpha,
		.ignore = cc->ig.keys, .nignore = cc->ig.n,
		.by_kernel = HISTORY_BY_KERNEL(&cc->ho),
		.min_change_pct = cc->ho.min_change_pct,
		.want_ci = history_check_wants_ci };
	e = cli_history_load("check", cc->db, res->pos, res->npos, &rq, &h,
			     dbpath, sizeof(dbpath));
	if (e)
		return e;
	ho = (struct hist_check_opts){ .alpha = cc->alpha, .nseries = h.n,
				       .min_change_pct = cc->ho.min_change_pct };
	for (i = 0; i < h.n && !(e = history_check(&h.s[i], &ho, &v)); i++) {
		history_print_check(stdout, &h.s[i], &v);
		worse += v.verdict == HIST_WORSE;
		unsure += v.verdict == HIST_TOO_SHORT || v.verdict == HIST_NO_LOG;
	}
	history_free(&h);
	if (e || fflush(stdout) != 0) {
		cli_error("check: %s%s", e ? "out of memory" : "cannot write "
			  "the output: ", e ? "" : strerror(errno));
		return EXIT_FAIL;
	}
	return worse ? EXIT_REGRESSION : unsure ? EXIT_CANNOT_TELL : EXIT_OK;
}

/*
 * Measure BASE's configurations now, as many runs as asked (one session
 * each, sharing a group id); ids[0 .. *nids) get the new runs.  Exit code.
 */
static int measure(const struct check_cli *cc, const struct cmp_side *base,
		   int argc, char **argv, int64_t *ids, size_t *nids)
{
	struct check_plan_request req = {
		.base = base->runs, .nbase = base->nruns,
		.workloads = cc->filter, .nworkloads = cc->nfilter,
		.reps = cc->reps, .runs = cc->runs,
	};
	struct check_plan plan;
	struct session_spec *spec = &plan.spec;
	struct session_result sr;
	char err[640], *cmdline = NULL, path[4096], group[40];
	int e, run;

	*nids = 0;
	e = check_plan_make(&req, &plan, err, sizeof(err));
	if (!e && plan.warning[0])
		cli_error("%s", plan.warning);
	spec->tag = cc->tag ? cc->tag : "check";
	if (!e)
		e = session_check(spec, err, sizeof(err));
	if (e) {
		cli_error("check: %s", err);
		goto out;
	}
	cmdline = cli_join_cmdline(argc, argv);
	spec->cmdline = cmdline ? cmdline : "copyscope check";
	e = cli_open_store(cc->db, &spec->store, path, sizeof(path));
	if (e)
		goto out;
	if (plan.nruns > 1 && util_random_id(group, sizeof(group)) == 0)
		spec->group_id = group;
	fprintf(stderr, "copyscope check: measuring %zu configuration%s of "
		"BASE again (%d samples each, %d run%s)\n", spec->njobs,
		spec->njobs == 1 ? "" : "s", spec->ro.stored.reps, plan.nruns,
		plan.nruns == 1 ? "" : "s");
	for (run = 0, e = EXIT_OK; run < plan.nruns && e == EXIT_OK; run++) {
		e = session_run(spec, &sr);
		report_warn_noisy(sr.nsamples, sr.nflagged, sr.n_other,
				  sr.n_steal, sr.n_canary, sr.n_offcpu);
		if (e == EXIT_INTERRUPTED)
			cli_error("interrupted by signal %d (%s): results so "
				  "far stored with status 'interrupted'",
				  sr.signal, strsignal(sr.signal));
		/* not in the store after all: kept whole as run keeps it */
		if (sr.store_lost)
			e = cli_keep_lost_run(spec->store, path, &sr.run);
		else if (*nids < CHECK_MAX_RUNS && sr.run.info.id > 0)
			ids[(*nids)++] = sr.run.info.id;
		session_result_free(&sr);
	}
	store_close(spec->store);
out:
	free(cmdline);
	check_plan_free(&plan);
	return e;
}

/*
 * Measure the new side and load it as c->new (the runs just stored).
 * Exit code.
 */
static int measure_new_side(const struct check_cli *cc, struct cmp *c,
			    int argc, char **argv)
{
	char path[4096], newspec[CHECK_MAX_RUNS * 24];
	int64_t ids[CHECK_MAX_RUNS];
	size_t i, used, nids = 0;
	struct store *st;
	int e;

	e = measure(cc, &c->base, argc, argv, ids, &nids);
	if (e == EXIT_INTERRUPTED)
		return e;
	if (e != EXIT_OK || nids == 0) {
		cli_error("check: the new run failed (exit %d); nothing to "
			  "compare", e);
		return EXIT_FAIL;
	}
	e = cli_open_store(cc->db, &st, path, sizeof(path));
	if (e)
		return e;
	for (i = 0, used = 0; i < nids && used < sizeof(newspec); i++)
		used += (size_t)snprintf(newspec + used, sizeof(newspec) - used,
					 "%s%lld", i ? "," : "",
					 (long long)ids[i]);
	e = cli_load_side(st, "check", newspec, &c->new);
	store_close(st);
	return e;
}

int cmd_check(int argc, char **argv)
{
	struct check_cli cc;
	struct opt_result res;
	struct cmp c;
	struct cmp_opts o;
	struct store *st;
	char path[4096];
	struct check_tally t;
	int e;

	memset(&cc, 0, sizeof(cc));
	memset(&c, 0, sizeof(c));
	e = parse_args(&cc, argc, argv, &res);
	if (!e && cc.history)
		e = check_history(&cc, &res);
	opt_result_free(&res);
	if (e || cc.history) {
		cmp_ignore_free(&cc.ig);
		return e < 0 ? EXIT_OK : e;
	}
	e = cli_open_existing_store(cc.db, &st, path, sizeof(path), NULL);
	if (e)
		return e;
	e = cli_load_side(st, "check", cc.base, &c.base);
	if (!e && cc.new_run)
		e = cli_load_side(st, "check", cc.new_run, &c.new);
	store_close(st);
	if (!e)
		e = cmp_ignore_check("check", &cc.ig, &c.base, &c.new);
	if (e)
		goto out;
	if (!cc.new_run) {
		e = measure_new_side(&cc, &c, argc, argv);
		if (e)
			goto out;
	}
	c.title = "copyscope check";
	o = (struct cmp_opts){ .alpha = cc.alpha, .noise_pct = 1.0,
			       .drop_noisy = cc.drop_noisy,
			       .by_sample = cc.by_sample,
			       .allow_emulated = cc.allow_emulated,
			       .ignore = cc.ig.keys, .nignore = cc.ig.n,
			       .workloads = cc.nfilter ? cc.filter : NULL,
			       .nworkloads = cc.nfilter };
	e = cli_cmp_build(cc.db, &c, &o);
	if (e)
		goto out;
	check_tally(&c, cc.threshold_pct, &t);
	if (cc.json) {
		if (cmp_print_json(stdout, &c) != 0) {
			cli_error("cannot write JSON: %s", strerror(errno));
			e = EXIT_FAIL;
			goto out;
		}
	} else {
		/* with no regression, every row compared: what was checked */
		cmp_print_text(stdout, &c, t.nreg ? check_row_shown :
			       check_row_compared, &cc.threshold_pct);
	}
	if (t.ncmp == 0) {
		cmp_print_explain_none("check", &c);
		e = EXIT_FAIL;
	} else if (t.nreg) {
		if (!cc.json)
			printf("\ncheck: REGRESSION: %zu of %zu metrics worse "
			       "by more than %g%% (p < %g)\n", t.nreg, t.ncmp,
			       cc.threshold_pct, cc.alpha);
		e = EXIT_REGRESSION;
	} else if (t.nct || t.nheld) {
		if (!cc.json)
			printf("\ncheck: cannot tell: %zu of %zu metrics could "
			       "not be judged (the line under each row says "
			       "why and what would decide it; exit %d)\n",
			       t.nct + t.nheld, t.ncmp, EXIT_CANNOT_TELL);
		e = EXIT_CANNOT_TELL;
	} else if (t.nwh) {
		cli_error("check: %zu of %zu metrics could not be checked: "
			  "%zu BASE and %zu NEW runs were measured under an "
			  "emulator (virt.emulated), whose timings are not the "
			  "kernel's; --allow-emulated judges them anyway",
			  t.nwh, t.ncmp, c.emulated_base, c.emulated_new);
		e = EXIT_FAIL;
	} else if (t.nempty) {
		cli_error("check: %zu of %zu metrics could not be checked: "
			  "every sample of a side was flagged and left out "
			  "(--drop-noisy); rerun on a quiet machine",
			  t.nempty, t.ncmp);
		e = EXIT_FAIL;
	} else {
		if (!cc.json)
			printf("\ncheck: ok: none of %zu metrics worse by "
			       "more than %g%% with p < %g\n", t.ncmp,
			       cc.threshold_pct, cc.alpha);
		e = EXIT_OK;
	}
	if (c.flavour_differs)
		cli_error("warning: BASE and NEW were measured with different "
			  "build flavours (copyscope.build_flavour)");
out:
	session_compare_free(&c);
	cli_free_side(&c.base);
	cli_free_side(&c.new);
	cmp_ignore_free(&cc.ig);
	return e;
}
