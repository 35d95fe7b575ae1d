/*
 * file_common.h - what the file workloads (file.rw, file.splice,
 * file.sendfile, file.copy) share: the target row (a memfd or a regular
 * file of the machine's own file system) and the directory row, making a
 * scratch file that is filled, kept in the page cache and has no name,
 * saying which file system it is on, and checking the bytes that arrive.
 */
#ifndef COPYSCOPE_FILE_COMMON_H
#define COPYSCOPE_FILE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/param.h"
#include "core/workload.h"
#include "workloads/pattern.h"

/* Where the bytes live: the target row's choices, in order. */
enum file_target { FILE_TARGET_MEMFD, FILE_TARGET_FILE };

/* { "memfd", "file", NULL } */
extern const char *const file_target_choices[];

/*
 * The default directory of target=file: /var/tmp is on the machine's disk
 * file system on most systems, where /tmp is often a tmpfs (which a memfd
 * already covers).
 */
#define FILE_TMPDIR_DEFAULT "/var/tmp"
#define FILE_TMPDIR_MAX 255		/* longest tmpdir accepted: a value of
					   key=value fits the parser's 256 */

/* target (enum, binds an int): memfd or file, default both. */
#define FILE_PARAM_TARGET(st, member, dflt)				\
	{ .name = "target", .type = PARAM_ENUM, .def = (dflt),		\
	  .choices = file_target_choices,				\
	  .help = "memfd: a shmem file; file: a regular file in "	\
		  "tmpdir (its file system's page cache)",		\
	  PARAM_FIELD(st, member) }

/* tmpdir (string, binds a const char *). */
#define FILE_PARAM_TMPDIR(st, member)					\
	{ .name = "tmpdir", .type = PARAM_STRING,			\
	  .def = FILE_TMPDIR_DEFAULT, .max = FILE_TMPDIR_MAX,		\
	  .help = "directory of the scratch file of target=file (it "	\
		  "has no name there and is gone when the run ends)",	\
	  PARAM_FIELD(st, member) }

/*
 * For validate(): dir is an existing directory this user can write.
 * Returns WL_OK, or WL_EUSAGE with "tmpdir: DIR: reason; ..." in err.
 */
int file_check_tmpdir(const char *dir, char *err, size_t len);

/* One scratch file. */
struct file_scratch {
	int fd;				/* -1: none */
	int target;			/* enum file_target */
	size_t bytes;			/* filled and resident */
	size_t resident;		/* pages found in the page cache */
	size_t pages;			/* pages of bytes */
	bool named;			/* O_TMPFILE refused: it had a name
					   (unlinked at once) */
	char fs[96];			/* "ext4 on /dev/vda", "shmem" */
};

/*
 * Make a scratch file of the target's kind: a memfd, or (target=file) an
 * unnamed regular file in dir (O_TMPFILE; where the file system refuses
 * that, a mkstemp file unlinked at once, with a note on stderr once).
 * Either way it has no name: closing it frees it, so nothing is left
 * behind, whatever ends the run.  Its first `bytes` bytes are written
 * with the pattern stream from offset pattern_pos (pattern.h), a file is
 * fsync'ed (its pages are clean, so that no writeback is pending when
 * the samples start) and every page is checked to be in the page cache
 * (mincore).  who names the workload in messages.  Returns WL_OK, or
 * WL_EFAIL with the reason in err (the scratch is closed).
 */
int file_scratch_open(struct file_scratch *s, int target, const char *dir,
		      size_t bytes, uint64_t pattern_pos, const char *who,
		      char *err, size_t len);

/* Close a scratch file (fd -1 is ignored); the file is gone after. */
void file_scratch_close(struct file_scratch *s);

/*
 * Describe s for a note: "a memfd (shmem)" or "a file on ext4 (/dev/vda)
 * in /var/tmp", into buf.
 */
void file_scratch_describe(const struct file_scratch *s, const char *dir,
			   char *buf, size_t len);

/*
 * The file system that holds the open file fd: its type and source from
 * /proc/self/mountinfo (the mount whose device is fd's), else the type
 * from statfs(2)'s f_type, into buf ("ext4 on /dev/vda", "tmpfs").
 */
void file_fs_name(int fd, char *buf, size_t len);

/*
 * The name of a file system magic number (statfs f_type), or NULL for
 * one this table does not know.
 */
const char *file_fs_magic_name(unsigned long magic);

/*
 * Pages of the first `bytes` bytes of fd that are in the page cache
 * (mincore on a shared read-only mapping).  Returns the count, or -1
 * with errno set.
 */
long file_resident_pages(int fd, size_t bytes);

/*
 * Write the pattern stream [pos, pos + n) at offset 0 of fd (pwrite,
 * through buf, n bytes).  Returns WL_OK, or WL_EFAIL with "what: reason"
 * in err (WL_ERR_LEN bytes).
 */
int file_put_pattern(int fd, uint8_t *buf, size_t n, uint64_t pos,
		     const char *what, char *err);

/*
 * Read n bytes at offset 0 of fd (pread, as many calls as it takes) into
 * buf, which is first poisoned, and check them against the pattern
 * stream from pos (scratch: n bytes), accounting mismatches in e.
 * Returns WL_OK, or WL_EFAIL with "what: reason" in err when the read
 * fails or ends early.
 */
int file_check_pattern(int fd, uint8_t *buf, uint8_t *scratch, size_t n,
		       uint64_t pos, struct pattern_errors *e,
		       const char *what, char *err);

/*
 * Read exactly n bytes from fd (read, a pipe or a socket) into buf.
 * Returns WL_OK, or WL_EFAIL with "what: reason" in err.
 */
int file_read_full(int fd, uint8_t *buf, size_t n, const char *what,
		   char *err);

/* What the verify pass of a file workload found (in ctx->shared). */
struct file_verify {
	struct pattern_errors errs;
	uint64_t ops;			/* ops checked */
	uint64_t counted;		/* ops whose bytes could only be
					   counted (nothing arrives) */
};

/*
 * The verify pass's limits: at most this many ops and this many bytes
 * (always at least one op): a batch of small calls is millions long and
 * checking costs far more than the call.
 */
#define FILE_VERIFY_MAX_OPS 4096
#define FILE_VERIFY_MAX_BYTES (256ULL << 20)

/* nops cut to the verify pass's limits for ops of size bytes. */
uint64_t file_verify_ops(uint64_t nops, size_t size);

/*
 * The verify report of v into buf; returns the number of errors (as a
 * workload's verify() does).
 */
long file_verify_report(const struct file_verify *v, char *buf, size_t len);

/*
 * What --explain compares a file workload with: the bandwidth of one op
 * of size bytes against mem.copy's libc and movsb copies of the same
 * size (the floors every file workload shares).  per_call names an op
 * "call" (file.rw, file.copy), per_op "op" (file.splice, file.sendfile).
 */
extern const struct wl_explain file_explain_per_call;
extern const struct wl_explain file_explain_per_op;

/*
 * The worker_init of a file workload, its common part: a zeroed state of
 * bytes bytes, set as w->priv; NULL with "out of memory" in w->err.
 */
void *file_worker_new(struct wl_worker *w, size_t bytes);

/*
 * A worker's buffers of size bytes each: *buf, filled with fill, and when
 * scratch is not NULL *scratch, zeroed (what the verify pass reads back
 * into).  Returns WL_OK, or WL_EFAIL with "cannot allocate 2 x N bytes"
 * (or "a N-byte buffer" without scratch) and then why in w->err; the
 * caller's worker_fini frees what was allocated.
 */
int file_worker_bufs(struct wl_worker *w, size_t size, uint8_t fill,
		     uint8_t **buf, uint8_t **scratch, const char *why);

/*
 * The worker_fini of a file workload, its common part: unmaps buf and
 * scratch (size bytes each; NULL ignored), frees w->priv and clears it.
 */
void file_worker_free(struct wl_worker *w, uint8_t *buf, uint8_t *scratch,
		      size_t size);

/*
 * The teardown of a file workload whose ctx->priv is one malloc'ed block:
 * close_priv closes what the block holds (its scratch files, pipes and
 * descriptors), then the block is freed and ctx->priv cleared.  Without
 * a ctx->priv (setup failed early) nothing happens.
 */
void file_teardown(struct wl_ctx *ctx, void (*close_priv)(void *priv));

#endif
