/*
 * html_plots.h - the plots of the HTML report (report/html.c), each a
 * <figure> holding its data as JSON for the bundled charting code
 * (report/html_charts.js) with a table of the same numbers beside it.
 *
 * The figures come from the results model through the renderers that
 * print the text: grids (grid.c), fits (fit_report.c), --explain
 * (results/explain_view.c), notes and histogram percentiles (notes.c,
 * table.c), the comparison (comparison/comparison.c).
 */
#ifndef COPYSCOPE_HTML_PLOTS_H
#define COPYSCOPE_HTML_PLOTS_H

#include <stddef.h>
#include <stdio.h>

#include <stdbool.h>

#include "env/env.h"
#include "results/history_series.h"
#include "results/result.h"
#include "comparison/comparison.h"

/* s as HTML text: &<>"' escaped, bytes that are not UTF-8 as \xNN. */
void html_text(FILE *f, const char *s);

/*
 * The plots of one block (one job: a workload and its sweep,
 * res[0..n-1]): a line per group over a swept size or count with its 95%
 * CI band, the heat map of a grid, the fit with its points, the per-op
 * latency percentiles, the per-sample scatter.  Returns the number of
 * figures written.
 */
int html_block_plots(FILE *f, const struct result *res, size_t n);

/*
 * The --explain view (results/explain_view.h) of the results
 * res[0..n-1] of a run, as stacked bars beside their tables: a figure
 * for the pipe recipe's blocks and one for the per-byte recipe's.
 * Returns the number of figures written (0 to 2).
 */
int html_explain_plot(FILE *f, const struct result *res, size_t n);

/*
 * The comparison's forest plot (%change and its CI per row, coloured by
 * verdict) beside its table.  Returns the number of figures written.
 */
int html_forest_plot(FILE *f, const struct cmp *c);

/*
 * The comparison's strip plots: for each row on both sides that counts
 * (at most 24; a line says how many more), the median of every run of
 * both sides in time order (by start time where each run of a side has
 * the row, else base then new in their order), base and new in two
 * colours, beside its table.  Returns the number of figures written.
 */
int html_strip_plots(FILE *f, const struct cmp *c);

/*
 * A lab's history (results/history_series.h): for each series (at most 24; a
 * line says how many more) its run medians in series order (by_kernel:
 * the kernels in version order) with their 95% CI as a band, each change
 * point marked at its first point with its %change, the kernel release
 * labelled where it changes, beside its table.  Returns the number of
 * figures written.
 */
int html_history_plots(FILE *f, const struct history *h, bool by_kernel);

/*
 * A paired A/B run (env has AB_ENV_ROLES): per metric whose verdict
 * counts, a figure of the per-round %change of B and of the control
 * against A with the estimate and its CI, and its table.  Returns the
 * number of figures (0 for a run that is not an ab run).
 */
/*
 * An ab run's verdict table, for the top of its section: the sides (A,
 * B, the parameters both share, A' the control) and per metric A's
 * median, the %change, A x (1 + %change), the CI, p and the verdict.
 */
void html_ab_summary(FILE *f, const struct run_info *run,
		     const struct env *env, const struct result *res,
		     size_t n);

int html_ab_plot(FILE *f, const struct run_info *run, const struct env *env,
		 const struct result *res, size_t n);

/*
 * The profile view's flame graphs (run --kernel profile;
 * html_plots_flame.c, drawn by the flame bundle of bundle.h).  Whether k
 * holds samples to draw; whether any configuration of runs[0..n-1] does
 * (then the report embeds the flame bundle).
 */
struct result_kernel;
bool html_flame_drawable(const struct result_kernel *k);
bool html_runs_have_flames(const struct run_data *runs, size_t n);

/*
 * An ab run whose A is profiled: the differential flame graph of B
 * against A, and of the control A' against A, each beside the functions
 * whose self share moved most.  Returns the number of figures.
 */
int html_ab_flames(FILE *f, const struct env *env, const struct result *res,
		   size_t n);

/*
 * A comparison: per configuration profiled on both sides (each side's
 * runs pooled), the differential flame graph of new against base.
 * Returns the number of figures; with f NULL only counts them.
 */
int html_cmp_flames(FILE *f, const struct cmp *c);

#endif
