/*
 * target.c - what a database name names (target.h): a path or a URL, the
 * backend a URL's scheme picks, and the masking of the passwords a
 * connection URL may carry, so that none is printed or stored.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef COPYSCOPE_STATIC
#include <libpq-fe.h>
#endif

#include "store/target.h"

/* Length of the scheme of "scheme://...", 0 if text is not like that. */
static size_t scheme_len(const char *text)
{
	size_t n = 0;

	if (!isalpha((unsigned char)text[0]))
		return 0;
	while (isalnum((unsigned char)text[n]) || text[n] == '+' ||
	       text[n] == '-' || text[n] == '.')
		n++;
	return strncmp(text + n, "://", 3) == 0 ? n : 0;
}

/* "postgresql:" or "postgres:" (any case) at the start of text: its
   length, else 0. */
static size_t pg_prefix(const char *text)
{
	if (strncasecmp(text, "postgresql:", 11) == 0)
		return 11;
	if (strncasecmp(text, "postgres:", 9) == 0)
		return 9;
	return 0;
}

bool store_is_url(const char *target)
{
	return target && (scheme_len(target) > 0 || pg_prefix(target) > 0);
}

int target_ops(const char *target, const struct db_ops **ops, char *err,
	       size_t errlen)
{
	size_t n = scheme_len(target), p = pg_prefix(target);
	char *name;

	*ops = &db_sqlite_ops;
	if (!store_is_url(target))
		return 0;
	if (p && strncmp(target + p, "//", 2) == 0) {
#ifdef COPYSCOPE_STATIC
		name = store_mask_secrets(target);
		db_set_err(err, errlen, "cannot open database '%s': this "
			   "copyscope is the static build (make static), "
			   "which has no PostgreSQL store; use a SQLite file "
			   "here and push its runs with a full build",
			   name ? name : "?");
		free(name);
		return -1;
#else
		*ops = &db_pg_ops;
		return 0;
#endif
	}
	name = store_mask_secrets(target);
	if (p)
		db_set_err(err, errlen, "cannot open database '%s': a "
			   "PostgreSQL URL begins with %.*s// (e.g. "
			   "postgresql:///copyscope?host=/run/postgresql)",
			   name ? name : "?", (int)p, target);
	else
		db_set_err(err, errlen, "cannot open database '%s': '%.*s://' "
			   "is not a kind of database copyscope knows; give "
			   "a file path, or " TARGET_SCHEMES " for "
			   "PostgreSQL", name ? name : "?", (int)n, target);
	free(name);
	return -1;
}

/*
 * The password of user:password@ after the "://" at url: where it begins
 * and its length (0: none).  It ends at the last '@' before the query
 * (libpq takes the first; a raw '@' or '/' in a password is masked too
 * this way).
 */
static size_t userinfo_secret(const char *url, const char **start)
{
	const char *from = url + 3, *end, *at = NULL, *colon;

	end = from + strcspn(from, "?# \t\n");
	for (const char *q = from; q < end; q++)
		if (*q == '@')
			at = q;
	colon = at ? memchr(from, ':', (size_t)(at - from)) : NULL;
	if (!colon)
		return 0;
	*start = colon + 1;
	return (size_t)(at - colon - 1);
}

/* c as a hex digit's value, -1 if it is none. */
static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * Whether p spells word (lower case) as libpq reads a URL's parameter
 * name: each character as itself (in any case, more than libpq takes) or
 * percent-encoded (%70 for 'p').  Returns the bytes it spans, 0 if not.
 */
static size_t spells(const char *p, const char *word)
{
	const char *q = p;
	int hi, lo;

	for (; *word; word++) {
		if (*q == '%' && (hi = hexval(q[1])) >= 0 &&
		    (lo = hexval(q[2])) >= 0 &&
		    tolower(hi * 16 + lo) == *word) {
			q += 3;
		} else if (tolower((unsigned char)*q) == *word) {
			q++;
		} else {
			return 0;
		}
	}
	return (size_t)(q - p);
}

/*
 * The value of a parameter named "...password" (password, sslpassword,
 * in any spelling libpq decodes) at p: after the name, '=' (with blanks
 * around it, as a conninfo string allows), then a value quoted with '
 * (conninfo: password='x y', \' inside) or up to '&', '#' or a blank.
 * Returns its length (0: not one) with *start set.
 */
static size_t param_secret(const char *p, const char **start)
{
	size_t n = spells(p, "password");
	const char *v;

	if (!n)
		return 0;
	v = p + n;
	v += strspn(v, " \t");
	if (*v != '=')
		return 0;
	v++;
	v += strspn(v, " \t");
	*start = v;
	if (*v == '\'') {
		for (n = 1; v[n] && v[n] != '\''; n++)
			if (v[n] == '\\' && v[n + 1])
				n++;
		return v[n] ? n + 1 : n;
	}
	return strcspn(v, "& \t\n#");
}

/*
 * The first secret of s at or after from: a userinfo password, or the
 * value of a "...password=" parameter (password=, sslpassword=, their
 * names percent-encoded as in pass%77ord=).  Returns its length (0: none
 * left) with *start set.
 */
static size_t next_secret(const char *s, const char *from,
			  const char **start)
{
	const char *best = NULL, *p, *q;
	size_t best_len = 0, len;

	for (p = from; (p = strstr(p, "://")); p += 3) {
		len = userinfo_secret(p, &q);
		if (len && q >= from) {
			best = q;
			best_len = len;
			break;
		}
	}
	for (p = s; *p; p++) {
		if (best && p >= best)
			break;
		len = param_secret(p, &q);
		if (!len || q < from)
			continue;
		best = q;
		best_len = len;
		break;
	}
	*start = best;
	return best ? best_len : 0;
}

#ifndef COPYSCOPE_STATIC
/*
 * Whether libpq, reading url (a token of masked text, up to a blank),
 * finds a password or sslpassword in it other than "***": then the
 * masking missed a way to spell one.
 */
static bool libpq_sees_secret(const char *url, size_t len)
{
	PQconninfoOption *opts, *o;
	char *tok = strndup(url, len);
	bool seen = false;

	if (!tok)
		return true;
	opts = PQconninfoParse(tok, NULL);
	free(tok);
	for (o = opts; o && o->keyword; o++)
		if (o->val && o->val[0] && strcmp(o->val, "***") != 0 &&
		    (strcmp(o->keyword, "password") == 0 ||
		     strcmp(o->keyword, "sslpassword") == 0))
			seen = true;
	PQconninfoFree(opts);
	return seen;
}

/*
 * The way libpq reads them, check every postgresql:// URL in out (masked
 * text): where it still finds a password, all of the URL after "://"
 * becomes "***".
 */
static void mask_what_libpq_sees(char *out)
{
	char *p = out, *rest;
	size_t n, len;

	while (*p) {
		n = pg_prefix(p);
		if (!n || strncmp(p + n, "//", 2) != 0 ||
		    (p > out && (isalnum((unsigned char)p[-1]) ||
				 p[-1] == '+' || p[-1] == '.'))) {
			p++;
			continue;
		}
		len = strcspn(p, " \t\n");
		rest = p + n + 2;
		if (libpq_sees_secret(p, len)) {
			memmove(rest + 3, p + len, strlen(p + len) + 1);
			memset(rest, '*', 3);
			len = (size_t)(rest + 3 - p);
		}
		p += len;
	}
}
#endif

char *store_mask_secrets(const char *text)
{
	const char *p = text, *sec;
	size_t len, n = 0;
	char *out;

	/* each secret is at least one byte and becomes three */
	out = malloc(strlen(text) * 3 + 4);
	if (!out)
		return NULL;
	while ((len = next_secret(text, p, &sec))) {
		memcpy(out + n, p, (size_t)(sec - p));
		n += (size_t)(sec - p);
		memset(out + n, '*', 3);
		n += 3;
		p = sec + len;
	}
	strcpy(out + n, p);
#ifndef COPYSCOPE_STATIC
	mask_what_libpq_sees(out);
#endif
	return out;
}

/* Mask every occurrence of secret (len bytes, len > 0) in msg. */
static void scrub_one(const char *sec, size_t len, char *msg, size_t size)
{
	char *hit, *from, secret[256];
	size_t mlen;

	if (len >= sizeof(secret))
		len = sizeof(secret) - 1;
	memcpy(secret, sec, len);
	secret[len] = '\0';
	for (from = msg; (hit = strstr(from, secret)); from = hit + 3) {
		mlen = strlen(msg);
		if (mlen - len + 3 >= size) {
			/* no room for "***": cut the message there */
			*hit = '\0';
			break;
		}
		memmove(hit + 3, hit + len, mlen - (size_t)(hit - msg) -
			len + 1);
		memset(hit, '*', 3);
	}
}

void target_scrub(const char *url, char *msg, size_t size)
{
	const char *p = url, *sec;
	size_t len;
#ifndef COPYSCOPE_STATIC
	PQconninfoOption *opts, *o;
#endif

	while ((len = next_secret(url, p, &sec))) {
		p = sec + len;
		scrub_one(sec, len, msg, size);
	}
#ifndef COPYSCOPE_STATIC
	/* and as libpq decoded them (p%40ss is p@ss to it) */
	opts = PQconninfoParse(url, NULL);
	for (o = opts; o && o->keyword; o++)
		if (o->val && o->val[0] &&
		    (strcmp(o->keyword, "password") == 0 ||
		     strcmp(o->keyword, "sslpassword") == 0))
			scrub_one(o->val, strlen(o->val), msg, size);
	PQconninfoFree(opts);
#endif
}
