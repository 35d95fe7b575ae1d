/*
 * inject.c - the busy-wait of a calibrated injection and its calibration
 * (see inject.h).
 */
#include "runner/inject.h"

#include "runner/timer.h"

/* Keeps the loop's result alive. */
static volatile uint64_t inject_sink;

/*
 * lfence: later instructions start only once every earlier one has
 * completed.  Without it the chain below depends on nothing the op did,
 * so an out-of-order core runs it in the shadow of the op's own tail
 * (a syscall's return, a pipe write's copy) and of the next op's start:
 * a short wait then added a fraction of what it asked (+1.3% measured
 * for +3% asked on gettid).  Fenced on both sides, the wait is added
 * whole, plus the two fences (a few ns), which the in-place measurement
 * includes.
 */
static inline void inject_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("lfence" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

void inject_spin(uint64_t iters)
{
	uint64_t x = inject_sink | 1, i;

	inject_fence();
	for (i = 0; i < iters; i++) {
		/* one dependent multiply-add per iteration */
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ __volatile__("" : "+r"(x));
	}
	inject_fence();
	inject_sink = x;
}

double inject_iters_per_ns(void)
{
	double best = 0;
	int k;

	for (k = 0; k < 5; k++) {
		uint64_t t0 = timer_mono_raw_ns(), t1;
		double rate;

		inject_spin(200000);
		t1 = timer_mono_raw_ns();
		rate = t1 > t0 ? 200000.0 / (double)(t1 - t0) : 0.0;
		if (rate > best)
			best = rate;
	}
	return best;
}
