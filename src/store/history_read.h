/*
 * history_read.h - the store's side of `copyscope history`: every stored
 * result of complete runs (optionally of one workload and one metric,
 * optionally only of given runs) with its run's id, unique id, start
 * time, host, boot and kernel release and its samples, oldest run first,
 * read by one query whose cost is linear in the rows it returns, and the
 * headline rule applied to each result from its info (a second query, by
 * result id): the samples are those its headline counts, as show reads
 * them.  The medians, series and change points are made above the store
 * (session/history_session.c).
 */
#ifndef COPYSCOPE_STORE_HISTORY_H
#define COPYSCOPE_STORE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* One stored result of one complete run (strings owned, never NULL). */
struct store_hist_result {
	int64_t run_id, started_ns;
	char *uuid, *host, *boot_id;
	char *kernel;			/* kernel.release; "" when absent */
	char *workload, *params;	/* params: canonical JSON */
	char *metric, *unit;
	int direction;			/* +1, -1, 0 */
	int64_t result_id;
	/*
	 * The samples its headline counts, as show and compare read them
	 * (stats/headline.h: samples disturbed while others were not are
	 * left out); none when the headline was withheld.
	 */
	double *samples;
	size_t nsamples;
	size_t stored;			/* the samples stored */
	size_t left_out;		/* disturbed samples left out */
	bool withheld;			/* no headline: nsamples is 0 */
};

struct store_history {
	struct store_hist_result *r;	/* by run start, run id, result seq */
	size_t n;
};

/*
 * Read into out every result of complete runs, of workload and of metric
 * (each NULL: any), of the runs ids[0..nids) (ids NULL: every run), in
 * one snapshot.  Returns 0 or -1 (message in err; out empty).  Free out
 * with store_history_free().
 */
int store_history_load(struct store *st, const char *workload,
		       const char *metric, const int64_t *ids, size_t nids,
		       struct store_history *out, char *err, size_t errlen);
void store_history_free(struct store_history *h);

#endif
