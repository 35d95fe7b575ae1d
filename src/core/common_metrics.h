/*
 * common_metrics.h - the metric rows many workloads share, defined once:
 * time/call, cycles/call and bandwidth (as common_params.h defines the
 * shared parameter rows).  The name, kind and direction are fixed here,
 * so a comparison or a report that knows "time/call" knows it for every
 * workload; a workload says only what one of its calls is, in the help.
 *
 *   static const struct metric_def sys_rw_metrics[] = {
 *           WL_METRIC_TIME_CALL("wall time per call of size bytes"),
 *           WL_METRIC_CYCLES_CALL,
 *           WL_METRIC_BANDWIDTH("bytes read or written per second"),
 *   };
 */
#ifndef COPYSCOPE_COMMON_METRICS_H
#define COPYSCOPE_COMMON_METRICS_H

#include "core/workload.h"

/* time/call: wall time per op (ns), lower is better. */
#define WL_METRIC_TIME_CALL(help_text)					\
	{ .name = "time/call", .kind = METRIC_NS_PER_OP,		\
	  .dir = METRIC_LOWER_BETTER, .help = (help_text) }

/* cycles/call: timer ticks per op (the unit names the counter). */
#define WL_METRIC_CYCLES_CALL						\
	{ .name = "cycles/call", .kind = METRIC_TICKS_PER_OP,		\
	  .dir = METRIC_LOWER_BETTER,					\
	  .help = "timer ticks per call (unit says which counter)" }

/* bandwidth: bytes per second of the op's size, higher is better. */
#define WL_METRIC_BANDWIDTH(help_text)					\
	{ .name = "bandwidth", .kind = METRIC_BYTES_PER_SEC,		\
	  .dir = METRIC_HIGHER_BETTER, .help = (help_text) }

#endif
