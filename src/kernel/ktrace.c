/*
 * ktrace.c - tracepoints through perf_event_open and mmap rings (see
 * ktrace.h).
 */
#include "kernel/ktrace.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kernel/ksyms.h"
#include "util/array.h"
#include "util/file.h"

#define KT_MAX_CPUS 1024
/* Frames of a lock's callchain: the slow path, its caller, a few more. */
#define KT_STACK_DEPTH 16

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

/* The tracefs directory, or NULL; *denied: one was there but not ours. */
static const char *find_tracefs(bool *denied)
{
	size_t i;
	char p[128];
	struct stat st;

	*denied = false;
	for (i = 0; i < ARRAY_SIZE(tracefs_dirs); i++) {
		snprintf(p, sizeof(p), "%s/events", tracefs_dirs[i]);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			return tracefs_dirs[i];
		if (errno == EACCES || errno == EPERM)
			*denied = true;
	}
	return NULL;
}

const char *ktrace_tracefs(void)
{
	bool denied;

	return find_tracefs(&denied);
}

int ktrace_mount_tracefs(char *msg, size_t len)
{
	const char *dir = tracefs_dirs[0];
	bool denied;

	msg[0] = 0;
	if (find_tracefs(&denied) || denied || geteuid() != 0)
		return 0;
	if (mount("nodev", dir, "tracefs", 0, NULL) != 0) {
		snprintf(msg, len, "tracefs is not mounted and mounting it at "
			 "%s failed: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(msg, len, "%s", dir);
	return 1;
}

const char *ktrace_tp_name(int kind, char *buf, size_t len)
{
	const char *t = getenv("COPYSCOPE_TEST_TRACEPOINT");
	size_t ol;

	snprintf(buf, len, "%s", kev_tracepoint[kind]);
	if (!t)
		return buf;
	ol = strlen(kev_tracepoint[kind]);
	if (strncmp(t, kev_tracepoint[kind], ol) == 0 && t[ol] == '=')
		snprintf(buf, len, "%s", t + ol + 1);
	return buf;
}

/* A whole decimal integer (leading blanks, a trailing newline) or -1. */
static int read_int(const char *s, long *out)
{
	char *end;

	if (!s)
		return -1;
	errno = 0;
	*out = strtol(s, &end, 10);
	if (errno || end == s || (*end && *end != '\n'))
		return -1;
	return 0;
}

static int paranoid(void)
{
	char *s = util_slurp("/proc/sys/kernel/perf_event_paranoid", NULL,
			     false);
	long v;

	if (read_int(s, &v) != 0)
		v = 2;
	free(s);
	return (int)v;
}

/*
 * The format text and id of kind's tracepoint.  Returns 0, or -1 with
 * what is missing in err.
 */
static int tp_format(int kind, char **fmt, int *id, char *sys,
		     size_t syslen, char *err, size_t errlen)
{
	bool denied;
	const char *dir = find_tracefs(&denied);
	char name[128], path[512], *colon, *idtext;
	long idv;

	ktrace_tp_name(kind, name, sizeof(name));
	if (!dir && denied) {
		snprintf(err, errlen, "tracefs (/sys/kernel/tracing) is "
			 "readable by root only: run as root (recording the "
			 "kernel system-wide also needs root, CAP_PERFMON, or "
			 "kernel.perf_event_paranoid=-1; it is %d here)",
			 paranoid());
		return -1;
	}
	if (!dir) {
		snprintf(err, errlen, "tracefs is not mounted (no "
			 "/sys/kernel/tracing/events): mount it with "
			 "'mount -t tracefs nodev /sys/kernel/tracing' "
			 "(as root)");
		return -1;
	}
	colon = strchr(name, ':');
	if (!colon) {
		snprintf(err, errlen, "tracepoint '%s' is not SYSTEM:NAME",
			 name);
		return -1;
	}
	*colon = 0;
	snprintf(sys, syslen, "%s", name);
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, name,
		 colon + 1);
	*fmt = util_slurp(path, NULL, false);
	if (!*fmt) {
		int e = errno;

		*colon = ':';
		if (e == ENOENT)
			snprintf(err, errlen, "tracepoint %s is missing from "
				 "this kernel (no %s): it needs a kernel built "
				 "with CONFIG_TRACEPOINTS%s", name, path,
				 kind <= KEV_LOCK_END ?
				 " and version 5.19 or later (the lock "
				 "contention tracepoints)" : "");
		else if (e == EACCES || e == EPERM)
			snprintf(err, errlen, "cannot read %s: %s: tracefs "
				 "needs root (or its files made readable)",
				 path, strerror(e));
		else
			snprintf(err, errlen, "cannot read %s: %s", path,
				 strerror(e));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, name,
		 colon + 1);
	*colon = ':';
	idtext = util_slurp(path, NULL, false);
	if (read_int(idtext, &idv) != 0 || idv < 0 || idv > INT32_MAX) {
		snprintf(err, errlen, "cannot read the id of tracepoint %s "
			 "(%s)", name, path);
		free(idtext);
		free(*fmt);
		*fmt = NULL;
		return -1;
	}
	free(idtext);
	*id = (int)idv;
	return 0;
}

static long perf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

static void tp_attr(struct perf_event_attr *a, int id, int kind)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_TRACEPOINT;
	a->config = (uint64_t)id;
	a->sample_period = 1;
	a->sample_type = KPARSE_SAMPLE_TYPE;
	a->disabled = 1;
	/* the clock the workers mark their batches with (worker.h) */
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC_RAW;
	a->watermark = 1;
	a->wakeup_watermark = 1u << 30;	/* nobody polls: no wake-ups */
	if (kind == KEV_LOCK_BEGIN) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		a->exclude_callchain_user = 1;
		a->sample_max_stack = KT_STACK_DEPTH;
	}
}

static void open_error(const char *name, int e, char *err, size_t errlen)
{
	if (e == EACCES || e == EPERM)
		snprintf(err, errlen, "perf_event_open of tracepoint %s on "
			 "every CPU: %s: recording the kernel system-wide "
			 "needs root (CAP_PERFMON) or "
			 "kernel.perf_event_paranoid at -1 (it is %d here): "
			 "run as root, or sysctl "
			 "kernel.perf_event_paranoid=-1", name, strerror(e),
			 paranoid());
	else if (e == ENOENT || e == EINVAL)
		snprintf(err, errlen, "perf_event_open of tracepoint %s: "
			 "%s: this kernel cannot record it through perf "
			 "(CONFIG_PERF_EVENTS, CONFIG_EVENT_TRACING)", name,
			 strerror(e));
	else
		snprintf(err, errlen, "perf_event_open of tracepoint %s: %s",
			 name, strerror(e));
}

int ktrace_probe(unsigned kinds, char *err, size_t errlen)
{
	struct kparse *kp = kparse_new();
	int kind, rc = 0;

	if (!kp) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	for (kind = 0; kind < KEV_NKINDS && rc == 0; kind++) {
		struct perf_event_attr a;
		char *fmt = NULL, sys[64], name[128];
		int id;
		long fd;

		if (!(kinds & (1u << kind)))
			continue;
		if (tp_format(kind, &fmt, &id, sys, sizeof(sys), err,
			      errlen) != 0) {
			rc = -1;
			break;
		}
		rc = kparse_add_format(kp, kind, sys, fmt, err, errlen);
		free(fmt);
		if (rc != 0)
			break;
		tp_attr(&a, id, kind);
		fd = perf_open(&a, -1, 0);
		if (fd < 0) {
			open_error(ktrace_tp_name(kind, name, sizeof(name)),
				   errno, err, errlen);
			rc = -1;
			break;
		}
		close((int)fd);
	}
	kparse_free(kp);
	return rc;
}

/* One open event: its fd, id, kind and sample_type. */
struct kt_event {
	int fd;
	uint64_t id;
	int kind;
	uint64_t sample_type;
};

struct kt_ring {
	int cpu;
	void *base;			/* meta page + data */
	size_t data_bytes;
};

struct ktrace {
	struct kparse *kp;
	const struct ksyms *ks;		/* the cache below, or NULL */
	struct kt_event *ev;
	size_t nev;
	struct kt_ring *ring;
	size_t nring;
	size_t page;
	unsigned char *tmp;		/* one record across the wrap */
	struct kevent *out;
	size_t nout, capout;
};

/* A kernel filter of the workload's threads for kind, or "" for none. */
static void make_filter(int kind, const pid_t *tids, int ntids, char *buf,
			size_t len)
{
	size_t l = 0;
	int i;

	buf[0] = 0;
	if (ntids <= 0 || kind == KEV_LOCK_BEGIN || kind == KEV_LOCK_END)
		return;
	for (i = 0; i < ntids && l < len; i++) {
		const char *or = i ? " || " : "";

		if (kind == KEV_WAKEUP)
			l += (size_t)snprintf(buf + l, len - l, "%spid == %d",
					      or, (int)tids[i]);
		else if (kind == KEV_SWITCH)
			l += (size_t)snprintf(buf + l, len - l,
					      "%sprev_pid == %d || "
					      "next_pid == %d", or,
					      (int)tids[i], (int)tids[i]);
		else
			l += (size_t)snprintf(buf + l, len - l,
					      "%scommon_pid == %d", or,
					      (int)tids[i]);
	}
	if (l >= len)
		buf[0] = 0;	/* too long: filter in user space only */
}

static int add_event(struct ktrace *kt, int fd, int kind,
		     uint64_t sample_type)
{
	struct kt_event *e = &kt->ev[kt->nev];

	if (ioctl(fd, PERF_EVENT_IOC_ID, &e->id) != 0)
		return -1;
	e->fd = fd;
	e->kind = kind;
	e->sample_type = sample_type;
	kt->nev++;
	return 0;
}

static int open_cpu(struct ktrace *kt, int cpu, const int *ids,
		    unsigned kinds, const pid_t *tids, int ntids,
		    size_t ring_pages, char *err, size_t errlen)
{
	int kind, leader = -1;
	char filter[2048], name[128];

	for (kind = 0; kind < KEV_NKINDS; kind++) {
		struct perf_event_attr a;
		long fd;

		if (!(kinds & (1u << kind)))
			continue;
		tp_attr(&a, ids[kind], kind);
		fd = perf_open(&a, -1, cpu);
		if (fd < 0) {
			if (errno == ENODEV && leader < 0)
				return 1;	/* offline CPU */
			open_error(ktrace_tp_name(kind, name, sizeof(name)),
				   errno, err, errlen);
			return -1;
		}
		if (add_event(kt, (int)fd, kind, a.sample_type) != 0) {
			close((int)fd);
			snprintf(err, errlen, "perf ioctl ID: %s",
				 strerror(errno));
			return -1;
		}
		make_filter(kind, tids, ntids, filter, sizeof(filter));
		if (filter[0] &&
		    ioctl((int)fd, PERF_EVENT_IOC_SET_FILTER, filter) != 0) {
			snprintf(err, errlen, "setting the filter of "
				 "tracepoint %s: %s",
				 ktrace_tp_name(kind, name, sizeof(name)),
				 strerror(errno));
			return -1;
		}
		if (leader < 0) {
			struct kt_ring *r = &kt->ring[kt->nring];
			size_t bytes = (ring_pages + 1) * kt->page;

			r->base = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				       MAP_SHARED, (int)fd, 0);
			if (r->base == MAP_FAILED) {
				snprintf(err, errlen, "mapping the perf ring "
					 "of CPU %d (%zu KiB): %s", cpu,
					 bytes / 1024, strerror(errno));
				return -1;
			}
			r->cpu = cpu;
			r->data_bytes = ring_pages * kt->page;
			kt->nring++;
			leader = (int)fd;
		} else if (ioctl((int)fd, PERF_EVENT_IOC_SET_OUTPUT,
				 leader) != 0) {
			snprintf(err, errlen, "perf ioctl SET_OUTPUT: %s",
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}

struct ktrace *ktrace_open(unsigned kinds, const pid_t *tids, int ntids,
			   size_t ring_pages, char *err, size_t errlen)
{
	struct ktrace *kt = calloc(1, sizeof(*kt));
	int ids[KEV_NKINDS], kind, cpu, ncpu;

	if (!kt) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	kt->page = (size_t)sysconf(_SC_PAGESIZE);
	ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1 || ncpu > KT_MAX_CPUS)
		ncpu = ncpu < 1 ? 1 : KT_MAX_CPUS;
	kt->kp = kparse_new();
	kt->ev = calloc((size_t)ncpu * KEV_NKINDS, sizeof(*kt->ev));
	kt->ring = calloc((size_t)ncpu, sizeof(*kt->ring));
	kt->tmp = malloc(65536);
	if (!kt->kp || !kt->ev || !kt->ring || !kt->tmp) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		goto fail;
	}
	for (kind = 0; kind < KEV_NKINDS; kind++) {
		char *fmt = NULL, sys[64];
		int rc;

		ids[kind] = -1;
		if (!(kinds & (1u << kind)))
			continue;
		if (tp_format(kind, &fmt, &ids[kind], sys, sizeof(sys), err,
			      errlen) != 0)
			goto fail;
		rc = kparse_add_format(kt->kp, kind, sys, fmt, err, errlen);
		free(fmt);
		if (rc != 0)
			goto fail;
	}
	if (kinds & (1u << KEV_LOCK_BEGIN)) {
		kt->ks = ksyms_kernel(err, errlen);
		if (!kt->ks)
			goto fail;
	}
	for (cpu = 0; cpu < ncpu; cpu++)
		if (open_cpu(kt, cpu, ids, kinds, tids, ntids, ring_pages, err,
			     errlen) < 0)
			goto fail;
	if (kt->nring == 0) {
		snprintf(err, errlen, "no online CPU to record on");
		goto fail;
	}
	return kt;
fail:
	ktrace_close(kt);
	return NULL;
}

static int ioctl_all(struct ktrace *kt, unsigned long req)
{
	size_t i;

	for (i = 0; i < kt->nev; i++)
		if (ioctl(kt->ev[i].fd, req, 0) != 0)
			return -1;
	return 0;
}

int ktrace_enable(struct ktrace *kt)
{
	return ioctl_all(kt, PERF_EVENT_IOC_ENABLE);
}

int ktrace_disable(struct ktrace *kt)
{
	return ioctl_all(kt, PERF_EVENT_IOC_DISABLE);
}

static const struct kt_event *find_id(const struct ktrace *kt, uint64_t id)
{
	size_t i;

	for (i = 0; i < kt->nev; i++)
		if (kt->ev[i].id == id)
			return &kt->ev[i];
	return NULL;
}

static int push(struct ktrace *kt, const struct kevent *e)
{
	if (kt->nout == kt->capout) {
		size_t ncap = kt->capout ? kt->capout * 2 : 4096;
		struct kevent *v = realloc(kt->out, ncap * sizeof(*v));

		if (!v)
			return -1;
		kt->out = v;
		kt->capout = ncap;
	}
	kt->out[kt->nout] = *e;
	kt->out[kt->nout].seq = kt->nout;
	kt->nout++;
	return 0;
}

/* One record (header included, contiguous). */
static int take_record(struct ktrace *kt, const unsigned char *rec,
		       uint64_t *lost)
{
	struct perf_event_header h;
	const struct kt_event *ke;
	struct kevent e;
	uint64_t id;

	memcpy(&h, rec, sizeof(h));
	if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
		uint64_t n;

		memcpy(&n, rec + sizeof(h) + 8, 8);
		*lost += n;
		return 0;
	}
	if (h.type != PERF_RECORD_SAMPLE || h.size < sizeof(h) + 8)
		return 0;
	memcpy(&id, rec + sizeof(h), 8);
	ke = find_id(kt, id);
	if (!ke)
		return 0;
	if (kparse_sample(kt->kp, rec + sizeof(h), h.size - sizeof(h),
			  ke->sample_type, kt->ks, &e) != 0)
		return 0;
	return push(kt, &e);
}

static int drain_ring(struct ktrace *kt, struct kt_ring *r, uint64_t *lost)
{
	struct perf_event_mmap_page *meta = r->base;
	unsigned char *data = (unsigned char *)r->base + kt->page;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	size_t mask = r->data_bytes - 1;
	int rc = 0;

	while (tail + sizeof(struct perf_event_header) <= head && rc == 0) {
		struct perf_event_header h;
		size_t off = (size_t)(tail & mask), first;
		const unsigned char *rec;

		first = r->data_bytes - off;
		if (first >= sizeof(h)) {
			memcpy(&h, data + off, sizeof(h));
		} else {
			memcpy(&h, data + off, first);
			memcpy((unsigned char *)&h + first, data,
			       sizeof(h) - first);
		}
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (first >= h.size) {
			rec = data + off;
		} else {
			memcpy(kt->tmp, data + off, first);
			memcpy(kt->tmp + first, data, h.size - first);
			rec = kt->tmp;
		}
		rc = take_record(kt, rec, lost);
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
	return rc;
}

static int cmp_ev(const void *a, const void *b)
{
	const struct kevent *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int ktrace_drain(struct ktrace *kt, const struct kevent **evs, size_t *n,
		 uint64_t *lost)
{
	size_t i;

	kt->nout = 0;
	*lost = 0;
	for (i = 0; i < kt->nring; i++)
		if (drain_ring(kt, &kt->ring[i], lost) != 0)
			return -1;
	qsort(kt->out, kt->nout, sizeof(*kt->out), cmp_ev);
	*evs = kt->out;
	*n = kt->nout;
	return 0;
}

const struct ksyms *ktrace_ksyms(const struct ktrace *kt)
{
	return kt->ks;
}

void ktrace_close(struct ktrace *kt)
{
	size_t i;

	if (!kt)
		return;
	for (i = 0; i < kt->nev; i++)
		close(kt->ev[i].fd);
	for (i = 0; i < kt->nring; i++)
		munmap(kt->ring[i].base, (kt->ring[i].data_bytes + kt->page));
	kparse_free(kt->kp);
	free(kt->ev);
	free(kt->ring);
	free(kt->tmp);
	free(kt->out);
	free(kt);
}
