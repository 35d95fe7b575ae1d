/*
 * commands.c - the subcommands' registry (see commands.h): the table
 * main.c dispatches from, and the start-up check of every command's
 * option tables.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "util/array.h"

const struct cli_command cli_commands[] = {
	{ "list", cmd_list, "workloads, suites, parameters and metrics",
	  { cli_list_options } },
	{ "run", cmd_run, "measure workloads or suites and store the results",
	  { cli_run_options } },
	{ "runs", cmd_runs, "stored runs: id, time, tag, host, kernel, boot",
	  { cli_runs_options } },
	{ "show", cmd_show, "one stored run: results and environment",
	  { cli_show_options } },
	{ "compare", cmd_compare, "compare two sets of runs: %change, "
	  "p-value, verdict", { cli_compare_options } },
	{ "ab", cmd_ab, "paired A/B in one run: A, B and a control A' in "
	  "shuffled rounds", { cli_ab_options } },
	{ "check", cmd_check, "rerun BASE's workloads; exit 3 on a "
	  "significant regression",
	  { cli_check_options } },
	{ "history", cmd_history, "series of run medians per host and "
	  "configuration, change points", { cli_history_options } },
	{ "export", cmd_export, "stored runs as JSON lines, for import "
	  "elsewhere", { cli_export_options } },
	{ "import", cmd_import, "add the runs of an export file (idempotent)",
	  { cli_import_options } },
	{ "report", cmd_report, "one self-contained HTML file with plots",
	  { cli_report_options } },
	{ "push", cmd_push, "copy runs to a shared store (PostgreSQL), "
	  "each once", { cli_push_options } },
	{ "observe", cmd_observe, "watch a live host: pipe write sizes, "
	  "lock waits, wake-ups (BPF)", { cli_observe_options } },
	{ "env", cmd_env, "the environment as it would be stored",
	  { cli_env_options } },
	{ "restore", cmd_restore, "write back kernel settings an ab that "
	  "died left changed", { cli_restore_options } },
#ifndef COPYSCOPE_STATIC
	/* not in the static build, which is what boot puts into a guest */
	{ "boot", cmd_boot, "A/B across boots: boot a kernel in qemu per "
	  "side, run inside, store", { cli_boot_options } },
#endif
};

const size_t cli_command_count = ARRAY_SIZE(cli_commands);

const struct cli_command *cli_command_find(const char *name)
{
	size_t i;

	for (i = 0; i < cli_command_count; i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return &cli_commands[i];
	return NULL;
}

int cli_commands_check(char *err, size_t len)
{
	size_t i, t;

	for (i = 0; i < cli_command_count; i++) {
		const struct cli_command *k = &cli_commands[i];

		if (!k->tables[0]) {
			snprintf(err, len, "%s: no option table", k->name);
			return -1;
		}
		for (t = 0; t < CLI_MAX_TABLES && k->tables[t]; t++) {
			const struct opt_cmd *c = k->tables[t]();

			if (strcmp(c->name, k->name) != 0) {
				snprintf(err, len, "%s: its option table is "
					 "%s's", k->name, c->name);
				return -1;
			}
			if (opt_cmd_check(c, err, len) != 0)
				return -1;
		}
	}
	return 0;
}
