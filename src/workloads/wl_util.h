/*
 * wl_util.h - small helpers the workloads share that are not about pipes:
 * prefaulted buffers and files, reading a number from a /proc file,
 * writing a whole buffer to a descriptor, opening a device, deciding what
 * a timed loop of system calls does after a call that fell short.
 */
#ifndef COPYSCOPE_WL_UTIL_H
#define COPYSCOPE_WL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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

/*
 * Make a memfd called name and write its first bytes bytes from offset 0,
 * from buf (buf_len bytes, repeated as needed), so that its page-cache
 * pages exist before anything is measured.  Returns the descriptor, or -1
 * with the reason in err (WL_ERR_LEN bytes).
 */
int wl_memfd_prefaulted(const char *name, const uint8_t *buf,
			size_t buf_len, size_t bytes, char *err);

/*
 * Open the device at path (/dev/zero, /dev/null) read-only when rd, else
 * write-only, close-on-exec.  Returns the descriptor, or -1 with
 * "open PATH: reason" in err (WL_ERR_LEN bytes).
 */
int wl_open_dev(const char *path, bool rd, char *err);

/*
 * In a timed loop of system calls, after a call returned n instead of the
 * bytes it should have moved: 1 when a signal interrupted it and the run
 * goes on (make the call again), 0 when the run was interrupted (end the
 * batch without error; /dev/zero also stops early when a signal is
 * pending), -1 when the call failed (errno still holds the reason when
 * n < 0).
 */
int wl_call_retry(ssize_t n);

#endif
