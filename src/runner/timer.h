/*
 * timer.h - the clocks copyscope measures with.
 *
 * The core owns every clock read; workloads never time themselves.  Three
 * sources, best first:
 *   - "cycles": core cycles read from user space through a perf_event mmap
 *     page (PERF_COUNT_HW_CPU_CYCLES), honouring the page's seqlock
 *     protocol: rdpmc on x86, mrs pmccntr_el0 (or pmevcntr<n>_el0) on
 *     arm64 where perf_user_access allows it;
 *   - "tsc-cycles": the time-stamp counter read with lfence;rdtsc;lfence,
 *     calibrated against CLOCK_MONOTONIC_RAW;
 *   - "cntvct-ticks" (arm64): the generic timer's CNTVCT_EL0 read between
 *     isb barriers, at CNTFRQ_EL0;
 *   - "ns": clock_gettime(CLOCK_MONOTONIC_RAW), the last resort.
 * Whichever is chosen, ticks convert to nanoseconds through the TSC (or
 * 1:1 for "ns"), so every result has a time in ns and, where the source
 * counts cycles, a count in that unit.
 */
#ifndef COPYSCOPE_TIMER_H
#define COPYSCOPE_TIMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum timer_source {
	TIMER_CLOCK_NS = 0,	/* clock_gettime(CLOCK_MONOTONIC_RAW) */
	TIMER_TSC = 1,		/* lfence+rdtsc */
	TIMER_RDPMC = 2,	/* rdpmc on a perf_event page, core cycles */
	TIMER_CNTVCT = 3,	/* arm64: isb;mrs cntvct_el0;isb */
};

/*
 * The state of the process-wide clock, filled by timer_init().
 * tsc_hz is 0 when the TSC is not usable.
 */
struct timer_info {
	enum timer_source source;	/* what timer_ticks() reads */
	const char *unit;		/* "ns", "tsc-cycles" or "cycles" */
	double tsc_hz;			/* calibrated TSC frequency */
	double ns_per_tick;		/* for the chosen source (1.0 for ns) */
	double overhead_ticks;		/* median cost of one timer read pair */
	double overhead_ns;
	bool tsc_invariant;		/* CPUID says constant+nonstop TSC */
	bool tsc_cross_cpu_ok;		/* monotonic across all online CPUs */
	char fallback_note[256];	/* why a better source was not used */
	/*
	 * Whether core cycles can be read from user space here, asked or
	 * not (the environment's timer.cycles): "yes: PMCCNTR_EL0, 31139
	 * cycles a read pair" or "no: <why>".
	 */
	char cycles[256];
	double cycles_hz;		/* arm64 cycles source: measured rate */
};

/*
 * Choose and calibrate the clock.  want_cycles asks for rdpmc core cycles
 * (falls back to the TSC when perf_event_open or rdpmc is refused; the
 * fallback is written to info->fallback_note and, once, to stderr when
 * announce is true).  Calibration takes about 50 ms.  Returns 0 on success,
 * -1 if no clock at all could be read (never happens on Linux).
 */
int timer_init(bool want_cycles, bool announce, struct timer_info *info);

/*
 * Added: prepare the calling thread (or forked process) to read the clock.
 * In rdpmc mode the cycle count is per thread: the perf event and its mmap
 * page opened by timer_init() belong to the thread that called it, and
 * rdpmc readings are valid only on that thread.  Every other thread or
 * child process must call this once before timing (timer_ticks() calls it
 * lazily otherwise, paying a syscall inside the first reading).  Returns 0,
 * or -1 if the event could not be opened (readings in that thread then
 * fall back to the TSC).  In TSC and ns modes it does nothing and
 * returns 0.
 */
int timer_thread_init(void);

/*
 * The counter for the timer line, in buf: "TSC 2.100 GHz" on x86,
 * "CNTVCT_EL0 1000.000 MHz, 1.0 ns a tick" on arm64 (its resolution).
 */
void timer_counter_text(const struct timer_info *ti, char *buf,
			size_t len);

/* The info filled by the last timer_init(). */
const struct timer_info *timer_get_info(void);

/* Read the chosen clock: fenced, usable around any code. */
uint64_t timer_ticks(void);

/* Convert a tick difference to nanoseconds. */
double timer_ticks_to_ns(uint64_t ticks);

/* Plain fenced TSC read (lfence; rdtsc; lfence). */
uint64_t timer_rdtsc(void);

/* CLOCK_MONOTONIC_RAW in ns. */
uint64_t timer_mono_raw_ns(void);

/*
 * The rdpmc read protocol over a perf_event_mmap_page, split out so that it
 * can be unit-tested against a synthetic page (no machine here has a PMU).
 * Follows the kernel's documented loop in include/uapi/linux/perf_event.h:
 *   do { seq = pc->lock; barrier();
 *        idx = pc->index; count = pc->offset;
 *        if (pc->cap_user_rdpmc && idx) {
 *            width = pc->pmc_width;
 *            pmc = rdpmc(idx - 1);
 *            pmc <<= 64 - width; pmc >>= 64 - width;   (sign-extend)
 *            count += pmc; }
 *        barrier(); } while (pc->lock != seq);
 * read_pmc is the counter read (rdpmc in production, a fake in tests).
 * Returns 0 and stores the count, or -1 when the page does not allow user
 * reads (cap_user_rdpmc clear or index 0).
 */
struct perf_event_mmap_page;
int timer_rdpmc_read_page(volatile struct perf_event_mmap_page *pc,
			  uint64_t (*read_pmc)(uint32_t counter),
			  uint64_t *count);

/*
 * The PMU counter a perf page's index names (the page's index is the
 * counter plus one; 0: none), into buf.  arm64: 32 is the cycle counter
 * "PMCCNTR_EL0", n + 1 (n < 31) is "PMEVCNTR<n>_EL0"; x86: "rdpmc counter
 * N" or "rdpmc fixed counter N" (bit 30 of rdpmc's ecx).  Returns 0, or
 * -1 when the index names no counter (0, or above 32 on arm64).
 */
int timer_pmc_register(bool arm64, uint32_t index, char *buf, size_t len);

/*
 * A counter of width bits (the page's pmc_width) sign-extended to 64
 * bits, modulo 2^64; width 0 or 64 leaves it as it is.
 */
uint64_t timer_pmc_extend(uint64_t pmc, uint16_t width);

/* Why user-space cycle reads are refused here: what setup found. */
struct timer_cycles_why {
	bool arm64;		/* the reads are arm64's (perf_user_access) */
	bool no_arch;		/* no user-space read on this architecture */
	int open_errno;		/* perf_event_open's errno; 0: it opened */
	int mmap_errno;		/* the page's mmap's errno; 0: mapped */
	bool page_refused;	/* opened and mapped, but no user read */
	uint32_t cap_user_rdpmc, index;	/* the refusing page's */
	int user_access;	/* /proc/sys/kernel/perf_user_access; -1: none */
	int paranoid;		/* perf_event_paranoid; INT_MIN: none */
};

/* The text of a refusal, "no: <why>", into buf (timer_info.cycles). */
void timer_cycles_refused_text(const struct timer_cycles_why *why,
			       char *buf, size_t len);

/*
 * Pure arithmetic for tests: the tick->ns factor given a tick delta and
 * the matching CLOCK_MONOTONIC_RAW delta, and the TSC frequency.
 */
double timer_calc_hz(uint64_t ticks, uint64_t ns);

#endif
