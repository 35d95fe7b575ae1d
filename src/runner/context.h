/*
 * context.h - setting up one configuration of a workload, the same way for
 * a measured run (runner.c), the cold-call trace's fresh process (trace.c)
 * and the unit tests: bound parameters, allowed CPUs, mode, setup(),
 * placement.  Also the calls into validate() and config_supported(),
 * which take the bound parameters too.
 */
#ifndef COPYSCOPE_CONTEXT_H
#define COPYSCOPE_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/param.h"
#include "core/workload.h"

/*
 * Set up configuration ps of wl in ctx (which it clears first): bind the
 * parameters into ctx->params, take the allowed CPUs (ncpus >= 1; the
 * array must outlive ctx), set ctx->mode from the mode row (thread
 * without one), call wl->setup(), check the worker count (1 ..
 * WL_MAX_WORKERS), then place the workers by the place row (split
 * without one) unless setup() placed them itself.  Returns WL_OK, or
 * WL_EUSAGE / WL_EFAIL with the reason in ctx->err; after a failure
 * there is nothing to tear down.
 */
int wl_ctx_setup(struct wl_ctx *ctx, const struct workload *wl,
		 const struct param_set *ps, const int *cpus, int ncpus);

/* Undo wl_ctx_setup() (after a WL_OK): the workload's teardown(). */
void wl_ctx_teardown(struct wl_ctx *ctx);

/*
 * wl->validate() on configuration ps, bound: WL_OK (also without the
 * hook), WL_EUSAGE or WL_EFAIL with the reason in err.
 */
int wl_validate(const struct workload *wl, const struct param_set *ps,
		char *err, size_t len);

/*
 * Whether wl can run here (supported()) and configuration ps of it too
 * (config_supported(), bound); false with the reason in why.
 */
bool wl_can_run(const struct workload *wl, const struct param_set *ps,
		char *why, size_t len);

#endif
