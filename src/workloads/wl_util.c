/*
 * wl_util.c - small helpers the workloads share that are not about pipes
 * (see wl_util.h).
 */
#include "workloads/wl_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/workload.h"

uint8_t *wl_alloc_buf(size_t len, uint8_t fill)
{
	uint8_t *b = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (b == MAP_FAILED)
		return NULL;
	memset(b, fill, len);
	return b;
}

void wl_free_buf(uint8_t *buf, size_t len)
{
	if (buf)
		munmap(buf, len);
}

long wl_read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[32], *end;
	long v = -1;

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f)) {
		errno = 0;
		v = strtol(line, &end, 10);
		if (errno || end == line)
			v = -1;
	}
	fclose(f);
	return v;
}

int wl_write_all(int fd, const void *buf, size_t len, char *err)
{
	const uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, WL_ERR_LEN, "write: %s", strerror(errno));
			return WL_EFAIL;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int wl_memfd_prefaulted(const char *name, const uint8_t *buf,
			size_t buf_len, size_t bytes, char *err)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0) {
		snprintf(err, WL_ERR_LEN, "memfd_create: %s", strerror(errno));
		return -1;
	}
	while (done < bytes) {
		size_t chunk = bytes - done < buf_len ? bytes - done : buf_len;
		ssize_t n = pwrite(fd, buf, chunk, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, WL_ERR_LEN, "pwrite(memfd) to prefault "
				 "%zu bytes: %s", bytes,
				 n < 0 ? strerror(errno) : "wrote nothing");
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	return fd;
}

int wl_open_dev(const char *path, bool rd, char *err)
{
	int fd = open(path, (rd ? O_RDONLY : O_WRONLY) | O_CLOEXEC);

	if (fd < 0)
		snprintf(err, WL_ERR_LEN, "open %s: %s", path,
			 strerror(errno));
	return fd;
}

int wl_call_retry(ssize_t n)
{
	if (n < 0 && errno == EINTR)
		return wl_interrupted() ? 0 : 1;
	return n >= 0 && wl_interrupted() ? 0 : -1;
}
