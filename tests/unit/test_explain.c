/*
 * test_explain.c - unit tests for src/report/explain.c: the arithmetic of
 * the side-by-side (floor, fractions, time per 64 KiB, kernel share,
 * context switches per MiB) against hand-computed values, and the
 * matching of stored results (pipe.bw to ring.bw and mem.copy libc at the
 * same size) including what it says when one is missing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/explain.h"
#include "result_fixture.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_compute_missing),
		cmocka_unit_test(test_cs_per_mib),
		cmocka_unit_test(test_results),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
