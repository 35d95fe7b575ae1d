/*
 * ab.c - `copyscope ab WORKLOAD [KEY=VALUE ...] --a K=V[,K=V] --b K=V`:
 * a paired A/B inside one run.  This file reads the command line and
 * prints; the run is session/ab_session.c, the judgement
 * comparison/ab_verdict.c, the table report/ab_print.c.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "report/ab_print.h"
#include "report/mail_print.h"
#include "report/notes.h"
#include "report/profile_diff_print.h"
#include "results/kernel_records.h"
#include "session/ab_session.h"
#include "session/kernel_backend.h"
#include "session/run_plan.h"
#include "util/array.h"

#define AB_STR(x) #x
#define AB_XSTR(x) AB_STR(x)

#define AB_MAX_SIDE_ARGS 16

struct ab_cli {
	struct ab_spec spec;
	bool json, no_store;
	bool mail, markdown;		/* report/mail_print.h */
	const char *db, *tag;
	const char *side[2][AB_MAX_SIDE_ARGS];
	size_t nside[2];
	const char *sysctl[2][AB_MAX_SETTINGS], *thp[2][AB_MAX_SETTINGS];
	size_t nsysctl[2], nthp[2];
	struct kernel_backend rk;	/* --kernel profile: how it is
					   aggregated, for the environment */
};

/* --kernel VIEWS: ab records only the profile view. */
static int check_kviews(const char *cmd, const struct opt_row *r,
			const char *v, void *dest)
{
	char err[256];

	(void)r;
	if (kview_parse(v, dest, err, sizeof(err)) != 0)
		return cli_usage(cmd, "%s", err);
	if (kview_traced_views(*(unsigned *)dest))
		return cli_usage(cmd, "--kernel %s: ab records only profile "
				 "(lock, sched and syscall hold their tracer "
				 "while a configuration is open, and ab opens "
				 "A, B and A' at once; run --kernel records "
				 "them)", v);
	return 0;
}

static const char *const kview_words[] = { "profile", NULL };

#define OPT_BASE struct ab_cli
static const struct opt_row ab_rows[] = {
	OPT_ROW_REPEAT("--a", "K=V[,K=V...]", "side A's parameters (also A')",
		  side[0], nside[0], .complete = OPT_C_PARAMS),
	OPT_ROW_REPEAT("--b", "K=V[,K=V...]", "side B's parameters", side[1],
		  nside[1], .complete = OPT_C_PARAMS),
	OPT_ROW_REPEAT("--a-sysctl", "K=V", "a /proc/sys setting of side A "
		  "(vm.swappiness=10; repeatable)", sysctl[0], nsysctl[0],
		  .complete = OPT_C_SYSCTL),
	OPT_ROW_REPEAT("--b-sysctl", "K=V", "a /proc/sys setting of side B",
		  sysctl[1], nsysctl[1], .complete = OPT_C_SYSCTL),
	OPT_ROW_REPEAT("--a-thp", "K=V", "a "
		       "/sys/kernel/mm/transparent_hugepage setting of side A "
		       "(enabled=never)", thp[0], nthp[0],
		       .complete = OPT_C_THP),
	OPT_ROW_REPEAT("--b-thp", "K=V", "a transparent_hugepage setting of "
		       "side B", thp[1], nthp[1], .complete = OPT_C_THP),
	OPT_ROW_INT("--rounds", "N", "rounds (default "
	  AB_XSTR(AB_DEFAULT_ROUNDS) "; with --precision: the most)",
	  spec.rounds, .lo = 2, .hi = AB_SESSION_MAX_N / 2.0),
	OPT_ROW_PCT("--precision", "PCT", "add rounds until the first "
	  "metric's 95% CI and its A'/A control's are within +-PCT, testing at "
	  AB_XSTR(AB_PRECISION_FIRST_LOOK) " rounds and at each doubling; "
	  "the verdicts then use alpha / the number of such looks",
	  spec.precision_pct, .lo = 0.01, .hi = 100, .unit = "1%"),
	OPT_ROW_TIME("--max-time", "T", "with --precision: at most T of "
	  "rounds (default 60s)", spec.max_time_ns, .lo = 1e6,
	  .hi = 86400e9),
	OPT_ROW_TIME("--sample-time", "T", "one sample (default 10ms)",
	  spec.session.ro.stored.sample_time_ns, .lo = 1e6, .hi = 60e9),
	OPT_ROW_TIME("--warmup", "T", "warm-up of each configuration "
	  "(default 100ms)", spec.session.ro.stored.warmup_ns, .lo = 0,
	  .hi = 600e9),
	OPT_ROW_CHECK(OPT_LIST, "--cpus", "LIST", "CPUs the workers may use, "
	  "in order (e.g. 0,1 or 2-5)", spec.session.ro, struct run_opts,
	  opt_check_cpus),
	OPT_ROW_U64("--seed", "N", "seed of the rounds' order (default: "
	  "the clock)", spec.session.seed),
	OPT_ROW_ALPHA(spec.stats.alpha),
	OPT_ROW_PCT("--noise", "PCT", "the band a change must clear "
	  "(default 1%)", spec.stats.noise_pct, .lo = 0, .hi = 100,
	  .unit = "1%"),
	OPT_ROW_FLAG("--drop-noisy", "leave out rounds with a "
	  "sample flagged as disturbed", spec.stats.drop_noisy),
	OPT_ROW_CHECK(OPT_LIST, "--kernel", "profile", "sample the "
	  "workers' kernel stacks in a traced sample after each kept one of "
	  "A, B and A' (the kept ones stay untraced) and diff them per "
	  "function, paired over the rounds, beside the control: see "
	  "docs/kernel-views.md", spec.session.ro.stored.kviews, unsigned,
	  check_kviews, .words = kview_words),
	OPT_ROW_INT("--profile-hz", "HZ", "with --kernel profile: samples a "
	  "second of each worker (default 499)",
	  spec.session.ro.profile_hz, .lo = 1, .hi = 100000),
	OPT_ROW_FLAG("--hw-counters", "read core cycles, instructions, "
	  "cache and dTLB misses from the PMU around each sample, as run "
	  "--hw-counters: their rows are info, never a verdict",
	  spec.session.ro.stored.hw_counters),
	OPT_ROW_FLAG("--fresh-workers", "start each configuration's "
	  "workers anew before every kept sample, so that no side keeps the "
	  "placement of one thread (docs/comparing.md); not with --kernel",
	  spec.session.ro.stored.fresh_workers),
	OPT_ROW_JSON(json, "the result as JSON"),
	OPT_ROW_FLAG("--mail", "only the header, the machine, the "
	  "parameters and the table of A, %change and B in the kernel test "
	  "robot's layout within 72 columns, for a mail", mail),
	OPT_ROW_FLAG("--markdown", "the same as --mail as markdown tables",
	  markdown),
	OPT_ROW_TAG(tag, "tag of the stored run"),
	OPT_ROW_FLAG("--no-store", "do not store the run",
	  no_store),
	OPT_ROW_DB(db, OPT_HELP_DB),
};
#undef OPT_BASE

static void ab_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd ab_cmd = {
	.name = "ab", .rows = ab_rows, .nrows = ARRAY_SIZE(ab_rows),
	.help_col = 21, .max_pos = -1, .pos = OPT_C_WORKLOADS,
	.usage = ab_usage,
	.synopsis = OPT_SYNOPSIS("WORKLOAD [KEY=VALUE ...] --a\n"
				 "--b [--a-sysctl] [--b-sysctl]\n"
				 "[--a-thp] [--b-thp] [--rounds]\n"
				 "[--precision [--max-time]] [options]"),
};

const struct opt_cmd *cli_ab_options(void)
{
	return &ab_cmd;
}

static void ab_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"A paired A/B inside one run: opens A, B and a control A' (a second copy\n"
"of A) together, every worker started, batch sized and warmed up, then\n"
"takes one sample of each per round, each round in a freshly shuffled\n"
"order.  B is judged against the A and A' of its own round: the drift of\n"
"a noisy machine moves all three alike and cancels in the pair.  Per\n"
"metric: the Hodges-Lehmann %%change of B against A over the rounds with\n"
"its 95%% CI, a Wilcoxon signed-rank p, and a verdict ('better' or\n"
"'worse' by the metric's direction) only when p < alpha, the whole CI is\n"
"beyond the noise band and beyond the change the A'/A control shows;\n"
"else '~' with the largest change the CI allows, or 'cannot tell' when\n"
"the rounds cannot decide.  KEY=VALUE before the sides applies to both;\n"
"the sides may differ in any parameters (one value each); --a X --b X is\n"
"the A/A self-test.  Kernel settings: a file under /proc/sys or\n"
"/sys/kernel/mm/transparent_hugepage, written before each of the side's\n"
"samples outside the timed window, checked first and restored at the end,\n"
"on error and on a signal.  --kernel profile also samples the kernel\n"
"stacks of each side in a traced sample after each kept one and prints\n"
"which functions' ns per op moved: per function the mean change B - A\n"
"over the rounds with its 95%% CI beside the control's (A' - A), and what\n"
"the functions that moved most explain of the op's change (--json:\n"
"profile_diff; --mail and --markdown put it under the table).  The run\n"
"is stored with its roles and settings; show prints it again, report\n"
"draws it.\n"
"\n"
"options:\n");
	opt_print_options(out, c);
	fprintf(out,
"\n"
"exit: 0 judged (whatever the verdicts), 1 a workload failed, 2 usage\n"
"error, 77 the workload cannot run here, 130 interrupted.\n"
"\nexamples:\n"
"  copyscope ab sys.iov call=preadv target=zero --a segs=8 --b segs=9\n"
"  copyscope ab sys.null --a call=gettid --b call=gettid      (A/A)\n"
"  copyscope ab sys.rw target=zero --a size=4k --b size=64k --kernel "
"profile\n"
"  copyscope ab pipe.bw place=split --a size=64k --b size=60k "
"--precision 1%%\n"
"  copyscope ab file.rw size=2M --a-thp shmem_enabled=always \\\n"
"      --b-thp shmem_enabled=never\n");
}

/* The settings of side s, checked for form. */
static int add_settings(struct ab_cli *c, int s)
{
	char err[512];
	size_t k;

	for (k = 0; k < c->nsysctl[s]; k++)
		if (ab_setting_add(&c->spec, AB_SYSCTL, s, c->sysctl[s][k],
				   err, sizeof(err)) != 0)
			return cli_usage("ab", "%s", err);
	for (k = 0; k < c->nthp[s]; k++)
		if (ab_setting_add(&c->spec, AB_THP, s, c->thp[s][k], err,
				   sizeof(err)) != 0)
			return cli_usage("ab", "%s", err);
	return 0;
}

/* The workload and the KEY=VALUE for both sides, then each side's. */
static int apply_args(struct ab_cli *c, char **pos, int npos)
{
	const struct workload *wl;
	char err[512];
	size_t k;
	int i, s;

	if (npos < 1)
		return cli_usage("ab", "which workload? (copyscope ab "
				 "WORKLOAD --a K=V --b K=V)");
	wl = run_plan_workload(pos[0]);
	if (!wl)
		return cli_usage("ab", "unknown workload '%s' (copyscope list "
				 "shows them)", msg_quote(pos[0]));
	if (ab_spec_workload(&c->spec, wl, err, sizeof(err)) != 0) {
		cli_error("%s: %s", wl->name, err);
		return EXIT_FAIL;
	}
	for (i = 1; i < npos; i++) {
		if (!strchr(pos[i], '='))
			return cli_usage("ab", "unexpected argument '%s': one "
					 "workload, then KEY=VALUE for both "
					 "sides", pos[i]);
		if (ab_spec_apply(&c->spec, -1, pos[i], err, sizeof(err)))
			return cli_usage("ab", "%s", err);
	}
	for (s = 0; s < 2; s++)
		for (k = 0; k < c->nside[s]; k++)
			if (ab_spec_apply(&c->spec, s, c->side[s][k], err,
					  sizeof(err)) != 0)
				return cli_usage("ab", "--%c: %s",
						 s ? 'b' : 'a', err);
	return 0;
}

static int parse_args(struct ab_cli *c, int argc, char **argv)
{
	struct opt_result res;
	int e, s, bare;

	ab_spec_init(&c->spec);
	e = opt_parse(&ab_cmd, argc, argv, c, &res);
	if (e)
		return e;
	c->spec.rounds_given = opt_given(&ab_cmd, &res, "--rounds");
	c->spec.session.seed_set = opt_given(&ab_cmd, &res, "--seed");
	if (c->json + c->mail + c->markdown > 1)
		e = cli_usage("ab", "one of --json, --mail and --markdown");
	if (!e && opt_given(&ab_cmd, &res, "--max-time") &&
	    !(c->spec.precision_pct > 0))
		e = cli_usage("ab", "--max-time: only with --precision");
	if (!e && c->spec.session.ro.profile_hz &&
	    !kview_mask_has(c->spec.session.ro.stored.kviews, "profile"))
		e = cli_usage("ab", "--profile-hz: only with --kernel profile");
	if (!e && c->spec.session.ro.stored.fresh_workers &&
	    c->spec.session.ro.stored.kviews)
		e = cli_usage("ab", "--fresh-workers: not with --kernel (the "
			      "views follow the task ids of the workers)");
	for (s = 0; s < 2 && !e; s++)
		e = add_settings(c, s);
	if (!e)
		e = apply_args(c, res.pos, res.npos);
	opt_result_free(&res);
	if (e)
		return e;
	/* a side given parameters and the other nothing: an A/A is
	   spelled out, never implied */
	bare = c->nside[0] ? 1 : 0;	/* the side without parameters */
	if ((c->nside[0] > 0) != (c->nside[1] > 0) &&
	    !c->nsysctl[bare] && !c->nthp[bare])
		return cli_usage("ab", "%s without %s: give both sides (an "
				 "A/A is spelled out: --a K=V --b K=V with "
				 "the same value)", c->nside[0] ? "--a" :
				 "--b", c->nside[0] ? "--b" : "--a");
	if (!c->nside[0] && !c->nside[1] && !c->spec.settings.n)
		return cli_usage("ab", "--a and --b: say what differs (--a K=V "
				 "--b K=V, or a setting with --a-sysctl/"
				 "--b-sysctl)");
	return 0;
}

static void print_result(const struct ab_cli *c, const struct ab_outcome *o,
			 const char *path, bool interrupted)
{
	const struct ab_spec *s = &c->spec;
	static const char *const role[AB_NROLES] = { "A", "B", "A'" };
	char a[512], b[512], both[1024], seed[32], why[320] = "";
	char *as = ab_settings_text(&s->settings, 0);
	char *bs = ab_settings_text(&s->settings, 1);
	struct ab_header h = {
		.workload = s->wl->name,
		.run_id = o->session.run.info.id,
		.a = a, .b = b, .both = both, .a_settings = as ? as : "",
		.b_settings = bs ? bs : "",
		.seed = seed, .looks = s->stats.looks,
		.alpha = s->stats.alpha, .noise_pct = s->stats.noise_pct,
		.precision_pct = s->precision_pct,
		.precision_reached_pct = o->precision_reached_pct,
		.elapsed_s = o->elapsed_ns / 1e9,
		.rounds_asked = s->rounds,
		.interrupted = interrupted,
	};

	if (o->session.pair_lost >= 0 && o->session.pair_lost < AB_NROLES) {
		snprintf(why, sizeof(why), "%s failed (%s)",
			 role[o->session.pair_lost], o->session.pair_lost_why);
		h.stopped_why = why;
	}
	/* where no counter was read, --json and --mail say why on stderr */
	if (report_hw_line(&o->session.run.env, h.hw, sizeof(h.hw)) < 0 &&
	    (c->json || c->mail || c->markdown))
		fprintf(stderr, "copyscope: %s\n", h.hw);
	ab_shared_text(s, both, sizeof(both));
	ab_side_text(s, 0, a, sizeof(a));
	ab_side_text(s, 1, b, sizeof(b));
	snprintf(seed, sizeof(seed), "%llu",
		 (unsigned long long)o->session.run.info.opts.interleave_seed);
	if (c->mail || c->markdown) {
		int f = mail_format_of(c->mail, c->markdown);

		if (mail_print_ab(stdout, &h, &o->analysis, &o->session.run,
				  f) != 0)
			cli_error("out of memory");
		else if (o->profiled)
			mail_print_profile_diff(stdout, &o->pdiff, f);
	} else if (c->json) {
		json_t *j = ab_json(&h, &o->analysis);

		if (j && o->profiled) {
			json_object_set_new(j, "profile_diff",
					    profile_diff_rows_json(&o->pdiff));
			json_object_set_new(j, "profile_diff_summary",
					    profile_diff_json(&o->pdiff));
		}
		if (j) {
			json_dumpf(j, stdout, JSON_INDENT(2) |
				   JSON_PRESERVE_ORDER);
			printf("\n");
			json_decref(j);
		}
	} else {
		ab_print_text(stdout, &h, &o->analysis);
		if (o->profiled) {
			printf("\n");
			report_profile_diff(stdout, &o->pdiff, 0);
		}
		if (o->session.run.info.id > 0 && !o->session.store_lost &&
		    !o->session.store_failed)
			printf("stored as run %lld in %s\n",
			       (long long)o->session.run.info.id, path);
	}
	free(as);
	free(bs);
}

int cmd_ab(int argc, char **argv)
{
	struct ab_cli *c = calloc(1, sizeof(*c));
	struct ab_outcome o;
	char err[512] = "", path[4096] = "";
	char *cmdline = NULL;
	int e;

	if (!c) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	e = parse_args(c, argc, argv);
	if (e)
		goto out;	/* OPT_HELP (-1): the usage went to stdout */
	if (c->spec.session.ro.stored.kviews) {
		if (kernel_backend_choose(&c->spec.session.ro.stored.kviews, NULL,
					  &c->rk) != 0) {
			e = EXIT_NOTHING_RAN;
			goto out;
		}
		kernel_backend_profile(&c->spec.session.ro.stored.kviews,
				       NULL, &c->rk);
		c->spec.session.ro.kprof_backend = c->rk.prof_backend;
		c->spec.session.kernel_backend = &c->rk;
	}
	cmdline = cli_join_cmdline(argc, argv);
	if (!cmdline) {
		cli_error("out of memory");
		e = EXIT_FAIL;
		goto out;
	}
	c->spec.session.cmdline = cmdline;
	c->spec.session.tag = c->tag;
	if (!c->no_store) {
		e = cli_open_store(c->db, &c->spec.session.store, path,
				   sizeof(path));
		if (e)
			goto out;
	}
	e = ab_run(&c->spec, &o, err, sizeof(err));
	if (e == EXIT_USAGE && o.session.run.info.id == 0) {
		e = cli_usage("ab", "%s", err);
	} else {
		if (e && err[0] && o.analysis.n == 0)
			cli_error("%s", err);
		else if (e == EXIT_INTERRUPTED && o.analysis.n == 0)
			cli_error("interrupted before the first round");
		if (o.analysis.n > 0)
			print_result(c, &o, path, e == EXIT_INTERRUPTED);
		/* as run does: never "stored" for what was not */
		if (o.session.store_lost || o.session.store_failed) {
			cli_error("run %lld in %s is not whole: %zu of the %zu "
				  "results were stored (the store failed, see "
				  "above)", (long long)o.session.run.info.id,
				  path, o.session.stored,
				  o.session.run.results.n);
			e = cli_keep_lost_run(c->spec.session.store, path,
					      &o.session.run);
		}
		if ((fflush(stdout) != 0 || ferror(stdout)) && e == EXIT_OK)
			e = EXIT_FAIL;
	}
	ab_outcome_free(&o);
	if (c->spec.session.store)
		store_close(c->spec.session.store);
out:
	ab_spec_free(&c->spec);
	free(cmdline);
	free(c);
	return e < 0 ? EXIT_OK : e;
}
