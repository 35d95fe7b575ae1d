/*
 * file_rw.c - file.rw: one read or write system call of `size` bytes
 * between user memory and the page cache of a memfd or of a regular file,
 * by iterator shape: ITER_UBUF (pread, pwrite), ITER_IOVEC (preadv,
 * pwritev of `segs` segments) and the preadv2/pwritev2 flags that change
 * the path (RWF_NOWAIT, RWF_HIPRI).
 *
 * One op: one call of `size` bytes at offset 0, in one pinned thread:
 *   flags=none   segs=1: pread(2)/pwrite(2), the kernel builds an
 *                ITER_UBUF; segs>1: preadv(2)/pwritev(2), an ITER_IOVEC
 *                of segs segments (consecutive slices of one buffer, the
 *                first size % segs of them one byte longer);
 *   flags=zero   preadv2(2)/pwritev2(2) with flags 0 (the baseline of the
 *                two below); a single segment is imported as ITER_UBUF
 *                since Linux 6.4;
 *   flags=nowait RWF_NOWAIT (IOCB_NOWAIT: fail with EAGAIN rather than
 *                block; shmem refuses it, and so do file systems without
 *                non-blocking buffered writes, e.g. ext4);
 *   flags=hipri  RWF_HIPRI (IOCB_HIPRI: poll for completion, a hint only
 *                O_DIRECT block I/O uses; the page-cache path is expected
 *                to ignore it, which this measures).
 * The target is a memfd (shmem) or an unnamed file in tmpdir (its file
 * system's page cache, fsync'ed and checked resident before the samples);
 * it holds exactly size bytes, so no op allocates a page or grows the
 * file.  A read copies page cache to user memory (copy_to_user), a write
 * user memory to the page cache (copy_from_user) and dirties the pages:
 * on a disk file system the kernel writes them back in the background,
 * during the samples too, but never inside the call.  A flag the file
 * system refuses makes the configuration "cannot run here", with the
 * errno the probe call got.
 * Not measured: creating, filling and fsyncing the file, allocating and
 * prefaulting the buffer, building the iovec array, the verify pass; the
 * loop's compare and branch is not subtracted.  Over a size sweep the
 * report fits time/call = fixed + per byte x size, and --explain holds
 * the cost per byte against mem.copy (libc, movsb).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/common_metrics.h"
#include "core/common_params.h"
#include "util/array.h"
#include "workloads/file_common.h"
#include "workloads/wl_util.h"
#include "workloads/workloads.h"

static const char *const dir_choices[] = { "read", "write", NULL };
static const char *const flags_choices[] = { "none", "zero", "nowait",
					     "hipri", NULL };

enum { DIR_READ, DIR_WRITE };
enum { FLAGS_NONE, FLAGS_ZERO, FLAGS_NOWAIT, FLAGS_HIPRI };
/* The call one op makes. */
enum { CALL_PRW, CALL_PRWV, CALL_PRWV2 };

#define FILE_RW_MAX_SIZE (64LL << 20)
/* segs: at most IOV_MAX (<limits.h>), the range list shows and the parser
   enforces; validate() checks sysconf(_SC_IOV_MAX) too */

/* The parameters, bound by the core (ctx->params). */
struct file_rw_params {
	int64_t segs, size;
	const char *tmpdir;
	int target, dir, flags;
	bool verify;
};

static const struct param_def file_rw_param_defs[] = {
	FILE_PARAM_TARGET(struct file_rw_params, target, "memfd,file"),
	{ .name = "dir", .type = PARAM_ENUM, .def = "read",
	  .choices = dir_choices,
	  .help = "read: page cache to the buffer, write: the buffer to "
		  "the page cache",
	  PARAM_FIELD(struct file_rw_params, dir) },
	{ .name = "flags", .type = PARAM_ENUM, .def = "none",
	  .choices = flags_choices,
	  .help = "none: pread/pwrite (segs 1) or preadv/pwritev; zero, "
		  "nowait, hipri: preadv2/pwritev2 with 0, RWF_NOWAIT, "
		  "RWF_HIPRI",
	  PARAM_FIELD(struct file_rw_params, flags) },
	{ .name = "segs", .type = PARAM_INT, .def = "1", .min = 1,
	  .max = IOV_MAX,
	  .help = "iovec segments per call (1: one buffer; at most "
		  "IOV_MAX and size)",
	  PARAM_FIELD(struct file_rw_params, segs) },
	{ .name = "size", .type = PARAM_SIZE, .def = "4k,64k,1M", .min = 1,
	  .max = FILE_RW_MAX_SIZE, .help = "bytes per call (one op)",
	  PARAM_FIELD(struct file_rw_params, size) },
	FILE_PARAM_TMPDIR(struct file_rw_params, tmpdir),
	WL_PARAM_VERIFY(struct file_rw_params, verify),
};

static const struct metric_def file_rw_metrics[] = {
	WL_METRIC_TIME_CALL("wall time per call of size bytes"),
	WL_METRIC_BANDWIDTH("bytes read or written per second"),
};

/* The coordinator's state (ctx->priv): the file and the call. */
struct file_rw {
	struct file_scratch file;
	int call, rwf;
	char what[48];			/* "preadv2(RWF_NOWAIT)" */
};

struct file_rw_worker {
	int fd, dir, call, rwf, segs;
	struct iovec *iov;
	uint8_t *buf, *scratch;
	size_t size;
	const char *what;
};

static int call_of(const struct file_rw_params *pp)
{
	if (pp->flags != FLAGS_NONE)
		return CALL_PRWV2;
	return pp->segs > 1 ? CALL_PRWV : CALL_PRW;
}

static int rwf_of(int flags)
{
	switch (flags) {
	case FLAGS_NOWAIT:
		return RWF_NOWAIT;
	case FLAGS_HIPRI:
		return RWF_HIPRI;
	default:
		return 0;
	}
}

/* "pread", "pwritev2(RWF_NOWAIT)": the call's name, for notes. */
static void call_name(int dir, int call, int flags, char *buf, size_t len)
{
	static const char *const base[2][3] = {
		{ "pread", "preadv", "preadv2" },
		{ "pwrite", "pwritev", "pwritev2" },
	};
	static const char *const fl[] = { "", "0", "RWF_NOWAIT",
					  "RWF_HIPRI" };

	if (call == CALL_PRWV2)
		snprintf(buf, len, "%s(%s)", base[dir][call], fl[flags]);
	else
		snprintf(buf, len, "%s", base[dir][call]);
}

static long iov_max(void)
{
	long v = sysconf(_SC_IOV_MAX);

	return v > 0 ? v : IOV_MAX;
}

static int file_rw_validate(const void *params, char *err, size_t len)
{
	const struct file_rw_params *pp = params;
	long lim = iov_max();

	if (pp->segs > lim) {
		snprintf(err, len, "segs: %lld is above IOV_MAX (%ld, "
			 "sysconf(_SC_IOV_MAX)), the most segments the kernel "
			 "takes in one call; allowed: 1 .. %ld",
			 (long long)pp->segs, lim, lim);
		return WL_EUSAGE;
	}
	if (pp->segs > pp->size) {
		snprintf(err, len, "segs: %lld segments of a %lld-byte call "
			 "leave some empty; allowed: 1 .. size (%lld)",
			 (long long)pp->segs, (long long)pp->size,
			 (long long)pp->size);
		return WL_EUSAGE;
	}
	if (pp->target == FILE_TARGET_FILE)
		return file_check_tmpdir(pp->tmpdir, err, len);
	return WL_OK;
}

/* One call of s's kind on buf (the iovec array for the vectored ones). */
static ssize_t one_call(const struct file_rw_worker *s)
{
	if (s->dir == DIR_READ) {
		switch (s->call) {
		case CALL_PRW:
			return pread(s->fd, s->buf, s->size, 0);
		case CALL_PRWV:
			return preadv(s->fd, s->iov, s->segs, 0);
		default:
			return preadv2(s->fd, s->iov, s->segs, 0, s->rwf);
		}
	}
	switch (s->call) {
	case CALL_PRW:
		return pwrite(s->fd, s->buf, s->size, 0);
	case CALL_PRWV:
		return pwritev(s->fd, s->iov, s->segs, 0);
	default:
		return pwritev2(s->fd, s->iov, s->segs, 0, s->rwf);
	}
}

/*
 * preadv2/pwritev2 with a flag: can this file system take it?  One call
 * of one page on a scratch file of the same kind in the same directory.
 */
static bool file_rw_config_supported(const void *params, char *why,
				     size_t len)
{
	const struct file_rw_params *pp = params;
	struct file_scratch f;
	struct file_rw_worker s;
	uint8_t page[4096];
	struct iovec iov = { page, sizeof(page) };
	char err[WL_ERR_LEN], name[48], where[WL_ERR_LEN];
	ssize_t n;
	int e;

	if (pp->flags == FLAGS_NONE)
		return true;
	memset(page, 0x5a, sizeof(page));
	if (file_scratch_open(&f, pp->target, pp->tmpdir, sizeof(page), 0,
			      "file.rw", err, sizeof(err)) != WL_OK) {
		snprintf(why, len, "cannot make a scratch file to try "
			 "the flag: %s", err);
		return false;
	}
	memset(&s, 0, sizeof(s));
	s.fd = f.fd;
	s.dir = pp->dir;
	s.call = CALL_PRWV2;
	s.rwf = rwf_of(pp->flags);
	s.iov = &iov;
	s.segs = 1;
	n = one_call(&s);
	e = errno;
	file_scratch_describe(&f, pp->tmpdir, where, sizeof(where));
	file_scratch_close(&f);
	if (n == (ssize_t)sizeof(page))
		return true;
	call_name(pp->dir, CALL_PRWV2, pp->flags, name, sizeof(name));
	if (n < 0 && (e == EOPNOTSUPP || e == EINVAL))
		snprintf(why, len, "%s on %s: %s: the file system refuses "
			 "the flag", name, where, strerror(e));
	else if (n < 0 && e == ENOSYS)
		snprintf(why, len, "%s: this kernel has no %s (%s)", name,
			 pp->dir == DIR_READ ? "preadv2" : "pwritev2",
			 strerror(e));
	else
		snprintf(why, len, "%s on %s of one page: %s", name, where,
			 n < 0 ? strerror(e) : "short call");
	return false;
}

static int file_rw_setup(struct wl_ctx *ctx)
{
	const struct file_rw_params *pp = ctx->params;
	struct file_rw *f = calloc(1, sizeof(*f));
	char where[WL_ERR_LEN], shape[48];

	if (!f) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	f->call = call_of(pp);
	f->rwf = rwf_of(pp->flags);
	call_name(pp->dir, f->call, pp->flags, f->what, sizeof(f->what));
	if (file_scratch_open(&f->file, pp->target, pp->tmpdir,
			      (size_t)pp->size, 0, "file.rw", ctx->err,
			      sizeof(ctx->err)) != WL_OK) {
		free(f);
		return WL_EFAIL;
	}
	ctx->priv = f;
	if (pp->segs > 1)
		snprintf(shape, sizeof(shape), "%lld segments: ITER_IOVEC",
			 (long long)pp->segs);
	else if (f->call == CALL_PRW)
		snprintf(shape, sizeof(shape), "one buffer: ITER_UBUF");
	else	/* import_iovec of one segment, since Linux 6.4 */
		snprintf(shape, sizeof(shape), "one segment: ITER_UBUF");
	file_scratch_describe(&f->file, pp->tmpdir, where, sizeof(where));
	snprintf(ctx->note, sizeof(ctx->note), "%s, %s, %s %s; %zu page%s, "
		 "all in the page cache", f->what, shape,
		 pp->dir == DIR_READ ? "from" : "to", where, f->file.pages,
		 f->file.pages == 1 ? "" : "s");
	ctx->nworkers = 1;
	ctx->worker_name[0] = "caller";
	ctx->hist_worker = 0;
	ctx->bytes_per_op = (double)pp->size;
	ctx->shared_bytes = sizeof(struct file_verify);
	return WL_OK;
}

static void file_rw_worker_fini(struct wl_worker *w);

static int file_rw_worker_init(struct wl_worker *w)
{
	const struct file_rw_params *pp = w->ctx->params;
	const struct file_rw *f = w->ctx->priv;
	struct file_rw_worker *s = file_worker_new(w, sizeof(*s));
	size_t off = 0, base, extra;
	int i;

	if (!s)
		return WL_EFAIL;
	s->fd = f->file.fd;
	s->dir = pp->dir;
	s->call = f->call;
	s->rwf = f->rwf;
	s->segs = (int)pp->segs;
	s->size = (size_t)pp->size;
	s->what = f->what;
	if (file_worker_bufs(w, s->size, 0xa5, &s->buf,
			     pp->verify ? &s->scratch : NULL, "") != WL_OK) {
		file_rw_worker_fini(w);
		return WL_EFAIL;
	}
	s->iov = calloc((size_t)s->segs, sizeof(*s->iov));
	if (!s->iov) {
		snprintf(w->err, WL_ERR_LEN, "cannot allocate %d segments",
			 s->segs);
		file_rw_worker_fini(w);
		return WL_EFAIL;
	}
	base = s->size / (size_t)s->segs;
	extra = s->size % (size_t)s->segs;
	for (i = 0; i < s->segs; i++) {
		s->iov[i].iov_base = s->buf + off;
		s->iov[i].iov_len = base + ((size_t)i < extra);
		off += s->iov[i].iov_len;
	}
	return WL_OK;
}

/* A call that moved n of size bytes: the message, in err. */
static void call_failed(const struct file_rw_worker *s, ssize_t n,
			char *err)
{
	if (n < 0 && errno == EAGAIN && s->rwf == RWF_NOWAIT)
		snprintf(err, WL_ERR_LEN, "%s of %zu bytes: %s: it would have "
			 "blocked (a page left the page cache?)", s->what,
			 s->size, strerror(errno));
	else if (n < 0)
		snprintf(err, WL_ERR_LEN, "%s of %zu bytes: %s", s->what,
			 s->size, strerror(errno));
	else
		snprintf(err, WL_ERR_LEN, "%s of %zu bytes moved %zd", s->what,
			 s->size, n);
}

static int file_rw_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct file_rw_worker *s = w->priv;
	uint64_t i;

	for (i = 0; i < nops; i++) {
		ssize_t n = one_call(s);
		int retry;

		if (n == (ssize_t)s->size)
			continue;
		retry = wl_call_retry(n);
		if (retry > 0) {
			i--;
			continue;
		}
		if (retry == 0)
			return 0;
		call_failed(s, n, w->err);
		return WL_EFAIL;
	}
	return 0;
}

/* One op of the verify pass on a fresh stretch of the stream at pos. */
static int verify_one(struct file_rw_worker *s, uint64_t pos,
		      struct pattern_errors *e, char *err)
{
	ssize_t n;

	if (s->dir == DIR_READ) {
		if (file_put_pattern(s->fd, s->scratch, s->size, pos,
				     "file.rw verify", err) != WL_OK)
			return WL_EFAIL;
		memset(s->buf, 0xe7, s->size);
	} else {
		pattern_fill(s->buf, s->size, pos);
	}
	do
		n = one_call(s);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)s->size) {
		call_failed(s, n, err);
		return WL_EFAIL;
	}
	if (s->dir == DIR_READ) {
		pattern_check(s->buf, s->size, pos, s->scratch, e);
		return WL_OK;
	}
	return file_check_pattern(s->fd, s->buf, s->scratch, s->size, pos, e,
				  "file.rw verify", err);
}

/*
 * Untimed: each op moves a fresh stretch of the pattern stream (a read:
 * written into the file first, read into a poisoned buffer; a write: from
 * the buffer, read back from the file into a poisoned buffer) and checks
 * every byte.
 */
static int file_rw_verify_batch(struct wl_worker *w, uint64_t nops)
{
	struct file_rw_worker *s = w->priv;
	struct file_verify *v = w->ctx->shared;
	uint64_t i;

	memset(v, 0, sizeof(*v));
	nops = file_verify_ops(nops, s->size);
	for (i = 0; i < nops; i++) {
		if (verify_one(s, (i + 1) * s->size, &v->errs, w->err) !=
		    WL_OK)
			return WL_EFAIL;
		v->ops++;
	}
	return WL_OK;
}

static long file_rw_verify(struct wl_ctx *ctx, char *buf, size_t len)
{
	return file_verify_report(ctx->shared, buf, len);
}

static void file_rw_worker_fini(struct wl_worker *w)
{
	struct file_rw_worker *s = w->priv;

	if (!s)
		return;
	free(s->iov);
	file_worker_free(w, s->buf, s->scratch, s->size);
}

static void file_rw_close(void *priv)
{
	struct file_rw *f = priv;

	file_scratch_close(&f->file);
}

static void file_rw_teardown(struct wl_ctx *ctx)
{
	file_teardown(ctx, file_rw_close);
}

/* the cost per call split into a fixed part and a part per byte */
static const struct wl_fit file_rw_fit = {
	.param = "size", .metric = "time/call", .per = "byte", .bytes = true,
};

/* the kernel's copy held against userspace memcpy and rep movsb */
const struct workload wl_file_rw = {
	.name = "file.rw",
	.summary = "one read or write call by size (ubuf, iovec, preadv2 "
		   "flags) on the page cache of a memfd or a file",
	.op = "one read or write call of size bytes at offset 0 (segs "
	      "segments; flags: preadv2/pwritev2)",
	.not_measured = "creating, filling and fsyncing the file, the "
			"buffer and iovec set-up, background writeback of "
			"dirtied pages, the verify pass; the loop's "
			"compare-and-branch is not subtracted",
	.params = file_rw_param_defs,
	.nparams = ARRAY_SIZE(file_rw_param_defs),
	.params_size = sizeof(struct file_rw_params),
	.metrics = file_rw_metrics,
	.nmetrics = ARRAY_SIZE(file_rw_metrics),
	.caps = WL_CAP_VERIFY,
	.validate = file_rw_validate,
	.config_supported = file_rw_config_supported,
	.setup = file_rw_setup,
	.worker_init = file_rw_worker_init,
	.run_batch = file_rw_run_batch,
	.verify_batch = file_rw_verify_batch,
	.verify = file_rw_verify,
	.worker_fini = file_rw_worker_fini,
	.teardown = file_rw_teardown,
	.fit = &file_rw_fit,
	.explain = &file_explain_per_call,
};
