/*
 * history_newest.h - the newest run of a history (results/history_series.h)
 * read whole from the store: its environment gives history's mail
 * (report/mail_print.h) its machine line.
 */
#ifndef COPYSCOPE_SESSION_HISTORY_NEWEST_H
#define COPYSCOPE_SESSION_HISTORY_NEWEST_H

#include <stddef.h>

#include "results/history_series.h"
#include "results/run.h"
#include "store/store.h"

/*
 * Load the run with the highest id among the points of h from st into
 * out (free with run_data_free()).  Returns 0, 1 when h has no points, or
 * -1 on a store error (err says which).
 */
int history_load_newest(struct store *st, const struct history *h,
			struct run_data *out, char *err, size_t errlen);

#endif
