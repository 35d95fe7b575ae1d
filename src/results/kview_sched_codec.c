/*
 * kview_sched_codec.c - the sched view at the results layer: its descriptor (results/kview_table.h), and its
 * record as info's kernel "sched" object, written and read.
 */
#include "results/kernel_records.h"

#include <stdlib.h>

#include "results/codec.h"
#include "results/codec_priv.h"
#include "results/kview_table.h"

static json_t *sched_encode(const struct result_kernel *k)
{
	json_t *cpus = json_array();
	size_t i;

	for (i = 0; cpus && i < k->nwake_cpu; i++)
		json_array_append_new(cpus, json_integer(
			(json_int_t)k->wake_cpu[i]));
	return json_pack("{s:o, s:o, s:I, s:o, s:I, s:I, s:I, s:I, s:I}",
			 "cpus", cpus, "hist", codec_log2_json(k->wake_hist),
			 "max_ns", (json_int_t)k->wake_max_ns,
			 "mean_ns", codec_num_or_null(k->wake_mean_ns),
			 "p50_ns", (json_int_t)k->wake_p50_ns,
			 "p99_ns", (json_int_t)k->wake_p99_ns,
			 "preemptions", (json_int_t)k->preemptions,
			 "rq_wait_ns", (json_int_t)k->rq_wait_ns,
			 "wakeups", (json_int_t)k->wakeups);
}

static int sched_decode(struct result_kernel *k, json_t *o)
{
	json_t *cpus = json_object_get(o, "cpus");
	size_t i;

	k->wakeups = codec_juint(json_object_get(o, "wakeups"));
	k->wake_p50_ns = codec_juint(json_object_get(o, "p50_ns"));
	k->wake_p99_ns = codec_juint(json_object_get(o, "p99_ns"));
	k->wake_max_ns = codec_juint(json_object_get(o, "max_ns"));
	k->wake_mean_ns = codec_num_or_nan(json_object_get(o, "mean_ns"));
	k->rq_wait_ns = codec_juint(json_object_get(o, "rq_wait_ns"));
	k->preemptions = codec_juint(json_object_get(o, "preemptions"));
	if (codec_log2_decode(k->wake_hist, json_object_get(o, "hist")))
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

const struct kview_record_desc kview_sched_record = {
	.name = "sched",
	.attaches = "sched:sched_wakeup, sched:sched_switch",
	.traced = true,
	.encode = sched_encode,
	.decode = sched_decode,
};
