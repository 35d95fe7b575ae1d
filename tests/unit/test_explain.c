/*
 * test_explain.c - unit tests for src/report/explain.c: the arithmetic of
 * the pipe side-by-side (floor, fractions, time per 64 KiB, kernel share,
 * context switches per MiB) and of the per-byte comparison (time per op
 * and per byte, speed as a share of each floor, time over the copy, the
 * fitted per-byte speed and fixed cost) against hand-computed values, and
 * the matching of stored results (pipe.bw to ring.bw and mem.copy libc at
 * the same size; file.rw at each size of its sweep to mem.copy libc and
 * movsb) including what it says when one is missing; the one explain
 * view (results/explain_view.c) the text, `--json` and the HTML report
 * read, the per-byte blocks in the latter two.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <jansson.h>

#include "report/explain.h"
#include "report/html_plots.h"
#include "report/report.h"
#include "result_fixture.h"
#include "workloads/workloads.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MIB (1024.0 * 1024.0)

static void test_compute(void **state)
{
	struct explain_input in = {
		.size_bytes = 65536,
		.copy_bps = 16 * GIB,
		.ring_bps = 2 * GIB,
		.pipe_bps = 0.5 * GIB,
		.ring_cs_per_mib = 0.5,
		.pipe_cs_per_mib = 20,
	};
	struct explain_figures f;

	(void)state;
	assert_int_equal(explain_compute(&in, &f), 0);
	assert_float_equal(f.floor_bps, 8 * GIB, 1);
	assert_float_equal(f.pipe_of_copy, 0.5 / 16, 1e-12);
	assert_float_equal(f.pipe_of_floor, 0.5 / 8, 1e-12);
	assert_float_equal(f.pipe_of_ring, 0.25, 1e-12);
	/* 64 KiB at 16 GiB/s: 2^16 / 2^34 s = 2^-18 s = 3814.697 ns. */
	assert_float_equal(f.copy_ns_64k, 1e9 / 262144.0, 1e-6);
	assert_float_equal(f.floor_ns_64k, 2 * f.copy_ns_64k, 1e-6);
	assert_float_equal(f.ring_ns_64k, 8 * f.copy_ns_64k, 1e-6);
	assert_float_equal(f.pipe_ns_64k, 32 * f.copy_ns_64k, 1e-6);
	assert_float_equal(f.kernel_ns_64k, 24 * f.copy_ns_64k, 1e-6);
	assert_float_equal(f.kernel_share, 0.75, 1e-12);
	assert_float_equal(f.extra_cs_per_mib, 19.5, 1e-12);
}

static void test_compute_missing(void **state)
{
	struct explain_input in = {
		.size_bytes = 4096, .copy_bps = 0, .ring_bps = GIB,
		.pipe_bps = GIB / 2, .ring_cs_per_mib = -1,
		.pipe_cs_per_mib = 3,
	};
	struct explain_figures f;

	(void)state;
	assert_int_equal(explain_compute(&in, &f), -1);
	assert_float_equal(f.pipe_of_copy, 0, 0);
	assert_float_equal(f.floor_bps, 0, 0);
	assert_float_equal(f.pipe_of_ring, 0.5, 1e-12);
	assert_true(f.extra_cs_per_mib < 0);
}

static void test_cs_per_mib(void **state)
{
	struct result_set set;
	double s[1] = { 1 };

	(void)state;
	result_set_init(&set);
	/* 16 ops of 64 KiB = 1 MiB per sample: 10, 30, 20 switches. */
	fx_add(&set, "pipe.bw", "{}", "bandwidth", "bytes/s", 1, s, 1,
	       "{\"batch_ops\":16,\"ctx_switches\":[10,30,20]}");
	assert_float_equal(explain_cs_per_mib(&set.v[0], 65536), 20, 1e-9);
	fx_add(&set, "pipe.bw", "{\"a\":\"1\"}", "bandwidth", "bytes/s", 1,
	       s, 1, "{\"batch_ops\":16,\"ctx_switches\":null}");
	assert_true(explain_cs_per_mib(&set.v[1], 65536) < 0);
	fx_add(&set, "pipe.bw", "{\"a\":\"2\"}", "bandwidth", "bytes/s", 1,
	       s, 1, NULL);
	assert_true(explain_cs_per_mib(&set.v[2], 65536) < 0);
	result_set_free(&set);
}

static char *run_explain(const struct result *res, size_t n, int *rc,
			 char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*rc = explain_results(f, res, n, err, errlen);
	fclose(f);
	return buf;
}

#define PIPE_PARAMS "{\"io\":\"write\",\"mode\":\"proc\",\"pipe_size\":" \
	"\"0\",\"place\":\"split\",\"reader\":\"read\",\"rsize\":\"0\"," \
	"\"size\":\"64k\",\"verify\":\"0\"}"

static void test_results(void **state)
{
	static const double copy_s[] = { 16 * GIB, 15 * GIB, 17 * GIB };
	static const double ring_s[] = { 2 * GIB, 2 * GIB, 2 * GIB };
	static const double ring_other[] = { 9 * GIB };
	static const double pipe_s[] = { 0.5 * GIB, 0.4 * GIB, 0.6 * GIB };
	static const double pipe_t[] = { 100000 };
	struct result_set set;
	char err[256], *out;
	int rc;

	(void)state;
	result_set_init(&set);
	fx_add(&set, "mem.copy", "{\"dst_off\":\"0\",\"engine\":\"libc\","
	       "\"size\":\"64k\",\"src_off\":\"0\",\"verify\":\"0\"}",
	       "bandwidth", "bytes/s", 1, copy_s, 3, NULL);
	/* A ring in the other mode: only taken if nothing matches better. */
	fx_add(&set, "ring.bw", "{\"mode\":\"thread\",\"pipe_size\":\"0\","
	       "\"place\":\"split\",\"rsize\":\"0\",\"size\":\"64k\"}",
	       "bandwidth", "bytes/s", 1, ring_other, 1, NULL);
	fx_add(&set, "ring.bw", "{\"mode\":\"proc\",\"pipe_size\":\"0\","
	       "\"place\":\"split\",\"rsize\":\"0\",\"size\":\"64k\"}",
	       "bandwidth", "bytes/s", 1, ring_s, 3,
	       "{\"batch_ops\":16,\"ctx_switches\":[0,1,0]}");
	fx_add(&set, "pipe.bw", PIPE_PARAMS, "bandwidth", "bytes/s", 1,
	       pipe_s, 3, "{\"batch_ops\":16,\"ctx_switches\":[20,22,18]}");
	fx_add(&set, "pipe.bw", PIPE_PARAMS, "time/write", "ns", -1, pipe_t,
	       1, "{\"batch_ops\":16,\"ctx_switches\":[20,22,18]}");
	/* one configuration, two metrics */
	assert_ptr_equal(set.v[3].cfg, set.v[4].cfg);
	out = run_explain(set.v, 5, &rc, err, sizeof(err));
	assert_int_equal(rc, 1);
	assert_string_equal(err, "");
	/* median copy 16 GiB/s, floor 8, ring 2, pipe 0.5 */
	assert_non_null(strstr(out, "where the time goes: pipe.bw size=64k"));
	assert_non_null(strstr(out, "16.0 GiB/s"));
	assert_non_null(strstr(out, "8.00 GiB/s"));
	assert_non_null(strstr(out, "2.00 GiB/s"));
	assert_non_null(strstr(out, "512 MiB/s"));
	assert_non_null(strstr(out, "3.1%"));		/* of the copy */
	assert_non_null(strstr(out, "6.2%"));		/* of the floor */
	assert_non_null(strstr(out, "25.0%"));		/* of the ring */
	assert_non_null(strstr(out, "75% of the pipe's time"));
	/* 24 x 3.815 us */
	assert_non_null(strstr(out, "91.6 us per 64 KiB"));
	assert_non_null(strstr(out, "20.0 times per MiB"));
	assert_null(strstr(out, "9.00 GiB/s"));
	free(out);

	/* Without mem.copy: nothing printed, the message says what to run. */
	out = run_explain(set.v + 1, 4, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	assert_non_null(strstr(err, "no mem.copy libc result"));
	assert_non_null(strstr(err, "size=64k"));
	/* a command line that measures it */
	assert_non_null(strstr(err, "(run mem.copy engine=libc size=64k)"));
	free(out);

	/* No pipe.bw at all: the message names what can be explained. */
	out = run_explain(set.v, 3, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	assert_non_null(strstr(err, "no result to explain"));
	assert_non_null(strstr(err, "pipe.bw"));
	free(out);
	/* A pipe.bw that does not copy both ways (vmsplice) is not held
	   against two copies. */
	fx_add(&set, "pipe.bw", "{\"io\":\"vmsplice\",\"reader\":\"read\","
	       "\"size\":\"64k\"}", "bandwidth", "bytes/s", 1, pipe_s, 3,
	       NULL);
	out = run_explain(set.v + 5, 1, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	free(out);

	/* A pipe.bw result without a size is an error. */
	fx_add(&set, "pipe.bw", "{\"io\":\"write\",\"reader\":\"read\"}",
	       "bandwidth", "bytes/s", 1, pipe_s, 3, NULL);
	out = run_explain(set.v + 6, 1, &rc, err, sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "has no size"));
	free(out);
	result_set_free(&set);
}

/* 1 MiB at 10 GiB/s against floors at 20 and 40 GiB/s and a missing one. */
static void test_pb_compute(void **state)
{
	struct explain_pb_input in = {
		.size_bytes = MIB, .self_bps = 10 * GIB, .nfloors = 3,
		.floor_bps = { 20 * GIB, 40 * GIB, 0 },
	};
	struct explain_pb_row row;

	(void)state;
	assert_int_equal(explain_pb_compute(&in, &row), 0);
	/* 2^20 / (10 x 2^30) s = 1 / 10240 s = 97656.25 ns */
	assert_float_equal(row.self_ns, 97656.25, 1e-6);
	assert_float_equal(row.self_ns_byte, 97656.25 / MIB, 1e-12);
	assert_float_equal(row.floor_ns[0], 48828.125, 1e-6);
	assert_float_equal(row.floor_ns_byte[0], 48828.125 / MIB, 1e-12);
	assert_float_equal(row.speed[0], 0.5, 1e-12);
	assert_float_equal(row.beyond_ns[0], 48828.125, 1e-6);
	assert_float_equal(row.speed[1], 0.25, 1e-12);
	assert_float_equal(row.beyond_ns[1], 73242.1875, 1e-6);
	/* no floor: nothing derived from it */
	assert_float_equal(row.floor_ns[2], 0, 0);
	assert_float_equal(row.speed[2], 0, 0);
	/* no rate or no size for the workload: nothing at all */
	in.self_bps = 0;
	assert_int_equal(explain_pb_compute(&in, &row), -1);
	assert_float_equal(row.self_ns, 0, 0);
	in.self_bps = GIB;
	in.size_bytes = 0;
	assert_int_equal(explain_pb_compute(&in, &row), -1);
}

/* The bandwidth at which an op of s bytes takes a + b s ns. */
static double bps_of(double s, double a, double b)
{
	return s / (a + b * s) * 1e9;
}

static void test_pb_fit(void **state)
{
	static const double sizes[] = { 4096, 65536, 1048576 };
	struct explain_pb_input in[3];
	struct explain_pb_fit f;
	size_t i;

	(void)state;
	memset(in, 0, sizeof(in));
	for (i = 0; i < 3; i++) {
		in[i].size_bytes = sizes[i];
		in[i].nfloors = 2;
		/* the workload: 1000 ns + 0.05 ns per byte */
		in[i].self_bps = bps_of(sizes[i], 1000, 0.05);
		/* floor 0: 10 ns + 0.025 ns per byte; floor 1 at one size */
		in[i].floor_bps[0] = bps_of(sizes[i], 10, 0.025);
		in[i].floor_bps[1] = i == 1 ? bps_of(sizes[i], 0, 0.01) : 0;
	}
	assert_int_equal(explain_pb_fit(in, 3, &f), 0);
	assert_true(f.self_ok);
	assert_int_equal(f.self.n, 3);
	assert_float_equal(f.self.a, 1000, 1e-6);
	assert_float_equal(f.self.b, 0.05, 1e-12);
	assert_float_equal(f.self.r2, 1, 1e-9);
	assert_true(f.floor_ok[0]);
	assert_float_equal(f.floor[0].a, 10, 1e-6);
	/* the workload moves bytes at half the floor's speed */
	assert_float_equal(f.speed[0], 0.5, 1e-9);
	assert_false(f.floor_ok[1]);
	assert_float_equal(f.speed[1], 0, 0);

	/* a flat line (no per-byte part): no speed to compare */
	for (i = 0; i < 3; i++)
		in[i].self_bps = bps_of(sizes[i], 1000, 0);
	assert_int_equal(explain_pb_fit(in, 3, &f), 0);
	assert_float_equal(f.self.b, 0, 1e-12);
	assert_float_equal(f.speed[0], 0, 0);

	/* one size: no line */
	assert_int_equal(explain_pb_fit(in, 1, &f), -1);
	assert_false(f.self_ok);
}

/* The text with every run of blanks and newlines made one space. */
static void squeeze(char *s)
{
	char *w = s;
	bool blank = false;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\n') {
			blank = true;
			continue;
		}
		if (blank && w != s)
			*w++ = ' ';
		blank = false;
		*w++ = *s;
	}
	*w = '\0';
}

#define RW_PARAMS(dir, size) "{\"dir\":\"" dir "\",\"flags\":\"none\"," \
	"\"segs\":\"1\",\"size\":\"" size "\",\"target\":\"memfd\","	\
	"\"tmpdir\":\"/var/tmp\",\"verify\":\"0\"}"
#define COPY_PARAMS(engine, size) "{\"dst_off\":\"0\",\"engine\":\""	\
	engine "\",\"size\":\"" size "\",\"src_off\":\"0\",\"verify\":\"0\"}"

/* One bandwidth result of workload w whose op of s bytes takes t ns. */
static void add_bw(struct result_set *set, const char *w, const char *params,
		   double s, double t)
{
	double v = s / t * 1e9;

	fx_add(set, w, params, "bandwidth", "bytes/s", 1, &v, 1, NULL);
}

static void test_pb_results(void **state)
{
	struct result_set set;
	char err[256], *out;
	int rc;

	(void)state;
	result_set_init(&set);
	/* file.rw dir=read: 1000 ns + 0.05 ns per byte, at 4k and 64k;
	   given largest first (the rows come out by size) */
	add_bw(&set, "file.rw", RW_PARAMS("read", "64k"), 65536,
	       1000 + 0.05 * 65536);
	add_bw(&set, "file.rw", RW_PARAMS("read", "4k"), 4096,
	       1000 + 0.05 * 4096);
	/* libc 0.025 ns per byte, movsb 0.0125 */
	add_bw(&set, "mem.copy", COPY_PARAMS("libc", "4k"), 4096,
	       0.025 * 4096);
	add_bw(&set, "mem.copy", COPY_PARAMS("libc", "64k"), 65536,
	       0.025 * 65536);
	add_bw(&set, "mem.copy", COPY_PARAMS("movsb", "4k"), 4096,
	       0.0125 * 4096);
	add_bw(&set, "mem.copy", COPY_PARAMS("movsb", "64k"), 65536,
	       0.0125 * 65536);
	out = run_explain(set.v, set.n, &rc, err, sizeof(err));
	assert_int_equal(rc, 1);
	assert_string_equal(err, "");
	assert_non_null(strstr(out, "per byte against mem.copy: file.rw "
			       "target=memfd dir=read flags=none segs=1"));
	assert_null(strstr(out, "size=4k"));
	assert_null(strstr(out, "verify="));
	/* 4k comes first: 1204.8 ns, 0.294 ns per byte; libc's copy takes
	   102.4 ns: 8.5% of its speed, 1.10 us over it; movsb 4.2% */
	assert_true(strstr(out, "\n  4k ") < strstr(out, "\n  64k "));
	assert_non_null(strstr(out, "1.20 us"));
	assert_non_null(strstr(out, "0.294 ns"));
	assert_non_null(strstr(out, "8.5%"));
	assert_non_null(strstr(out, "1.10 us"));
	assert_non_null(strstr(out, "4.2%"));
	/* 64k: 4276.8 ns; libc 1638.4 ns: 38.3%; movsb 19.2% */
	assert_non_null(strstr(out, "4.28 us"));
	assert_non_null(strstr(out, "38.3%"));
	assert_non_null(strstr(out, "19.2%"));
	squeeze(out);
	assert_non_null(strstr(out, "least-squares fit over 2 sizes: per "
			       "call = 1.00 us + 0.0500 ns x size"));
	assert_null(strstr(out, "R²"));		/* two points: no R² */
	assert_non_null(strstr(out, "file.rw moves a byte in 0.0500 ns: 50% "
			       "of mem.copy libc's speed (0.0250 ns), 25% of "
			       "mem.copy movsb's speed (0.0125 ns); plus 1.00 "
			       "us per call."));
	free(out);

	/* without movsb at 64k: its row says so, the fit says why */
	out = run_explain(set.v, set.n - 1, &rc, err, sizeof(err));
	assert_int_equal(rc, 1);
	squeeze(out);
	assert_non_null(strstr(out, "movsb - - -"));
	assert_non_null(strstr(out, "mem.copy movsb has no per-byte speed "
			       "to compare (fewer than two sizes)"));
	free(out);

	/* with no floor at all: nothing printed, the message says what to
	   run */
	out = run_explain(set.v, 2, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	assert_string_equal(out, "");
	assert_non_null(strstr(err, "no mem.copy movsb result at size="));
	assert_non_null(strstr(err, "run mem.copy engine=movsb size="));
	free(out);

	/* a second configuration (dir=write) is a block of its own */
	add_bw(&set, "file.rw", RW_PARAMS("write", "4k"), 4096, 2000);
	out = run_explain(set.v, set.n, &rc, err, sizeof(err));
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "dir=write"));
	/* one size: rows but no fit */
	assert_int_equal((int)(strstr(out, "least-squares") != NULL), 1);
	assert_null(strstr(strstr(out, "dir=write"), "least-squares"));
	free(out);
	result_set_free(&set);
}

/* pipe.bw beside its floors at 64k, and file.rw per byte at 4k and 64k
   against mem.copy libc and movsb (the numbers of the tests above). */
static void add_both(struct result_set *set)
{
	static const double copy_s[] = { 16 * GIB };
	static const double ring_s[] = { 2 * GIB };
	static const double pipe_s[] = { 0.5 * GIB };

	fx_add(set, "ring.bw", "{\"mode\":\"proc\",\"pipe_size\":\"0\","
	       "\"place\":\"split\",\"rsize\":\"0\",\"size\":\"64k\"}",
	       "bandwidth", "bytes/s", 1, ring_s, 1, NULL);
	fx_add(set, "pipe.bw", PIPE_PARAMS, "bandwidth", "bytes/s", 1,
	       pipe_s, 1, NULL);
	add_bw(set, "file.rw", RW_PARAMS("read", "64k"), 65536,
	       1000 + 0.05 * 65536);
	add_bw(set, "file.rw", RW_PARAMS("read", "4k"), 4096,
	       1000 + 0.05 * 4096);
	fx_add(set, "mem.copy", COPY_PARAMS("libc", "64k"), "bandwidth",
	       "bytes/s", 1, copy_s, 1, NULL);
	add_bw(set, "mem.copy", COPY_PARAMS("libc", "4k"), 4096,
	       0.025 * 4096);
	add_bw(set, "mem.copy", COPY_PARAMS("movsb", "4k"), 4096,
	       0.0125 * 4096);
	add_bw(set, "mem.copy", COPY_PARAMS("movsb", "64k"), 65536,
	       0.0125 * 65536);
}

/*
 * One view of both recipes, computed once: the sizes come from the typed
 * parameter values, each point finds its floors; a size this build
 * cannot read is an error, not a guess.
 */
static void test_view(void **state)
{
	struct result_set set;
	struct explain_view v;
	const struct explain_pb_block *b;
	char err[256];

	(void)state;
	result_set_init(&set);
	add_both(&set);
	assert_int_equal(explain_view_build(set.v, set.n, &v, err,
					    sizeof(err)), 2);
	assert_string_equal(err, "");
	assert_int_equal(v.npipe, 1);
	assert_int_equal(v.npb, 1);
	assert_ptr_equal(v.pipe[0].self, &set.v[1]);
	assert_float_equal(v.pipe[0].in.size_bytes, 65536, 0);
	assert_float_equal(v.pipe[0].f.pipe_of_ring, 0.25, 1e-12);
	b = &v.pb[0];
	assert_string_equal(b->workload, "file.rw");
	assert_int_equal(b->npts, 2);
	assert_float_equal(b->pts[0].in.size_bytes, 4096, 0);
	assert_string_equal(b->pts[0].size, "4k");
	assert_ptr_equal(b->pts[0].self, &set.v[3]);
	assert_ptr_equal(b->pts[1].floor[0], &set.v[4]);
	assert_ptr_equal(b->pts[1].floor[1], &set.v[7]);
	assert_true(b->fitted);
	/* libc: 102.4 ns at 4k, 16 GiB/s at 64k; movsb 0.0125 ns per byte */
	assert_float_equal(b->fit.speed[0], (65536 / 16.0 / GIB * 1e9 -
					     102.4) / 61440 / 0.05, 1e-9);
	assert_float_equal(b->fit.speed[1], 0.25, 1e-9);
	explain_view_free(&v);
	assert_int_equal(v.npipe + v.npb, 0);

	fx_add(&set, "file.rw", "{\"size\":\"5x\"}", "bandwidth", "bytes/s",
	       1, (const double[]){ 1e9 }, 1, NULL);
	assert_int_equal(explain_view_build(set.v, set.n, &v, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "file.rw result"));
	assert_non_null(strstr(err, "has no size"));
	assert_int_equal(v.npipe + v.npb, 0);
	explain_view_free(&v);
	result_set_free(&set);
}

/* `--json` holds the per-byte blocks beside the pipe's, from the view. */
static void test_view_json(void **state)
{
	struct result_set set;
	json_t *doc, *ex, *pb, *pt, *fit;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	result_set_init(&set);
	add_both(&set);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(report_json(f, NULL, NULL, set.v, set.n), 0);
	fclose(f);
	doc = json_loads(buf, 0, NULL);
	assert_non_null(doc);
	ex = json_object_get(doc, "explain");
	assert_int_equal(json_array_size(ex), 2);
	/* the pipe's block keeps its form: no kind */
	assert_null(json_object_get(json_array_get(ex, 0), "kind"));
	assert_non_null(json_object_get(json_array_get(ex, 0), "rows"));
	pb = json_array_get(ex, 1);
	assert_string_equal(json_string_value(json_object_get(pb, "kind")),
			    "per_byte");
	assert_string_equal(json_string_value(json_object_get(pb, "per")),
			    "call");
	assert_int_equal(json_array_size(json_object_get(pb, "points")), 2);
	pt = json_array_get(json_object_get(pb, "points"), 0);
	assert_string_equal(json_string_value(json_object_get(pt, "size")),
			    "4k");
	assert_float_equal(json_number_value(json_object_get(pt,
			   "ns_per_op")), 1204.8, 1e-6);
	/* libc copies 4k in 102.4 ns: 8.5% of its speed */
	assert_float_equal(json_number_value(json_object_get(json_array_get(
			   json_object_get(pt, "floors"), 0), "speed")),
			   102.4 / 1204.8, 1e-9);
	fit = json_object_get(pb, "fit");
	assert_float_equal(json_number_value(json_object_get(fit,
			   "fixed_ns")), 1000, 1e-6);
	assert_true(json_is_null(json_object_get(fit, "r2")));
	assert_float_equal(json_number_value(json_object_get(json_array_get(
			   json_object_get(fit, "floors"), 1), "speed")),
			   0.25, 1e-9);
	json_decref(doc);
	free(buf);
	result_set_free(&set);
}

/* The HTML report draws both: a figure each, with its table. */
static void test_view_html(void **state)
{
	struct result_set set;
	char *buf = NULL, *pb, *fig;
	size_t len = 0;
	FILE *f;

	(void)state;
	result_set_init(&set);
	add_both(&set);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(html_explain_plot(f, set.v, set.n), 2);
	fclose(f);
	assert_non_null(strstr(buf, "where the time goes"));
	fig = strstr(buf, "data-kind=\"explain\"");
	assert_non_null(fig);
	pb = strstr(fig + 1, "data-kind=\"explain\"");
	assert_non_null(pb);
	assert_non_null(strstr(pb, "per byte: the workload against its copy "
			       "floors"));
	assert_non_null(strstr(pb, "\"segments\""));
	/* a bar per size (the JSON escapes '/') */
	assert_non_null(strstr(pb, "file.rw target=memfd dir=read flags=none "
			       "segs=1 tmpdir=\\/var\\/tmp size=4k\""));
	assert_non_null(strstr(pb, "<table>"));
	assert_non_null(strstr(pb, "<td>movsb</td>"));
	assert_non_null(strstr(pb, "least-squares fit over 2 sizes"));
	free(buf);
	result_set_free(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_compute_missing),
		cmocka_unit_test(test_cs_per_mib),
		cmocka_unit_test(test_results),
		cmocka_unit_test(test_pb_compute),
		cmocka_unit_test(test_pb_fit),
		cmocka_unit_test(test_pb_results),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_view_json),
		cmocka_unit_test(test_view_html),
	};

	/* what main() does first: the codec finds workloads by name */
	workload_registry_set(workload_table, workload_count);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
