/*
 * kview_table.h - the kernel views (run --kernel) at the results layer
 * as a table of descriptors, one row per view, indexed by the view id
 * (its bit in a views mask is KVIEW_BIT(id)): its name (--kernel's word,
 * the key of its part of info's "kernel" object), what it attaches, and
 * its codec (the JSON of the store and the export, one file per view:
 * results/kview_NAME_codec.c).  The views' names, parsing and printing a
 * mask (kernel_records.h) and the codec (codec_kernel.c) go through this
 * table; it is checked at start-up (main.c) and in the unit tests.
 * docs/writing-a-kernel-view.md says how to add a view.
 */
#ifndef COPYSCOPE_RESULTS_KVIEW_TABLE_H
#define COPYSCOPE_RESULTS_KVIEW_TABLE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The views: ids 0 .. KVIEW_NVIEWS - 1, in the order of the table, and
 * their bits in a mask.  Outside the views' descriptors (this table,
 * kernel/kview_recorders.c and report/kview_render.c) nothing names a
 * view's id or bit: code goes through the tables, or asks a mask for a
 * view by its name (kview_mask_has).
 */
enum kview_id {
	KVIEW_ID_LOCK,			/* lock:contention_begin/end */
	KVIEW_ID_SCHED,			/* sched:sched_wakeup, sched_switch */
	KVIEW_ID_SYSCALL,		/* raw_syscalls:sys_enter/sys_exit */
	KVIEW_ID_PROFILE,		/* perf_event_open: sampled stacks */
	KVIEW_NVIEWS
};
#define KVIEW_BIT(id) (1u << (id))
#define KVIEW_ALL ((1u << KVIEW_NVIEWS) - 1u)
#define KVIEW_LOCK	KVIEW_BIT(KVIEW_ID_LOCK)
#define KVIEW_SCHED	KVIEW_BIT(KVIEW_ID_SCHED)
#define KVIEW_SYSCALL	KVIEW_BIT(KVIEW_ID_SYSCALL)
#define KVIEW_PROFILE	KVIEW_BIT(KVIEW_ID_PROFILE)

struct json_t;
struct result_kernel;

/* A view at the results layer. */
struct kview_record_desc {
	const char *name;		/* --kernel's word and the key of its
					   record in info's "kernel" object:
					   [a-z][a-z0-9_]*, at most 15 */
	const char *attaches;		/* what it records, for --help and
					   the docs: "lock:contention_begin/
					   end" */
	bool traced;			/* recorded by a backend (bpf or
					   tracefs) whose tracer is held
					   while a configuration is open;
					   false: its own recorder, per
					   sample (so ab, which opens A, B
					   and A' at once, can take it) */
	/* Its part of the record as JSON (a new reference; NULL on
	   ENOMEM), the value of its key in info's "kernel". */
	struct json_t *(*encode)(const struct result_kernel *k);
	/* That JSON (NULL when absent) into k: 0, or -1 on ENOMEM or
	   malformed input. */
	int (*decode)(struct result_kernel *k, struct json_t *o);
};

/* The views by id. */
extern const struct kview_record_desc *const kview_records[KVIEW_NVIEWS];

/* The id of the view called name, or -1. */
int kview_id(const char *name);

/* Whether mask holds the view called name (false for no such view). */
bool kview_mask_has(unsigned mask, const char *name);

/* The views of mask that a backend records (the rows with traced). */
unsigned kview_traced_views(unsigned mask);

/*
 * Check a table of n views: n == KVIEW_NVIEWS, every row present with a
 * well-formed unique name, what it attaches, and its codec's hooks.
 * Returns the number of problems; the first is written to err as
 * "kernel view 'x': ...".
 */
int kview_records_validate(const struct kview_record_desc *const *t,
			   size_t n, char *err, size_t errlen);

#endif
