/*
 * build_results.c - the runner's output for one configuration into the results
 * model (see build.h).  This is the only place that reads struct
 * config_result after the runner filled it.
 */
#include "session/build_results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/hw_metrics.h"
#include "runner/swcount.h"
#include "stats/histogram.h"
#include "stats/summary.h"

static const char *status_name(enum config_status st)
{
	switch (st) {
	case CONFIG_OK:
		return NULL;
	case CONFIG_INTERRUPTED:
		return "interrupted";
	case CONFIG_VERIFY_FAILED:
		return "verify-failed";
	default:
		return "failed";
	}
}

/* A copy of n counters, or NULL (unknown) when any sample lacks one. */
static uint64_t *counters(const uint64_t *v, size_t n, bool *nomem)
{
	uint64_t *c;
	size_t i;

	if (!v || n == 0)
		return NULL;
	for (i = 0; i < n; i++)
		if (v[i] == SWCOUNT_NA)
			return NULL;
	c = malloc(n * sizeof(*c));
	if (!c) {
		*nomem = true;
		return NULL;
	}
	memcpy(c, v, n * sizeof(*c));
	return c;
}

static double *dup_doubles(const double *v, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c));

	if (c && n)
		memcpy(c, v, n * sizeof(*c));
	return c;
}

static int set_params(struct result_config *c, const struct config_result *cr)
{
	const struct workload *wl = cr->wl;
	size_t i;

	c->params_json = param_set_json(wl->params, wl->nparams, &cr->ps);
	c->params = calloc(wl->nparams ? wl->nparams : 1, sizeof(*c->params));
	if (!c->params_json || !c->params)
		return -1;
	for (i = 0; i < wl->nparams; i++) {
		char v[PARAM_TEXT_MAX];

		param_format_value(&wl->params[i], cr->ps.v[i], v, sizeof(v));
		c->params[i].name = strdup(wl->params[i].name);
		c->params[i].value = strdup(v);
		c->params[i].def = &wl->params[i];
		c->params[i].v = cr->ps.v[i];
		c->params[i].has_v = true;
		c->nparams++;
		if (!c->params[i].name || !c->params[i].value)
			return -1;
	}
	return 0;
}

static int set_workers(struct result_config *c,
		       const struct config_result *cr)
{
	int w, cpu;

	c->workers = calloc(cr->nworkers > 0 ? (size_t)cr->nworkers : 1,
			    sizeof(*c->workers));
	if (!c->workers)
		return -1;
	for (w = 0; w < cr->nworkers; w++) {
		struct result_worker *rw = &c->workers[c->nworkers++];
		int n = cr->cpus_seen ? CPU_COUNT(&cr->cpus_seen[w]) : 0;

		rw->name = strdup(cr->worker_names[w]);
		rw->cpu_requested = cr->worker_cpu[w];
		rw->cpus = calloc(n > 0 ? (size_t)n : 1, sizeof(int));
		if (!rw->name || !rw->cpus)
			return -1;
		for (cpu = 0; n > 0 && cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &cr->cpus_seen[w]))
				rw->cpus[rw->ncpus++] = cpu;
	}
	return 0;
}

static int set_load(struct result_config *c, const struct config_result *cr)
{
	struct result_load *l;
	size_t n = cr->nsamples;

	if (!n || !cr->interf_flags)
		return 0;
	l = c->load = calloc(1, sizeof(*l));
	if (!l)
		return -1;
	l->other_cpu_pct = dup_doubles(cr->other_cpu_pct, n);
	l->steal_pct = dup_doubles(cr->steal_pct, n);
	l->canary_ns = dup_doubles(cr->canary_ns, n);
	l->flags = malloc(n * sizeof(*l->flags));
	if (!l->other_cpu_pct || !l->steal_pct || !l->canary_ns || !l->flags)
		return -1;
	memcpy(l->flags, cr->interf_flags, n * sizeof(*l->flags));
	l->canary_ref_ns = cr->canary_ref_ns;
	if (cr->offcpu_pct) {
		l->offcpu_pct = dup_doubles(cr->offcpu_pct, n);
		if (!l->offcpu_pct)
			return -1;
	}
	return 0;
}

/* Per-op times of each op-timed worker, when more than one was timed. */
static int set_per_worker(struct result_config *c,
			  const struct config_result *cr)
{
	int w;

	for (w = 0; w < cr->nworkers; w++) {
		const struct histogram *h = cr->worker_hist[w];
		struct result_worker_ops *p;

		if (!h || !h->total)
			continue;
		if (!c->per_worker) {
			c->per_worker = calloc((size_t)cr->nworkers,
					       sizeof(*c->per_worker));
			if (!c->per_worker)
				return -1;
		}
		p = &c->per_worker[c->nper_worker++];
		p->name = strdup(cr->worker_names[w]);
		if (!p->name)
			return -1;
		p->ops = h->total;
		p->mean_ns = hist_mean(h);
		p->p50_ns = hist_percentile(h, 50);
		p->p99_ns = hist_percentile(h, 99);
		p->max_ns = h->max_seen;
	}
	return 0;
}

static int set_interleave(struct result_config *c,
			  const struct result_interleave *il)
{
	if (!il)
		return 0;
	c->interleaved = true;
	c->interleave_seed = il->seed;
	c->interleave_of = il->of;
	if (!il->norder)
		return 0;
	c->interleave_order = malloc(il->norder * sizeof(int64_t));
	if (!c->interleave_order)
		return -1;
	memcpy(c->interleave_order, il->order, il->norder * sizeof(int64_t));
	c->ninterleave_order = il->norder;
	return 0;
}

static int build_config(struct result_config *c,
			const struct config_result *cr, int job,
			const struct result_interleave *il)
{
	const char *st = status_name(cr->status);
	bool nomem = false;

	c->workload = strdup(cr->wl->name);
	c->wl = cr->wl;
	c->job = job;
	c->batch_ops = cr->batch_ops;
	c->nsamples = cr->nsamples;
	c->retaken = cr->retaken;
	c->target_ns = cr->target_ns;
	c->tick_ns = cr->tick_ns;
	c->inject_ns = cr->inject_ns;
	c->inject_step_ns = cr->inject_step_ns;
	c->inject_steps = cr->inject_steps;
	c->inject_added_ns = cr->inject_added_ns;
	c->inject_err_ns = cr->inject_err_ns;
	c->inject_base_ns = cr->inject_base_ns;
	if (cr->precision_asked_pct > 0) {
		c->precision_asked_pct = cr->precision_asked_pct;
		c->precision_pct = cr->precision_pct;
		c->precision_met = cr->precision_met;
		c->precision_time_ns = cr->precision_time_ns;
		c->precision_metric = strdup(cr->precision_metric);
		if (!c->precision_metric)
			return -1;
	}
	if (cr->window_ns && cr->nsamples) {
		c->window_ns = dup_doubles(cr->window_ns, cr->nsamples);
		if (!c->window_ns)
			return -1;
	}
	if (cr->oncpu_ns && cr->nsamples && !isnan(cr->oncpu_ns[0])) {
		c->oncpu_ns = dup_doubles(cr->oncpu_ns, cr->nsamples);
		if (!c->oncpu_ns)
			return -1;
	}
	free(c->note);
	c->note = strdup(cr->note);
	if (!c->workload || !c->note || set_params(c, cr) ||
	    set_workers(c, cr) || set_load(c, cr) ||
	    set_per_worker(c, cr) || set_interleave(c, il))
		return -1;
	c->ctx_switches = counters(cr->ctx_switches, cr->nsamples, &nomem);
	c->migrations = counters(cr->migrations, cr->nsamples, &nomem);
	c->faults = counters(cr->faults, cr->nsamples, &nomem);
	if (nomem)
		return -1;
	if (cr->verified) {
		c->verified = true;
		c->verify_errors = cr->verify_errors;
		c->verify_report = strdup(cr->verify_report);
		if (!c->verify_report)
			return -1;
	}
	if (st) {
		c->status = strdup(st);
		c->message = strdup(cr->msg);
		if (!c->status || !c->message)
			return -1;
	}
	return 0;
}

/* The per-op histogram of cr as a result's, from its non-empty buckets. */
static int build_hist(struct result *r, const struct config_result *cr)
{
	const struct histogram *h = cr->hist;
	struct result_hist *rh;
	size_t i;

	rh = r->hist = calloc(1, sizeof(*rh));
	if (!rh)
		return -1;
	rh->buckets = calloc(h->nbuckets + 1, sizeof(*rh->buckets));
	rh->of = strdup(cr->worker_names[cr->hist_worker]);
	if (!rh->buckets || !rh->of)
		return -1;
	for (i = 0; i < h->nbuckets; i++) {
		if (!h->counts[i])
			continue;
		rh->buckets[rh->nbuckets].lo = (int64_t)hist_bucket_lo(i);
		rh->buckets[rh->nbuckets].hi = (int64_t)hist_bucket_hi(i);
		rh->buckets[rh->nbuckets].count = h->counts[i];
		rh->nbuckets++;
	}
	if (h->overflow) {
		rh->buckets[rh->nbuckets].lo = (int64_t)h->max_value + 1;
		rh->buckets[rh->nbuckets].hi = -1;
		rh->buckets[rh->nbuckets].count = h->overflow;
		rh->nbuckets++;
	}
	rh->ops = cr->hist_ops;
	rh->min_ns = h->min_seen;
	rh->max_ns = h->max_seen;
	rh->mean_ns = hist_mean(h);
	return 0;
}

static bool is_time_metric(const struct metric_def *m)
{
	return m->kind == METRIC_NS_PER_OP || m->kind == METRIC_OP_PCT ||
	       m->kind == METRIC_OP_MEAN;
}

static struct result *new_result(struct result_set *out,
				 struct result_config *c, const char *metric,
				 const char *unit, int direction, size_t cap)
{
	struct result *r = result_set_new_result(out, c);

	if (!r)
		return NULL;
	r->metric = strdup(metric);
	r->unit = strdup(unit);
	r->direction = direction;
	r->samples = calloc(cap ? cap : 1, sizeof(double));
	if (!r->metric || !r->unit || !r->samples)
		return NULL;
	return r;
}

/* One metric of the traced samples from v[0..n), NAN values left out. */
static int traced_result(struct result_set *out, struct result_config *c,
			 const char *metric, const char *unit, int direction,
			 const double *v, size_t n)
{
	struct result *r;
	size_t k, nfinite = 0;

	for (k = 0; k < n; k++)
		nfinite += isfinite(v[k]) != 0;
	if (nfinite == 0)
		return 0;
	r = new_result(out, c, metric, unit, direction, n);
	if (!r)
		return -1;
	r->traced = true;
	for (k = 0; k < n; k++)
		if (isfinite(v[k]))
			r->samples[r->nsamples++] = v[k];
	return result_finalize(r);
}

/*
 * The profile's traced samples: each one's op time is that of the kept
 * sample it follows (traced sample k comes right after kept sample k),
 * per op of the workload, as the metrics take it: the worker's on-CPU
 * time where they use it, else the window.
 */
static void prof_sample_op_ns(const struct config_result *cr,
			      struct result_kernel *k)
{
	double per = (double)cr->batch_ops * kview_op_workers(cr->kview);
	size_t i;

	for (i = 0; i < k->nprof_per && i < cr->nsamples; i++) {
		double t = cr->oncpu_ns && isfinite(cr->oncpu_ns[i]) ?
			   cr->oncpu_ns[i] : cr->window_ns ?
			   cr->window_ns[i] : NAN;

		k->prof_per[i].op_ns = per > 0 && t > 0 ? t / per : NAN;
	}
}

/*
 * --kernel: the views' record on the configuration, and the traced
 * samples' metrics: their time per op (which carries the record), the
 * workers' contended waits and wait per op, wake-up p99, in-kernel %.
 */
static int build_kernel(const struct config_result *cr,
			struct result_config *c, struct result_set *out)
{
	const struct kview_samples *s = kview_samples(cr->kview);
	double *per_op = malloc((cr->nsamples ? cr->nsamples : 1) *
				sizeof(double));
	double untraced = NAN;
	size_t k, n = 0;

	if (!per_op)
		return -1;
	for (k = 0; k < cr->nsamples && cr->batch_ops; k++)
		if (cr->window_ns && cr->window_ns[k] > 0)
			per_op[n++] = cr->window_ns[k] /
				      (double)cr->batch_ops;
	if (n)
		untraced = stats_median(per_op, n);
	free(per_op);
	c->kernel = kview_result(cr->kview, untraced);
	if (!c->kernel || s->n == 0)
		return c->kernel ? 0 : -1;
	prof_sample_op_ns(cr, c->kernel);
	if (traced_result(out, c, KVIEW_METRIC_TIME, "ns", METRIC_INFO,
			  s->ns_per_op, s->n) != 0 ||
	    traced_result(out, c, KVIEW_METRIC_WAITS, "count", METRIC_LOWER_BETTER,
			  s->lock_waits_per_op, s->n) != 0 ||
	    traced_result(out, c, KVIEW_METRIC_WAIT, "ns", METRIC_LOWER_BETTER,
			  s->lock_wait_ns_per_op, s->n) != 0 ||
	    traced_result(out, c, KVIEW_METRIC_WAKE, "ns", METRIC_LOWER_BETTER,
			  s->wake_p99_ns, s->n) != 0 ||
	    traced_result(out, c, KVIEW_METRIC_SYS, "%", METRIC_INFO,
			  s->sys_share_pct, s->n) != 0)
		return -1;
	return 0;
}

/*
 * --hw-counters: one info result per figure the counters gave
 * (results/hw_metrics.h), after the workload's own metrics; a figure no
 * sample has (a counter this PMU lacks) gives none.
 */
static int build_hw(const struct config_result *cr, struct result_config *c,
		    struct result_set *out)
{
	int m;

	for (m = 0; cr->hw_running_pct && m < HW_NMETRICS; m++) {
		const double *v = cr->hw[m];
		struct result *r;
		size_t k, nfinite = 0;

		for (k = 0; k < cr->nsamples; k++)
			nfinite += isfinite(v[k]) != 0;
		if (nfinite == 0)
			continue;
		r = new_result(out, c, hw_metric_defs[m].name,
			       hw_metric_defs[m].unit, METRIC_INFO,
			       cr->nsamples);
		if (!r)
			return -1;
		for (k = 0; k < cr->nsamples; k++)
			if (isfinite(v[k]))
				r->samples[r->nsamples++] = v[k];
		if (result_finalize(r) != 0)
			return -1;
	}
	return 0;
}

int results_build(const struct config_result *cr, int job, bool want_hist,
		  const struct result_interleave *il, struct result_set *out)
{
	const struct workload *wl = cr->wl;
	bool hist_done = !want_hist || !cr->hist || !cr->hist->total;
	struct result_config *c = result_set_new_config(out);
	size_t m, k, hist_metric = 0;
	char name[96];

	if (!c || build_config(c, cr, job, il) != 0)
		return -1;
	/* the histogram goes with the first time-per-op metric */
	for (m = wl->nmetrics; m-- > 0;)
		if (is_time_metric(&wl->metrics[m]))
			hist_metric = m;
	for (m = 0; m < wl->nmetrics && cr->nsamples > 0; m++) {
		struct result *r;
		size_t nfinite = 0;

		for (k = 0; k < cr->nsamples; k++)
			nfinite += isfinite(cr->values[m][k]) != 0;
		if (nfinite == 0)
			continue;
		r = new_result(out, c, wl->metrics[m].name, cr->units[m],
			       wl->metrics[m].dir, cr->nsamples);
		if (!r)
			return -1;
		for (k = 0; k < cr->nsamples; k++)
			if (isfinite(cr->values[m][k]))
				r->samples[r->nsamples++] = cr->values[m][k];
		if (!hist_done && m == hist_metric) {
			if (build_hist(r, cr) != 0)
				return -1;
			hist_done = true;
		}
		if (result_finalize(r) != 0)
			return -1;
	}
	if (build_hw(cr, c, out) != 0)
		return -1;
	if (cr->ntrace > 0) {
		struct result *r;

		snprintf(name, sizeof(name), "cold %s", wl->metrics[0].name);
		r = new_result(out, c, name, "ns", METRIC_INFO, cr->ntrace);
		if (!r)
			return -1;
		r->trace = true;
		memcpy(r->samples, cr->trace_ns, cr->ntrace * sizeof(double));
		r->nsamples = cr->ntrace;
		if (result_finalize(r) != 0)
			return -1;
	}
	if (cr->kview && build_kernel(cr, c, out) != 0)
		return -1;
	return 0;
}
