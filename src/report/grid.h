/*
 * grid.h - two-way grids of one metric over a sweep of two parameters,
 * printed under the human results table for a workload whose descriptor
 * has a grid (struct wl_grid): pipe.matrix's writers x readers grid of
 * the median aggregate bandwidth with its spread (E2's nine mixes at a
 * glance).
 *
 * It reads the results model (results/result.h), so `run` and `show`
 * print the same grid.
 */
#ifndef COPYSCOPE_GRID_H
#define COPYSCOPE_GRID_H

#include <stddef.h>
#include <stdio.h>

#include "core/workload.h"
#include "results/result.h"

/* One grid: the values of its two axes in order and a result per cell. */
struct grid_view {
	const struct wl_grid *spec;	/* row and column parameters, metric */
	char label[256];		/* the other parameters that set this
					   grid apart ("size=4k"), or "" */
	char (*row)[48], (*col)[48];	/* axis values, in value order */
	size_t nrows, ncols;
	const struct result **cell;	/* [r * ncols + c]; NULL: none */
	const char *unit;		/* of the metric */
};

/*
 * The grids of results res[0..n-1] (one job): as grid_print() finds
 * them, for other renderers (the HTML heat map).  *out (free with
 * grid_views_free()) gets *nout views, none when no grid applies.
 * Returns 0, or -1 when memory ran out.
 */
int grid_compute(const struct result *res, size_t n, struct grid_view **out,
		 size_t *nout);
void grid_views_free(struct grid_view *v, size_t n);

/*
 * For results res[0..n-1] (one job: a workload and its sweep), print the
 * workload's grid when its two parameters each take at least two values
 * in the sweep: rows the
 * first parameter, columns the second, cells the median and ±%stddev of
 * the samples, all in one scaled unit named in the heading.  Results that
 * differ in other parameters get a grid each, headed by those values.
 * Wider grids are split into column groups to fit 80 columns.  Prints
 * nothing when no grid applies.  Returns the number of grids printed, or
 * -1 when memory ran out (nothing more is printed then).
 */
int grid_print(FILE *out, const struct result *res, size_t n);

#endif
