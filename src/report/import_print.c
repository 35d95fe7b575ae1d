/*
 * import_print.c - what import prints (report/import_print.h).
 */
#include "report/import_print.h"

#include "util/msg.h"

void report_import_runs(FILE *out, const struct run_data *runs, size_t n,
			const int *status, bool verbose, const char *err)
{
	size_t k, before = 0;

	for (k = 0; status && k < n; k++) {
		const struct run_info *ri = &runs[k].info;

		if (status[k] == -1)
			msg_error("run %s: %s; %zu of %zu runs imported "
				  "before it (importing the file again adds "
				  "the rest)", ri->uuid, err, before, n);
		if (status[k] < 0)
			continue;
		before += status[k] == 0;
		if (verbose && status[k] == 1)
			fprintf(out, "run %lld already there (%s)\n",
				(long long)ri->id, ri->uuid);
		else if (verbose)
			fprintf(out, "imported as run %lld (%s, %zu results)\n",
				(long long)ri->id, ri->uuid,
				runs[k].results.n);
	}
}

void report_import_summary(FILE *out, size_t added, int64_t first_id,
			   int64_t last_id, size_t there, const char *file,
			   const char *db)
{
	fprintf(out, "imported %zu run%s", added, added == 1 ? "" : "s");
	if (added)
		fprintf(out, " (ids %lld-%lld)", (long long)first_id,
			(long long)last_id);
	fprintf(out, " from %s into %s; %zu already there\n", file, db,
		there);
}
