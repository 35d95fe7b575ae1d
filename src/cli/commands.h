/*
 * commands.h - the subcommands' registry: each command's name, entry
 * point, one-line summary and option tables, which main.c dispatches
 * from and `copyscope __options` walks (for bash completion and the man
 * page), and which cli_commands_check() holds to the option tables'
 * rules at start-up.
 */
#ifndef COPYSCOPE_COMMANDS_H
#define COPYSCOPE_COMMANDS_H

#include <stddef.h>

struct opt_cmd;

/* The most option tables one command reads with (check: 2). */
#define CLI_MAX_TABLES 2

struct cli_command {
	const char *name;		/* "compare" */
	int (*fn)(int argc, char **argv);
	const char *summary;		/* its line in `copyscope --help` */
	/* its option tables: the first is the command's own (the one
	   __options describes), others other forms (check --history) */
	const struct opt_cmd *(*tables[CLI_MAX_TABLES])(void);
};

extern const struct cli_command cli_commands[];
extern const size_t cli_command_count;

/* The command called name, or NULL. */
const struct cli_command *cli_command_find(const char *name);

/*
 * Check every option table of every command (opt_cmd_check).  Returns 0,
 * or -1 with the first problem in err.
 */
int cli_commands_check(char *err, size_t len);

/* Each command's option tables (one accessor a table, in its file). */
const struct opt_cmd *cli_list_options(void);
const struct opt_cmd *cli_runs_options(void);
const struct opt_cmd *cli_show_options(void);
const struct opt_cmd *cli_compare_options(void);
const struct opt_cmd *cli_ab_options(void);
const struct opt_cmd *cli_check_options(void);
const struct opt_cmd *cli_history_options(void);
const struct opt_cmd *cli_export_options(void);
const struct opt_cmd *cli_import_options(void);
const struct opt_cmd *cli_report_options(void);
const struct opt_cmd *cli_push_options(void);
const struct opt_cmd *cli_observe_options(void);
const struct opt_cmd *cli_env_options(void);
const struct opt_cmd *cli_restore_options(void);
const struct opt_cmd *cli_boot_options(void);
/* run's: cli_run_options() (cli/cli.h), which boot also reads */

#endif
