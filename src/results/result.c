/*
 * result.c - the results model's containers and the few questions every
 * renderer asks of a result (see result.h).
 */
#include "results/result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/workload.h"
#include "results/hw_metrics.h"
#include "results/sample_flags.h"
#include "stats/headline.h"

void result_set_init(struct result_set *set)
{
	memset(set, 0, sizeof(*set));
}

static void config_free(struct result_config *c)
{
	size_t i;

	if (!c)
		return;
	free(c->workload);
	for (i = 0; i < c->nparams; i++) {
		free(c->params[i].name);
		free(c->params[i].value);
	}
	free(c->params);
	free(c->params_json);
	for (i = 0; i < c->nworkers; i++) {
		free(c->workers[i].name);
		free(c->workers[i].cpus);
	}
	free(c->workers);
	free(c->ctx_switches);
	free(c->migrations);
	free(c->faults);
	free(c->note);
	result_kernel_free(c->kernel);
	free(c->window_ns);
	free(c->oncpu_ns);
	if (c->load) {
		free(c->load->offcpu_pct);
		free(c->load->other_cpu_pct);
		free(c->load->steal_pct);
		free(c->load->canary_ns);
		free(c->load->flags);
		free(c->load);
	}
	for (i = 0; i < c->nper_worker; i++)
		free(c->per_worker[i].name);
	free(c->per_worker);
	free(c->verify_report);
	free(c->precision_metric);
	free(c->status);
	free(c->message);
	free(c->interleave_order);
	free(c);
}

static void result_free(struct result *r)
{
	free(r->metric);
	free(r->unit);
	free(r->samples);
	if (r->hist) {
		free(r->hist->buckets);
		free(r->hist->of);
		free(r->hist);
	}
}

void result_set_free(struct result_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		result_free(&set->v[i]);
	for (i = 0; i < set->ncfgs; i++)
		config_free(set->cfgs[i]);
	free(set->v);
	free(set->cfgs);
	memset(set, 0, sizeof(*set));
}

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t nc;
	void *p;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	while (nc < need)
		nc *= 2;
	p = realloc(*v, nc * size);
	if (!p)
		return -1;
	*v = p;
	*cap = nc;
	return 0;
}

struct result_config *result_set_new_config(struct result_set *set)
{
	struct result_config *c;

	if (grow((void **)&set->cfgs, &set->cfgcap, set->ncfgs + 1,
		 sizeof(void *)))	/* an array of pointers */
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->note = strdup("");
	if (!c->note) {
		free(c);
		return NULL;
	}
	set->cfgs[set->ncfgs++] = c;
	return c;
}

struct result *result_set_new_result(struct result_set *set,
				     struct result_config *cfg)
{
	struct result *r;

	if (grow((void **)&set->v, &set->cap, set->n + 1, sizeof(*set->v)))
		return NULL;
	r = &set->v[set->n++];
	memset(r, 0, sizeof(*r));
	r->cfg = cfg;
	r->seq = set->next_seq++;
	return r;
}

int result_set_take(struct result_set *dst, struct result_set *src)
{
	size_t i;

	if (grow((void **)&dst->v, &dst->cap, dst->n + src->n,
		 sizeof(*dst->v)) ||
	    grow((void **)&dst->cfgs, &dst->cfgcap, dst->ncfgs + src->ncfgs,
		 sizeof(void *)))
		return -1;
	for (i = 0; i < src->n; i++) {
		dst->v[dst->n] = src->v[i];
		dst->v[dst->n].seq = dst->next_seq++;
		dst->n++;
	}
	memcpy(dst->cfgs + dst->ncfgs, src->cfgs,
	       src->ncfgs * sizeof(void *));
	dst->ncfgs += src->ncfgs;
	free(src->v);
	free(src->cfgs);
	memset(src, 0, sizeof(*src));
	return 0;
}

/*
 * Whether r's values carry the time a worker waited: the window's
 * readings (time, cycles, bytes or ops per second of the window) and
 * the op-timed percentiles and means; not a count or a ratio of counts
 * (fairness, retransmits, context switches per MiB), nor the hardware
 * counters' figures (results/hw_metrics.h).  For a workload not in this
 * build, by its unit: ns, cycles, a rate per second.
 */
static bool carries_wait(const struct result *r)
{
	const struct workload *wl = r->cfg->wl;
	size_t i, n;

	/* the PMU counts only while the workers run */
	if (hw_metric_name(r->metric))
		return false;
	for (i = 0; wl && i < wl->nmetrics; i++)
		if (strcmp(wl->metrics[i].name, r->metric) == 0)
			return result_window_reading(r) ||
			       wl->metrics[i].kind == METRIC_OP_PCT ||
			       wl->metrics[i].kind == METRIC_OP_MEAN;
	if (!r->unit)
		return false;
	n = strlen(r->unit);
	return strcmp(r->unit, "ns") == 0 || strstr(r->unit, "cycles") ||
	       (n > 2 && strcmp(r->unit + n - 2, "/s") == 0);
}

bool result_config_own_cpus(const struct result_config *c)
{
	size_t i, j;

	if (c->nworkers <= 1)
		return true;
	for (i = 0; i < c->nworkers; i++) {
		if (c->workers[i].cpu_requested < 0)
			return false;
		for (j = 0; j < i; j++)
			if (c->workers[j].cpu_requested ==
			    c->workers[i].cpu_requested)
				return false;
	}
	return true;
}

bool result_value_disturbed(const struct result *r, size_t i)
{
	const struct result_config *c = r->cfg;

	if (r->trace || r->traced || !c->load || !c->load->flags ||
	    c->nsamples != r->nsamples || i >= r->nsamples ||
	    !carries_wait(r) || !result_config_own_cpus(c))
		return false;
	return (c->load->flags[i] & INTERF_FLAG_OFFCPU) != 0;
}

bool result_value_counts(const struct result *r, size_t i)
{
	if (r->withheld)
		return false;
	return !(r->left_out && result_value_disturbed(r, i));
}

int result_finalize(struct result *r)
{
	size_t i, nd = 0, n = 0;
	double *kept;
	int rc = -1;

	for (i = 0; i < r->nsamples; i++)
		nd += result_value_disturbed(r, i);
	r->left_out = 0;
	r->withheld = false;
	switch (headline_rule(r->nsamples, nd)) {
	case HEADLINE_LEFT_OUT:
		r->left_out = nd;
		break;
	case HEADLINE_WITHHELD:
		r->withheld = true;
		break;
	case HEADLINE_ALL:
		break;
	}
	if (!r->left_out)
		return summary_compute(r->samples, r->nsamples,
				       &r->summary) != 0 ||
		       modes_detect(r->samples, r->nsamples, &r->modes) != 0 ?
		       -1 : 0;
	kept = malloc(r->nsamples * sizeof(*kept));
	if (!kept)
		return -1;
	for (i = 0; i < r->nsamples; i++)
		if (result_value_counts(r, i))
			kept[n++] = r->samples[i];
	if (summary_compute(kept, n, &r->summary) == 0 &&
	    modes_detect(kept, n, &r->modes) == 0)
		rc = 0;
	free(kept);
	return rc;
}

const struct result_param *result_param_find(const struct result_config *cfg,
					     const char *name)
{
	size_t i;

	for (i = 0; i < cfg->nparams; i++)
		if (strcmp(cfg->params[i].name, name) == 0)
			return &cfg->params[i];
	return NULL;
}

const char *result_param(const struct result_config *cfg, const char *name)
{
	const struct result_param *p = result_param_find(cfg, name);

	return p ? p->value : NULL;
}

bool result_param_value(const struct result_config *cfg, const char *name,
			int64_t *v)
{
	const struct result_param *p = result_param_find(cfg, name);

	if (!p || !p->has_v)
		return false;
	*v = p->v;
	return true;
}

static int by_name(const void *a, const void *b)
{
	const struct result_param *x = *(const struct result_param *const *)a;
	const struct result_param *y = *(const struct result_param *const *)b;

	return strcmp(x->name, y->name);
}

void result_params_sorted(const struct result_config *cfg,
			  const struct result_param **out)
{
	size_t i;

	for (i = 0; i < cfg->nparams; i++)
		out[i] = &cfg->params[i];
	qsort(out, cfg->nparams, sizeof(void *), by_name);	/* pointers */
}

bool result_value_flagged(const struct result *r, size_t i)
{
	const struct result_config *c = r->cfg;

	if (r->trace || !c->load || c->nsamples != r->nsamples ||
	    i >= r->nsamples)
		return false;
	return c->load->flags[i] != 0;
}

size_t result_config_short(const struct result_config *cfg,
			   double *shortest_ns)
{
	size_t k, n = 0;

	*shortest_ns = NAN;
	for (k = 0; cfg->window_ns && cfg->target_ns > 0 &&
		    k < cfg->nsamples; k++) {
		if (isnan(*shortest_ns) || cfg->window_ns[k] < *shortest_ns)
			*shortest_ns = cfg->window_ns[k];
		n += cfg->window_ns[k] < (double)cfg->target_ns;
	}
	return n;
}

size_t result_config_flagged(const struct result_config *cfg)
{
	size_t k, n = 0;

	for (k = 0; cfg->load && k < cfg->nsamples; k++)
		n += cfg->load->flags[k] != 0;
	return n;
}

size_t result_config_flagged_offcpu(const struct result_config *cfg)
{
	size_t k, n = 0;

	for (k = 0; cfg->load && cfg->load->flags && k < cfg->nsamples; k++)
		n += (cfg->load->flags[k] & INTERF_FLAG_OFFCPU) != 0;
	return n;
}

double result_counter_median(const struct result_config *cfg,
			     const uint64_t *counter, double per_sample)
{
	double *v, m;
	size_t k;

	if (!counter || cfg->nsamples == 0 || !(per_sample > 0))
		return NAN;
	v = calloc(cfg->nsamples, sizeof(*v));
	if (!v)
		return NAN;
	for (k = 0; k < cfg->nsamples; k++)
		v[k] = (double)counter[k] / per_sample;
	m = stats_median(v, cfg->nsamples);
	free(v);
	return m;
}

void result_flag_text(unsigned f, char *buf, size_t len)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ INTERF_FLAG_OTHER, "other" },
		{ INTERF_FLAG_STEAL, "steal" },
		{ INTERF_FLAG_CANARY, "canary" },
		{ INTERF_FLAG_OFFCPU, "offcpu" },
	};
	size_t i, at = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int w;

		if (!(f & names[i].bit) || at >= len)
			continue;
		w = snprintf(buf + at, len - at, "%s%s", at ? "," : "",
			     names[i].name);
		at += w > 0 ? (size_t)w : 0;
	}
}

bool result_window_reading(const struct result *r)
{
	const struct workload *wl = r->cfg->wl;
	size_t i;

	for (i = 0; wl && i < wl->nmetrics; i++)
		if (strcmp(wl->metrics[i].name, r->metric) == 0)
			return wl->metrics[i].kind == METRIC_NS_PER_OP ||
			       wl->metrics[i].kind == METRIC_TICKS_PER_OP ||
			       wl->metrics[i].kind == METRIC_BYTES_PER_SEC ||
			       wl->metrics[i].kind == METRIC_OPS_PER_SEC ||
			       wl->metrics[i].same_window;
	return false;
}
