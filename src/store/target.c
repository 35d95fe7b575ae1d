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

/*
 * The first secret of s at or after from: a userinfo password, or the
 * value of a "...password=" parameter (password=, sslpassword=).  Returns
 * its length (0: none left) with *start set.
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
		if (strncasecmp(p, "password=", 9) != 0 || p + 9 < from)
			continue;
		len = strcspn(p + 9, "& \t\n#");
		if (len) {
			best = p + 9;
			best_len = len;
			break;
		}
	}
	*start = best;
	return best ? best_len : 0;
}

char *store_mask_secrets(const char *text)
{
	const char *p = text, *sec;
	size_t len, n = 0;
	char *out;

	/* each secret is at least one byte and becomes three */
	out = malloc(strlen(text) * 3 + 1);
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
	return out;
}

void target_scrub(const char *url, char *msg, size_t size)
{
	const char *p = url, *sec;
	char *hit, *from, secret[256];
	size_t len, mlen;

	while ((len = next_secret(url, p, &sec))) {
		p = sec + len;
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
}
