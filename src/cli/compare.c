/*
 * compare.c - `copyscope compare BASE NEW`: what changed between two sets
 * of stored runs, with statistics (DESIGN §4), and the comparison engine
 * that `check` shares (cli/compare.h).
 *
 * Layout of the text output (kernel test robot style, 80 columns):
 *
 *   copyscope compare
 *     base: tag a (runs 1, 2; 1 boot)
 *     new:  tag b (runs 3, 4; 1 boot)
 *   environment differences (base -> new): ...
 *
 *   sys.null  call=gettid  spin_ns=0->30ns  trace=0
 *     metric        base  ±sd %change    new  ±sd unit       p 95% CI  verdict
 *     time/call      102  ±6%  +27.0%    130  ±5% ns     0.008 +22..+31 worse
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/compare.h"
#include "report/format.h"

#define LINE 80

static void *xcalloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static bool have_id(const int64_t *ids, size_t n, int64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

int cmp_load_side(struct store *st, const char *cmd, const char *spec,
		  struct cmp_side *side)
{
	struct store_run *all = NULL;
	size_t nall = 0, nids = 0, i, j;
	int64_t *ids = NULL;
	char err[512], *copy, *item, *save = NULL;
	int rc = 0;

	memset(side, 0, sizeof(*side));
	if (!*spec || *spec == ',' || strstr(spec, ",,") ||
	    spec[strlen(spec) - 1] == ',')
		return cli_usage(cmd, "empty run id or tag in '%s'", spec);
	if (store_list_runs(st, &all, &nall, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	copy = strdup(spec);
	ids = xcalloc(nall, sizeof(*ids));
	if (!copy || !ids) {
		cli_error("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		size_t found = 0;

		for (i = 0; i < nall; i++) {
			bool match;

			if (strcmp(item, "last") == 0)
				match = i == nall - 1;
			else if (all_digits(item))
				match = all[i].id == strtoll(item, NULL, 10);
			else
				match = strcmp(all[i].tag, item) == 0;
			if (!match)
				continue;
			found++;
			if (!have_id(ids, nids, all[i].id))
				ids[nids++] = all[i].id;
		}
		if (!found) {
			rc = cli_usage(cmd, "'%s' is neither a stored run id "
				       "nor a tag ('copyscope runs' lists "
				       "them)", item);
			goto out;
		}
	}
	if (nids == 0) {	/* not reached: spec has a non-empty item */
		rc = cli_usage(cmd, "empty run id or tag in '%s'", spec);
		goto out;
	}
	side->runs = xcalloc(nids, sizeof(*side->runs));
	if (!side->runs) {
		cli_error("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < nids; i++) {
		struct cmp_run *r = &side->runs[side->nruns];

		if (store_load_run(st, ids[i], &r->run, &r->env, &r->res,
				   &r->nres, err, sizeof(err)) != 0) {
			cli_error("%s", err);
			rc = EXIT_FAIL;
			goto out;
		}
		side->nruns++;
	}
	for (i = 0; i < side->nruns; i++) {
		bool seen = false;

		for (j = 0; j < i; j++)
			seen |= strcmp(side->runs[i].run.boot_id,
				       side->runs[j].run.boot_id) == 0;
		side->nboots += !seen;
	}
out:
	if (rc)
		cmp_side_free(side);
	free(ids);
	free(copy);
	store_free_runs(all, nall);
	return rc;
}

void cmp_side_free(struct cmp_side *side)
{
	size_t i;

	for (i = 0; i < side->nruns; i++) {
		size_t j;

		for (j = 0; side->runs[i].match && j < side->runs[i].nres; j++)
			free(side->runs[i].match[j]);
		free(side->runs[i].match);
		free(side->runs[i].run.cmdline);
		env_free(&side->runs[i].env);
		store_free_results(side->runs[i].res, side->runs[i].nres);
	}
	free(side->runs);
	memset(side, 0, sizeof(*side));
}

/* Does result r (matching parameters m) belong to row? */
static bool same_key(const struct cmp_row *row, const struct store_result *r,
		     const char *m)
{
	return strcmp(row->ref->workload, r->workload) == 0 &&
	       strcmp(row->ref->metric, r->metric) == 0 &&
	       strcmp(row->ref->unit, r->unit) == 0 &&
	       strcmp(row->match, m) == 0;
}

/* The matching key of every result of a side: its parameters' canonical
   JSON less the ignored parameters.  0 or -1. */
static int prepare_side(struct cmp_side *side, const struct cmp_opts *o)
{
	size_t i, j;

	for (i = 0; i < side->nruns; i++) {
		struct cmp_run *r = &side->runs[i];

		r->match = xcalloc(r->nres, sizeof(char *));
		if (!r->match)
			return -1;
		for (j = 0; j < r->nres; j++) {
			const char *pj = r->res[j].params_json;
			json_t *p = pj ? json_loads(pj, 0, NULL) : NULL;
			size_t k;

			for (k = 0; p && k < o->nignore; k++)
				json_object_del(p, o->ignore[k]);
			r->match[j] = p ? json_dumps(p, JSON_COMPACT |
						     JSON_SORT_KEYS)
					: strdup(pj ? pj : "");
			json_decref(p);
			if (!r->match[j])
				return -1;
		}
	}
	return 0;
}

static bool wanted(const struct cmp_opts *o, const char *workload)
{
	size_t i;

	if (!o->workloads)
		return true;
	for (i = 0; i < o->nworkloads; i++)
		if (strcmp(o->workloads[i], workload) == 0)
			return true;
	return false;
}

/*
 * The flagged marks of r's samples (info.interference.flagged), into
 * flags[0..r->nsamples-1]; false when r has none (or they do not match
 * its samples, as for a cold-call trace).
 */
static bool sample_flags(const struct store_result *r, bool *flags)
{
	json_t *info = r->info_json ? json_loads(r->info_json, 0, NULL) : NULL;
	json_t *f = json_object_get(json_object_get(info, "interference"),
				    "flagged");
	bool ok = json_is_array(f) && json_array_size(f) == r->nsamples &&
		  !json_is_true(json_object_get(info, "trace"));
	size_t i;

	for (i = 0; ok && i < r->nsamples; i++)
		flags[i] = json_is_true(json_array_get(f, i));
	json_decref(info);
	return ok;
}

/* The samples of r that count (all, or the quiet ones with drop_noisy)
   appended to v; the flagged/dropped counts updated.  0 or -1. */
static int add_samples(struct cmp_val *v, const struct store_result *r,
		       bool drop_noisy, double **run_x, size_t *run_n)
{
	bool *flags = xcalloc(r->nsamples, sizeof(*flags));
	double *x = realloc(v->x, (v->n + r->nsamples + 1) * sizeof(*x));
	bool have;
	size_t i;

	if (!flags || !x) {
		free(flags);
		if (x)
			v->x = x;
		return -1;
	}
	v->x = x;
	have = sample_flags(r, flags);
	*run_x = v->x + v->n;
	*run_n = 0;
	for (i = 0; i < r->nsamples; i++) {
		bool fl = have && flags[i];

		v->flagged += fl;
		if (fl && drop_noisy) {
			v->dropped++;
			continue;
		}
		v->x[v->n++] = r->samples[i];
		(*run_n)++;
	}
	free(flags);
	return 0;
}

static double variance(const double *x, size_t n)
{
	double m = 0, s = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return s / (double)(n - 1);
}

/*
 * Gather one side of a row: pool the samples of every run's matching
 * results; per run its median, per boot the median of its runs' medians.
 * Boots disagree when the boot medians' standard deviation is more than
 * twice the pooled standard deviation of run medians within a boot (at
 * least one boot must have two runs to tell).
 */
static int gather(struct cmp_val *v, const struct cmp_side *side,
		  const struct cmp_row *key, bool drop_noisy)
{
	double *run_med = xcalloc(side->nruns, sizeof(double));
	size_t i, j, b, nrm = 0;
	int ret = -1;

	v->boots = xcalloc(side->nruns, sizeof(*v->boots));
	v->run_med = xcalloc(side->nruns, sizeof(double));
	v->run_start = xcalloc(side->nruns, sizeof(size_t));
	v->run_len = xcalloc(side->nruns, sizeof(size_t));
	if (!run_med || !v->boots || !v->run_med || !v->run_start ||
	    !v->run_len)
		goto out;
	for (i = 0; i < side->nruns; i++) {
		const struct cmp_run *r = &side->runs[i];
		size_t start = v->n;
		bool any = false;

		for (j = 0; j < r->nres; j++) {
			double *rx;
			size_t rn;

			if (!same_key(key, &r->res[j], r->match[j]))
				continue;
			if (add_samples(v, &r->res[j], drop_noisy, &rx,
					&rn) != 0)
				goto out;
			any = true;
		}
		if (!any || v->n == start)
			continue;
		run_med[i] = stats_median(v->x + start, v->n - start);
		v->run_med[v->nruns] = run_med[i];
		v->run_start[v->nruns] = start;
		v->run_len[v->nruns] = v->n - start;
		v->nruns++;
		for (b = 0; b < v->nboots; b++)
			if (strcmp(v->boots[b].boot_id, r->run.boot_id) == 0)
				break;
		if (b == v->nboots) {
			snprintf(v->boots[b].boot_id,
				 sizeof(v->boots[b].boot_id), "%s",
				 r->run.boot_id);
			v->nboots++;
		}
		v->boots[b].nruns++;
		nrm++;
	}
	/* per boot: the median of its run medians */
	{
		double *m = xcalloc(side->nruns, sizeof(double));
		double within = 0, *bm = xcalloc(v->nboots, sizeof(double));
		size_t nwithin = 0;

		if (!m || !bm) {
			free(m);
			free(bm);
			goto out;
		}
		for (b = 0; b < v->nboots; b++) {
			size_t k = 0;

			for (i = 0; i < side->nruns; i++) {
				/* runs of this boot that had samples */
				size_t s2;
				bool has = false;

				if (strcmp(side->runs[i].run.boot_id,
					   v->boots[b].boot_id) != 0)
					continue;
				for (s2 = 0; s2 < side->runs[i].nres; s2++)
					has |= same_key(key,
						&side->runs[i].res[s2],
						side->runs[i].match[s2]);
				if (has)
					m[k++] = run_med[i];
			}
			v->boots[b].median = stats_median(m, k);
			bm[b] = v->boots[b].median;
			if (k >= 2) {
				within += variance(m, k) * (double)(k - 1);
				nwithin += k - 1;
			}
		}
		if (v->nboots >= 2 && nwithin > 0)
			v->boots_disagree = sqrt(variance(bm, v->nboots)) >
					    2.0 * sqrt(within /
						       (double)nwithin);
		free(m);
		free(bm);
	}
	(void)nrm;
	if (summary_compute(v->x, v->n, &v->s) != 0 ||
	    modes_detect(v->x, v->n, &v->md) != 0)
		goto out;
	ret = 0;
out:
	free(run_med);
	return ret;
}

static struct cmp_row *find_row(struct cmp *c, const struct store_result *r,
				const char *m)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (same_key(&c->rows[i], r, m))
			return &c->rows[i];
	return NULL;
}

static int collect_keys(struct cmp *c, const struct cmp_side *side,
			bool is_base, size_t *cap)
{
	size_t i, j;

	for (i = 0; i < side->nruns; i++) {
		const struct cmp_run *r = &side->runs[i];

		for (j = 0; j < r->nres; j++) {
			struct cmp_row *row;

			if (!wanted(&c->opts, r->res[j].workload))
				continue;
			row = find_row(c, &r->res[j], r->match[j]);
			if (!row) {
				if (c->nrows == *cap) {
					size_t nc = *cap ? *cap * 2 : 32;
					struct cmp_row *v = realloc(c->rows,
						nc * sizeof(*v));

					if (!v)
						return -1;
					c->rows = v;
					*cap = nc;
				}
				row = &c->rows[c->nrows++];
				memset(row, 0, sizeof(*row));
				row->ref = &r->res[j];
				row->match = r->match[j];
				row->direction = r->res[j].direction;
			}
			if (is_base) {
				row->in_base = true;
			} else {
				if (!row->in_new)
					row->ref_new = &r->res[j];
				row->in_new = true;
			}
		}
	}
	return 0;
}

/* Rows on both sides first (in base order), then base only, new only. */
static int row_rank(const struct cmp_row *r)
{
	return r->in_base && r->in_new ? 0 : r->in_base ? 1 : 2;
}

static void sort_rows(struct cmp *c)
{
	size_t i, j;

	/* stable insertion sort by rank */
	for (i = 1; i < c->nrows; i++) {
		struct cmp_row t = c->rows[i];

		for (j = i; j > 0 && row_rank(&c->rows[j - 1]) > row_rank(&t);
		     j--)
			c->rows[j] = c->rows[j - 1];
		c->rows[j] = t;
	}
}

/* Environment keys whose differences mean nothing. */
static bool env_ignored(const char *key)
{
	return strcmp(key, "boot_id") == 0 ||
	       strcmp(key, "timer.overhead_ns") == 0 ||
	       strcmp(key, "timer.tsc_hz") == 0 ||
	       strcmp(key, "run.interleave_seed") == 0;
}

/* The distinct values of key over a side's runs, " | " between them. */
static char *side_values(const struct cmp_side *side, const char *key)
{
	size_t i, len = 1, used = 0;
	char *s;

	for (i = 0; i < side->nruns; i++) {
		const char *v = env_get(&side->runs[i].env, key);

		len += strlen(v ? v : "(absent)") + 3;
	}
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (i = 0; i < side->nruns; i++) {
		const char *v = env_get(&side->runs[i].env, key);
		size_t j;
		bool dup = false;

		if (!v)
			v = "(absent)";
		for (j = 0; j < i; j++) {
			const char *w = env_get(&side->runs[j].env, key);

			dup |= strcmp(w ? w : "(absent)", v) == 0;
		}
		if (dup)
			continue;
		used += (size_t)snprintf(s + used, len - used, "%s%s",
					 used ? " | " : "", v);
	}
	return s;
}

static bool have_envd(const struct cmp *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->nenvd; i++)
		if (strcmp(c->envd[i].key, key) == 0)
			return true;
	return false;
}

static int env_diff_side(struct cmp *c, const struct cmp_side *side,
			 size_t *cap)
{
	size_t i, k;

	for (i = 0; i < side->nruns; i++) {
		const struct env *e = &side->runs[i].env;

		for (k = 0; k < e->n; k++) {
			const char *key = e->items[k].key;
			char *b, *n;

			if (env_ignored(key) || have_envd(c, key))
				continue;
			b = side_values(&c->base, key);
			n = side_values(&c->new, key);
			if (!b || !n) {
				free(b);
				free(n);
				return -1;
			}
			if (strcmp(b, n) == 0) {
				free(b);
				free(n);
				continue;
			}
			if (c->nenvd == *cap) {
				size_t nc = *cap ? *cap * 2 : 16;
				struct cmp_envdiff *v = realloc(c->envd,
					nc * sizeof(*v));

				if (!v) {
					free(b);
					free(n);
					return -1;
				}
				c->envd = v;
				*cap = nc;
			}
			snprintf(c->envd[c->nenvd].key,
				 sizeof(c->envd[c->nenvd].key), "%s", key);
			c->envd[c->nenvd].base = b;
			c->envd[c->nenvd].new = n;
			c->nenvd++;
			if (strcmp(key, "copyscope.build_flavour") == 0)
				c->flavour_differs = true;
		}
	}
	return 0;
}

int cmp_build(struct cmp *c, const struct cmp_opts *opts)
{
	size_t cap = 0, ecap = 0, i;

	c->opts = *opts;
	if (prepare_side(&c->base, opts) != 0 ||
	    prepare_side(&c->new, opts) != 0)
		return -1;
	if (collect_keys(c, &c->base, true, &cap) != 0 ||
	    collect_keys(c, &c->new, false, &cap) != 0)
		return -1;
	sort_rows(c);
	for (i = 0; i < c->nrows; i++) {
		struct cmp_row *r = &c->rows[i];

		r->change_pct = r->ci_lo = r->ci_hi = NAN;
		r->mw.p = NAN;
		r->verdict = r->direction ? VERDICT_SAME : VERDICT_INFO;
		if (r->in_base &&
		    gather(&r->b, &c->base, r, opts->drop_noisy) != 0)
			return -1;
		if (r->in_new &&
		    gather(&r->n, &c->new, r, opts->drop_noisy) != 0)
			return -1;
		if (!r->in_base || !r->in_new || !r->b.n || !r->n.n)
			continue;
		if (r->b.s.median != 0.0)
			r->change_pct = 100.0 * (r->n.s.median /
						 r->b.s.median - 1.0);
		r->by_run = r->b.nruns >= CMP_MIN_RUNS &&
			    r->n.nruns >= CMP_MIN_RUNS;
		if (r->by_run) {
			if (stats_mann_whitney(r->b.run_med, r->b.nruns,
					       r->n.run_med, r->n.nruns,
					       &r->mw) != 0 ||
			    stats_change_ci_runs(r->b.x, r->b.run_start,
						 r->b.run_len, r->b.nruns,
						 r->n.x, r->n.run_start,
						 r->n.run_len, r->n.nruns,
						 COMPARE_BOOTSTRAP_ITERS,
						 COMPARE_BOOTSTRAP_SEED, 0.95,
						 &r->ci_lo, &r->ci_hi) != 0)
				return -1;
		} else if (stats_mann_whitney(r->b.x, r->b.n, r->n.x, r->n.n,
					      &r->mw) != 0 ||
			   stats_change_ci(r->b.x, r->b.n, r->n.x, r->n.n,
					   COMPARE_BOOTSTRAP_ITERS,
					   COMPARE_BOOTSTRAP_SEED, 0.95,
					   &r->ci_lo, &r->ci_hi) != 0) {
			return -1;
		}
		r->verdict = stats_verdict(r->direction, r->change_pct,
					   r->mw.p, r->ci_lo, r->ci_hi,
					   opts->alpha, opts->noise_pct);
	}
	if (env_diff_side(c, &c->base, &ecap) != 0 ||
	    env_diff_side(c, &c->new, &ecap) != 0)
		return -1;
	return 0;
}

static void val_free(struct cmp_val *v)
{
	free(v->x);
	free(v->boots);
	free(v->run_med);
	free(v->run_start);
	free(v->run_len);
}

void cmp_free(struct cmp *c)
{
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		val_free(&c->rows[i].b);
		val_free(&c->rows[i].n);
	}
	free(c->rows);
	for (i = 0; i < c->nenvd; i++) {
		free(c->envd[i].base);
		free(c->envd[i].new);
	}
	free(c->envd);
	cmp_side_free(&c->base);
	cmp_side_free(&c->new);
	memset(c, 0, sizeof(*c));
}

/* ---- text output ---- */

/* "tag a, b (runs 1, 2, 5; 2 boots)" */
static void side_text(const struct cmp_side *side, char *buf, size_t len)
{
	size_t i, j, used = 0;
	bool any_tag = false;

	for (i = 0; i < side->nruns && used < len; i++) {
		const char *t = side->runs[i].run.tag;
		bool dup = false;

		if (!*t)
			continue;
		for (j = 0; j < i; j++)
			dup |= strcmp(side->runs[j].run.tag, t) == 0;
		if (dup)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 any_tag ? ", " : "tag ", t);
		any_tag = true;
	}
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, "%srun%s",
					 any_tag ? " (" : "",
					 side->nruns > 1 ? "s" : "");
	for (i = 0; i < side->nruns && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%lld",
					 i ? ", " : " ",
					 (long long)side->runs[i].run.id);
	if (used < len)
		snprintf(buf + used, len - used, "; %zu boot%s%s",
			 side->nboots, side->nboots == 1 ? "" : "s",
			 any_tag ? ")" : "");
}

static void print_envdiffs(FILE *out, const struct cmp *c)
{
	size_t i;

	if (c->flavour_differs)
		fprintf(out, "\nWARNING: the build flavours differ "
			"(copyscope.build_flavour): a sanitizer or debug\n"
			"build is several times slower; never compare it "
			"with a release build.\n");
	if (c->nenvd == 0) {
		fprintf(out, "environment: no differences (boot ids and "
			"timer jitter aside)\n");
		return;
	}
	fprintf(out, "environment differences (base -> new):\n");
	for (i = 0; i < c->nenvd; i++) {
		const struct cmp_envdiff *d = &c->envd[i];
		char text[8192];

		if (strlen(d->key) + strlen(d->base) + strlen(d->new) + 10 <=
		    LINE) {
			fprintf(out, "  %s: %s -> %s\n", d->key, d->base,
				d->new);
			continue;
		}
		fprintf(out, "  %s:\n", d->key);
		snprintf(text, sizeof(text), "base: %s", d->base);
		fmt_wrap(out, 4, 10, text);
		snprintf(text, sizeof(text), "new:  %s", d->new);
		fmt_wrap(out, 4, 10, text);
	}
}

/*
 * "workload  key=value ..." wrapped at 80 columns; a parameter that
 * differs between base (r) and new (rn, may be NULL) shows as key=a->b.
 */
static void print_heading(FILE *out, const struct store_result *r,
			  const struct store_result *rn)
{
	json_t *p = r->params_json ? json_loads(r->params_json, 0, NULL)
				   : NULL;
	json_t *pn = rn && rn->params_json ? json_loads(rn->params_json, 0,
							NULL) : NULL;
	const char *key;
	json_t *val;
	size_t col = strlen(r->workload);

	fprintf(out, "%s", r->workload);
	json_object_foreach(p, key, val) {
		const char *a = json_string_value(val) ? json_string_value(val)
						       : "?";
		const char *b = json_string_value(json_object_get(pn, key));
		char kv[200];
		size_t len;

		if (b && strcmp(a, b) != 0)
			len = (size_t)snprintf(kv, sizeof(kv), "%s=%s->%s",
					       key, a, b);
		else
			len = (size_t)snprintf(kv, sizeof(kv), "%s=%s", key,
					       a);

		if (col + 2 + len > LINE) {
			fprintf(out, "\n ");
			col = 1;
		}
		fprintf(out, "%s%s", col == 1 ? " " : "  ", kv);
		col += 2 + len;
	}
	fputc('\n', out);
	json_decref(p);
	json_decref(pn);
}

static void fmt_pct_sd(const struct cmp_val *v, char *buf, size_t len)
{
	if (v->n < 2)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "±%.0f%%", v->s.cv * 100.0);
}

static void fmt_p(double p, char *buf, size_t len)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

static void fmt_ci(double lo, double hi, char *buf, size_t len)
{
	if (isnan(lo) || isnan(hi))
		snprintf(buf, len, "-");
	else if (fabs(lo) < 10 && fabs(hi) < 10)
		snprintf(buf, len, "%+.1f..%+.1f", lo, hi);
	else
		snprintf(buf, len, "%+.0f..%+.0f", lo, hi);
}

static void fmt_change(double c, char *buf, size_t len)
{
	if (isnan(c))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", c);
}

/* Extra lines under a row: per-boot medians, bimodality, drops. */
static void print_row_notes(FILE *out, const struct cmp_row *r,
			    const char *label, double div)
{
	const struct cmp_val *sides[2] = { &r->b, &r->n };
	const char *names[2] = { "base", "new" };
	char text[1024], a[32], b[32];
	int s;

	for (s = 0; s < 2; s++) {
		const struct cmp_val *v = sides[s];
		size_t k, used;

		if (!v->n)
			continue;
		if (v->nboots >= 2) {
			used = (size_t)snprintf(text, sizeof(text),
						"%s per boot:", names[s]);
			for (k = 0; k < v->nboots && used < sizeof(text);
			     k++) {
				fmt_number(v->boots[k].median / div, a,
					   sizeof(a));
				used += (size_t)snprintf(text + used,
					sizeof(text) - used,
					"%s %s%s%s (%.8s, %zu run%s)",
					k ? "," : "", a, *label ? " " : "",
					label, v->boots[k].boot_id,
					v->boots[k].nruns,
					v->boots[k].nruns == 1 ? "" : "s");
			}
			if (v->boots_disagree && used < sizeof(text))
				snprintf(text + used, sizeof(text) - used,
					 "; the boots disagree more than runs "
					 "within a boot: take more boots");
			fmt_wrap(out, 4, 6, text);
		}
		if (v->md.bimodal) {
			fmt_value(v->md.median_lo, r->ref->unit, a, sizeof(a));
			fmt_value(v->md.median_hi, r->ref->unit, b, sizeof(b));
			snprintf(text, sizeof(text), "%s is bimodal: %zu "
				 "samples near %s, %zu near %s", names[s],
				 v->md.n_lo, a, v->md.n_hi, b);
			fmt_wrap(out, 4, 6, text);
		}
	}
}

static size_t metric_width(const struct cmp *c)
{
	size_t i, w = 11;

	for (i = 0; i < c->nrows; i++)
		if (strlen(c->rows[i].ref->metric) > w)
			w = strlen(c->rows[i].ref->metric);
	return w > 24 ? 24 : w;
}

static void print_row(FILE *out, const struct cmp_row *r, size_t mw)
{
	char bm[32], nm[32], bsd[16], nsd[16], chg[16], p[16], ci[40];
	const char *label;
	double div;

	label = fmt_scale(r->b.s.median, r->ref->unit, &div);
	fmt_number(r->b.s.median / div, bm, sizeof(bm));
	fmt_number(r->n.s.median / div, nm, sizeof(nm));
	fmt_pct_sd(&r->b, bsd, sizeof(bsd));
	fmt_pct_sd(&r->n, nsd, sizeof(nsd));
	fmt_change(r->change_pct, chg, sizeof(chg));
	fmt_p(r->mw.p, p, sizeof(p));
	fmt_ci(r->ci_lo, r->ci_hi, ci, sizeof(ci));
	/* "±" is two bytes and one column: widths of those cells + 1 */
	fprintf(out, "  %-*s %6s %5s %7s %6s %5s %-5s %6s %-11s %s\n",
		(int)mw, r->ref->metric, bm, bsd, chg, nm, nsd, label, p, ci,
		stats_verdict_name(r->verdict));
	print_row_notes(out, r, label, div);
}

static void print_one_side(FILE *out, const struct cmp *c, bool base)
{
	const struct store_result *last = NULL;
	size_t i;
	bool any = false;

	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		const struct cmp_val *v = base ? &r->b : &r->n;
		char val[32], sd[16];

		if (r->in_base && r->in_new)
			continue;
		if (r->in_base != base)
			continue;
		if (!any)
			fprintf(out, "\nonly in %s:\n", base ? "base" : "new");
		any = true;
		if (!last || strcmp(last->workload, r->ref->workload) != 0 ||
		    strcmp(last->params_json, r->ref->params_json) != 0) {
			fprintf(out, "  ");
			print_heading(out, base ? r->ref : r->ref_new, NULL);
		}
		last = r->ref;
		fmt_value(v->s.median, r->ref->unit, val, sizeof(val));
		fmt_pct_sd(v, sd, sizeof(sd));
		fprintf(out, "    %-20s %12s %6s  n=%zu\n", r->ref->metric, val,
			sd, v->n);
	}
}

/* Say what the p-values were computed over. */
static void print_unit_note(FILE *out, const struct cmp *c)
{
	size_t i, by_run = 0, by_sample = 0;

	for (i = 0; i < c->nrows; i++) {
		if (!c->rows[i].in_base || !c->rows[i].in_new)
			continue;
		if (c->rows[i].by_run)
			by_run++;
		else
			by_sample++;
	}
	if (by_run)
		fmt_wrap(out, 0, 0, "p and CI over runs (at least 3 on each "
			 "side); the smallest p possible is 2 / C(m+n, m): 0.1 "
			 "for 3 runs against 3, 0.008 for 5 against 5.");
	if (by_sample)
		fmt_wrap(out, 0, 0, "p and CI over samples: fewer than 3 runs "
			 "on a side, so they cannot see how much separate runs "
			 "of one configuration differ (on a VM often more than "
			 "the samples of one run); take 5 or more runs per "
			 "side (docs/comparing.md).");
}

void cmp_print_text(FILE *out, const struct cmp *c,
		    bool (*keep)(const struct cmp_row *row, void *arg),
		    void *arg)
{
	const struct store_result *last = NULL;
	size_t i, mw = metric_width(c), nb = 0, nw = 0, ns = 0, ni = 0;
	size_t fb = 0, fn = 0, tb = 0, tn = 0, db = 0, dn = 0;
	char text[1024];

	fprintf(out, "%s\n", c->title ? c->title : "copyscope compare");
	side_text(&c->base, text, sizeof(text));
	fprintf(out, "  base: %s\n", text);
	side_text(&c->new, text, sizeof(text));
	fprintf(out, "  new:  %s\n", text);
	for (i = 0; i < c->nrows; i++) {
		fb += c->rows[i].b.flagged;
		fn += c->rows[i].n.flagged;
		tb += c->rows[i].b.n + c->rows[i].b.dropped;
		tn += c->rows[i].n.n + c->rows[i].n.dropped;
		db += c->rows[i].b.dropped;
		dn += c->rows[i].n.dropped;
	}
	if (fb || fn) {
		snprintf(text, sizeof(text), "interference: %zu of %zu base "
			 "and %zu of %zu new sample values flagged; %s", fb,
			 tb, fn, tn, c->opts.drop_noisy ?
			 "left out (--drop-noisy)" :
			 "kept (--drop-noisy leaves them out)");
		fmt_wrap(out, 2, 4, text);
	}
	(void)db;
	(void)dn;
	print_envdiffs(out, c);
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->in_base || !r->in_new)
			continue;
		nb += r->verdict == VERDICT_BETTER;
		nw += r->verdict == VERDICT_WORSE;
		ns += r->verdict == VERDICT_SAME;
		ni += r->verdict == VERDICT_INFO;
		if (keep && !keep(r, arg))
			continue;
		if (!last || strcmp(last->workload, r->ref->workload) != 0 ||
		    strcmp(last->params_json, r->ref->params_json) != 0) {
			fputc('\n', out);
			print_heading(out, r->ref, r->ref_new);
			fprintf(out, "  %-*s %6s %5s %7s %6s %5s %-5s %6s "
				"%-11s %s\n", (int)mw, "metric", "base",
				"±sd", "%change", "new", "±sd", "unit", "p",
				"95% CI", "verdict");
		}
		last = r->ref;
		print_row(out, r, mw);
	}
	if (!keep) {
		print_one_side(out, c, true);
		print_one_side(out, c, false);
	}
	print_unit_note(out, c);
	fprintf(out, "\n%zu compared: %zu worse, %zu better, %zu ~, %zu "
		"informational\n", nb + nw + ns + ni, nw, nb, ns, ni);
	snprintf(text, sizeof(text), "(p: Mann-Whitney U; 95%% bootstrap CI "
		 "of the %%change of medians; a verdict needs p < %g and the "
		 "whole CI beyond ±%g%%)", c->opts.alpha, c->opts.noise_pct);
	fmt_wrap(out, 0, 0, text);
}

/* ---- JSON and CSV ---- */

static json_t *jnum(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *side_json(const struct cmp_side *side)
{
	json_t *o = json_object(), *runs = json_array(), *boots = json_array();
	json_t *tags = json_array();
	size_t i, j;

	for (i = 0; i < side->nruns; i++) {
		const struct store_run *r = &side->runs[i].run;
		bool db = false, dt = false;

		json_array_append_new(runs, json_integer(r->id));
		for (j = 0; j < i; j++) {
			db |= strcmp(side->runs[j].run.boot_id,
				      r->boot_id) == 0;
			dt |= strcmp(side->runs[j].run.tag, r->tag) == 0;
		}
		if (!db)
			json_array_append_new(boots, json_string(r->boot_id));
		if (!dt && *r->tag)
			json_array_append_new(tags, json_string(r->tag));
	}
	json_object_set_new(o, "runs", runs);
	json_object_set_new(o, "boots", boots);
	json_object_set_new(o, "tags", tags);
	return o;
}

static json_t *val_json(const struct cmp_val *v)
{
	json_t *o = json_object(), *boots = json_array();
	size_t k;

	json_object_set_new(o, "n", json_integer((json_int_t)v->n));
	json_object_set_new(o, "median", jnum(v->s.median));
	json_object_set_new(o, "stddev_pct", jnum(v->s.cv * 100.0));
	json_object_set_new(o, "flagged", json_integer((json_int_t)v->flagged));
	json_object_set_new(o, "dropped", json_integer((json_int_t)v->dropped));
	for (k = 0; k < v->nboots; k++)
		json_array_append_new(boots, json_pack("{s:s, s:I, s:o}",
			"boot_id", v->boots[k].boot_id,
			"runs", (json_int_t)v->boots[k].nruns,
			"median", jnum(v->boots[k].median)));
	json_object_set_new(o, "per_boot", boots);
	json_object_set_new(o, "boots_disagree",
			    json_boolean(v->boots_disagree));
	if (v->md.bimodal)
		json_object_set_new(o, "bimodal", json_pack("{s:I, s:o, s:I, "
			"s:o}", "n_low", (json_int_t)v->md.n_lo,
			"median_low", jnum(v->md.median_lo),
			"n_high", (json_int_t)v->md.n_hi,
			"median_high", jnum(v->md.median_hi)));
	else
		json_object_set_new(o, "bimodal", json_null());
	return o;
}

static const char *dir_name(int d)
{
	return d > 0 ? "higher" : d < 0 ? "lower" : "info";
}

int cmp_print_json(FILE *out, const struct cmp *c)
{
	json_t *doc = json_object(), *rows = json_array();
	json_t *ob = json_array(), *on = json_array(), *env = json_array();
	size_t i;
	int rc;

	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "base", side_json(&c->base));
	json_object_set_new(doc, "new", side_json(&c->new));
	json_object_set_new(doc, "alpha", json_real(c->opts.alpha));
	json_object_set_new(doc, "noise_pct", json_real(c->opts.noise_pct));
	json_object_set_new(doc, "drop_noisy",
			    json_boolean(c->opts.drop_noisy));
	for (i = 0; i < c->nenvd; i++)
		json_array_append_new(env, json_pack("{s:s, s:s, s:s}",
			"key", c->envd[i].key, "base", c->envd[i].base,
			"new", c->envd[i].new));
	json_object_set_new(doc, "environment_differences", env);
	json_object_set_new(doc, "build_flavour_differs",
			    json_boolean(c->flavour_differs));
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		json_t *params = json_loads(r->ref->params_json, 0, NULL);
		json_t *o = json_pack("{s:s, s:o, s:s, s:s, s:s}",
			"workload", r->ref->workload,
			"params", params ? params : json_object(),
			"metric", r->ref->metric, "unit", r->ref->unit,
			"direction", dir_name(r->direction));

		if (r->ref_new && r->ref != r->ref_new &&
		    strcmp(r->ref->params_json, r->ref_new->params_json) != 0) {
			json_t *pn = json_loads(r->ref_new->params_json, 0,
						NULL);

			json_object_set_new(o, "params_new",
					    pn ? pn : json_object());
		}
		if (r->in_base && r->in_new) {
			json_object_set_new(o, "base", val_json(&r->b));
			json_object_set_new(o, "new", val_json(&r->n));
			json_object_set_new(o, "change_pct",
					    jnum(r->change_pct));
			json_object_set_new(o, "ci_change_pct",
				json_pack("[o, o]", jnum(r->ci_lo),
					  jnum(r->ci_hi)));
			json_object_set_new(o, "p", jnum(r->mw.p));
			json_object_set_new(o, "u", jnum(r->mw.u));
			json_object_set_new(o, "p_method", json_string(
				r->mw.exact ? "exact" : "normal"));
			json_object_set_new(o, "unit_of_test", json_string(
				r->by_run ? "run" : "sample"));
			json_object_set_new(o, "verdict", json_string(
				r->verdict == VERDICT_INFO ? "info" :
				r->verdict == VERDICT_SAME ? "same" :
				stats_verdict_name(r->verdict)));
			json_array_append_new(rows, o);
		} else if (r->in_base) {
			json_object_set_new(o, "base", val_json(&r->b));
			json_array_append_new(ob, o);
		} else {
			json_object_set_new(o, "new", val_json(&r->n));
			json_array_append_new(on, o);
		}
	}
	json_object_set_new(doc, "rows", rows);
	json_object_set_new(doc, "only_base", ob);
	json_object_set_new(doc, "only_new", on);
	rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
	return rc == 0 && !ferror(out) ? 0 : -1;
}

/* A CSV field: quoted, with inner quotes doubled. */
static void csv_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_num(FILE *out, double v)
{
	if (isnan(v))
		fprintf(out, ",");
	else
		fprintf(out, ",%.17g", v);
}

void cmp_print_csv(FILE *out, const struct cmp *c)
{
	size_t i;

	fprintf(out, "workload,params,metric,unit,direction,side,base_n,"
		"base_median,base_stddev_pct,new_n,new_median,"
		"new_stddev_pct,change_pct,ci_lo_pct,ci_hi_pct,p,verdict\n");
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		csv_str(out, r->ref->workload);
		fputc(',', out);
		csv_str(out, r->ref->params_json);
		fputc(',', out);
		csv_str(out, r->ref->metric);
		fprintf(out, ",%s,%s,%s", r->ref->unit, dir_name(r->direction),
			r->in_base && r->in_new ? "both" :
			r->in_base ? "base" : "new");
		if (r->in_base)
			fprintf(out, ",%zu", r->b.n);
		else
			fprintf(out, ",");
		csv_num(out, r->in_base ? r->b.s.median : NAN);
		csv_num(out, r->in_base ? r->b.s.cv * 100.0 : NAN);
		if (r->in_new)
			fprintf(out, ",%zu", r->n.n);
		else
			fprintf(out, ",");
		csv_num(out, r->in_new ? r->n.s.median : NAN);
		csv_num(out, r->in_new ? r->n.s.cv * 100.0 : NAN);
		csv_num(out, r->change_pct);
		csv_num(out, r->ci_lo);
		csv_num(out, r->ci_hi);
		csv_num(out, r->mw.p);
		fprintf(out, ",%s\n", !(r->in_base && r->in_new) ? "" :
			r->verdict == VERDICT_INFO ? "info" :
			r->verdict == VERDICT_SAME ? "same" :
			stats_verdict_name(r->verdict));
	}
}

/* ---- the subcommand ---- */

static void compare_usage(FILE *out)
{
	fprintf(out,
"usage: copyscope compare BASE NEW [--json|--csv] [--drop-noisy]\n"
"                         [--alpha A] [--db PATH]\n"
"\n"
"Compares two sets of stored runs.  BASE and NEW are each a run id, a tag\n"
"(every run with that tag), 'last', or a comma list of them; the samples of\n"
"all runs of a side are pooled.  For every (workload, parameters, metric)\n"
"on both sides: base median and %%stddev, %%change of the medians, new\n"
"median and %%stddev, the Mann-Whitney U p-value, the 95%% bootstrap CI of\n"
"the change and a verdict: 'better' or 'worse' (by the metric's direction)\n"
"when p < alpha and the whole CI lies beyond the noise band, else '~'.\n"
"Environment keys that differ between the sides are listed first.\n"
"\n"
"options:\n"
"  --json         the comparison as JSON\n"
"  --csv          one CSV line per row\n"
"  --drop-noisy   leave out samples flagged as disturbed (outside load,\n"
"                 steal, slow canary)\n"
"  --alpha A      significance level (default 0.05)\n"
"  --noise PCT    a verdict needs the whole CI of the change beyond\n"
"                 +-PCT (default 1%%): smaller changes count as noise\n"
"  --ignore-param KEY[,KEY...]\n"
"                 leave these parameters out of the matching, to compare\n"
"                 e.g. io=write on one side with io=vmsplice on the other\n"
"  --db PATH      database (default $COPYSCOPE_DB, else\n"
"                 $XDG_DATA_HOME/copyscope/results.db)\n"
"\nexamples:\n"
"  copyscope compare baseline patched\n"
"  copyscope compare 3,4,5 6,7,8 --drop-noisy\n"
"  copyscope compare smap-on smap-off --csv > smap.csv\n"
"  copyscope compare 1 2 --ignore-param io\n");
}

int cmp_ignore_add(const char *cmd, struct cmp_ignore *ig,
		   const char *list)
{
	char *save = NULL, *k, *copy;

	if (ig->nbufs >= CMP_MAX_IGNORE)
		return cli_usage(cmd, "--ignore-param: at most %d times",
				 CMP_MAX_IGNORE);
	copy = strdup(list);
	if (!copy) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	ig->bufs[ig->nbufs++] = copy;
	for (k = strtok_r(copy, ",", &save); k;
	     k = strtok_r(NULL, ",", &save)) {
		if (ig->n >= CMP_MAX_IGNORE)
			return cli_usage(cmd, "--ignore-param: at most %d "
					 "parameters", CMP_MAX_IGNORE);
		ig->keys[ig->n++] = k;
	}
	return 0;
}

void cmp_ignore_free(struct cmp_ignore *ig)
{
	size_t i;

	for (i = 0; i < ig->nbufs; i++)
		free(ig->bufs[i]);
	memset(ig, 0, sizeof(*ig));
}

int cmp_parse_pct(const char *v, double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || (*end && strcmp(end, "%") != 0) ||
	    !(x >= 0) || x > 1000)
		return -1;
	*out = x;
	return 0;
}

/* Returns 0, -1 after --help, or the usage exit code. */
static int compare_args(int argc, char **argv, struct cmp_opts *o,
			struct cmp_ignore *ig, const char **sides,
			const char **db, bool *json, bool *csv)
{
	const char *v;
	int missing, nsides = 0, e;

	for (int a = 1; a < argc; a++) {
		if (cli_is_help(argv[a])) {
			compare_usage(stdout);
			return -1;
		}
		if ((v = cli_opt_value(argc, argv, &a, "--db", &missing)) ||
		    missing) {
			if (missing)
				return cli_usage("compare", "--db needs a "
						 "value");
			*db = v;
		} else if ((v = cli_opt_value(argc, argv, &a, "--alpha",
					      &missing)) || missing) {
			char *end;

			if (missing)
				return cli_usage("compare", "--alpha needs a "
						 "value");
			errno = 0;
			o->alpha = strtod(v, &end);
			if (errno || end == v || *end || !(o->alpha > 0) ||
			    !(o->alpha < 1))
				return cli_usage("compare", "--alpha: '%s' is "
						 "not a number between 0 and "
						 "1", v);
		} else if ((v = cli_opt_value(argc, argv, &a, "--noise",
					      &missing)) || missing) {
			if (missing)
				return cli_usage("compare", "--noise needs a "
						 "value");
			if (cmp_parse_pct(v, &o->noise_pct) != 0)
				return cli_usage("compare", "--noise: '%s' is "
						 "not a percentage in 0 .. "
						 "1000 (e.g. 1%%)", v);
		} else if ((v = cli_opt_value(argc, argv, &a,
					      "--ignore-param", &missing)) ||
			   missing) {
			if (missing)
				return cli_usage("compare", "--ignore-param "
						 "needs a value");
			e = cmp_ignore_add("compare", ig, v);
			if (e)
				return e;
		} else if (strcmp(argv[a], "--json") == 0) {
			*json = true;
		} else if (strcmp(argv[a], "--csv") == 0) {
			*csv = true;
		} else if (strcmp(argv[a], "--drop-noisy") == 0) {
			o->drop_noisy = true;
		} else if (argv[a][0] == '-' || nsides == 2) {
			return cli_usage("compare", "unknown argument '%s'",
					 argv[a]);
		} else {
			sides[nsides++] = argv[a];
		}
	}
	if (nsides != 2)
		return cli_usage("compare", "needs BASE and NEW (run ids, tags "
				 "or comma lists; 'copyscope runs' lists "
				 "them)");
	if (*json && *csv)
		return cli_usage("compare", "--json or --csv, not both");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	const char *db = NULL, *sides[2] = { NULL, NULL };
	struct cmp_opts o = { .alpha = 0.05, .noise_pct = 1.0 };
	struct cmp_ignore ig;
	struct cmp c;
	struct store *st;
	char path[4096];
	bool json = false, csv = false;
	int e;

	memset(&c, 0, sizeof(c));
	memset(&ig, 0, sizeof(ig));
	e = compare_args(argc, argv, &o, &ig, sides, &db, &json, &csv);
	if (!e && (!sides[0] || !sides[1]))
		e = EXIT_USAGE;		/* compare_args said why */
	if (e) {
		cmp_ignore_free(&ig);
		return e < 0 ? EXIT_OK : e;
	}
	o.ignore = ig.keys;
	o.nignore = ig.n;
	e = cli_open_existing_store(db, &st, path, sizeof(path), NULL);
	if (e)
		goto out;
	e = cmp_load_side(st, "compare", sides[0], &c.base);
	if (!e)
		e = cmp_load_side(st, "compare", sides[1], &c.new);
	store_close(st);
	if (e)
		goto out;
	snprintf(c.base_spec, sizeof(c.base_spec), "%s", sides[0]);
	snprintf(c.new_spec, sizeof(c.new_spec), "%s", sides[1]);
	if (cmp_build(&c, &o) != 0) {
		cli_error("out of memory");
		e = EXIT_FAIL;
		goto out;
	}
	if (c.flavour_differs)
		cli_error("warning: the sides were measured with different "
			  "build flavours (copyscope.build_flavour); the "
			  "comparison is meaningless");
	if (json)
		e = cmp_print_json(stdout, &c) ? EXIT_FAIL : EXIT_OK;
	else if (csv)
		cmp_print_csv(stdout, &c);
	else
		cmp_print_text(stdout, &c, NULL, NULL);
	if (fflush(stdout) != 0) {
		cli_error("cannot write the output: %s", strerror(errno));
		e = EXIT_FAIL;
	}
out:
	cmp_free(&c);
	cmp_ignore_free(&ig);
	return e;
}
