/*
 * mix.c - write-size mixes for pipe.mix (see mix.h): parser, presets,
 * size classes and the seeded size table.
 */
#include "workloads/mix.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/param.h"
#include "util/array.h"

/*
 * fleet: the production mix of DESIGN.md's E3: 98.0% of writes under
 * 128 B, 0.4% 128 B-4 KiB, 0.72% 4-8 KiB and a sparse tail to 72 KiB.
 * The published figures do not split the tail's 0.88%; we give it
 * 0.5% 8-16 KiB, 0.3% 32-64 KiB and 0.08% 64-72 KiB (weights sum to 100).
 */
const struct mix_preset mix_presets[] = {
	{ "fleet",
	  "1-127:98,128-4095:0.4,4k-8191:0.72,8k-16383:0.5,32k-65535:0.3,"
	  "64k-72k:0.08",
	  "the E3 production mix (98% under 128 B, tail to 72 KiB)" },
	{ "small", "1-127:1",
	  "fleet without its tail: every write under 128 B" },
	{ "page", "4k:1", "every write one page (4 KiB)" },
	{ "bimodal", "64:99,64k:1", "99% 64 B writes, 1% 64 KiB writes" },
	{ "large", "64k:1", "every write 64 KiB (as pipe.bw and pipe.matrix)" },
};

const size_t mix_npresets = ARRAY_SIZE(mix_presets);

const char *const mix_class_names[MIX_NCLASSES] = {
	"<128B", "128B-4K", "4K-8K", "8K+",
};

/* Lower bound of each class in bytes (inclusive). */
static const uint64_t class_lo[MIX_NCLASSES] = { 0, 128, 4096, 8192 };

int mix_class_of(uint64_t bytes)
{
	int c;

	for (c = MIX_NCLASSES - 1; c > 0; c--)
		if (bytes >= class_lo[c])
			return c;
	return 0;
}

double mix_class_share(const struct mix *m, int cls)
{
	uint64_t clo, chi;
	double share = 0;
	size_t i;

	if (cls < 0 || cls >= MIX_NCLASSES || m->total_weight <= 0)
		return 0;
	clo = class_lo[cls];
	chi = cls + 1 < MIX_NCLASSES ? class_lo[cls + 1] - 1 : UINT64_MAX;
	for (i = 0; i < m->n; i++) {
		const struct mix_entry *e = &m->e[i];
		uint64_t lo = e->lo_bytes > clo ? e->lo_bytes : clo;
		uint64_t hi = e->hi_bytes < chi ? e->hi_bytes : chi;

		if (lo > hi)
			continue;
		/* each factor at most 1: no overflow for huge weights */
		share += e->weight / m->total_weight *
			 ((double)(hi - lo + 1) /
			  (double)(e->hi_bytes - e->lo_bytes + 1));
	}
	return share;
}

/* A weight: digits with at most one '.', value > 0 and finite. */
static int parse_weight(const char *s, double *out)
{
	const char *p;
	int dots = 0, digits = 0;
	char *end;

	for (p = s; *p; p++) {
		if (*p == '.')
			dots++;
		else if (*p >= '0' && *p <= '9')
			digits++;
		else
			return -1;
	}
	if (!digits || dots > 1)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !isfinite(*out))
		return -1;
	return 0;
}

/* A size in 1 .. MIX_MAX_SIZE; 0 or -1 with why. */
static int parse_bytes(const char *s, uint32_t *out, char *why, size_t len)
{
	int64_t v;

	if (!*s) {
		snprintf(why, len, "a size is missing");
		return -1;
	}
	if (param_parse_size(s, &v) != 0) {
		snprintf(why, len, "'%s' is not a size (" PARAM_SIZE_RULE
			 ")", s);
		return -1;
	}
	if (v < 1 || v > (int64_t)MIX_MAX_SIZE) {
		snprintf(why, len, "size %s is out of range (1 .. 1M)", s);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

/* Parse one entry (NUL-terminated, no separators) into e. */
static int parse_entry(char *text, struct mix_entry *e, char *why,
		       size_t len)
{
	char *colon, *dash;

	if (!*text) {
		snprintf(why, len, "empty entry (write SIZE:WEIGHT or "
			 "LO-HI:WEIGHT)");
		return -1;
	}
	colon = strchr(text, ':');
	if (!colon) {
		snprintf(why, len, "no ':WEIGHT' (write SIZE:WEIGHT or "
			 "LO-HI:WEIGHT)");
		return -1;
	}
	*colon = '\0';
	if (strchr(colon + 1, ':')) {
		snprintf(why, len, "more than one ':'");
		return -1;
	}
	if (parse_weight(colon + 1, &e->weight) != 0) {
		snprintf(why, len, "weight '%s' is not a decimal number",
			 colon + 1);
		return -1;
	}
	if (!(e->weight > 0)) {
		snprintf(why, len, "weight %s is not above 0", colon + 1);
		return -1;
	}
	dash = strchr(text, '-');
	if (!dash) {
		if (parse_bytes(text, &e->lo_bytes, why, len) != 0)
			return -1;
		e->hi_bytes = e->lo_bytes;
		return 0;
	}
	*dash = '\0';
	if (parse_bytes(text, &e->lo_bytes, why, len) != 0 ||
	    parse_bytes(dash + 1, &e->hi_bytes, why, len) != 0)
		return -1;
	if (e->lo_bytes > e->hi_bytes) {
		snprintf(why, len, "low end %u is above high end %u",
			 e->lo_bytes, e->hi_bytes);
		return -1;
	}
	return 0;
}

int mix_parse(const char *text, struct mix *m, char *err, size_t errlen)
{
	char buf[MIX_MAX_TEXT + 1], orig[MIX_MAX_TEXT + 1], why[160];
	size_t len = strlen(text), start = 0, i, k;

	memset(m, 0, sizeof(*m));
	if (len == 0) {
		snprintf(err, errlen, "empty mix (write SIZE:WEIGHT or "
			 "LO-HI:WEIGHT entries separated by '+')");
		return -1;
	}
	if (len > MIX_MAX_TEXT) {
		snprintf(err, errlen, "mix is %zu characters long (at most "
			 "%d)", len, MIX_MAX_TEXT);
		return -1;
	}
	memcpy(buf, text, len + 1);
	memcpy(orig, text, len + 1);
	for (i = 0, k = 1; i <= len; i++) {
		struct mix_entry *e;

		if (buf[i] != ',' && buf[i] != '+' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		orig[i] = '\0';
		if (m->n == MIX_MAX_ENTRIES) {
			snprintf(err, errlen, "entry %zu '%.64s': more than "
				 "%d entries", k, orig + start,
				 MIX_MAX_ENTRIES);
			return -1;
		}
		e = &m->e[m->n];
		if (parse_entry(buf + start, e, why, sizeof(why)) != 0) {
			snprintf(err, errlen, "entry %zu '%.64s': %s", k,
				 orig + start, why);
			return -1;
		}
		m->total_weight += e->weight;
		if (e->hi_bytes > m->max_bytes)
			m->max_bytes = e->hi_bytes;
		m->n++;
		k++;
		start = i + 1;
	}
	if (!isfinite(m->total_weight)) {
		snprintf(err, errlen, "the weights sum beyond any number");
		return -1;
	}
	return 0;
}

uint64_t mix_rand_next(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in 0 .. span-1 (span >= 1), by multiply-high: no modulo bias
   beyond 2^-64 per value. */
static uint64_t rand_below(uint64_t *state, uint64_t span)
{
	return (uint64_t)(((unsigned __int128)mix_rand_next(state) * span) >>
			  64);
}

int mix_fill_table(const struct mix *m, uint64_t seed, uint32_t *sizes,
		   size_t n)
{
	size_t count[MIX_MAX_ENTRIES], used = 0, i, j, pos = 0;
	double frac[MIX_MAX_ENTRIES];
	uint64_t st = seed;

	if (m->n == 0 || n < m->n)
		return -1;
	for (i = 0; i < m->n; i++) {
		double exact = m->e[i].weight / m->total_weight * (double)n;

		count[i] = (size_t)floor(exact);
		frac[i] = exact - (double)count[i];
		used += count[i];
	}
	/* Largest remainder: the slots rounding left go to the entries
	   with the largest fractions (first one on a tie). */
	while (used < n) {
		size_t best = 0;

		for (i = 1; i < m->n; i++)
			if (frac[i] > frac[best])
				best = i;
		count[best]++;
		frac[best] = -1;
		used++;
	}
	/* Every entry at least once, taken from the largest. */
	for (i = 0; i < m->n; i++) {
		size_t big = 0;

		if (count[i] > 0)
			continue;
		for (j = 1; j < m->n; j++)
			if (count[j] > count[big])
				big = j;
		count[big]--;
		count[i]++;
	}
	for (i = 0; i < m->n; i++) {
		const struct mix_entry *e = &m->e[i];
		uint64_t span = (uint64_t)e->hi_bytes - e->lo_bytes + 1;

		for (j = 0; j < count[i]; j++)
			sizes[pos++] = e->lo_bytes +
				       (uint32_t)rand_below(&st, span);
	}
	/* Fisher-Yates */
	for (i = n - 1; i > 0; i--) {
		uint32_t t;

		j = (size_t)rand_below(&st, (uint64_t)i + 1);
		t = sizes[i];
		sizes[i] = sizes[j];
		sizes[j] = t;
	}
	return 0;
}
