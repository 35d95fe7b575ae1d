/*
 * ktrace.h - the kernel's tracepoints recorded through perf_event_open.
 *
 * One perf event per tracepoint and online CPU (system-wide: pid -1),
 * opened disabled; the events of one CPU share one mmap ring buffer
 * (PERF_EVENT_IOC_SET_OUTPUT).  Recording is switched on just before a
 * traced sample and off right after it; the rings are then drained,
 * every record is read by kparse.c (libtraceevent) and the events of all
 * CPUs come back in time order.  Draining never happens inside a sample:
 * the rings are sized to hold one, and records the kernel had to drop
 * are counted (PERF_RECORD_LOST) and reported, never hidden.
 *
 * The syscall and sched events are filtered in the kernel to the
 * workload's threads (PERF_EVENT_IOC_SET_FILTER); the lock events are
 * not, so that the waits of everything else can be shown beside them.
 */
#ifndef COPYSCOPE_KTRACE_H
#define COPYSCOPE_KTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kernel/kparse.h"

/* Where tracefs is (its events/ directory), or NULL when not mounted. */
const char *ktrace_tracefs(void);

/*
 * When tracefs is not mounted and this process runs as root, mount it at
 * /sys/kernel/tracing, as perf does.  Returns 1 when it mounted it (msg:
 * where), 0 when nothing was to be done (mounted, or not root), -1 when
 * the mount failed (msg: why).
 */
int ktrace_mount_tracefs(char *msg, size_t len);

/*
 * The name of tracepoint kind ("lock:contention_begin"), unless the
 * environment variable COPYSCOPE_TEST_TRACEPOINT ("OLD=NEW", for tests
 * only) renames it, into buf.
 */
const char *ktrace_tp_name(int kind, char *buf, size_t len);

/*
 * Whether every tracepoint of the kinds mask (1 << enum kev_kind) can be
 * recorded here: tracefs mounted, each tracepoint present with a format
 * libtraceevent reads, and perf_event_open allowed on it system-wide.
 * Returns 0, or -1 with what is missing and how to enable it in err.
 */
int ktrace_probe(unsigned kinds, char *err, size_t errlen);

struct ktrace;

/*
 * Open (disabled) the tracepoints of kinds on every online CPU; the
 * sched and syscall ones filtered to tids[0..ntids).  ring_pages (a power
 * of two) per CPU.  Returns the tracer, or NULL with the reason in err.
 */
struct ktrace *ktrace_open(unsigned kinds, const pid_t *tids, int ntids,
			   size_t ring_pages, char *err, size_t errlen);

/* Switch recording on / off.  0, or -1 with errno set. */
int ktrace_enable(struct ktrace *kt);
int ktrace_disable(struct ktrace *kt);

/*
 * Read every record the rings hold into *evs (owned by kt, valid until
 * the next drain), sorted by time; *lost gets the records the kernel
 * dropped since the last drain.  Returns 0, or -1 on ENOMEM.
 */
int ktrace_drain(struct ktrace *kt, const struct kevent **evs, size_t *n,
		 uint64_t *lost);

/* The kernel's symbols when the lock tracepoints are open, else NULL. */
const struct ksyms *ktrace_ksyms(const struct ktrace *kt);

void ktrace_close(struct ktrace *kt);

#endif
