/*
 * file.c - reading a whole file into memory (see file.h).
 */
#include "util/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* The rest of f into a new NUL-terminated buffer; NULL with errno. */
static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 4096, n = 0, r;
	char *s = malloc(cap + 1), *t;

	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	while ((r = fread(s + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n < cap)
			continue;
		t = realloc(s, cap * 2 + 1);
		if (!t) {
			free(s);
			errno = ENOMEM;
			return NULL;
		}
		s = t;
		cap *= 2;
	}
	if (ferror(f)) {
		free(s);
		errno = EIO;
		return NULL;
	}
	s[n] = '\0';
	*len = n;
	return s;
}

char *util_slurp(const char *path, size_t *len, bool absent_is_empty)
{
	FILE *f = fopen(path, "re");
	size_t n = 0;
	char *s;

	if (len)
		*len = 0;
	if (!f) {
		if (errno != ENOENT || !absent_is_empty)
			return NULL;
		s = calloc(1, 1);
		if (!s)
			errno = ENOMEM;
		return s;
	}
	s = read_all(f, &n);
	fclose(f);
	if (s && len)
		*len = n;
	return s;
}
