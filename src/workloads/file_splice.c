/*
 * file_splice.c - file.splice: splice(2) between the page cache of a
 * memfd or a regular file and a pipe, and tee(2) between two pipes, by
 * size: the kernel paths that move pages between a file and a pipe.
 *
 * One op: the call named by `call` on `size` bytes, and the call that
 * lets the next op start (a pipe holds what one op put in it until
 * something takes it out, so no op can be one call alone):
 *   to_pipe    splice(target at offset 0 -> pipe) of size bytes, then
 *              splice(pipe -> /dev/null) of the same bytes: the first
 *              puts references to the file's page-cache pages in the
 *              pipe (filemap_splice_read, or shmem_file_splice_read for a
 *              memfd; ITER_PIPE before Linux 6.4), the second drops them
 *              (splice_write_null); no byte is copied;
 *   from_pipe  splice(a source memfd -> pipe) of size bytes (page
 *              references again), then splice(pipe -> target at offset
 *              0): iter_file_splice_write wraps the pipe's pages in an
 *              ITER_BVEC and the target's write_iter copies them into its
 *              page cache (a kernel memcpy); the pages it writes are
 *              dirtied, and a disk file system writes them back in the
 *              background;
 *   tee        tee(pipe A -> pipe B) of size bytes, then splice(B ->
 *              /dev/null): A holds references to the target's pages,
 *              spliced in once before the samples; tee takes another
 *              reference on each of A's buffers (link_pipe), no byte is
 *              copied.
 * Each pipe is made large enough for size bytes (F_SETPIPE_SZ; above
 * fs.pipe-max-size that needs CAP_SYS_RESOURCE and is refused up front),
 * so one call of each moves all the bytes.  The target is prefilled to
 * size bytes and in the page cache; nothing allocates a page-cache page
 * or grows a file in an op.
 * Not measured: creating and filling the files and pipes, filling pipe A
 * for tee, the verify pass; the loop's compare and branch is not
 * subtracted.  Over a size sweep the report fits time/op = fixed + per
 * byte x size, and --explain holds the cost per byte against mem.copy.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/common_metrics.h"
#include "core/common_params.h"
#include "util/array.h"
#include "workloads/file_common.h"
#include "workloads/pipe_common.h"
#include "workloads/wl_util.h"
#include "workloads/workloads.h"

static const char *const call_choices[] = { "to_pipe", "from_pipe", "tee",
					    NULL };

enum { CALL_TO_PIPE, CALL_FROM_PIPE, CALL_TEE };

#define FILE_SPLICE_MAX_SIZE (64LL << 20)
#define DEFAULT_PIPE (64 << 10)	/* a default pipe holds 16 pages */

/* The parameters, bound by the core (ctx->params). */
struct file_splice_params {
	int64_t size;
	const char *tmpdir;
	int call, target;
	bool verify;
};

static const struct param_def file_splice_param_defs[] = {
	{ .name = "call", .type = PARAM_ENUM, .def = "to_pipe",
	  .choices = call_choices,
	  .help = "to_pipe: file -> pipe (drained to /dev/null), "
		  "from_pipe: pipe -> file, tee: pipe -> pipe",
	  PARAM_FIELD(struct file_splice_params, call) },
	FILE_PARAM_TARGET(struct file_splice_params, target, "memfd,file"),
	{ .name = "size", .type = PARAM_SIZE, .def = "4k,64k,1M", .min = 1,
	  .max = FILE_SPLICE_MAX_SIZE,
	  .help = "bytes per splice or tee (one op; the pipes hold them)",
	  PARAM_FIELD(struct file_splice_params, size) },
	FILE_PARAM_TMPDIR(struct file_splice_params, tmpdir),
	WL_PARAM_VERIFY(struct file_splice_params, verify),
};

static const struct metric_def file_splice_metrics[] = {
	{ .name = "time/op", .kind = METRIC_NS_PER_OP,
	  .dir = METRIC_LOWER_BETTER,
	  .help = "wall time per op: the splice or tee of size bytes and "
		  "the call that empties or fills the pipe" },
	WL_METRIC_BANDWIDTH("bytes spliced or teed per second"),
};

/* The coordinator's state (ctx->priv); the workers share it (threads). */
struct file_splice {
	struct file_scratch file;	/* the target */
	struct file_scratch src;	/* from_pipe: the source memfd */
	int p[2], q[2];			/* the pipe; tee: A is p, B is q */
	int null;			/* /dev/null */
	long capacity;			/* of each pipe */
};

struct file_splice_worker {
	const struct file_splice *f;
	int call;
	size_t size;
	uint8_t *buf, *scratch;		/* verify */
};

/* The pipe capacity size bytes need: 0 (the default) up to 64 KiB. */
static int64_t pipe_want(int64_t size)
{
	return size <= DEFAULT_PIPE ? 0 : size;
}

static int file_splice_validate(const void *params, char *err, size_t len)
{
	const struct file_splice_params *pp = params;
	char why[WL_ERR_LEN];
	int rc = pipe_check_size(pipe_want(pp->size), why, sizeof(why));

	if (rc != WL_OK) {
		snprintf(err, len, "size: a %lld-byte op needs a pipe that "
			 "holds it: %s", (long long)pp->size, why);
		return rc;
	}
	if (pp->target == FILE_TARGET_FILE)
		return file_check_tmpdir(pp->tmpdir, err, len);
	return WL_OK;
}

/*
 * Move exactly n bytes with splice(2) (tee(2) when tee), as many calls as
 * it takes (one when the pipe holds n bytes).  off_in/off_out: the file
 * offset (reset to 0 here), or NULL for a pipe end.  Returns 1 when done,
 * 0 when the run was interrupted, -1 on failure with the message in err.
 */
static int move(int in, bool in_off, int out, bool out_off, size_t n,
		bool tee_call, const char *what, char *err)
{
	size_t done = 0;

	while (done < n) {
		loff_t oi = (loff_t)done, oo = (loff_t)done;
		ssize_t r;
		int retry;

		if (tee_call)
			r = tee(in, out, n - done, 0);
		else
			r = splice(in, in_off ? &oi : NULL, out,
				   out_off ? &oo : NULL, n - done, 0);
		if (r > 0) {
			done += (size_t)r;
			continue;
		}
		retry = wl_call_retry(r);
		if (retry > 0)
			continue;
		if (retry == 0)
			return 0;
		snprintf(err, WL_ERR_LEN, "%s of %zu bytes: %s", what, n,
			 r < 0 ? strerror(errno) : "moved nothing");
		return -1;
	}
	return 1;
}

/* Close what the workload holds (priv: its struct file_splice). */
static void close_all(void *priv)
{
	struct file_splice *f = priv;

	file_scratch_close(&f->file);
	file_scratch_close(&f->src);
	pipe_close(f->p);
	pipe_close(f->q);
	if (f->null >= 0)
		close(f->null);
	f->null = -1;
}

static int open_all(struct file_splice *f,
		    const struct file_splice_params *pp, char *err,
		    size_t len)
{
	long cap2;
	int rc;

	if (file_scratch_open(&f->file, pp->target, pp->tmpdir,
			      (size_t)pp->size, 0, "file.splice", err,
			      len) != WL_OK)
		return WL_EFAIL;
	rc = pipe_open(f->p, pipe_want(pp->size), &f->capacity, err, len);
	if (rc != WL_OK)
		return rc;
	if (pp->call == CALL_FROM_PIPE)
		return file_scratch_open(&f->src, FILE_TARGET_MEMFD, NULL,
					 (size_t)pp->size, 0, "file.splice",
					 err, len);
	f->null = wl_open_dev("/dev/null", false, err);
	if (f->null < 0)
		return WL_EFAIL;
	if (pp->call != CALL_TEE)
		return WL_OK;
	rc = pipe_open(f->q, pipe_want(pp->size), &cap2, err, len);
	if (rc != WL_OK)
		return rc;
	/* pipe A: references to the target's pages, never drained */
	if (move(f->file.fd, true, f->p[1], false, (size_t)pp->size, false,
		 "splice(target -> pipe A)", err) != 1)
		return WL_EFAIL;
	return WL_OK;
}

static int file_splice_setup(struct wl_ctx *ctx)
{
	const struct file_splice_params *pp = ctx->params;
	struct file_splice *f = calloc(1, sizeof(*f));
	char where[WL_ERR_LEN], cap[32];
	int rc;

	if (!f) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	f->file.fd = f->src.fd = f->null = -1;
	f->p[0] = f->p[1] = f->q[0] = f->q[1] = -1;
	rc = open_all(f, pp, ctx->err, sizeof(ctx->err));
	if (rc != WL_OK) {
		close_all(f);
		free(f);
		return rc;
	}
	ctx->priv = f;
	file_scratch_describe(&f->file, pp->tmpdir, where, sizeof(where));
	if (f->capacity >= (1L << 20) && f->capacity % (1L << 20) == 0)
		snprintf(cap, sizeof(cap), "%ld MiB", f->capacity >> 20);
	else
		snprintf(cap, sizeof(cap), "%ld KiB", f->capacity >> 10);
	switch (pp->call) {
	case CALL_TO_PIPE:
		snprintf(ctx->note, sizeof(ctx->note), "splice from %s into a "
			 "%s pipe, then from the pipe to /dev/null: page "
			 "references only, no copy", where, cap);
		break;
	case CALL_FROM_PIPE:
		snprintf(ctx->note, sizeof(ctx->note), "splice from a memfd "
			 "into a %s pipe (page references), then from the pipe "
			 "into %s: the copy (ITER_BVEC)", cap, where);
		break;
	default:
		snprintf(ctx->note, sizeof(ctx->note), "tee from a %s pipe "
			 "holding pages of %s into a second pipe, drained to "
			 "/dev/null: page references only, no copy", cap,
			 where);
		break;
	}
	ctx->nworkers = 1;
	ctx->worker_name[0] = "caller";
	ctx->hist_worker = 0;
	ctx->bytes_per_op = (double)pp->size;
	ctx->shared_bytes = sizeof(struct file_verify);
	return WL_OK;
}

static void file_splice_worker_fini(struct wl_worker *w);

static int file_splice_worker_init(struct wl_worker *w)
{
	const struct file_splice_params *pp = w->ctx->params;
	struct file_splice_worker *s = file_worker_new(w, sizeof(*s));

	if (!s)
		return WL_EFAIL;
	s->f = w->ctx->priv;
	s->call = pp->call;
	s->size = (size_t)pp->size;
	if (pp->verify && file_worker_bufs(w, s->size, 0, &s->buf, &s->scratch,
					   " to verify") != WL_OK) {
		file_splice_worker_fini(w);
		return WL_EFAIL;
	}
	return WL_OK;
}

/* One op; 1 done, 0 interrupted, -1 failed (err). */
static int one_op(const struct file_splice_worker *s, char *err)
{
	const struct file_splice *f = s->f;
	int r;

	switch (s->call) {
	case CALL_TO_PIPE:
		r = move(f->file.fd, true, f->p[1], false, s->size, false,
			 "splice(target -> pipe)", err);
		if (r == 1)
			r = move(f->p[0], false, f->null, false, s->size,
				 false, "splice(pipe -> /dev/null)", err);
		return r;
	case CALL_FROM_PIPE:
		r = move(f->src.fd, true, f->p[1], false, s->size, false,
			 "splice(memfd -> pipe)", err);
		if (r == 1)
			r = move(f->p[0], false, f->file.fd, true, s->size,
				 false, "splice(pipe -> target)", err);
		return r;
	default:
		r = move(f->p[0], false, f->q[1], false, s->size, true,
			 "tee(pipe A -> pipe B)", err);
		if (r == 1)
			r = move(f->q[0], false, f->null, false, s->size,
				 false, "splice(pipe B -> /dev/null)", err);
		return r;
	}
}

static int file_splice_run_batch(struct wl_worker *w, uint64_t nops)
{
	const struct file_splice_worker *s = w->priv;
	uint64_t i;

	for (i = 0; i < nops; i++) {
		int r = one_op(s, w->err);

		if (r < 0)
			return WL_EFAIL;
		if (r == 0)
			return 0;
	}
	return 0;
}

/* One op of the verify pass: what arrives is read and checked. */
static int verify_one(const struct file_splice_worker *s, uint64_t pos,
		      struct pattern_errors *e, char *err)
{
	const struct file_splice *f = s->f;
	int r;

	switch (s->call) {
	case CALL_TO_PIPE:
		if (file_put_pattern(f->file.fd, s->scratch, s->size, pos,
				     "file.splice verify", err) != WL_OK)
			return WL_EFAIL;
		r = move(f->file.fd, true, f->p[1], false, s->size, false,
			 "splice(target -> pipe)", err);
		if (r != 1)
			return WL_EFAIL;
		memset(s->buf, 0xe7, s->size);
		if (file_read_full(f->p[0], s->buf, s->size, "read(pipe)",
				   err) != WL_OK)
			return WL_EFAIL;
		pattern_check(s->buf, s->size, pos, s->scratch, e);
		return WL_OK;
	case CALL_FROM_PIPE:
		if (file_put_pattern(f->src.fd, s->scratch, s->size, pos,
				     "file.splice verify", err) != WL_OK ||
		    one_op(s, err) != 1)
			return WL_EFAIL;
		return file_check_pattern(f->file.fd, s->buf, s->scratch,
					  s->size, pos, e, "file.splice verify",
					  err);
	default:
		/* pipe A holds the stream's first size bytes */
		if (move(f->p[0], false, f->q[1], false, s->size, true,
			 "tee(pipe A -> pipe B)", err) != 1)
			return WL_EFAIL;
		memset(s->buf, 0xe7, s->size);
		if (file_read_full(f->q[0], s->buf, s->size, "read(pipe B)",
				   err) != WL_OK)
			return WL_EFAIL;
		pattern_check(s->buf, s->size, 0, s->scratch, e);
		return WL_OK;
	}
}

/*
 * Untimed: to_pipe and from_pipe move a fresh stretch of the pattern
 * stream each op (written into the source first) and read what arrived
 * (from the pipe, or back from the target) into a poisoned buffer; tee
 * reads pipe B, which must hold the stream's first size bytes that pipe A
 * holds.  Every byte is checked.
 */
static int file_splice_verify_batch(struct wl_worker *w, uint64_t nops)
{
	const struct file_splice_worker *s = w->priv;
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

static long file_splice_verify(struct wl_ctx *ctx, char *buf, size_t len)
{
	return file_verify_report(ctx->shared, buf, len);
}

static void file_splice_worker_fini(struct wl_worker *w)
{
	struct file_splice_worker *s = w->priv;

	if (s)
		file_worker_free(w, s->buf, s->scratch, s->size);
}

static void file_splice_teardown(struct wl_ctx *ctx)
{
	file_teardown(ctx, close_all);
}

static const struct wl_fit file_splice_fit = {
	.param = "size", .metric = "time/op", .per = "byte", .bytes = true,
};

const struct workload wl_file_splice = {
	.name = "file.splice",
	.summary = "splice(2) file -> pipe, pipe -> file and tee(2) by "
		   "size: page references and the bvec copy",
	.op = "one splice or tee of size bytes and the splice that empties "
	      "(or fills) the pipe for the next",
	.not_measured = "creating and filling the files and pipes, filling "
			"tee's source pipe, background writeback, the "
			"verify pass; the loop's compare-and-branch is not "
			"subtracted",
	.params = file_splice_param_defs,
	.nparams = ARRAY_SIZE(file_splice_param_defs),
	.params_size = sizeof(struct file_splice_params),
	.metrics = file_splice_metrics,
	.nmetrics = ARRAY_SIZE(file_splice_metrics),
	.caps = WL_CAP_VERIFY,
	.validate = file_splice_validate,
	.setup = file_splice_setup,
	.worker_init = file_splice_worker_init,
	.run_batch = file_splice_run_batch,
	.verify_batch = file_splice_verify_batch,
	.verify = file_splice_verify,
	.worker_fini = file_splice_worker_fini,
	.teardown = file_splice_teardown,
	.fit = &file_splice_fit,
	.explain = &file_explain_per_op,
};
