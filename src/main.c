/*
 * main.c - copyscope: the subcommand table and dispatch.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/kview.h"
#include "report/kview_render.h"
#include "results/kview_table.h"
#include "results/run_options.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "runner/trace.h"
#include "session/settings.h"
#include "core/workload.h"
#include "util/msg.h"
#include "workloads/workloads.h"

#ifndef COPYSCOPE_VERSION
#define COPYSCOPE_VERSION "unknown"
#endif

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: copyscope COMMAND [ARGS]\n"
		"\n"
		"Measures what moving bytes through the Linux kernel costs "
		"(pipes, syscalls)\nagainst userspace floors, stores every "
		"result with its environment in SQLite\n(or a lab's PostgreSQL).\n\ncommands:\n");
	for (i = 0; i < cli_command_count; i++)
		fprintf(out, "  %-8s %s\n", cli_commands[i].name,
			cli_commands[i].summary);
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
 * bash completion and scripts/man-options.sh read them (opt_describe()),
 * from the tables the commands parse with (cli/commands.c), so that
 * neither can drift from them.
 */
static int describe_options(int argc, char **argv)
{
	size_t i, shown = 0;

	for (i = 0; i < cli_command_count; i++) {
		if (argc > 1 && strcmp(argv[1], cli_commands[i].name) != 0)
			continue;
		opt_describe(stdout, cli_commands[i].tables[0]());
		shown++;
	}
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
	const struct cli_command *k;
	char err[512];
	size_t i;

	if (cli_commands_check(err, sizeof(err)) != 0) {
		cli_error("BUG: invalid option table: %s", err);
		return EXIT_FAIL;
	}
	if (argc >= 2 && strcmp(argv[1], "__options") == 0)
		return describe_options(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "__complete") == 0)
		return cli_complete(argc - 1, argv + 1);
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
	if (kview_recorders_validate(err, sizeof(err)) != 0 ||
	    kview_renderers_validate(err, sizeof(err)) != 0) {
		cli_error("BUG: invalid kernel views table: %s", err);
		return EXIT_FAIL;
	}
	if (run_options_validate(err, sizeof(err)) != 0) {
		cli_error("BUG: invalid run options table: %s", err);
		return EXIT_FAIL;
	}
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* `copyscope help CMD` is `copyscope CMD --help` */
	if (argc == 3 && strcmp(argv[1], "help") == 0) {
		char *av[] = { argv[2], "--help", NULL };

		k = cli_command_find(argv[2]);
		if (k)
			return k->fn(2, av);
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
	k = cli_command_find(argv[1]);
	if (k) {
		/* kernel settings that an ab which died (kill -9) left
		   changed come back first, and it is said (restore does
		   only that, and says how many) */
		if (k->fn != cmd_restore)
			ab_settings_recover();
		return k->fn(argc - 1, argv + 1);
	}
	{
		const char *names[32];
		const char *s;

		for (i = 0; i < cli_command_count && i < 32; i++)
			names[i] = cli_commands[i].name;
		s = param_suggest(argv[1], names, i);
		cli_error("unknown command '%s'%s%s%s (see 'copyscope "
			  "--help')", msg_quote(argv[1]),
			  s ? "; did you mean '" : "",
			  s ? s : "", s ? "'?" : "");
	}
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	/* the table lives above the layers that look workloads up */
	workload_registry_set(workload_table, workload_count);
	if (argc >= 2 && strcmp(argv[1], "__trace") == 0)
		return trace_main(argc - 1, argv + 1);
	return close_stdout(dispatch(argc, argv));
}
