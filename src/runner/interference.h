/*
 * interference.h - what else happened on the machine during a sample.
 *
 * Around every kept sample the runner takes a mark before and after:
 *   - /proc/stat's "cpu" line: busy time (user, nice, system, irq,
 *     softirq), steal and the total of all CPUs, in USER_HZ ticks;
 *   - this run's own CPU time in ns: the coordinator process with all its
 *     threads (CLOCK_PROCESS_CPUTIME_ID) plus each worker process
 *     (clock_getcpuclockid);
 *   - a canary: a short fixed-work loop (CANARY_ITERS dependent
 *     multiply-adds, about 20 us here) timed with CLOCK_MONOTONIC_RAW, run
 *     three times, the median kept.  A guest cannot always see its host's
 *     load (steal can stay 0), but the same fixed work running slower
 *     than calibrated shows it.
 * From two marks: other CPU = busy - own CPU time, as a percentage of the
 * machine's total CPU time in the sample; steal as a percentage of the
 * same; the canary time is the slower of the two ends.
 *
 * A sample is flagged when
 *   - other CPU > INTERF_OTHER_PCT of the machine AND more than
 *     INTERF_RES_TICKS ticks (the /proc/stat resolution: tick accounting
 *     attributes whole ticks, so shorter samples only catch heavy load), or
 *   - steal > INTERF_STEAL_PCT of the machine, or
 *   - the canary ran more than INTERF_CANARY_SLOW times its calibrated
 *     median (taken when the configuration started), or
 *   - the workers did not run for more than INTERF_OFFCPU_PCT of the
 *     sample's window and its figures come from that window
 *     (interference_offcpu(): the worker's own CPU clock and run-queue
 *     wait, read by each worker around its batch).
 */
#ifndef COPYSCOPE_INTERFERENCE_H
#define COPYSCOPE_INTERFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "results/sample_flags.h"

#define INTERF_OTHER_PCT 10.0
#define INTERF_STEAL_PCT 5.0
#define INTERF_RES_TICKS 2
#define INTERF_CANARY_SLOW 1.5
/* A sample whose workers did not run for more than this % of its
   window is flagged offcpu (see interference_offcpu()). */
#define INTERF_OFFCPU_PCT SAMPLE_OFFCPU_PCT
/* Dependent multiply-adds of one canary run (about 4 cycles each). */
#define CANARY_ITERS 12000

/* Why a sample was flagged: INTERF_FLAG_* bits (results/sample_flags.h). */

/* The machine-wide counters of /proc/stat's "cpu" line, in ticks. */
struct proc_stat_cpu {
	uint64_t busy;		/* user + nice + system + irq + softirq */
	uint64_t steal;
	uint64_t total;		/* every field but guest (inside user) */
};

struct interference_mark {
	struct proc_stat_cpu cpu;
	bool have_cpu;		/* /proc/stat was readable */
	double self_ns;		/* own CPU time: process + worker processes */
	bool have_self;
	double canary_ns;
};

struct interference_sample {
	double other_cpu_pct;	/* NAN when unknown */
	double steal_pct;	/* NAN when unknown */
	double canary_ns;	/* slower end of the sample */
	unsigned flags;		/* INTERF_FLAG_* */
};

/*
 * Parse the "cpu " line of /proc/stat text.  Returns 0, or -1 when the
 * text has no such line with at least 4 numbers.
 */
int interference_parse_stat(const char *text, struct proc_stat_cpu *out);

/*
 * One canary run: the median of three timed runs of the fixed-work loop,
 * in ns.
 */
double interference_canary_ns(void);

/* The canary's reference: the median of 15 canary runs, in ns. */
double interference_canary_calibrate(void);

/*
 * Take a mark: /proc/stat, the CPU time of this process and of the worker
 * processes pids[0..npids-1] (0 entries skipped), and a canary run.
 * Never fails: what cannot be read is marked missing.
 */
void interference_mark(struct interference_mark *m, const pid_t *pids,
		       int npids);

/*
 * The interference of the sample between marks a and b, flagged against
 * canary_ref_ns (<= 0: no canary check) and the tick length tick_ns of
 * /proc/stat (from sysconf(_SC_CLK_TCK)).
 */
void interference_between(const struct interference_mark *a,
			  const struct interference_mark *b,
			  double canary_ref_ns, double tick_ns,
			  struct interference_sample *out);

/* One worker's clocks over one batch, ns (a value < 0: not readable). */
struct interference_worker {
	int64_t cpu_ns;		/* its own CPU time (user + system) */
	int64_t wait_ns;	/* its run-queue wait (schedstat) */
	bool timed;		/* its t1 counts in the window (not idle) */
};

/*
 * How much of a sample's window_ns its nw workers w[] did not run, as
 * % of the window, into *offcpu_pct (NAN when unknown), and the on-CPU
 * ns the window metrics use into *oncpu_ns (NAN: use the wall window).
 *   - One worker: it never sleeps in its batch (every workload with one
 *     worker is a loop of calls that return at once), so wall minus its
 *     CPU time is time it did not run: preempted, waiting for a CPU, its
 *     CPU stolen (where the guest accounts steal), an interrupt (where
 *     the kernel accounts IRQ time).  *oncpu_ns is its CPU time, unless
 *     its run-queue wait says it slept: when wall - CPU exceeds the wait
 *     by more than INTERF_OFFCPU_PCT of the window it blocked (a file
 *     read that went to the disk), and the wall window stays
 *     (*offcpu_pct from the wait alone).  Without the wait (no
 *     schedstat) sleeping cannot be told from preemption: the wall
 *     window stays and *offcpu_pct is unknown.
 *   - Several workers: they wait for each other, so only the run-queue
 *     wait counts: the longest of any worker; the wall window stays.
 * Returns the INTERF_FLAG_OFFCPU bit when *offcpu_pct exceeds
 * INTERF_OFFCPU_PCT and the figures stay on the wall window (which then
 * carries that time), else 0: on-CPU figures do not carry it.
 */
unsigned interference_offcpu(const struct interference_worker *w, int nw,
			     double window_ns, double *offcpu_pct,
			     double *oncpu_ns);

/* The length of one /proc/stat tick in ns (USER_HZ). */
double interference_tick_ns(void);

#endif
