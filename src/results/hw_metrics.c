/*
 * hw_metrics.c - the table of hardware counter metrics (see hw_metrics.h).
 */
#include "results/hw_metrics.h"

#include <string.h>

/*
 * Names as the tables print them (at most 13 columns); "hw" marks the two
 * that a TSC figure could be taken for.  The IPC's unit prints bare, as
 * cycles do (report/format.c).
 */
const struct hw_metric_def hw_metric_defs[HW_NMETRICS] = {
	[HW_METRIC_CYCLES] = { "hw cycles/op", "cycles",
		"core cycles per op (the PMU's, not the TSC's), all workers" },
	[HW_METRIC_INSTR] = { "hw instr/op", "count",
		"instructions retired per op, all workers" },
	[HW_METRIC_IPC] = { "hw IPC", "instr/cycle",
		"instructions per core cycle" },
	[HW_METRIC_CACHE] = { "cache-miss/op", "count",
		"cache misses per op (perf's cache-misses: the last level on "
		"x86)" },
	[HW_METRIC_DTLB] = { "dTLB-miss/op", "count",
		"dTLB load misses per op" },
};

bool hw_metric_name(const char *metric)
{
	int i;

	for (i = 0; metric && i < HW_NMETRICS; i++)
		if (strcmp(hw_metric_defs[i].name, metric) == 0)
			return true;
	return false;
}
