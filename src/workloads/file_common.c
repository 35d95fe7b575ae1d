/*
 * file_common.c - what the file workloads share (see file_common.h):
 * scratch files in the page cache with no name, the name of the file
 * system that holds them, checking the bytes that arrive, the floors of
 * --explain and the teardown.
 */
#include "workloads/file_common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/workload.h"
#include "util/array.h"
#include "util/msg.h"
#include "workloads/wl_util.h"

const char *const file_target_choices[] = { "memfd", "file", NULL };

#define CHUNK (1u << 20)	/* bytes written per pwrite when filling */
#define POISON 0xe7		/* a buffer's bytes before a checked read */

int file_check_tmpdir(const char *dir, char *err, size_t len)
{
	static const char *const hint = "give an existing directory this "
					"user can write (tmpdir=DIR)";
	struct stat st;

	if (!dir || !*dir) {
		snprintf(err, len, "tmpdir: empty; %s", hint);
		return WL_EUSAGE;
	}
	if (stat(dir, &st) != 0) {
		snprintf(err, len, "tmpdir: %s: %s; %s", dir, strerror(errno),
			 hint);
		return WL_EUSAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, len, "tmpdir: %s is not a directory; %s", dir,
			 hint);
		return WL_EUSAGE;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		snprintf(err, len, "tmpdir: %s: cannot create a file there "
			 "(%s); %s", dir, strerror(errno), hint);
		return WL_EUSAGE;
	}
	return WL_OK;
}

/*
 * statfs(2) f_type values (include/uapi/linux/magic.h, and the file
 * systems' own headers for those it lacks).
 */
static const struct {
	unsigned long magic;
	const char *name;
} fs_magics[] = {
	{ 0xEF53, "ext2/3/4" },
	{ 0x58465342, "xfs" },
	{ 0x9123683E, "btrfs" },
	{ 0x01021994, "tmpfs" },
	{ 0x858458f6, "ramfs" },
	{ 0xF2F52010, "f2fs" },
	{ 0xca451a4e, "bcachefs" },
	{ 0x2fc12fc1, "zfs" },
	{ 0x794c7630, "overlayfs" },
	{ 0x6969, "nfs" },
	{ 0xFF534D42, "cifs" },
	{ 0xFE534D42, "smb2" },
	{ 0x65735546, "fuse" },
	{ 0x00c36400, "ceph" },
	{ 0x3153464a, "jfs" },
	{ 0x2011BAB0, "exfat" },
	{ 0x4d44, "vfat" },
	{ 0x7366746e, "ntfs3" },
	{ 0x958458f6, "hugetlbfs" },
};

const char *file_fs_magic_name(unsigned long magic)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fs_magics); i++)
		if (fs_magics[i].magic == magic)
			return fs_magics[i].name;
	return NULL;
}

/*
 * The fields after " - " of the /proc/self/mountinfo line of device
 * maj:min: "TYPE SOURCE".  Returns 0, or -1 when no line matches.
 */
static int mountinfo_find(unsigned maj, unsigned min, char *type,
			  size_t tlen, char *src, size_t slen)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], want[32];
	int found = -1;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%u:%u", maj, min);
	while (found < 0 && fgets(line, sizeof(line), f)) {
		char dev[32], t[64], s[256];
		const char *dash;

		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPT...] - TYPE
		   SOURCE SUPER-OPTS */
		if (sscanf(line, "%*s %*s %31s", dev) != 1 ||
		    strcmp(dev, want) != 0)
			continue;
		dash = strstr(line, " - ");
		if (!dash || sscanf(dash + 3, "%63s %255s", t, s) != 2)
			continue;
		snprintf(type, tlen, "%s", t);
		snprintf(src, slen, "%s", s);
		found = 0;
	}
	fclose(f);
	return found;
}

void file_fs_name(int fd, char *buf, size_t len)
{
	struct stat st;
	struct statfs sfs;
	char type[64], src[256];
	const char *name;

	if (fstat(fd, &st) == 0 &&
	    mountinfo_find(major(st.st_dev), minor(st.st_dev), type,
			   sizeof(type), src, sizeof(src)) == 0) {
		if (strcmp(src, "none") == 0 || strcmp(src, type) == 0)
			snprintf(buf, len, "%s", type);
		else
			snprintf(buf, len, "%s on %s", type, src);
		return;
	}
	if (fstatfs(fd, &sfs) != 0) {
		snprintf(buf, len, "an unknown file system (statfs: %s)",
			 strerror(errno));
		return;
	}
	name = file_fs_magic_name((unsigned long)sfs.f_type);
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "file system type %#lx",
			 (unsigned long)sfs.f_type);
}

long file_resident_pages(int fd, size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = (bytes + page - 1) / page, i;
	unsigned char *vec;
	void *map;
	long n = 0;

	if (bytes == 0)
		return 0;
	vec = malloc(pages);
	if (!vec)
		return -1;
	map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		free(vec);
		return -1;
	}
	if (mincore(map, bytes, vec) != 0) {
		n = -1;
	} else {
		for (i = 0; i < pages; i++)
			n += vec[i] & 1;
	}
	munmap(map, bytes);
	free(vec);
	return n;
}

/* An unnamed regular file in dir; -1 with the reason in err. */
static int open_unnamed(struct file_scratch *s, const char *dir,
			const char *who, char *err, size_t len)
{
	static bool announced;
	char path[FILE_TMPDIR_MAX + 32];
	int fd, e;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	e = errno;
	if (e != EOPNOTSUPP && e != EISDIR && e != EINVAL) {
		snprintf(err, len, "open(%s, O_TMPFILE): %s", dir,
			 strerror(e));
		return -1;
	}
	/* O_TMPFILE not supported here: a named file, unlinked at once */
	snprintf(path, sizeof(path), "%s/copyscope-%s-XXXXXX", dir, who);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, len, "mkstemp in %s: %s", dir, strerror(errno));
		return -1;
	}
	if (unlink(path) != 0) {
		snprintf(err, len, "unlink %s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	s->named = true;
	if (!announced)
		msg_error("%s: %s refuses O_TMPFILE (%s): the scratch file "
			  "is made with mkstemp and unlinked at once", who, dir,
			  strerror(e));
	announced = true;
	return fd;
}

int file_put_pattern(int fd, uint8_t *buf, size_t n, uint64_t pos,
		     const char *what, char *err)
{
	size_t done = 0;

	pattern_fill(buf, n, pos);
	while (done < n) {
		ssize_t w = pwrite(fd, buf + done, n - done, (off_t)done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			snprintf(err, WL_ERR_LEN, "%s: pwrite of %zu bytes: %s",
				 what, n, w < 0 ? strerror(errno)
						: "wrote nothing");
			return WL_EFAIL;
		}
		done += (size_t)w;
	}
	return WL_OK;
}

/* Fill the first s->bytes bytes with the stream from pos, in chunks. */
static int fill(struct file_scratch *s, uint64_t pos, char *err, size_t len)
{
	size_t chunk = s->bytes < CHUNK ? s->bytes : CHUNK, done = 0;
	uint8_t *buf = malloc(chunk);

	if (!buf) {
		snprintf(err, len, "out of memory");
		return WL_EFAIL;
	}
	while (done < s->bytes) {
		size_t n = s->bytes - done < chunk ? s->bytes - done : chunk;
		ssize_t w;

		pattern_fill(buf, n, pos + done);
		w = pwrite(s->fd, buf, n, (off_t)done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			snprintf(err, len, "pwrite to fill %zu bytes: %s",
				 s->bytes, w < 0 ? strerror(errno)
						 : "wrote nothing");
			free(buf);
			return WL_EFAIL;
		}
		done += (size_t)w;
	}
	free(buf);
	return WL_OK;
}

/* Every page of the file in the page cache, reading it in once if not. */
static int check_resident(struct file_scratch *s, char *err, size_t len)
{
	long n = file_resident_pages(s->fd, s->bytes);
	size_t page = (size_t)sysconf(_SC_PAGESIZE), off;
	char c;

	if (n >= 0 && (size_t)n < s->pages) {
		for (off = 0; off < s->bytes; off += page)
			if (pread(s->fd, &c, 1, (off_t)off) < 0)
				break;
		n = file_resident_pages(s->fd, s->bytes);
	}
	if (n < 0) {
		snprintf(err, len, "mincore: %s", strerror(errno));
		return WL_EFAIL;
	}
	s->resident = (size_t)n;
	if (s->resident < s->pages) {
		snprintf(err, len, "only %zu of %zu pages of the scratch file "
			 "stay in the page cache (memory pressure?)",
			 s->resident, s->pages);
		return WL_EFAIL;
	}
	return WL_OK;
}

int file_scratch_open(struct file_scratch *s, int target, const char *dir,
		      size_t bytes, uint64_t pattern_pos, const char *who,
		      char *err, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char name[64];

	memset(s, 0, sizeof(*s));
	s->target = target;
	s->bytes = bytes;
	s->pages = (bytes + page - 1) / page;
	if (target == FILE_TARGET_MEMFD) {
		snprintf(name, sizeof(name), "copyscope-%s", who);
		s->fd = memfd_create(name, MFD_CLOEXEC);
		if (s->fd < 0) {
			snprintf(err, len, "memfd_create: %s",
				 strerror(errno));
			return WL_EFAIL;
		}
		snprintf(s->fs, sizeof(s->fs), "shmem");
	} else {
		s->fd = open_unnamed(s, dir, who, err, len);
		if (s->fd < 0)
			return WL_EFAIL;
		file_fs_name(s->fd, s->fs, sizeof(s->fs));
	}
	if (fill(s, pattern_pos, err, len) != WL_OK)
		goto fail;
	if (target == FILE_TARGET_FILE && fsync(s->fd) != 0) {
		snprintf(err, len, "fsync of the scratch file in %s: %s", dir,
			 strerror(errno));
		goto fail;
	}
	if (check_resident(s, err, len) != WL_OK)
		goto fail;
	return WL_OK;
fail:
	file_scratch_close(s);
	return WL_EFAIL;
}

void file_scratch_close(struct file_scratch *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

void file_scratch_describe(const struct file_scratch *s, const char *dir,
			   char *buf, size_t len)
{
	if (s->target == FILE_TARGET_MEMFD)
		snprintf(buf, len, "a memfd (shmem)");
	else
		snprintf(buf, len, "a file on %s in %s", s->fs, dir);
}

int file_check_pattern(int fd, uint8_t *buf, uint8_t *scratch, size_t n,
		       uint64_t pos, struct pattern_errors *e,
		       const char *what, char *err)
{
	size_t done = 0;

	memset(buf, POISON, n);
	while (done < n) {
		ssize_t r = pread(fd, buf + done, n - done, (off_t)done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, WL_ERR_LEN, "%s: reading back %zu bytes: "
				 "%s", what, n, r < 0 ? strerror(errno) :
				 "end of file");
			return WL_EFAIL;
		}
		done += (size_t)r;
	}
	pattern_check(buf, n, pos, scratch, e);
	return WL_OK;
}

int file_read_full(int fd, uint8_t *buf, size_t n, const char *what,
		   char *err)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = read(fd, buf + done, n - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, WL_ERR_LEN, "%s: read %zu of %zu bytes: "
				 "%s", what, done, n, r < 0 ? strerror(errno)
							    : "end of data");
			return WL_EFAIL;
		}
		done += (size_t)r;
	}
	return WL_OK;
}

uint64_t file_verify_ops(uint64_t nops, size_t size)
{
	uint64_t most = size ? FILE_VERIFY_MAX_BYTES / size : nops;

	if (nops > FILE_VERIFY_MAX_OPS)
		nops = FILE_VERIFY_MAX_OPS;
	if (nops > most)
		nops = most;
	return nops ? nops : 1;
}

long file_verify_report(const struct file_verify *v, char *buf, size_t len)
{
	long total;
	int used;

	if (v->ops == 0 && v->counted > 0) {
		snprintf(buf, len, "%llu ops each moved their full size; no "
			 "bytes arrive anywhere to be checked",
			 (unsigned long long)v->counted);
		return 0;
	}
	total = pattern_report(&v->errs, v->ops, "ops checked", buf, len);
	used = (int)strlen(buf);
	if (v->counted && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, "; %llu more ops "
			 "counted only", (unsigned long long)v->counted);
	return total;
}

static const char *const libc_set[] = { "engine=libc", NULL };
static const char *const movsb_set[] = { "engine=movsb", NULL };
static const char *const size_same[] = { "size", NULL };
static const struct wl_floor file_floors[] = {
	{ .workload = "mem.copy", .set = libc_set, .same = size_same },
	{ .workload = "mem.copy", .set = movsb_set, .same = size_same },
};

const struct wl_explain file_explain_per_call = {
	.kind = WL_EXPLAIN_PER_BYTE,
	.metric = "bandwidth",
	.floors = file_floors,
	.nfloors = ARRAY_SIZE(file_floors),
	.per = "call",
};

const struct wl_explain file_explain_per_op = {
	.kind = WL_EXPLAIN_PER_BYTE,
	.metric = "bandwidth",
	.floors = file_floors,
	.nfloors = ARRAY_SIZE(file_floors),
	.per = "op",
};

void file_teardown(struct wl_ctx *ctx, void (*close_priv)(void *priv))
{
	if (!ctx->priv)
		return;
	close_priv(ctx->priv);
	free(ctx->priv);
	ctx->priv = NULL;
}

void *file_worker_new(struct wl_worker *w, size_t bytes)
{
	void *s = calloc(1, bytes);

	if (!s)
		snprintf(w->err, WL_ERR_LEN, "out of memory");
	w->priv = s;
	return s;
}

int file_worker_bufs(struct wl_worker *w, size_t size, uint8_t fill,
		     uint8_t **buf, uint8_t **scratch, const char *why)
{
	*buf = wl_alloc_buf(size, fill);
	if (scratch)
		*scratch = wl_alloc_buf(size, 0);
	if (*buf && (!scratch || *scratch))
		return WL_OK;
	if (scratch)
		snprintf(w->err, WL_ERR_LEN, "cannot allocate 2 x %zu bytes%s",
			 size, why);
	else
		snprintf(w->err, WL_ERR_LEN, "cannot allocate a %zu-byte "
			 "buffer%s", size, why);
	return WL_EFAIL;
}

void file_worker_free(struct wl_worker *w, uint8_t *buf, uint8_t *scratch,
		      size_t size)
{
	wl_free_buf(buf, size);
	wl_free_buf(scratch, size);
	free(w->priv);
	w->priv = NULL;
}
