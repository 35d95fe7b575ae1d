/*
 * codec_kernel.c - info's "kernel" object (see codec.h): the --kernel
 * views of a configuration (results/kernel_records.h), written and read.
 */
#include "results/codec.h"

#include <stdlib.h>
#include <string.h>

#include "results/codec_priv.h"
#include "results/kernel_records.h"

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
			 "mean_ns", codec_num_or_null(k->wake_mean_ns),
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
			 "thread_ns", codec_num_or_null(k->thread_ns));
}

/* The kernel views of a configuration (results/kernel_records.h). */
json_t *codec_kernel_json(const struct result_kernel *k)
{
	json_t *o;
	char views[32];

	kview_mask_text(k->views, views, sizeof(views));
	o = json_pack("{s:I, s:I, s:o, s:I, s:o, s:o, s:o}",
		      "lost", (json_int_t)k->lost,
		      "ops", (json_int_t)k->ops,
		      "overhead_pct", codec_num_or_null(k->overhead_pct),
		      "samples", (json_int_t)k->nsamples,
		      "traced_ns_per_op",
		      codec_num_or_null(k->traced_ns_per_op),
		      "untraced_ns_per_op",
		      codec_num_or_null(k->untraced_ns_per_op),
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

static int log2_decode(uint64_t *h, json_t *a)
{
	size_t i;

	for (i = 0; i < json_array_size(a); i++) {
		json_t *pair = json_array_get(a, i);
		json_t *lo = json_array_get(pair, 0);

		if (!json_is_integer(lo) || json_integer_value(lo) < 0)
			return -1;
		h[kv_log2_bucket(codec_juint(lo))] +=
			codec_juint(json_array_get(pair, 1));
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

		r->type = codec_dup_str(json_object_get(it, "type"));
		r->caller = codec_dup_str(json_object_get(it, "caller"));
		if (!r->type || !r->caller)
			return -1;
		r->other = json_is_true(json_object_get(it, "other"));
		r->contended = codec_juint(json_object_get(it, "contended"));
		r->total_ns = codec_juint(json_object_get(it, "total_ns"));
		r->max_ns = codec_juint(json_object_get(it, "max_ns"));
		if (log2_decode(r->hist, json_object_get(it, "hist")))
			return -1;
	}
	return 0;
}

static int kernel_sched_decode(struct result_kernel *k, json_t *s)
{
	json_t *cpus = json_object_get(s, "cpus");
	size_t i;

	k->wakeups = codec_juint(json_object_get(s, "wakeups"));
	k->wake_p50_ns = codec_juint(json_object_get(s, "p50_ns"));
	k->wake_p99_ns = codec_juint(json_object_get(s, "p99_ns"));
	k->wake_max_ns = codec_juint(json_object_get(s, "max_ns"));
	k->wake_mean_ns = codec_num_or_nan(json_object_get(s, "mean_ns"));
	k->rq_wait_ns = codec_juint(json_object_get(s, "rq_wait_ns"));
	k->preemptions = codec_juint(json_object_get(s, "preemptions"));
	if (log2_decode(k->wake_hist, json_object_get(s, "hist")))
		return -1;
	if (json_array_size(cpus)) {
		k->wake_cpu = calloc(json_array_size(cpus),
				     sizeof(*k->wake_cpu));
		if (!k->wake_cpu)
			return -1;
		for (i = 0; i < json_array_size(cpus); i++)
			k->wake_cpu[k->nwake_cpu++] =
				codec_juint(json_array_get(cpus, i));
	}
	return 0;
}

static int kernel_sys_decode(struct result_kernel *k, json_t *s)
{
	json_t *a = json_object_get(s, "calls");
	size_t i;

	k->sys_ns = codec_juint(json_object_get(s, "sys_ns"));
	k->thread_ns = codec_num_or_nan(json_object_get(s, "thread_ns"));
	k->sys = calloc(json_array_size(a) ? json_array_size(a) : 1,
			sizeof(*k->sys));
	if (!k->sys)
		return -1;
	for (i = 0; i < json_array_size(a); i++) {
		json_t *it = json_array_get(a, i);
		struct kv_sys_row *r = &k->sys[k->nsys++];

		r->nr = (int)json_integer_value(json_object_get(it, "nr"));
		r->name = codec_dup_str(json_object_get(it, "name"));
		if (!r->name)
			return -1;
		r->count = codec_juint(json_object_get(it, "count"));
		r->total_ns = codec_juint(json_object_get(it, "total_ns"));
		r->p99_ns = codec_juint(json_object_get(it, "p99_ns"));
		r->max_ns = codec_juint(json_object_get(it, "max_ns"));
	}
	return 0;
}

/*
 * info's "kernel" (the --kernel views, on the traced time result) into
 * c->kernel.  0 (also when there is none), or -1 on ENOMEM or a
 * malformed histogram.
 */
int codec_kernel_decode(struct result_config *c, json_t *o)
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
	k->nsamples = (size_t)codec_juint(json_object_get(o, "samples"));
	k->ops = codec_juint(json_object_get(o, "ops"));
	k->lost = codec_juint(json_object_get(o, "lost"));
	k->traced_ns_per_op = codec_num_or_nan(json_object_get(o,
							 "traced_ns_per_op"));
	k->untraced_ns_per_op = codec_num_or_nan(json_object_get(
		o, "untraced_ns_per_op"));
	k->overhead_pct = codec_num_or_nan(json_object_get(o, "overhead_pct"));
	if (json_array_size(json_object_get(o, "windows"))) {
		json_t *w = json_object_get(o, "windows");
		size_t i, n = json_array_size(w);

		k->windows = calloc(2 * n, sizeof(*k->windows));
		if (!k->windows)
			return -1;
		for (i = 0; i < n; i++) {
			k->windows[2 * i] = codec_juint(json_array_get(
				json_array_get(w, i), 0));
			k->windows[2 * i + 1] = codec_juint(json_array_get(
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
