/*
 * sys_rw.c - sys.rw: one read or write system call of `size` bytes, by
 * size, against a memfd, /dev/zero or /dev/null.
 *
 * One op: one pread(2) or pwrite(2) of `size` bytes at offset 0, in one
 * pinned thread.  With target=memfd it copies between the page cache of a
 * shmem file (prefaulted to `size` bytes, so no page is allocated and the
 * file never grows) and a prefaulted user buffer: copy_to_user() or
 * copy_from_user() of `size` bytes.  With target=zero a read fills the
 * buffer with zeros (clear_user, no source to read) and a write is
 * discarded; with target=null a write is discarded without touching the
 * buffer (a read of /dev/null is refused: it returns end of file and copies
 * nothing).  The time includes syscall entry and exit (with page-table
 * isolation where it is on), the VFS path (fdget, rw_verify_area, the
 * file's read_iter/write_iter) and the copy.
 * Not measured: opening the file, allocating and prefaulting the buffer
 * and the page cache; the loop's compare and branch is not subtracted.
 * Over a size sweep the report fits time/call = fixed + per byte x size
 * (report/fit_report.c).  trace=N times each of the first N calls of a
 * freshly exec'ed process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/common_metrics.h"
#include "core/common_params.h"
#include "util/array.h"
#include "workloads/wl_util.h"
#include "workloads/workloads.h"

static const char *const target_choices[] = { "memfd", "zero", "null",
					      NULL };
static const char *const dir_choices[] = { "read", "write", NULL };

enum { TARGET_MEMFD, TARGET_ZERO, TARGET_NULL };
enum { DIR_READ, DIR_WRITE };

#define SYS_RW_MAX_SIZE (64LL << 20)

/* The parameters, bound by the core (ctx->params). */
struct sys_rw_params {
	int64_t size, trace;
	int target, dir;
};

static const struct param_def sys_rw_param_defs[] = {
	{ .name = "target", .type = PARAM_ENUM, .def = "memfd",
	  .choices = target_choices,
	  .help = "file: memfd (page cache), zero (/dev/zero), null "
		  "(/dev/null)",
	  PARAM_FIELD(struct sys_rw_params, target) },
	{ .name = "dir", .type = PARAM_ENUM, .def = "read",
	  .choices = dir_choices,
	  .help = "read: pread(2) into the buffer, write: pwrite(2) from it",
	  PARAM_FIELD(struct sys_rw_params, dir) },
	{ .name = "size", .type = PARAM_SIZE, .def = "4k", .min = 1,
	  .max = SYS_RW_MAX_SIZE, .help = "bytes per call (one op)",
	  PARAM_FIELD(struct sys_rw_params, size) },
	WL_PARAM_TRACE(struct sys_rw_params, trace),
};

static const struct metric_def sys_rw_metrics[] = {
	WL_METRIC_TIME_CALL("wall time per call of size bytes"),
	WL_METRIC_CYCLES_CALL,
	WL_METRIC_BANDWIDTH("bytes read or written per second"),
};

struct sys_rw_worker {
	int fd;
	int dir;
	uint8_t *buf;
	size_t size;
	const char *what;		/* "pread(memfd)" etc., for errors */
};

static const char *const call_names[2][3] = {
	{ "pread(memfd)", "pread(/dev/zero)", "pread(/dev/null)" },
	{ "pwrite(memfd)", "pwrite(/dev/zero)", "pwrite(/dev/null)" },
};

static int sys_rw_validate(const void *params, char *err, size_t len)
{
	const struct sys_rw_params *pp = params;

	if (pp->target == TARGET_NULL && pp->dir == DIR_READ) {
		snprintf(err, len, "dir=read target=null: a read of /dev/null "
			 "returns end of file at once and copies nothing; "
			 "allowed with dir=read: target=memfd or zero "
			 "(sys.iov call=preadv target=null times the empty "
			 "read)");
		return WL_EUSAGE;
	}
	return WL_OK;
}

static int sys_rw_setup(struct wl_ctx *ctx)
{
	const struct sys_rw_params *pp = ctx->params;

	ctx->nworkers = 1;
	ctx->worker_name[0] = "caller";
	ctx->hist_worker = 0;
	ctx->bytes_per_op = (double)pp->size;
	return WL_OK;
}

static void sys_rw_worker_fini(struct wl_worker *w);

/*
 * Open the target (a memfd gets all of buf at offset 0: its pages now
 * exist); 0 or WL_EFAIL with the message in err.
 */
static int open_target(struct sys_rw_worker *s, int target, char *err)
{
	if (target == TARGET_MEMFD)
		s->fd = wl_memfd_prefaulted("copyscope-sys.rw", s->buf,
					    s->size, s->size, err);
	else
		s->fd = wl_open_dev(target == TARGET_ZERO ? "/dev/zero"
							  : "/dev/null",
				    s->dir == DIR_READ, err);
	return s->fd < 0 ? WL_EFAIL : WL_OK;
}

static int sys_rw_worker_init(struct wl_worker *w)
{
	const struct sys_rw_params *pp = w->ctx->params;
	struct sys_rw_worker *s = calloc(1, sizeof(*s));
	int target = pp->target;

	if (!s) {
		snprintf(w->err, WL_ERR_LEN, "out of memory");
		return WL_EFAIL;
	}
	w->priv = s;
	s->fd = -1;
	s->dir = pp->dir;
	s->size = (size_t)pp->size;
	s->what = call_names[s->dir][target];
	s->buf = wl_alloc_buf(s->size, 0xa5);
	if (!s->buf) {
		snprintf(w->err, WL_ERR_LEN, "mmap of a %zu-byte buffer: %s",
			 s->size, strerror(errno));
		goto fail;
	}
	if (open_target(s, target, w->err) != WL_OK)
		goto fail;
	return WL_OK;
fail:
	/* the runner calls worker_fini only after a successful init */
	sys_rw_worker_fini(w);
	return WL_EFAIL;
}

static int sys_rw_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct sys_rw_worker *s = w->priv;
	uint64_t i;

	for (i = 0; i < nops; i++) {
		ssize_t n = s->dir == DIR_READ ?
			    pread(s->fd, s->buf, s->size, 0) :
			    pwrite(s->fd, s->buf, s->size, 0);
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
		if (n < 0)
			snprintf(w->err, WL_ERR_LEN, "%s of %zu bytes: %s",
				 s->what, s->size, strerror(errno));
		else
			snprintf(w->err, WL_ERR_LEN, "%s of %zu bytes moved "
				 "%zd", s->what, s->size, n);
		return WL_EFAIL;
	}
	return 0;
}

static void sys_rw_worker_fini(struct wl_worker *w)
{
	struct sys_rw_worker *s = w->priv;

	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	wl_free_buf(s->buf, s->size);
	free(s);
	w->priv = NULL;
}

/* the cost per call split into a fixed part and a part per byte */
static const struct wl_fit sys_rw_fit = {
	.param = "size", .metric = "time/call", .per = "byte", .bytes = true,
};

const struct workload wl_sys_rw = {
	.name = "sys.rw",
	.summary = "one read or write call by size: memfd, /dev/zero, "
		   "/dev/null",
	.op = "one pread(2) or pwrite(2) of size bytes at offset 0",
	.not_measured = "opening the file, allocating and prefaulting the "
			"buffer and the memfd's pages; the loop's "
			"compare-and-branch is not subtracted",
	.params = sys_rw_param_defs,
	.nparams = ARRAY_SIZE(sys_rw_param_defs),
	.params_size = sizeof(struct sys_rw_params),
	.metrics = sys_rw_metrics,
	.nmetrics = ARRAY_SIZE(sys_rw_metrics),
	.validate = sys_rw_validate,
	.setup = sys_rw_setup,
	.worker_init = sys_rw_worker_init,
	.run_batch = sys_rw_run_batch,
	.worker_fini = sys_rw_worker_fini,
	.caps = WL_CAP_TRACE,
	.fit = &sys_rw_fit,
};
