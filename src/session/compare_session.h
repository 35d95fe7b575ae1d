/*
 * compare_session.h - the work of `compare`, `check` and `report`
 * between parsing and printing: the sides loaded from the store, the
 * comparison built and judged (by runs, else by the store's history of a
 * single run), several ab runs combined, observations set side by side.
 * cli/ calls these; the comparison engine (comparison/) does the judging.
 */
#ifndef COPYSCOPE_SESSION_COMPARE_SESSION_H
#define COPYSCOPE_SESSION_COMPARE_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "comparison/ab_combine.h"
#include "comparison/comparison.h"
#include "comparison/observation_compare.h"
#include "store/store.h"

/*
 * Load the runs that spec names (run ids, tags, 'last', a comma list;
 * store_select_runs) whole into side, its boots counted.  Returns 0; 2
 * when an item names no run or is empty (a usage error: err says which,
 * with where to look); 1 on a store error or ENOMEM (err says which).
 * Free with session_free_side() either way.
 */
int session_load_side(struct store *st, const char *spec,
		      struct cmp_side *side, char *err, size_t errlen);
void session_free_side(struct cmp_side *side);

/* Build the comparison of c's sides with o (cmp_build()); 0, or -1 on
   ENOMEM.  Free with session_compare_free() either way. */
int session_compare(struct cmp *c, const struct cmp_opts *o);

/*
 * session_compare(), then every row with a single run on a side and no
 * verdict by runs judged against its history in st (history_runs.h).
 * Returns 0, or -1 on ENOMEM or a store error (err says which).
 */
int session_compare_with_history(struct store *st, struct cmp *c,
				 const struct cmp_opts *o, char *err,
				 size_t errlen);
void session_compare_free(struct cmp *c);

/* Whether every run of both sides is an ab run (and there is one): they
   are replicates of one A/B on several boots or hosts. */
bool session_sides_ab(const struct cmp_side *base, const struct cmp_side *new);

/*
 * The rounds of every ab run of c's sides (a run named on both counts
 * once) judged together into ac (ab_combine()).  Returns 0; 2 when the
 * runs are not one A/B (err says why); 1 on ENOMEM.  Free ac with
 * session_ab_combined_free() on 0.
 */
int session_compare_ab(const struct cmp *c, const struct ab_opts *o,
		       struct ab_combined *ac, char *err, size_t errlen);
void session_ab_combined_free(struct ab_combined *ac);

/* Whether every run of both sides is an observation (and there is one);
   whether some run of either side is. */
bool session_sides_observations(const struct cmp_side *base,
				const struct cmp_side *new);
bool session_sides_any_observation(const struct cmp_side *base,
				   const struct cmp_side *new);

/*
 * The observations of both sides side by side into oc (obs_cmp_build();
 * caller_pattern: an fnmatch(3) glob of the lock callers kept, NULL:
 * all).  Returns 0, or -1 with the reason in err.  Free with
 * session_observations_free() either way.
 */
int session_compare_observations(struct obs_cmp *oc,
				 const struct cmp_side *base,
				 const struct cmp_side *new,
				 const char *caller_pattern, char *err,
				 size_t errlen);
void session_observations_free(struct obs_cmp *oc);

#endif
