/*
 * comparison_text.c - a comparison as 80-column text (see report/comparison_print.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/comparison_print.h"
#include "report/format.h"
#include "report/profile_diff_print.h"
#include "results/codec.h"

#define LINE 80

/* Do two results share workload and parameters (one heading)? */
static bool same_config(const struct result *a, const struct result *b)
{
	return strcmp(a->cfg->workload, b->cfg->workload) == 0 &&
	       strcmp(a->cfg->params_json, b->cfg->params_json) == 0;
}

/* "tag a, b (runs 1, 2, 5; 2 boots)" */
static void side_text(const struct cmp_side *side, char *buf, size_t len)
{
	size_t i, j, used = 0;
	bool any_tag = false;

	for (i = 0; i < side->nruns && used < len; i++) {
		const char *t = side->runs[i].info.tag;
		bool dup = false;

		if (!*t)
			continue;
		for (j = 0; j < i; j++)
			dup |= strcmp(side->runs[j].info.tag, t) == 0;
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
					 (long long)side->runs[i].info.id);
	if (used < len)
		snprintf(buf + used, len - used, "; %zu boot%s%s",
			 side->nboots, side->nboots == 1 ? "" : "s",
			 any_tag ? ")" : "");
}

/* A line of label and text from outside (tags), control bytes escaped. */
static void print_clean(FILE *out, const char *label, const char *text)
{
	char *clean = codec_clean_text(text, true);

	fprintf(out, "%s%s\n", label, clean ? clean : "?");
	free(clean);
}

static void print_envdiffs(FILE *out, const struct cmp *c)
{
	size_t i;

	if (c->flavour_differs)
		fprintf(out, "\nWARNING: the build flavours differ "
			"(copyscope.build_flavour): a sanitizer or debug\n"
			"build is several times slower; never compare it "
			"with a release build.\n");
	if (c->emulated_base || c->emulated_new) {
		char text[512];

		snprintf(text, sizeof(text), "WARNING: %zu base and %zu new "
			 "runs were measured under an emulator (virt.emulated: "
			 "e.g. qemu TCG): their timings measure the emulator, "
			 "not the kernel. %s", c->emulated_base,
			 c->emulated_new, c->opts.allow_emulated ?
			 "Verdicts are given all the same (--allow-emulated)." :
			 "The numbers are shown; verdicts are withheld "
			 "('emul'; --allow-emulated gives them).");
		fputc('\n', out);
		fmt_wrap(out, 0, 0, text);
	}
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
 * "workload  key=value ..." wrapped at 80 columns, keys in canonical
 * (name) order; a parameter that differs between base (r) and new (rn,
 * may be NULL) shows as key=a->b.
 */
static void print_heading(FILE *out, const struct result *r,
			  const struct result *rn)
{
	const struct result_config *c = r->cfg;
	/* an array of pointers (sizeof(void *): clang-tidy 14 takes
	   sizeof(*p) of a pointer to a struct for a mistake) */
	const struct result_param **p = calloc(c->nparams ? c->nparams : 1,
					       sizeof(void *));
	struct fmt_items line;
	size_t k;

	fmt_items_begin(&line, out, c->workload);
	if (p)
		result_params_sorted(c, p);
	for (k = 0; p && k < c->nparams; k++) {
		const char *a = p[k]->value;
		const char *b = rn ? result_param(rn->cfg, p[k]->name) : NULL;
		if (b && strcmp(a, b) != 0)
			fmt_items_addf(&line, "%s=%s->%s", p[k]->name, a, b);
		else
			fmt_items_addf(&line, "%s=%s", p[k]->name, a);
	}
	fmt_items_end(&line);
	free(p);
}

static void fmt_pct_sd(const struct cmp_val *v, char *buf, size_t len)
{
	if (v->n < 2)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "±%.0f%%", v->s.cv * 100.0);
}

/* "1.2%" of a CV (a fraction), "-" when not known. */
static void fmt_cv(double cv, char *buf, size_t len)
{
	if (isnan(cv))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f%%", cv * 100.0);
}

/*
 * An informational row (a metric without a better direction) that changed
 * as a verdict would need (p < alpha, the whole CI beyond the noise band):
 * "info: ... it went down by 15..22% (p 0.002); " into text; the length
 * written (0: it did not change so).
 */
static size_t info_change(const struct cmp_row *r, const struct cmp_opts *o,
			  char *text, size_t len)
{
	double noise = o->noise_pct;
	char p[16];

	if (isnan(r->p) || isnan(r->ci_lo) || isnan(r->ci_hi))
		return 0;
	fmt_p(r->p, p, sizeof(p));
	if (!(r->p < o->alpha && (r->ci_lo > noise || r->ci_hi < -noise)))
		return 0;
	return (size_t)snprintf(text, len, "info: no better direction; it "
				"went %s by %.0f..%.0f%% (p %s); ",
				r->ci_lo > 0 ? "up" : "down",
				fmin(fabs(r->ci_lo), fabs(r->ci_hi)),
				fmax(fabs(r->ci_lo), fabs(r->ci_hi)), p);
}

/*
 * A row judged against history (comparison.h, struct cmp_hist): which
 * run, against which earlier runs on which host, their interval and where
 * the run lies.
 */
static size_t hist_text(const struct cmp_row *r, char *text, size_t len)
{
	const struct cmp_hist *h = &r->hist;
	char lo[32], hi[32], p[16];

	fmt_value(h->pi.lo, r->ref->unit, lo, sizeof(lo));
	fmt_value(h->pi.hi, r->ref->unit, hi, sizeof(hi));
	if (h->pi.p < 0.001)
		snprintf(p, sizeof(p), "<0.001");
	else
		snprintf(p, sizeof(p), "%.3f", h->pi.p);
	return (size_t)snprintf(text, len, "%s: history-based: the %s run "
		"(%lld) judged against the %zu earlier runs %lld..%lld of this "
		"configuration on host %s: one run lies within %s..%s %g%% of "
		"the time; this one is %+.1f%% from their geometric mean (p "
		"%s)", stats_verdict_name(r->verdict), h->judged_base ? "base" : "new", (long long)h->judged_run,
		h->nruns, (long long)h->runs[0],
		(long long)h->runs[h->nruns - 1], h->host, lo, hi,
		100 * (1 - h->alpha), h->pi.change_pct, p);
}

size_t cmp_power_text(const struct cmp_row *r, const struct cmp_opts *o,
		      char *text, size_t len)
{
	char w1[16], w2[16], b1[16], b2[16], n1[16], n2[16];
	size_t used = 0;
	double beyond = cmp_no_change_beyond(r);

	text[0] = '\0';
	if (r->same_reading_as)
		return (size_t)snprintf(text, len, "the same reading as %s: "
					"counted once", r->same_reading_as);
	if (r->hist.used)
		return hist_text(r, text, len);
	if (r->verdict == VERDICT_CANNOT_TELL && r->reason[0])
		used += (size_t)snprintf(text + used, len - used,
					 "?: cannot tell: %s; ", r->reason);
	if (r->verdict == VERDICT_INFO && o && used < len)
		used += info_change(r, o, text + used, len - used);
	if (r->verdict == VERDICT_SAME && !isnan(beyond) && used < len)
		used += (size_t)snprintf(text + used, len - used,
					 "~: no change larger than %.1f%%; ",
					 beyond);
	if (!isnan(r->mde_pct) && used < len)
		used += (size_t)snprintf(text + used, len - used,
					 "smallest change seen 80%% of the "
					 "time: %.1f%%", r->mde_pct);
	if (r->by_run && used < len) {
		fmt_cv(r->b.spread.within_run, w1, sizeof(w1));
		fmt_cv(r->n.spread.within_run, w2, sizeof(w2));
		fmt_cv(r->b.spread.between_runs, b1, sizeof(b1));
		fmt_cv(r->n.spread.between_runs, n1, sizeof(n1));
		fmt_cv(r->b.spread.between_boots, b2, sizeof(b2));
		fmt_cv(r->n.spread.between_boots, n2, sizeof(n2));
		used += (size_t)snprintf(text + used, len - used,
					 "; spread (base/new): %s/%s in a run, "
					 "%s/%s between runs, %s/%s between "
					 "boots", w1, w2, b1, n1, b2, n2);
	}
	/* the --target's answer only follows a note */
	if (!used || used >= len) {
		text[used ? len - 1 : 0] = '\0';
		return used ? len - 1 : 0;
	}
	if (r->runs_needed > 0)
		snprintf(text + used, len - used, "; %d runs a side to see "
			 "the target", r->runs_needed);
	else if (r->runs_needed == 0)
		snprintf(text + used, len - used, "; the target needs more "
			 "than %d runs a side", CMP_MAX_RUNS_NEEDED);
	return strlen(text);
}

/* Under a row: its cmp_power_text(), wrapped. */
static void print_power_note(FILE *out, const struct cmp_row *r,
			     const struct cmp_opts *o)
{
	char text[512];

	if (cmp_power_text(r, o, text, sizeof(text)))
		fmt_wrap(out, 4, 6, text);
}

/* "+1.2%", or "-" for a mode too thin on a side. */
static void fmt_mode_change(double pct, char *buf, size_t len)
{
	if (isnan(pct))
		snprintf(buf, len, "- (too few samples)");
	else
		snprintf(buf, len, "%+.1f%%", pct);
}

/*
 * When a side is bimodal: where the modes are, the share of the high one
 * on each side and whether it changed, and each mode's own change, so a
 * median that moved because the shares moved is told apart from a mode
 * that moved.
 */
static void print_modes_note(FILE *out, const struct cmp_row *r, double noise)
{
	const struct cmp_modes *m = &r->modes;
	double lo = m->centre_lo, hi = m->centre_hi;
	char a[32], b[32], sp[32], cl[32], ch[32], text[1024], p[16];
	size_t used;

	if (!m->shown)
		return;
	fmt_value(lo, r->ref->unit, a, sizeof(a));
	fmt_value(hi, r->ref->unit, b, sizeof(b));
	fmt_value(m->split, r->ref->unit, sp, sizeof(sp));
	fmt_mode_change(m->lo_change_pct, cl, sizeof(cl));
	fmt_mode_change(m->hi_change_pct, ch, sizeof(ch));
	if (m->p_share < 0.001)
		snprintf(p, sizeof(p), "<0.001");
	else
		snprintf(p, sizeof(p), "%.3f", m->p_share);
	used = (size_t)snprintf(text, sizeof(text), "modes near %s and %s "
		"(split at %s): the mode near %s holds %.0f%% of base and "
		"%.0f%% of new samples: %s (p %s, %s); within each mode: %s "
		"and %s", a, b, sp, b, 100.0 * m->share_hi_b,
		100.0 * m->share_hi_n, m->share_changed ? "the shares changed"
		: "no change of the shares", p, m->by_run ? "Welch's t over "
		"the runs' shares" : "Fisher's exact test over the samples",
		cl, ch);
	if (m->share_changed && !isnan(m->lo_change_pct) &&
	    !isnan(m->hi_change_pct) && fabs(m->lo_change_pct) < noise &&
	    fabs(m->hi_change_pct) < noise && used < sizeof(text))
		snprintf(text + used, sizeof(text) - used, "; the median's "
			 "change comes from the shares, not from either mode");
	fmt_wrap(out, 4, 6, text);
}

/* Extra lines under a row: per-boot medians, bimodality, drops. */
static void print_row_notes(FILE *out, const struct cmp_row *r,
			    const char *label, double div,
			    const struct cmp_opts *o)
{
	const struct cmp_val *sides[2] = { &r->b, &r->n };
	const char *names[2] = { "base", "new" };
	char text[1024], a[32], b[32];
	int s;

	print_power_note(out, r, o);
	if (r->verdict == VERDICT_EMPTY) {
		/* no sample left on a side: withheld headlines, or
		   --drop-noisy left every one out */
		bool withheld = !r->b.dropped && !r->n.dropped;

		snprintf(text, sizeof(text), "%s%s%s: %s: nothing to compare; "
			 "rerun on a quiet machine or %s",
			 !r->b.n ? "base" : "",
			 !r->b.n && !r->n.n ? " and " : "",
			 !r->n.n ? "new" : "",
			 withheld ? "every run's headline was withheld (too "
			 "many samples had a worker off its CPU)" : "every "
			 "sample was flagged and left out (--drop-noisy)",
			 withheld ? "with --cpus" : "compare without "
			 "--drop-noisy");
		fmt_wrap(out, 4, 6, text);
	}
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
	print_modes_note(out, r, o->noise_pct);
}

static size_t metric_width(const struct cmp *c)
{
	size_t i, w = 11;

	for (i = 0; i < c->nrows; i++)
		if (strlen(c->rows[i].ref->metric) > w)
			w = strlen(c->rows[i].ref->metric);
	return w > 24 ? 24 : w;
}

static void print_row(FILE *out, const struct cmp_row *r, size_t mw,
		      const struct cmp_opts *o)
{
	char bm[32], nm[32], bsd[16], nsd[16], chg[16], p[16], ci[40];
	const char *label;
	double div;

	label = fmt_scale(r->b.n ? r->b.s.median : r->n.s.median,
			  r->ref->unit, &div);
	/* a side with no samples left has no median: "-", never 0 */
	if (r->b.n)
		fmt_number(r->b.s.median / div, bm, sizeof(bm));
	else
		snprintf(bm, sizeof(bm), "-");
	if (r->n.n)
		fmt_number(r->n.s.median / div, nm, sizeof(nm));
	else
		snprintf(nm, sizeof(nm), "-");
	fmt_pct_sd(&r->b, bsd, sizeof(bsd));
	fmt_pct_sd(&r->n, nsd, sizeof(nsd));
	fmt_change(r->change_pct, chg, sizeof(chg));
	fmt_p(r->p, p, sizeof(p));
	fmt_ci(r->ci_lo, r->ci_hi, ci, sizeof(ci));
	/* "±" is two bytes and one column: widths of those cells + 1 */
	fprintf(out, "  %-*s %6s %5s %7s %6s %5s %-5s %6s %-11s %s\n",
		(int)mw, r->ref->metric, bm, bsd, chg, nm, nsd, label, p, ci,
		r->verdict == VERDICT_CANNOT_TELL ? "?" :
		r->verdict == VERDICT_INFO ? "info" :
		stats_verdict_name(r->verdict));
	print_row_notes(out, r, label, div, o);
}

static void print_one_side(FILE *out, const struct cmp *c, bool base)
{
	const struct result *last = NULL;
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
		if (!last || !same_config(last, r->ref)) {
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
	size_t i, by_run = 0, by_sample = 0, by_hist = 0;

	for (i = 0; i < c->nrows; i++) {
		if (!c->rows[i].in_base || !c->rows[i].in_new)
			continue;
		if (c->rows[i].hist.used)
			by_hist++;
		else if (c->rows[i].by_run)
			by_run++;
		else
			by_sample++;
	}
	if (by_hist)
		fmt_wrap(out, 0, 0, "history-based rows: one run judged against "
			 "the earlier runs of its configuration on its host "
			 "(their spread between runs): p from the t prediction "
			 "interval for one run on their log medians; %change "
			 "and CI of NEW against their geometric mean (BASE's "
			 "run when it is the newer one, read the other way).");
	if (by_run)
		fmt_wrap(out, 0, 0, "p over runs (at least 3 on each side): "
			 "Welch's t test on the logarithms of the run medians; "
			 "the 95% CI of the change by a bootstrap that "
			 "resamples boots, runs within them and samples within "
			 "those.");
	if (by_sample)
		fmt_wrap(out, 0, 0, "p and CI over samples (Mann-Whitney U, a "
			 "bootstrap of the samples): fewer than 3 runs on a "
			 "side, so they cannot see how much separate runs of "
			 "one configuration differ (on a VM often more than the "
			 "samples of one run); take 5 or more runs per side "
			 "(run --runs 5; docs/comparing.md).");
}

/* With --target: the runs per side the noisiest row needs. */
static void print_target(FILE *out, const struct cmp *c)
{
	const struct cmp_row *worst = NULL;
	char text[320];
	size_t i;

	if (!(c->opts.target_pct > 0))
		return;
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->in_base || !r->in_new || r->runs_needed < 0)
			continue;
		if (!worst || r->runs_needed == 0 ||
		    (worst->runs_needed > 0 &&
		     r->runs_needed > worst->runs_needed))
			worst = r;
		if (worst->runs_needed == 0)
			break;
	}
	if (!worst) {
		snprintf(text, sizeof(text), "--target %g%%: needs runs on each "
			 "side to estimate the spread between runs (3 or more: "
			 "run --runs N)", c->opts.target_pct);
	} else if (worst->runs_needed == 0) {
		snprintf(text, sizeof(text), "to see a change of %g%% with 80%% "
			 "power: more than %d runs per side (%s of %s spreads "
			 "too much between runs)", c->opts.target_pct,
			 CMP_MAX_RUNS_NEEDED, worst->ref->metric,
			 worst->ref->cfg->workload);
	} else {
		snprintf(text, sizeof(text), "to see a change of %g%% with 80%% "
			 "power: %d runs per side (for %s of %s, the row whose "
			 "runs spread most; now %zu and %zu)",
			 c->opts.target_pct, worst->runs_needed,
			 worst->ref->metric, worst->ref->cfg->workload,
			 worst->b.nruns, worst->n.nruns);
	}
	fputc('\n', out);
	fmt_wrap(out, 0, 0, text);
}

/* The kernel profiles' diff of each configuration profiled on a side. */
static void print_profile_diffs(FILE *out, const struct cmp *c)
{
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		struct pdiff d;
		int rc = pdiff_cmp_row(c, &c->rows[i], &d);

		if (rc == 0) {
			fputc('\n', out);
			print_heading(out, c->rows[i].ref, c->rows[i].ref_new);
			report_profile_diff(out, &d, 2);
		} else if (rc < 0) {
			fprintf(out, "  the profile diff: out of memory\n");
		}
		pdiff_free(&d);
	}
}

void cmp_print_text(FILE *out, const struct cmp *c,
		    bool (*keep)(const struct cmp_row *row, void *arg),
		    void *arg)
{
	const struct result *last = NULL;
	size_t i, mw = metric_width(c), nb = 0, nw = 0, ns = 0, ni = 0, ne = 0;
	size_t nwh = 0, nct = 0, nsr = 0;
	size_t fb = 0, fn = 0, tb = 0, tn = 0, hb = 0, hn = 0;
	char text[1024];

	fprintf(out, "%s\n", c->title ? c->title : "copyscope compare");
	side_text(&c->base, text, sizeof(text));
	print_clean(out, "  base: ", text);
	side_text(&c->new, text, sizeof(text));
	print_clean(out, "  new:  ", text);
	for (i = 0; i < c->nrows; i++) {
		fb += c->rows[i].b.flagged;
		fn += c->rows[i].n.flagged;
		tb += c->rows[i].b.n + c->rows[i].b.dropped;
		tn += c->rows[i].n.n + c->rows[i].n.dropped;
		hb += c->rows[i].b.headline_out;
		hn += c->rows[i].n.headline_out;
	}
	if (hb || hn) {
		snprintf(text, sizeof(text), "headlines: %zu base and %zu new "
			 "sample values left out as their runs' headlines "
			 "left them out (a worker off its CPU >5%%; "
			 "docs/methodology.md, \"The headline\")", hb, hn);
		fmt_wrap(out, 2, 4, text);
	}
	if (fb || fn) {
		snprintf(text, sizeof(text), "interference: %zu of %zu base "
			 "and %zu of %zu new sample values flagged; %s", fb,
			 tb, fn, tn, c->opts.drop_noisy ?
			 "left out (--drop-noisy)" :
			 "kept (--drop-noisy leaves them out)");
		fmt_wrap(out, 2, 4, text);
	}
	print_envdiffs(out, c);
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->in_base || !r->in_new)
			continue;
		if (r->same_reading_as) {
			nsr++;
		} else {
			nb += r->verdict == VERDICT_BETTER;
			nw += r->verdict == VERDICT_WORSE;
			ns += r->verdict == VERDICT_SAME;
			ni += r->verdict == VERDICT_INFO;
			ne += r->verdict == VERDICT_EMPTY;
			nwh += r->verdict == VERDICT_WITHHELD;
			nct += r->verdict == VERDICT_CANNOT_TELL;
		}
		if (keep && !keep(r, arg))
			continue;
		if (!last || !same_config(last, r->ref)) {
			fputc('\n', out);
			print_heading(out, r->ref, r->ref_new);
			fprintf(out, "  %-*s %6s %5s %7s %6s %5s %-5s %6s "
				"%-11s %s\n", (int)mw, "metric", "base",
				"±sd", "%change", "new", "±sd", "unit", "p",
				"95% CI", "verdict");
		}
		last = r->ref;
		print_row(out, r, mw, &c->opts);
	}
	if (!keep) {
		print_one_side(out, c, true);
		print_one_side(out, c, false);
	}
	print_unit_note(out, c);
	print_target(out, c);
	{
		size_t u = (size_t)snprintf(text, sizeof(text), "%zu compared: "
			"%zu worse, %zu better, %zu ~, %zu informational",
			nb + nw + ns + ni + ne + nwh + nct + nsr, nw, nb, ns,
			ni);

		if (nct && u < sizeof(text))
			u += (size_t)snprintf(text + u, sizeof(text) - u,
					      ", %zu cannot tell", nct);
		if (ne && u < sizeof(text))
			u += (size_t)snprintf(text + u, sizeof(text) - u,
					      ", %zu empty", ne);
		if (nwh && u < sizeof(text))
			u += (size_t)snprintf(text + u, sizeof(text) - u,
					      ", %zu emul", nwh);
		if (nsr && u < sizeof(text))
			snprintf(text + u, sizeof(text) - u, ", %zu read "
				 "with another row (counted once)", nsr);
		fputc('\n', out);
		fmt_wrap(out, 0, 0, text);
	}
	snprintf(text, sizeof(text), "(a verdict needs p < %g and the whole "
		 "95%% CI of the %%change of medians beyond ±%g%%; '~' is no "
		 "verdict, not \"no change\"; '?' is a test that cannot "
		 "decide here: read the line under the row)",
		 c->opts.alpha, c->opts.noise_pct);
	fmt_wrap(out, 0, 0, text);
	if (!keep)
		print_profile_diffs(out, c);
}

