/*
 * test_grid.c - unit tests for src/report/grid.c: the writers x readers
 * grid of pipe.matrix's bandwidth built from stored results: values in
 * numeric order, median and spread per cell in one scale, "-" for a
 * missing cell, one grid per value of another swept parameter, column
 * groups that keep every line within 80 columns, and no grid when only
 * one of the two parameters varies or for other metrics and workloads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/grid.h"
#include "result_fixture.h"
#include "workloads/workloads.h"

static struct result_set set;

static void reset(void)
{
	result_set_free(&set);
}

/* A result with three samples around median (spread +-1%). */
static void add(const char *workload, const char *metric, const char *w,
		const char *r, const char *size, double median)
{
	double x[3] = { median * 0.99, median, median * 1.01 };
	char p[256];

	snprintf(p, sizeof(p), "{\"readers\":\"%s\",\"size\":\"%s\","
		 "\"writers\":\"%s\"}", r, size, w);
	fx_add(&set, workload, p, metric, "bytes/s", 1, x, 3, NULL);
}

/* grid_print's output as a string (caller frees); *rc its return. */
static char *render(int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*rc = grid_print(f, set.v, set.n);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void assert_narrow(const char *out)
{
	const char *p = out;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t cols = 0;

		assert_non_null(nl);
		for (; p < nl; p++)
			if (((unsigned char)*p & 0xc0) != 0x80)
				cols++;
		assert_true(cols <= 80);
		assert_true(cols == 0 || nl[-1] != ' ');
		p = nl + 1;
	}
}

#define GIB (1024.0 * 1024.0 * 1024.0)

static void test_nine_cells(void **state)
{
	static const char *const ws[] = { "5", "1", "2" };
	static const char *const rs[] = { "10", "1", "5" };
	size_t i, j;
	char *out, *a, *b, *c;
	int rc;

	(void)state;
	reset();
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			add("pipe.matrix", "bandwidth", ws[i], rs[j], "64k",
			    (1.0 + (double)(i * 3 + j) / 10.0) * GIB);
			add("pipe.matrix", "write mean", ws[i], rs[j], "64k",
			    1000.0);
		}
	out = render(&rc);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(out, "bandwidth in GiB/s, median ±sd"));
	/* numeric order: 1 before 5 before 10 */
	a = strstr(out, "readers=1 ");
	b = strstr(out, "readers=5");
	c = strstr(out, "readers=10");
	assert_true(a && b && c && a < b && b < c);
	a = strstr(out, "writers=1 ");
	b = strstr(out, "writers=2");
	c = strstr(out, "writers=5");
	assert_true(a && b && c && a < b && b < c);
	/* writers=5 readers=10 was added first: 1.0 GiB/s; writers=1
	   readers=1 is i=1, j=1: 1.4 GiB/s */
	assert_non_null(strstr(out, "writers=1  1.40 ±1.0%"));
	assert_non_null(strstr(out, "1.00 ±1.0%\n"));
	assert_null(strstr(out, "write mean"));
	assert_narrow(out);
	free(out);
	reset();
}

static void test_missing_cell_and_groups(void **state)
{
	char *out, *g4, *g64;
	int rc;

	(void)state;
	reset();
	add("pipe.matrix", "bandwidth", "1", "1", "4k", 500e6);
	add("pipe.matrix", "bandwidth", "1", "2", "4k", 600e6);
	add("pipe.matrix", "bandwidth", "2", "1", "4k", 700e6);
	/* writers=2 readers=2 at 4k failed: no result */
	add("pipe.matrix", "bandwidth", "1", "1", "64k", 2 * GIB);
	add("pipe.matrix", "bandwidth", "1", "2", "64k", 2 * GIB);
	add("pipe.matrix", "bandwidth", "2", "1", "64k", 2 * GIB);
	add("pipe.matrix", "bandwidth", "2", "2", "64k", 2 * GIB);
	out = render(&rc);
	assert_int_equal(rc, 2);
	g4 = strstr(out, "(size=4k)");
	g64 = strstr(out, "(size=64k)");
	assert_true(g4 && g64 && g4 < g64);
	/* the 4k grid: scale of its smallest cell, one "-" */
	assert_non_null(strstr(out, "bandwidth in MiB/s"));
	assert_non_null(strstr(g4, "-\n"));
	assert_true(strstr(g4, "-\n") < g64);
	assert_null(strstr(g64, "-\n"));
	assert_narrow(out);
	free(out);
	reset();
}

static void test_no_grid(void **state)
{
	char *out;
	int rc;

	(void)state;
	reset();
	/* only readers vary */
	add("pipe.matrix", "bandwidth", "1", "1", "64k", GIB);
	add("pipe.matrix", "bandwidth", "1", "5", "64k", GIB);
	add("pipe.matrix", "bandwidth", "1", "10", "64k", GIB);
	out = render(&rc);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "");
	free(out);
	reset();
	/* another workload with the same parameters */
	add("pipe.other", "bandwidth", "1", "1", "64k", GIB);
	add("pipe.other", "bandwidth", "2", "2", "64k", GIB);
	add("pipe.other", "bandwidth", "1", "2", "64k", GIB);
	add("pipe.other", "bandwidth", "2", "1", "64k", GIB);
	out = render(&rc);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "");
	free(out);
	reset();
}

static void test_wide_grid_splits(void **state)
{
	char rv[8], *out, *first, *second;
	int r, rc;

	(void)state;
	reset();
	for (r = 1; r <= 12; r++) {
		snprintf(rv, sizeof(rv), "%d", r);
		add("pipe.matrix", "bandwidth", "1", rv, "64k", GIB * r);
		add("pipe.matrix", "bandwidth", "63", rv, "64k", GIB);
	}
	out = render(&rc);
	assert_int_equal(rc, 1);
	assert_narrow(out);
	/* every row label appears once per column group */
	first = strstr(out, "writers=63");
	assert_non_null(first);
	second = strstr(first + 1, "writers=63");
	assert_non_null(second);
	assert_non_null(strstr(out, "readers=12"));
	free(out);
	reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nine_cells),
		cmocka_unit_test(test_missing_cell_and_groups),
		cmocka_unit_test(test_no_grid),
		cmocka_unit_test(test_wide_grid_splits),
	};

	/* what main() does first: the codec finds workloads by name */
	workload_registry_set(workload_table, workload_count);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
