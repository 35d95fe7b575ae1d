/*
 * observation_mix.c - an observation's pipe-write histogram as the size
 * mix of pipe.mix (observation.h: observation_mix_text), so that
 * `pipe.mix mix=observed:ID` replays a host's writes in the lab.
 */
#include "results/observation.h"

#include <stdio.h>
#include <string.h>

struct range {
	uint64_t lo, hi, count;
};

/* The non-zero buckets of h as ranges, capped at the mix's largest. */
static size_t ranges_of(const uint64_t *h, struct range *r)
{
	const size_t cap_b = 19;	/* [2^19, 2^20]: the last range */
	size_t b, n = 0;

	for (b = 0; b < OBSERVATION_NLOG2; b++) {
		size_t k = b < cap_b ? b : cap_b;

		if (!h[b])
			continue;
		if (n && r[n - 1].lo == (1ull << k)) {
			r[n - 1].count += h[b];
			continue;
		}
		r[n].lo = 1ull << k;
		r[n].hi = k == cap_b ? OBSERVATION_MIX_MAX_BYTES :
			(2ull << k) - 1;
		r[n].count = h[b];
		n++;
	}
	return n;
}

/* Merge neighbours with the fewest writes until n fits. */
static size_t merge(struct range *r, size_t n)
{
	size_t i, best;

	while (n > OBSERVATION_MIX_MAX_ENTRIES) {
		best = 0;
		for (i = 1; i + 1 < n; i++)
			if (r[i].count + r[i + 1].count <
			    r[best].count + r[best + 1].count)
				best = i;
		r[best].hi = r[best + 1].hi;
		r[best].count += r[best + 1].count;
		memmove(&r[best + 1], &r[best + 2],
			(n - best - 2) * sizeof(*r));
		n--;
	}
	return n;
}

uint64_t observation_mix_clamped(const struct observation *o,
				 const char *comm)
{
	const uint64_t *h = o->pipe_log2;
	uint64_t n = 0;
	size_t b;

	if (comm) {
		const struct observation_comm *c =
			observation_find_comm(o, comm);

		if (!c)
			return 0;
		h = c->log2;
	}
	for (b = 20; b < OBSERVATION_NLOG2; b++)	/* [2^20, ...) */
		n += h[b];
	return n;
}

int observation_mix_text(const struct observation *o, const char *comm,
			 char *buf, size_t len, char *err, size_t errlen)
{
	struct range r[OBSERVATION_NLOG2] = { { 0 } };
	const uint64_t *h = o->pipe_log2;
	uint64_t total = 0;
	size_t n, i, used = 0;
	int w;

	if (comm) {
		const struct observation_comm *c =
			observation_find_comm(o, comm);

		if (!c) {
			snprintf(err, errlen, "no pipe writes by comm '%s' in "
				 "this observation", comm);
			return -1;
		}
		h = c->log2;
	}
	n = merge(r, ranges_of(h, r));
	for (i = 0; i < n; i++)
		total += r[i].count;
	if (!total) {
		snprintf(err, errlen, "this observation holds no pipe writes%s",
			 o->ran & OBSERVE_PIPE_WRITES ? "" :
			 " (pipe-writes was not observed)");
		return -1;
	}
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		w = snprintf(buf + used, len - used, "%s%llu-%llu:%llu",
			     i ? "+" : "", (unsigned long long)r[i].lo,
			     (unsigned long long)r[i].hi,
			     (unsigned long long)r[i].count);
		if (w < 0 || (size_t)w >= len - used) {
			snprintf(err, errlen, "the mix text is longer than "
				 "%zu bytes", len - 1);
			return -1;
		}
		used += (size_t)w;
	}
	return 0;
}
