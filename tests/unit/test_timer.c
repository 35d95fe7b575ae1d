/*
 * test_timer.c - unit tests for src/runner/timer.c.
 *
 * The rdpmc read protocol is tested against a synthetic perf_event_mmap_page
 * with a fake counter read (no machine here has a PMU), and so are the
 * arm64 user-space read's parts that need no arm64 CPU: which register a
 * page's index names, the sign extension to pmc_width, and the words of a
 * refusal (src/runner/timer_calib.c).  The live clock tests
 * check structure only - monotonic reads, loose bounds around a sleep, units
 * that match the source - never absolute timings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/timer.h"

/* ---- fake counter for the rdpmc protocol ---- */

static struct perf_event_mmap_page fake_page;
static int fake_calls;
static uint32_t fake_last_counter;
static uint64_t fake_values[4];
static bool fake_bump_lock_once;

static uint64_t fake_read_pmc(uint32_t counter)
{
	uint64_t v = fake_values[fake_calls < 4 ? fake_calls : 3];

	fake_last_counter = counter;
	fake_calls++;
	if (fake_bump_lock_once && fake_calls == 1)
		fake_page.lock++;	/* a writer raced with this reader */
	return v;
}

static int setup_page(void **state)
{
	(void)state;
	memset(&fake_page, 0, sizeof(fake_page));
	memset(fake_values, 0, sizeof(fake_values));
	fake_calls = 0;
	fake_last_counter = UINT32_MAX;
	fake_bump_lock_once = false;
	fake_page.cap_user_rdpmc = 1;
	fake_page.pmc_width = 48;
	fake_page.index = 1;
	return 0;
}

static void test_rdpmc_index_zero(void **state)
{
	uint64_t c = 12345;

	(void)state;
	fake_page.index = 0;
	assert_int_equal(timer_rdpmc_read_page(&fake_page, fake_read_pmc, &c),
			 -1);
	assert_int_equal(fake_calls, 0);
	assert_int_equal(c, 12345);	/* untouched on failure */
}

static void test_rdpmc_cap_clear(void **state)
{
	uint64_t c = 0;

	(void)state;
	fake_page.cap_user_rdpmc = 0;
	fake_page.index = 3;
	assert_int_equal(timer_rdpmc_read_page(&fake_page, fake_read_pmc, &c),
			 -1);
	assert_int_equal(fake_calls, 0);
}

static void test_rdpmc_offset_plus_count(void **state)
{
	uint64_t c = 0;

	(void)state;
	fake_page.offset = 1000;
	fake_page.index = 5;
	fake_values[0] = 234;
	assert_int_equal(timer_rdpmc_read_page(&fake_page, fake_read_pmc, &c),
			 0);
	assert_int_equal(c, 1234);
	assert_int_equal(fake_calls, 1);
	assert_int_equal(fake_last_counter, 4);	/* index - 1 */
}

static void test_rdpmc_sign_extend(void **state)
{
	uint64_t c = 0;

	(void)state;
	/* 48 bits all set is -1 once sign-extended: 100 + (-1) = 99. */
	fake_page.offset = 100;
	fake_values[0] = 0xFFFFFFFFFFFFull;
	assert_int_equal(timer_rdpmc_read_page(&fake_page, fake_read_pmc, &c),
			 0);
	assert_int_equal(c, 99);

	/* Bits above the width are dropped, bit 47 clear: no extension. */
	setup_page(NULL);
	fake_page.offset = 0;
	fake_values[0] = 0xABCD000000000010ull;
	assert_int_equal(timer_rdpmc_read_page(&fake_page, fake_read_pmc, &c),
			 0);
	assert_int_equal(c, 0x10);

	/* Negative offset (as the kernel sets it) plus a large counter. */
	setup_page(NULL);
	fake_page.offset = -((int64_t)1 << 40);
	fake_values[0] = ((uint64_t)1 << 40) + 7;
	assert_int_equal(timer_rdpmc_read_page(&fake_page, fake_read_pmc, &c),
			 0);
	assert_int_equal(c, 7);
}

static void test_rdpmc_seqlock_retry(void **state)
{
	uint64_t c = 0;

	(void)state;
	fake_page.lock = 2;
	fake_page.offset = 10;
	fake_page.index = 2;
	fake_bump_lock_once = true;
	fake_values[0] = 1;	/* torn reading, must be discarded */
	fake_values[1] = 500;
	assert_int_equal(timer_rdpmc_read_page(&fake_page, fake_read_pmc, &c),
			 0);
	assert_int_equal(fake_calls, 2);
	assert_int_equal(c, 510);
	assert_int_equal(fake_last_counter, 1);
}

/* arm64's cycle counter: page index 32, read as counter 31 */
static void test_rdpmc_arm64_cycle_index(void **state)
{
	uint64_t c = 0;

	(void)state;
	fake_page.index = 32;
	fake_page.pmc_width = 64;
	fake_page.offset = 5;
	fake_values[0] = UINT64_C(0xFFFFFFFFFFFFFFF0);	/* 64 bits: kept */
	assert_int_equal(timer_rdpmc_read_page(&fake_page, fake_read_pmc, &c),
			 0);
	assert_int_equal(fake_last_counter, 31);
	assert_true(c == UINT64_C(0xFFFFFFFFFFFFFFF5));
}

static void test_pmc_register(void **state)
{
	char b[64];

	(void)state;
	assert_int_equal(timer_pmc_register(true, 32, b, sizeof(b)), 0);
	assert_string_equal(b, "PMCCNTR_EL0");
	assert_int_equal(timer_pmc_register(true, 1, b, sizeof(b)), 0);
	assert_string_equal(b, "PMEVCNTR0_EL0");
	assert_int_equal(timer_pmc_register(true, 31, b, sizeof(b)), 0);
	assert_string_equal(b, "PMEVCNTR30_EL0");
	assert_int_equal(timer_pmc_register(true, 7, b, sizeof(b)), 0);
	assert_string_equal(b, "PMEVCNTR6_EL0");
	assert_int_equal(timer_pmc_register(true, 0, b, sizeof(b)), -1);
	assert_string_equal(b, "no counter (index 0)");
	assert_int_equal(timer_pmc_register(true, 33, b, sizeof(b)), -1);
	assert_string_equal(b, "no arm64 counter (index 33)");
	assert_int_equal(timer_pmc_register(false, 1, b, sizeof(b)), 0);
	assert_string_equal(b, "rdpmc counter 0");
	assert_int_equal(timer_pmc_register(false, (1u << 30) + 2, b,
					    sizeof(b)), 0);
	assert_string_equal(b, "rdpmc fixed counter 1");
	assert_int_equal(timer_pmc_register(false, 0, b, sizeof(b)), -1);
}

static void test_pmc_extend(void **state)
{
	(void)state;
	/* a 32-bit event counter: all ones is -1, the top bit negative */
	assert_true(timer_pmc_extend(0xFFFFFFFFu, 32) == UINT64_MAX);
	assert_true(timer_pmc_extend(0x80000000u, 32) ==
		    UINT64_C(0xFFFFFFFF80000000));
	assert_true(timer_pmc_extend(0x7FFFFFFFu, 32) == 0x7FFFFFFFu);
	/* bits above the width are dropped */
	assert_true(timer_pmc_extend(UINT64_C(0x1234000000000042), 48) ==
		    0x42);
	/* PMCCNTR_EL0 with config1 bit 1: 64 bits, as it is */
	assert_true(timer_pmc_extend(UINT64_C(0xFFFF000000000001), 64) ==
		    UINT64_C(0xFFFF000000000001));
	assert_true(timer_pmc_extend(12345, 0) == 12345);
}

static void refused(const struct timer_cycles_why *w, char *b, size_t n)
{
	timer_cycles_refused_text(w, b, n);
	print_message("  %s\n", b);
	assert_true(strncmp(b, "no: ", 4) == 0);
}

static void test_cycles_refused_text(void **state)
{
	struct timer_cycles_why w;
	char b[256];

	(void)state;
	memset(&w, 0, sizeof(w));
	w.arm64 = true;
	w.paranoid = INT_MIN;
	w.user_access = 0;
	w.page_refused = true;
	w.cap_user_rdpmc = 1;
	refused(&w, b, sizeof(b));
	assert_string_equal(b, "no: /proc/sys/kernel/perf_user_access is 0: "
			    "the kernel does not let user space read the PMU "
			    "(sysctl kernel.perf_user_access=1 allows it)");
	w.user_access = -1;
	refused(&w, b, sizeof(b));
	assert_non_null(strstr(b, "no /proc/sys/kernel/perf_user_access "
			       "(before Linux 5.18"));
	w.user_access = 1;
	refused(&w, b, sizeof(b));
	assert_non_null(strstr(b, "(cap_user_rdpmc 1, index 0, "
			       "perf_user_access 1)"));
	w.arm64 = false;
	refused(&w, b, sizeof(b));
	assert_non_null(strstr(b, "rdpmc not allowed"));

	memset(&w, 0, sizeof(w));
	w.arm64 = true;
	w.paranoid = INT_MIN;
	w.open_errno = ENOSYS;
	refused(&w, b, sizeof(b));
	assert_non_null(strstr(b, "perf_event_open: Function not "
			       "implemented"));
	assert_non_null(strstr(b, "qemu-user"));
	w.open_errno = ENOENT;
	refused(&w, b, sizeof(b));
	assert_non_null(strstr(b, "(no PMU here"));
	w.open_errno = EACCES;
	w.paranoid = 3;
	refused(&w, b, sizeof(b));
	assert_non_null(strstr(b, "(perf_event_paranoid is 3)"));
	w.open_errno = EINVAL;
	refused(&w, b, sizeof(b));
	assert_string_equal(b, "no: perf_event_open(cpu-cycles): Invalid "
			    "argument");
	w.open_errno = 0;
	w.mmap_errno = ENOMEM;
	refused(&w, b, sizeof(b));
	assert_non_null(strstr(b, "mmap of the cpu-cycles event's page"));
	memset(&w, 0, sizeof(w));
	w.no_arch = true;
	refused(&w, b, sizeof(b));
	assert_non_null(strstr(b, "x86 and arm64 only"));
}

/* ---- arithmetic ---- */

static void test_calc_hz(void **state)
{
	(void)state;
	assert_true(timer_calc_hz(2100000000ull, 1000000000ull) == 2.1e9);
	assert_true(timer_calc_hz(21000000ull, 10000000ull) == 2.1e9);
	assert_true(timer_calc_hz(1000, 1000) == 1e9);
	assert_true(timer_calc_hz(5, 0) == 0.0);
}

/* ---- live clock ---- */

static const char *unit_for(enum timer_source s)
{
	switch (s) {
	case TIMER_TSC:
		return "tsc-cycles";
	case TIMER_CNTVCT:
		return "cntvct-ticks";
	case TIMER_RDPMC:
		return "cycles";
	case TIMER_CLOCK_NS:
	default:
		return "ns";
	}
}

static void check_monotonic(int n)
{
	uint64_t prev = timer_ticks(), t;
	int i;

	for (i = 0; i < n; i++) {
		t = timer_ticks();
		assert_true(t >= prev);
		prev = t;
	}
}

static void test_init_plain(void **state)
{
	struct timer_info info;
	const struct timer_info *g;

	(void)state;
	memset(&info, 0xAA, sizeof(info));
	assert_int_equal(timer_init(false, false, &info), 0);
	assert_int_not_equal(info.source, TIMER_RDPMC);
	assert_string_equal(info.unit, unit_for(info.source));
	assert_true(info.ns_per_tick > 0.0);
	/* asked or not, whether cycles can be read is said */
	assert_true(strncmp(info.cycles, "yes: ", 5) == 0 ||
		    strncmp(info.cycles, "no: ", 4) == 0);
	if (info.source == TIMER_TSC || info.source == TIMER_CNTVCT) {
		assert_true(info.tsc_invariant);
		assert_true(info.tsc_cross_cpu_ok);
		assert_true(info.tsc_hz > 0.0);
		assert_true(info.ns_per_tick == 1e9 / info.tsc_hz);
	} else {
		assert_true(info.ns_per_tick == 1.0);
		assert_true(info.fallback_note[0] != '\0');
	}
	/* a read pair can fall within one tick of a coarse counter
	   (CNTVCT_EL0 at 62.5 MHz under qemu-user: 0 ticks) */
	if (info.source == TIMER_CNTVCT) {
		assert_true(info.overhead_ticks >= 0.0);
	} else {
		assert_true(info.overhead_ticks > 0.0);
		assert_true(info.overhead_ns > 0.0);
	}
	assert_true(info.overhead_ns == info.overhead_ticks *
		    info.ns_per_tick);

	g = timer_get_info();
	assert_int_equal(g->source, info.source);
	assert_string_equal(g->unit, info.unit);
	assert_true(g->tsc_hz == info.tsc_hz);
	print_message("  source %s, tsc_hz %.0f, overhead %.1f ticks "
		      "= %.1f ns, note \"%s\", cycles \"%s\"\n", info.unit,
		      info.tsc_hz, info.overhead_ticks, info.overhead_ns,
		      info.fallback_note, info.cycles);
}

static void test_ticks_monotonic(void **state)
{
	(void)state;
	check_monotonic(1000);
}

static void test_ticks_sleep(void **state)
{
	struct timespec ts = { 0, 10000000 };	/* 10 ms */
	uint64_t t0, t1;
	double ns;

	(void)state;
	assert_true(timer_ticks_to_ns(0) == 0.0);
	t0 = timer_ticks();
	assert_int_equal(nanosleep(&ts, NULL), 0);
	t1 = timer_ticks();
	ns = timer_ticks_to_ns(t1 - t0);
	assert_true(ns >= 5e6);
	assert_true(ns <= 1e9);

	/* The TSC and the raw monotonic clock agree, loosely, too. */
	t0 = timer_mono_raw_ns();
	assert_int_equal(nanosleep(&ts, NULL), 0);
	t1 = timer_mono_raw_ns();
	assert_true(t1 - t0 >= 5000000);
}

/* The mask this process started with, before any timer_init(). */
static cpu_set_t start_mask;

static void test_affinity_restored(void **state)
{
	cpu_set_t before, after;
	struct timer_info info;

	(void)state;
	/* Earlier timer_init() calls must have restored it too. */
	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	assert_true(CPU_EQUAL(&before, &start_mask));
	assert_int_equal(timer_init(false, false, &info), 0);
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&after, &start_mask));
}

static void test_init_cycles(void **state)
{
	struct timer_info info;

	(void)state;
	assert_int_equal(timer_init(true, false, &info), 0);
	assert_string_equal(info.unit, unit_for(info.source));
	if (info.source == TIMER_RDPMC) {
		/* A machine with a usable PMU; kernel cycles may be
		   refused, which must be said. */
		assert_true(info.fallback_note[0] == '\0' ||
			    strstr(info.fallback_note, "user mode only"));
		assert_true(info.tsc_hz > 0.0);
		assert_true(strncmp(info.cycles, "yes: ", 5) == 0);
	} else {
		assert_true(info.fallback_note[0] != '\0');
		assert_true(strstr(info.fallback_note, "perf_event_open") ||
			    strstr(info.fallback_note, "rdpmc") ||
			    strstr(info.fallback_note, "perf page") ||
			    strstr(info.fallback_note, "perf_user_access"));
		/* the note is the refusal, less its "no: " */
		assert_true(strncmp(info.cycles, "no: ", 4) == 0);
		assert_non_null(strstr(info.fallback_note, info.cycles + 4));
		if (info.tsc_invariant && info.tsc_cross_cpu_ok &&
		    info.source == TIMER_CNTVCT) {
			assert_non_null(strstr(info.fallback_note,
					       "using the counter "
					       "(cntvct-ticks)"));
		} else if (info.tsc_invariant && info.tsc_cross_cpu_ok) {
			assert_int_equal(info.source, TIMER_TSC);
			assert_non_null(strstr(info.fallback_note,
					       "using the TSC (tsc-cycles)"));
		} else {
			assert_int_equal(info.source, TIMER_CLOCK_NS);
		}
	}
	assert_true(info.source == TIMER_CNTVCT ? info.overhead_ns >= 0.0 :
		    info.overhead_ns > 0.0);
	check_monotonic(1000);
	print_message("  cycles requested: source %s, note \"%s\"\n",
		      info.unit, info.fallback_note);
}

/* Capture what timer_init(true, true) writes to stderr. */
static void capture_init(char *buf, size_t len)
{
	struct timer_info info;
	FILE *tmp = tmpfile();
	int saved, n;

	assert_non_null(tmp);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), STDERR_FILENO) >= 0);
	assert_int_equal(timer_init(true, true, &info), 0);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	rewind(tmp);
	n = (int)fread(buf, 1, len - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
}

static void test_announce_once(void **state)
{
	const struct timer_info *g;
	char out[1024];

	(void)state;
	capture_init(out, sizeof(out));
	g = timer_get_info();
	if (g->fallback_note[0]) {
		char want[512];

		snprintf(want, sizeof(want), "copyscope: cycles: %s\n",
			 g->fallback_note);
		assert_string_equal(out, want);
		if (g->source == TIMER_TSC || g->source == TIMER_CNTVCT)
			assert_non_null(strstr(out, g->cycles + 4));
	} else {
		assert_string_equal(out, "");
	}
	/* Only once per process. */
	capture_init(out, sizeof(out));
	assert_string_equal(out, "");
}

static void *thread_body(void *arg)
{
	int *rc = arg;
	uint64_t a, b;

	*rc = timer_thread_init();
	a = timer_ticks();
	b = timer_ticks();
	if (b < a)
		*rc = -2;
	return NULL;
}

static void test_thread_init(void **state)
{
	pthread_t th;
	int rc = -9;
	pid_t pid;
	int status;

	(void)state;
	assert_int_equal(timer_init(true, false, NULL), 0);
	assert_int_equal(timer_thread_init(), 0);
	assert_int_equal(pthread_create(&th, NULL, thread_body, &rc), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(rc, 0);

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uint64_t a, b;

		if (timer_thread_init() != 0)
			_exit(2);
		a = timer_ticks();
		b = timer_ticks();
		_exit(b >= a ? 0 : 3);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_rdpmc_index_zero, setup_page),
		cmocka_unit_test_setup(test_rdpmc_cap_clear, setup_page),
		cmocka_unit_test_setup(test_rdpmc_offset_plus_count,
				       setup_page),
		cmocka_unit_test_setup(test_rdpmc_sign_extend, setup_page),
		cmocka_unit_test_setup(test_rdpmc_seqlock_retry, setup_page),
		cmocka_unit_test_setup(test_rdpmc_arm64_cycle_index,
				       setup_page),
		cmocka_unit_test(test_pmc_register),
		cmocka_unit_test(test_pmc_extend),
		cmocka_unit_test(test_cycles_refused_text),
		cmocka_unit_test(test_calc_hz),
		cmocka_unit_test(test_init_plain),
		cmocka_unit_test(test_ticks_monotonic),
		cmocka_unit_test(test_ticks_sleep),
		cmocka_unit_test(test_affinity_restored),
		cmocka_unit_test(test_init_cycles),
		cmocka_unit_test(test_announce_once),
		cmocka_unit_test(test_thread_init),
	};

	if (sched_getaffinity(0, sizeof(start_mask), &start_mask) != 0) {
		perror("sched_getaffinity");
		return 1;
	}

	return cmocka_run_group_tests(tests, NULL, NULL);
}
