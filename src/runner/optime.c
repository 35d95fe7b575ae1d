/*
 * optime.c - per-op times for the runner: the op-timed workers' shared
 * per-(worker, class) histograms and the --hist pass's tick buffer (see
 * optime.h).
 */
#include "runner/optime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "runner/timer.h"

enum { OPC_N, OPC_OVERFLOW, OPC_MIN, OPC_MAX, OPC_SUM, OPC_BUCKETS };

static void *map_shared(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static uint64_t *op_slot(const struct optime *ot, int worker, int cls)
{
	return ot->counts +
	       ((size_t)worker * WL_MAX_CLASSES + (size_t)cls) * ot->stride;
}

/* Account one op of `ticks` in the worker's class slot (in the worker). */
static void op_record(const struct optime *ot, int worker, int cls,
		      uint64_t ticks)
{
	uint64_t *c, ns = (uint64_t)((double)ticks * ot->ns_per_tick + 0.5);
	double sum;

	if (cls < 0 || cls >= WL_MAX_CLASSES)
		cls = 0;
	c = op_slot(ot, worker, cls);
	if (c[OPC_N] == 0 || ns < c[OPC_MIN])
		c[OPC_MIN] = ns;
	if (ns > c[OPC_MAX])
		c[OPC_MAX] = ns;
	c[OPC_N]++;
	memcpy(&sum, &c[OPC_SUM], sizeof(sum));
	sum += (double)ns;
	memcpy(&c[OPC_SUM], &sum, sizeof(sum));
	if (ns > HIST_MAX_NS)
		c[OPC_OVERFLOW]++;
	else
		c[OPC_BUCKETS + hist_bucket_of(ns)]++;
}

void optime_run_ops(const struct optime *ot, struct wl_worker *w,
		    uint64_t nops, int *rc, uint64_t *t0_out,
		    uint64_t *t1_out)
{
	uint64_t i, t0 = 0, t1 = 0;

	*rc = 0;
	for (i = 0; i < nops; i++) {
		w->op_class = 0;
		t0 = timer_ticks();
		*rc = ot->wl->run_batch(w, 1);
		t1 = timer_ticks();
		if (i == 0)
			*t0_out = t0;
		if (*rc < 0)
			break;
		op_record(ot, w->idx, w->op_class, t1 - t0);
	}
	*t1_out = t1;
}

static bool any_op_timed(const struct wl_ctx *ctx)
{
	int w;

	for (w = 0; w < ctx->nworkers; w++)
		if (ctx->op_timed[w])
			return true;
	return false;
}

/* Shared per-op counters and the result's histograms, op-timed only. */
static int open_op_timing(struct optime *ot, struct config_result *res)
{
	const struct wl_ctx *ctx = ot->ctx;
	int c, w, ntimed = 0;

	ot->scratch = hist_new(HIST_MAX_NS);
	if (!ot->scratch)
		return -1;
	ot->nbuckets = ot->scratch->nbuckets;
	ot->stride = OPC_BUCKETS + ot->nbuckets;
	ot->bytes = (size_t)ctx->nworkers * WL_MAX_CLASSES * ot->stride *
		    sizeof(uint64_t);
	ot->counts = map_shared(ot->bytes);
	ot->ns_per_tick = timer_ticks_to_ns(1000000) / 1e6;
	if (!ot->counts)
		return -1;
	res->nclasses = ctx->nclasses > 0 ? ctx->nclasses : 1;
	if (res->nclasses > WL_MAX_CLASSES)
		res->nclasses = WL_MAX_CLASSES;
	for (c = 0; c < res->nclasses; c++) {
		snprintf(res->class_names[c], sizeof(res->class_names[c]),
			 "%s", ctx->class_name[c] ? ctx->class_name[c] : "all");
		res->class_hist[c] = hist_new(HIST_MAX_NS);
		if (!res->class_hist[c])
			return -1;
	}
	for (w = 0; w < ctx->nworkers; w++)
		ntimed += ctx->op_timed[w];
	for (w = 0; w < ctx->nworkers && ntimed > 1; w++) {
		if (!ctx->op_timed[w])
			continue;
		res->worker_hist[w] = hist_new(HIST_MAX_NS);
		if (!res->worker_hist[w])
			return -1;
	}
	res->hist = hist_new(HIST_MAX_NS);
	if (!res->hist)
		return -1;
	for (w = 0; w < ctx->nworkers; w++)
		if (ctx->op_timed[w]) {
			res->hist_worker = w;
			break;
		}
	return 0;
}

int optime_open(struct optime *ot, const struct wl_ctx *ctx, bool hist,
		struct config_result *res)
{
	memset(ot, 0, sizeof(*ot));
	ot->ctx = ctx;
	ot->wl = ctx->wl;
	if (any_op_timed(ctx))
		return open_op_timing(ot, res);
	if (!hist)
		return 0;
	ot->hist_ticks = map_shared((size_t)ctx->nworkers * HIST_MAX_OPS *
				    sizeof(uint64_t));
	return ot->hist_ticks ? 0 : -1;
}

void optime_close(struct optime *ot)
{
	if (ot->hist_ticks)
		munmap(ot->hist_ticks, (size_t)ot->ctx->nworkers *
				       HIST_MAX_OPS * sizeof(uint64_t));
	if (ot->counts)
		munmap(ot->counts, ot->bytes);
	hist_free(ot->scratch);
	memset(ot, 0, sizeof(*ot));
}

void optime_reset(struct optime *ot)
{
	if (ot->counts)
		memset(ot->counts, 0, ot->bytes);
}

/* Sum the op-timed workers' class slots (worker -1: all) into h. */
static void op_hist_view(const struct optime *ot, int cls, int worker,
			 struct histogram *h)
{
	const struct wl_ctx *ctx = ot->ctx;
	int w, c;
	size_t k;
	double sum = 0;

	hist_reset(h);
	h->min_seen = UINT64_MAX;
	for (w = 0; w < ctx->nworkers; w++) {
		if (!ctx->op_timed[w] || (worker >= 0 && w != worker))
			continue;
		for (c = 0; c < WL_MAX_CLASSES; c++) {
			const uint64_t *o;
			double x;

			if (cls >= 0 && c != cls)
				continue;
			o = op_slot(ot, w, c);
			if (!o[OPC_N])
				continue;
			for (k = 0; k < ot->nbuckets; k++)
				h->counts[k] += o[OPC_BUCKETS + k];
			h->overflow += o[OPC_OVERFLOW];
			h->total += o[OPC_N];
			if (o[OPC_MIN] < h->min_seen)
				h->min_seen = o[OPC_MIN];
			if (o[OPC_MAX] > h->max_seen)
				h->max_seen = o[OPC_MAX];
			memcpy(&x, &o[OPC_SUM], sizeof(x));
			sum += x;
		}
	}
	if (h->total == 0)
		h->min_seen = 0;
	h->sum = sum;
}

double optime_metric(struct optime *ot, const struct metric_def *m)
{
	if (!ot->counts)
		return NAN;
	op_hist_view(ot, m->op_class, -1, ot->scratch);
	/* no op of that class in this sample: no value */
	if (ot->scratch->total == 0)
		return NAN;
	if (m->kind == METRIC_OP_MEAN)
		return hist_mean(ot->scratch);
	if (m->pct >= 100.0)
		return (double)ot->scratch->max_seen;
	return (double)hist_percentile(ot->scratch, m->pct);
}

void optime_keep(struct optime *ot, struct config_result *res)
{
	int c, w;

	if (!ot->counts)
		return;
	for (c = 0; c < res->nclasses; c++) {
		op_hist_view(ot, c, -1, ot->scratch);
		hist_merge(res->class_hist[c], ot->scratch);
		if (ot->scratch->total &&
		    ot->scratch->max_seen > res->class_hist[c]->max_seen)
			res->class_hist[c]->max_seen = ot->scratch->max_seen;
	}
	for (w = 0; w < ot->ctx->nworkers; w++) {
		if (!res->worker_hist[w])
			continue;
		op_hist_view(ot, -1, w, ot->scratch);
		hist_merge(res->worker_hist[w], ot->scratch);
	}
	op_hist_view(ot, -1, -1, ot->scratch);
	hist_merge(res->hist, ot->scratch);
	res->hist_ops = res->hist->total;
}

void optime_hist_run(const struct optime *ot, struct wl_worker *w,
		     uint64_t nops, int *rc)
{
	const struct workload *wl = ot->wl;
	uint64_t i, *ticks = ot->hist_ticks + (size_t)w->idx * HIST_MAX_OPS;

	*rc = 0;
	for (i = 0; i < nops && *rc >= 0; i++) {
		uint64_t t0 = timer_ticks();

		*rc = wl->run_batch(w, 1);
		ticks[i] = timer_ticks() - t0;
	}
	if (*rc > 0)
		*rc = 0;
}

int optime_hist_result(const struct optime *ot, int w, uint64_t nops,
		       struct config_result *res)
{
	const uint64_t *t = ot->hist_ticks + (size_t)w * HIST_MAX_OPS;
	uint64_t k;

	res->hist = hist_new(HIST_MAX_NS);
	if (!res->hist)
		return -1;
	for (k = 0; k < nops; k++)
		hist_record(res->hist,
			    (uint64_t)llround(timer_ticks_to_ns(t[k])));
	res->hist_ops = nops;
	res->hist_worker = w;
	return 0;
}
