/*
 * hwcount.h - per-thread hardware counters around a sample (`run
 * --hw-counters`): core cycles, instructions, cache misses and dTLB load
 * misses of the calling thread, from one perf_event group on the PMU.
 *
 * The session probes once which counters open here (hwcount_probe())
 * and says so in the run's environment (hwcount_env()); each worker then
 * opens the same group for itself (hwcount_open()) and reads it just
 * outside its timed window, at the start and the end of each batch
 * (hwcount_read(), one read() of the group each time): nothing is added
 * inside the window.  A counter the PMU lacks is left out and named; on
 * a machine with no PMU (most guests without a virtual PMU:
 * perf_event_open says ENOENT) nothing is opened and nothing is made up.
 *
 * Where the PMU is shared (other perf users, the NMI watchdog) the
 * kernel multiplexes the group: it counts only part of the time it is
 * enabled.  Each delta is then scaled by delta time_enabled / delta
 * time_running, as perf stat does; a counter that never ran in a sample
 * gives no figure for it.
 *
 * Where the counts come from is pluggable (hwcount_set_source()), so a
 * unit test can feed known counts; the default is perf_event_open(2).
 */
#ifndef COPYSCOPE_HWCOUNT_H
#define COPYSCOPE_HWCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "env/env.h"
#include "results/hw_metrics.h"

enum hwcount_counter {
	HWC_CYCLES,		/* PERF_COUNT_HW_CPU_CYCLES */
	HWC_INSTRUCTIONS,	/* PERF_COUNT_HW_INSTRUCTIONS */
	HWC_CACHE_MISSES,	/* PERF_COUNT_HW_CACHE_MISSES */
	HWC_DTLB_MISSES,	/* HW_CACHE dTLB, read, miss */
	HWC_N
};

/* perf's names of the counters: "cycles", ..., "dTLB-load-misses". */
extern const char *const hwcount_names[HWC_N];

#define HWCOUNT_NA UINT64_MAX	/* a counter not read */

/* One counter as read: its count and the group's times, ns. */
struct hwcount_reading {
	uint64_t value;		/* HWCOUNT_NA: not open or not read */
	uint64_t enabled_ns, running_ns;
};

struct hwcount_values {
	struct hwcount_reading c[HWC_N];
};

/* A thread's open counters. */
struct hwcount {
	int fd[HWC_N];		/* -1: not open */
	int leader;		/* the group leader's fd, -1: none open */
};

/*
 * Where counts come from.  open: counter c for the calling thread (the
 * kernel's share left out when user_only) in the group of leader (-1:
 * as the leader); an fd >= 0, or -errno.  read: every open counter of
 * hc into v (the others HWCOUNT_NA); 0, or -1 with every value
 * HWCOUNT_NA.  close: an fd open() gave.
 */
struct hwcount_source {
	int (*open)(enum hwcount_counter c, bool user_only, int leader);
	int (*read)(const struct hwcount *hc, struct hwcount_values *v);
	void (*close)(int fd);
};

/*
 * The default source: perf_event_open(2) of the four hardware events.
 * Its read and close serve any group opened with PERF_FORMAT_GROUP |
 * TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING in counter order (a test opens
 * software events and reads them with these).
 */
extern const struct hwcount_source hwcount_perf;

/* Use src from now on (NULL: hwcount_perf, the default). */
void hwcount_set_source(const struct hwcount_source *src);

/* What opens here, as hwcount_probe() found it. */
struct hwcount_probe {
	bool have[HWC_N];	/* the counter opened */
	int nhave;
	bool user_only;		/* the kernel's share was refused */
	bool no_pmu;		/* nothing opened, and every counter was
				   refused as absent (ENOENT, ENODEV,
				   EOPNOTSUPP): there is no PMU here */
	/* what is missing and why: "dTLB-load-misses: Operation not
	   supported"; for none "perf_event_open: No such file or
	   directory"; "" when all opened */
	char missing[256];
};

/*
 * Find which counters open for the calling thread, as a group, with the
 * kernel's share, else (perf_event_paranoid) without it; closes them
 * again.  Never fails: p says what there is.
 */
void hwcount_probe(struct hwcount_probe *p);

/*
 * Open p's counters in every hwcount_open() from now on (NULL, or none
 * in p: open nothing, the default).  Call before workers start.
 */
void hwcount_use(const struct hwcount_probe *p);

/* Whether hwcount_open() opens any counter. */
bool hwcount_on(void);

/*
 * The environment keys of p (results/hw_metrics.h: HW_ENV_*) into env.
 * 0, or -1 on ENOMEM.
 */
int hwcount_env(const struct hwcount_probe *p, struct env *env);

/*
 * Open the counters in use for the calling thread (none when off).  A
 * counter that does not open reads HWCOUNT_NA; never fails.
 */
void hwcount_open(struct hwcount *hc);

/* Read hc (opened by the calling thread) into v; HWCOUNT_NA where not. */
void hwcount_read(const struct hwcount *hc, struct hwcount_values *v);

void hwcount_close(struct hwcount *hc);

/*
 * One counter's count between readings a and b, scaled by the share of
 * the time it ran: (b.value - a.value) * (b.enabled - a.enabled) /
 * (b.running - a.running).  NAN when either is HWCOUNT_NA, the count
 * went backwards, or it never ran in between.  *running_pct: the share
 * it ran, % (100: not multiplexed; NAN with the count).
 */
double hwcount_delta(const struct hwcount_reading *a,
		     const struct hwcount_reading *b, double *running_pct);

/* A sample's counts summed over its workers. */
struct hwcount_sum {
	double count[HWC_N];	/* scaled; NAN: some worker lacks it */
	double running_pct;	/* the least share any counter ran, %;
				   NAN: none ran */
	int nworkers;
};

void hwcount_sum_init(struct hwcount_sum *s);

/* Add one worker's readings at the batch's start (a) and end (b). */
void hwcount_sum_add(struct hwcount_sum *s, const struct hwcount_values *a,
		     const struct hwcount_values *b);

/*
 * The per-op figures of s over nops ops into out[HW_NMETRICS]
 * (results/hw_metrics.h): cycles, instructions, cache and dTLB misses
 * per op, and IPC = instructions / cycles; NAN where a count is unknown
 * (or nops is 0, or no cycles for IPC).
 */
void hwcount_per_op(const struct hwcount_sum *s, uint64_t nops,
		    double out[HW_NMETRICS]);

#endif
