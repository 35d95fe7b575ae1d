/*
 * compare_session.c - loading the sides of a comparison, building and
 * judging it, combining ab runs and setting observations side by side
 * (see compare_session.h).
 */
#include "session/compare_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison/ab_verdict.h"
#include "session/history_runs.h"

int session_load_side(struct store *st, const char *spec,
		      struct cmp_side *side, char *err, size_t errlen)
{
	enum store_select_status ss;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc = 0;

	memset(side, 0, sizeof(*side));
	ss = store_select_runs(st, spec, &ids, &n, err, errlen);
	if (ss == STORE_SELECT_EMPTY_ITEM)
		return 2;
	if (ss == STORE_SELECT_NO_MATCH) {
		size_t len = strlen(err);

		snprintf(err + len, errlen > len ? errlen - len : 0,
			 " ('copyscope runs' lists them)");
		return 2;
	}
	if (ss != STORE_SELECT_OK)
		return 1;
	side->runs = calloc(n ? n : 1, sizeof(*side->runs));
	if (!side->runs) {
		snprintf(err, errlen, "out of memory");
		free(ids);
		return 1;
	}
	if (store_load_runs(st, ids, n, side->runs, err, errlen) != 0)
		rc = 1;
	else
		side->nruns = n;
	free(ids);
	if (rc)
		session_free_side(side);
	else
		cmp_side_count_boots(side);
	return rc;
}

void session_free_side(struct cmp_side *side)
{
	size_t i;

	for (i = 0; i < side->nruns; i++)
		run_data_free(&side->runs[i]);
	free(side->runs);
	memset(side, 0, sizeof(*side));
}

int session_compare(struct cmp *c, const struct cmp_opts *o)
{
	return cmp_build(c, o);
}

int session_compare_with_history(struct store *st, struct cmp *c,
				 const struct cmp_opts *o, char *err,
				 size_t errlen)
{
	if (cmp_build(c, o) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return history_noise_apply(st, c, err, errlen);
}

void session_compare_free(struct cmp *c)
{
	cmp_free(c);
}

bool session_sides_ab(const struct cmp_side *b, const struct cmp_side *n)
{
	size_t i;

	for (i = 0; i < b->nruns; i++)
		if (!ab_env_is_ab(&b->runs[i].env))
			return false;
	for (i = 0; i < n->nruns; i++)
		if (!ab_env_is_ab(&n->runs[i].env))
			return false;
	return b->nruns + n->nruns > 0;
}

int session_compare_ab(const struct cmp *c, const struct ab_opts *o,
		       struct ab_combined *ac, char *err, size_t errlen)
{
	const struct run_data **runs;
	size_t i, n = 0;
	int e = 0;

	/* an array of pointers */
	runs = calloc(c->base.nruns + c->new.nruns,
		      sizeof(*runs));	/* NOLINT(bugprone-sizeof-expression) */
	if (!runs) {
		snprintf(err, errlen, "out of memory");
		return 1;
	}
	for (i = 0; i < c->base.nruns + c->new.nruns; i++) {
		const struct run_data *r = i < c->base.nruns ?
			&c->base.runs[i] : &c->new.runs[i - c->base.nruns];
		size_t k;

		for (k = 0; k < n && runs[k]->info.id != r->info.id; k++)
			;
		if (k == n)	/* a run named on both sides counts once */
			runs[n++] = r;
	}
	if (ab_combine(runs, n, o, ac, err, errlen) != 0)
		e = 2;
	free(runs);
	return e;
}

void session_ab_combined_free(struct ab_combined *ac)
{
	ab_combined_free(ac);
}

bool session_sides_observations(const struct cmp_side *base,
				const struct cmp_side *new)
{
	return obs_cmp_all_observations(base, new);
}

bool session_sides_any_observation(const struct cmp_side *base,
				   const struct cmp_side *new)
{
	return obs_cmp_any_observation(base, new);
}

int session_compare_observations(struct obs_cmp *oc,
				 const struct cmp_side *base,
				 const struct cmp_side *new,
				 const char *caller_pattern, char *err,
				 size_t errlen)
{
	return obs_cmp_build(oc, base, new, caller_pattern, err, errlen);
}

void session_observations_free(struct obs_cmp *oc)
{
	obs_cmp_free(oc);
}
