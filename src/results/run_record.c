/*
 * run_record.c - freeing runs, and a run's options as "run.*" key/value text
 * (see run.h).
 */
#include "results/run.h"

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
	char b[256];
	size_t i;

	if (!run->have_options)
		return 0;
	for (i = 0; i < run_option_count; i++)
		if (run_option_env_text(&run->opts, &run_option_fields[i], b,
					sizeof(b)) &&
		    env_set(out, run_option_fields[i].env_key, b))
			return -1;
	return 0;
}
