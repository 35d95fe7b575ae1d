/*
 * observe.c - `copyscope observe`: watch a live host, any process, for a
 * while: the sizes of pipe writes, lock contention, wake-up latency and
 * per-syscall time, aggregated in the kernel by a BPF program
 * (kernel/observe_attach.c); print it and store it as a run with the host's
 * environment (session/observe_session.c), for `show`, the report, export and
 * the replay `pipe.mix mix=observed:ID`.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "report/mail_print.h"
#include "report/observe_print.h"
#include "session/observe_session.h"
#include "util/array.h"

struct observe_cli {
	int64_t duration_ns;
	unsigned what;
	const char *comm, *db, *tag, *source;
	int pid;
	bool json, no_store;
	bool mail, markdown;		/* report/mail_print.h */
};

static const char *const what_words[] = {
	"pipe-writes", "lock", "wakeup", "syscalls", NULL,
};

static const char *const source_words[] = {
	"fexit", "kprobe", "syscalls", NULL,
};

/* --what LIST: a comma list of what_words into the unsigned at dest. */
static int check_what(const char *cmd, const struct opt_row *r,
		      const char *v, void *dest)
{
	unsigned mask = 0;
	const char *p = v;
	size_t n, i;

	(void)r;
	for (;;) {
		n = strcspn(p, ",");
		for (i = 0; what_words[i]; i++)
			if (strlen(what_words[i]) == n &&
			    strncmp(p, what_words[i], n) == 0)
				break;
		if (!what_words[i])
			return cli_usage(cmd, "--what: '%.*s' is not one of "
					 "pipe-writes, lock, wakeup, syscalls "
					 "(a comma list)", (int)n, p);
		mask |= 1u << i;
		if (!p[n])
			break;
		p += n + 1;
	}
	*(unsigned *)dest = mask;
	return 0;
}

/* --comm PATTERN: a comm (1-15 bytes), or a prefix ending in '*'. */
static int check_comm(const char *cmd, const struct opt_row *r,
		      const char *v, void *dest)
{
	size_t n = strlen(v), i;

	(void)r;
	for (i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 ||
		    (v[i] == '*' && i != n - 1))
			break;
	if (!n || i < n || n - (v[n - 1] == '*') > 15)
		return cli_usage(cmd, "--comm: '%s' is not a command name "
				 "(1 to 15 bytes, as the kernel keeps it) "
				 "nor a prefix ending in '*'", v);
	*(const char **)dest = v;
	return 0;
}

#define OPT_BASE struct observe_cli
static const struct opt_row observe_rows[] = {
	OPT_ROW_TIME("--duration", "T", "how long to watch (default "
	  "10s; e.g. 500ms, 3s, 120s)", duration_ns, .lo = 1e6,
	  .hi = 86400e9, .flags = OPT_ONCE),
	OPT_ROW_CHECK(OPT_LIST, "--what", "LIST", "what to watch, a comma "
	  "list of pipe-writes (sizes of writes to pipes), lock (contended "
	  "lock waits per caller and comm), wakeup (wake-up latency), syscalls "
	  "(time per system call); default all", what, unsigned, check_what,
	  .words = what_words),
	OPT_ROW_CHECK(OPT_STR, "--comm", "PATTERN", "only tasks whose command "
	  "name is PATTERN (or begins with it, when it ends in '*')", comm,
	  const char *, check_comm),
	OPT_ROW_INT("--pid", "PID", "only the threads of process PID",
	  pid, .lo = 1, .hi = 4194304),
	OPT_ROW_STR("--pipe-source", "SRC", "force where pipe writes "
	  "are seen: fexit or kprobe (on anon_pipe_write), syscalls (the "
	  "write, writev and splice tracepoints); default: the first that "
	  "works, in that order", source, .words = source_words,
	  .complete = OPT_C_WORDS),
	OPT_ROW_TAG(tag, "store the observation with "
		    "this tag"),
	OPT_ROW_JSON(json, "print the observation as JSON "
		     "(as show --json does)"),
	OPT_ROW_FLAG("--mail", "only the run, the machine, what was "
	  "watched and a column of counts within 72 columns, for a mail",
	  mail),
	OPT_ROW_FLAG("--markdown", "the same as --mail as markdown tables",
	  markdown),
	OPT_ROW_FLAG("--no-store", "do not write to the database",
	  no_store),
	OPT_ROW_DB(db, OPT_HELP_DB),
};
#undef OPT_BASE

static void observe_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd observe_cmd = {
	.name = "observe", .rows = observe_rows,
	.nrows = ARRAY_SIZE(observe_rows), .help_col = 22,
	.max_pos = 0, .usage = observe_usage,
	.synopsis = OPT_SYNOPSIS("[--duration] [--what] [--comm]\n"
				 "[--pid] [--pipe-source] [--tag]\n"
				 "[--json|--mail|--markdown]\n"
				 "[--no-store] [--db]"),
};

const struct opt_cmd *cli_observe_options(void)
{
	return &observe_cmd;
}

static void observe_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"Watches this host, system-wide and any process (no workload of ours),\n"
"with a BPF program that aggregates in the kernel: memory is bounded by\n"
"its maps, not by the duration, and events it could not record are\n"
"counted and printed.  Prints the pipe writes by size class (the class,\n"
"its count, its share) beside their log2 histogram and per comm, the\n"
"lock table per caller and per comm (as perf lock contention -ab, in\n"
"the layout of run --kernel lock) with a histogram of the mutex wait of\n"
"each pipe caller (the read and write sides apart), the wake-up latency\n"
"and the syscalls, within 80 columns;\n"
"stores it as a run with the host's environment (show, report, export).\n"
"`copyscope run pipe.mix mix=observed:ID` replays its write sizes.\n"
"Needs root (BPF, tracefs: mounted when missing) and the kernel's BTF.\n"
"\n"
"options:\n");
	opt_print_options(out, c);
	fprintf(out,
"\nexit: 0 observed, 1 a failure (the store), 2 usage, 77 nothing of the\n"
"request can run here (the reasons are printed).\n"
"\nexamples:\n"
"  copyscope observe --duration 120s --what pipe-writes\n"
"  copyscope observe --duration 3s --what lock --comm 'nginx*'\n");
}

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* "observing WHAT for T": on stderr once the program is attached. */
static void started(void *arg, const struct observation *o)
{
	const struct observe_cli *oc = arg;
	const char *sep = "";
	size_t i;

	fprintf(stderr, "copyscope: observing ");
	for (i = 0; i < 4; i++)
		if (o->ran & (1u << i)) {
			fprintf(stderr, "%s%s", sep, observe_what_names[i]);
			sep = ",";
		}
	fprintf(stderr, " for %.3g s\n", (double)oc->duration_ns / 1e9);
}

static int print_it(const struct observe_cli *oc, const struct run_data *run,
		    const struct observation *o, const char *path)
{
	if (oc->json) {
		json_t *j = observation_stored_json(run->observation);
		int e = report_observation_json(stdout, &run->info, &run->env,
						j) ? EXIT_FAIL : EXIT_OK;

		json_decref(j);
		return e;
	}
	if (oc->mail || oc->markdown)
		return mail_print_observation(stdout, run, o,
					      mail_format_of(oc->mail,
							     oc->markdown)) ?
			EXIT_FAIL : EXIT_OK;
	if (run->info.id)
		printf("observation %lld stored in %s\n",
		       (long long)run->info.id, path);
	report_observation(stdout, o);
	return EXIT_OK;
}

int cmd_observe(int argc, char **argv)
{
	struct observe_cli oc = { .duration_ns = 10000000000LL,
				  .what = OBSERVE_ALL };
	struct session_observe so = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	struct run_data run;
	struct observation o;
	struct opt_result res;
	char path[4096], err[512];
	int e;

	e = opt_parse(&observe_cmd, argc, argv, &oc, &res);
	if (e)
		return e == OPT_HELP ? EXIT_OK : e;
	opt_result_free(&res);
	if (oc.json + oc.mail + oc.markdown > 1)
		return cli_usage("observe", "one of --json, --mail and "
				 "--markdown");
	/* a --pid that is not there would watch nothing for the duration */
	if (oc.pid && kill(oc.pid, 0) != 0 && errno == ESRCH)
		return cli_usage("observe", "--pid: no process %d is running "
				 "(a running process's id)", oc.pid);
	so.rq = (struct kobserve_request){
		.what = oc.what, .comm = oc.comm, .pid = oc.pid,
		.duration_ns = oc.duration_ns, .stop = &stop_flag,
		.pipe_source = oc.source, .started = started, .arg = &oc,
	};
	so.tag = oc.tag;
	so.cmdline = cli_join_cmdline(argc, argv);
	if (!so.cmdline) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	if (!oc.no_store) {
		e = cli_open_store(oc.db, &so.store, path, sizeof(path));
		if (e) {
			free((char *)so.cmdline);
			return e;
		}
	}
	/* a dropped ssh session (SIGHUP) ends the observation as Ctrl-C
	   does: what was seen is stored, as interrupted */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	e = session_observe(&so, &run, &o, err, sizeof(err));
	if (e == 77) {
		cli_error("%s:", err);
		fputs(o.notes ? o.notes : "", stderr);
	} else if (e) {
		cli_error("%s", err);
	}
	if (e == OBSERVE_NOT_STORED) {
		run.info.id = 0;	/* never "stored" for what was not */
		print_it(&oc, &run, &o, path);
		cli_error("the observation is not stored in %s (see above)",
			  path);
		e = cli_keep_lost_run(so.store, path, &run);
	} else if (e == 0) {
		e = print_it(&oc, &run, &o, path);
		if (!e && stop_flag)
			e = EXIT_INTERRUPTED;
	} else if (e != 77) {
		e = EXIT_FAIL;
	}
	observation_free(&o);
	run_data_free(&run);
	if (so.store)
		store_close(so.store);
	free((char *)so.cmdline);
	return e;
}
