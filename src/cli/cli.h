/*
 * cli.h - the subcommands (one file each in src/cli/) and what they share:
 * exit codes, error printing, opening the result store.
 */
#ifndef COPYSCOPE_CLI_H
#define COPYSCOPE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/workload.h"
#include "store/store.h"

/* Exit codes (DESIGN §6). */
#define EXIT_OK 0
#define EXIT_FAIL 1
#define EXIT_USAGE 2
#define EXIT_REGRESSION 3
#define EXIT_NOTHING_RAN 77
#define EXIT_INTERRUPTED 130

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_check(int argc, char **argv);

/* One configuration for cli_run_configs(). */
struct run_config_spec {
	const struct workload *wl;
	struct param_set ps;
};

/* What cli_run_configs() measures, and how. */
struct run_spec {
	const struct run_config_spec *configs;
	size_t nconfigs;
	int reps;			/* kept samples; 0: run's default */
	int64_t sample_time_ns;		/* 0: run's default */
	int64_t warmup_ns;		/* -1: run's default */
	const char *cpus;		/* "0,1"; NULL or "": all allowed */
	const char *tag;		/* NULL: none */
	const char *db;			/* --db, or NULL */
	const char *cmdline;		/* stored with the run */
	bool print_tables;		/* the run's tables on stdout */
	bool interleave;
};

/*
 * Measure and store configurations the way `run` does (the same code
 * path: validation, runner, interference, storage, warnings), one job per
 * configuration.  Sets *run_id to the stored run (0 if none was stored).
 * Returns run's exit code: 0, 1, 2, 77 or 130.
 */
int cli_run_configs(const struct run_spec *spec, int64_t *run_id);

/*
 * The command line to store with a run: "copyscope" and argv[0 .. argc)
 * joined with spaces, in a string the caller frees; NULL when out of
 * memory.
 */
char *cli_join_cmdline(int argc, char **argv);

/* Print "copyscope: <message>" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print a usage error with a pointer to `copyscope CMD --help`; returns 2. */
int cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Check a --tag value of `cmd`: 1 to 100 characters, and selectable by
 * compare and check, so neither all digits (a run id), "last" nor holding a
 * ',' (a list).  Returns 0, or prints the usage error and returns 2.
 */
int cli_check_tag(const char *cmd, const char *tag);

/* True if arg is -h or --help. */
int cli_is_help(const char *arg);

/*
 * Open the store at db_opt (--db), or $COPYSCOPE_DB, or the default path.
 * On failure prints why and returns the exit code to use (2 when the user
 * named the path, 1 otherwise); 0 on success.
 */
int cli_open_store(const char *db_opt, struct store **st, char *path,
		   size_t pathlen);

/*
 * The same for commands that only read (runs, show, compare, check): a
 * database file that does not exist is never created.  A missing file at
 * the path the user named (--db, COPYSCOPE_DB), or with absent NULL, is a
 * usage error (exit 2, naming the path); a missing default database sets
 * *absent and returns 0 with *st untouched.
 */
int cli_open_existing_store(const char *db_opt, struct store **st,
			    char *path, size_t pathlen, bool *absent);

/*
 * Take the value of option `name` from argv[*i] ("--name VALUE" or
 * "--name=VALUE").  Returns the value, or NULL when argv[*i] is not that
 * option.  Sets *missing when the option has no value.
 */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name,
			  int *missing);

/* A CLOCK_REALTIME ns stamp as "YYYY-MM-DD HH:MM:SS" UTC ("-" if 0). */
void cli_format_time(int64_t ns, char *buf, size_t len);

#endif
