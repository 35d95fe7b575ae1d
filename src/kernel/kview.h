/*
 * kview.h - the kernel-side views of one configuration: its traced
 * samples recorded (kernel/ktrace.c) and the events of each aggregated
 * into the lock, sched and syscall views (results/kernel_records.h).
 *
 * What each view counts, from the events of one traced sample in time
 * order:
 *   lock     contention_begin to contention_end of the same task and
 *            lock is one wait (a mutex that spins and then sleeps gives
 *            two begins and one end: one wait, from the first begin); its
 *            caller is the first callchain frame outside the locking
 *            code; the workers' waits by (type, caller), everything
 *            else's in one row.
 *   sched    a worker's sched_wakeup to the sched_switch that runs it is
 *            its wake-up latency, and the CPU of that switch the CPU it
 *            landed on; a worker switched out while runnable (preempted)
 *            waits until it is switched in again.  Both are run-queue
 *            wait.  A wake-up of a worker that is on a CPU is no wake-up.
 *   syscall  sys_enter to sys_exit of the same number by a worker.
 * Only what happens inside a worker's batch counts: each worker marks
 * its batch with CLOCK_MONOTONIC_RAW (the tracer's clock) just outside
 * its timer reads, and a worker's wait, wake-up or call counts when it
 * began inside that worker's batch (another task's wait: inside the
 * span of all batches).  The harness around the batch (the start
 * barrier, counters) is left out.
 */
#ifndef COPYSCOPE_KVIEW_H
#define COPYSCOPE_KVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kernel/kparse.h"
#include "results/kernel_records.h"

struct ksyms;

/* Per traced sample (NAN where the view was not recorded); per op of
   the workload (struct kview_sample_info). */
struct kview_samples {
	size_t n;
	double *ns_per_op;		/* the traced sample's time per op */
	double *lock_waits_per_op;	/* the workers' contended waits */
	double *lock_wait_ns_per_op;	/* ... and their wait, ns */
	double *wake_p99_ns;		/* the workers' wake-up p99 */
	double *sys_share_pct;		/* in-kernel % of their wall time */
	uint64_t *span_ns;		/* [2n]: the batches' first start and
					   last end, CLOCK_MONOTONIC_RAW */
};

struct kview;

/*
 * An aggregator of views for the workers tids[0..ntids) and at most
 * max_samples traced samples, without a tracer (the events come from
 * kview_feed()).  ks (may be NULL) names the lock callers.  NULL on
 * ENOMEM.
 */
struct kview *kview_new(unsigned views, const pid_t *tids, int ntids,
			size_t max_samples, const struct ksyms *ks);

/* How the views are recorded (run --kernel-backend). */
enum kview_backend {
	KVIEW_BACKEND_AUTO = 0,		/* bpf when it loads, else tracefs */
	KVIEW_BACKEND_BPF,		/* aggregated in the kernel
					   (kernel/kview_bpf.h) */
	KVIEW_BACKEND_TRACEFS,		/* every event to user space, read
					   by libtraceevent (ktrace.h) */
};

/* "bpf", "tracefs" or "auto". */
const char *kview_backend_name(enum kview_backend b);

/*
 * The workers to record: their task ids, and whether each marks its
 * batch (the bpf backend then counts only the batch; else every event
 * while recording counts).  A worker marks its batch by storing 1 just
 * before it and 0 just after it in its own 32-bit word at mark0 +
 * idx * mark_stride bytes (idx: its place in tids), which must lie at the
 * same address in every worker (memory all of them share, mapped before
 * they were forked, or a thread's): the bpf backend's program reads the
 * word in the worker's own context, with no system call.  The tracefs
 * backend leaves the marks out: it cuts the batch by its clock.
 */
struct kview_workers {
	const pid_t *tids;
	int ntids;
	bool marks;
	const volatile uint32_t *mark0;	/* worker 0's word */
	size_t mark_stride;		/* bytes from one word to the next */
	unsigned profile_hz;		/* the profile view's frequency
					   (0: KPROF_DEFAULT_HZ) */
	int profile_backend;		/* how it aggregates: BPF in the
					   kernel (failing where it cannot),
					   TRACEFS from the perf rings, AUTO
					   in the kernel where the program
					   loads (kernel/kprof_bpf.h) */
};

/*
 * The same with a recorder: backend BPF loads the views' BPF program,
 * TRACEFS opens their tracepoints (ktrace_open()); AUTO is TRACEFS here
 * (the command line resolves it).  Returns NULL with the reason in err.
 */
struct kview *kview_open(unsigned views, enum kview_backend backend,
			 const struct kview_workers *w, size_t max_samples,
			 char *err, size_t errlen);

void kview_free(struct kview *kv);

/* Close the tracer (the aggregate stays); kview_begin() no longer works. */
void kview_stop(struct kview *kv);

/* Start recording a traced sample.  0, or -1 with the reason in err. */
int kview_begin(struct kview *kv, char *err, size_t errlen);

/*
 * One sample's shape: its batch, window, and each worker's batch.  The
 * views count per op of the workload ("one write(2) by one writer"): a
 * batch of nops is nops x op_workers ops when op_workers workers each
 * make one op per batch op (the op-timed writers of pipe.matrix and
 * pipe.mix), else nops.
 */
struct kview_sample_info {
	uint64_t nops;			/* the batch */
	int op_workers;			/* >= 1 */
	double window_ns;		/* as the kept samples measure it */
	int nworkers;
	/* per worker (in tids' order), CLOCK_MONOTONIC_RAW ns around its
	   batch; NULL: every event counts (tests) */
	const uint64_t *lo_ns, *hi_ns;
};

/*
 * Stop recording, drain, and aggregate the sample.  0, or -1 with the
 * reason in err.
 */
int kview_end(struct kview *kv, const struct kview_sample_info *si,
	      char *err, size_t errlen);

/*
 * Aggregate one sample's events (time order), then close the sample as
 * kview_end() does; lost is the records the kernel dropped.  0, or -1 on
 * ENOMEM.
 */
int kview_feed(struct kview *kv, const struct kevent *evs, size_t n,
	       uint64_t lost, const struct kview_sample_info *si);

const struct kview_samples *kview_samples(const struct kview *kv);

/*
 * The workers that each make one op per batch op in the last sample
 * (struct kview_sample_info.op_workers; 1 before any): a batch op is
 * that many ops of the workload.
 */
int kview_op_workers(const struct kview *kv);

/*
 * The configuration's views as a results-model record, with
 * untraced_ns_per_batch_op (the untraced samples' median window over
 * their batch, or NAN) for the overhead.  NULL on ENOMEM.
 */
struct result_kernel *kview_result(const struct kview *kv,
				   double untraced_ns_per_batch_op);

/* The tracepoint kinds (1 << enum kev_kind) of a KVIEW_* mask. */
/*
 * Check the kernel layer's table of the views (kview_recorders.c)
 * against the results layer's: each row has the hooks its kind of view
 * needs (a traced one its tracepoints, ring, event hook and BPF reader;
 * one with its own recorder that recorder's open and probe).  Returns
 * the number of problems; the first is written to err.
 */
int kview_recorders_validate(char *err, size_t errlen);

unsigned kview_kinds(unsigned views);

/*
 * Whether view id, one with a recorder of its own (not traced by a
 * backend, results/kview_table.h), can record here: 0 (note gets a
 * remark to say, "" for none), or -1 with why.
 */
int kview_probe_own(int id, char *why, size_t len, char *note,
		    size_t notelen);

/* perf lock's name of a lock type from contention_begin's flags. */
const char *kview_lock_type(uint32_t flags);

/* The name of system call nr on this architecture, or NULL. */
const char *kview_syscall_name(int nr);

#endif
