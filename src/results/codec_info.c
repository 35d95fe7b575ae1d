/*
 * codec_info.c - a result's info object (see codec.h): everything a
 * configuration's samples carried beside their values, written with its
 * keys in sorted order and read back into the results model.
 */
#include "results/codec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/codec_priv.h"
#include "results/sample_flags.h"

/* ---- writing ---- */

json_t *codec_num_or_null(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *counter_json(const uint64_t *v, size_t n)
{
	json_t *a;
	size_t i;

	if (!v)
		return json_null();
	a = json_array();
	for (i = 0; a && i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

static json_t *doubles_json(const double *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < n; i++)
		json_array_append_new(a, codec_num_or_null(v[i]));
	return a;
}

static json_t *workers_json(const struct result_config *c)
{
	json_t *a = json_array();
	size_t i, k;

	for (i = 0; a && i < c->nworkers; i++) {
		const struct result_worker *w = &c->workers[i];
		json_t *o = json_object(), *cpus = json_array();

		for (k = 0; k < w->ncpus; k++)
			json_array_append_new(cpus, json_integer(w->cpus[k]));
		json_object_set_new(o, "cpu_requested",
				    json_integer(w->cpu_requested));
		json_object_set_new(o, "cpus", cpus);
		json_object_set_new(o, "name", codec_json_text(w->name));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *load_json(const struct result_config *c)
{
	const struct result_load *l = c->load;
	json_t *o = json_object(), *other = json_array(), *steal = json_array();
	json_t *canary = json_array(), *flagged = json_array();
	json_t *why = json_array();
	size_t k;

	for (k = 0; k < c->nsamples; k++) {
		char w[32];

		json_array_append_new(other,
				      codec_num_or_null(l->other_cpu_pct[k]));
		json_array_append_new(steal,
				      codec_num_or_null(l->steal_pct[k]));
		json_array_append_new(canary, json_real(l->canary_ns[k]));
		json_array_append_new(flagged, json_boolean(l->flags[k] != 0));
		result_flag_text(l->flags[k], w, sizeof(w));
		json_array_append_new(why, json_string(w));
	}
	json_object_set_new(o, "canary_ns", canary);
	json_object_set_new(o, "canary_ref_ns", json_real(l->canary_ref_ns));
	json_object_set_new(o, "flagged", flagged);
	if (l->offcpu_pct)
		json_object_set_new(o, "offcpu_pct",
				    doubles_json(l->offcpu_pct, c->nsamples));
	json_object_set_new(o, "other_cpu_pct", other);
	json_object_set_new(o, "steal_pct", steal);
	json_object_set_new(o, "why", why);
	return o;
}

static json_t *per_worker_json(const struct result_config *c)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < c->nper_worker; i++) {
		const struct result_worker_ops *w = &c->per_worker[i];

		json_array_append_new(a, json_pack(
			"{s:I, s:f, s:o, s:I, s:I, s:I}",
			"max_ns", (json_int_t)w->max_ns,
			"mean_ns", w->mean_ns, "name", codec_json_text(w->name),
			"ops", (json_int_t)w->ops,
			"p50_ns", (json_int_t)w->p50_ns,
			"p99_ns", (json_int_t)w->p99_ns));
	}
	return a;
}

static json_t *interleave_json(const struct result_config *c)
{
	json_t *order = json_array();
	size_t i;

	for (i = 0; order && i < c->ninterleave_order; i++)
		json_array_append_new(order, json_integer(
			(json_int_t)c->interleave_order[i]));
	return json_pack("{s:I, s:o, s:I}", "of", (json_int_t)c->interleave_of,
			 "order", order, "seed",
			 (json_int_t)c->interleave_seed);
}

json_t *result_info_json(const struct result *r)
{
	const struct result_config *c = r->cfg;
	json_t *o = json_object();

	if (!o)
		return NULL;
	/* keys in sorted order */
	json_object_set_new(o, "batch_ops", json_integer(
		(json_int_t)c->batch_ops));
	json_object_set_new(o, "ctx_switches",
			    counter_json(c->ctx_switches, c->nsamples));
	json_object_set_new(o, "faults", counter_json(c->faults,
						      c->nsamples));
	if (r->hist)
		json_object_set_new(o, "hist", json_pack(
			"{s:I, s:f, s:I, s:o, s:I}",
			"max", (json_int_t)r->hist->max_ns,
			"mean", r->hist->mean_ns,
			"min", (json_int_t)r->hist->min_ns,
			"of", codec_json_text(r->hist->of),
			"ops", (json_int_t)r->hist->ops));
	if (c->inject_ns > 0)
		json_object_set_new(o, "inject", json_pack(
			"{s:o, s:I, s:o, s:o, s:o, s:I}",
			"added_ns", codec_num_or_null(c->inject_added_ns),
			"asked_ns", (json_int_t)c->inject_ns,
			"base_ns", codec_num_or_null(c->inject_base_ns),
			"err_ns", codec_num_or_null(c->inject_err_ns),
			"step_ns", codec_num_or_null(c->inject_step_ns),
			"steps", (json_int_t)c->inject_steps));
	if (c->load && c->nsamples)
		json_object_set_new(o, "interference", load_json(c));
	if (c->interleaved)
		json_object_set_new(o, "interleave", interleave_json(c));
	json_object_set_new(o, "job", json_integer(c->job));
	if (r->traced && c->kernel && !strcmp(r->metric, KVIEW_METRIC_TIME))
		json_object_set_new(o, "kernel", codec_kernel_json(c->kernel));
	if (c->status)
		json_object_set_new(o, "message",
				    codec_json_text(c->message));
	json_object_set_new(o, "migrations",
			    counter_json(c->migrations, c->nsamples));
	json_object_set_new(o, "note", codec_json_text(c->note));
	if (c->nper_worker)
		json_object_set_new(o, "per_worker", per_worker_json(c));
	if (c->precision_asked_pct > 0)
		json_object_set_new(o, "precision", json_pack(
			"{s:f, s:b, s:o, s:o, s:I}",
			"asked_pct", c->precision_asked_pct,
			"met", c->precision_met,
			"metric", codec_json_text(c->precision_metric),
			"reached_pct", codec_num_or_null(c->precision_pct),
			"time_ns", (json_int_t)c->precision_time_ns));
	if (c->retaken)
		json_object_set_new(o, "retaken",
				    json_integer((json_int_t)c->retaken));
	if (c->status)
		json_object_set_new(o, "status", codec_json_text(c->status));
	if (c->target_ns > 0)
		json_object_set_new(o, "target_ns",
				    json_integer((json_int_t)c->target_ns));
	if (c->tick_ns > 0)
		json_object_set_new(o, "tick_ns", json_real(c->tick_ns));
	if (r->trace)
		json_object_set_new(o, "trace", json_true());
	if (r->traced)
		json_object_set_new(o, "traced", json_true());
	if (c->verified)
		json_object_set_new(o, "verify", json_pack(
			"{s:I, s:o}", "errors", (json_int_t)c->verify_errors,
			"report", codec_json_text(c->verify_report)));
	if (c->window_ns)
		json_object_set_new(o, "window_ns",
				    doubles_json(c->window_ns, c->nsamples));
	if (c->oncpu_ns)
		json_object_set_new(o, "oncpu_ns",
				    doubles_json(c->oncpu_ns, c->nsamples));
	json_object_set_new(o, "workers", workers_json(c));
	return o;
}

char *result_info_text(const struct result *r)
{
	json_t *o = result_info_json(r);
	char *s;

	if (!o)
		return NULL;
	s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(o);
	return s;
}

/* ---- reading ---- */

char *codec_dup_str(json_t *v)
{
	const char *s = json_string_value(v);

	return strdup(s ? s : "");
}

uint64_t codec_juint(json_t *v)
{
	json_int_t x = json_integer_value(v);

	return x > 0 ? (uint64_t)x : 0;
}

/* A JSON array of integers into a new array of n; NULL for null or a
   mismatched length (unknown), *bad on ENOMEM. */
static uint64_t *counters_decode(json_t *a, size_t n, bool *bad)
{
	uint64_t *v;
	size_t i;

	if (!json_is_array(a) || json_array_size(a) != n || n == 0)
		return NULL;
	v = calloc(n, sizeof(*v));
	if (!v) {
		*bad = true;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		json_t *x = json_array_get(a, i);

		if (!json_is_integer(x)) {
			free(v);
			return NULL;
		}
		v[i] = codec_juint(x);
	}
	return v;
}

static int workers_decode(struct result_config *c, json_t *a)
{
	size_t i, k;

	if (!json_is_array(a) || json_array_size(a) == 0)
		return 0;
	c->workers = calloc(json_array_size(a), sizeof(*c->workers));
	if (!c->workers)
		return -1;
	for (i = 0; i < json_array_size(a); i++) {
		json_t *w = json_array_get(a, i);
		struct result_worker *rw = &c->workers[c->nworkers++];
		json_t *cpus = json_object_get(w, "cpus");

		rw->name = codec_dup_str(json_object_get(w, "name"));
		rw->cpu_requested = (int)json_integer_value(
			json_object_get(w, "cpu_requested"));
		if (!rw->name)
			return -1;
		if (!json_array_size(cpus))
			continue;
		rw->cpus = calloc(json_array_size(cpus), sizeof(int));
		if (!rw->cpus)
			return -1;
		for (k = 0; k < json_array_size(cpus); k++)
			rw->cpus[rw->ncpus++] = (int)json_integer_value(
				json_array_get(cpus, k));
	}
	return 0;
}

static unsigned flags_of(json_t *flagged, json_t *why)
{
	const char *w = json_string_value(why);
	unsigned f = 0;

	if (w) {
		f |= strstr(w, "other") ? INTERF_FLAG_OTHER : 0;
		f |= strstr(w, "steal") ? INTERF_FLAG_STEAL : 0;
		f |= strstr(w, "canary") ? INTERF_FLAG_CANARY : 0;
		f |= strstr(w, "offcpu") ? INTERF_FLAG_OFFCPU : 0;
	}
	if (json_is_true(flagged) && !f)
		f = RESULT_FLAG_UNKNOWN;
	return f;
}

double codec_num_or_nan(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/*
 * A per-sample array of n numbers (null: NAN) into a new *out; nothing
 * (*out NULL) when a is not an array of n.  0, or -1 on ENOMEM.
 */
static int decode_doubles(json_t *a, size_t n, double **out)
{
	size_t i;

	*out = NULL;
	if (!json_is_array(a) || json_array_size(a) != n || n == 0)
		return 0;
	*out = calloc(n, sizeof(double));
	if (!*out)
		return -1;
	for (i = 0; i < n; i++)
		(*out)[i] = codec_num_or_nan(json_array_get(a, i));
	return 0;
}

static int load_decode(struct result_config *c, json_t *it)
{
	json_t *flagged = json_object_get(it, "flagged");
	json_t *why = json_object_get(it, "why");
	json_t *other = json_object_get(it, "other_cpu_pct");
	json_t *steal = json_object_get(it, "steal_pct");
	json_t *canary = json_object_get(it, "canary_ns");
	size_t n = json_array_size(flagged), k;
	struct result_load *l;

	if (!json_is_object(it) || n == 0)
		return 0;
	/* the configuration's kept samples: as many as flags recorded */
	c->nsamples = n;
	l = c->load = calloc(1, sizeof(*l));
	if (!l)
		return -1;
	l->other_cpu_pct = calloc(n, sizeof(double));
	l->steal_pct = calloc(n, sizeof(double));
	l->canary_ns = calloc(n, sizeof(double));
	l->flags = calloc(n, sizeof(unsigned));
	if (!l->other_cpu_pct || !l->steal_pct || !l->canary_ns || !l->flags)
		return -1;
	for (k = 0; k < n; k++) {
		l->other_cpu_pct[k] = codec_num_or_nan(json_array_get(other,
								      k));
		l->steal_pct[k] = codec_num_or_nan(json_array_get(steal, k));
		l->canary_ns[k] = codec_num_or_nan(json_array_get(canary, k));
		l->flags[k] = flags_of(json_array_get(flagged, k),
				       json_array_get(why, k));
	}
	l->canary_ref_ns = codec_num_or_nan(json_object_get(it,
							    "canary_ref_ns"));
	return decode_doubles(json_object_get(it, "offcpu_pct"), n,
				    &l->offcpu_pct);
}

static int per_worker_decode(struct result_config *c, json_t *a)
{
	size_t i;

	if (!json_array_size(a))
		return 0;
	c->per_worker = calloc(json_array_size(a), sizeof(*c->per_worker));
	if (!c->per_worker)
		return -1;
	for (i = 0; i < json_array_size(a); i++) {
		json_t *w = json_array_get(a, i);
		struct result_worker_ops *p = &c->per_worker[c->nper_worker++];

		p->name = codec_dup_str(json_object_get(w, "name"));
		if (!p->name)
			return -1;
		p->ops = codec_juint(json_object_get(w, "ops"));
		p->mean_ns = codec_num_or_nan(json_object_get(w, "mean_ns"));
		p->p50_ns = codec_juint(json_object_get(w, "p50_ns"));
		p->p99_ns = codec_juint(json_object_get(w, "p99_ns"));
		p->max_ns = codec_juint(json_object_get(w, "max_ns"));
	}
	return 0;
}

static int interleave_decode(struct result_config *c, json_t *il)
{
	json_t *order = json_object_get(il, "order");
	size_t i;

	if (!json_is_object(il))
		return 0;
	c->interleaved = true;
	c->interleave_seed = (uint64_t)json_integer_value(
		json_object_get(il, "seed"));
	c->interleave_of = json_integer_value(json_object_get(il, "of"));
	if (!json_array_size(order))
		return 0;
	c->interleave_order = calloc(json_array_size(order), sizeof(int64_t));
	if (!c->interleave_order)
		return -1;
	for (i = 0; i < json_array_size(order); i++)
		c->interleave_order[c->ninterleave_order++] =
			json_integer_value(json_array_get(order, i));
	return 0;
}

/* The kept samples' lengths and on-CPU times, when there is one per
   kept sample. */
static int decode_windows(struct result_config *c, json_t *info)
{
	if (decode_doubles(json_object_get(info, "window_ns"), c->nsamples,
			   &c->window_ns))
		return -1;
	return decode_doubles(json_object_get(info, "oncpu_ns"), c->nsamples,
			      &c->oncpu_ns);
}

/* Everything of info that belongs to the configuration. */
int codec_config_decode(struct result_config *c, json_t *info)
{
	json_t *v = json_object_get(info, "verify");
	bool bad = false;
	size_t n;

	c->job = (int)json_integer_value(json_object_get(info, "job"));
	c->batch_ops = codec_juint(json_object_get(info, "batch_ops"));
	if (json_string_value(json_object_get(info, "note"))) {
		free(c->note);
		c->note = codec_dup_str(json_object_get(info, "note"));
		if (!c->note)
			return -1;
	}
	if (workers_decode(c, json_object_get(info, "workers")) ||
	    load_decode(c, json_object_get(info, "interference")) ||
	    per_worker_decode(c, json_object_get(info, "per_worker")) ||
	    interleave_decode(c, json_object_get(info, "interleave")))
		return -1;
	/* the kept samples: the load's count, else the length of the first
	   counter array there is (whichever of them a writer left out or
	   nulled, so that decoding what was encoded gives the same) */
	n = json_array_size(json_object_get(info, "ctx_switches"));
	if (!n)
		n = json_array_size(json_object_get(info, "migrations"));
	if (!n)
		n = json_array_size(json_object_get(info, "faults"));
	if (!c->nsamples)
		c->nsamples = n;
	c->ctx_switches = counters_decode(json_object_get(info,
							  "ctx_switches"),
					  c->nsamples, &bad);
	c->migrations = counters_decode(json_object_get(info, "migrations"),
					c->nsamples, &bad);
	c->faults = counters_decode(json_object_get(info, "faults"),
				    c->nsamples, &bad);
	if (bad)
		return -1;
	c->target_ns = json_integer_value(json_object_get(info, "target_ns"));
	c->tick_ns = json_number_value(json_object_get(info, "tick_ns"));
	if (!(c->tick_ns > 0) || c->tick_ns > 1e9)
		c->tick_ns = 0;
	if (json_is_object(json_object_get(info, "inject"))) {
		json_t *in = json_object_get(info, "inject");

		c->inject_ns = json_integer_value(json_object_get(in,
								  "asked_ns"));
		c->inject_added_ns = codec_num_or_nan(json_object_get(in,
								"added_ns"));
		c->inject_err_ns = codec_num_or_nan(json_object_get(
			in, "err_ns"));
		c->inject_base_ns = codec_num_or_nan(json_object_get(in,
							       "base_ns"));
		/* absent from runs stored before the step sled */
		c->inject_step_ns = codec_num_or_nan(json_object_get(in,
							       "step_ns"));
		c->inject_steps = (uint64_t)json_integer_value(
			json_object_get(in, "steps"));
	}
	if (json_integer_value(json_object_get(info, "retaken")) > 0)
		c->retaken = (size_t)json_integer_value(
			json_object_get(info, "retaken"));
	if (json_is_object(json_object_get(info, "precision"))) {
		json_t *pr = json_object_get(info, "precision");

		c->precision_asked_pct = json_number_value(
			json_object_get(pr, "asked_pct"));
		c->precision_met = json_is_true(json_object_get(pr, "met"));
		c->precision_metric = codec_dup_str(json_object_get(pr,
								    "metric"));
		c->precision_pct = codec_num_or_nan(json_object_get(pr,
							     "reached_pct"));
		c->precision_time_ns = json_integer_value(
			json_object_get(pr, "time_ns"));
		if (!c->precision_metric)
			return -1;
	}
	if (decode_windows(c, info))
		return -1;
	if (json_is_object(v)) {
		c->verified = true;
		c->verify_errors = (long)json_integer_value(
			json_object_get(v, "errors"));
		c->verify_report = codec_dup_str(json_object_get(v, "report"));
		if (!c->verify_report)
			return -1;
	}
	if (json_string_value(json_object_get(info, "status"))) {
		c->status = codec_dup_str(json_object_get(info, "status"));
		c->message = codec_dup_str(json_object_get(info, "message"));
		if (!c->status || !c->message)
			return -1;
	}
	return 0;
}
