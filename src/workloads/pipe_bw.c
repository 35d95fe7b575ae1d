/*
 * pipe_bw.c - pipe.bw: one writer, one reader, one pipe (E1, lmbench3's
 * bw_pipe).
 *
 * One op: one message of `size` bytes written into the pipe (write(2), or
 * vmsplice(2) with io=vmsplice) by the writer, and drained by the reader in
 * reads of `rsize` bytes (read(2) into a user buffer, or splice(2) to
 * /dev/null with reader=splice).  The sample window runs from the first
 * side starting its batch to the reader holding the last byte, so the
 * bandwidth is bytes delivered per second of wall time.
 * Not measured: pipe creation, fork/thread start, buffer allocation and
 * prefaulting; with verify=1 the byte-by-byte check runs in a separate
 * untimed pass after the kept samples.  With reader=splice the copy to
 * user space is not made (the data goes to /dev/null).  With io=vmsplice
 * the writer's pages are mapped into the pipe, not copied.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/common_metrics.h"
#include "core/common_params.h"
#include "runner/inject.h"
#include "util/array.h"
#include "workloads/pattern.h"
#include "workloads/wl_util.h"
#include "workloads/pipe_common.h"
#include "workloads/workloads.h"

static const char *const io_choices[] = { "write", "vmsplice", NULL };
static const char *const reader_choices[] = { "read", "splice", NULL };

enum { IO_WRITE, IO_VMSPLICE };
enum { READER_READ, READER_SPLICE };
enum { WRITER, READER };

#define PIPE_BW_MAX_MSG (256LL << 20)
#define PAGE 4096

/* The parameters, bound by the core (ctx->params). */
struct pipe_bw_params {
	int64_t size, rsize, pipe_size, inject_ns;
	int mode, place, io, reader;
	bool verify;
};

static const struct param_def pipe_bw_param_defs[] = {
	{ .name = "size", .type = PARAM_SIZE, .def = "64k", .min = 1,
	  .max = PIPE_BW_MAX_MSG, .help = "bytes per write (one op)",
	  PARAM_FIELD(struct pipe_bw_params, size) },
	{ .name = "rsize", .type = PARAM_SIZE, .def = "0", .min = 0,
	  .max = PIPE_BW_MAX_MSG,
	  .help = "bytes per read (0: same as size)",
	  PARAM_FIELD(struct pipe_bw_params, rsize) },
	WL_PARAM_PIPE_SIZE(struct pipe_bw_params, pipe_size, "0"),
	WL_PARAM_MODE(struct pipe_bw_params, mode, "proc"),
	WL_PARAM_PLACE(struct pipe_bw_params, place),
	{ .name = "io", .type = PARAM_ENUM, .def = "write",
	  .choices = io_choices, .help = "writer call: write or vmsplice",
	  PARAM_FIELD(struct pipe_bw_params, io) },
	{ .name = "reader", .type = PARAM_ENUM, .def = "read",
	  .choices = reader_choices,
	  .help = "reader call: read, or splice to /dev/null",
	  PARAM_FIELD(struct pipe_bw_params, reader) },
	WL_PARAM_VERIFY(struct pipe_bw_params, verify),
	WL_PARAM_INJECT(struct pipe_bw_params, inject_ns),
};

static const struct metric_def pipe_bw_metrics[] = {
	WL_METRIC_BANDWIDTH("bytes delivered to the reader per second"),
	{ .name = "time/write", .kind = METRIC_NS_PER_OP,
	  .dir = METRIC_LOWER_BETTER,
	  .help = "wall time per message of size bytes" },
};

/* Coordinator state, inherited by forked workers. */
struct pipe_bw {
	int fd[2];
	int devnull;
	size_t size, rsize;
	long pipe_bytes;		/* actual capacity (F_GETPIPE_SZ) */
	int io, reader;
	bool verify;
};

/* What the reader found in the verify pass (in ctx->shared). */
struct pipe_bw_shared {
	struct pattern_errors errs;
	uint64_t msgs;
};

struct pipe_bw_worker {
	uint8_t *buf;			/* size or rsize bytes */
	size_t buf_len;
	uint8_t *vbufs;			/* verify with vmsplice: a ring */
	size_t nvbufs;
	uint8_t *scratch;
	int memfd;			/* verify with splice */
};

/* Before any measuring: can this pipe size be had? */
static int pipe_bw_validate(const void *params, char *err, size_t len)
{
	const struct pipe_bw_params *pp = params;

	return pipe_check_size(pp->pipe_size, err, len);
}

static int pipe_bw_setup(struct wl_ctx *ctx)
{
	const struct pipe_bw_params *pp = ctx->params;
	struct pipe_bw *p = calloc(1, sizeof(*p));
	int rc;

	if (!p) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	ctx->priv = p;
	p->fd[0] = p->fd[1] = p->devnull = -1;
	p->size = (size_t)pp->size;
	p->rsize = (size_t)(pp->rsize ? pp->rsize : pp->size);
	p->io = pp->io;
	p->reader = pp->reader;
	p->verify = pp->verify;
	rc = pipe_open(p->fd, pp->pipe_size, &p->pipe_bytes, ctx->err,
		       sizeof(ctx->err));
	if (rc != WL_OK)
		return rc;
	if (p->reader == READER_SPLICE) {
		p->devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (p->devnull < 0) {
			snprintf(ctx->err, sizeof(ctx->err),
				 "open /dev/null: %s", strerror(errno));
			return WL_EFAIL;
		}
	}
	ctx->nworkers = 2;
	ctx->worker_name[WRITER] = "writer";
	ctx->worker_name[READER] = "reader";
	ctx->bytes_per_op = (double)p->size;
	ctx->hist_worker = WRITER;
	ctx->shared_bytes = sizeof(struct pipe_bw_shared);
	snprintf(ctx->note, sizeof(ctx->note), "pipe capacity %ld bytes%s",
		 p->pipe_bytes, pp->pipe_size ? "" : " (kernel default)");
	return WL_OK;
}

static int pipe_bw_worker_init(struct wl_worker *w)
{
	struct pipe_bw *p = w->ctx->priv;
	struct pipe_bw_worker *s = calloc(1, sizeof(*s));

	if (!s)
		goto oom;
	w->priv = s;
	s->memfd = -1;
	s->buf_len = w->idx == WRITER ? p->size : p->rsize;
	s->buf = wl_alloc_buf(s->buf_len, 0xa5);
	if (!s->buf)
		goto oom;
	if (!p->verify)
		return 0;
	s->scratch = wl_alloc_buf(s->buf_len, 0xa5);
	if (!s->scratch)
		goto oom;
	if (w->idx == WRITER && p->io == IO_VMSPLICE) {
		/*
		 * vmsplice maps our pages into the pipe: a buffer may be
		 * rewritten only once the reader has consumed it.  At most
		 * one message per pipe slot (a page each) is in flight, so a
		 * ring of slots + 2 message buffers is never overwritten
		 * early.
		 */
		s->nvbufs = (size_t)p->pipe_bytes / PAGE + 2;
		s->vbufs = wl_alloc_buf(s->nvbufs * p->size, 0xa5);
		if (!s->vbufs)
			goto oom;
	}
	if (w->idx == READER && p->reader == READER_SPLICE) {
		s->memfd = memfd_create("copyscope-verify", MFD_CLOEXEC);
		if (s->memfd < 0) {
			snprintf(w->err, WL_ERR_LEN, "memfd_create: %s",
				 strerror(errno));
			return WL_EFAIL;
		}
	}
	return 0;
oom:
	snprintf(w->err, WL_ERR_LEN, "cannot allocate buffers of %zu bytes",
		 w->idx == WRITER ? p->size : p->rsize);
	return WL_EFAIL;
}

static int write_msg(struct wl_worker *w, const uint8_t *buf, size_t len)
{
	struct pipe_bw *p = w->ctx->priv;

	while (len > 0) {
		ssize_t n;

		if (p->io == IO_VMSPLICE) {
			struct iovec iov = { (void *)buf, len };

			n = vmsplice(p->fd[1], &iov, 1, 0);
		} else {
			n = write(p->fd[1], buf, len);
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(w->err, WL_ERR_LEN, "%s: %s",
				 p->io == IO_VMSPLICE ? "vmsplice" : "write",
				 strerror(errno));
			return WL_EFAIL;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read or splice up to len bytes; returns bytes moved or -1. */
static ssize_t read_some(struct wl_worker *w, uint8_t *buf, size_t len,
			 int splice_to)
{
	struct pipe_bw *p = w->ctx->priv;
	ssize_t n;

	do {
		if (p->reader == READER_SPLICE) {
			loff_t off = 0;

			n = splice(p->fd[0], NULL, splice_to,
				   splice_to == p->devnull ? NULL : &off, len,
				   0);
		} else {
			n = read(p->fd[0], buf, len);
		}
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		snprintf(w->err, WL_ERR_LEN, "%s: %s",
			 p->reader == READER_SPLICE ? "splice" : "read",
			 strerror(errno));
	else if (n == 0)
		snprintf(w->err, WL_ERR_LEN, "unexpected end of file: the "
			 "writer closed the pipe");
	return n > 0 ? n : -1;
}

static int pipe_bw_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct pipe_bw *p = w->ctx->priv;
	struct pipe_bw_worker *s = w->priv;
	uint64_t i, left, x = 0;

	if (w->idx == WRITER) {
		/* the injection's wait after every write, zero steps
		   without one (runner/inject.h) */
		for (i = 0; i < nops; i++) {
			if (write_msg(w, s->buf, p->size + inject_zero(x)) != 0)
				return WL_EFAIL;
			x = wl_inject(w, x);
		}
		return 0;
	}
	for (left = nops * p->size; left > 0;) {
		size_t want = left < p->rsize ? (size_t)left : p->rsize;
		ssize_t n = read_some(w, s->buf, want, p->devnull);

		if (n < 0)
			return WL_EFAIL;
		left -= (uint64_t)n;
	}
	return 0;
}

static int verify_writer(struct wl_worker *w, uint64_t nops)
{
	struct pipe_bw *p = w->ctx->priv;
	struct pipe_bw_worker *s = w->priv;
	uint64_t i, pos = 0;

	for (i = 0; i < nops; i++, pos += p->size) {
		uint8_t *b = s->vbufs ? s->vbufs + (i % s->nvbufs) * p->size
				      : s->buf;

		pattern_fill(b, p->size, pos);
		if (write_msg(w, b, p->size) != 0)
			return WL_EFAIL;
	}
	return 0;
}

static int verify_reader(struct wl_worker *w, uint64_t nops)
{
	struct pipe_bw *p = w->ctx->priv;
	struct pipe_bw_worker *s = w->priv;
	struct pipe_bw_shared *sh = w->ctx->shared;
	uint64_t pos = 0, total = nops * p->size;

	memset(&sh->errs, 0, sizeof(sh->errs));
	while (pos < total) {
		size_t want = total - pos < p->rsize ? (size_t)(total - pos)
						     : p->rsize;
		ssize_t n = read_some(w, s->buf, want,
				      p->reader == READER_SPLICE ? s->memfd
								 : -1);

		if (n < 0)
			return WL_EFAIL;
		if (p->reader == READER_SPLICE &&
		    pread(s->memfd, s->buf, (size_t)n, 0) != n) {
			snprintf(w->err, WL_ERR_LEN, "pread(memfd): %s",
				 strerror(errno));
			return WL_EFAIL;
		}
		pattern_check(s->buf, (size_t)n, pos, s->scratch, &sh->errs);
		pos += (uint64_t)n;
	}
	sh->msgs = nops;
	return 0;
}

static int pipe_bw_verify_batch(struct wl_worker *w, uint64_t nops)
{
	return w->idx == WRITER ? verify_writer(w, nops)
				: verify_reader(w, nops);
}

static long pipe_bw_verify(struct wl_ctx *ctx, char *buf, size_t len)
{
	const struct pipe_bw_shared *sh = ctx->shared;

	return pattern_report(&sh->errs, sh->msgs, "writes checked", buf,
			      len);
}

static void pipe_bw_worker_fini(struct wl_worker *w)
{
	struct pipe_bw *p = w->ctx->priv;
	struct pipe_bw_worker *s = w->priv;

	if (!s)
		return;
	wl_free_buf(s->buf, s->buf_len);
	wl_free_buf(s->scratch, s->buf_len);
	wl_free_buf(s->vbufs, s->nvbufs * p->size);
	if (s->memfd >= 0)
		close(s->memfd);
	free(s);
	w->priv = NULL;
}

static void pipe_bw_teardown(struct wl_ctx *ctx)
{
	struct pipe_bw *p = ctx->priv;

	if (!p)
		return;
	pipe_close(p->fd);
	if (p->devnull >= 0)
		close(p->devnull);
	free(p);
	ctx->priv = NULL;
}

/*
 * --explain: the pipe beside one userspace copy of the same message
 * (mem.copy, libc's memcpy) and beside the same two copies through a
 * shared-memory ring with futex wake-ups and no kernel in the data path
 * (ring.bw, the same read size, capacity, mode and placement).  Only a
 * pipe that copies both ways is held against two copies.
 */
static const char *const explain_only[] = { "io=write", "reader=read",
					    NULL };
static const char *const copy_set[] = { "engine=libc", NULL };
static const char *const copy_same[] = { "size", NULL };
static const char *const ring_same[] = { "size", "rsize", "pipe_size",
					 "mode", "place", NULL };

static const struct wl_floor pipe_bw_floors[] = {
	{ .workload = "mem.copy", .set = copy_set, .same = copy_same },
	{ .workload = "ring.bw", .same = ring_same },
};

static const struct wl_explain pipe_bw_explain = {
	.kind = WL_EXPLAIN_PIPE,
	.metric = "bandwidth",
	.only = explain_only,
	.floors = pipe_bw_floors,
	.nfloors = 2,
};

const struct workload wl_pipe_bw = {
	.name = "pipe.bw",
	.summary = "one writer, one reader, one pipe: bandwidth (lmbench "
		   "bw_pipe)",
	.op = "one write of size bytes, drained by reads of rsize bytes",
	.not_measured = "pipe creation, fork, buffer allocation; the verify "
			"pass; with reader=splice the copy to user space",
	.params = pipe_bw_param_defs,
	.nparams = ARRAY_SIZE(pipe_bw_param_defs),
	.params_size = sizeof(struct pipe_bw_params),
	.metrics = pipe_bw_metrics,
	.nmetrics = ARRAY_SIZE(pipe_bw_metrics),
	.validate = pipe_bw_validate,
	.setup = pipe_bw_setup,
	.worker_init = pipe_bw_worker_init,
	.run_batch = pipe_bw_run_batch,
	.verify_batch = pipe_bw_verify_batch,
	.verify = pipe_bw_verify,
	.worker_fini = pipe_bw_worker_fini,
	.teardown = pipe_bw_teardown,
	.caps = WL_CAP_VERIFY | WL_CAP_INJECT,
	.explain = &pipe_bw_explain,
};
