/*
 * pipe_common.c - pipe creation, capacity and closing for the pipe
 * workloads (see pipe_common.h).
 */
#include "workloads/pipe_common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/workload.h"
#include "workloads/wl_util.h"

int pipe_set_size(int fd, int64_t want, char *err, size_t len)
{
	if (want == 0 || fcntl(fd, F_SETPIPE_SZ, (int)want) >= 0)
		return 0;
	if (errno == EPERM)
		snprintf(err, len, "pipe_size: %lld bytes exceeds "
			 "/proc/sys/fs/pipe-max-size (%ld) and this user "
			 "lacks CAP_SYS_RESOURCE; raise fs.pipe-max-size or "
			 "run as root", (long long)want,
			 wl_read_long("/proc/sys/fs/pipe-max-size"));
	else if (errno == EBUSY)
		snprintf(err, len, "pipe_size: %lld bytes is over this "
			 "user's pipe buffer limit "
			 "(fs.pipe-user-pages-hard)", (long long)want);
	else
		snprintf(err, len, "pipe_size: F_SETPIPE_SZ(%lld): %s",
			 (long long)want, strerror(errno));
	return -1;
}

int pipe_check_size(int64_t want, char *err, size_t len)
{
	int fd[2], rc;

	if (want == 0)
		return WL_OK;
	if (pipe(fd) != 0) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		return WL_EFAIL;
	}
	rc = pipe_set_size(fd[1], want, err, len);
	close(fd[0]);
	close(fd[1]);
	return rc ? WL_EUSAGE : WL_OK;
}

int pipe_open(int fd[2], int64_t want, long *capacity, char *err,
	      size_t len)
{
	if (pipe2(fd, O_CLOEXEC) != 0) {
		snprintf(err, len, "pipe2: %s", strerror(errno));
		return WL_EFAIL;
	}
	if (pipe_set_size(fd[1], want, err, len) != 0)
		return WL_EUSAGE;
	*capacity = fcntl(fd[1], F_GETPIPE_SZ);
	if (*capacity < 0) {
		snprintf(err, len, "F_GETPIPE_SZ: %s", strerror(errno));
		return WL_EFAIL;
	}
	return WL_OK;
}

ssize_t pipe_read_once(int fd, void *buf, size_t len, const char *eof_msg,
		       char *err)
{
	ssize_t n = read(fd, buf, len);

	if (n > 0)
		return n;
	if (n < 0 && errno == EINTR)
		return 0;
	if (n < 0)
		snprintf(err, WL_ERR_LEN, "read: %s", strerror(errno));
	else
		snprintf(err, WL_ERR_LEN, "%s", eof_msg);
	return -1;
}

void pipe_close(int fd[2])
{
	int i;

	for (i = 0; i < 2; i++) {
		if (fd[i] >= 0)
			close(fd[i]);
		fd[i] = -1;
	}
}
