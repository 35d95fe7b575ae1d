/*
 * show_print.h - `copyscope show RUN` as text (show_print.c).
 */
#ifndef COPYSCOPE_REPORT_SHOW_PRINT_H
#define COPYSCOPE_REPORT_SHOW_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/run.h"
#include "results/summary_line.h"

/*
 * Print the stored run: "run ID  STATUS  tag T  host H  boot B", when it
 * ran and with what, its options, its command line; the suite summary of
 * lines[0..nl-1] (db: the --db its hint names); the results tables, or
 * the observation of an observation run; the paired A/B table of an A/B
 * run; with with_env its environment.
 */
void report_show_run(FILE *out, const struct run_data *run, const char *db,
		     const struct summary_line *lines, size_t nl,
		     bool with_env);

/* An environment as aligned "key  value" lines (env_print()). */
void report_show_env(FILE *out, const struct env *env);

#endif
