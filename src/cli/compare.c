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
#include "report/comparison_print.h"

static void compare_usage(FILE *out)
{
	fprintf(out,
"usage: copyscope compare BASE NEW [--json|--csv] [--drop-noisy]\n"
"                         [--alpha A] [--target PCT] [--allow-emulated]\n"
"                         [--db PATH|URL]\n"
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
"\n"
"options:\n"
"  --json         the comparison as JSON\n"
"  --csv          one CSV line per row\n"
"  --drop-noisy   leave out samples flagged as disturbed (outside load,\n"
"                 steal, slow canary)\n"
"  --alpha A      significance level (default 0.05)\n"
"  --noise PCT    a verdict needs the whole CI of the change beyond\n"
"                 +-PCT (default 1%%): smaller changes count as noise\n"
"  --target PCT   say how many runs per side a change of PCT needs to be\n"
"                 seen 80%% of the time (from the spread between runs)\n"
"  --allow-emulated\n"
"                 give verdicts on emulated runs too\n"
"  --ignore-param KEY[,KEY...]\n"
"                 leave these parameters out of the matching, to compare\n"
"                 e.g. io=write on one side with io=vmsplice on the other\n"
"  --db PATH|URL  database: a SQLite file or postgresql://... (default\n"
"                 $COPYSCOPE_DB, else $XDG_DATA_HOME/copyscope/results.db)\n"
"\nexamples:\n"
"  copyscope compare baseline patched\n"
"  copyscope compare 3,4,5 6,7,8 --drop-noisy\n"
"  copyscope compare smap-on smap-off --csv > smap.csv\n"
"  copyscope compare 1 2 --ignore-param io\n"
"  copyscope compare host:lab1+tag:boot host:lab2+tag:boot\n"
"  copyscope compare 'kernel:6.18.*' 'kernel:6.19.*'\n");
}

/* Returns 0, -1 after --help, or the usage exit code. */
static int compare_args(int argc, char **argv, struct cmp_opts *o,
			struct cmp_ignore *ig, const char **sides,
			const char **db, bool *json, bool *csv)
{
	const char *v;
	int missing, nsides = 0, e;

	for (int a = 1; a < argc; a++) {
		if (cli_is_help(argv[a])) {
			compare_usage(stdout);
			return -1;
		}
		if ((v = cli_opt_value(argc, argv, &a, "--db", &missing)) ||
		    missing) {
			if (missing)
				return cli_usage("compare", "--db needs a "
						 "value");
			*db = v;
		} else if ((v = cli_opt_value(argc, argv, &a, "--alpha",
					      &missing)) || missing) {
			char *end;

			if (missing)
				return cli_usage("compare", "--alpha needs a "
						 "value");
			errno = 0;
			o->alpha = strtod(v, &end);
			if (errno || end == v || *end || !(o->alpha > 0) ||
			    !(o->alpha < 1))
				return cli_usage("compare", "--alpha: '%s' is "
						 "not a number between 0 and "
						 "1", v);
		} else if ((v = cli_opt_value(argc, argv, &a, "--target",
					      &missing)) || missing) {
			if (missing)
				return cli_usage("compare", "--target needs a "
						 "value");
			if (cmp_parse_pct(v, &o->target_pct) != 0 ||
			    !(o->target_pct > 0))
				return cli_usage("compare", "--target: '%s' is "
						 "not a percentage above 0 "
						 "(e.g. 2%%)", v);
		} else if ((v = cli_opt_value(argc, argv, &a, "--noise",
					      &missing)) || missing) {
			if (missing)
				return cli_usage("compare", "--noise needs a "
						 "value");
			if (cmp_parse_pct(v, &o->noise_pct) != 0)
				return cli_usage("compare", "--noise: '%s' is "
						 "not a percentage in 0 .. "
						 "1000 (e.g. 1%%)", v);
		} else if ((v = cli_opt_value(argc, argv, &a,
					      "--ignore-param", &missing)) ||
			   missing) {
			if (missing)
				return cli_usage("compare", "--ignore-param "
						 "needs a value");
			e = cmp_ignore_add("compare", ig, v);
			if (e)
				return e;
		} else if (strcmp(argv[a], "--json") == 0) {
			*json = true;
		} else if (strcmp(argv[a], "--csv") == 0) {
			*csv = true;
		} else if (strcmp(argv[a], "--drop-noisy") == 0) {
			o->drop_noisy = true;
		} else if (strcmp(argv[a], "--allow-emulated") == 0) {
			o->allow_emulated = true;
		} else if (argv[a][0] == '-' || nsides == 2) {
			return cli_usage("compare", "unknown argument '%s'",
					 argv[a]);
		} else {
			sides[nsides++] = argv[a];
		}
	}
	if (nsides != 2)
		return cli_usage("compare", "needs BASE and NEW (run ids, tags "
				 "or comma lists; 'copyscope runs' lists "
				 "them)");
	if (*json && *csv)
		return cli_usage("compare", "--json or --csv, not both");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	const char *db = NULL, *sides[2] = { NULL, NULL };
	struct cmp_opts o = { .alpha = 0.05, .noise_pct = 1.0 };
	struct cmp_ignore ig;
	struct cmp c;
	struct store *st;
	char path[4096];
	bool json = false, csv = false;
	int e;

	memset(&c, 0, sizeof(c));
	memset(&ig, 0, sizeof(ig));
	e = compare_args(argc, argv, &o, &ig, sides, &db, &json, &csv);
	if (!e && (!sides[0] || !sides[1]))
		e = EXIT_USAGE;		/* compare_args said why */
	if (e) {
		cmp_ignore_free(&ig);
		return e < 0 ? EXIT_OK : e;
	}
	o.ignore = ig.keys;
	o.nignore = ig.n;
	e = cli_open_existing_store(db, &st, path, sizeof(path), NULL);
	if (e)
		goto out;
	e = cli_load_side(st, "compare", sides[0], &c.base);
	if (!e)
		e = cli_load_side(st, "compare", sides[1], &c.new);
	store_close(st);
	if (!e)
		e = cmp_ignore_check("compare", &ig, &c.base, &c.new);
	if (e)
		goto out;
	if (cmp_build(&c, &o) != 0) {
		cli_error("out of memory");
		e = EXIT_FAIL;
		goto out;
	}
	if (c.flavour_differs)
		cli_error("warning: the sides were measured with different "
			  "build flavours (copyscope.build_flavour); the "
			  "comparison is meaningless");
	if (json)
		e = cmp_print_json(stdout, &c) ? EXIT_FAIL : EXIT_OK;
	else if (csv)
		cmp_print_csv(stdout, &c);
	else
		cmp_print_text(stdout, &c, NULL, NULL);
	if (fflush(stdout) != 0) {
		cli_error("cannot write the output: %s", strerror(errno));
		e = EXIT_FAIL;
	}
out:
	cmp_free(&c);
	cli_free_side(&c.base);
	cli_free_side(&c.new);
	cmp_ignore_free(&ig);
	return e;
}
