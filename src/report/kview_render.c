/*
 * kview_render.c - the table of the kernel views at the report layer
 * (see kview_render.h): one row per view, and its check.
 */
#include "report/kview_render.h"

#include "report/html_plots_priv.h"
#include "report/report.h"

const struct kview_render kview_renderers[KVIEW_NVIEWS] = {
	[KVIEW_ID_LOCK] = {
		.text = report_kernel_lock,
		.html = html_plot_kernel_lock,
	},
	[KVIEW_ID_SCHED] = {
		.text = report_kernel_sched,
		.html = html_plot_kernel_sched,
	},
	[KVIEW_ID_SYSCALL] = {
		.text = report_kernel_sys,
		.html = html_plot_kernel_sys,
	},
	[KVIEW_ID_PROFILE] = {
		.text = report_profile,
		.html = html_plot_flame,
	},
};

int kview_renderers_validate(char *err, size_t errlen)
{
	int id, bad = 0;

	err[0] = 0;
	for (id = 0; id < KVIEW_NVIEWS; id++)
		if ((!kview_renderers[id].text || !kview_renderers[id].html) &&
		    !bad++)
			snprintf(err, errlen, "kernel view '%s': the report "
				 "layer's row needs its text and HTML "
				 "renderers", kview_records[id]->name);
	return bad;
}
