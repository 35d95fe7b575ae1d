/*
 * export.c - `copyscope export RUN|TAG|LIST ... [-o FILE]`: whole stored
 * runs (environment, options, results, samples, histograms) as the JSON
 * lines of results/exchange.c, for `copyscope import` elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/comparison_print.h"
#include "cli/options.h"
#include "results/exchange.h"
#include "util/array.h"

struct export_cli {
	const char *db, *path;
};

static const struct opt_row export_rows[] = {
	{ OPT_R("-o", OPT_STR, "FILE"), "write FILE (complete or not at all); "
	  "default stdout", offsetof(struct export_cli, path),
	  .complete = OPT_C_FILE },
	OPT_ROW_DB(struct export_cli, db, "database (default $COPYSCOPE_DB, "
		   "else $XDG_DATA_HOME/copyscope/results.db)"),
};

static void export_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd export_cmd = {
	.name = "export", .rows = export_rows,
	.nrows = ARRAY_SIZE(export_rows), .help_col = 13,
	.max_pos = 256, .pos = OPT_C_RUNS, .usage = export_usage,
};

static void export_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"usage: copyscope export RUN|TAG|LIST ... [-o FILE] [--db PATH]\n"
"\n"
"Writes whole runs (run header with its unique id, options, environment,\n"
"results with their samples and histograms) as JSON lines, schema %d\n"
"(docs/export-format.md), for 'copyscope import' on another machine.\n"
"Each argument is a run id, a tag, 'last' or a comma list of them.  Runs\n"
"still being measured are left out.\n", EXCHANGE_SCHEMA_VERSION);
	opt_print_options(out, c);
	fprintf(out,
"\nexamples:\n"
"  copyscope export baseline -o baseline.jsonl\n"
"  copyscope export 3,4,5 | ssh lab copyscope import -\n");
}

int cmd_export(int argc, char **argv)
{
	struct export_cli xc = { 0 };
	struct opt_result res;
	const char *db, *path;
	struct cmp_side side;
	struct run_data *keep = NULL;
	struct cli_out o;
	struct store *st;
	char dbpath[4096], err[512], *args[256];
	size_t nargs = 0, nkeep = 0, i, nres = 0;
	int e;

	memset(&side, 0, sizeof(side));
	e = opt_parse(&export_cmd, argc, argv, &xc, &res);
	if (e)
		return e < 0 ? EXIT_OK : e;
	nargs = (size_t)res.npos;
	memcpy(args, res.pos, nargs * sizeof(*args));
	opt_result_free(&res);
	db = xc.db;
	path = xc.path;
	if (!nargs)
		return cli_usage("export", "which runs? (run ids, tags, "
				 "'last' or comma lists; 'copyscope runs' "
				 "lists them)");
	e = cli_open_existing_store(db, &st, dbpath, sizeof(dbpath), NULL);
	if (e)
		return e;
	e = cli_load_runs(st, "export", args, nargs, &side);
	store_close(st);
	if (e)
		return e;
	keep = calloc(side.nruns ? side.nruns : 1, sizeof(*keep));
	if (!keep) {
		cli_error("out of memory");
		cli_free_side(&side);
		return EXIT_FAIL;
	}
	for (i = 0; i < side.nruns; i++) {
		if (strcmp(side.runs[i].info.status, "running") == 0) {
			cli_error("run %lld is still running: left out "
				  "(export it when it has finished)",
				  (long long)side.runs[i].info.id);
			continue;
		}
		/* shallow copies: side owns them */
		keep[nkeep++] = side.runs[i];
		nres += side.runs[i].results.n;
	}
	if (!nkeep) {
		cli_error("nothing to export: every run named is still "
			  "running");
		e = EXIT_FAIL;
		goto out;
	}
	e = cli_out_open("export", path, dbpath, &o);
	if (e)
		goto out;
	if (exchange_write(o.f, keep, nkeep, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		cli_out_close(&o, false);
		e = EXIT_FAIL;
		goto out;
	}
	e = cli_out_close(&o, true);
	if (!e && path && strcmp(path, "-") != 0) {
		char clean[4096 * 4 + 1];

		cli_clean_text(path, clean, sizeof(clean));
		printf("exported %zu run%s (%zu results) to %s\n", nkeep,
		       nkeep == 1 ? "" : "s", nres, clean);
	}
out:
	free(keep);
	cli_free_side(&side);
	return e;
}
