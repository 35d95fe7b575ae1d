/*
 * compare.c - `copyscope compare BASE NEW`: what changed between two sets
 * of stored runs.  This file reads the command line; the runs are selected
 * and loaded by the store (store_select_runs, via cli_load_side), judged
 * by the comparison engine (comparison/comparison.c) and printed by
 * report/comparison_text.c and report/comparison_json.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "report/ab_print.h"
#include "report/comparison_print.h"
#include "report/mail_print.h"
#include "report/observe_compare_print.h"
#include "session/compare_session.h"
#include "util/array.h"

struct compare_cli {
	struct cmp_opts o;
	struct cmp_ignore ig;
	const char *db;
	const char *caller;		/* observations: --caller PATTERN */
	bool json, csv;
	bool mail, markdown;		/* report/mail_print.h */
	bool ab;			/* the sides were ab runs */
};

#define OPT_BASE struct compare_cli
static const struct opt_row compare_rows[] = {
	OPT_ROW_JSON(json, "the comparison as JSON"),
	OPT_ROW_CSV(csv, "one CSV line per row"),
	OPT_ROW_FLAG("--mail", "only the header, the machine, the "
	  "parameters and the table in the kernel test robot's layout, "
	  "within 72 columns: for a mail", mail),
	OPT_ROW_FLAG("--markdown", "the same as --mail as markdown "
	  "tables", markdown),
	OPT_ROW_FLAG("--drop-noisy", "leave out samples flagged "
	  "as disturbed (outside load, steal, slow canary)",
	  o.drop_noisy),
	OPT_ROW_FLAG("--by-sample", "judge over samples also with "
	  "fewer than 3 runs a side (without it such rows are 'cannot "
	  "tell'): only where separate runs are known to agree",
	  o.by_sample),
	OPT_ROW_ALPHA(o.alpha),
	OPT_ROW_PCT("--noise", "PCT", "a verdict needs the whole CI of "
	  "the change beyond +-PCT (default 1%): smaller changes count as "
	  "noise", o.noise_pct, .lo = 0, .hi = 1000, .unit = "1%"),
	OPT_ROW_PCT("--target", "PCT", "say how many runs per side a "
	  "change of PCT needs to be seen 80% of the time (from the spread "
	  "between runs)", o.target_pct, .lo = 0, .hi = 1000,
	  .flags = OPT_LO_OPEN, .unit = "2%"),
	OPT_ROW_FLAG("--allow-emulated", "give verdicts on "
	  "emulated runs too", o.allow_emulated),
	OPT_ROW_IGNORE_PARAM(ig, "leave these parameters "
			     "out of the matching, to compare e.g. io=write "
			     "on one side with io=vmsplice on the other"),
	OPT_ROW_STR("--caller", "PATTERN", "observations: only the lock "
	  "callers that match this glob (e.g. 'anon_pipe_*')", caller),
	OPT_ROW_DB(db, OPT_HELP_DB),
};
#undef OPT_BASE

static void compare_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd compare_cmd = {
	.name = "compare", .rows = compare_rows,
	.nrows = ARRAY_SIZE(compare_rows),
	.help_col = 17, .max_pos = 2, .pos = OPT_C_RUNS,
	.usage = compare_usage,
	.synopsis = OPT_SYNOPSIS("BASE NEW [--json|--csv|--mail|--markdown]\n"
				 "[--drop-noisy] [--by-sample]\n"
				 "[--alpha] [--noise] [--target]\n"
				 "[--allow-emulated] [--ignore-param]\n"
				 "[--caller] [--db]"),
};

const struct opt_cmd *cli_compare_options(void)
{
	return &compare_cmd;
}

static void compare_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"Compares two sets of stored runs.  BASE and NEW are each a run id, a tag\n"
"(every run with that tag), 'last', a selector - host:PATTERN,\n"
"kernel:PATTERN (kernel release), boot:PATTERN (a word of the kernel\n"
"command line), tag:PATTERN, shell globs - terms joined by '+' (all must\n"
"hold: host:lab3+last), or a comma list of them.  For every\n"
"(workload, parameters, metric) on both sides: base median and %%stddev,\n"
"%%change of the medians, new median and %%stddev, a p-value, the 95%% CI\n"
"of the change and a verdict: 'better' or 'worse' (by the metric's\n"
"direction) when p < alpha and the whole CI lies beyond the noise band,\n"
"else '~'.  With 3 or more runs a side the run is the unit: Welch's t on\n"
"the log run medians and a bootstrap over boots, runs and samples; with\n"
"fewer, Mann-Whitney U and a bootstrap over the samples.  Under each row:\n"
"what a '~' rules out (\"no change larger than X%%\"), the smallest change\n"
"the comparison sees 80%% of the time, and the spread within a run,\n"
"between runs and between boots.  Environment keys and run options that\n"
"differ between the sides are listed first.  Runs measured under an\n"
"emulator (virt.emulated: copyscope boot under qemu TCG) time the emulator,\n"
"not the kernel: their rows show the numbers and the verdict 'emul'.\n"
"With fewer than 3 runs a side the spread between runs is unknown: the\n"
"row says '?' (cannot tell) and why, unless --by-sample, or a side is a\n"
"single run with 5 or more earlier runs of its configuration on its host\n"
"in the store: that run (the newer, both sides single) is then judged by\n"
"the prediction interval of their run medians ('history-based', the runs\n"
"named; docs/comparing.md).  When every run on both sides is an 'ab'\n"
"run of the same A/B (several boots or hosts), their rounds are pooled:\n"
"the median paired change, a CI from a bootstrap of runs and of rounds\n"
"within them, and each run's own estimate.\n"
"When every run of both sides is an observation (copyscope observe), they\n"
"are printed side by side, one column per observation (a comma list gives\n"
"several): the pipe writes' size classes, the lock table's total wait by\n"
"caller (--caller PATTERN keeps the matching ones), the pipe mutex-wait\n"
"histogram and the wake-ups, with the change from A where there are two;\n"
"no CI, as each column is one observation.\n"
"When BASE and NEW have no (workload, parameters, metric) in common it\n"
"says what each side has and which parameters differ, and exits 2.\n"
"\n"
"options:\n");
	opt_print_options(out, c);
	fprintf(out,
"\nexamples:\n"
"  copyscope compare baseline patched\n"
"  copyscope compare 3,4,5 6,7,8 --drop-noisy\n"
"  copyscope compare smap-on smap-off --csv > smap.csv\n"
"  copyscope compare baseline patched --mail\n"
"  copyscope compare 1 2 --ignore-param io\n"
"  copyscope compare host:lab1+tag:boot host:lab2+tag:boot\n"
"  copyscope compare 'kernel:6.18.*' 'kernel:6.19.*'\n"
"  copyscope compare grace-a grace-b,bergamo --caller 'anon_pipe_*'\n");
}

/* Returns 0, -1 after --help, or the usage exit code. */
static int compare_args(int argc, char **argv, struct compare_cli *cc,
			const char **sides)
{
	struct opt_result res;
	int e = opt_parse(&compare_cmd, argc, argv, cc, &res);

	if (e)
		return e;
	sides[0] = res.npos > 0 ? res.pos[0] : NULL;
	sides[1] = res.npos > 1 ? res.pos[1] : NULL;
	opt_result_free(&res);
	if (!sides[1])
		return cli_usage("compare", "needs BASE and NEW (run ids, tags "
				 "or comma lists; 'copyscope runs' lists "
				 "them)");
	if (cc->json + cc->csv + cc->mail + cc->markdown > 1)
		return cli_usage("compare", "one of --json, --csv, --mail and "
				 "--markdown");
	return 0;
}

/*
 * compare of ab runs: the runs of both sides are the same A/B measured on
 * several boots or hosts; their rounds are judged together.
 */
static int compare_ab(const struct cmp *c, const struct compare_cli *cc)
{
	struct ab_combined ac;
	struct ab_opts o = { .alpha = cc->o.alpha, .noise_pct = cc->o.noise_pct,
			     .looks = 1, .drop_noisy = cc->o.drop_noisy };
	char err[512];
	int e = session_compare_ab(c, &o, &ac, err, sizeof(err));

	if (e == 2)
		return cli_usage("compare", "%s", err);
	if (e) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	if (cc->json) {
		json_t *j = ab_combined_json(&ac, &o);

		if (!j || json_dumpf(j, stdout, JSON_INDENT(2)) != 0)
			e = EXIT_FAIL;
		printf("\n");
		json_decref(j);
	} else {
		ab_print_combined(stdout, &ac, &o);
	}
	session_ab_combined_free(&ac);
	return e;
}

/*
 * compare of observations: side by side, one column per observation.
 * Runs and observations do not mix (exit 2).
 */
static int compare_observations(const struct cmp *c,
				const struct compare_cli *cc)
{
	struct obs_cmp oc;
	char err[512];
	int e = EXIT_OK;

	if (!session_sides_observations(&c->base, &c->new))
		return cli_usage("compare", "observations (copyscope observe) "
				 "compare only with observations: a side "
				 "holds a run with results");
	if (cc->csv)
		return cli_usage("compare", "--csv: not for observations "
				 "(--json or the table)");
	if (cc->mail || cc->markdown)
		return cli_usage("compare", "--mail, --markdown: not for "
				 "observations (the table or --json; show OBS "
				 "--mail gives each)");
	if (!cc->json &&
	    c->base.nruns + c->new.nruns > OBS_CMP_TEXT_MAX_COLS)
		return cli_usage("compare", "%zu observations: the table "
				 "holds at most %d side by side in 80 "
				 "columns (--json takes any number)",
				 c->base.nruns + c->new.nruns,
				 OBS_CMP_TEXT_MAX_COLS);
	if (session_compare_observations(&oc, &c->base, &c->new, cc->caller,
					 err, sizeof(err)) != 0) {
		cli_error("%s", err);
		e = EXIT_FAIL;
	} else if (cc->json ? report_observation_compare_json(stdout, &oc) :
		   report_observation_compare(stdout, &oc)) {
		cli_error("cannot write the comparison: %s", strerror(errno));
		e = EXIT_FAIL;
	}
	session_observations_free(&oc);
	if (fflush(stdout) != 0 && !e) {
		cli_error("cannot write the output: %s", strerror(errno));
		e = EXIT_FAIL;
	}
	return e;
}

int cli_cmp_build(const char *db, struct cmp *c, const struct cmp_opts *o)
{
	struct store *st;
	char path[4096], err[512];
	int e;

	e = cli_open_existing_store(db, &st, path, sizeof(path), NULL);
	if (e)
		return e;
	if (session_compare_with_history(st, c, o, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		e = EXIT_FAIL;
	}
	store_close(st);
	return e;
}

int cmd_compare(int argc, char **argv)
{
	const char *sides[2] = { NULL, NULL };
	struct compare_cli cc = { .o = { .alpha = 0.05, .noise_pct = 1.0 } };
	struct cmp c;
	struct store *st;
	char path[4096];
	int e;

	memset(&c, 0, sizeof(c));
	e = compare_args(argc, argv, &cc, sides);
	if (e) {
		cmp_ignore_free(&cc.ig);
		return e < 0 ? EXIT_OK : e;
	}
	cc.o.ignore = cc.ig.keys;
	cc.o.nignore = cc.ig.n;
	e = cli_open_existing_store(cc.db, &st, path, sizeof(path), NULL);
	if (e)
		goto out;
	e = cli_load_side(st, "compare", sides[0], &c.base);
	if (!e)
		e = cli_load_side(st, "compare", sides[1], &c.new);
	store_close(st);
	if (!e)
		e = cmp_ignore_check("compare", &cc.ig, &c.base, &c.new);
	if (e)
		goto out;
	if (session_sides_any_observation(&c.base, &c.new)) {
		e = compare_observations(&c, &cc);
		goto out;
	}
	if (cc.caller) {
		e = cli_usage("compare", "--caller: for observations only "
			      "(copyscope observe); these are runs");
		goto out;
	}
	if (session_sides_ab(&c.base, &c.new)) {
		if (cc.csv) {
			e = cli_usage("compare", "--csv: not for ab runs "
				      "(--json or the table)");
			goto out;
		}
		if (cc.mail || cc.markdown) {
			e = cli_usage("compare", "--mail, --markdown: not for "
				      "ab runs pooled (show RUN --mail gives "
				      "each)");
			goto out;
		}
		cc.ab = true;
		e = compare_ab(&c, &cc);
		goto flush;
	}
	e = cli_cmp_build(cc.db, &c, &cc.o);
	if (e)
		goto out;
	if (c.flavour_differs)
		cli_error("warning: the sides were measured with different "
			  "build flavours (copyscope.build_flavour); the "
			  "comparison is meaningless");
	if (cc.json)
		e = cmp_print_json(stdout, &c) ? EXIT_FAIL : EXIT_OK;
	else if (cc.csv)
		cmp_print_csv(stdout, &c);
	else if (cc.mail || cc.markdown)
		e = mail_print_compare(stdout, &c, mail_format_of(cc.mail,
				       cc.markdown)) ? EXIT_FAIL : EXIT_OK;
	else
		cmp_print_text(stdout, &c, NULL, NULL);
flush:
	if (fflush(stdout) != 0) {
		cli_error("cannot write the output: %s", strerror(errno));
		e = EXIT_FAIL;
	}
	if (!e && !cc.ab && cmp_print_explain_none("compare", &c))
		e = EXIT_USAGE;
out:
	session_compare_free(&c);
	cli_free_side(&c.base);
	cli_free_side(&c.new);
	cmp_ignore_free(&cc.ig);
	return e;
}
