/*
 * codec.c - the stored text form of results, written and read (see
 * codec.h).  Objects are built with their keys in sorted order, so the
 * stored text and `--json` print them as the store always has.
 */
#include "results/codec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/sample_flags.h"
#include "core/workload.h"
#include "results/run.h"

/* ---- text ---- */

/*
 * Bytes in the UTF-8 sequence that starts with lead (RFC 3629), or 0 for
 * a byte that cannot start one.  Whether the sequence is valid (no
 * overlong form, no surrogate, at most U+10FFFF) jansson decides.
 */
static size_t utf8_len(unsigned char lead)
{
	if (lead < 0x80)
		return 1;
	if (lead >= 0xc2 && lead <= 0xdf)
		return 2;
	if (lead >= 0xe0 && lead <= 0xef)
		return 3;
	if (lead >= 0xf0 && lead <= 0xf4)
		return 4;
	return 0;
}

static bool valid_seq(const char *s, size_t k)
{
	json_t *j;
	size_t i;

	for (i = 1; i < k; i++)
		if (s[i] == '\0')
			return false;
	j = json_stringn(s, k);
	json_decref(j);
	return j != NULL;
}

char *codec_clean_text(const char *s, bool controls)
{
	size_t n = s ? strlen(s) : 0, i = 0, o = 0;
	char *out = malloc(n * 4 + 1);

	if (!out)
		return NULL;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t k = utf8_len(c);

		if (k && i + k <= n && valid_seq(s + i, k) &&
		    !(controls && k == 1 && (c < 0x20 || c == 0x7f))) {
			memcpy(out + o, s + i, k);
			o += k;
			i += k;
		} else {
			o += (size_t)sprintf(out + o, "\\x%02x", c);
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

json_t *codec_json_text(const char *s)
{
	json_t *j = json_string(s ? s : "");
	char *clean;

	if (j)
		return j;
	clean = codec_clean_text(s, false);
	j = clean ? json_string(clean) : NULL;
	free(clean);
	return j;
}

/* ---- writing ---- */

static json_t *num_or_null(double v)
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
		json_array_append_new(a, num_or_null(v[i]));
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

		json_array_append_new(other, num_or_null(l->other_cpu_pct[k]));
		json_array_append_new(steal, num_or_null(l->steal_pct[k]));
		json_array_append_new(canary, json_real(l->canary_ns[k]));
		json_array_append_new(flagged, json_boolean(l->flags[k] != 0));
		result_flag_text(l->flags[k], w, sizeof(w));
		json_array_append_new(why, json_string(w));
	}
	json_object_set_new(o, "canary_ns", canary);
	json_object_set_new(o, "canary_ref_ns", json_real(l->canary_ref_ns));
	json_object_set_new(o, "flagged", flagged);
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

/* A log2 histogram as [[lower bound ns, count], ...] of its non-empty
   buckets. */
static json_t *log2_json(const uint64_t *h)
{
	json_t *a = json_array();
	size_t b;

	for (b = 0; a && b < KV_LOG2_BUCKETS; b++)
		if (h[b])
			json_array_append_new(a, json_pack(
				"[I, I]", (json_int_t)(b ? 1ULL << b : 0),
				(json_int_t)h[b]));
	return a;
}

static json_t *kernel_lock_json(const struct result_kernel *k)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < k->nlocks; i++) {
		const struct kv_lock_row *r = &k->locks[i];

		json_array_append_new(a, json_pack(
			"{s:o, s:I, s:o, s:I, s:b, s:I, s:o}",
			"caller", codec_json_text(r->caller),
			"contended", (json_int_t)r->contended,
			"hist", log2_json(r->hist),
			"max_ns", (json_int_t)r->max_ns,
			"other", r->other,
			"total_ns", (json_int_t)r->total_ns,
			"type", codec_json_text(r->type)));
	}
	return a;
}

static json_t *kernel_sched_json(const struct result_kernel *k)
{
	json_t *cpus = json_array();
	size_t i;

	for (i = 0; cpus && i < k->nwake_cpu; i++)
		json_array_append_new(cpus, json_integer(
			(json_int_t)k->wake_cpu[i]));
	return json_pack("{s:o, s:o, s:I, s:o, s:I, s:I, s:I, s:I, s:I}",
			 "cpus", cpus, "hist", log2_json(k->wake_hist),
			 "max_ns", (json_int_t)k->wake_max_ns,
			 "mean_ns", num_or_null(k->wake_mean_ns),
			 "p50_ns", (json_int_t)k->wake_p50_ns,
			 "p99_ns", (json_int_t)k->wake_p99_ns,
			 "preemptions", (json_int_t)k->preemptions,
			 "rq_wait_ns", (json_int_t)k->rq_wait_ns,
			 "wakeups", (json_int_t)k->wakeups);
}

static json_t *kernel_sys_json(const struct result_kernel *k)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < k->nsys; i++) {
		const struct kv_sys_row *r = &k->sys[i];

		json_array_append_new(a, json_pack(
			"{s:I, s:I, s:o, s:i, s:I, s:I}",
			"count", (json_int_t)r->count,
			"max_ns", (json_int_t)r->max_ns,
			"name", codec_json_text(r->name), "nr", r->nr,
			"p99_ns", (json_int_t)r->p99_ns,
			"total_ns", (json_int_t)r->total_ns));
	}
	return json_pack("{s:o, s:I, s:o}", "calls", a,
			 "sys_ns", (json_int_t)k->sys_ns,
			 "thread_ns", num_or_null(k->thread_ns));
}

/* The kernel views of a configuration (results/kernel_records.h). */
static json_t *kernel_json(const struct result_kernel *k)
{
	json_t *o;
	char views[32];

	kview_mask_text(k->views, views, sizeof(views));
	o = json_pack("{s:I, s:I, s:o, s:I, s:o, s:o, s:o}",
		      "lost", (json_int_t)k->lost,
		      "ops", (json_int_t)k->ops,
		      "overhead_pct", num_or_null(k->overhead_pct),
		      "samples", (json_int_t)k->nsamples,
		      "traced_ns_per_op", num_or_null(k->traced_ns_per_op),
		      "untraced_ns_per_op",
		      num_or_null(k->untraced_ns_per_op),
		      "views", json_string(views));
	if (o && k->nwindows) {
		json_t *w = json_array();
		size_t i;

		for (i = 0; w && i < k->nwindows; i++)
			json_array_append_new(w, json_pack(
				"[I, I]", (json_int_t)k->windows[2 * i],
				(json_int_t)k->windows[2 * i + 1]));
		json_object_set_new(o, "windows", w);
	}
	if (o && (k->views & KVIEW_LOCK))
		json_object_set_new(o, "lock", kernel_lock_json(k));
	if (o && (k->views & KVIEW_SCHED))
		json_object_set_new(o, "sched", kernel_sched_json(k));
	if (o && (k->views & KVIEW_SYSCALL))
		json_object_set_new(o, "syscall", kernel_sys_json(k));
	return o;
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
			"{s:o, s:I, s:o, s:o}",
			"added_ns", num_or_null(c->inject_added_ns),
			"asked_ns", (json_int_t)c->inject_ns,
			"base_ns", num_or_null(c->inject_base_ns),
			"err_ns", num_or_null(c->inject_err_ns)));
	if (c->load && c->nsamples)
		json_object_set_new(o, "interference", load_json(c));
	if (c->interleaved)
		json_object_set_new(o, "interleave", interleave_json(c));
	json_object_set_new(o, "job", json_integer(c->job));
	if (r->traced && c->kernel && !strcmp(r->metric, KVIEW_METRIC_TIME))
		json_object_set_new(o, "kernel", kernel_json(c->kernel));
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
			"reached_pct", num_or_null(c->precision_pct),
			"time_ns", (json_int_t)c->precision_time_ns));
	if (c->status)
		json_object_set_new(o, "status", codec_json_text(c->status));
	if (c->target_ns > 0)
		json_object_set_new(o, "target_ns",
				    json_integer((json_int_t)c->target_ns));
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

static char *dup_str(json_t *v)
{
	const char *s = json_string_value(v);

	return strdup(s ? s : "");
}

static uint64_t juint(json_t *v)
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
		v[i] = juint(x);
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

		rw->name = dup_str(json_object_get(w, "name"));
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
	}
	if (json_is_true(flagged) && !f)
		f = RESULT_FLAG_UNKNOWN;
	return f;
}

static double num_or_nan(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
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
		l->other_cpu_pct[k] = num_or_nan(json_array_get(other, k));
		l->steal_pct[k] = num_or_nan(json_array_get(steal, k));
		l->canary_ns[k] = num_or_nan(json_array_get(canary, k));
		l->flags[k] = flags_of(json_array_get(flagged, k),
				       json_array_get(why, k));
	}
	l->canary_ref_ns = num_or_nan(json_object_get(it, "canary_ref_ns"));
	return 0;
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

		p->name = dup_str(json_object_get(w, "name"));
		if (!p->name)
			return -1;
		p->ops = juint(json_object_get(w, "ops"));
		p->mean_ns = num_or_nan(json_object_get(w, "mean_ns"));
		p->p50_ns = juint(json_object_get(w, "p50_ns"));
		p->p99_ns = juint(json_object_get(w, "p99_ns"));
		p->max_ns = juint(json_object_get(w, "max_ns"));
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

/* The kept samples' lengths, when there is one per kept sample. */
static int decode_windows(struct result_config *c, json_t *a)
{
	size_t i;

	if (!json_is_array(a) || json_array_size(a) != c->nsamples ||
	    c->nsamples == 0)
		return 0;
	c->window_ns = calloc(c->nsamples, sizeof(double));
	if (!c->window_ns)
		return -1;
	for (i = 0; i < c->nsamples; i++)
		c->window_ns[i] = num_or_nan(json_array_get(a, i));
	return 0;
}

static int log2_decode(uint64_t *h, json_t *a)
{
	size_t i;

	for (i = 0; i < json_array_size(a); i++) {
		json_t *pair = json_array_get(a, i);
		json_t *lo = json_array_get(pair, 0);

		if (!json_is_integer(lo) || json_integer_value(lo) < 0)
			return -1;
		h[kv_log2_bucket(juint(lo))] +=
			juint(json_array_get(pair, 1));
	}
	return 0;
}

static int kernel_lock_decode(struct result_kernel *k, json_t *a)
{
	size_t i;

	k->locks = calloc(json_array_size(a) ? json_array_size(a) : 1,
			  sizeof(*k->locks));
	if (!k->locks)
		return -1;
	for (i = 0; i < json_array_size(a); i++) {
		json_t *it = json_array_get(a, i);
		struct kv_lock_row *r = &k->locks[k->nlocks++];

		r->type = dup_str(json_object_get(it, "type"));
		r->caller = dup_str(json_object_get(it, "caller"));
		if (!r->type || !r->caller)
			return -1;
		r->other = json_is_true(json_object_get(it, "other"));
		r->contended = juint(json_object_get(it, "contended"));
		r->total_ns = juint(json_object_get(it, "total_ns"));
		r->max_ns = juint(json_object_get(it, "max_ns"));
		if (log2_decode(r->hist, json_object_get(it, "hist")))
			return -1;
	}
	return 0;
}

static int kernel_sched_decode(struct result_kernel *k, json_t *s)
{
	json_t *cpus = json_object_get(s, "cpus");
	size_t i;

	k->wakeups = juint(json_object_get(s, "wakeups"));
	k->wake_p50_ns = juint(json_object_get(s, "p50_ns"));
	k->wake_p99_ns = juint(json_object_get(s, "p99_ns"));
	k->wake_max_ns = juint(json_object_get(s, "max_ns"));
	k->wake_mean_ns = num_or_nan(json_object_get(s, "mean_ns"));
	k->rq_wait_ns = juint(json_object_get(s, "rq_wait_ns"));
	k->preemptions = juint(json_object_get(s, "preemptions"));
	if (log2_decode(k->wake_hist, json_object_get(s, "hist")))
		return -1;
	if (json_array_size(cpus)) {
		k->wake_cpu = calloc(json_array_size(cpus),
				     sizeof(*k->wake_cpu));
		if (!k->wake_cpu)
			return -1;
		for (i = 0; i < json_array_size(cpus); i++)
			k->wake_cpu[k->nwake_cpu++] =
				juint(json_array_get(cpus, i));
	}
	return 0;
}

static int kernel_sys_decode(struct result_kernel *k, json_t *s)
{
	json_t *a = json_object_get(s, "calls");
	size_t i;

	k->sys_ns = juint(json_object_get(s, "sys_ns"));
	k->thread_ns = num_or_nan(json_object_get(s, "thread_ns"));
	k->sys = calloc(json_array_size(a) ? json_array_size(a) : 1,
			sizeof(*k->sys));
	if (!k->sys)
		return -1;
	for (i = 0; i < json_array_size(a); i++) {
		json_t *it = json_array_get(a, i);
		struct kv_sys_row *r = &k->sys[k->nsys++];

		r->nr = (int)json_integer_value(json_object_get(it, "nr"));
		r->name = dup_str(json_object_get(it, "name"));
		if (!r->name)
			return -1;
		r->count = juint(json_object_get(it, "count"));
		r->total_ns = juint(json_object_get(it, "total_ns"));
		r->p99_ns = juint(json_object_get(it, "p99_ns"));
		r->max_ns = juint(json_object_get(it, "max_ns"));
	}
	return 0;
}

/*
 * info's "kernel" (the --kernel views, on the traced time result) into
 * c->kernel.  0 (also when there is none), or -1 on ENOMEM or a
 * malformed histogram.
 */
static int kernel_decode(struct result_config *c, json_t *o)
{
	struct result_kernel *k;
	char err[128];

	if (!json_is_object(o) || c->kernel)
		return 0;
	k = c->kernel = calloc(1, sizeof(*k));
	if (!k)
		return -1;
	if (kview_parse(json_string_value(json_object_get(o, "views")) ?
			json_string_value(json_object_get(o, "views")) : "",
			&k->views, err, sizeof(err)) != 0)
		k->views = 0;	/* written by a later copyscope */
	k->nsamples = (size_t)juint(json_object_get(o, "samples"));
	k->ops = juint(json_object_get(o, "ops"));
	k->lost = juint(json_object_get(o, "lost"));
	k->traced_ns_per_op = num_or_nan(json_object_get(o,
							 "traced_ns_per_op"));
	k->untraced_ns_per_op = num_or_nan(json_object_get(
		o, "untraced_ns_per_op"));
	k->overhead_pct = num_or_nan(json_object_get(o, "overhead_pct"));
	if (json_array_size(json_object_get(o, "windows"))) {
		json_t *w = json_object_get(o, "windows");
		size_t i, n = json_array_size(w);

		k->windows = calloc(2 * n, sizeof(*k->windows));
		if (!k->windows)
			return -1;
		for (i = 0; i < n; i++) {
			k->windows[2 * i] = juint(json_array_get(
				json_array_get(w, i), 0));
			k->windows[2 * i + 1] = juint(json_array_get(
				json_array_get(w, i), 1));
		}
		k->nwindows = n;
	}
	if (((k->views & KVIEW_LOCK) &&
	     kernel_lock_decode(k, json_object_get(o, "lock"))) ||
	    ((k->views & KVIEW_SCHED) &&
	     kernel_sched_decode(k, json_object_get(o, "sched"))) ||
	    ((k->views & KVIEW_SYSCALL) &&
	     kernel_sys_decode(k, json_object_get(o, "syscall"))))
		return -1;
	return 0;
}

/* Everything of info that belongs to the configuration. */
static int config_decode(struct result_config *c, json_t *info)
{
	json_t *v = json_object_get(info, "verify");
	bool bad = false;
	size_t n;

	c->job = (int)json_integer_value(json_object_get(info, "job"));
	c->batch_ops = juint(json_object_get(info, "batch_ops"));
	if (json_string_value(json_object_get(info, "note"))) {
		free(c->note);
		c->note = dup_str(json_object_get(info, "note"));
		if (!c->note)
			return -1;
	}
	if (workers_decode(c, json_object_get(info, "workers")) ||
	    load_decode(c, json_object_get(info, "interference")) ||
	    per_worker_decode(c, json_object_get(info, "per_worker")) ||
	    interleave_decode(c, json_object_get(info, "interleave")))
		return -1;
	/* the kept samples: the load's count, else the counters' length */
	n = json_array_size(json_object_get(info, "ctx_switches"));
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
	if (json_is_object(json_object_get(info, "inject"))) {
		json_t *in = json_object_get(info, "inject");

		c->inject_ns = json_integer_value(json_object_get(in,
								  "asked_ns"));
		c->inject_added_ns = num_or_nan(json_object_get(in,
								"added_ns"));
		c->inject_err_ns = num_or_nan(json_object_get(in, "err_ns"));
		c->inject_base_ns = num_or_nan(json_object_get(in,
							       "base_ns"));
	}
	if (json_is_object(json_object_get(info, "precision"))) {
		json_t *pr = json_object_get(info, "precision");

		c->precision_asked_pct = json_number_value(
			json_object_get(pr, "asked_pct"));
		c->precision_met = json_is_true(json_object_get(pr, "met"));
		c->precision_metric = dup_str(json_object_get(pr, "metric"));
		c->precision_pct = num_or_nan(json_object_get(pr,
							     "reached_pct"));
		c->precision_time_ns = json_integer_value(
			json_object_get(pr, "time_ns"));
		if (!c->precision_metric)
			return -1;
	}
	if (decode_windows(c, json_object_get(info, "window_ns")))
		return -1;
	if (json_is_object(v)) {
		c->verified = true;
		c->verify_errors = (long)json_integer_value(
			json_object_get(v, "errors"));
		c->verify_report = dup_str(json_object_get(v, "report"));
		if (!c->verify_report)
			return -1;
	}
	if (json_string_value(json_object_get(info, "status"))) {
		c->status = dup_str(json_object_get(info, "status"));
		c->message = dup_str(json_object_get(info, "message"));
		if (!c->status || !c->message)
			return -1;
	}
	return 0;
}

int result_params_decode(struct result_config *c, const char *params_json)
{
	json_t *p = json_loads(params_json, 0, NULL), *val;
	size_t n, i;
	void *it;
	int rc = -1;

	if (!json_is_object(p))
		goto out;
	for (it = json_object_iter(p); it; it = json_object_iter_next(p, it))
		if (!json_is_string(json_object_iter_value(it)))
			goto out;
	n = json_object_size(p);
	c->params = calloc(n ? n : 1, sizeof(*c->params));
	c->params_json = strdup(params_json);
	if (!c->params || !c->params_json)
		goto out;
	/* declared order first, then anything this build does not know */
	for (i = 0; c->wl && i < c->wl->nparams; i++) {
		val = json_object_get(p, c->wl->params[i].name);
		if (!val)
			continue;
		c->params[c->nparams].name = strdup(c->wl->params[i].name);
		c->params[c->nparams].value = dup_str(val);
		if (!c->params[c->nparams].name ||
		    !c->params[c->nparams].value)
			goto out;
		c->nparams++;
	}
	for (it = json_object_iter(p); it; it = json_object_iter_next(p, it)) {
		const char *key = json_object_iter_key(it);

		val = json_object_iter_value(it);
		if (result_param(c, key))
			continue;
		c->params[c->nparams].name = strdup(key);
		c->params[c->nparams].value = dup_str(val);
		if (!c->params[c->nparams].name ||
		    !c->params[c->nparams].value)
			goto out;
		c->nparams++;
	}
	rc = 0;
out:
	json_decref(p);
	return rc;
}

char *result_params_without(const char *params_json,
			    const char *const *keys, size_t nkeys)
{
	json_t *p = json_loads(params_json, 0, NULL);
	char *s = NULL;
	size_t k;

	if (!json_is_object(p)) {
		json_decref(p);
		return NULL;
	}
	for (k = 0; k < nkeys; k++)
		json_object_del(p, keys[k]);
	s = json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(p);
	return s;
}

static int hist_decode(struct result *r, json_t *h, struct result_row *row)
{
	if (!json_is_object(h) && !row->nbuckets)
		return 0;
	r->hist = calloc(1, sizeof(*r->hist));
	if (!r->hist)
		return -1;
	r->hist->of = dup_str(json_object_get(h, "of"));
	if (!r->hist->of)
		return -1;
	r->hist->ops = juint(json_object_get(h, "ops"));
	r->hist->min_ns = juint(json_object_get(h, "min"));
	r->hist->max_ns = juint(json_object_get(h, "max"));
	r->hist->mean_ns = num_or_nan(json_object_get(h, "mean"));
	return 0;
}

static bool same_config(const struct result_set *set,
			const struct result_row *row, int job)
{
	const struct result_config *c;

	if (set->n == 0)
		return false;
	c = set->v[set->n - 1].cfg;
	return strcmp(c->workload, row->workload) == 0 &&
	       strcmp(c->params_json, row->params_json) == 0 && c->job == job;
}

struct result *result_decode_row(struct result_set *set,
				 struct result_row *row, char *err,
				 size_t errlen)
{
	json_t *info = NULL;
	struct result_config *c;
	struct result *r;
	json_error_t je;
	int job;

	if (row->info_json) {
		info = json_loads(row->info_json, 0, &je);
		if (!json_is_object(info)) {
			snprintf(err, errlen, "result %lld (%s %s): its info "
				 "is not a JSON object: %s",
				 (long long)row->id, row->workload,
				 row->metric, je.text);
			json_decref(info);
			return NULL;
		}
	}
	job = (int)json_integer_value(json_object_get(info, "job"));
	if (same_config(set, row, job)) {
		c = set->v[set->n - 1].cfg;
	} else {
		c = result_set_new_config(set);
		if (!c)
			goto nomem;
		c->workload = strdup(row->workload);
		if (!c->workload)
			goto nomem;
		c->wl = workload_find(row->workload);
		if (result_params_decode(c, row->params_json) != 0) {
			snprintf(err, errlen, "result %lld (%s %s): its "
				 "parameters are not a JSON object of "
				 "strings", (long long)row->id, row->workload,
				 row->metric);
			json_decref(info);
			return NULL;
		}
		if (config_decode(c, info) != 0)
			goto nomem;
	}
	r = result_set_new_result(set, c);
	if (!r)
		goto nomem;
	r->id = row->id;
	r->seq = row->seq;
	r->direction = row->direction;
	r->trace = json_is_true(json_object_get(info, "trace"));
	r->traced = json_is_true(json_object_get(info, "traced"));
	if (kernel_decode(c, json_object_get(info, "kernel")) != 0)
		goto nomem_r;
	r->metric = strdup(row->metric);
	r->unit = strdup(row->unit);
	if (!r->metric || !r->unit ||
	    hist_decode(r, json_object_get(info, "hist"), row) != 0)
		goto nomem_r;
	r->samples = row->samples;
	r->nsamples = row->nsamples;
	if (r->hist) {
		r->hist->buckets = row->buckets;
		r->hist->nbuckets = row->nbuckets;
	}
	if (result_finalize(r) != 0) {
		/* the arrays are the result's now; the set frees them */
		row->samples = NULL;
		row->buckets = NULL;
		goto nomem;
	}
	row->samples = NULL;
	row->buckets = r->hist ? NULL : row->buckets;
	json_decref(info);
	return r;
nomem_r:
	/* drop the half-made result; its config stays in the set */
	free(r->metric);
	free(r->unit);
	if (r->hist) {
		free(r->hist->of);
		free(r->hist);
	}
	set->n--;
	set->next_seq--;
nomem:
	snprintf(err, errlen, "cannot load results: %s", strerror(ENOMEM));
	json_decref(info);
	return NULL;
}

/* ---- the run's header ---- */

static json_t *options_json(const struct run_info *run)
{
	const struct run_options *o = &run->opts;

	if (!run->have_options)
		return json_null();
	char views[32];

	kview_mask_text(o->kviews, views, sizeof(views));
	return json_pack("{s:i, s:I, s:I, s:o, s:b, s:o, s:s, s:b}",
			 "reps", o->reps,
			 "sample_time_ns", (json_int_t)o->sample_time_ns,
			 "warmup_ns", (json_int_t)o->warmup_ns,
			 "cpus", codec_json_text(o->cpus), "hist", o->hist,
			 "interleave_seed", o->interleave ?
			 json_integer((json_int_t)o->interleave_seed) :
			 json_null(),
			 "kernel_views", views,
			 "perf_counters", o->perf_counters);
}

json_t *codec_run_json(const struct run_info *run)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:o, s:o, "
			 "s:o, s:o, s:o}",
			 "id", (json_int_t)run->id,
			 "uuid", codec_json_text(run->uuid),
			 "group", run->group_id[0] ?
			 codec_json_text(run->group_id) : json_null(),
			 "tag", codec_json_text(run->tag),
			 "host", codec_json_text(run->host),
			 "boot_id", codec_json_text(run->boot_id),
			 "started_ns", (json_int_t)run->started_ns,
			 "finished_ns", (json_int_t)run->finished_ns,
			 "status", codec_json_text(run->status),
			 "tool_version", codec_json_text(run->tool_version),
			 "build_flavour", codec_json_text(run->build_flavour),
			 "cmdline", codec_json_text(run->cmdline),
			 "options", options_json(run));
}

/* String member key of o into buf (len bytes, the text must fit). */
static int get_text(json_t *o, const char *key, char *buf, size_t len,
		    char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);
	const char *s = json_string_value(v);

	if (!json_is_string(v)) {
		snprintf(err, errlen, "'%s' is not a string", key);
		return -1;
	}
	if (strlen(s) >= len || strlen(s) != json_string_length(v)) {
		snprintf(err, errlen, "'%s' is longer than %zu bytes or holds "
			 "a NUL", key, len - 1);
		return -1;
	}
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

static int get_int(json_t *o, const char *key, int64_t lo, int64_t hi,
		   int64_t *out, char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi) {
		snprintf(err, errlen, "'%s' is not an integer in %lld .. %lld",
			 key, (long long)lo, (long long)hi);
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
}

static int get_bool(json_t *o, const char *key, bool *out, char *err,
		    size_t errlen)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_boolean(v)) {
		snprintf(err, errlen, "'%s' is not true or false", key);
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

static int options_decode(json_t *o, struct run_info *run, char *err,
			  size_t errlen)
{
	struct run_options *op = &run->opts;
	json_t *seed = json_object_get(o, "interleave_seed");
	int64_t v;

	if (json_is_null(o))
		return 0;
	if (!json_is_object(o)) {
		snprintf(err, errlen, "'options' is neither an object nor "
			 "null");
		return -1;
	}
	run->have_options = true;
	if (get_int(o, "reps", 1, INT32_MAX, &v, err, errlen))
		return -1;
	op->reps = (int)v;
	if (get_int(o, "sample_time_ns", 0, INT64_MAX, &op->sample_time_ns,
		    err, errlen) ||
	    get_int(o, "warmup_ns", 0, INT64_MAX, &op->warmup_ns, err,
		    errlen) ||
	    get_text(o, "cpus", op->cpus, sizeof(op->cpus), err, errlen) ||
	    get_bool(o, "hist", &op->hist, err, errlen) ||
	    get_bool(o, "perf_counters", &op->perf_counters, err, errlen))
		return -1;
	/* "lock,sched" (run --kernel); absent before it existed */
	if (json_is_string(json_object_get(o, "kernel_views")) &&
	    kview_parse(json_string_value(json_object_get(o,
							  "kernel_views")),
			&op->kviews, err, errlen) != 0 &&
	    json_string_length(json_object_get(o, "kernel_views")) > 0) {
		return -1;
	}
	if (json_is_integer(seed)) {
		op->interleave = true;
		/* written as the seed's 64 bits in a signed integer */
		op->interleave_seed = (uint64_t)json_integer_value(seed);
	} else if (!json_is_null(seed)) {
		snprintf(err, errlen, "'interleave_seed' is neither an "
			 "integer nor null");
		return -1;
	}
	return 0;
}

int codec_run_decode(json_t *o, struct run_info *run, char *err,
		     size_t errlen)
{
	json_t *cmd = json_object_get(o, "cmdline");

	memset(run, 0, sizeof(*run));
	if (!json_is_object(o)) {
		snprintf(err, errlen, "the run is not a JSON object");
		return -1;
	}
	if (get_text(o, "uuid", run->uuid, sizeof(run->uuid), err, errlen) ||
	    get_text(o, "tag", run->tag, sizeof(run->tag), err, errlen) ||
	    get_text(o, "host", run->host, sizeof(run->host), err, errlen) ||
	    get_text(o, "boot_id", run->boot_id, sizeof(run->boot_id), err,
		     errlen) ||
	    get_int(o, "started_ns", 0, INT64_MAX, &run->started_ns, err,
		    errlen) ||
	    get_int(o, "finished_ns", 0, INT64_MAX, &run->finished_ns, err,
		    errlen) ||
	    get_text(o, "status", run->status, sizeof(run->status), err,
		     errlen) ||
	    get_text(o, "tool_version", run->tool_version,
		     sizeof(run->tool_version), err, errlen) ||
	    get_text(o, "build_flavour", run->build_flavour,
		     sizeof(run->build_flavour), err, errlen))
		return -1;
	if (json_is_string(json_object_get(o, "group"))) {
		if (get_text(o, "group", run->group_id, sizeof(run->group_id),
			     err, errlen))
			return -1;
	} else if (!json_is_null(json_object_get(o, "group"))) {
		snprintf(err, errlen, "'group' is neither a string nor null");
		return -1;
	}
	if (!json_is_string(cmd) ||
	    strlen(json_string_value(cmd)) != json_string_length(cmd)) {
		snprintf(err, errlen, "'cmdline' is not a string without NUL");
		return -1;
	}
	if (options_decode(json_object_get(o, "options"), run, err, errlen))
		return -1;
	run->cmdline = strdup(json_string_value(cmd));
	if (!run->cmdline) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	return 0;
}
