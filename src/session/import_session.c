/*
 * import_session.c - an export file's runs into the store, in batches
 * (session/import_session.h).
 */
#include "session/import_session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/lost_run.h"

/* The ids and counts of batch [i, i + m) after store_add_runs. */
static void count_batch(const struct run_data *runs, size_t i, size_t m,
			struct import_outcome *out)
{
	size_t k;

	for (k = i; k < i + m; k++) {
		const struct run_info *ri = &runs[k].info;

		if (out->status[k] == 0) {
			if (!out->first_id || ri->id < out->first_id)
				out->first_id = ri->id;
			if (ri->id > out->last_id)
				out->last_id = ri->id;
			out->added++;
		} else if (out->status[k] == 1) {
			out->there++;
		}
	}
}

int session_import(struct store *st, struct run_data *runs, size_t n,
		   struct import_outcome *out, char *err, size_t errlen)
{
	size_t i, k;

	memset(out, 0, sizeof(*out));
	out->status = malloc((n ? n : 1) * sizeof(*out->status));
	if (!out->status) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	for (k = 0; k < n; k++)
		out->status[k] = -2;
	for (i = 0; i < n; i += IMPORT_BATCH) {
		size_t m = n - i < IMPORT_BATCH ? n - i : IMPORT_BATCH;
		int rc;

		if (session_stop_signal()) {
			out->stopped = true;
			return 0;
		}
		rc = store_add_runs(st, runs + i, m, out->status + i, err,
				    errlen);
		count_batch(runs, i, m, out);
		if (rc < 0) {
			out->failed = true;
			return -1;
		}
	}
	return 0;
}

void import_outcome_free(struct import_outcome *out)
{
	free(out->status);
	memset(out, 0, sizeof(*out));
}
