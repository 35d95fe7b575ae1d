/*
 * kprof.h - the profile view's recorder: one perf event per worker
 * thread (perf_event_open(2) on its task id, any CPU) that samples its
 * stack, the cycles event where the machine has a PMU, else the
 * cpu-clock software event (an hrtimer); kernel and user callchains
 * (the user part, walked by the kernel through frame pointers, is the
 * root: each frame the function of this binary that holds it, by
 * kernel/usyms.h, else the library's file, else "[unknown]"; a stack
 * without a user part has "[user]" as its root).  The events are enabled
 * for a traced sample only, and of their samples only those whose time
 * (CLOCK_MONOTONIC_RAW, the clock the workers mark their batches with)
 * falls inside that worker's batch are kept: the harness around a batch
 * is counted apart and left out.  Kept samples are folded into stacks
 * (root first, "libc.so.6;worker_thread;worker_main;libc.so.6;
 * entry_SYSCALL_64;...;read_zero") named through
 * /proc/kallsyms, module symbols included; what the kernel drops when a
 * ring fills (PERF_RECORD_LOST) is counted.
 */
#ifndef COPYSCOPE_KPROF_H
#define COPYSCOPE_KPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "results/kernel_records.h"

struct ksyms;
struct result_kernel;

/* The default sampling frequency, Hz (results/kernel_records.h). */
#define KPROF_DEFAULT_HZ KV_PROF_DEFAULT_HZ
#define KPROF_MAX_HZ 100000

/*
 * Whether this machine can sample kernel stacks of our threads: 0 with
 * *pmu set (whether the cycles event opens), or -1 with why in err.
 */
int kprof_probe(bool *pmu, char *err, size_t errlen);

struct kprof;

/*
 * Open (disabled) one sampling event at hz for each of the ntids
 * threads.  ks names the frames (NULL: their addresses in hex).  NULL
 * with the reason in err.
 */
struct kprof *kprof_open(const pid_t *tids, int ntids, unsigned hz,
			 const struct ksyms *ks, char *err, size_t errlen);

void kprof_free(struct kprof *kp);
/*
 * Aggregate kp's samples in the kernel (kernel/kprof_bpf.h) instead of
 * reading the rings: the BPF program attached to every worker's event,
 * cutting the batches by the workers' marks (mark0: worker 0's word,
 * stride bytes apart; see struct kview_workers), so kprof_drain() then
 * ignores lo and hi.  0, or -1 with why in err (kp stays on the rings).
 */
int kprof_use_bpf(struct kprof *kp, const pid_t *tids,
		  const volatile uint32_t *mark0, size_t stride, char *err,
		  size_t errlen);
/* Whether kprof_use_bpf() took. */
bool kprof_in_kernel(const struct kprof *kp);

/* Close the events and their rings; the stacks folded so far stay. */
void kprof_close(struct kprof *kp);

/* Enable (on 1) or disable (0) every worker's event.  0, or -1. */
int kprof_enable(struct kprof *kp, int on);

/*
 * Read every ring to its end and fold its samples: worker i's samples
 * whose time lies in [lo[i], hi[i]] are kept (lo NULL: all of them).
 * On the BPF path (kprof_use_bpf()), the kernel's counts of the traced
 * sample instead, folded and emptied.  0, or -1 on ENOMEM.
 */
int kprof_drain(struct kprof *kp, const uint64_t *lo, const uint64_t *hi);

/*
 * Fold one sample's callchain (leaf first, as the kernel gives it:
 * PERF_CONTEXT_* markers skipped; the frames after PERF_CONTEXT_USER
 * its user part, the root, "[user]" where it has none) into kp's
 * stacks; user: whether the sample interrupted user mode (its kernel
 * frames, if any, are left out).  For the tests, without a ring.
 * 0, or -1 on ENOMEM.
 */
int kprof_add(struct kprof *kp, const uint64_t *ips, size_t nips, bool user);

/*
 * Fold one sample that interrupted user mode at ip: "[user]" and, below
 * it, the function of this binary (kernel/usyms.h) or the file that
 * holds ip, when known.  0, or -1 on ENOMEM.
 */
int kprof_add_user(struct kprof *kp, uint64_t ip);

/*
 * Close the traced sample: the samples folded since the last call
 * become one entry of the result's per-sample profile (its op_ns NAN:
 * the session sets it).  0, or -1 on ENOMEM.
 */
int kprof_sample_end(struct kprof *kp);

/* A recorder without events, for kprof_add() (tests); NULL: ENOMEM. */
struct kprof *kprof_new(unsigned hz, bool pmu, const struct ksyms *ks);

/*
 * The profile into k (prof_* fields and stacks, largest count first,
 * and the closed traced samples, prof_per).  0, or -1 on ENOMEM.
 */
int kprof_result(const struct kprof *kp, struct result_kernel *k);

#endif
