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
#include "results/exchange.h"
#include "util/array.h"

/*
 * Runs added per transaction: the commit is most of what adding a run
 * costs; a batch that fails is rolled back whole.
 */
#define IMPORT_BATCH 200

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
	size_t n = 0, i, added = 0, there = 0;
	int64_t first = 0, last = 0;
	int *status = NULL;
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
	status = calloc(n ? n : 1, sizeof(*status));
	if (!status) {
		cli_error("out of memory");
		e = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < n; i += IMPORT_BATCH) {
		size_t m = n - i < IMPORT_BATCH ? n - i : IMPORT_BATCH, k;

		if (cli_stop_signal()) {
			e = import_stopped(added, there, n);
			goto out;
		}
		rc = store_add_runs(st, runs + i, m, status + i, err,
				    sizeof(err));
		for (k = i; k < i + m; k++) {
			const struct run_info *ri = &runs[k].info;

			if (status[k] == -1)
				cli_error("run %s: %s; %zu of %zu runs "
					  "imported before it (importing the "
					  "file again adds the rest)",
					  ri->uuid, err, added, n);
			if (status[k] < 0)
				continue;
			if (status[k] == 0 && (!first || ri->id < first))
				first = ri->id;
			if (status[k] == 0 && ri->id > last)
				last = ri->id;
			added += status[k] == 0;
			there += status[k] == 1;
			if (ic.verbose && status[k] == 1)
				printf("run %lld already there (%s)\n",
				       (long long)ri->id, ri->uuid);
			else if (ic.verbose)
				printf("imported as run %lld (%s, %zu "
				       "results)\n", (long long)ri->id,
				       ri->uuid, runs[k].results.n);
		}
		if (rc < 0) {
			e = EXIT_FAIL;
			goto out;
		}
	}
	cli_clean_text(dbpath, err, sizeof(err));
	printf("imported %zu run%s", added, added == 1 ? "" : "s");
	if (added)
		printf(" (ids %lld-%lld)", (long long)first, (long long)last);
	printf(" from %s into %s; %zu already there\n", name, err, there);
	e = EXIT_OK;
out:
	if (st)
		store_close(st);
	exchange_free(runs, n);
	free(status);
	return e;
}
