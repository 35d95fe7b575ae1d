/*
 * check_verdict.c - check's decision on the rows of its comparison (see
 * check_verdict.h).
 */
#include "session/check_verdict.h"

#include <math.h>
#include <string.h>

/* A row that fails the check: worse, significant, beyond the threshold. */
static bool regression(const struct cmp_row *r, double thr)
{
	if (r->verdict != VERDICT_WORSE || isnan(r->change_pct) ||
	    r->same_reading_as)
		return false;
	return r->direction > 0 ? r->change_pct < -thr : r->change_pct > thr;
}

/* A row that could not be judged: shown, and check cannot tell. */
static bool undecided(const struct cmp_row *r)
{
	return r->verdict == VERDICT_CANNOT_TELL && !r->same_reading_as;
}

/* An empty side emptied by its runs' withheld headlines alone. */
static bool held(const struct cmp_row *r)
{
	return (!r->b.n && r->b.headline_out && !r->b.dropped) ||
	       (!r->n.n && r->n.headline_out && !r->n.dropped);
}

bool check_row_shown(const struct cmp_row *r, void *arg)
{
	return regression(r, *(const double *)arg) || undecided(r) ||
	       (r->verdict == VERDICT_EMPTY && !r->same_reading_as &&
		held(r));
}

bool check_row_compared(const struct cmp_row *r, void *arg)
{
	(void)arg;
	return r->in_base && r->in_new;
}

void check_tally(const struct cmp *c, double threshold_pct,
		 struct check_tally *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->in_base || !r->in_new)
			continue;
		t->ncmp++;
		t->nreg += regression(r, threshold_pct);
		t->nct += undecided(r);
		if (r->verdict == VERDICT_EMPTY && !r->same_reading_as &&
		    held(r))
			t->nheld++;
		else
			t->nempty += r->verdict == VERDICT_EMPTY;
		t->nwh += r->verdict == VERDICT_WITHHELD;
	}
}
