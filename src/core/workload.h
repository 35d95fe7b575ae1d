/*
 * workload.h - the workload interface.
 *
 * A workload is a const descriptor: name, one-line summary, what one op is,
 * what is not measured, a parameter table bound to a struct of its own, a
 * metric table, capability flags and hooks.  The core (runner.c,
 * context.c) owns processes, threads, barriers, mode, placement and every
 * clock read; a workload only performs ops.
 *
 * Life of one configuration (one point of a sweep):
 *   validate()                   before anything is measured, for every
 *                                configuration of the run (bad input: 2)
 *   the core binds the parameters (ctx->params) and sets ctx->mode from
 *                                the mode row (threads without one)
 *   setup()                      in the coordinator: create pipes etc.,
 *                                say how many workers and their names
 *   the core places the workers by the place row (split without one),
 *                                unless setup() placed them itself
 *   fork/clone workers; in each: worker_init()  (allocate, prefault)
 *   samples: every worker runs run_batch(nops) behind a start barrier, the
 *                                core reads the clock around it
 *   verify pass (verify=1):      verify_batch() in each worker, untimed,
 *                                then verify() in the coordinator
 *   worker_fini() in each worker; teardown() in the coordinator
 */
#ifndef COPYSCOPE_WORKLOAD_H
#define COPYSCOPE_WORKLOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/param.h"

#define WL_MAX_WORKERS 64
#define WL_MAX_METRICS 24
#define WL_MAX_CLASSES 8
#define WL_ERR_LEN 256
/* Room for a configuration's note (wl_ctx.note): the longest a workload
   writes (pipe.mix's mix shares, pipe capacity and placement) is a few
   hundred bytes; wl_note_add() says "[cut: N more chars]" past this. */
#define WL_NOTE_LEN 2048
/* Largest parameter struct a workload may declare (params_size). */
#define WL_PARAMS_MAX_BYTES 256

/* Hook return codes. */
#define WL_OK 0
#define WL_EFAIL (-1)		/* the workload failed: exit 1 */
#define WL_EUSAGE (-2)		/* bad parameters: exit 2 */
/*
 * run_batch() of a worker that was only serving others (a reader woken
 * because the data ran out, a server told to stop): its end time is not
 * the end of the work, so the sample window ignores it.
 */
#define WL_IDLE_END 1

enum metric_dir {
	METRIC_LOWER_BETTER = -1,
	METRIC_INFO = 0,
	METRIC_HIGHER_BETTER = 1,
};

/* How the core derives a metric from one timed sample. */
enum metric_kind {
	METRIC_NS_PER_OP,	/* window ns / ops; unit "ns" */
	METRIC_TICKS_PER_OP,	/* window ticks / ops; unit: the timer's */
	METRIC_BYTES_PER_SEC,	/* ops * bytes_per_op / window s */
	METRIC_OPS_PER_SEC,	/* ops / window s */
	/*
	 * From the per-op times of the op-timed workers (ctx->op_timed) in
	 * this sample, ns: percentile `pct` (100: the exact maximum) or the
	 * mean, of ops of class `op_class` (-1: every class).
	 */
	METRIC_OP_PCT,
	METRIC_OP_MEAN,
	/* The workload computes it: workload->sample_metric(), `unit`. */
	METRIC_CUSTOM,
};

struct metric_def {
	const char *name;	/* e.g. "bandwidth", "time/write" */
	enum metric_kind kind;
	enum metric_dir dir;
	const char *help;
	double pct;		/* METRIC_OP_PCT */
	int op_class;		/* METRIC_OP_*: class index, -1 all */
	/*
	 * METRIC_CUSTOM computed from the sample's timed window alone (the
	 * window over ops, times a constant of the configuration: segs, the
	 * copy size, the clients): the same reading as time per op, so a
	 * comparison counts its verdict once, with the first window metric.
	 */
	bool same_window;
	const char *unit;	/* METRIC_CUSTOM */
};

/* What the core measured in one sample, for METRIC_CUSTOM. */
struct wl_sample {
	uint64_t nops;
	double window_ns;
	uint64_t ctx_switches;	/* summed over workers; UINT64_MAX: n/a */
};

/* Threads of one process or processes: the mode row's choices, in order. */
enum wl_mode { WL_MODE_THREAD, WL_MODE_PROC };

/*
 * Where the workers run: the place row's choices, in order.  split puts
 * worker i on allowed CPU i (wrapping when there are fewer CPUs than
 * workers, with a note), same puts all on the first allowed CPU, none
 * pins nothing.
 */
enum wl_place { PLACE_SPLIT, PLACE_SAME, PLACE_NONE };

/* Capabilities (struct workload's caps). */
#define WL_CAP_VERIFY (1u << 0)	/* the verify row and both verify hooks */
#define WL_CAP_TRACE (1u << 1)	/* the trace row; setup() gives exactly
				   one worker whatever the parameters */
#define WL_CAP_INJECT (1u << 2)	/* the inject_ns row; run_batch() calls
				   wl_inject() after each op (inject.h) */

struct wl_ctx;

/* One worker as its hooks see it. */
struct wl_worker {
	int idx;
	int op_class;		/* op-timed workers: class of the last op */
	struct wl_ctx *ctx;
	void *priv;		/* the worker's own state (worker_init) */
	char *err;		/* WL_ERR_LEN bytes, shared with the runner */
};

/* One configuration as the hooks see it (set up by runner/context.c). */
struct wl_ctx {
	const struct workload *wl;
	/* the workload's parameter struct, bound from ps (read-only) */
	const void *params;
	struct param_set ps;		/* values in parameter-table order */
	/* set by the core from the mode row before setup(); setup() may
	   change it */
	enum wl_mode mode;
	/* set by setup(): */
	int nworkers;
	const char *worker_name[WL_MAX_WORKERS];
	/* -1: not pinned; the core fills these after setup() (see placed) */
	int worker_cpu[WL_MAX_WORKERS];
	double bytes_per_op;		/* for METRIC_BYTES_PER_SEC */
	int hist_worker;		/* whose per-op times --hist shows */
	/*
	 * Op-timed workers: the core times each of their ops one by one
	 * during the kept samples (two clock reads per op) and records a
	 * per-op histogram by class; METRIC_OP_* metrics come from them.
	 */
	bool op_timed[WL_MAX_WORKERS];
	int nclasses;			/* 1 if not set */
	const char *class_name[WL_MAX_CLASSES];
	size_t shared_bytes;		/* MAP_SHARED area the workload wants */
	/*
	 * The placement note ("place=split: 3 workers on 2 allowed CPUs,
	 * some share a CPU") goes before the workload's own note, joined by
	 * "; "; note_first puts the workload's first.
	 */
	bool note_first;
	/* true once the workers are placed: setup() that called
	   wl_place_workers() itself (to see where they run) */
	bool placed;
	/* provided by the core: */
	void *shared;			/* shared_bytes, zeroed, before fork */
	/* WL_CAP_INJECT: the calibrated steps of the wait after each op
	   for inject_ns (0 for inject_ns=0), and the steps the workers
	   wait now, in memory shared with worker processes, so that the
	   core can change them after the fork (runner/inject.h) */
	uint64_t inject_iters;
	_Atomic uint64_t *inject_on;
	const int *cpus;		/* CPUs the user allows (--cpus) */
	int ncpus;			/* at least 1 */
	void *priv;			/* the workload's coordinator state */
	char err[WL_ERR_LEN];
	char note[WL_NOTE_LEN];		/* placement/fallback note to print */
	/* storage behind params */
	_Alignas(max_align_t) unsigned char params_buf[WL_PARAMS_MAX_BYTES];
};

/*
 * How reports present a workload's results (report/fit_report.c, grid.c,
 * explain.c); each is optional.
 */

/* A least-squares fit under a sweep: metric = fixed + slope x param. */
struct wl_fit {
	const char *param;		/* the swept parameter: x */
	const char *metric;		/* the metric fitted: y, in ns */
	const char *per;		/* what one unit of x is: "segment" */
	bool bytes;			/* x is bytes: also print 1 / slope,
					   the per-byte part as a rate */
};

/* A two-way grid of one metric over two swept parameters (E2's nine
   mixes of writers x readers). */
struct wl_grid {
	const char *row, *col;		/* parameter names */
	const char *metric;
};

/* One floor of --explain: another workload run at the same parameters. */
struct wl_floor {
	const char *workload;		/* e.g. "ring.bw" */
	const char *const *set;		/* "key=value" it always takes
					   (NULL-ended, may be NULL) */
	const char *const *same;	/* parameters copied from the
					   explained configuration, the
					   first of which must match
					   (NULL-ended) */
};

/* What --explain prints for a workload (report/explain.c). */
enum wl_explain_kind {
	/*
	 * Where a pipe's time goes: floors[0] is one userspace copy of the
	 * same bytes, floors[1] the same two copies with no kernel in the
	 * path (a ring).  Each configuration is printed as the copy, the
	 * two-copy floor (half the copy's bandwidth), the ring, the workload
	 * and the time the kernel path adds (pipe.bw).
	 */
	WL_EXPLAIN_PIPE,
	/*
	 * Per byte against copy engines: every floor is one copy of the same
	 * size (a mem.copy engine).  For each configuration apart from its
	 * size, one row per size: the workload's time per op and per byte
	 * beside each floor's per byte, its speed as a share of each and its
	 * time beyond each copy; over a size sweep, a least-squares line of
	 * each gives "moves bytes at N% of the floor's speed, plus M per
	 * op" (the file.* workloads).
	 */
	WL_EXPLAIN_PER_BYTE,
};

/* Floors of one explain recipe, at most. */
#define WL_EXPLAIN_MAX_FLOORS 4

/*
 * --explain: the workload's bandwidth held against its floors, each run
 * at the same parameters (the first of each floor's `same`: the message
 * size, bytes per op).
 */
struct wl_explain {
	enum wl_explain_kind kind;
	const char *metric;		/* the bandwidth, bytes/s, of the
					   workload and of every floor */
	const char *const *only;	/* "key=value" a configuration must
					   have to be explained (NULL-ended,
					   may be NULL) */
	const struct wl_floor *floors;
	size_t nfloors;			/* PIPE: 2 (the copy, the ring);
					   PER_BYTE: 1 .. WL_EXPLAIN_MAX_
					   FLOORS, all sharing one size */
	const char *per;		/* PER_BYTE: what one op is called in
					   the text ("call") */
};

struct workload {
	const char *name;		/* family.name, e.g. "pipe.bw" */
	const char *summary;		/* one line */
	const char *op;			/* what one op is */
	const char *not_measured;	/* what the numbers leave out */
	const struct param_def *params;
	size_t nparams;
	size_t params_size;		/* sizeof the parameter struct */
	const struct metric_def *metrics;
	size_t nmetrics;
	unsigned caps;			/* WL_CAP_* */

	/* Can it run here?  false with the reason in why. */
	bool (*supported)(char *why, size_t len);
	/*
	 * Can this configuration (params: the bound parameter struct) run
	 * here (e.g. a copy engine the CPU lacks)?  false with the reason:
	 * the configuration is skipped with that reason, the others run
	 * (exit 77 when nothing could run).
	 */
	bool (*config_supported)(const void *params, char *why, size_t len);
	/* Check one configuration (the bound struct) before any measuring:
	   WL_OK, WL_EUSAGE or WL_EFAIL with the reason in err. */
	int (*validate)(const void *params, char *err, size_t len);
	int (*setup)(struct wl_ctx *ctx);
	int (*worker_init)(struct wl_worker *w);
	/* Perform nops ops; the core times the call. */
	int (*run_batch)(struct wl_worker *w, uint64_t nops);
	/* Untimed: perform nops ops checking every byte (may be NULL). */
	int (*verify_batch)(struct wl_worker *w, uint64_t nops);
	/* After the verify pass: number of integrity errors, report in buf. */
	long (*verify)(struct wl_ctx *ctx, char *buf, size_t len);
	void (*worker_fini)(struct wl_worker *w);
	/* METRIC_CUSTOM: metric m of the sample just taken. */
	double (*sample_metric)(struct wl_ctx *ctx, size_t m,
				const struct wl_sample *s);
	void (*teardown)(struct wl_ctx *ctx);

	/* presentation (NULL: none) */
	const struct wl_fit *fit;
	const struct wl_grid *grid;
	const struct wl_explain *explain;
};

/*
 * The registry.  The table itself lives above the core (workloads/
 * registry.c); main() hands it down once at start-up, before any command
 * runs, and the layers between the core and the workloads (results,
 * runner, report) find workloads through these calls only.  The table
 * must outlive every call; n is its number of entries.
 */
void workload_registry_set(const struct workload *const *table, size_t n);

/* The registered table, in listing order; its length in *n (0: none). */
const struct workload *const *workload_registry(size_t *n);

/* Find a registered workload by exact name, or NULL. */
const struct workload *workload_find(const char *name);

/*
 * Check the whole table: unique well-formed names, non-empty texts,
 * parameter defaults that parse and sit in range, each row bound to a
 * field of its type's size inside params_size and no two rows to one
 * field, the shared rows' roles and types, WL_CAP_VERIFY if and only if
 * the verify row and both verify hooks, WL_CAP_TRACE if and only if the
 * trace row, metric tables, required hooks present, and presentation
 * fields that name parameters and metrics (of their floors too) that
 * exist.  Returns the number of
 * problems; each is written to err (the first one) as "workload 'x': ...".
 */
int workload_table_validate(const struct workload *const *table, size_t n,
			    char *err, size_t errlen);

/*
 * For setup(): place the workers now (see enum wl_place), so that setup()
 * can see where they run; the core then leaves them where they are.
 * Fills ctx->worker_cpu[0 .. nworkers - 1], adds the placement note and
 * sets ctx->placed.
 */
void wl_place_workers(struct wl_ctx *ctx, enum wl_place place);

/* For hooks: true once SIGINT or SIGTERM asked the run to stop. */
bool wl_interrupted(void);

/*
 * Append printf text to the NUL-terminated text in buf (len bytes).  What
 * does not fit is not dropped silently: buf then ends in "[cut: N more
 * chars]", N the characters left out.  Returns 0, or -1 when it cut.
 */
int wl_text_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
