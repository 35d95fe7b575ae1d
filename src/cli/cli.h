/*
 * cli.h - the subcommands (one file each in src/cli/) and what they share:
 * exit codes, error printing, opening the result store.
 */
#ifndef COPYSCOPE_CLI_H
#define COPYSCOPE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "store/store.h"
#include "util/msg.h"

struct opt_cmd;
struct cmp;
struct cmp_opts;
struct cmp_side;

/* Exit codes (README.md, "Command line"). */
#define EXIT_OK 0
#define EXIT_FAIL 1
#define EXIT_USAGE 2
#define EXIT_REGRESSION 3
#define EXIT_CANNOT_TELL 4	/* check: the test cannot decide; run: a
				   headline withheld (stats/headline.h) */
#define EXIT_NOTHING_RAN 77
#define EXIT_INTERRUPTED 130

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_boot(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_observe(int argc, char **argv);

/*
 * `copyscope __complete KIND [--db PATH|URL]`: completion words only the
 * program knows (session_complete()), for completion/copyscope.bash.
 * argv[0] is "__complete".  Returns the exit code.
 */
int cli_complete(int argc, char **argv);

/*
 * The command line to store with a run: "copyscope" and argv[0 .. argc)
 * joined with spaces, passwords of database URLs masked
 * (store_mask_secrets), in a string the caller frees; NULL when out of
 * memory.
 */
char *cli_join_cmdline(int argc, char **argv);

/*
 * Check the arguments of `copyscope run` (argv[0] is "run") as run reads
 * them, without running anything (boot checks what its guests will run
 * before booting them).  Returns 0, or prints the usage error (as run's)
 * and returns 2; --help counts as a usage error here.
 */
int cli_run_check_args(int argc, char **argv);

/* run's option table (for boot, which hands run's options after '--'). */
const struct opt_cmd *cli_run_options(void);

/* Print "copyscope: <message>" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print a usage error with a pointer to `copyscope CMD --help`; returns 2. */
int cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Check a --tag value of `cmd`: 1 to 100 characters of valid UTF-8 without
 * control characters (it is printed in tables and JSON), and selectable by
 * compare and check, so neither all digits (a run id), "last", holding a
 * ',' (a list) nor read as a selector (host:..., +kernel:...;
 * store_spec_is_tag).  Returns 0, or prints the usage error and returns 2.
 */
int cli_check_tag(const char *cmd, const char *tag);

/*
 * The rule of cli_check_tag() without printing, for tags that come from
 * elsewhere (import): 0 when tag is one --tag takes; 1 with what is wrong
 * in why (the tag itself escaped as \xNN); -1 when memory ran out.
 */
int cli_tag_problem(const char *tag, char *why, size_t len);

/*
 * Text that came from outside (a tag, a command line, a host name) into
 * buf for printing, with control characters and bytes that are not UTF-8
 * written as \xNN, so that it can neither break a table's layout nor send
 * terminal escape sequences.
 */
void cli_clean_text(const char *s, char *buf, size_t len);

/* True if arg is -h or --help (the options of a command: cli/options.h). */
int cli_is_help(const char *arg);

/*
 * Open the store at db_opt (--db), or $COPYSCOPE_DB, or the default path.
 * On failure prints why (naming where the path came from) and returns 2
 * (nothing was measured; the user must name a usable database); 0 on
 * success.
 */
int cli_open_store(const char *db_opt, struct store **st, char *path,
		   size_t pathlen);

/*
 * Open the store that option opt (e.g. "--to") names as target, as
 * cli_open_store() does (messages say where the name came from); path
 * gets the name to print, passwords masked.  Returns 0 or 2.
 */
int cli_open_store_opt(const char *opt, const char *target,
		       struct store **st, char *path, size_t pathlen);

/*
 * The same for commands that only read (runs, show, compare, check): a
 * database file that does not exist is never created, and one this
 * process may not write is opened read-only (store_open_read).  A missing file at
 * the path the user named (--db, COPYSCOPE_DB), or with absent NULL, is a
 * usage error (exit 2, naming the path); a missing default database sets
 * *absent and returns 0 with *st untouched.
 */
int cli_open_existing_store(const char *db_opt, struct store **st,
			    char *path, size_t pathlen, bool *absent);

/*
 * A run written to st (named path in messages) that is not found there at
 * the end (store_check_stored): write all of it as an export file beside
 * the database file, DB.lost-run-UUID.json (else in the current
 * directory, copyscope-lost-run-UUID.json), and say on stderr where it
 * is.  Returns EXIT_FAIL.
 */
int cli_keep_lost_run(const struct store *st, const char *path,
		      const struct run_data *run);

/*
 * For a command that adds runs one after the other (import, push): catch
 * SIGINT, SIGTERM, SIGHUP and SIGPIPE as run does, so that the command
 * finishes the run it is adding, stops, and says what was stored
 * (cli_stopped) instead of dying with what it printed still buffered.
 */
void cli_catch_stop(void);

/* The signal that asked to stop since cli_catch_stop, 0 if none. */
int cli_stop_signal(void);

/*
 * After a stop: "interrupted by signal N (NAME): " and the rest of the
 * message from fmt on stderr, the output flushed.  Returns
 * EXIT_INTERRUPTED.
 */
int cli_stopped(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Load the runs that spec names (run ids, tags, 'last', a comma list;
 * store_select_runs) whole into side.  Returns 0; 2 (EXIT_USAGE) when an
 * item names no run or is empty (printed, naming cmd); 1 on a store
 * error (printed).  Free with cli_free_side().
 */
int cli_load_side(struct store *st, const char *cmd, const char *spec,
		  struct cmp_side *side);
void cli_free_side(struct cmp_side *side);

/*
 * Build the comparison of c's sides with o (cmp_build()) and judge the
 * rows with a single run on a side against their history in the store
 * at db (session/history_runs.h).  Returns 0, or the exit code after
 * printing why (1: out of memory or a store error).
 */
int cli_cmp_build(const char *db, struct cmp *c, const struct cmp_opts *o);

#define CMP_MAX_IGNORE 32

/* --ignore-param values: the names, and the copies they point into. */
struct cmp_ignore {
	const char *keys[CMP_MAX_IGNORE];
	size_t n;
	char *bufs[CMP_MAX_IGNORE];
	size_t nbufs;
};

/*
 * Add the names of a comma list to ig.  Returns 0, 2 (an empty name or
 * too many; usage printed naming cmd) or 1 (out of memory).
 */
int cmp_ignore_add(const char *cmd, struct cmp_ignore *ig, const char *list);
void cmp_ignore_free(struct cmp_ignore *ig);

/*
 * Every name of ig must be a parameter of some result of side a or b
 * (else it ignores nothing: most likely a typo).  Returns 0, or prints
 * the usage error naming it (with the closest name) and returns 2.
 */
int cmp_ignore_check(const char *cmd, const struct cmp_ignore *ig,
		     const struct cmp_side *a, const struct cmp_side *b);

/* The -o FILE of export and report (cli/outfile.c). */
struct cli_out {
	FILE *f;			/* stdout, the temporary file, or the
					   file written through */
	char *path, *tmp;		/* NULL for stdout; tmp NULL when
					   written through */
	bool direct;			/* not a regular file: written
					   through, not replaced */
};

/*
 * Open path ("-" or NULL: stdout) for cmd's output: a temporary file
 * beside the regular file it names (through a symbolic link: beside the
 * file the link names), or the file itself when it is not a regular one
 * (a device, a FIFO).  db is the database the command read (a path, a
 * URL or NULL): an output that is that file or its -wal or -shm is
 * refused.  Returns 0, or the exit code after printing why (2: the file
 * cannot be written there, or is the database).
 */
int cli_out_open(const char *cmd, const char *path, const char *db,
		 struct cli_out *o);

/*
 * Finish the output: when ok, flush and sync it and rename the temporary
 * file to its name; else (or when that fails) remove it.  Returns 0, or
 * 1 (printed why) when the output failed or ok was false.
 */
int cli_out_close(struct cli_out *o, bool ok);

/*
 * The runs the arguments args[0..n-1] name (each a run id, a tag, 'last'
 * or a comma list), loaded whole into side, each run once.  Returns 0, 2
 * (an item names no run; printed naming cmd) or 1 (store error).
 */
int cli_load_runs(struct store *st, const char *cmd, char **args, size_t n,
		  struct cmp_side *side);

/* A CLOCK_REALTIME ns stamp as "YYYY-MM-DD HH:MM:SS" UTC ("-" if 0). */
void cli_format_time(int64_t ns, char *buf, size_t len);

#endif
