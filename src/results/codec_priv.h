/*
 * codec_priv.h - what the files of the codec (codec.c, codec_info.c,
 * codec_kernel.c, codec_params.c, the kernel views' kview_*_codec.c)
 * share and nothing else includes: the small JSON readers and writers,
 * and the pieces of a result's info that one file writes or reads for
 * another.
 */
#ifndef COPYSCOPE_CODEC_PRIV_H
#define COPYSCOPE_CODEC_PRIV_H

#include <jansson.h>
#include <stdint.h>

#include "results/result.h"

/* v as a JSON real, or null when it is NaN or infinite. */
json_t *codec_num_or_null(double v);

/* v as a number, or NAN when it is not one (null). */
double codec_num_or_nan(json_t *v);

/* A copy of a JSON string ("" for anything else); NULL on ENOMEM. */
char *codec_dup_str(json_t *v);

/* A JSON integer as unsigned (0 for a negative one or a non-integer). */
uint64_t codec_juint(json_t *v);

/*
 * A kernel view's log2 histogram (results/kernel_records.h) as
 * [[lower bound ns, count], ...] of its non-empty buckets (a new
 * reference), and such an array added into h[KV_LOG2_BUCKETS] (0, or -1
 * when malformed): the views' codecs share them.
 */
json_t *codec_log2_json(const uint64_t *h);
int codec_log2_decode(uint64_t *h, json_t *a);

/* The kernel views of a configuration as info's "kernel" (a new
   reference; NULL on ENOMEM). */
json_t *codec_kernel_json(const struct result_kernel *k);

/*
 * info's "kernel" (the --kernel views, on the traced time result) into
 * c->kernel.  0 (also when there is none), or -1 on ENOMEM or a
 * malformed histogram.
 */
int codec_kernel_decode(struct result_config *c, json_t *o);

/*
 * Everything of info that belongs to the configuration into c.  0, or -1
 * on ENOMEM.
 */
int codec_config_decode(struct result_config *c, json_t *info);

#endif
