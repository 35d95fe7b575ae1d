/*
 * html_plots_flame.c - the profile view (run --kernel profile) in the
 * HTML report: a flame graph per profiled configuration beside its top
 * functions (as the text's table, profile_text.c: self share, ns per op
 * with its 95% CI, total), and differential flame graphs of two
 * profiles beside the functions that moved most: an ab run's B against
 * A and its control A' against A, and compare's new side against its
 * base for each configuration both sides profiled (each side's runs
 * pooled).  Their tables are the text's profile diff
 * (comparison/profile_diff.h, by function; profile_diff_print.c): each
 * side's self ns per op, the change with its 95% CI and, in an ab run,
 * the control's; the self samples' counts only where no diff can be
 * made (a run stored without its traced samples).  A figure holds the folded stacks as
 * stored (show --folded); src/report/html_flame.js builds the frames
 * from them and draws them with d3-flame-graph (bundle.h's
 * flame_bundle).  An ab run's differentials carry each frame's paired
 * change of its total ns per op with its 95% CI over the rounds
 * (comparison/profile_diff.h, by frame) for the tooltip; compare's
 * pool the sides' profiles into one count per stack, so their change
 * has no CI: the figure and its tooltip say so.
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comparison/ab_verdict.h"
#include "comparison/profile_diff.h"
#include "env/env.h"
#include "report/format.h"
#include "report/html_plots.h"
#include "report/html_plots_priv.h"
#include "results/codec.h"
#include "results/kernel_records.h"
#include "results/profile_funcs.h"

/* Functions in a figure's table. */
#define FLAME_TOP HTML_PDIFF_TOP

/* One side of a flame graph: the stacks (borrowed) and their total. */
struct flame_side {
	const char *name;		/* "A", "base" */
	struct kv_prof_stack *stacks;
	size_t nstacks;
	uint64_t samples;
};

bool html_flame_drawable(const struct result_kernel *k)
{
	return k && kview_mask_has(k->views, "profile") &&
	       k->prof_samples > 0 &&
	       k->nstacks > 0;
}

/* [[frames, count]...] of s, frames as HTML-safe UTF-8 text. */
static json_t *stacks_json(const struct flame_side *s)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < s->nstacks; i++) {
		char *t = codec_clean_text(s->stacks[i].frames, true);

		json_array_append_new(a, json_pack("[s, I]", t ? t : "?",
			(json_int_t)s->stacks[i].count));
		free(t);
	}
	return a;
}

static void open_flame(FILE *f, const char *kind, const char *title,
		       const char *note, json_t *spec)
{
	fprintf(f, "<div class=\"pair\">\n<figure class=\"flame\" "
		"data-kind=\"%s\"><figcaption>", kind);
	html_text(f, title);
	fprintf(f, "</figcaption>\n<p class=\"muted\">");
	html_text(f, note);
	fprintf(f, "</p>\n<div class=\"flamegraph\"></div>\n<div class=\""
		"flame-details muted\"></div>\n<script type=\"application/"
		"json\">");
	json_object_set_new(spec, "kind", json_string(kind));
	html_emit_json(f, spec);
	fprintf(f, "</script></figure>\n<div class=\"numbers\">\n");
}

static void cell_count(FILE *f, uint64_t n, uint64_t of)
{
	char a[48];

	snprintf(a, sizeof(a), "%llu (%.1f%%)", (unsigned long long)n,
		 of ? 100.0 * (double)n / (double)of : 0.0);
	html_tdn(f, a);
}

/* ns/op of a share, "-" where the op's time is not known. */
static void cell_ns(FILE *f, double share, double op_ns)
{
	char a[32];

	if (isfinite(op_ns))
		fmt_value(share * op_ns, "ns", a, sizeof(a));
	else
		snprintf(a, sizeof(a), "-");
	html_tdn(f, a);
}

/* The text's table of the top functions by self samples. */
static void funcs_table(FILE *f, const struct result_kernel *k)
{
	double op_ns = prof_op_ns(k), of = (double)k->prof_samples;
	struct prof_func *fn;
	long n = prof_functions(k, &fn), i;

	if (n < 0) {
		fprintf(f, "<p>(out of memory)</p>\n");
		return;
	}
	fprintf(f, "<table class=\"profile\"><tr>");
	html_th(f, "function");
	html_th(f, "self samples");
	html_th(f, "self ns/op");
	html_th(f, "95% CI");
	html_th(f, "total samples");
	html_th(f, "total ns/op");
	fprintf(f, "</tr>\n");
	for (i = 0; i < n && i < FLAME_TOP; i++) {
		double lo, hi;
		char c[72];

		fprintf(f, "<tr>");
		html_td(f, fn[i].name);
		cell_count(f, fn[i].self, k->prof_samples);
		cell_ns(f, (double)fn[i].self / of, op_ns);
		prof_share_ci(fn[i].self, k->prof_samples, &lo, &hi);
		if (isfinite(op_ns)) {
			char a[32], b[32];

			fmt_value(lo * op_ns, "ns", a, sizeof(a));
			fmt_value(hi * op_ns, "ns", b, sizeof(b));
			snprintf(c, sizeof(c), "%s .. %s", a, b);
		} else {
			snprintf(c, sizeof(c), "-");
		}
		html_tdn(f, c);
		cell_count(f, fn[i].total, k->prof_samples);
		cell_ns(f, (double)fn[i].total / of, op_ns);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	if (n > FLAME_TOP)
		fprintf(f, "<p class=\"muted\">... %ld function%s more (show "
			"--json; show --folded)</p>\n", n - FLAME_TOP,
			n - FLAME_TOP == 1 ? "" : "s");
	prof_funcs_free(fn, n);
}

int html_plot_flame(FILE *f, const struct result_kernel *k, const char *cfg)
{
	struct flame_side s = { "profile", k->stacks, k->nstacks,
				k->prof_samples };
	double op_ns = prof_op_ns(k);
	char title[LABEL_LEN + 160], note[640], op[32];

	if (!html_flame_drawable(k)) {
		if (kview_mask_has(k->views, "profile")) {
			fprintf(f, "<p class=\"muted\">profile");
			if (*cfg) {
				fprintf(f, ", ");
				html_text(f, cfg);
			}
			fprintf(f, ": no sample of the workers in their batches "
				"(batches shorter than a sample period?): no "
				"flame graph</p>\n");
		}
		return 0;
	}
	snprintf(title, sizeof(title), "profile: the workers' stacks in "
		 "their batches%s%s, flame graph (%llu samples, %s at %u Hz)",
		 *cfg ? ", " : "", cfg, (unsigned long long)k->prof_samples,
		 k->prof_event, k->prof_hz);
	fmt_value(op_ns, "ns", op, sizeof(op));
	snprintf(note, sizeof(note), "A frame's width is the samples of the "
		 "stacks through it (root first, as show --folded prints "
		 "them); the root, all, is every sample.  ns/op = share of "
		 "the samples x %s per op (the op's measured time).%s",
		 isfinite(op_ns) ? op : "? (not measured)",
		 k->prof_pmu ? "" : "  Sampled by cpu-clock (no PMU here): "
		 "time with interrupts disabled lands where they are "
		 "enabled again (finish_task_switch, "
		 "_raw_spin_unlock_irqrestore).");
	open_flame(f, "flame", title, note, json_pack("{s:I, s:o, s:o}",
		"total", (json_int_t)s.samples, "op_ns",
		html_num_or_null(op_ns), "stacks", stacks_json(&s)));
	funcs_table(f, k);
	html_end_figure(f);
	return 1;
}

/* ---- two profiles ---- */

/* A function's self samples on both sides. */
struct moved {
	const char *name;
	uint64_t a, b;
	double change;			/* of the self share, b - a, 0..1 */
};

static int by_change(const void *x, const void *y)
{
	const struct moved *p = x, *q = y;
	double a = fabs(p->change), b = fabs(q->change);

	if (a != b)
		return a > b ? -1 : 1;
	return strcmp(p->name, q->name);
}

static long side_funcs(const struct flame_side *s, struct prof_func **out)
{
	struct result_kernel k;

	memset(&k, 0, sizeof(k));
	k.stacks = s->stacks;
	k.nstacks = s->nstacks;
	k.prof_samples = s->samples;
	return prof_functions(&k, out);
}

/* The functions whose self share moved most from a to b. */
static void moved_table(FILE *f, const struct flame_side *a,
			const struct flame_side *b)
{
	struct prof_func *fa, *fb;
	long na = side_funcs(a, &fa), nb = side_funcs(b, &fb), i, j;
	struct moved *m = NULL;
	size_t nm = 0, k, shown = 0;

	if (na >= 0 && nb >= 0)
		m = calloc((size_t)(na + nb) + 1, sizeof(*m));
	if (!m) {
		fprintf(f, "<p>(out of memory)</p>\n");
		goto out;
	}
	for (i = 0; i < na; i++)
		m[nm++] = (struct moved){ fa[i].name, fa[i].self, 0, 0 };
	for (j = 0; j < nb; j++) {
		for (k = 0; k < (size_t)na &&
			    strcmp(m[k].name, fb[j].name) != 0; k++)
			;
		if (k == (size_t)na) {
			k = nm;
			m[nm++] = (struct moved){ fb[j].name, 0, 0, 0 };
		}
		m[k].b = fb[j].self;
	}
	for (k = 0; k < nm; k++)
		m[k].change = (double)m[k].b / (double)b->samples -
			      (double)m[k].a / (double)a->samples;
	qsort(m, nm, sizeof(*m), by_change);
	fprintf(f, "<table class=\"profile-diff\"><tr>");
	html_th(f, "function");
	html_th(f, a->name);
	html_th(f, b->name);
	html_th(f, "change of the self share");
	fprintf(f, "</tr>\n");
	for (k = 0; k < nm && shown < FLAME_TOP; k++) {
		char c[32];

		if (!m[k].a && !m[k].b)
			continue;	/* no self sample on either side */
		shown++;
		fprintf(f, "<tr class=\"%s\">", m[k].change > 0 ? "grew" :
			m[k].change < 0 ? "shrank" : "same");
		html_td(f, m[k].name);
		cell_count(f, m[k].a, a->samples);
		cell_count(f, m[k].b, b->samples);
		snprintf(c, sizeof(c), "%+.2f points", 100.0 * m[k].change);
		html_tdn(f, c);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n<p class=\"muted\">Self samples (share of "
		"the side's samples), by the size of the change. Counts, "
		"not a CI: each side is one pooled profile.</p>\n");
out:
	free(m);
	prof_funcs_free(fa, na);
	prof_funcs_free(fb, nb);
}

static json_t *side_json(const struct flame_side *s)
{
	return json_pack("{s:s, s:I, s:o}", "name", s->name, "total",
			 (json_int_t)s->samples, "stacks", stacks_json(s));
}

/*
 * The per-frame intervals of a paired diff by frame (fd) as the spec's
 * "ci": { path: [est, lo, hi, rounds] }, of B - A (control false) or of
 * the control A' - A; NULL when there is none.
 */
static json_t *frames_ci_json(const struct pdiff *fd, bool control)
{
	json_t *o;
	size_t i;

	if (!fd || !fd->n)
		return NULL;
	o = json_object();
	/* the root: the op itself (every frame's shares add up to it) */
	if (o && isfinite((control ? &fd->op_ctl : &fd->op)->lo))
		json_object_set_new(o, "", json_pack("[f, f, f, I]",
			(control ? &fd->op_ctl : &fd->op)->est,
			(control ? &fd->op_ctl : &fd->op)->lo,
			(control ? &fd->op_ctl : &fd->op)->hi,
			(json_int_t)fd->units[0]));
	for (i = 0; o && i < fd->n; i++) {
		const struct pdiff_row *r = &fd->rows[i];
		const struct mean_ci *m = control ? &r->ctl : &r->change;
		char *t = codec_clean_text(r->function, true);

		if (t && isfinite(m->lo) && isfinite(m->hi))
			json_object_set_new(o, t, json_pack("[f, f, f, I]",
				m->est, m->lo, m->hi,
				(json_int_t)fd->units[0]));
		free(t);
	}
	return o;
}

/*
 * A differential flame graph of b against a (what: the title's words);
 * fd: the paired diff by frame for the tooltip's CIs (NULL: none), fn:
 * the diff by function for the table (NULL or no rows: the self
 * samples' counts instead); control: the figure of A' against A.
 */
static int plot_diff(FILE *f, const struct flame_side *a,
		     const struct flame_side *b, const char *what,
		     const struct pdiff *fd, const struct pdiff *fn,
		     bool control)
{
	char title[LABEL_LEN + 160], note[1200], ci[400];
	json_t *cis = frames_ci_json(fd, control), *spec;

	if (!a->samples || !b->samples) {
		json_decref(cis);
		return 0;
	}
	snprintf(title, sizeof(title), "profile: %s, differential flame "
		 "graph (%s %llu samples, %s %llu)", what, a->name,
		 (unsigned long long)a->samples, b->name,
		 (unsigned long long)b->samples);
	if (cis)
		snprintf(ci, sizeof(ci), "Hover for both sides' counts and "
			 "the paired change of the frame's ns per op (its "
			 "share of each round's samples x the op's time, %s "
			 "- %s over %zu rounds) with its 95%% CI, as the "
			 "profile diff computes it for functions.", b->name,
			 a->name, fd->units[0]);
	else
		snprintf(ci, sizeof(ci), "Hover for both sides' counts.  "
			 "These are counts, not a CI: %s%s", fd && *fd->why ?
			 fd->why : "the graph pools each side's profiles "
			 "into one count per stack, so a frame's change has "
			 "no interval.", fn && fn->n ? "  The table's "
			 "changes, per function, have one." : "");
	snprintf(note, sizeof(note), "The shape is %s's: a frame's width is "
		 "its samples in %s (frames only %s has are not drawn; the "
		 "table lists their functions).  The colour is the change "
		 "of the frame's self share from %s to %s: red, more of "
		 "the samples; blue, fewer; white, none; the deepest colour "
		 "is the largest change in the graph.  %s", b->name, b->name,
		 a->name, a->name, b->name, ci);
	spec = json_pack("{s:[o, o]}", "sides", side_json(a), side_json(b));
	if (spec && cis)
		json_object_set_new(spec, "ci", cis);
	else
		json_decref(cis);
	open_flame(f, "flamediff", title, note, spec);
	if (fn && fn->n) {
		html_pdiff_table(f, fn, control, a->name, b->name);
	} else {
		moved_table(f, a, b);
		if (fn && fn->why[0]) {
			fprintf(f, "<p class=\"muted\">No ns per op: ");
			html_text(f, fn->why);
			fprintf(f, "</p>\n");
		}
	}
	html_end_figure(f);
	return 1;
}

/* The config of role (AB_ROLE_*) in an ab run's results, if profiled. */
static const struct result_kernel *role_profile(const struct result *res,
						size_t n, int role)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (res[i].cfg->job == role &&
		    html_flame_drawable(res[i].cfg->kernel))
			return res[i].cfg->kernel;
	return NULL;
}

static struct flame_side side_of(const char *name,
				 const struct result_kernel *k)
{
	struct flame_side s = { name, k->stacks, k->nstacks,
				k->prof_samples };

	return s;
}

int html_ab_flames(FILE *f, const struct env *env, const struct result *res,
		   size_t n)
{
	const struct result_kernel *ka, *kb, *kc;
	struct flame_side a, b, c;
	struct ab_opts o;
	struct pdiff fd, fn;
	bool have_fd, have_fn;
	int done = 0;

	if (!ab_env_is_ab(env))
		return 0;
	ka = role_profile(res, n, AB_ROLE_A);
	kb = role_profile(res, n, AB_ROLE_B);
	kc = role_profile(res, n, AB_ROLE_A2);
	if (!ka)
		return 0;
	/* each frame's paired CI, by the rounds ab's analysis keeps */
	ab_opts_from_env(env, &o);
	have_fd = pdiff_ab_by(res, n, o.drop_noisy, true, &fd) == 0;
	/* the tables: the text's profile diff, by function */
	have_fn = pdiff_ab(res, n, o.drop_noisy, &fn) == 0;
	a = side_of("A", ka);
	if (kb) {
		b = side_of("B", kb);
		done += plot_diff(f, &a, &b, "B against A",
				  have_fd ? &fd : NULL, have_fn ? &fn : NULL,
				  false);
	}
	if (kc) {
		c = side_of("A'", kc);
		done += plot_diff(f, &a, &c, "the control, A' (A again) "
				  "against A: what moves here is noise",
				  have_fd ? &fd : NULL, have_fn ? &fn : NULL,
				  true);
	}
	pdiff_free(&fd);
	pdiff_free(&fn);
	return done;
}

/* ---- compare: each side's runs pooled per configuration ---- */

/*
 * The stacks of every profiled configuration of side's runs that belongs
 * to row (its workload and matching parameters) into *s (its stacks
 * malloc'd: the borrowed frames of each configuration, concatenated).
 * 0, or -1 on ENOMEM.
 */
static int pool_side(const struct cmp_side *side, char ***match,
		     const struct cmp_row *row, struct flame_side *s)
{
	const struct result_config **seen;
	size_t i, j, k, nseen = 0, cap = 0, total = 0;

	for (i = 0; i < side->nruns; i++)
		total += side->runs[i].results.n;
	seen = calloc(total + 1, sizeof(const struct result_config *));
	if (!seen)
		return -1;
	s->stacks = NULL;
	s->nstacks = 0;
	s->samples = 0;
	for (i = 0; i < side->nruns; i++)
		for (j = 0; j < side->runs[i].results.n; j++) {
			const struct result_config *cfg =
				side->runs[i].results.v[j].cfg;
			const struct result_kernel *kk = cfg->kernel;
			const char *w = row->ref->cfg->workload;

			if (strcmp(cfg->workload, w) != 0 ||
			    strcmp(match[i][j], row->match) != 0 ||
			    !html_flame_drawable(kk))
				continue;
			for (k = 0; k < nseen && seen[k] != cfg; k++)
				;
			if (k < nseen)
				continue;
			seen[nseen++] = cfg;
			if (s->nstacks + kk->nstacks > cap) {
				size_t nc = (s->nstacks + kk->nstacks) * 2;
				struct kv_prof_stack *v = realloc(s->stacks,
					nc * sizeof(*v));

				if (!v) {
					free(seen);
					return -1;
				}
				s->stacks = v;
				cap = nc;
			}
			memcpy(s->stacks + s->nstacks, kk->stacks,
			       kk->nstacks * sizeof(*kk->stacks));
			s->nstacks += kk->nstacks;
			s->samples += kk->prof_samples;
		}
	free(seen);
	return 0;
}

/* Whether an earlier row of c is of row's configuration. */
static bool seen_config(const struct cmp *c, size_t i)
{
	const struct cmp_row *r = &c->rows[i];
	size_t k;

	for (k = 0; k < i; k++)
		if (c->rows[k].in_base && c->rows[k].in_new &&
		    strcmp(c->rows[k].ref->cfg->workload,
			   r->ref->cfg->workload) == 0 &&
		    strcmp(c->rows[k].match, r->match) == 0)
			return true;
	return false;
}

/*
 * compare's profile diff of row i's configuration (the row of its traced
 * time per op, pdiff_cmp_row) into *d.  0 with the diff, 1 when there is
 * none, -1 on ENOMEM.
 */
static int cmp_config_pdiff(const struct cmp *c, size_t i, struct pdiff *d)
{
	const struct cmp_row *r = &c->rows[i];
	size_t k;

	memset(d, 0, sizeof(*d));
	for (k = 0; k < c->nrows; k++) {
		const struct cmp_row *x = &c->rows[k];
		int rc;

		if (!x->in_base || !x->in_new ||
		    strcmp(x->ref->cfg->workload, r->ref->cfg->workload) != 0 ||
		    strcmp(x->match, r->match) != 0)
			continue;
		rc = pdiff_cmp_row(c, x, d);
		if (rc != 1)
			return rc;
	}
	return 1;
}

int html_cmp_flames(FILE *f, const struct cmp *c)
{
	int done = 0;
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		struct flame_side b = { "base", NULL, 0, 0 };
		struct flame_side nw = { "new", NULL, 0, 0 };

		if (!r->in_base || !r->in_new || seen_config(c, i))
			continue;
		if (pool_side(&c->base, c->match_base, r, &b) == 0 &&
		    pool_side(&c->new, c->match_new, r, &nw) == 0 &&
		    b.samples && nw.samples) {
			if (!f) {
				done++;
			} else {
				char label[LABEL_LEN], what[LABEL_LEN + 32];
				struct pdiff fn;
				size_t ll, ml;
				int rc;

				/* the row's label less its metric */
				html_cmp_row_label(c, r, label, sizeof(label));
				ll = strlen(label);
				ml = strlen(r->ref->metric) + 2;
				if (ll > ml && strcmp(label + ll - ml + 2,
						      r->ref->metric) == 0)
					label[ll - ml] = '\0';
				rc = cmp_config_pdiff(c, i, &fn);
				snprintf(what, sizeof(what), "%s, new against "
					 "base", label);
				done += plot_diff(f, &b, &nw, what, NULL,
						  rc == 0 ? &fn : NULL, false);
				pdiff_free(&fn);
			}
		}
		free(b.stacks);
		free(nw.stacks);
	}
	return done;
}

bool html_runs_have_flames(const struct run_data *runs, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < runs[i].results.n; j++)
			if (html_flame_drawable(runs[i].results.v[j].cfg->kernel))
				return true;
	return false;
}
