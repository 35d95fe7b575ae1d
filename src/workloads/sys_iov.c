/*
 * sys_iov.c - sys.iov: one vectored read or write system call of `segs`
 * segments of `seg_size` bytes (E4: preadv/pwritev of 8 buffers of 1 byte
 * to /dev/zero and /dev/null).
 *
 * One op: one preadv(2), pwritev(2), readv(2) or writev(2) with an iovec
 * array of `segs` entries, in one pinned thread.  The segments are
 * consecutive slices of one prefaulted buffer (segment i at i x seg_size).
 * The time includes syscall entry and exit (with page-table isolation
 * where it is on), copying and checking the iovec array (import_iovec:
 * one copy of segs x 16 bytes and an access_ok() per segment), the VFS
 * path and, per segment, the copy to or from user space:
 *   target=zero   a read fills each segment with zeros; a write is
 *                 discarded (the data is not read);
 *   target=null   a write is discarded; a read returns end of file at once
 *                 (0 bytes): only the iovec import and the VFS path remain;
 *   target=memfd  a real copy to or from the page cache of a shmem file,
 *                 prefaulted so no page is allocated and the file never
 *                 grows.
 * readv/writev use and advance the file position.  /dev/zero and /dev/null
 * ignore it; on a memfd the position is moved back to 0 with lseek(2)
 * whenever the next call would go past the prefaulted region (64 KiB, or
 * one call's bytes if more): at most one lseek per 8192 calls at the
 * default 8 x 1 byte, one per call once a call moves 64 KiB or more.  That
 * lseek is inside the timed batch.  In a threaded process such as this one
 * the kernel takes the file's f_pos_lock around readv/writev on a memfd.
 * Not measured: opening the file, building the iovec array, allocating and
 * prefaulting the buffer and the memfd; the loop's compare and branch is
 * not subtracted.  Over a segs sweep the report fits time/call = fixed +
 * per segment x segs (report/fit_report.c).  trace=N times each of the
 * first N calls of a freshly exec'ed process.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/common_metrics.h"
#include "core/common_params.h"
#include "util/array.h"
#include "workloads/wl_util.h"
#include "workloads/workloads.h"

static const char *const call_choices[] = { "preadv", "pwritev", "readv",
					    "writev", NULL };
static const char *const target_choices[] = { "zero", "null", "memfd",
					      NULL };

enum { CALL_PREADV, CALL_PWRITEV, CALL_READV, CALL_WRITEV };
enum { TARGET_ZERO, TARGET_NULL, TARGET_MEMFD };

/*
 * segs is at most IOV_MAX (<limits.h>, the kernel's UIO_MAXIOV): the one
 * range that list shows and the parser enforces; validate() still checks
 * sysconf(_SC_IOV_MAX) in case a system allows fewer.
 */
#define SYS_IOV_MAX_BYTES (64LL << 20)	/* segs x seg_size */
#define SYS_IOV_REGION (64 << 10)	/* memfd region for readv/writev */

/* The parameters, bound by the core (ctx->params). */
struct sys_iov_params {
	int64_t segs, seg_size, trace;
	int call, target;
};

static const struct param_def sys_iov_param_defs[] = {
	{ .name = "call", .type = PARAM_ENUM, .def = "preadv",
	  .choices = call_choices,
	  .help = "preadv, pwritev (offset 0) or readv, writev (file "
		  "position)",
	  PARAM_FIELD(struct sys_iov_params, call) },
	{ .name = "target", .type = PARAM_ENUM, .def = "zero",
	  .choices = target_choices,
	  .help = "file: zero (/dev/zero), null (/dev/null), memfd (page "
		  "cache)",
	  PARAM_FIELD(struct sys_iov_params, target) },
	{ .name = "segs", .type = PARAM_INT, .def = "8", .min = 1,
	  .max = IOV_MAX,
	  .help = "iovec segments per call (at most IOV_MAX)",
	  PARAM_FIELD(struct sys_iov_params, segs) },
	{ .name = "seg_size", .type = PARAM_SIZE, .def = "1", .min = 1,
	  .max = 1LL << 20, .help = "bytes per segment",
	  PARAM_FIELD(struct sys_iov_params, seg_size) },
	WL_PARAM_TRACE(struct sys_iov_params, trace),
};

static const struct metric_def sys_iov_metrics[] = {
	WL_METRIC_TIME_CALL("wall time per call of segs segments"),
	WL_METRIC_CYCLES_CALL,
	{ .name = "time/segment", .kind = METRIC_CUSTOM,
	  .same_window = true,
	  .dir = METRIC_LOWER_BETTER, .unit = "ns",
	  .help = "time per call divided by segs (fixed cost included; the "
		  "fit over a segs sweep separates it)" },
};

struct sys_iov_worker {
	int fd;
	int call;
	struct iovec *iov;
	int segs;
	uint8_t *buf;
	size_t total;			/* segs x seg_size */
	ssize_t expect;			/* bytes one call moves */
	size_t region;			/* memfd bytes prefaulted */
	size_t pos;			/* readv/writev on memfd: position */
	bool rewind;			/* readv/writev on memfd */
	const char *what;		/* "preadv(/dev/zero)", for errors */
};

static const char *const call_names[4][3] = {
	{ "preadv(/dev/zero)", "preadv(/dev/null)", "preadv(memfd)" },
	{ "pwritev(/dev/zero)", "pwritev(/dev/null)", "pwritev(memfd)" },
	{ "readv(/dev/zero)", "readv(/dev/null)", "readv(memfd)" },
	{ "writev(/dev/zero)", "writev(/dev/null)", "writev(memfd)" },
};

/* The kernel's limit on segments per call: sysconf, else <limits.h>. */
static long iov_max(void)
{
	long v = sysconf(_SC_IOV_MAX);

	return v > 0 ? v : IOV_MAX;
}

static int sys_iov_validate(const void *params, char *err, size_t len)
{
	const struct sys_iov_params *pp = params;
	int64_t segs = pp->segs, seg_size = pp->seg_size;
	long lim = iov_max();

	if (segs > lim) {
		snprintf(err, len, "segs: %lld is above IOV_MAX (%ld, "
			 "sysconf(_SC_IOV_MAX)), the most segments the kernel "
			 "takes in one call; allowed: 1 .. %ld",
			 (long long)segs, lim, lim);
		return WL_EUSAGE;
	}
	if (segs * seg_size > SYS_IOV_MAX_BYTES) {
		snprintf(err, len, "segs x seg_size: %lld x %lld bytes is "
			 "above %lld MiB per call; lower segs or seg_size",
			 (long long)segs, (long long)seg_size,
			 SYS_IOV_MAX_BYTES >> 20);
		return WL_EUSAGE;
	}
	return WL_OK;
}

static int sys_iov_setup(struct wl_ctx *ctx)
{
	ctx->nworkers = 1;
	ctx->worker_name[0] = "caller";
	ctx->hist_worker = 0;
	return WL_OK;
}

static bool is_read(int call)
{
	return call == CALL_PREADV || call == CALL_READV;
}

/*
 * Open the target (a memfd gets its first region bytes written, so that
 * its pages exist); 0 or WL_EFAIL with the message in err.
 */
static int open_target(struct sys_iov_worker *s, int target, char *err)
{
	if (target == TARGET_MEMFD) {
		s->region = s->total > SYS_IOV_REGION ? s->total
						      : SYS_IOV_REGION;
		s->rewind = s->call == CALL_READV || s->call == CALL_WRITEV;
		s->fd = wl_memfd_prefaulted("copyscope-sys.iov", s->buf,
					    s->total, s->region, err);
	} else {
		s->fd = wl_open_dev(target == TARGET_ZERO ? "/dev/zero"
							  : "/dev/null",
				    is_read(s->call), err);
	}
	return s->fd < 0 ? WL_EFAIL : WL_OK;
}

static void sys_iov_worker_fini(struct wl_worker *w);

static int sys_iov_worker_init(struct wl_worker *w)
{
	const struct sys_iov_params *pp = w->ctx->params;
	struct sys_iov_worker *s = calloc(1, sizeof(*s));
	int target = pp->target;
	size_t seg_size = (size_t)pp->seg_size;
	int i;

	if (!s) {
		snprintf(w->err, WL_ERR_LEN, "out of memory");
		return WL_EFAIL;
	}
	w->priv = s;
	s->fd = -1;
	s->call = pp->call;
	s->segs = (int)pp->segs;
	s->total = (size_t)s->segs * seg_size;
	s->what = call_names[s->call][target];
	s->expect = is_read(s->call) && target == TARGET_NULL ?
		    0 : (ssize_t)s->total;
	s->iov = calloc((size_t)s->segs, sizeof(*s->iov));
	s->buf = wl_alloc_buf(s->total, 0xa5);
	if (!s->iov || !s->buf) {
		snprintf(w->err, WL_ERR_LEN, "cannot allocate %d segments of "
			 "%zu bytes", s->segs, seg_size);
		goto fail;
	}
	for (i = 0; i < s->segs; i++) {
		s->iov[i].iov_base = s->buf + (size_t)i * seg_size;
		s->iov[i].iov_len = seg_size;
	}
	if (open_target(s, target, w->err) != WL_OK)
		goto fail;
	return WL_OK;
fail:
	/* the runner calls worker_fini only after a successful init */
	sys_iov_worker_fini(w);
	return WL_EFAIL;
}

static ssize_t one_call(struct sys_iov_worker *s)
{
	switch (s->call) {
	case CALL_PREADV:
		return preadv(s->fd, s->iov, s->segs, 0);
	case CALL_PWRITEV:
		return pwritev(s->fd, s->iov, s->segs, 0);
	case CALL_READV:
		return readv(s->fd, s->iov, s->segs);
	default:
		return writev(s->fd, s->iov, s->segs);
	}
}

static int sys_iov_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct sys_iov_worker *s = w->priv;
	uint64_t i;

	for (i = 0; i < nops; i++) {
		ssize_t n;
		int retry;

		if (s->rewind && s->pos + s->total > s->region) {
			if (lseek(s->fd, 0, SEEK_SET) != 0) {
				snprintf(w->err, WL_ERR_LEN, "lseek(memfd, 0): "
					 "%s", strerror(errno));
				return WL_EFAIL;
			}
			s->pos = 0;
		}
		n = one_call(s);
		if (n == s->expect) {
			s->pos += (size_t)n;
			continue;
		}
		retry = wl_call_retry(n);
		if (retry > 0) {
			i--;
			continue;
		}
		if (retry == 0)
			return 0;
		if (n < 0)
			snprintf(w->err, WL_ERR_LEN, "%s of %d x %zu bytes: %s",
				 s->what, s->segs, s->iov[0].iov_len,
				 strerror(errno));
		else
			snprintf(w->err, WL_ERR_LEN, "%s of %d x %zu bytes "
				 "moved %zd, expected %zd", s->what, s->segs,
				 s->iov[0].iov_len, n, s->expect);
		return WL_EFAIL;
	}
	return 0;
}

static void sys_iov_worker_fini(struct wl_worker *w)
{
	struct sys_iov_worker *s = w->priv;

	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	wl_free_buf(s->buf, s->total);
	free(s->iov);
	free(s);
	w->priv = NULL;
}

static double sys_iov_sample_metric(struct wl_ctx *ctx, size_t m,
				    const struct wl_sample *smp)
{
	const struct sys_iov_params *pp = ctx->params;

	(void)m;	/* time/segment is the only custom metric */
	if (smp->nops == 0)
		return 0;
	return smp->window_ns / (double)smp->nops / (double)pp->segs;
}

/* the cost per call split into a fixed part and a part per segment */
static const struct wl_fit sys_iov_fit = {
	.param = "segs", .metric = "time/call", .per = "segment",
};

const struct workload wl_sys_iov = {
	.name = "sys.iov",
	.summary = "one vectored call (preadv, pwritev, readv, writev) of "
		   "segs segments",
	.op = "one preadv/pwritev/readv/writev of segs segments of "
	      "seg_size bytes",
	.not_measured = "opening the file, building the iovec array, "
			"allocating and prefaulting the buffer and the "
			"memfd; the loop's compare-and-branch is not "
			"subtracted",
	.params = sys_iov_param_defs,
	.nparams = ARRAY_SIZE(sys_iov_param_defs),
	.params_size = sizeof(struct sys_iov_params),
	.metrics = sys_iov_metrics,
	.nmetrics = ARRAY_SIZE(sys_iov_metrics),
	.validate = sys_iov_validate,
	.setup = sys_iov_setup,
	.worker_init = sys_iov_worker_init,
	.run_batch = sys_iov_run_batch,
	.worker_fini = sys_iov_worker_fini,
	.sample_metric = sys_iov_sample_metric,
	.caps = WL_CAP_TRACE,
	.fit = &sys_iov_fit,
};
