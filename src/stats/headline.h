/*
 * headline.h - which samples a result's headline (its summary: the
 * median a table prints first, its CI and spread) is taken over when
 * some of them were disturbed: a worker waited for a CPU for more than
 * SAMPLE_OFFCPU_PCT of the window and the figure carries that wait
 * (results/sample_flags.h, INTERF_FLAG_OFFCPU).
 *
 * The rule (docs/methodology.md, "The headline"):
 *   - no sample disturbed: every sample counts;
 *   - else when at least HEADLINE_MIN_KEPT samples and at least half of
 *     them are undisturbed, the disturbed ones are left out of the
 *     headline (they stay stored, and are counted beside it);
 *   - else the headline is withheld: too few undisturbed samples remain
 *     to say what the quiet figure is, and the disturbed ones say how
 *     loaded the machine was, not what the op costs.
 * The decision is made here once; results/result.c applies it when a
 * result is finalized (made by a run or read back from the store), so
 * that run, show and compare read the same samples.
 */
#ifndef COPYSCOPE_STATS_HEADLINE_H
#define COPYSCOPE_STATS_HEADLINE_H

#include <stdbool.h>
#include <stddef.h>

/* The fewest undisturbed samples a headline is given over. */
#define HEADLINE_MIN_KEPT 3

enum headline_state {
	HEADLINE_ALL,		/* nothing disturbed: every sample counts */
	HEADLINE_LEFT_OUT,	/* the disturbed samples are left out */
	HEADLINE_WITHHELD,	/* too few undisturbed: no headline */
};

/* The rule above for n samples of which ndisturbed were disturbed
   (ndisturbed <= n). */
enum headline_state headline_rule(size_t n, size_t ndisturbed);

/*
 * Whether to take another sample in place of a disturbed one: the
 * headline of n samples (ndisturbed of them disturbed) is withheld, and
 * it would not be if every sample up to max_n (the room left) were
 * undisturbed.  A run takes samples again so while this holds
 * (runner/runner.c), and stops when it is hopeless.
 */
bool headline_retake(size_t n, size_t ndisturbed, size_t max_n);

#endif
