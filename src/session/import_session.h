/*
 * import_session.h - `copyscope import` after the file is read and
 * checked: its runs added to the store in batches, one transaction each,
 * stopping between batches when asked (import_session.c).
 */
#ifndef COPYSCOPE_SESSION_IMPORT_H
#define COPYSCOPE_SESSION_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/run.h"
#include "store/store.h"

/*
 * Runs added per transaction: the commit is most of what adding a run
 * costs; a batch that fails is rolled back whole.
 */
#define IMPORT_BATCH 200

/* What an import did. */
struct import_outcome {
	int *status;		/* per run (owned): 0 added, 1 already
				   there, -1 failed, -2 not tried */
	size_t added, there;	/* runs */
	int64_t first_id, last_id;	/* the ids of those added; 0: none */
	bool stopped;		/* a signal asked to stop between batches */
	bool failed;		/* a batch failed (its runs' status -1) */
};

/*
 * Add runs[0..n-1] to st, IMPORT_BATCH at a time (store_add_runs); a run
 * that is there already (its unique id) is not added again.  Before each
 * batch it stops when a signal asked it to (session_stop_signal(), after
 * cli_catch_stop): out->stopped.  Fills out
 * (free with import_outcome_free()).  Returns 0; -1 on ENOMEM or when a
 * batch failed (the store's reason in err, out->failed set).
 */
int session_import(struct store *st, struct run_data *runs, size_t n,
		   struct import_outcome *out, char *err, size_t errlen);

void import_outcome_free(struct import_outcome *out);

#endif
