/*
 * history_check.c - check --history's verdict on one series (see
 * history_check.h).
 */
#include "session/history_check.h"

#include <string.h>

void history_check(const struct hist_series *s, struct hist_check *out)
{
	memset(out, 0, sizeof(*out));
	out->cp = s->ncp ? &s->cps[s->ncp - 1] : NULL;
	out->needed = HIST_CHECK_MIN_POINTS;
	if (s->n < HIST_CHECK_MIN_POINTS)
		out->verdict = HIST_TOO_SHORT;
	else if (s->nonpositive)
		out->verdict = HIST_NO_LOG;
	else if (out->cp && out->cp->worse)
		out->verdict = HIST_WORSE;
	else
		out->verdict = HIST_SAME;
}

bool history_check_wants_ci(const struct hist_series *s, size_t i)
{
	(void)s;
	(void)i;
	return false;
}
