/*
 * kparse.c - tracepoint records read with libtraceevent (see kparse.h).
 */
#include "kernel/kparse.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "kernel/ksyms.h"

const char *const kev_tracepoint[KEV_NKINDS] = {
	[KEV_LOCK_BEGIN] = "lock:contention_begin",
	[KEV_LOCK_END] = "lock:contention_end",
	[KEV_WAKEUP] = "sched:sched_wakeup",
	[KEV_SWITCH] = "sched:sched_switch",
	[KEV_SYS_ENTER] = "raw_syscalls:sys_enter",
	[KEV_SYS_EXIT] = "raw_syscalls:sys_exit",
};

/* The fields each kind reads, by name (NULL ends a list). */
static const char *const kev_fields[KEV_NKINDS][4] = {
	[KEV_LOCK_BEGIN] = { "lock_addr", "flags", NULL },
	[KEV_LOCK_END] = { "lock_addr", NULL },
	[KEV_WAKEUP] = { "pid", "target_cpu", NULL },
	[KEV_SWITCH] = { "prev_pid", "prev_state", "next_pid", NULL },
	[KEV_SYS_ENTER] = { "id", NULL },
	[KEV_SYS_EXIT] = { "id", "ret", NULL },
};

struct kparse {
	struct tep_handle *tep;
	struct tep_event *ev[KEV_NKINDS];
	struct tep_format_field *f[KEV_NKINDS][3];
	struct tep_format_field *common_pid;
};

struct kparse *kparse_new(void)
{
	struct kparse *kp = calloc(1, sizeof(*kp));

	if (!kp)
		return NULL;
	kp->tep = tep_alloc();
	if (!kp->tep) {
		free(kp);
		return NULL;
	}
	tep_set_long_size(kp->tep, (int)sizeof(long));
	tep_set_page_size(kp->tep, (int)sysconf(_SC_PAGESIZE));
	return kp;
}

void kparse_free(struct kparse *kp)
{
	if (!kp)
		return;
	tep_free(kp->tep);
	free(kp);
}

int kparse_add_format(struct kparse *kp, int kind, const char *system,
		      const char *format, char *err, size_t errlen)
{
	struct tep_event *ev = NULL;
	enum tep_errno e;
	int i;

	if (kind < 0 || kind >= KEV_NKINDS) {
		snprintf(err, errlen, "unknown tracepoint kind %d", kind);
		return -1;
	}
	e = tep_parse_format(kp->tep, &ev, format, strlen(format), system);
	if (e != TEP_ERRNO__SUCCESS || !ev) {
		char why[128];

		tep_strerror(kp->tep, e, why, sizeof(why));
		snprintf(err, errlen, "%s: libtraceevent cannot parse its "
			 "format: %s", kev_tracepoint[kind], why);
		return -1;
	}
	kp->ev[kind] = ev;
	for (i = 0; kev_fields[kind][i]; i++) {
		kp->f[kind][i] = tep_find_field(ev, kev_fields[kind][i]);
		if (!kp->f[kind][i]) {
			snprintf(err, errlen, "%s: its format has no field "
				 "'%s' (a kernel this version does not "
				 "know)", kev_tracepoint[kind],
				 kev_fields[kind][i]);
			return -1;
		}
	}
	kp->common_pid = tep_find_common_field(ev, "common_pid");
	if (!kp->common_pid) {
		snprintf(err, errlen, "%s: its format has no common_pid",
			 kev_tracepoint[kind]);
		return -1;
	}
	return 0;
}

int kparse_id(const struct kparse *kp, int kind)
{
	return kind >= 0 && kind < KEV_NKINDS && kp->ev[kind] ?
	       kp->ev[kind]->id : -1;
}

/* Field i of kind, sign-extended as its format says. */
static int field(const struct kparse *kp, int kind, int i, const void *raw,
		 size_t size, int64_t *out)
{
	struct tep_format_field *f = kp->f[kind][i];
	unsigned long long v;

	if ((size_t)f->offset + (size_t)f->size > size ||
	    tep_read_number_field(f, raw, &v) != 0)
		return -1;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		unsigned bits = (unsigned)f->size * 8;
		unsigned long long sign = 1ULL << (bits - 1);

		v &= (1ULL << bits) - 1;
		*out = (int64_t)((v ^ sign) - sign);
	} else {
		*out = (int64_t)v;
	}
	return 0;
}

int kparse_raw(const struct kparse *kp, const void *raw, size_t size,
	       struct kevent *ev)
{
	struct tep_record rec;
	int64_t v[3] = { 0, 0, 0 }, pid;
	int id, kind, i;

	memset(&rec, 0, sizeof(rec));
	rec.data = (void *)raw;
	rec.size = (int)size;
	if (size < 8 || !kp->common_pid)
		return -1;
	id = tep_data_type(kp->tep, &rec);
	for (kind = 0; kind < KEV_NKINDS; kind++)
		if (kp->ev[kind] && kp->ev[kind]->id == id)
			break;
	if (kind == KEV_NKINDS)
		return -1;
	for (i = 0; kev_fields[kind][i]; i++)
		if (field(kp, kind, i, raw, size, &v[i]) != 0)
			return -1;
	if ((size_t)kp->common_pid->offset + 4 > size ||
	    tep_read_number_field(kp->common_pid, raw,
				  (unsigned long long *)&pid) != 0)
		return -1;
	ev->kind = kind;
	ev->tid = (int32_t)pid;
	switch (kind) {
	case KEV_LOCK_BEGIN:
		ev->lock_addr = (uint64_t)v[0];
		ev->lock_flags = (uint32_t)v[1];
		break;
	case KEV_LOCK_END:
		ev->lock_addr = (uint64_t)v[0];
		break;
	case KEV_WAKEUP:
		ev->pid = (int32_t)v[0];
		ev->target_cpu = (int32_t)v[1];
		break;
	case KEV_SWITCH:
		ev->prev_pid = (int32_t)v[0];
		ev->prev_state = v[1];
		ev->next_pid = (int32_t)v[2];
		break;
	case KEV_SYS_ENTER:
		ev->sys_id = v[0];
		break;
	case KEV_SYS_EXIT:
		ev->sys_id = v[0];
		ev->sys_ret = v[1];
		break;
	default:
		break;
	}
	return 0;
}

/* A cursor over a sample body. */
struct cur {
	const unsigned char *p;
	size_t left;
};

static int take(struct cur *c, void *out, size_t n)
{
	if (c->left < n)
		return -1;
	memcpy(out, c->p, n);
	c->p += n;
	c->left -= n;
	return 0;
}

/* The first frame outside the locking code, past the context markers. */
static uint64_t lock_caller(const unsigned char *ips, uint64_t n,
			    const struct ksyms *ks)
{
	uint64_t i, ip;

	for (i = 0; i < n; i++) {
		memcpy(&ip, ips + i * 8, 8);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX)
			continue;	/* PERF_CONTEXT_KERNEL and the like */
		if (ks && ksyms_is_lock_code(ks, ip))
			continue;
		return ip;
	}
	return 0;
}

int kparse_sample(const struct kparse *kp, const void *body, size_t size,
		  uint64_t sample_type, const struct ksyms *ks,
		  struct kevent *ev)
{
	struct cur c = { body, size };
	uint32_t tidpid[2], cpu[2], rawsize;
	uint64_t id, ts, nr = 0;
	const unsigned char *ips = NULL;

	memset(ev, 0, sizeof(*ev));
	ev->kind = KEV_NONE;
	if ((sample_type & KPARSE_SAMPLE_TYPE) != KPARSE_SAMPLE_TYPE ||
	    (sample_type & ~(uint64_t)(KPARSE_SAMPLE_TYPE |
				       PERF_SAMPLE_CALLCHAIN)))
		return -1;
	if (take(&c, &id, 8) || take(&c, tidpid, 8) || take(&c, &ts, 8) ||
	    take(&c, cpu, 8))
		return -1;
	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		if (take(&c, &nr, 8) || nr > c.left / 8)
			return -1;
		ips = c.p;
		c.p += nr * 8;
		c.left -= nr * 8;
	}
	if (take(&c, &rawsize, 4) || rawsize > c.left)
		return -1;
	if (kparse_raw(kp, c.p, rawsize, ev) != 0)
		return -1;
	ev->ts_ns = ts;
	ev->cpu = cpu[0];
	if (ev->kind == KEV_LOCK_BEGIN && ips)
		ev->caller = lock_caller(ips, nr, ks);
	return 0;
}
