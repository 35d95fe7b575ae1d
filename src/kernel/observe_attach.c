/*
 * observe_attach.c - `observe`'s kernel side (observe_attach.h): which
 * of the asked views can run here and why not, the pipe-writes source
 * tried in order (fexit, kretprobe, the syscall tracepoints), tracefs
 * mounted when it is missing and we are root, the program loaded and
 * attached view by view, the wait, and the maps read (observe_read.c).
 */
#include "kernel/observe_attach.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifdef COPYSCOPE_NO_BPF

const char *const kobserve_pipe_sources[3] = {
	"fexit", "kprobe", "syscalls",
};

int kobserve_run(const struct kobserve_request *rq, struct observation *out,
		 char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->asked = rq->what;
	snprintf(err, errlen, "this copyscope was built without BPF (the "
		 "build host had no BTF, /sys/kernel/btf/vmlinux)");
	observation_note(out, "%s", err);
	return 77;
}

#else

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <linux/membarrier.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kernel/bpf_msg.h"
#include "kernel/ktrace.h"
#include "kernel/observe_priv.h"
#include "util/array.h"

const char *const kobserve_pipe_sources[3] = {
	"fexit", "kprobe", "syscalls",
};

/* A view's programs and the tracepoints they need (NULL-ended). */
struct view {
	unsigned bit;
	const char *const *tps;		/* "category/name" */
};

static const char *const lock_tps[] = {
	"lock/contention_begin", "lock/contention_end", NULL,
};
static const char *const wake_tps[] = {
	"sched/sched_waking", "sched/sched_switch", NULL,
};
static const char *const sys_tps[] = {
	"raw_syscalls/sys_enter", "raw_syscalls/sys_exit", NULL,
};
static const char *const pipe_sys_tps[] = {
	"syscalls/sys_enter_write", "syscalls/sys_exit_write",
	"syscalls/sys_enter_writev", "syscalls/sys_exit_writev",
	"syscalls/sys_enter_splice", "syscalls/sys_exit_splice", NULL,
};

static const struct view views[] = {
	{ OBSERVE_LOCK, lock_tps },
	{ OBSERVE_WAKEUP, wake_tps },
	{ OBSERVE_SYSCALLS, sys_tps },
};

/* The programs of a view or pipe source, and their links (NULL-ended). */
static size_t progs_of(struct observe *s, unsigned bit, int source,
		       struct bpf_program **p, struct bpf_link ***l)
{
	size_t n = 0;

#define ADD(name) (p[n] = s->progs.name, l[n] = &s->links.name, n++)
	if (bit == OBSERVE_PIPE_WRITES && source == 0) {
		ADD(obs_pipe_fexit);
	} else if (bit == OBSERVE_PIPE_WRITES && source == 1) {
		ADD(obs_pipe_kret);
	} else if (bit == OBSERVE_PIPE_WRITES) {
		ADD(obs_enter_write); ADD(obs_exit_write);
		ADD(obs_enter_writev); ADD(obs_exit_writev);
		ADD(obs_enter_splice); ADD(obs_exit_splice);
	} else if (bit == OBSERVE_LOCK) {
		ADD(obs_lock_begin); ADD(obs_lock_end);
	} else if (bit == OBSERVE_WAKEUP) {
		ADD(obs_waking); ADD(obs_switch);
	} else if (bit == OBSERVE_SYSCALLS) {
		ADD(obs_sys_enter); ADD(obs_sys_exit);
	}
#undef ADD
	p[n] = NULL;
	return n;
}

/* The tracefs directory; mounted when missing and we are root. */
static const char *tracefs(struct observation *o)
{
	static const char dir[] = "/sys/kernel/tracing";
	static bool said;
	const char *d = ktrace_tracefs();

	if (d || geteuid() != 0)
		return d;
	if (mount("nodev", dir, "tracefs", 0, NULL) != 0) {
		observation_note(o, "tracefs is not mounted and mounting it "
				 "on %s failed: %s", dir, strerror(errno));
		return NULL;
	}
	if (!said)
		fprintf(stderr, "copyscope: mounted tracefs on %s (it was not "
			"mounted), as perf does\n", dir);
	said = true;
	observation_note(o, "mounted tracefs on %s", dir);
	return ktrace_tracefs();
}

/* The first of tps missing from tracefs dir, or NULL when all are. */
static const char *missing_tp(const char *dir, const char *const *tps)
{
	char p[512];
	struct stat st;

	for (; *tps; tps++) {
		snprintf(p, sizeof(p), "%s/events/%s", dir, *tps);
		if (stat(p, &st) != 0)
			return *tps;
	}
	return NULL;
}

/* The pipe's write function on this kernel ("" when neither is known). */
static const char *pipe_write_fn(const struct ksyms *ks)
{
	size_t i;
	bool plain = false;

	for (i = 0; ks && i < ks->n; i++) {
		if (strcmp(ks->v[i].name, "anon_pipe_write") == 0)
			return "anon_pipe_write";
		plain |= strcmp(ks->v[i].name, "pipe_write") == 0;
	}
	return plain ? "pipe_write" : "";
}

struct attempt {
	const struct kobserve_request *rq;
	struct observation *o;
	const struct ksyms *ks;
	unsigned views;			/* OBSERVE_* to load */
	int source;			/* pipe source, 0 .. 2 */
	int last;			/* the last source to try */
	struct observe *skel;
};

static void set_filters(struct observe *s, const struct kobserve_request *rq)
{
	size_t n;

	s->rodata->filter_tgid = (__u32)rq->pid;
	if (!rq->comm || !*rq->comm)
		return;
	n = strlen(rq->comm);
	if (rq->comm[n - 1] == '*') {
		s->rodata->filter_comm_prefix = true;
		n--;
	}
	if (n > OBS_COMM_LEN - 1)
		n = OBS_COMM_LEN - 1;	/* the kernel keeps 15 bytes */
	memcpy(s->rodata->filter_comm, rq->comm, n);
	s->rodata->filter_comm_len = (__u32)n;
	if (!n)
		s->rodata->filter_comm_prefix = false;
}

/* Why load or attach failed, in the user's terms. */
static const char *why(int e)
{
	if (e == EPERM || e == EACCES)
		return geteuid() ? "not permitted: not root (observe needs "
			"root, or CAP_BPF and CAP_PERFMON)" :
			"not permitted (kernel.unprivileged_bpf_disabled, "
			"lockdown or an LSM?)";
	return strerror(e);
}

/*
 * Open and load the program for a->views with pipe source a->source.
 * 0; 1 when only the pipe source failed to load (try the next); 2 when
 * the forced pipe source failed and the other views are left to load
 * (pipe-writes dropped from a->views); -1 when nothing loads (note
 * made).
 */
static int load(struct attempt *a)
{
	struct bpf_program *p[8], *q;
	struct bpf_link **l[8];
	const char *fn = pipe_write_fn(a->ks);
	int e;

	kbpf_clear_message();
	a->skel = KOBSERVE_OPEN();
	if (!a->skel) {
		observation_note(a->o, "cannot open the BPF program: %s",
				 why(errno));
		return -1;
	}
	set_filters(a->skel, a->rq);
	for (q = bpf_object__next_program(a->skel->obj, NULL); q;
	     q = bpf_object__next_program(a->skel->obj, q))
		bpf_program__set_autoload(q, false);
	for (size_t v = 0; v < 4; v++)
		if (a->views & (1u << v))
			for (size_t i = 0; i < progs_of(a->skel, 1u << v,
					a->source, p, l); i++)
				bpf_program__set_autoload(p[i], true);
	if ((a->views & OBSERVE_PIPE_WRITES) && a->source == 0 && *fn)
		bpf_program__set_attach_target(a->skel->progs.obs_pipe_fexit,
					       0, fn);
	if (!observe__load(a->skel))
		return 0;
	e = errno;
	observe__destroy(a->skel);
	a->skel = NULL;
	if ((a->views & OBSERVE_PIPE_WRITES) && a->source < 2 &&
	    (geteuid() == 0 || a->source < a->last)) {
		observation_note(a->o, "pipe-writes: %s on %s unavailable "
				 "here: it does not load (%s%s%s)%s",
				 a->source ? "kprobes: kretprobe" : "fexit",
				 *fn ? fn : "anon_pipe_write",
				 geteuid() ? why(e) : strerror(e),
				 *kbpf_message() ? ": " : "", kbpf_message(),
				 a->source < a->last ?
				 "; trying the next source" : "");
		if (a->source < a->last)
			return 1;
		/* the forced source: the other views without it */
		a->views &= ~OBSERVE_PIPE_WRITES;
		return a->views ? 2 : -1;
	}
	observation_note(a->o, "the BPF program does not load: %s%s%s",
			 why(e), *kbpf_message() ? ": " : "", kbpf_message());
	return -1;
}

/* Attach view bit's programs; false (links undone, note made) if not. */
static bool attach_view(struct attempt *a, unsigned bit)
{
	struct bpf_program *p[8];
	struct bpf_link **l[8];
	const char *fn = pipe_write_fn(a->ks);
	size_t n = progs_of(a->skel, bit, a->source, p, l), i;
	int e = 0;

	for (i = 0; i < n && !e; i++) {
		kbpf_clear_message();
		if (p[i] == a->skel->progs.obs_pipe_kret)
			*l[i] = bpf_program__attach_kprobe(p[i], true, fn);
		else
			*l[i] = bpf_program__attach(p[i]);
		if (!*l[i])
			e = errno ? errno : EINVAL;
	}
	if (!e)
		return true;
	for (i = 0; i < n; i++) {
		bpf_link__destroy(*l[i]);
		*l[i] = NULL;
	}
	if (bit == OBSERVE_PIPE_WRITES && a->source < 2)
		observation_note(a->o, "pipe-writes: %s on %s does not attach "
				 "(%s%s%s)%s",
				 a->source ? "kprobes unavailable: kretprobe" :
				 "fexit", fn, strerror(e),
				 *kbpf_message() ? ": " : "", kbpf_message(),
				 a->source < a->last ?
				 "; trying the next source" : "");
	else
		observation_note(a->o, "%s: does not attach: %s%s%s",
				 observe_what_names[__builtin_ctz(bit)],
				 why(e), *kbpf_message() ? ": " : "", kbpf_message());
	return false;
}

/* The views of a->views that can run, loaded and attached (a->skel). */
static int load_and_attach(struct attempt *a)
{
	unsigned v;
	int rc;

	for (;;) {
		rc = load(a);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			a->source += rc == 1;
			continue;
		}
		for (v = 1; v <= OBSERVE_SYSCALLS; v <<= 1)
			if ((a->views & v) && attach_view(a, v))
				a->o->ran |= v;
		if ((a->views & OBSERVE_PIPE_WRITES) &&
		    !(a->o->ran & OBSERVE_PIPE_WRITES) && a->source < a->last) {
			observe__destroy(a->skel);
			a->skel = NULL;
			a->o->ran = 0;
			a->source++;
			continue;
		}
		return 0;
	}
}

/* The views of rq->what whose tracepoints exist (notes for the others). */
static unsigned usable_views(const struct kobserve_request *rq,
			     struct observation *o, int *source)
{
	const char *dir = tracefs(o), *miss;
	unsigned ok = rq->what;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(views); i++) {
		if (!(ok & views[i].bit))
			continue;
		miss = dir ? missing_tp(dir, views[i].tps) : NULL;
		if (!dir || !miss)
			continue;
		observation_note(o, "%s: tracepoint %s is missing on this "
				 "kernel", observe_what_names[
					 __builtin_ctz(views[i].bit)], miss);
		ok &= ~views[i].bit;
	}
	if ((ok & OBSERVE_PIPE_WRITES) && *source == 2 && dir &&
	    (miss = missing_tp(dir, pipe_sys_tps))) {
		observation_note(o, "pipe-writes: tracepoint %s is missing "
				 "(CONFIG_FTRACE_SYSCALLS)", miss);
		ok &= ~OBSERVE_PIPE_WRITES;
	}
	return ok;
}

static int source_index(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(kobserve_pipe_sources); i++)
		if (strcmp(name, kobserve_pipe_sources[i]) == 0)
			return (int)i;
	return 0;
}

static void wait_for(const struct kobserve_request *rq)
{
	struct timespec t0, t, step = { 0, 50000000L };
	int64_t el;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (rq->stop && *rq->stop)
			return;
		clock_gettime(CLOCK_MONOTONIC, &t);
		el = (t.tv_sec - t0.tv_sec) * 1000000000LL +
		     (t.tv_nsec - t0.tv_nsec);
		if (el >= rq->duration_ns)
			return;
		if (rq->duration_ns - el < step.tv_nsec)
			step.tv_nsec = rq->duration_ns - el;
		nanosleep(&step, NULL);
	}
}

/*
 * Stop every program before the maps are read, so that what is read is
 * one snapshot: each total equals the sum of its rows (read while the
 * programs run, a write counted between the read of the totals and that
 * of the comms shows in one and not the other).  Detaching stops new
 * runs; a run already under way holds the RCU read lock, so a grace
 * period (membarrier's global command waits for one) lets it finish.
 * Where membarrier cannot (nohz_full CPUs), 20 ms is far longer than any
 * of these programs takes.
 */
static void quiesce(struct observe *skel)
{
	struct timespec t = { 0, 20000000L };

	observe__detach(skel);
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) != 0)
		nanosleep(&t, NULL);
}

static const char *source_label(int source, const char *fn)
{
	static char buf[64];

	if (source == 2)
		return "tracepoints syscalls:write,writev,splice (FIFO fds)";
	snprintf(buf, sizeof(buf), "%s %s", source ? "kretprobe" : "fexit",
		 fn);
	return buf;
}

int kobserve_run(const struct kobserve_request *rq, struct observation *out,
		 char *err, size_t errlen)
{
	struct attempt a = { .rq = rq, .o = out };
	struct ksyms ks;
	char kerr[256];
	struct timespec t0, t1;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->asked = rq->what;
	out->pid_filter = rq->pid;
	snprintf(out->comm_filter, sizeof(out->comm_filter), "%s",
		 rq->comm ? rq->comm : "");
	kbpf_keep_messages();
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		observation_note(out, "no BTF: /sys/kernel/btf/vmlinux is "
				 "missing (the kernel needs "
				 "CONFIG_DEBUG_INFO_BTF for CO-RE)");
		snprintf(err, errlen, "nothing can be observed: no BTF");
		return 77;
	}
	if (geteuid() != 0)
		observation_note(out, "not root: BPF and tracefs usually need "
				 "root (or CAP_BPF, CAP_PERFMON)");
	a.ks = ksyms_load(&ks, "/proc/kallsyms", kerr, sizeof(kerr)) ?
		NULL : &ks;
	if (!a.ks && (rq->what & OBSERVE_LOCK))
		observation_note(out, "lock callers unnamed: %s", kerr);
	a.source = source_index(rq->pipe_source);
	a.last = rq->pipe_source ? a.source : 2;
	a.views = usable_views(rq, out, &a.source);
	if (!a.views || load_and_attach(&a) || !out->ran) {
		snprintf(err, errlen, "nothing of the request can be "
			 "observed here");
		rc = 77;
		goto out;
	}
	if (out->ran & OBSERVE_PIPE_WRITES)
		snprintf(out->pipe_source, sizeof(out->pipe_source), "%s",
			 source_label(a.source, pipe_write_fn(a.ks)));
	if (rq->started)
		rq->started(rq->arg, out);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	wait_for(rq);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	out->duration_ns = (t1.tv_sec - t0.tv_sec) * 1000000000LL +
			   (t1.tv_nsec - t0.tv_nsec);
	quiesce(a.skel);
	rc = kobserve_read(a.skel, a.ks, out, err, errlen);
out:
	if (a.skel)
		observe__destroy(a.skel);
	if (a.ks)
		ksyms_free(&ks);
	return rc;
}
#endif
