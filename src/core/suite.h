/*
 * suite.h - what a suite is: a named list of workload entries, each with
 * its parameter settings and how the suite's closing summary names it.
 * The suites themselves are defined in src/workloads/ (suite_table,
 * workloads/workloads.h); the type is here so that the layers above can
 * read a suite they are handed.
 */
#ifndef COPYSCOPE_CORE_SUITE_H
#define COPYSCOPE_CORE_SUITE_H

#include <stdbool.h>
#include <stddef.h>

/* One entry of a suite: a workload and its parameter assignments. */
struct suite_entry {
	const char *workload;
	const char *const *args;	/* "key=value" strings, NULL-ended */
};

/*
 * How a suite's closing summary (report/headline_print.c) names an
 * entry: the experiment it reproduces and the metric it is known by.
 */
struct suite_headline {
	const char *label;		/* "E1", or NULL */
	const char *metric;		/* NULL: the workload's first */
};

struct suite {
	const char *name;
	const char *summary;
	const struct suite_entry *entries;
	size_t nentries;
	bool quick;			/* implies --quick timing */
	/* [nentries], or NULL: no labels, every first metric */
	const struct suite_headline *headlines;
};

#endif
