/*
 * kprof.c - the profile view's recorder (see kprof.h): the per-thread
 * sampling events, their mmap rings read in user space or their samples
 * counted in the kernel (kprof_bpf.c), and the folded stacks.
 */
#include "kernel/kprof.h"
#include "kernel/kprof_bpf.h"
#include "kernel/usyms.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kernel/ksyms.h"
#include "results/kernel_records.h"
#include "util/array.h"

/*
 * Data pages of each worker's ring (a power of two): nothing drains
 * inside a traced sample, so a sample's records must fit.  A record of
 * a kernel stack is 40 bytes and 8 a frame, some 250 bytes: 1 MiB holds
 * about 4000 samples, a second at 4 kHz.  What does not fit is lost and
 * counted.
 */
#define KPROF_RING_PAGES 256
#define KPROF_MAX_STACK 4096		/* bytes of one folded stack */

struct kprof_stack_slot {
	char *frames;
	uint64_t count;
	uint32_t id;			/* order of first sight */
};

struct kprof {
	int n;				/* workers */
	int *fd;
	void **ring;
	size_t ring_len, page;
	unsigned hz;
	bool pmu;
	const struct ksyms *ks;
	struct usyms *us;		/* the user frames' names; NULL:
					   "[unknown]" */
	struct kprof_bpf *kb;		/* the BPF path; NULL: the rings */
	uint64_t samples, outside, lost;
	struct kprof_stack_slot *slot;	/* open addressing by frames */
	size_t nslot, nstacks;
	/* the open traced sample: its count per stack id, the ids it
	   touched; the closed ones, their stacks as ids */
	uint64_t *cur;
	size_t cur_cap;
	uint32_t *touched;
	size_t ntouched, touched_cap;
	uint64_t cur_samples;
	struct kv_prof_sample *per;
	size_t nper, per_cap;
};

static long perf_open(struct perf_event_attr *a, pid_t tid)
{
	return syscall(SYS_perf_event_open, a, tid, -1, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* The sampling event: cycles at hz (freq mode) or cpu-clock every 1/hz. */
static void attr_of(struct perf_event_attr *a, bool cycles, unsigned hz)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (cycles) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_CPU_CYCLES;
		a->freq = 1;
		a->sample_freq = hz;
	} else {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		a->sample_period = 1000000000ULL / (hz ? hz : 1);
	}
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CALLCHAIN;
	a->disabled = 1;
	a->exclude_hv = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC_RAW;
	a->wakeup_events = 0;
	a->watermark = 0;
}

int kprof_probe(bool *pmu, char *err, size_t errlen)
{
	struct perf_event_attr a;
	long fd;

	attr_of(&a, true, KPROF_DEFAULT_HZ);
	fd = perf_open(&a, 0);
	*pmu = fd >= 0;
	if (fd >= 0) {
		close((int)fd);
		return 0;
	}
	attr_of(&a, false, KPROF_DEFAULT_HZ);
	fd = perf_open(&a, 0);
	if (fd < 0) {
		snprintf(err, errlen, "perf_event_open(cpu-clock with kernel "
			 "callchains): %s%s", strerror(errno),
			 errno == EACCES || errno == EPERM ?
			 " (needs root or kernel.perf_event_paranoid <= 1)" :
			 "");
		return -1;
	}
	close((int)fd);
	return 0;
}

struct kprof *kprof_new(unsigned hz, bool pmu, const struct ksyms *ks)
{
	struct kprof *kp = calloc(1, sizeof(*kp));
	char uerr[256];

	if (!kp)
		return NULL;
	kp->hz = hz;
	kp->pmu = pmu;
	kp->ks = ks;
	kp->page = (size_t)sysconf(_SC_PAGESIZE);
	kp->ring_len = (KPROF_RING_PAGES + 1) * kp->page;
	kp->nslot = 1024;
	kp->slot = calloc(kp->nslot, sizeof(*kp->slot));
	if (!kp->slot) {
		free(kp);
		return NULL;
	}
	/* the binary unreadable: every user frame is "[unknown]" */
	kp->us = usyms_load(uerr, sizeof(uerr));
	return kp;
}

/* One worker's event and its ring.  0, or -1 with the reason in err. */
static int open_one(struct kprof *kp, int i, pid_t tid, char *err,
		    size_t errlen)
{
	struct perf_event_attr a;
	long fd;

	attr_of(&a, kp->pmu, kp->hz);
	fd = perf_open(&a, tid);
	if (fd < 0) {
		snprintf(err, errlen, "perf_event_open(%s, task %d): %s",
			 kp->pmu ? "cycles" : "cpu-clock", (int)tid,
			 strerror(errno));
		return -1;
	}
	kp->fd[i] = (int)fd;
	kp->ring[i] = mmap(NULL, kp->ring_len, PROT_READ | PROT_WRITE,
			   MAP_SHARED, (int)fd, 0);
	if (kp->ring[i] == MAP_FAILED) {
		kp->ring[i] = NULL;
		snprintf(err, errlen, "mmap of the profile's ring (%zu KiB): "
			 "%s", kp->ring_len / 1024, strerror(errno));
		return -1;
	}
	return 0;
}

struct kprof *kprof_open(const pid_t *tids, int ntids, unsigned hz,
			 const struct ksyms *ks, char *err, size_t errlen)
{
	struct kprof *kp;
	bool pmu;
	int i;

	if (kprof_probe(&pmu, err, errlen) != 0)
		return NULL;
	kp = kprof_new(hz, pmu, ks);
	if (!kp || !(kp->fd = calloc((size_t)ntids + 1, sizeof(int))) ||
	    !(kp->ring = calloc((size_t)ntids + 1, sizeof(void *)))) {
		kprof_free(kp);
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	for (i = 0; i < ntids; i++)
		kp->fd[i] = -1;
	kp->n = ntids;
	for (i = 0; i < ntids; i++)
		if (open_one(kp, i, tids[i], err, errlen) != 0) {
			kprof_free(kp);
			return NULL;
		}
	return kp;
}

void kprof_close(struct kprof *kp)
{
	int i;

	if (!kp)
		return;
	kprof_bpf_close(kp->kb);
	kp->kb = NULL;
	for (i = 0; i < kp->n; i++) {
		if (kp->ring && kp->ring[i])
			munmap(kp->ring[i], kp->ring_len);
		if (kp->fd && kp->fd[i] >= 0)
			close(kp->fd[i]);
	}
	free(kp->ring);
	free(kp->fd);
	kp->ring = NULL;
	kp->fd = NULL;
	kp->n = 0;
}

void kprof_free(struct kprof *kp)
{
	size_t s;

	if (!kp)
		return;
	kprof_close(kp);
	usyms_free(kp->us);
	for (s = 0; s < kp->nslot; s++)
		free(kp->slot[s].frames);
	free(kp->slot);
	for (s = 0; s < kp->nper; s++) {
		free(kp->per[s].stack);
		free(kp->per[s].count);
	}
	free(kp->per);
	free(kp->cur);
	free(kp->touched);
	free(kp);
}

int kprof_enable(struct kprof *kp, int on)
{
	int i;

	for (i = 0; i < kp->n; i++)
		if (ioctl(kp->fd[i], on ? PERF_EVENT_IOC_ENABLE :
			  PERF_EVENT_IOC_DISABLE, 0) != 0)
			return -1;
	return 0;
}

static size_t hash_text(const char *s)
{
	size_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int grow_slots(struct kprof *kp)
{
	size_t n = kp->nslot * 2, i;
	struct kprof_stack_slot *v = calloc(n, sizeof(*v));

	if (!v)
		return -1;
	for (i = 0; i < kp->nslot; i++) {
		size_t h;

		if (!kp->slot[i].frames)
			continue;
		h = hash_text(kp->slot[i].frames) & (n - 1);
		while (v[h].frames)
			h = (h + 1) & (n - 1);
		v[h] = kp->slot[i];
	}
	free(kp->slot);
	kp->slot = v;
	kp->nslot = n;
	return 0;
}

/* count more samples of stack id in the open traced sample. */
static int add_current(struct kprof *kp, uint32_t id, uint64_t count)
{
	if (id >= kp->cur_cap) {
		size_t nc = kp->cur_cap ? kp->cur_cap * 2 : 256;
		uint64_t *c;

		while (nc <= id)
			nc *= 2;
		c = realloc(kp->cur, nc * sizeof(*c));
		if (!c)
			return -1;
		memset(c + kp->cur_cap, 0, (nc - kp->cur_cap) * sizeof(*c));
		kp->cur = c;
		kp->cur_cap = nc;
	}
	if (!kp->cur[id]) {
		if (kp->ntouched == kp->touched_cap) {
			size_t nc = kp->touched_cap ? kp->touched_cap * 2 : 64;
			uint32_t *t = realloc(kp->touched, nc * sizeof(*t));

			if (!t)
				return -1;
			kp->touched = t;
			kp->touched_cap = nc;
		}
		kp->touched[kp->ntouched++] = id;
	}
	kp->cur[id] += count;
	kp->cur_samples += count;
	return 0;
}

int kprof_sample_end(struct kprof *kp)
{
	struct kv_prof_sample *ps;
	size_t i;

	if (kp->nper == kp->per_cap) {
		size_t nc = kp->per_cap ? kp->per_cap * 2 : 16;
		struct kv_prof_sample *v = realloc(kp->per, nc * sizeof(*v));

		if (!v)
			return -1;
		kp->per = v;
		kp->per_cap = nc;
	}
	ps = &kp->per[kp->nper];
	memset(ps, 0, sizeof(*ps));
	ps->op_ns = NAN;
	ps->samples = kp->cur_samples;
	ps->stack = malloc((kp->ntouched ? kp->ntouched : 1) *
			   sizeof(*ps->stack));
	ps->count = malloc((kp->ntouched ? kp->ntouched : 1) *
			   sizeof(*ps->count));
	if (!ps->stack || !ps->count) {
		free(ps->stack);
		free(ps->count);
		return -1;
	}
	for (i = 0; i < kp->ntouched; i++) {
		ps->stack[i] = kp->touched[i];
		ps->count[i] = kp->cur[kp->touched[i]];
		kp->cur[kp->touched[i]] = 0;
	}
	ps->n = kp->ntouched;
	kp->ntouched = 0;
	kp->cur_samples = 0;
	kp->nper++;
	return 0;
}

/* count more samples of the stack frames.  0, or -1 on ENOMEM. */
static int add_folded(struct kprof *kp, const char *frames, uint64_t count)
{
	size_t h;

	if ((kp->nstacks + 1) * 2 > kp->nslot && grow_slots(kp) != 0)
		return -1;
	h = hash_text(frames) & (kp->nslot - 1);
	while (kp->slot[h].frames && strcmp(kp->slot[h].frames, frames) != 0)
		h = (h + 1) & (kp->nslot - 1);
	if (!kp->slot[h].frames) {
		kp->slot[h].frames = strdup(frames);
		if (!kp->slot[h].frames)
			return -1;
		kp->slot[h].id = (uint32_t)kp->nstacks++;
	}
	kp->slot[h].count += count;
	kp->samples += count;
	return add_current(kp, kp->slot[h].id, count);
}

/* Append frame to the folded text at buf (length *l), ';' first. */
static void append_frame(char *buf, size_t *l, const char *frame)
{
	int w = snprintf(buf + *l, KPROF_MAX_STACK - *l, "%s%s",
			 *l ? ";" : "", frame);

	if (w > 0 && *l + (size_t)w < KPROF_MAX_STACK)
		*l += (size_t)w;
}

/*
 * The user frames u[0..n) (leaf first, as the kernel gives them) root
 * first into buf: a frame of this binary by its function, one of a
 * library or the vdso by its file, else "[unknown]" (an address in no
 * mapping: where a frame without a frame pointer, libc's, made the
 * kernel's walk read a word that is no return address).  A caller's
 * entry is a return address, named by the byte before it (the call):
 * a call that ends its function would otherwise name the next one.
 */
static void append_user(const struct kprof *kp, char *buf, size_t *l,
			const uint64_t *u, size_t n)
{
	size_t i;

	for (i = n; i-- > 0;) {
		const char *name;

		if (u[i] >= (uint64_t)PERF_CONTEXT_MAX)
			continue;
		name = usyms_name(kp->us, i ? u[i] - 1 : u[i]);
		append_frame(buf, l, name ? name : "[unknown]");
	}
}

/* kprof_add() of count samples. */
static int add_chain(struct kprof *kp, const uint64_t *ips, size_t nips,
		     bool user, uint64_t count)
{
	char buf[KPROF_MAX_STACK], hex[24];
	size_t l = 0, i, nk = nips;

	buf[0] = 0;
	/* the user part, after PERF_CONTEXT_USER: the root; none (a
	   chain without it): "[user]" */
	for (i = 0; i < nips; i++)
		if (ips[i] == (uint64_t)PERF_CONTEXT_USER) {
			nk = i;
			break;
		}
	if (nk < nips && nips - nk > 1)
		append_user(kp, buf, &l, ips + nk + 1, nips - nk - 1);
	else
		append_frame(buf, &l, "[user]");
	for (i = nk; !user && i-- > 0;) {
		const char *name;

		if (ips[i] >= (uint64_t)PERF_CONTEXT_MAX)
			continue;	/* PERF_CONTEXT_KERNEL, ... */
		name = ksyms_func(kp->ks, ips[i]);
		if (!name) {
			snprintf(hex, sizeof(hex), "0x%" PRIx64, ips[i]);
			name = hex;
		}
		append_frame(buf, &l, name);
	}
	return add_folded(kp, buf, count);
}

int kprof_add(struct kprof *kp, const uint64_t *ips, size_t nips, bool user)
{
	return add_chain(kp, ips, nips, user, 1);
}

/* Whether the callchain ips[0..n) has a user part. */
static bool has_user_chain(const uint64_t *ips, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i++)
		if (ips[i] == (uint64_t)PERF_CONTEXT_USER)
			return true;
	return false;
}

int kprof_add_user(struct kprof *kp, uint64_t ip)
{
	char buf[KPROF_MAX_STACK];
	const char *name = usyms_name(kp->us, ip);
	size_t l = 0;

	buf[0] = 0;
	append_frame(buf, &l, "[user]");
	if (name)
		append_frame(buf, &l, name);
	return add_folded(kp, buf, 1);
}

/* One PERF_RECORD_SAMPLE of worker w (IP, TID, TIME, CALLCHAIN). */
static int on_sample(struct kprof *kp, const struct perf_event_header *h,
		     const uint64_t *lo, const uint64_t *hi, int w)
{
	const uint64_t *p = (const uint64_t *)(h + 1);
	uint64_t t, nr;
	bool user = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
		    PERF_RECORD_MISC_USER;
	size_t words = (h->size - sizeof(*h)) / 8;

	if (words < 4)
		return 0;
	t = p[2];
	nr = p[3];
	if (nr > words - 4)
		nr = words - 4;
	if (lo && (t < lo[w] || t > hi[w])) {
		kp->outside++;
		return 0;
	}
	/* a user-mode sample whose user stack the kernel could not read:
	   the function it interrupted, under "[user]" */
	if (user && !has_user_chain(p + 4, (size_t)nr))
		return kprof_add_user(kp, p[0]);
	return kprof_add(kp, p + 4, (size_t)nr, user);
}

/* Read worker w's ring to its end. */
static int drain_one(struct kprof *kp, int w, const uint64_t *lo,
		     const uint64_t *hi)
{
	struct perf_event_mmap_page *mp = kp->ring[w];
	const unsigned char *data = (const unsigned char *)mp + kp->page;
	size_t size = kp->ring_len - kp->page;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = mp->data_tail;
	uint64_t rec[KPROF_MAX_STACK / 8 + 8];
	int rc = 0;

	while (tail < head && rc == 0) {
		struct perf_event_header *h = (void *)rec;
		size_t off = (size_t)(tail % size), len, first;

		first = size - off < sizeof(*h) ? size - off : sizeof(*h);
		memcpy(rec, data + off, first);
		memcpy((char *)rec + first, data, sizeof(*h) - first);
		len = h->size;
		if (len < sizeof(*h))
			break;
		if (len <= sizeof(rec)) {
			first = size - off < len ? size - off : len;
			memcpy(rec, data + off, first);
			memcpy((char *)rec + first, data, len - first);
			if (h->type == PERF_RECORD_SAMPLE)
				rc = on_sample(kp, h, lo, hi, w);
			else if (h->type == PERF_RECORD_LOST)
				kp->lost += rec[2];
		}
		tail += len;
	}
	__atomic_store_n(&mp->data_tail, head, __ATOMIC_RELEASE);
	return rc;
}

/* kprof_bpf_fold: a counted stack of the BPF path, its two parts
   joined into one callchain as the ring's records have it. */
static int fold_counted(void *arg, const uint64_t *kips, size_t nk,
			const uint64_t *uips, size_t nu, uint64_t count)
{
	uint64_t chain[2 * KPROF_MAX_STACK / 8];
	size_t n = 0, i;

	for (i = 0; i < nk && n < ARRAY_SIZE(chain); i++)
		chain[n++] = kips[i];
	for (i = 0; i < nu && n < ARRAY_SIZE(chain); i++)
		chain[n++] = uips[i];
	return add_chain(arg, chain, n, nk == 0, count);
}

int kprof_use_bpf(struct kprof *kp, const pid_t *tids,
		  const volatile uint32_t *mark0, size_t stride, char *err,
		  size_t errlen)
{
	kp->kb = kprof_bpf_open(tids, kp->fd, kp->n, mark0, stride, err,
				errlen);
	return kp->kb ? 0 : -1;
}

bool kprof_in_kernel(const struct kprof *kp)
{
	return kp->kb != NULL;
}

int kprof_drain(struct kprof *kp, const uint64_t *lo, const uint64_t *hi)
{
	int w;

	if (kp->kb)
		return kprof_bpf_drain(kp->kb, fold_counted, kp, &kp->outside,
				       &kp->lost);

	for (w = 0; w < kp->n; w++)
		if (kp->ring[w] && drain_one(kp, w, lo, hi) != 0)
			return -1;
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct kv_prof_stack *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->frames, y->frames);
}

/*
 * The closed traced samples into k, their stack ids turned into indices
 * of k->stacks (sorted): id_of[i] is the id of k->stacks[i].
 */
static int per_sample_result(const struct kprof *kp, struct result_kernel *k,
			     const uint32_t *id_of)
{
	uint32_t *index = malloc((kp->nstacks ? kp->nstacks : 1) *
				 sizeof(*index));
	size_t i, j;

	if (!index)
		return -1;
	for (i = 0; i < k->nstacks; i++)
		index[id_of[i]] = (uint32_t)i;
	k->prof_per = calloc(kp->nper ? kp->nper : 1, sizeof(*k->prof_per));
	if (!k->prof_per) {
		free(index);
		return -1;
	}
	for (i = 0; i < kp->nper; i++) {
		const struct kv_prof_sample *src = &kp->per[i];
		struct kv_prof_sample *d = &k->prof_per[i];
		size_t n = src->n ? src->n : 1;

		d->op_ns = src->op_ns;
		d->samples = src->samples;
		d->stack = malloc(n * sizeof(*d->stack));
		d->count = malloc(n * sizeof(*d->count));
		k->nprof_per++;
		if (!d->stack || !d->count) {
			free(index);
			return -1;
		}
		for (j = 0; j < src->n; j++) {
			d->stack[j] = index[src->stack[j]];
			d->count[j] = src->count[j];
		}
		d->n = src->n;
	}
	free(index);
	return 0;
}

/* A stack of the result with the id it had while sampling. */
struct stack_with_id {
	struct kv_prof_stack s;		/* first: by_count() reads it */
	uint32_t id;
};

int kprof_result(const struct kprof *kp, struct result_kernel *k)
{
	struct stack_with_id *tmp;
	uint32_t *id_of;
	size_t i, n;
	int rc = -1;

	snprintf(k->prof_event, sizeof(k->prof_event), "%s",
		 kp->pmu ? "cycles" : "cpu-clock");
	k->prof_pmu = kp->pmu;
	k->prof_hz = kp->hz;
	k->prof_samples = kp->samples;
	k->prof_outside = kp->outside;
	k->prof_lost = kp->lost;
	/* sorted by count, each stack with its id: the per-sample
	   counts are kept by id */
	n = 0;
	tmp = calloc(kp->nstacks ? kp->nstacks : 1, sizeof(*tmp));
	id_of = malloc((kp->nstacks ? kp->nstacks : 1) * sizeof(*id_of));
	k->stacks = calloc(kp->nstacks ? kp->nstacks : 1, sizeof(*k->stacks));
	if (!tmp || !id_of || !k->stacks)
		goto out;
	for (i = 0; i < kp->nslot; i++) {
		if (!kp->slot[i].frames)
			continue;
		tmp[n].s.frames = strdup(kp->slot[i].frames);
		if (!tmp[n].s.frames)
			goto out;
		tmp[n].s.count = kp->slot[i].count;
		tmp[n++].id = kp->slot[i].id;
	}
	if (n)
		qsort(tmp, n, sizeof(*tmp), by_count);
	for (i = 0; i < n; i++) {
		k->stacks[i] = tmp[i].s;
		tmp[i].s.frames = NULL;
		id_of[i] = tmp[i].id;
	}
	k->nstacks = n;
	rc = per_sample_result(kp, k, id_of);
out:
	for (i = 0; tmp && i < n; i++)
		free(tmp[i].s.frames);
	free(tmp);
	free(id_of);
	return rc;
}
