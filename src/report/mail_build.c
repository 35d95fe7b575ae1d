/*
 * mail_build.c - what goes in a mail (report/mail_print.h) of compare, ab
 * and a single run: one row per metric, taken from the comparison
 * engine's rows, ab's verdict rows or the run's stored summaries (nothing
 * recomputed).  The shared parts are report/mail_common.c's, the layout
 * report/mail_table.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "comparison/profile_diff.h"
#include "report/mail_priv.h"
#include "report/profile_diff_print.h"

/* Fill d's row r from a comparison row. */
static void compare_row(struct mail_row *m, const struct cmp_row *r)
{
	m->unit = r->ref->unit;
	m->base = r->b.s.median;
	m->new = r->n.s.median;
	m->base_cv = r->b.n >= 2 ? r->b.s.cv : NAN;
	m->new_cv = r->n.n >= 2 ? r->n.s.cv : NAN;
	if (strcmp(m->unit, "%") == 0) {
		m->change = m->new - m->base;
	} else {
		m->change = r->change_pct;
		m->ci_lo = r->ci_lo;
		m->ci_hi = r->ci_hi;
	}
	m->mark = mail_verdict_mark(r->verdict);
}

/* "tag a" or "run 3" as a column heading for a side. */
static void side_column(const struct cmp_side *s, char *buf, size_t len)
{
	if (s->nruns && s->runs[0].info.tag[0])
		snprintf(buf, len, "%.28s", s->runs[0].info.tag);
	else if (s->nruns == 1)
		snprintf(buf, len, "run %lld", (long long)s->runs[0].info.id);
	else
		snprintf(buf, len, "%zu runs", s->nruns);
}

/* The rows of compare and their names; -1 on ENOMEM. */
static int compare_rows(struct mail_doc *d, const struct cmp *c)
{
	const struct result_config **cb, **cn;
	const char **metric;
	size_t i;
	int e = 0;

	cb = calloc(c->nrows + 1, sizeof(void *));
	cn = calloc(c->nrows + 1, sizeof(void *));
	metric = calloc(c->nrows + 1, sizeof(void *));
	if (!cb || !cn || !metric)
		e = -1;
	for (i = 0; !e && i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		struct mail_row *m;

		if (!r->in_base || !r->in_new)
			continue;
		m = mail_add_row(d);
		if (!m) {
			e = -1;
			break;
		}
		compare_row(m, r);
		cb[d->nrows - 1] = r->ref->cfg;
		cn[d->nrows - 1] = (r->ref_new ? r->ref_new : r->ref)->cfg;
		metric[d->nrows - 1] = r->ref->metric;
	}
	if (!e)
		e = mail_name_rows(d, cb, cn, metric);
	free(cb);
	free(cn);
	free(metric);
	return e;
}

int mail_print_compare(FILE *out, const struct cmp *c, enum mail_format f)
{
	struct mail_doc *d = calloc(1, sizeof(*d));
	const struct env *eb = c->base.nruns ? &c->base.runs[0].env : NULL;
	const struct env *en = c->new.nruns ? &c->new.runs[0].env : NULL;
	char t[512];

	if (!d)
		return -1;
	d->two_sided = true;
	d->alpha = c->opts.alpha;
	d->noise_pct = c->opts.noise_pct;
	side_column(&c->base, d->col_base, sizeof(d->col_base));
	side_column(&c->new, d->col_new, sizeof(d->col_new));
	snprintf(d->title, sizeof(d->title), "copyscope compare: %s against "
		 "%s", d->col_new, d->col_base);
	mail_side_head(c->base.runs, c->base.nruns, t, sizeof(t));
	mail_add_head(d, "base", t);
	mail_side_head(c->new.runs, c->new.nruns, t, sizeof(t));
	mail_add_head(d, "new", t);
	if (eb && en)
		mail_add_kernel_diffs(d, eb, en);
	if (eb)
		mail_add_machines(d, eb, en);
	if (compare_rows(d, c) != 0) {
		mail_doc_free(d);
		free(d);
		return -1;
	}
	mail_print(out, d, f);
	mail_doc_free(d);
	free(d);
	return 0;
}

/* Fill m from ab's row r: A's median, the %change, A x (1 + %change). */
static void ab_row(struct mail_row *m, const struct ab_row *r)
{
	const struct result *a = r->res[AB_ROLE_A], *b = r->res[AB_ROLE_B];

	m->unit = r->unit;
	m->base = r->median[AB_ROLE_A];
	m->base_cv = a && a->summary.n >= 2 ? a->summary.cv : NAN;
	m->new_cv = b && b->summary.n >= 2 ? b->summary.cv : NAN;
	if (strcmp(r->unit, "%") == 0) {
		m->new = r->median[AB_ROLE_B];
		m->change = m->new - m->base;
	} else {
		/* as ab's table: the B column is what the %change says */
		m->new = m->base * (1 + r->change_pct / 100);
		m->change = r->change_pct;
		m->ci_lo = r->ci_lo_pct;
		m->ci_hi = r->ci_hi_pct;
	}
	m->mark = mail_verdict_mark(r->verdict);
}

/* The head lines of ab: the run, A and B with their settings. */
static void ab_head(struct mail_doc *d, const struct ab_header *h,
		    const struct ab_analysis *a, const struct run_data *run)
{
	const struct env *env = run ? &run->env : NULL;
	size_t rounds = a->n ? a->rows[0].rounds : 0;
	const char *k = env ? env_get(env, "kernel.release") : NULL;
	char t[512];

	snprintf(d->title, sizeof(d->title), "copyscope ab %s: B against A, "
		 "%zu paired rounds", h->workload, rounds);
	t[0] = '\0';
	if (h->run_id > 0)
		snprintf(t, sizeof(t), "run %lld", (long long)h->run_id);
	if (run && run->info.tag[0]) {
		mail_cat(t, sizeof(t), t[0] ? ", tag " : "tag ");
		mail_cat(t, sizeof(t), run->info.tag);
	}
	if (k) {
		mail_cat(t, sizeof(t), t[0] ? ", kernel " : "kernel ");
		mail_cat(t, sizeof(t), k);
	}
	mail_add_head(d, "run", t);
	snprintf(t, sizeof(t), "%s%s%s", h->a && *h->a ? h->a : "(defaults)",
		 h->a_settings && *h->a_settings ? " " : "",
		 h->a_settings ? h->a_settings : "");
	mail_add_head(d, "A", t);
	snprintf(t, sizeof(t), "%s%s%s", h->b && *h->b ? h->b : "(defaults)",
		 h->b_settings && *h->b_settings ? " " : "",
		 h->b_settings ? h->b_settings : "");
	mail_add_head(d, "B", t);
}

int mail_print_ab(FILE *out, const struct ab_header *h,
		  const struct ab_analysis *a, const struct run_data *run,
		  enum mail_format f)
{
	struct mail_doc *d = calloc(1, sizeof(*d));
	const struct result_config **cfg, **cfgb;
	const char **metric;
	size_t i;
	int e = 0;

	cfg = calloc(a->n + 1, sizeof(void *));
	cfgb = calloc(a->n + 1, sizeof(void *));
	metric = calloc(a->n + 1, sizeof(void *));
	if (!d || !cfg || !cfgb || !metric)
		e = -1;
	for (i = 0; !e && i < a->n; i++) {
		struct mail_row *m = mail_add_row(d);

		if (!m) {
			e = -1;
			break;
		}
		ab_row(m, &a->rows[i]);
		cfg[i] = a->rows[i].res[AB_ROLE_A]->cfg;
		cfgb[i] = a->rows[i].res[AB_ROLE_B] ?
			  a->rows[i].res[AB_ROLE_B]->cfg : cfg[i];
		metric[i] = a->rows[i].metric;
	}
	if (!e) {
		d->two_sided = true;
		d->alpha = h->alpha;
		d->noise_pct = h->noise_pct;
		snprintf(d->col_base, sizeof(d->col_base), "A");
		snprintf(d->col_new, sizeof(d->col_new), "B");
		ab_head(d, h, a, run);
		if (run)
			mail_add_machines(d, &run->env, NULL);
		/* "segs=1->8": A's parameters and B's where they differ */
		e = mail_name_rows(d, cfg, cfgb, metric);
	}
	if (!e)
		mail_print(out, d, f);
	free(cfg);
	free(cfgb);
	free(metric);
	if (d)
		mail_doc_free(d);
	free(d);
	return e;
}

/* The rows of a single run: every kept (not traced) result. */
static int run_rows(struct mail_doc *d, const struct run_data *run)
{
	const struct result_set *rs = &run->results;
	const struct result_config **cfg;
	const char **metric;
	size_t i;
	int e = 0;

	cfg = calloc(rs->n + 1, sizeof(void *));
	metric = calloc(rs->n + 1, sizeof(void *));
	if (!cfg || !metric)
		e = -1;
	for (i = 0; !e && i < rs->n; i++) {
		const struct result *r = &rs->v[i];
		struct mail_row *m;

		if (r->traced || r->nsamples == 0)
			continue;
		m = mail_add_row(d);
		if (!m) {
			e = -1;
			break;
		}
		m->unit = r->unit;
		m->base = r->summary.median;
		m->base_cv = r->summary.n >= 2 && !r->withheld ?
			     r->summary.cv : NAN;
		m->withheld = r->withheld;
		cfg[d->nrows - 1] = r->cfg;
		metric[d->nrows - 1] = r->metric;
	}
	if (!e)
		e = mail_name_rows(d, cfg, NULL, metric);
	free(cfg);
	free(metric);
	return e;
}

/*
 * A stored profiled ab run's kernel profile diff under its table, rebuilt
 * from the stored traced samples as ab builds it (pdiff_ab, with the
 * rounds its analysis kept): what ab --mail printed.  0, or -1 on ENOMEM.
 */
static int stored_profile_diff(FILE *out, const struct run_data *run,
			       bool drop_noisy, enum mail_format f)
{
	struct pdiff d;
	int rc = pdiff_ab(run->results.v, run->results.n, drop_noisy, &d);

	if (rc == 0)
		mail_print_profile_diff(out, &d, (int)f);
	pdiff_free(&d);
	return rc < 0 ? -1 : 0;
}

int mail_print_run(FILE *out, const struct run_data *run,
		   enum mail_format f)
{
	struct mail_doc *d;
	char t[512];
	int e;

	if (run->observation)
		return mail_print_observation_run(out, run, f);
	if (ab_env_is_ab(&run->env)) {
		struct ab_stored s;

		if (ab_stored_judge(&run->info, &run->env, run->results.v,
				    run->results.n, &s) != 0) {
			fprintf(stderr, "copyscope: %s\n", s.err);
			return -1;
		}
		e = mail_print_ab(out, &s.h, &s.a, run, f);
		if (!e)
			e = stored_profile_diff(out, run, s.o.drop_noisy, f);
		ab_stored_free(&s);
		return e;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -1;
	if (run->info.tag[0])
		snprintf(d->col_base, sizeof(d->col_base), "%.28s",
			 run->info.tag);
	else
		snprintf(d->col_base, sizeof(d->col_base), "run %lld",
			 (long long)run->info.id);
	if (run->info.id > 0) {
		snprintf(d->title, sizeof(d->title), "copyscope run %lld",
			 (long long)run->info.id);
		mail_side_head(run, 1, t, sizeof(t));
	} else {
		const char *k = env_get(&run->env, "kernel.release");

		snprintf(d->title, sizeof(d->title), "copyscope run (not "
			 "stored)");
		snprintf(t, sizeof(t), "%s%s%s%s", run->info.tag[0] ? "tag " :
			 "", run->info.tag, run->info.tag[0] && k ? ", " : "",
			 k ? "kernel " : "");
		mail_cat(t, sizeof(t), k ? k : "");
	}
	mail_add_head(d, "run", t);
	mail_add_machines(d, &run->env, NULL);
	e = run_rows(d, run);
	if (!e)
		mail_print(out, d, f);
	mail_doc_free(d);
	free(d);
	return e;
}
