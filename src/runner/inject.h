/*
 * inject.h - a calibrated slowdown, for testing the comparison only: a
 * workload with the inject_ns row (WL_PARAM_INJECT, WL_CAP_INJECT) calls
 * wl_inject() after each op, which busy-waits about inject_ns when the
 * core has switched the injection on.
 *
 * The core calibrates the busy-wait loop (iterations per ns, outside any
 * sample), then fits it in place, since a short wait partly overlaps the
 * op on an out-of-order core (runner_batch.c): after the warm-up, pairs
 * of samples at the batch size of the run, one with the injection off and
 * one on, at two iteration counts, give a line of added time against
 * iterations; the iterations where it crosses inject_ns are measured
 * again the same way, and the median added time per op with its 95%
 * error and the time per op without it are stored (struct
 * config_result's inject_*).  A test that asks for 3% thereby injects
 * about 3% and knows it to +- its own error; the kept samples then run
 * with the injection on.
 */
#ifndef COPYSCOPE_INJECT_H
#define COPYSCOPE_INJECT_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/workload.h"

/* The busy-wait: iters dependent multiply-adds. */
void inject_spin(uint64_t iters);

/*
 * Busy-wait iterations per ns on this CPU: the fastest of five timed runs
 * (the fastest is the loop's own speed; slower ones were interrupted).
 */
double inject_iters_per_ns(void);

/* After an op of a workload with WL_CAP_INJECT: the injected wait. */
static inline void wl_inject(const struct wl_worker *w)
{
	const struct wl_ctx *c = w->ctx;
	uint64_t n;

	if (c->inject_iters && c->inject_on &&
	    (n = atomic_load_explicit(c->inject_on, memory_order_relaxed)))
		inject_spin(n);
}

#endif
