/*
 * pipe_common.h - what the pipe workloads (pipe.bw, pipe.lat, pipe.mix,
 * pipe.matrix) share: creating a pipe of the capacity asked for, checking
 * that capacity before measuring, one read, closing the pipe.
 */
#ifndef COPYSCOPE_PIPE_COMMON_H
#define COPYSCOPE_PIPE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Set the capacity of the pipe whose end is fd with F_SETPIPE_SZ; want 0
 * leaves the kernel default.  Returns 0, or -1 with a message in err
 * that starts with "pipe_size:" and, when the kernel refused the size,
 * names fs.pipe-max-size (with its value) or fs.pipe-user-pages-hard.
 */
int pipe_set_size(int fd, int64_t want, char *err, size_t len);

/*
 * For a workload's validate(): can a pipe of capacity want be had?  A
 * scratch pipe is made and sized.  Returns WL_OK (also for want 0),
 * WL_EUSAGE with pipe_set_size()'s message, or WL_EFAIL when no pipe can
 * be made.
 */
int pipe_check_size(int64_t want, char *err, size_t len);

/*
 * Make a pipe (O_CLOEXEC) in fd, of capacity want (0: kernel default), and
 * read back the capacity it got into *capacity.  Returns WL_OK, WL_EUSAGE
 * when the size is refused, or WL_EFAIL; the message is in err.  fd is
 * left as it was when pipe2() fails, else holds the pipe even on error,
 * for pipe_close().
 */
int pipe_open(int fd[2], int64_t want, long *capacity, char *err,
	      size_t len);

/*
 * One read(2) of up to len bytes from the pipe end fd.  Returns the bytes
 * read (> 0); 0 when a signal interrupted the read (the caller decides
 * whether to read again); -1 on failure, with "read: <reason>" in err,
 * or at end of file, with eof_msg in err (err: WL_ERR_LEN bytes).
 */
ssize_t pipe_read_once(int fd, void *buf, size_t len, const char *eof_msg,
		       char *err);

/* Close both ends of fd that are open (>= 0) and set them to -1. */
void pipe_close(int fd[2]);

#endif
