/*
 * run.c - `copyscope run`: the command line of run (workloads, suites,
 * key=value parameters, options) into a run specification for the
 * session (session/session.c), and the output as the session goes: the
 * preamble, each job's tables, the noisy-machine warning, --explain, the
 * JSON document.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/run_group.h"
#include "cli/run_brief.h"
#include "cli/run_kernel.h"
#include "session/session.h"
#include "session/explain_plan.h"
#include "kernel/kview.h"
#include "report/explain.h"
#include "report/format.h"
#include "report/report.h"
#include "report/headline.h"
#include "cli/run_replay.h"
#include "util/array.h"
#include "workloads/workloads.h"

#define MAX_JOBS 256

struct run_cli {
	struct run_opts ro;
	int runs;			/* --runs N (0: one run) */
	const char *group;		/* --group ID (set by --runs) */
	bool reps_set, sample_set, warmup_set, quick, max_time_set;
	const char *tag;
	const char *db;
	bool json, no_store, verify, explain, perf_counters;
	bool verbose;			/* -v: every table, also of suites */
	bool brief_started;		/* the brief heading is out */
	struct session_job jobs[MAX_JOBS];
	size_t njobs;
	/* the suite summary's line of each job from a suite (else unset) */
	struct summary_line from[MAX_JOBS];
	bool any_suite;
	const char *assign[256];
	size_t nassign;
	bool interleave, seed_set;
	uint64_t seed;
	const char *kbackend;		/* --kernel-backend, NULL: auto */
	struct run_kernel rk;		/* what --kernel runs on, and why */
	/* mix=observed:ID made explicit, and the observation it names */
	char replay_mix[RUN_REPLAY_MAX];
	char replayed[128];
};

/* --cpus LIST into the run options at dest. */
/* --kernel VIEWS into the view bits at dest. */
static int check_kviews(const char *cmd, const struct opt_row *r,
			const char *v, void *dest)
{
	char err[256];

	(void)r;
	if (kview_parse(v, dest, err, sizeof(err)) != 0)
		return cli_usage(cmd, "%s", err);
	return 0;
}

/* --group ID: 32 hex digits (set by --runs for its children). */
static int check_group(const char *cmd, const struct opt_row *r,
		       const char *v, void *dest)
{
	(void)r;
	if (strlen(v) != 32 || strspn(v, "0123456789abcdef") != 32)
		return cli_usage(cmd, "--group: '%s' is not a group id (32 hex "
				 "digits; --runs sets it)", v);
	*(const char **)dest = v;
	return 0;
}

static const char *const kview_words[] = { "lock", "sched", "syscall", NULL };
static const char *const kbackend_words[] = { "bpf", "tracefs", "auto",
					      NULL };

#define RC(field) offsetof(struct run_cli, field)
static const struct opt_row run_rows[] = {
	{ OPT_R("--reps", OPT_INT, "N"), "kept samples per configuration "
	  "(default 10)", RC(ro.reps), .lo = 1, .hi = 100000 },
	{ OPT_R("--sample-time", OPT_TIME, "T"), "target length of one sample "
	  "(default 100ms)", RC(ro.sample_time_ns), .lo = 1e6, .hi = 60e9 },
	{ OPT_R("--warmup", OPT_TIME, "T"), "warm-up after the batch is sized "
	  "(default 200ms)", RC(ro.warmup_ns), .lo = 0, .hi = 600e9 },
	{ OPT_R("--quick", OPT_FLAG, NULL), "3 samples of 10ms, no extra "
	  "warm-up (for tests)", RC(quick) },
	OPT_ROW_TAG(struct run_cli, tag, "label the run (for runs, show, "
		    "compare)"),
	{ OPT_R("--cpus", OPT_LIST, "LIST"), "CPUs workers may use, in order "
	  "(e.g. 0,1 or 2-5)", RC(ro), .check = opt_check_cpus },
	{ OPT_R("--hist", OPT_FLAG, NULL), "per-op latency histogram (a "
	  "separate pass)", RC(ro.hist) },
	{ OPT_R("--precision", OPT_PCT, "PCT"), "after --reps samples, keep "
	  "adding samples until the 95% CI of every metric's median is "
	  "within ±PCT of it (e.g. 1%); prints the precision reached and the "
	  "time", RC(ro.precision_pct), .lo = 0.01, .hi = 100,
	  .unit = "1%" },
	{ OPT_R("--max-time", OPT_TIME, "T"), "with --precision: at most T of "
	  "samples a configuration (default 60s)", RC(ro.max_time_ns),
	  .lo = 1e6, .hi = 86400e9 },
	{ OPT_R("--interleave", OPT_FLAG, NULL), "take the samples of all "
	  "configurations in a shuffled round-robin order (spreads drift "
	  "evenly; the order is recorded); at most 64 configurations",
	  RC(interleave) },
	{ OPT_R("--seed", OPT_U64, "N"), "seed of the --interleave order "
	  "(default: the clock)", RC(seed) },
	{ OPT_R("--runs", OPT_INT, "N"), "N runs, each in a fresh process (new "
	  "buffers, placement and warm-up), stored as N runs of one group: "
	  "compare then treats the run as the unit that repeats", RC(runs),
	  .lo = 1, .hi = 1000 },
	{ OPT_R("--group", OPT_STR, "ID"), NULL, RC(group),
	  .check = check_group },
	{ OPT_R("--verify", OPT_FLAG, NULL), "set verify=1 on workloads that "
	  "can verify data", RC(verify) },
	{ OPT_R("--explain", OPT_FLAG, NULL), "also run each configuration's "
	  "floors at the same size and print them side by side: pipe.bw "
	  "against mem.copy (libc) and ring.bw (where the pipe's time goes), "
	  "the file.* workloads per byte against mem.copy libc and movsb (the "
	  "kernel path's speed and fixed cost)", RC(explain) },
	{ OPT_R("--kernel", OPT_LIST, "VIEWS"), "also record what the kernel "
	  "did for the workers, in a traced sample after each kept one (the "
	  "kept figures stay untraced; the overhead is printed): lock "
	  "(contended lock waits by caller, as perf lock contention), sched "
	  "(wake-up latency, run-queue wait), syscall (time in the kernel per "
	  "system call); a comma list.  Needs root (or perf_event_paranoid "
	  "-1) and tracefs: see docs/kernel-views.md", RC(ro.kviews),
	  .words = kview_words, .check = check_kviews },
	{ OPT_R("--kernel-backend", OPT_STR, "bpf|tracefs"), "how --kernel "
	  "records: bpf (a BPF program aggregates in the kernel; the "
	  "default when it loads) or tracefs (every event read in user "
	  "space by libtraceevent; the fallback); auto: bpf, else tracefs. "
	  "The backend that ran and why is said on stderr and stored with "
	  "the run", RC(kbackend), .words = kbackend_words,
	  .complete = OPT_C_WORDS },
	{ OPT_R("--perf-counters", OPT_FLAG, NULL), "count context switches, "
	  "migrations and faults with perf software events instead of "
	  "getrusage (costs time on every context switch: see "
	  "docs/methodology.md)", RC(perf_counters) },
	{ OPT_R("--verbose", OPT_FLAG, NULL), "every configuration's table and "
	  "notes also for a suite (whose run prints one line per "
	  "configuration and its summary); with --runs, every run in full",
	  RC(verbose), .short_name = "-v" },
	OPT_ROW_JSON(struct run_cli, json, "print the run as JSON on stdout"),
	{ OPT_R("--no-store", OPT_FLAG, NULL), "do not write to the database",
	  RC(no_store) },
	OPT_ROW_DB(struct run_cli, db, OPT_HELP_DB),
};
#undef RC

static void run_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd run_cmd = {
	.name = "run", .rows = run_rows,
	.nrows = ARRAY_SIZE(run_rows), .help_col = 20,
	.max_pos = -1, .pos = OPT_C_WORKLOADS, .usage = run_usage,
};

static void run_usage(FILE *out, const struct opt_cmd *c)
{
	size_t i;

	fprintf(out,
"usage: copyscope run [WORKLOAD|SUITE ...] [key=value ...] [options]\n"
"\n"
"Measures each configuration (a comma list expands into a sweep: size=4k,64k)\n"
"and stores the results with the environment.  Without a workload or suite,\n"
"runs the suite 'default'.  A key=value applies to every named workload that\n"
"has that parameter.  Sizes take k/M/G (1024-based; bare: bytes), times\n"
"need a unit, ns/us/ms/s (bare: only 0, or the unit a name ends in:\n"
"inject_ns=100 is 100 ns).  Named workloads print every configuration's\n"
"table; a suite prints one line per configuration and its summary (-v:\n"
"the tables; 'copyscope show RUN' prints them later).\n"
"\n"
"options:\n");
	opt_print_options(out, c);
	fprintf(out, "\nsuites:");
	for (i = 0; i < suite_count; i++)
		fprintf(out, " %s", suite_table[i]->name);
	fprintf(out, "\nworkloads:");
	for (i = 0; i < workload_count; i++)
		fprintf(out, " %s", workload_table[i]->name);
	fprintf(out,
"\n('copyscope list' shows their parameters)\n"
"\nexamples:\n"
"  copyscope run pipe.bw size=4k,64k,1M\n"
"  copyscope run sys.null trace=10 --tag baseline\n"
"  copyscope run pipe.bw place=same,split --hist --json\n"
"  copyscope run pipe.matrix writers=5 --kernel lock,sched\n");
}

static int add_job(struct run_cli *rc, const struct workload *wl,
		   const char *const *args)
{
	struct session_job *j;
	char err[512];

	if (rc->njobs >= MAX_JOBS)
		return cli_usage("run", "too many workloads (at most %d)",
				 MAX_JOBS);
	j = &rc->jobs[rc->njobs];
	j->wl = wl;
	if (param_request_init(&j->req, wl->params, wl->nparams, err,
			       sizeof(err)) != 0) {
		cli_error("BUG: %s: %s", wl->name, err);
		return EXIT_FAIL;
	}
	for (; args && *args; args++)
		if (param_request_apply(&j->req, wl->name, *args, err,
					sizeof(err)) != 0) {
			cli_error("BUG: suite entry for %s: %s", wl->name, err);
			return EXIT_FAIL;
		}
	rc->njobs++;
	return 0;
}

static int add_name(struct run_cli *rc, const char *name)
{
	const struct workload *wl = workload_find(name);
	const struct suite *s = suite_find(name);
	const char *names[64];
	const char *sug;
	size_t i, n = 0;
	int e;

	if (wl)
		return add_job(rc, wl, NULL);
	if (s) {
		if (s->quick)
			rc->quick = true;
		for (i = 0; i < s->nentries; i++) {
			wl = workload_find(s->entries[i].workload);
			if (!wl) {
				cli_error("BUG: suite %s names unknown "
					  "workload %s", s->name,
					  s->entries[i].workload);
				return EXIT_FAIL;
			}
			e = add_job(rc, wl, s->entries[i].args);
			if (e)
				return e;
			rc->from[rc->njobs - 1] = (struct summary_line) {
				.job = (int)rc->njobs - 1,
				.workload = wl->name,
				.label = s->headlines ?
					 s->headlines[i].label : NULL,
				.metric = s->headlines ?
					  s->headlines[i].metric : NULL,
			};
			rc->any_suite = true;
		}
		return 0;
	}
	for (i = 0; i < workload_count && n < 64; i++)
		names[n++] = workload_table[i]->name;
	for (i = 0; i < suite_count && n < 64; i++)
		names[n++] = suite_table[i]->name;
	sug = param_suggest(name, names, n);
	if (sug)
		return cli_usage("run", "unknown workload or suite '%s'; did "
				 "you mean '%s'?", msg_quote(name), sug);
	return cli_usage("run", "unknown workload or suite '%s' ('copyscope "
			 "list' shows them)", msg_quote(name));
}

/* Apply every key=value to the jobs that have the key. */
static int apply_assignments(struct run_cli *rc)
{
	char err[512];
	size_t a, j;

	for (a = 0; a < rc->nassign; a++) {
		const char *as = rc->assign[a];
		size_t klen = strcspn(as, "=");
		char key[64];
		bool used = false;

		snprintf(key, sizeof(key), "%.*s", (int)klen, as);
		for (j = 0; j < a; j++)
			if (strncmp(rc->assign[j], as, klen + 1) == 0)
				return cli_usage("run", "%s is given twice "
						 "('%s' and '%s'); to sweep, "
						 "give one comma list (%s=a,b)",
						 key, rc->assign[j], as, key);
		for (j = 0; j < rc->njobs; j++) {
			const struct workload *wl = rc->jobs[j].wl;

			if (param_find(wl->params, wl->nparams, key) < 0)
				continue;
			used = true;
			if (param_request_apply(&rc->jobs[j].req, wl->name, as,
						err, sizeof(err)) != 0)
				return cli_usage("run", "%s", err);
		}
		if (!used) {
			/* Let the first job's parser word the error. */
			param_request_apply(&rc->jobs[0].req,
					    rc->jobs[0].wl->name, as, err,
					    sizeof(err));
			return cli_usage("run", "%s", err);
		}
	}
	if (rc->verify) {
		for (j = 0; j < rc->njobs; j++) {
			const struct workload *wl = rc->jobs[j].wl;
			int row = param_find_role(wl->params, wl->nparams,
						  PARAM_ROLE_VERIFY);
			char v[64];

			if (!(wl->caps & WL_CAP_VERIFY) || row < 0)
				continue;
			snprintf(v, sizeof(v), "%s=1", wl->params[row].name);
			if (param_request_apply(&rc->jobs[j].req, wl->name, v,
						err, sizeof(err)) != 0)
				return cli_usage("run", "%s", err);
		}
	}
	return 0;
}

/*
 * --explain: the floors of every explained job, as more jobs (see
 * session/explain_plan.h).
 */
static int add_explain_jobs(struct run_cli *rc)
{
	char err[512];
	int e = explain_plan_add_floors(rc->jobs, &rc->njobs, MAX_JOBS, err,
					sizeof(err));

	if (e == EXIT_USAGE)
		return cli_usage("run", "%s", err);
	if (e)
		cli_error("%s", err);
	return e;
}

static int parse_args(struct run_cli *rc, int argc, char **argv)
{
	struct opt_result res;
	int i, e;

	e = opt_parse(&run_cmd, argc, argv, rc, &res);
	if (e)
		return e;
	rc->reps_set = opt_given(&run_cmd, &res, "--reps");
	rc->sample_set = opt_given(&run_cmd, &res, "--sample-time");
	rc->warmup_set = opt_given(&run_cmd, &res, "--warmup");
	rc->seed_set = opt_given(&run_cmd, &res, "--seed");
	rc->max_time_set = opt_given(&run_cmd, &res, "--max-time");
	for (i = 0; i < res.npos && !e; i++) {
		if (!strchr(res.pos[i], '='))
			e = add_name(rc, res.pos[i]);
		else if (rc->nassign >= sizeof(rc->assign) /
					sizeof(rc->assign[0]))
			e = cli_usage("run", "too many key=value arguments");
		else
			rc->assign[rc->nassign++] = res.pos[i];
	}
	opt_result_free(&res);
	if (e)
		return e;
	if (rc->njobs == 0) {
		e = add_name(rc, "default");
		if (e)
			return e;
	}
	if (rc->seed_set && !rc->interleave)
		return cli_usage("run", "--seed: only with --interleave");
	if (rc->kbackend && !rc->ro.kviews)
		return cli_usage("run", "--kernel-backend: only with --kernel");
	if (rc->ro.kviews && rc->interleave)
		return cli_usage("run", "--kernel: not with --interleave (each "
				 "configuration holds its tracer and rings "
				 "while open; interleaved, all are open at "
				 "once)");
	if (rc->max_time_set && !(rc->ro.precision_pct > 0))
		return cli_usage("run", "--max-time: only with --precision");
	if (rc->ro.precision_pct > 0 && rc->interleave)
		return cli_usage("run", "--precision: not with --interleave "
				 "(an interleaved run takes the same number "
				 "of samples of every configuration, round by "
				 "round)");
	if (rc->ro.precision_pct > 0 && !rc->max_time_set)
		rc->ro.max_time_ns = RUN_DEFAULT_PRECISION_MAX_NS;
	if (rc->runs > 1 && rc->no_store)
		return cli_usage("run", "--runs: the runs are stored to be "
				 "compared; not with --no-store");
	if (rc->runs > 1 && rc->group)
		return cli_usage("run", "--group is set by --runs, not with "
				 "it");
	if (rc->quick) {
		if (!rc->reps_set)
			rc->ro.reps = RUN_QUICK_REPS;
		if (!rc->sample_set)
			rc->ro.sample_time_ns = RUN_QUICK_SAMPLE_NS;
		if (!rc->warmup_set)
			rc->ro.warmup_ns = RUN_QUICK_WARMUP_NS;
	}
	e = cli_run_replay(rc->db, rc->assign, rc->nassign, rc->replay_mix,
			   sizeof(rc->replay_mix), rc->replayed,
			   sizeof(rc->replayed));
	if (e)
		return e;
	e = apply_assignments(rc);
	if (e)
		return e;
	return rc->explain ? add_explain_jobs(rc) : 0;
}

const struct opt_cmd *cli_run_options(void)
{
	return &run_cmd;
}

/*
 * What the run adds to its environment: the kernel views' backend (and
 * why) with --kernel, and the observation a replay came from.
 */
static int run_add_env(void *arg, struct env *env, uint64_t seed)
{
	struct run_cli *rc = arg;

	if (rc->ro.kviews && run_kernel_add_env(&rc->rk, env, seed))
		return -1;
	if (rc->replayed[0])
		return env_set(env, "replay.observation", rc->replayed);
	return 0;
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
	e = parse_args(rc, argc, argv);
	if (!e) {
		spec.jobs = rc->jobs;
		spec.njobs = rc->njobs;
		spec.ro = rc->ro;
		spec.interleave = rc->interleave;
		spec.seed_set = rc->seed_set;
		spec.seed = rc->seed;
		spec.perf_counters = rc->perf_counters;
		/* only a usage error is this machine's business: what the
		   guest can run is the guest's */
		if (session_check(&spec, err, sizeof(err)) == EXIT_USAGE)
			e = cli_usage("run", "%s", err);
	}
	free(rc);
	return e < 0 ? EXIT_USAGE : e;
}

char *cli_join_cmdline(int argc, char **argv)
{
	size_t len = 16, i;
	char *s, *masked;

	for (i = 0; i < (size_t)argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	strcpy(s, "copyscope");
	for (i = 0; i < (size_t)argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	/* a --db URL's password is neither stored nor printed */
	masked = store_mask_secrets(s);
	free(s);
	return masked;
}


/* ---- output as the session goes ---- */

static void print_preamble(void *arg, const struct run_info *run,
			   const struct timer_info *ti)
{
	const struct run_cli *rc = arg;
	const struct run_options *o = &run->opts;

	if (rc->json)
		return;
	if (run->id > 0)
		printf("copyscope run %lld", (long long)run->id);
	else
		printf("copyscope run (not stored)");
	if (run->tag[0])
		printf(" [%s]", run->tag);
	if (rc->ro.precision_pct > 0)
		printf(": samples of >= %.0fms each after %.0fms warm-up, at "
		       "least %d and more until each\nmedian's 95%% CI is "
		       "within ±%g%% (at most %.0fs of samples a "
		       "configuration)\n", o->sample_time_ns / 1e6,
		       o->warmup_ns / 1e6, o->reps, rc->ro.precision_pct,
		       rc->ro.max_time_ns / 1e9);
	else
		printf(": %d samples of >= %.0fms each after %.0fms warm-up\n",
		       o->reps, o->sample_time_ns / 1e6, o->warmup_ns / 1e6);
	printf("timer: %s", ti->unit);
	if (ti->source != TIMER_CLOCK_NS) {
		char ctr[96];

		timer_counter_text(ti, ctr, sizeof(ctr));
		printf(" (%s)", ctr);
	}
	printf(", %.0f ns per read pair; rows: median, ±%%sd, CI\n",
	       ti->overhead_ns);
	if (o->interleave)
		printf("interleaved: the samples of all configurations in a "
		       "shuffled round-robin\norder, seed %llu\n",
		       (unsigned long long)o->interleave_seed);
	printf("\n");
	fflush(stdout);
}

/*
 * A suite's run prints one line per configuration unless -v (or --hist,
 * --kernel, whose detail was asked for); `show RUN` prints the tables.
 */
static bool brief(const struct run_cli *rc)
{
	return rc->any_suite && !rc->verbose && !rc->json && !rc->ro.hist &&
	       !rc->ro.kviews;
}

static void print_job(void *arg, const struct result *res, size_t n)
{
	struct run_cli *rc = arg;
	int job = n ? res[0].cfg->job : 0;

	if (rc->json)
		return;
	if (brief(rc)) {
		if (!rc->brief_started)
			run_brief_heading(stdout);
		rc->brief_started = true;
		run_brief_job(stdout, res, n, job >= 0 && job < MAX_JOBS ?
			      rc->from[job].metric : NULL);
		fflush(stdout);
		return;
	}
	report_results(stdout, res, n);
	printf("\n");
	fflush(stdout);
}

static const struct session_output run_output = {
	.begin = print_preamble,
	.job_done = print_job,
};

/* The suite summary's lines: one per job that came from a suite. */
static size_t summary_lines(const struct run_cli *rc,
			    struct summary_line lines[MAX_JOBS])
{
	size_t j, nl = 0;

	for (j = 0; j < rc->njobs; j++)
		if (rc->from[j].workload)
			lines[nl++] = rc->from[j];
	return nl;
}

/* The suite summary: one line per job that came from a suite. */
static void print_summary(const struct run_cli *rc, const struct run_data *run)
{
	struct summary_line lines[MAX_JOBS];
	size_t nl = summary_lines(rc, lines);

	printf("\n");
	summary_print(stdout, &run->info, rc->db, lines, nl, run->results.v,
		      run->results.n);
}

/* What of a run the store took before it failed, and what the run
   never came to measure (it stops at the failure). */
static void print_incomplete(long long id, const char *path, size_t stored,
			     size_t measured, size_t never, size_t planned)
{
	char *line = NULL;

	if (asprintf(&line, "run %lld in %s is incomplete: %zu of the %zu "
		     "results measured were stored, and %zu of %zu "
		     "configurations were never measured (the store failed, "
		     "see the messages above)", id, path, stored, measured,
		     never, planned) < 0) {
		printf("run %lld is incomplete (the store failed)\n", id);
		return;
	}
	fmt_wrap(stdout, 0, 2, line);
	free(line);
}

/*
 * After the session: explain, JSON or "stored as", the suite summary,
 * interruption.
 */
static int finish(const struct run_cli *rc, struct session_result *sr,
		  const struct store *store, const char *path)
{
	const struct run_data *run = &sr->run;
	int e = sr->exit_code;
	char err[512];

	cli_warn_noisy(sr->nsamples, sr->nflagged, sr->n_other, sr->n_steal,
		       sr->n_canary);
	if (rc->explain && !rc->json && e == EXIT_OK) {
		int nb = explain_results(stdout, run->results.v,
					 run->results.n, err, sizeof(err));

		if (nb <= 0)
			cli_error("--explain: %s", err);
		if (nb < 0)
			e = EXIT_FAIL;
		printf("\n");
	}
	if (rc->json) {
		struct summary_line lines[MAX_JOBS];
		size_t nl = summary_lines(rc, lines);

		if (report_json_summary(stdout, &run->info, &run->env,
					run->results.v, run->results.n, lines,
					nl) != 0) {
			cli_error("cannot write JSON: %s", strerror(errno));
			e = EXIT_FAIL;
		}
	} else if (run->info.id > 0) {
		char clean[4096 * 4 + 1];

		size_t never = sr->planned > sr->ran + sr->skipped ?
			       sr->planned - sr->ran - sr->skipped : 0;

		cli_clean_text(path, clean, sizeof(clean));
		if (sr->store_lost)
			e = cli_keep_lost_run(store, path, run);
		else if (!sr->store_failed)
			printf("stored as run %lld in %s\n",
			       (long long)run->info.id, clean);
		else
			print_incomplete(run->info.id, clean, sr->stored,
					 run->results.n, never, sr->planned);
	}
	if (rc->any_suite && !rc->json)
		print_summary(rc, run);
	if (sr->exit_code == EXIT_INTERRUPTED)
		cli_error("interrupted by signal %d (%s): %s", sr->signal,
			  strsignal(sr->signal), run->info.id > 0 ?
			  "results so far stored with status 'interrupted'" :
			  "nothing stored (--no-store)");
	return e;
}

int cmd_run(int argc, char **argv)
{
	struct run_cli *rc = calloc(1, sizeof(*rc));
	struct session_spec spec;
	struct session_result sr;
	char err[512], path[4096] = "";
	char *cmdline = NULL;
	int e;

	if (!rc) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	session_spec_init(&spec);
	rc->ro = spec.ro;
	e = parse_args(rc, argc, argv);
	if (e)
		goto out;
	e = run_kernel_choose(&rc->ro.kviews, rc->kbackend, &rc->rk);
	if (e)
		goto out;
	rc->ro.kbackend = rc->rk.backend;
	spec.jobs = rc->jobs;
	spec.njobs = rc->njobs;
	spec.ro = rc->ro;
	spec.interleave = rc->interleave;
	spec.seed_set = rc->seed_set;
	spec.seed = rc->seed;
	spec.perf_counters = rc->perf_counters;
	spec.tag = rc->tag;
	spec.group_id = rc->group;
	spec.out = &run_output;
	spec.out_arg = rc;
	spec.add_env = run_add_env;
	spec.hook_arg = rc;
	e = session_check(&spec, err, sizeof(err));
	if (e == EXIT_USAGE) {
		e = cli_usage("run", "%s", err);
		goto out;
	} else if (e) {
		cli_error("%s", err);
		goto out;
	}
	if (rc->runs > 1) {
		struct run_group_opts go = {
			.runs = rc->runs, .json = rc->json, .db = rc->db,
			.tag = rc->tag, .seed_set = rc->seed_set,
			.seed = rc->seed, .cmd = &run_cmd,
			.verbose = rc->verbose,
		};

		e = run_group(argc, argv, &go);
		goto out;
	}
	cmdline = cli_join_cmdline(argc, argv);
	if (!cmdline) {
		cli_error("out of memory");
		e = EXIT_FAIL;
		goto out;
	}
	spec.cmdline = cmdline;
	if (!rc->no_store) {
		e = cli_open_store(rc->db, &spec.store, path, sizeof(path));
		if (e)
			goto out;
	}
	session_run(&spec, &sr);
	e = finish(rc, &sr, spec.store, path);
	if ((fflush(stdout) != 0 || ferror(stdout)) && e == EXIT_OK) {
		/* stdout closed under us (| head): measured and stored, but
		   the output was lost */
		e = EXIT_FAIL;
	}
	session_result_free(&sr);
	if (spec.store)
		store_close(spec.store);
out:
	free(cmdline);
	free(rc);
	return e < 0 ? EXIT_OK : e;
}
