/*
 * exchange_check.c - the checks of an export file's runs and results
 * that go beyond each line's form (see exchange_check.h): what the store
 * would refuse half-way through an import, and numbers the results model
 * cannot hold honestly.  Every check is linear or n log n in what it
 * reads.
 */
#include "results/exchange_check.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int exchange_check_run(const struct run_info *ri, char *err, size_t errlen)
{
	if (ri->finished_ns != 0 && ri->finished_ns < ri->started_ns) {
		snprintf(err, errlen, "'finished_ns' %lld is before "
			 "'started_ns' %lld (0: the run never finished)",
			 (long long)ri->finished_ns,
			 (long long)ri->started_ns);
		return -1;
	}
	return 0;
}

/*
 * Is a value in unit never below zero?  The unit's numerator (before a
 * '/') is a time, a count or an amount: "ns", "tsc-cycles/byte",
 * "bytes/s", "count", "ratio".
 */
static bool unit_nonnegative(const char *unit)
{
	static const char *const words[] = { "ns", "us", "ms", "s",
		"seconds", "cycles", "tsc-cycles", "count", "calls", "bytes",
		"ops", "ratio" };
	size_t len = strcspn(unit, "/"), i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == len &&
		    strncmp(words[i], unit, len) == 0)
			return true;
	return false;
}

int exchange_check_samples(const char *unit, const double *v, size_t n,
			   char *err, size_t errlen)
{
	bool nonneg = unit_nonnegative(unit);
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(v[i])) {
			snprintf(err, errlen, "sample %zu is not a finite "
				 "number", i);
			return -1;
		}
		if (nonneg && v[i] < 0) {
			snprintf(err, errlen, "sample %zu is %g: a value in "
				 "'%s' is never below zero", i, v[i], unit);
			return -1;
		}
	}
	return 0;
}

static int cmp_lo(const void *a, const void *b)
{
	const struct result_bucket *x = *(const struct result_bucket *const *)a;
	const struct result_bucket *y = *(const struct result_bucket *const *)b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int exchange_check_buckets(const struct result_bucket *b, size_t n,
			   char *err, size_t errlen)
{
	const struct result_bucket **p;
	size_t i;
	int rc = 0;

	if (n < 2)
		return 0;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): p holds pointers */
	p = malloc(n * sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	for (i = 0; i < n; i++)
		p[i] = &b[i];
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): p holds pointers */
	qsort(p, n, sizeof(*p), cmp_lo);
	for (i = 1; i < n && rc == 0; i++)
		if (p[i]->lo == p[i - 1]->lo) {
			size_t k = (size_t)(p[i] - b), j = (size_t)(p[i - 1] - b);

			snprintf(err, errlen, "histogram buckets %zu and %zu "
				 "both start at %lld (one bucket per lower "
				 "bound)", j < k ? j : k, j < k ? k : j,
				 (long long)p[i]->lo);
			rc = -1;
		}
	free(p);
	return rc;
}

/*
 * One per-sample array of info (at path, for messages): *len is the
 * length the others had (SIZE_MAX: none yet; NULL: this array's length
 * is not checked), numbers must be finite and not below zero when nonneg.
 */
static int per_sample_array(json_t *a, const char *path, bool nonneg,
			    size_t *len, char *err, size_t errlen)
{
	size_t i, n = json_array_size(a);

	if (!json_is_array(a))
		return 0;
	if (!len)
		len = &n;
	if (*len != SIZE_MAX && json_array_size(a) != *len) {
		snprintf(err, errlen, "'info' %s has %zu values where the "
			 "other per-sample arrays have %zu", path,
			 json_array_size(a), *len);
		return -1;
	}
	*len = json_array_size(a);
	for (i = 0; i < *len; i++) {
		json_t *v = json_array_get(a, i);

		if (!json_is_number(v))
			continue;
		if (!isfinite(json_number_value(v)) ||
		    (nonneg && json_number_value(v) < 0)) {
			snprintf(err, errlen, "'info' %s[%zu] is %g, not a "
				 "finite number%s", path, i,
				 json_number_value(v),
				 nonneg ? " of zero or more" : "");
			return -1;
		}
	}
	return 0;
}

int exchange_check_info(json_t *info, char *err, size_t errlen)
{
	static const char *const counters[] = { "ctx_switches",
		"migrations", "faults", "window_ns", "oncpu_ns" };
	static const char *const load[] = { "flagged", "why" };
	static const char *const pct[] = { "other_cpu_pct", "steal_pct",
		"offcpu_pct" };
	json_t *it = json_object_get(info, "interference");
	size_t len = SIZE_MAX, i;
	char path[64];

	for (i = 0; i < 2; i++) {
		const char *k = i ? "target_ns" : "batch_ops";
		json_t *v = json_object_get(info, k);

		if (v && (!json_is_integer(v) || json_integer_value(v) < 0)) {
			snprintf(err, errlen, "'info' %s is not an integer of "
				 "zero or more", k);
			return -1;
		}
	}
	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		if (per_sample_array(json_object_get(info, counters[i]),
				     counters[i], true, &len, err, errlen))
			return -1;
	if (!json_is_object(it))
		return 0;
	for (i = 0; i < sizeof(load) / sizeof(load[0]); i++) {
		snprintf(path, sizeof(path), "interference.%s", load[i]);
		if (per_sample_array(json_object_get(it, load[i]), path, true,
				     &len, err, errlen))
			return -1;
	}
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		snprintf(path, sizeof(path), "interference.%s", pct[i]);
		if (per_sample_array(json_object_get(it, pct[i]), path, false,
				     &len, err, errlen))
			return -1;
	}
	/* a canary that could not be timed is left out of its array (the
	   reader takes a short one as unknown): only its values checked */
	return per_sample_array(json_object_get(it, "canary_ns"),
				"interference.canary_ns", true, NULL, err,
				errlen);
}

static int cmp_seq(const void *a, const void *b)
{
	const struct result *x = *(const struct result *const *)a;
	const struct result *y = *(const struct result *const *)b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int cmp_metric(const void *a, const void *b)
{
	const struct result *x = *(const struct result *const *)a;
	const struct result *y = *(const struct result *const *)b;
	int c;

	if (x->cfg != y->cfg)
		return x->cfg < y->cfg ? -1 : 1;
	c = strcmp(x->metric, y->metric);
	if (c)
		return c;
	return x < y ? -1 : x > y;
}

/* Two neighbours of p (sorted by cmp) that cmp says are the same but
   for their place; -1 when there are none. */
static int twins(const struct result **p, size_t n, const struct result *v,
		 bool by_seq, size_t *first, size_t *second)
{
	size_t i;

	for (i = 1; i < n; i++) {
		bool same = by_seq ? p[i]->seq == p[i - 1]->seq :
			    p[i]->cfg == p[i - 1]->cfg &&
			    strcmp(p[i]->metric, p[i - 1]->metric) == 0;

		if (same) {
			/* sorted by place last: p[i - 1] comes first */
			*first = (size_t)(p[i - 1] - v);
			*second = (size_t)(p[i] - v);
			return 0;
		}
	}
	return -1;
}

int exchange_check_results(const struct result_set *set, size_t *first,
			   size_t *second, char *err, size_t errlen)
{
	const struct result **p;
	size_t i;
	int rc = 0;

	if (set->n < 2)
		return 0;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): p holds pointers */
	p = malloc(set->n * sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -2;
	}
	for (i = 0; i < set->n; i++)
		p[i] = &set->v[i];
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): p holds pointers */
	qsort(p, set->n, sizeof(*p), cmp_seq);
	if (twins(p, set->n, set->v, true, first, second) == 0) {
		snprintf(err, errlen, "'seq' %d is given to two results (a "
			 "run numbers its results once each)",
			 set->v[*first].seq);
		rc = -1;
		goto out;
	}
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): p holds pointers */
	qsort(p, set->n, sizeof(*p), cmp_metric);
	if (twins(p, set->n, set->v, false, first, second) == 0) {
		snprintf(err, errlen, "metric '%s' is in one configuration "
			 "twice (%s, the same parameters and job)",
			 set->v[*first].metric, set->v[*first].cfg->workload);
		rc = -1;
	}
out:
	free(p);
	return rc;
}
