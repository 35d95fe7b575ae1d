/*
 * profile_diff.h - the kernel profile (run --kernel profile) diffed
 * between two configurations, function by function, in ns per op of
 * self time (the samples whose leaf the function is).
 *
 * Each traced sample gives every function a value: its share of that
 * sample's profile samples x the op's measured time of the kept sample
 * the traced one follows (results/kernel_records.h, kv_prof_sample).
 * The shares of one sample add up to 1, so the functions' values add up
 * to the op's time, and since means add, the functions' mean changes
 * add up to the op's mean change: "explains +X of +Y ns" is arithmetic.
 *
 * Paired (ab): A, B and the control A' of one round each had their own
 * traced sample.  Per round r and function f: d_r = B_r - A_r and the
 * control c_r = A'_r - A_r; the change is the mean of d_r with its
 * Student t interval over the rounds (the round is the unit, drift
 * cancels in the pair), the control's the same of c_r.  A round where a
 * side has no profile sample (a batch shorter than the sampling period)
 * has no shares and is left out, counted.  A function moved when its
 * CI excludes 0 and clears the control's CI (lies wholly above or below
 * it), as ab's verdicts need (comparison/ab_verdict.h).  Each function
 * is a test of its own: among 20 functions that did not move, one CI in
 * 20 misses 0 by chance; the control's CI guards against most of them.
 *
 * Unpaired (compare of two sets of runs): with PDIFF_MIN_RUNS runs or
 * more on each side, each run (its traced samples' mean) is a unit, so
 * that the interval holds the spread between runs, as compare's tests
 * do (by_run); with fewer, the traced samples of each side, pooled over
 * its runs, are the units, and the interval is the samples' spread
 * only: drift between runs, boots or hosts is in it only as far as it
 * spreads the samples (said where it prints).  The change is the
 * difference of the sides' means with Welch's interval.  There is no
 * control; a function moved when its CI excludes 0.
 */
#ifndef COPYSCOPE_COMPARISON_PROFILE_DIFF_H
#define COPYSCOPE_COMPARISON_PROFILE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/kernel_records.h"
#include "results/result.h"
#include "stats/meanci.h"

/* The level of every interval of a diff. */
#define PDIFF_CONF 0.95
/* Runs a side needs for the unpaired diff to take runs as its units
   (compare's CMP_MIN_RUNS). */
#define PDIFF_MIN_RUNS 3

/* One function of a diff. */
struct pdiff_row {
	char *function;
	double a_ns, b_ns;		/* mean ns per op over the units */
	uint64_t a_samples, b_samples;	/* its profile samples in them */
	struct mean_ci change;		/* B - A: est = b_ns - a_ns */
	struct mean_ci ctl;		/* A' - A (paired); est NAN else */
	bool moved;
};

struct pdiff {
	bool paired;
	bool by_frame;		/* rows by frame: each row's function is a
				   frame's path root first ("a;b;c"), its
				   values the frame's total (its own and
				   its callees' samples), as a flame graph's
				   widths; else by function, self time */
	bool by_run;		/* unpaired: the units are runs */
	size_t units[2];	/* paired: rounds used (both); unpaired:
				   traced samples (or runs) used per side */
	size_t left_out;	/* paired: rounds without samples on a side;
				   unpaired: samples without any */
	size_t dropped;		/* paired: disturbed rounds left out
				   (--drop-noisy) */
	size_t nruns[2];	/* unpaired: runs per side; paired: 1 */
	char event[16];		/* "cpu-clock", "cycles" (A's) */
	unsigned hz;
	bool pmu;
	uint64_t samples[3];	/* profile samples in the units: A, B, A' */
	double a_ns, b_ns;	/* the op's mean time over the units */
	struct mean_ci op;	/* the op's change B - A */
	struct mean_ci op_ctl;	/* A' - A; est NAN unpaired */
	struct pdiff_row *rows;	/* by |change| largest first */
	size_t n;
	char why[256];		/* no rows: why no diff could be made */
};

/*
 * The paired diff of the ab run's results res[0..nres) (configurations
 * of jobs 0, 1, 2: A, B, A'; the profile is on each one's cfg->kernel);
 * drop_noisy: leave out the rounds in which a kept sample of A, B or A'
 * was flagged as disturbed, as ab's analysis does with --drop-noisy.
 * Returns 1 when none of them was profiled (*out empty), 0 with the diff
 * in *out (no rows and why set when it cannot be made: a side without a
 * profile, or one stored without its traced samples), -1 on ENOMEM.
 * Free with pdiff_free().
 */
int pdiff_ab(const struct result *res, size_t nres, bool drop_noisy,
	     struct pdiff *out);

/*
 * pdiff_ab, with by_frame: by frame (each frame's path, its total ns
 * per op: a differential flame graph's intervals), else as pdiff_ab.
 */
int pdiff_ab_by(const struct result *res, size_t nres, bool drop_noisy,
		bool by_frame, struct pdiff *out);

/* pdiff_paired by frame (by_frame) or by function. */
int pdiff_paired_by(const struct result_kernel *const k[3], const bool *drop,
		    size_t ndrop, bool by_frame, struct pdiff *out);

/*
 * The paired diff of the profiles k[0] (A), k[1] (B), k[2] (A') round
 * by round (see above), leaving out round r where drop && drop[r] (r <
 * ndrop).  0 (rows, or none with why), -1 on ENOMEM.
 */
int pdiff_paired(const struct result_kernel *const k[3], const bool *drop,
		 size_t ndrop, struct pdiff *out);

/*
 * The unpaired diff of side A's profiles a[0..na) against side B's
 * b[0..nb) (see above); nruns_a/b: the runs they come from (with
 * PDIFF_MIN_RUNS or more each, and one profile a run, each profile is a
 * unit).  0 (rows, or none with why), -1 on ENOMEM.
 */
int pdiff_unpaired(const struct result_kernel *const *a, size_t na,
		   const struct result_kernel *const *b, size_t nb,
		   size_t nruns_a, size_t nruns_b, struct pdiff *out);

struct cmp;
struct cmp_row;

/*
 * compare's diff for row r of c (comparison/comparison.h): when r is
 * the traced samples' time per op (KVIEW_METRIC_TIME) of a
 * configuration on both sides, the unpaired diff of every profile of it
 * on the new side (B) against the base's (A), pooled over their runs
 * (profile_diff_cmp.c).  Returns 1 when r is not such a row or neither
 * side was profiled (*out empty), 0 with the diff (or why not), -1 on
 * ENOMEM.  Free with pdiff_free().
 */
int pdiff_cmp_row(const struct cmp *c, const struct cmp_row *r,
		  struct pdiff *out);

/*
 * The sum of the changes of the first top rows (the functions that moved
 * most), ns per op.
 */
double pdiff_top_sum(const struct pdiff *d, size_t top);

/* How many of the rows moved. */
size_t pdiff_moved(const struct pdiff *d);

void pdiff_free(struct pdiff *d);

#endif
