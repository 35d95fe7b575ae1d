/*
 * run_options_print.c - a stored run's options as one line (see
 * run_options_print.h).
 */
#include "report/run_options_print.h"

#include <stdio.h>

void run_options_line(const struct run_options *o, char *buf, size_t len)
{
	snprintf(buf, len, "%d samples of >= %.0fms after %.0fms warm-up; "
		 "cpus %s%s%s%s%s", o->reps, o->sample_time_ns / 1e6,
		 o->warmup_ns / 1e6, o->cpus[0] ? o->cpus : "?",
		 o->hist ? "; --hist" : "",
		 o->perf_counters ? "; --perf-counters" : "",
		 o->hw_counters ? "; --hw-counters" : "",
		 o->fresh_workers ? "; --fresh-workers" : "");
}
