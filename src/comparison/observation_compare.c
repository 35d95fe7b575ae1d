/*
 * observation_compare.c - observations side by side
 * (observation_compare.h): each column decoded from its stored JSON, and
 * the lock table's callers merged over the columns, and the pipe mutex
 * waits per pipe function (its call sites summed: offsets differ between
 * kernels).
 */
#include "comparison/observation_compare.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool side_all(const struct cmp_side *s)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		if (!s->runs[i].observation)
			return false;
	return true;
}

bool obs_cmp_all_observations(const struct cmp_side *base,
			      const struct cmp_side *new)
{
	return base->nruns + new->nruns > 0 && side_all(base) &&
		side_all(new);
}

bool obs_cmp_any_observation(const struct cmp_side *base,
			     const struct cmp_side *new)
{
	size_t i;

	for (i = 0; i < base->nruns; i++)
		if (base->runs[i].observation)
			return true;
	for (i = 0; i < new->nruns; i++)
		if (new->runs[i].observation)
			return true;
	return false;
}

double obs_cmp_share_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* The caller row for name/type, added when new; NULL on ENOMEM. */
static struct obs_cmp_caller *caller_row(struct obs_cmp *c, size_t *cap,
					 const struct observation_lock *l)
{
	struct obs_cmp_caller *r;
	size_t i;

	for (i = 0; i < c->ncallers; i++)
		if (strcmp(c->callers[i].caller, l->caller) == 0 &&
		    strcmp(c->callers[i].type, l->type) == 0)
			return &c->callers[i];
	if (c->ncallers == *cap) {
		size_t n = *cap ? *cap * 2 : 16;

		r = realloc(c->callers, n * sizeof(*r));
		if (!r)
			return NULL;
		c->callers = r;
		*cap = n;
	}
	r = &c->callers[c->ncallers];
	memset(r, 0, sizeof(*r));
	snprintf(r->caller, sizeof(r->caller), "%s", l->caller);
	snprintf(r->type, sizeof(r->type), "%s", l->type);
	r->count = calloc(c->ncols, sizeof(*r->count));
	r->wait_ns = calloc(c->ncols, sizeof(*r->wait_ns));
	if (!r->count || !r->wait_ns) {
		free(r->count);
		free(r->wait_ns);
		return NULL;
	}
	c->ncallers++;
	return r;
}

static uint64_t total_wait(const struct obs_cmp *c,
			   const struct obs_cmp_caller *r)
{
	uint64_t t = 0;
	size_t k;

	for (k = 0; k < c->ncols; k++)
		t += r->wait_ns[k];
	return t;
}

static const struct obs_cmp *sort_ctx;

static int by_wait(const void *a, const void *b)
{
	const struct obs_cmp_caller *x = a, *y = b;
	uint64_t tx = total_wait(sort_ctx, x), ty = total_wait(sort_ctx, y);

	if (tx != ty)
		return tx > ty ? -1 : 1;
	return strcmp(x->caller, y->caller);
}

static int merge_callers(struct obs_cmp *c)
{
	size_t k, i, cap = 0;

	for (k = 0; k < c->ncols; k++) {
		const struct observation *o = &c->cols[k].o;

		for (i = 0; i < o->nlocks; i++) {
			const struct observation_lock *l = &o->locks[i];
			struct obs_cmp_caller *r;

			if (c->caller_pattern &&
			    fnmatch(c->caller_pattern, l->caller, 0) != 0)
				continue;
			r = caller_row(c, &cap, l);
			if (!r)
				return -1;
			r->count[k] += l->count;
			r->wait_ns[k] += l->wait_ns;
		}
	}
	sort_ctx = c;
	if (c->ncallers)
		qsort(c->callers, c->ncallers, sizeof(*c->callers), by_wait);
	sort_ctx = NULL;
	if (c->ncallers > OBS_CMP_MAX_CALLERS) {
		for (i = OBS_CMP_MAX_CALLERS; i < c->ncallers; i++) {
			free(c->callers[i].count);
			free(c->callers[i].wait_ns);
		}
		c->callers_left_out = c->ncallers - OBS_CMP_MAX_CALLERS;
		c->ncallers = OBS_CMP_MAX_CALLERS;
	}
	return 0;
}

/* The row of pipe function func, added when new; NULL on ENOMEM. */
static struct obs_cmp_side *side_row(struct obs_cmp *c, size_t *cap,
				     const char *func, size_t flen)
{
	struct obs_cmp_side *r;
	size_t i;

	for (i = 0; i < c->nsides; i++)
		if (strlen(c->sides[i].func) == flen &&
		    strncmp(c->sides[i].func, func, flen) == 0)
			return &c->sides[i];
	if (c->nsides == *cap) {
		size_t n = *cap ? *cap * 2 : 4;

		r = realloc(c->sides, n * sizeof(*r));
		if (!r)
			return NULL;
		c->sides = r;
		*cap = n;
	}
	r = &c->sides[c->nsides];
	memset(r, 0, sizeof(*r));
	snprintf(r->func, sizeof(r->func), "%.*s", (int)flen, func);
	r->count = calloc(c->ncols, sizeof(*r->count));
	r->log2 = calloc(c->ncols * OBSERVATION_NLOG2, sizeof(*r->log2));
	if (!r->count || !r->log2) {
		free(r->count);
		free(r->log2);
		return NULL;
	}
	c->nsides++;
	return r;
}

static uint64_t side_waits(const struct obs_cmp *c,
			   const struct obs_cmp_side *r)
{
	uint64_t t = 0;
	size_t k;

	for (k = 0; k < c->ncols; k++)
		t += r->count[k];
	return t;
}

static int by_waits(const void *a, const void *b)
{
	const struct obs_cmp_side *x = a, *y = b;
	uint64_t tx = side_waits(sort_ctx, x), ty = side_waits(sort_ctx, y);

	if (tx != ty)
		return tx > ty ? -1 : 1;
	return strcmp(x->func, y->func);
}

/* The pipe mutex callers of every column by function: read, write. */
static int merge_sides(struct obs_cmp *c)
{
	size_t k, i, b, cap = 0;

	for (k = 0; k < c->ncols; k++)
		if ((c->cols[k].o.ran & OBSERVE_LOCK) &&
		    !c->cols[k].o.lock_hists)
			c->sides_missing = true;
	for (k = 0; !c->sides_missing && k < c->ncols; k++) {
		const struct observation *o = &c->cols[k].o;

		for (i = 0; i < o->nlocks; i++) {
			const struct observation_lock *l = &o->locks[i];
			struct obs_cmp_side *r;

			if (!observation_is_pipe_mutex(l) ||
			    (c->caller_pattern &&
			     fnmatch(c->caller_pattern, l->caller, 0) != 0))
				continue;
			r = side_row(c, &cap, l->caller,
				     strcspn(l->caller, "+"));
			if (!r)
				return -1;
			r->count[k] += l->count;
			for (b = 0; b < OBSERVATION_NLOG2; b++)
				r->log2[k * OBSERVATION_NLOG2 + b] +=
					l->log2[b];
		}
	}
	sort_ctx = c;
	if (c->nsides > 1)
		qsort(c->sides, c->nsides, sizeof(*c->sides), by_waits);
	sort_ctx = NULL;
	return 0;
}

static int add_side(struct obs_cmp *c, const struct cmp_side *s, char *err,
		    size_t errlen)
{
	size_t i;

	for (i = 0; i < s->nruns; i++) {
		struct obs_col *col = &c->cols[c->ncols];
		char why[256];

		col->run = &s->runs[i];
		if (observation_from_text(s->runs[i].observation, &col->o,
					  why, sizeof(why)) != 0) {
			snprintf(err, errlen, "run %lld: %s",
				 (long long)s->runs[i].info.id, why);
			return -1;
		}
		c->ncols++;
	}
	return 0;
}

int obs_cmp_build(struct obs_cmp *c, const struct cmp_side *base,
		  const struct cmp_side *new, const char *caller_pattern,
		  char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->caller_pattern = caller_pattern;
	c->cols = calloc(base->nruns + new->nruns + 1, sizeof(*c->cols));
	if (!c->cols) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (add_side(c, base, err, errlen) || add_side(c, new, err, errlen))
		return -1;
	if (merge_callers(c) || merge_sides(c)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void obs_cmp_free(struct obs_cmp *c)
{
	size_t i;

	for (i = 0; i < c->ncallers; i++) {
		free(c->callers[i].count);
		free(c->callers[i].wait_ns);
	}
	free(c->callers);
	for (i = 0; i < c->nsides; i++) {
		free(c->sides[i].count);
		free(c->sides[i].log2);
	}
	free(c->sides);
	for (i = 0; c->cols && i < c->ncols; i++)
		observation_free(&c->cols[i].o);
	free(c->cols);
	memset(c, 0, sizeof(*c));
}
