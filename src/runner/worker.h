/*
 * worker.h - the workers of one configuration, for the runner: starting
 * them (threads or processes), the control block they share with the
 * coordinator, the commands they run, waiting for them and stopping them.
 *
 * Protocol between the coordinator (the calling thread) and its workers,
 * all through one MAP_SHARED control block so that threads and processes
 * behave the same:
 *   coordinator: writes cmd and nops, resets the barrier and done counts,
 *                bumps gen and wakes the workers (futex on gen);
 *   each worker: sees gen change, enters the start barrier (spin briefly,
 *                then futex), reads counters (software, then hardware),
 *                reads the clock, runs the batch, reads the clock, reads
 *                counters (hardware, then software), bumps done;
 *   coordinator: sleeps on done in 100 ms slices, checking for signals,
 *                dead workers and a watchdog.
 * Clock reads sit right around run_batch(); the window of a sample is the
 * earliest worker t0 to the latest worker t1 (the TSC agrees across CPUs:
 * timer_init() checks it, and falls back to CLOCK_MONOTONIC_RAW if not).
 */
#ifndef COPYSCOPE_WORKER_H
#define COPYSCOPE_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "runner/hwcount.h"
#include "runner/optime.h"
#include "runner/runner.h"
#include "runner/swcount.h"
#include "core/workload.h"

enum worker_cmd { CMD_NONE, CMD_RUN, CMD_VERIFY, CMD_HIST, CMD_EXIT };

/* What one worker reports of its last command. */
struct worker_slot {
	uint64_t t0, t1;
	int cpu_start, cpu_end;
	pid_t tid;			/* the worker's kernel task id */
	/* CLOCK_MONOTONIC_RAW ns just outside t0 and t1, when the
	   control block's mono_marks is set (--kernel's traced samples:
	   the tracer's clock) */
	uint64_t mono0, mono1;
	/* 1 inside the batch of a traced sample, else 0: the batch mark
	   the kernel views' BPF program reads (kernel/kview.h) */
	uint32_t in_batch;
	/* the worker's own CPU clock (CLOCK_THREAD_CPUTIME_ID) and its
	   run-queue wait (/proc/thread-self/schedstat's run_delay; -1:
	   not readable), ns, just outside t0 and t1 */
	int64_t cpu0_ns, cpu1_ns, wait0_ns, wait1_ns;
	int rc;
	bool idle_end;			/* run_batch returned WL_IDLE_END */
	struct swcount_values sw0, sw1;
	/* the hardware counters just outside the on-CPU clock reads
	   (HWCOUNT_NA everywhere without --hw-counters) */
	struct hwcount_values hw0, hw1;
	char err[WL_ERR_LEN];
};

/* The control block (MAP_SHARED). */
struct control {
	_Atomic uint32_t gen;
	_Atomic uint32_t go;
	_Atomic uint32_t arrived;
	_Atomic uint32_t done;
	uint32_t cmd;
	uint32_t nworkers;
	uint64_t nops;
	_Atomic uint64_t inject_on;	/* the injected wait's steps now
					   (inject.h) */
	uint32_t mono_marks;		/* take slot mono0/mono1 */
	struct worker_slot slot[WL_MAX_WORKERS];
};

/* The workers of one configuration, as the coordinator holds them. */
struct workers {
	struct control *ctl;		/* mapped by the caller */
	struct wl_ctx *ctx;		/* set up (runner/context.h) */
	const struct optime *ot;	/* opened (runner/optime.h) */
	pid_t pid[WL_MAX_WORKERS];
	pthread_t tid[WL_MAX_WORKERS];
	int nstarted;
	bool stuck;			/* threads we could not stop */
	bool unsynced;			/* a wait for the workers gave up */
};

/*
 * Start ctx->nworkers workers as ctx->mode says; each pins itself to its
 * worker_cpu and runs worker_init().  Returns CONFIG_OK, or CONFIG_FAILED
 * with msg filled (those started are in nstarted).
 */
enum config_status workers_start(struct workers *ws, char *msg, size_t len);

/*
 * Wait until all workers reported done (limit_ns > 0: a watchdog), then
 * check what each reported.  Returns CONFIG_OK, or CONFIG_INTERRUPTED,
 * CONFIG_USAGE or CONFIG_FAILED with msg filled; a wait that gave up
 * sets unsynced.
 */
enum config_status workers_wait(struct workers *ws, int64_t limit_ns,
				char *msg, size_t len);

/* Give every worker cmd for nops ops and workers_wait() for them. */
enum config_status workers_command(struct workers *ws, uint32_t cmd,
				   uint64_t nops, int64_t limit_ns,
				   char *msg, size_t len);

/*
 * Stop the workers.  Processes are told to exit and reaped, or killed
 * (SIGKILL) and reaped when kill_them.  Threads are told to exit and
 * joined when they can be; otherwise they are left blocked (stuck) and
 * the caller must exit the process.
 */
void workers_stop(struct workers *ws, bool kill_them);

#endif
