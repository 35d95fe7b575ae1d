/*
 * profile_funcs.c - the profile view's functions and their share of the
 * op's time (see profile_funcs.h).
 */
#include "results/profile_funcs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/kernel_records.h"

/* Distinct frames of one stack at most (deeper frames share a row). */
#define PROF_MAX_DEPTH 256

struct ftab {
	struct prof_func *v;
	long n, cap;
	long *slot;			/* open addressing: index + 1 */
	size_t nslot;
};

static size_t hash_name(const char *s, size_t l)
{
	size_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < l; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static int rehash(struct ftab *t)
{
	size_t n = t->nslot ? t->nslot * 2 : 1024, i;
	long *s = calloc(n, sizeof(*s)), j;

	if (!s)
		return -1;
	for (j = 0; j < t->n; j++) {
		const char *nm = t->v[j].name;

		i = hash_name(nm, strlen(nm)) & (n - 1);
		while (s[i])
			i = (i + 1) & (n - 1);
		s[i] = j + 1;
	}
	free(t->slot);
	t->slot = s;
	t->nslot = n;
	return 0;
}

/* The index of the function named s[0..l), made on first sight; -1. */
static long func_of(struct ftab *t, const char *s, size_t l)
{
	size_t i;

	if ((size_t)(t->n + 1) * 2 > t->nslot && rehash(t) != 0)
		return -1;
	i = hash_name(s, l) & (t->nslot - 1);
	while (t->slot[i]) {
		const char *nm = t->v[t->slot[i] - 1].name;

		if (strlen(nm) == l && !memcmp(nm, s, l))
			return t->slot[i] - 1;
		i = (i + 1) & (t->nslot - 1);
	}
	if (t->n == t->cap) {
		long nc = t->cap ? t->cap * 2 : 256;
		struct prof_func *v = realloc(t->v, (size_t)nc * sizeof(*v));

		if (!v)
			return -1;
		t->v = v;
		t->cap = nc;
	}
	t->v[t->n].name = strndup(s, l);
	if (!t->v[t->n].name)
		return -1;
	t->v[t->n].self = t->v[t->n].total = 0;
	t->slot[i] = t->n + 1;
	return t->n++;
}

/* One stack's samples: its leaf's self, each distinct frame's total. */
static int add_stack(struct ftab *t, const struct kv_prof_stack *st)
{
	long seen[PROF_MAX_DEPTH], f = -1;
	size_t nseen = 0, k;
	const char *p = st->frames;

	while (*p) {
		size_t l = strcspn(p, ";");

		f = func_of(t, p, l);
		if (f < 0 || !t->v)
			return -1;
		for (k = 0; k < nseen && seen[k] != f; k++)
			;
		if (k == nseen) {
			/* func_of made t->v[f], its counts zeroed */
			/* NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign) */
			t->v[f].total += st->count;
			if (nseen < PROF_MAX_DEPTH)
				seen[nseen++] = f;
		}
		p += l;
		if (*p)
			p++;
	}
	if (f >= 0)
		t->v[f].self += st->count;
	return 0;
}

static int by_self(const void *a, const void *b)
{
	const struct prof_func *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

long prof_functions(const struct result_kernel *k, struct prof_func **out)
{
	struct ftab t = { 0 };
	size_t i;

	*out = NULL;
	for (i = 0; i < k->nstacks; i++) {
		if (add_stack(&t, &k->stacks[i]) != 0) {
			free(t.slot);
			prof_funcs_free(t.v, t.n);
			return -1;
		}
	}
	free(t.slot);
	if (t.n)
		qsort(t.v, (size_t)t.n, sizeof(*t.v), by_self);
	*out = t.v;
	return t.n;
}

void prof_funcs_free(struct prof_func *f, long n)
{
	long i;

	for (i = 0; f && i < n; i++)
		free(f[i].name);
	free(f);
}

double prof_op_ns(const struct result_kernel *k)
{
	if (isfinite(k->untraced_ns_per_op) && k->untraced_ns_per_op > 0)
		return k->untraced_ns_per_op;
	if (isfinite(k->traced_ns_per_op) && k->traced_ns_per_op > 0)
		return k->traced_ns_per_op;
	return NAN;
}

void prof_share_ci(uint64_t k, uint64_t n, double *lo, double *hi)
{
	const double z = 1.959963984540054;
	double p, d, c, h;

	if (!n) {
		*lo = *hi = NAN;
		return;
	}
	p = (double)k / (double)n;
	d = 1.0 + z * z / (double)n;
	c = (p + z * z / (2.0 * (double)n)) / d;
	h = z * sqrt(p * (1.0 - p) / (double)n +
		     z * z / (4.0 * (double)n * (double)n)) / d;
	/* the ends are exact: rounding leaves 1e-17 for none of n */
	*lo = k == 0 || c - h < 0 ? 0 : c - h;
	*hi = k == n || c + h > 1 ? 1 : c + h;
}
