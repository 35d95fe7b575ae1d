/*
 * profile_diff.c - the kernel profile diffed function by function,
 * paired over ab's rounds or unpaired between two sets of runs (see
 * profile_diff.h).
 */
#include "comparison/profile_diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison/ab_verdict.h"
#include "stats/hier.h"

/*
 * The keys seen, by name: the functions seen as a leaf (by function) or
 * the frames' paths "a;b;c" (by frame), with an open-addressing index.
 */
struct ftab {
	char **name;
	size_t n, cap;
	long *slot;		/* [nslot]: index into name, -1 empty */
	size_t nslot;
};

static size_t hash_of(const char *s, size_t len)
{
	size_t h = 5381, i;

	for (i = 0; i < len; i++)
		h = h * 33 + (unsigned char)s[i];
	return h;
}

/* Double the index (and the table's room); -1 on ENOMEM. */
static int ftab_grow(struct ftab *t)
{
	size_t nc = t->cap ? t->cap * 2 : 64, ns = nc * 2, i;
	char **v = realloc(t->name, nc * sizeof(*v));
	long *slot;

	if (!v)
		return -1;
	t->name = v;
	t->cap = nc;
	slot = malloc(ns * sizeof(*slot));
	if (!slot)
		return -1;
	for (i = 0; i < ns; i++)
		slot[i] = -1;
	for (i = 0; i < t->n; i++) {
		size_t h = hash_of(t->name[i], strlen(t->name[i])) & (ns - 1);

		while (slot[h] >= 0)
			h = (h + 1) & (ns - 1);
		slot[h] = (long)i;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = ns;
	return 0;
}

/* The index of the key key[0..len), made on first sight; -1: ENOMEM. */
static long key_of(struct ftab *t, const char *key, size_t len)
{
	size_t h;

	if (t->n == t->cap && ftab_grow(t) != 0)
		return -1;
	h = hash_of(key, len) & (t->nslot - 1);
	for (; t->slot[h] >= 0; h = (h + 1) & (t->nslot - 1)) {
		const char *n = t->name[t->slot[h]];

		if (strncmp(n, key, len) == 0 && n[len] == '\0')
			return t->slot[h];
	}
	t->name[t->n] = strndup(key, len);
	if (!t->name[t->n])
		return -1;
	t->slot[h] = (long)t->n;
	return (long)t->n++;
}

static void ftab_free(struct ftab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
	free(t->slot);
}

/*
 * Each stack's keys: stack i adds its ns per op to id[off[i] ..
 * off[i + 1]): its leaf function (by function), or each of its frames'
 * paths, root first (by frame).
 */
struct keymap {
	size_t *off;
	long *id;
};

static void keymap_free(struct keymap *m)
{
	free(m->off);
	free(m->id);
	m->off = NULL;
	m->id = NULL;
}

/* One side's units: per unit the op's time and each function's ns/op. */
struct units {
	double *op;		/* [n] */
	double *v;		/* [n * nf], filled as functions appear */
	uint64_t *cnt;		/* [nf]: profile samples per function */
	uint64_t samples;
	size_t n, cap, nf;
};

static bool usable(const struct kv_prof_sample *p)
{
	return p->samples > 0 && isfinite(p->op_ns) && p->op_ns > 0;
}

/* Widen u's rows to nf functions (new ones 0). */
static int units_widen(struct units *u, size_t nf, size_t cap)
{
	double *v;
	uint64_t *c;
	size_t i;

	if (nf <= u->nf && cap <= u->cap)
		return 0;
	if (nf < u->nf)
		nf = u->nf;
	if (cap < u->cap)
		cap = u->cap;
	v = calloc((nf ? nf : 1) * (cap ? cap : 1), sizeof(*v));
	c = calloc(nf ? nf : 1, sizeof(*c));
	if (!v || !c) {
		free(v);
		free(c);
		return -1;
	}
	for (i = 0; i < u->n; i++)
		memcpy(v + i * nf, u->v + i * u->nf, u->nf * sizeof(*v));
	if (u->nf)
		memcpy(c, u->cnt, u->nf * sizeof(*c));
	free(u->v);
	free(u->cnt);
	u->v = v;
	u->cnt = c;
	u->nf = nf;
	if (cap > u->cap) {
		double *op = realloc(u->op, cap * sizeof(*op));

		if (!op)
			return -1;
		u->op = op;
		u->cap = cap;
	}
	return 0;
}

/*
 * Append traced sample p of k as a unit of u, its keys in t (km: each
 * stack's keys, nf of them so far).  0, or -1 on ENOMEM.
 */
static int add_unit(struct units *u, const struct result_kernel *k,
		    const struct keymap *km, const struct kv_prof_sample *p,
		    size_t nf)
{
	size_t j, q;
	double *row;

	if (units_widen(u, nf, u->n + 1 > u->cap ? 2 * u->n + 8 : u->cap))
		return -1;
	row = u->v + u->n * u->nf;
	memset(row, 0, u->nf * sizeof(*row));	/* a folded unit's, maybe */
	for (j = 0; j < p->n; j++) {
		size_t st = p->stack[j];

		if (st >= k->nstacks)
			continue;
		for (q = km->off[st]; q < km->off[st + 1]; q++) {
			size_t f = (size_t)km->id[q];

			row[f] += (double)p->count[j] / (double)p->samples *
				  p->op_ns;
			u->cnt[f] += p->count[j];
		}
	}
	u->op[u->n++] = p->op_ns;
	u->samples += p->samples;
	return 0;
}

static void units_free(struct units *u)
{
	free(u->op);
	free(u->v);
	free(u->cnt);
}

/*
 * The keys of each stack of k into *m (by_frame: every frame's path,
 * else the leaf function), the new ones added to t.  0, -1 on ENOMEM.
 */
static int keys_of(struct ftab *t, const struct result_kernel *k,
		   bool by_frame, struct keymap *m)
{
	size_t i, n = 0, cap = k->nstacks + 1;

	m->off = malloc((k->nstacks + 1) * sizeof(*m->off));
	m->id = malloc(cap * sizeof(*m->id));
	if (!m->off || !m->id)
		goto nomem;
	for (i = 0; i < k->nstacks; i++) {
		const char *fr = k->stacks[i].frames, *e = fr;

		m->off[i] = n;
		for (;;) {
			const char *semi = strchr(e, ';');
			size_t len = semi ? (size_t)(semi - fr) : strlen(fr);
			long id;

			e = semi ? semi + 1 : NULL;
			if (!by_frame && e)
				continue;	/* the leaf only */
			if (n == cap) {
				long *v = realloc(m->id, 2 * cap *
						  sizeof(*v));

				if (!v)
					goto nomem;
				m->id = v;
				cap *= 2;
			}
			if (by_frame) {
				id = key_of(t, fr, len);
			} else {
				const char *leaf = strrchr(fr, ';');

				leaf = leaf ? leaf + 1 : fr;
				id = key_of(t, leaf, strlen(leaf));
			}
			if (id < 0)
				goto nomem;
			m->id[n++] = id;
			if (!e)
				break;
		}
	}
	m->off[k->nstacks] = n;
	return 0;
nomem:
	keymap_free(m);
	return -1;
}

static int by_change(const void *a, const void *b)
{
	const struct pdiff_row *x = a, *y = b;
	double ax = fabs(x->change.est), ay = fabs(y->change.est);

	if (ax != ay)
		return ax > ay ? -1 : 1;
	return strcmp(x->function, y->function);
}

/* Whether ci lies wholly above or below ctl's CI. */
static bool clears(const struct mean_ci *ci, const struct mean_ci *ctl)
{
	return ci->lo > ctl->hi || ci->hi < ctl->lo;
}

static bool excludes_zero(const struct mean_ci *ci)
{
	return ci->lo > 0 || ci->hi < 0;
}

static void head_of(struct pdiff *d, const struct result_kernel *k)
{
	snprintf(d->event, sizeof(d->event), "%s", k->prof_event);
	d->hz = k->prof_hz;
	d->pmu = k->prof_pmu;
}

/* Column f of u's units into buf (minus base's, when base). */
static void column(const struct units *u, const struct units *base,
		   size_t f, double *buf)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		buf[i] = (f < u->nf ? u->v[i * u->nf + f] : 0) -
			 (base ? (f < base->nf ? base->v[i * base->nf + f] :
				  0) : 0);
}

/*
 * The next row of d, for function f of t, with its sample counts from
 * a and b; NULL on ENOMEM.
 */
static struct pdiff_row *new_row(struct pdiff *d, const struct ftab *t,
				 size_t f, const struct units *a,
				 const struct units *b)
{
	struct pdiff_row *r = &d->rows[d->n];

	r->function = strdup(t->name[f]);
	if (!r->function)
		return NULL;
	d->n++;
	r->a_samples = f < a->nf ? a->cnt[f] : 0;
	r->b_samples = f < b->nf ? b->cnt[f] : 0;
	return r;
}

/* The rows of a paired diff from u[0..2] (the same rounds). */
static int paired_rows(struct pdiff *d, const struct ftab *t,
		       const struct units u[3])
{
	size_t n = u[0].n, f, i;
	double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));

	d->rows = calloc(t->n ? t->n : 1, sizeof(*d->rows));
	if (!x || !y || !d->rows) {
		free(x);
		free(y);
		return -1;
	}
	for (i = 0; i < n; i++) {
		x[i] = u[1].op[i] - u[0].op[i];
		y[i] = u[2].op[i] - u[0].op[i];
	}
	stats_mean_ci(x, n, PDIFF_CONF, &d->op);
	stats_mean_ci(y, n, PDIFF_CONF, &d->op_ctl);
	d->a_ns = stats_mean(u[0].op, n);
	d->b_ns = stats_mean(u[1].op, n);
	for (f = 0; f < t->n; f++) {
		struct pdiff_row *r;

		if (!u[0].cnt[f] && !u[1].cnt[f] && !u[2].cnt[f])
			continue;	/* only in rounds left out */
		r = new_row(d, t, f, &u[0], &u[1]);
		if (!r) {
			free(x);
			free(y);
			return -1;
		}
		column(&u[0], NULL, f, x);
		r->a_ns = stats_mean(x, n);
		column(&u[1], NULL, f, x);
		r->b_ns = stats_mean(x, n);
		column(&u[1], &u[0], f, x);
		column(&u[2], &u[0], f, y);
		stats_mean_ci(x, n, PDIFF_CONF, &r->change);
		stats_mean_ci(y, n, PDIFF_CONF, &r->ctl);
		r->moved = excludes_zero(&r->change) &&
			   clears(&r->change, &r->ctl);
	}
	free(x);
	free(y);
	qsort(d->rows, d->n, sizeof(*d->rows), by_change);
	return 0;
}

static const char *const role_name[3] = { "A", "B", "A'" };
static const char *const cmp_side_name[2] = { "base", "new" };

/* Why k cannot be diffed ("" when it can), into d->why. */
static bool missing(struct pdiff *d, const struct result_kernel *k,
		    const char *side)
{
	if (!k || !kview_mask_has(k->views, "profile")) {
		snprintf(d->why, sizeof(d->why), "%s was not profiled (--kernel "
			 "profile)", side);
		return true;
	}
	if (!k->prof_per) {
		snprintf(d->why, sizeof(d->why), "%s's profile was stored "
			 "without its traced samples (by a copyscope before "
			 "they were recorded): no diff", side);
		return true;
	}
	return false;
}

int pdiff_paired_by(const struct result_kernel *const k[3], const bool *drop,
		    size_t ndrop, bool by_frame, struct pdiff *out)
{
	struct ftab t = { 0 };
	struct units u[3];
	struct keymap km[3];
	size_t rounds, r, s;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(u, 0, sizeof(u));
	memset(km, 0, sizeof(km));
	out->paired = true;
	out->by_frame = by_frame;
	out->nruns[0] = out->nruns[1] = 1;
	out->op.est = out->op_ctl.est = NAN;
	for (s = 0; s < 3; s++)
		if (missing(out, k[s], role_name[s]))
			return 0;
	head_of(out, k[0]);
	rounds = k[0]->nprof_per;
	for (s = 0; s < 3; s++) {
		if (k[s]->nprof_per < rounds)
			rounds = k[s]->nprof_per;
		if (keys_of(&t, k[s], by_frame, &km[s]) != 0)
			goto out;
	}
	for (r = 0; r < rounds; r++) {
		if (drop && r < ndrop && drop[r]) {
			out->dropped++;
			continue;
		}
		if (!usable(&k[0]->prof_per[r]) || !usable(&k[1]->prof_per[r]) ||
		    !usable(&k[2]->prof_per[r])) {
			out->left_out++;
			continue;
		}
		for (s = 0; s < 3; s++)
			if (add_unit(&u[s], k[s], &km[s], &k[s]->prof_per[r],
				     t.n) != 0)
				goto out;
	}
	for (s = 0; s < 3; s++) {
		if (units_widen(&u[s], t.n, u[s].cap) != 0)
			goto out;
		out->samples[s] = u[s].samples;
	}
	out->units[0] = out->units[1] = u[0].n;
	if (u[0].n < 2 && out->dropped) {
		snprintf(out->why, sizeof(out->why), "%zu of %zu rounds left: "
			 "%zu were disturbed and left out (--drop-noisy), %zu "
			 "had a side without profile samples (2 or more "
			 "needed)", u[0].n, rounds, out->dropped,
			 out->left_out);
		rc = 0;
		goto out;
	}
	if (u[0].n < 2) {
		snprintf(out->why, sizeof(out->why), "%zu of %zu rounds have "
			 "profile samples on every side (2 or more needed): a "
			 "longer --sample-time or a higher --profile-hz gives "
			 "more", u[0].n, rounds);
		rc = 0;
		goto out;
	}
	rc = paired_rows(out, &t, u);
out:
	for (s = 0; s < 3; s++) {
		keymap_free(&km[s]);
		units_free(&u[s]);
	}
	ftab_free(&t);
	return rc;
}

/* The rows of an unpaired diff of u[0] (A) against u[1] (B). */
static int unpaired_rows(struct pdiff *d, const struct ftab *t,
			 const struct units u[2])
{
	size_t f;
	double *x = malloc((u[0].n ? u[0].n : 1) * sizeof(*x));
	double *y = malloc((u[1].n ? u[1].n : 1) * sizeof(*y));

	d->rows = calloc(t->n ? t->n : 1, sizeof(*d->rows));
	if (!x || !y || !d->rows) {
		free(x);
		free(y);
		return -1;
	}
	stats_welch_diff_ci(u[0].op, u[0].n, u[1].op, u[1].n, PDIFF_CONF,
			    &d->op);
	d->a_ns = stats_mean(u[0].op, u[0].n);
	d->b_ns = stats_mean(u[1].op, u[1].n);
	for (f = 0; f < t->n; f++) {
		struct pdiff_row *r;

		if (!u[0].cnt[f] && !u[1].cnt[f])
			continue;	/* only in samples left out */
		r = new_row(d, t, f, &u[0], &u[1]);
		if (!r) {
			free(x);
			free(y);
			return -1;
		}
		column(&u[0], NULL, f, x);
		column(&u[1], NULL, f, y);
		r->a_ns = stats_mean(x, u[0].n);
		r->b_ns = stats_mean(y, u[1].n);
		stats_welch_diff_ci(x, u[0].n, y, u[1].n, PDIFF_CONF,
				    &r->change);
		r->ctl.est = r->ctl.lo = r->ctl.hi = NAN;
		r->moved = excludes_zero(&r->change);
	}
	free(x);
	free(y);
	qsort(d->rows, d->n, sizeof(*d->rows), by_change);
	return 0;
}

/*
 * Fold the units u[from..u->n) into one, their mean (a run's samples
 * into the run).  Nothing when there are none.
 */
static void fold_units(struct units *u, size_t from)
{
	size_t n = u->n - from, i, f;
	double *row = u->v + from * u->nf;

	if (n < 2)
		return;
	for (i = 1; i < n; i++) {
		for (f = 0; f < u->nf; f++)
			row[f] += row[i * u->nf + f];
		u->op[from] += u->op[from + i];
	}
	for (f = 0; f < u->nf; f++)
		row[f] /= (double)n;
	u->op[from] /= (double)n;
	u->n = from + 1;
}

/* Side s's profiles into u[s] (their functions into t); by_run: each
   profile's samples folded into one unit. */
static int side_units(struct pdiff *d, struct ftab *t,
		      const struct result_kernel *const *k, size_t nk,
		      bool by_run, struct units *u)
{
	size_t i, j;

	for (i = 0; i < nk; i++) {
		struct keymap km = { NULL, NULL };
		size_t from = u->n;

		if (keys_of(t, k[i], false, &km) != 0)
			return -1;
		for (j = 0; j < k[i]->nprof_per; j++) {
			if (!usable(&k[i]->prof_per[j])) {
				d->left_out++;
				continue;
			}
			if (add_unit(u, k[i], &km, &k[i]->prof_per[j],
				     t->n) != 0) {
				keymap_free(&km);
				return -1;
			}
		}
		keymap_free(&km);
		if (by_run)
			fold_units(u, from);
	}
	return 0;
}

int pdiff_unpaired(const struct result_kernel *const *a, size_t na,
		   const struct result_kernel *const *b, size_t nb,
		   size_t nruns_a, size_t nruns_b, struct pdiff *out)
{
	const struct result_kernel *const *side[2] = { a, b };
	size_t nside[2] = { na, nb }, s, i;
	struct ftab t = { 0 };
	struct units u[2];
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(u, 0, sizeof(u));
	out->nruns[0] = nruns_a;
	out->nruns[1] = nruns_b;
	out->op.est = out->op_ctl.est = out->op_ctl.lo = out->op_ctl.hi = NAN;
	for (s = 0; s < 2; s++) {
		if (!nside[s]) {
			snprintf(out->why, sizeof(out->why), "%s was not "
				 "profiled (--kernel profile)",
				 cmp_side_name[s]);
			return 0;
		}
		for (i = 0; i < nside[s]; i++)
			if (missing(out, side[s][i], cmp_side_name[s]))
				return 0;
	}
	head_of(out, a[0]);
	out->by_run = nruns_a >= PDIFF_MIN_RUNS && nruns_b >= PDIFF_MIN_RUNS &&
		      na == nruns_a && nb == nruns_b;
	for (s = 0; s < 2; s++) {
		if (side_units(out, &t, side[s], nside[s], out->by_run,
			       &u[s]) != 0)
			goto out;
		out->units[s] = u[s].n;
		out->samples[s] = u[s].samples;
	}
	for (s = 0; s < 2; s++)
		if (units_widen(&u[s], t.n, u[s].cap) != 0)
			goto out;
	if (u[0].n < 2 || u[1].n < 2) {
		snprintf(out->why, sizeof(out->why), "%s with profile "
			 "samples: %zu on base, %zu on new (2 or more needed "
			 "on each)", out->by_run ? "runs" : "traced samples",
			 u[0].n, u[1].n);
		rc = 0;
		goto out;
	}
	rc = unpaired_rows(out, &t, u);
out:
	for (s = 0; s < 2; s++)
		units_free(&u[s]);
	ftab_free(&t);
	return rc;
}

/* Round r's kept samples: one of cfg's flagged as disturbed. */
static bool disturbed(const struct result_config *const cfg[3], size_t r)
{
	size_t s;

	for (s = 0; s < 3; s++) {
		const struct result_load *l = cfg[s] ? cfg[s]->load : NULL;

		if (l && l->flags && r < cfg[s]->nsamples && l->flags[r] != 0)
			return true;
	}
	return false;
}

int pdiff_paired(const struct result_kernel *const k[3], const bool *drop,
		 size_t ndrop, struct pdiff *out)
{
	return pdiff_paired_by(k, drop, ndrop, false, out);
}

int pdiff_ab_by(const struct result *res, size_t nres, bool drop_noisy,
		bool by_frame, struct pdiff *out)
{
	const struct result_kernel *k[3] = { NULL, NULL, NULL };
	const struct result_config *cfg[3] = { NULL, NULL, NULL };
	bool any = false, *drop = NULL;
	size_t i, nr = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nres; i++) {
		const struct result_config *c = res[i].cfg;

		if (!c || !c->kernel ||
		    !kview_mask_has(c->kernel->views, "profile") ||
		    c->job < 0 || c->job >= AB_NROLES)
			continue;
		k[c->job] = c->kernel;
		cfg[c->job] = c;
		if (c->nsamples > nr)
			nr = c->nsamples;
		any = true;
	}
	if (!any)
		return 1;
	if (drop_noisy && nr) {
		drop = calloc(nr, sizeof(*drop));
		if (!drop)
			return -1;
		for (i = 0; i < nr; i++)
			drop[i] = disturbed(cfg, i);
	}
	rc = pdiff_paired_by(k, drop, nr, by_frame, out);
	free(drop);
	return rc;
}

int pdiff_ab(const struct result *res, size_t nres, bool drop_noisy,
	     struct pdiff *out)
{
	return pdiff_ab_by(res, nres, drop_noisy, false, out);
}

double pdiff_top_sum(const struct pdiff *d, size_t top)
{
	double s = 0;
	size_t i;

	for (i = 0; i < d->n && i < top; i++)
		s += d->rows[i].change.est;
	return s;
}

size_t pdiff_moved(const struct pdiff *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->rows[i].moved;
	return n;
}

void pdiff_free(struct pdiff *d)
{
	size_t i;

	for (i = 0; d && i < d->n; i++)
		free(d->rows[i].function);
	if (d)
		free(d->rows);
}
