// SPDX-License-Identifier: GPL-2.0
/*
 * observe.bpf.c - `copyscope observe`: a live host's pipe write sizes, lock
 * contentions, wake-up latencies and syscall times, system-wide, all
 * aggregated in maps and global arrays here (user space only reads them
 * at the end), so that an hour costs the memory of a minute.
 *
 * Pipe writes come from one of three sources, tried in order by the
 * loader (kernel/observe_attach.c): fexit on anon_pipe_write (pipe_write on
 * older kernels), a kretprobe on it, or the write/writev/splice syscall
 * tracepoints keeping only file descriptors that are FIFOs (resolved
 * through the task's file table with CO-RE).  Each records the bytes
 * actually written (the return value).  What cannot be recorded (a map
 * full) is counted in drops[].
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "observe_maps.h"

char LICENSE[] SEC("license") = "GPL";

#define S_IFMT_ 00170000
#define S_IFIFO_ 0010000

/* Filters, set before loading: 0 / "" means any. */
const volatile __u32 filter_tgid;
const volatile char filter_comm[OBS_COMM_LEN];
const volatile __u32 filter_comm_len;	/* bytes to compare */
const volatile bool filter_comm_prefix;	/* PATTERN ended in '*' */

/*
 * Aggregates, read by user space at the end.  What every write or
 * syscall touches is per CPU (pipe_stats, sys_stats, comms): no cache
 * line bounces between CPUs on the hot path, and no atomic is needed,
 * since a program runs with migration disabled.  The rarer events add
 * to shared counters atomically.
 */
__u64 wake_log2[OBS_LOG2_BUCKETS];
__u64 wake_count;
__u64 lock_nested;			/* begins inside a pending wait */
__u64 drops[OBS_NDROPS];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct obs_pipe_val);
} pipe_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, OBS_NSYSCALLS);
	__type(key, __u32);
	__type(value, struct obs_sys_val);
} sys_stats SEC(".maps");

struct lock_pending {
	__u64 ts;
	__u64 lock;
	__s32 stack_id;
	__u32 flags;
};

struct sys_pending {
	__u64 ts;
	__u64 nr;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, OBS_MAX_COMMS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct obs_comm_key);
	__type(value, struct obs_comm_val);
} comms SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OBS_MAX_LOCK_ROWS);
	__type(key, struct obs_lock_key);
	__type(value, struct obs_lock_val);
} locks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, OBS_MAX_LOCK_ROWS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, OBS_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OBS_MAX_PENDING);
	__type(key, __u32);
	__type(value, __u32);
} pipe_pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OBS_MAX_PENDING);
	__type(key, __u32);
	__type(value, struct lock_pending);
} lock_pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OBS_MAX_PENDING);
	__type(key, __u32);
	__type(value, struct sys_pending);
} sys_pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OBS_MAX_PENDING);
	__type(key, __u32);
	__type(value, __u64);
} wake_pending SEC(".maps");

/*
 * What a tracepoint program returns: non-zero lets the kernel hand the
 * event on to perf's own listeners of the same tracepoint (a `perf lock
 * record` running beside observe); 0 would filter it out for them
 * (perf_trace_run_bpf_submit).  Our own perf event only counts.
 */
#define TP_PASS 1

static __always_inline void drop(int why)
{
	__sync_fetch_and_add(&drops[why], 1);
}

static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) { r += 1; }
	return r;
}

static __always_inline __u32 size_class(__u64 bytes)
{
	if (bytes < 128)
		return 0;
	if (bytes < 4096)
		return 1;
	if (bytes >= 131072)
		return 7;
	return log2_u64(bytes) - 10;	/* 4K: 12 -> 2 ... 64K: 16 -> 6 */
}

/* Whether comm/tgid pass the filters. */
static __always_inline bool match(const char *comm, __u32 tgid)
{
	__u32 i;

	if (filter_tgid && tgid != filter_tgid)
		return false;
	if (!filter_comm_len)
		return true;
	for (i = 0; i < OBS_COMM_LEN; i++) {
		if (i >= filter_comm_len)
			return filter_comm_prefix || comm[i] == '\0';
		if (comm[i] != filter_comm[i])
			return false;
	}
	return true;
}

static __always_inline bool match_current(struct obs_comm_key *key)
{
	__builtin_memset(key, 0, sizeof(*key));
	bpf_get_current_comm(key->comm, sizeof(key->comm));
	return match(key->comm, bpf_get_current_pid_tgid() >> 32);
}

static __always_inline struct obs_comm_val *comm_row(struct obs_comm_key *k)
{
	static const struct obs_comm_val zero;
	struct obs_comm_val *v = bpf_map_lookup_elem(&comms, k);

	if (v)
		return v;
	if (bpf_map_update_elem(&comms, k, &zero, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&comms, k)) {
		drop(OBS_DROP_COMM_FULL);
		return NULL;
	}
	return bpf_map_lookup_elem(&comms, k);
}

/* One write of bytes to a pipe by the current task (already matched). */
static __always_inline void pipe_record(struct obs_comm_key *k, __s64 bytes)
{
	struct obs_comm_val *v;
	struct obs_pipe_val *p;
	__u32 b, c, zero = 0;

	if (bytes <= 0)
		return;
	b = log2_u64(bytes) & (OBS_LOG2_BUCKETS - 1);
	c = size_class(bytes) & (OBS_NCLASSES - 1);
	p = bpf_map_lookup_elem(&pipe_stats, &zero);
	if (p) {
		p->log2[b]++;
		p->cls[c]++;
		p->writes++;
		p->bytes += bytes;
	}
	v = comm_row(k);
	if (!v)
		return;
	v->writes++;
	v->bytes += bytes;
	v->cls[c]++;
	v->log2[b & (OBS_COMM_LOG2 - 1)]++;
}

/* ---- pipe writes, in the pipe's own write function ---- */

/* cppcheck-suppress unknownMacro ; SEC() is libbpf's, for the BPF target */
SEC("fexit/anon_pipe_write")
int BPF_PROG(obs_pipe_fexit, struct kiocb *iocb, struct iov_iter *from,
	     long ret)
{
	struct obs_comm_key k;

	if (match_current(&k))
		pipe_record(&k, ret);
	return 0;
}

SEC("kretprobe/anon_pipe_write")
int BPF_KRETPROBE(obs_pipe_kret, long ret)
{
	struct obs_comm_key k;

	if (match_current(&k))
		pipe_record(&k, ret);
	return 0;
}

/* ---- pipe writes, from the syscalls ---- */

struct sc_enter {
	__u64 common;
	__s64 nr;
	__u64 args[6];
};

struct sc_exit {
	__u64 common;
	__s64 nr;
	__s64 ret;
};

/* Whether fd of the current task is a FIFO (a pipe or a named one). */
static __always_inline bool fd_is_pipe(__u64 fd)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	struct fdtable *fdt = BPF_CORE_READ(t, files, fdt);
	struct file **fds, *f = NULL;
	__u32 mode;

	if (!fdt || fd >= BPF_CORE_READ(fdt, max_fds))
		return false;
	fds = BPF_CORE_READ(fdt, fd);
	if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]) || !f)
		return false;
	mode = BPF_CORE_READ(f, f_inode, i_mode);
	return (mode & S_IFMT_) == S_IFIFO_;
}

static __always_inline int pipe_enter(__u64 fd)
{
	struct obs_comm_key k;
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), one = 1;

	if (!match_current(&k) || !fd_is_pipe(fd))
		return TP_PASS;
	if (bpf_map_update_elem(&pipe_pending, &tid, &one, BPF_ANY))
		drop(OBS_DROP_PENDING_FULL);
	return TP_PASS;
}

static __always_inline int pipe_exit(__s64 ret)
{
	struct obs_comm_key k;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	if (!bpf_map_lookup_elem(&pipe_pending, &tid))
		return TP_PASS;
	bpf_map_delete_elem(&pipe_pending, &tid);
	match_current(&k);
	pipe_record(&k, ret);
	return TP_PASS;
}

SEC("tracepoint/syscalls/sys_enter_write")
int obs_enter_write(struct sc_enter *ctx)
{
	return pipe_enter(ctx->args[0]);
}

SEC("tracepoint/syscalls/sys_exit_write")
int obs_exit_write(struct sc_exit *ctx)
{
	return pipe_exit(ctx->ret);
}

SEC("tracepoint/syscalls/sys_enter_writev")
int obs_enter_writev(struct sc_enter *ctx)
{
	return pipe_enter(ctx->args[0]);
}

SEC("tracepoint/syscalls/sys_exit_writev")
int obs_exit_writev(struct sc_exit *ctx)
{
	return pipe_exit(ctx->ret);
}

/* splice(fd_in, off_in, fd_out, ...): the pipe written is fd_out. */
SEC("tracepoint/syscalls/sys_enter_splice")
int obs_enter_splice(struct sc_enter *ctx)
{
	return pipe_enter(ctx->args[2]);
}

SEC("tracepoint/syscalls/sys_exit_splice")
int obs_exit_splice(struct sc_exit *ctx)
{
	return pipe_exit(ctx->ret);
}

/* ---- lock contention ---- */

struct contention_begin {
	__u64 common;
	__u64 lock_addr;
	__u32 flags;
};

struct contention_end {
	__u64 common;
	__u64 lock_addr;
	__s32 ret;
};

SEC("tracepoint/lock/contention_begin")
int obs_lock_begin(struct contention_begin *ctx)
{
	struct obs_comm_key k;
	struct lock_pending p = {};
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	if (!match_current(&k))
		return TP_PASS;
	if (bpf_map_lookup_elem(&lock_pending, &tid)) {
		/* a spinlock inside a mutex's slow path: the outer wait
		 * counts, as perf lock contention does */
		__sync_fetch_and_add(&lock_nested, 1);
		return TP_PASS;
	}
	p.ts = bpf_ktime_get_ns();
	p.lock = ctx->lock_addr;
	p.flags = ctx->flags;
	p.stack_id = bpf_get_stackid(ctx, &stacks, 0);
	if (p.stack_id < 0)
		drop(OBS_DROP_STACK);
	if (bpf_map_update_elem(&lock_pending, &tid, &p, BPF_ANY))
		drop(OBS_DROP_PENDING_FULL);
	return TP_PASS;
}

static __always_inline void max_u64(__u64 *m, __u64 v)
{
	if (v > *m)
		*m = v;		/* racy by design: a maximum seen, not lost */
}

SEC("tracepoint/lock/contention_end")
int obs_lock_end(struct contention_end *ctx)
{
	static const struct obs_lock_val zero;
	struct obs_comm_key k;
	struct obs_lock_key lk = {};
	struct obs_lock_val *lv;
	struct obs_comm_val *cv;
	struct lock_pending *p;
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), b;
	__u64 wait;

	p = bpf_map_lookup_elem(&lock_pending, &tid);
	if (!p || p->lock != ctx->lock_addr)
		return TP_PASS;
	wait = bpf_ktime_get_ns() - p->ts;
	lk.stack_id = p->stack_id;
	lk.flags = p->flags;
	bpf_map_delete_elem(&lock_pending, &tid);
	b = log2_u64(wait) & (OBS_LOG2_BUCKETS - 1);
	lv = bpf_map_lookup_elem(&locks, &lk);
	if (!lv) {
		bpf_map_update_elem(&locks, &lk, &zero, BPF_NOEXIST);
		lv = bpf_map_lookup_elem(&locks, &lk);
	}
	if (lv) {
		__sync_fetch_and_add(&lv->count, 1);
		__sync_fetch_and_add(&lv->wait_ns, wait);
		__sync_fetch_and_add(&lv->log2[b], 1);
		max_u64(&lv->max_wait_ns, wait);
	} else {
		drop(OBS_DROP_LOCK_FULL);
	}
	match_current(&k);
	cv = comm_row(&k);
	if (cv) {
		cv->contentions++;
		cv->wait_ns += wait;
		max_u64(&cv->max_wait_ns, wait);
	}
	return TP_PASS;
}

/* ---- wake-up latency: sched_waking to the task's sched_switch in ---- */

SEC("raw_tp/sched_waking")
int BPF_PROG(obs_waking, struct task_struct *p)
{
	char comm[OBS_COMM_LEN];
	__u32 pid = BPF_CORE_READ(p, pid);
	__u64 ts;

	BPF_CORE_READ_STR_INTO(&comm, p, comm);
	if (!match(comm, BPF_CORE_READ(p, tgid)))
		return 0;
	ts = bpf_ktime_get_ns();
	if (bpf_map_update_elem(&wake_pending, &pid, &ts, BPF_ANY))
		drop(OBS_DROP_WAKE_FULL);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(obs_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	__u32 pid = BPF_CORE_READ(next, pid);
	__u64 *ts = bpf_map_lookup_elem(&wake_pending, &pid), d;

	if (!ts)
		return 0;
	d = bpf_ktime_get_ns() - *ts;
	bpf_map_delete_elem(&wake_pending, &pid);
	__sync_fetch_and_add(&wake_log2[log2_u64(d) &
					(OBS_LOG2_BUCKETS - 1)], 1);
	__sync_fetch_and_add(&wake_count, 1);
	return 0;
}

/* ---- per-syscall count and time ---- */

SEC("tracepoint/raw_syscalls/sys_enter")
int obs_sys_enter(struct sc_enter *ctx)
{
	struct obs_comm_key k;
	struct sys_pending p;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	if (!match_current(&k))
		return TP_PASS;
	p.ts = bpf_ktime_get_ns();
	p.nr = ctx->nr;
	if (bpf_map_update_elem(&sys_pending, &tid, &p, BPF_ANY))
		drop(OBS_DROP_PENDING_FULL);
	return TP_PASS;
}

SEC("tracepoint/raw_syscalls/sys_exit")
int obs_sys_exit(struct sc_exit *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct sys_pending *p = bpf_map_lookup_elem(&sys_pending, &tid);
	struct obs_sys_val *sv;
	__u64 nr, d;
	__u32 nr32;

	if (!p)
		return TP_PASS;
	nr = p->nr;
	d = bpf_ktime_get_ns() - p->ts;
	bpf_map_delete_elem(&sys_pending, &tid);
	if (nr >= OBS_NSYSCALLS) {
		drop(OBS_DROP_SYSCALL_NR);
		return TP_PASS;
	}
	nr32 = (__u32)nr;
	sv = bpf_map_lookup_elem(&sys_stats, &nr32);
	if (sv) {
		sv->count++;
		sv->time_ns += d;
	}
	return TP_PASS;
}
