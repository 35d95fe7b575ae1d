/*
 * swcount.h - per-thread software counters around a sample.
 *
 * Context switches, CPU migrations and page faults of the calling thread,
 * read from perf_event_open software events (PERF_COUNT_SW_CONTEXT_SWITCHES,
 * _CPU_MIGRATIONS, _PAGE_FAULTS; these work without a PMU) or, where
 * perf_event_open is refused, from getrusage(RUSAGE_THREAD) (voluntary +
 * involuntary switches, minor + major faults; migrations from
 * /proc/thread-self/sched where the kernel has it).  getrusage is the
 * default: an open perf event makes every context switch of the task
 * dearer (see swcount.c); perf events are opt-in.
 */
#ifndef COPYSCOPE_SWCOUNT_H
#define COPYSCOPE_SWCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#define SWCOUNT_NA UINT64_MAX	/* a counter this source cannot give */

struct swcount {
	int fd[3];		/* perf fds, -1 when not open */
	bool perf;		/* true: perf events; false: getrusage */
	bool sched_file;	/* getrusage mode: /proc/thread-self/sched */
};

struct swcount_values {
	uint64_t ctx_switches;
	uint64_t migrations;	/* SWCOUNT_NA under getrusage */
	uint64_t faults;
};

/*
 * Use perf software events in swcount_open() from now on (default: no,
 * getrusage).  Call before workers start.
 */
void swcount_prefer_perf(bool on);

/*
 * Open counters for the calling thread.  Never fails: uses getrusage
 * unless perf events are preferred and can be opened.  Returns true if
 * perf events are used.
 */
bool swcount_open(struct swcount *sc);

/* Current totals for the calling thread (the one that opened sc). */
void swcount_read(const struct swcount *sc, struct swcount_values *v);

/* b - a per field (SWCOUNT_NA stays SWCOUNT_NA). */
void swcount_diff(const struct swcount_values *a,
		  const struct swcount_values *b, struct swcount_values *d);

void swcount_close(struct swcount *sc);

#endif
