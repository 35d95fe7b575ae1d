/*
 * history_text.c - a lab's history as text (see history_print.h): each
 * series' header, its points as an 80-column table (with a sparkline
 * when it is long), its change points with the environment keys that
 * changed there and what they cannot tell about the newest points; and
 * check --history's line per series.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/format.h"
#include "report/history_print.h"
#include "results/codec.h"

/* Series up to this long print every point; longer: the tail and the
   change points' neighbours. */
#define HIST_ALL_POINTS 24
#define HIST_TAIL 10
#define HIST_SPARK_WIDTH 70

/* A time in ns since the epoch as "YYYY-MM-DD HH:MM:SS" (UTC), or "-". */
static void format_time(int64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (ns <= 0 || !gmtime_r(&t, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

static void sparkline(FILE *out, const struct hist_series *s)
{
	static const char *const blocks[] = { "\u2581", "\u2582", "\u2583",
		"\u2584", "\u2585", "\u2586", "\u2587", "\u2588" };
	double lo = INFINITY, hi = -INFINITY, v;
	size_t per = (s->n + HIST_SPARK_WIDTH - 1) / HIST_SPARK_WIDTH, i, k;

	for (i = 0; i < s->n; i++) {
		lo = fmin(lo, s->pts[i].median);
		hi = fmax(hi, s->pts[i].median);
	}
	fprintf(out, "  ");
	for (i = 0; i < s->n; i += per) {
		size_t m = 0;

		for (v = 0, k = i; k < s->n && k < i + per; k++, m++)
			v += s->pts[k].median;
		v /= (double)m;
		k = hi > lo ? (size_t)((v - lo) / (hi - lo) * 7.999) : 0;
		fputs(blocks[k], out);
	}
	fprintf(out, "\n");
}

static bool is_change(const struct hist_series *s, size_t i)
{
	size_t k;

	for (k = 0; k < s->ncp; k++)
		if (s->cps[k].index == i)
			return true;
	return false;
}

bool history_text_shows(const struct hist_series *s, size_t i)
{
	return s->n <= HIST_ALL_POINTS || i + HIST_TAIL >= s->n ||
		is_change(s, i) || (i + 1 < s->n && is_change(s, i + 1));
}

static void print_point(FILE *out, const struct hist_series *s, size_t i)
{
	const struct hist_point *p = &s->pts[i];
	char when[32], kernel[64], med[32], ci[48], runs[24];

	format_time(p->started_ns, when, sizeof(when));
	fmt_clean_text(p->kernel[0] ? p->kernel : "?", kernel, sizeof(kernel));
	fmt_value(p->median, s->unit, med, sizeof(med));
	fmt_ci(100 * (p->ci_lo / p->median - 1),
	       100 * (p->ci_hi / p->median - 1), ci, sizeof(ci));
	if (p->nruns > 1)
		snprintf(runs, sizeof(runs), "%zu runs", p->nruns);
	else
		snprintf(runs, sizeof(runs), "%lld", (long long)p->run_id);
	fprintf(out, "%c%4zu %-8.8s %-16.16s %-18.18s %11s %s%%\n",
		is_change(s, i) ? '>' : ' ', i, runs, when, kernel, med, ci);
}

static void print_change(FILE *out, const struct hist_series *s,
			 const struct hist_change *cp)
{
	char chg[32], ci[48], p[16], line[1024];
	size_t used, k;

	fmt_change(cp->change_pct, chg, sizeof(chg));
	fmt_ci(cp->ci_lo, cp->ci_hi, ci, sizeof(ci));
	fmt_p(cp->p, p, sizeof(p));
	fprintf(out, "  change at %zu (run %lld -> %lld): %s [%s%%] p %s%s\n",
		cp->index, (long long)cp->before_run,
		(long long)cp->after_run, chg, ci, p,
		s->direction == 0 ? "" : cp->worse ? "  worse" : "  better");
	used = (size_t)snprintf(line, sizeof(line), "environment changed:");
	for (k = 0; k < cp->nenv && used < sizeof(line); k++)
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "%s %s", k ? "," : "",
					 cp->env_keys[k]);
	if (!cp->nenv)
		snprintf(line + used, sizeof(line) - used, " nothing");
	fmt_wrap(out, 4, 6, line);
}

bool history_tail_text(const struct hist_series *s, char *buf, size_t len)
{
	const struct hist_tail *t = &s->tail;
	size_t seglen = s->n - t->from, lo, hi;
	const char *later = s->ncp || s->rejected.nsmall ? " later" : "";
	char seg[64], p[16], k[48], at[48], need[64], why[64];

	if (s->nonpositive || !t->newest)
		return false;
	if (t->from)
		snprintf(seg, sizeof(seg), "the %zu points from %zu", seglen,
			 t->from);
	else
		snprintf(seg, sizeof(seg), "%zu point%s", seglen,
			 seglen == 1 ? "" : "s");
	if (t->need)
		snprintf(need, sizeof(need), "%zu points%s could", t->need,
			 t->from ? " there" : "");
	else
		snprintf(need, sizeof(need), "no number of points could at "
			 "this alpha");
	fmt_p(t->min_p, p, sizeof(p));
	if (t->newest >= seglen) {
		if (isnan(t->min_p))
			snprintf(why, sizeof(why), "a split needs %zu a side",
				 t->min_size);
		else
			snprintf(why, sizeof(why), "smallest p %s", p);
		snprintf(buf, len, "no%s change point can reach alpha %g in "
			 "%s (%s); %s", later, t->alpha, seg, why, need);
		return true;
	}
	/* the splits with more than t->newest points a side can */
	lo = t->from + t->newest + 1;
	hi = s->n - t->newest - 1;
	if (lo == hi)
		snprintf(at, sizeof(at), "%zu", lo);
	else
		snprintf(at, sizeof(at), "%zu..%zu", lo, hi);
	if (t->newest == t->min_size)
		snprintf(k, sizeof(k), "%zu", t->newest);
	else
		snprintf(k, sizeof(k), "%zu to %zu", t->min_size, t->newest);
	snprintf(buf, len, "no%s change point at %s; one in the newest %s of "
		 "%s cannot reach alpha %g here (smallest p %s); %s", later,
		 at, k, seg, t->alpha, p, need);
	return true;
}

bool history_rejected_text(const struct hist_series *s, char *buf,
			   size_t len)
{
	const struct hist_rejected *r = &s->rejected;
	char chg[32], ci[48], p[16], small[160] = "", split[256] = "";
	bool other = s->ncp || r->nsmall;

	if (s->nonpositive || (!r->index && !r->nsmall))
		return false;
	if (r->nsmall) {
		fmt_change(r->small_pct, chg, sizeof(chg));
		snprintf(small, sizeof(small), " of --min-change %g%% or more "
			 "(%zu smaller left out%s at %zu, %s)",
			 r->min_change_pct, r->nsmall,
			 r->nsmall == 1 ? ":" : "; the largest", r->small_index,
			 chg);
	}
	if (r->index) {
		fmt_change(r->change_pct, chg, sizeof(chg));
		fmt_ci(r->ci_lo, r->ci_hi, ci, sizeof(ci));
		fmt_p(r->p, p, sizeof(p));
		snprintf(split, sizeof(split), ": the likeliest %ssplit, at "
			 "%zu (run %lld -> %lld), %s [%s%%], has p %s, not "
			 "below alpha %g", other ? "other " : "", r->index,
			 (long long)r->before_run, (long long)r->after_run,
			 chg, ci, p, s->tail.alpha);
	}
	snprintf(buf, len, "no %schange point%s%s", s->ncp ? "other " : "",
		 small, split);
	return true;
}

/*
 * A series' parameters as the other commands print them, "call=gettid
 * inject_ns=0" (the stored text when the codec could not read it),
 * cleaned of control bytes, into buf.
 */
static void params_text(const struct hist_series *s, char *buf, size_t len)
{
	char raw[512];
	size_t used = 0, i;

	if (!s->nparam && strcmp(s->params, "{}") != 0) {
		fmt_clean_text(s->params, buf, len);
		return;
	}
	raw[0] = '\0';
	for (i = 0; i < s->nparam && used < sizeof(raw); i++)
		used += (size_t)snprintf(raw + used, sizeof(raw) - used,
					 "%s%s=%s", used ? " " : "",
					 s->param[i].name, s->param[i].value);
	fmt_clean_text(raw, buf, len);
}

static void print_series(FILE *out, const struct hist_series *s)
{
	char host[128], params[512], head[1024], tail[512];
	size_t i, last = 0;

	fmt_clean_text(s->host[0] ? s->host : "?", host, sizeof(host));
	params_text(s, params, sizeof(params));
	snprintf(head, sizeof(head), "host %s  %s %s  %s (%s), %zu point%s",
		 host, s->workload, params, s->metric, s->unit, s->n,
		 s->n == 1 ? "" : "s");
	fmt_wrap(out, 0, 2, head);
	if (s->n > HIST_ALL_POINTS)
		sparkline(out, s);
	fprintf(out, "%5s %-8s %-16s %-18s %11s %s\n", "#", "run",
		"started (UTC)", "kernel", "median", "95% CI");
	for (i = 0; i < s->n; i++) {
		if (!history_text_shows(s, i))
			continue;
		if (i > last + 1 ||
		    (i == 1 && last == 0 && !history_text_shows(s, 0)))
			fprintf(out, "  ...\n");
		print_point(out, s, i);
		last = i;
	}
	if (s->nwithheld)
		fprintf(out, "  %zu run%s left out: %s headline was withheld "
			"(too many samples had a worker off its CPU)\n",
			s->nwithheld, s->nwithheld == 1 ? "" : "s",
			s->nwithheld == 1 ? "its" : "their");
	if (s->nonpositive)
		fprintf(out, "  no change points: a median is <= 0\n");
	else if (!s->ncp && !s->tail.newest && !s->rejected.index)
		fprintf(out, "  no change point\n");
	for (i = 0; i < s->ncp; i++)
		print_change(out, s, &s->cps[i]);
	if (history_rejected_text(s, tail, sizeof(tail)))
		fmt_wrap(out, 2, 4, tail);
	if (history_tail_text(s, tail, sizeof(tail)))
		fmt_wrap(out, 2, 4, tail);
}

void history_print_text(FILE *out, const struct history *h)
{
	size_t i;

	for (i = 0; i < h->n; i++) {
		if (i)
			fprintf(out, "\n");
		print_series(out, &h->s[i]);
	}
}

/* The test of the newest points (struct hist_check) as text into buf. */
static void newest_text(const struct hist_series *s,
			const struct hist_check *v, char *buf, size_t len)
{
	char chg[32], lo[32], hi[32], p[16];

	fmt_change(v->change_pct, chg, sizeof(chg));
	fmt_change(v->lo_pct, lo, sizeof(lo));
	fmt_change(v->hi_pct, hi, sizeof(hi));
	fmt_p(v->p, p, sizeof(p));
	snprintf(buf, len, "the newest %zu of %zu points %s against the %zu "
		 "before them (points %zu..%zu, runs %lld..%lld), whose spread "
		 "allows %s..%s; p %s (Bonferroni x%zu: %zu window%s, %zu "
		 "series)",
		 v->newest, s->n, chg, v->to - v->from, v->from + 1, v->to,
		 (long long)s->pts[v->from].first_run_id,
		 (long long)s->pts[v->to - 1].run_id, lo, hi, p,
		 v->windows * v->nseries, v->windows,
		 v->windows == 1 ? "" : "s", v->nseries);
}

/* What the verdict v on s rests on, into buf. */
static void check_reason(const struct hist_series *s,
			 const struct hist_check *v, char *buf, size_t len)
{
	const struct hist_change *cp = v->cp;
	char chg[32], ci[48], p[16], t[400];
	size_t more = v->needed > s->n ? v->needed - s->n : 0;

	t[0] = '\0';
	if (v->tested)
		newest_text(s, v, t, sizeof(t));
	if (v->verdict == HIST_TOO_SHORT) {
		snprintf(buf, len, "%zu point%s, %zu needed (%zu more run%s): "
			 "the newest is read against the spread of %zu earlier "
			 "ones", s->n, s->n == 1 ? "" : "s", v->needed, more,
			 more == 1 ? "" : "s", v->min_earlier);
	} else if (v->verdict == HIST_NO_LOG) {
		snprintf(buf, len, "a median is <= 0");
	} else if (v->verdict == HIST_WORSE && cp && cp->worse) {
		fmt_change(cp->change_pct, chg, sizeof(chg));
		fmt_ci(cp->ci_lo, cp->ci_hi, ci, sizeof(ci));
		fmt_p(cp->p, p, sizeof(p));
		snprintf(buf, len, "%s [%s%%] p %s from point %zu of %zu (run "
			 "%lld)", chg, ci, p, cp->index, s->n,
			 (long long)cp->after_run);
	} else if (v->verdict == HIST_WORSE || v->verdict == HIST_BETTER) {
		snprintf(buf, len, "%s", t);
	} else {
		snprintf(buf, len, "within the history%s: %s", cp ?
			 " (after its last change point)" : "", t);
	}
}

void history_print_check(FILE *out, const struct hist_series *s,
			 const struct hist_check *v)
{
	char host[128], params[512], line[1400];
	size_t used;

	fmt_clean_text(s->host[0] ? s->host : "?", host, sizeof(host));
	params_text(s, params, sizeof(params));
	used = (size_t)snprintf(line, sizeof(line), "%s: host %s  %s %s  "
				"%s: ", v->verdict == HIST_WORSE ? "worse" :
				v->verdict == HIST_BETTER ? "better" :
				v->verdict == HIST_SAME ? "same" :
				"cannot tell", host, s->workload, params,
				s->metric);
	if (used >= sizeof(line))
		used = sizeof(line) - 1;
	check_reason(s, v, line + used, sizeof(line) - used);
	fmt_wrap(out, 0, 2, line);
}
