/*
 * exchange.h - the export file: whole runs as schema-versioned JSON
 * lines, written by `copyscope export` and read by `copyscope import`
 * (docs/export-format.md).  This is the only place the file is written
 * or read; a result's parameters and info go through results/codec.c as
 * the store keeps them.
 *
 *   {"format":"copyscope-export","schema_version":1,"copyscope":"..."}
 *   {"type":"run","run":{...},"environment":{...},"results":N}
 *   {"type":"result","run":UUID,"seq":S,"workload":..,"params":{..},
 *    "metric":..,"unit":..,"direction":..,"info":{..},"samples":[..],
 *    "histogram":[[lo,hi,count],..]}             N of these per run
 *   ...
 *   {"type":"end","runs":R,"results":M}
 *
 * Runs carry their globally unique id (uuid), never a database's run id,
 * so importing a file twice adds nothing the second time.
 */
#ifndef COPYSCOPE_EXCHANGE_H
#define COPYSCOPE_EXCHANGE_H

#include <stddef.h>
#include <stdio.h>

#include "results/run.h"

#define EXCHANGE_FORMAT "copyscope-export"
/* Version of the line layout; a newer file is refused. */
#define EXCHANGE_SCHEMA_VERSION 1

/*
 * The most a file may hold (docs/export-format.md, "Limits"); reading
 * refuses more, so that a hostile file cannot keep an import busy for
 * long or make every later show slow.  A run of copyscope keeps at most
 * 100000 samples per configuration (--reps, trace=), a tenth of the limit.
 */
#define EXCHANGE_MAX_LINE_BYTES ((size_t)64 * 1024 * 1024)
#define EXCHANGE_MAX_SAMPLES 1000000		/* per result */
#define EXCHANGE_MAX_BUCKETS 100000		/* histogram, per result */
#define EXCHANGE_MAX_RESULTS 1000000		/* per run */
#define EXCHANGE_MAX_ENV_KEYS 10000		/* per run */

/*
 * Write the header line, every run of runs[0..n-1] (a run line, then a
 * line per result) and the end line to out.  Returns 0, or -1 with a
 * message in err (a value JSON cannot hold, ENOMEM, a write error).
 */
int exchange_write(FILE *out, const struct run_data *runs, size_t n,
		   char *err, size_t errlen);

/*
 * Read a whole export file from in (name is how messages call it):
 * every line checked and decoded into runs (*runs malloc'ed, *n of them,
 * each with its environment and its results decoded by results/codec.c
 * and finalized) before anything is returned.  Returns 0; -1 with
 * "NAME:LINE: what is wrong" in err for a malformed, truncated or newer
 * file (nothing returned); -2 with a message when memory ran out.  Free
 * with exchange_free().
 */
int exchange_read(FILE *in, const char *name, struct run_data **runs,
		  size_t *n, char *err, size_t errlen);
void exchange_free(struct run_data *runs, size_t n);

#endif
