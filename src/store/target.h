/*
 * target.h - what a database name (--db, COPYSCOPE_DB, push --to) names:
 * a SQLite file by its path, or a PostgreSQL database by its URL; any
 * other scheme:// is refused.  Inside src/store/ only; store.h has
 * store_is_url() and store_mask_secrets() for the rest.
 */
#ifndef COPYSCOPE_STORE_TARGET_H
#define COPYSCOPE_STORE_TARGET_H

#include <stddef.h>

#include "store/db.h"

/* The schemes a URL may have, as messages list them. */
#define TARGET_SCHEMES "postgresql:// (or postgres://)"

/*
 * The backend for target: the SQLite one for a path, the PostgreSQL one
 * for a postgresql:// or postgres:// URL.  Returns 0, or -1 with the
 * reason in err for any other URL (naming the supported schemes).
 */
int target_ops(const char *target, const struct db_ops **ops, char *err,
	       size_t errlen);

/*
 * Mask in msg (a NUL-terminated string in a buffer of size bytes) every
 * occurrence of a password that url holds, for a message of a library
 * that might quote a piece of the URL.
 */
void target_scrub(const char *url, char *msg, size_t size);

#endif
