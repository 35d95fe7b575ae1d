/*
 * param_set.c - what is done with one configuration of parameters once it
 * exists (see param.h): its canonical JSON (the identity of a
 * configuration in the store), binding it into a workload's own struct,
 * finding rows by name or role, and suggesting the closest name for a
 * misspelt one.  Parsing and formatting one value are in param_value.c,
 * sweeps in param_request.c.
 */
#include "core/param.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest word param_suggest compares (longer ones get no suggestion). */
#define SUGGEST_LEN_MAX 128

/* A growing string for param_set_json. */
struct sbuf {
	char *s;
	size_t len;
	size_t cap;
};

static int sbuf_putc(struct sbuf *b, char c)
{
	if (b->len + 2 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 128;
		char *s = realloc(b->s, cap);

		if (!s)
			return -1;
		b->s = s;
		b->cap = cap;
	}
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
	return 0;
}

/* A JSON string literal, escaping quotes, backslashes and controls. */
static int sbuf_json_str(struct sbuf *b, const char *str)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)str;

	if (sbuf_putc(b, '"') < 0)
		return -1;
	for (; *p; p++) {
		if (*p == '"' || *p == '\\') {
			if (sbuf_putc(b, '\\') < 0 ||
			    sbuf_putc(b, (char)*p) < 0)
				return -1;
		} else if (*p < 0x20 || *p == 0x7f) {
			if (sbuf_putc(b, '\\') < 0 || sbuf_putc(b, 'u') < 0 ||
			    sbuf_putc(b, '0') < 0 || sbuf_putc(b, '0') < 0 ||
			    sbuf_putc(b, hex[*p >> 4]) < 0 ||
			    sbuf_putc(b, hex[*p & 0xf]) < 0)
				return -1;
		} else if (sbuf_putc(b, (char)*p) < 0) {
			return -1;
		}
	}
	return sbuf_putc(b, '"');
}

char *param_set_json(const struct param_def *defs, size_t ndefs,
		     const struct param_set *set)
{
	size_t order[PARAM_MAX] = { 0 };
	struct sbuf b = { NULL, 0, 0 };
	char val[PARAM_TEXT_MAX];
	size_t i, j;

	if (ndefs > PARAM_MAX) {
		errno = EINVAL;
		return NULL;
	}
	/* Insertion sort of the indices by name; ndefs is small. */
	for (i = 0; i < ndefs; i++) {
		for (j = i; j > 0 &&
		     strcmp(defs[order[j - 1]].name, defs[i].name) > 0; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	if (sbuf_putc(&b, '{') < 0)
		goto fail;
	for (i = 0; i < ndefs; i++) {
		const struct param_def *def = &defs[order[i]];

		param_format_value(def, set->v[order[i]], val, sizeof(val));
		if ((i && sbuf_putc(&b, ',') < 0) ||
		    sbuf_json_str(&b, def->name) < 0 ||
		    sbuf_putc(&b, ':') < 0 || sbuf_json_str(&b, val) < 0)
			goto fail;
	}
	if (sbuf_putc(&b, '}') < 0)
		goto fail;
	return b.s;
fail:
	free(b.s);
	errno = ENOMEM;
	return NULL;
}

size_t param_field_size(enum param_type type)
{
	switch (type) {
	case PARAM_INT:
	case PARAM_SIZE:
	case PARAM_TIME:
		return sizeof(int64_t);
	case PARAM_ENUM:
		return sizeof(int);
	case PARAM_BOOL:
		return sizeof(bool);
	case PARAM_STRING:
		return sizeof(const char *);
	}
	return 0;
}

void param_bind(const struct param_def *defs, size_t ndefs,
		const struct param_set *set, void *out)
{
	size_t i;

	for (i = 0; i < ndefs && i < PARAM_MAX; i++) {
		char *field = (char *)out + defs[i].offset;
		int64_t v = set->v[i];
		const char *text;
		bool b;
		int e;

		switch (defs[i].type) {
		case PARAM_INT:
		case PARAM_SIZE:
		case PARAM_TIME:
			memcpy(field, &v, sizeof(v));
			break;
		case PARAM_ENUM:
			e = (int)v;
			memcpy(field, &e, sizeof(e));
			break;
		case PARAM_BOOL:
			b = v != 0;
			memcpy(field, &b, sizeof(b));
			break;
		case PARAM_STRING:
			text = param_string(v);
			memcpy(field, &text, sizeof(text));
			break;
		}
	}
}

int param_find_role(const struct param_def *defs, size_t ndefs,
		    enum param_role role)
{
	size_t i;

	for (i = 0; i < ndefs && role != PARAM_ROLE_NONE; i++)
		if (defs[i].role == role)
			return (int)i;
	return -1;
}

int param_find(const struct param_def *defs, size_t ndefs, const char *name)
{
	size_t i;

	if (!name)
		return -1;
	for (i = 0; i < ndefs; i++)
		if (defs[i].name && strcmp(defs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Levenshtein distance; both strings shorter than SUGGEST_LEN_MAX. */
static size_t edit_distance(const char *a, size_t la, const char *b,
			    size_t lb)
{
	size_t row[SUGGEST_LEN_MAX + 1];
	size_t i, j;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *param_suggest(const char *word, const char *const *names,
			  size_t n)
{
	const char *best = NULL;
	size_t lw, limit, best_d = SIZE_MAX, i;

	if (!word || !names)
		return NULL;
	lw = strlen(word);
	if (lw >= SUGGEST_LEN_MAX)
		return NULL;
	limit = lw / 3 > 2 ? lw / 3 : 2;
	for (i = 0; i < n; i++) {
		size_t ln, d;

		if (!names[i])
			continue;
		ln = strlen(names[i]);
		if (ln >= SUGGEST_LEN_MAX)
			continue;
		/* The length difference bounds the distance from below. */
		if ((ln > lw ? ln - lw : lw - ln) > limit)
			continue;
		d = edit_distance(word, lw, names[i], ln);
		if (d <= limit && d < best_d) {
			best = names[i];
			best_d = d;
		}
	}
	return best;
}
