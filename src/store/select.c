/*
 * select.c - which runs a side of a comparison names (see store.h:
 * store_select_runs): run ids, tags, 'last', selectors of the host, the
 * kernel release, a boot setting (a word of the kernel command line) or
 * a tag pattern, terms joined by '+', and comma lists of them.  Used by
 * show, compare, check, runs and push.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/param.h"
#include "store/db.h"
#include "util/array.h"
#include "util/msg.h"

enum term_kind {
	TERM_ID,		/* 12 */
	TERM_TAG,		/* baseline: that tag exactly */
	TERM_LAST,		/* the newest of what the others select */
	TERM_HOST,		/* host:PATTERN */
	TERM_KERNEL,		/* kernel:PATTERN (kernel.release) */
	TERM_BOOT,		/* boot:PATTERN (a kernel command-line word) */
	TERM_TAG_GLOB,		/* tag:PATTERN */
};

static const struct {
	const char *prefix;
	enum term_kind kind;
} selectors[] = {
	{ "host:", TERM_HOST },
	{ "kernel:", TERM_KERNEL },
	{ "boot:", TERM_BOOT },
	{ "tag:", TERM_TAG_GLOB },
};

#define NSELECTORS (ARRAY_SIZE(selectors))
#define MAX_TERMS 16

struct term {
	enum term_kind kind;
	const char *arg;	/* the pattern, tag or id text */
};

/* A selector's length of prefix at p (e.g. 5 for "host:"), else 0. */
static size_t selector_at(const char *p, enum term_kind *kind)
{
	size_t i, n;

	for (i = 0; i < NSELECTORS; i++) {
		n = strlen(selectors[i].prefix);
		if (strncmp(p, selectors[i].prefix, n) == 0) {
			*kind = selectors[i].kind;
			return n;
		}
	}
	return 0;
}

/* Does a term start at p: a selector, or 'last' ending there or at '+'? */
static bool term_starts(const char *p)
{
	enum term_kind k;

	return selector_at(p, &k) > 0 ||
		(strncmp(p, "last", 4) == 0 && (p[4] == '\0' || p[4] == '+'));
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/*
 * Split item (modified: '+' that join become NUL) into terms.  Returns
 * the count, or 0 with err set when a selector has no pattern or there
 * are too many terms.
 */
static size_t parse_item(char *item, const char *spec, struct term *t,
			 char *err, size_t errlen)
{
	size_t n = 0, len;
	char *p = item, *next;
	enum term_kind k;

	for (;;) {
		/* the next '+' that a term follows ends this term */
		for (next = strchr(p, '+'); next && !term_starts(next + 1);
		     next = strchr(next + 1, '+'))
			;
		if (next)
			*next = '\0';
		if (n == MAX_TERMS) {
			db_set_err(err, errlen, "at most %d terms joined by "
				   "'+' in '%s'", MAX_TERMS, msg_quote(spec));
			return 0;
		}
		if ((len = selector_at(p, &k))) {
			if (!p[len]) {
				db_set_err(err, errlen, "'%s' needs a pattern "
					   "in '%s' (e.g. host:lab3, "
					   "kernel:6.18.*, boot:nosmap)",
					   msg_quote(p), msg_quote(spec));
				return 0;
			}
			t[n].kind = k;
			t[n].arg = p + len;
		} else if (strcmp(p, "last") == 0) {
			t[n].kind = TERM_LAST;
			t[n].arg = p;
		} else {
			t[n].kind = all_digits(p) ? TERM_ID : TERM_TAG;
			t[n].arg = p;
		}
		n++;
		if (!next)
			return n;
		p = next + 1;
	}
}

bool store_spec_is_tag(const char *text)
{
	struct term t[MAX_TERMS];
	char *copy;
	size_t n;

	if (!*text || strchr(text, ','))
		return false;
	copy = strdup(text);
	if (!copy)
		return false;
	n = parse_item(copy, text, t, NULL, 0);
	free(copy);
	return n == 1 && t[0].kind == TERM_TAG;
}

/*
 * A tag term "hots:vm" whose text before ':' is close to a selector's
 * name (host): that selector ("host:"), for a "did you mean"; else NULL.
 */
static const char *near_selector(const struct term *t, size_t nt)
{
	static const char *const names[] = { "host", "kernel", "boot", "tag" };
	const char *colon, *from, *s;
	char word[32];
	size_t i, k;

	for (k = 0; k < nt; k++) {
		if (t[k].kind != TERM_TAG)
			continue;
		colon = strchr(t[k].arg, ':');
		/* the word before ':', after a '+' that did not join */
		for (from = colon; from && from > t[k].arg &&
		     from[-1] != '+'; from--)
			;
		if (!colon || colon == from ||
		    (size_t)(colon - from) >= sizeof(word))
			continue;
		snprintf(word, sizeof(word), "%.*s", (int)(colon - from),
			 from);
		s = param_suggest(word, names, ARRAY_SIZE(names));
		for (i = 0; s && i < NSELECTORS; i++)
			if (strncmp(selectors[i].prefix, s, strlen(s)) == 0)
				return selectors[i].prefix;
	}
	return NULL;
}

/*
 * The kernel command lines of the runs, in run id order, when a boot:
 * term needs them.
 */
struct cmdlines {
	int64_t *run;
	char **line;
	size_t n;
	bool loaded;
};

static void cmdlines_free(struct cmdlines *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->line[i]);
	free(c->run);
	free(c->line);
	memset(c, 0, sizeof(*c));
}

static int cmdlines_load(struct store *st, struct cmdlines *c, char *err,
			 size_t errlen)
{
	struct db_stmt *s;
	size_t cap = 0;
	void *tmp;
	int rc;

	if (db_prepare(st, "SELECT run_id, value FROM environment WHERE key "
		       "= 'kernel.cmdline' ORDER BY run_id", &s, err, errlen))
		return -1;
	while ((rc = db_step(s)) == DB_ROW) {
		if (c->n == cap) {
			cap = cap ? cap * 2 : 64;
			tmp = realloc(c->run, cap * sizeof(*c->run));
			if (!tmp)
				goto nomem;
			c->run = tmp;
			tmp = realloc(c->line, cap * sizeof(*c->line));
			if (!tmp)
				goto nomem;
			c->line = tmp;
		}
		c->run[c->n] = db_col_int64(s, 0);
		c->line[c->n] = strdup(db_col_text(s, 1) ?
				       db_col_text(s, 1) : "");
		if (!c->line[c->n])
			goto nomem;
		c->n++;
	}
	if (rc != DB_DONE) {
		db_err(st, err, errlen, "cannot read the kernel command lines");
		(void)db_finalize(s);
		return -1;
	}
	if (db_finalize(s)) {
		db_err(st, err, errlen, "cannot read the kernel command lines");
		return -1;
	}
	c->loaded = true;
	return 0;
nomem:
	(void)db_finalize(s);
	db_set_err(err, errlen, "cannot select runs: %s", strerror(ENOMEM));
	return -1;
}

/* Is some word of run_id's kernel command line matched by pattern? */
static bool boot_matches(const struct cmdlines *c, int64_t run_id,
			 const char *pattern)
{
	char word[512];
	const char *p;
	size_t i, len, lo = 0, hi = c->n;

	while (lo < hi) {	/* c->run is in id order */
		i = lo + (hi - lo) / 2;
		if (c->run[i] < run_id)
			lo = i + 1;
		else
			hi = i;
	}
	i = lo;
	if (i == c->n || c->run[i] != run_id)
		return false;
	for (p = c->line[i]; *p; p += len) {
		while (isspace((unsigned char)*p))
			p++;
		len = strcspn(p, " \t\n");
		if (len == 0 || len >= sizeof(word))
			continue;
		memcpy(word, p, len);
		word[len] = '\0';
		if (fnmatch(pattern, word, 0) == 0)
			return true;
	}
	return false;
}

static bool term_matches(const struct term *t, const struct run_info *r,
			 const struct cmdlines *c)
{
	switch (t->kind) {
	case TERM_ID:
		return r->id == strtoll(t->arg, NULL, 10);
	case TERM_TAG:
		return strcmp(r->tag, t->arg) == 0;
	case TERM_HOST:
		return fnmatch(t->arg, r->host, 0) == 0;
	case TERM_KERNEL:
		return fnmatch(t->arg, r->kernel, 0) == 0;
	case TERM_BOOT:
		return boot_matches(c, r->id, t->arg);
	case TERM_TAG_GLOB:
		return fnmatch(t->arg, r->tag, 0) == 0;
	case TERM_LAST:
		return true;
	}
	return false;
}

/*
 * The runs of all[] one item selects, oldest first, appended to v (those
 * not there yet: taken[i] says all[i] is).  Returns how many runs
 * matched.
 */
static size_t select_item(const struct term *t, size_t nt,
			  const struct run_info *all, size_t nall,
			  const struct cmdlines *c, bool *taken, int64_t *v,
			  size_t *nv)
{
	size_t i, j, found = 0, newest = 0;
	bool last = false, ok;

	for (j = 0; j < nt; j++)
		last |= t[j].kind == TERM_LAST;
	for (i = 0; i < nall; i++) {
		for (ok = true, j = 0; ok && j < nt; j++)
			ok = term_matches(&t[j], &all[i], c);
		if (!ok)
			continue;
		found++;
		newest = i;
		if (!last && !taken[i]) {
			taken[i] = true;
			v[(*nv)++] = all[i].id;
		}
	}
	if (last && found && !taken[newest]) {
		taken[newest] = true;
		v[(*nv)++] = all[newest].id;
	}
	return found;
}

static bool needs_cmdlines(const struct term *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].kind == TERM_BOOT)
			return true;
	return false;
}

enum store_select_status store_select_runs(struct store *st,
					   const char *spec, int64_t **ids,
					   size_t *n, char *err,
					   size_t errlen)
{
	enum store_select_status rc = STORE_SELECT_OK;
	struct cmdlines cl = { 0 };
	struct run_info *all = NULL;
	struct term t[MAX_TERMS];
	size_t nall = 0, nids = 0, nt;
	char *copy = NULL, *item, *save = NULL, *shown;
	int64_t *v = NULL;
	bool *taken = NULL;

	*ids = NULL;
	*n = 0;
	if (!*spec || *spec == ',' || strstr(spec, ",,") ||
	    spec[strlen(spec) - 1] == ',') {
		db_set_err(err, errlen, "empty run id or tag in '%s'",
			   msg_quote(spec));
		return STORE_SELECT_EMPTY_ITEM;
	}
	if (store_list_runs(st, &all, &nall, err, errlen) != 0)
		return STORE_SELECT_ERROR;
	copy = strdup(spec);
	shown = strdup(spec);
	v = calloc(nall ? nall : 1, sizeof(*v));
	taken = calloc(nall ? nall : 1, sizeof(*taken));
	if (!copy || !shown || !v || !taken) {
		db_set_err(err, errlen, "cannot select runs: %s",
			   strerror(ENOMEM));
		rc = STORE_SELECT_ERROR;
		goto out;
	}
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		/* the item as given, for messages (parse_item cuts it) */
		size_t off = (size_t)(item - copy);

		shown[off + strlen(item)] = '\0';
		nt = parse_item(item, spec, t, err, errlen);
		if (!nt) {
			rc = STORE_SELECT_EMPTY_ITEM;
			goto out;
		}
		if (needs_cmdlines(t, nt) && !cl.loaded &&
		    cmdlines_load(st, &cl, err, errlen)) {
			rc = STORE_SELECT_ERROR;
			goto out;
		}
		if (select_item(t, nt, all, nall, &cl, taken, v, &nids) == 0) {
			const char *near = near_selector(t, nt);

			if (nt == 1 && (t[0].kind == TERM_ID ||
					t[0].kind == TERM_TAG ||
					t[0].kind == TERM_LAST))
				db_set_err(err, errlen, "'%s' is neither a "
					   "stored run id nor a tag%s%s%s",
					   msg_quote(shown + off),
					   near ? "; did you "
					   "mean '" : "",
					   near ? near : "", near ? "'?" : "");
			else
				db_set_err(err, errlen, "'%s' selects no "
					   "stored run%s%s%s", msg_quote(shown + off),
					   near ? "; did you mean '" : "",
					   near ? near : "", near ? "'?" : "");
			rc = STORE_SELECT_NO_MATCH;
			goto out;
		}
	}
	*ids = v;
	*n = nids;
	v = NULL;
out:
	free(v);
	free(taken);
	free(copy);
	free(shown);
	cmdlines_free(&cl);
	store_free_runs(all, nall);
	return rc;
}
