/*
 * notes.c - the notes under a configuration's rows and the run's
 * noisy-machine note (see notes.h), worded once for every renderer.
 */
#include "report/notes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/hw_metrics.h"
#include "results/sample_flags.h"
#include "report/format.h"
#include "report/report.h"
#include "stats/histogram.h"
#include "stats/headline.h"
#include "stats/summary.h"

const char *note_kind_name(enum note_kind k)
{
	switch (k) {
	case NOTE_WORKLOAD:
		return "workload";
	case NOTE_INJECT:
		return "inject";
	case NOTE_PRECISION:
		return "precision";
	case NOTE_VERIFY:
		return "verify";
	case NOTE_STATUS:
		return "status";
	case NOTE_SHORT:
		return "short";
	case NOTE_TICK:
		return "tick";
	case NOTE_LOAD:
		return "load";
	case NOTE_HEADLINE:
		return "headline";
	case NOTE_BIMODAL:
		return "bimodal";
	}
	return "?";
}

/* Median and maximum of the known values of v[0..n-1]; NAN if none. */
static double known_median(const double *v, size_t n, double *max)
{
	double *k = calloc(n ? n : 1, sizeof(*k)), m = NAN;
	size_t i, nk = 0;

	*max = NAN;
	if (!k)
		return NAN;
	for (i = 0; i < n; i++)
		if (!isnan(v[i])) {
			k[nk++] = v[i];
			if (isnan(*max) || v[i] > *max)
				*max = v[i];
		}
	if (nk)
		m = stats_median(k, nk);
	free(k);
	return m;
}

/*
 * run --precision: "precision: +-0.42% (time/call) reached +-1% after 37
 * samples in 4.1 s", or, when the time ran out first, what was reached
 * and about how many samples the asked precision needs (a CI of a median
 * narrows as 1/sqrt(n)).
 */
static void precision_note(const struct result_config *c, char *text,
			   size_t len,
			   void (*emit)(void *arg, enum note_kind kind,
					const struct result *r,
					const char *text),
			   void *arg)
{
	char t[32];
	double more;

	fmt_value((double)c->precision_time_ns, "ns", t, sizeof(t));
	if (summary_ci_reason(c->nsamples)) {
		snprintf(text, len, "precision: no 95%% CI of a median (%s; "
			 "±%g%% asked); %zu samples in %s",
			 summary_ci_reason(c->nsamples),
			 c->precision_asked_pct, c->nsamples, t);
	} else if (isnan(c->precision_pct)) {
		snprintf(text, len, "precision: no metric has a non-zero "
			 "median, so none has a relative precision (±%g%% "
			 "asked); %zu samples in %s", c->precision_asked_pct,
			 c->nsamples, t);
	} else if (c->precision_met) {
		snprintf(text, len, "precision: ±%.2f%% (%s, the widest 95%% "
			 "CI of a median) reached ±%g%% after %zu samples in "
			 "%s", c->precision_pct, c->precision_metric,
			 c->precision_asked_pct, c->nsamples, t);
	} else {
		more = (double)c->nsamples *
		       pow(c->precision_pct / c->precision_asked_pct, 2.0);
		snprintf(text, len, "precision: ±%.2f%% (%s) after %zu samples "
			 "in %s, NOT the ±%g%% asked: %s; about %.0f samples "
			 "would reach it (a median's CI narrows as 1/sqrt(n))",
			 c->precision_pct, c->precision_metric, c->nsamples, t,
			 c->precision_asked_pct,
			 c->status ? "the configuration stopped early"
				   : "--max-time ran out first", more);
	}
	emit(arg, NOTE_PRECISION, NULL, text);
}

/*
 * The outside load of c: other CPU and steal of the machine, the share
 * of the window its workers did not run (where recorded) and the flagged
 * samples; then, when the window metrics are the worker's on-CPU time
 * and it was off its CPU for more than SAMPLE_OFFCPU_PCT of a sample,
 * what the wall time per op was.
 */
static void load_note(const struct result_config *c,
		      void (*emit)(void *arg, enum note_kind kind,
				   const struct result *r, const char *text),
		      void *arg)
{
	double omax, smax, fmax = NAN, f = NAN;
	double o = known_median(c->load->other_cpu_pct, c->nsamples, &omax);
	double st = known_median(c->load->steal_pct, c->nsamples, &smax);
	size_t nf = result_config_flagged(c), noff = 0, k;
	char text[512], off[96] = "", a[32], b[32];
	double *per_op;

	if (c->load->offcpu_pct)
		f = known_median(c->load->offcpu_pct, c->nsamples, &fmax);
	if (!isnan(f))
		snprintf(off, sizeof(off), "; %s %.0f%% of the window (max "
			 "%.0f%%)", c->nworkers == 1 ? "worker off its CPU" :
			 "a worker waited for a CPU", f, fmax);
	snprintf(text, sizeof(text), "outside load: other CPU %.0f%% (max "
		 "%.0f%%), steal %.1f%% of the machine%s; %zu of %zu samples "
		 "flagged%s", isnan(o) ? 0.0 : o, isnan(omax) ? 0.0 : omax,
		 isnan(st) ? 0.0 : st, off, nf, c->nsamples,
		 nf ? " (not quiet)" : "");
	emit(arg, NOTE_LOAD, NULL, text);
	for (k = 0; c->load->offcpu_pct && k < c->nsamples; k++)
		noff += c->load->offcpu_pct[k] > SAMPLE_OFFCPU_PCT;
	if (!noff || !c->oncpu_ns || !c->window_ns || !c->batch_ops)
		return;
	per_op = calloc(2 * c->nsamples, sizeof(*per_op));
	if (!per_op)
		return;
	for (k = 0; k < c->nsamples; k++) {
		per_op[k] = c->window_ns[k] / (double)c->batch_ops;
		per_op[c->nsamples + k] = c->oncpu_ns[k] / (double)c->batch_ops;
	}
	fmt_value(stats_median(per_op, c->nsamples), "ns", a, sizeof(a));
	fmt_value(stats_median(per_op + c->nsamples, c->nsamples), "ns", b,
		  sizeof(b));
	free(per_op);
	snprintf(text, sizeof(text), "the time figures are the worker's "
		 "on-CPU time (%s per op; wall %s per op), so the %zu "
		 "samples it was preempted in count only the time it ran "
		 "(docs/methodology.md, \"The headline\")", b, a, noff);
	emit(arg, NOTE_LOAD, NULL, text);
}

/*
 * "inject delivered 9.97 ns ± 0.41 ns per op (asked 10ns: 34 steps of
 * 0.294 ns), 0.9% ± 0.0% of 1.08 us, measured in place (testing only)".
 */
static void inject_note(const struct result_config *c, char *text,
			size_t len,
			void (*emit)(void *arg, enum note_kind kind,
				     const struct result *r, const char *t),
			void *arg)
{
	const char *asked = result_param(c, "inject_ns");
	char added[32], err[32], base[32], steps[64] = "";
	double want, off;
	int n;

	fmt_value(c->inject_added_ns, "ns", added, sizeof(added));
	fmt_value(c->inject_err_ns, "ns", err, sizeof(err));
	fmt_value(c->inject_base_ns, "ns", base, sizeof(base));
	/* runs stored before the step sled have no steps */
	if (c->inject_steps && isfinite(c->inject_step_ns))
		snprintf(steps, sizeof(steps), ": %llu steps of %.3f ns",
			 (unsigned long long)c->inject_steps,
			 c->inject_step_ns);
	n = snprintf(text, len, "inject delivered %s ± %s per op (asked "
		     "%s%s), %.1f%% ± %.1f%% of %s, measured in place "
		     "(testing only)", added, err, asked ? asked : "?", steps,
		     100.0 * c->inject_added_ns / c->inject_base_ns,
		     100.0 * c->inject_err_ns / c->inject_base_ns, base);
	/*
	 * What the steps should give (steps x step time) against what they
	 * gave: off by more than the error, and by more than 0.3 ns and 3%,
	 * the injection is not the known slowdown it is there to be.
	 */
	want = (double)c->inject_steps * c->inject_step_ns;
	off = c->inject_added_ns - want;
	if (n > 0 && (size_t)n < len && c->inject_steps &&
	    isfinite(want) && isfinite(off) && isfinite(c->inject_err_ns) &&
	    fabs(off) > c->inject_err_ns && fabs(off) > 0.3 &&
	    fabs(off) > 0.03 * want) {
		fmt_value(fabs(off), "ns", added, sizeof(added));
		snprintf(text + n, len - (size_t)n, "; not what the steps "
			 "should give (%s %s, beyond the error): on this "
			 "machine the wait is not additive at this size "
			 "(docs/comparing.md, \"Injection that is "
			 "calibrated\")", added, off < 0 ? "less" : "more");
	}
	emit(arg, NOTE_INJECT, NULL, text);
}

/* The median op of h, ns, as every renderer reads it; NAN on ENOMEM. */
static double hist_median_ns(const struct result_hist *h)
{
	struct histogram *hh = report_hist_rebuild(h);
	double p50;

	if (!hh)
		return NAN;
	p50 = (double)hist_percentile(hh, 50);
	hist_free(hh);
	return p50;
}

/*
 * Per-op times of fewer than TICK_NOTE_TICKS ticks: each op is timed by
 * one timer read pair, so its time is a whole number of ticks, and at a
 * few ticks that rounding is a visible share of it (a 25 MHz arm64
 * counter is 40 ns a tick).  The per-sample figures time a batch of many
 * ops with one pair and are not affected.
 */
#define TICK_NOTE_TICKS 50.0

static void tick_note(const struct result *res, size_t n, char *text,
		      size_t len,
		      void (*emit)(void *arg, enum note_kind kind,
				   const struct result *r, const char *text),
		      void *arg)
{
	double tick = res[0].cfg->tick_ns;
	char a[32], t[32];
	size_t i;

	if (!(tick > 0))
		return;
	for (i = 0; i < n; i++) {
		const struct result_hist *h = res[i].hist;
		double med;

		if (!h || !h->ops)
			continue;
		med = hist_median_ns(h);
		if (!(med < TICK_NOTE_TICKS * tick))
			continue;
		fmt_value(med, "ns", a, sizeof(a));
		fmt_value(tick, "ns", t, sizeof(t));
		snprintf(text, len, "%s per op%s%s: the median op, %s, is %.0f "
			 "ticks of the timer (%s a tick): each op's time is a "
			 "whole number of ticks, off by up to one (%.0f%% of "
			 "it); the per-sample figures time a whole batch and "
			 "are not",
			 res[i].metric, h->of ? " of " : "", h->of ? h->of : "",
			 a, med / tick, t, 100.0 * tick / (med > tick ? med :
							   tick));
		emit(arg, NOTE_TICK, &res[i], text);
	}
}

void report_notes(const struct result *res, size_t n,
		  void (*emit)(void *arg, enum note_kind kind,
			       const struct result *r, const char *text),
		  void *arg)
{
	const struct result_config *c = n ? res[0].cfg : NULL;
	char text[512], a[32], b[32];
	double shortest;
	size_t i, nf;

	if (!c)
		return;
	if (c->note && *c->note)
		emit(arg, NOTE_WORKLOAD, NULL, c->note);
	if (c->inject_ns > 0)
		inject_note(c, text, sizeof(text), emit, arg);
	if (c->precision_asked_pct > 0)
		precision_note(c, text, sizeof(text), emit, arg);
	if (c->verified) {
		snprintf(text, sizeof(text), "verify: %s: %s",
			 c->verify_errors ? "FAILED" : "ok",
			 c->verify_report ? c->verify_report : "");
		emit(arg, NOTE_VERIFY, NULL, text);
	}
	if (c->status) {
		/* "status: interrupted", not "status: interrupted: interrupted" */
		if (c->message && *c->message &&
		    strcmp(c->message, c->status) != 0)
			snprintf(text, sizeof(text), "status: %s: %s",
				 c->status, c->message);
		else
			snprintf(text, sizeof(text), "status: %s", c->status);
		emit(arg, NOTE_STATUS, NULL, text);
	}
	nf = result_config_short(c, &shortest);
	if (nf) {
		fmt_value(shortest, "ns", a, sizeof(a));
		fmt_value((double)c->target_ns, "ns", b, sizeof(b));
		snprintf(text, sizeof(text), "%zu of %zu samples shorter than "
			 "the %s asked for (the shortest %s): the batch was "
			 "sized on samples that ran slower than these", nf,
			 c->nsamples, b, a);
		emit(arg, NOTE_SHORT, NULL, text);
	}
	if (c->load && c->nsamples)
		load_note(c, emit, arg);
	if (report_headline_note(res, n, text, sizeof(text)))
		emit(arg, NOTE_HEADLINE, NULL, text);
	tick_note(res, n, text, sizeof(text), emit, arg);
	for (i = 0; i < n; i++) {
		const struct modes *md = &res[i].modes;

		if (res[i].trace || !md->bimodal)
			continue;
		fmt_value(md->median_lo, res[i].unit, a, sizeof(a));
		fmt_value(md->median_hi, res[i].unit, b, sizeof(b));
		snprintf(text, sizeof(text), "%s is bimodal: %zu samples "
			 "(%.0f%%) near %s, %zu (%.0f%%) near %s; the median "
			 "describes neither", res[i].metric, md->n_lo,
			 100.0 * (double)md->n_lo / (double)(md->n_lo + md->n_hi),
			 a, md->n_hi,
			 100.0 * (double)md->n_hi / (double)(md->n_lo + md->n_hi),
			 b);
		emit(arg, NOTE_BIMODAL, &res[i], text);
	}
}

/*
 * "; 3 of them taken beyond --reps in place of disturbed ones" when the
 * run took samples again so as not to withhold the headline
 * (runner/runner.c, retake_disturbed), else "".
 */
static const char *retaken_text(const struct result_config *c, char *buf,
				size_t len)
{
	size_t n = c->retaken < c->nsamples ? c->retaken : c->nsamples;

	buf[0] = '\0';
	if (n)
		snprintf(buf, len, "; %zu of them taken beyond --reps in "
			 "place of disturbed ones", n);
	return buf;
}

bool report_headline_note(const struct result *res, size_t n, char *buf,
			  size_t len)
{
	const struct result *w = NULL, *l = NULL;
	char retake[96];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (res[i].withheld && !w)
			w = &res[i];
		if (res[i].left_out && !l)
			l = &res[i];
	}
	if (w) {
		size_t nd = 0, k;

		for (k = 0; k < w->nsamples; k++)
			nd += result_value_disturbed(w, k);
		snprintf(buf, len, "withheld: %zu of %zu samples had a worker "
			 "off its CPU >%.0f%%%s; rerun on a quiet machine or "
			 "with --cpus (a headline needs %d undisturbed samples "
			 "and half of them; all are stored)", nd,
			 w->nsamples, SAMPLE_OFFCPU_PCT,
			 retaken_text(w->cfg, retake, sizeof(retake)),
			 HEADLINE_MIN_KEPT);
		return true;
	}
	if (!l && n && !result_config_own_cpus(res[0].cfg) &&
	    res[0].cfg->load && result_config_flagged_offcpu(res[0].cfg)) {
		snprintf(buf, len, "the workers share CPUs, so a worker's wait "
			 "for a CPU is partly its partner's turn: samples "
			 "flagged offcpu stay in the headline (pin each "
			 "worker to its own CPU for the check)");
		return true;
	}
	if (!l)
		return false;
	snprintf(buf, len, "headline over %zu of %zu samples: %zu had a "
		 "worker off its CPU >%.0f%% and are left out (stored; the "
		 "figures of those samples carry the wait)%s",
		 l->nsamples - l->left_out, l->nsamples, l->left_out,
		 SAMPLE_OFFCPU_PCT,
		 retaken_text(l->cfg, retake, sizeof(retake)));
	return true;
}

void report_noisy_text(size_t nsamples, size_t nflagged, size_t n_other,
		       size_t n_steal, size_t n_canary, size_t n_offcpu,
		       char *buf, size_t len)
{
	char why[240];
	size_t used = 0;

	why[0] = '\0';
	if (n_other)
		used += (size_t)snprintf(why + used, sizeof(why) - used,
					 "%s%zu with other programs using "
					 "CPU", used ? ", " : "", n_other);
	if (n_steal && used < sizeof(why))
		used += (size_t)snprintf(why + used, sizeof(why) - used,
					 "%s%zu with steal time (host load)",
					 used ? ", " : "", n_steal);
	if (n_canary && used < sizeof(why))
		used += (size_t)snprintf(why + used, sizeof(why) - used,
					 "%s%zu with a slow canary (host load "
					 "or frequency)", used ? ", " : "",
					 n_canary);
	if (n_offcpu && used < sizeof(why))
		snprintf(why + used, sizeof(why) - used,
			 "%s%zu with a worker off its CPU (preempted)",
			 used ? ", " : "", n_offcpu);
	snprintf(buf, len, "the machine was not quiet: %zu of %zu samples "
		 "flagged (%s). Stop other work (top shows it), keep the "
		 "workers off busy CPUs with --cpus, or rerun; 'copyscope "
		 "compare --drop-noisy' leaves flagged samples out.",
		 nflagged, nsamples, why);
}

size_t report_noisy_note(const struct result *res, size_t n, char *buf,
			 size_t len)
{
	size_t nsamples = 0, nflagged = 0, n_other = 0, n_steal = 0;
	size_t n_canary = 0, n_offcpu = 0, i, k;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		const struct result_config *c = res[i].cfg;

		/* each configuration once: its results are consecutive */
		if (i > 0 && res[i - 1].cfg == c)
			continue;
		for (k = 0; c->load && k < c->nsamples; k++) {
			unsigned f = c->load->flags[k];

			nsamples++;
			nflagged += f != 0;
			n_other += (f & INTERF_FLAG_OTHER) != 0;
			n_steal += (f & INTERF_FLAG_STEAL) != 0;
			n_canary += (f & INTERF_FLAG_CANARY) != 0;
			n_offcpu += (f & INTERF_FLAG_OFFCPU) != 0;
		}
	}
	if (nflagged)
		report_noisy_text(nsamples, nflagged, n_other, n_steal,
				  n_canary, n_offcpu, buf, len);
	return nflagged;
}

void report_warn_noisy(size_t nsamples, size_t nflagged, size_t n_other,
		       size_t n_steal, size_t n_canary, size_t n_offcpu)
{
	char text[512], line[600];

	if (nflagged == 0)
		return;
	report_noisy_text(nsamples, nflagged, n_other, n_steal, n_canary,
			  n_offcpu, text, sizeof(text));
	snprintf(line, sizeof(line), "copyscope: %s", text);
	fmt_wrap(stderr, 0, 2, line);
}

int report_hw_line(const struct env *env, char *buf, size_t len)
{
	const char *have, *pmu, *scope, *miss;

	buf[0] = '\0';
	if (!env || !(have = env_get(env, HW_ENV_COUNTERS)))
		return 0;
	pmu = env_get(env, HW_ENV_PMU);
	scope = env_get(env, HW_ENV_SCOPE);
	miss = env_get(env, HW_ENV_MISSING);
	if (strcmp(have, "none") == 0) {
		if (pmu && strcmp(pmu, "none") == 0)
			snprintf(buf, len, "no PMU here: no cycles, "
				 "instructions or cache/TLB counts (%s)",
				 miss ? miss : "?");
		else
			snprintf(buf, len, "no hardware counters: "
				 "perf_event_open gave none of them (%s)",
				 miss ? miss : "?");
		return -1;
	}
	snprintf(buf, len, "hardware counters: %s, %s%s%s", have,
		 scope && strcmp(scope, "user") == 0 ?
		 "user space only (perf_event_paranoid keeps the kernel's "
		 "share out)" : "user and kernel", miss ? "; not " : "",
		 miss ? miss : "");
	return 1;
}
