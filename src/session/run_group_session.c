/*
 * run_group_session.c - `copyscope run --runs N` (see
 * run_group_session.h): N runs of the same request, each in a fresh
 * process (new buffers, placement, batch sizing and warm-up: what differs
 * between runs is what a comparison must see), stored as N runs that
 * share a group id.
 *
 * The parent re-executes its own binary N times with the same arguments
 * less --runs, plus --group ID (and, with --interleave --seed S, the seed
 * S + k for run k, so the runs do not share one order).  The first child
 * that does not end well stops the group with its exit status (a run
 * that withheld a headline, exit 4, does not: the group exits 4).  The
 * parent then reads the runs back from the store, for the caller to print
 * (the table of their medians' spread, or one JSON document of the N
 * runs).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session/run_group_session.h"
#include "util/msg.h"
#include "util/random_id.h"

/* Exit statuses (as cli/cli.h names them). */
#define GROUP_FAIL 1
#define GROUP_WITHHELD 4	/* a run withheld a headline: the group goes
				   on, and ends with it */
#define GROUP_INTERRUPTED 130

/*
 * spec's argv plus --group ID [--seed S], before any '--' (which ends
 * run's options), NULL-ended; free() it.
 */
static char **child_argv(const struct run_group_spec *spec, char *group,
			 char *seed)
{
	char **v = calloc((size_t)spec->argc + 8, sizeof(*v));
	char **rest;
	int n = spec->argc, k, dash;

	if (!v)
		return NULL;
	memcpy(v, spec->argv, (size_t)n * sizeof(*v));
	for (dash = 2; dash < n && strcmp(v[dash], "--") != 0; dash++)
		;
	rest = v + dash;
	k = seed ? 4 : 2;
	memmove(rest + k, rest, (size_t)(n - dash + 1) * sizeof(*v));
	rest[0] = "--group";
	rest[1] = group;
	if (seed) {
		rest[2] = "--seed";
		rest[3] = seed;
	}
	return v;
}

/* Run one child to its end; its exit status (130 on a signal). */
static int run_child(char **argv, bool quiet)
{
	int st;
	pid_t p;

	fflush(NULL);
	p = fork();
	if (p < 0) {
		msg_error("run --runs: fork: %s", strerror(errno));
		return GROUP_FAIL;
	}
	if (p == 0) {
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
				_exit(GROUP_FAIL);
			close(fd);
		}
		execv("/proc/self/exe", argv);
		fprintf(stderr, "copyscope: run --runs: exec /proc/self/exe: "
			"%s\n", strerror(errno));
		_exit(GROUP_FAIL);
	}
	while (waitpid(p, &st, 0) < 0)
		if (errno != EINTR) {
			msg_error("run --runs: waitpid: %s", strerror(errno));
			return GROUP_FAIL;
		}
	return WIFEXITED(st) ? WEXITSTATUS(st) : GROUP_INTERRUPTED;
}

int run_group_run(const struct run_group_spec *spec, char *group,
		  size_t grouplen)
{
	char seedbuf[32];
	int k, e = 0;
	bool withheld = false;

	if (util_random_id(group, grouplen) != 0) {
		group[0] = '\0';
		msg_error("run --runs: getrandom: %s", strerror(errno));
		return GROUP_FAIL;
	}
	for (k = 0; k < spec->runs && e == 0; k++) {
		char **cv;

		snprintf(seedbuf, sizeof(seedbuf), "%" PRIu64,
			 spec->seed + (uint64_t)k);
		cv = child_argv(spec, group, spec->seed_set ? seedbuf : NULL);
		if (!cv) {
			group[0] = '\0';
			msg_error("out of memory");
			return GROUP_FAIL;
		}
		if (spec->announce)
			fprintf(stderr, "copyscope run --runs %d: run %d of %d "
				"(group %.8s)\n", spec->runs, k + 1,
				spec->runs, group);
		e = run_child(cv, spec->quiet);
		free(cv);
		if (e == GROUP_WITHHELD) {
			withheld = true;
			e = 0;
		}
	}
	return e == 0 && withheld ? GROUP_WITHHELD : e;
}

int run_group_load(struct store *st, const char *group,
		   struct run_group_runs *out, char *err, size_t errlen)
{
	struct run_info *runs = NULL;
	size_t n = 0, i;

	memset(out, 0, sizeof(*out));
	if (store_list_runs(st, &runs, &n, err, errlen) != 0)
		return -1;
	for (i = 0; i < n && out->nids < RUN_GROUP_MAX; i++)
		if (strcmp(runs[i].group_id, group) == 0)
			out->ids[out->nids++] = runs[i].id;
	store_free_runs(runs, n);
	out->runs = calloc(out->nids + 1, sizeof(*out->runs));
	if (!out->runs) {
		snprintf(err, errlen, "out of memory");
		return 1;
	}
	for (i = 0; i < out->nids; i++, out->nruns++)
		if (store_load_run(st, out->ids[i], &out->runs[i], err,
				   errlen) != 0)
			return 1;
	return 0;
}

void run_group_free(struct run_group_runs *r)
{
	size_t i;

	for (i = 0; i < r->nruns; i++)
		run_data_free(&r->runs[i]);
	free(r->runs);
	r->runs = NULL;
	r->nruns = 0;
}
