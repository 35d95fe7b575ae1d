/*
 * common_params.h - the parameter rows the core defines once for every
 * workload that has them: mode, place, verify, trace, inject_ns and
 * pipe_size.
 *
 * Each macro is one row of a workload's param_def table, bound to a field
 * of the workload's parameter struct (st, member).  mode, place, verify
 * and trace carry a role, by which the core finds them: the core sets
 * ctx->mode from the mode row before setup(), places the workers by the
 * place row after it, runs the verify pass when the verify row is 1 and
 * the cold-call trace when the trace row is above 0.  The choices of mode
 * and place are in the order of enum wl_mode and enum wl_place, so the
 * bound int is that enum; stored results name the choice, not its index.
 *
 *   struct pipe_bw_params { int64_t size, pipe_size; int mode, place;
 *                           bool verify; };
 *   static const struct param_def pipe_bw_params[] = {
 *           ...
 *           WL_PARAM_MODE(struct pipe_bw_params, mode, "proc"),
 *           WL_PARAM_PLACE(struct pipe_bw_params, place),
 *           WL_PARAM_VERIFY(struct pipe_bw_params, verify),
 *   };
 */
#ifndef COPYSCOPE_COMMON_PARAMS_H
#define COPYSCOPE_COMMON_PARAMS_H

#include "core/param.h"
#include "core/workload.h"

/* { "thread", "proc", NULL }: enum wl_mode. */
extern const char *const wl_mode_choices[];
/* { "split", "same", "none", NULL }: enum wl_place. */
extern const char *const wl_place_choices[];

/* Most calls trace=N times in a fresh process. */
#define WL_TRACE_MAX 100000

/* mode (enum, binds an int): workers as threads or processes. */
#define WL_PARAM_MODE(st, member, dflt)					\
	{ .name = "mode", .type = PARAM_ENUM, .def = (dflt),		\
	  .choices = wl_mode_choices, .role = PARAM_ROLE_MODE,		\
	  .help = "workers as threads of one process (thread) or as "	\
		  "processes (proc)",					\
	  PARAM_FIELD(st, member) }

/* place (enum, binds an int), default split. */
#define WL_PARAM_PLACE(st, member)					\
	{ .name = "place", .type = PARAM_ENUM, .def = "split",		\
	  .choices = wl_place_choices, .role = PARAM_ROLE_PLACE,	\
	  .help = "split: worker i on allowed CPU i (in turn), same: "	\
		  "all on one CPU, none: left to the scheduler",	\
	  PARAM_FIELD(st, member) }

/* verify (bool), default 0; goes with WL_CAP_VERIFY. */
#define WL_PARAM_VERIFY(st, member)					\
	{ .name = "verify", .type = PARAM_BOOL, .def = "0",		\
	  .role = PARAM_ROLE_VERIFY,					\
	  .help = "check every byte moved in an untimed pass after "	\
		  "the samples (1: on)",				\
	  PARAM_FIELD(st, member) }

/* trace (int, binds an int64_t), default 0; goes with WL_CAP_TRACE. */
#define WL_PARAM_TRACE(st, member)					\
	{ .name = "trace", .type = PARAM_INT, .def = "0", .min = 0,	\
	  .max = WL_TRACE_MAX, .role = PARAM_ROLE_TRACE,		\
	  .help = "time each of the first N calls of a fresh process "	\
		  "(0: off)",						\
	  PARAM_FIELD(st, member) }

/* The longest injection inject_ns takes. */
#define WL_INJECT_MAX_NS 10000000LL

/* inject_ns (time, binds an int64_t), default 0; goes with WL_CAP_INJECT
   and a wl_inject() after each op (runner/inject.h). */
#define WL_PARAM_INJECT(st, member)					\
	{ .name = "inject_ns", .type = PARAM_TIME, .def = "0", .min = 0,	\
	  .max = WL_INJECT_MAX_NS, .role = PARAM_ROLE_INJECT,		\
	  .help = "TESTING ONLY: a busy wait of about this long after "	\
		  "each op, its effect measured in place and stored "	\
		  "(0: off)",						\
	  PARAM_FIELD(st, member) }

/* pipe_size (size, binds an int64_t): the capacity of the pipe(s). */
#define WL_PARAM_PIPE_SIZE(st, member, dflt)				\
	{ .name = "pipe_size", .type = PARAM_SIZE, .def = (dflt),	\
	  .min = 0, .max = 1LL << 30,					\
	  .help = "F_SETPIPE_SZ capacity of each pipe (0: kernel "	\
		  "default)",						\
	  PARAM_FIELD(st, member) }

#endif
