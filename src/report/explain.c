/*
 * explain.c - --explain as text (see explain.h): the blocks of the
 * explain model (results/explain_view.c), which holds the arithmetic.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/explain.h"
#include "report/format.h"

static void print_row(FILE *out, const char *name, double bps, double ns,
		      double frac, double cs)
{
	char b[32], t[32], f[16], c[24], line[128];
	size_t n;

	fmt_value(bps, "bytes/s", b, sizeof(b));
	fmt_value(ns, "ns", t, sizeof(t));
	snprintf(f, sizeof(f), "%.1f%%", frac * 100);
	if (cs >= 0) {
		fmt_number(cs, c, sizeof(c));
	} else {
		snprintf(c, sizeof(c), "%s", cs == -2 ? "" : "n/a");
	}
	snprintf(line, sizeof(line), "  %-24s %11s %11s %10s %11s", name, b, t,
		 f, c);
	n = strlen(line);
	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

void explain_print(FILE *out, const char *title,
		   const struct explain_labels *l,
		   const struct explain_input *in,
		   const struct explain_figures *f)
{
	char kt[32], text[512], sz[32];

	fmt_bytes(in->size_bytes, sz, sizeof(sz));
	snprintf(text, sizeof(text), "where the time goes: %s", title);
	fmt_wrap(out, 0, 2, text);
	fprintf(out, "  %-24s %11s %11s %10s %11s\n", "", "bandwidth",
		"per 64 KiB", "pipe as %", "ctx sw/MiB");
	print_row(out, l->copy, in->copy_bps, f->copy_ns_64k,
		  f->pipe_of_copy, -2);
	print_row(out, "two-copy floor (1/2)", f->floor_bps, f->floor_ns_64k,
		  f->pipe_of_floor, -2);
	print_row(out, l->ring, in->ring_bps, f->ring_ns_64k,
		  f->pipe_of_ring, in->ring_cs_per_mib);
	print_row(out, l->self, in->pipe_bps, f->pipe_ns_64k, 1.0,
		  in->pipe_cs_per_mib);
	fmt_value(fabs(f->kernel_ns_64k), "ns", kt, sizeof(kt));
	if (f->kernel_ns_64k >= 0)
		snprintf(text, sizeof(text), "kernel path (pipe - ring): %s "
			 "per 64 KiB, %.0f%% of the pipe's time, at %s "
			 "messages.", kt, f->kernel_share * 100, sz);
	else
		snprintf(text, sizeof(text), "kernel path (pipe - ring): the "
			 "pipe was %s per 64 KiB faster than the ring at %s "
			 "messages: no kernel overhead could be seen (check "
			 "the spread).", kt, sz);
	fmt_wrap(out, 2, 4, text);
	if (f->extra_cs_per_mib >= 0) {
		char ce[24], cp[24];

		fmt_number(in->pipe_cs_per_mib, cp, sizeof(cp));
		fmt_number(f->extra_cs_per_mib, ce, sizeof(ce));
		snprintf(text, sizeof(text), "the pipe switched context %s "
			 "times per MiB, %s more than the ring: each switch is "
			 "a sleep and a wake-up in the kernel path.", cp, ce);
		fmt_wrap(out, 2, 4, text);
	} else {
		fmt_wrap(out, 2, 4, "context switch counts are not known "
			 "for these results.");
	}
}


/* Trailing blanks off, then the line. */
static void put_line(FILE *out, char *line)
{
	size_t n = strlen(line);

	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

static void pb_print_rows(FILE *out, const struct explain_pb_block *bl)
{
	const struct wl_explain *x = bl->x;
	char line[160], a[32], b[32], c[32], d[32], e[16], name[64];
	char per[32];
	size_t i, k, label_w = 5;

	for (k = 0; k < x->nfloors; k++) {
		explain_floor_short(&x->floors[k], name, sizeof(name));
		if (strlen(name) > label_w)
			label_w = strlen(name);
	}
	snprintf(per, sizeof(per), "per %s", x->per);
	snprintf(line, sizeof(line), "  %-6s %9s %10s   %-*s %11s %6s %10s",
		 "size", per, "per byte", (int)label_w, "floor", "per byte",
		 "speed", "over copy");
	put_line(out, line);
	for (i = 0; i < bl->npts; i++) {
		const struct explain_pb_point *p = &bl->pts[i];

		fmt_value(p->row.self_ns, "ns", a, sizeof(a));
		fmt_value(p->row.self_ns_byte, "ns", b, sizeof(b));
		for (k = 0; k < x->nfloors; k++) {
			explain_floor_short(&x->floors[k], name, sizeof(name));
			if (p->row.floor_ns[k] > 0) {
				fmt_value(p->row.floor_ns_byte[k], "ns", c,
					  sizeof(c));
				snprintf(e, sizeof(e), "%.1f%%",
					 p->row.speed[k] * 100);
				fmt_value(p->row.beyond_ns[k], "ns", d,
					  sizeof(d));
			} else {
				snprintf(c, sizeof(c), "-");
				snprintf(e, sizeof(e), "-");
				snprintf(d, sizeof(d), "-");
			}
			snprintf(line, sizeof(line),
				 "  %-6s %9s %10s   %-*s %11s %6s %10s",
				 k ? "" : p->size, k ? "" : a, k ? "" : b,
				 (int)label_w, name, c, e, d);
			put_line(out, line);
		}
	}
}

bool explain_pb_fit_text(const struct explain_pb_block *bl, char *fit,
			 size_t fitlen, char *speed, size_t speedlen)
{
	const struct wl_explain *x = bl->x;
	const struct explain_pb_fit *f = &bl->fit;
	char a[32], b[32], c[32], name[64];
	size_t k, used;

	fit[0] = speed[0] = '\0';
	if (!bl->fitted)
		return false;
	fmt_value(f->self.a, "ns", a, sizeof(a));
	fmt_value(fabs(f->self.b), "ns", b, sizeof(b));
	used = (size_t)snprintf(fit, fitlen, "least-squares fit over %zu "
				"sizes: per %s = %s %c %s x size", f->self.n,
				x->per, a, f->self.b < 0 ? '-' : '+', b);
	if (f->self.n >= 3 && used < fitlen)
		snprintf(fit + used, fitlen - used, ", R² %.4f", f->self.r2);
	if (!(f->self.b > 0)) {
		snprintf(speed, speedlen, "the per-byte part is not "
			 "positive: the fixed cost and the noise hide it, no "
			 "speed to compare (sweep larger sizes)");
		return true;
	}
	used = (size_t)snprintf(speed, speedlen, "%s moves a byte in %s:",
				bl->workload, b);
	for (k = 0; k < x->nfloors && used < speedlen; k++) {
		explain_floor_name(&x->floors[k], name, sizeof(name));
		if (f->speed[k] > 0) {
			fmt_value(f->floor[k].b, "ns", c, sizeof(c));
			used += (size_t)snprintf(speed + used,
				speedlen - used, "%s %.0f%% of %s's speed "
				"(%s)", k ? "," : "", f->speed[k] * 100, name,
				c);
		} else {
			used += (size_t)snprintf(speed + used,
				speedlen - used, "%s %s has no per-byte "
				"speed to compare (%s)", k ? "," : "", name,
				f->floor_ok[k] ? "its per-byte part is not "
				"positive" : "fewer than two sizes");
		}
	}
	if (used < speedlen)
		snprintf(speed + used, speedlen - used, "; plus %s per %s.",
			 a, x->per);
	return true;
}

void explain_pb_print(FILE *out, const struct explain_pb_block *b)
{
	char fit[1024], speed[1024];

	fmt_wrap(out, 0, 2, b->title);
	pb_print_rows(out, b);
	if (explain_pb_fit_text(b, fit, sizeof(fit), speed, sizeof(speed))) {
		fmt_wrap(out, 2, 4, fit);
		fmt_wrap(out, 2, 4, speed);
	}
}

int explain_results(FILE *out, const struct result *res, size_t n,
		    char *err, size_t errlen)
{
	struct explain_view v;
	int rc = explain_view_build(res, n, &v, err, errlen);
	size_t i;

	for (i = 0; rc > 0 && i < v.npipe; i++) {
		const struct explain_block *b = &v.pipe[i];
		struct explain_labels labels = {
			.copy = b->copy_label, .ring = b->ring_label,
			.self = b->self_label,
		};

		if (i)
			fputc('\n', out);
		explain_print(out, b->title, &labels, &b->in, &b->f);
	}
	for (i = 0; rc > 0 && i < v.npb; i++) {
		if (i || v.npipe)
			fputc('\n', out);
		explain_pb_print(out, &v.pb[i]);
	}
	explain_view_free(&v);
	return rc;
}
