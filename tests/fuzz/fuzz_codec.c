/*
 * fuzz_codec.c - libFuzzer harness for the decoder of stored results
 * (src/results/codec.c), which reads what the store (and later an
 * import) hands it: the input is a result's parameters JSON and info
 * JSON, separated by the first newline.
 *
 * Checked beyond "no crash, no sanitizer report": a refusal comes with a
 * message; an accepted row decodes to a result whose info, written out
 * and decoded again, writes out the same text (the stored form is a fixed
 * point after one pass).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/codec.h"
#include "workloads/workloads.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct result *decode(struct result_set *set, const char *params,
			     const char *info, const struct result *like,
			     char *err, size_t errlen)
{
	struct result_row row = {
		.id = 1, .workload = "pipe.bw", .params_json = params,
		.metric = "bandwidth", .unit = "bytes/s", .direction = 1,
		.info_json = info,
	};
	struct result *r;

	row.nsamples = like ? like->nsamples : 3;
	row.samples = malloc((row.nsamples + 1) * sizeof(double));
	if (!row.samples)
		return NULL;
	for (size_t i = 0; i < row.nsamples; i++)
		row.samples[i] = like ? like->samples[i] : (double)i;
	if (like && like->hist && like->hist->nbuckets) {
		row.nbuckets = like->hist->nbuckets;
		row.buckets = malloc((row.nbuckets + 1) *
				     sizeof(*row.buckets));
		if (row.buckets)
			memcpy(row.buckets, like->hist->buckets,
			       row.nbuckets * sizeof(*row.buckets));
	}
	r = result_decode_row(set, &row, err, errlen);
	free(row.samples);
	free(row.buckets);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result_set a, b;
	struct result *r, *r2;
	char *text, *nl, *info1, *info2, err[512] = "";

	/* as main() does: the codec finds workloads by name */
	workload_registry_set(workload_table, workload_count);
	if (size > 65536)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	result_set_init(&a);
	result_set_init(&b);
	r = decode(&a, text, nl ? nl + 1 : NULL, NULL, err, sizeof(err));
	if (!r) {
		if (!err[0])
			abort();
		goto out;
	}
	info1 = result_info_text(r);
	if (!info1)
		abort();
	r2 = decode(&b, r->cfg->params_json, info1, r, err, sizeof(err));
	if (!r2) {
		fprintf(stderr, "re-decode failed: %s\n%s\n", err, info1);
		abort();
	}
	info2 = result_info_text(r2);
	if (!info2 || strcmp(info1, info2) != 0) {
		fprintf(stderr, "not a fixed point:\n%s\n%s\n", info1,
			info2 ? info2 : "(null)");
		abort();
	}
	free(info1);
	free(info2);
out:
	result_set_free(&a);
	result_set_free(&b);
	free(text);
	return 0;
}
