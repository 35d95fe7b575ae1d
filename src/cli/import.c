/*
 * import.c - `copyscope import FILE`: the runs of an export file (from
 * `copyscope export`) into the store.  The whole file is read and checked
 * first (results/exchange.c), so a malformed or truncated file stores
 * nothing; then each run is added whole in one transaction, and a run
 * that is already there (the same unique id) is left as it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "report/import_print.h"
#include "results/exchange.h"
#include "session/import_session.h"
#include "util/array.h"

struct import_cli {
	const char *db;
	bool verbose;
};

#define OPT_BASE struct import_cli
static const struct opt_row import_rows[] = {
	OPT_ROW_FLAG("-v", "a line per run: its id here, its "
	  "unique id and results, or that it was there already",
	  verbose),
	OPT_ROW_DB(db, "database (default $COPYSCOPE_DB, "
		   "else $XDG_DATA_HOME/copyscope/results.db); created if "
		   "needed"),
};
#undef OPT_BASE

static void import_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd import_cmd = {
	.name = "import", .rows = import_rows,
	.nrows = ARRAY_SIZE(import_rows), .help_col = 13,
	.max_pos = 1, .pos = OPT_C_FILE, .usage = import_usage,
	.synopsis = OPT_SYNOPSIS("FILE [-v] [--db]"),
};

const struct opt_cmd *cli_import_options(void)
{
	return &import_cmd;
}

static void import_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"Adds the runs of FILE, written by 'copyscope export' (schema up to %d),\n"
"to the database; '-' reads standard input.  The whole file is checked\n"
"before anything is stored: a malformed or truncated file, or one over\n"
"the limits of docs/export-format.md, is refused (exit 2) with its line\n"
"number.  Runs keep their unique id, so a run that is already in the\n"
"database is not added again: importing a file twice adds nothing the\n"
"second time.  It prints one line: how many runs were imported (their\n"
"ids here) and how many were there already; -v adds a line per run.\n",
		EXCHANGE_SCHEMA_VERSION);
	opt_print_options(out, c);
}

/* Stopped by a signal after added + there of n runs: say so; 130. */
static int import_stopped(size_t added, size_t there, size_t n)
{
	return cli_stopped("%zu of %zu runs stored (%zu imported, %zu "
			   "already there); the rest not imported: import "
			   "the file again to add them (a run already there "
			   "is not added twice)", added + there, n, added,
			   there);
}

int cmd_import(int argc, char **argv)
{
	struct import_cli ic = { 0 };
	struct opt_result res;
	const char *file;
	struct run_data *runs = NULL;
	struct store *st = NULL;
	char dbpath[4096], err[1024], name[4096 * 4 + 1];
	struct import_outcome io = { 0 };
	size_t n = 0, i;
	FILE *in;
	int e, rc;

	e = opt_parse(&import_cmd, argc, argv, &ic, &res);
	if (e)
		return e < 0 ? EXIT_OK : e;
	file = res.npos ? res.pos[0] : NULL;
	opt_result_free(&res);
	if (!file)
		return cli_usage("import", "which file? (written by "
				 "'copyscope export'; '-' for stdin)");
	cli_catch_stop();
	cli_clean_text(strcmp(file, "-") == 0 ? "stdin" : file, name,
		       sizeof(name));
	in = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
	if (!in)
		return cli_usage("import", "FILE: cannot open '%s': %s", name,
				 strerror(errno));
	rc = exchange_read(in, name, &runs, &n, err, sizeof(err));
	if (in != stdin)
		fclose(in);
	if (rc == -2) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	for (i = 0; rc == 0 && i < n; i++) {
		/* the rule of --tag; "" is a run without a tag */
		e = runs[i].info.tag[0] ?
		    cli_tag_problem(runs[i].info.tag, err, sizeof(err)) : 0;
		if (e) {
			char why[600];

			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, sizeof(err), "%s: run %s: 'tag': %s",
				 name, runs[i].info.uuid, why);
			rc = e < 0 ? -2 : -1;
			exchange_free(runs, n);
			runs = NULL;
			n = 0;
		}
	}
	if (rc == -2) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	if (rc != 0) {
		cli_error("%s; nothing was imported", err);
		return EXIT_USAGE;
	}
	e = cli_open_store(ic.db, &st, dbpath, sizeof(dbpath));
	if (e)
		goto out;
	rc = session_import(st, runs, n, &io, err, sizeof(err));
	report_import_runs(stdout, runs, n, io.status, ic.verbose, err);
	if (io.stopped) {
		e = import_stopped(io.added, io.there, n);
	} else if (rc < 0) {
		if (!io.failed)
			cli_error("%s", err);
		e = EXIT_FAIL;
	} else {
		cli_clean_text(dbpath, err, sizeof(err));
		report_import_summary(stdout, io.added, io.first_id,
				      io.last_id, io.there, name, err);
		e = EXIT_OK;
	}
out:
	if (st)
		store_close(st);
	exchange_free(runs, n);
	import_outcome_free(&io);
	return e;
}
