/*
 * format.c - human formatting of values with scaled units (see format.h).
 */
#include "report/format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int fmt_unit_is_bare(const char *unit)
{
	return strcmp(unit, "tsc-cycles") == 0 || strcmp(unit, "cycles") == 0 ||
	       strcmp(unit, "count") == 0;
}

const char *fmt_scale(double v, const char *unit, double *div)
{
	double a = fabs(v);

	*div = 1.0;
	if (strcmp(unit, "ns") == 0) {
		if (a >= 1e9) {
			*div = 1e9;
			return "s";
		}
		if (a >= 1e6) {
			*div = 1e6;
			return "ms";
		}
		if (a >= 1e3) {
			*div = 1e3;
			return "us";
		}
		return "ns";
	}
	if (strcmp(unit, "bytes/s") == 0) {
		static const char *const l[] = { "B/s", "KiB/s", "MiB/s",
						 "GiB/s", "TiB/s" };
		int i = 0;

		while (i < 4 && a >= 1024.0 * *div) {
			*div *= 1024.0;
			i++;
		}
		return l[i];
	}
	if (strcmp(unit, "ops/s") == 0) {
		static const char *const l[] = { "/s", "K/s", "M/s", "G/s" };
		int i = 0;

		while (i < 3 && a >= 1000.0 * *div) {
			*div *= 1000.0;
			i++;
		}
		return l[i];
	}
	if (fmt_unit_is_bare(unit))
		return "";
	return unit;
}

void fmt_number(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (a >= 100 || a == 0)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
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
	char num[64];
	int i = 0;

	while (i < 4 && bytes >= 1024.0 * div) {
		div *= 1024.0;
		i++;
	}
	fmt_number(bytes / div, num, sizeof(num));
	snprintf(buf, len, "%s %s", num, l[i]);
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
		} else if (col + 1 + w > 80) {
			fprintf(out, "\n%*s", (int)next_indent, "");
			col = next_indent;
		} else {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, w, out);
		col += w;
		p += w;
		while (*p == ' ')
			p++;
	}
	if (col)
		fputc('\n', out);
}
