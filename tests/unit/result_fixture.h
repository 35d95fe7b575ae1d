/*
 * result_fixture.h - building results-model records in unit tests the way
 * the store does: from the stored text form (parameters and info JSON)
 * through results/codec.c, so every test that builds a result also runs
 * the decoder.  Include after <cmocka.h>.
 */
#ifndef COPYSCOPE_RESULT_FIXTURE_H
#define COPYSCOPE_RESULT_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "results/codec.h"

/*
 * Append a result of workload/metric with parameters params (canonical
 * JSON) and info (JSON or NULL) and the n values x to set; consecutive
 * calls with the same workload, parameters and job share a
 * configuration.  Fails the test when the row does not decode.
 */
static inline struct result *fx_add(struct result_set *set,
				    const char *workload, const char *params,
				    const char *metric, const char *unit,
				    int direction, const double *x, size_t n,
				    const char *info)
{
	struct result_row row = {
		.workload = workload, .params_json = params,
		.metric = metric, .unit = unit, .direction = direction,
		.info_json = info, .nsamples = n, .seq = (int)set->n,
	};
	struct result *r;
	char err[256];

	row.samples = malloc((n ? n : 1) * sizeof(double));
	assert_non_null(row.samples);
	if (n)
		memcpy(row.samples, x, n * sizeof(double));
	r = result_decode_row(set, &row, err, sizeof(err));
	if (!r)
		fail_msg("fixture row does not decode: %s", err);
	return r;
}

#endif
