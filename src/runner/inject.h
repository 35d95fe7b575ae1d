/*
 * inject.h - a calibrated slowdown, for testing the comparison only: a
 * workload with the inject_ns row (WL_PARAM_INJECT, WL_CAP_INJECT) calls
 * wl_inject() after each op, which busy-waits about inject_ns when the
 * core has switched the injection on.
 *
 * The core calibrates the busy-wait loop (iterations per ns, outside any
 * sample) and measures what the injection really adds, in place: after
 * the warm-up it takes pairs of samples at the batch size of the run, one
 * with the injection off and one on, in alternating order, and stores the
 * median added time per op with its 95% error and the time per op without
 * it (struct config_result's inject_*).  A test that asks for 3% thereby
 * knows it injected 3% +- its own error; the kept samples then run with
 * the injection on.
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

	if (c->inject_iters && c->inject_on &&
	    atomic_load_explicit(c->inject_on, memory_order_relaxed))
		inject_spin(c->inject_iters);
}

#endif
