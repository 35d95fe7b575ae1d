/*
 * codec_kernel.c - info's "kernel" object (see codec.h): the --kernel
 * views of a configuration (results/kernel_records.h), written and read:
 * the traced samples' figures here, each view's record under its name by
 * its descriptor's codec (results/kview_table.h); and the log2
 * histograms the views' codecs share.
 */
#include "results/codec.h"

#include <stdlib.h>
#include <string.h>

#include "results/codec_priv.h"
#include "results/kernel_records.h"

json_t *codec_log2_json(const uint64_t *h)
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

/* The kernel views of a configuration (results/kernel_records.h). */
json_t *codec_kernel_json(const struct result_kernel *k)
{
	json_t *o;
	char views[128];
	int id;

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
	for (id = 0; o && id < KVIEW_NVIEWS; id++)
		if (k->views & KVIEW_BIT(id))
			json_object_set_new(o, kview_records[id]->name,
					    kview_records[id]->encode(k));
	return o;
}

int codec_log2_decode(uint64_t *h, json_t *a)
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

/*
 * info's "kernel" (the --kernel views, on the traced time result) into
 * c->kernel.  0 (also when there is none), or -1 on ENOMEM or a
 * malformed histogram.
 */
int codec_kernel_decode(struct result_config *c, json_t *o)
{
	struct result_kernel *k;
	char err[256];
	int id;

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
	for (id = 0; id < KVIEW_NVIEWS; id++) {
		const struct kview_record_desc *d = kview_records[id];

		if (!(k->views & KVIEW_BIT(id)))
			continue;
		if (d->decode(k, json_object_get(o, d->name)) != 0)
			return -1;
	}
	return 0;
}
