/*
 * kview_table.c - the table of the kernel views at the results layer
 * (see kview_table.h): one row per view, and its check.
 */
#include "results/kview_table.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>


extern const struct kview_record_desc kview_lock_record;
extern const struct kview_record_desc kview_sched_record;
extern const struct kview_record_desc kview_syscall_record;
extern const struct kview_record_desc kview_profile_record;

const struct kview_record_desc *const kview_records[KVIEW_NVIEWS] = {
	[KVIEW_ID_LOCK] = &kview_lock_record,
	[KVIEW_ID_SCHED] = &kview_sched_record,
	[KVIEW_ID_SYSCALL] = &kview_syscall_record,
	[KVIEW_ID_PROFILE] = &kview_profile_record,
};

int kview_id(const char *name)
{
	int id;

	for (id = 0; id < KVIEW_NVIEWS; id++)
		if (!strcmp(kview_records[id]->name, name))
			return id;
	return -1;
}

bool kview_mask_has(unsigned mask, const char *name)
{
	int id = kview_id(name);

	return id >= 0 && (mask & KVIEW_BIT(id));
}

unsigned kview_traced_views(unsigned mask)
{
	unsigned out = 0;
	int id;

	for (id = 0; id < KVIEW_NVIEWS; id++)
		if ((mask & KVIEW_BIT(id)) && kview_records[id]->traced)
			out |= KVIEW_BIT(id);
	return out;
}

/* One problem: counted, and the first one kept in err. */
static void problem(int *n, char *err, size_t len, const char *view,
		    const char *fmt, ...)
{
	va_list ap;
	int l;

	if ((*n)++ || !len)
		return;
	l = snprintf(err, len, "kernel view '%s': ", view ? view : "?");
	if (l < 0 || (size_t)l >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(err + l, len - (size_t)l, fmt, ap);
	va_end(ap);
}

static bool name_ok(const char *s)
{
	size_t i;

	if (!s || !islower((unsigned char)s[0]) || strlen(s) > 15)
		return false;
	for (i = 1; s[i]; i++)
		if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

int kview_records_validate(const struct kview_record_desc *const *t,
			   size_t n, char *err, size_t errlen)
{
	int bad = 0;
	size_t i, j;

	if (errlen)
		err[0] = 0;
	if (!t || n != KVIEW_NVIEWS) {
		problem(&bad, err, errlen, NULL, "the table has %zu rows, "
			"KVIEW_NVIEWS is %d", t ? n : 0, KVIEW_NVIEWS);
		return bad;
	}
	for (i = 0; i < n; i++) {
		const struct kview_record_desc *d = t[i];

		if (!d) {
			problem(&bad, err, errlen, NULL, "row %zu is empty",
				i);
			continue;
		}
		if (!name_ok(d->name))
			problem(&bad, err, errlen, d->name, "a name is "
				"[a-z][a-z0-9_]*, at most 15 characters");
		for (j = 0; j < i; j++)
			if (t[j] && d->name && t[j]->name &&
			    !strcmp(t[j]->name, d->name))
				problem(&bad, err, errlen, d->name,
					"named twice (rows %zu and %zu)", j,
					i);
		if (!d->attaches || !*d->attaches)
			problem(&bad, err, errlen, d->name, "says nothing "
				"of what it attaches");
		if (!d->encode || !d->decode)
			problem(&bad, err, errlen, d->name, "needs its "
				"codec (encode and decode)");
	}
	return bad;
}
