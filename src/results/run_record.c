/*
 * run_record.c - freeing runs, and a run's options as "run.*" key/value text
 * (see run.h).
 */
#include "results/run.h"

#include "results/kernel_records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void run_info_free(struct run_info *info)
{
	free(info->cmdline);
	memset(info, 0, sizeof(*info));
}

void run_data_free(struct run_data *run)
{
	run_info_free(&run->info);
	env_free(&run->env);
	result_set_free(&run->results);
	free(run->observation);
	run->observation = NULL;
}

int run_options_env(const struct run_info *run, struct env *out)
{
	const struct run_options *o = &run->opts;
	char b[64];

	if (!run->have_options)
		return 0;
	snprintf(b, sizeof(b), "%d", o->reps);
	if (env_set(out, "run.reps", b))
		return -1;
	snprintf(b, sizeof(b), "%lld", (long long)o->sample_time_ns);
	if (env_set(out, "run.sample_time_ns", b))
		return -1;
	snprintf(b, sizeof(b), "%lld", (long long)o->warmup_ns);
	if (env_set(out, "run.warmup_ns", b) ||
	    env_set(out, "run.cpus", o->cpus[0] ? o->cpus : "unavailable") ||
	    env_set(out, "run.hist", o->hist ? "1" : "0") ||
	    env_set(out, "run.interleave", o->interleave ? "1" : "0") ||
	    env_set(out, "run.perf_counters", o->perf_counters ? "1" : "0"))
		return -1;
	if (o->kviews) {
		/* only when asked: runs without it stay alike */
		kview_mask_text(o->kviews, b, sizeof(b));
		if (env_set(out, "run.kernel_views", b))
			return -1;
	}
	return 0;
}
