/*
 * mail_table.c - the layout of a mail (see report/mail_print.h): the
 * header, the machine line and the parameters wrapped at 72 columns, and
 * the table in the kernel test robot's layout, or all of it as markdown
 * tables.  What goes in a mail is gathered by report/mail_build.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/mail_print.h"

/* Text columns: base value, its %stddev, the change, the mark, new. */
#define W_VAL 8
#define W_SD 6			/* " ±  2%" */
#define W_CHG 10
#define END_B (W_VAL + W_SD)			/* base's %stddev ends */
#define END_C (END_B + W_CHG)			/* the %change ends */
#define END_N (END_C + 2 + W_VAL + W_SD)	/* new's %stddev ends */
#define NAME_COL_1 (END_B + 2)
#define NAME_COL_2 (END_N + 2)

enum mail_format mail_format_of(bool mail, bool markdown)
{
	if (markdown)
		return MAIL_MARKDOWN;
	return mail ? MAIL_TEXT : MAIL_NONE;
}

void mail_doc_free(struct mail_doc *d)
{
	free(d->rows);
	d->rows = NULL;
	d->nrows = d->cap = 0;
}

struct mail_row *mail_add_row(struct mail_doc *d)
{
	struct mail_row *r;

	if (d->nrows == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct mail_row *v = realloc(d->rows, cap * sizeof(*v));

		if (!v)
			return NULL;
		d->rows = v;
		d->cap = cap;
	}
	r = &d->rows[d->nrows++];
	memset(r, 0, sizeof(*r));
	r->unit = "";
	r->base = r->base_cv = r->new = r->new_cv = NAN;
	r->change = r->ci_lo = r->ci_hi = NAN;
	r->mark = ' ';
	return r;
}

/*
 * Print prefix then text, word-wrapped at MAIL_COLS, continuation lines
 * indented by indent spaces.  Words are never split.
 */
static void wrap(FILE *out, const char *prefix, size_t indent,
		 const char *text)
{
	size_t col = strlen(prefix);
	bool first_word = true;
	const char *p = text;

	fputs(prefix, out);
	while (*p) {
		size_t w;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		w = strcspn(p, " ");
		if (!first_word && col + 1 + w > MAIL_COLS) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first_word) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, w, out);
		col += w;
		p += w;
		first_word = false;
	}
	fputc('\n', out);
}

/*
 * The value v of unit scaled by div as 3 significant digits; a count
 * (unit "count" or "B") below 10^7 whole, as it is; "-" NAN.
 */
static void value_text(double v, const char *unit, double div, char *buf,
		       size_t len)
{
	bool count = strcmp(unit, "count") == 0 || strcmp(unit, "B") == 0;

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (count && div == 1.0 && v == floor(v) && fabs(v) < 1e7)
		snprintf(buf, len, "%.0f", v);
	else
		fmt_number(v / div, buf, len);
}

/* " ±  2%" of a CV (a fraction); blanks when not known. */
static void sd_text(double cv, char *buf, size_t len)
{
	if (isnan(cv))
		snprintf(buf, len, "%*s", W_SD, "");
	else
		snprintf(buf, len, " ±%3.0f%%", cv * 100.0);
}

/* A %change "-2.4%", or points "+0.5" for a percentage metric. */
static void change_text(const struct mail_row *r, char *buf, size_t len)
{
	if (isnan(r->change))
		snprintf(buf, len, "-");
	else if (strcmp(r->unit, "%") == 0)
		snprintf(buf, len, "%+.1f", r->change);
	else
		fmt_change(r->change, buf, len);
}

/* "name (GiB/s)": the scaled unit's label after the metric. */
static void name_text(const struct mail_row *r, const char *label,
		      char *buf, size_t len)
{
	if (*label)
		snprintf(buf, len, "%s (%s)", r->name, label);
	else
		snprintf(buf, len, "%s", r->name);
}

static void print_text_heading(FILE *out, const struct mail_doc *d)
{
	static const char dashes[] = "----------------------------------------";

	size_t i;
	bool any_cv = false;

	for (i = 0; i < d->nrows; i++)
		any_cv |= !isnan(d->rows[i].base_cv);
	if (!d->two_sided) {
		fprintf(out, "%*s\n%.*s\n", END_B, d->col_base, END_B,
			dashes);
		/* counts (an observation) have no spread to head */
		if (any_cv)
			fprintf(out, "%*s\n%*s\n", END_B, "%stddev",
				END_B - 3, "\\");
		return;
	}
	fprintf(out, "%*s %*s\n", END_B, d->col_base, END_N - END_B - 1,
		d->col_new);
	fprintf(out, "%.*s %.*s\n", END_B, dashes, END_N - END_B - 1,
		dashes);
	fprintf(out, "%*s%*s%*s\n", END_B, "%stddev", END_C - END_B,
		"%change", END_N - END_C, "%stddev");
	fprintf(out, "%*s%*s%*s\n", END_B - 3, "\\", END_C - END_B,
		"|", END_N - END_C, "\\");
}

static void print_text_row(FILE *out, const struct mail_doc *d,
			   const struct mail_row *r)
{
	char b[32], bsd[16], n[32], nsd[16], chg[32], name[200], line[400];
	double div;
	const char *label = fmt_scale(r->base, r->unit, &div);
	size_t col = d->two_sided ? NAME_COL_2 : NAME_COL_1, len;
	bool above;

	if (r->heading) {
		wrap(out, "", 2, r->name);
		return;
	}
	value_text(r->base, r->unit, div, b, sizeof(b));
	if (r->withheld)
		snprintf(b, sizeof(b), "withheld");
	sd_text(r->base_cv, bsd, sizeof(bsd));
	name_text(r, label, name, sizeof(name));
	/* a name that does not fit goes on a line of its own above */
	above = col + strlen(name) > MAIL_COLS;
	if (above)
		fprintf(out, "  %s\n", name);
	if (!d->two_sided) {
		snprintf(line, sizeof(line), "%*s%s  %s", W_VAL, b, bsd,
			 above ? "" : name);
	} else {
		value_text(r->new, r->unit, div, n, sizeof(n));
		sd_text(r->new_cv, nsd, sizeof(nsd));
		change_text(r, chg, sizeof(chg));
		snprintf(line, sizeof(line), "%*s%s%*s %c%*s%s  %s", W_VAL, b,
			 bsd, W_CHG, chg, r->mark, W_VAL, n, nsd,
			 above ? "" : name);
	}
	len = strlen(line);
	while (len && line[len - 1] == ' ')
		line[--len] = '\0';
	fprintf(out, "%s\n", line);
}

/* Which marks the rows carry, as a string of distinct marks. */
static void marks_used(const struct mail_doc *d, char *buf, size_t len)
{
	size_t i, k = 0;

	buf[0] = '\0';
	for (i = 0; i < d->nrows && k + 1 < len; i++) {
		char m = d->rows[i].mark;

		if (m != ' ' && !strchr(buf, m)) {
			buf[k++] = m;
			buf[k] = '\0';
		}
	}
}

/*
 * The key of the marks used, one line each: "* p < 0.05 ...", or as a
 * markdown list ("- `*` p < 0.05 ...").
 */
static void print_key(FILE *out, const struct mail_doc *d, bool md)
{
	char used[8], text[320], pre[16];
	size_t i;

	marks_used(d, used, sizeof(used));
	if (md && used[0])
		fputc('\n', out);
	for (i = 0; i < d->nrows && !d->rows[i].withheld; i++)
		;
	if (i < d->nrows) {
		snprintf(text, sizeof(text), "(withheld: too many samples had "
			 "a worker off its CPU >5%%; copyscope show says which, "
			 "docs/methodology.md \"The headline\")");
		if (md)
			fprintf(out, "\n- %s\n", text);
		else
			wrap(out, "", 2, text);
	}
	for (i = 0; used[i]; i++) {
		if (used[i] == '*' && d->star_key[0])
			snprintf(text, sizeof(text), "%s", d->star_key);
		else if (used[i] == '*')
			snprintf(text, sizeof(text), "p < %.2g and the 95%% CI "
				 "of the change beyond ±%.3g%%", d->alpha,
				 d->noise_pct);
		else if (used[i] == '?')
			snprintf(text, sizeof(text), "cannot tell: too few "
				 "runs or rounds, or a control that moved");
		else
			snprintf(text, sizeof(text), "verdict withheld: "
				 "measured under an emulator");
		if (md) {
			fprintf(out, "- `%c` %s\n", used[i], text);
		} else {
			snprintf(pre, sizeof(pre), "%c ", used[i]);
			wrap(out, pre, 2, text);
		}
	}
}

static void print_text(FILE *out, const struct mail_doc *d)
{
	size_t i, w = 0;

	wrap(out, "", 2, d->title);
	fputc('\n', out);
	for (i = 0; i < d->nhead; i++)
		if (strlen(d->head_label[i]) > w)
			w = strlen(d->head_label[i]);
	for (i = 0; i < d->nhead; i++) {
		char pre[32];

		snprintf(pre, sizeof(pre), "%s%c%*s", d->head_label[i],
			 d->head_label[i][0] ? ':' : ' ',
			 (int)(w - strlen(d->head_label[i]) + 1), "");
		wrap(out, pre, w + 4, d->head[i]);
	}
	for (i = 0; i < d->nmachine; i++) {
		char pre[48];

		snprintf(pre, sizeof(pre), "machine%s%s: ",
			 d->machine_label[i][0] ? " " : "",
			 d->machine_label[i]);
		wrap(out, pre, 2, d->machine[i]);
	}
	if (d->params[0])
		wrap(out, "parameters: ", 2, d->params);
	fputc('\n', out);
	print_text_heading(out, d);
	for (i = 0; i < d->nrows; i++)
		print_text_row(out, d, &d->rows[i]);
	print_key(out, d, false);
}

/* text with '|' escaped for a markdown cell. */
static void md_cell(FILE *out, const char *text)
{
	const char *p;

	fputs("| ", out);
	for (p = text; *p; p++) {
		if (*p == '|')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputc(' ', out);
}

static void print_md_row(FILE *out, const struct mail_doc *d,
			 const struct mail_row *r)
{
	char v[32], sd[32], chg[40], ci[40], name[200];
	const char *p;
	double div;
	const char *label = fmt_scale(r->base, r->unit, &div);

	if (r->heading) {
		fputs("| **", out);
		for (p = r->name; *p; p++) {
			if (strchr("|*_`\\", *p))
				fputc('\\', out);
			fputc(*p, out);
		}
		fprintf(out, "** |%s\n", d->two_sided ? "  |  |  |  |  |  |" :
			"  |  |");
		return;
	}
	name_text(r, label, name, sizeof(name));
	md_cell(out, name);
	value_text(r->base, r->unit, div, v, sizeof(v));
	if (r->withheld)
		snprintf(v, sizeof(v), "withheld");
	md_cell(out, v);
	if (isnan(r->base_cv))
		snprintf(sd, sizeof(sd), "-");
	else
		snprintf(sd, sizeof(sd), "±%.0f%%", r->base_cv * 100.0);
	md_cell(out, sd);
	if (d->two_sided) {
		change_text(r, chg, sizeof(chg));
		if (r->mark != ' ')
			snprintf(chg + strlen(chg), sizeof(chg) - strlen(chg),
				 " %c", r->mark);
		md_cell(out, chg);
		fmt_ci(r->ci_lo, r->ci_hi, ci, sizeof(ci));
		md_cell(out, ci);
		value_text(r->new, r->unit, div, v, sizeof(v));
		md_cell(out, v);
		if (isnan(r->new_cv))
			snprintf(sd, sizeof(sd), "-");
		else
			snprintf(sd, sizeof(sd), "±%.0f%%",
				 r->new_cv * 100.0);
		md_cell(out, sd);
	}
	fputs("|\n", out);
}

static void print_markdown(FILE *out, const struct mail_doc *d)
{
	size_t i;

	fprintf(out, "**");
	for (i = 0; d->title[i]; i++) {
		if (strchr("*_`\\", d->title[i]))
			fputc('\\', out);
		fputc(d->title[i], out);
	}
	fprintf(out, "**\n\n|  |  |\n|:---|:---|\n");
	for (i = 0; i < d->nhead; i++) {
		md_cell(out, d->head_label[i]);
		md_cell(out, d->head[i]);
		fputs("|\n", out);
	}
	for (i = 0; i < d->nmachine; i++) {
		char label[48];

		snprintf(label, sizeof(label), "machine%s%s",
			 d->machine_label[i][0] ? " " : "",
			 d->machine_label[i]);
		md_cell(out, label);
		md_cell(out, d->machine[i]);
		fputs("|\n", out);
	}
	if (d->params[0]) {
		md_cell(out, "parameters");
		md_cell(out, d->params);
		fputs("|\n", out);
	}
	fputc('\n', out);
	if (d->two_sided)
		fprintf(out, "| metric | %s | %%stddev | %%change | 95%% CI "
			"| %s | %%stddev |\n|:---|---:|---:|---:|---:|---:|"
			"---:|\n", d->col_base, d->col_new);
	else
		fprintf(out, "| metric | %s | %%stddev |\n|:---|---:|---:|\n",
			d->col_base);
	for (i = 0; i < d->nrows; i++)
		print_md_row(out, d, &d->rows[i]);
	print_key(out, d, true);
}

void mail_print(FILE *out, const struct mail_doc *d, enum mail_format f)
{
	if (f == MAIL_MARKDOWN)
		print_markdown(out, d);
	else
		print_text(out, d);
}
