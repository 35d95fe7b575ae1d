/*
 * bare_gettid.c - reference for copyscope's sys.null: the simplest honest
 * measurement of a null system call, to check that copyscope's harness
 * does not make the call look slower than it is (bench/run-bench.sh).
 *
 * Pins itself to one CPU and times whole loops of syscall(SYS_gettid)
 * (the primitive sys.null uses) with clock_gettime(CLOCK_MONOTONIC_RAW).
 * Like copyscope, it first grows the number of calls per repetition
 * until one repetition lasts at least TARGET_MS (doubling or more, at most
 * x100 a step, aiming 20% past the target), runs two untimed warm-up
 * repetitions of that size, then REPS kept repetitions.  Prints the
 * median, minimum and maximum nanoseconds per call over the kept
 * repetitions, and the calls per repetition:
 *
 *	ns_per_call MEDIAN min MIN max MAX calls N
 *
 * The loop's compare-and-branch is not subtracted (copyscope does not
 * subtract it either).
 *
 * usage: bare_gettid [CPU [REPS [TARGET_MS]]]   (defaults: 0 10 100)
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_REPS 1000

static long parse_arg(const char *s, const char *what, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "bare_gettid: bad %s '%s' (%ld..%ld)\n", what,
			s, lo, hi);
		exit(2);
	}
	return v;
}

static double now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0) {
		perror("bare_gettid: clock_gettime");
		exit(1);
	}
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void calls(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_gettid);
}

/* Nanoseconds one loop of n calls takes. */
static double timed_calls(long n)
{
	double t0 = now_ns();

	calls(n);
	return now_ns() - t0;
}

/* Calls per repetition so that one lasts at least target_ns. */
static long grow(double target_ns)
{
	long n = 1000;

	for (;;) {
		double t = timed_calls(n), f;

		if (t >= target_ns || n >= 1000000000L)
			return n;
		f = t > 0 ? target_ns * 1.2 / t : 100.0;
		if (f < 2.0)
			f = 2.0;
		if (f > 100.0)
			f = 100.0;
		n = (long)((double)n * f + 0.5);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static double ns[MAX_REPS];
	long cpu = 0, reps = 10, target_ms = 100, n, r;
	cpu_set_t set;
	double med;

	if (argc > 4) {
		fprintf(stderr, "usage: bare_gettid [CPU [REPS "
			"[TARGET_MS]]]\n");
		return 2;
	}
	if (argc > 1)
		cpu = parse_arg(argv[1], "CPU", 0, CPU_SETSIZE - 1);
	if (argc > 2)
		reps = parse_arg(argv[2], "REPS", 1, MAX_REPS);
	if (argc > 3)
		target_ms = parse_arg(argv[3], "TARGET_MS", 1, 100000);

	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		fprintf(stderr, "bare_gettid: sched_setaffinity(cpu %ld): "
			"%s\n", cpu, strerror(errno));
		return 1;
	}

	n = grow((double)target_ms * 1e6);
	calls(n);			/* warm-up, not kept */
	calls(n);
	for (r = 0; r < reps; r++)
		ns[r] = timed_calls(n) / (double)n;
	qsort(ns, (size_t)reps, sizeof(ns[0]), cmp_double);
	med = reps % 2 ? ns[reps / 2]
		       : (ns[reps / 2 - 1] + ns[reps / 2]) / 2;
	if (printf("ns_per_call %.3f min %.3f max %.3f calls %ld\n", med,
		   ns[0], ns[reps - 1], n) < 0 || fflush(stdout) != 0) {
		perror("bare_gettid: stdout");
		return 1;
	}
	return 0;
}
