/*
 * history.h - what `history`, `check --history` and `report --history`
 * share on the command line: the history's option rows and the loading
 * of the history they ask for (cli/history.c).  Each command keeps its
 * own table, usage and output.
 */
#ifndef COPYSCOPE_CLI_HISTORY_H
#define COPYSCOPE_CLI_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/options.h"
#include "results/history_series.h"
#include "session/history_session.h"

/* The history's own options, in each command's options struct. */
struct history_cli_opts {
	const char *metric, *by;
	double min_change_pct;
};

/* Whether --by kernel was asked. */
#define HISTORY_BY_KERNEL(ho) ((ho)->by && strcmp((ho)->by, "kernel") == 0)

extern const char *const history_by_words[];

/*
 * The rows of struct history_cli_opts, in OPT_BASE's member field (a
 * member designator for offsetof, so it cannot be parenthesised).
 */
/* NOLINTBEGIN(bugprone-macro-parentheses) */
#define OPT_ROWS_HISTORY(field)						\
	OPT_ROW_STR("--metric", "M", "only this metric (e.g. "		\
	  "bandwidth, time/call; default: every metric)", field.metric), \
	OPT_ROW_STR("--by", "time|kernel", "order the points by "	\
	  "start time (default), or by kernel release in version order " \
	  "with the runs of one kernel as one point", field.by,	\
	  .words = history_by_words, .complete = OPT_C_WORDS)
#define OPT_ROW_HISTORY_MIN_CHANGE(field)				\
	OPT_ROW_PCT("--min-change", "PCT", "leave out change points "	\
	  "smaller than PCT (default 0%)", field.min_change_pct,	\
	  .lo = 0, .hi = 1000, .unit = "2%")
#define OPT_ROW_HISTORY_ALPHA(field)					\
	OPT_ROW_NUM("--alpha", "A", "significance level of a change "	\
	  "point's permutation test (default 0.01)", field, .lo = 0,	\
	  .hi = 1, .flags = OPT_LO_OPEN | OPT_HI_OPEN)
/* NOLINTEND(bugprone-macro-parentheses) */

/*
 * The history that command cmd asks for: the positional arguments
 * pos[0 .. npos) and the options in rq->o (less workload and filters),
 * from the database --db names (db; its path into dbpath[0 .. len)),
 * into h.  0 with h made (history_free() it), or the exit code after
 * printing why.
 */
int cli_history_load(const char *cmd, const char *db, char **pos, int npos,
		     struct hist_request *rq, struct history *h,
		     char *dbpath, size_t len);

#endif
