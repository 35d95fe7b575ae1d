/*
 * comparison_priv.h - inside the comparison engine: what comparison.c
 * shares with comparison_limits.c and comparison_env.c.
 */
#ifndef COPYSCOPE_COMPARISON_IMPL_H
#define COPYSCOPE_COMPARISON_IMPL_H

#include "comparison/comparison.h"

/*
 * The samples of row key on side (matching by match[run][result]) into
 * v, flagged samples left out when drop_noisy.  0, or -1 on ENOMEM.
 */
int cmp_gather(struct cmp_val *v, const struct cmp_side *side,
	       char ***match, const struct cmp_row *key, bool drop_noisy);

/* The test, the CI and the verdict of a row with both sides gathered. */
int cmp_judge(struct cmp_row *r, const struct cmp_opts *opts);

/* Free what cmp_gather() put into v. */
void cmp_val_free(struct cmp_val *v);

/*
 * After every row is judged: what the tests cannot decide becomes
 * VERDICT_CANNOT_TELL with its reason (fewer than CMP_MIN_RUNS runs a
 * side, samples too few to reach alpha, a verdict that the disturbed
 * samples carry), and rows that read the same timed window as an earlier
 * row of their configuration are marked same_reading_as.  0, or -1 on
 * ENOMEM.
 */
int cmp_limits(struct cmp *c, const struct cmp_opts *opts);

/*
 * The environment keys and run options (as run.* keys) whose values
 * differ between the sides into c->envd, in the order the runs first show
 * them, each side's distinct values in run order (comparison_env.c).
 * 0, or -1 on ENOMEM.
 */
int cmp_env_diff(struct cmp *c);

#endif
