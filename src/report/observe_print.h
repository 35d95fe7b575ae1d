/*
 * observe_print.h - an observation (results/observation.h) printed as text:
 * the pipe writes by the seed's size classes beside their log2
 * histogram and per comm, the lock table per caller and per comm (as
 * perf lock contention -ab prints it) with the mutex wait of pipe
 * callers, the wake-up latencies, the syscalls, drops and notes.
 */
#ifndef COPYSCOPE_REPORT_OBSERVE_H
#define COPYSCOPE_REPORT_OBSERVE_H

#include <stdio.h>

#include "env/env.h"
#include "results/observation.h"
#include "results/run.h"

/* Print o as text to out. */
void report_observation(FILE *out, const struct observation *o);

/*
 * Print a log2 histogram h (bucket b: [2^b, 2^(b+1)) of unit "B" or
 * "ns") as rows "  [lo, hi)  count  |@@@@ |", from its first to its last
 * non-zero bucket; nothing when it is empty.
 */
void report_log2_hist(FILE *out, const uint64_t *h, size_t n,
		      const char *unit);

/*
 * Print an observation run as one JSON document: schema_version, run (its
 * header), environment and observation (o: the stored JSON as
 * results/observation.h's observation_stored_json() reads it; NULL when
 * it was not JSON).  Returns 0, or -1 when o is NULL or on a write or
 * allocation failure.
 */
int report_observation_json(FILE *out, const struct run_info *run,
			    const struct env *env, json_t *o);

/*
 * The HTML report's section of an observation run (json: its stored
 * JSON): the size classes, log2 histograms, comms, lock callers,
 * wake-ups and syscalls as plain tables.
 */
void report_observation_html(FILE *f, const char *json);

#endif
