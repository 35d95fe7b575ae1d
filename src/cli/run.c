/*
 * run.c - `copyscope run`: its option table and usage, the session
 * (session/session.c) of the plan run_args.c made from the command line,
 * printed as it goes by report/run_print.h; `run --runs N` through
 * cli/run_group.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_group.h"
#include "cli/run_priv.h"
#include "report/mail_print.h"
#include "report/run_print.h"
#include "results/kernel_records.h"
#include "session/kernel_backend.h"
#include "session/session.h"
#include "util/array.h"

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

static const char *const kview_words[] = { "lock", "sched", "syscall",
					   "profile", NULL };
static const char *const kbackend_words[] = { "bpf", "tracefs", "auto",
					      NULL };

#define OPT_BASE struct run_cli
static const struct opt_row run_rows[] = {
	OPT_ROW_INT("--reps", "N", "kept samples per configuration "
	  "(default 10)", ro.stored.reps, .lo = 1, .hi = 100000),
	OPT_ROW_TIME("--sample-time", "T", "target length of one sample "
	  "(default 100ms)", ro.stored.sample_time_ns, .lo = 1e6, .hi = 60e9),
	OPT_ROW_TIME("--warmup", "T", "warm-up after the batch is sized "
	  "(default 200ms)", ro.stored.warmup_ns, .lo = 0, .hi = 600e9),
	OPT_ROW_FLAG("--quick", "3 samples of 10ms, no extra "
	  "warm-up (for tests)", plan.quick),
	OPT_ROW_TAG(tag, "label the run (for runs, show, compare)"),
	OPT_ROW_CHECK(OPT_LIST, "--cpus", "LIST", "CPUs workers may use, in "
	  "order (e.g. 0,1 or 2-5)", ro, struct run_opts, opt_check_cpus),
	OPT_ROW_FLAG("--hist", "per-op latency histogram (a "
	  "separate pass)", ro.stored.hist),
	OPT_ROW_PCT("--precision", "PCT", "after --reps samples, keep "
	  "adding samples until the 95% CI of every metric's median is "
	  "within ±PCT of it (e.g. 1%); prints the precision reached and the "
	  "time", ro.precision_pct, .lo = 0.01, .hi = 100, .unit = "1%"),
	OPT_ROW_TIME("--max-time", "T", "with --precision: at most T of "
	  "samples a configuration (default 60s)", ro.max_time_ns,
	  .lo = 1e6, .hi = 86400e9),
	OPT_ROW_FLAG("--interleave", "take the samples of all "
	  "configurations in a shuffled round-robin order (spreads drift "
	  "evenly; the order is recorded); at most 64 configurations",
	  ro.stored.interleave),
	OPT_ROW_U64("--seed", "N", "seed of the --interleave order "
	  "(default: the clock)", seed),
	OPT_ROW_INT("--runs", "N", "N runs, each in a fresh process (new "
	  "buffers, placement and warm-up), stored as N runs of one group: "
	  "compare then treats the run as the unit that repeats", runs,
	  .lo = 1, .hi = 1000),
	OPT_ROW_CHECK(OPT_STR, "--group", "ID", NULL, group, const char *,
		      check_group),
	OPT_ROW_FLAG("--verify", "set verify=1 on workloads that "
	  "can verify data", verify),
	OPT_ROW_FLAG("--explain", "also run each configuration's "
	  "floors at the same size and print them side by side: pipe.bw "
	  "against mem.copy (libc) and ring.bw (where the pipe's time goes), "
	  "the file.* workloads per byte against mem.copy libc and movsb (the "
	  "kernel path's speed and fixed cost)", explain),
	OPT_ROW_CHECK(OPT_LIST, "--kernel", "VIEWS", "also record what the "
	  "kernel did for the workers, in a traced sample after each kept one "
	  "(the kept figures stay untraced; the overhead is printed): lock "
	  "(contended lock waits by caller, as perf lock contention), sched "
	  "(wake-up latency, run-queue wait), syscall (time in the kernel per "
	  "system call), profile (sampled kernel stacks: ns per op by "
	  "function); a comma list.  Needs root (or perf_event_paranoid "
	  "-1) and tracefs: see docs/kernel-views.md", ro.stored.kviews, unsigned,
	  check_kviews, .words = kview_words),
	OPT_ROW_STR("--kernel-backend", "bpf|tracefs", "how --kernel "
	  "records: bpf (a BPF program aggregates in the kernel; the "
	  "default when it loads) or tracefs (every event read in user "
	  "space by libtraceevent; the fallback); auto: bpf, else tracefs. "
	  "The profile follows it: bpf, its samples counted in the kernel "
	  "in BPF stack maps; tracefs, read from the perf rings. "
	  "The backend that ran and why is said on stderr and stored with "
	  "the run", kbackend, .words = kbackend_words,
	  .complete = OPT_C_WORDS),
	OPT_ROW_INT("--profile-hz", "HZ", "with --kernel profile: samples a "
	  "second of each worker (default 499, which costs under 2%; see "
	  "docs/kernel-views.md)", ro.profile_hz, .lo = 1, .hi = 100000),
	OPT_ROW_FLAG("--perf-counters", "count context switches, "
	  "migrations and faults with perf software events instead of "
	  "getrusage (costs time on every context switch: see "
	  "docs/methodology.md)", ro.stored.perf_counters),
	OPT_ROW_FLAG("--hw-counters", "read core cycles, instructions, "
	  "cache and dTLB misses from the PMU around each kept sample, as "
	  "perf stat counts them: hw cycles/op, hw instr/op, hw IPC, "
	  "cache-miss/op and dTLB-miss/op beside the TSC figures (info "
	  "rows, never a verdict); where there is no PMU the run says so "
	  "and gives none (see docs/methodology.md)", ro.stored.hw_counters),
	OPT_ROW_FLAG("--verbose", "every configuration's table and "
	  "notes also for a suite (whose run prints one line per "
	  "configuration and its summary); with --runs, every run in full",
	  verbose, .short_name = "-v"),
	OPT_ROW_JSON(json, "print the run as JSON on stdout"),
	OPT_ROW_FLAG("--mail", "print only the run's header, machine, "
	  "parameters and table of medians and %stddev within 72 columns, "
	  "for a mail", mail),
	OPT_ROW_FLAG("--markdown", "the same as --mail as markdown tables",
	  markdown),
	OPT_ROW_FLAG("--no-store", "do not write to the database",
	  no_store),
	OPT_ROW_DB(db, OPT_HELP_DB),
};
#undef OPT_BASE

static void run_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd run_cmd = {
	.name = "run", .rows = run_rows,
	.nrows = ARRAY_SIZE(run_rows), .help_col = 20,
	.max_pos = -1, .pos = OPT_C_WORKLOADS, .usage = run_usage,
	.synopsis = OPT_SYNOPSIS("[WORKLOAD|SUITE ...] [key=value ...] "
				 "[options]"),
};

static void run_usage(FILE *out, const struct opt_cmd *c)
{
	const char *names[512];
	size_t i, n;

	fprintf(out,
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
	n = run_plan_names(true, names, ARRAY_SIZE(names));
	for (i = 0; i < n; i++)
		fprintf(out, " %s", names[i]);
	fprintf(out, "\nworkloads:");
	n = run_plan_names(false, names, ARRAY_SIZE(names));
	for (i = 0; i < n; i++)
		fprintf(out, " %s", names[i]);
	fprintf(out,
"\n('copyscope list' shows their parameters)\n"
"\nexamples:\n"
"  copyscope run pipe.bw size=4k,64k,1M\n"
"  copyscope run sys.null trace=10 --tag baseline\n"
"  copyscope run pipe.bw place=same,split --hist --json\n"
"  copyscope run pipe.matrix writers=5 --kernel lock,sched\n"
"\nexit: 0 measured, 1 a workload, the store or an output failed, 2 usage,\n"
"4 measured and stored, but a configuration withheld its headline (too\n"
"many samples had a worker off its CPU: docs/methodology.md, \"The\n"
"headline\"), 77 nothing could run here, 130 interrupted\n");
}


const struct opt_cmd *cli_run_options(void)
{
	return &run_cmd;
}


static void print_preamble(void *arg, const struct run_info *run,
			   const struct env *env,
			   const struct session_clock *sc)
{
	struct run_cli *rc = arg;
	struct run_print_clock clk = {
		.unit = sc->unit, .tsc = sc->tsc, .tsc_hz = sc->tsc_hz,
		.overhead_ns = sc->overhead_ns, .counter = sc->counter,
		.cycles = sc->cycles,
	};

	run_print_preamble(stdout, &rc->out, run, env, &clk);
}

static void print_job(void *arg, const struct result *res, size_t n)
{
	struct run_cli *rc = arg;

	run_print_job(stdout, &rc->out, res, n);
}

static const struct session_output run_output = {
	.begin = print_preamble,
	.job_done = print_job,
};

/* A run written but not found in the store: kept beside it. */
static int keep_lost(void *arg)
{
	const struct run_cli *rc = arg;

	return cli_keep_lost_run(rc->store, rc->path, rc->run);
}

/* After the session: what report/run_print.c prints at the end. */
static int finish(struct run_cli *rc, const struct session_result *sr,
		  const struct store *store, const char *path)
{
	struct run_print_end end = {
		.run = &sr->run, .exit_code = sr->exit_code, .path = path,
		.store_failed = sr->store_failed,
		.store_lost = sr->store_lost, .stored = sr->stored,
		.planned = sr->planned, .ran = sr->ran,
		.skipped = sr->skipped, .signal = sr->signal,
		.nsamples = sr->nsamples, .nflagged = sr->nflagged,
		.n_other = sr->n_other, .n_steal = sr->n_steal,
		.n_canary = sr->n_canary, .n_offcpu = sr->n_offcpu,
		.keep_lost = keep_lost,
		.keep_arg = rc,
	};

	rc->store = store;
	rc->path = path;
	rc->run = &sr->run;
	return run_print_end(stdout, &rc->out, &end);
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
	e = run_parse_args(rc, argc, argv);
	if (e)
		goto out;
	if (kernel_backend_choose(&rc->ro.stored.kviews, rc->kbackend,
				  &rc->rk) != 0) {
		e = EXIT_NOTHING_RAN;
		goto out;
	}
	if (rc->ro.stored.kviews) {
		/* --kernel-backend bpf refuses a profile that cannot
		   aggregate in the kernel: then nothing may be left */
		kernel_backend_profile(&rc->ro.stored.kviews, rc->kbackend,
				       &rc->rk);
		if (!rc->ro.stored.kviews) {
			cli_error("--kernel: none of the views asked for can "
				  "be recorded here; nothing measured");
			e = EXIT_NOTHING_RAN;
			goto out;
		}
	}
	rc->ro.kbackend = rc->rk.backend;
	rc->ro.kprof_backend = rc->rk.prof_backend;
	run_fill_spec(rc, &spec);
	spec.out = &run_output;
	spec.out_arg = rc;
	spec.kernel_backend = &rc->rk;
	spec.replayed = rc->replayed;
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
	rc->out = (struct run_print) {
		.json = rc->json,
		.mail = (int)mail_format_of(rc->mail, rc->markdown),
		.precision_pct = rc->ro.precision_pct,
		.max_time_ns = rc->ro.max_time_ns, .explain = rc->explain,
		.from = rc->plan.from, .njobs = rc->plan.njobs,
		.any_suite = rc->plan.any_suite, .db = rc->db,
		/* a suite's run prints one line per configuration unless
		   -v (or --hist, --kernel, whose detail was asked for);
		   `show RUN` prints the tables */
		.brief = rc->plan.any_suite && !rc->verbose && !rc->json &&
			 !rc->mail && !rc->markdown &&
			 !rc->ro.stored.hist && !rc->ro.stored.kviews,
	};
	session_run(&spec, &sr);
	e = finish(rc, &sr, spec.store, path);
	if (e == EXIT_OK && sr.nwithheld) {
		/* measured and stored, but a row gave no figure: its note
		   says why (stats/headline.h) */
		cli_error("headline withheld for %zu configuration%s (exit "
			  "4): see the note under it", sr.nwithheld,
			  sr.nwithheld == 1 ? "" : "s");
		e = EXIT_CANNOT_TELL;
	}
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
