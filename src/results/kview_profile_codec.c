/*
 * kview_profile_codec.c - the profile view at the results layer: its
 * descriptor (results/kview_table.h), and its record as info's kernel
 * "profile" object, written and read.  The folded stacks are what is
 * kept; the "functions" table (each function's samples, shares and ns
 * per op with their CIs, results/profile_funcs.h) is written beside
 * them for readers of the JSON and rebuilt from the stacks on reading.
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

static json_t *prof_encode(const struct result_kernel *k)
{
	json_t *st = json_array();
	size_t i;

	for (i = 0; st && i < k->nstacks; i++)
		json_array_append_new(st, json_pack(
			"[s, I]", k->stacks[i].frames,
			(json_int_t)k->stacks[i].count));
	return json_pack("{s:s, s:b, s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
			 "event", k->prof_event, "pmu", k->prof_pmu,
			 "hz", (json_int_t)k->prof_hz,
			 "samples", (json_int_t)k->prof_samples,
			 "outside", (json_int_t)k->prof_outside,
			 "lost", (json_int_t)k->prof_lost,
			 "op_ns", codec_num_or_null(prof_op_ns(k)),
			 "functions", funcs_json(k), "stacks", st);
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
	return 0;
}

const struct kview_record_desc kview_profile_record = {
	.name = "profile",
	.attaches = "perf_event_open: cycles, else cpu-clock, with "
		    "callchains, per worker",
	.encode = prof_encode,
	.decode = prof_decode,
};
