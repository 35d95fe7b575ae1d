/*
 * inject.c - the wait of a calibrated injection (a sled of dependent
 * single-cycle steps) and the timing of one step (see inject.h).
 */
#include "runner/inject.h"

#include <math.h>

#include "runner/timer.h"

volatile uint64_t inject_zero_mask;

/* Keeps the timed waits' results alive. */
static volatile uint64_t inject_sink;

/*
 * inject_sled(x, steps): jump to steps instructions before the sled's end
 * and run the rest, each one dependent on the one before.  The jump's
 * target is the same for every op of a run, so it is predicted.  The
 * sled ends at offset INJECT_SLED_END_OFS of a page and the entry code
 * follows its end on that page, so that a wait of up to about 1300 steps
 * (400 ns) runs on one code page, the same page as the empty wait: where
 * a system call flushes the TLB (page-table isolation without PCIDs, a
 * PVM guest), a longer sled would pay an instruction-TLB miss per page
 * it crosses, a step in the added time that no calibration sees.  The
 * steps are the local function inject_sled_steps, so that a profile's
 * user frames name them (kernel/usyms.h).
 */
#define INJECT_SLED_END_OFS "3900"
#if defined(__x86_64__)
/* not %rdi: 3 bytes (48 f7 d7), latency one cycle, no flags */
__asm__(".text\n"
	"	.balign	4096\n"
	"	.skip	" INJECT_SLED_END_OFS ", 0xcc\n"
	".type inject_sled_steps, @function\n"
	"inject_sled_steps:\n"
	"	.rept	4096\n"
	"	not	%rdi\n"
	"	.endr\n"
	".Linject_sled_end:\n"
	"	mov	%rdi, %rax\n"
	"	lfence\n"
	"	ret\n"
	".size inject_sled_steps, .-inject_sled_steps\n"
	".globl inject_sled\n"
	".type inject_sled, @function\n"
	"inject_sled:\n"
	"	lfence\n"
	"	lea	.Linject_sled_end(%rip), %rax\n"
	"	lea	(%rsi,%rsi,2), %rdx\n"
	"	sub	%rdx, %rax\n"
	"	jmp	*%rax\n"
	".size inject_sled, .-inject_sled\n");
#elif defined(__aarch64__)
/* mvn x0, x0 (not): 4 bytes, latency one cycle */
__asm__(".text\n"
	"	.balign	4096\n"
	"	.skip	" INJECT_SLED_END_OFS ", 0\n"
	".type inject_sled_steps, %function\n"
	"inject_sled_steps:\n"
	"	.rept	4096\n"
	"	mvn	x0, x0\n"
	"	.endr\n"
	".Linject_sled_end:\n"
	"	isb\n"
	"	ret\n"
	".size inject_sled_steps, .-inject_sled_steps\n"
	".globl inject_sled\n"
	".type inject_sled, %function\n"
	"inject_sled:\n"
	"	isb\n"
	"	adr	x2, .Linject_sled_end\n"
	"	sub	x2, x2, x1, lsl #2\n"
	"	br	x2\n"
	".size inject_sled, .-inject_sled\n");
#else
/* elsewhere a loop: its exit branch is the one cost the sled avoids */
uint64_t inject_sled(uint64_t x, uint64_t steps)
{
	uint64_t i;

	for (i = 0; i < steps; i++) {
		x = ~x;
		__asm__ __volatile__("" : "+r"(x));
	}
	return x;
}
#endif

_Static_assert(INJECT_SLED_STEPS == 4096, "the sleds above have 4096 steps");

/* Calls per timed run, and runs (the fastest counts). */
#define STEP_CALLS 64
#define STEP_RUNS 41

/* ns of STEP_CALLS waits of steps steps. */
static double timed_calls(uint64_t steps)
{
	uint64_t t0, t1, x = 1;
	int i;

	t0 = timer_mono_raw_ns();
	for (i = 0; i < STEP_CALLS; i++)
		x = inject_sled(x, steps);
	t1 = timer_mono_raw_ns();
	inject_sink = x;
	return t1 > t0 ? (double)(t1 - t0) : 0.0;
}

double inject_step_ns(void)
{
	double full = INFINITY, empty = INFINITY, d;
	int k;

	timed_calls(INJECT_SLED_STEPS);	/* page it in, warm the caches */
	for (k = 0; k < STEP_RUNS; k++) {
		d = timed_calls(INJECT_SLED_STEPS);
		if (d > 0 && d < full)
			full = d;
		d = timed_calls(0);
		if (d < empty)
			empty = d;
	}
	if (!isfinite(full))
		return 0.0;
	d = (full - (isfinite(empty) ? empty : 0.0)) /
	    ((double)STEP_CALLS * INJECT_SLED_STEPS);
	return d > 0 ? d : 0.0;
}

uint64_t inject_steps_for(double ns, double step_ns)
{
	if (!(ns > 0) || !(step_ns > 0))
		return 0;
	return (uint64_t)(ns / step_ns + 0.5);
}
