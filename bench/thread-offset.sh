#!/bin/sh
# thread-offset.sh - a benchmark, not a timed test: whether the thread an
# op runs in moves its time, the bias behind ab's A'/A control and the
# reason for `ab --fresh-workers` (docs/comparing.md, "One thread per side
# is a bias").  A small C program (built here with cc) times blocks of
# gettid(2) calls for three "configurations" that are the same code, in
# rounds of a fresh random order, pinned to one CPU, three ways:
#   same     one thread runs all three configurations
#   threads  one long-lived thread per configuration (what ab does)
#   fresh    a new thread per configuration and round (--fresh-workers)
# and prints, per way, the median and quartiles over the rounds of each
# configuration's time against configuration 0's in the same round.  A
# median away from 0 is an offset between identical configurations that
# pairing cannot remove.
#
#   bench/thread-offset.sh [ROUNDS] [REPEATS]    (default 200 rounds, 3)
set -eu
ROUNDS=${1:-200}
REPEATS=${2:-3}
command -v cc >/dev/null || { echo "thread-offset: needs cc" >&2; exit 1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cat >"$d/t.c" <<'C'
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NC 3
#define CALLS 20000
#define WARM 2000

static int rounds, cpu;
static double *res[NC];
static _Atomic int turn = -1, cfg, quit;
static int cur_round;

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static void pin(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static double block(void)
{
	double t0 = now_ns();
	int i;

	for (i = 0; i < CALLS; i++)
		syscall(SYS_gettid);
	return (now_ns() - t0) / CALLS;
}

/* long-lived: serves turn == id (or every turn when id < 0) */
static void *served(void *p)
{
	int id = (int)(long)p, t;

	pin();
	for (;;) {
		while ((t = atomic_load(&turn)) < 0 || (id >= 0 && t != id)) {
			if (atomic_load(&quit))
				return NULL;
			sched_yield();
		}
		res[atomic_load(&cfg)][cur_round] = block();
		atomic_store(&turn, -1);
	}
}

static void *once(void *p)
{
	int i;

	(void)p;
	pin();
	for (i = 0; i < WARM; i++)
		syscall(SYS_gettid);
	res[atomic_load(&cfg)][cur_round] = block();
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const char *way = argv[1];
	pthread_t t[NC];
	int r, k, c, n = 0;

	rounds = atoi(argv[2]);
	cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
	for (c = 0; c < NC; c++)
		res[c] = calloc(rounds, sizeof(double));
	if (!strcmp(way, "same"))
		pthread_create(&t[n++], NULL, served, (void *)-1L);
	else if (!strcmp(way, "threads"))
		for (c = 0; c < NC; c++)
			pthread_create(&t[n++], NULL, served, (void *)(long)c);
	srand(1);
	for (r = 0; r < rounds; r++) {
		int ord[NC] = { 0, 1, 2 };

		for (k = NC - 1; k > 0; k--) {
			int j = rand() % (k + 1), x = ord[k];

			ord[k] = ord[j];
			ord[j] = x;
		}
		cur_round = r;
		for (k = 0; k < NC; k++) {
			atomic_store(&cfg, ord[k]);
			if (!strcmp(way, "fresh")) {
				pthread_t f;

				pthread_create(&f, NULL, once, NULL);
				pthread_join(f, NULL);
				continue;
			}
			atomic_store(&turn, !strcmp(way, "same") ? 0 : ord[k]);
			while (atomic_load(&turn) != -1)
				;
		}
	}
	atomic_store(&quit, 1);
	for (k = 0; k < n; k++)
		pthread_join(t[k], NULL);
	printf("%-8s", way);
	for (c = 1; c < NC; c++) {
		double *q = calloc(rounds, sizeof(double));

		for (r = 0; r < rounds; r++)
			q[r] = (res[c][r] / res[0][r] - 1) * 100;
		qsort(q, rounds, sizeof(double), cmp);
		printf("  cfg %d/0 %+6.2f%% (q25 %+.2f, q75 %+.2f)", c,
		       q[rounds / 2], q[rounds / 4], q[3 * rounds / 4]);
		free(q);
	}
	printf("  gettid %.0f ns\n", res[0][rounds / 2]);
	return 0;
}
C
cc -O2 -pthread -o "$d/t" "$d/t.c"
echo "thread-offset: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $ROUNDS rounds of $((20000)) gettid calls per configuration"
i=0
while [ $i -lt "$REPEATS" ]; do
	for way in same threads fresh; do
		"$d/t" "$way" "$ROUNDS"
	done
	i=$((i + 1))
done
