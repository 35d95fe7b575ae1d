/*
 * bare_pipe.c - reference for copyscope's pipe.bw: the simplest honest
 * one-writer-one-reader pipe bandwidth measurement, to check that
 * copyscope's harness does not make the pipe look slower than it is
 * (bench/run-bench.sh).
 *
 * Matches pipe.bw's defaults: two processes (fork), one pipe of the
 * kernel's default capacity, write(2) of SIZE bytes (64 KiB) and read(2)
 * of SIZE bytes, writer pinned to WCPU and reader to RCPU (0 and 1, as
 * place=split puts them; give the same CPU twice for place=same).
 * Buffers are page-aligned and prefaulted before anything is timed.
 *
 * Each repetition: the reader reads CLOCK_MONOTONIC_RAW, sends the writer
 * the number of bytes to move on a second (control) pipe, and reads that
 * many bytes from the data pipe; the writer, woken by that message,
 * writes them.  The reader reads the clock again once it holds the last
 * byte.  So the window, like copyscope's, runs from before the writer
 * starts to the reader holding the last byte, and includes one wake-up of
 * the writer.  Like copyscope, the bytes per repetition grow until one
 * repetition lasts at least TARGET_MS (doubling or more, at most x100 a
 * step, aiming 20% past the target); two untimed warm-up repetitions of
 * that size follow, then REPS kept ones.  Prints the median, minimum and
 * maximum bandwidth over the kept repetitions, in bytes per second, and
 * the bytes per repetition:
 *
 *	bytes_per_sec MEDIAN min MIN max MAX bytes N
 *
 * usage: bare_pipe [WCPU RCPU [REPS [TARGET_MS [SIZE]]]]
 *        (defaults: 0 1 10 100 65536)
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
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
		fprintf(stderr, "bare_pipe: bad %s '%s' (%ld..%ld)\n", what, s,
			lo, hi);
		exit(2);
	}
	return v;
}

static void die(const char *what)
{
	fprintf(stderr, "bare_pipe: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0)
		die("clock_gettime");
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void pin(long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		die("sched_setaffinity");
}

/* Page-aligned, prefaulted anonymous memory. */
static char *alloc_buf(size_t len)
{
	char *b = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (b == MAP_FAILED)
		die("mmap");
	memset(b, 0xa5, len);
	return b;
}

/* Writer: for each count read from ctl, write that many bytes. */
static void writer(int ctl, int out, size_t size)
{
	char *buf = alloc_buf(size);

	for (;;) {
		long left;
		ssize_t n = read(ctl, &left, sizeof(left));

		if (n == 0)
			_exit(0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("writer: read control pipe");
		}
		if (n != sizeof(left)) {
			fprintf(stderr, "bare_pipe: writer: short control "
				"message\n");
			_exit(1);
		}
		while (left > 0) {
			n = write(out, buf, (size_t)left < size ? (size_t)left
								: size);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				die("writer: write");
			}
			left -= n;
		}
	}
}

/* Reader: one repetition of `bytes` bytes; returns its nanoseconds. */
static double reader_rep(int ctl, int in, char *buf, long bytes, size_t size)
{
	double t0, t1;
	long left;

	t0 = now_ns();
	while (write(ctl, &bytes, sizeof(bytes)) != sizeof(bytes))
		if (errno != EINTR)
			die("reader: write control pipe");
	for (left = bytes; left > 0;) {
		ssize_t n = read(in, buf, size);

		if (n == 0) {
			fprintf(stderr, "bare_pipe: reader: unexpected end "
				"of file\n");
			exit(1);
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("reader: read");
		}
		left -= n;
	}
	t1 = now_ns();
	return t1 - t0;
}

/* Bytes per repetition (a multiple of size) lasting >= target_ns. */
static long grow(int ctl, int in, char *buf, size_t size, double target_ns)
{
	long bytes = (long)size;

	for (;;) {
		double t = reader_rep(ctl, in, buf, bytes, size), f;
		long msgs;

		if (t >= target_ns || bytes >= (1L << 40))
			return bytes;
		f = t > 0 ? target_ns * 1.2 / t : 100.0;
		if (f < 2.0)
			f = 2.0;
		if (f > 100.0)
			f = 100.0;
		msgs = (long)((double)(bytes / (long)size) * f + 0.5);
		bytes = msgs * (long)size;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static double bw[MAX_REPS];
	long wcpu = 0, rcpu = 1, reps = 10, target_ms = 100, size = 65536;
	long bytes, r;
	int data[2], ctl[2], st;
	double med;
	char *buf;
	pid_t pid;

	if (argc == 2 || argc > 6) {
		fprintf(stderr, "usage: bare_pipe [WCPU RCPU [REPS "
			"[TARGET_MS [SIZE]]]]\n");
		return 2;
	}
	if (argc > 2) {
		wcpu = parse_arg(argv[1], "WCPU", 0, CPU_SETSIZE - 1);
		rcpu = parse_arg(argv[2], "RCPU", 0, CPU_SETSIZE - 1);
	}
	if (argc > 3)
		reps = parse_arg(argv[3], "REPS", 1, MAX_REPS);
	if (argc > 4)
		target_ms = parse_arg(argv[4], "TARGET_MS", 1, 100000);
	if (argc > 5)
		size = parse_arg(argv[5], "SIZE", 1, 256L << 20);

	if (pipe(data) != 0 || pipe(ctl) != 0)
		die("pipe");
	if (fflush(NULL) != 0)
		die("fflush");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (close(data[0]) != 0 || close(ctl[1]) != 0)
			die("writer: close");
		pin(wcpu);
		writer(ctl[0], data[1], (size_t)size);
	}
	if (close(data[1]) != 0 || close(ctl[0]) != 0)
		die("close");
	pin(rcpu);
	buf = alloc_buf((size_t)size);

	bytes = grow(ctl[1], data[0], buf, (size_t)size,
		     (double)target_ms * 1e6);
	reader_rep(ctl[1], data[0], buf, bytes, (size_t)size);	/* warm-up */
	reader_rep(ctl[1], data[0], buf, bytes, (size_t)size);
	for (r = 0; r < reps; r++)
		bw[r] = (double)bytes * 1e9 /
			reader_rep(ctl[1], data[0], buf, bytes, (size_t)size);

	if (close(ctl[1]) != 0)		/* the writer sees EOF and exits */
		die("close");
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bare_pipe: the writer failed (status 0x%x)\n",
			st);
		return 1;
	}

	qsort(bw, (size_t)reps, sizeof(bw[0]), cmp_double);
	med = reps % 2 ? bw[reps / 2]
		       : (bw[reps / 2 - 1] + bw[reps / 2]) / 2;
	if (printf("bytes_per_sec %.0f min %.0f max %.0f bytes %ld\n", med,
		   bw[0], bw[reps - 1], bytes) < 0 || fflush(stdout) != 0) {
		perror("bare_pipe: stdout");
		return 1;
	}
	return 0;
}
