/*
 * format.h - human formatting of values with scaled units.
 *
 * Times scale ns/us/ms/s (1000-based), rates KiB/s MiB/s GiB/s (1024-based,
 * spelled as such), counts K/M/G per second (1000-based), cycle counts
 * print bare (the unit is named once in the table heading).
 */
#ifndef COPYSCOPE_FORMAT_H
#define COPYSCOPE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The scale to use for values around v in unit: sets *div and returns the
 * scaled unit label ("us", "MiB/s", "" for bare numbers).
 */
const char *fmt_scale(double v, const char *unit, double *div);

/*
 * v with 3 significant digits: "123456", "12.3", "1.23", "0.0433"; at
 * most 6 decimals ("0.000050").
 */
void fmt_number(double v, char *buf, size_t len);

/* v in its own best scale with its label: "1.02 us", "3.21 GiB/s". */
void fmt_value(double v, const char *unit, char *buf, size_t len);

/* A byte count as 1024-based KiB/MiB/GiB ("64 KiB", "1.5 MiB"). */
void fmt_bytes(double bytes, char *buf, size_t len);

/* A p-value as the tables print it: "<0.001", "0.042", "-" for NAN. */
void fmt_p(double p, char *buf, size_t len);

/* A CI of a %change, "+1.2..+3.4" (whole numbers from 10%), "-" NAN. */
void fmt_ci(double lo, double hi, char *buf, size_t len);

/*
 * A time as perf lock prints it: "%.2f" and a unit of ns, us, ms or s,
 * the unit two characters wide ("1.50 s ") so that a column lines up.
 */
void fmt_perf_time(double ns, char *buf, size_t len);

/*
 * Text from outside (a tag, a host, a comm, a command line) made safe to
 * print: control characters and bytes that are not UTF-8 as \xNN
 * (codec_clean_text), into buf ("?" on ENOMEM).
 */
void fmt_clean_text(const char *s, char *buf, size_t len);

/* A CLOCK_REALTIME ns stamp as "YYYY-MM-DD HH:MM:SS" UTC ("-" if 0). */
void fmt_utc_time(int64_t ns, char *buf, size_t len);

/* A %change, "+1.2%", "-" for NAN. */
void fmt_change(double c, char *buf, size_t len);

/* True for units printed as bare numbers (cycles). */
int fmt_unit_is_bare(const char *unit);

/*
 * Print text word-wrapped at 80 columns: the first line indented by
 * first_indent spaces, continuation lines by next_indent.  FMT_NBSP in
 * text prints as a space that never breaks ("142 ns" stays together).
 */
#define FMT_NBSP '\x1f'
void fmt_wrap(FILE *out, size_t first_indent, size_t next_indent,
	      const char *text);

/*
 * A heading of items separated by two spaces, wrapped at 80 columns, each
 * continuation line indented by one space:
 *   pipe.bw  rsize=0  pipe_size=0  mode=proc  place=split  io=write
 *    reader=read  verify=0
 * fmt_items_begin() prints the first item; fmt_items_end() the newline.
 */
struct fmt_items {
	FILE *out;
	size_t col;
};
void fmt_items_begin(struct fmt_items *l, FILE *out, const char *first);
void fmt_items_add(struct fmt_items *l, const char *item);
/* fmt_items_add() of a printf text of any length (a whole mix). */
void fmt_items_addf(struct fmt_items *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void fmt_items_end(struct fmt_items *l);

#endif
