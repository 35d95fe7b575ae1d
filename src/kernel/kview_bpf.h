/*
 * kview_bpf.h - the bpf backend of the kernel views: the program
 * src/bpf/kviews.bpf.c (a libbpf skeleton) loaded, attached to the raw
 * tracepoints of the views asked for, and its maps read between samples
 * into the same aggregate the tracefs backend feeds (kernel/kview.c), so
 * that both give the same records (results/kernel_records.h).
 *
 * The program aggregates in the kernel: nothing is copied per event.
 * Recording is on while user space sets the program's `enabled` (one
 * traced sample); each sample's maps are read and zeroed after it.
 */
#ifndef COPYSCOPE_KVIEW_BPF_H
#define COPYSCOPE_KVIEW_BPF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct kview;
struct ksyms;
struct kview_bpf;

/*
 * Whether the views (KVIEW_* bits) can be recorded by the bpf backend
 * here: the program loads and each view's raw tracepoints attach.
 * *ok gets the views that can.  Returns 0 when all of them can, else -1
 * with why the first that cannot does not in why (this copyscope built
 * without BPF, no BTF, BPF not permitted, not root, a tracepoint
 * missing).
 */
int kview_bpf_probe(unsigned views, unsigned *ok, char *why, size_t len);

/* "libbpf 1.1, BTF": what the bpf backend runs on, into buf. */
const char *kview_bpf_describe(char *buf, size_t len);

/*
 * Load the program for views and the workers w (kview.h: their tids and
 * batch marks), attached and disabled.  Returns it, or NULL with the
 * reason in err.
 */
struct kview_workers;
struct kview_bpf *kview_bpf_open(unsigned views,
				 const struct kview_workers *w, char *err,
				 size_t errlen);

/* Switch recording on (a new sample) / off. */
void kview_bpf_enable(struct kview_bpf *kb);
void kview_bpf_disable(struct kview_bpf *kb);

/*
 * Add what the maps hold since the last read to kv's aggregate and its
 * sample (kview.c has begun it), and zero the maps; *lost gets the
 * updates the program could not make (a full map).  Returns 0, or -1
 * on ENOMEM or a map that cannot be read (errno set).
 */
int kview_bpf_read(struct kview_bpf *kb, struct kview *kv, uint64_t *lost);

/* The kernel's symbols the lock callers are named with, or NULL. */
/* One view's part of kview_bpf_read() (the rows of
   kernel/kview_recorders.c): 0, or -1 with errno set. */
int kview_bpf_read_locks(struct kview_bpf *kb, struct kview *kv);
int kview_bpf_read_sched(struct kview_bpf *kb, struct kview *kv);
int kview_bpf_read_sys(struct kview_bpf *kb, struct kview *kv);

const struct ksyms *kview_bpf_ksyms(const struct kview_bpf *kb);

void kview_bpf_close(struct kview_bpf *kb);

/*
 * The caller of a lock wait from the stack the program took (ips[0..n),
 * innermost first, 0-terminated when shorter): past the frames of the
 * tracepoint's BPF call (bpf_trace_run*, __bpf_trace_*, __traceiter_*),
 * the first frame outside the locking code, as the tracefs backend's
 * callchain gives it.  0 when there is none.
 */
uint64_t kview_bpf_caller(const struct ksyms *ks, const uint64_t *ips,
			  size_t n);

/*
 * count values in bucket idx of the log-linear histograms (the program's
 * kvb_fine_bucket(), stats/histogram.h's hist_bucket_of()) into h (NULL:
 * none; beyond its range: its overflow) and into log2[KV_LOG2_BUCKETS]
 * (NULL: none) at the log2 bucket of the values.  The sums, minimum and
 * maximum are the caller's to set (the program keeps them exactly).
 */
struct histogram;
void kview_bpf_add_bucket(struct histogram *h, uint64_t *log2, size_t idx,
			  uint64_t count);

#endif
