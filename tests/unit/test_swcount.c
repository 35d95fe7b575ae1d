/*
 * test_swcount.c - unit tests for src/runner/swcount.c.
 *
 * Opens the counters for this thread, provokes context switches (yield and
 * short sleeps) and page faults (touching fresh anonymous pages), and checks
 * the counts move; checks the getrusage fallback the same way and the
 * arithmetic of swcount_diff.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "runner/swcount.h"

#define FAULT_PAGES 32

static void provoke_switches(void)
{
	struct timespec ts = { 0, 1000000 };	/* 1 ms */
	int i;

	for (i = 0; i < 5; i++) {
		sched_yield();
		assert_int_equal(nanosleep(&ts, NULL), 0);
	}
}

static void provoke_faults(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	volatile char *p;
	size_t len;
	int i;

	assert_true(ps > 0);
	len = (size_t)ps * FAULT_PAGES;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	for (i = 0; i < FAULT_PAGES; i++)
		p[(size_t)i * (size_t)ps] = (char)i;
	assert_int_equal(munmap((void *)p, len), 0);
}

/* Run both provocations under sc and check the deltas. */
static void check_counts(const struct swcount *sc)
{
	struct swcount_values a, b, d;

	swcount_read(sc, &a);
	assert_true(a.ctx_switches != SWCOUNT_NA);
	assert_true(a.faults != SWCOUNT_NA);
	provoke_switches();
	swcount_read(sc, &b);
	swcount_diff(&a, &b, &d);
	assert_true(d.ctx_switches >= 1);
	assert_true(d.ctx_switches < 1000000);	/* no wrap-around */
	print_message("  %s: %llu switches after 5 yield+sleep\n",
		      sc->perf ? "perf" : "getrusage",
		      (unsigned long long)d.ctx_switches);

	swcount_read(sc, &a);
	provoke_faults();
	swcount_read(sc, &b);
	swcount_diff(&a, &b, &d);
	/* One fault per fresh page; allow for a few being pre-populated. */
	assert_true(d.faults >= FAULT_PAGES / 2);
	assert_true(d.faults < 1000000);
	print_message("  %s: %llu faults after touching %d pages\n",
		      sc->perf ? "perf" : "getrusage",
		      (unsigned long long)d.faults, FAULT_PAGES);
	if (sc->perf || sc->sched_file)
		assert_true(d.migrations != SWCOUNT_NA);
	else
		assert_true(d.migrations == SWCOUNT_NA);
}

static void test_open_and_count(void **state)
{
	struct swcount sc;
	bool perf;
	int i;

	(void)state;
	swcount_prefer_perf(true);
	perf = swcount_open(&sc);
	swcount_prefer_perf(false);
	assert_int_equal(perf, sc.perf);
	for (i = 0; i < 3; i++) {
		if (perf)
			assert_true(sc.fd[i] >= 0);
		else
			assert_int_equal(sc.fd[i], -1);
	}
	print_message("  source: %s\n", perf ? "perf_event_open" :
		      "getrusage");
	check_counts(&sc);
	swcount_close(&sc);
	assert_false(sc.perf);
	for (i = 0; i < 3; i++)
		assert_int_equal(sc.fd[i], -1);
}

static void test_getrusage_fallback(void **state)
{
	struct swcount sc = { .fd = { -1, -1, -1 }, .perf = false,
			      .sched_file = false };
	struct swcount_values v;

	(void)state;
	swcount_read(&sc, &v);
	assert_true(v.migrations == SWCOUNT_NA);
	check_counts(&sc);
	swcount_close(&sc);
}

/* The default: no perf fds, migrations from /proc where it exists. */
static void test_default_is_getrusage(void **state)
{
	struct swcount sc;
	struct swcount_values v;
	int i;

	(void)state;
	assert_false(swcount_open(&sc));
	for (i = 0; i < 3; i++)
		assert_int_equal(sc.fd[i], -1);
	swcount_read(&sc, &v);
	if (access("/proc/thread-self/sched", R_OK) == 0)
		assert_true(v.migrations != SWCOUNT_NA);
	else
		assert_true(v.migrations == SWCOUNT_NA);
	check_counts(&sc);
	swcount_close(&sc);
}

static void test_diff(void **state)
{
	struct swcount_values a = { 10, SWCOUNT_NA, 100 };
	struct swcount_values b = { 15, SWCOUNT_NA, 164 };
	struct swcount_values c = { 3, 4, 5 };
	struct swcount_values e = { 3, 9, SWCOUNT_NA };
	struct swcount_values d;

	(void)state;
	swcount_diff(&a, &b, &d);
	assert_int_equal(d.ctx_switches, 5);
	assert_true(d.migrations == SWCOUNT_NA);
	assert_int_equal(d.faults, 64);

	swcount_diff(&c, &e, &d);
	assert_int_equal(d.ctx_switches, 0);
	assert_int_equal(d.migrations, 5);
	assert_true(d.faults == SWCOUNT_NA);

	/* NA on the earlier reading alone is still NA. */
	swcount_diff(&e, &c, &d);
	assert_true(d.faults == SWCOUNT_NA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_and_count),
		cmocka_unit_test(test_getrusage_fallback),
		cmocka_unit_test(test_default_is_getrusage),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
