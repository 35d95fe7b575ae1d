/*
 * mem_copy.c - mem.copy: userspace copy engines, the floor (E7).
 *
 * One op: one copy of `size` bytes from a source buffer to a distinct
 * destination buffer by the chosen engine (copy_engines.c), in one pinned
 * thread; every op copies the same buffers, so sizes that fit in a cache
 * level measure that level (hot) and larger ones measure memory.  Each byte
 * is counted once: bandwidth is bytes copied per second, not bytes read
 * plus bytes written.  src_off and dst_off put the buffers that many bytes
 * past a page boundary (alignment).
 * Not measured: buffer allocation and prefaulting (both buffers are
 * written before the first sample); the loop around the copies (one
 * compare and branch per copy, and for the libc engine the indirect call,
 * which is the point of that engine).  With verify=1 each engine's result
 * is compared byte by byte, with guard bytes around the destination, in an
 * untimed pass.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/common_metrics.h"
#include "core/common_params.h"
#include "runner/timer.h"
#include "util/array.h"
#include "workloads/copy_engines.h"
#include "workloads/pattern.h"
#include "workloads/workloads.h"

#define MEM_COPY_MAX (1LL << 30)
#define PAGE 4096
#define GUARD 64		/* bytes checked untouched after dst */
#define GUARD_BYTE 0x5a
/*
 * The verify pass checks at most this many copies, and at most
 * VERIFY_MAX_BYTES in all (always at least one copy): a batch of tiny
 * copies is millions long and each check costs far more than the copy.
 */
#define VERIFY_MAX_COPIES 4096
#define VERIFY_MAX_BYTES (256ULL << 20)

enum { M_BANDWIDTH, M_TIME, M_CYCLES };

/* The parameters, bound by the core (ctx->params). */
struct mem_copy_params {
	int64_t size, src_off, dst_off;
	int engine;
	bool verify;
};

/* The engines of this architecture (the others say why they are absent). */
#if defined(__aarch64__)
#define MEM_COPY_DEFAULT_ENGINES "libc,inline,ldpstp,neon"
#define MEM_COPY_SUMMARY "userspace copy engines (libc, inline, ldp/stp, " \
	"NEON): the floor"
#else
#define MEM_COPY_DEFAULT_ENGINES "libc,movsb,movsq,avx2,avx512,nt,inline"
#define MEM_COPY_SUMMARY "userspace copy engines (libc, rep movs, AVX, " \
	"non-temporal, inline): the floor"
#endif

static const struct param_def mem_copy_param_defs[] = {
	/* By default every engine of this architecture over the size sweep
	   (E7's floor). */
	{ .name = "engine", .type = PARAM_ENUM,
	  .def = MEM_COPY_DEFAULT_ENGINES,
	  .choices = copy_engine_names,
	  .help = "copy engine (default: all; engines this CPU lacks are "
		  "skipped)",
	  PARAM_FIELD(struct mem_copy_params, engine) },
	{ .name = "size", .type = PARAM_SIZE,
	  .def = "64,256,1k,4k,16k,64k,256k,1M,4M,16M,64M", .min = 1,
	  .max = MEM_COPY_MAX,
	  .help = "bytes per copy (one op; default: a sweep 64 .. 64M)",
	  PARAM_FIELD(struct mem_copy_params, size) },
	{ .name = "src_off", .type = PARAM_INT, .def = "0", .min = 0,
	  .max = PAGE - 1,
	  .help = "source starts this many bytes past a page boundary",
	  PARAM_FIELD(struct mem_copy_params, src_off) },
	{ .name = "dst_off", .type = PARAM_INT, .def = "0", .min = 0,
	  .max = PAGE - 1,
	  .help = "destination starts this many bytes past a page boundary",
	  PARAM_FIELD(struct mem_copy_params, dst_off) },
	WL_PARAM_VERIFY(struct mem_copy_params, verify),
};

/*
 * Not const: the unit of cycles/byte follows the clock chosen at run time
 * (setup() sets it before the runner reads it); the descriptor stays const.
 */
static struct metric_def mem_copy_metrics[] = {
	[M_BANDWIDTH] = WL_METRIC_BANDWIDTH("bytes copied per second (each "
		"byte counted once, not once read and once written)"),
	[M_TIME] = { .name = "time/copy", .kind = METRIC_NS_PER_OP,
	  .dir = METRIC_LOWER_BETTER,
	  .help = "wall time per copy of size bytes" },
	[M_CYCLES] = { .name = "cycles/byte", .kind = METRIC_CUSTOM,
	  .same_window = true,
	  .dir = METRIC_LOWER_BETTER, .unit = "tsc-cycles/byte",
	  .help = "timer ticks per byte copied (unit says which counter)" },
};

struct mem_copy {
	int engine;
	size_t size, src_off, dst_off;
	bool verify;
};

struct mem_copy_worker {
	uint8_t *src_map, *dst_map;
	size_t map_len;
	uint8_t *src, *dst;
	uint8_t *scratch;		/* verify: size bytes */
	struct pattern_errors errs;
	uint64_t guard_errors;
	uint64_t copies;
};

/* What the verify pass found (in ctx->shared). */
struct mem_copy_shared {
	struct pattern_errors errs;
	uint64_t guard_errors;
	uint64_t copies;
};

/*
 * An engine this CPU lacks is skipped with the reason (CPUID), so that a
 * sweep over every engine runs on any x86-64; a run that asked only for
 * missing engines exits 77 (nothing could run here).
 */
static bool mem_copy_config_supported(const void *params, char *why,
				      size_t len)
{
	const struct mem_copy_params *pp = params;
	int e = pp->engine;
	char reason[WL_ERR_LEN], here[128];

	if (copy_engine_supported(e, reason, sizeof(reason)))
		return true;
	copy_engines_here(here, sizeof(here));
	snprintf(why, len, "%s; engines this CPU has: %s", reason, here);
	return false;
}

static int mem_copy_setup(struct wl_ctx *ctx)
{
	const struct mem_copy_params *pp = ctx->params;
	const struct timer_info *ti = timer_get_info();
	struct mem_copy *m = calloc(1, sizeof(*m));
	char why[WL_ERR_LEN];

	if (!m) {
		snprintf(ctx->err, sizeof(ctx->err), "out of memory");
		return WL_EFAIL;
	}
	ctx->priv = m;
	m->engine = pp->engine;
	m->size = (size_t)pp->size;
	m->src_off = (size_t)pp->src_off;
	m->dst_off = (size_t)pp->dst_off;
	m->verify = pp->verify;
	/* config_supported() skipped it already; the CPU cannot change. */
	if (!copy_engine_supported(m->engine, why, sizeof(why))) {
		snprintf(ctx->err, sizeof(ctx->err), "%s", why);
		return WL_EUSAGE;
	}
	if (ti && ti->unit) {
		if (strcmp(ti->unit, "cycles") == 0)
			mem_copy_metrics[M_CYCLES].unit = "cycles/byte";
		else if (strcmp(ti->unit, "ns") == 0)
			mem_copy_metrics[M_CYCLES].unit = "ns/byte";
		else if (strcmp(ti->unit, "cntvct-ticks") == 0)
			mem_copy_metrics[M_CYCLES].unit = "cntvct-ticks/byte";
		else
			mem_copy_metrics[M_CYCLES].unit = "tsc-cycles/byte";
	}
	ctx->nworkers = 1;
	ctx->worker_name[0] = "copier";
	ctx->hist_worker = 0;
	ctx->bytes_per_op = (double)m->size;
	ctx->shared_bytes = sizeof(struct mem_copy_shared);
	if (m->engine == COPY_INLINE && !copy_inline_is_constant(m->size))
		snprintf(ctx->note, sizeof(ctx->note), "engine=inline: %zu "
			 "bytes is not one of its constant sizes (powers of 2 "
			 "up to 4096): this is the libc call", m->size);
	return WL_OK;
}

/* Page-aligned, prefaulted anonymous memory. */
static uint8_t *map_buf(size_t len)
{
	uint8_t *b = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return b == MAP_FAILED ? NULL : b;
}

static int mem_copy_worker_init(struct wl_worker *w)
{
	struct mem_copy *m = w->ctx->priv;
	struct mem_copy_worker *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(w->err, WL_ERR_LEN, "out of memory");
		return WL_EFAIL;
	}
	w->priv = s;
	/* Two separate mappings: source and destination never overlap. */
	s->map_len = (m->size + PAGE - 1 + GUARD + PAGE) & ~(size_t)(PAGE - 1);
	s->src_map = map_buf(s->map_len);
	s->dst_map = map_buf(s->map_len);
	if (!s->src_map || !s->dst_map) {
		snprintf(w->err, WL_ERR_LEN, "mmap of 2 x %zu bytes: %s",
			 s->map_len, strerror(errno));
		return WL_EFAIL;
	}
	s->src = s->src_map + m->src_off;
	s->dst = s->dst_map + m->dst_off;
	/* Prefault by writing every page (MAP_POPULATE may be partial). */
	pattern_fill(s->src_map, s->map_len, 0);
	memset(s->dst_map, GUARD_BYTE, s->map_len);
	if (m->verify) {
		s->scratch = map_buf(m->size);
		if (!s->scratch) {
			snprintf(w->err, WL_ERR_LEN, "mmap of %zu bytes: %s",
				 m->size, strerror(errno));
			return WL_EFAIL;
		}
	}
	return WL_OK;
}

static int mem_copy_run_batch(struct wl_worker *w, uint64_t nops)
{
	struct mem_copy *m = w->ctx->priv;
	struct mem_copy_worker *s = w->priv;

	copy_engines[m->engine].batch(s->dst, s->src, m->size, nops);
	return WL_OK;
}

/*
 * Untimed: each op copies a fresh stretch of the pattern with the engine's
 * single-copy entry and checks the destination and the guard bytes after
 * it (and before it, when dst_off leaves room); at most VERIFY_MAX_COPIES
 * copies and VERIFY_MAX_BYTES bytes (the report gives the count).
 */
static int mem_copy_verify_batch(struct wl_worker *w, uint64_t nops)
{
	struct mem_copy *m = w->ctx->priv;
	struct mem_copy_worker *s = w->priv;
	struct mem_copy_shared *sh = w->ctx->shared;
	uint64_t i, pos = (uint64_t)m->src_off;
	size_t g, before = m->dst_off < GUARD ? m->dst_off : GUARD;

	if (nops > VERIFY_MAX_COPIES)
		nops = VERIFY_MAX_COPIES;
	if (nops > 1 && nops * m->size > VERIFY_MAX_BYTES)
		nops = VERIFY_MAX_BYTES / m->size ? VERIFY_MAX_BYTES / m->size
						  : 1;
	memset(&s->errs, 0, sizeof(s->errs));
	s->guard_errors = 0;
	memset(s->dst_map, GUARD_BYTE, s->map_len);
	for (i = 0; i < nops; i++, pos += m->size) {
		pattern_fill(s->src, m->size, pos);
		copy_engines[m->engine].copy(s->dst, s->src, m->size);
		pattern_check(s->dst, m->size, pos, s->scratch, &s->errs);
		for (g = 0; g < GUARD; g++)
			if (s->dst[m->size + g] != GUARD_BYTE)
				s->guard_errors++;
		for (g = 1; g <= before; g++)
			if (s->dst[-(ptrdiff_t)g] != GUARD_BYTE)
				s->guard_errors++;
	}
	s->copies = nops;
	sh->errs = s->errs;
	sh->guard_errors = s->guard_errors;
	sh->copies = s->copies;
	return WL_OK;
}

static long mem_copy_verify(struct wl_ctx *ctx, char *buf, size_t len)
{
	const struct mem_copy_shared *sh = ctx->shared;
	const struct pattern_errors *e = &sh->errs;
	long total = (long)(pattern_error_total(e) + sh->guard_errors);

	snprintf(buf, len, "%llu bytes in %llu copies checked: %llu wrong, "
		 "%llu bytes written outside the destination",
		 (unsigned long long)e->bytes_checked,
		 (unsigned long long)sh->copies,
		 (unsigned long long)pattern_error_total(e),
		 (unsigned long long)sh->guard_errors);
	return total;
}

/*
 * cycles/byte: the sample's ticks (window ns back through the clock's
 * ns-per-tick, the factor the core converted with) over the bytes copied.
 */
static double mem_copy_sample_metric(struct wl_ctx *ctx, size_t mi,
				     const struct wl_sample *smp)
{
	const struct mem_copy *m = ctx->priv;
	const struct timer_info *ti = timer_get_info();
	double bytes = (double)smp->nops * (double)m->size;
	double ns_per_tick = ti && ti->ns_per_tick > 0 ? ti->ns_per_tick : 1.0;

	if (mi != M_CYCLES || bytes <= 0)
		return 0.0;
	return smp->window_ns / ns_per_tick / bytes;
}

static void mem_copy_worker_fini(struct wl_worker *w)
{
	struct mem_copy *m = w->ctx->priv;
	struct mem_copy_worker *s = w->priv;

	if (!s)
		return;
	if (s->src_map)
		munmap(s->src_map, s->map_len);
	if (s->dst_map)
		munmap(s->dst_map, s->map_len);
	if (s->scratch)
		munmap(s->scratch, m->size);
	free(s);
	w->priv = NULL;
}

static void mem_copy_teardown(struct wl_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

const struct workload wl_mem_copy = {
	.name = "mem.copy",
	.summary = MEM_COPY_SUMMARY,
	.op = "one copy of size bytes between two distinct prefaulted "
	      "buffers",
	.not_measured = "allocation and prefaulting; the loop around the "
			"copies; the verify pass.  Bytes are counted once",
	.params = mem_copy_param_defs,
	.nparams = ARRAY_SIZE(mem_copy_param_defs),
	.params_size = sizeof(struct mem_copy_params),
	.metrics = mem_copy_metrics,
	.nmetrics = ARRAY_SIZE(mem_copy_metrics),
	.config_supported = mem_copy_config_supported,
	.setup = mem_copy_setup,
	.worker_init = mem_copy_worker_init,
	.run_batch = mem_copy_run_batch,
	.verify_batch = mem_copy_verify_batch,
	.verify = mem_copy_verify,
	.worker_fini = mem_copy_worker_fini,
	.sample_metric = mem_copy_sample_metric,
	.teardown = mem_copy_teardown,
	.caps = WL_CAP_VERIFY,
};
