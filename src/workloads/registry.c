/*
 * registry.c - the one explicit table of all workloads, and the suites.
 *
 * Adding a workload: define its descriptor in its family's file, declare
 * it in workloads.h, list it here.  The table is validated at start-up and
 * by tests/unit/test_registry.c.
 */
#include <string.h>

#include "workloads/workloads.h"

const struct workload *const workload_table[] = {
	&wl_sys_null,
	&wl_pipe_bw,
};

const size_t workload_count =
	sizeof(workload_table) / sizeof(workload_table[0]);

static const char *const no_args[] = { NULL };
static const char *const pipe_sizes[] = { "size=4k,16k,64k,256k,1M", NULL };
static const char *const sys_calls[] = { "call=gettid,getppid", NULL };
static const char *const quick_pipe[] = { "size=4k,64k", "verify=1", NULL };

/* E1 and E4's baseline at their published parameters. */
static const struct suite_entry default_entries[] = {
	{ "sys.null", no_args },
	{ "pipe.bw", no_args },
};

static const struct suite_entry quick_entries[] = {
	{ "sys.null", no_args },
	{ "pipe.bw", quick_pipe },
};

static const struct suite_entry pipe_entries[] = {
	{ "pipe.bw", no_args },
	{ "pipe.bw", pipe_sizes },
};

static const struct suite_entry sys_entries[] = {
	{ "sys.null", sys_calls },
};

#define SUITE(n, s, e, q)						\
	static const struct suite suite_##n = {				\
		.name = #n, .summary = (s), .entries = (e),			\
		.nentries = sizeof(e) / sizeof((e)[0]), .quick = (q),	\
	}

SUITE(default, "the published experiments at their parameters",
      default_entries, false);
SUITE(quick, "everything, tiny, for tests", quick_entries, true);
SUITE(pipe, "pipe bandwidth: E1 and a size sweep", pipe_entries, false);
SUITE(sys, "system call costs", sys_entries, false);

const struct suite *const suite_table[] = {
	&suite_default, &suite_quick, &suite_pipe, &suite_sys,
};

const size_t suite_count = sizeof(suite_table) / sizeof(suite_table[0]);

const struct suite *suite_find(const char *name)
{
	size_t i;

	for (i = 0; i < suite_count; i++)
		if (strcmp(suite_table[i]->name, name) == 0)
			return suite_table[i];
	return NULL;
}
