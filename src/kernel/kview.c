/*
 * kview.c - the kernel views of one configuration: traced samples
 * recorded and aggregated (see kview.h): the tracer, the tasks of a
 * sample, feeding its events to the views and what each sample and the
 * whole configuration gives, each view through its row of
 * kview_recorders.c.  The lock view's events are kview_lock.c's, the
 * sched and syscall views' kview_sched.c's.
 */
#include "kernel/kview.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kprof.h"
#include "kernel/ksyms.h"
#include "kernel/ktrace.h"
#include "kernel/kview_bpf.h"
#include "kernel/kview_priv.h"
#include "stats/histogram.h"
#include "stats/summary.h"
#include "util/array.h"

unsigned kview_kinds(unsigned views)
{
	unsigned k = 0;
	int id;

	for (id = 0; id < KVIEW_NVIEWS; id++)
		if (views & KVIEW_BIT(id))
			k |= kview_recorders[id].kinds;
	return k;
}

int kview_probe_own(int id, char *why, size_t len, char *note,
		    size_t notelen)
{
	note[0] = 0;
	if (id < 0 || id >= KVIEW_NVIEWS || !kview_recorders[id].probe) {
		snprintf(why, len, "not a view with a recorder of its own");
		return -1;
	}
	return kview_recorders[id].probe(why, len, note, notelen);
}

static int worker_idx(const struct kview *kv, int32_t tid)
{
	int i;

	for (i = 0; i < kv->ntids; i++)
		if (kv->tids[i] == tid)
			return i;
	return -1;
}

bool kview_is_worker(const struct kview *kv, int32_t tid)
{
	return worker_idx(kv, tid) >= 0;
}

/* Whether ts is inside task tid's batch (another task: the span). */
bool kview_in_batch(const struct kview *kv, int32_t tid, uint64_t ts)
{
	int i = worker_idx(kv, tid);

	if (!kv->lo)
		return true;
	if (i < 0)
		return ts >= kv->span_lo && ts <= kv->span_hi;
	return ts >= kv->lo[i] && ts <= kv->hi[i];
}

static size_t hash_tid(int32_t tid, size_t cap)
{
	return (size_t)((uint32_t)tid * 2654435761u) & (cap - 1);
}

static int grow_tasks(struct kview *kv)
{
	size_t ncap = kv->task_cap ? kv->task_cap * 2 : 256, i;
	struct kview_task *old = kv->task, *nt = calloc(ncap, sizeof(*nt));

	if (!nt)
		return -1;
	for (i = 0; i < kv->task_cap; i++) {
		size_t h;

		if (!old[i].tid)
			continue;
		h = hash_tid(old[i].tid, ncap);
		while (nt[h].tid)
			h = (h + 1) & (ncap - 1);
		nt[h] = old[i];
	}
	free(old);
	kv->task = nt;
	kv->task_cap = ncap;
	return 0;
}

/* The state of tid (made on first sight), or NULL on ENOMEM. */
struct kview_task *kview_task_of(struct kview *kv, int32_t tid)
{
	size_t h;

	if ((kv->task_n + 1) * 2 > kv->task_cap && grow_tasks(kv) != 0)
		return NULL;
	h = hash_tid(tid, kv->task_cap);
	while (kv->task[h].tid && kv->task[h].tid != tid)
		h = (h + 1) & (kv->task_cap - 1);
	if (!kv->task[h].tid) {
		memset(&kv->task[h], 0, sizeof(kv->task[h]));
		kv->task[h].tid = tid;
		kv->task_n++;
	}
	return &kv->task[h];
}

static void alloc_samples(struct kview_samples *s, size_t n, bool *bad)
{
	double **arr[] = { &s->ns_per_op, &s->lock_waits_per_op,
			   &s->lock_wait_ns_per_op, &s->wake_p99_ns,
			   &s->sys_share_pct };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arr); i++) {
		*arr[i] = calloc(n ? n : 1, sizeof(double));
		if (!*arr[i])
			*bad = true;
	}
	s->span_ns = calloc(2 * (n ? n : 1), sizeof(uint64_t));
	if (!s->span_ns)
		*bad = true;
}

struct kview *kview_new(unsigned views, const pid_t *tids, int ntids,
			size_t max_samples, const struct ksyms *ks)
{
	struct kview *kv = calloc(1, sizeof(*kv));
	bool bad = false;
	int i, id;

	if (!kv)
		return NULL;
	kv->views = views;
	kv->ks = ks;
	kv->op_workers = 1;
	kv->max_samples = max_samples;
	for (i = 0; i < ntids && i < KV_MAX_TIDS; i++)
		kv->tids[kv->ntids++] = tids[i];
	alloc_samples(&kv->s, max_samples, &bad);
	for (id = 0; id < KVIEW_NVIEWS; id++)
		if ((views & KVIEW_BIT(id)) && kview_recorders[id].init &&
		    kview_recorders[id].init(kv) != 0)
			bad = true;
	if (bad || grow_tasks(kv) != 0) {
		kview_free(kv);
		return NULL;
	}
	return kv;
}

/* The ring pages per CPU the views need: the most any of them does. */
static size_t ring_pages(unsigned views)
{
	size_t n = 0;
	int id;

	for (id = 0; id < KVIEW_NVIEWS; id++)
		if ((views & KVIEW_BIT(id)) &&
		    kview_recorders[id].ring_pages > n)
			n = kview_recorders[id].ring_pages;
	return n;
}

const char *kview_backend_name(enum kview_backend b)
{
	return b == KVIEW_BACKEND_BPF ? "bpf" :
	       b == KVIEW_BACKEND_TRACEFS ? "tracefs" : "auto";
}

struct kview *kview_open(unsigned views, enum kview_backend backend,
			 const struct kview_workers *w, size_t max_samples,
			 char *err, size_t errlen)
{
	struct kview *kv = kview_new(views, w->tids, w->ntids, max_samples,
				     NULL);
	unsigned traced = kview_traced_views(views);
	int id;

	if (!kv) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	if (traced && backend == KVIEW_BACKEND_BPF) {
		kv->kb = kview_bpf_open(traced, w, err, errlen);
		if (!kv->kb)
			goto fail;
		kv->ks = kview_bpf_ksyms(kv->kb);
	} else if (traced) {
		kv->kt = ktrace_open(kview_kinds(traced), w->tids, w->ntids,
				     ring_pages(traced), err, errlen);
		if (!kv->kt)
			goto fail;
		kv->ks = ktrace_ksyms(kv->kt);
	}
	for (id = 0; id < KVIEW_NVIEWS; id++)
		if ((views & ~traced & KVIEW_BIT(id)) &&
		    kview_recorders[id].open(kv, w, err, errlen) != 0)
			goto fail;
	return kv;
fail:
	kview_free(kv);
	return NULL;
}

void kview_stop(struct kview *kv)
{
	if (kv && kv->kp) {
		kprof_enable(kv->kp, 0);
		kprof_close(kv->kp);
	}
	if (kv && kv->kb) {
		kview_bpf_close(kv->kb);
		kv->kb = NULL;
		kv->ks = NULL;
	}
	if (!kv || !kv->kt)
		return;
	ktrace_disable(kv->kt);
	ktrace_close(kv->kt);
	kv->kt = NULL;
	kv->ks = NULL;
}

void kview_free(struct kview *kv)
{
	size_t i;

	if (!kv)
		return;
	ktrace_close(kv->kt);
	kview_bpf_close(kv->kb);
	kprof_free(kv->kp);
	free(kv->s.ns_per_op);
	free(kv->s.lock_waits_per_op);
	free(kv->s.lock_wait_ns_per_op);
	free(kv->s.wake_p99_ns);
	free(kv->s.sys_share_pct);
	free(kv->s.span_ns);
	free(kv->task);
	free(kv->rows);
	hist_free(kv->wake);
	hist_free(kv->s_wake);
	free(kv->wake_cpu);
	for (i = 0; i < kv->nsys; i++)
		hist_free(kv->sys[i].h);
	free(kv->sys);
	free(kv);
}

/* Begin aggregating a sample: its batches, and nothing of it yet. */
static void sample_open(struct kview *kv, const struct kview_sample_info *si)
{
	int w;

	kv->op_workers = si->op_workers > 1 ? si->op_workers : 1;
	kv->lo = si->lo_ns;
	kv->hi = si->hi_ns;
	kv->span_lo = UINT64_MAX;
	kv->span_hi = 0;
	for (w = 0; kv->lo && w < kv->ntids; w++) {
		if (kv->lo[w] < kv->span_lo)
			kv->span_lo = kv->lo[w];
		if (kv->hi[w] > kv->span_hi)
			kv->span_hi = kv->hi[w];
	}
	memset(kv->task, 0, kv->task_cap * sizeof(*kv->task));
	kv->task_n = 0;
	kv->s_waits = kv->s_wait_ns = kv->s_sys_ns = 0;
	if (kv->s_wake)
		hist_reset(kv->s_wake);
}

/* The sample's figures, once its events are aggregated.  Returns 0. */
static int sample_close(struct kview *kv, const struct kview_sample_info *si,
			uint64_t lost)
{
	struct kview_samples *s = &kv->s;
	uint64_t nops = si->nops * (uint64_t)(si->op_workers > 1 ?
					      si->op_workers : 1);
	double per = nops ? (double)nops : NAN, window_ns = si->window_ns;
	int nworkers = si->nworkers, id;

	kv->lo = kv->hi = NULL;
	kv->lost += lost;
	if (s->n >= kv->max_samples)
		return 0;
	kv->ops += nops;
	s->span_ns[2 * s->n] = 0;
	s->span_ns[2 * s->n + 1] = 0;
	if (si->lo_ns && kv->span_hi) {
		s->span_ns[2 * s->n] = kv->span_lo;
		s->span_ns[2 * s->n + 1] = kv->span_hi;
	}
	s->ns_per_op[s->n] = window_ns / per;
	s->lock_waits_per_op[s->n] = NAN;
	s->lock_wait_ns_per_op[s->n] = NAN;
	s->sys_share_pct[s->n] = NAN;
	s->wake_p99_ns[s->n] = kv->s_wake && kv->s_wake->total ?
			       (double)hist_percentile(kv->s_wake, 99) : NAN;
	for (id = 0; id < KVIEW_NVIEWS; id++)
		if ((kv->views & KVIEW_BIT(id)) &&
		    kview_recorders[id].sample_done)
			kview_recorders[id].sample_done(kv, s->n, per,
							window_ns, nworkers);
	s->n++;
	return 0;
}

int kview_begin(struct kview *kv, char *err, size_t errlen)
{
	if (kv->kp && kprof_enable(kv->kp, 1) != 0) {
		snprintf(err, errlen, "enabling the profile's events: %s",
			 strerror(errno));
		return -1;
	}
	if (kv->kb) {
		kview_bpf_enable(kv->kb);
		return 0;
	}
	if (kv->kt && ktrace_enable(kv->kt) != 0) {
		snprintf(err, errlen, "enabling the kernel tracepoints: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

int kview_end(struct kview *kv, const struct kview_sample_info *si,
	      char *err, size_t errlen)
{
	const struct kevent *evs;
	uint64_t lost;
	size_t n;

	if (kv->kp && (kprof_enable(kv->kp, 0) != 0 ||
		       kprof_drain(kv->kp, si->lo_ns, si->hi_ns) != 0 ||
		       kprof_sample_end(kv->kp) != 0)) {
		snprintf(err, errlen, "kernel views: reading the profile: %s",
			 strerror(errno));
		return -1;
	}
	if (!kv->kb && !kv->kt) {
		sample_open(kv, si);
		return sample_close(kv, si, 0);
	}
	if (kv->kb) {
		kview_bpf_disable(kv->kb);
		sample_open(kv, si);
		if (kview_bpf_read(kv->kb, kv, &lost) != 0) {
			snprintf(err, errlen, "kernel views: reading the BPF "
				 "maps: %s", strerror(errno));
			return -1;
		}
		return sample_close(kv, si, lost);
	}
	if (ktrace_disable(kv->kt) != 0) {
		snprintf(err, errlen, "disabling the kernel tracepoints: %s",
			 strerror(errno));
		return -1;
	}
	if (ktrace_drain(kv->kt, &evs, &n, &lost) != 0 ||
	    kview_feed(kv, evs, n, lost, si) != 0) {
		snprintf(err, errlen, "kernel views: %s", strerror(ENOMEM));
		return -1;
	}
	return 0;
}

/* One event to the views that read its kind. */
static int feed_one(struct kview *kv, const struct kevent *e)
{
	int id;

	for (id = 0; id < KVIEW_NVIEWS; id++)
		if ((kv->views & KVIEW_BIT(id)) &&
		    (unsigned)e->kind < KEV_NKINDS &&
		    (kview_recorders[id].kinds & (1u << e->kind)) &&
		    kview_recorders[id].on_event(kv, e) != 0)
			return -1;
	return 0;
}

int kview_feed(struct kview *kv, const struct kevent *evs, size_t n,
	       uint64_t lost, const struct kview_sample_info *si)
{
	size_t i;

	sample_open(kv, si);
	for (i = 0; i < n; i++)
		if (feed_one(kv, &evs[i]) != 0)
			return -1;
	return sample_close(kv, si, lost);
}

const struct kview_samples *kview_samples(const struct kview *kv)
{
	return &kv->s;
}

int kview_op_workers(const struct kview *kv)
{
	return kv->op_workers;
}

struct result_kernel *kview_result(const struct kview *kv,
				   double untraced_ns_per_batch_op)
{
	struct result_kernel *k = calloc(1, sizeof(*k));
	double untraced_ns_per_op = untraced_ns_per_batch_op /
				    kv->op_workers;
	int id;

	if (!k)
		return NULL;
	k->views = kv->views;
	k->nsamples = kv->s.n;
	k->ops = kv->ops;
	k->lost = kv->lost;
	k->traced_ns_per_op = kv->s.n ? stats_median(kv->s.ns_per_op,
						     kv->s.n) : NAN;
	k->untraced_ns_per_op = untraced_ns_per_op;
	k->overhead_pct = isfinite(untraced_ns_per_op) &&
			  untraced_ns_per_op > 0 ?
			  100.0 * (k->traced_ns_per_op / untraced_ns_per_op -
				   1.0) : NAN;
	if (kv->s.n) {
		k->windows = malloc(2 * kv->s.n * sizeof(*k->windows));
		if (!k->windows)
			goto fail;
		memcpy(k->windows, kv->s.span_ns,
		       2 * kv->s.n * sizeof(*k->windows));
		k->nwindows = kv->s.n;
	}
	for (id = 0; id < KVIEW_NVIEWS; id++)
		if ((kv->views & KVIEW_BIT(id)) &&
		    kview_recorders[id].build(kv, k) != 0)
			goto fail;
	return k;
fail:
	result_kernel_free(k);
	return NULL;
}
