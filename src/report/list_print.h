/*
 * list_print.h - what `copyscope list` prints (list_print.c): workloads
 * with what one op is, their parameters and metrics, and the suites.
 */
#ifndef COPYSCOPE_REPORT_LIST_PRINT_H
#define COPYSCOPE_REPORT_LIST_PRINT_H

#include <stddef.h>
#include <stdio.h>

#include "core/suite.h"
#include "core/workload.h"

/*
 * Print the workloads wls[0..nwl-1] and then the suites suites[0..ns-1]
 * whose name matches pattern (a shell glob or a prefix; NULL: all),
 * those that cannot run here saying why.  Returns how many were printed.
 */
size_t report_list(FILE *out, const char *pattern,
		   const struct workload *const *wls, size_t nwl,
		   const struct suite *const *suites, size_t ns);

#endif
