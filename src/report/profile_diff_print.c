/*
 * profile_diff_print.c - the kernel profile diff as text and JSON (see
 * profile_diff_print.h).
 */
#include "report/profile_diff_print.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/mail_print.h"

/* The function's column: what is left of 80 after the numbers' 55
   columns and the indent, at least PDIFF_NAME_MIN. */
#define PDIFF_NUM_W 55
#define PDIFF_NAME_MIN 16
#define PDIFF_NAME_MAX 64

void pdiff_ns_text(double v, bool sign, char *buf, size_t len)
{
	char b[32];

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	fmt_number(v, b, sizeof(b));
	snprintf(buf, len, "%s%s", sign && v > 0 ? "+" : "", b);
}

void pdiff_ci_text(const struct mean_ci *c, const char *sep, char *buf,
		   size_t len)
{
	char lo[32], hi[32];

	if (!isfinite(c->lo) || !isfinite(c->hi)) {
		snprintf(buf, len, "-");
		return;
	}
	pdiff_ns_text(c->lo, true, lo, sizeof(lo));
	pdiff_ns_text(c->hi, true, hi, sizeof(hi));
	snprintf(buf, len, "%s%s%s", lo, sep, hi);
}

/* The name in the columns left after indent, '~' ending a cut one. */
static void name_text(const char *name, int indent, char *buf, size_t len)
{
	int w = 80 - PDIFF_NUM_W - indent;

	if (w < PDIFF_NAME_MIN)
		w = PDIFF_NAME_MIN;
	if (strlen(name) <= (size_t)w)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%.*s~", w - 1, name);
}

static void print_how(FILE *out, const struct pdiff *d, int in)
{
	if (d->paired) {
		if (d->dropped)
			fprintf(out, "%*s  %zu disturbed rounds left out "
				"(--drop-noisy)\n", in, "", d->dropped);
		fprintf(out, "%*s  %zu rounds (%zu left out: a side without "
			"samples in them); %llu, %llu and\n%*s  %llu samples "
			"in A, B and A', each in its own traced samples; a "
			"function's\n", in, "", d->units[0], d->left_out,
			(unsigned long long)d->samples[0],
			(unsigned long long)d->samples[1], in, "",
			(unsigned long long)d->samples[2]);
		fprintf(out, "%*s  value in a round: its share of the round's "
			"samples x the op's time;\n%*s  the change: the mean "
			"of B - A over the rounds with its 95%% t CI, beside\n"
			"%*s  the control's (A' - A)\n", in, "", in, "", in,
			"");
		return;
	}
	if (d->by_run) {
		fprintf(out, "%*s  unpaired, by run: %zu runs on base, %zu on "
			"new (%zu traced samples left\n%*s  out: no samples); "
			"%llu and %llu profile samples; a function's value in\n"
			"%*s  a run: the mean over its traced samples of its "
			"share of the sample's\n%*s  samples x the op's time; "
			"the change: new's mean - base's over the\n%*s  runs, "
			"Welch 95%% CI from the runs' spread; no control\n",
			in, "", d->units[0], d->units[1], d->left_out, in, "",
			(unsigned long long)d->samples[0],
			(unsigned long long)d->samples[1], in, "", in, "", in,
			"");
		return;
	}
	fprintf(out, "%*s  unpaired: %zu traced samples of %zu run(s) on "
		"base, %zu of %zu on new\n%*s  (%zu left out: no samples); "
		"%llu and %llu profile samples; a function's\n%*s  value in "
		"a sample: its share of the sample's samples x the op's "
		"time;\n%*s  the change: new's mean - base's, Welch 95%% CI "
		"from the samples' spread\n%*s  (drift between runs is in it "
		"only as far as it spreads the samples);\n%*s  no control\n",
		in, "", d->units[0], d->nruns[0], d->units[1], d->nruns[1],
		in, "", d->left_out, (unsigned long long)d->samples[0],
		(unsigned long long)d->samples[1], in, "", in, "", in, "",
		in, "");
}

static void print_row(FILE *out, const struct pdiff *d,
		      const struct pdiff_row *r, int in)
{
	char a[32], b[32], ch[32], ci[48], ctl[48], nm[PDIFF_NAME_MAX];

	pdiff_ns_text(r->a_ns, false, a, sizeof(a));
	pdiff_ns_text(r->b_ns, false, b, sizeof(b));
	pdiff_ns_text(r->change.est, true, ch, sizeof(ch));
	pdiff_ci_text(&r->change, "..", ci, sizeof(ci));
	if (d->paired)
		pdiff_ci_text(&r->ctl, "..", ctl, sizeof(ctl));
	else
		ctl[0] = '\0';	/* no control */
	name_text(r->function, in, nm, sizeof(nm));
	fprintf(out, "%*s  %6s %6s %7s %-14s %-13s %c %s\n", in, "", a, b, ch,
		ci, ctl, r->moved ? '*' : ' ', nm);
}

/* The rows the text shows: the PDIFF_TEXT_TOP largest changes. */
static size_t top_of(const struct pdiff *d)
{
	return d->n < PDIFF_TEXT_TOP ? d->n : PDIFF_TEXT_TOP;
}

void report_profile_diff(FILE *out, const struct pdiff *d, int in)
{
	char x[32], y[32], ci[48];
	size_t i, top;

	fprintf(out, "%*skernel profile: %s in self ns per op (%s, %u Hz a "
		"worker)\n", in, "", d->paired ? "B - A" : "new - base",
		d->event[0] ? d->event : "-", d->hz);
	if (!d->n) {
		char why[400];

		snprintf(why, sizeof(why), "no diff: %s", d->why[0] ? d->why :
			 "no function had samples");
		fmt_wrap(out, (size_t)in + 2, (size_t)in + 4, why);
		return;
	}
	top = top_of(d);
	print_how(out, d, in);
	fprintf(out, "%*s  %6s %6s %7s %-14s %-13s %c %s\n", in, "",
		d->paired ? "A ns" : "base", d->paired ? "B ns" : "new",
		"change", "95% CI", d->paired ? "A'-A 95% CI" : "", ' ',
		"function");
	for (i = 0; i < top; i++)
		print_row(out, d, &d->rows[i], in);
	pdiff_ns_text(pdiff_top_sum(d, top), true, x, sizeof(x));
	pdiff_ns_text(d->op.est, true, y, sizeof(y));
	pdiff_ci_text(&d->op, "..", ci, sizeof(ci));
	fprintf(out, "%*s  *: moved, its CI excludes 0%s (%zu of %zu "
		"functions)\n", in, "", d->paired ?
		" and clears the control's" : "", pdiff_moved(d), d->n);
	fprintf(out, "%*s  %s %zu explain%s %s of %s ns per op: the op's "
		"mean change over the\n%*s  same %s (95%% CI %s", in, "",
		top == 1 ? "this" : "these", top, top == 1 ? "s" : "", x, y, in, "", d->paired ? "rounds" : d->by_run ? "runs" :
		"samples", ci);
	if (d->paired) {
		char c[48];

		pdiff_ci_text(&d->op_ctl, "..", c, sizeof(c));
		fprintf(out, "; the control's %s", c);
	}
	fprintf(out, ")\n");
	if (d->n > top)
		fprintf(out, "%*s  %zu function%s more (--json: "
			"profile_diff)\n", in, "", d->n - top,
			d->n - top == 1 ? "" : "s");
	for (i = 0; i < top; i++) {
		char nm[PDIFF_NAME_MAX];

		name_text(d->rows[i].function, in, nm, sizeof(nm));
		if (strcmp(nm, d->rows[i].function) != 0) {
			fprintf(out, "%*s  '~' ends a name cut to fit (--json "
				"has it whole)\n", in, "");
			break;
		}
	}
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *ci_json(const struct mean_ci *c)
{
	if (!isfinite(c->lo) || !isfinite(c->hi))
		return json_null();
	return json_pack("[o, o]", json_real(c->lo), json_real(c->hi));
}

json_t *profile_diff_rows_json(const struct pdiff *d)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < d->n; i++) {
		const struct pdiff_row *r = &d->rows[i];

		if (json_array_append_new(a, json_pack(
			"{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:I, s:I}",
			"function", r->function, "a_ns_per_op", num(r->a_ns),
			"b_ns_per_op", num(r->b_ns),
			"change_ns_per_op", num(r->change.est),
			"ci", ci_json(&r->change),
			"control_change_ns_per_op", num(r->ctl.est),
			"control_ci", ci_json(&r->ctl), "moved", r->moved,
			"a_samples", (json_int_t)r->a_samples,
			"b_samples", (json_int_t)r->b_samples)) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

json_t *profile_diff_json(const struct pdiff *d)
{
	json_t *o = json_pack(
		"{s:b, s:b, s:s, s:I, s:b, s:I, s:I, s:I, s:I, s:I, s:I,"
		" s:[I, I, I],"
		" s:o, s:o, s:o, s:o, s:o, s:o}",
		"paired", d->paired, "by_run", d->by_run, "event", d->event,
		"hz", (json_int_t)d->hz, "pmu", d->pmu,
		"a_units", (json_int_t)d->units[0],
		"b_units", (json_int_t)d->units[1],
		"left_out", (json_int_t)d->left_out,
		"dropped", (json_int_t)d->dropped,
		"a_runs", (json_int_t)d->nruns[0],
		"b_runs", (json_int_t)d->nruns[1],
		"samples", (json_int_t)d->samples[0],
		(json_int_t)d->samples[1], (json_int_t)d->samples[2],
		"a_ns_per_op", num(d->a_ns), "b_ns_per_op", num(d->b_ns),
		"change_ns_per_op", num(d->op.est), "ci", ci_json(&d->op),
		"control_change_ns_per_op", num(d->op_ctl.est),
		"control_ci", ci_json(&d->op_ctl));

	if (o && d->why[0])
		json_object_set_new(o, "why", json_string(d->why));
	return o;
}

void mail_print_profile_diff(FILE *out, const struct pdiff *d, int f)
{
	bool md = f == MAIL_MARKDOWN;

	fprintf(out, "\n%s\n", md ? "#### Kernel profile (ab --kernel profile)" :
		"Kernel profile (ab --kernel profile):");
	if (md)
		fputs("\n```\n", out);
	report_profile_diff(out, d, 0);
	if (md)
		fputs("```\n", out);
}
