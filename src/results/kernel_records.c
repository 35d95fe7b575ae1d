/*
 * kernel_records.c - helpers of the kernel views' results model (see kernel.h):
 * the names of the views, and freeing.
 */
#include "results/kernel_records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

static const struct {
	const char *name;
	unsigned bit;
} views[] = {
	{ "lock", KVIEW_LOCK },
	{ "sched", KVIEW_SCHED },
	{ "syscall", KVIEW_SYSCALL },
};

#define NVIEWS ARRAY_SIZE(views)

void kview_mask_text(unsigned mask, char *buf, size_t len)
{
	size_t i, l = 0;

	if (len)
		buf[0] = 0;
	for (i = 0; i < NVIEWS && l < len; i++)
		if (mask & views[i].bit)
			l += (size_t)snprintf(buf + l, len - l, "%s%s",
					      l ? "," : "", views[i].name);
}

int kview_parse(const char *text, unsigned *mask, char *err, size_t errlen)
{
	const char *p = text;

	*mask = 0;
	for (;;) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p), i;

		for (i = 0; i < NVIEWS; i++)
			if (strlen(views[i].name) == l &&
			    strncmp(views[i].name, p, l) == 0)
				break;
		if (i == NVIEWS) {
			snprintf(err, errlen, "--kernel: unknown view '%.*s' "
				 "(allowed: lock, sched, syscall, as a comma "
				 "list)", (int)(l > 64 ? 64 : l), p);
			return -1;
		}
		if (*mask & views[i].bit) {
			snprintf(err, errlen, "--kernel: view '%s' given "
				 "twice (allowed: lock, sched, syscall, each "
				 "once)", views[i].name);
			return -1;
		}
		*mask |= views[i].bit;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

size_t kv_log2_bucket(uint64_t ns)
{
	size_t b = 0;

	while (ns >= 2 && b < KV_LOG2_BUCKETS - 1) {
		ns >>= 1;
		b++;
	}
	return b;
}

void result_kernel_free(struct result_kernel *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->nlocks; i++) {
		free(k->locks[i].type);
		free(k->locks[i].caller);
	}
	free(k->locks);
	for (i = 0; i < k->nsys; i++)
		free(k->sys[i].name);
	free(k->sys);
	free(k->wake_cpu);
	free(k->windows);
	free(k);
}
