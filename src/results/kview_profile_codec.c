/*
 * kview_profile_codec.c - the profile view at the results layer: its
 * descriptor (results/kview_table.h), and its record as info's kernel
 * "profile" object, written and read.  The folded stacks are what is
 * kept; the "functions" table (each function's samples, shares and ns
 * per op with their CIs, results/profile_funcs.h) is written beside
 * them for readers of the JSON and rebuilt from the stacks on reading;
 * "per_sample" holds each traced sample's counts by stack and the op's
 * time of its kept sample (what the diffs of comparison/profile_diff.h
 * take).
 */
#include "results/kernel_records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/codec.h"
#include "results/codec_priv.h"
#include "results/kview_table.h"
#include "results/profile_funcs.h"

/* Functions written in the JSON's table. */
#define PROF_JSON_TOP 50

static json_t *ci_json(uint64_t n, uint64_t of, double op_ns)
{
	double lo, hi;

	prof_share_ci(n, of, &lo, &hi);
	return json_pack("[o, o]", codec_num_or_null(lo * op_ns),
			 codec_num_or_null(hi * op_ns));
}

/* The functions, most self samples first: at most PROF_JSON_TOP. */
static json_t *funcs_json(const struct result_kernel *k)
{
	struct prof_func *f;
	long n = prof_functions(k, &f), i;
	double op_ns = prof_op_ns(k), of = (double)k->prof_samples;
	json_t *a = n >= 0 ? json_array() : NULL;

	for (i = 0; a && i < n && i < PROF_JSON_TOP; i++)
		json_array_append_new(a, json_pack(
			"{s:s, s:I, s:o, s:o, s:o, s:I, s:o, s:o, s:o}",
			"function", f[i].name,
			"self_samples", (json_int_t)f[i].self,
			"self_share", codec_num_or_null((double)f[i].self /
							of),
			"self_ns_per_op", codec_num_or_null(
				(double)f[i].self / of * op_ns),
			"self_ci", ci_json(f[i].self, k->prof_samples, op_ns),
			"total_samples", (json_int_t)f[i].total,
			"total_share", codec_num_or_null((double)f[i].total /
							 of),
			"total_ns_per_op", codec_num_or_null(
				(double)f[i].total / of * op_ns),
			"total_ci", ci_json(f[i].total, k->prof_samples,
					    op_ns)));
	prof_funcs_free(f, n);
	return a;
}

/*
 * The traced samples: [{"op_ns": x, "samples": n, "stacks": [[index
 * into "stacks", count], ...]}, ...].
 */
static json_t *per_sample_json(const struct result_kernel *k)
{
	json_t *a = json_array();
	size_t i, j;

	for (i = 0; a && i < k->nprof_per; i++) {
		const struct kv_prof_sample *p = &k->prof_per[i];
		json_t *st = json_array();

		for (j = 0; st && j < p->n; j++)
			json_array_append_new(st, json_pack(
				"[I, I]", (json_int_t)p->stack[j],
				(json_int_t)p->count[j]));
		json_array_append_new(a, json_pack(
			"{s:o, s:I, s:o}", "op_ns", codec_num_or_null(p->op_ns),
			"samples", (json_int_t)p->samples,
			"stacks", st ? st : json_null()));
	}
	return a ? a : json_null();
}

/* "per_sample" back: -1 when it names a stack that is not there. */
static int per_sample_decode(struct result_kernel *k, json_t *a)
{
	size_t i, j;

	if (!json_is_array(a))
		return 0;	/* a run stored before it was recorded */
	k->prof_per = calloc(json_array_size(a) ? json_array_size(a) : 1,
			     sizeof(*k->prof_per));
	if (!k->prof_per)
		return -1;
	for (i = 0; i < json_array_size(a); i++) {
		json_t *o = json_array_get(a, i);
		json_t *st = json_object_get(o, "stacks");
		struct kv_prof_sample *p = &k->prof_per[k->nprof_per++];
		size_t n = json_array_size(st);

		p->op_ns = codec_num_or_nan(json_object_get(o, "op_ns"));
		p->samples = codec_juint(json_object_get(o, "samples"));
		p->stack = malloc((n ? n : 1) * sizeof(*p->stack));
		p->count = malloc((n ? n : 1) * sizeof(*p->count));
		if (!p->stack || !p->count)
			return -1;
		for (j = 0; j < n; j++) {
			json_t *it = json_array_get(st, j);
			uint64_t idx = codec_juint(json_array_get(it, 0));

			if (idx >= k->nstacks)
				return -1;
			p->stack[j] = (uint32_t)idx;
			p->count[j] = codec_juint(json_array_get(it, 1));
		}
		p->n = n;
	}
	return 0;
}

static json_t *prof_encode(const struct result_kernel *k)
{
	json_t *st = json_array(), *o;
	size_t i;

	for (i = 0; st && i < k->nstacks; i++)
		json_array_append_new(st, json_pack(
			"[s, I]", k->stacks[i].frames,
			(json_int_t)k->stacks[i].count));
	o = json_pack("{s:s, s:b, s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
			 "event", k->prof_event, "pmu", k->prof_pmu,
			 "hz", (json_int_t)k->prof_hz,
			 "samples", (json_int_t)k->prof_samples,
			 "outside", (json_int_t)k->prof_outside,
			 "lost", (json_int_t)k->prof_lost,
			 "op_ns", codec_num_or_null(prof_op_ns(k)),
			 "functions", funcs_json(k), "stacks", st);
	/* a run stored before the traced samples were kept has none */
	if (o && k->prof_per &&
	    json_object_set_new(o, "per_sample", per_sample_json(k)) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int prof_decode(struct result_kernel *k, json_t *o)
{
	json_t *a = json_object_get(o, "stacks");
	const char *ev = json_string_value(json_object_get(o, "event"));
	size_t i;

	snprintf(k->prof_event, sizeof(k->prof_event), "%s", ev ? ev : "");
	k->prof_pmu = json_is_true(json_object_get(o, "pmu"));
	k->prof_hz = (unsigned)codec_juint(json_object_get(o, "hz"));
	k->prof_samples = codec_juint(json_object_get(o, "samples"));
	k->prof_outside = codec_juint(json_object_get(o, "outside"));
	k->prof_lost = codec_juint(json_object_get(o, "lost"));
	k->stacks = calloc(json_array_size(a) ? json_array_size(a) : 1,
			   sizeof(*k->stacks));
	if (!k->stacks)
		return -1;
	for (i = 0; i < json_array_size(a); i++) {
		json_t *it = json_array_get(a, i);
		struct kv_prof_stack *s = &k->stacks[k->nstacks];

		if (!json_is_string(json_array_get(it, 0)))
			return -1;
		s->frames = codec_dup_str(json_array_get(it, 0));
		if (!s->frames)
			return -1;
		s->count = codec_juint(json_array_get(it, 1));
		k->nstacks++;
	}
	return per_sample_decode(k, json_object_get(o, "per_sample"));
}

const struct kview_record_desc kview_profile_record = {
	.name = "profile",
	.attaches = "perf_event_open: cycles, else cpu-clock, with "
		    "callchains, per worker",
	.traced = false,
	.encode = prof_encode,
	.decode = prof_decode,
};
