/*
 * html_plots_priv.h - what the files of the HTML report's plots
 * (html_plots.c, html_plots_block.c, html_plots_explain.c,
 * html_plots_forest.c, html_plots_kernel.c, html_plots_flame.c,
 * html_plots_pdiff.c) share and nothing else includes: a figure with
 * its table, table cells, what varies in a block, and the block plots
 * html_block_plots() draws.
 */
#ifndef COPYSCOPE_HTML_PLOTS_PRIV_H
#define COPYSCOPE_HTML_PLOTS_PRIV_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/result.h"
#include "comparison/comparison.h"

#define MAX_VARY 16
#define LABEL_LEN 256

/*
 * Open a figure of kind with its title, height (pixels) and its data,
 * spec (stolen), as JSON for the charting code; the caller writes the
 * figure's table, then html_end_figure().
 */
void html_figure(FILE *f, const char *kind, const char *title, int height,
		 json_t *spec);

/* spec (stolen) as JSON that cannot end its <script>: '<' as \u003c. */
void html_emit_json(FILE *f, json_t *spec);

/* Close the figure html_figure() opened. */
void html_end_figure(FILE *f);

/* v as a JSON number, or null where it is NAN or infinite (a CI that
   does not exist: the chart draws no band there). */
json_t *html_num_or_null(double v);

/* A header cell, a cell and a numeric cell holding s as HTML text. */
void html_th(FILE *f, const char *s);
void html_td(FILE *f, const char *s);
void html_tdn(FILE *f, const char *s);

/* Functions in a profile diff's table (the flame graphs' FLAME_TOP). */
#define HTML_PDIFF_TOP 15

struct pdiff;

/*
 * The functions of the profile diff d (by function) that moved most, as
 * the text's diff (report/profile_diff_print.c), at most HTML_PDIFF_TOP
 * with a sample on a side: each side's (an, bn) self ns per op, the
 * change with its 95% CI and, paired, the control's CI and the mark of a
 * function that moved; control: the control's figure, A' - A with its
 * CI, its functions by the size of that change.  Then what the rounds
 * (or samples, runs) are and what the shown functions explain of the
 * op's change (html_plots_pdiff.c).
 */
void html_pdiff_table(FILE *f, const struct pdiff *d, bool control,
		      const char *an, const char *bn);

/* The parameters whose value varies over a block. */
struct vary {
	const char *name[MAX_VARY];
	size_t n;
};

/* The text of parameter k of c, "" when it has none. */
const char *html_pstr(const struct result_config *c, const char *k);

/* "k=v k=v" of c's varying parameters other than skip (may be NULL). */
void html_cfg_label(const struct result_config *c, const struct vary *v,
		    const char *skip, char *buf, size_t len);

/* [{x, label}] of the distinct values of x, in value order (a new
   reference). */
json_t *html_ticks_json(const double *x, const char *const *label,
			size_t n);

/* Whether hi / lo spans ratio or more (then the axis is logarithmic). */
bool html_wide(double lo, double hi, double ratio);

/*
 * "pipe.bw size=64k: bandwidth": a comparison row's workload, its
 * parameters that differ between rows of that workload or between the
 * sides ("inject_ns=0->30ns"), its metric (html_plots_forest.c).
 */
void html_cmp_row_label(const struct cmp *c, const struct cmp_row *row,
			char *buf, size_t len);

/*
 * The block plots of html_block_plots() (html_plots_block.c): the heat
 * map of a grid, the fit with its points, the per-op latency
 * percentiles, the per-sample scatter.  Each returns the number of
 * figures written.
 */
int html_plot_grids(FILE *f, const struct result *res, size_t n);
int html_plot_fit(FILE *f, const struct result *res, size_t n);
int html_plot_hist(FILE *f, const struct result *res, size_t n,
		   const struct vary *v);
int html_plot_scatters(FILE *f, const struct result *res, size_t n,
		       const struct vary *v);

/*
 * The kernel views of each configuration of a block that has them (run
 * --kernel; html_plots_kernel.c): the lock table beside its callers'
 * log2 wait histograms, the wake-up latency's histogram, the share of
 * the wall time in each system call.  Returns the number of figures.
 */
int html_plot_kernel(FILE *f, const struct result *res, size_t n,
		     const struct vary *v);

/*
 * The profile view of one configuration (html_plots_flame.c): its flame
 * graph, cfg naming the configuration in the title, beside its top
 * functions.  Returns 1, or 0 where k holds no sample to draw.
 */
int html_plot_flame(FILE *f, const struct result_kernel *k, const char *cfg);

#endif
