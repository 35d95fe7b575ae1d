/*
 * import_print.h - what `copyscope import` prints (import_print.c): a
 * line per run with -v, the failed run's message, and the summary.
 */
#ifndef COPYSCOPE_REPORT_IMPORT_PRINT_H
#define COPYSCOPE_REPORT_IMPORT_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include <stdint.h>

#include "results/run.h"

/*
 * status[i]: 0 added, 1 already there, -1 failed, -2 not tried
 * (session_import).  With verbose, a line per run that was tried ("imported as run 12 (UUID,
 * 4 results)", "run 3 already there (UUID)"); always, on stderr, the run
 * that failed with why (err) and how many were imported before it.
 */
void report_import_runs(FILE *out, const struct run_data *runs, size_t n,
			const int *status, bool verbose, const char *err);

/* "imported 3 runs (ids 4-6) from FILE into DB; 1 already there". */
void report_import_summary(FILE *out, size_t added, int64_t first_id,
			   int64_t last_id, size_t there, const char *file,
			   const char *db);

#endif
