/*
 * run_options_print.h - a stored run's options as the one line `show`
 * and the HTML report print: "10 samples of >= 100ms after 200ms warm-up;
 * cpus 0-1; --hist".  A new run option (results/run_options.h) that a
 * reader should see gets its phrase here.
 */
#ifndef COPYSCOPE_REPORT_RUN_OPTIONS_PRINT_H
#define COPYSCOPE_REPORT_RUN_OPTIONS_PRINT_H

#include <stddef.h>

#include "results/run_options.h"

/* o as that line into buf (len bytes; cut only past 256 bytes of CPUs). */
void run_options_line(const struct run_options *o, char *buf, size_t len);

#endif
