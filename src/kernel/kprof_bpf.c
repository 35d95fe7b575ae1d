/*
 * kprof_bpf.c - the profile's BPF path (see kprof_bpf.h): the skeleton
 * of src/bpf/kstacks.bpf.c loaded, given the workers and attached to
 * their perf events; its count map read, folded through a callback and
 * emptied after each traced sample.
 */
#include "kernel/kprof_bpf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>
#include <unistd.h>

#include "bpf/kprof_maps.h"
#include "kernel/bpf_msg.h"

#ifdef COPYSCOPE_NO_BPF

#define NO_BPF "this copyscope was built without BPF (the build host had " \
	       "no kernel BTF, /sys/kernel/btf/vmlinux)"

int kprof_bpf_probe(char *why, size_t len)
{
	snprintf(why, len, "%s", NO_BPF);
	return -1;
}

struct kprof_bpf *kprof_bpf_open(const pid_t *tids, const int *fds,
				 int ntids, const volatile uint32_t *mark0,
				 size_t stride, char *err, size_t errlen)
{
	(void)tids;
	(void)fds;
	(void)ntids;
	(void)mark0;
	(void)stride;
	snprintf(err, errlen, "%s", NO_BPF);
	return NULL;
}

int kprof_bpf_drain(struct kprof_bpf *kb, kprof_bpf_fold fold, void *arg,
		    uint64_t *outside, uint64_t *lost)
{
	(void)kb;
	(void)fold;
	(void)arg;
	(void)outside;
	(void)lost;
	errno = ENOSYS;
	return -1;
}

void kprof_bpf_close(struct kprof_bpf *kb)
{
	(void)kb;
}

#else

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kstacks.skel.h"

#define BTF_PATH "/sys/kernel/btf/vmlinux"

struct kprof_bpf {
	struct kstacks *skel;
	struct bpf_link **links;
	int nlinks;
	uint32_t batch;
	uint64_t outside, lost;		/* the program's counts, read */
};

/* The skeleton opened, or NULL with errno set. */
static struct kstacks *open_skeleton(void)
{
#ifdef __clang_analyzer__
	/* the generated error path frees through libbpf, which the
	   analyzer does not see into (as in kview_bpf.c) */
	errno = ENOSYS;
	return NULL;
#else
	return kstacks__open();
#endif
}

static void why_failed(const char *step, int e, char *why, size_t len)
{
	if (e == EPERM || e == EACCES)
		snprintf(why, len, "%s: BPF not permitted (%s)%s", step,
			 strerror(e), geteuid() != 0 ? ": not root (needs "
			 "root, or CAP_BPF and CAP_PERFMON)" : "");
	else
		snprintf(why, len, "%s: %s%s%s", step, strerror(e),
			 *kbpf_message() ? ": " : "", kbpf_message());
}

/* The program opened and loaded, or NULL with why. */
static struct kstacks *load(char *why, size_t len)
{
	struct kstacks *s;
	int e;

	kbpf_keep_messages();
	if (access(BTF_PATH, R_OK) != 0) {
		snprintf(why, len, "no BTF: %s is missing (a kernel built "
			 "without CONFIG_DEBUG_INFO_BTF)", BTF_PATH);
		return NULL;
	}
	kbpf_clear_message();
	s = open_skeleton();
	if (!s) {
		why_failed("opening the BPF program", errno, why, len);
		return NULL;
	}
	e = kstacks__load(s);
	if (e) {
		why_failed("loading the BPF program", -e, why, len);
		kstacks__destroy(s);
		return NULL;
	}
	return s;
}

int kprof_bpf_probe(char *why, size_t len)
{
	struct kstacks *s = load(why, len);

	if (!s)
		return -1;
	kstacks__destroy(s);
	return 0;
}

struct kprof_bpf *kprof_bpf_open(const pid_t *tids, const int *fds,
				 int ntids, const volatile uint32_t *mark0,
				 size_t stride, char *err, size_t errlen)
{
	struct kprof_bpf *kb;
	int i;

	if (ntids > KPB_MAX_TIDS) {
		snprintf(err, errlen, "%d workers: the BPF program follows "
			 "%d at most", ntids, KPB_MAX_TIDS);
		return NULL;
	}
	kb = calloc(1, sizeof(*kb));
	if (!kb || !(kb->links = calloc((size_t)ntids + 1,
					sizeof(struct bpf_link *)))) {
		free(kb);
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	kb->skel = load(err, errlen);
	if (!kb->skel) {
		kprof_bpf_close(kb);
		return NULL;
	}
	kb->skel->bss->marks = mark0 != NULL;
	kb->skel->bss->mark_addr = (uint64_t)(uintptr_t)mark0;
	kb->skel->bss->mark_stride = (uint32_t)stride;
	for (i = 0; i < ntids; i++) {
		uint32_t tid = (uint32_t)tids[i], idx = (uint32_t)i;

		if (bpf_map__update_elem(kb->skel->maps.tids, &tid,
					 sizeof(tid), &idx, sizeof(idx),
					 BPF_ANY) != 0) {
			snprintf(err, errlen, "the BPF program's workers: %s",
				 strerror(errno));
			kprof_bpf_close(kb);
			return NULL;
		}
		kb->links[i] = bpf_program__attach_perf_event(
			kb->skel->progs.kp_sample, fds[i]);
		if (!kb->links[i]) {
			why_failed("attaching the BPF program to the sampling "
				   "event", errno, err, errlen);
			kprof_bpf_close(kb);
			return NULL;
		}
		kb->nlinks = i + 1;
		if (ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0) != 0) {
			snprintf(err, errlen, "disabling the sampling event: "
				 "%s", strerror(errno));
			kprof_bpf_close(kb);
			return NULL;
		}
	}
	return kb;
}

/* Stack id's frames into ips (KPB_STACK_DEPTH): how many, 0 if none. */
static size_t frames_of(const struct kprof_bpf *kb, int32_t id,
			uint64_t *ips)
{
	size_t n = 0;
	uint32_t key = (uint32_t)id;

	if (id < 0 || bpf_map__lookup_elem(kb->skel->maps.stacks, &key,
					   sizeof(key), ips,
					   KPB_STACK_DEPTH * sizeof(*ips),
					   0) != 0)
		return 0;
	while (n < KPB_STACK_DEPTH && ips[n])
		n++;
	return n;
}

/* Every key of the count map into *keys (malloc'd).  How many, or -1. */
static long all_keys(const struct kprof_bpf *kb, struct kpb_key **keys)
{
	int fd = bpf_map__fd(kb->skel->maps.counts);
	struct kpb_key k, *v = malloc(KPB_MAX_COUNTS * sizeof(*v));
	long n = 0;
	const void *prev = NULL;

	*keys = v;
	if (!v)
		return -1;
	while (n < KPB_MAX_COUNTS && bpf_map_get_next_key(fd, prev, &k) == 0) {
		v[n] = k;
		prev = &v[n++];
	}
	return n;
}

int kprof_bpf_drain(struct kprof_bpf *kb, kprof_bpf_fold fold, void *arg,
		    uint64_t *outside, uint64_t *lost)
{
	static uint64_t kips[KPB_STACK_DEPTH], uips[KPB_STACK_DEPTH];
	int fd = bpf_map__fd(kb->skel->maps.counts);
	struct kpb_key *keys;
	long n = all_keys(kb, &keys), i;
	uint64_t o, l;
	int rc = 0;

	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		uint64_t count = 0;

		if (bpf_map_lookup_elem(fd, &keys[i], &count) != 0)
			continue;
		/* a key of an earlier sample: only if its deletion
		   failed; its samples were folded then */
		if (keys[i].batch == kb->batch && rc == 0 && count)
			rc = fold(arg, kips, frames_of(kb, keys[i].kstack,
						      kips),
				  uips, frames_of(kb, keys[i].ustack, uips),
				  count);
		bpf_map_delete_elem(fd, &keys[i]);
	}
	free(keys);
	kb->batch++;
	kb->skel->bss->batch = kb->batch;
	o = kb->skel->bss->outside;
	l = kb->skel->bss->lost_stack + kb->skel->bss->lost_count;
	*outside += o - kb->outside;
	*lost += l - kb->lost;
	kb->outside = o;
	kb->lost = l;
	return rc;
}

void kprof_bpf_close(struct kprof_bpf *kb)
{
	int i;

	if (!kb)
		return;
	for (i = 0; i < kb->nlinks; i++)
		bpf_link__destroy(kb->links[i]);
	free(kb->links);
	kstacks__destroy(kb->skel);
	free(kb);
}

#endif
