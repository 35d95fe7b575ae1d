/*
 * observe_maps.h - what observe.bpf.c and its loader
 * (kernel/observe_attach.c) share:
 * the map keys and values, the size classes of pipe writes and the
 * counters of events the program had to drop.  Plain fixed-size types,
 * the same layout on both sides.
 */
#ifndef COPYSCOPE_BPF_OBSERVE_H
#define COPYSCOPE_BPF_OBSERVE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define OBS_COMM_LEN 16
#define OBS_LOG2_BUCKETS 64		/* bucket b: [2^b, 2^(b+1)), 0 in 0 */
/*
 * The seed thread's classes of a pipe write's size: < 128 B, 128 B - 4 KiB,
 * then 4-8, 8-16, 16-32, 32-64, 64-128 KiB, and 128 KiB or more.
 */
#define OBS_NCLASSES 8
#define OBS_NSYSCALLS 512		/* per-syscall rows; others dropped */
#define OBS_STACK_DEPTH 16		/* kernel frames kept per contention */
#define OBS_MAX_COMMS 1024		/* x CPUs: allocated when seen */
#define OBS_MAX_LOCK_ROWS 8192
#define OBS_MAX_PENDING 16384		/* tasks inside a traced call */

/* What the program could not record, by reason (the drops array). */
enum obs_drop {
	OBS_DROP_PENDING_FULL,		/* a task's entry: no slot left */
	OBS_DROP_COMM_FULL,		/* a comm's row: map full */
	OBS_DROP_LOCK_FULL,		/* a caller's row: map full */
	OBS_DROP_STACK,			/* no stack id (stack map full) */
	OBS_DROP_SYSCALL_NR,		/* syscall number >= OBS_NSYSCALLS */
	OBS_DROP_WAKE_FULL,		/* a wake-up: no slot left */
	OBS_NDROPS,
};

/*
 * Per comm, one copy per CPU (no shared cache line between CPUs): pipe
 * writes (count, bytes, by class, log2 of the size: a write is at most
 * 2 GiB, MAX_RW_COUNT) and lock waits.
 */
#define OBS_COMM_LOG2 32
struct obs_comm_key {
	char comm[OBS_COMM_LEN];
};

struct obs_comm_val {
	__u64 writes;
	__u64 bytes;
	__u64 cls[OBS_NCLASSES];
	__u64 log2[OBS_COMM_LOG2];
	__u64 contentions;		/* lock: waits of this comm */
	__u64 wait_ns;
	__u64 max_wait_ns;
};

/* All pipe writes, one copy per CPU. */
struct obs_pipe_val {
	__u64 writes;
	__u64 bytes;
	__u64 cls[OBS_NCLASSES];
	__u64 log2[OBS_LOG2_BUCKETS];
};

/* Per contended caller: the kernel stack and the lock's type. */
struct obs_lock_key {
	__s32 stack_id;			/* -1: no stack */
	__u32 flags;			/* LCB_F_* */
};

struct obs_lock_val {
	__u64 count;
	__u64 wait_ns;
	__u64 max_wait_ns;
	__u64 log2[OBS_LOG2_BUCKETS];	/* wait, ns */
};

struct obs_sys_val {
	__u64 count;
	__u64 time_ns;
};

#endif
