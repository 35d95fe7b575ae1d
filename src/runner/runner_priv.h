/*
 * runner_priv.h - inside the runner (runner/runner*.c only): the state
 * of one configuration being run, and what runner.c (the sample loop)
 * and runner_batch.c (batch sizing, warm-up, the injection) share.
 */
#ifndef COPYSCOPE_RUNNER_IMPL_H
#define COPYSCOPE_RUNNER_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "runner/optime.h"
#include "runner/runner.h"
#include "runner/worker.h"

/* The least time a command to the workers may take before the watchdog
   gives up on them (worker start-up included). */
#define WATCHDOG_MIN_NS 20000000000LL

struct runner {
	const struct workload *wl;
	const struct run_opts *opts;
	struct wl_ctx ctx;
	struct workers ws;		/* worker.h; ws.ctl is mapped here */
	struct optime ot;		/* per-op times (optime.h) */
	uint64_t nops;			/* batch size after growth */
	int cap;			/* kept samples room was made for */
	bool ctx_setup;
	struct kview *kv;		/* --kernel, or NULL */
};

/* A progress line on stderr (with --progress), after the workload's name. */
void runner_progress(const struct runner *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Have the workers take one sample of nops ops per worker (the op-timed
 * counts start from zero); CONFIG_OK, or another status with the reason
 * in msg (len bytes).
 */
enum config_status runner_sample_cmd(struct runner *r, uint64_t nops,
				     char *msg, size_t len);

/* The window of the sample just taken, ns. */
double runner_last_window_ns(const struct runner *r);

/*
 * The time the metrics of the sample just taken come from, ns: the one
 * worker's on-CPU time where interference_offcpu() gives it, else the
 * window (docs/methodology.md, "The headline").
 */
double runner_last_metric_ns(const struct runner *r);

/*
 * Size the batch (grow it until one sample lasts the target time, the
 * median of three confirming it), then warm up for the warm-up time at
 * that size, growing it again if the machine got faster; sets r->nops and
 * res->batch_ops.  CONFIG_OK, or another status with res->msg.
 */
enum config_status runner_warm_up(struct runner *r, struct config_result *res);

/*
 * --fresh-workers: stop the configuration's workers (worker_fini) and
 * start new ones (worker_init: new threads or processes, so new stacks,
 * task structs and kernel stacks), then one untimed batch of an eighth
 * of the sample's ops to warm them; before every kept sample but the
 * first.  CONFIG_OK, or another status with res->msg.
 */
enum config_status runner_fresh_workers(struct runner *r,
					struct config_result *res);

/*
 * WL_CAP_INJECT: the wait's steps for inject_ns (r->ctx.inject_iters, 0
 * for inject_ns=0) and, for inject_ns > 0, res->inject_ns, _step_ns and
 * _steps.
 */
void runner_inject_calibrate(struct runner *r, struct config_result *res);

/*
 * What the injection delivers, measured in place: pairs of samples with
 * zero steps and with the asked ones into res->inject_added_ns, _err_ns
 * and _base_ns; the asked steps then stay on.  CONFIG_OK (also without
 * an injection), or another status with res->msg.
 */
enum config_status runner_inject_measure(struct runner *r,
					 struct config_result *res);

/*
 * The kept samples beyond --reps (runner_more.c).  The precision of the
 * samples so far: the worst metric's (% of its median) into
 * res->precision_pct and _metric; returns whether every metric is within
 * the asked precision, -1 on allocation failure.  Whether to check it
 * after sample n.  And, without --precision, more samples in place of
 * disturbed ones while the headline would be withheld and could still be
 * had (stats/headline.h, headline_retake), counted in res->retaken.
 */
int runner_precision_check(const struct runner *r, struct config_result *res);
bool runner_precision_due(size_t n, size_t reps);
enum config_status runner_retake_disturbed(struct runner *r,
					   struct config_result *res);

/*
 * --hw-counters (runner_hw.c): room for cap kept samples' figures in res
 * (none when the counters are off; 0, or -1 on ENOMEM); kept sample k's
 * figures from the workers' readings of the sample just taken; after the
 * last sample, a note in res when the counters were multiplexed or did
 * not run; and freeing them.
 */
int runner_hw_alloc(struct config_result *res, int cap);
void runner_hw_record(const struct runner *r, struct config_result *res,
		      size_t k, uint64_t nops);
void runner_hw_note(struct config_result *res);
void runner_hw_free(struct config_result *res);

#endif
