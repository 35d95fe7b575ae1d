/*
 * kprof_bpf.h - the profile aggregated in the kernel (kernel/kprof.c's
 * BPF path): src/bpf/kstacks.bpf.c attached to each worker's sampling
 * event counts the samples per (worker, kernel stack, user stack,
 * traced sample) in BPF maps, the stacks in a stack map; user space
 * reads and empties the counts after each traced sample.  Only inside
 * the batches: the program reads each worker's batch mark (the word the
 * workers store 1 in before their batch and 0 after it).  Samples the
 * maps had no room for (a stack the stack map could not hold: -EEXIST,
 * -ENOMEM; a key the count map could not) are counted as lost.
 */
#ifndef COPYSCOPE_KPROF_BPF_H
#define COPYSCOPE_KPROF_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct kprof_bpf;

/* Whether the program loads here: 0, or -1 with why. */
int kprof_bpf_probe(char *why, size_t len);

/*
 * Load the program, give it the ntids workers (tids) and their batch
 * marks (mark0: worker 0's word, stride bytes apart), and attach it to
 * each worker's event fds[i].  libbpf enables an event when it attaches
 * a program: the events are left disabled again.  NULL with why in err.
 */
struct kprof_bpf *kprof_bpf_open(const pid_t *tids, const int *fds,
				 int ntids, const volatile uint32_t *mark0,
				 size_t stride, char *err, size_t errlen);

/*
 * One counted stack: its kernel frames (leaf first, the kernel's
 * PERF_CONTEXT_KERNEL marker among them; nk 0: a sample in user mode)
 * and its user frames (PERF_CONTEXT_USER first; nu 0: none), count
 * samples.  0, or -1 to stop.
 */
typedef int (*kprof_bpf_fold)(void *arg, const uint64_t *kips, size_t nk,
			      const uint64_t *uips, size_t nu,
			      uint64_t count);

/*
 * The traced sample's counts, each to fold, then emptied; the next
 * sample gets the next batch number.  *outside and *lost grow by the
 * samples outside the batches and lost since the last call.  0, or -1
 * with errno set.
 */
int kprof_bpf_drain(struct kprof_bpf *kb, kprof_bpf_fold fold, void *arg,
		    uint64_t *outside, uint64_t *lost);

void kprof_bpf_close(struct kprof_bpf *kb);

#endif
