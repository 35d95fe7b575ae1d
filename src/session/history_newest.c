/*
 * history_newest.c - the newest run of a history, read from the store
 * (see session/history_newest.h).
 */
#include "session/history_newest.h"

#include <stdint.h>
#include <stdio.h>

int history_load_newest(struct store *st, const struct history *h,
			struct run_data *out, char *err, size_t errlen)
{
	int64_t id = 0;
	size_t i, k;
	int e;

	for (i = 0; i < h->n; i++)
		for (k = 0; k < h->s[i].n; k++)
			if (h->s[i].pts[k].run_id > id)
				id = h->s[i].pts[k].run_id;
	if (id == 0)
		return 1;
	e = store_load_run(st, id, out, err, errlen);
	if (e > 0)
		snprintf(err, errlen, "run %lld: no longer in the store",
			 (long long)id);
	return e ? -1 : 0;
}
