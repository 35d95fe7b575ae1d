/*
 * ksyms.c - /proc/kallsyms read into a sorted table (see ksyms.h).
 */
#include "kernel/ksyms.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_sym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One line "ffffffff81000000 T _stext [module]"; 1 kept, 0 skipped. */
static int parse_line(struct ksyms *ks, char *line, size_t *cap)
{
	char type, name[256], *p, *end;
	uint64_t addr;
	size_t l;

	errno = 0;
	addr = strtoull(line, &end, 16);
	if (errno || end == line || end[0] != ' ' || !end[1] ||
	    end[2] != ' ')
		return 0;
	type = end[1];
	p = end + 3;
	l = strcspn(p, " \t\n");
	if (l == 0 || l >= sizeof(name))
		return 0;
	memcpy(name, p, l);
	name[l] = 0;
	if (!strcmp(name, "__lock_text_start"))
		ks->lock_lo = addr;
	else if (!strcmp(name, "__lock_text_end"))
		ks->lock_hi = addr;
	else if (!strcmp(name, "__sched_text_start"))
		ks->sched_lo = addr;
	else if (!strcmp(name, "__sched_text_end"))
		ks->sched_hi = addr;
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	if (ks->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4096;
		struct ksym *v = realloc(ks->v, ncap * sizeof(*v));

		if (!v)
			return -1;
		ks->v = v;
		*cap = ncap;
	}
	ks->v[ks->n].addr = addr;
	ks->v[ks->n].name = strdup(name);
	if (!ks->v[ks->n].name)
		return -1;
	ks->n++;
	return 1;
}

static int finish(struct ksyms *ks)
{
	size_t i;

	ks->hidden = true;
	for (i = 0; i < ks->n && ks->hidden; i++)
		ks->hidden = ks->v[i].addr == 0;
	if (ks->n)
		qsort(ks->v, ks->n, sizeof(*ks->v), cmp_sym);
	return 0;
}

int ksyms_load_text(struct ksyms *ks, const char *text)
{
	size_t cap = 0;
	const char *p = text;

	memset(ks, 0, sizeof(*ks));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char line[512];

		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, p, l);
		line[l] = 0;
		if (parse_line(ks, line, &cap) < 0) {
			ksyms_free(ks);
			return -1;
		}
		p = nl ? nl + 1 : p + l;
	}
	return finish(ks);
}

int ksyms_load(struct ksyms *ks, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t cap = 0;

	memset(ks, 0, sizeof(*ks));
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (parse_line(ks, line, &cap) < 0) {
			fclose(f);
			ksyms_free(ks);
			snprintf(err, errlen, "reading %s: %s", path,
				 strerror(ENOMEM));
			return -1;
		}
	}
	fclose(f);
	finish(ks);
	if (ks->n == 0 || ks->hidden) {
		ksyms_free(ks);
		snprintf(err, errlen, "%s shows no kernel addresses (all 0): "
			 "kernel.kptr_restrict hides them; run as root or "
			 "sysctl kernel.kptr_restrict=0", path);
		return -1;
	}
	return 0;
}

void ksyms_free(struct ksyms *ks)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		free(ks->v[i].name);
	free(ks->v);
	memset(ks, 0, sizeof(*ks));
}

/* The index + 1 of the last symbol at or below addr; 0: none. */
static size_t sym_below(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void ksyms_name(const struct ksyms *ks, uint64_t addr, char *buf,
		size_t len)
{
	size_t lo = sym_below(ks, addr);

	if (lo == 0) {
		snprintf(buf, len, "0x%" PRIx64, addr);
		return;
	}
	snprintf(buf, len, "%s+0x%" PRIx64, ks->v[lo - 1].name,
		 addr - ks->v[lo - 1].addr);
}

const char *ksyms_func(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = ks ? sym_below(ks, addr) : 0;

	return lo ? ks->v[lo - 1].name : NULL;
}

bool ksyms_is_lock_code(const struct ksyms *ks, uint64_t addr)
{
	return (addr >= ks->lock_lo && addr < ks->lock_hi) ||
	       (addr >= ks->sched_lo && addr < ks->sched_hi);
}

const struct ksyms *ksyms_kernel(char *err, size_t errlen)
{
	/* a fifth of a second for its 120k lines here: read once */
	static struct ksyms cache;
	static bool cached;

	if (!cached) {
		if (ksyms_load(&cache, "/proc/kallsyms", err, errlen) != 0)
			return NULL;
		cached = true;
	}
	return &cache;
}
