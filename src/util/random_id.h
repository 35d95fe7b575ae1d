/*
 * random_id.h - 128-bit random ids as 32 lowercase hex digits: a run's
 * unique id, a group id.
 */
#ifndef COPYSCOPE_RANDOM_ID_H
#define COPYSCOPE_RANDOM_ID_H

#include <stddef.h>

/* Characters an id needs: 32 hex digits and the NUL. */
#define UTIL_RANDOM_ID_LEN 33

/*
 * Write a new id of 128 random bits from getrandom(2) into buf as 32
 * lowercase hex digits and a NUL.  Returns 0; -1 with errno EINVAL if len
 * is under UTIL_RANDOM_ID_LEN, or getrandom's errno if it failed (buf is
 * then untouched).
 */
int util_random_id(char *buf, size_t len);

#endif
