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

#include <stddef.h>

/* The views: ids 0 .. KVIEW_NVIEWS - 1, in the order of the table. */
#define KVIEW_NVIEWS 4
#define KVIEW_BIT(id) (1u << (id))
#define KVIEW_ALL ((1u << KVIEW_NVIEWS) - 1u)

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

/*
 * Check a table of n views: n == KVIEW_NVIEWS, every row present with a
 * well-formed unique name, what it attaches, and its codec's hooks.
 * Returns the number of problems; the first is written to err as
 * "kernel view 'x': ...".
 */
int kview_records_validate(const struct kview_record_desc *const *t,
			   size_t n, char *err, size_t errlen);

#endif
