/*
 * observe_read.c - `observe`'s maps read into an observation, once, at
 * the end: the global arrays (size classes, log2 histograms, syscalls,
 * drops) and the hash maps (per comm, per lock caller, each caller with
 * its wait histogram), lock callers named as `run --kernel lock` and perf
 * lock contention name them (the first frame outside the locking code,
 * with its offset).
 */
#include "kernel/observe_priv.h"

#ifndef COPYSCOPE_NO_BPF
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kview.h"
#include "kernel/kview_bpf.h"
#include "kernel/kview_priv.h"

static int nomem(char *err, size_t errlen)
{
	snprintf(err, errlen, "observe: %s", strerror(ENOMEM));
	return -1;
}

static int cmp_comm(const void *a, const void *b)
{
	const struct observation_comm *x = a, *y = b;

	if (x->writes != y->writes)
		return x->writes < y->writes ? 1 : -1;
	if (x->contentions != y->contentions)
		return x->contentions < y->contentions ? 1 : -1;
	return strcmp(x->comm, y->comm);
}

/* Add one CPU's copy of a comm's row to c. */
static void add_comm(struct observation_comm *c, const struct obs_comm_val *v)
{
	size_t i;

	c->writes += v->writes;
	c->bytes += v->bytes;
	for (i = 0; i < OBS_NCLASSES; i++)
		c->cls[i] += v->cls[i];
	for (i = 0; i < OBS_COMM_LOG2; i++)
		c->log2[i] += v->log2[i];
	c->contentions += v->contentions;
	c->wait_ns += v->wait_ns;
	if (v->max_wait_ns > c->max_wait_ns)
		c->max_wait_ns = v->max_wait_ns;
}

static int read_comms(struct observe *skel, struct observation *o,
		      int ncpus)
{
	int fd = bpf_map__fd(skel->maps.comms), cpu;
	struct obs_comm_key k, next, *prev = NULL;
	struct obs_comm_val *v = calloc((size_t)ncpus, sizeof(*v));
	struct observation_comm *c;
	size_t cap = 0;

	if (!v)
		return -1;
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, v))
			continue;
		if (o->ncomms == cap) {
			cap = cap ? 2 * cap : 64;
			c = realloc(o->comms, cap * sizeof(*c));
			if (!c) {
				free(v);
				return -1;
			}
			o->comms = c;
		}
		c = &o->comms[o->ncomms++];
		memset(c, 0, sizeof(*c));
		snprintf(c->comm, sizeof(c->comm), "%.*s", OBS_COMM_LEN,
			 k.comm);
		for (cpu = 0; cpu < ncpus; cpu++)
			add_comm(c, &v[cpu]);
	}
	free(v);
	if (o->ncomms)
		qsort(o->comms, o->ncomms, sizeof(*o->comms), cmp_comm);
	return 0;
}

/*
 * The caller that waited, named as `run --kernel lock` names it
 * (kview_bpf_caller(): past the tracepoint's BPF frames, the first frame
 * outside the locking code) with its offset, as perf lock contention
 * prints it: "anon_pipe_write+0x43".
 */
static void caller_of(struct observe *skel, const struct ksyms *ks,
		      int32_t stack_id, char *buf, size_t len)
{
	uint64_t ips[OBS_STACK_DEPTH] = { 0 }, ip;

	if (stack_id < 0 || bpf_map_lookup_elem(
		    bpf_map__fd(skel->maps.stacks), &stack_id, ips) != 0) {
		snprintf(buf, len, "[unknown]");
		return;
	}
	ip = kview_bpf_caller(ks, ips, OBS_STACK_DEPTH);
	if (!ip)
		snprintf(buf, len, "[unknown]");
	else if (ks)
		ksyms_name(ks, ip, buf, len);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)ip);
}

/* The row of (caller, type), made when new; NULL on ENOMEM. */
static struct observation_lock *lock_row(struct observation *o,
					 size_t *cap, const char *caller,
					 const char *type)
{
	struct observation_lock *l;
	size_t i;

	for (i = 0; i < o->nlocks; i++)
		if (strcmp(o->locks[i].caller, caller) == 0 &&
		    strcmp(o->locks[i].type, type) == 0)
			return &o->locks[i];
	if (o->nlocks == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		l = realloc(o->locks, *cap * sizeof(*l));
		if (!l)
			return NULL;
		o->locks = l;
	}
	l = &o->locks[o->nlocks++];
	memset(l, 0, sizeof(*l));
	snprintf(l->caller, sizeof(l->caller), "%s", caller);
	snprintf(l->type, sizeof(l->type), "%s", type);
	return l;
}

static int cmp_lock(const void *a, const void *b)
{
	const struct observation_lock *x = a, *y = b;

	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->caller, y->caller);
}

static int read_locks(struct observe *skel, const struct ksyms *ks,
		      struct observation *o)
{
	int fd = bpf_map__fd(skel->maps.locks);
	struct obs_lock_key k, next, *prev = NULL;
	struct obs_lock_val v;
	struct observation_lock *l;
	char caller[128];
	size_t cap = 0, b;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &v))
			continue;
		caller_of(skel, ks, k.stack_id, caller, sizeof(caller));
		l = lock_row(o, &cap, caller, kview_lock_type(k.flags));
		if (!l)
			return -1;
		l->count += v.count;
		l->wait_ns += v.wait_ns;
		if (v.max_wait_ns > l->max_wait_ns)
			l->max_wait_ns = v.max_wait_ns;
		for (b = 0; b < OBSERVATION_NLOG2; b++)
			l->log2[b] += v.log2[b];
		o->lock_count += v.count;
		o->lock_wait_ns += v.wait_ns;
		if (!observation_is_pipe_mutex(l))
			continue;
		o->pipe_mutex_count += v.count;
		for (b = 0; b < OBSERVATION_NLOG2; b++)
			o->pipe_mutex_log2[b] += v.log2[b];
	}
	o->lock_hists = true;
	if (o->nlocks)
		qsort(o->locks, o->nlocks, sizeof(*o->locks), cmp_lock);
	return 0;
}

static int cmp_sys(const void *a, const void *b)
{
	const struct observation_sys *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? 1 : -1;
	return x->nr - y->nr;
}

/* The per-CPU syscall rows summed into s[OBS_NSYSCALLS]. */
static int sum_sys(struct observe *skel, int ncpus, struct obs_sys_val *s)
{
	int fd = bpf_map__fd(skel->maps.sys_stats), cpu;
	struct obs_sys_val *v = calloc((size_t)ncpus, sizeof(*v));
	__u32 i;

	if (!v)
		return -1;
	for (i = 0; i < OBS_NSYSCALLS; i++) {
		if (bpf_map_lookup_elem(fd, &i, v))
			continue;
		for (cpu = 0; cpu < ncpus; cpu++) {
			s[i].count += v[cpu].count;
			s[i].time_ns += v[cpu].time_ns;
		}
	}
	free(v);
	return 0;
}

static int read_sys(struct observe *skel, struct observation *o, int ncpus)
{
	static struct obs_sys_val s[OBS_NSYSCALLS];
	const char *name;
	size_t i, n = 0;

	memset(s, 0, sizeof(s));
	if (sum_sys(skel, ncpus, s))
		return -1;
	for (i = 0; i < OBS_NSYSCALLS; i++)
		n += s[i].count > 0;
	if (!n)
		return 0;
	o->sys = calloc(n, sizeof(*o->sys));
	if (!o->sys)
		return -1;
	for (i = 0; i < OBS_NSYSCALLS; i++) {
		struct observation_sys *r = &o->sys[o->nsys];

		if (!s[i].count)
			continue;
		r->nr = (int)i;
		name = kview_syscall_name((int)i);
		if (name)
			snprintf(r->name, sizeof(r->name), "%s", name);
		else
			snprintf(r->name, sizeof(r->name), "syscall_%zu", i);
		r->count = s[i].count;
		r->time_ns = s[i].time_ns;
		o->nsys++;
	}
	qsort(o->sys, o->nsys, sizeof(*o->sys), cmp_sys);
	return 0;
}

/* The per-CPU pipe totals summed into o. */
static int read_pipe(struct observe *skel, struct observation *o, int ncpus)
{
	struct obs_pipe_val *v = calloc((size_t)ncpus, sizeof(*v));
	__u32 zero = 0;
	int cpu;
	size_t i;

	if (!v)
		return -1;
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.pipe_stats), &zero,
				v) == 0)
		for (cpu = 0; cpu < ncpus; cpu++) {
			o->pipe_writes += v[cpu].writes;
			o->pipe_bytes += v[cpu].bytes;
			for (i = 0; i < OBS_NCLASSES; i++)
				o->pipe_cls[i] += v[cpu].cls[i];
			for (i = 0; i < OBS_LOG2_BUCKETS; i++)
				o->pipe_log2[i] += v[cpu].log2[i];
		}
	free(v);
	return 0;
}

int kobserve_read(struct observe *skel, const struct ksyms *ks,
		  struct observation *o, char *err, size_t errlen)
{
	const struct observe__bss *bss = skel->bss;
	int ncpus = libbpf_num_possible_cpus();

	_Static_assert(OBS_NDROPS == OBSERVATION_NDROPS, "drop reasons");
	_Static_assert(OBS_NCLASSES == OBSERVATION_NCLASSES, "classes");
	_Static_assert(OBS_LOG2_BUCKETS == OBSERVATION_NLOG2, "buckets");
	_Static_assert(OBS_COMM_LOG2 <= OBSERVATION_NLOG2, "comm buckets");
	if (ncpus <= 0) {
		snprintf(err, errlen, "observe: cannot count the possible "
			 "CPUs: %s", strerror(-ncpus));
		return -1;
	}
	memcpy(o->drops, bss->drops, sizeof(o->drops));
	if (o->ran & OBSERVE_WAKEUP) {
		o->wake_count = bss->wake_count;
		memcpy(o->wake_log2, bss->wake_log2, sizeof(o->wake_log2));
	}
	if (((o->ran & OBSERVE_PIPE_WRITES) && read_pipe(skel, o, ncpus)) ||
	    read_comms(skel, o, ncpus) ||
	    ((o->ran & OBSERVE_LOCK) && read_locks(skel, ks, o)) ||
	    ((o->ran & OBSERVE_SYSCALLS) && read_sys(skel, o, ncpus)))
		return nomem(err, errlen);
	return 0;
}
#endif
