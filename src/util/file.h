/*
 * file.h - reading a whole file into memory.
 */
#ifndef COPYSCOPE_FILE_H
#define COPYSCOPE_FILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The whole content of the file at path in a new malloc'ed buffer with a
 * NUL after it (the caller frees it); *len (if len is not NULL) gets the
 * number of bytes read.  With absent_is_empty, a file that does not exist
 * reads as "".  Returns NULL with errno on failure: fopen's errno, EIO on
 * a read error, ENOMEM.
 */
char *util_slurp(const char *path, size_t *len, bool absent_is_empty);

#endif
