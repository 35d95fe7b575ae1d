/*
 * kview_lock.c - the lock view of the kernel views (see kview.h): the
 * workers' lock waits from contention_begin to contention_end, by lock
 * type and caller, everything else's in one row.
 */
#include "kernel/kview_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/ksyms.h"
#include "util/array.h"

const char *kview_lock_type(uint32_t flags)
{
	static const struct {
		uint32_t flags;
		const char *name;
	} t[] = {
		{ 0, "semaphore" },
		{ LCB_F_SPIN, "spinlock" },
		{ LCB_F_SPIN | LCB_F_READ, "rwlock:R" },
		{ LCB_F_SPIN | LCB_F_WRITE, "rwlock:W" },
		{ LCB_F_READ, "rwsem:R" },
		{ LCB_F_WRITE, "rwsem:W" },
		{ LCB_F_RT, "rtmutex" },
		{ LCB_F_RT | LCB_F_READ, "rwlock-rt:R" },
		{ LCB_F_RT | LCB_F_WRITE, "rwlock-rt:W" },
		{ LCB_F_PERCPU | LCB_F_READ, "pcpu-sem:R" },
		{ LCB_F_PERCPU | LCB_F_WRITE, "pcpu-sem:W" },
		{ LCB_F_MUTEX, "mutex" },
		{ LCB_F_MUTEX | LCB_F_SPIN, "mutex" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (t[i].flags == flags)
			return t[i].name;
	return "unknown";
}

/* Named when the row is made: the symbols go with the tracer. */
static void caller_name(const struct kview *kv, struct kview_lock *r)
{
	if (r->other)
		snprintf(r->name, sizeof(r->name), "[other tasks]");
	else if (!r->caller)
		snprintf(r->name, sizeof(r->name), "[unknown]");
	else if (kv->ks)
		ksyms_name(kv->ks, r->caller, r->name, sizeof(r->name));
	else
		snprintf(r->name, sizeof(r->name), "0x%llx",
			 (unsigned long long)r->caller);
}

static struct kview_lock *lock_row(struct kview *kv, bool other,
				 uint32_t flags, uint64_t caller)
{
	size_t i;

	for (i = 0; i < kv->nrows; i++) {
		struct kview_lock *r = &kv->rows[i];

		if (r->other == other && (other ||
		    (r->caller == caller &&
		     !strcmp(kview_lock_type(r->flags),
			     kview_lock_type(flags)))))
			return r;
	}
	if (kv->nrows == kv->caprows) {
		size_t ncap = kv->caprows ? kv->caprows * 2 : 16;
		struct kview_lock *v = realloc(kv->rows, ncap * sizeof(*v));

		if (!v)
			return NULL;
		kv->rows = v;
		kv->caprows = ncap;
	}
	memset(&kv->rows[kv->nrows], 0, sizeof(kv->rows[0]));
	kv->rows[kv->nrows].other = other;
	kv->rows[kv->nrows].flags = flags;
	kv->rows[kv->nrows].caller = other ? 0 : caller;
	caller_name(kv, &kv->rows[kv->nrows]);
	return &kv->rows[kv->nrows++];
}

int kview_on_lock_begin(struct kview *kv, const struct kevent *e)
{
	struct kview_task *t = kview_task_of(kv, e->tid);

	if (!t)
		return -1;
	/*
	 * A mutex that spins then sleeps begins twice, first with
	 * LCB_F_SPIN, then without: one wait, from the first begin.  Any
	 * other second begin means the first one's end was lost (a full
	 * ring): start again from this one.
	 */
	if (t->lock_pending && t->lock_addr == e->lock_addr &&
	    (t->lock_flags & LCB_F_SPIN) && !(e->lock_flags & LCB_F_SPIN)) {
		t->lock_flags = e->lock_flags;
		return 0;
	}
	t->lock_pending = false;
	if (!kview_in_batch(kv, e->tid, e->ts_ns))
		return 0;
	t->lock_pending = true;
	t->lock_addr = e->lock_addr;
	t->lock_ts = e->ts_ns;
	t->lock_flags = e->lock_flags;
	t->lock_caller = e->caller;
	return 0;
}

int kview_on_lock_end(struct kview *kv, const struct kevent *e)
{
	struct kview_task *t = kview_task_of(kv, e->tid);
	struct kview_lock *r;
	bool worker;
	uint64_t w;

	if (!t)
		return -1;
	if (!t->lock_pending || t->lock_addr != e->lock_addr)
		return 0;
	t->lock_pending = false;
	w = e->ts_ns - t->lock_ts;
	worker = kview_is_worker(kv, e->tid);
	r = lock_row(kv, !worker, t->lock_flags, t->lock_caller);
	if (!r)
		return -1;
	r->contended++;
	r->total_ns += w;
	if (w > r->max_ns)
		r->max_ns = w;
	r->hist[kv_log2_bucket(w)]++;
	if (worker) {
		kv->s_waits++;
		kv->s_wait_ns += w;
	}
	return 0;
}

int kview_on_lock(struct kview *kv, const struct kevent *e)
{
	return e->kind == KEV_LOCK_BEGIN ? kview_on_lock_begin(kv, e) :
	       e->kind == KEV_LOCK_END ? kview_on_lock_end(kv, e) : 0;
}

int kview_merge_lock(struct kview *kv, const struct kview_lock *in)
{
	struct kview_lock *r = lock_row(kv, in->other, in->flags, in->caller);
	size_t b;

	if (!r)
		return -1;
	r->contended += in->contended;
	r->total_ns += in->total_ns;
	if (in->max_ns > r->max_ns)
		r->max_ns = in->max_ns;
	for (b = 0; b < KV_LOG2_BUCKETS; b++)
		r->hist[b] += in->hist[b];
	if (!in->other) {
		kv->s_waits += in->contended;
		kv->s_wait_ns += in->total_ns;
	}
	return 0;
}

static int cmp_lock(const void *a, const void *b)
{
	const struct kv_lock_row *x = a, *y = b;

	if (x->other != y->other)
		return x->other ? 1 : -1;
	return x->total_ns > y->total_ns ? -1 : x->total_ns < y->total_ns;
}

int kview_build_locks(const struct kview *kv, struct result_kernel *k)
{
	size_t i;

	k->locks = calloc(kv->nrows ? kv->nrows : 1, sizeof(*k->locks));
	if (!k->locks)
		return -1;
	for (i = 0; i < kv->nrows; i++) {
		const struct kview_lock *r = &kv->rows[i];
		struct kv_lock_row *o = &k->locks[k->nlocks++];

		o->other = r->other;
		o->type = strdup(r->other ? "-" : kview_lock_type(r->flags));
		o->caller = strdup(r->name);
		if (!o->type || !o->caller)
			return -1;
		o->contended = r->contended;
		o->total_ns = r->total_ns;
		o->max_ns = r->max_ns;
		memcpy(o->hist, r->hist, sizeof(o->hist));
	}
	qsort(k->locks, k->nlocks, sizeof(*k->locks), cmp_lock);
	return 0;
}
