/*
 * kview_lock_codec.c - the lock view at the results layer: its descriptor (results/kview_table.h), and its
 * record as info's kernel "lock" array, written and read.
 */
#include "results/kernel_records.h"

#include <stdlib.h>

#include "results/codec.h"
#include "results/codec_priv.h"
#include "results/kview_table.h"

static json_t *lock_encode(const struct result_kernel *k)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < k->nlocks; i++) {
		const struct kv_lock_row *r = &k->locks[i];

		json_array_append_new(a, json_pack(
			"{s:o, s:I, s:o, s:I, s:b, s:I, s:o}",
			"caller", codec_json_text(r->caller),
			"contended", (json_int_t)r->contended,
			"hist", codec_log2_json(r->hist),
			"max_ns", (json_int_t)r->max_ns,
			"other", r->other,
			"total_ns", (json_int_t)r->total_ns,
			"type", codec_json_text(r->type)));
	}
	return a;
}

static int lock_decode(struct result_kernel *k, json_t *a)
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
		if (codec_log2_decode(r->hist, json_object_get(it, "hist")))
			return -1;
	}
	return 0;
}

const struct kview_record_desc kview_lock_record = {
	.name = "lock",
	.attaches = "lock:contention_begin/end",
	.traced = true,
	.encode = lock_encode,
	.decode = lock_decode,
};
