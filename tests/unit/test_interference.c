/*
 * test_interference.c - unit tests of the interference accounting
 * (runner/interference.c): /proc/stat parsing, the flag rules, the canary,
 * the share of a window the workers did not run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "runner/interference.h"
#include "runner/timer.h"

static const char stat_text[] =
	"cpu  65964 10 54823 224085 538 7 131 278 40 0\n"
	"cpu0 28672 0 42483 101647 51 0 17 122 0 0\n"
	"intr 1 2 3\n";

static void test_parse(void **state)
{
	struct proc_stat_cpu c;

	(void)state;
	assert_int_equal(interference_parse_stat(stat_text, &c), 0);
	/* user + nice + system + irq + softirq */
	assert_true(c.busy == 65964 + 10 + 54823 + 7 + 131);
	assert_true(c.steal == 278);
	/* guest (40) is inside user: not added again */
	assert_true(c.total == 65964 + 10 + 54823 + 224085 + 538 + 7 + 131 +
			       278);
	/* the line need not come first; old kernels have 4 fields */
	assert_int_equal(interference_parse_stat("x 1\ncpu  1 2 3 4\n", &c),
			 0);
	assert_true(c.busy == 6 && c.steal == 0 && c.total == 10);
	assert_int_equal(interference_parse_stat("cpu0 1 2 3 4\n", &c), -1);
	assert_int_equal(interference_parse_stat("cpu  1 2\n", &c), -1);
}

static struct interference_mark mark(uint64_t busy, uint64_t steal,
				     uint64_t total, double self_ns,
				     double canary)
{
	struct interference_mark m;

	memset(&m, 0, sizeof(m));
	m.cpu.busy = busy;
	m.cpu.steal = steal;
	m.cpu.total = total;
	m.have_cpu = true;
	m.self_ns = self_ns;
	m.have_self = true;
	m.canary_ns = canary;
	return m;
}

static void test_between_quiet(void **state)
{
	/* 100 ticks of 10 ms over 2 CPUs = 1 s of machine time; we used
	   50 ticks' worth ourselves, the machine 51 ticks busy */
	struct interference_mark a = mark(1000, 5, 10000, 0, 20000);
	struct interference_mark b = mark(1051, 5, 10100, 500e6, 21000);
	struct interference_sample s;

	(void)state;
	interference_between(&a, &b, 20000, 1e7, &s);
	assert_float_equal(s.other_cpu_pct, 1.0, 1e-9);
	assert_float_equal(s.steal_pct, 0.0, 0);
	assert_float_equal(s.canary_ns, 21000, 0);
	assert_int_equal(s.flags, 0);
}

static void test_between_flags(void **state)
{
	struct interference_mark a = mark(1000, 5, 10000, 0, 20000);
	struct interference_mark b;
	struct interference_sample s;

	(void)state;
	/* other programs: 20 ticks beyond our own 50 -> 20% */
	b = mark(1070, 5, 10100, 500e6, 20000);
	interference_between(&a, &b, 20000, 1e7, &s);
	assert_float_equal(s.other_cpu_pct, 20.0, 1e-9);
	assert_int_equal(s.flags, INTERF_FLAG_OTHER);
	/* the same share but within the tick resolution: not flagged
	   (2 ticks over a 10-tick sample) */
	b = mark(1002 + 5, 5, 10010, 50e6, 20000);
	interference_between(&a, &b, 20000, 1e7, &s);
	assert_float_equal(s.other_cpu_pct, 20.0, 1e-9);
	assert_int_equal(s.flags, 0);
	/* steal: 10 of 100 ticks */
	b = mark(1050, 15, 10100, 500e6, 20000);
	interference_between(&a, &b, 20000, 1e7, &s);
	assert_float_equal(s.steal_pct, 10.0, 1e-9);
	assert_int_equal(s.flags, INTERF_FLAG_STEAL);
	/* slow canary at either end */
	b = mark(1050, 5, 10100, 500e6, 31000);
	interference_between(&a, &b, 20000, 1e7, &s);
	assert_int_equal(s.flags, INTERF_FLAG_CANARY);
	interference_between(&b, &a, 20000, 1e7, &s);
	assert_true(s.flags & INTERF_FLAG_CANARY);
	/* no reference: no canary check */
	b = mark(1050, 5, 10100, 500e6, 31000);
	interference_between(&a, &b, 0, 1e7, &s);
	assert_int_equal(s.flags, 0);
	/* own time above the machine's busy time (tick rounding): 0% */
	b = mark(1010, 5, 10100, 500e6, 20000);
	interference_between(&a, &b, 20000, 1e7, &s);
	assert_float_equal(s.other_cpu_pct, 0.0, 0);
}

static void test_between_unknown(void **state)
{
	struct interference_mark a = mark(1000, 5, 10000, 0, 20000);
	struct interference_mark b = mark(1050, 5, 10100, 500e6, 20000);
	struct interference_sample s;

	(void)state;
	b.have_cpu = false;
	interference_between(&a, &b, 20000, 1e7, &s);
	assert_true(isnan(s.other_cpu_pct));
	assert_true(isnan(s.steal_pct));
	assert_int_equal(s.flags, 0);
	b.have_cpu = true;
	b.have_self = false;
	interference_between(&a, &b, 20000, 1e7, &s);
	assert_true(isnan(s.other_cpu_pct));
	assert_float_equal(s.steal_pct, 0.0, 0);
	/* no tick elapsed: nothing to say */
	b = a;
	interference_between(&a, &b, 20000, 1e7, &s);
	assert_true(isnan(s.other_cpu_pct));
}

static void test_live_mark_and_canary(void **state)
{
	struct interference_mark a, b;
	pid_t none[2] = { 0, 0 };
	double ref;

	(void)state;
	ref = interference_canary_calibrate();
	assert_true(ref > 0);
	interference_mark(&a, none, 2);
	interference_mark(&b, none, 2);
	assert_true(a.have_cpu && b.have_cpu);
	assert_true(a.have_self && b.have_self);
	assert_true(b.self_ns >= a.self_ns);
	assert_true(b.cpu.total >= a.cpu.total);
	assert_true(a.canary_ns > 0 && b.canary_ns > 0);
	assert_true(interference_tick_ns() > 0);
}

/* One worker preempted for 40% of a 10 ms window: its CPU time counts,
   and the figures from it carry no flag. */
static void test_offcpu_one_worker(void **state)
{
	struct interference_worker w = { .cpu_ns = 6000000,
		.wait_ns = 3900000, .timed = true };
	double pct, oncpu;

	(void)state;
	assert_int_equal(interference_offcpu(&w, 1, 1e7, &pct, &oncpu), 0);
	assert_float_equal(pct, 40.0, 1e-9);
	assert_float_equal(oncpu, 6e6, 0);
	/* quiet: on-CPU is the window within 1%, not flagged */
	w.cpu_ns = 9950000;
	w.wait_ns = 10000;
	assert_int_equal(interference_offcpu(&w, 1, 1e7, &pct, &oncpu), 0);
	assert_float_equal(pct, 0.5, 1e-9);
	assert_float_equal(oncpu, 9.95e6, 0);
	/* a CPU clock a hair past the window is clamped to it */
	w.cpu_ns = 10000100;
	interference_offcpu(&w, 1, 1e7, &pct, &oncpu);
	assert_float_equal(pct, 0.0, 0);
	assert_float_equal(oncpu, 1e7, 0);
}

/* A worker that slept (wall - CPU far over its run-queue wait) keeps the
   wall window; without schedstat nothing is known. */
static void test_offcpu_sleeper_and_unknown(void **state)
{
	struct interference_worker w = { .cpu_ns = 2000000, .wait_ns = 100000,
		.timed = true };
	double pct, oncpu;

	(void)state;
	assert_int_equal(interference_offcpu(&w, 1, 1e7, &pct, &oncpu), 0);
	assert_true(isnan(oncpu));
	assert_float_equal(pct, 1.0, 1e-9);
	w.wait_ns = 700000;
	assert_int_equal(interference_offcpu(&w, 1, 1e7, &pct, &oncpu),
			 INTERF_FLAG_OFFCPU);
	assert_true(isnan(oncpu));
	assert_float_equal(pct, 7.0, 1e-9);
	w.wait_ns = -1;
	assert_int_equal(interference_offcpu(&w, 1, 1e7, &pct, &oncpu), 0);
	assert_true(isnan(oncpu) && isnan(pct));
	assert_int_equal(interference_offcpu(&w, 1, 0, &pct, &oncpu), 0);
	assert_true(isnan(oncpu) && isnan(pct));
}

/* Several workers: the longest run-queue wait, the wall window stays. */
static void test_offcpu_workers(void **state)
{
	struct interference_worker w[2] = {
		{ .cpu_ns = 3000000, .wait_ns = 200000, .timed = true },
		{ .cpu_ns = 3000000, .wait_ns = 800000, .timed = true },
	};
	double pct, oncpu;

	(void)state;
	assert_int_equal(interference_offcpu(w, 2, 1e7, &pct, &oncpu),
			 INTERF_FLAG_OFFCPU);
	assert_true(isnan(oncpu));
	assert_float_equal(pct, 8.0, 1e-9);
	w[1].wait_ns = 300000;
	assert_int_equal(interference_offcpu(w, 2, 1e7, &pct, &oncpu), 0);
	assert_float_equal(pct, 3.0, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_between_quiet),
		cmocka_unit_test(test_between_flags),
		cmocka_unit_test(test_between_unknown),
		cmocka_unit_test(test_live_mark_and_canary),
		cmocka_unit_test(test_offcpu_one_worker),
		cmocka_unit_test(test_offcpu_sleeper_and_unknown),
		cmocka_unit_test(test_offcpu_workers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
