/*
 * run_group_session.h - `run --runs N` (run_group_session.c): N runs of
 * the same request, each in a fresh process, sharing a group id; and the
 * group's runs read back from the store.  Nothing is printed here but
 * progress and errors on stderr: report/run_brief.h and report/run_print.h
 * print the group.
 */
#ifndef COPYSCOPE_SESSION_RUN_GROUP_SESSION_H
#define COPYSCOPE_SESSION_RUN_GROUP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/run.h"
#include "store/store.h"

/* The most runs of a group read back. */
#define RUN_GROUP_MAX 1024

/* What the children run. */
struct run_group_spec {
	int runs;			/* N >= 2 */
	/*
	 * The child's command line less its group options: "copyscope",
	 * "run" and run's arguments without --runs and --seed, NULL-ended
	 * (argv[argc] == NULL).
	 */
	char **argv;
	int argc;
	bool quiet;			/* the children's stdout dropped */
	bool announce;			/* "run k of N" on stderr */
	bool seed_set;			/* --seed S: run k takes S + k */
	uint64_t seed;
};

/*
 * Make a group id (32 hex digits) into group and re-execute this binary
 * N times with spec's argv plus --group ID (and --seed S + k, before any
 * '--'), one after the other, stopping at the first child that does not
 * end well.  Returns its exit status (130 on a signal), else 0; 1 when no
 * child could be started (the reason on stderr; group is then "" when
 * nothing is to be read back).
 */
int run_group_run(const struct run_group_spec *spec, char *group,
		  size_t grouplen);

/* The runs of one group in the store. */
struct run_group_runs {
	int64_t ids[RUN_GROUP_MAX];	/* oldest first */
	size_t nids;
	struct run_data *runs;		/* the first nruns of ids, whole */
	size_t nruns;
};

/*
 * Find the runs of group in st and load them whole into out.  Returns 0;
 * -1 when they cannot be listed (nothing in out); 1 when a run cannot be
 * loaded (out holds every id and the runs before it).  The reason is in
 * err.  Free out with run_group_free() in any case.
 */
int run_group_load(struct store *st, const char *group,
		   struct run_group_runs *out, char *err, size_t errlen);
void run_group_free(struct run_group_runs *r);

#endif
