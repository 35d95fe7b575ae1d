/*
 * codec.h - the stored text form of results: a configuration's parameters
 * as canonical JSON and everything else a result carries as an "info" JSON
 * object.  This is the one place that text is written and read: the store
 * keeps it in its results table, `--json` prints it, and every other part
 * of copyscope works on the typed records of results/result.h.
 *
 * info (keys sorted):
 *   batch_ops, job, note, workers [{cpu_requested, cpus, name}],
 *   ctx_switches, migrations, faults ([per sample] or null),
 *   interference {canary_ns, canary_ref_ns, flagged, other_cpu_pct,
 *                 steal_pct, why},
 *   per_worker [{max_ns, mean_ns, name, ops, p50_ns, p99_ns}],
 *   verify {errors, report}, status, message,
 *   interleave {of, order, seed},
 *   target_ns (the sample time asked for), window_ns ([per kept sample]:
 *   how long it took), inject {added_ns, asked_ns, base_ns, err_ns} (the
 *   testing-only injection, measured in place),
 *   and on one result only: hist {max, mean, min, of, ops} (the per-op
 *   histogram's details), trace: true (the cold-call series).
 * The run's header (codec_run_json) is written and read here too.
 *
 * The files: codec.c (safe text, a stored row decoded, the run's
 * header), codec_info.c (the info object), codec_kernel.c (its kernel
 * views), codec_params.c (the parameters, each parsed once by its
 * definition: struct result_param).
 */
#ifndef COPYSCOPE_CODEC_H
#define COPYSCOPE_CODEC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/result.h"
#include "results/run.h"

/*
 * Text that may hold any bytes (a tag, a command line, a path, an error
 * message) made safe: a copy (malloc'ed, NULL on ENOMEM) in which every
 * byte that is not part of valid UTF-8, and with controls also every
 * control character (below 0x20, and 0x7f), is written as the four
 * characters \xNN.  Valid text comes back unchanged.
 */
char *codec_clean_text(const char *s, bool controls);

/*
 * A JSON string of s (a new reference): s itself when it is valid UTF-8,
 * else codec_clean_text(s, false), so that JSON output is always complete
 * and valid.  "" for NULL.
 */
json_t *codec_json_text(const char *s);

/* The info object of r (a new reference), or NULL on ENOMEM. */
json_t *result_info_json(const struct result *r);

/* The same as compact text with sorted keys (malloc'ed), or NULL. */
char *result_info_text(const struct result *r);

/* One result as the store keeps it; the arrays are handed over. */
struct result_row {
	int64_t id;
	int seq;
	const char *workload;
	const char *params_json;
	const char *metric;
	const char *unit;
	int direction;
	const char *info_json;		/* may be NULL */
	double *samples;		/* malloc'ed; owned by the result
					   after a successful decode */
	size_t nsamples;
	struct result_bucket *buckets;	/* malloc'ed, or NULL; likewise */
	size_t nbuckets;
};

/*
 * Decode a stored row into a new result at the end of set, finalized.
 * Consecutive rows of one configuration (the same workload, parameters
 * and job as the set's last result) share its configuration; otherwise
 * the configuration is decoded from the row's info.  Returns the result,
 * or NULL with a message in err (malformed text, ENOMEM); on failure the
 * row's arrays stay the caller's.
 */
struct result *result_decode_row(struct result_set *set,
				 struct result_row *row, char *err,
				 size_t errlen);

/*
 * The parameters of a canonical JSON object into cfg->params (declared
 * order of cfg->wl when known, else the object's order), each with its
 * definition and value parsed (struct result_param), and
 * cfg->params_json (a copy).  0, or -1 when params_json is not a JSON
 * object of strings or memory ran out.
 */
int result_params_decode(struct result_config *cfg, const char *params_json);

/*
 * The parameters of a canonical JSON object in the object's order (keys
 * sorted, as the store keeps them), each value as stored and read as a
 * plain integer where it spells one (no definition: def is NULL), into
 * *out[0 .. *n) (free with result_params_free()).  0, or -1 when
 * params_json is not a JSON object of strings or memory ran out (*out
 * NULL, *n 0).
 */
int result_params_list(const char *params_json, struct result_param **out,
		       size_t *n);
void result_params_free(struct result_param *p, size_t n);

/*
 * params_json less the named keys, as canonical text (malloc'ed), or NULL
 * on ENOMEM or malformed input.
 */
char *result_params_without(const char *params_json,
			    const char *const *keys, size_t nkeys);

/*
 * A run's header as `--json` and export write it (a new reference, NULL
 * on ENOMEM): id, uuid, group (of `run --runs N`; null alone), tag,
 * host, boot_id, started_ns, finished_ns,
 * status, tool_version, build_flavour, cmdline and options (one member
 * per field of results/run_options.h: reps, sample_time_ns, warmup_ns,
 * cpus, hist, interleave_seed, kernel_views, perf_counters; null for a run
 * stored without them).
 */
json_t *codec_run_json(const struct run_info *run);

/*
 * Read a run's header as codec_run_json() writes it into run (zeroed
 * first; "id" is not read: ids belong to one database).  Every member
 * must be there with its type, texts must fit run's fields.  Returns 0,
 * or -1 with a message naming the member in err (run_info_free() it
 * either way).
 */
int codec_run_decode(json_t *o, struct run_info *run, char *err,
		     size_t errlen);

#endif
