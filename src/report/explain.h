/*
 * explain.h - "where the time goes": a bandwidth placed beside its floors,
 * from the results model, for workloads whose descriptor has an explain
 * recipe (struct wl_explain; today pipe.bw).
 *
 * For one message size: the copy floor (for pipe.bw: mem.copy
 * engine=libc, one copy), the two-copy floor (half its bandwidth: a pipe
 * copies every byte in and out), the ring (ring.bw: two copies through
 * shared memory, no kernel) and the workload itself, as a fraction of
 * each; the time per 64 KiB the kernel path adds (workload minus ring);
 * and the context switches per MiB of each that explain it.
 *
 * The caller measures (or loads) the floors at the same parameters, as
 * the recipe names them: for a pipe.bw configuration size=S rsize=R
 * pipe_size=P mode=M place=L,
 *   mem.copy engine=libc size=S
 *   ring.bw  size=S rsize=R pipe_size=P mode=M place=L
 * (ring.bw's pipe_size=0 is 64 KiB, a default pipe's capacity).
 */
#ifndef COPYSCOPE_EXPLAIN_H
#define COPYSCOPE_EXPLAIN_H

#include <stddef.h>
#include <stdio.h>

#include "results/result.h"

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

/* The names of the rows: "mem.copy libc (1 copy)", "ring.bw (2
   copies)", "pipe.bw". */
struct explain_labels {
	const char *copy, *ring, *self;
};

/* Print the side-by-side block of one size (fits 80 columns). */
void explain_print(FILE *out, const char *title,
		   const struct explain_labels *labels,
		   const struct explain_input *in,
		   const struct explain_figures *f);

/*
 * From the results of a run (any mix, e.g. a suite): for every result of
 * a workload with an explain recipe (its metric, its `only` settings),
 * find its floors at the same size (the most shared parameters agreeing
 * preferred), and print the block.  Returns the number of blocks printed;
 * 0 with a message in err naming what is missing ("no mem.copy libc
 * result at size=64k") when nothing could be explained; -1 with a message
 * on a result without its size.
 */
int explain_results(FILE *out, const struct result *res, size_t n,
		    char *err, size_t errlen);

/* One explained result with its floors and what explain_compute() made. */
struct explain_block {
	const struct result *self, *copy, *ring;
	char title[256];		/* "pipe.bw size=64k rsize=0 ..." */
	char copy_label[128], ring_label[128], self_label[64];
	struct explain_input in;
	struct explain_figures f;
};

/*
 * The blocks explain_results() prints, for other renderers (the JSON
 * document, the HTML report): *out (malloc'ed, free it) gets *nout
 * blocks.  Returns their number; 0 with a message in err when nothing
 * could be explained; -1 with a message on a result without its size or
 * when memory ran out.
 */
int explain_collect(const struct result *res, size_t n,
		    struct explain_block **out, size_t *nout, char *err,
		    size_t errlen);

/*
 * Context switches per MiB moved, the median over the samples of a
 * stored result (its info's ctx_switches and batch_ops) for messages of
 * size_bytes.  Returns -1 when the counters are unknown.
 */
double explain_cs_per_mib(const struct result *r, double size_bytes);

#endif
