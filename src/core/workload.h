/*
 * workload.h - the workload interface.
 *
 * A workload is a const descriptor: name, one-line summary, what one op is,
 * what is not measured, a parameter table, a metric table and hooks.  The
 * core (runner.c) owns processes, threads, barriers, placement and every
 * clock read; a workload only performs ops.
 *
 * Life of one configuration (one point of a sweep):
 *   validate()                   before anything is measured, for every
 *                                configuration of the run (bad input: 2)
 *   setup()                      in the coordinator: create pipes etc.,
 *                                say how many workers, their names, mode
 *   fork/clone workers; in each: worker_init()  (allocate, prefault)
 *   samples: every worker runs run_batch(nops) behind a start barrier, the
 *                                core reads the clock around it
 *   verify pass (verify=1):      verify_batch() in each worker, untimed,
 *                                then verify() in the coordinator
 *   worker_fini() in each worker; teardown() in the coordinator
 */
#ifndef COPYSCOPE_WORKLOAD_H
#define COPYSCOPE_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/param.h"

#define WL_MAX_WORKERS 64
#define WL_MAX_METRICS 8
#define WL_ERR_LEN 256

/* Hook return codes. */
#define WL_OK 0
#define WL_EFAIL (-1)		/* the workload failed: exit 1 */
#define WL_EUSAGE (-2)		/* bad parameters: exit 2 */

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
};

struct metric_def {
	const char *name;	/* e.g. "bandwidth", "time/write" */
	enum metric_kind kind;
	enum metric_dir dir;
	const char *help;
};

enum wl_mode { WL_MODE_THREAD, WL_MODE_PROC };

struct wl_ctx;

/* One worker as its hooks see it. */
struct wl_worker {
	int idx;
	struct wl_ctx *ctx;
	void *priv;		/* the worker's own state (worker_init) */
	char *err;		/* WL_ERR_LEN bytes, shared with the runner */
};

/* One configuration as the hooks see it. */
struct wl_ctx {
	const struct workload *wl;
	struct param_set ps;		/* values in parameter-table order */
	/* set by setup(): */
	int nworkers;
	enum wl_mode mode;
	const char *worker_name[WL_MAX_WORKERS];
	int worker_cpu[WL_MAX_WORKERS];	/* -1: not pinned; the runner fills
					   these from the placement first */
	double bytes_per_op;		/* for METRIC_BYTES_PER_SEC */
	int hist_worker;		/* whose per-op times --hist shows */
	size_t shared_bytes;		/* MAP_SHARED area the workload wants */
	/* provided by the runner: */
	void *shared;			/* shared_bytes, zeroed, before fork */
	const int *cpus;		/* CPUs the user allows (--cpus) */
	int ncpus;
	void *priv;			/* the workload's coordinator state */
	char err[WL_ERR_LEN];
	char note[WL_ERR_LEN];		/* placement/fallback note to print */
};

struct workload {
	const char *name;		/* family.name, e.g. "pipe.bw" */
	const char *summary;		/* one line */
	const char *op;			/* what one op is */
	const char *not_measured;	/* what the numbers leave out */
	const struct param_def *params;
	size_t nparams;
	const struct metric_def *metrics;
	size_t nmetrics;

	/* Can it run here?  false with the reason in why. */
	bool (*supported)(char *why, size_t len);
	/* Check one configuration before any measuring. */
	int (*validate)(const struct param_set *ps, char *err, size_t len);
	int (*setup)(struct wl_ctx *ctx);
	int (*worker_init)(struct wl_worker *w);
	/* Perform nops ops; the core times the call. */
	int (*run_batch)(struct wl_worker *w, uint64_t nops);
	/* Untimed: perform nops ops checking every byte (may be NULL). */
	int (*verify_batch)(struct wl_worker *w, uint64_t nops);
	/* After the verify pass: number of integrity errors, report in buf. */
	long (*verify)(struct wl_ctx *ctx, char *buf, size_t len);
	void (*worker_fini)(struct wl_worker *w);
	void (*teardown)(struct wl_ctx *ctx);
	/* The parameter that names the verify switch, or NULL. */
	const char *verify_param;
	/* The parameter that asks for a cold-call trace, or NULL. */
	const char *trace_param;
};

/* The registry: every workload, in listing order (workloads/registry.c). */
extern const struct workload *const workload_table[];
extern const size_t workload_count;

/* Find a workload by exact name, or NULL. */
const struct workload *workload_find(const char *name);

/*
 * Check the whole table: unique well-formed names, non-empty texts,
 * parameter defaults that parse and sit in range, metric tables, required
 * hooks present.  Returns the number of problems; each is written to err
 * (the first one) as "workload 'x': ...".
 */
int workload_table_validate(const struct workload *const *table, size_t n,
			    char *err, size_t errlen);

/* Value of parameter `name` in ps (aborts if the workload lacks it:
   a programming error caught by the table validation and tests). */
int64_t wl_param(const struct wl_ctx *ctx, const char *name);
int64_t wl_param_of(const struct workload *wl, const struct param_set *ps,
		    const char *name);

#endif
