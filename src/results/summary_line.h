/*
 * summary_line.h - one line of a suite's summary: which job of a run it
 * is, and how to name it (the suite entry's label and headline metric).
 * The session plans the lines (from the suites a run names) and the
 * report prints them (report/headline_print.h).
 */
#ifndef COPYSCOPE_RESULTS_SUMMARY_LINE_H
#define COPYSCOPE_RESULTS_SUMMARY_LINE_H

/* One line of the summary: a job of the run and how to name it. */
struct summary_line {
	int job;			/* the results' cfg->job */
	const char *workload;
	const char *label;		/* "E1", or NULL */
	const char *metric;		/* NULL: the workload's first */
};

#endif
