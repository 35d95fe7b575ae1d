/*
 * timer.c - the clocks copyscope measures with (see timer.h and
 * docs/methodology.md).
 *
 * timer_init() picks one of these sources and calibrates it (the
 * calibration itself is in timer_calib.c):
 *   TIMER_RDPMC     core cycles read from user space on a perf_event mmap
 *                   page: rdpmc on x86; on arm64 mrs of PMCCNTR_EL0 (page
 *                   index 32) or PMEVCNTR<n>_EL0 (index n + 1), which the
 *                   kernel allows only with perf_user_access = 1 and an
 *                   event opened with config1 bit 0 (user access) and
 *                   bit 1 (a 64-bit counter);
 *   TIMER_TSC       lfence;rdtsc;lfence, calibrated against
 *                   CLOCK_MONOTONIC_RAW;
 *   TIMER_CNTVCT    arm64: isb;mrs cntvct_el0;isb, at CNTFRQ_EL0;
 *   TIMER_CLOCK_NS  clock_gettime(CLOCK_MONOTONIC_RAW).
 * Whatever the source, timer_init() also probes whether core cycles can
 * be read from user space here and what a read pair costs, or why not
 * (timer_info.cycles: the environment's timer.cycles).
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
#include <limits.h>
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

#include "runner/timer_priv.h"

#define OVERHEAD_PAIRS		10000
#define PMC_PROBE_PAIRS		1000	/* pairs of PMU reads in the probe */
#define CYCLES_WINDOW_NS	2000000ull	/* 2 ms busy windows */

/* Process-wide state, written only by timer_init(). */
static enum timer_source g_source = TIMER_CLOCK_NS;
static double g_ns_per_tick = 1.0;
static struct timer_info g_info = {
	.source = TIMER_CLOCK_NS,
	.unit = "ns",
	.ns_per_tick = 1.0,
};
static struct perf_event_attr g_cycles_attr;	/* the attr that opened */
static uint32_t g_refused_cap, g_refused_index;	/* a refusing page's */
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
#elif TIMER_ARM64
/* One PMEVCNTR<n>_EL0 read: the register is part of the instruction. */
#define PMEV_CASE(n)							\
	case n:								\
		asm volatile("isb\n\tmrs %0, pmevcntr" #n "_el0\n\tisb"	\
			     : "=r"(v) : : "memory");			\
		break

/*
 * The counter the page's index names, less one (as rdpmc takes it): 31
 * is the cycle counter PMCCNTR_EL0 (the kernel's index 32), n < 31 the
 * event counter PMEVCNTR<n>_EL0.  The isb barriers order the read as
 * CNTVCT_EL0's are (timer_rdtsc).  setup_rdpmc() refuses an index that
 * names no counter, so the default case is never reached.
 */
static uint64_t rdpmc_insn(uint32_t counter)
{
	uint64_t v = 0;

	switch (counter) {
	case 31:
		asm volatile("isb\n\tmrs %0, pmccntr_el0\n\tisb"
			     : "=r"(v) : : "memory");
		break;
	PMEV_CASE(0); PMEV_CASE(1); PMEV_CASE(2); PMEV_CASE(3);
	PMEV_CASE(4); PMEV_CASE(5); PMEV_CASE(6); PMEV_CASE(7);
	PMEV_CASE(8); PMEV_CASE(9); PMEV_CASE(10); PMEV_CASE(11);
	PMEV_CASE(12); PMEV_CASE(13); PMEV_CASE(14); PMEV_CASE(15);
	PMEV_CASE(16); PMEV_CASE(17); PMEV_CASE(18); PMEV_CASE(19);
	PMEV_CASE(20); PMEV_CASE(21); PMEV_CASE(22); PMEV_CASE(23);
	PMEV_CASE(24); PMEV_CASE(25); PMEV_CASE(26); PMEV_CASE(27);
	PMEV_CASE(28); PMEV_CASE(29); PMEV_CASE(30);
	default:
		break;
	}
	return v;
}
#undef PMEV_CASE
#else
static uint64_t rdpmc_insn(uint32_t counter)
{
	(void)counter;
	return 0;
}
#endif

/*
 * The counter is width bits wide; sign-extend it modulo 2^64 (keep the
 * low width bits, then (x ^ m) - m with m the sign bit), in unsigned
 * arithmetic: no implementation-defined right shift of a negative value.
 * A width of 0 or 64 leaves pmc as it is.
 */
static inline uint64_t pmc_extend(uint64_t pmc, uint16_t width)
{
	if (width > 0 && width < 64) {
		uint64_t m = UINT64_C(1) << (width - 1);

		pmc &= (UINT64_C(1) << width) - 1;
		pmc = (pmc ^ m) - m;
	}
	return pmc;
}

uint64_t timer_pmc_extend(uint64_t pmc, uint16_t width)
{
	return pmc_extend(pmc, width);
}

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
			/*
			 * offset is chosen by the kernel so that offset +
			 * the sign-extended counter is the count.
			 */
			cnt += pmc_extend(read_pmc(idx - 1), pc->pmc_width);
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
 * -1 with errno set when perf_event_open fails, -3 when mmap does; -2
 * when the page does not allow user reads.  Nothing is left open on
 * failure.
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
		return -3;
	}
	tls_fd = (int)fd;
	tls_pc = p;
	if (rdpmc_read_page(tls_pc, rdpmc_insn, &cnt) != 0) {
		g_refused_cap = tls_pc->cap_user_rdpmc;
		g_refused_index = tls_pc->index;
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
	else if (ti->source == TIMER_RDPMC && TIMER_ARM64)
		snprintf(buf, len, "PMCCNTR_EL0 through perf, %.0f MHz "
			 "measured busy against CLOCK_MONOTONIC_RAW",
			 ti->cycles_hz / 1e6);
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

/*
 * Try to set up user-space cycle reads for this thread.  Returns true on
 * success; otherwise fills why (for timer_cycles_refused_text).
 */
static bool setup_rdpmc(struct timer_cycles_why *why)
{
	struct perf_event_attr *a = &g_cycles_attr;
	int r, err;

	memset(why, 0, sizeof(*why));
	why->arm64 = TIMER_ARM64;
	if (!TIMER_HAVE_TSC) {
		why->open_errno = ENOSYS;
		why->no_arch = true;
		return false;
	}
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->config = PERF_COUNT_HW_CPU_CYCLES;
	/* arm64: config1 bit 0 asks for user access, bit 1 for a 64-bit
	   counter (the cycle counter, PMCCNTR_EL0, where it is free) */
	a->config1 = TIMER_ARM64 ? 3 : 0;
	r = thread_open_cycles();
	err = errno;
	if (r == -1 && (err == EACCES || err == EPERM)) {
		/* Refused (perf_event_paranoid > 1?): user mode only. */
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
		r = thread_open_cycles();
		err = errno;
	}
	if (r == 0)
		return true;
	why->paranoid = timer_calib_kernel_sysctl("perf_event_paranoid",
						  INT_MIN);
	why->user_access = timer_calib_kernel_sysctl("perf_user_access",
						     -1);
	if (r == -3) {
		why->mmap_errno = err;
	} else if (r == -2) {
		why->page_refused = true;
		why->cap_user_rdpmc = g_refused_cap;
		why->index = g_refused_index;
	} else {
		why->open_errno = err;
	}
	return false;
}

/* A read of this thread's PMU page; 0 when the page refuses. */
static uint64_t pmc_now(void)
{
	uint64_t c;

	return rdpmc_read_page(tls_pc, rdpmc_insn, &c) == 0 ? c : 0;
}

/*
 * The open cycles page's counter and what a pair of reads costs, into
 * text ("yes: PMCCNTR_EL0, 31139 cycles a read pair").  Returns -1
 * (with the refusal in text) when the page names no counter.
 */
static int probe_text(char *text, size_t len)
{
	uint64_t d[PMC_PROBE_PAIRS];
	char reg[64];
	int i;

	if (timer_pmc_register(TIMER_ARM64, tls_pc->index, reg,
			       sizeof(reg)) != 0) {
		snprintf(text, len, "no: the perf page names %s", reg);
		return -1;
	}
	for (i = 0; i < PMC_PROBE_PAIRS; i++) {
		uint64_t a = 0, b = 0;

		(void)rdpmc_read_page(tls_pc, rdpmc_insn, &a);
		(void)rdpmc_read_page(tls_pc, rdpmc_insn, &b);
		d[i] = b - a;
	}
	qsort(d, PMC_PROBE_PAIRS, sizeof(d[0]), cmp_u64);
	snprintf(text, len, "yes: %s, %llu cycles a read pair%s", reg,
		 (unsigned long long)d[PMC_PROBE_PAIRS / 2],
		 g_cycles_attr.exclude_kernel ? ", user mode only (kernel "
		 "cycles refused: perf_event_paranoid)" : "");
	return 0;
}

/*
 * Whether core cycles can be read here, into info->cycles; the event
 * stays open for this thread when want (and it works), else is closed.
 */
static bool probe_cycles(bool want, struct timer_info *info)
{
	struct timer_cycles_why why;

	if (!setup_rdpmc(&why)) {
		timer_cycles_refused_text(&why, info->cycles,
					  sizeof(info->cycles));
		if (want)
			note_append(info, "%s", info->cycles + 4);
		return false;
	}
	if (probe_text(info->cycles, sizeof(info->cycles)) != 0) {
		thread_release();
		if (want)
			note_append(info, "%s", info->cycles + 4);
		return false;
	}
	if (want && TIMER_ARM64) {
		/* CNTFRQ_EL0 is not the core clock: measure the cycles' own
		   rate, busy (the counter stops while the thread sleeps) */
		info->cycles_hz = timer_calib_busy_hz(pmc_now,
						      CYCLES_WINDOW_NS);
	}
	if (want && g_cycles_attr.exclude_kernel)
		note_append(info, "kernel cycles refused "
			    "(perf_event_paranoid?): cycles count "
			    "user mode only, not time in the kernel");
	if (!want)
		thread_release();
	return want;
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

/* Why the counter is not usable, to the note. */
static void note_no_counter(struct timer_info *in)
{
	if (!TIMER_HAVE_TSC)
		note_append(in, "no TSC on this architecture");
	else if (!in->tsc_invariant)
		note_append(in, "TSC not invariant (CPUID "
			    "0x80000007 EDX bit 8 clear)");
	else if (!in->tsc_cross_cpu_ok)
		note_append(in, "TSC went backwards across CPUs");
	else
		note_append(in, "TSC calibration failed");
	note_append(in, "using clock_gettime (ns)");
}

/* The source, its unit and its ns per tick, from what was found. */
static void choose_source(struct timer_info *in, bool have_cycles,
			  bool tsc_ok)
{
	if (have_cycles && TIMER_ARM64) {
		/* the cycles' own rate, measured busy (probe_cycles) */
		in->source = TIMER_RDPMC;
		in->unit = "cycles";
		in->ns_per_tick = 1e9 / in->cycles_hz;
	} else if (have_cycles) {
		/*
		 * Core cycles run at the core clock, which may differ from
		 * the TSC rate (turbo, power states): ns_per_tick from the
		 * TSC is an approximation for this source.
		 */
		in->source = TIMER_RDPMC;
		in->unit = "cycles";
		in->ns_per_tick = 1e9 / in->tsc_hz;
	} else if (tsc_ok && TIMER_ARM64) {
		/* CNTVCT_EL0 ticks: 1e9 / CNTFRQ_EL0 ns per tick. */
		in->source = TIMER_CNTVCT;
		in->unit = "cntvct-ticks";
		in->ns_per_tick = 1e9 / in->tsc_hz;
	} else if (tsc_ok) {
		/* tsc_hz ticks per second: 1e9 / tsc_hz ns per tick. */
		in->source = TIMER_TSC;
		in->unit = "tsc-cycles";
		in->ns_per_tick = 1e9 / in->tsc_hz;
	} else {
		in->source = TIMER_CLOCK_NS;
		in->unit = "ns";
		in->ns_per_tick = 1.0;
	}
}

int timer_init(bool want_cycles, bool announce, struct timer_info *info)
{
	struct timer_info in;
	bool tsc_ok, have_cycles;
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

	in.tsc_invariant = TIMER_HAVE_TSC && timer_calib_tsc_invariant();
	in.tsc_cross_cpu_ok = TIMER_HAVE_TSC && timer_calib_cross_cpu();
	tsc_ok = in.tsc_invariant && in.tsc_cross_cpu_ok;
	if (TIMER_ARM64)
		/* CNTFRQ_EL0 states the rate; calibration checks it is set. */
		in.tsc_hz = timer_calib_tsc_hz() > 0.0 ?
			    timer_calib_cntfrq_hz() : 0.0;
	else if (TIMER_HAVE_TSC)
		in.tsc_hz = timer_calib_tsc_hz();
	if (in.tsc_hz <= 0.0)
		tsc_ok = false;

	/* whether cycles can be read here is said even when not asked */
	have_cycles = probe_cycles(want_cycles, &in);
	if (have_cycles && TIMER_ARM64 && in.cycles_hz <= 0.0) {
		thread_release();
		have_cycles = false;
		note_append(&in, "the cycle counter's rate could not be "
			    "measured against CLOCK_MONOTONIC_RAW");
	}
	if (want_cycles && !have_cycles && tsc_ok)
		note_append(&in, TIMER_ARM64 ? "using the counter "
			    "(cntvct-ticks)" : "using the TSC (tsc-cycles)");
	if (!tsc_ok) {
		note_no_counter(&in);
		if (have_cycles && !TIMER_ARM64) {
			/* No trustworthy cycles->ns factor without the TSC. */
			thread_release();
			have_cycles = false;
		}
		in.tsc_hz = 0.0;
	}
	choose_source(&in, have_cycles, tsc_ok);

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
