/*
 * wl_util.h - small helpers the workloads share that are not about pipes:
 * prefaulted buffers, reading a number from a /proc file, writing a whole
 * buffer to a descriptor.
 */
#ifndef COPYSCOPE_WL_UTIL_H
#define COPYSCOPE_WL_UTIL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Map len bytes of page-aligned anonymous memory with MAP_POPULATE and set
 * every byte to fill, so that the timed code takes no page fault on it.
 * Returns the buffer, or NULL with errno set.  Free it with wl_free_buf().
 */
uint8_t *wl_alloc_buf(size_t len, uint8_t fill);

/* Unmap a buffer of len bytes from wl_alloc_buf(); NULL is ignored. */
void wl_free_buf(uint8_t *buf, size_t len);

/*
 * Read the number on the first line of a file such as
 * /proc/sys/fs/nr_open.  Returns it, or -1 when the file cannot be read
 * or does not start with a number.
 */
long wl_read_long(const char *path);

/*
 * Write all len bytes of buf to fd, retrying after EINTR and after short
 * writes.  Returns 0, or WL_EFAIL with "write: <reason>" in err
 * (WL_ERR_LEN bytes).
 */
int wl_write_all(int fd, const void *buf, size_t len, char *err);

#endif
