/*
 * run_group.c - `copyscope run --runs N`: N runs of the same request, each
 * in a fresh process (new buffers, placement, batch sizing and warm-up:
 * what differs between runs is what a comparison must see), stored as N
 * runs that share a group id.
 *
 * The parent re-executes its own binary N times with the same arguments
 * less --runs, plus --group ID (and, with --interleave --seed S, the seed
 * S + k for run k, so the runs do not share one order).  The parent reads
 * the runs back from the store and prints one table of their medians'
 * spread (with -v, after each child's own output; without, the children's
 * stdout is dropped); with --json one document holding the N runs.  The first
 * child that does not end well stops the group with its exit status.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run_group.h"
#include "cli/run_brief.h"
#include "report/report.h"
#include "util/array.h"
#include "util/random_id.h"

/*
 * argv less --runs and --seed (with their values, as run reads them),
 * plus --group ID [--seed S], before any '--' (which ends run's options).
 */
static char **child_argv(int argc, char **argv, const struct opt_cmd *cmd,
			 const char *group, const char *seed,
			 char *const extra[2])
{
	static const char *const drop[] = { "--runs", "--seed", NULL };
	char **v = calloc((size_t)argc + 8, sizeof(*v));
	char **rest;
	int n, k, dash;

	if (!v)
		return NULL;
	v[0] = "copyscope";
	n = 1 + opt_strip(cmd, argc, argv, drop, v + 1);
	for (dash = 2; dash < n && strcmp(v[dash], "--") != 0; dash++)
		;
	rest = v + dash;
	k = seed ? 4 : 2;
	memmove(rest + k, rest, (size_t)(n - dash + 1) * sizeof(*v));
	rest[0] = "--group";
	rest[1] = (char *)group;
	if (seed) {
		rest[2] = extra[0];
		rest[3] = extra[1];
	}
	return v;
}

/* Run one child to its end; its exit status (130 on a signal). */
static int run_child(char **argv, bool quiet)
{
	int st, rc;
	pid_t p;

	fflush(NULL);
	p = fork();
	if (p < 0) {
		cli_error("run --runs: fork: %s", strerror(errno));
		return EXIT_FAIL;
	}
	if (p == 0) {
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
				_exit(EXIT_FAIL);
			close(fd);
		}
		execv("/proc/self/exe", argv);
		fprintf(stderr, "copyscope: run --runs: exec /proc/self/exe: "
			"%s\n", strerror(errno));
		_exit(EXIT_FAIL);
	}
	while (waitpid(p, &st, 0) < 0)
		if (errno != EINTR) {
			cli_error("run --runs: waitpid: %s", strerror(errno));
			return EXIT_FAIL;
		}
	rc = WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_INTERRUPTED;
	return rc;
}

/* The runs of group in the store, oldest first; their count or -1. */
static int group_runs(const char *db, const char *group, int64_t *ids,
		      size_t max, char *path, size_t pathlen)
{
	struct run_info *runs = NULL;
	struct store *st;
	char err[512];
	size_t n = 0, i, k = 0;

	if (cli_open_existing_store(db, &st, path, pathlen, NULL) != 0)
		return -1;
	if (store_list_runs(st, &runs, &n, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		store_close(st);
		return -1;
	}
	for (i = 0; i < n && k < max; i++)
		if (strcmp(runs[i].group_id, group) == 0)
			ids[k++] = runs[i].id;
	store_free_runs(runs, n);
	store_close(st);
	return (int)k;
}

/* The table of the group's runs ids[0..n-1], read back from the store. */
static int print_group_table(const char *db, const int64_t *ids, int n)
{
	struct run_data *runs = calloc((size_t)n + 1, sizeof(*runs));
	struct store *st;
	char path[4096], err[512];
	int i, nl = 0, e = EXIT_OK;

	if (!runs) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	if (cli_open_existing_store(db, &st, path, sizeof(path), NULL) != 0) {
		free(runs);
		return EXIT_FAIL;
	}
	for (i = 0; i < n; i++, nl++)
		if (store_load_run(st, ids[i], &runs[i], err,
				   sizeof(err)) != 0) {
			cli_error("%s", err);
			e = EXIT_FAIL;
			break;
		}
	store_close(st);
	if (e == EXIT_OK)
		run_brief_group(stdout, runs, (size_t)nl);
	for (i = 0; i < nl; i++)
		run_data_free(&runs[i]);
	free(runs);
	return e;
}

/* --json: one document with every run of the group. */
static int print_group_json(const char *db, const char *group,
			    const int64_t *ids, int n)
{
	struct store *st;
	char path[4096], err[512];
	int i, e = EXIT_OK;

	if (cli_open_existing_store(db, &st, path, sizeof(path), NULL) != 0)
		return EXIT_FAIL;
	printf("{\n\"schema_version\": %d,\n\"group\": \"%s\",\n\"runs\": [\n",
	       REPORT_JSON_SCHEMA_VERSION, group);
	for (i = 0; i < n && e == EXIT_OK; i++) {
		struct run_data run;

		if (store_load_run(st, ids[i], &run, err, sizeof(err)) != 0) {
			cli_error("%s", err);
			e = EXIT_FAIL;
			break;
		}
		if (i)
			printf(",\n");
		if (report_json(stdout, &run.info, &run.env, run.results.v,
				run.results.n) != 0)
			e = EXIT_FAIL;
		run_data_free(&run);
	}
	printf("]\n}\n");
	store_close(st);
	return e;
}

int run_group(int argc, char **argv, const struct run_group_opts *o)
{
	char group[40], seedbuf[32], *extra[2] = { "--seed", seedbuf };
	char path[4096];
	int64_t ids[1024];
	int k, e = EXIT_OK, n;

	if (util_random_id(group, sizeof(group)) != 0) {
		cli_error("run --runs: getrandom: %s", strerror(errno));
		return EXIT_FAIL;
	}
	for (k = 0; k < o->runs && e == EXIT_OK; k++) {
		char **cv;

		snprintf(seedbuf, sizeof(seedbuf), "%" PRIu64,
			 o->seed + (uint64_t)k);
		cv = child_argv(argc, argv, o->cmd, group,
				o->seed_set ? seedbuf : NULL, extra);
		if (!cv) {
			cli_error("out of memory");
			return EXIT_FAIL;
		}
		if (!o->json)
			fprintf(stderr, "copyscope run --runs %d: run %d of %d "
				"(group %.8s)\n", o->runs, k + 1, o->runs,
				group);
		e = run_child(cv, o->json || !o->verbose);
		free(cv);
	}
	n = group_runs(o->db, group, ids, ARRAY_SIZE(ids), path,
		       sizeof(path));
	if (n < 0)
		return e == EXIT_OK ? EXIT_FAIL : e;
	if (o->json) {
		int je = print_group_json(o->db, group, ids, n);

		return e == EXIT_OK ? je : e;
	}
	if (n > 0 && print_group_table(o->db, ids, n) != EXIT_OK &&
	    e == EXIT_OK)
		e = EXIT_FAIL;
	printf("\n%d of %d runs stored as group %s:", n, o->runs, group);
	for (k = 0; k < n; k++)
		printf("%s %lld", k ? "," : "", (long long)ids[k]);
	printf("\ncompare them as one side: copyscope compare ");
	if (o->tag)
		printf("%s", o->tag);
	for (k = 0; !o->tag && k < n; k++)
		printf("%s%lld", k ? "," : "", (long long)ids[k]);
	printf(" OTHER\n");
	return e;
}
