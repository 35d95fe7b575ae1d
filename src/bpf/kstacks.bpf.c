// SPDX-License-Identifier: GPL-2.0
/*
 * kstacks.bpf.c - the profile view aggregated in the kernel
 * (docs/kernel-views.md, "The profile view"): a program of type
 * perf_event on each worker's sampling event.  Per sample: the worker
 * (its task id in tids), whether it is inside its batch (its mark, as
 * kviews.bpf.c reads it), its kernel and user stacks into the stack map
 * (bpf_get_stackid, from the callchain perf took for the sample), and
 * one more count for (worker, kernel stack, user stack, batch).  What
 * the maps cannot hold is counted, never dropped silently.  Returning 0
 * keeps the sample out of the event's ring.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "kprof_maps.h"

#ifndef EEXIST
#define EEXIST 17
#endif
#ifndef ENOMEM
#define ENOMEM 12
#endif

char LICENSE[] SEC("license") = "GPL";

__u32 batch;		/* the traced sample's number, set by user space */
__u32 marks;		/* the workers mark their batches (kviews.bpf.c) */
__u64 mark_addr;
__u32 mark_stride;
__u64 outside;		/* samples outside the batch */
__u64 lost_stack;	/* stacks the stack map could not hold */
__u64 lost_count;	/* samples the count map had no room for */
__u64 kept;		/* samples counted */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KPB_MAX_TIDS);
	__type(key, __u32);
	__type(value, __u32);
} tids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, KPB_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, KPB_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KPB_MAX_COUNTS);
	__type(key, struct kpb_key);
	__type(value, __u64);
} counts SEC(".maps");

/*
 * A stack id; -1 where the sample has no such part (a sample in user
 * mode has no kernel stack); -2 where the stack map had no room for it
 * (-EEXIST: its bucket holds another stack; -ENOMEM: the map is full).
 */
static __always_inline __s32 stack_of(struct bpf_perf_event_data *ctx,
				      __u64 flags)
{
	long id = bpf_get_stackid(ctx, &stacks, flags);

	if (id >= 0)
		return (__s32)id;
	return id == -EEXIST || id == -ENOMEM ? -2 : -1;
}

SEC("perf_event")
int kp_sample(struct bpf_perf_event_data *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u32 *idx = bpf_map_lookup_elem(&tids, &tid);
	struct kpb_key k = {};
	__u64 one = 1, *c;

	if (!idx)
		return 0;
	if (marks) {
		__u32 v = 0;

		if (bpf_probe_read_user(&v, sizeof(v),
					(const void *)(mark_addr +
					(__u64)*idx * mark_stride)) != 0 ||
		    !v) {
			__sync_fetch_and_add(&outside, 1);
			return 0;
		}
	}
	k.idx = *idx;
	k.batch = batch;
	k.kstack = stack_of(ctx, 0);
	k.ustack = stack_of(ctx, BPF_F_USER_STACK);
	if (k.kstack == -2 || k.ustack == -2) {
		/* counted as lost, not as a shorter stack */
		__sync_fetch_and_add(&lost_stack, 1);
		return 0;
	}
	c = bpf_map_lookup_elem(&counts, &k);
	if (c) {
		__sync_fetch_and_add(c, 1);
	} else if (bpf_map_update_elem(&counts, &k, &one, BPF_NOEXIST) != 0) {
		c = bpf_map_lookup_elem(&counts, &k);
		if (c)
			__sync_fetch_and_add(c, 1);
		else {
			__sync_fetch_and_add(&lost_count, 1);
			return 0;
		}
	}
	__sync_fetch_and_add(&kept, 1);
	return 0;
}
