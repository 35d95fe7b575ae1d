/*
 * explain_view.h - the --explain model: what --explain can say about a
 * run's results, computed once (explain_view_build()) for every renderer
 * (the text of report/explain.c, `--json`, the HTML report), for
 * workloads whose descriptor has an explain recipe (struct wl_explain).
 * Two kinds of recipe:
 *
 * WL_EXPLAIN_PIPE, "where the time goes" (pipe.bw).  For one message
 * size: the copy floor (mem.copy engine=libc, one copy), the two-copy
 * floor (half its bandwidth: a pipe copies every byte in and out), the
 * ring (ring.bw: two copies through shared memory, no kernel) and the
 * workload itself, as a fraction of each; the time per 64 KiB the kernel
 * path adds (workload minus ring); and the context switches per MiB of
 * each that explain it.  The caller measures (or loads) the floors at the
 * same parameters, as the recipe names them: for a pipe.bw configuration
 * size=S rsize=R pipe_size=P mode=M place=L,
 *   mem.copy engine=libc size=S
 *   ring.bw  size=S rsize=R pipe_size=P mode=M place=L
 * (ring.bw's pipe_size=0 is 64 KiB, a default pipe's capacity).
 *
 * WL_EXPLAIN_PER_BYTE, "per byte against" its floors (the file.*
 * workloads against mem.copy engine=libc and engine=movsb).  For each
 * configuration apart from its size, one row per size: the workload's
 * time per op (size / bandwidth) and per byte, and for each floor its
 * time per byte, the workload's speed as a share of the floor's
 * (floor time / workload time for the same bytes) and the time per op
 * beyond the floor's copy.  Over two sizes or more, least-squares lines
 * time = fixed + per byte x size of the workload and of each floor give
 * the workload's per-byte speed as a share of each floor's, plus its
 * fixed cost per op.
 */
#ifndef COPYSCOPE_EXPLAIN_VIEW_H
#define COPYSCOPE_EXPLAIN_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "core/workload.h"
#include "results/result.h"
#include "stats/fit.h"

/* The measured medians of one size.  A counter < 0 is unknown. */
struct explain_input {
	double size_bytes;		/* message size */
	double copy_bps;		/* mem.copy libc, bytes/s */
	double ring_bps;		/* ring.bw bandwidth, bytes/s */
	double pipe_bps;		/* pipe.bw bandwidth, bytes/s */
	double ring_cs_per_mib;		/* context switches per MiB moved */
	double pipe_cs_per_mib;
};

/* What explain_compute() derives.  Fractions are 0..1 (pipe / other). */
struct explain_figures {
	double floor_bps;		/* copy_bps / 2 */
	double pipe_of_copy, pipe_of_floor, pipe_of_ring;
	double copy_ns_64k, floor_ns_64k, ring_ns_64k, pipe_ns_64k;
	double kernel_ns_64k;		/* pipe_ns_64k - ring_ns_64k */
	double kernel_share;		/* kernel_ns_64k / pipe_ns_64k */
	double extra_cs_per_mib;	/* pipe - ring; < 0 if unknown */
};

/* The 64 KiB unit the times are given in. */
#define EXPLAIN_UNIT_BYTES 65536.0

/*
 * Derive the figures from the medians.  Rates <= 0 give 0 for everything
 * that depends on them.  Returns 0, or -1 when a rate is missing.
 */
int explain_compute(const struct explain_input *in,
		    struct explain_figures *out);

/* One size of a per-byte explanation: medians in bytes/s. */
struct explain_pb_input {
	double size_bytes;
	double self_bps;		/* the workload's bandwidth */
	size_t nfloors;
	double floor_bps[WL_EXPLAIN_MAX_FLOORS];	/* <= 0: none */
};

/* What explain_pb_compute() derives for one size. */
struct explain_pb_row {
	double self_ns;			/* per op: size / self_bps */
	double self_ns_byte;		/* self_ns / size */
	double floor_ns[WL_EXPLAIN_MAX_FLOORS];	/* the floor's copy of
						   size bytes; 0: none */
	double floor_ns_byte[WL_EXPLAIN_MAX_FLOORS];
	double speed[WL_EXPLAIN_MAX_FLOORS];	/* floor_ns / self_ns */
	double beyond_ns[WL_EXPLAIN_MAX_FLOORS];	/* self_ns -
							   floor_ns */
};

/*
 * Derive one size's row.  A rate <= 0 gives 0 for everything that
 * depends on it.  Returns 0, or -1 when the workload's rate or the size
 * is missing.
 */
int explain_pb_compute(const struct explain_pb_input *in,
		       struct explain_pb_row *out);

/* The least-squares lines over the sizes of one configuration. */
struct explain_pb_fit {
	struct fit_line self;		/* time per op = a + b x size, ns */
	bool self_ok;
	struct fit_line floor[WL_EXPLAIN_MAX_FLOORS];
	bool floor_ok[WL_EXPLAIN_MAX_FLOORS];
	/* floor[k].b / self.b: the workload's per-byte speed as a share
	   of floor k's; 0 when either slope is not positive */
	double speed[WL_EXPLAIN_MAX_FLOORS];
};

/*
 * Fit time per op against size (ns, weighted by 1 / time^2 as the fits
 * under a sweep are, report/fit_report.c) for the workload and for each
 * floor, over the n sizes of in (each floor over the sizes it has).
 * Returns 0 when the workload's line could be fitted (two sizes or more),
 * else -1; a floor with fewer than two sizes has floor_ok false.
 */
int explain_pb_fit(const struct explain_pb_input *in, size_t n,
		   struct explain_pb_fit *out);

/* One explained result with its floors and what explain_compute() made. */
struct explain_block {
	const struct result *self, *copy, *ring;
	char title[256];		/* "pipe.bw size=64k rsize=0 ..." */
	char copy_label[128], ring_label[128], self_label[64];
	struct explain_input in;
	struct explain_figures f;
};

/* One size of a per-byte block: its result, its floors', the row. */
struct explain_pb_point {
	const struct result *self;
	const struct result *floor[WL_EXPLAIN_MAX_FLOORS];	/* NULL:
								   none */
	const char *size;		/* the size as stored ("64k") */
	struct explain_pb_input in;
	struct explain_pb_row row;
};

/* One configuration of a per-byte recipe apart from its size. */
struct explain_pb_block {
	const struct wl_explain *x;	/* the recipe: floors, per */
	const char *workload;
	char title[1024];		/* "per byte against mem.copy:
					   file.rw target=memfd ..." */
	struct explain_pb_point *pts;	/* by size, smallest first */
	size_t npts;
	bool fitted;			/* two sizes or more: fit is set */
	struct explain_pb_fit fit;
};

/*
 * Context switches per MiB moved, the median over the samples of a
 * stored result (its info's ctx_switches and batch_ops) for messages of
 * size_bytes.  Returns -1 when the counters are unknown.
 */
double explain_cs_per_mib(const struct result *r, double size_bytes);

/* "mem.copy libc": a floor's workload and the values it sets. */
void explain_floor_name(const struct wl_floor *fl, char *buf, size_t len);

/* "libc": the values a floor sets, else its workload. */
void explain_floor_short(const struct wl_floor *fl, char *buf, size_t len);

/* Everything --explain can say about a run's results. */
struct explain_view {
	struct explain_block *pipe;	/* the pipe recipe's blocks, one
					   per configuration */
	size_t npipe;
	struct explain_pb_block *pb;	/* the per-byte recipe's, one per
					   configuration apart from its
					   size */
	size_t npb;
};

/*
 * From the results of a run (any mix, e.g. a suite): for every result of
 * a workload with an explain recipe (its metric, its `only` settings),
 * find its floors at the same size (the most shared parameters agreeing
 * preferred) and compute its block: one per configuration for a pipe
 * recipe, one per configuration apart from its size for a per-byte
 * recipe (which needs a floor at one size at least; a size without one
 * has NULL floors and no figures for them).  Returns the number of
 * blocks; 0 with a message in err naming what is missing ("no mem.copy
 * libc result at size=64k") when nothing could be explained; -1 with a
 * message on a result without its size or out of memory (view left
 * empty).  Free view with explain_view_free() whatever it returned.
 */
int explain_view_build(const struct result *res, size_t n,
		       struct explain_view *view, char *err, size_t errlen);

/* Free what explain_view_build() put in view (an empty view is fine). */
void explain_view_free(struct explain_view *view);

#endif
