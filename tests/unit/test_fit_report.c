/*
 * test_fit_report.c - unit tests of the fit printed under a sweep
 * (report/fit_report.c), from synthetic stored results with a known line:
 * which results take part, how groups form, and the printed costs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/fit_report.h"
#include "result_fixture.h"
#include "workloads/workloads.h"

struct results {
	struct result_set set;
};

/* Add a result of three samples whose median is value. */
static void add(struct results *rs, const char *workload, const char *params,
		const char *metric, const char *unit, double value,
		const char *info)
{
	/* median is value: one sample below, one above */
	double x[3] = { value * 0.99, value, value * 1.02 };

	fx_add(&rs->set, workload, params, metric, unit, -1, x, 3, info);
}

static void free_results(struct results *rs)
{
	result_set_free(&rs->set);
}

/* What fit_report_block() prints for rs; malloc'ed. */
static char *report(const struct results *rs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fit_report_block(f, rs->set.v, rs->set.n);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

/*
 * s with each line break and the indentation after it turned into one
 * space, so that checks of a wrapped line hold wherever it wraps.
 */
static char *unwrap(const char *s)
{
	char *o = malloc(strlen(s) + 1), *p = o;

	assert_non_null(o);
	while (*s) {
		if (*s == '\n') {
			while (*s == '\n' || *s == ' ')
				s++;
			*p++ = ' ';
			continue;
		}
		*p++ = *s++;
	}
	*p = '\0';
	return o;
}

static void add_iov(struct results *rs, const char *call, const char *target,
		    int segs, double fixed_ns, double per_seg_ns)
{
	char p[256];
	double t = fixed_ns + per_seg_ns * segs;

	snprintf(p, sizeof(p), "{\"call\":\"%s\",\"seg_size\":\"1\","
		 "\"segs\":\"%d\",\"target\":\"%s\",\"trace\":\"0\"}", call,
		 segs, target);
	add(rs, "sys.iov", p, "time/call", "ns", t, "{\"job\":0}");
	/* other metrics of the same configuration take no part */
	add(rs, "sys.iov", p, "cycles/call", "tsc-cycles", t * 2.3,
	    "{\"job\":0}");
	add(rs, "sys.iov", p, "time/segment", "ns", t / segs, "{\"job\":0}");
}

static void test_one_group_known_line(void **state)
{
	static const int segs[] = { 1, 8, 64, 1024 };
	struct results rs = { 0 };
	char *out, *tmp;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++)
		add_iov(&rs, "preadv", "zero", segs[i], 412.0, 9.8);
	/* a cold-call trace row with wild values is left out */
	add(&rs, "sys.iov", rs.set.v[0].cfg->params_json, "time/call", "ns",
	    1e6, "{\"job\":0,\"trace\":true}");
	out = unwrap(tmp = report(&rs));
	free(tmp);
	assert_non_null(strstr(out, "least-squares fit over segs (4 points): "
				    "time/call = 412 ns + 9.80 ns x segs, R² "
				    "1.0000"));
	free(out);
	free_results(&rs);
}

static void test_groups_by_other_parameters(void **state)
{
	static const int segs[] = { 1, 8, 64 };
	struct results rs = { 0 };
	char *out;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++)
		add_iov(&rs, "preadv", "zero", segs[i], 200.0, 20.0);
	for (i = 0; i < 3; i++)
		add_iov(&rs, "preadv", "null", segs[i], 150.0, 1.5);
	for (i = 0; i < 3; i++)
		add_iov(&rs, "pwritev", "zero", segs[i], 220.0, 2.0);
	out = report(&rs);
	assert_non_null(strstr(out, "least-squares fit over segs: time/call "
				    "= fixed + per segment x segs\n"));
	/* labels in the workload's order when it is known: call, target */
	assert_non_null(strstr(out, "call     target"));
	assert_non_null(strstr(out, "preadv   zero       200 ns      20.0 ns"
				    "  1.0000       3\n"));
	assert_non_null(strstr(out, "preadv   null       150 ns      1.50 ns"
				    "  1.0000       3\n"));
	assert_non_null(strstr(out, "pwritev  zero       220 ns      2.00 ns"
				    "  1.0000       3\n"));
	free(out);
	free_results(&rs);
}

static void test_size_fit_rate(void **state)
{
	/* 100 ns + 0.05 ns per byte: 1 / 0.05 ns = 20 GB/s = 18.6 GiB/s */
	static const char *const sizes[] = { "1", "4k", "64k", "1M" };
	static const double bytes[] = { 1, 4096, 65536, 1048576 };
	struct results rs = { 0 };
	char *out, *tmp, p[128];
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "{\"dir\":\"read\",\"size\":\"%s\","
			 "\"target\":\"memfd\",\"trace\":\"0\"}", sizes[i]);
		add(&rs, "sys.rw", p, "time/call", "ns",
		    100.0 + 0.05 * bytes[i], NULL);
		add(&rs, "sys.rw", p, "bandwidth", "bytes/s", 1.0, NULL);
	}
	out = unwrap(tmp = report(&rs));
	free(tmp);
	assert_non_null(strstr(out, "time/call = 100 ns + 0.0500 ns x size "
				    "(18.6 GiB/s), R² 1.0000"));
	free(out);
	free_results(&rs);
}

static void test_nothing_to_fit(void **state)
{
	struct results rs = { 0 };
	char *out;

	(void)state;
	/* segs does not vary: only the targets do */
	add_iov(&rs, "preadv", "zero", 8, 200.0, 20.0);
	add_iov(&rs, "preadv", "null", 8, 150.0, 1.5);
	out = report(&rs);
	assert_string_equal(out, "");
	free(out);
	free_results(&rs);
	/* a workload without a fit rule */
	add(&rs, "sys.null", "{\"call\":\"gettid\",\"trace\":\"0\"}",
	    "time/call", "ns", 100, NULL);
	add(&rs, "sys.null", "{\"call\":\"getppid\",\"trace\":\"0\"}",
	    "time/call", "ns", 110, NULL);
	out = report(&rs);
	assert_string_equal(out, "");
	free(out);
	free_results(&rs);
	/* no results at all */
	out = report(&rs);
	assert_string_equal(out, "");
	free(out);
}

static void test_two_points_and_lone_group(void **state)
{
	struct results rs = { 0 };
	char *out, *tmp;

	(void)state;
	add_iov(&rs, "preadv", "zero", 1, 300.0, 10.0);
	add_iov(&rs, "preadv", "zero", 3, 300.0, 10.0);
	out = unwrap(tmp = report(&rs));
	free(tmp);
	assert_non_null(strstr(out, "(2 points): time/call = 300 ns + 10.0 ns "
				    "x segs,"));
	assert_non_null(strstr(out, "the line through both, no R²"));
	free(out);
	/* a second target with one segs value only: no fit for it */
	add_iov(&rs, "preadv", "null", 8, 150.0, 1.5);
	out = report(&rs);
	assert_non_null(strstr(out, "zero       300 ns      10.0 ns       -"
				    "       2\n"));
	assert_non_null(strstr(out, "null    (one segs only: no fit)\n"));
	free(out);
	free_results(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_group_known_line),
		cmocka_unit_test(test_groups_by_other_parameters),
		cmocka_unit_test(test_size_fit_rate),
		cmocka_unit_test(test_nothing_to_fit),
		cmocka_unit_test(test_two_points_and_lone_group),
	};

	/* what main() does first: the codec finds workloads by name */
	workload_registry_set(workload_table, workload_count);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
