/*
 * kparse.h - tracepoint records read with libtraceevent.
 *
 * The kernel describes each tracepoint's record in its format file
 * (tracefs events/SYSTEM/NAME/format); libtraceevent parses that text and
 * reads the fields of a raw record by name, so no offset is written here.
 * A perf_event_open sample record (PERF_RECORD_SAMPLE) is read in the
 * layout its sample_type bits give (perf_event_open(2)): identifier,
 * tid, time, cpu, an optional kernel callchain, then the raw tracepoint
 * record.  The result is one typed struct kevent.
 */
#ifndef COPYSCOPE_KPARSE_H
#define COPYSCOPE_KPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksyms;

/* The tracepoints the kernel views read. */
enum kev_kind {
	KEV_NONE = -1,
	KEV_LOCK_BEGIN = 0,	/* lock:contention_begin */
	KEV_LOCK_END,		/* lock:contention_end */
	KEV_WAKEUP,		/* sched:sched_wakeup */
	KEV_SWITCH,		/* sched:sched_switch */
	KEV_SYS_ENTER,		/* raw_syscalls:sys_enter */
	KEV_SYS_EXIT,		/* raw_syscalls:sys_exit */
	KEV_NKINDS
};

/* "lock:contention_begin" and so on, by kind. */
extern const char *const kev_tracepoint[KEV_NKINDS];

/* One tracepoint hit, typed. */
struct kevent {
	uint64_t ts_ns;			/* CLOCK_MONOTONIC_RAW */
	uint64_t seq;			/* drain order: ties of ts_ns */
	/* lock: its address, and the first callchain frame outside the
	   locking code (0 unknown) */
	uint64_t lock_addr, caller;
	int64_t prev_state;		/* sched_switch */
	/* raw_syscalls: syscall number, return value (exit) */
	int64_t sys_id, sys_ret;
	uint32_t cpu;
	int32_t tid;			/* the task that hit it */
	int kind;			/* enum kev_kind */
	uint32_t lock_flags;		/* LCB_F_* */
	/* sched_wakeup: the task woken and where */
	int32_t pid, target_cpu;
	/* sched_switch */
	int32_t prev_pid, next_pid;
};

/* Sample bits every kernel-view event uses (ktrace.c opens them so). */
#define KPARSE_SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | \
			    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
			    PERF_SAMPLE_RAW)

struct kparse;

/* A parser with no formats yet, or NULL on ENOMEM. */
struct kparse *kparse_new(void);
void kparse_free(struct kparse *kp);

/*
 * Teach kp the record of kind from its format file's text (system is the
 * tracepoint's group, "lock").  Returns 0, or -1 with the reason in err
 * (libtraceevent could not parse it, or a field the views read is
 * missing).
 */
int kparse_add_format(struct kparse *kp, int kind, const char *system,
		      const char *format, char *err, size_t errlen);

/* The tracepoint id of kind as its format gave it, or -1. */
int kparse_id(const struct kparse *kp, int kind);

/*
 * Read the raw tracepoint record raw[0..size) into ev's kind and fields
 * (ts, cpu and caller untouched).  Returns 0, or -1 when the record is
 * shorter than its format or of a tracepoint kp does not know.
 */
int kparse_raw(const struct kparse *kp, const void *raw, size_t size,
	       struct kevent *ev);

/*
 * Read one PERF_RECORD_SAMPLE body (the bytes after struct
 * perf_event_header) of size bytes, taken with sample_type (the
 * KPARSE_SAMPLE_TYPE bits, with PERF_SAMPLE_CALLCHAIN or without), into
 * ev.  ks (may be NULL) finds the lock caller in the callchain.  Returns
 * 0, or -1 on a truncated or foreign record.
 */
int kparse_sample(const struct kparse *kp, const void *body, size_t size,
		  uint64_t sample_type, const struct ksyms *ks,
		  struct kevent *ev);

#endif
