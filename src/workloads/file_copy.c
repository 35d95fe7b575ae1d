/*
 * file_copy.c - file.copy: copy_file_range(2) of `size` bytes from the
 * page cache of one memfd or regular file to another, by size: a copy
 * that never reaches user space.
 *
 * One op: copy_file_range(source at offset 0, destination at offset 0,
 * size) in one pinned thread.  Both files are prefilled to size bytes and
 * in the page cache, so the copy overwrites cached pages and neither file
 * grows.  Which path the kernel takes is its file systems' choice
 * (vfs_copy_file_range, Linux 6.7 and later): a ->copy_file_range of the
 * destination's (NFS, CIFS, FUSE, ceph: offload), else a clone
 * (->remap_file_range: xfs, btrfs, bcachefs; blocks shared, no bytes
 * copied) where both are on one file system and the range suits it, else
 * splice_file_range: the source's pages into the task's internal pipe by
 * reference (filemap_splice_read) and the destination's write_iter
 * copying them from an ITER_BVEC into its page cache (a kernel memcpy);
 * the pages it writes are dirtied.  shmem (a memfd) and ext4 have neither
 * ->copy_file_range nor a clone: they take the splice copy.  setup() tries
 * FICLONE on two scratch files of the same kinds and says in the note
 * whether a clone is possible here.  Across two file systems the kernel
 * copies only where both implement the same ->copy_file_range; otherwise
 * it refuses (EXDEV), and the configuration is "cannot run here" with
 * that reason.
 * Not measured: creating, filling and fsyncing the files, the clone
 * probe, background writeback, the verify pass; the loop's compare and
 * branch is not subtracted.  Over a size sweep the report fits time/call
 * = fixed + per byte x size, and --explain holds the cost per byte
 * against mem.copy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>

#include "core/common_metrics.h"
#include "core/common_params.h"
#include "util/array.h"
#include "workloads/file_common.h"
#include "workloads/wl_util.h"
#include "workloads/workloads.h"

static const char *const to_choices[] = { "same", "memfd", "file", NULL };

enum { TO_SAME, TO_MEMFD, TO_FILE };

#define FILE_COPY_MAX_SIZE (64LL << 20)

/* The parameters, bound by the core (ctx->params). */
struct file_copy_params {
	int64_t size;
	const char *tmpdir;
	int target, to;
	bool verify;
};

static const struct param_def file_copy_param_defs[] = {
	FILE_PARAM_TARGET(struct file_copy_params, target, "memfd,file"),
	{ .name = "to", .type = PARAM_ENUM, .def = "same",
	  .choices = to_choices,
	  .help = "the destination: same (a second file like the target), "
		  "memfd, file (in tmpdir)",
	  PARAM_FIELD(struct file_copy_params, to) },
	{ .name = "size", .type = PARAM_SIZE, .def = "4k,64k,1M", .min = 1,
	  .max = FILE_COPY_MAX_SIZE, .help = "bytes per call (one op)",
	  PARAM_FIELD(struct file_copy_params, size) },
	FILE_PARAM_TMPDIR(struct file_copy_params, tmpdir),
	WL_PARAM_VERIFY(struct file_copy_params, verify),
};

static const struct metric_def file_copy_metrics[] = {
	WL_METRIC_TIME_CALL("wall time per copy_file_range of size bytes"),
	WL_METRIC_BANDWIDTH("bytes copied per second"),
};

/* The coordinator's state (ctx->priv), shared by the worker thread. */
struct file_copy {
	struct file_scratch src, dst;
};

struct file_copy_worker {
	const struct file_copy *f;
	size_t size;
	uint8_t *buf, *scratch;		/* verify */
};

static int dst_kind(const struct file_copy_params *pp)
{
	if (pp->to == TO_SAME)
		return pp->target;
	return pp->to == TO_MEMFD ? FILE_TARGET_MEMFD : FILE_TARGET_FILE;
}

static int file_copy_validate(const void *params, char *err, size_t len)
{
	const struct file_copy_params *pp = params;

	if (pp->target == FILE_TARGET_FILE ||
	    dst_kind(pp) == FILE_TARGET_FILE)
		return file_check_tmpdir(pp->tmpdir, err, len);
	return WL_OK;
}

/* Copy exactly n bytes from offset 0 to offset 0; 1, 0 (interrupted) or
   -1 with errno set. */
static int copy_all(int in, int out, size_t n)
{
	size_t done = 0;

	while (done < n) {
		loff_t oi = (loff_t)done, oo = (loff_t)done;
		ssize_t r = copy_file_range(in, &oi, out, &oo, n - done, 0);
		int retry;

		if (r > 0) {
			done += (size_t)r;
			continue;
		}
		if (r == 0)
			errno = ENODATA;
		retry = wl_call_retry(r);
		if (retry > 0)
			continue;
		if (retry == 0)
			return 0;
		return -1;
	}
	return 1;
}

/* Open src and dst scratch files of bytes bytes for pp. */
static int open_pair(struct file_scratch *src, struct file_scratch *dst,
		     const struct file_copy_params *pp, size_t bytes,
		     char *err, size_t len)
{
	if (file_scratch_open(src, pp->target, pp->tmpdir, bytes, 0,
			      "file.copy", err, len) != WL_OK)
		return WL_EFAIL;
	/* the destination holds other bytes: a copy must change them */
	if (file_scratch_open(dst, dst_kind(pp), pp->tmpdir, bytes,
			      1ULL << 40, "file.copy", err, len) != WL_OK) {
		file_scratch_close(src);
		return WL_EFAIL;
	}
	return WL_OK;
}

/*
 * Can the kernel copy between these two kinds of file here?  One copy of
 * one page between two scratch files like the run's.
 */
static bool file_copy_config_supported(const void *params, char *why,
				       size_t len)
{
	const struct file_copy_params *pp = params;
	struct file_scratch src, dst;
	char err[WL_ERR_LEN], a[WL_ERR_LEN], b[WL_ERR_LEN];
	int r, e;

	if (open_pair(&src, &dst, pp, 4096, err, sizeof(err)) != WL_OK) {
		snprintf(why, len, "cannot make scratch files to try the "
			 "copy: %s", err);
		return false;
	}
	r = copy_all(src.fd, dst.fd, 4096);
	e = errno;
	file_scratch_describe(&src, pp->tmpdir, a, sizeof(a));
	file_scratch_describe(&dst, pp->tmpdir, b, sizeof(b));
	file_scratch_close(&src);
	file_scratch_close(&dst);
	if (r == 1)
		return true;
	if (e == EXDEV)
		snprintf(why, len, "copy_file_range from %s to %s: %s: the "
			 "kernel copies across file systems only where both "
			 "have the same ->copy_file_range (NFS, CIFS); use "
			 "to=same", a, b, strerror(e));
	else
		snprintf(why, len, "copy_file_range from %s to %s: %s", a, b,
			 strerror(e));
	return false;
}

/* Does FICLONE work between two scratch files like the run's? */
static void clone_probe(const struct file_copy_params *pp, char *buf,
			size_t len)
{
	struct file_scratch src, dst;
	char err[WL_ERR_LEN];

	if (open_pair(&src, &dst, pp, 4096, err, sizeof(err)) != WL_OK) {
		snprintf(buf, len, "no clone probe (%s)", err);
		return;
	}
	if (ioctl(dst.fd, FICLONE, src.fd) == 0)
		snprintf(buf, len, "FICLONE works here: the kernel may clone "
			 "(share blocks) instead of copying");
	else
		snprintf(buf, len, "no clone here (FICLONE: %s): the kernel "
			 "copies by splice", strerror(errno));
	file_scratch_close(&src);
	file_scratch_close(&dst);
}

static int file_copy_setup(struct wl_ctx *ctx)
{
	const struct file_copy_params *pp = ctx->params;
	struct file_copy *f = calloc(1, sizeof(*f));
	char a[WL_ERR_LEN], b[WL_ERR_LEN], clone[128];

	if (!f) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	if (open_pair(&f->src, &f->dst, pp, (size_t)pp->size, ctx->err,
		      sizeof(ctx->err)) != WL_OK) {
		free(f);
		return WL_EFAIL;
	}
	ctx->priv = f;
	clone_probe(pp, clone, sizeof(clone));
	file_scratch_describe(&f->src, pp->tmpdir, a, sizeof(a));
	file_scratch_describe(&f->dst, pp->tmpdir, b, sizeof(b));
	if (strcmp(a, b) == 0)
		snprintf(ctx->note, sizeof(ctx->note), "copy_file_range from "
			 "%s to another like it; %s", a, clone);
	else
		snprintf(ctx->note, sizeof(ctx->note), "copy_file_range from "
			 "%s to %s; %s", a, b, clone);
	ctx->nworkers = 1;
	ctx->worker_name[0] = "caller";
	ctx->hist_worker = 0;
	ctx->bytes_per_op = (double)pp->size;
	ctx->shared_bytes = sizeof(struct file_verify);
	return WL_OK;
}

static void file_copy_worker_fini(struct wl_worker *w);

static int file_copy_worker_init(struct wl_worker *w)
{
	const struct file_copy_params *pp = w->ctx->params;
	struct file_copy_worker *s = file_worker_new(w, sizeof(*s));

	if (!s)
		return WL_EFAIL;
	s->f = w->ctx->priv;
	s->size = (size_t)pp->size;
	if (pp->verify && file_worker_bufs(w, s->size, 0, &s->buf, &s->scratch,
					   " to verify") != WL_OK) {
		file_copy_worker_fini(w);
		return WL_EFAIL;
	}
	return WL_OK;
}

static int copy_failed(const struct file_copy_worker *s, char *err)
{
	snprintf(err, WL_ERR_LEN, "copy_file_range of %zu bytes: %s",
		 s->size, strerror(errno));
	return WL_EFAIL;
}

static int file_copy_run_batch(struct wl_worker *w, uint64_t nops)
{
	const struct file_copy_worker *s = w->priv;
	uint64_t i;

	for (i = 0; i < nops; i++) {
		int r = copy_all(s->f->src.fd, s->f->dst.fd, s->size);

		if (r < 0)
			return copy_failed(s, w->err);
		if (r == 0)
			return 0;
	}
	return 0;
}

/*
 * Untimed: each op copies a fresh stretch of the pattern stream (written
 * into the source first) and reads the destination back into a poisoned
 * buffer; every byte is checked.
 */
static int file_copy_verify_batch(struct wl_worker *w, uint64_t nops)
{
	const struct file_copy_worker *s = w->priv;
	struct file_verify *v = w->ctx->shared;
	uint64_t i, pos;

	memset(v, 0, sizeof(*v));
	nops = file_verify_ops(nops, s->size);
	for (i = 0; i < nops; i++) {
		pos = (i + 1) * s->size;
		if (file_put_pattern(s->f->src.fd, s->scratch, s->size, pos,
				     "file.copy verify", w->err) != WL_OK)
			return WL_EFAIL;
		if (copy_all(s->f->src.fd, s->f->dst.fd, s->size) != 1)
			return copy_failed(s, w->err);
		if (file_check_pattern(s->f->dst.fd, s->buf, s->scratch,
				       s->size, pos, &v->errs,
				       "file.copy verify", w->err) != WL_OK)
			return WL_EFAIL;
		v->ops++;
	}
	return WL_OK;
}

static long file_copy_verify(struct wl_ctx *ctx, char *buf, size_t len)
{
	return file_verify_report(ctx->shared, buf, len);
}

static void file_copy_worker_fini(struct wl_worker *w)
{
	struct file_copy_worker *s = w->priv;

	if (s)
		file_worker_free(w, s->buf, s->scratch, s->size);
}

static void file_copy_close(void *priv)
{
	struct file_copy *f = priv;

	file_scratch_close(&f->src);
	file_scratch_close(&f->dst);
}

static void file_copy_teardown(struct wl_ctx *ctx)
{
	file_teardown(ctx, file_copy_close);
}

static const struct wl_fit file_copy_fit = {
	.param = "size", .metric = "time/call", .per = "byte", .bytes = true,
};

const struct workload wl_file_copy = {
	.name = "file.copy",
	.summary = "copy_file_range(2) between two files' page caches by "
		   "size: a copy that never reaches user space",
	.op = "one copy_file_range of size bytes from offset 0 to offset 0",
	.not_measured = "creating, filling and fsyncing the files, the clone "
			"probe, background writeback, the verify pass; the "
			"loop's compare-and-branch is not subtracted",
	.params = file_copy_param_defs,
	.nparams = ARRAY_SIZE(file_copy_param_defs),
	.params_size = sizeof(struct file_copy_params),
	.metrics = file_copy_metrics,
	.nmetrics = ARRAY_SIZE(file_copy_metrics),
	.caps = WL_CAP_VERIFY,
	.validate = file_copy_validate,
	.config_supported = file_copy_config_supported,
	.setup = file_copy_setup,
	.worker_init = file_copy_worker_init,
	.run_batch = file_copy_run_batch,
	.verify_batch = file_copy_verify_batch,
	.verify = file_copy_verify,
	.worker_fini = file_copy_worker_fini,
	.teardown = file_copy_teardown,
	.fit = &file_copy_fit,
	.explain = &file_explain_per_call,
};
