/*
 * context.c - setting up one configuration of a workload (see context.h):
 * binding its parameters, mode, setup(), placement and the placement
 * note.
 */
#include "runner/context.h"

#include <stdio.h>
#include <string.h>

#include "core/common_params.h"

/* The bound parameters of ps in buf (WL_PARAMS_MAX_BYTES, aligned). */
static void bind(const struct workload *wl, const struct param_set *ps,
		 void *buf)
{
	memset(buf, 0, WL_PARAMS_MAX_BYTES);
	param_bind(wl->params, wl->nparams, ps, buf);
}

/* The value of the row with this role, or dflt when there is none. */
static int64_t role_value(const struct workload *wl,
			  const struct param_set *ps, enum param_role role,
			  int64_t dflt)
{
	int i = param_find_role(wl->params, wl->nparams, role);

	return i >= 0 ? ps->v[i] : dflt;
}

void wl_place_workers(struct wl_ctx *ctx, enum wl_place place)
{
	char own[WL_NOTE_LEN], note[WL_ERR_LEN];
	int i;

	for (i = 0; i < ctx->nworkers; i++) {
		switch (place) {
		case PLACE_SPLIT:
			ctx->worker_cpu[i] = ctx->cpus[i % ctx->ncpus];
			break;
		case PLACE_SAME:
			ctx->worker_cpu[i] = ctx->cpus[0];
			break;
		case PLACE_NONE:
		default:
			ctx->worker_cpu[i] = -1;
			break;
		}
	}
	ctx->placed = true;
	if (place != PLACE_SPLIT || ctx->ncpus >= ctx->nworkers)
		return;
	snprintf(note, sizeof(note), "place=split: %d workers on %d allowed "
		 "CPU%s, some share a CPU", ctx->nworkers, ctx->ncpus,
		 ctx->ncpus == 1 ? "" : "s");
	memcpy(own, ctx->note, sizeof(own));
	ctx->note[0] = '\0';
	if (!own[0])
		wl_text_add(ctx->note, sizeof(ctx->note), "%s", note);
	else if (ctx->note_first)
		wl_text_add(ctx->note, sizeof(ctx->note), "%s; %s", own, note);
	else
		wl_text_add(ctx->note, sizeof(ctx->note), "%s; %s", note, own);
}

int wl_ctx_setup(struct wl_ctx *ctx, const struct workload *wl,
		 const struct param_set *ps, const int *cpus, int ncpus)
{
	int i, rc;

	memset(ctx, 0, sizeof(*ctx));
	ctx->wl = wl;
	ctx->ps = *ps;
	bind(wl, ps, ctx->params_buf);
	ctx->params = ctx->params_buf;
	ctx->cpus = cpus;
	ctx->ncpus = ncpus;
	ctx->mode = (enum wl_mode)role_value(wl, ps, PARAM_ROLE_MODE,
					     WL_MODE_THREAD);
	for (i = 0; i < WL_MAX_WORKERS; i++)
		ctx->worker_cpu[i] = -1;
	if (ncpus < 1) {
		snprintf(ctx->err, sizeof(ctx->err), "no CPU to run on");
		return WL_EFAIL;
	}
	rc = wl->setup(ctx);
	if (rc != WL_OK)
		return rc == WL_EUSAGE ? WL_EUSAGE : WL_EFAIL;
	if (ctx->nworkers < 1 || ctx->nworkers > WL_MAX_WORKERS) {
		snprintf(ctx->err, sizeof(ctx->err), "bad worker count %d",
			 ctx->nworkers);
		wl_ctx_teardown(ctx);
		return WL_EFAIL;
	}
	if (!ctx->placed)
		wl_place_workers(ctx, (enum wl_place)role_value(
				 wl, ps, PARAM_ROLE_PLACE, PLACE_SPLIT));
	return WL_OK;
}

void wl_ctx_teardown(struct wl_ctx *ctx)
{
	if (ctx->wl->teardown)
		ctx->wl->teardown(ctx);
}

int wl_validate(const struct workload *wl, const struct param_set *ps,
		char *err, size_t len)
{
	_Alignas(max_align_t) unsigned char buf[WL_PARAMS_MAX_BYTES];

	if (!wl->validate)
		return WL_OK;
	bind(wl, ps, buf);
	return wl->validate(buf, err, len);
}

bool wl_can_run(const struct workload *wl, const struct param_set *ps,
		char *why, size_t len)
{
	_Alignas(max_align_t) unsigned char buf[WL_PARAMS_MAX_BYTES];

	if (wl->supported && !wl->supported(why, len))
		return false;
	if (!wl->config_supported)
		return true;
	bind(wl, ps, buf);
	return wl->config_supported(buf, why, len);
}
