/*
 * file_sendfile.c - file.sendfile: sendfile(2) of `size` bytes from the
 * page cache of a memfd or a regular file to /dev/null or to a socket
 * pair, by size.
 *
 * One op: sendfile(out, target, offset 0, size) in one pinned thread.
 * The kernel runs do_splice_direct: the target's splice_read puts
 * references to its page-cache pages into the task's internal pipe
 * (filemap_splice_read, shmem_file_splice_read), and the output's
 * splice_write takes them:
 *   to=null    /dev/null drops them (splice_write_null): no byte is
 *              copied anywhere;
 *   to=socket  one end of an AF_UNIX stream socket pair
 *              (splice_to_socket: sendmsg with MSG_SPLICE_PAGES, the
 *              pages are attached to the skbs by reference); the op also
 *              receives the bytes at the other end with recv(2) into a
 *              user buffer, the one copy of the path (skb to user:
 *              copy_page_to_iter, ITER_UBUF).  The sending end is
 *              non-blocking with a send buffer of at least twice size
 *              where SO_SNDBUFFORCE is allowed; where the buffer is
 *              smaller (net.core.wmem_max), an op takes several rounds of
 *              sendfile and recv, and calls/op says how many.
 * The target is prefilled to size bytes and in the page cache.
 * Not measured: creating and filling the file, the socket pair and the
 * buffer, the verify pass; the loop's compare and branch is not
 * subtracted.  Over a size sweep the report fits time/op = fixed + per
 * byte x size, and --explain holds the cost per byte against mem.copy.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/common_metrics.h"
#include "core/common_params.h"
#include "util/array.h"
#include "workloads/file_common.h"
#include "workloads/wl_util.h"
#include "workloads/workloads.h"

static const char *const to_choices[] = { "null", "socket", NULL };

enum { TO_NULL, TO_SOCKET };
enum { M_TIME, M_BANDWIDTH, M_CALLS };

#define FILE_SENDFILE_MAX_SIZE (64LL << 20)

/* The parameters, bound by the core (ctx->params). */
struct file_sendfile_params {
	int64_t size;
	const char *tmpdir;
	int to, target;
	bool verify;
};

static const struct param_def file_sendfile_param_defs[] = {
	{ .name = "to", .type = PARAM_ENUM, .def = "socket",
	  .choices = to_choices,
	  .help = "null: /dev/null; socket: an AF_UNIX stream socket pair, "
		  "received at the other end",
	  PARAM_FIELD(struct file_sendfile_params, to) },
	FILE_PARAM_TARGET(struct file_sendfile_params, target, "memfd,file"),
	{ .name = "size", .type = PARAM_SIZE, .def = "4k,64k,1M", .min = 1,
	  .max = FILE_SENDFILE_MAX_SIZE,
	  .help = "bytes per op (one sendfile where the socket takes them)",
	  PARAM_FIELD(struct file_sendfile_params, size) },
	FILE_PARAM_TMPDIR(struct file_sendfile_params, tmpdir),
	WL_PARAM_VERIFY(struct file_sendfile_params, verify),
};

static const struct metric_def file_sendfile_metrics[] = {
	[M_TIME] = { .name = "time/op", .kind = METRIC_NS_PER_OP,
	  .dir = METRIC_LOWER_BETTER,
	  .help = "wall time per op: sendfile of size bytes (and their "
		  "recv with to=socket)" },
	[M_BANDWIDTH] = WL_METRIC_BANDWIDTH("bytes sent per second"),
	[M_CALLS] = { .name = "calls/op", .kind = METRIC_CUSTOM,
	  .dir = METRIC_INFO, .unit = "calls",
	  .help = "sendfile calls per op (above 1: the socket buffer took "
		  "less than size bytes at a time)" },
};

/* The coordinator's state (ctx->priv), shared by the worker thread. */
struct file_sendfile {
	struct file_scratch file;
	int out;			/* /dev/null, or the sending end */
	int peer;			/* to=socket: the receiving end */
	int sndbuf;			/* bytes (SO_SNDBUF read back) */
};

/* In ctx->shared: the verify report and the last batch's calls. */
struct file_sendfile_shared {
	struct file_verify v;
	uint64_t batch_calls;
};

struct file_sendfile_worker {
	const struct file_sendfile *f;
	struct file_sendfile_shared *sh;
	int to;
	size_t size;
	uint8_t *buf, *scratch;
};

static int file_sendfile_validate(const void *params, char *err, size_t len)
{
	const struct file_sendfile_params *pp = params;

	if (pp->target == FILE_TARGET_FILE)
		return file_check_tmpdir(pp->tmpdir, err, len);
	return WL_OK;
}

/* A socket pair whose sending end is non-blocking with a large buffer. */
static int open_socket(struct file_sendfile *f, size_t size, char *err,
		       size_t len)
{
	int sv[2], want, fl;
	socklen_t sl = sizeof(f->sndbuf);

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		snprintf(err, len, "socketpair(AF_UNIX): %s", strerror(errno));
		return WL_EFAIL;
	}
	f->out = sv[0];
	f->peer = sv[1];
	/* the kernel doubles the value (bookkeeping); ask for 2 x size */
	want = size > (1u << 28) ? 1 << 29 : (int)(2 * size + 65536);
	if (setsockopt(f->out, SOL_SOCKET, SO_SNDBUFFORCE, &want,
		       sizeof(want)) != 0)
		(void)setsockopt(f->out, SOL_SOCKET, SO_SNDBUF, &want,
				 sizeof(want));
	fl = fcntl(f->out, F_GETFL);
	if (fl < 0 || fcntl(f->out, F_SETFL, fl | O_NONBLOCK) != 0 ||
	    getsockopt(f->out, SOL_SOCKET, SO_SNDBUF, &f->sndbuf, &sl) != 0) {
		snprintf(err, len, "socket set-up: %s", strerror(errno));
		return WL_EFAIL;
	}
	return WL_OK;
}

/* Close what the workload holds (priv: its struct file_sendfile). */
static void close_all(void *priv)
{
	struct file_sendfile *f = priv;

	file_scratch_close(&f->file);
	if (f->out >= 0)
		close(f->out);
	if (f->peer >= 0)
		close(f->peer);
	f->out = f->peer = -1;
}

static int file_sendfile_setup(struct wl_ctx *ctx)
{
	const struct file_sendfile_params *pp = ctx->params;
	struct file_sendfile *f = calloc(1, sizeof(*f));
	char where[WL_ERR_LEN];
	int rc = WL_EFAIL;

	if (!f) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	f->out = f->peer = -1;
	if (file_scratch_open(&f->file, pp->target, pp->tmpdir,
			      (size_t)pp->size, 0, "file.sendfile", ctx->err,
			      sizeof(ctx->err)) != WL_OK)
		goto fail;
	if (pp->to == TO_SOCKET)
		rc = open_socket(f, (size_t)pp->size, ctx->err,
				 sizeof(ctx->err));
	else if ((f->out = wl_open_dev("/dev/null", false, ctx->err)) >= 0)
		rc = WL_OK;
	if (rc != WL_OK)
		goto fail;
	ctx->priv = f;
	file_scratch_describe(&f->file, pp->tmpdir, where, sizeof(where));
	if (pp->to == TO_SOCKET)
		snprintf(ctx->note, sizeof(ctx->note), "sendfile from %s to "
			 "an AF_UNIX stream socket (send buffer %d KiB, page "
			 "references), recv(2) at the other end: the copy",
			 where, f->sndbuf >> 10);
	else
		snprintf(ctx->note, sizeof(ctx->note), "sendfile from %s to "
			 "/dev/null: page references through the splice "
			 "pipe, no copy", where);
	ctx->nworkers = 1;
	ctx->worker_name[0] = "caller";
	ctx->hist_worker = 0;
	ctx->bytes_per_op = (double)pp->size;
	ctx->shared_bytes = sizeof(struct file_sendfile_shared);
	return WL_OK;
fail:
	close_all(f);
	free(f);
	return rc;
}

static void file_sendfile_worker_fini(struct wl_worker *w);

static int file_sendfile_worker_init(struct wl_worker *w)
{
	const struct file_sendfile_params *pp = w->ctx->params;
	struct file_sendfile_worker *s = file_worker_new(w, sizeof(*s));

	if (!s)
		return WL_EFAIL;
	s->f = w->ctx->priv;
	s->sh = w->ctx->shared;
	s->to = pp->to;
	s->size = (size_t)pp->size;
	if ((s->to == TO_SOCKET || pp->verify) &&
	    file_worker_bufs(w, s->size, 0xa5, &s->buf, &s->scratch, "") !=
	    WL_OK) {
		file_sendfile_worker_fini(w);
		return WL_EFAIL;
	}
	return WL_OK;
}

/* Receive exactly n bytes at buf from the peer; 1, 0 (interrupted), -1. */
static int recv_all(int fd, uint8_t *buf, size_t n, char *err)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = recv(fd, buf + got, n - got, MSG_WAITALL);
		int retry;

		if (r > 0) {
			got += (size_t)r;
			continue;
		}
		retry = wl_call_retry(r);
		if (retry > 0)
			continue;
		if (retry == 0)
			return 0;
		snprintf(err, WL_ERR_LEN, "recv of %zu bytes: %s", n,
			 r < 0 ? strerror(errno) : "end of stream");
		return -1;
	}
	return 1;
}

/*
 * One op: sendfile calls until size bytes are sent, each followed (with
 * to=socket) by the recv of what it sent.  Returns 1, 0 (interrupted) or
 * -1 with the message in err.
 */
static int one_op(struct file_sendfile_worker *s, char *err)
{
	const struct file_sendfile *f = s->f;
	size_t sent = 0;

	while (sent < s->size) {
		off_t off = (off_t)sent;
		ssize_t n = sendfile(f->out, f->file.fd, &off, s->size - sent);
		int retry;

		s->sh->batch_calls++;
		if (n > 0) {
			if (s->to == TO_SOCKET) {
				int r = recv_all(f->peer, s->buf + sent,
						 (size_t)n, err);

				if (r <= 0)
					return r;
			}
			sent += (size_t)n;
			continue;
		}
		retry = wl_call_retry(n);
		if (retry > 0)
			continue;
		if (retry == 0)
			return 0;
		snprintf(err, WL_ERR_LEN, "sendfile of %zu bytes to %s: %s",
			 s->size - sent, s->to == TO_SOCKET ? "the socket"
							    : "/dev/null",
			 n < 0 ? strerror(errno) : "sent nothing");
		return -1;
	}
	return 1;
}

static int file_sendfile_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct file_sendfile_worker *s = w->priv;
	uint64_t i;

	s->sh->batch_calls = 0;
	for (i = 0; i < nops; i++) {
		int r = one_op(s, w->err);

		if (r < 0)
			return WL_EFAIL;
		if (r == 0)
			return 0;
	}
	return 0;
}

/*
 * Untimed: with to=socket each op sends a fresh stretch of the pattern
 * stream (written into the target first) and checks every byte received
 * into a poisoned buffer; with to=null nothing arrives anywhere, so each
 * op's byte count is all there is to check.
 */
static int file_sendfile_verify_batch(struct wl_worker *w, uint64_t nops)
{
	struct file_sendfile_worker *s = w->priv;
	struct file_verify *v = &s->sh->v;
	uint64_t i, pos;

	memset(v, 0, sizeof(*v));
	nops = file_verify_ops(nops, s->size);
	for (i = 0; i < nops; i++) {
		pos = (i + 1) * s->size;
		if (s->to == TO_SOCKET) {
			if (file_put_pattern(s->f->file.fd, s->scratch,
					     s->size, pos,
					     "file.sendfile verify",
					     w->err) != WL_OK)
				return WL_EFAIL;
			memset(s->buf, 0xe7, s->size);
		}
		if (one_op(s, w->err) != 1)
			return WL_EFAIL;
		if (s->to == TO_SOCKET) {
			pattern_check(s->buf, s->size, pos, s->scratch,
				      &v->errs);
			v->ops++;
		} else {
			v->counted++;
		}
	}
	return WL_OK;
}

static long file_sendfile_verify(struct wl_ctx *ctx, char *buf, size_t len)
{
	const struct file_sendfile_shared *sh = ctx->shared;

	return file_verify_report(&sh->v, buf, len);
}

/* calls/op: sendfile calls of the batch just run over its ops. */
static double file_sendfile_sample_metric(struct wl_ctx *ctx, size_t m,
					  const struct wl_sample *smp)
{
	const struct file_sendfile_shared *sh = ctx->shared;

	if (m != M_CALLS || smp->nops == 0)
		return 0;
	return (double)sh->batch_calls / (double)smp->nops;
}

static void file_sendfile_worker_fini(struct wl_worker *w)
{
	struct file_sendfile_worker *s = w->priv;

	if (s)
		file_worker_free(w, s->buf, s->scratch, s->size);
}

static void file_sendfile_teardown(struct wl_ctx *ctx)
{
	file_teardown(ctx, close_all);
}

static const struct wl_fit file_sendfile_fit = {
	.param = "size", .metric = "time/op", .per = "byte", .bytes = true,
};

const struct workload wl_file_sendfile = {
	.name = "file.sendfile",
	.summary = "sendfile(2) from the page cache to /dev/null or an "
		   "AF_UNIX socket pair, by size",
	.op = "sendfile of size bytes at offset 0 (with to=socket, and "
	      "their recv at the other end)",
	.not_measured = "creating and filling the file, the socket pair and "
			"buffers, the verify pass; the loop's "
			"compare-and-branch is not subtracted",
	.params = file_sendfile_param_defs,
	.nparams = ARRAY_SIZE(file_sendfile_param_defs),
	.params_size = sizeof(struct file_sendfile_params),
	.metrics = file_sendfile_metrics,
	.nmetrics = ARRAY_SIZE(file_sendfile_metrics),
	.caps = WL_CAP_VERIFY,
	.validate = file_sendfile_validate,
	.setup = file_sendfile_setup,
	.worker_init = file_sendfile_worker_init,
	.run_batch = file_sendfile_run_batch,
	.verify_batch = file_sendfile_verify_batch,
	.verify = file_sendfile_verify,
	.worker_fini = file_sendfile_worker_fini,
	.sample_metric = file_sendfile_sample_metric,
	.teardown = file_sendfile_teardown,
	.fit = &file_sendfile_fit,
	.explain = &file_explain_per_op,
};
