/*
 * random_id.c - 128-bit random hex ids (see random_id.h).
 */
#include "util/random_id.h"

#include <errno.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/types.h>

int util_random_id(char *buf, size_t len)
{
	unsigned char b[16];
	ssize_t got;
	size_t i;

	if (len < UTIL_RANDOM_ID_LEN) {
		errno = EINVAL;
		return -1;
	}
	do
		got = getrandom(b, sizeof(b), 0);
	while (got < 0 && errno == EINTR);
	if (got != (ssize_t)sizeof(b)) {
		if (got >= 0)
			errno = EIO;
		return -1;
	}
	for (i = 0; i < sizeof(b); i++)
		snprintf(buf + 2 * i, 3, "%02x", b[i]);
	return 0;
}
