/*
 * kview_recorders.c - the kernel views at the kernel layer as a table of
 * descriptors, one row per view, indexed by the view's id (its bit is
 * KVIEW_BIT(id), results/kview_table.h): the tracepoint kinds it reads,
 * the ring it needs, how each backend feeds it, what each traced sample
 * and the whole configuration give of it, or, for a view with a recorder
 * of its own, how that opens.  kview.c and kview_bpf.c go through this
 * table; nothing else in kernel/ names a view.  Checked against the
 * results table at start-up (kview_recorders_validate) and in the unit
 * tests; docs/writing-a-kernel-view.md says how to add a row.
 */
#include "kernel/kview.h"

#include <math.h>
#include <stdio.h>

#include "kernel/kprof.h"
#include "kernel/ksyms.h"
#include "kernel/kview_bpf.h"
#include "kernel/kview_priv.h"

/*
 * Ring pages per CPU: a sample's records must fit, since nothing drains
 * inside a sample.  A lock record with its callchain is about 150 bytes,
 * its end 60: five writers on one pipe make about 70k waits a second
 * (9 MiB/s over two CPUs), so 8 MiB a CPU hold samples of about a
 * second; a syscall record is about 100 bytes, and a fast call makes
 * millions a second (the ring holds some 100 ms of them).  What does not
 * fit is counted as lost and reported.
 */
#define KV_RING_PAGES_LOCK 2048		/* 8 MiB */
#define KV_RING_PAGES_SCHED 2048	/* 8 MiB */
#define KV_RING_PAGES_SYSCALL 8192	/* 32 MiB */

/* lock: the workers' contended waits of the sample, per op. */
static void lock_sample_done(struct kview *kv, size_t i, double per,
			     double window_ns, int nworkers)
{
	(void)window_ns;
	(void)nworkers;
	kv->s.lock_waits_per_op[i] = (double)kv->s_waits / per;
	kv->s.lock_wait_ns_per_op[i] = (double)kv->s_wait_ns / per;
}

/* syscall: the workers' in-kernel share of their wall time. */
static void sys_sample_done(struct kview *kv, size_t i, double per,
			    double window_ns, int nworkers)
{
	(void)per;
	if (!(window_ns > 0) || nworkers <= 0)
		return;
	kv->sys_ns += kv->s_sys_ns;
	kv->thread_ns += window_ns * nworkers;
	kv->s.sys_share_pct[i] = 100.0 * (double)kv->s_sys_ns /
				 (window_ns * nworkers);
}

/* The profile view's recorder into kv.  0, or -1 with why in err. */
static int profile_open(struct kview *kv, const struct kview_workers *w,
			char *err, size_t errlen)
{
	const struct ksyms *ks = kv->ks ? kv->ks : ksyms_kernel(err, errlen);

	if (!ks)
		return -1;
	kv->kp = kprof_open(w->tids, w->ntids, w->profile_hz ?
			    w->profile_hz : KPROF_DEFAULT_HZ, ks, err, errlen);
	if (!kv->kp)
		return -1;
	/* in the kernel: it cuts the batches by the workers' marks */
	if (w->profile_backend != KVIEW_BACKEND_TRACEFS && w->marks &&
	    w->mark0 && kprof_use_bpf(kv->kp, w->tids, w->mark0,
				      w->mark_stride, err, errlen) != 0 &&
	    w->profile_backend == KVIEW_BACKEND_BPF) {
		char why[400];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "the profile in the kernel (BPF stack "
			 "maps): %s", why);
		return -1;
	}
	err[0] = '\0';
	return 0;
}

/* Whether the profile can run here, and the event it will sample. */
static int profile_probe(char *why, size_t len, char *note, size_t notelen)
{
	bool pmu;

	note[0] = 0;
	if (kprof_probe(&pmu, why, len) != 0)
		return -1;
	if (!pmu)
		snprintf(note, notelen, "no PMU here (the cycles event does "
			 "not open): sampling cpu-clock");
	return 0;
}

static int profile_build(const struct kview *kv, struct result_kernel *k)
{
	return kv->kp ? kprof_result(kv->kp, k) : 0;
}

const struct kview_recorder kview_recorders[KVIEW_NVIEWS] = {
	[KVIEW_ID_LOCK] = {
		.kinds = 1u << KEV_LOCK_BEGIN | 1u << KEV_LOCK_END,
		.ring_pages = KV_RING_PAGES_LOCK,
		.needs_ksyms = true,
		.on_event = kview_on_lock,
		.bpf_read = kview_bpf_read_locks,
		.sample_done = lock_sample_done,
		.build = kview_build_locks,
	},
	[KVIEW_ID_SCHED] = {
		.kinds = 1u << KEV_WAKEUP | 1u << KEV_SWITCH,
		.ring_pages = KV_RING_PAGES_SCHED,
		.bpf_hists = true,
		.init = kview_sched_init,
		.on_event = kview_on_sched,
		.bpf_read = kview_bpf_read_sched,
		.build = kview_build_sched,
	},
	[KVIEW_ID_SYSCALL] = {
		.kinds = 1u << KEV_SYS_ENTER | 1u << KEV_SYS_EXIT,
		.ring_pages = KV_RING_PAGES_SYSCALL,
		.bpf_hists = true,
		.bpf_sys_time = true,
		.on_event = kview_on_sys,
		.bpf_read = kview_bpf_read_sys,
		.sample_done = sys_sample_done,
		.build = kview_build_sys,
	},
	[KVIEW_ID_PROFILE] = {
		.open = profile_open,
		.probe = profile_probe,
		.build = profile_build,
	},
};

int kview_recorders_validate(char *err, size_t errlen)
{
	int id, bad = 0;

	err[0] = 0;
	for (id = 0; id < KVIEW_NVIEWS; id++) {
		const struct kview_recorder *r = &kview_recorders[id];
		const char *name = kview_records[id]->name, *why = NULL;

		if (!r->build)
			why = "has no build hook (the configuration's record)";
		else if (kview_records[id]->traced &&
			 (!r->kinds || !r->ring_pages || !r->on_event ||
			  !r->bpf_read))
			why = "is traced (results/kview_table.h) but has no "
			      "tracepoint kinds, ring, event hook or BPF "
			      "reader";
		else if (!kview_records[id]->traced &&
			 (r->kinds || !r->open || !r->probe))
			why = "has its own recorder but no open or probe hook "
			      "(or tracepoint kinds it cannot read)";
		if (why && !bad++)
			snprintf(err, errlen, "kernel view '%s': the kernel "
				 "layer's row %s", name, why);
	}
	return bad;
}
