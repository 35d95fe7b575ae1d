/*
 * job_block.h - the blocks of a result list: the results of one job (one
 * workload entry of a run) stand next to each other, and the renderers
 * print them block by block.
 */
#ifndef COPYSCOPE_JOB_BLOCK_H
#define COPYSCOPE_JOB_BLOCK_H

#include <stddef.h>

struct result;

/*
 * The end of the block that starts at res[i] (i < n): the index of the
 * first result after i of another workload or job, or n.
 */
size_t result_block_end(const struct result *res, size_t n, size_t i);

#endif
