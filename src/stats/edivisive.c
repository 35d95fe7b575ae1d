/*
 * edivisive.c - E-divisive means change points with a permutation test
 * (see edivisive.h for the statistic, the test and the costs).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats/edivisive.h"
#include "stats/summary.h"

double ediv_q_direct(const double *x, size_t n, size_t tau)
{
	double wl = 0, wr = 0, b = 0, m, k;
	size_t i, j;

	if (tau < 2 || n < tau + 2)
		return NAN;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double d = fabs(x[i] - x[j]);

			if (j < tau)
				wl += d;
			else if (i >= tau)
				wr += d;
			else
				b += d;
		}
	m = (double)tau;
	k = (double)(n - tau);
	return m * k / (double)n * (2 * b / (m * k) - wl / (m * (m - 1) / 2) -
				    wr / (k * (k - 1) / 2));
}

/* Scratch of one pass over a segment of up to n points. */
struct ediv_work {
	size_t *order, *rank;
	double *wl, *wr;
	double *fsum;		/* Fenwick tree: sums by rank */
	size_t *fcnt;		/* Fenwick tree: counts by rank */
	double *perm;		/* a shuffled copy */
	size_t *prank;		/* its points' ranks */
};

static void work_free(struct ediv_work *w)
{
	free(w->order);
	free(w->rank);
	free(w->wl);
	free(w->wr);
	free(w->fsum);
	free(w->fcnt);
	free(w->perm);
	free(w->prank);
}

static int work_alloc(struct ediv_work *w, size_t n)
{
	memset(w, 0, sizeof(*w));
	w->order = malloc(n * sizeof(*w->order));
	w->rank = malloc(n * sizeof(*w->rank));
	w->wl = malloc((n + 1) * sizeof(*w->wl));
	w->wr = malloc((n + 1) * sizeof(*w->wr));
	w->fsum = malloc((n + 1) * sizeof(*w->fsum));
	w->fcnt = malloc((n + 1) * sizeof(*w->fcnt));
	w->perm = malloc(n * sizeof(*w->perm));
	w->prank = malloc(n * sizeof(*w->prank));
	if (!w->order || !w->rank || !w->wl || !w->wr || !w->fsum ||
	    !w->fcnt || !w->perm || !w->prank) {
		work_free(w);
		return -1;
	}
	return 0;
}

static int cmp_by_value(const void *a, const void *b, void *base)
{
	double x = ((const double *)base)[*(const size_t *)a];
	double y = ((const double *)base)[*(const size_t *)b];

	return (x > y) - (x < y);
}

/* The distance sum from x (rank r) to the points in the tree, then add it. */
static double join(struct ediv_work *w, size_t n, size_t r, double x,
		   size_t cnt_all, double sum_all)
{
	size_t i, cb = 0;
	double sb = 0;

	for (i = r; i > 0; i -= i & -i) {	/* ranks below r */
		cb += w->fcnt[i];
		sb += w->fsum[i];
	}
	for (i = r + 1; i <= n; i += i & -i) {
		w->fcnt[i]++;
		w->fsum[i] += x;
	}
	return x * (double)cb - sb + (sum_all - sb) -
		(double)(cnt_all - cb) * x;
}

/* The rank of each of y[0..n) into w->rank (ties in any order). */
static void rank_points(const double *y, size_t n, struct ediv_work *w)
{
	size_t i;

	for (i = 0; i < n; i++)
		w->order[i] = i;
	qsort_r(w->order, n, sizeof(*w->order), cmp_by_value, (void *)y);
	for (i = 0; i < n; i++)
		w->rank[w->order[i]] = i;
}

/*
 * The within sums wl[t] of y[0..t) and wr[t] of y[t..n), for every t;
 * rank[] the points' ranks.
 */
static void within_sums(const double *y, const size_t *rank, size_t n,
			struct ediv_work *w)
{
	double sum = 0;
	size_t t;

	memset(w->fsum, 0, (n + 1) * sizeof(*w->fsum));
	memset(w->fcnt, 0, (n + 1) * sizeof(*w->fcnt));
	w->wl[0] = 0;
	for (t = 0; t < n; t++) {
		w->wl[t + 1] = w->wl[t] + join(w, n, rank[t], y[t], t, sum);
		sum += y[t];
	}
	memset(w->fsum, 0, (n + 1) * sizeof(*w->fsum));
	memset(w->fcnt, 0, (n + 1) * sizeof(*w->fcnt));
	w->wr[n] = 0;
	sum = 0;
	for (t = n; t-- > 0;) {
		w->wr[t] = w->wr[t + 1] + join(w, n, rank[t], y[t], n - 1 - t,
					       sum);
		sum += y[t];
	}
}

/*
 * The best split of y[0..n) (ranks rank[]), n >= 2 * min_size, with w's
 * scratch.
 */
static void best_split(const double *y, const size_t *rank, size_t n,
		       size_t min_size, struct ediv_work *w, size_t *tau,
		       double *q)
{
	double total, best = -INFINITY;
	size_t t, at = min_size;

	within_sums(y, rank, n, w);
	total = w->wl[n];
	for (t = min_size; t + min_size <= n; t++) {
		double m = (double)t, k = (double)(n - t);
		double b = total - w->wl[t] - w->wr[t];
		double v = m * k / (double)n *
			(2 * b / (m * k) - w->wl[t] / (m * (m - 1) / 2) -
			 w->wr[t] / (k * (k - 1) / 2));

		if (v > best) {
			best = v;
			at = t;
		}
	}
	*tau = at;
	*q = best;
}

int ediv_best_split(const double *x, size_t n, size_t min_size,
		    size_t *tau, double *q)
{
	struct ediv_work w;

	if (min_size < 2)
		min_size = 2;
	if (n < 2 * min_size)
		return 1;
	if (work_alloc(&w, n) != 0)
		return -1;
	rank_points(x, n, &w);
	best_split(x, w.rank, n, min_size, &w, tau, q);
	work_free(&w);
	return 0;
}

/* 2 / C(n, k): the exact p of the most extreme split (edivisive.h). */
static double split_floor(size_t n, size_t k)
{
	double c = 1;
	size_t i, j = k < n - k ? k : n - k;

	for (i = 1; i <= j; i++)	/* C(n, j), exact while it fits */
		c = c * (double)(n - j + i) / (double)i;
	return 2 / c;
}

double ediv_min_p(size_t n, size_t k, unsigned perms)
{
	double f, floor_perm = 1.0 / (1.0 + perms);

	if (k == 0 || k >= n)
		return NAN;
	f = split_floor(n, k);
	return f > floor_perm ? f : floor_perm;
}

unsigned ediv_perms_at(size_t n, const struct ediv_opts *o)
{
	unsigned long more = 10UL * o->perms;
	size_t k;

	if (o->perms >= EDIV_MAX_PERMS)
		return o->perms;
	for (k = o->min_size; k <= n / 2; k++) {
		double f = split_floor(n, k);

		if (f < o->alpha && f * EDIV_NEAR_FACTOR >= o->alpha)
			return more < EDIV_MAX_PERMS ? (unsigned)more :
				EDIV_MAX_PERMS;
	}
	return o->perms;
}

/*
 * The permutation p-value of a segment's largest Q.  A shuffle moves the
 * points, not their values: their ranks are found once and move along.
 */
static double perm_p(const double *y, size_t n, double q,
		     const struct ediv_opts *o, uint64_t *rng,
		     struct ediv_work *w)
{
	size_t i, j, tau, hits = 0, rt;
	unsigned r, perms = ediv_perms_at(n, o);
	double qp, tmp;

	memcpy(w->perm, y, n * sizeof(*y));
	rank_points(y, n, w);
	memcpy(w->prank, w->rank, n * sizeof(*w->rank));
	for (r = 0; r < perms; r++) {
		for (i = n - 1; i > 0; i--) {	/* Fisher-Yates */
			j = stats_rng_index(rng, i + 1);
			tmp = w->perm[i];
			w->perm[i] = w->perm[j];
			w->perm[j] = tmp;
			rt = w->prank[i];
			w->prank[i] = w->prank[j];
			w->prank[j] = rt;
		}
		best_split(w->perm, w->prank, n, o->min_size, w, &tau, &qp);
		if (qp >= q * (1 - 1e-12))
			hits++;
	}
	return (1.0 + (double)hits) / (1.0 + perms);
}

/* A segment [lo, hi) of the series and its best split (q -INF: none). */
struct segment {
	size_t lo, hi, tau;
	double q;
};

static void seg_split(const double *x, struct segment *s,
		      const struct ediv_opts *o, struct ediv_work *w)
{
	s->q = -INFINITY;
	s->tau = 0;
	if (s->hi - s->lo >= 2 * o->min_size) {
		rank_points(x + s->lo, s->hi - s->lo, w);
		best_split(x + s->lo, w->rank, s->hi - s->lo, o->min_size, w,
			   &s->tau, &s->q);
	}
	s->tau += s->lo;
}

static int cmp_point(const void *a, const void *b)
{
	size_t x = ((const struct ediv_point *)a)->index;
	size_t y = ((const struct ediv_point *)b)->index;

	return (x > y) - (x < y);
}

unsigned ediv_perms_for(double alpha)
{
	double want;

	if (!(alpha > 0))
		return EDIV_MAX_PERMS;
	want = ceil(10 / alpha) - 1;
	if (want < EDIV_DEFAULT_PERMS)
		return EDIV_DEFAULT_PERMS;
	return want > EDIV_MAX_PERMS ? EDIV_MAX_PERMS : (unsigned)want;
}

int ediv_find(const double *x, size_t n, const struct ediv_opts *o,
	      struct ediv_point **out, size_t *nout)
{
	return ediv_find_rejected(x, n, o, out, nout, NULL);
}

int ediv_find_rejected(const double *x, size_t n,
		       const struct ediv_opts *o, struct ediv_point **out,
		       size_t *nout, struct ediv_rejected *rej)
{
	struct segment *seg = NULL;
	struct ediv_point *pts = NULL;
	struct ediv_work w;
	uint64_t rng = o->seed;
	size_t nseg = 1, np = 0, i, best;

	*out = NULL;
	*nout = 0;
	if (rej)
		*rej = (struct ediv_rejected){ .q = NAN, .p = NAN };
	if (!(o->alpha > 0 && o->alpha < 1) || o->perms == 0 ||
	    o->min_size < 2)
		return -1;
	if (n < 2 * o->min_size)
		return 0;
	seg = calloc(n, sizeof(*seg));
	pts = calloc(n, sizeof(*pts));
	if (!seg || !pts || work_alloc(&w, n) != 0) {
		free(seg);
		free(pts);
		return -1;
	}
	seg[0] = (struct segment){ .lo = 0, .hi = n };
	seg_split(x, &seg[0], o, &w);
	while (o->max_points == 0 || np < o->max_points) {
		double p;

		for (best = 0, i = 1; i < nseg; i++)
			if (seg[i].q > seg[best].q)
				best = i;
		if (seg[best].q == -INFINITY)
			break;
		p = perm_p(x + seg[best].lo, seg[best].hi - seg[best].lo,
			   seg[best].q, o, &rng, &w);
		/* the estimate's own noise can fall below what any shuffle
		   allows (split_floor); the exact p cannot */
		p = fmax(p, split_floor(seg[best].hi - seg[best].lo,
					seg[best].hi - seg[best].tau));
		if (p >= o->alpha) {
			if (rej)
				*rej = (struct ediv_rejected){
					.lo = seg[best].lo, .hi = seg[best].hi,
					.index = seg[best].tau,
					.q = seg[best].q, .p = p };
			break;
		}
		pts[np++] = (struct ediv_point){ .index = seg[best].tau,
						 .q = seg[best].q, .p = p };
		seg[nseg] = (struct segment){ .lo = seg[best].tau,
					      .hi = seg[best].hi };
		seg[best].hi = seg[best].tau;
		seg_split(x, &seg[best], o, &w);
		seg_split(x, &seg[nseg], o, &w);
		nseg++;
	}
	work_free(&w);
	free(seg);
	if (np == 0) {
		free(pts);
		return 0;
	}
	qsort(pts, np, sizeof(*pts), cmp_point);
	*out = pts;
	*nout = np;
	return 0;
}

/* The points needed past n: the fewest from lo with a reachable split. */
static size_t points_needed(size_t lo, bool whole,
			    const struct ediv_opts *o)
{
	size_t m;

	if (!(1.0 / (1.0 + o->perms) < o->alpha))
		return 0;
	if (lo < 2 * o->min_size)
		lo = 2 * o->min_size;
	/* 2 / C(m, min_size) falls to any alpha above the perms' floor */
	for (m = lo; m < lo + 1000000; m++)
		if (ediv_min_p(m, whole ? m / 2 : o->min_size, o->perms) <
		    o->alpha)
			return m;
	return 0;
}

int ediv_tail(size_t n, const struct ediv_opts *o, struct ediv_tail *t)
{
	unsigned perms;
	size_t k;

	t->newest = 0;
	t->min_p = NAN;
	t->need = 0;
	if (!(o->alpha > 0 && o->alpha < 1) || o->perms == 0 ||
	    o->min_size < 2)
		return -1;
	perms = ediv_perms_at(n, o);
	if (n >= 2 * o->min_size)
		t->min_p = ediv_min_p(n, n / 2, perms);
	if (n < 2 * o->min_size || !(t->min_p < o->alpha)) {
		t->newest = n;		/* no split can reach alpha */
		t->need = points_needed(n + 1, true, o);
		return 0;
	}
	for (k = o->min_size; k <= n / 2 &&
	     !(ediv_min_p(n, k, perms) < o->alpha); k++)
		t->newest = k;
	if (t->newest) {
		t->min_p = ediv_min_p(n, t->newest, perms);
		t->need = points_needed(n + 1, false, o);
	} else {
		t->min_p = NAN;
	}
	return 0;
}
