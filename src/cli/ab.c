/*
 * ab.c - `copyscope ab WORKLOAD [KEY=VALUE ...] --a K=V[,K=V] --b K=V`:
 * a paired A/B inside one run.  This file reads the command line and
 * prints; the run is session/ab.c, the judgement comparison/ab.c, the
 * table report/ab_print.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/ab_print.h"
#include "session/ab.h"
#include "stats/paired.h"
#include "workloads/workloads.h"

static void ab_usage(FILE *out)
{
	fprintf(out,
"usage: copyscope ab WORKLOAD [KEY=VALUE ...] --a KEY=VALUE[,KEY=VALUE...]\n"
"                    --b KEY=VALUE[,...] [--a-sysctl K=V] [--b-sysctl K=V]\n"
"                    [--a-thp K=V] [--b-thp K=V] [--rounds N]\n"
"                    [--precision PCT [--max-time T]] [options]\n"
"\n"
"A paired A/B inside one run: opens A, B and a control A' (a second copy\n"
"of A) together, every worker started, batch sized and warmed up, then\n"
"takes one sample of each per round, each round in a freshly shuffled\n"
"order.  B is judged against the A and A' of its own round: the drift of\n"
"a noisy machine moves all three alike and cancels in the pair.  Per\n"
"metric: the Hodges-Lehmann %%change of B against A over the rounds with\n"
"its 95%% CI, a Wilcoxon signed-rank p, and a verdict ('better' or\n"
"'worse' by the metric's direction) only when p < alpha, the whole CI is\n"
"beyond the noise band and beyond what the A'/A control shows; else '~'\n"
"with the largest change the CI allows, or 'cannot tell' when the rounds\n"
"cannot decide.  KEY=VALUE before the sides applies to both; the sides\n"
"may differ in any parameters (one value each); --a X --b X is the A/A\n"
"self-test.  Kernel settings: a file under /proc/sys (--a-sysctl\n"
"vm.swappiness=10) or /sys/kernel/mm/transparent_hugepage (--a-thp\n"
"enabled=never), written before each of the side's samples outside the\n"
"timed window and restored at the end, on error and on a signal.  The\n"
"run is stored with its roles, rounds and settings; show prints it again.\n"
"\n"
"options:\n"
"  --a K=V[,K=V...]   side A's parameters (also A')\n"
"  --b K=V[,K=V...]   side B's parameters\n"
"  --a-sysctl K=V, --b-sysctl K=V\n"
"                     a /proc/sys setting of one side (repeatable)\n"
"  --a-thp K=V, --b-thp K=V\n"
"                     a transparent_hugepage setting of one side\n"
"  --rounds N         rounds (default %d; with --precision: the most)\n"
"  --precision PCT    add rounds until the first metric's CI is within\n"
"                     +-PCT, testing at %d rounds and each doubling; the\n"
"                     verdicts then use alpha / the number of such looks\n"
"  --max-time T       with --precision: at most T of rounds (default 60s)\n"
"  --sample-time T    one sample (default 10ms)\n"
"  --warmup T         warm-up of each configuration (default 100ms)\n"
"  --cpus LIST        CPUs the workers may use\n"
"  --seed N           seed of the rounds' order (default: the clock)\n"
"  --alpha A          significance level (default 0.05)\n"
"  --noise PCT        the band a change must clear (default 1%%)\n"
"  --drop-noisy       leave out rounds with a sample flagged as disturbed\n"
"  --json             the result as JSON\n"
"  --tag TAG          tag of the stored run\n"
"  --no-store         do not store the run\n"
"  --db PATH|URL      database (default $COPYSCOPE_DB, else\n"
"                     $XDG_DATA_HOME/copyscope/results.db)\n"
"\n"
"exit: 0 judged (whatever the verdict), 1 a workload failed, 2 usage\n"
"error, 77 the workload cannot run here, 130 interrupted.\n"
"\nexamples:\n"
"  copyscope ab sys.iov call=preadv target=zero --a segs=8 --b segs=9\n"
"  copyscope ab sys.null --a inject_ns=0 --b inject_ns=0      (A/A)\n"
"  copyscope ab pipe.bw --a size=64k --b size=60k --precision 1%%\n"
"  copyscope ab mem.copy size=2M --a-thp enabled=always "
"--b-thp enabled=never\n",
		AB_DEFAULT_ROUNDS, AB_PRECISION_FIRST_LOOK);
}

struct ab_cli {
	struct ab_spec spec;
	bool json, no_store;
	const char *db, *tag;
	const char *side[2][16];
	size_t nside[2];
	const char *common[64];
	size_t ncommon;
	bool max_time_set;
};

static int time_opt(const char *name, const char *v, int64_t lo, int64_t hi,
		    int64_t *out)
{
	if (param_parse_time_ns(v, out) != 0 || *out < lo || *out > hi)
		return cli_usage("ab", "%s: '%s' is not a time in %lldms .. "
				 "%llds: a number with a unit, ns, us, ms or "
				 "s (e.g. 10ms, 1s)", name, v,
				 (long long)(lo / 1000000),
				 (long long)(hi / 1000000000));
	return 0;
}

static int setting_opt(struct ab_cli *c, const char *name, const char *v)
{
	char err[512];
	int side = name[2] == 'b';
	enum ab_setting_kind kind = strstr(name, "thp") ? AB_THP : AB_SYSCTL;

	if (ab_setting_add(&c->spec, kind, side, v, err, sizeof(err)) != 0)
		return cli_usage("ab", "%s", err);
	return 0;
}

/* One option at argv[*i]; 0, or an exit code. */
static int parse_opt(struct ab_cli *c, int argc, char **argv, int *i)
{
	struct ab_spec *s = &c->spec;
	const char *a = argv[*i], *v;
	char err[256];
	int missing = 0;

#define OPT(name) ((v = cli_opt_value(argc, argv, i, name, &missing)) || \
		   missing)
	if (strcmp(a, "--json") == 0)
		c->json = true;
	else if (strcmp(a, "--no-store") == 0)
		c->no_store = true;
	else if (strcmp(a, "--drop-noisy") == 0)
		s->stats.drop_noisy = true;
	else if (OPT("--a") || OPT("--b")) {
		int side = a[2] == 'b';

		if (missing)
			return cli_usage("ab", "%s needs a value", a);
		if (c->nside[side] == 16)
			return cli_usage("ab", "--%c: at most 16 times",
					 side ? 'b' : 'a');
		c->side[side][c->nside[side]++] = v;
	} else if (OPT("--a-sysctl") || OPT("--b-sysctl") ||
		   OPT("--a-thp") || OPT("--b-thp")) {
		char name[16];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(a, "="), a);
		if (missing)
			return cli_usage("ab", "%s needs a value", name);
		return setting_opt(c, name, v);
	} else if (OPT("--rounds")) {
		if (missing)
			return cli_usage("ab", "--rounds needs a value");
		s->rounds_given = true;
		return cli_parse_int("ab", "--rounds", v, 2, PAIRED_MAX_N / 2,
				     &s->rounds);
	} else if (OPT("--precision")) {
		if (missing)
			return cli_usage("ab", "--precision needs a value");
		if (cmp_parse_pct(v, &s->precision_pct) != 0 ||
		    !(s->precision_pct >= 0.01) || s->precision_pct > 100)
			return cli_usage("ab", "--precision: '%s' is not a "
					 "percentage in 0.01%% .. 100%%", v);
	} else if (OPT("--max-time")) {
		if (missing)
			return cli_usage("ab", "--max-time needs a value");
		c->max_time_set = true;
		return time_opt("--max-time", v, 1000000, 86400000000000LL,
				&s->max_time_ns);
	} else if (OPT("--sample-time")) {
		if (missing)
			return cli_usage("ab", "--sample-time needs a value");
		return time_opt("--sample-time", v, 1000000, 60000000000LL,
				&s->session.ro.sample_time_ns);
	} else if (OPT("--warmup")) {
		if (missing)
			return cli_usage("ab", "--warmup needs a value");
		return time_opt("--warmup", v, 0, 600000000000LL,
				&s->session.ro.warmup_ns);
	} else if (OPT("--cpus")) {
		if (missing)
			return cli_usage("ab", "--cpus needs a value");
		if (session_parse_cpus(v, &s->session.ro, err,
				       sizeof(err)) != 0)
			return cli_usage("ab", "%s", err);
	} else if (OPT("--seed")) {
		char *end;

		if (missing)
			return cli_usage("ab", "--seed needs a value");
		errno = 0;
		s->session.seed = strtoull(v, &end, 0);
		if (errno || end == v || *end || *v == '-')
			return cli_usage("ab", "--seed: '%s' is not a "
					 "non-negative integer", v);
		s->session.seed_set = true;
	} else if (OPT("--alpha")) {
		char *end;

		if (missing)
			return cli_usage("ab", "--alpha needs a value");
		errno = 0;
		s->stats.alpha = strtod(v, &end);
		if (errno || end == v || *end || !(s->stats.alpha > 0) ||
		    !(s->stats.alpha < 0.5))
			return cli_usage("ab", "--alpha: '%s' is not a number "
					 "in (0, 0.5)", v);
	} else if (OPT("--noise")) {
		if (missing)
			return cli_usage("ab", "--noise needs a value");
		if (cmp_parse_pct(v, &s->stats.noise_pct) != 0 ||
		    s->stats.noise_pct < 0 || s->stats.noise_pct > 100)
			return cli_usage("ab", "--noise: '%s' is not a "
					 "percentage in 0%% .. 100%%", v);
	} else if (OPT("--tag")) {
		if (missing)
			return cli_usage("ab", "--tag needs a value");
		c->tag = v;
		return cli_check_tag("ab", v);
	} else if (OPT("--db")) {
		if (missing)
			return cli_usage("ab", "--db needs a value");
		c->db = v;
	} else {
		return cli_usage("ab", "unknown option '%s'", a);
	}
#undef OPT
	return 0;
}

static int parse_args(struct ab_cli *c, int argc, char **argv)
{
	const struct workload *wl = NULL;
	char err[512];
	size_t k;
	int i, e, side;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (cli_is_help(a)) {
			ab_usage(stdout);
			return -1;
		}
		if (a[0] == '-' && a[1] == '-') {
			e = parse_opt(c, argc, argv, &i);
			if (e)
				return e;
		} else if (!wl) {
			wl = workload_find(a);
			if (!wl)
				return cli_usage("ab", "unknown workload '%s' "
						 "(copyscope list shows them)",
						 a);
			if (ab_spec_init(&c->spec, wl, err, sizeof(err)) != 0) {
				cli_error("%s: %s", wl->name, err);
				return EXIT_FAIL;
			}
		} else if (strchr(a, '=') && c->ncommon < 64) {
			c->common[c->ncommon++] = a;
		} else {
			return cli_usage("ab", "'%s': one workload, then "
					 "KEY=VALUE for both sides", a);
		}
	}
	if (!wl)
		return cli_usage("ab", "which workload? (copyscope ab "
				 "WORKLOAD --a K=V --b K=V)");
	if (!c->nside[0] && !c->nside[1] && !c->spec.nsettings)
		return cli_usage("ab", "--a and --b: say what differs "
				 "(--a K=V --b K=V, or a setting with "
				 "--a-sysctl/--b-sysctl)");
	for (k = 0; k < c->ncommon; k++)
		if (ab_spec_apply(&c->spec, -1, c->common[k], err,
				  sizeof(err)) != 0)
			return cli_usage("ab", "%s", err);
	for (side = 0; side < 2; side++)
		for (k = 0; k < c->nside[side]; k++)
			if (ab_spec_apply(&c->spec, side, c->side[side][k],
					  err, sizeof(err)) != 0)
				return cli_usage("ab", "--%c: %s",
						 side ? 'b' : 'a', err);
	if (c->max_time_set && !(c->spec.precision_pct > 0))
		return cli_usage("ab", "--max-time: only with --precision");
	return 0;
}

static void print_result(const struct ab_cli *c, const struct ab_outcome *o,
			 const char *path)
{
	const struct ab_spec *s = &c->spec;
	char a[512], b[512], as[512], bs[512], seed[32];
	struct ab_header h = {
		.workload = s->wl->name,
		.run_id = o->session.run.info.id,
		.a = a, .b = b, .a_settings = as, .b_settings = bs,
		.seed = seed, .looks = s->stats.looks,
		.alpha = s->stats.alpha, .noise_pct = s->stats.noise_pct,
		.precision_pct = s->precision_pct,
		.precision_reached_pct = o->precision_reached_pct,
		.elapsed_s = o->elapsed_ns / 1e9,
	};

	ab_side_text(s, 0, a, sizeof(a));
	ab_side_text(s, 1, b, sizeof(b));
	ab_settings_text(s, 0, as, sizeof(as));
	ab_settings_text(s, 1, bs, sizeof(bs));
	snprintf(seed, sizeof(seed), "%llu",
		 (unsigned long long)o->session.run.info.opts.interleave_seed);
	if (c->json) {
		json_t *j = ab_json(&h, &o->analysis);

		if (j) {
			json_dumpf(j, stdout, JSON_INDENT(2) |
				   JSON_PRESERVE_ORDER);
			printf("\n");
			json_decref(j);
		}
		return;
	}
	ab_print_text(stdout, &h, &o->analysis);
	if (o->session.run.info.id > 0)
		printf("stored as run %lld in %s\n",
		       (long long)o->session.run.info.id, path);
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
		goto out;
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
			print_result(c, &o, path);
		if ((fflush(stdout) != 0 || ferror(stdout)) && e == EXIT_OK)
			e = EXIT_FAIL;
	}
	ab_outcome_free(&o);
	if (c->spec.session.store)
		store_close(c->spec.session.store);
out:
	free(cmdline);
	free(c);
	return e < 0 ? EXIT_OK : e;
}
