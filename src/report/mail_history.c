/*
 * mail_history.c - history as a mail (report/mail_print.h): one row per
 * series.  A series with a change point gives the medians of the points
 * either side of its last one and that change point's %change of the
 * segments with its CI (marked '*'); a series without gives its first and
 * newest points and the %change of their medians (unmarked).  The
 * numbers are those of the history (session/history_session.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/mail_priv.h"
#include "results/history_series.h"

/* One series' row: the points and the change it shows. */
static void series_row(struct mail_row *m, const struct hist_series *s)
{
	const struct hist_point *b = &s->pts[0], *n = &s->pts[s->n - 1];
	const struct hist_change *cp = s->ncp ? &s->cps[s->ncp - 1] : NULL;

	m->unit = s->unit;
	if (cp && cp->index > 0 && cp->index < s->n) {
		b = &s->pts[cp->index - 1];
		n = &s->pts[cp->index];
	}
	m->base = b->median;
	if (s->n < 2)
		return;		/* one point: nothing to compare */
	m->new = n->median;
	if (strcmp(s->unit, "%") == 0) {
		m->change = m->new - m->base;
	} else if (cp) {
		m->change = cp->change_pct;
		m->ci_lo = cp->ci_lo;
		m->ci_hi = cp->ci_hi;
	} else if (m->base != 0) {
		m->change = 100.0 * (m->new / m->base - 1.0);
	}
	m->mark = cp ? '*' : ' ';
}

/*
 * The configuration of series s for naming its row: its parameters and,
 * first, its host as a parameter "host" (shared by all rows it goes to the
 * parameters line).  p has room for s->nparam + 1.
 */
static void series_config(const struct hist_series *s,
			  struct result_param *p, struct result_config *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	memset(p, 0, sizeof(*p));
	p[0].name = "host";
	p[0].value = s->host;
	for (i = 0; i < s->nparam; i++)
		p[i + 1] = s->param[i];
	c->workload = s->workload;
	c->params = p;
	c->nparams = s->nparam + 1;
}

/* The most kernels the head names. */
#define MAX_KERNELS 6

/* "runs 1..15, kernel 6.18.4 6.19.1" of every series' points. */
static void runs_text(const struct history *h, char *buf, size_t len)
{
	const char *seen[MAX_KERNELS];
	int64_t lo = 0, hi = 0;
	size_t i, k, j, nk = 0;

	for (i = 0; i < h->n; i++)
		for (k = 0; k < h->s[i].n; k++) {
			const struct hist_point *p = &h->s[i].pts[k];
			int64_t first = p->first_run_id ? p->first_run_id :
					p->run_id;
			bool dup = false;

			if (!lo || first < lo)
				lo = first;
			if (p->run_id > hi)
				hi = p->run_id;
			for (j = 0; j < nk && p->kernel; j++)
				dup |= strcmp(seen[j], p->kernel) == 0;
			if (p->kernel && *p->kernel && !dup && nk < MAX_KERNELS)
				seen[nk++] = p->kernel;
		}
	snprintf(buf, len, "runs %lld..%lld, kernel%s", (long long)lo,
		 (long long)hi, nk > 1 ? "s" : "");
	for (j = 0; j < nk; j++) {
		mail_cat(buf, len, " ");
		mail_cat(buf, len, seen[j]);
	}
	if (!nk)
		mail_cat(buf, len, " unknown");
}

/* The rows of h and their names; -1 on ENOMEM. */
static int history_rows(struct mail_doc *d, const struct history *h)
{
	struct result_config *cfg = calloc(h->n + 1, sizeof(*cfg));
	struct result_param **par = calloc(h->n + 1, sizeof(void *));
	const struct result_config **cp = calloc(h->n + 1, sizeof(void *));
	const char **metric = calloc(h->n + 1, sizeof(void *));
	size_t i;
	int e = cfg && par && cp && metric ? 0 : -1;

	for (i = 0; !e && i < h->n; i++) {
		const struct hist_series *s = &h->s[i];
		struct mail_row *m;

		if (!s->n)
			continue;
		m = mail_add_row(d);
		par[d->nrows - 1] = calloc(s->nparam + 1, sizeof(**par));
		if (!m || !par[d->nrows - 1]) {
			e = -1;
			break;
		}
		series_row(m, s);
		series_config(s, par[d->nrows - 1], &cfg[d->nrows - 1]);
		cp[d->nrows - 1] = &cfg[d->nrows - 1];
		metric[d->nrows - 1] = s->metric;
	}
	if (!e)
		e = mail_name_rows(d, cp, NULL, metric);
	for (i = 0; par && i < h->n; i++)
		free(par[i]);
	free(par);
	free(cfg);
	free(cp);
	free(metric);
	return e;
}

int mail_print_history(FILE *out, const struct history *h,
		       const struct run_data *newest, double alpha,
		       enum mail_format f)
{
	struct mail_doc *d = calloc(1, sizeof(*d));
	size_t i, ncp = 0;
	char t[512];
	int e;

	if (!d)
		return -1;
	for (i = 0; i < h->n; i++)
		ncp += h->s[i].ncp > 0;
	d->two_sided = true;
	d->alpha = alpha;
	snprintf(d->col_base, sizeof(d->col_base), "before");
	snprintf(d->col_new, sizeof(d->col_new), "after");
	snprintf(d->title, sizeof(d->title), "copyscope history: %zu series, "
		 "%zu with a change point", h->n, ncp);
	snprintf(d->star_key, sizeof(d->star_key), "a change point (p < "
		 "%.2g): the points either side of it, the %%change of the "
		 "segments; unmarked: the first and newest points", alpha);
	runs_text(h, t, sizeof(t));
	mail_add_head(d, "series", t);
	if (newest) {
		mail_side_head(newest, 1, t, sizeof(t));
		mail_add_head(d, "newest", t);
		mail_add_machines(d, &newest->env, NULL);
	}
	e = history_rows(d, h);
	if (!e)
		mail_print(out, d, f);
	mail_doc_free(d);
	free(d);
	return e;
}
