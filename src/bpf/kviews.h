/*
 * kviews.h - what the kernel views' BPF program (kviews.bpf.c) and its
 * loader (kernel/kview_bpf.c) share: the maps' keys and values, and the
 * two bucket functions, written once so that the program's buckets are
 * the ones user space reads back.
 *
 * The program aggregates in the kernel, per sample: lock waits per
 * (stack, lock type) with a log2 histogram each; the workers' wake-up
 * latencies and system call times as counts, sums and maxima beside a
 * log-linear histogram (the buckets of stats/histogram.h); user space
 * reads the maps between samples and zeroes them.
 */
#ifndef COPYSCOPE_BPF_KVIEWS_H
#define COPYSCOPE_BPF_KVIEWS_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#define KVB_MAX_TIDS 64			/* workers of a configuration */
#define KVB_STACK_DEPTH 32		/* frames of a lock's stack */
#define KVB_LOG2_BUCKETS 48		/* = KV_LOG2_BUCKETS */
#define KVB_SUB_BITS 5			/* = HIST_SUB_BITS */
#define KVB_SUB (1u << KVB_SUB_BITS)

/* The histograms of kvb_hist_key.kind. */
#define KVB_HIST_WAKE 1u		/* wake-up latency, id 0 */
#define KVB_HIST_SYS 2u			/* a system call's time, id = nr */

/* contention_begin's flags (include/trace/events/lock.h). */
#define KVB_LCB_F_SPIN 0x1u

/* One worker's state within the sample numbered gen. */
struct kvb_task {
	__u32 idx;			/* its slot: where its batch mark is */
	__u32 gen;
	__u32 on_cpu, wake_pending, runnable, sys_pending;
	__u32 in_batch;			/* its mark as last read */
	__u32 pad;
	__s64 sys_nr;
	__u64 wake_ts, runnable_ts, sys_ts;
};

/* A task waiting for a lock (any task: others make their own row). */
struct kvb_lock_state {
	__u64 addr, ts;
	__u32 flags, gen, pending;
	__s32 stack_id;			/* workers only; -1 else */
};

/* A row of the lock table: a worker's stack and lock type, or others. */
struct kvb_lock_key {
	__s32 stack_id;			/* -1: unknown or another task */
	__u32 flags;			/* 0 for other tasks */
	__u32 other;
};

struct kvb_lock_val {
	__u64 contended, total_ns, max_ns;
	__u64 hist[KVB_LOG2_BUCKETS];
};

/* The sched view's sums, one per CPU (landed: wake-ups run there). */
struct kvb_sched {
	__u64 wakeups, wake_total_ns, wake_max_ns;
	__u64 rq_wait_ns, preemptions, landed;
};

struct kvb_sys_val {
	__u64 count, total_ns, max_ns;
};

struct kvb_hist_key {
	__u32 kind, id, bucket, pad;
};

/* The most significant bit of v (0 for 0 and 1). */
static inline __u32 kvb_msb(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

/* The log2 bucket of ns: kv_log2_bucket() of results/kernel_records.h. */
static inline __u32 kvb_log2_bucket(__u64 ns)
{
	__u32 b = kvb_msb(ns);

	return b < KVB_LOG2_BUCKETS - 1 ? b : KVB_LOG2_BUCKETS - 1;
}

/* The log-linear bucket of v: hist_bucket_of() of stats/histogram.h. */
static inline __u32 kvb_fine_bucket(__u64 v)
{
	__u32 k;

	if (v < KVB_SUB)
		return (__u32)v;
	k = kvb_msb(v);
	return (k - KVB_SUB_BITS + 1) * KVB_SUB +
	       (__u32)((v >> (k - KVB_SUB_BITS)) - KVB_SUB);
}

#endif
