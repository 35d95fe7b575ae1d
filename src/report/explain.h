/*
 * explain.h - --explain as text: the blocks of the explain model
 * (results/explain_view.h) printed to fit 80 columns, "where the time
 * goes" for a pipe recipe and "per byte against" for a per-byte recipe.
 * `--json` (report/json.c) and the HTML report (report/html_plots_explain.c)
 * read the same model.
 */
#ifndef COPYSCOPE_EXPLAIN_H
#define COPYSCOPE_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/explain_view.h"
#include "results/result.h"

/* The names of the rows: "mem.copy libc (1 copy)", "ring.bw (2
   copies)", "pipe.bw". */
struct explain_labels {
	const char *copy, *ring, *self;
};

/* Print the side-by-side block of one size (fits 80 columns). */
void explain_print(FILE *out, const char *title,
		   const struct explain_labels *labels,
		   const struct explain_input *in,
		   const struct explain_figures *f);

/* Print one per-byte block: title, a row per size and floor, the fit
   (fits 80 columns). */
void explain_pb_print(FILE *out, const struct explain_pb_block *b);

/*
 * The words under a per-byte block's rows: the fitted line into fit
 * ("least-squares fit over 3 sizes: per call = 123 ns + 0.0550 ns x
 * size, R² 0.9973") and the workload's per-byte speed against each
 * floor into speed (or why there is none).  Returns false (both "") when
 * the block has no fit (fewer than two sizes).
 */
bool explain_pb_fit_text(const struct explain_pb_block *b, char *fit,
			 size_t fitlen, char *speed, size_t speedlen);

/*
 * Build the explain view of res[0..n-1] (explain_view_build()) and print
 * its blocks, the pipe recipe's first, a blank line between two.
 * Returns the number of blocks printed; 0 with a message in err naming
 * what is missing when nothing could be explained; -1 with a message on
 * a result without its size or out of memory (nothing printed).
 */
int explain_results(FILE *out, const struct result *res, size_t n,
		    char *err, size_t errlen);

#endif
