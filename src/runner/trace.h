/*
 * trace.h - the cold-call trace behind trace=N: each of the first N ops of
 * a freshly exec'ed process, timed one by one.
 *
 * The measuring process re-executes its own binary with the hidden
 * subcommand "__trace" (trace_main()), which sets the configuration up as
 * a measured run does (runner/context.h), so that the calls run in a fresh
 * process image: cold caches, TLB and branch predictors for this code
 * path.
 */
#ifndef COPYSCOPE_TRACE_H
#define COPYSCOPE_TRACE_H

#include "core/param.h"
#include "runner/runner.h"
#include "core/workload.h"

/*
 * Run the trace of configuration ps of wl (a WL_CAP_TRACE workload whose
 * trace row is N > 0) in a fresh process and put its N times into
 * res->trace_ns, res->trace_ticks and res->ntrace.  Returns CONFIG_OK,
 * CONFIG_INTERRUPTED, or CONFIG_FAILED with the reason in res->msg.
 */
enum config_status trace_run(const struct workload *wl,
			     const struct param_set *ps,
			     struct config_result *res);

/*
 * The hidden subcommand: argv is "__trace" WORKLOAD CLOCK N key=value...
 * (CLOCK "tsc" or "ns").  Sets the configuration up in this process, runs
 * its one worker's first N ops and prints one tick count per line.
 * Returns the exit code: 0, 1 (failed, reason on stderr), 2 (bad
 * arguments).
 */
int trace_main(int argc, char **argv);

#endif
