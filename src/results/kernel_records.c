/*
 * kernel_records.c - helpers of the kernel views' results model (see
 * kernel_records.h): a views mask as names and back, through the views'
 * table (kview_table.h), log2 buckets, and freeing.
 */
#include "results/kernel_records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kview_mask_text(unsigned mask, char *buf, size_t len)
{
	size_t l = 0;
	int id;

	if (len)
		buf[0] = 0;
	for (id = 0; id < KVIEW_NVIEWS && l < len; id++)
		if (mask & KVIEW_BIT(id))
			l += (size_t)snprintf(buf + l, len - l, "%s%s",
					      l ? "," : "",
					      kview_records[id]->name);
}

/* "lock, sched, syscall, profile": the views' names. */
static void allowed(char *buf, size_t len)
{
	size_t l = 0;
	int id;

	if (len)
		buf[0] = 0;
	for (id = 0; id < KVIEW_NVIEWS && l < len; id++)
		l += (size_t)snprintf(buf + l, len - l, "%s%s",
				      id ? ", " : "", kview_records[id]->name);
}

int kview_parse(const char *text, unsigned *mask, char *err, size_t errlen)
{
	const char *p = text;
	char names[128];

	*mask = 0;
	for (;;) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		int id;

		for (id = 0; id < KVIEW_NVIEWS; id++)
			if (strlen(kview_records[id]->name) == l &&
			    strncmp(kview_records[id]->name, p, l) == 0)
				break;
		if (id == KVIEW_NVIEWS) {
			allowed(names, sizeof(names));
			snprintf(err, errlen, "--kernel: unknown view '%.*s' "
				 "(allowed: %s, as a comma list)",
				 (int)(l > 64 ? 64 : l), p, names);
			return -1;
		}
		if (*mask & KVIEW_BIT(id)) {
			allowed(names, sizeof(names));
			snprintf(err, errlen, "--kernel: view '%s' given "
				 "twice (allowed: %s, each once)",
				 kview_records[id]->name, names);
			return -1;
		}
		*mask |= KVIEW_BIT(id);
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
	for (i = 0; i < k->nstacks; i++)
		free(k->stacks[i].frames);
	free(k->stacks);
	for (i = 0; i < k->nprof_per; i++) {
		free(k->prof_per[i].stack);
		free(k->prof_per[i].count);
	}
	free(k->prof_per);
	free(k->wake_cpu);
	free(k->windows);
	free(k);
}
