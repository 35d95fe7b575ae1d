/*
 * kview_bpf.c - the bpf backend of the kernel views (see kview_bpf.h):
 * the skeleton of src/bpf/kviews.bpf.c loaded and attached, why it
 * cannot be where it cannot, and its per-CPU maps read between samples
 * into the aggregate of kernel/kview.c.
 */
#include "kernel/kview_bpf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/kviews.h"
#include "kernel/bpf_msg.h"
#include "kernel/ksyms.h"
#include "kernel/ktrace.h"
#include "kernel/kview.h"
#include "kernel/kview_priv.h"
#include "stats/histogram.h"

static bool has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

uint64_t kview_bpf_caller(const struct ksyms *ks, const uint64_t *ips,
			  size_t n)
{
	size_t i, start = 0;

	for (i = 0; ks && i < n && ips[i]; i++) {
		char name[160];

		ksyms_name(ks, ips[i], name, sizeof(name));
		if (has_prefix(name, "bpf_trace_run") ||
		    has_prefix(name, "__bpf_trace_") ||
		    has_prefix(name, "__traceiter_"))
			start = i + 1;
	}
	for (i = start; i < n && ips[i]; i++)
		if (!ks || !ksyms_is_lock_code(ks, ips[i]))
			return ips[i];
	return 0;
}

void kview_bpf_add_bucket(struct histogram *h, uint64_t *log2, size_t idx,
			  uint64_t count)
{
	uint64_t lo = hist_bucket_lo(idx);

	if (log2)
		log2[kv_log2_bucket(lo)] += count;
	if (!h || !count)
		return;
	if (!h->total || lo < h->min_seen)
		h->min_seen = lo;
	h->total += count;
	if (lo > h->max_value)
		h->overflow += count;
	else
		h->counts[idx] += count;
}

#ifdef COPYSCOPE_NO_BPF

#define NO_BPF "this copyscope was built without BPF (the build host had " \
	       "no kernel BTF, /sys/kernel/btf/vmlinux)"

int kview_bpf_probe(unsigned views, unsigned *ok, char *why, size_t len)
{
	(void)views;
	*ok = 0;
	snprintf(why, len, "%s", NO_BPF);
	return -1;
}

const char *kview_bpf_describe(char *buf, size_t len)
{
	snprintf(buf, len, "built without BPF");
	return buf;
}

struct kview_bpf *kview_bpf_open(unsigned views,
				 const struct kview_workers *w, char *err,
				 size_t errlen)
{
	(void)views;
	(void)w;
	snprintf(err, errlen, "%s", NO_BPF);
	return NULL;
}

void kview_bpf_enable(struct kview_bpf *kb)
{
	(void)kb;
}

void kview_bpf_disable(struct kview_bpf *kb)
{
	(void)kb;
}

int kview_bpf_read(struct kview_bpf *kb, struct kview *kv, uint64_t *lost)
{
	(void)kb;
	(void)kv;
	*lost = 0;
	errno = ENOSYS;
	return -1;
}

const struct ksyms *kview_bpf_ksyms(const struct kview_bpf *kb)
{
	(void)kb;
	return NULL;
}

/* Never called: kview_bpf_open() fails in this build. */
int kview_bpf_read_locks(struct kview_bpf *kb, struct kview *kv)
{
	return kview_bpf_read(kb, kv, &(uint64_t){ 0 });
}

int kview_bpf_read_sched(struct kview_bpf *kb, struct kview *kv)
{
	return kview_bpf_read(kb, kv, &(uint64_t){ 0 });
}

int kview_bpf_read_sys(struct kview_bpf *kb, struct kview *kv)
{
	return kview_bpf_read(kb, kv, &(uint64_t){ 0 });
}

void kview_bpf_close(struct kview_bpf *kb)
{
	(void)kb;
}

#else

#include <bpf/libbpf.h>

#include "kviews.skel.h"

#define BTF_PATH "/sys/kernel/btf/vmlinux"

struct kvb_caller {
	int32_t stack_id;
	uint64_t caller;
};

struct kview_bpf {
	struct kviews *skel;
	struct bpf_link *links[KEV_NKINDS];
	unsigned views;
	const struct ksyms *ks;
	int ncpu;
	void *vals, *zero;		/* ncpu values of the largest map */
	struct kvb_caller *callers;	/* stack id -> caller, as named */
	size_t ncallers, capcallers;
	uint64_t dropped;		/* the program's count, read so far */
	uint64_t wake_total, wake_max;	/* the sample's wake-ups (sched) */
};

const char *kview_bpf_describe(char *buf, size_t len)
{
	snprintf(buf, len, "libbpf %u.%u, BTF", libbpf_major_version(),
		 libbpf_minor_version());
	return buf;
}

/* Each program's tracepoint kind and view. */
static struct bpf_program *prog_of(struct kviews *s, int kind)
{
	switch (kind) {
	case KEV_LOCK_BEGIN: return s->progs.kv_lock_begin;
	case KEV_LOCK_END: return s->progs.kv_lock_end;
	case KEV_WAKEUP: return s->progs.kv_wakeup;
	case KEV_SWITCH: return s->progs.kv_switch;
	case KEV_SYS_ENTER: return s->progs.kv_sys_enter;
	case KEV_SYS_EXIT: return s->progs.kv_sys_exit;
	default: return NULL;
	}
}

static void why_denied(int e, char *why, size_t len)
{
	if (geteuid() != 0)
		snprintf(why, len, "BPF not permitted (%s): not root (loading "
			 "BPF programs needs root, or CAP_BPF and "
			 "CAP_PERFMON)", e == EACCES ? "EACCES" : "EPERM");
	else
		snprintf(why, len, "BPF not permitted (%s) although root: a "
			 "security module or lockdown refuses it",
			 e == EACCES ? "EACCES" : "EPERM");
}

/* The skeleton opened, or NULL with errno set. */
static struct kviews *open_skeleton(void)
{
#ifdef __clang_analyzer__
	/* bpftool's generated error path frees through libbpf
	   (bpf_object__destroy_skeleton), which the analyzer does not see
	   into: it would report a leak inside build/bpf/kviews.skel.h */
	errno = ENOSYS;
	return NULL;
#else
	return kviews__open();
#endif
}

/* Open and load the program with the views' parts only. */
static struct kviews *load(unsigned views, char *why, size_t len)
{
	struct kviews *s;
	int kind, e;

	kbpf_keep_messages();
	if (access(BTF_PATH, R_OK) != 0) {
		snprintf(why, len, "no BTF: %s is missing (a kernel built "
			 "without CONFIG_DEBUG_INFO_BTF)", BTF_PATH);
		return NULL;
	}
	kbpf_clear_message();
	s = open_skeleton();
	if (!s) {
		e = errno;
		if (e == EPERM || e == EACCES)
			why_denied(e, why, len);
		else
			snprintf(why, len, "opening the BPF program: %s%s%s",
				 strerror(e), *kbpf_message() ? ": " : "",
				 kbpf_message());
		return NULL;
	}
	for (kind = 0; kind < KEV_NKINDS; kind++)
		if (prog_of(s, kind) && !(kview_kinds(views) & (1u << kind)))
			bpf_program__set_autoload(prog_of(s, kind), false);
	e = kviews__load(s);
	if (e) {
		e = -e;
		if (e == EPERM || e == EACCES)
			why_denied(e, why, len);
		else
			snprintf(why, len, "loading the BPF program: %s%s%s",
				 strerror(e), *kbpf_message() ? ": " : "",
				 kbpf_message());
		kviews__destroy(s);
		return NULL;
	}
	return s;
}

/* Attach kind's program to its raw tracepoint.  0, or -1 with why. */
static int attach_kind(struct kviews *s, struct bpf_link **links, int kind,
		       char *why, size_t len)
{
	char name[128], *tp;

	ktrace_tp_name(kind, name, sizeof(name));
	tp = strchr(name, ':');
	tp = tp ? tp + 1 : name;
	links[kind] = bpf_program__attach_raw_tracepoint(prog_of(s, kind), tp);
	if (links[kind])
		return 0;
	if (!why[0] && (errno == ENOENT || errno == EINVAL))
		snprintf(why, len, "tracepoint %s is missing from this kernel "
			 "(the lock tracepoints need 5.19 or later)", name);
	else if (!why[0])
		snprintf(why, len, "attaching to tracepoint %s: %s", name,
			 strerror(errno));
	return -1;
}

/* Attach the views' programs; the views all of whose programs did. */
static unsigned attach(struct kviews *s, struct bpf_link **links,
		       unsigned views, char *why, size_t len)
{
	unsigned ok = 0;
	int id;

	for (id = 0; id < KVIEW_NVIEWS; id++) {
		unsigned kinds = kview_recorders[id].kinds;
		bool all = true;
		int kind;

		if (!(views & KVIEW_BIT(id)) || !kinds)
			continue;
		for (kind = 0; kind < KEV_NKINDS && all; kind++)
			if ((kinds & (1u << kind)) &&
			    attach_kind(s, links, kind, why, len) != 0)
				all = false;
		if (all)
			ok |= KVIEW_BIT(id);
	}
	return ok;
}

int kview_bpf_probe(unsigned views, unsigned *ok, char *why, size_t len)
{
	struct bpf_link *links[KEV_NKINDS] = { NULL };
	struct kviews *s;
	int kind;

	*ok = 0;
	why[0] = 0;
	s = load(views, why, len);
	if (!s)
		return -1;
	*ok = attach(s, links, views, why, len);
	for (kind = 0; kind < KEV_NKINDS; kind++)
		bpf_link__destroy(links[kind]);
	kviews__destroy(s);
	return *ok == views ? 0 : -1;
}

static size_t max_value_size(void)
{
	size_t m = sizeof(struct kvb_lock_val);

	if (sizeof(struct kvb_sched) > m)
		m = sizeof(struct kvb_sched);
	return m;
}

struct kview_bpf *kview_bpf_open(unsigned views,
				 const struct kview_workers *w, char *err,
				 size_t errlen)
{
	struct kview_bpf *kb = calloc(1, sizeof(*kb));
	struct kvb_task zt;
	int i;

	if (!kb) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	err[0] = 0;
	kb->views = views;
	kb->ncpu = libbpf_num_possible_cpus();
	if (kb->ncpu <= 0) {
		snprintf(err, errlen, "the possible CPUs: %s",
			 strerror(-kb->ncpu));
		goto fail;
	}
	kb->vals = calloc((size_t)kb->ncpu, max_value_size());
	kb->zero = calloc((size_t)kb->ncpu, max_value_size());
	if (!kb->vals || !kb->zero) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		goto fail;
	}
	for (i = 0; i < KVIEW_NVIEWS && !kb->ks; i++)
		if ((views & KVIEW_BIT(i)) && kview_recorders[i].needs_ksyms) {
			kb->ks = ksyms_kernel(err, errlen);
			if (!kb->ks)
				goto fail;
		}
	kb->skel = load(views, err, errlen);
	if (!kb->skel)
		goto fail;
	kb->skel->bss->marks = w->marks && w->mark0;
	kb->skel->bss->mark_addr = (uint64_t)(uintptr_t)w->mark0;
	kb->skel->bss->mark_stride = (uint32_t)w->mark_stride;
	for (i = 0; i < KVIEW_NVIEWS; i++)
		if ((views & KVIEW_BIT(i)) && kview_recorders[i].bpf_sys_time)
			kb->skel->bss->sys_view = true;
	memset(&zt, 0, sizeof(zt));
	for (i = 0; i < w->ntids && i < KVB_MAX_TIDS; i++) {
		uint32_t tid = (uint32_t)w->tids[i];

		zt.idx = (uint32_t)i;
		if (bpf_map__update_elem(kb->skel->maps.workers, &tid,
					 sizeof(tid), &zt, sizeof(zt),
					 BPF_ANY) != 0) {
			snprintf(err, errlen, "the workers' map: %s",
				 strerror(errno));
			goto fail;
		}
	}
	if (attach(kb->skel, kb->links, views, err, errlen) != views)
		goto fail;
	return kb;
fail:
	kview_bpf_close(kb);
	return NULL;
}

void kview_bpf_enable(struct kview_bpf *kb)
{
	kb->skel->bss->gen++;
	__atomic_store_n(&kb->skel->bss->enabled, 1, __ATOMIC_SEQ_CST);
}

void kview_bpf_disable(struct kview_bpf *kb)
{
	__atomic_store_n(&kb->skel->bss->enabled, 0, __ATOMIC_SEQ_CST);
}

const struct ksyms *kview_bpf_ksyms(const struct kview_bpf *kb)
{
	return kb ? kb->ks : NULL;
}

void kview_bpf_close(struct kview_bpf *kb)
{
	int kind;

	if (!kb)
		return;
	for (kind = 0; kind < KEV_NKINDS; kind++)
		bpf_link__destroy(kb->links[kind]);
	kviews__destroy(kb->skel);
	free(kb->vals);
	free(kb->zero);
	free(kb->callers);
	free(kb);
}

/* The caller of a worker's stack, named once per stack id. */
static int caller_of(struct kview_bpf *kb, int32_t id, uint64_t *caller)
{
	uint64_t ips[KVB_STACK_DEPTH];
	size_t i;

	*caller = 0;
	if (id < 0)
		return 0;
	for (i = 0; i < kb->ncallers; i++)
		if (kb->callers[i].stack_id == id) {
			*caller = kb->callers[i].caller;
			return 0;
		}
	memset(ips, 0, sizeof(ips));
	if (bpf_map__lookup_elem(kb->skel->maps.stacks, &id, sizeof(id),
				 ips, sizeof(ips), 0) != 0)
		return 0;		/* no stack: [unknown] */
	*caller = kview_bpf_caller(kb->ks, ips, KVB_STACK_DEPTH);
	if (kb->ncallers == kb->capcallers) {
		size_t n = kb->capcallers ? kb->capcallers * 2 : 32;
		struct kvb_caller *v = realloc(kb->callers, n * sizeof(*v));

		if (!v)
			return -1;
		kb->callers = v;
		kb->capcallers = n;
	}
	kb->callers[kb->ncallers].stack_id = id;
	kb->callers[kb->ncallers++].caller = *caller;
	return 0;
}

/* Read key's per-CPU values into kb->vals, then zero them. */
static int take(struct kview_bpf *kb, struct bpf_map *m, const void *key,
		size_t ksz, size_t vsz)
{
	size_t all = vsz * (size_t)kb->ncpu;

	if (bpf_map__lookup_elem(m, key, ksz, kb->vals, all, 0) != 0)
		return -1;
	return bpf_map__update_elem(m, key, ksz, kb->zero, all, BPF_EXIST);
}

int kview_bpf_read_locks(struct kview_bpf *kb, struct kview *kv)
{
	struct bpf_map *m = kb->skel->maps.lock_rows;
	struct kvb_lock_key key, next;
	const struct kvb_lock_val *v = kb->vals;
	bool first = true;

	while (bpf_map__get_next_key(m, first ? NULL : &key, &next,
				     sizeof(next)) == 0) {
		struct kview_lock in;
		int c, b;

		key = next;
		first = false;
		if (take(kb, m, &key, sizeof(key), sizeof(*v)) != 0)
			return -1;
		memset(&in, 0, sizeof(in));
		for (c = 0; c < kb->ncpu; c++) {
			in.contended += v[c].contended;
			in.total_ns += v[c].total_ns;
			if (v[c].max_ns > in.max_ns)
				in.max_ns = v[c].max_ns;
			for (b = 0; b < KV_LOG2_BUCKETS; b++)
				in.hist[b] += v[c].hist[b];
		}
		if (!in.contended)
			continue;
		in.other = key.other;
		in.flags = key.flags;
		if (!in.other && caller_of(kb, key.stack_id, &in.caller) != 0)
			return -1;
		if (kview_merge_lock(kv, &in) != 0)
			return -1;
	}
	return 0;
}

static void hist_sum_max(struct histogram *h, uint64_t sum, uint64_t max)
{
	h->sum += (long double)sum;
	if (max > h->max_seen)
		h->max_seen = max;
}

int kview_bpf_read_sched(struct kview_bpf *kb, struct kview *kv)
{
	const struct kvb_sched *v = kb->vals;
	uint64_t *total = &kb->wake_total, *max = &kb->wake_max;
	uint32_t zero = 0;
	int c;

	*total = *max = 0;
	if (take(kb, kb->skel->maps.sched_sums, &zero, sizeof(zero),
		 sizeof(*v)) != 0)
		return -1;
	for (c = 0; c < kb->ncpu; c++) {
		*total += v[c].wake_total_ns;
		if (v[c].wake_max_ns > *max)
			*max = v[c].wake_max_ns;
		kv->rq_wait_ns += v[c].rq_wait_ns;
		kv->preemptions += v[c].preemptions;
		if (v[c].landed &&
		    kview_add_wake_cpu(kv, (uint32_t)c, v[c].landed) != 0)
			return -1;
	}
	return 0;
}

int kview_bpf_read_sys(struct kview_bpf *kb, struct kview *kv)
{
	struct bpf_map *m = kb->skel->maps.sys_rows;
	const struct kvb_sys_val *v = kb->vals;
	uint32_t key, next;
	bool first = true;

	while (bpf_map__get_next_key(m, first ? NULL : &key, &next,
				     sizeof(next)) == 0) {
		struct kview_sys *r;
		uint64_t count = 0, total = 0, max = 0;
		int c;

		key = next;
		first = false;
		if (take(kb, m, &key, sizeof(key), sizeof(*v)) != 0)
			return -1;
		for (c = 0; c < kb->ncpu; c++) {
			count += v[c].count;
			total += v[c].total_ns;
			if (v[c].max_ns > max)
				max = v[c].max_ns;
		}
		if (!count)
			continue;
		r = kview_sys_row(kv, key);
		if (!r)
			return -1;
		r->count += count;
		r->total_ns += total;
		if (max > r->max_ns)
			r->max_ns = max;
		hist_sum_max(r->h, total, max);
		kv->s_sys_ns += total;
	}
	return 0;
}

static int read_hist(struct kview_bpf *kb, struct kview *kv)
{
	struct bpf_map *m = kb->skel->maps.hist;
	const uint64_t *v = kb->vals;
	struct kvb_hist_key key, next;
	bool first = true;

	while (bpf_map__get_next_key(m, first ? NULL : &key, &next,
				     sizeof(next)) == 0) {
		uint64_t count = 0;
		int c;

		key = next;
		first = false;
		if (take(kb, m, &key, sizeof(key), sizeof(*v)) != 0)
			return -1;
		for (c = 0; c < kb->ncpu; c++)
			count += v[c];
		if (!count)
			continue;
		if (key.kind == KVB_HIST_WAKE && kv->wake) {
			kview_bpf_add_bucket(kv->wake, kv->wake_log2,
					     key.bucket, count);
			kview_bpf_add_bucket(kv->s_wake, NULL, key.bucket,
					     count);
		} else if (key.kind == KVB_HIST_SYS) {
			struct kview_sys *r = kview_sys_row(kv, key.id);

			if (!r)
				return -1;
			kview_bpf_add_bucket(r->h, NULL, key.bucket, count);
		}
	}
	return 0;
}

int kview_bpf_read(struct kview_bpf *kb, struct kview *kv, uint64_t *lost)
{
	uint64_t d;
	bool hists = false;
	int id;

	*lost = 0;
	kb->wake_total = kb->wake_max = 0;
	for (id = 0; id < KVIEW_NVIEWS; id++) {
		if (!(kb->views & KVIEW_BIT(id)))
			continue;
		if (kview_recorders[id].bpf_read(kb, kv) != 0)
			return -1;
		hists |= kview_recorders[id].bpf_hists;
	}
	if (hists && read_hist(kb, kv) != 0)
		return -1;
	if (kv->wake) {
		hist_sum_max(kv->wake, kb->wake_total, kb->wake_max);
		hist_sum_max(kv->s_wake, kb->wake_total, kb->wake_max);
	}
	d = __atomic_load_n(&kb->skel->bss->dropped, __ATOMIC_RELAXED);
	*lost = d - kb->dropped;
	kb->dropped = d;
	return 0;
}

#endif
