/*
 * compare.h - the comparison of two sides of stored runs, shared by
 * `copyscope compare` and `copyscope check` (cli/compare.c, cli/check.c).
 *
 * A side is a run id, a tag (every run with that tag), 'last', or a comma
 * list of them.  Results are grouped by (workload, parameters, metric,
 * unit); the samples of all runs of a side are pooled.  Each row present
 * on both sides gets the medians and %stddev, the %change of medians, the
 * Mann-Whitney U p-value, the 95% bootstrap CI of the change and a verdict
 * (stats/compare.h); rows present on one side only are kept apart.
 * Parameters named in cmp_opts.ignore are left out of the matching, so
 * that e.g. io=write on one side meets io=vmsplice on the other.
 */
#ifndef COPYSCOPE_CLI_COMPARE_H
#define COPYSCOPE_CLI_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "env/env.h"
#include "stats/compare.h"
#include "stats/modes.h"
#include "stats/summary.h"
#include "store/store.h"

/* One stored run, loaded. */
struct cmp_run {
	struct store_run run;
	struct env env;
	struct store_result *res;
	size_t nres;
	char **match;			/* per result: parameters JSON less
					   the ignored ones (cmp_build) */
};

struct cmp_side {
	struct cmp_run *runs;
	size_t nruns;
	size_t nboots;
};

/* Per boot: the median of its runs' medians. */
struct cmp_boot {
	char boot_id[64];
	size_t nruns;
	double median;
};

/* One side of one row. */
struct cmp_val {
	double *x;			/* pooled samples (owned) */
	size_t n;
	size_t flagged;			/* flagged samples among them */
	size_t dropped;			/* flagged samples left out */
	struct summary s;
	struct modes md;
	struct cmp_boot *boots;		/* owned */
	size_t nboots;
	/* per run with samples: its median and its samples in x (owned) */
	double *run_med;
	size_t *run_start, *run_len;
	size_t nruns;
	bool boots_disagree;		/* boot medians spread more than
					   the runs within a boot */
};

struct cmp_row {
	const struct store_result *ref;	/* workload, params, metric, unit */
	const struct store_result *ref_new;	/* the same on the new side */
	const char *match;		/* ref's parameters less ignored */
	int direction;
	bool in_base, in_new;
	struct cmp_val b, n;
	double change_pct;		/* 100 * (new / base - 1) of medians */
	double ci_lo, ci_hi;		/* its 95% bootstrap CI */
	struct mw_result mw;
	bool by_run;			/* p and CI over runs, not samples */
	enum verdict verdict;
};

/*
 * With at least this many runs on each side, the p-value and the CI treat
 * the run as the unit that repeats (Mann-Whitney over run medians, a
 * two-level bootstrap); with fewer, the samples (which cannot see how
 * much runs of one configuration differ from each other).
 */
#define CMP_MIN_RUNS 3

struct cmp_envdiff {
	char key[96];
	char *base, *new;		/* values, " | " between runs */
};

struct cmp_opts {
	double alpha;			/* significance level, e.g. 0.05 */
	double noise_pct;		/* CI must lie beyond +-this, e.g. 1 */
	bool drop_noisy;		/* leave flagged samples out */
	const char *const *workloads;	/* only these (NULL: all) */
	size_t nworkloads;
	/* parameters left out of the matching (e.g. the one under test) */
	const char *const *ignore;
	size_t nignore;
};

struct cmp {
	struct cmp_side base, new;
	char base_spec[256], new_spec[256];
	const char *title;		/* first line (NULL: "copyscope
					   compare") */
	struct cmp_row *rows;		/* both sides first, in base order */
	size_t nrows;
	struct cmp_envdiff *envd;
	size_t nenvd;
	bool flavour_differs;
	struct cmp_opts opts;
};

/*
 * Resolve spec (ids, tags, 'last', comma-separated) and load those runs.
 * Returns 0; 2 (EXIT_USAGE) when an item names no run (message printed,
 * naming `cmd`); 1 on a store error (printed).
 */
int cmp_load_side(struct store *st, const char *cmd, const char *spec,
		  struct cmp_side *side);

/*
 * Build the comparison of c->base and c->new (both loaded) with opts.
 * Returns 0, or -1 on allocation failure.
 */
int cmp_build(struct cmp *c, const struct cmp_opts *opts);

/*
 * Print the comparison as text (80 columns): header, environment
 * differences, the rows (only those for which keep() is true when keep is
 * given; then rows on one side only are left out), and the one-side rows.
 */
void cmp_print_text(FILE *out, const struct cmp *c,
		    bool (*keep)(const struct cmp_row *row, void *arg),
		    void *arg);

/* The comparison as JSON (schema_version 1).  Returns 0 or -1. */
int cmp_print_json(FILE *out, const struct cmp *c);

/* The comparison as CSV, one line per row, with a header line. */
void cmp_print_csv(FILE *out, const struct cmp *c);

#define CMP_MAX_IGNORE 32

/* --ignore-param values: the names, and the copies they point into. */
struct cmp_ignore {
	const char *keys[CMP_MAX_IGNORE];
	size_t n;
	char *bufs[CMP_MAX_IGNORE];
	size_t nbufs;
};

/*
 * Add the names of a comma list to ig.  Returns 0, 2 (too many; usage
 * printed naming cmd) or 1 (out of memory).
 */
int cmp_ignore_add(const char *cmd, struct cmp_ignore *ig, const char *list);
void cmp_ignore_free(struct cmp_ignore *ig);

/* "5%" or "5" into 5.0 (0 .. 1000); 0 or -1. */
int cmp_parse_pct(const char *v, double *out);

void cmp_free(struct cmp *c);
void cmp_side_free(struct cmp_side *side);

#endif
