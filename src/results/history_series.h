/*
 * history_series.h - the results model of a lab's history: the series of run
 * medians of one configuration on one host (each point one run, or by
 * kernel the runs of one kernel release) and its change points, as
 * session/history_session.c builds them (history_build()) and the renderers
 * read them (report/history_text.c, report/history_json.c,
 * report/html_plots_history.c), and check --history's verdict on one
 * series (session/history_check.c).  Plain data: history_free()
 * (session/history_session.h) frees what history_build() made.
 */
#ifndef COPYSCOPE_RESULTS_HISTORY_H
#define COPYSCOPE_RESULTS_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hist_point {
	int64_t run_id;			/* by kernel: the newest run */
	int64_t first_run_id;		/* by kernel: the oldest run */
	int64_t started_ns;		/* of run_id */
	char *uuid, *kernel, *boot_id;	/* of run_id (owned) */
	size_t nruns;			/* 1, or the runs of the kernel */
	double median, ci_lo, ci_hi;
};

struct hist_change {
	size_t index;			/* the first point after it */
	double change_pct, ci_lo, ci_hi;	/* after vs before, % */
	double p;
	bool worse;			/* by the metric's direction */
	int64_t before_run, after_run;	/* the runs either side */
	char **env_keys;		/* keys that differ there (owned) */
	size_t nenv;
};

/*
 * What the change points cannot tell about the newest points: the newest
 * segment E-divisive searched (from the last change point it found, or
 * the first point, to the end) and the newest points of it that no split
 * can reach alpha with (stats/edivisive.h, ediv_tail).
 */
struct hist_tail {
	size_t from;			/* the segment's first point */
	size_t newest;			/* 0: none; n - from: no split of
					   the segment can; else a change
					   in its newest min_size .. newest
					   points cannot */
	size_t min_size;		/* the fewest points a side */
	double min_p;			/* their smallest p (NAN: the
					   segment has no split at all) */
	size_t need;			/* the points the segment would
					   need; 0: no number */
	double alpha;			/* of the test */
};

/*
 * What E-divisive looked at and did not report: the likeliest split it
 * tried and rejected (its p not below alpha), and the change points it
 * found that were smaller than --min-change.
 */
struct hist_rejected {
	size_t index;			/* its first point after; 0: none
					   was tried */
	double change_pct, ci_lo, ci_hi;	/* after vs before in its
						   segment, % */
	double p;			/* >= alpha */
	int64_t before_run, after_run;	/* the runs either side */
	size_t nsmall;			/* change points below min_change */
	size_t small_index;		/* the largest of them: its index */
	double small_pct;		/* and its change, % */
	double min_change_pct;		/* of the history asked for */
};

struct result_param;

struct hist_series {
	char *host, *workload, *params, *metric, *unit;	/* owned */
	/* params read by the codec (results/codec.h, result_params_list),
	   in its key order; none when params is not an object of strings */
	struct result_param *param;
	size_t nparam;
	int direction;
	struct hist_point *pts;
	size_t n;
	struct hist_change *cps;
	size_t ncp;
	bool nonpositive;		/* a median <= 0: no change points */
	struct hist_tail tail;		/* (newest 0 when nonpositive) */
	struct hist_rejected rejected;	/* (index 0 when nonpositive) */
	size_t nwithheld;		/* runs of this series left out:
					   their headline was withheld
					   (stats/headline.h) */
};

struct history {
	struct hist_series *s;
	size_t n;
};

/* check --history's verdict on one series. */
enum hist_verdict {
	HIST_SAME,		/* the newest points lie within the history */
	HIST_WORSE,		/* the last change point, or the newest
				   points against the earlier ones' spread,
				   for the worse */
	HIST_BETTER,		/* the newest points moved, for the better */
	HIST_TOO_SHORT,		/* fewer points than a verdict needs */
	HIST_NO_LOG,		/* a median <= 0: not judged */
};

/* The verdict on one series and what it rests on. */
struct hist_check {
	enum hist_verdict verdict;
	size_t needed;			/* HIST_TOO_SHORT: the points a
					   verdict needs */
	size_t min_earlier;		/* the fewest earlier points the
					   newest are read against */
	const struct hist_change *cp;	/* the series' last change point,
					   or NULL */
	/*
	 * The test of the newest points against the earlier ones' spread
	 * (tested false when the series is too short or a median <= 0):
	 * the window of the newest points with the smallest p, the earlier
	 * points it was read against (indexes [from, to)), the change of
	 * the window's geometric mean from theirs, the interval (change %)
	 * that window may lie in at alpha, and p Bonferroni-adjusted over
	 * the windows tried and the series judged (at most 1).
	 */
	bool tested;
	bool moved;			/* p < alpha and beyond min-change */
	size_t newest, from, to, windows, nseries;
	double change_pct, lo_pct, hi_pct, p;
};

#endif
