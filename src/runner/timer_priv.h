/*
 * timer_priv.h - inside the timer (runner/timer*.c only): the calibration
 * and probing helpers of timer_calib.c that timer.c's timer_init() uses.
 * Nothing here is on the hot path.
 */
#ifndef COPYSCOPE_TIMER_PRIV_H
#define COPYSCOPE_TIMER_PRIV_H

#include <stdbool.h>
#include <stdint.h>

/*
 * TIMER_HAVE_TSC: a constant-rate counter readable from user space: the
 * TSC on x86, the generic timer's virtual count CNTVCT_EL0 (at CNTFRQ_EL0)
 * on arm64.  TIMER_ARM64 selects the arm64 reads.
 */
#if defined(__x86_64__) || defined(__i386__)
#define TIMER_HAVE_TSC 1
#define TIMER_ARM64 0
#elif defined(__aarch64__)
#define TIMER_HAVE_TSC 1
#define TIMER_ARM64 1
#else
#define TIMER_HAVE_TSC 0
#define TIMER_ARM64 0
/* An integer sysctl of /proc/sys/kernel (name), or fallback when absent. */
int timer_calib_kernel_sysctl(const char *name, int fallback);

#endif

/* CPUID's invariant TSC bit on x86; true on arm64 (by the architecture). */
bool timer_calib_tsc_invariant(void);

/* arm64: CNTFRQ_EL0, the counter's rate as firmware set it (Hz); else 0. */
double timer_calib_cntfrq_hz(void);

/*
 * The TSC's (or CNTVCT_EL0's) rate against CLOCK_MONOTONIC_RAW: the
 * median of five ~10 ms windows across a sleep, each counter read
 * bracketed by two clock reads.  0 when no window could be measured.
 */
double timer_calib_tsc_hz(void);

/*
 * Pin this thread to each allowed CPU in turn, reading the TSC on each:
 * false when a read went backwards (or no CPU could be visited).  The
 * original affinity is restored.
 */
bool timer_calib_cross_cpu(void);

/*
 * The rate of a per-thread counter read by read(): the median of five
 * busy windows of window_ns against CLOCK_MONOTONIC_RAW (busy because
 * a thread's cycle counter stops while it sleeps).  0 on failure.
 */
double timer_calib_busy_hz(uint64_t (*read)(void), uint64_t window_ns);

/* An integer sysctl of /proc/sys/kernel (name), or fallback when absent. */
int timer_calib_kernel_sysctl(const char *name, int fallback);

#endif
