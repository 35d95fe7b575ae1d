/*
 * timer_calib.c - the timer's calibration and checks (see timer_priv.h):
 * the TSC's or CNTVCT_EL0's rate against CLOCK_MONOTONIC_RAW, its
 * monotonicity across CPUs, and a per-thread counter's rate (core
 * cycles) over busy windows; and the user-space cycle read's words: which
 * register a perf page's index names (timer_pmc_register) and why the
 * kernel refused (timer_cycles_refused_text).  Split out of timer.c,
 * which keeps the sources and the hot path; timer_init() calls these
 * once, never while measuring.
 */
#include "runner/timer_priv.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if TIMER_HAVE_TSC && !TIMER_ARM64
#include <cpuid.h>
#endif

#include "runner/timer.h"
#include "util/sort.h"

#define CALIB_WINDOWS		5
#define CALIB_WINDOW_NS		10000000ull	/* 10 ms per window */
#define CALIB_BRACKET_TRIES	8
#define CROSS_CPU_ROUNDS	4

#if TIMER_ARM64
/* The generic timer counts at a constant rate by the architecture. */
bool timer_calib_tsc_invariant(void)
{
	return true;
}

double timer_calib_cntfrq_hz(void)
{
	uint64_t f;

	asm volatile("mrs %0, cntfrq_el0" : "=r"(f));
	return (double)f;
}
#elif TIMER_HAVE_TSC
bool timer_calib_tsc_invariant(void)
{
	unsigned int a, b, c, d;

	/* __get_cpuid checks the maximum extended leaf first. */
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d))
		return false;
	return (d >> 8) & 1;	/* EDX bit 8: invariant TSC */
}

double timer_calib_cntfrq_hz(void)
{
	return 0.0;
}
#else
bool timer_calib_tsc_invariant(void)
{
	return false;
}

double timer_calib_cntfrq_hz(void)
{
	return 0.0;
}
#endif

/*
 * Read the TSC bracketed by two CLOCK_MONOTONIC_RAW reads, keeping the
 * tightest bracket of a few tries; *ns is the bracket's midpoint.
 */
static uint64_t tsc_bracket(uint64_t *ns)
{
	uint64_t best_gap = UINT64_MAX, best_tsc = 0, best_ns = 0;
	int i;

	for (i = 0; i < CALIB_BRACKET_TRIES; i++) {
		uint64_t m0 = timer_mono_raw_ns();
		uint64_t t = timer_rdtsc();
		uint64_t m1 = timer_mono_raw_ns();

		if (m1 - m0 < best_gap) {
			best_gap = m1 - m0;
			best_tsc = t;
			best_ns = m0 + (m1 - m0) / 2;
		}
	}
	*ns = best_ns;
	return best_tsc;
}

double timer_calib_tsc_hz(void)
{
	double hz[CALIB_WINDOWS];
	int i, n = 0;

	for (i = 0; i < CALIB_WINDOWS; i++) {
		struct timespec ts = { 0, (long)CALIB_WINDOW_NS };
		uint64_t n0, n1, t0, t1;

		t0 = tsc_bracket(&n0);
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
		t1 = tsc_bracket(&n1);
		if (n1 <= n0 || t1 <= t0)
			continue;
		hz[n++] = timer_calc_hz(t1 - t0, n1 - n0);
	}
	if (n == 0)
		return 0.0;
	qsort(hz, (size_t)n, sizeof(hz[0]), util_cmp_double);
	return hz[n / 2];
}

/*
 * This catches offsets larger than a migration (microseconds), not finer
 * skew: the reads, taken one after another in time, must never go
 * backwards.
 */
bool timer_calib_cross_cpu(void)
{
	cpu_set_t orig, one;
	uint64_t last = 0;
	bool ok = true;
	int round, cpu, visited = 0;

	if (sched_getaffinity(0, sizeof(orig), &orig) != 0)
		return false;
	for (round = 0; round < CROSS_CPU_ROUNDS && ok; round++) {
		for (cpu = 0; cpu < CPU_SETSIZE && ok; cpu++) {
			uint64_t t;

			if (!CPU_ISSET(cpu, &orig))
				continue;
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			if (sched_setaffinity(0, sizeof(one), &one) != 0)
				continue;	/* CPU went away; skip it */
			visited++;
			t = timer_rdtsc();
			if (t < last)
				ok = false;
			last = t;
			t = timer_rdtsc();
			if (t < last)
				ok = false;
			last = t;
		}
	}
	if (sched_setaffinity(0, sizeof(orig), &orig) != 0) {
		perror("copyscope: restoring CPU affinity");
		ok = false;
	}
	return ok && visited > 0;
}

double timer_calib_busy_hz(uint64_t (*read)(void), uint64_t window_ns)
{
	double hz[CALIB_WINDOWS];
	int i, n = 0;

	for (i = 0; i < CALIB_WINDOWS; i++) {
		uint64_t n0 = timer_mono_raw_ns(), c0 = read(), c1, n1;

		do
			n1 = timer_mono_raw_ns();
		while (n1 - n0 < window_ns);
		c1 = read();
		n1 = timer_mono_raw_ns();
		if (n1 <= n0 || c1 <= c0)
			continue;
		hz[n++] = timer_calc_hz(c1 - c0, n1 - n0);
	}
	if (n == 0)
		return 0.0;
	qsort(hz, (size_t)n, sizeof(hz[0]), util_cmp_double);
	return hz[n / 2];
}

/* An integer sysctl under /proc/sys/kernel, or fallback when absent. */
int timer_calib_kernel_sysctl(const char *name, int fallback)
{
	char path[128], line[32], *end;
	FILE *f;
	long v;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	f = fopen(path, "r");
	if (!f)
		return fallback;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return fallback;
	}
	fclose(f);
	errno = 0;
	v = strtol(line, &end, 10);
	if (end == line || errno || v < INT_MIN || v > INT_MAX)
		return fallback;
	return (int)v;
}

int timer_pmc_register(bool arm64, uint32_t index, char *buf, size_t len)
{
	uint32_t c = index - 1;

	if (index == 0) {
		snprintf(buf, len, "no counter (index 0)");
		return -1;
	}
	if (arm64 && index == 32)
		snprintf(buf, len, "PMCCNTR_EL0");
	else if (arm64 && index <= 31)
		snprintf(buf, len, "PMEVCNTR%u_EL0", c);
	else if (arm64)
		snprintf(buf, len, "no arm64 counter (index %u)", index);
	else if (c & (UINT32_C(1) << 30))
		snprintf(buf, len, "rdpmc fixed counter %u",
			 c & ~(UINT32_C(1) << 30));
	else
		snprintf(buf, len, "rdpmc counter %u", c);
	return arm64 && index > 32 ? -1 : 0;
}

void timer_cycles_refused_text(const struct timer_cycles_why *w, char *buf,
			       size_t len)
{
	int e = w->open_errno;

	if (w->no_arch)
		snprintf(buf, len, "no: user-space cycle reads are "
			 "implemented on x86 and arm64 only");
	else if (w->mmap_errno)
		snprintf(buf, len, "no: mmap of the cpu-cycles event's page: "
			 "%s", strerror(w->mmap_errno));
	else if (w->page_refused && w->arm64 && w->user_access == 0)
		snprintf(buf, len, "no: /proc/sys/kernel/perf_user_access is "
			 "0: the kernel does not let user space read the PMU "
			 "(sysctl kernel.perf_user_access=1 allows it)");
	else if (w->page_refused && w->arm64 && w->user_access < 0)
		snprintf(buf, len, "no: the perf page allows no user read "
			 "(cap_user_rdpmc %u, index %u) and there is no "
			 "/proc/sys/kernel/perf_user_access (before Linux "
			 "5.18 user space cannot read the arm64 PMU)",
			 w->cap_user_rdpmc, w->index);
	else if (w->page_refused && w->arm64)
		snprintf(buf, len, "no: the perf page allows no user read "
			 "(cap_user_rdpmc %u, index %u, perf_user_access %d): "
			 "the cycle counter taken by another event?",
			 w->cap_user_rdpmc, w->index, w->user_access);
	else if (w->page_refused)
		snprintf(buf, len, "no: rdpmc not allowed on the cpu-cycles "
			 "page (cap_user_rdpmc %u, index %u: "
			 "/sys/bus/event_source/devices/cpu/rdpmc is 0?)",
			 w->cap_user_rdpmc, w->index);
	else if (e == ENOSYS)
		snprintf(buf, len, "no: perf_event_open: %s (a kernel without "
			 "perf events, or an emulator that does not pass the "
			 "call on, as qemu-user does not)", strerror(e));
	else if (e == ENOENT || e == ENODEV || e == EOPNOTSUPP)
		snprintf(buf, len, "no: perf_event_open(cpu-cycles): %s (no "
			 "PMU here: no hardware cycle event, as in a VM "
			 "without a virtual PMU)", strerror(e));
	else if ((e == EACCES || e == EPERM) && w->paranoid != INT_MIN)
		snprintf(buf, len, "no: perf_event_open(cpu-cycles): %s "
			 "(perf_event_paranoid is %d)", strerror(e),
			 w->paranoid);
	else
		snprintf(buf, len, "no: perf_event_open(cpu-cycles): %s",
			 strerror(e));
}
