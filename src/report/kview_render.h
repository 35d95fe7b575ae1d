/*
 * kview_render.h - the kernel views at the report layer as a table of
 * descriptors, one row per view, indexed by the view's id
 * (results/kview_table.h): its part of the text tables (report_kernel)
 * and its figures in the HTML report (html_plot_kernel).  Its JSON is
 * the results codec's (results/kview_NAME_codec.c).  Checked at
 * start-up (main.c) and in the unit tests; docs/writing-a-kernel-view.md
 * says how to add a row.
 */
#ifndef COPYSCOPE_REPORT_KVIEW_RENDER_H
#define COPYSCOPE_REPORT_KVIEW_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "results/kernel_records.h"

struct kview_render {
	/* its lines under a configuration's tables (80 columns) */
	void (*text)(FILE *out, const struct result_kernel *k);
	/* its figures of one configuration (cfg: its label, "" when
	   alone); returns how many it drew */
	int (*html)(FILE *f, const struct result_kernel *k, const char *cfg);
};

extern const struct kview_render kview_renderers[KVIEW_NVIEWS];

/* Every view has both renderers.  Returns the number of problems; the
   first is written to err. */
int kview_renderers_validate(char *err, size_t errlen);

/* The rows' renderers (report/kernel_text.c, report/html_plots_kernel.c,
   report/profile_text.c and report/html_plots_flame.c). */
void report_kernel_lock(FILE *out, const struct result_kernel *k);
void report_kernel_sched(FILE *out, const struct result_kernel *k);
void report_kernel_sys(FILE *out, const struct result_kernel *k);
int html_plot_kernel_lock(FILE *f, const struct result_kernel *k,
			  const char *cfg);
int html_plot_kernel_sched(FILE *f, const struct result_kernel *k,
			   const char *cfg);
int html_plot_kernel_sys(FILE *f, const struct result_kernel *k,
			 const char *cfg);

#endif
