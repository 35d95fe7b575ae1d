/*
 * format.c - human formatting of values with scaled units (see format.h).
 */
#include "report/format.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results/codec.h"

int fmt_unit_is_bare(const char *unit)
{
	/* The metric's name says "per byte" and the run's heading names the
	   timer, so cycle rates print bare and the rows keep to 80 columns. */
	return strcmp(unit, "tsc-cycles") == 0 || strcmp(unit, "cycles") == 0 ||
	       strcmp(unit, "cntvct-ticks") == 0 ||
	       strcmp(unit, "count") == 0 ||
	       strcmp(unit, "instr/cycle") == 0 ||
	       strcmp(unit, "tsc-cycles/byte") == 0 ||
	       strcmp(unit, "cntvct-ticks/byte") == 0 ||
	       strcmp(unit, "cycles/byte") == 0;
}

/*
 * The decimals fmt_number() gives a magnitude: three significant digits
 * (none from 100 up; below 1, as many as the leading zeros need: 0.0433,
 * at most FMT_MAX_DECIMALS, so 0.000050).
 */
#define FMT_MAX_DECIMALS 6

/*
 * From this magnitude on a number prints with three significant digits
 * and an exponent ("1.7e+308"): %f would spell out up to 309 digits,
 * which no column holds.  No measured time or rate comes near it.
 */
#define FMT_EXP_FROM 1e15

static int fmt_decimals(double a)
{
	int d;

	/* not finite: the (int) cast below would be undefined */
	if (!isfinite(a) || a >= 100 || a == 0)
		return 0;
	if (a >= 10)
		return 1;
	if (a >= 1)
		return 2;
	d = 2 - (int)floor(log10(a));
	return d > FMT_MAX_DECIMALS ? FMT_MAX_DECIMALS : d;
}

/* |v| as fmt_number() prints it (99.96 -> 100, 9.996 -> 10.0). */
static double fmt_shown(double v)
{
	char b[64];

	fmt_number(v, b, sizeof(b));
	return fabs(strtod(b, NULL));
}

/*
 * Climb a ladder of labels, each step times the one below, while the
 * value as printed reaches the next step: 999.7 ns prints as "1.00 us",
 * not "1000 ns".
 */
static const char *fmt_ladder(double a, double step,
			      const char *const *labels, int nlabels,
			      double *div)
{
	int i = 0;

	while (i < nlabels - 1 && fmt_shown(a / *div) >= step) {
		*div *= step;
		i++;
	}
	return labels[i];
}

const char *fmt_scale(double v, const char *unit, double *div)
{
	static const char *const ns[] = { "ns", "us", "ms", "s" };
	static const char *const bps[] = { "B/s", "KiB/s", "MiB/s", "GiB/s",
					   "TiB/s" };
	static const char *const ops[] = { "/s", "K/s", "M/s", "G/s" };
	double a = fabs(v);

	*div = 1.0;
	if (strcmp(unit, "ns") == 0)
		return fmt_ladder(a, 1000.0, ns, 4, div);
	if (strcmp(unit, "bytes/s") == 0)
		return fmt_ladder(a, 1024.0, bps, 5, div);
	if (strcmp(unit, "ops/s") == 0)
		return fmt_ladder(a, 1000.0, ops, 4, div);
	if (fmt_unit_is_bare(unit))
		return "";
	return unit;
}

void fmt_number(double v, char *buf, size_t len)
{
	char b[64];
	int d = fmt_decimals(fabs(v));

	/*
	 * Rounding can carry into the next decade (9.996 -> "10.00",
	 * 0.09996 -> "0.1000"); then print again with one decimal fewer,
	 * keeping three digits.
	 */
	if (fabs(v) >= FMT_EXP_FROM) {
		snprintf(buf, len, "%.3g", v);
		return;
	}
	snprintf(b, sizeof(b), "%.*f", d, v);
	if (d > 0 && fabs(strtod(b, NULL)) >= pow(10.0, 3 - d))
		snprintf(b, sizeof(b), "%.*f", d - 1, v);
	snprintf(buf, len, "%s", b);
}

void fmt_value(double v, const char *unit, char *buf, size_t len)
{
	double div;
	const char *label = fmt_scale(v, unit, &div);
	char num[64];

	fmt_number(v / div, num, sizeof(num));
	if (*label)
		snprintf(buf, len, "%s %s", num, label);
	else
		snprintf(buf, len, "%s", num);
}

void fmt_bytes(double bytes, char *buf, size_t len)
{
	static const char *const l[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double div = 1.0;
	const char *label = fmt_ladder(fabs(bytes), 1024.0, l, 5, &div);
	char num[64];
	char *end;

	/* Sizes read best without trailing zeros: "64 KiB", "1.5 MiB". */
	fmt_number(bytes / div, num, sizeof(num));
	if (strchr(num, '.')) {
		end = num + strlen(num) - 1;
		while (*end == '0')
			*end-- = '\0';
		if (*end == '.')
			*end = '\0';
	}
	snprintf(buf, len, "%s %s", num, label);
}

/*
 * How much of a word w characters long to print in room columns: the
 * longest head that fits and ends after a '+' or ',' (the separators of
 * a mix or a list), else all of it (a path or a number is never cut).
 */
static size_t fmt_break(const char *p, size_t w, size_t room)
{
	size_t k;

	if (w <= room)
		return w;
	for (k = room; k > 0; k--)
		if (p[k - 1] == '+' || p[k - 1] == ',')
			return k;
	return w;
}

/* Whether the head of a word that fits in room ends at a separator. */
static bool fmt_breaks_well(const char *p, size_t w, size_t room)
{
	size_t k = fmt_break(p, w, room);

	return room >= 16 && k < w;
}

/* Print w characters of p, FMT_NBSP as a space. */
static void fmt_put(FILE *out, const char *p, size_t w)
{
	for (size_t k = 0; k < w; k++)
		fputc(p[k] == FMT_NBSP ? ' ' : p[k], out);
}

/*
 * Print the word p[0 .. w) from column col, wider than a line: in pieces
 * (fmt_break), each further piece on a line of its own indented by
 * indent.  Returns the column after it.
 */
static size_t fmt_put_long(FILE *out, size_t col, size_t indent,
			   const char *p, size_t w)
{
	while (col + w > 80) {
		size_t k = fmt_break(p, w, col < 80 ? 80 - col : 0);

		if (k == w)
			break;
		fmt_put(out, p, k);
		p += k;
		w -= k;
		fprintf(out, "\n%*s", (int)indent, "");
		col = indent;
	}
	fmt_put(out, p, w);
	return col + w;
}

void fmt_wrap(FILE *out, size_t first_indent, size_t next_indent,
	      const char *text)
{
	const char *p = text;
	size_t col = 0;

	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t w = sp ? (size_t)(sp - p) : strlen(p);

		if (col == 0) {
			fprintf(out, "%*s", (int)first_indent, "");
			col = first_indent;
		} else if (col + 1 + w > 80 &&
			   (w <= 80 - next_indent ||
			    !fmt_breaks_well(p, w, 80 - col - 1))) {
			fprintf(out, "\n%*s", (int)next_indent, "");
			col = next_indent;
		} else {
			fputc(' ', out);
			col++;
		}
		col = fmt_put_long(out, col, next_indent, p, w);
		p += w;
		while (*p == ' ')
			p++;
	}
	if (col)
		fputc('\n', out);
}

void fmt_items_begin(struct fmt_items *l, FILE *out, const char *first)
{
	l->out = out;
	l->col = strlen(first);
	fputs(first, out);
}

void fmt_items_add(struct fmt_items *l, const char *item)
{
	size_t len = strlen(item);

	if (l->col + 2 + len > 80 &&
	    (len <= 78 || !fmt_breaks_well(item, len, 80 - l->col - 2))) {
		fputs("\n ", l->out);
		l->col = 1;
	}
	fputs(l->col == 1 ? " " : "  ", l->out);
	/* an item wider than a line (a long mix) goes on in lines of its
	   own, indented under its value */
	l->col = fmt_put_long(l->out, l->col + 2, 4, item, len);
}

void fmt_items_addf(struct fmt_items *l, const char *fmt, ...)
{
	va_list ap;
	char *item;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&item, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fmt_items_add(l, "[out of memory]");
		return;
	}
	fmt_items_add(l, item);
	free(item);
}

void fmt_items_end(struct fmt_items *l)
{
	fputc('\n', l->out);
}

void fmt_p(double p, char *buf, size_t len)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

void fmt_ci(double lo, double hi, char *buf, size_t len)
{
	if (isnan(lo) || isnan(hi))
		snprintf(buf, len, "-");
	else if (fabs(lo) >= FMT_EXP_FROM || fabs(hi) >= FMT_EXP_FROM)
		snprintf(buf, len, "%+.3g..%+.3g", lo, hi);
	else if (fabs(lo) < 10 && fabs(hi) < 10)
		snprintf(buf, len, "%+.1f..%+.1f", lo, hi);
	else
		snprintf(buf, len, "%+.0f..%+.0f", lo, hi);
}

void fmt_perf_time(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.2f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.2f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s ", ns / 1e9);
}

void fmt_change(double c, char *buf, size_t len)
{
	if (isnan(c))
		snprintf(buf, len, "-");
	else if (fabs(c) >= FMT_EXP_FROM)
		snprintf(buf, len, "%+.3g%%", c);
	else
		snprintf(buf, len, "%+.1f%%", c);
}

void fmt_utc_time(int64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (ns <= 0 || !gmtime_r(&t, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

void fmt_clean_text(const char *s, char *buf, size_t len)
{
	char *c = codec_clean_text(s ? s : "", true);

	snprintf(buf, len, "%s", c ? c : "?");
	free(c);
}
