/*
 * kview_priv.h - inside the kernel views (kernel/kview*.c only): the
 * state of a recording and the hooks of each view.  kview.c owns the
 * recording and feeds each event to its view; kview_lock.c is the lock
 * view, kview_sched.c the sched and syscall views.
 */
#ifndef COPYSCOPE_KVIEW_IMPL_H
#define COPYSCOPE_KVIEW_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kernel/kview.h"

/* Latencies above this go to the histograms' overflow (10 s). */
#define KV_HIST_MAX_NS 10000000000ULL
#define KV_MAX_TIDS 64

/* LCB_F_* of include/trace/events/lock.h, and perf lock's names. */
#define LCB_F_SPIN 0x1u
#define LCB_F_READ 0x2u
#define LCB_F_WRITE 0x4u
#define LCB_F_RT 0x8u
#define LCB_F_PERCPU 0x10u
#define LCB_F_MUTEX 0x20u

/* What one task is in the middle of, within one sample. */
struct kview_task {
	int32_t tid;			/* 0: free slot */
	bool lock_pending;
	uint64_t lock_addr, lock_ts, lock_caller;
	uint32_t lock_flags;
	bool on_cpu, wake_pending, runnable;
	uint64_t wake_ts, runnable_ts;
	bool sys_pending;
	int64_t sys_nr;
	uint64_t sys_ts;
};

struct kview_lock {
	bool other;
	uint32_t flags;			/* LCB_F_* as seen first */
	uint64_t caller;		/* address; 0 for the other row */
	char name[128];			/* the caller's symbol+offset */
	uint64_t contended, total_ns, max_ns;
	uint64_t hist[KV_LOG2_BUCKETS];
};

struct kview_sys {
	uint64_t count, total_ns, max_ns;
	struct histogram *h;
};

struct kview {
	unsigned views;
	pid_t tids[KV_MAX_TIDS];
	int ntids;
	const struct ksyms *ks;
	struct ktrace *kt;		/* the tracefs backend, or */
	struct kview_bpf *kb;		/* the bpf backend */
	struct kprof *kp;		/* the profile view (kprof.h) */
	struct kview_samples s;
	size_t max_samples;
	int op_workers;			/* ops per batch op (kview.h) */
	uint64_t ops, lost;
	/* tasks of the current sample: open addressing by tid */
	struct kview_task *task;
	size_t task_cap, task_n;
	/* lock */
	struct kview_lock *rows;
	size_t nrows, caprows;
	uint64_t s_waits, s_wait_ns;	/* this sample, workers */
	/* sched */
	struct histogram *wake, *s_wake;
	uint64_t wake_log2[KV_LOG2_BUCKETS];
	uint64_t *wake_cpu;
	size_t nwake_cpu;
	uint64_t rq_wait_ns, preemptions;
	/* syscall */
	struct kview_sys *sys;
	size_t nsys;			/* rows allocated (by nr) */
	uint64_t sys_ns, s_sys_ns;
	double thread_ns;
	/* the sample being fed: each worker's batch, and their span */
	const uint64_t *lo, *hi;
	uint64_t span_lo, span_hi;
};

/* Whether tid is one of the workers. */
bool kview_is_worker(const struct kview *kv, int32_t tid);

/*
 * Whether ts is inside task tid's batch in the sample being fed (another
 * task: inside the span of all batches; always, without batch marks).
 */
bool kview_in_batch(const struct kview *kv, int32_t tid, uint64_t ts);

/* The state of tid in this sample (made on first sight); NULL on ENOMEM. */
struct kview_task *kview_task_of(struct kview *kv, int32_t tid);

/*
 * The lock view (kview_lock.c): a contention_begin and a contention_end
 * event.  Return 0, or -1 on ENOMEM.
 */
int kview_on_lock_begin(struct kview *kv, const struct kevent *e);
int kview_on_lock_end(struct kview *kv, const struct kevent *e);

/*
 * Add in's waits (aggregated elsewhere: the bpf backend) to the row of
 * its type and caller, and a worker's to the sample's.  0, or -1 on
 * ENOMEM.
 */
int kview_merge_lock(struct kview *kv, const struct kview_lock *in);

/* The lock view's rows into k->locks, largest total first; 0 or -1. */
int kview_build_locks(const struct kview *kv, struct result_kernel *k);

/*
 * The sched view (kview_sched.c): a sched_wakeup and a sched_switch
 * event; the syscall view: a sys_enter or sys_exit event.  Return 0, or
 * -1 on ENOMEM.
 */
int kview_on_wakeup(struct kview *kv, const struct kevent *e);
int kview_on_switch(struct kview *kv, const struct kevent *e);
int kview_on_sys(struct kview *kv, const struct kevent *e);

/* n more wake-ups landed on cpu.  0, or -1 on ENOMEM. */
int kview_add_wake_cpu(struct kview *kv, uint32_t cpu, uint64_t n);

/* The row of system call nr (made, with its histogram); NULL: ENOMEM. */
struct kview_sys *kview_sys_row(struct kview *kv, uint32_t nr);

/* The syscall view's rows into k->sys, largest total first; 0 or -1. */
int kview_build_sys(const struct kview *kv, struct result_kernel *k);

/*
 * A view at the kernel layer: a row of kview_recorders (kview_recorders.c),
 * indexed by the view's id.  A traced view (results/kview_table.h) reads
 * tracepoint kinds, from the tracefs ring or the BPF maps; a view with a
 * recorder of its own (the profile) opens it and probes whether it can.
 */
struct kview_recorder {
	size_t ring_pages;		/* tracefs: ring pages per CPU its
					   records need in a sample */
	/* kv made for the view (NULL: nothing to make); 0 or -1 */
	int (*init)(struct kview *kv);
	/* one tracefs event of its kinds into the sample; 0 or -1 */
	int (*on_event)(struct kview *kv, const struct kevent *e);
	/* the sample's part from the BPF maps; 0 or -1 */
	int (*bpf_read)(struct kview_bpf *kb, struct kview *kv);
	/* the sample's figures (kv->s at index i; per: ops, window_ns:
	   the sample's window, nworkers: its workers); NULL: none */
	void (*sample_done)(struct kview *kv, size_t i, double per,
			    double window_ns, int nworkers);
	/* its own recorder opened into kv; 0, or -1 with why in err */
	int (*open)(struct kview *kv, const struct kview_workers *w,
		    char *err, size_t errlen);
	/* whether its own recorder can run here: 0 (note: a remark to
	   say, "" none), or -1 with why */
	int (*probe)(char *why, size_t len, char *note, size_t notelen);
	/* the configuration's record of it into k; 0, or -1 on ENOMEM */
	int (*build)(const struct kview *kv, struct result_kernel *k);
	unsigned kinds;			/* 1u << KEV_*: the tracepoints it
					   reads; 0: none */
	bool needs_ksyms;		/* bpf: the kernel's symbols, to name
					   callers */
	bool bpf_hists;			/* bpf: reads the histogram map */
	bool bpf_sys_time;		/* bpf: per system call time */
};

extern const struct kview_recorder kview_recorders[KVIEW_NVIEWS];

int kview_on_lock(struct kview *kv, const struct kevent *e);
int kview_sched_init(struct kview *kv);
int kview_on_sched(struct kview *kv, const struct kevent *e);
int kview_build_sched(const struct kview *kv, struct result_kernel *k);

#endif
