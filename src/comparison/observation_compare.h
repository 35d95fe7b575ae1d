/*
 * observation_compare.h - observations of live hosts side by side
 * (`compare OBS1 OBS2`, observation_compare.c): one column per
 * observation, as the pipe thread held Grace-A, Grace-B and Bergamo
 * together: the pipe writes' size classes, the lock table's callers and
 * the mutex-wait histogram of the pipe's callers, with the change from
 * the first column where there are two.
 *
 * Each column is one observation: what was seen, counted once.  The
 * writes and waits within it are not independent samples (they come in
 * bursts from a few threads), so no confidence interval is given for a
 * change; the printers say so.
 */
#ifndef COPYSCOPE_OBSERVATION_COMPARE_H
#define COPYSCOPE_OBSERVATION_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "comparison/comparison.h"
#include "results/observation.h"

/* At most this many callers in the lock table (by total wait). */
#define OBS_CMP_MAX_CALLERS 12

/* One column: an observation and how to name it. */
struct obs_col {
	const struct run_data *run;	/* not owned */
	struct observation o;		/* decoded (owned) */
};

/* One caller of the lock table: its wait in each column. */
struct obs_cmp_caller {
	char caller[128];
	char type[24];
	uint64_t *count;		/* [ncols] */
	uint64_t *wait_ns;		/* [ncols] */
};

/*
 * The pipe mutex waits of one pipe function (the caller without its
 * offset, which differs between kernels: "anon_pipe_read"), summed over
 * its call sites that match the caller pattern, in each column.
 */
struct obs_cmp_side {
	char func[128];
	uint64_t *count;		/* [ncols] */
	uint64_t *log2;			/* [ncols * OBSERVATION_NLOG2] */
};

struct obs_cmp {
	struct obs_col *cols;
	size_t ncols;
	const char *caller_pattern;	/* NULL: every caller */
	/* the union of the columns' callers that match caller_pattern,
	   most total wait (over the columns) first */
	struct obs_cmp_caller *callers;
	size_t ncallers;
	size_t callers_left_out;	/* matched, beyond the table */
	/* the pipe mutex waits per pipe function (the read and write
	   sides apart), most waits first; none when a column's record
	   has no histogram per caller (stored before them) */
	struct obs_cmp_side *sides;
	size_t nsides;
	bool sides_missing;		/* some column has no per-caller
					   histograms */
};

/* Whether every run of both sides is an observation (and there is one). */
bool obs_cmp_all_observations(const struct cmp_side *base,
			      const struct cmp_side *new);

/* Whether some run of either side is an observation. */
bool obs_cmp_any_observation(const struct cmp_side *base,
			     const struct cmp_side *new);

/*
 * The runs of base, then of new, one column each; caller_pattern (a
 * glob, fnmatch(3); NULL: all) keeps only the lock callers it matches.
 * Returns 0, or -1 with the reason in err (an observation that does not
 * decode, ENOMEM).  Free with obs_cmp_free() either way.
 */
int obs_cmp_build(struct obs_cmp *c, const struct cmp_side *base,
		  const struct cmp_side *new, const char *caller_pattern,
		  char *err, size_t errlen);

void obs_cmp_free(struct obs_cmp *c);

/* 100 * part / whole, 0 when whole is 0. */
double obs_cmp_share_pct(uint64_t part, uint64_t whole);

#endif
