/*
 * kernel_records.h - the results model of the kernel-side views (run --kernel):
 * what the kernel did for one configuration's workers during its traced
 * samples, aggregated once (kernel/kview.c) and then stored, decoded
 * (results/codec_kernel.c) and printed (report/kernel_text.c) as these
 * records.
 *
 * The traced samples are a pass of their own beside the kept samples
 * (each kept sample is followed by a traced one of the same batch), so
 * the untraced figures never carry the tracer's cost; the cost is the
 * traced samples' time per op against the untraced ones'.
 */
#ifndef COPYSCOPE_RESULTS_KERNEL_RECORDS_H
#define COPYSCOPE_RESULTS_KERNEL_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/kview_table.h"

/*
 * Log2 buckets of a wait: bucket 0 holds [0, 2) ns, bucket b >= 1 holds
 * [2^b, 2^(b+1)) ns; the last holds everything from 2^47 ns (39 hours).
 */
#define KV_LOG2_BUCKETS 48

/* One row of the lock table: a lock type and the caller that waited. */
struct kv_lock_row {
	char *type;			/* perf lock's names: "mutex",
					   "spinlock", "rwsem:W", ... */
	char *caller;			/* "ksys_write+0xc3"; for the row of
					   everything else "[other tasks]" */
	bool other;			/* tasks other than the workers */
	uint64_t contended, total_ns, max_ns;
	uint64_t hist[KV_LOG2_BUCKETS];	/* waits by log2 bucket */
};

/* In-kernel time of one system call number, of the workers. */
struct kv_sys_row {
	int nr;
	char *name;			/* "write", or "nr 452" */
	uint64_t count, total_ns, p99_ns, max_ns;
};

/*
 * The profile view's default frequency, Hz, of each worker: its cost on
 * sys.null against the same run without it is under 2%
 * (docs/kernel-views.md); a prime, so that it does not beat with
 * periodic work.
 */
#define KV_PROF_DEFAULT_HZ 499

/*
 * One folded stack of the profile: its frames root first, joined by
 * ';' ("[user];entry_SYSCALL_64;do_syscall_64;read_zero"), as
 * flamegraph.pl and inferno read them, and the samples that had it.
 */
struct kv_prof_stack {
	char *frames;
	uint64_t count;
};

/*
 * One traced sample's part of the profile: its samples by stack (the
 * index into result_kernel.stacks), and the op's measured time of the
 * kept sample it follows, which its shares are of (the paired and the
 * unpaired diffs of comparison/profile_diff.h take a function's ns per
 * op sample by sample).
 */
struct kv_prof_sample {
	double op_ns;			/* ns per op of the kept sample it
					   follows (the on-CPU time where
					   the metrics use it, else the
					   window); NAN: unknown */
	uint64_t samples;		/* the counts add up to it */
	size_t n;
	uint32_t *stack;		/* [n] indices into stacks */
	uint64_t *count;		/* [n] */
};

/* Everything the views recorded for one configuration. */
struct result_kernel {
	unsigned views;			/* KVIEW_* bits recorded */
	size_t nsamples;		/* traced samples */
	uint64_t ops;			/* ops of all traced samples: of the
					   workload ("one write by one
					   writer"), not of the batch */
	/* medians of the traced and the untraced samples' time per op
	   (ns), and the overhead: traced / untraced - 1, in % */
	double traced_ns_per_op, untraced_ns_per_op, overhead_pct;
	uint64_t lost;			/* records the kernel dropped */
	/* per traced sample, CLOCK_MONOTONIC_RAW ns: the first batch's
	   start and the last one's end (to line up another tool's
	   records); [2 * nwindows], 0 when unknown */
	uint64_t *windows;
	size_t nwindows;
	/* lock: the workers' rows by total wait, then everything else */
	struct kv_lock_row *locks;
	size_t nlocks;
	/* sched: wake-up latency of the workers (sched_wakeup to the
	   sched_switch that ran them), the CPU each landed on, and the
	   time they spent runnable but not running (ns) */
	uint64_t wakeups, wake_p50_ns, wake_p99_ns, wake_max_ns;
	double wake_mean_ns;
	uint64_t wake_hist[KV_LOG2_BUCKETS];
	uint64_t *wake_cpu;		/* [nwake_cpu] wake-ups per CPU */
	size_t nwake_cpu;
	uint64_t rq_wait_ns, preemptions;
	/* syscall: per number, by total time; the workers' in-kernel time
	   and their wall time (window x workers) over the traced samples */
	struct kv_sys_row *sys;
	size_t nsys;
	uint64_t sys_ns;
	double thread_ns;
	/* profile: the event ("cpu-clock" or "cycles"), whether the
	   machine has a PMU, the sampling frequency (Hz), the workers'
	   samples inside their batches (the stacks' counts add up to it),
	   those outside them (the harness around a batch: dropped) and
	   those the kernel lost (its ring full); the stacks by count */
	char prof_event[16];
	bool prof_pmu;
	unsigned prof_hz;
	uint64_t prof_samples, prof_outside, prof_lost;
	struct kv_prof_stack *stacks;
	size_t nstacks;
	/* the same per traced sample, in order ([nprof_per]; NULL in runs
	   stored before it was recorded) */
	struct kv_prof_sample *prof_per;
	size_t nprof_per;
};

/*
 * The metrics of the traced samples, one value per traced sample: their
 * time per op (info: the overhead's numerator), and per view what
 * compare judges: the workers' contended lock waits per op and their
 * wait per op, their wake-up p99, and (info) the share of their wall
 * time spent in system calls.  Names fit the tables' 12 columns.
 */
#define KVIEW_METRIC_TIME "traced t/op"
#define KVIEW_METRIC_WAITS "contended/op"
#define KVIEW_METRIC_WAIT "lock wait/op"
#define KVIEW_METRIC_WAKE "wakeup p99"
#define KVIEW_METRIC_SYS "in-kernel %"

/* "lock,sched" for a mask (the table's names), into buf; "" for 0. */
void kview_mask_text(unsigned views, char *buf, size_t len);

/*
 * Parse "lock,sched,syscall" (any order, no repeats) into *views.
 * Returns 0, or -1 with the reason in err naming --kernel and the views
 * allowed.
 */
int kview_parse(const char *text, unsigned *views, char *err, size_t errlen);

/* The log2 bucket of a wait of ns. */
size_t kv_log2_bucket(uint64_t ns);

void result_kernel_free(struct result_kernel *k);

#endif
