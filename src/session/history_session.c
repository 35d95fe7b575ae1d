/*
 * history_session.c - the series of one configuration on one host and their
 * change points (see history_session.h).  The store reads every result of the
 * selected complete runs in one query (store/history_read.c); here each is
 * filtered by the KEY=VALUE asked, summarized (median and its CI),
 * grouped by host and configuration with one sort, ordered by time or by
 * kernel release, and searched for change points.  Nothing is quadratic
 * in the number of runs: the grouping is a sort, the search O(n log n) a
 * pass (stats/edivisive.c), and only the runs either side of a change
 * point are loaded whole, for their environments.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "comparison/comparison.h"
#include "core/param.h"
#include "core/workload.h"
#include "results/codec.h"
#include "session/history_session.h"
#include "stats/edivisive.h"
#include "stats/hier.h"
#include "stats/summary.h"
#include "store/history_read.h"

/* One result that passed the filters: its series key and summary. */
struct hist_item {
	size_t idx;		/* into the store's rows */
	char *key;		/* host, workload, match, metric; \x1f apart */
	char *match;		/* parameters less the ignored ones */
	double median, ci_lo, ci_hi;
};

/* Does the parameter text have hold value want (as the workload reads)? */
static bool same_value(const char *workload, const char *name,
		       const char *have, const char *want)
{
	const struct workload *w = workload_find(workload);
	int64_t a, b;
	char err[160];
	int k;

	if (strcmp(have, want) == 0)
		return true;
	if (!w || (k = param_find(w->params, w->nparams, name)) < 0)
		return false;
	return param_parse_value(&w->params[k], have, &a, err,
				 sizeof(err)) == 0 &&
		param_parse_value(&w->params[k], want, &b, err,
				  sizeof(err)) == 0 && a == b;
}

/* Whether the parameters p[0 .. n) hold every KEY=VALUE of o. */
static bool params_match(const struct hist_opts *o, const char *workload,
			 const struct result_param *p, size_t n)
{
	char name[128];
	size_t i, k, len;

	for (i = 0; i < o->nfilters; i++) {
		const char *eq = strchr(o->filters[i], '=');

		len = (size_t)(eq - o->filters[i]);
		snprintf(name, sizeof(name), "%.*s", (int)len, o->filters[i]);
		for (k = 0; k < n && strcmp(p[k].name, name) != 0; k++)
			;
		if (k == n || !same_value(workload, name, p[k].value, eq + 1))
			return false;
	}
	return true;
}

/*
 * The match text of r's parameters (less o's ignored ones) into *match,
 * or NULL when r is filtered out; -1 on ENOMEM.  Parameters this build
 * cannot read as an object of strings are kept as stored, unfiltered.
 */
static int match_of(const struct hist_opts *o,
		    const struct store_hist_result *r, char **match)
{
	struct result_param *p;
	size_t n;

	*match = NULL;
	if (result_params_list(r->params, &p, &n) != 0)
		return (*match = strdup(r->params)) ? 0 : -1;
	if (!params_match(o, r->workload, p, n)) {
		result_params_free(p, n);
		return 0;
	}
	result_params_free(p, n);
	*match = result_params_without(r->params, o->ignore, o->nignore);
	return *match ? 0 : -1;
}

static int cmp_items(const void *a, const void *b)
{
	const struct hist_item *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static void free_items(struct hist_item *it, size_t n)
{
	size_t i;

	for (i = 0; it && i < n; i++) {
		free(it[i].match);
		free(it[i].key);
	}
	free(it);
}

/*
 * The results of h that pass o's filters, summarized, sorted by series;
 * the series keys of those whose headline was withheld into *withheld
 * (*nwithheld of them).
 */
static int make_items(const struct store_history *h,
		      const struct hist_opts *o, struct hist_item **out,
		      size_t *nout, char ***withheld, size_t *nwithheld)
{
	struct hist_item *it = calloc(h->n ? h->n : 1, sizeof(*it));
	struct summary sm;
	size_t i, n = 0;

	if (!it)
		return -1;
	for (i = 0; i < h->n; i++) {
		const struct store_hist_result *r = &h->r[i];
		char *m;

		if (match_of(o, r, &m) != 0)
			goto fail;
		if (m && r->withheld) {
			char *k = NULL, **t;

			t = realloc(*withheld, (*nwithheld + 1) * sizeof(*t));
			if (t)
				*withheld = t;
			if (!t || asprintf(&k, "%s\x1f%s\x1f%s\x1f%s", r->host,
					   r->workload, m, r->metric) < 0) {
				free(m);
				goto fail;
			}
			(*withheld)[(*nwithheld)++] = k;
		}
		if (!m || r->nsamples == 0) {
			free(m);
			continue;
		}
		it[n].idx = i;
		it[n].match = m;
		if (asprintf(&it[n].key, "%s\x1f%s\x1f%s\x1f%s", r->host,
			     r->workload, m, r->metric) < 0) {
			it[n].key = NULL;
			n++;
			goto fail;
		}
		if (o->want_ci && !o->by_kernel) {
			/* the CI later, where it is wanted (point_cis) */
			it[n].median = stats_median(r->samples, r->nsamples);
			it[n].ci_lo = it[n].ci_hi = NAN;
			if (isnan(it[n].median)) {
				n++;
				goto fail;
			}
		} else if (summary_compute(r->samples, r->nsamples, &sm) != 0) {
			n++;
			goto fail;
		} else {
			it[n].median = sm.median;
			it[n].ci_lo = sm.ci_lo;
			it[n].ci_hi = sm.ci_hi;
		}
		n++;
	}
	qsort(it, n, sizeof(*it), cmp_items);
	*out = it;
	*nout = n;
	return 0;
fail:
	free_items(it, n);
	return -1;
}

/* By kernel release in version order, then as stored (by time). */
static int cmp_by_kernel(const void *a, const void *b, void *hist)
{
	const struct store_history *h = hist;
	const struct hist_item *x = a, *y = b;
	int c = strverscmp(h->r[x->idx].kernel, h->r[y->idx].kernel);

	if (c)
		return c;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Point p from the items it[0..n) (one run, or one kernel's runs). */
static int make_point(const struct store_history *h,
		      const struct hist_item *it, size_t n,
		      struct hist_point *p)
{
	const struct store_hist_result *r = &h->r[it[n - 1].idx];
	struct summary sm;
	double *med;
	size_t i;

	p->run_id = r->run_id;
	p->first_run_id = h->r[it[0].idx].run_id;
	p->started_ns = r->started_ns;
	p->nruns = n;
	p->uuid = strdup(r->uuid);
	p->kernel = strdup(r->kernel);
	p->boot_id = strdup(r->boot_id);
	if (!p->uuid || !p->kernel || !p->boot_id)
		return -1;
	if (n == 1) {
		p->median = it[0].median;
		p->ci_lo = it[0].ci_lo;
		p->ci_hi = it[0].ci_hi;
		return 0;
	}
	med = malloc(n * sizeof(*med));
	if (!med)
		return -1;
	for (i = 0; i < n; i++)
		med[i] = it[i].median;
	i = (size_t)summary_compute(med, n, &sm);
	free(med);
	p->median = sm.median;
	p->ci_lo = sm.ci_lo;
	p->ci_hi = sm.ci_hi;
	return i ? -1 : 0;
}

/* The series of the items it[0..n) (one key), points only. */
static int make_series(const struct store_history *h, struct hist_item *it,
		       size_t n, bool by_kernel, struct hist_series *s)
{
	const struct store_hist_result *r = &h->r[it[0].idx];
	size_t i, j;

	s->host = strdup(r->host);
	s->workload = strdup(r->workload);
	s->params = strdup(it[0].match);
	s->metric = strdup(r->metric);
	s->unit = strdup(r->unit);
	s->direction = r->direction;
	s->pts = calloc(n, sizeof(*s->pts));
	if (!s->host || !s->workload || !s->params || !s->metric ||
	    !s->unit || !s->pts)
		return -1;
	/* read once here; not an object of strings: printed as stored */
	if (result_params_list(s->params, &s->param, &s->nparam) != 0)
		s->nparam = 0;
	if (by_kernel)
		qsort_r(it, n, sizeof(*it), cmp_by_kernel, (void *)h);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; by_kernel && j < n &&
		     strcmp(h->r[it[j].idx].kernel, h->r[it[i].idx].kernel) == 0;
		     j++)
			;
		if (!by_kernel)
			j = i + 1;
		if (make_point(h, it + i, j - i, &s->pts[s->n++]) != 0)
			return -1;
	}
	return 0;
}

/* The environment keys that differ between runs a and b, into cp. */
static int env_changed(struct store *st, const char *workload, int64_t a,
		       int64_t b, struct hist_change *cp, char *err,
		       size_t errlen)
{
	struct run_data runs[2];
	struct cmp c;
	struct cmp_opts co = { .alpha = 0.05, .noise_pct = 1 };
	const char *wl[1] = { workload };
	size_t i;
	int rc = -1;

	memset(runs, 0, sizeof(runs));
	memset(&c, 0, sizeof(c));
	if (store_load_run(st, a, &runs[0], err, errlen) != 0)
		return -1;
	if (store_load_run(st, b, &runs[1], err, errlen) != 0)
		goto out;
	c.base.runs = &runs[0];
	c.new.runs = &runs[1];
	c.base.nruns = c.new.nruns = 1;
	cmp_side_count_boots(&c.base);
	cmp_side_count_boots(&c.new);
	co.workloads = wl;
	co.nworkloads = 1;
	if (cmp_build(&c, &co) != 0)
		goto nomem;
	cp->env_keys = calloc(c.nenvd ? c.nenvd : 1, sizeof(*cp->env_keys));
	if (!cp->env_keys)
		goto nomem;
	for (i = 0; i < c.nenvd; i++)
		if (!(cp->env_keys[cp->nenv++] = strdup(c.envd[i].key)))
			goto nomem;
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "cannot build the history: %s",
		 strerror(ENOMEM));
out:
	cmp_free(&c);
	run_data_free(&runs[0]);
	run_data_free(&runs[1]);
	return rc;
}

/* The change of s's segment [mid, hi) against [lo, mid) into cp. */
static int segment_change(const struct hist_series *s, size_t lo,
			  size_t mid, size_t hi, struct hist_change *cp)
{
	struct welch_result w;
	double *v = malloc(s->n * sizeof(*v)), t;
	size_t i;

	if (!v)
		return -1;
	for (i = lo; i < hi; i++)
		v[i] = s->pts[i].median;
	if (stats_welch_log(v + lo, mid - lo, v + mid, hi - mid, &w) != 0) {
		free(v);
		return -1;
	}
	free(v);
	t = w.se_log > 0 ? gsl_cdf_tdist_Qinv(0.025, w.df) : 0;
	cp->change_pct = 100 * expm1(w.diff_log);
	cp->ci_lo = 100 * expm1(w.diff_log - t * w.se_log);
	cp->ci_hi = 100 * expm1(w.diff_log + t * w.se_log);
	cp->worse = (s->direction > 0 && cp->change_pct < 0) ||
		(s->direction < 0 && cp->change_pct > 0);
	return 0;
}

/* The split E-divisive rejected (rej) into s->rejected, with its change. */
static int rejected_split(struct hist_series *s,
			  const struct ediv_rejected *rej)
{
	struct hist_change c = { .index = rej->index };
	struct hist_rejected *r = &s->rejected;

	if (segment_change(s, rej->lo, rej->index, rej->hi, &c) != 0)
		return -1;
	r->index = rej->index;
	r->change_pct = c.change_pct;
	r->ci_lo = c.ci_lo;
	r->ci_hi = c.ci_hi;
	r->p = rej->p;
	r->before_run = s->pts[rej->index - 1].run_id;
	r->after_run = s->pts[rej->index].first_run_id;
	return 0;
}

/* The change points of s (its points made), beyond o->min_change_pct. */
static int find_changes(struct store *st, struct hist_series *s,
			const struct hist_opts *o, char *err, size_t errlen)
{
	struct ediv_opts eo = { .alpha = o->alpha,
				.perms = ediv_perms_for(o->alpha),
				.min_size = EDIV_DEFAULT_MIN_SIZE,
				.seed = EDIV_DEFAULT_SEED };
	struct ediv_point *ep = NULL;
	struct ediv_rejected rej;
	struct ediv_tail t;
	double *x = malloc((s->n ? s->n : 1) * sizeof(*x));
	size_t i, nep = 0;
	int rc = -1;

	if (!x)
		goto nomem;
	for (i = 0; i < s->n; i++) {
		if (!(s->pts[i].median > 0))
			s->nonpositive = true;
		x[i] = log(s->pts[i].median);
	}
	if (s->nonpositive) {
		free(x);
		return 0;
	}
	s->rejected.min_change_pct = o->min_change_pct;
	if (ediv_find_rejected(x, s->n, &eo, &ep, &nep, &rej) != 0 ||
	    !(s->cps = calloc(nep ? nep : 1, sizeof(*s->cps))))
		goto nomem;
	s->tail.from = nep ? ep[nep - 1].index : 0;
	if (ediv_tail(s->n - s->tail.from, &eo, &t) != 0)
		goto nomem;
	s->tail.newest = t.newest;
	s->tail.min_size = eo.min_size;
	s->tail.min_p = t.min_p;
	s->tail.need = t.need;
	s->tail.alpha = eo.alpha;
	if (rej.index && rejected_split(s, &rej) != 0)
		goto nomem;
	for (i = 0; i < nep; i++) {
		struct hist_change *cp = &s->cps[s->ncp];
		size_t lo = i ? ep[i - 1].index : 0;
		size_t hi = i + 1 < nep ? ep[i + 1].index : s->n;

		cp->index = ep[i].index;
		cp->p = ep[i].p;
		if (segment_change(s, lo, cp->index, hi, cp) != 0)
			goto nomem;
		if (fabs(cp->change_pct) < o->min_change_pct) {
			struct hist_rejected *r = &s->rejected;

			if (!r->nsmall++ ||
			    fabs(cp->change_pct) > fabs(r->small_pct)) {
				r->small_index = cp->index;
				r->small_pct = cp->change_pct;
			}
			free(cp->env_keys);
			memset(cp, 0, sizeof(*cp));
			continue;
		}
		cp->before_run = s->pts[cp->index - 1].run_id;
		cp->after_run = s->pts[cp->index].first_run_id;
		s->ncp++;
		if (env_changed(st, s->workload, cp->before_run, cp->after_run,
				cp, err, errlen) != 0)
			goto out;
	}
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "cannot build the history: %s",
		 strerror(ENOMEM));
out:
	free(ep);
	free(x);
	return rc;
}

/*
 * The CIs of the points of s (by time: point q is the run of it[q]) that
 * o->want_ci asks for, as summary_compute() makes them; the others stay
 * NAN.
 */
static int point_cis(const struct store_history *h,
		     const struct hist_item *it, const struct hist_opts *o,
		     struct hist_series *s)
{
	size_t q;

	for (q = 0; q < s->n; q++) {
		const struct store_hist_result *r = &h->r[it[q].idx];

		/* as summary_compute(): no CI below SUMMARY_MIN_CI_N */
		if (!o->want_ci(s, q) || summary_ci_reason(r->nsamples))
			continue;
		if (stats_bootstrap_median_ci(r->samples, r->nsamples,
					      SUMMARY_BOOTSTRAP_ITERS,
					      SUMMARY_BOOTSTRAP_SEED, 0.95,
					      &s->pts[q].ci_lo,
					      &s->pts[q].ci_hi) != 0)
			return -1;
	}
	return 0;
}

/* Check the KEY=VALUE filters' form: 1 with err naming a bad one. */
static int check_filters(const struct hist_opts *o, char *err,
			 size_t errlen)
{
	size_t i;

	for (i = 0; i < o->nfilters; i++) {
		const char *eq = strchr(o->filters[i], '=');

		if (!eq || eq == o->filters[i] || !eq[1] ||
		    eq - o->filters[i] >= 128) {
			snprintf(err, errlen, "'%s' is not KEY=VALUE (a "
				 "parameter of the workload and its value)",
				 o->filters[i]);
			return 1;
		}
	}
	return 0;
}

int history_build(struct store *st, const int64_t *ids, size_t nids,
	       const struct hist_opts *o, struct history *out, char *err,
	       size_t errlen)
{
	struct store_history h;
	struct hist_item *it = NULL;
	char **wh = NULL;
	size_t nit = 0, nwh = 0, i, j, k, ns = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (check_filters(o, err, errlen))
		return 1;
	if (store_history_load(st, o->workload, o->metric, ids, nids, &h, err,
			       errlen) != 0)
		return -1;
	if (make_items(&h, o, &it, &nit, &wh, &nwh) != 0)
		goto nomem;
	for (i = 0; i < nit; i = j, ns++)
		for (j = i + 1; j < nit && strcmp(it[j].key, it[i].key) == 0;
		     j++)
			;
	out->s = calloc(ns ? ns : 1, sizeof(*out->s));
	if (!out->s)
		goto nomem;
	for (i = 0; i < nit; i = j) {
		for (j = i + 1; j < nit && strcmp(it[j].key, it[i].key) == 0;
		     j++)
			;
		if (make_series(&h, it + i, j - i, o->by_kernel,
				&out->s[out->n++]) != 0)
			goto nomem;
		for (k = 0; k < nwh; k++)
			out->s[out->n - 1].nwithheld +=
				strcmp(wh[k], it[i].key) == 0;
		if (find_changes(st, &out->s[out->n - 1], o, err, errlen))
			goto out;
		if (o->want_ci && !o->by_kernel &&
		    point_cis(&h, it + i, o, &out->s[out->n - 1]) != 0)
			goto nomem;
	}
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "cannot build the history: %s",
		 strerror(ENOMEM));
out:
	free_items(it, nit);
	for (k = 0; k < nwh; k++)
		free(wh[k]);
	free(wh);
	store_history_free(&h);
	if (rc)
		history_free(out);
	return rc;
}

void history_free(struct history *h)
{
	size_t i, k;

	for (i = 0; h->s && i < h->n; i++) {
		struct hist_series *s = &h->s[i];

		for (k = 0; s->pts && k < s->n; k++) {
			free(s->pts[k].uuid);
			free(s->pts[k].kernel);
			free(s->pts[k].boot_id);
		}
		for (k = 0; s->cps && k < s->ncp; k++) {
			size_t e;

			for (e = 0; e < s->cps[k].nenv; e++)
				free(s->cps[k].env_keys[e]);
			free(s->cps[k].env_keys);
		}
		result_params_free(s->param, s->nparam);
		free(s->pts);
		free(s->cps);
		free(s->host);
		free(s->workload);
		free(s->params);
		free(s->metric);
		free(s->unit);
	}
	free(h->s);
	h->s = NULL;
	h->n = 0;
}

/* The runs the selectors sel[0 .. nsel) name, into *ids. 0, 1, -1. */
static int select_ids(struct store *st, char *const *sel, size_t nsel,
		      int64_t **ids, size_t *nids, char *err, size_t errlen)
{
	enum store_select_status ss;
	int64_t *one;
	size_t i, n;
	void *t;

	*ids = NULL;
	*nids = 0;
	for (i = 0; i < nsel; i++) {
		ss = store_select_runs(st, sel[i], &one, &n, err, errlen);
		if (ss == STORE_SELECT_EMPTY_ITEM ||
		    ss == STORE_SELECT_NO_MATCH)
			return 1;
		if (ss != STORE_SELECT_OK)
			return -1;
		t = realloc(*ids, (*nids + n + 1) * sizeof(**ids));
		if (!t) {
			free(one);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		*ids = t;
		memcpy(*ids + *nids, one, n * sizeof(*one));
		*nids += n;
		free(one);
	}
	return 0;
}

/* The positional arguments split into selectors, workload and filters. */
struct hist_args {
	char *sel[HIST_MAX_ARGS];
	size_t nsel;
	const char *workload;
	const char *filters[HIST_MAX_ARGS];
	size_t nfilters;
};

static int split_args(char *const *pos, size_t npos, struct hist_args *a,
		      char *err, size_t errlen)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	if (npos > HIST_MAX_ARGS) {
		snprintf(err, errlen, "at most %d selectors and KEY=VALUE",
			 HIST_MAX_ARGS);
		return 1;
	}
	for (i = 0; i < npos; i++) {
		const struct workload *w = a->workload ? NULL :
			workload_find(pos[i]);

		if (a->workload && strchr(pos[i], '=')) {
			a->filters[a->nfilters++] = pos[i];
		} else if (a->workload) {
			snprintf(err, errlen, "'%s' after the workload %s is "
				 "not KEY=VALUE", pos[i], a->workload);
			return 1;
		} else if (w) {
			a->workload = w->name;
		} else {
			a->sel[a->nsel++] = pos[i];
		}
	}
	return 0;
}

int history_load(struct store *st, const struct hist_request *rq,
		 struct history *out, char *err, size_t errlen)
{
	struct hist_args a;
	struct hist_opts o = rq->o;
	int64_t *ids = NULL;
	size_t nids = 0;
	int e;

	memset(out, 0, sizeof(*out));
	e = split_args(rq->args, rq->nargs, &a, err, errlen);
	if (e)
		return e;
	o.workload = a.workload;
	o.filters = a.filters;
	o.nfilters = a.nfilters;
	e = select_ids(st, a.sel, a.nsel, &ids, &nids, err, errlen);
	if (!e)
		e = history_build(st, a.nsel ? ids : NULL, nids, &o, out, err,
				  errlen);
	free(ids);
	if (!e && out->n == 0) {
		char with[512] = "";
		size_t i, w = 0;

		/* name what was asked: "sys.null with call=getppid" */
		for (i = 0; i < a.nfilters && w < sizeof(with); i++)
			w += (size_t)snprintf(with + w, sizeof(with) - w,
					      "%s%s", i ? " " : " with ",
					      a.filters[i]);
		snprintf(err, errlen, "no stored complete run has %s%s%s%s",
			 a.workload ? a.workload : "results", with,
			 !o.metric ? "" : a.nfilters ? " and the metric " :
			 " with the metric ",
			 o.metric ? o.metric : "");
		history_free(out);
		return 1;
	}
	return e;
}
