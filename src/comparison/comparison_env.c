/*
 * comparison_env.c - the environment differences of a comparison: every
 * environment key (and run option, as run.* keys) whose values differ
 * between the two sides, with each side's distinct values in run order.
 *
 * Sort-merge, not a scan per key: each side's (key, value) pairs are
 * sorted once by key, so the work grows as runs x keys x log, never as
 * the square of the runs (a lab compares hundreds of runs a side).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison/comparison_priv.h"

/* What a run without the key shows, as the value it compares as. */
#define ENV_ABSENT "(absent)"

/* One key of one run's environment; ord: its place in the scan. */
struct env_ref {
	const char *key, *value;
	size_t run, ord;
};

/* A side's environments, with their pairs sorted by key. */
struct env_side {
	struct env *envs;	/* per run; empty: a run without results */
	size_t nruns;
	struct env_ref *refs;	/* sorted by key, then run */
	size_t nrefs;
};

/* Environment keys whose differences mean nothing. */
static bool env_ignored(const char *key)
{
	return strcmp(key, "boot_id") == 0 ||
	       strcmp(key, "timer.overhead_ns") == 0 ||
	       /* its cycles a read pair vary as the overhead does; the
		  unit in use is timer.unit */
	       strcmp(key, "timer.cycles") == 0 ||
	       strcmp(key, "timer.tsc_hz") == 0;
}

static int ref_by_key(const void *a, const void *b)
{
	const struct env_ref *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->ord > y->ord) - (x->ord < y->ord);
}

static int ref_by_value(const void *a, const void *b)
{
	const struct env_ref *x = a, *y = b;
	int c = strcmp(x->value, y->value);

	return c ? c : (x->run > y->run) - (x->run < y->run);
}

static int ref_by_ord(const void *a, const void *b)
{
	const struct env_ref *x = a, *y = b;

	return (x->ord > y->ord) - (x->ord < y->ord);
}

static void side_free(struct env_side *s)
{
	size_t i;

	for (i = 0; s->envs && i < s->nruns; i++)
		env_free(&s->envs[i]);
	free(s->envs);
	free(s->refs);
	memset(s, 0, sizeof(*s));
}

/*
 * Each run's environment with its options as run.* keys (runs without
 * results stay empty: left out), and their pairs sorted by key; *ord
 * numbers the pairs in scan order across both sides.  0 or -1 (ENOMEM).
 */
static int side_load(const struct cmp_side *side, struct env_side *s,
		     size_t *ord)
{
	size_t i, k;

	memset(s, 0, sizeof(*s));
	s->nruns = side->nruns;
	s->envs = calloc(side->nruns ? side->nruns : 1, sizeof(*s->envs));
	if (!s->envs)
		return -1;
	for (i = 0; i < side->nruns; i++) {
		const struct env *src = &side->runs[i].env;
		struct env *e = &s->envs[i];

		if (!side->runs[i].results.n)
			continue;
		/* a stored environment holds each key once: append */
		e->items = calloc(src->n + 16, sizeof(*e->items));
		if (!e->items)
			return -1;
		e->cap = src->n + 16;
		for (k = 0; k < src->n; k++) {
			e->items[k].key = strdup(src->items[k].key);
			e->items[k].value = strdup(src->items[k].value);
			e->n++;
			if (!e->items[k].key || !e->items[k].value)
				return -1;
		}
		if (run_options_env(&side->runs[i].info, e))
			return -1;
		s->nrefs += e->n;
	}
	s->refs = calloc(s->nrefs ? s->nrefs : 1, sizeof(*s->refs));
	if (!s->refs)
		return -1;
	s->nrefs = 0;
	for (i = 0; i < side->nruns; i++)
		for (k = 0; k < s->envs[i].n; k++)
			s->refs[s->nrefs++] = (struct env_ref) {
				.key = s->envs[i].items[k].key,
				.value = s->envs[i].items[k].value,
				.run = i, .ord = (*ord)++,
			};
	qsort(s->refs, s->nrefs, sizeof(*s->refs), ref_by_key);
	return 0;
}

/* The first pair of key in s (s->nrefs when none). */
static size_t side_find(const struct env_side *s, const char *key)
{
	size_t lo = 0, hi = s->nrefs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->refs[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The distinct values of key over a side's runs in run order, " | "
 * between them; a run without the key shows ENV_ABSENT, runs left out (no
 * results) count for nothing.  malloc'ed; NULL on ENOMEM.
 */
static char *side_values(const struct env_side *s, const char *key)
{
	struct env_ref *seq = calloc(s->nruns ? s->nruns : 1, sizeof(*seq));
	size_t at = side_find(s, key), i, n = 0, keep = 0, len = 1, used = 0;
	char *out;

	if (!seq)
		return NULL;
	for (i = 0; i < s->nruns; i++) {
		const char *v = ENV_ABSENT;

		while (at < s->nrefs && strcmp(s->refs[at].key, key) == 0 &&
		       s->refs[at].run < i)
			at++;
		if (at < s->nrefs && s->refs[at].run == i &&
		    strcmp(s->refs[at].key, key) == 0)
			v = s->refs[at].value;
		if (s->envs[i].n)
			seq[n++] = (struct env_ref) { .value = v, .run = i,
						      .ord = i };
	}
	/* the first run of each value, then those back in run order */
	qsort(seq, n, sizeof(*seq), ref_by_value);
	for (i = 0; i < n; i++)
		if (!i || strcmp(seq[i].value, seq[keep - 1].value) != 0) {
			seq[keep++] = seq[i];
			len += strlen(seq[i].value) + 3;
		}
	qsort(seq, keep, sizeof(*seq), ref_by_ord);
	out = calloc(1, len);
	for (i = 0; out && i < keep; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s",
					 used ? " | " : "", seq[i].value);
	free(seq);
	return out;
}

static int add_envd(struct cmp *c, const char *key, char *b, char *n,
		    size_t *cap)
{
	if (c->nenvd == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct cmp_envdiff *v = realloc(c->envd, nc * sizeof(*v));

		if (!v)
			return -1;
		c->envd = v;
		*cap = nc;
	}
	snprintf(c->envd[c->nenvd].key, sizeof(c->envd[c->nenvd].key), "%s",
		 key);
	c->envd[c->nenvd].base = b;
	c->envd[c->nenvd].new = n;
	c->nenvd++;
	if (strcmp(key, "copyscope.build_flavour") == 0)
		c->flavour_differs = true;
	return 0;
}

/*
 * Every key of either side, once, in the order the runs first show it
 * (base runs first): malloc'ed refs into *keys.  0 or -1 (ENOMEM).
 */
static int union_keys(const struct env_side *b, const struct env_side *n,
		      struct env_ref **keys, size_t *nkeys)
{
	struct env_ref *k = calloc(b->nrefs + n->nrefs + 1, sizeof(*k));
	size_t i, keep = 0;

	*keys = k;
	*nkeys = 0;
	if (!k)
		return -1;
	memcpy(k, b->refs, b->nrefs * sizeof(*k));
	memcpy(k + b->nrefs, n->refs, n->nrefs * sizeof(*k));
	qsort(k, b->nrefs + n->nrefs, sizeof(*k), ref_by_key);
	for (i = 0; i < b->nrefs + n->nrefs; i++)
		if (!keep || strcmp(k[i].key, k[keep - 1].key) != 0)
			k[keep++] = k[i];
	qsort(k, keep, sizeof(*k), ref_by_ord);
	*nkeys = keep;
	return 0;
}

int cmp_env_diff(struct cmp *c)
{
	struct env_side bs, ns;
	struct env_ref *keys = NULL;
	size_t ord = 0, nkeys = 0, cap = 0, i;
	int rc = -1;

	memset(&ns, 0, sizeof(ns));
	if (side_load(&c->base, &bs, &ord) != 0 ||
	    side_load(&c->new, &ns, &ord) != 0 ||
	    union_keys(&bs, &ns, &keys, &nkeys) != 0)
		goto out;
	for (i = 0; i < nkeys; i++) {
		const char *key = keys[i].key;
		char *b, *n;
		bool differ;

		if (env_ignored(key))
			continue;
		b = side_values(&bs, key);
		n = side_values(&ns, key);
		differ = !b || !n || strcmp(b, n) != 0;
		if (b && n && differ && add_envd(c, key, b, n, &cap) == 0)
			continue;	/* the diff owns b and n */
		free(b);
		free(n);
		if (differ)
			goto out;	/* ENOMEM */
	}
	rc = 0;
out:
	free(keys);
	side_free(&bs);
	side_free(&ns);
	return rc;
}
