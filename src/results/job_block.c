/*
 * job_block.c - the blocks (one job each) of a result list (see
 * job_block.h).
 */
#include "results/job_block.h"

#include <string.h>

#include "results/result.h"

size_t result_block_end(const struct result *res, size_t n, size_t i)
{
	size_t e = i + 1;

	while (e < n && strcmp(res[e].cfg->workload, res[i].cfg->workload) == 0
	       && res[e].cfg->job == res[i].cfg->job)
		e++;
	return e;
}
