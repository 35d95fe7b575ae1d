/*
 * inject.c - the busy-wait of a calibrated injection and its calibration
 * (see inject.h).
 */
#include "runner/inject.h"

#include "runner/timer.h"

/* Keeps the loop's result alive. */
static volatile uint64_t inject_sink;

void inject_spin(uint64_t iters)
{
	uint64_t x = inject_sink | 1, i;

	for (i = 0; i < iters; i++) {
		/* one dependent multiply-add per iteration */
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ __volatile__("" : "+r"(x));
	}
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
