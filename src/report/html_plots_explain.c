/*
 * html_plots_explain.c - the --explain view (results/explain_view.h) in
 * the HTML report (see html_plots.h): the pipe recipe's time per 64 KiB
 * and the per-byte recipe's time per byte, each as stacked bars beside
 * the table the text prints.
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/explain.h"
#include "report/format.h"
#include "report/html_plots.h"
#include "report/html_plots_priv.h"

/* The pipe recipe's blocks: where the time of 64 KiB goes. */
static int plot_pipe(FILE *f, const struct explain_block *b, size_t nb)
{
	static const char *const seg[] = {
		"one copy (the copy floor)", "the second copy (two-copy "
		"floor)", "the ring beyond the floor (wake-ups, no kernel)",
		"the kernel path (pipe - ring)",
	};
	json_t *bars, *segs;
	double div = 1;
	const char *scaled;
	char title[96], head[64], sz[32];
	size_t i, k;

	if (!nb)
		return 0;
	scaled = fmt_scale(b[0].f.pipe_ns_64k, "ns", &div);
	bars = json_array();
	segs = json_array();
	for (k = 0; k < 4; k++)
		json_array_append_new(segs, json_string(seg[k]));
	for (i = 0; i < nb; i++) {
		const struct explain_figures *x = &b[i].f;
		double v[4];

		v[0] = x->copy_ns_64k;
		v[1] = x->floor_ns_64k - x->copy_ns_64k;
		v[2] = x->ring_ns_64k - x->floor_ns_64k;
		v[3] = x->pipe_ns_64k - x->ring_ns_64k;
		json_array_append_new(bars, json_pack(
			"{s:s, s:[f, f, f, f]}", "label", b[i].title,
			"values", fmax(v[0], 0) / div, fmax(v[1], 0) / div,
			fmax(v[2], 0) / div, fmax(v[3], 0) / div));
	}
	snprintf(head, sizeof(head), "time per 64 KiB (%s)", scaled);
	snprintf(title, sizeof(title), "where the time goes: the pipe "
		 "against its floors");
	html_figure(f, "explain", title, 80 + 50 * (int)nb, json_pack(
		"{s:s, s:o, s:o}", "xlabel", head, "segments", segs, "bars",
		bars));
	fprintf(f, "<table>\n");
	for (i = 0; i < nb; i++) {
		const struct explain_figures *x = &b[i].f;
		const struct explain_input *in = &b[i].in;
		const char *name[4] = { b[i].copy_label, "two-copy floor (1/2)",
					b[i].ring_label, b[i].self_label };
		double bps[4] = { in->copy_bps, x->floor_bps, in->ring_bps,
				  in->pipe_bps };
		double ns[4] = { x->copy_ns_64k, x->floor_ns_64k,
				 x->ring_ns_64k, x->pipe_ns_64k };
		double frac[4] = { x->pipe_of_copy, x->pipe_of_floor,
				   x->pipe_of_ring, 1.0 };
		double cs[4] = { -1, -1, in->ring_cs_per_mib,
				 in->pipe_cs_per_mib };

		fprintf(f, "<tr><th colspan=\"5\">");
		html_text(f, b[i].title);
		fprintf(f, "</th></tr>\n<tr><th></th><th>bandwidth</th><th>per "
			"64 KiB</th><th>pipe as %%</th><th>ctx sw/MiB</th>"
			"</tr>\n");
		for (k = 0; k < 4; k++) {
			char a[48];

			fprintf(f, "<tr>");
			html_td(f, name[k]);
			fmt_value(bps[k], "bytes/s", a, sizeof(a));
			html_tdn(f, a);
			fmt_value(ns[k], "ns", a, sizeof(a));
			html_tdn(f, a);
			snprintf(a, sizeof(a), "%.1f%%", frac[k] * 100);
			html_tdn(f, a);
			if (cs[k] >= 0)
				fmt_number(cs[k], a, sizeof(a));
			html_tdn(f, cs[k] >= 0 ? a : "");
			fprintf(f, "</tr>\n");
		}
		fmt_value(fabs(x->kernel_ns_64k), "ns", sz, sizeof(sz));
		fprintf(f, "<tr><td colspan=\"5\">kernel path (pipe - ring): "
			"%s%s per 64 KiB, %.0f%% of the pipe's time</td></tr>\n",
			x->kernel_ns_64k < 0 ? "-" : "", sz,
			x->kernel_share * 100);
	}
	fprintf(f, "</table>\n");
	html_end_figure(f);
	return 1;
}

/*
 * The fastest floor's time per byte at point p (the copy the workload
 * could not beat), 0 when no floor was measured at its size.
 */
static double fastest_floor(const struct explain_pb_block *b,
			    const struct explain_pb_point *p)
{
	double best = 0;
	size_t k;

	for (k = 0; k < b->x->nfloors; k++)
		if (p->row.floor_ns[k] > 0 &&
		    (best == 0 || p->row.floor_ns_byte[k] < best))
			best = p->row.floor_ns_byte[k];
	return best;
}

/* The bars of the per-byte blocks: one per block and size. */
static json_t *pb_bars(const struct explain_pb_block *b, size_t nb,
		       size_t *nbars)
{
	json_t *bars = json_array();
	char label[LABEL_LEN];
	size_t i, j;

	*nbars = 0;
	for (i = 0; bars && i < nb; i++) {
		/* the block's workload and parameters, after "against ..: " */
		const char *what = strstr(b[i].title, ": ");

		what = what ? what + 2 : b[i].workload;
		for (j = 0; j < b[i].npts; j++) {
			const struct explain_pb_point *p = &b[i].pts[j];
			double fl = fastest_floor(&b[i], p);

			snprintf(label, sizeof(label), "%s size=%s", what,
				 p->size);
			json_array_append_new(bars, json_pack(
				"{s:s, s:[f, f]}", "label", label, "values",
				fl, fmax(p->row.self_ns_byte - fl, 0)));
			(*nbars)++;
		}
	}
	return bars;
}

/* The rows of one per-byte block, as the text prints them. */
static void pb_table(FILE *f, const struct explain_pb_block *b)
{
	char a[32], per[32], name[64], fit[1024], speed[1024];
	size_t i, k;

	fprintf(f, "<tr><th colspan=\"7\">");
	html_text(f, b->title);
	snprintf(per, sizeof(per), "per %s", b->x->per);
	fprintf(f, "</th></tr>\n<tr>");
	html_th(f, "size");
	html_th(f, per);
	html_th(f, "per byte");
	html_th(f, "floor");
	html_th(f, "per byte");
	html_th(f, "speed");
	html_th(f, "over copy");
	fprintf(f, "</tr>\n");
	for (i = 0; i < b->npts; i++) {
		const struct explain_pb_point *p = &b->pts[i];

		for (k = 0; k < b->x->nfloors; k++) {
			bool has = p->row.floor_ns[k] > 0;

			fprintf(f, "<tr>");
			html_td(f, k ? "" : p->size);
			fmt_value(p->row.self_ns, "ns", a, sizeof(a));
			html_tdn(f, k ? "" : a);
			fmt_value(p->row.self_ns_byte, "ns", a, sizeof(a));
			html_tdn(f, k ? "" : a);
			explain_floor_short(&b->x->floors[k], name,
					    sizeof(name));
			html_td(f, name);
			fmt_value(p->row.floor_ns_byte[k], "ns", a, sizeof(a));
			html_tdn(f, has ? a : "-");
			snprintf(a, sizeof(a), "%.1f%%", p->row.speed[k] * 100);
			html_tdn(f, has ? a : "-");
			fmt_value(p->row.beyond_ns[k], "ns", a, sizeof(a));
			html_tdn(f, has ? a : "-");
			fprintf(f, "</tr>\n");
		}
	}
	if (explain_pb_fit_text(b, fit, sizeof(fit), speed, sizeof(speed))) {
		fprintf(f, "<tr><td colspan=\"7\">");
		html_text(f, fit);
		fprintf(f, "</td></tr>\n<tr><td colspan=\"7\">");
		html_text(f, speed);
		fprintf(f, "</td></tr>\n");
	}
}

/* The per-byte recipe's blocks: each size's time per byte, the fastest
   floor's copy and what the workload adds beyond it. */
static int plot_per_byte(FILE *f, const struct explain_pb_block *b,
			 size_t nb)
{
	json_t *segs, *bars;
	size_t nbars, i;

	if (!nb)
		return 0;
	bars = pb_bars(b, nb, &nbars);
	segs = json_pack("[s, s]", "the copy (the fastest floor at the size)",
			 "beyond the copy");
	html_figure(f, "explain", "per byte: the workload against its copy "
		    "floors", 80 + 30 * (int)nbars, json_pack(
		    "{s:s, s:o, s:o}", "xlabel", "time per byte (ns)",
		    "segments", segs, "bars", bars));
	fprintf(f, "<table>\n");
	for (i = 0; i < nb; i++)
		pb_table(f, &b[i]);
	fprintf(f, "</table>\n");
	html_end_figure(f);
	return 1;
}

int html_explain_plot(FILE *f, const struct result *res, size_t n)
{
	struct explain_view v;
	char err[512];
	int done = 0;

	if (explain_view_build(res, n, &v, err, sizeof(err)) > 0) {
		done += plot_pipe(f, v.pipe, v.npipe);
		done += plot_per_byte(f, v.pb, v.npb);
	}
	explain_view_free(&v);
	return done;
}
