// SPDX-License-Identifier: GPL-2.0
/*
 * kviews.bpf.c - the kernel views of `run --kernel` aggregated in the
 * kernel (the bpf backend; kernel/kview_bpf.c loads it and reads its
 * maps between samples).  Raw tracepoints, so nothing is copied to a
 * ring: each event updates a map.
 *
 * What is counted is what kernel/kview.h says of the tracefs backend:
 *   lock     contention_begin to contention_end of one task on one lock
 *            (a mutex that spins then sleeps: one wait, from the first
 *            begin); a worker's wait by (stack, lock type), every other
 *            task's in one row;
 *   sched    a worker's sched_wakeup to the sched_switch that runs it
 *            (unless it was on a CPU), the CPU it landed on; a worker
 *            switched out runnable waits until it runs again;
 *   syscall  sys_enter to sys_exit of a worker.
 * Only while user space has `enabled` set (one traced sample), and the
 * state of a task only within the sample `gen` it was made in.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "kviews.h"

char LICENSE[] SEC("license") = "GPL";

__u32 enabled;		/* set by user space around a traced sample */
__u32 gen;		/* the sample's number */
__u64 dropped;		/* updates a full map refused */
/*
 * The workers mark their batches (marks set): just outside it, each
 * stores 1 before and 0 after it in its own word of user memory, at
 * mark_addr + idx * mark_stride (the control block all workers share, at
 * one address in every worker).  The program reads a worker's word only
 * in that worker's own context (bpf_probe_read_user: the current task's
 * memory), and keeps the last value read in its kvb_task: a worker off
 * its CPU cannot change its mark, so a wake-up of a sleeping worker is
 * judged by the mark read when it was switched out.  No system call and
 * no hook on system calls.  marks 0: every event counts.
 */
__u32 marks;
__u64 mark_addr;
__u32 mark_stride;
__u32 sys_view;		/* the syscall view is recorded */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KVB_MAX_TIDS);
	__type(key, __u32);
	__type(value, struct kvb_task);
} workers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct kvb_lock_state);
} lock_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, KVB_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1024);
	__type(key, struct kvb_lock_key);
	__type(value, struct kvb_lock_val);
} lock_rows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kvb_sched);
} sched_sums SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct kvb_sys_val);
} sys_rows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct kvb_hist_key);
	__type(value, __u64);
} hist SEC(".maps");

static __always_inline void drop(void)
{
	__sync_fetch_and_add(&dropped, 1);
}

/* The map's value for key, made (zero) if missing; NULL when full. */
static __always_inline void *value_of(void *map, const void *key,
				      const void *zero)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	if (bpf_map_update_elem(map, key, zero, BPF_NOEXIST) != 0 &&
	    !bpf_map_lookup_elem(map, key)) {
		drop();
		return NULL;
	}
	return bpf_map_lookup_elem(map, key);
}

static __always_inline void hist_add(__u32 kind, __u32 id, __u64 v)
{
	struct kvb_hist_key k = { kind, id, kvb_fine_bucket(v), 0 };
	__u64 zero = 0, *c = value_of(&hist, &k, &zero);

	if (c)
		*c += 1;
}

/* A worker's state, fresh in this sample; NULL for another task. */
static __always_inline struct kvb_task *worker(__u32 tid)
{
	struct kvb_task *t = bpf_map_lookup_elem(&workers, &tid);

	if (t && t->gen != gen) {
		__u32 idx = t->idx;

		__builtin_memset(t, 0, sizeof(*t));
		t->idx = idx;
		t->gen = gen;
	}
	return t;
}

/* Whether worker t is inside its batch, as its last mark read said. */
static __always_inline __u32 in_batch(const struct kvb_task *t)
{
	return !marks || t->in_batch;
}

/*
 * Worker t, the current task: read its mark now (the last one read when
 * the word cannot be read), and whether it is inside its batch.
 */
static __always_inline __u32 in_batch_now(struct kvb_task *t)
{
	__u32 v;

	if (!marks)
		return 1;
	if (t->idx < KVB_MAX_TIDS &&
	    bpf_probe_read_user(&v, sizeof(v), (const void *)(mark_addr +
				(__u64)t->idx * mark_stride)) == 0)
		t->in_batch = v != 0;
	return t->in_batch;
}

static __always_inline __u32 current_tid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}

SEC("raw_tp/contention_begin")
int BPF_PROG(kv_lock_begin, void *lock, unsigned int flags)
{
	__u32 tid = current_tid();
	struct kvb_lock_state *st, nst = {};
	struct kvb_task *t;

	if (!enabled)
		return 0;
	st = bpf_map_lookup_elem(&lock_state, &tid);
	if (st && st->pending && st->gen == gen &&
	    st->addr == (__u64)lock && (st->flags & KVB_LCB_F_SPIN) &&
	    !(flags & KVB_LCB_F_SPIN)) {
		st->flags = flags;
		return 0;
	}
	nst.addr = (__u64)lock;
	nst.ts = bpf_ktime_get_ns();
	nst.flags = flags;
	nst.gen = gen;
	nst.pending = 1;
	nst.stack_id = -1;
	t = worker(tid);
	if (t) {
		long id;

		if (!in_batch_now(t)) {
			if (st)
				st->pending = 0;
			return 0;
		}
		id = bpf_get_stackid(ctx, &stacks, 0);
		nst.stack_id = id >= 0 ? (__s32)id : -1;
	}
	if (bpf_map_update_elem(&lock_state, &tid, &nst, BPF_ANY) != 0)
		drop();
	return 0;
}

SEC("raw_tp/contention_end")
int BPF_PROG(kv_lock_end, void *lock, int ret)
{
	__u32 tid = current_tid();
	struct kvb_lock_state *st;
	struct kvb_lock_key key = {};
	struct kvb_lock_val *v;
	static const struct kvb_lock_val zero;
	__u64 w;
	__u32 b;

	if (!enabled)
		return 0;
	st = bpf_map_lookup_elem(&lock_state, &tid);
	if (!st || !st->pending || st->gen != gen || st->addr != (__u64)lock)
		return 0;
	st->pending = 0;
	w = bpf_ktime_get_ns() - st->ts;
	if (bpf_map_lookup_elem(&workers, &tid)) {
		key.stack_id = st->stack_id;
		key.flags = st->flags;
	} else {
		key.stack_id = -1;
		key.other = 1;
	}
	v = value_of(&lock_rows, &key, &zero);
	if (!v)
		return 0;
	v->contended++;
	v->total_ns += w;
	if (w > v->max_ns)
		v->max_ns = w;
	b = kvb_log2_bucket(w);
	if (b < KVB_LOG2_BUCKETS)
		v->hist[b]++;
	return 0;
}

SEC("raw_tp/sched_wakeup")
int BPF_PROG(kv_wakeup, struct task_struct *p)
{
	struct kvb_task *t;

	if (!enabled)
		return 0;
	t = worker((__u32)BPF_CORE_READ(p, pid));
	if (t && in_batch(t) && !t->on_cpu && !t->wake_pending) {
		t->wake_pending = 1;
		t->wake_ts = bpf_ktime_get_ns();
	}
	return 0;
}

static __always_inline void switched_in(struct kvb_task *t, __u64 now)
{
	__u32 zero = 0;
	struct kvb_sched *s = bpf_map_lookup_elem(&sched_sums, &zero);

	t->on_cpu = 1;
	if (!s)
		return;
	if (t->wake_pending) {
		__u64 lat = now - t->wake_ts;

		s->wakeups++;
		s->wake_total_ns += lat;
		if (lat > s->wake_max_ns)
			s->wake_max_ns = lat;
		s->rq_wait_ns += lat;
		s->landed++;
		hist_add(KVB_HIST_WAKE, 0, lat);
	} else if (t->runnable) {
		s->rq_wait_ns += now - t->runnable_ts;
	}
	t->wake_pending = 0;
	t->runnable = 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(kv_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	__u64 now = bpf_ktime_get_ns();
	struct kvb_task *t;

	if (!enabled)
		return 0;
	t = worker((__u32)BPF_CORE_READ(prev, pid));
	if (t) {
		t->on_cpu = 0;
		/* runnable: preempted, or switched out in TASK_RUNNING */
		if (in_batch_now(t) && (preempt || !(prev_state & 0xff))) {
			__u32 zero = 0;
			struct kvb_sched *s =
				bpf_map_lookup_elem(&sched_sums, &zero);

			t->runnable = 1;
			t->runnable_ts = now;
			if (s)
				s->preemptions++;
		}
	}
	t = worker((__u32)BPF_CORE_READ(next, pid));
	if (t)
		switched_in(t, now);
	return 0;
}

/* The syscall view only. */
SEC("raw_tp/sys_enter")
int BPF_PROG(kv_sys_enter, struct pt_regs *regs, long id)
{
	struct kvb_task *t;

	if (!enabled || !sys_view)
		return 0;
	t = worker(current_tid());
	if (!t)
		return 0;
	t->sys_pending = in_batch_now(t);
	t->sys_nr = id;
	t->sys_ts = bpf_ktime_get_ns();
	return 0;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(kv_sys_exit, struct pt_regs *regs, long ret)
{
	static const struct kvb_sys_val zero;
	struct kvb_sys_val *v;
	struct kvb_task *t;
	__u64 d;
	__u32 nr;

	if (!enabled || !sys_view)
		return 0;
	t = worker(current_tid());
	if (!t || !t->sys_pending)
		return 0;
	t->sys_pending = 0;
	if (t->sys_nr < 0 || t->sys_nr > 65535)
		return 0;
	nr = (__u32)t->sys_nr;
	d = bpf_ktime_get_ns() - t->sys_ts;
	v = value_of(&sys_rows, &nr, &zero);
	if (!v)
		return 0;
	v->count++;
	v->total_ns += d;
	if (d > v->max_ns)
		v->max_ns = d;
	hist_add(KVB_HIST_SYS, nr, d);
	return 0;
}
