/*
 * comparison.h - the comparison engine behind `compare` and `check`: two
 * sides of loaded runs (results model) matched row by row and judged.
 *
 * A side is any number of runs.  Results are matched by (workload,
 * parameters, metric, unit); parameters named in cmp_opts.ignore are left
 * out of the matching, so that e.g. io=write on one side meets io=vmsplice
 * on the other.  For each row present on both sides: the medians and
 * %stddev of the pooled samples, the %change of medians, a Mann-Whitney U
 * p-value, a 95% bootstrap CI of the change and a verdict (stats/mannwhitney.h).
 * With at least CMP_MIN_RUNS runs on each side the run is the unit that
 * repeats (the test over run medians, a two-level bootstrap); with fewer,
 * the sample.  Per side and row: the median of each boot's run medians,
 * whether the boots disagree more than runs within a boot, and
 * bimodality.  Environment keys (and run options) that differ between
 * the sides are listed.
 *
 * Pure: no store, no output (report/comparison_print.h prints a struct cmp).
 */
#ifndef COPYSCOPE_COMPARISON_H
#define COPYSCOPE_COMPARISON_H

#include <stdbool.h>
#include <stddef.h>

#include "results/run.h"
#include "stats/mannwhitney.h"
#include "stats/hier.h"
#include "stats/modes.h"
#include "stats/predict.h"
#include "stats/summary.h"

/* The runs of one side, loaded (the caller owns them). */
struct cmp_side {
	struct run_data *runs;
	size_t nruns;
	size_t nboots;			/* distinct boot ids among them */
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
	size_t headline_out;		/* left out as their run's headline
					   left them out, or withheld it
					   (stats/headline.h), so that
					   compare reads what run and show
					   printed; not in n, flagged or
					   dropped */
	struct summary s;
	struct modes md;
	struct cmp_boot *boots;		/* owned */
	size_t nboots;
	/* per run with samples: its median, its samples in x and its
	   boot (an index into boots) (owned) */
	double *run_med;
	size_t *run_start, *run_len, *run_boot;
	size_t nruns;
	bool boots_disagree;		/* boot medians spread more than
					   the runs within a boot */
	struct hier_spread spread;	/* CV within a run, between runs,
					   between boots */
};

/*
 * When either side of a row is bimodal: two mode centres (the cluster
 * medians of the best split of both sides' samples pooled), every sample of either side in the mode of the
 * nearer centre, the share of each side's
 * samples in the high mode, each mode's median per side, and a test of
 * the share: over the runs' shares (Welch's t) with CMP_MIN_RUNS runs a
 * side, else Fisher's exact test over the samples.  A median of a mixture
 * moves when the shares move even if neither mode does; this says which.
 */
struct cmp_modes {
	bool shown;			/* either side bimodal */
	double centre_lo, centre_hi;	/* the modes' centres */
	double split;			/* midway: each sample goes to
					   the nearer centre */
	size_t n_hi_b, n_hi_n;		/* samples above the split */
	double share_hi_b, share_hi_n;	/* of each side's samples, 0..1 */
	double med_lo_b, med_hi_b, med_lo_n, med_hi_n;	/* NAN: empty */
	double lo_change_pct, hi_change_pct;	/* NAN: a mode too thin */
	double p_share;
	bool by_run;			/* p over run shares */
	bool share_changed;		/* p < alpha, shift >= 10 points */
};

/*
 * History as the noise model of a single run (comparison/history_noise.c):
 * a row with one run on a side, which the test over runs cannot judge, is
 * judged by where that run's median lies against the prediction interval
 * of the earlier runs of its configuration on its host (stats/predict.h).
 * The caller reads those runs from the store and passes their medians in
 * (cmp_hist_judge()); the comparison does not read the store.
 */
struct cmp_hist {
	bool used;			/* the verdict is history-based */
	bool judged_base;		/* the base side's run is judged
					   (it is the newer one) */
	int64_t judged_run;
	double median;			/* the judged run's median */
	char host[128];
	int64_t *runs;			/* the earlier runs, oldest first
					   (owned) */
	size_t nruns;
	double alpha;			/* the interval is 1 - alpha */
	struct pred_interval pi;	/* their interval, where the judged
					   run lies against it */
};

/* The fewest earlier runs, and the most (the newest), history uses. */
#define CMP_HIST_MIN_RUNS 5
#define CMP_HIST_MAX_RUNS 30

/* A mode's share must move by this many percentage points to count. */
#define CMP_MODE_SHIFT_MIN_PCT 10.0

struct cmp_row {
	const struct result *ref;	/* workload, params, metric, unit */
	const struct result *ref_new;	/* the same on the new side */
	const char *match;		/* ref's parameters less ignored */
	int direction;
	bool in_base, in_new;
	struct cmp_val b, n;
	double change_pct;		/* 100 * (new / base - 1) of medians */
	double ci_lo, ci_hi;		/* its 95% bootstrap CI */
	/*
	 * The test: with CMP_MIN_RUNS runs or more on each side (by_run),
	 * Welch's t on the logarithms of the run medians (welch), and the
	 * CI from a bootstrap at every level (boots, runs, samples); with
	 * fewer, Mann-Whitney over the samples (mw) and a bootstrap of the
	 * samples.  p is the one that decides.
	 */
	bool by_run;
	struct mw_result mw;
	struct welch_result welch;
	double p;
	/*
	 * The smallest change (%) the test sees with cmp_opts.power, from
	 * the spread of the run medians (by_run) or of the samples; and
	 * the runs per side a change of cmp_opts.target_pct needs (0: more
	 * than CMP_MAX_RUNS_NEEDED; -1: not asked or not known).
	 */
	double mde_pct;
	int runs_needed;
	struct cmp_modes modes;
	enum verdict verdict;
	/*
	 * VERDICT_CANNOT_TELL: why, and what would make a decision possible
	 * (more runs, more samples, --drop-noisy, ab); "" otherwise.
	 */
	char reason[360];
	/*
	 * A metric read from the same timed window as an earlier row of
	 * this configuration (time per op, cycles per op, bytes/s, ops/s
	 * are one measurement): that row's metric; its verdict counts, this
	 * one's does not.  NULL: this row counts.
	 */
	const char *same_reading_as;
	/* fewer than CMP_MIN_RUNS runs a side made it cannot tell */
	bool few_runs;
	struct cmp_hist hist;
};

/* Whether run ran under an emulator (its virt.emulated says "yes"). */
bool cmp_run_emulated(const struct run_data *run);

/*
 * With at least this many runs on each side, the p-value and the CI treat
 * the run as the unit that repeats (Mann-Whitney over run medians, a
 * two-level bootstrap); with fewer, the samples (which cannot see how
 * much runs of one configuration differ from each other).
 */
#define CMP_MIN_RUNS 3

/* The most runs per side a --target answer will name. */
#define CMP_MAX_RUNS_NEEDED 1000

struct cmp_envdiff {
	char key[96];
	char *base, *new;		/* values, " | " between runs */
};

struct cmp_opts {
	double alpha;			/* significance level, e.g. 0.05 */
	double noise_pct;		/* CI must lie beyond +-this, e.g. 1 */
	double power;			/* of the smallest visible change,
					   e.g. 0.8 (0: 0.8) */
	double target_pct;		/* runs needed to see this (0: no) */
	bool drop_noisy;		/* leave flagged samples out */
	bool by_sample;			/* judge over samples even with fewer
					   than CMP_MIN_RUNS runs a side (the
					   spread between runs then unknown) */
	bool allow_emulated;		/* verdicts on emulated runs too */
	const char *const *workloads;	/* only these (NULL: all) */
	size_t nworkloads;
	/* parameters left out of the matching (e.g. the one under test) */
	const char *const *ignore;
	size_t nignore;
};

struct cmp {
	struct cmp_side base, new;	/* not owned */
	const char *title;		/* first line (NULL: "copyscope
					   compare") */
	struct cmp_row *rows;		/* both sides first, in base order */
	size_t nrows;
	struct cmp_envdiff *envd;
	size_t nenvd;
	bool flavour_differs;
	/* runs of each side measured under an emulator (environment key
	   virt.emulated "yes ..."; copyscope boot under qemu TCG): their
	   timings measure the emulator, so their rows get
	   VERDICT_WITHHELD unless opts.allow_emulated */
	size_t emulated_base, emulated_new;
	struct cmp_opts opts;
	/* [run][result]: parameters less the ignored ones (owned) */
	char ***match_base, ***match_new;
};

/*
 * The number of distinct boot ids of side's runs, into side->nboots.
 * Runs without results (a boot that failed before measuring) count for
 * nothing here, nor in the environment differences.
 */
void cmp_side_count_boots(struct cmp_side *side);

/*
 * Build the comparison of c->base and c->new (both filled) with opts.
 * Returns 0, or -1 on allocation failure.
 */
int cmp_build(struct cmp *c, const struct cmp_opts *opts);

/* Free what cmp_build() made (not the sides' runs). */
void cmp_free(struct cmp *c);

/*
 * The largest change a '~' row's CI leaves open: max(|ci_lo|, |ci_hi|),
 * "no change larger than X%"; NAN without a CI.
 */
double cmp_no_change_beyond(const struct cmp_row *row);

/*
 * Whether row r (after cmp_build()) can be judged against history: it is
 * "cannot tell" for fewer than CMP_MIN_RUNS runs a side and a side has a
 * single run.  *run gets the run to judge: the single one, or when both
 * sides are single runs the newer (by start time; the new side's on a
 * tie), and *judged_base whether it is the base side's.
 */
bool cmp_hist_wanted(const struct cmp *c, const struct cmp_row *r,
		     const struct run_data **run, bool *judged_base);

/*
 * Judge row r (cmp_hist_wanted() true) against the medians med[0 .. n)
 * of the earlier runs ids[0 .. n) of its configuration on host (oldest
 * first; at most the newest CMP_HIST_MAX_RUNS are used).  With
 * CMP_HIST_MIN_RUNS or more: r->hist is filled; r->change_pct and its
 * CI become the judged run's shift from the runs' geometric mean, the CI
 * the prediction interval's half width around it (read as NEW against
 * BASE: a judged base run counts the other way); r->p is the interval's
 * p; the verdict is stats_verdict() of those (p < alpha and the whole CI
 * beyond the noise band).  With fewer the row stays "cannot tell" and its reason says how
 * many earlier runs would decide it.  Returns 0, or -1 on ENOMEM.
 */
int cmp_hist_judge(const struct cmp *c, struct cmp_row *r,
		   const struct run_data *run, bool judged_base,
		   const int64_t *ids, const double *med, size_t n);

/*
 * Rows compared (present on both sides), and those of each verdict among
 * the rows that count (same_reading_as NULL).
 */
struct cmp_counts {
	size_t compared, worse, better, same, info;
	size_t cannot_tell;	/* the test could not decide */
	size_t same_reading;	/* rows whose verdict another row's
				   reading carries (not counted above) */
	size_t withheld;	/* emulated runs: no verdict */
	size_t empty;		/* a side with no samples left */
};
void cmp_count(const struct cmp *c, struct cmp_counts *out);

#endif
