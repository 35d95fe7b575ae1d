/*
 * headline.c - the rule for which samples a headline is taken over
 * (see headline.h).
 */
#include "stats/headline.h"

enum headline_state headline_rule(size_t n, size_t ndisturbed)
{
	size_t kept;

	if (ndisturbed == 0 || ndisturbed > n)
		return HEADLINE_ALL;
	kept = n - ndisturbed;
	if (kept >= HEADLINE_MIN_KEPT && 2 * kept >= n)
		return HEADLINE_LEFT_OUT;
	return HEADLINE_WITHHELD;
}

bool headline_retake(size_t n, size_t ndisturbed, size_t max_n)
{
	return n < max_n &&
	       headline_rule(n, ndisturbed) == HEADLINE_WITHHELD &&
	       headline_rule(max_n, ndisturbed) != HEADLINE_WITHHELD;
}
