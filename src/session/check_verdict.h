/*
 * check_verdict.h - what `copyscope check BASE` decides from its
 * comparison (comparison/comparison.h): which rows are regressions
 * (worse, significant and beyond the threshold), which could not be
 * judged, and the counts its exit code follows.  Deciding only: the
 * command prints.
 */
#ifndef COPYSCOPE_SESSION_CHECK_VERDICT_H
#define COPYSCOPE_SESSION_CHECK_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "comparison/comparison.h"

/* The rows of a check's comparison, counted. */
struct check_tally {
	size_t ncmp;		/* rows on both sides */
	size_t nreg;		/* regressions beyond the threshold */
	size_t nct;		/* cannot tell */
	size_t nempty;		/* every sample of a side left out
				   (--drop-noisy) */
	size_t nheld;		/* a side's runs all withheld their
				   headline (stats/headline.h): cannot
				   tell */
	size_t nwh;		/* withheld: measured under an emulator */
};

/*
 * The rows check prints when one regressed (the regressions and what it
 * could not judge); arg points to the threshold in percent, as for
 * check_tally().  A filter for cmp_print_text().
 */
bool check_row_shown(const struct cmp_row *r, void *arg);

/* Every row on both sides (printed when nothing regressed); arg unused. */
bool check_row_compared(const struct cmp_row *r, void *arg);

/* The rows of c counted, a regression being worse by > threshold_pct. */
void check_tally(const struct cmp *c, double threshold_pct,
		 struct check_tally *t);

#endif
