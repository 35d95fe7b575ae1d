/*
 * timer.c - the clocks copyscope measures with (see timer.h and
 * docs/methodology.md).
 *
 * timer_init() picks one of three sources and calibrates it:
 *   TIMER_RDPMC     core cycles, rdpmc on a perf_event mmap page;
 *   TIMER_TSC       lfence;rdtsc;lfence, calibrated against
 *                   CLOCK_MONOTONIC_RAW;
 *   TIMER_CLOCK_NS  clock_gettime(CLOCK_MONOTONIC_RAW).
 * rdtscp is never used: some hypervisors let it execute without reporting
 * it in CPUID and hand back the host's CPU id in ecx.
 *
 * rdpmc counts are per thread: the perf event (and its mmap page) belongs
 * to the thread that opened it.  timer_init() opens one for the calling
 * thread; every other thread or forked process that reads the clock in
 * rdpmc mode must call timer_thread_init() first (timer_ticks() does it
 * lazily on the first read if it was not done, which costs a syscall or
 * two inside whatever that first read brackets).  A fork() child drops the
 * parent's page (perf pages are not copied across fork) through a
 * pthread_atfork handler.
 *
 * timer_init() must run before other threads read the clock: the chosen
 * source and its factor are plain process-wide variables.
 *
 * The hot path (timer_ticks) is one switch on a static variable and an
 * inline asm read; nothing in it allocates or makes a syscall except the
 * clock_gettime vDSO call of the "ns" source.
 */
#include "runner/timer.h"

#include <errno.h>
#include <stdarg.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/sort.h"

/*
 * TIMER_HAVE_TSC: a constant-rate counter readable from user space: the
 * TSC on x86, the generic timer's virtual count CNTVCT_EL0 (at CNTFRQ_EL0)
 * on arm64.  TIMER_ARM64 selects the arm64 reads.
 */
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define TIMER_HAVE_TSC 1
#define TIMER_ARM64 0
#elif defined(__aarch64__)
#define TIMER_HAVE_TSC 1
#define TIMER_ARM64 1
#else
#define TIMER_HAVE_TSC 0
#define TIMER_ARM64 0
#endif

#define CALIB_WINDOWS		5
#define CALIB_WINDOW_NS		10000000ull	/* 10 ms per window */
#define CALIB_BRACKET_TRIES	8
#define CROSS_CPU_ROUNDS	4
#define OVERHEAD_PAIRS		10000

/* Process-wide state, written only by timer_init(). */
static enum timer_source g_source = TIMER_CLOCK_NS;
static double g_ns_per_tick = 1.0;
static struct timer_info g_info = {
	.source = TIMER_CLOCK_NS,
	.unit = "ns",
	.ns_per_tick = 1.0,
};
static struct perf_event_attr g_cycles_attr;	/* the attr that opened */
static bool g_announced;
static bool g_atfork_done;

/* Per-thread rdpmc state: this thread's cycles event and its page. */
static __thread int tls_fd = -1;
static __thread struct perf_event_mmap_page *tls_pc;
static size_t g_page_size;

static void barrier(void)
{
	asm volatile("" ::: "memory");
}

uint64_t timer_rdtsc(void)
{
#if TIMER_ARM64
	uint64_t v;

	/*
	 * isb before: earlier instructions complete before the counter is
	 * sampled; isb after: later ones do not start before it.
	 */
	asm volatile("isb\n\tmrs %0, cntvct_el0\n\tisb"
		     : "=r"(v) : : "memory");
	return v;
#elif TIMER_HAVE_TSC
	uint32_t lo, hi;

	/*
	 * The first lfence keeps earlier loads from drifting past the read,
	 * the second keeps later instructions from starting before it.
	 */
	asm volatile("lfence\n\trdtsc\n\tlfence"
		     : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
#else
	return timer_mono_raw_ns();
#endif
}

uint64_t timer_mono_raw_ns(void)
{
	struct timespec ts;

	/* Cannot fail for a valid clock id and pointer; zeroed just in case. */
	if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#if TIMER_HAVE_TSC && !TIMER_ARM64
static uint64_t rdpmc_insn(uint32_t counter)
{
	uint32_t lo, hi;

	asm volatile("lfence\n\trdpmc\n\tlfence"
		     : "=a"(lo), "=d"(hi) : "c"(counter) : "memory");
	return ((uint64_t)hi << 32) | lo;
}
#else
static uint64_t rdpmc_insn(uint32_t counter)
{
	(void)counter;
	return 0;
}
#endif

/*
 * The seqlock loop from include/uapi/linux/perf_event.h.  static inline so
 * that the production path, which passes rdpmc_insn, gets it inlined
 * rather than called through a pointer.
 */
static inline int rdpmc_read_page(volatile struct perf_event_mmap_page *pc,
				  uint64_t (*read_pmc)(uint32_t counter),
				  uint64_t *count)
{
	uint32_t seq, idx;
	uint64_t cnt;
	int ok;

	do {
		seq = pc->lock;
		barrier();
		idx = pc->index;
		cnt = (uint64_t)pc->offset;
		ok = pc->cap_user_rdpmc && idx != 0;
		if (ok) {
			uint16_t width = pc->pmc_width;
			uint64_t pmc = read_pmc(idx - 1);

			/*
			 * The counter is width bits wide; sign-extend it
			 * modulo 2^64 (keep the low width bits, then
			 * (x ^ m) - m with m the sign bit), in unsigned
			 * arithmetic: no implementation-defined right shift
			 * of a negative value.  offset is chosen by the
			 * kernel so that offset + sign-extended pmc is the
			 * count.
			 */
			if (width > 0 && width < 64) {
				uint64_t m = UINT64_C(1) << (width - 1);

				pmc &= (UINT64_C(1) << width) - 1;
				pmc = (pmc ^ m) - m;
			}
			cnt += pmc;
		}
		barrier();
	} while (pc->lock != seq);

	if (!ok)
		return -1;
	*count = cnt;
	return 0;
}

int timer_rdpmc_read_page(volatile struct perf_event_mmap_page *pc,
			  uint64_t (*read_pmc)(uint32_t counter),
			  uint64_t *count)
{
	return rdpmc_read_page(pc, read_pmc, count);
}

double timer_calc_hz(uint64_t ticks, uint64_t ns)
{
	/* ticks per ns times 1e9 ns per second = ticks per second. */
	if (ns == 0)
		return 0.0;
	return (double)ticks * 1e9 / (double)ns;
}

static long perf_open(struct perf_event_attr *attr)
{
	/* This thread (pid 0), any CPU, no group, no flags. */
	return syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
}

static void thread_release(void)
{
	if (tls_pc) {
		if (munmap(tls_pc, g_page_size) != 0)
			perror("copyscope: munmap(perf page)");
		tls_pc = NULL;
	}
	if (tls_fd >= 0) {
		if (close(tls_fd) != 0)
			perror("copyscope: close(perf fd)");
		tls_fd = -1;
	}
}

/*
 * Open g_cycles_attr for the calling thread and map its page.  Returns 0;
 * -1 with errno set when perf_event_open or mmap fails; -2 when the page
 * does not allow user reads.  Nothing is left open on failure.
 */
static int thread_open_cycles(void)
{
	struct perf_event_attr attr = g_cycles_attr;
	uint64_t cnt;
	long fd;
	void *p;
	int err;

	fd = perf_open(&attr);
	if (fd < 0)
		return -1;
	p = mmap(NULL, g_page_size, PROT_READ, MAP_SHARED, (int)fd, 0);
	if (p == MAP_FAILED) {
		err = errno;
		if (close((int)fd) != 0)
			perror("copyscope: close(perf fd)");
		errno = err;
		return -1;
	}
	tls_fd = (int)fd;
	tls_pc = p;
	if (rdpmc_read_page(tls_pc, rdpmc_insn, &cnt) != 0) {
		thread_release();
		return -2;
	}
	return 0;
}

int timer_thread_init(void)
{
	if (g_source != TIMER_RDPMC)
		return 0;
	if (tls_pc)
		return 0;
	return thread_open_cycles() == 0 ? 0 : -1;
}

/* In a fork() child the parent's perf page is gone (not copied). */
static void atfork_child(void)
{
	tls_pc = NULL;
	if (tls_fd >= 0) {
		/* The parent's event; the child must not read or keep it. */
		if (close(tls_fd) != 0)
			perror("copyscope: close(inherited perf fd)");
		tls_fd = -1;
	}
}

/* Slow path of timer_ticks() in rdpmc mode. */
static uint64_t rdpmc_slow(void)
{
	uint64_t cnt;

	/* No event for this thread: TSC ticks (see timer_thread_init). */
	if (!tls_pc && thread_open_cycles() != 0)
		return timer_rdtsc();
	if (rdpmc_read_page(tls_pc, rdpmc_insn, &cnt) == 0)
		return cnt;
	/*
	 * The event is not on a counter at this instant (index 0): the
	 * kernel's read() gives the same count, just slower.
	 */
	if (read(tls_fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt))
		return cnt;
	return timer_rdtsc();
}

uint64_t timer_ticks(void)
{
	uint64_t cnt;

	switch (g_source) {
	case TIMER_TSC:
	case TIMER_CNTVCT:
		return timer_rdtsc();
	case TIMER_RDPMC:
		if (tls_pc && rdpmc_read_page(tls_pc, rdpmc_insn, &cnt) == 0)
			return cnt;
		return rdpmc_slow();
	case TIMER_CLOCK_NS:
	default:
		return timer_mono_raw_ns();
	}
}

double timer_ticks_to_ns(uint64_t ticks)
{
	/*
	 * ns = ticks * ns_per_tick, with ns_per_tick = 1e9 / tsc_hz for the
	 * TSC (and, approximately, for rdpmc cycles) and 1 for "ns".
	 */
	return (double)ticks * g_ns_per_tick;
}

void timer_counter_text(const struct timer_info *ti, char *buf,
			size_t len)
{
	if (ti->source == TIMER_CNTVCT)
		snprintf(buf, len, "CNTVCT_EL0 %.3f MHz, %.1f ns a tick",
			 ti->tsc_hz / 1e6, ti->ns_per_tick);
	else
		snprintf(buf, len, "TSC %.3f GHz", ti->tsc_hz / 1e9);
}

const struct timer_info *timer_get_info(void)
{
	return &g_info;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void note_append(struct timer_info *info, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note_append(struct timer_info *info, const char *fmt, ...)
{
	size_t len = strlen(info->fallback_note);
	size_t room = sizeof(info->fallback_note) - len;
	va_list ap;

	if (room <= 3)
		return;
	if (len > 0) {
		memcpy(info->fallback_note + len, "; ", 3);
		len += 2;
		room -= 2;
	}
	va_start(ap, fmt);
	vsnprintf(info->fallback_note + len, room, fmt, ap);
	va_end(ap);
}

#if TIMER_ARM64
/* The generic timer counts at a constant rate by the architecture. */
static bool cpuid_tsc_invariant(void)
{
	return true;
}

/* CNTFRQ_EL0: the counter's frequency as firmware set it, in Hz. */
static double arm64_cntfrq_hz(void)
{
	uint64_t f;

	asm volatile("mrs %0, cntfrq_el0" : "=r"(f));
	return (double)f;
}
#elif TIMER_HAVE_TSC
static bool cpuid_tsc_invariant(void)
{
	unsigned int a, b, c, d;

	/* __get_cpuid checks the maximum extended leaf first. */
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d))
		return false;
	return (d >> 8) & 1;	/* EDX bit 8: invariant TSC */
}
#else
static bool cpuid_tsc_invariant(void)
{
	return false;
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

/* Median TSC frequency over CALIB_WINDOWS windows of ~10 ms. */
static double calibrate_tsc(void)
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
 * Pin this thread to each allowed CPU in turn, reading the TSC on each;
 * the reads, taken one after another in time, must never go backwards.
 * This catches offsets larger than a migration (microseconds), not finer
 * skew.  The original affinity mask is restored.
 */
static bool check_cross_cpu(void)
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

/*
 * Try to set up rdpmc cycles for this thread.  Returns true on success;
 * otherwise writes why to info->fallback_note.
 */
static bool setup_rdpmc(struct timer_info *info)
{
	struct perf_event_attr *a = &g_cycles_attr;
	int r, err = 0;

	if (!TIMER_HAVE_TSC || TIMER_ARM64) {
		/* rdpmc_insn() is x86 only. */
		note_append(info, "rdpmc is only implemented on x86");
		return false;
	}
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->config = PERF_COUNT_HW_CPU_CYCLES;
	a->exclude_kernel = 0;
	a->exclude_hv = 0;
	r = thread_open_cycles();
	if (r == -1) {
		/* Refused (perf_event_paranoid > 1?): user mode only. */
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
		r = thread_open_cycles();
		err = errno;
	}
	if (r == 0) {
		/* A fallback too: syscall cost then counts no cycles. */
		if (a->exclude_kernel)
			note_append(info, "kernel cycles refused "
				    "(perf_event_paranoid?): cycles count "
				    "user mode only, not time in the kernel");
		return true;
	}
	if (r == -2)
		note_append(info, "rdpmc not allowed on the cpu-cycles page "
			    "(cap_user_rdpmc clear or index 0)");
	else
		note_append(info, "perf_event_open(cpu-cycles) failed: %s",
			    strerror(err));
	return false;
}

/*
 * Median cost of one back-to-back pair of timer_ticks() reads, in ticks
 * of the current source.  Returns a negative value if out of memory.
 */
static double measure_overhead(void)
{
	uint64_t *d;
	double med;
	int i, mid;

	d = malloc(OVERHEAD_PAIRS * sizeof(*d));
	if (!d)
		return -1.0;
	for (i = 0; i < OVERHEAD_PAIRS; i++) {
		uint64_t a = timer_ticks();
		uint64_t b = timer_ticks();

		d[i] = b - a;
	}
	qsort(d, OVERHEAD_PAIRS, sizeof(*d), cmp_u64);
	mid = OVERHEAD_PAIRS / 2;
	med = (double)d[mid];
	free(d);
	return med;
}

int timer_init(bool want_cycles, bool announce, struct timer_info *info)
{
	struct timer_info in;
	bool tsc_ok, have_cycles = false;
	double oh;
	long ps;

	memset(&in, 0, sizeof(in));
	ps = sysconf(_SC_PAGESIZE);
	g_page_size = ps > 0 ? (size_t)ps : 4096;
	if (!g_atfork_done) {
		if (pthread_atfork(NULL, NULL, atfork_child) == 0)
			g_atfork_done = true;
	}

	/* Read the clock the old way while we recalibrate. */
	g_source = TIMER_CLOCK_NS;
	g_ns_per_tick = 1.0;
	thread_release();

	in.tsc_invariant = TIMER_HAVE_TSC && cpuid_tsc_invariant();
	in.tsc_cross_cpu_ok = TIMER_HAVE_TSC && check_cross_cpu();
	tsc_ok = in.tsc_invariant && in.tsc_cross_cpu_ok;
#if TIMER_ARM64
	/* CNTFRQ_EL0 states the rate; calibration checks it is set. */
	in.tsc_hz = calibrate_tsc() > 0.0 ? arm64_cntfrq_hz() : 0.0;
#else
	if (TIMER_HAVE_TSC)
		in.tsc_hz = calibrate_tsc();
#endif
	if (in.tsc_hz <= 0.0)
		tsc_ok = false;

	if (want_cycles) {
		have_cycles = setup_rdpmc(&in);
		if (!have_cycles && tsc_ok)
			note_append(&in, "using the TSC (tsc-cycles)");
	}
	if (!tsc_ok) {
		if (!TIMER_HAVE_TSC)
			note_append(&in, "no TSC on this architecture");
		else if (!in.tsc_invariant)
			note_append(&in, "TSC not invariant (CPUID "
				    "0x80000007 EDX bit 8 clear)");
		else if (!in.tsc_cross_cpu_ok)
			note_append(&in, "TSC went backwards across CPUs");
		else
			note_append(&in, "TSC calibration failed");
		if (have_cycles) {
			/* No trustworthy cycles->ns factor without the TSC. */
			thread_release();
			have_cycles = false;
		}
		note_append(&in, "using clock_gettime (ns)");
		in.tsc_hz = 0.0;
	}

	if (have_cycles) {
		/*
		 * Core cycles run at the core clock, which may differ from
		 * the TSC rate (turbo, power states): ns_per_tick from the
		 * TSC is an approximation for this source.
		 */
		in.source = TIMER_RDPMC;
		in.unit = "cycles";
		in.ns_per_tick = 1e9 / in.tsc_hz;
	} else if (tsc_ok && TIMER_ARM64) {
		/* CNTVCT_EL0 ticks: 1e9 / CNTFRQ_EL0 ns per tick. */
		in.source = TIMER_CNTVCT;
		in.unit = "cntvct-ticks";
		in.ns_per_tick = 1e9 / in.tsc_hz;
	} else if (tsc_ok) {
		/* tsc_hz ticks per second: 1e9 / tsc_hz ns per tick. */
		in.source = TIMER_TSC;
		in.unit = "tsc-cycles";
		in.ns_per_tick = 1e9 / in.tsc_hz;
	} else {
		in.source = TIMER_CLOCK_NS;
		in.unit = "ns";
		in.ns_per_tick = 1.0;
	}

	g_ns_per_tick = in.ns_per_tick;
	g_source = in.source;
	oh = measure_overhead();
	if (oh < 0.0)
		oh = 0.0;
	in.overhead_ticks = oh;
	in.overhead_ns = oh * in.ns_per_tick;

	if (announce && in.fallback_note[0] && !g_announced) {
		fprintf(stderr, "copyscope: %s: %s\n",
			want_cycles ? "cycles" : "clock", in.fallback_note);
		g_announced = true;
	}
	g_info = in;
	if (info)
		*info = in;
	return 0;
}
