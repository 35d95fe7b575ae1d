/*
 * kview_syscall_codec.c - the syscall view at the results layer: its descriptor (results/kview_table.h), and
 * its record as info's kernel "syscall" object, written and read.
 */
#include "results/kernel_records.h"

#include <stdlib.h>

#include "results/codec.h"
#include "results/codec_priv.h"
#include "results/kview_table.h"

static json_t *sys_encode(const struct result_kernel *k)
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

static int sys_decode(struct result_kernel *k, json_t *o)
{
	json_t *a = json_object_get(o, "calls");
	size_t i;

	k->sys_ns = codec_juint(json_object_get(o, "sys_ns"));
	k->thread_ns = codec_num_or_nan(json_object_get(o, "thread_ns"));
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

const struct kview_record_desc kview_syscall_record = {
	.name = "syscall",
	.attaches = "raw_syscalls:sys_enter/sys_exit",
	.traced = true,
	.encode = sys_encode,
	.decode = sys_decode,
};
