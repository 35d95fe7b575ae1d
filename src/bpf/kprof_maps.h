/*
 * kprof_maps.h - what the profile's BPF program (kstacks.bpf.c) and its loader
 * (kernel/kprof_bpf.c) share: the key of the sample counts.
 *
 * The program runs on every sample of the profile's perf events (one
 * per worker thread, cpu-clock or cycles), keeps the stacks in a stack
 * map and counts each (worker, kernel stack, user stack, traced sample)
 * in a hash map; user space reads and empties the counts after each
 * traced sample.  Nothing goes to the events' rings.
 */
#ifndef COPYSCOPE_BPF_KPROF_MAPS_H
#define COPYSCOPE_BPF_KPROF_MAPS_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#define KPB_MAX_TIDS 64			/* workers of a configuration */
#define KPB_STACK_DEPTH 127		/* frames a stack map entry holds
					   (at most kernel.perf_event_max_stack, 127 by default) */
#define KPB_MAX_STACKS 16384		/* distinct stacks of a run */
#define KPB_MAX_COUNTS 16384		/* distinct keys of a sample */

struct kpb_key {
	__u32 idx;			/* the worker's place in tids */
	__s32 kstack;			/* stack ids; < 0: none (a sample
					   in user mode has no kernel part) */
	__s32 ustack;
	__u32 batch;			/* the traced sample's number */
};

#endif
