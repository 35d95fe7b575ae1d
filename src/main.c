/*
 * main.c - copyscope: the subcommand table and dispatch.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "results/kview_table.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "runner/trace.h"
#include "core/workload.h"
#include "util/array.h"
#include "util/msg.h"

#ifndef COPYSCOPE_VERSION
#define COPYSCOPE_VERSION "unknown"
#endif

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "list", cmd_list, "workloads, suites, parameters and metrics" },
	{ "run", cmd_run, "measure workloads or suites and store the results" },
	{ "runs", cmd_runs, "stored runs: id, time, tag, host, kernel, boot" },
	{ "show", cmd_show, "one stored run: results and environment" },
	{ "compare", cmd_compare, "compare two sets of runs: %change, "
	  "p-value, verdict" },
	{ "ab", cmd_ab, "paired A/B in one run: A, B and a control A' in "
	  "shuffled rounds" },
	{ "check", cmd_check, "rerun BASE's workloads; exit 3 on a "
	  "significant regression" },
	{ "history", cmd_history, "series of run medians per host and "
	  "configuration, change points" },
	{ "export", cmd_export, "stored runs as JSON lines, for import "
	  "elsewhere" },
	{ "import", cmd_import, "add the runs of an export file (idempotent)" },
	{ "report", cmd_report, "one self-contained HTML file with plots" },
	{ "push", cmd_push, "copy runs to a shared store (PostgreSQL), "
	  "each once" },
	{ "observe", cmd_observe, "watch a live host: pipe write sizes, "
	  "lock waits, wake-ups (BPF)" },
	{ "env", cmd_env, "the environment as it would be stored" },
#ifndef COPYSCOPE_STATIC
	/* not in the static build, which is what boot puts into a guest */
	{ "boot", cmd_boot, "A/B across boots: boot a kernel in qemu per "
	  "side, run inside, store" },
#endif
};

#define NSUB ARRAY_SIZE(subcommands)

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: copyscope COMMAND [ARGS]\n"
		"\n"
		"Measures what moving bytes through the Linux kernel costs "
		"(pipes, syscalls)\nagainst userspace floors, stores every "
		"result with its environment in SQLite\n(or a lab's PostgreSQL).\n\ncommands:\n");
	for (i = 0; i < NSUB; i++)
		fprintf(out, "  %-8s %s\n", subcommands[i].name,
			subcommands[i].summary);
	fprintf(out,
		"\n'copyscope COMMAND --help' (or 'copyscope help COMMAND') "
		"describes a command.\n"
		"examples:\n"
		"  copyscope run pipe.bw size=4k,64k,1M\n"
		"  copyscope run sys.null trace=10\n"
		"  copyscope runs\n"
		"  copyscope show 3\n"
		"  copyscope compare baseline patched\n"
		"\nexit codes: 0 ok, 1 a workload or I/O failed, 2 usage "
		"error,\n            3 regression found (check), 4 cannot "
		"tell (check),\n            77 nothing could run here, 130 "
		"interrupted\n");
}

/*
 * `copyscope __options [CMD]`: every command's (or CMD's) options as
 * bash completion reads them (opt_describe()), from the tables the
 * commands parse with, so that completion cannot drift from them.
 */
static int describe_options(int argc, char **argv)
{
	size_t i, shown = 0;

	opt_set_describe(stdout);
	for (i = 0; i < NSUB; i++) {
		char *av[] = { (char *)subcommands[i].name, NULL };

		if (argc > 1 && strcmp(argv[1], av[0]) != 0)
			continue;
		subcommands[i].fn(1, av);
		shown++;
	}
	opt_set_describe(NULL);
	if (!shown) {
		cli_error("__options: no command '%s'", argv[1]);
		return EXIT_USAGE;
	}
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

/*
 * The command's exit code rc, after standard output is flushed and
 * closed: every command's output checked in this one place, so a write
 * error (a full disk, /dev/full) is exit 1 with a message, never a
 * silent exit 0, and a closed pipe is 130 (docs/reliability.md).  An
 * exit code the command chose already stays.
 */
static int close_stdout(int rc)
{
	int e = 0;

	if (fflush(stdout) != 0)
		e = errno;
	else if (ferror(stdout))
		e = -1;		/* an earlier write failed; errno is gone */
	if (fclose(stdout) != 0 && !e && errno != EBADF)
		e = errno;
	/* exit 1 and a message: the command failed and said why already */
	if (!e || (rc == EXIT_FAIL && msg_printed()))
		return rc;
	if (e == EPIPE)
		cli_error("standard output was closed before all was written");
	else if (e < 0)
		cli_error("cannot write standard output: a write failed");
	else
		cli_error("cannot write standard output: %s", strerror(e));
	if (rc)
		return rc;
	return e == EPIPE ? EXIT_INTERRUPTED : EXIT_FAIL;
}

static int dispatch(int argc, char **argv)
{
	char err[512];
	size_t i;

	if (argc >= 2 && strcmp(argv[1], "__options") == 0)
		return describe_options(argc - 1, argv + 1);
	if (workload_table_validate(workload_table, workload_count, err,
				    sizeof(err)) != 0) {
		cli_error("BUG: invalid workload table: %s", err);
		return EXIT_FAIL;
	}
	if (kview_records_validate(kview_records, KVIEW_NVIEWS, err,
				   sizeof(err)) != 0) {
		cli_error("BUG: invalid kernel views table: %s", err);
		return EXIT_FAIL;
	}
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* `copyscope help CMD` is `copyscope CMD --help` */
	if (argc == 3 && strcmp(argv[1], "help") == 0) {
		char *av[] = { argv[2], "--help", NULL };

		for (i = 0; i < NSUB; i++)
			if (strcmp(argv[2], subcommands[i].name) == 0)
				return subcommands[i].fn(2, av);
		cli_error("help: no command '%s' (see 'copyscope --help')",
			  argv[2]);
		return EXIT_USAGE;
	}
	if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("copyscope %s\n", COPYSCOPE_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < NSUB; i++)
		if (strcmp(argv[1], subcommands[i].name) == 0)
			return subcommands[i].fn(argc - 1, argv + 1);
	{
		const char *names[NSUB];
		const char *s;

		for (i = 0; i < NSUB; i++)
			names[i] = subcommands[i].name;
		s = param_suggest(argv[1], names, NSUB);
		cli_error("unknown command '%s'%s%s%s (see 'copyscope "
			  "--help')", msg_quote(argv[1]),
			  s ? "; did you mean '" : "",
			  s ? s : "", s ? "'?" : "");
	}
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "__trace") == 0)
		return trace_main(argc - 1, argv + 1);
	return close_stdout(dispatch(argc, argv));
}
