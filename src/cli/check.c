/*
 * check.c - `copyscope check BASE`: measure BASE's workloads and
 * parameters again (or take --new RUN), compare, and exit 3 when any
 * metric got worse by more than the threshold with significance, so that
 * it can drive `git bisect run` (docs/comparing.md).
 *
 * The new run goes through the same run session as `run` (session/session.c:
 * validation, runner, interference, storage) with BASE's reps, sample
 * time, warm-up, CPUs and interleaving as stored with it, and is stored
 * tagged "check" (or --tag).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "session/session.h"
#include "report/comparison_print.h"
#include "workloads/workloads.h"

#define MAX_FILTER 128
/* The most runs check measures (--runs). */
#define CHECK_MAX_RUNS 1000

struct check_cli {
	const char *base, *new_run, *db, *tag;
	double threshold_pct;
	int reps;
	int runs;			/* --runs N; 0: as many as BASE has */
	bool json, drop_noisy, allow_emulated;
	double alpha;
	const char *filter[MAX_FILTER];
	size_t nfilter;
	struct cmp_ignore ig;
};

#define CC(field) offsetof(struct check_cli, field)
static const struct opt_row check_rows[] = {
	{ OPT_R("--threshold", OPT_PCT, "PCT"), "how much worse counts as a "
	  "regression (default 5%)", CC(threshold_pct), .lo = 0, .hi = 1000,
	  .unit = "5%" },
	{ OPT_R("--new", OPT_STR, "RUN"), "compare with stored run(s) instead "
	  "of measuring", CC(new_run), .complete = OPT_C_RUNS },
	OPT_ROW_TAG(struct check_cli, tag, "tag of the new run (default "
		    "'check')"),
	OPT_ROW_IGNORE_PARAM(struct check_cli, ig, "with --new: leave these "
			     "parameters out of the matching (as for "
			     "compare)"),
	{ OPT_R("--reps", OPT_INT, "N"), "kept samples per configuration "
	  "(default: BASE's)", CC(reps), .lo = 1, .hi = 100000 },
	{ OPT_R("--runs", OPT_INT, "N"), "measure N runs (default: as many as "
	  "BASE has when it has 3 or more, so the run is the unit on both "
	  "sides; else 1)", CC(runs), .lo = 1, .hi = CHECK_MAX_RUNS },
	{ OPT_R("--drop-noisy", OPT_FLAG, NULL), "leave out samples flagged "
	  "as disturbed", CC(drop_noisy) },
	{ OPT_R("--allow-emulated", OPT_FLAG, NULL), "judge runs measured "
	  "under an emulator (virt.emulated) too; without it they make check "
	  "exit 1", CC(allow_emulated) },
	OPT_ROW_ALPHA(struct check_cli, alpha),
	OPT_ROW_JSON(struct check_cli, json, "the comparison as JSON"),
	OPT_ROW_DB(struct check_cli, db, OPT_HELP_DB),
};
#undef CC

static void check_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd check_cmd = {
	.name = "check", .rows = check_rows,
	.nrows = sizeof(check_rows) / sizeof(check_rows[0]), .help_col = 19,
	.max_pos = -1, .pos = OPT_C_WORKLOADS, .usage = check_usage,
};

static void check_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"usage: copyscope check BASE [WORKLOAD|SUITE ...] [--threshold PCT]\n"
"                       [--new RUN] [options]\n"
"\n"
"Measures the workloads and parameters of BASE again (the same reps, sample\n"
"time, warm-up and CPUs), stores that run tagged 'check', compares it with\n"
"BASE and prints the metrics that got worse by more than the threshold with\n"
"significance (p < alpha and a 95%% CI of the change beyond +-1%%).\n"
"BASE is a run id, a tag, 'last', a selector (host:, kernel:, boot:, tag:)\n"
"or a comma list, as for compare.  Named\n"
"workloads or suites restrict the check to those workloads.\n"
"\n"
"options:\n");
	opt_print_options(out, c);
	fprintf(out,
"\n"
"exit: 0 no regression, 3 regression found, 1 could not run or compare,\n"
"      2 usage error, 130 interrupted.  With git bisect run, map 1 to 125\n"
"      (skip): see docs/comparing.md.\n"
"\nexamples:\n"
"  copyscope check baseline\n"
"  copyscope check baseline sys.null --threshold 3%%\n"
"  copyscope check 12 --new 15\n");
}

static int add_filter(struct check_cli *cc, const char *name)
{
	const struct suite *s = suite_find(name);
	size_t i;

	if (workload_find(name)) {
		if (cc->nfilter < MAX_FILTER)
			cc->filter[cc->nfilter++] = workload_find(name)->name;
		return 0;
	}
	if (!s)
		return cli_usage("check", "unknown workload or suite '%s' "
				 "('copyscope list' shows them)", name);
	for (i = 0; i < s->nentries && cc->nfilter < MAX_FILTER; i++)
		cc->filter[cc->nfilter++] = s->entries[i].workload;
	return 0;
}

static int parse_args(struct check_cli *cc, int argc, char **argv)
{
	struct opt_result res;
	int i, e;

	cc->threshold_pct = 5.0;
	cc->alpha = 0.05;
	e = opt_parse(&check_cmd, argc, argv, cc, &res);
	if (e)
		return e;
	cc->base = res.npos ? res.pos[0] : NULL;
	for (i = 1; i < res.npos && !e; i++)
		e = add_filter(cc, res.pos[i]);
	opt_result_free(&res);
	if (e)
		return e;
	if (!cc->base)
		return cli_usage("check", "which BASE? (a run id, tag or "
				 "list; 'copyscope runs' lists them)");
	if (cc->new_run && cc->runs)
		return cli_usage("check", "--runs only applies when check "
				 "measures (not with --new)");
	if (cc->new_run && cc->reps)
		return cli_usage("check", "--reps only applies when check "
				 "measures (not with --new)");
	return 0;
}

static bool filtered_in(const struct check_cli *cc, const char *workload)
{
	size_t i;

	if (cc->nfilter == 0)
		return true;
	for (i = 0; i < cc->nfilter; i++)
		if (strcmp(cc->filter[i], workload) == 0)
			return true;
	return false;
}

/*
 * The configuration a stored result was measured with, as a job of one
 * configuration; 0 or -1.
 */
static int job_of(const struct result_config *c, struct session_job *out,
		  char *err, size_t len)
{
	const struct workload *wl = workload_find(c->workload);
	size_t k;

	if (!wl) {
		snprintf(err, len, "BASE's workload %s is not in this build",
			 c->workload);
		return -1;
	}
	if (param_request_init(&out->req, wl->params, wl->nparams, err,
			       len) != 0)
		return -1;
	for (k = 0; k < c->nparams; k++) {
		char as[400];

		snprintf(as, sizeof(as), "%s=%s", c->params[k].name,
			 c->params[k].value);
		if (param_request_apply(&out->req, wl->name, as, err,
					len) != 0)
			return -1;
	}
	out->wl = wl;
	return 0;
}

static bool same_job(const struct session_job *a, const struct session_job *b)
{
	struct param_set x, y;

	if (a->wl != b->wl)
		return false;
	param_request_get(&a->req, 0, &x);
	param_request_get(&b->req, 0, &y);
	return memcmp(x.v, y.v, a->wl->nparams * sizeof(int64_t)) == 0;
}

/* BASE's options as the run options of the new run. */
static void base_options(const struct check_cli *cc,
			 const struct run_info *base,
			 struct session_spec *spec)
{
	const struct run_options *o = &base->opts;
	char err[256];

	if (base->have_options) {
		spec->ro.reps = o->reps;
		spec->ro.sample_time_ns = o->sample_time_ns;
		spec->ro.warmup_ns = o->warmup_ns;
		spec->ro.hist = o->hist;
		spec->interleave = o->interleave &&
				   spec->njobs <= SESSION_MAX_INTERLEAVE;
		spec->perf_counters = o->perf_counters;
		if (o->cpus[0] && session_parse_cpus(o->cpus, &spec->ro, err,
						     sizeof(err)) != 0) {
			struct session_spec d;

			cli_error("%s (BASE's CPUs); using every allowed CPU",
				  err);
			session_spec_init(&d);
			memcpy(spec->ro.cpus, d.ro.cpus, sizeof(d.ro.cpus));
			spec->ro.ncpus = d.ro.ncpus;
		}
	}
	if (cc->reps)
		spec->ro.reps = cc->reps;
}

/* A fresh group id for the runs check measures; 0 or -1. */
static int new_group_id(char *buf, size_t len)
{
	unsigned char r[16];
	size_t i;

	if (len < 33 || getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return -1;
	for (i = 0; i < sizeof(r); i++)
		snprintf(buf + 2 * i, 3, "%02x", r[i]);
	return 0;
}

/*
 * Measure BASE's configurations now, as many runs as asked (one session
 * each, sharing a group id); ids[0 .. *nids) get the new runs.  Exit code.
 */
static int measure(const struct check_cli *cc, const struct cmp_side *base,
		   int argc, char **argv, int64_t *ids, size_t *nids)
{
	struct session_job *jobs;
	struct session_spec spec;
	struct session_result sr;
	size_t i, j, n = 0, cap = 0;
	char err[512], *cmdline = NULL, path[4096], group[40];
	int e, run, nruns;

	*nids = 0;
	for (i = 0; i < base->nruns; i++)
		cap += base->runs[i].results.ncfgs;
	jobs = calloc(cap ? cap : 1, sizeof(*jobs));
	if (!jobs) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	for (i = 0; i < base->nruns; i++)
		for (j = 0; j < base->runs[i].results.ncfgs; j++) {
			const struct result_config *c =
				base->runs[i].results.cfgs[j];
			size_t k;
			bool dup = false;

			if (!filtered_in(cc, c->workload))
				continue;
			if (job_of(c, &jobs[n], err, sizeof(err)) != 0) {
				cli_error("check: cannot rerun run %lld: %s",
					  (long long)base->runs[i].info.id,
					  err);
				free(jobs);
				return EXIT_FAIL;
			}
			for (k = 0; k < n && !dup; k++)
				dup = same_job(&jobs[k], &jobs[n]);
			if (!dup)
				n++;
		}
	if (n == 0) {
		cli_error("check: BASE has no results%s to measure again",
			  cc->nfilter ? " of the named workloads" : "");
		free(jobs);
		return EXIT_FAIL;
	}
	session_spec_init(&spec);
	spec.jobs = jobs;
	spec.njobs = n;
	base_options(cc, &base->runs[0].info, &spec);
	spec.tag = cc->tag ? cc->tag : "check";
	e = session_check(&spec, err, sizeof(err));
	if (e) {
		cli_error("check: %s", err);
		goto out;
	}
	cmdline = cli_join_cmdline(argc, argv);
	spec.cmdline = cmdline ? cmdline : "copyscope check";
	e = cli_open_store(cc->db, &spec.store, path, sizeof(path));
	if (e)
		goto out;
	nruns = cc->runs ? cc->runs : base->nruns >= CMP_MIN_RUNS ?
		(int)base->nruns : 1;
	if (nruns > 1 && new_group_id(group, sizeof(group)) == 0)
		spec.group_id = group;
	fprintf(stderr, "copyscope check: measuring %zu configuration%s of "
		"BASE again (%d samples each, %d run%s)\n", n,
		n == 1 ? "" : "s", spec.ro.reps, nruns, nruns == 1 ? "" : "s");
	for (run = 0, e = EXIT_OK; run < nruns && e == EXIT_OK; run++) {
		e = session_run(&spec, &sr);
		cli_warn_noisy(sr.nsamples, sr.nflagged, sr.n_other,
			       sr.n_steal, sr.n_canary);
		if (e == EXIT_INTERRUPTED)
			cli_error("interrupted by signal %d (%s): results so "
				  "far stored with status 'interrupted'",
				  sr.signal, strsignal(sr.signal));
		if (*nids < CHECK_MAX_RUNS && sr.run.info.id > 0)
			ids[(*nids)++] = sr.run.info.id;
		session_result_free(&sr);
	}
	store_close(spec.store);
out:
	free(cmdline);
	free(jobs);
	return e;
}

/* A row that fails the check: worse, significant, beyond the threshold. */
static bool regression(const struct cmp_row *r, void *arg)
{
	double thr = *(const double *)arg;

	if (r->verdict != VERDICT_WORSE || isnan(r->change_pct))
		return false;
	return r->direction > 0 ? r->change_pct < -thr : r->change_pct > thr;
}

int cmd_check(int argc, char **argv)
{
	struct check_cli cc;
	struct cmp c;
	struct cmp_opts o;
	struct store *st;
	char path[4096], newspec[CHECK_MAX_RUNS * 24];
	int64_t ids[CHECK_MAX_RUNS];
	size_t nids = 0, used;
	size_t i, nreg = 0, ncmp = 0, nempty = 0, nwh = 0;
	int e;

	memset(&cc, 0, sizeof(cc));
	memset(&c, 0, sizeof(c));
	e = parse_args(&cc, argc, argv);
	if (e) {
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
		e = measure(&cc, &c.base, argc, argv, ids, &nids);
		if (e == EXIT_INTERRUPTED)
			goto out;
		if (e != EXIT_OK || nids == 0) {
			cli_error("check: the new run failed (exit %d); "
				  "nothing to compare", e);
			e = EXIT_FAIL;
			goto out;
		}
		e = cli_open_store(cc.db, &st, path, sizeof(path));
		if (e)
			goto out;
		for (i = 0, used = 0; i < nids && used < sizeof(newspec); i++)
			used += (size_t)snprintf(newspec + used,
						 sizeof(newspec) - used,
						 "%s%lld", i ? "," : "",
						 (long long)ids[i]);
		e = cli_load_side(st, "check", newspec, &c.new);
		store_close(st);
		if (e)
			goto out;
	}
	c.title = "copyscope check";
	memset(&o, 0, sizeof(o));
	o.alpha = cc.alpha;
	o.noise_pct = 1.0;
	o.drop_noisy = cc.drop_noisy;
	o.allow_emulated = cc.allow_emulated;
	o.ignore = cc.ig.keys;
	o.nignore = cc.ig.n;
	if (cc.nfilter) {
		o.workloads = cc.filter;
		o.nworkloads = cc.nfilter;
	}
	if (cmp_build(&c, &o) != 0) {
		cli_error("out of memory");
		e = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < c.nrows; i++) {
		if (!c.rows[i].in_base || !c.rows[i].in_new)
			continue;
		ncmp++;
		nreg += regression(&c.rows[i], &cc.threshold_pct);
		nempty += c.rows[i].verdict == VERDICT_EMPTY;
		nwh += c.rows[i].verdict == VERDICT_WITHHELD;
	}
	if (cc.json) {
		if (cmp_print_json(stdout, &c) != 0) {
			cli_error("cannot write JSON: %s", strerror(errno));
			e = EXIT_FAIL;
			goto out;
		}
	} else {
		cmp_print_text(stdout, &c, regression, &cc.threshold_pct);
	}
	if (ncmp == 0) {
		cli_error("check: BASE and NEW have no (workload, parameters, "
			  "metric) in common: nothing was checked");
		e = EXIT_FAIL;
	} else if (nreg) {
		if (!cc.json)
			printf("\ncheck: REGRESSION: %zu of %zu metrics worse "
			       "by more than %g%% (p < %g)\n", nreg, ncmp,
			       cc.threshold_pct, cc.alpha);
		e = EXIT_REGRESSION;
	} else if (nwh) {
		cli_error("check: %zu of %zu metrics could not be checked: "
			  "%zu BASE and %zu NEW runs were measured under an "
			  "emulator (virt.emulated), whose timings are not the "
			  "kernel's; --allow-emulated judges them anyway", nwh,
			  ncmp, c.emulated_base, c.emulated_new);
		e = EXIT_FAIL;
	} else if (nempty) {
		cli_error("check: %zu of %zu metrics could not be checked: "
			  "every sample of a side was flagged and left out "
			  "(--drop-noisy); rerun on a quiet machine", nempty,
			  ncmp);
		e = EXIT_FAIL;
	} else {
		if (!cc.json)
			printf("\ncheck: ok: none of %zu metrics worse by "
			       "more than %g%% with p < %g\n", ncmp,
			       cc.threshold_pct, cc.alpha);
		e = EXIT_OK;
	}
	if (c.flavour_differs)
		cli_error("warning: BASE and NEW were measured with different "
			  "build flavours (copyscope.build_flavour)");
out:
	cmp_free(&c);
	cli_free_side(&c.base);
	cli_free_side(&c.new);
	cmp_ignore_free(&cc.ig);
	return e;
}
