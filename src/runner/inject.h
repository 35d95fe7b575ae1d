/*
 * inject.h - a calibrated slowdown, for testing the comparison only: a
 * workload with the inject_ns row (WL_PARAM_INJECT, WL_CAP_INJECT) passes
 * each op's result through wl_inject(), a wait of a number of steps that
 * is data: inject_ns=0 runs the same instructions as inject_ns=100, with
 * zero steps.
 *
 * One step is one dependent single-cycle instruction in a straight run of
 * them (a sled, entered at the step count by an indirect jump whose
 * target is the same for every op, so the wait has no loop branch to
 * mispredict).  The wait is fenced at both ends (lfence on x86-64, which
 * Linux makes dispatch-serializing on AMD too; isb on arm64): it starts
 * only once the op has finished and the next op starts only once it has,
 * so the core cannot run the steps in the shadow of the op (without the
 * fences, 100 ns asked after a gettid delivered about half), and the
 * front end, which fetches on while the fence waits, never leaves a step
 * hidden.  The wait also starts from the op's result and sys.null feeds
 * its end, masked to zero, into the next call, so neither the compiler
 * nor the core may move the op across it.
 *
 * The core times the steps alone at start-up (inject_step_ns(): the
 * fastest of many runs of the whole sled against the empty one), asks
 * round(inject_ns / step) steps, and then measures what they deliver in
 * place: pairs of samples at the run's batch size, zero steps and the
 * asked steps in alternating order (runner_batch.c), stored as
 * config_result's inject_* and printed as "inject delivered ...".
 */
#ifndef COPYSCOPE_INJECT_H
#define COPYSCOPE_INJECT_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/workload.h"

/* The longest straight run of steps; longer waits run it several times. */
#define INJECT_SLED_STEPS UINT64_C(4096)

/*
 * Run steps (at most INJECT_SLED_STEPS) dependent steps on x and return
 * the result, which depends on x and on every step.
 */
uint64_t inject_sled(uint64_t x, uint64_t steps);

/* Run steps dependent steps on x (any number) and return the result. */
static inline uint64_t inject_wait(uint64_t x, uint64_t steps)
{
	while (steps > INJECT_SLED_STEPS) {
		x = inject_sled(x, INJECT_SLED_STEPS);
		steps -= INJECT_SLED_STEPS;
	}
	return inject_sled(x, steps);
}

/*
 * What one step costs on this CPU, ns: the fastest of many timed runs of
 * the whole sled less the empty one (the fastest is the loop's own speed;
 * slower ones were interrupted).
 */
double inject_step_ns(void);

/* The steps that best deliver ns at step_ns per step (0 for ns <= 0). */
uint64_t inject_steps_for(double ns, double step_ns);

/* Always 0; volatile, so that the compiler cannot fold inject_zero(). */
extern volatile uint64_t inject_zero_mask;

/*
 * x masked to zero in a way neither the compiler nor the core sees
 * through: adding it to the next op's argument makes that op wait for
 * the wait's end.
 */
static inline uint64_t inject_zero(uint64_t x)
{
	return x & inject_zero_mask;
}

/*
 * After an op of a workload with WL_CAP_INJECT, whatever inject_ns is:
 * the wait on x (the op's result) of the steps the core set now (0
 * without an injection: the fences and the jump still run); returns its
 * end.
 */
static inline uint64_t wl_inject(const struct wl_worker *w, uint64_t x)
{
	const struct wl_ctx *c = w->ctx;
	uint64_t n = c->inject_on ? atomic_load_explicit(c->inject_on,
						memory_order_relaxed) : 0;

	return inject_wait(x, n);
}

#endif
