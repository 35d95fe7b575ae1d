/*
 * run_group.c - `copyscope run --runs N`: the group's runs, each in a
 * fresh process (session/run_group_session.c), read back from the store
 * and printed as one table of their medians' spread (report/run_brief.h)
 * or one JSON document (report/run_print.h), with how they were stored.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/run_group.h"
#include "report/run_brief.h"
#include "report/run_print.h"
#include "session/run_group_session.h"

int run_group(int argc, char **argv, const struct run_group_opts *rc)
{
	static const char *const drop[] = { "--runs", "--seed", NULL };
	struct run_group_spec gs = {
		.runs = rc->runs, .quiet = rc->json || !rc->verbose,
		.announce = !rc->json, .seed_set = rc->seed_set,
		.seed = rc->seed,
	};
	struct run_group_runs *g = calloc(1, sizeof(*g));
	char group[40] = "", path[4096], err[512];
	struct store *st;
	int e, le;

	gs.argv = calloc((size_t)argc + 2, sizeof(*gs.argv));
	if (!g || !gs.argv) {
		free(g);
		free(gs.argv);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	gs.argv[0] = "copyscope";
	gs.argc = 1 + opt_strip(rc->cmd, argc, argv, drop, gs.argv + 1);
	e = run_group_run(&gs, group, sizeof(group));
	free(gs.argv);
	if (e == EXIT_FAIL && !group[0])
		goto out;
	if (cli_open_existing_store(rc->db, &st, path, sizeof(path),
				    NULL) != 0) {
		e = e == EXIT_OK ? EXIT_FAIL : e;
		goto out;
	}
	le = run_group_load(st, group, g, err, sizeof(err));
	store_close(st);
	if (le)
		cli_error("%s", err);
	if (le < 0) {
		e = e == EXIT_OK ? EXIT_FAIL : e;
	} else if (rc->json) {
		int je = run_print_group_json(stdout, group, g->runs,
					      g->nruns);

		e = e != EXIT_OK ? e : le ? EXIT_FAIL : je;
	} else {
		if (!le && g->nids)
			run_brief_group(stdout, g->runs, g->nruns);
		if (le && e == EXIT_OK)
			e = EXIT_FAIL;
		run_print_group_end(stdout, rc->runs, group, g->ids, g->nids,
				    rc->tag);
	}
out:
	run_group_free(g);
	free(g);
	return e;
}

