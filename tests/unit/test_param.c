/*
 * test_param.c - unit tests for src/core/param_value.c and
 * param_request.c: value parsing and formatting with units (a time
 * needs its unit unless the parameter's name carries one), range and enum errors, sweep requests and their
 * expansion order, canonical JSON, name suggestions and binding a
 * configuration into a struct.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/param.h"
#include "core/workload.h"

#define KIB ((int64_t)1024)
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)
#define NS_MS ((int64_t)1000000)
#define NS_S ((int64_t)1000000000)

static const char *const mode_choices[] = { "proc", "thread", NULL };

enum { P_SIZE, P_RSIZE, P_MODE, P_VERIFY, P_WRITERS, P_WARMUP, P_N };

static const struct param_def defs[P_N] = {
	[P_SIZE] = { "size", PARAM_SIZE, "64k", 1, GIB, NULL,
		     "bytes per write" },
	[P_RSIZE] = { "rsize", PARAM_SIZE, "64k", 0, GIB, NULL,
		      "bytes per read; 0 means size" },
	[P_MODE] = { "mode", PARAM_ENUM, "proc", 0, 0, mode_choices,
		     "processes or threads" },
	[P_VERIFY] = { "verify", PARAM_BOOL, "0", 0, 0, NULL,
		       "check the data" },
	[P_WRITERS] = { "writers", PARAM_INT, "1", 1, 64, NULL,
			"writer count" },
	[P_WARMUP] = { "warmup", PARAM_TIME, "200ms", 0, 10 * NS_S, NULL,
		       "warm-up time" },
};

/* Unbounded versions for the parsers' own limits. */
static const struct param_def big_size = {
	.name = "size", .type = PARAM_SIZE, .def = "0", .min = 0,
	.max = INT64_MAX, .help = ""
};
static const struct param_def big_time = {
	.name = "t", .type = PARAM_TIME, .def = "0", .min = 0,
	.max = INT64_MAX, .help = ""
};
static const struct param_def big_int = {
	.name = "n", .type = PARAM_INT, .def = "0", .min = INT64_MIN,
	.max = INT64_MAX, .help = ""
};

/* Times whose names carry their unit: a bare number is in that unit. */
static const struct param_def inject_ns = {
	.name = "inject_ns", .type = PARAM_TIME, .def = "0", .min = 0,
	.max = INT64_MAX, .help = ""
};
static const struct param_def gap_us = {
	.name = "gap_us", .type = PARAM_TIME, .def = "0", .min = 0,
	.max = INT64_MAX, .help = ""
};
static const struct param_def hold_ms = {
	.name = "hold_ms", .type = PARAM_TIME, .def = "0", .min = 0,
	.max = INT64_MAX, .help = ""
};
static const struct param_def wait_s = {
	.name = "wait_s", .type = PARAM_TIME, .def = "0", .min = 0,
	.max = INT64_MAX, .help = ""
};

static void roundtrip(const struct param_def *def, int64_t v);

static void test_size_valid(void **state)
{
	static const struct {
		const char *text;
		int64_t v;
	} cases[] = {
		{ "64k", 64 * KIB }, { "64K", 64 * KIB }, { "1M", MIB },
		{ "1m", MIB }, { "1G", GIB }, { "3g", 3 * GIB },
		{ "4096", 4096 }, { "0", 0 }, { "64KiB", 64 * KIB },
		{ "64kB", 64 * KIB }, { "2MiB", 2 * MIB }, { "512B", 512 },
		{ "007", 7 },
		{ "8589934591G", 8589934591LL * GIB },
		{ "9223372036854775807", INT64_MAX },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = -1;

		assert_int_equal(param_parse_size(cases[i].text, &v), 0);
		assert_int_equal(v, cases[i].v);
	}
}

static void test_size_invalid(void **state)
{
	static const char *const bad[] = {
		"", "-1", "1.5k", "12q", "k", " 64", "64 ", "+64", "64kb",
		"64iB", "64KB2", "0x10", "1kk", "B", "64Ki",
	};
	size_t i;
	int64_t v = 123;
	char err[256];

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_int_equal(param_parse_size(bad[i], &v), -1);
		assert_int_equal(errno, EINVAL);
		assert_int_equal(v, 123);
	}
	errno = 0;
	assert_int_equal(param_parse_size("99999999999G", &v), -1);
	assert_int_equal(errno, ERANGE);
	errno = 0;
	assert_int_equal(param_parse_size("9223372036854775808", &v), -1);
	assert_int_equal(errno, ERANGE);
	errno = 0;
	assert_int_equal(param_parse_size("8589934592G", &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(v, 123);

	assert_int_equal(param_parse_value(&defs[P_SIZE], "5x", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "size: '5x' is not a size (a number with "
			    "optional k, M or G suffix)");
}

static void test_time_valid(void **state)
{
	static const struct {
		const char *text;
		int64_t v;
	} cases[] = {
		{ "200ms", 200 * NS_MS }, { "1s", NS_S }, { "0.5s", NS_S / 2 },
		{ "500us", 500000 }, { "100ns", 100 }, { "2s", 2 * NS_S },
		{ "0", 0 }, { "1.5ms", 1500000 }, { "0.000000001s", 1 },
		{ "1.250s", 1250 * NS_MS }, { "2.5000000000000s", 2500 * NS_MS },
		{ "9223372036s", 9223372036 * NS_S }, { "0.0", 0 }, { "00", 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = -1;

		assert_int_equal(param_parse_time_ns(cases[i].text, &v), 0);
		assert_int_equal(v, cases[i].v);
	}
}

static void test_time_invalid(void **state)
{
	static const char *const bad[] = {
		"", "ms", "-1s", "1h", "1.", ".5s", "1.5ns", "1 s", "1S",
		"1min", "0.0000000001s", "1e3ms", "s",
		/* no unit: only 0 means the same in every unit */
		"2", "200", "1.250", "0.5", "99999999999999999999",
	};
	size_t i;
	int64_t v = 123;
	char err[256];

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_int_equal(param_parse_time_ns(bad[i], &v), -1);
		assert_int_equal(errno, EINVAL);
		assert_int_equal(v, 123);
	}
	errno = 0;
	assert_int_equal(param_parse_time_ns("9223372037s", &v), -1);
	assert_int_equal(errno, ERANGE);
	errno = 0;
	assert_int_equal(param_parse_time_ns("99999999999999999999ns", &v),
			 -1);
	assert_int_equal(errno, ERANGE);

	assert_int_equal(param_parse_value(&defs[P_WARMUP], "1h", &v, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "warmup: '1h' is not a time"));
	assert_int_equal(param_parse_value(&defs[P_WARMUP], "1.5ns", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "warmup: '1.5ns' is not a whole number of "
			    "nanoseconds");
	/* a bare number names the parameter and the units it needs */
	v = 123;
	assert_int_equal(param_parse_value(&defs[P_WARMUP], "200", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "warmup: '200' has no unit; a time takes "
			    "ns, us, ms or s (e.g. 100ms)");
	assert_int_equal(v, 123);
	assert_int_equal(param_parse_value(&defs[P_WARMUP], "0", &v, err,
					   sizeof(err)), 0);
	assert_int_equal(v, 0);
}

/* A name that ends in its unit (inject_ns) makes a bare number that unit. */
static void test_time_unit_in_name(void **state)
{
	static const struct {
		const struct param_def *def;
		const char *text;
		int64_t v;
	} ok[] = {
		{ &inject_ns, "100", 100 }, { &inject_ns, "0", 0 },
		{ &inject_ns, "100ns", 100 }, { &inject_ns, "2us", 2000 },
		{ &gap_us, "3", 3000 }, { &gap_us, "1.5", 1500 },
		{ &gap_us, "7ns", 7 }, { &hold_ms, "2", 2 * NS_MS },
		{ &hold_ms, "0.25", 250000 }, { &wait_s, "2", 2 * NS_S },
		{ &wait_s, "1.5", 1500 * NS_MS }, { &wait_s, "10ms", 10 * NS_MS },
	};
	int64_t v;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = -1;
		if (param_parse_value(ok[i].def, ok[i].text, &v, err,
				      sizeof(err)) != 0)
			fail_msg("%s=%s: %s", ok[i].def->name, ok[i].text,
				 err);
		assert_int_equal(v, ok[i].v);
	}
	assert_int_equal(param_parse_value(&inject_ns, "1.5", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "inject_ns: '1.5' is not a whole number of "
			    "nanoseconds");
	assert_int_equal(param_parse_value(&inject_ns, "100x", &v, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "inject_ns: '100x' is not a time"));
	/* the canonical form keeps its unit, and reads back */
	roundtrip(&inject_ns, 100);
	roundtrip(&gap_us, 1500);
}

static void test_int(void **state)
{
	static const char *const bad[] = {
		"", "4k", "1M", "1.0", "abc", " 1", "1 ", "+1", "--1", "-",
	};
	int64_t v = 0;
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(param_parse_value(&defs[P_WRITERS], "8", &v, err,
					   sizeof(err)), 0);
	assert_int_equal(v, 8);
	assert_int_equal(param_parse_value(&big_int, "-42", &v, err,
					   sizeof(err)), 0);
	assert_int_equal(v, -42);
	assert_int_equal(param_parse_value(&big_int, "-9223372036854775808",
					   &v, err, sizeof(err)), 0);
	assert_int_equal(v, INT64_MIN);
	assert_int_equal(param_parse_value(&big_int, "9223372036854775807",
					   &v, err, sizeof(err)), 0);
	assert_int_equal(v, INT64_MAX);
	assert_int_equal(param_parse_value(&big_int, "9223372036854775808",
					   &v, err, sizeof(err)), -1);
	assert_int_equal(param_parse_value(&big_int, "-9223372036854775809",
					   &v, err, sizeof(err)), -1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 77;
		assert_int_equal(param_parse_value(&defs[P_WRITERS], bad[i],
						   &v, err, sizeof(err)), -1);
		assert_int_equal(v, 77);
		assert_non_null(strstr(err, "writers: '"));
		assert_non_null(strstr(err, "is not an integer"));
	}
}

static void test_bool(void **state)
{
	static const char *const t[] = { "1", "yes", "true", "on", "YES" };
	static const char *const f[] = { "0", "no", "false", "off", "Off" };
	static const char *const bad[] = { "", "2", "y", "maybe", "10" };
	int64_t v;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++) {
		v = 7;
		assert_int_equal(param_parse_value(&defs[P_VERIFY], t[i], &v,
						   err, sizeof(err)), 0);
		assert_int_equal(v, 1);
		assert_int_equal(param_parse_value(&defs[P_VERIFY], f[i], &v,
						   err, sizeof(err)), 0);
		assert_int_equal(v, 0);
		assert_int_equal(param_parse_value(&defs[P_VERIFY], bad[i],
						   &v, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "verify: '"));
	}
}

static void test_enum(void **state)
{
	int64_t v = -1;
	char err[256];

	(void)state;
	assert_int_equal(param_parse_value(&defs[P_MODE], "thread", &v, err,
					   sizeof(err)), 0);
	assert_int_equal(v, 1);
	assert_int_equal(param_parse_value(&defs[P_MODE], "proc", &v, err,
					   sizeof(err)), 0);
	assert_int_equal(v, 0);
	assert_int_equal(param_parse_value(&defs[P_MODE], "prc", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "mode: 'prc' is not one of proc, thread; "
			    "did you mean 'proc'?");
	/* Case-sensitive, but the suggestion finds it. */
	assert_int_equal(param_parse_value(&defs[P_MODE], "Thread", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "mode: 'Thread' is not one of proc, thread; "
			    "did you mean 'thread'?");
	assert_int_equal(param_parse_value(&defs[P_MODE], "xyzzyq", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "mode: 'xyzzyq' is not one of proc, thread");
	assert_int_equal(v, 0);
}

static void test_ranges(void **state)
{
	int64_t v = -1;
	char err[256];

	(void)state;
	assert_int_equal(param_parse_value(&defs[P_SIZE], "2G", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "size: 2G is out of range (1 .. 1G)");
	assert_int_equal(param_parse_value(&defs[P_SIZE], "0", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "size: 0 is out of range (1 .. 1G)");
	assert_int_equal(param_parse_value(&defs[P_SIZE], "1G", &v, err,
					   sizeof(err)), 0);
	assert_int_equal(v, GIB);
	assert_int_equal(param_parse_value(&defs[P_SIZE], "1", &v, err,
					   sizeof(err)), 0);
	assert_int_equal(v, 1);
	assert_int_equal(param_parse_value(&defs[P_SIZE], "99999999999G", &v,
					   err, sizeof(err)), -1);
	assert_string_equal(err,
			    "size: '99999999999G' is out of range (1 .. 1G)");
	assert_int_equal(param_parse_value(&defs[P_WARMUP], "11s", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "warmup: 11s is out of range (0 .. 10s)");
	assert_int_equal(param_parse_value(&defs[P_WRITERS], "0", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "writers: 0 is out of range (1 .. 64)");
	assert_int_equal(param_parse_value(&defs[P_WRITERS], "65", &v, err,
					   sizeof(err)), -1);
	assert_string_equal(err, "writers: 65 is out of range (1 .. 64)");
	assert_int_equal(v, 1);
	/* A short buffer truncates but stays terminated. */
	assert_int_equal(param_parse_value(&defs[P_SIZE], "2G", &v, err, 8),
			 -1);
	assert_string_equal(err, "size: 2");
	assert_int_equal(param_parse_value(&defs[P_SIZE], "2G", &v, NULL, 0),
			 -1);
}

static void check_format(const struct param_def *def, int64_t v,
			 const char *want)
{
	char buf[64];

	param_format_value(def, v, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_format(void **state)
{
	char small[3];

	(void)state;
	check_format(&big_size, 65536, "64k");
	check_format(&big_size, MIB, "1M");
	check_format(&big_size, GIB, "1G");
	check_format(&big_size, 3 * GIB + MIB, "3073M");
	check_format(&big_size, 1000, "1000");
	check_format(&big_size, 1536, "1536");
	check_format(&big_size, 1, "1");
	check_format(&big_size, 0, "0");
	check_format(&big_size, 1024 * GIB, "1024G");
	check_format(&big_time, NS_MS, "1ms");
	check_format(&big_time, 1500000, "1500us");
	check_format(&big_time, 2 * NS_S, "2s");
	check_format(&big_time, 1, "1ns");
	check_format(&big_time, 1500, "1500ns");
	check_format(&big_time, 0, "0");
	check_format(&defs[P_MODE], 1, "thread");
	check_format(&defs[P_MODE], 0, "proc");
	check_format(&defs[P_MODE], 2, "#2");
	check_format(&defs[P_VERIFY], 1, "1");
	check_format(&defs[P_VERIFY], 0, "0");
	check_format(&big_int, -5, "-5");
	check_format(&big_int, INT64_MIN, "-9223372036854775808");
	param_format_value(&big_size, 65536, small, sizeof(small));
	assert_string_equal(small, "64");
}

static void roundtrip(const struct param_def *def, int64_t v)
{
	char buf[64], err[256];
	int64_t back = -1;

	param_format_value(def, v, buf, sizeof(buf));
	if (param_parse_value(def, buf, &back, err, sizeof(err)) < 0)
		fail_msg("'%s' (from %lld) did not parse: %s", buf,
			 (long long)v, err);
	assert_int_equal(back, v);
}

static void test_format_roundtrip(void **state)
{
	static const int64_t mult[] = { 1, 3, 5, 7, 1000, 1023, 1025 };
	int shift;
	size_t i;

	(void)state;
	for (shift = 0; shift < 50; shift++) {
		for (i = 0; i < sizeof(mult) / sizeof(mult[0]); i++) {
			int64_t v = mult[i] << shift;

			roundtrip(&big_size, v);
			roundtrip(&big_time, v);
			roundtrip(&big_int, v);
			roundtrip(&big_int, -v);
		}
	}
	for (i = 0; i < 40; i++) {
		int64_t p10 = 1;
		size_t k;

		for (k = 0; k < i % 19; k++)
			p10 *= 10;
		roundtrip(&big_time, p10);
		roundtrip(&big_time, p10 * 3 / 2);
		roundtrip(&big_size, p10);
	}
	roundtrip(&big_size, INT64_MAX);
	roundtrip(&big_time, INT64_MAX);
	roundtrip(&big_int, INT64_MIN);
	roundtrip(&defs[P_MODE], 0);
	roundtrip(&defs[P_MODE], 1);
	roundtrip(&defs[P_VERIFY], 0);
	roundtrip(&defs[P_VERIFY], 1);
}

static void test_request_defaults(void **state)
{
	struct param_request req;
	struct param_set set;
	char err[256];

	(void)state;
	assert_int_equal(param_request_init(&req, defs, P_N, err,
					    sizeof(err)), 0);
	assert_int_equal(param_request_count(&req), 1);
	assert_int_equal(param_request_check(&req, err, sizeof(err)), 0);
	param_request_get(&req, 0, &set);
	assert_int_equal(set.v[P_SIZE], 64 * KIB);
	assert_int_equal(set.v[P_RSIZE], 64 * KIB);
	assert_int_equal(set.v[P_MODE], 0);
	assert_int_equal(set.v[P_VERIFY], 0);
	assert_int_equal(set.v[P_WRITERS], 1);
	assert_int_equal(set.v[P_WARMUP], 200 * NS_MS);
	assert_false(req.user_set[P_SIZE]);
}

static void test_request_init_errors(void **state)
{
	static const struct param_def bad_def[] = {
		{ .name = "size", .type = PARAM_SIZE, .def = "2G", .min = 1,
		  .max = GIB, .help = "" },
	};
	static const struct param_def no_def[] = {
		{ .name = "size", .type = PARAM_SIZE, .def = NULL, .min = 1,
		  .max = GIB, .help = "" },
	};
	struct param_request req;
	char err[256];

	(void)state;
	assert_int_equal(param_request_init(&req, bad_def, 1, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "size: 2G is out of range"));
	assert_int_equal(param_request_init(&req, no_def, 1, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "size"));
	assert_int_equal(param_request_init(&req, defs, PARAM_MAX + 1, err,
					    sizeof(err)), -1);
}

static void test_sweep_order(void **state)
{
	static const struct {
		int64_t size;
		int64_t writers;
	} want[] = {
		{ 4 * KIB, 1 }, { 4 * KIB, 2 }, { 4 * KIB, 3 },
		{ 8 * KIB, 1 }, { 8 * KIB, 2 }, { 8 * KIB, 3 },
	};
	struct param_request req;
	struct param_set set;
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(param_request_init(&req, defs, P_N, err,
					    sizeof(err)), 0);
	/* Applied in the other order: the declared order still rules. */
	assert_int_equal(param_request_apply(&req, "pipe.bw", "writers=1,2,3",
					     err, sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "pipe.bw", "size=4k,8k",
					     err, sizeof(err)), 0);
	assert_true(req.user_set[P_SIZE]);
	assert_true(req.user_set[P_WRITERS]);
	assert_false(req.user_set[P_RSIZE]);
	assert_int_equal(param_request_count(&req), 6);
	for (i = 0; i < 6; i++) {
		param_request_get(&req, i, &set);
		assert_int_equal(set.v[P_SIZE], want[i].size);
		assert_int_equal(set.v[P_WRITERS], want[i].writers);
		assert_int_equal(set.v[P_RSIZE], 64 * KIB);
		assert_int_equal(set.v[P_WARMUP], 200 * NS_MS);
	}
}

static void test_duplicate_replaces(void **state)
{
	struct param_request req;
	struct param_set set;
	char err[256];

	(void)state;
	assert_int_equal(param_request_init(&req, defs, P_N, err,
					    sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "pipe.bw", "size=4k,8k,16k",
					     err, sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "pipe.bw", "size=1M", err,
					     sizeof(err)), 0);
	assert_int_equal(param_request_count(&req), 1);
	param_request_get(&req, 0, &set);
	assert_int_equal(set.v[P_SIZE], MIB);
	assert_int_equal(param_request_apply(&req, "pipe.bw",
					     "mode=thread,proc", err,
					     sizeof(err)), 0);
	assert_int_equal(param_request_count(&req), 2);
	param_request_get(&req, 0, &set);
	assert_int_equal(set.v[P_MODE], 1);
	param_request_get(&req, 1, &set);
	assert_int_equal(set.v[P_MODE], 0);
}

static void test_apply_errors(void **state)
{
	struct param_request req;
	struct param_set set;
	char err[256];

	(void)state;
	assert_int_equal(param_request_init(&req, defs, P_N, err,
					    sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "pipe.bw", "size", err,
					     sizeof(err)), -1);
	assert_string_equal(err, "'size' is not key=value");
	assert_int_equal(param_request_apply(&req, "pipe.bw", "=4k", err,
					     sizeof(err)), -1);
	assert_non_null(strstr(err, "no parameter name"));
	assert_int_equal(param_request_apply(&req, "pipe.bw", "size=4k,,8k",
					     err, sizeof(err)), -1);
	assert_string_equal(err, "size: empty value in '4k,,8k'");
	assert_int_equal(param_request_apply(&req, "pipe.bw", "size=4k,", err,
					     sizeof(err)), -1);
	assert_non_null(strstr(err, "size: empty value"));
	assert_int_equal(param_request_apply(&req, "pipe.bw", ",size=4k", err,
					     sizeof(err)), -1);
	assert_int_equal(param_request_apply(&req, "pipe.bw", "size=", err,
					     sizeof(err)), -1);
	assert_non_null(strstr(err, "size: empty value"));
	/* A bad value anywhere in the list leaves the request unchanged. */
	assert_int_equal(param_request_apply(&req, "pipe.bw", "size=4k,2G",
					     err, sizeof(err)), -1);
	assert_string_equal(err, "size: 2G is out of range (1 .. 1G)");
	assert_int_equal(param_request_apply(&req, "pipe.bw", "size=4k,x",
					     err, sizeof(err)), -1);
	assert_non_null(strstr(err, "size: 'x' is not a size"));
	assert_int_equal(param_request_apply(&req, "pipe.bw", "mode=prc", err,
					     sizeof(err)), -1);
	assert_non_null(strstr(err, "did you mean 'proc'?"));
	assert_int_equal(param_request_count(&req), 1);
	param_request_get(&req, 0, &set);
	assert_int_equal(set.v[P_SIZE], 64 * KIB);
	assert_false(req.user_set[P_SIZE]);
}

static void test_list_limit(void **state)
{
	struct param_request req;
	char assign[1024], err[256];
	int n, i, pos;

	(void)state;
	assert_int_equal(param_request_init(&req, defs, P_N, err,
					    sizeof(err)), 0);
	for (n = PARAM_MAX_LIST; n <= PARAM_MAX_LIST + 1; n++) {
		pos = snprintf(assign, sizeof(assign), "size=");
		for (i = 1; i <= n; i++)
			pos += snprintf(assign + pos, sizeof(assign) - pos,
					"%s%d", i > 1 ? "," : "", i);
		assert_true(pos < (int)sizeof(assign));
		if (n == PARAM_MAX_LIST) {
			assert_int_equal(param_request_apply(&req, "pipe.bw",
							     assign, err,
							     sizeof(err)), 0);
			assert_int_equal(param_request_count(&req),
					 PARAM_MAX_LIST);
		} else {
			assert_int_equal(param_request_apply(&req, "pipe.bw",
							     assign, err,
							     sizeof(err)), -1);
			assert_string_equal(err, "size: too many values "
					    "(at most 64)");
		}
	}
	assert_int_equal(param_request_count(&req), PARAM_MAX_LIST);
}

/* "key=1k,2k,...,nk" into buf. */
static void build_list(char *buf, size_t len, const char *key, int n)
{
	int i, pos;

	pos = snprintf(buf, len, "%s=", key);
	for (i = 1; i <= n && pos > 0 && (size_t)pos < len; i++)
		pos += snprintf(buf + pos, len - (size_t)pos, "%s%dk",
				i > 1 ? "," : "", i);
	assert_true(pos > 0 && (size_t)pos < len);
}

static void test_sweep_cap(void **state)
{
	struct param_request req;
	struct param_set set;
	char assign[1024], err[256];

	(void)state;
	assert_int_equal(param_request_init(&req, defs, P_N, err,
					    sizeof(err)), 0);
	build_list(assign, sizeof(assign), "size", 64);
	assert_int_equal(param_request_apply(&req, NULL, assign, err,
					     sizeof(err)), 0);
	build_list(assign, sizeof(assign), "rsize", 64);
	assert_int_equal(param_request_apply(&req, NULL, assign, err,
					     sizeof(err)), 0);
	assert_int_equal(param_request_count(&req), 4096);
	assert_int_equal(param_request_check(&req, err, sizeof(err)), 0);
	param_request_get(&req, 4095, &set);
	assert_int_equal(set.v[P_SIZE], 64 * KIB);
	assert_int_equal(set.v[P_RSIZE], 64 * KIB);
	param_request_get(&req, 64, &set);
	assert_int_equal(set.v[P_SIZE], 2 * KIB);
	assert_int_equal(set.v[P_RSIZE], 1 * KIB);

	assert_int_equal(param_request_apply(&req, NULL, "verify=0,1", err,
					     sizeof(err)), 0);
	assert_int_equal(param_request_count(&req), 8192);
	assert_int_equal(param_request_check(&req, err, sizeof(err)), -1);
	assert_string_equal(err, "the sweep has 8192 configurations "
			    "(at most 4096): size: 64 values x rsize: 64 "
			    "values x verify: 2 values");
}

static void test_count_saturates(void **state)
{
	static struct param_def many[PARAM_MAX];
	struct param_request req;
	static char names[PARAM_MAX][8];
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < PARAM_MAX; i++) {
		snprintf(names[i], sizeof(names[i]), "p%zu", i);
		many[i] = (struct param_def){ .name = names[i],
					      .type = PARAM_INT, .def = "0",
					      .min = 0, .max = 1000,
					      .help = "" };
	}
	assert_int_equal(param_request_init(&req, many, PARAM_MAX, err,
					    sizeof(err)), 0);
	for (i = 0; i < PARAM_MAX; i++)
		req.nvals[i] = PARAM_MAX_LIST;	/* 64^16 overflows */
	assert_true(param_request_count(&req) == SIZE_MAX);
	assert_int_equal(param_request_check(&req, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "too many configurations"));
}

static void test_unknown_key(void **state)
{
	struct param_request req;
	char err[256];

	(void)state;
	assert_int_equal(param_request_init(&req, defs, P_N, err,
					    sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "pipe.bw", "szie=4k", err,
					     sizeof(err)), -1);
	assert_string_equal(err, "unknown parameter 'szie' for pipe.bw; "
			    "did you mean 'size'?");
	assert_int_equal(param_request_apply(&req, "pipe.bw", "writer=2", err,
					     sizeof(err)), -1);
	assert_string_equal(err, "unknown parameter 'writer' for pipe.bw; "
			    "did you mean 'writers'?");
	assert_int_equal(param_request_apply(&req, "pipe.bw", "zzz=1", err,
					     sizeof(err)), -1);
	assert_string_equal(err, "unknown parameter 'zzz' for pipe.bw "
			    "(parameters: size, rsize, mode, verify, "
			    "writers, warmup)");
	assert_int_equal(param_request_apply(&req, NULL, "zzz=1", err,
					     sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown parameter 'zzz' (parameters:"));
	/* Keys are case-sensitive. */
	assert_int_equal(param_request_apply(&req, "pipe.bw", "SIZE=1", err,
					     sizeof(err)), -1);
}

static void test_json(void **state)
{
	struct param_request req;
	struct param_set set;
	char err[256], *json;

	(void)state;
	assert_int_equal(param_request_init(&req, defs, P_N, err,
					    sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "pipe.bw",
					     "mode=thread", err,
					     sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "pipe.bw", "rsize=1536",
					     err, sizeof(err)), 0);
	param_request_get(&req, 0, &set);
	json = param_set_json(defs, P_N, &set);
	assert_non_null(json);
	assert_string_equal(json, "{\"mode\":\"thread\",\"rsize\":\"1536\","
			    "\"size\":\"64k\",\"verify\":\"0\","
			    "\"warmup\":\"200ms\",\"writers\":\"1\"}");
	free(json);

	json = param_set_json(defs, 0, &set);
	assert_non_null(json);
	assert_string_equal(json, "{}");
	free(json);
}

static void test_json_escape(void **state)
{
	static const char *const odd[] = { "a\"b", "c\\d\n", NULL };
	static const struct param_def weird[] = {
		{ .name = "z", .type = PARAM_ENUM, .def = "a\"b",
		  .choices = odd, .help = "" },
		{ .name = "b", .type = PARAM_ENUM, .def = "c\\d\n",
		  .choices = odd, .help = "" },
	};
	struct param_set set = { { 0, 1 } };
	char *json;

	(void)state;
	json = param_set_json(weird, 2, &set);
	assert_non_null(json);
	assert_string_equal(json,
			    "{\"b\":\"c\\\\d\\u000a\",\"z\":\"a\\\"b\"}");
	free(json);
}

static void test_find(void **state)
{
	(void)state;
	assert_int_equal(param_find(defs, P_N, "size"), P_SIZE);
	assert_int_equal(param_find(defs, P_N, "warmup"), P_WARMUP);
	assert_int_equal(param_find(defs, P_N, "siz"), -1);
	assert_int_equal(param_find(defs, P_N, NULL), -1);
	assert_int_equal(param_find(defs, 0, "size"), -1);
}

static void test_suggest(void **state)
{
	static const char *const names[] = {
		"size", "rsize", "pipe_size", "mode", "verify", "writers",
	};
	const size_t n = sizeof(names) / sizeof(names[0]);

	(void)state;
	assert_string_equal(param_suggest("szie", names, n), "size");
	assert_string_equal(param_suggest("siz", names, n), "size");
	assert_string_equal(param_suggest("size", names, n), "size");
	assert_string_equal(param_suggest("mdoe", names, n), "mode");
	assert_string_equal(param_suggest("pipesize", names, n), "pipe_size");
	assert_string_equal(param_suggest("writer", names, n), "writers");
	assert_string_equal(param_suggest("verfiy", names, n), "verify");
	/* Ties go to the first name. */
	assert_string_equal(param_suggest("ssize", names, n), "size");
	assert_null(param_suggest("bandwidth", names, n));
	assert_null(param_suggest("zzz", names, n));
	assert_null(param_suggest("", names, 0));
	assert_null(param_suggest("x", NULL, 0));
	/* "xx" is within 2 of "mode"? No: distance 4. */
	assert_null(param_suggest("xx", names, n));
	/* Longer words get a larger allowance: max(2, len/3). */
	assert_string_equal(param_suggest("pipxxsize", names, n),
			    "pipe_size");
	assert_null(param_suggest("pxxxxsize", names, n));
}


static const struct param_def text_def = {
	.name = "mix", .type = PARAM_STRING, .def = "fleet", .min = 0,
	.max = 40, .help = "a distribution"
};

/* Text keeps its commas, sweeps on ';', formats back, and has a limit. */
static void test_string_values(void **state)
{
	struct param_request req;
	struct param_set ps;
	char err[256], buf[128];
	int64_t v, w;

	(void)state;
	assert_int_equal(param_parse_value(&text_def, "64:98,128-4k:2", &v,
					   err, sizeof(err)), 0);
	assert_string_equal(param_string(v), "64:98,128-4k:2");
	param_format_value(&text_def, v, buf, sizeof(buf));
	assert_string_equal(buf, "64:98,128-4k:2");
	/* the same text interns to the same value */
	assert_int_equal(param_parse_value(&text_def, "64:98,128-4k:2", &w,
					   err, sizeof(err)), 0);
	assert_int_equal(v, w);
	assert_int_equal(param_parse_value(&text_def,
		"0123456789012345678901234567890123456789x", &v, err,
		sizeof(err)), -1);
	assert_non_null(strstr(err, "mix"));
	assert_string_equal(param_string(-1), "");

	assert_int_equal(param_request_init(&req, &text_def, 1, err,
					    sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "w.x", "mix=1:1,2:1;fleet",
					     err, sizeof(err)), 0);
	assert_int_equal(param_request_count(&req), 2);
	param_request_get(&req, 0, &ps);
	assert_string_equal(param_string(ps.v[0]), "1:1,2:1");
	param_request_get(&req, 1, &ps);
	assert_string_equal(param_string(ps.v[0]), "fleet");
}


/* A default may be a list: the parameter sweeps unless the user sets it. */
static void test_list_default(void **state)
{
	static const struct param_def d[] = {
		{ .name = "size", .type = PARAM_SIZE, .def = "64,4k", .min = 1,
		  .max = GIB, .help = "sizes" },
	};
	static const struct param_def bad[] = {
		{ .name = "size", .type = PARAM_SIZE, .def = "64,,4k",
		  .min = 1, .max = GIB, .help = "sizes" },
	};
	struct param_request req;
	struct param_set ps;
	char err[256];

	(void)state;
	assert_int_equal(param_request_init(&req, d, 1, err, sizeof(err)), 0);
	assert_int_equal(param_request_count(&req), 2);
	assert_false(req.user_set[0]);
	param_request_get(&req, 1, &ps);
	assert_int_equal(ps.v[0], 4096);
	assert_int_equal(param_request_apply(&req, "w.x", "size=1M", err,
					     sizeof(err)), 0);
	assert_int_equal(param_request_count(&req), 1);
	assert_int_equal(param_request_init(&req, bad, 1, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "bad default"));
}

/* A struct to bind into, fields out of the rows' order. */
struct bound {
	bool verify;
	int mode;
	int64_t warmup, size;
	const char *mix;
	int64_t untouched;
};

/* param_bind() puts each value in its row's field, as its type. */
static void test_bind(void **state)
{
	static const struct param_def rows[] = {
		{ .name = "size", .type = PARAM_SIZE, .def = "64k", .min = 1,
		  .max = GIB, .help = "",
		  PARAM_FIELD(struct bound, size) },
		{ .name = "mode", .type = PARAM_ENUM, .def = "proc",
		  .choices = mode_choices, .help = "",
		  PARAM_FIELD(struct bound, mode) },
		{ .name = "verify", .type = PARAM_BOOL, .def = "0", .help = "",
		  PARAM_FIELD(struct bound, verify) },
		{ .name = "warmup", .type = PARAM_TIME, .def = "200ms",
		  .min = 0, .max = NS_S, .help = "",
		  PARAM_FIELD(struct bound, warmup) },
		{ .name = "mix", .type = PARAM_STRING, .def = "fleet",
		  .help = "", PARAM_FIELD(struct bound, mix) },
	};
	struct param_request req;
	struct param_set ps;
	struct bound b;
	char err[256];

	(void)state;
	assert_int_equal(rows[0].offset, offsetof(struct bound, size));
	assert_int_equal(rows[0].field_size, sizeof(int64_t));
	assert_int_equal(rows[1].field_size, sizeof(int));
	assert_int_equal(rows[2].field_size, sizeof(bool));
	assert_int_equal(param_field_size(PARAM_SIZE), sizeof(int64_t));
	assert_int_equal(param_field_size(PARAM_TIME), sizeof(int64_t));
	assert_int_equal(param_field_size(PARAM_INT), sizeof(int64_t));
	assert_int_equal(param_field_size(PARAM_ENUM), sizeof(int));
	assert_int_equal(param_field_size(PARAM_BOOL), sizeof(bool));
	assert_int_equal(param_field_size(PARAM_STRING), sizeof(char *));

	assert_int_equal(param_request_init(&req, rows, 5, err,
					    sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "w.x", "size=1M", err,
					     sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "w.x", "mode=thread", err,
					     sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "w.x", "verify=yes", err,
					     sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "w.x", "mix=64:1,128:3",
					     err, sizeof(err)), 0);
	param_request_get(&req, 0, &ps);
	memset(&b, 0, sizeof(b));
	b.untouched = 42;
	param_bind(rows, 5, &ps, &b);
	assert_int_equal(b.size, MIB);
	assert_int_equal(b.mode, 1);
	assert_true(b.verify);
	assert_int_equal(b.warmup, 200 * NS_MS);
	assert_string_equal(b.mix, "64:1,128:3");
	assert_int_equal(b.untouched, 42);
}

/*
 * wl_text_add: a note that fits is appended whole; one that does not ends
 * in "[cut: N more chars]" with N exactly the characters left out, and
 * the buffer is never overrun.
 */
static void test_text_add_cut(void **state)
{
	char buf[48] = "", big[WL_NOTE_LEN] = "";
	const char *tail = "0123456789012345678901234567890123456789";
	size_t keep;

	(void)state;
	assert_int_equal(wl_text_add(buf, sizeof(buf), "mix %s:", "fleet"), 0);
	assert_int_equal(wl_text_add(buf, sizeof(buf), " %d%%", 98), 0);
	assert_string_equal(buf, "mix fleet: 98%");
	assert_int_equal(wl_text_add(buf, sizeof(buf), "%s", tail), -1);
	assert_true(strlen(buf) < sizeof(buf));
	keep = strlen(buf) - strlen(" [cut: 28 more chars]");
	assert_string_equal(buf + keep, " [cut: 28 more chars]");
	/* what was kept plus N is the whole text: 14 + 40 = 26 + 28 */
	assert_int_equal(keep + 28, strlen("mix fleet: 98%") + strlen(tail));
	assert_int_equal(memcmp(buf, "mix fleet: 98%0123456789", 24), 0);
	/* a pipe.mix note of 16 entries and a placement note fits whole */
	for (int i = 0; i < 16; i++)
		wl_text_add(big, sizeof(big), "%s524288-1048576:%d",
			    i ? "+" : "mix ", 987654321);
	assert_int_equal(wl_text_add(big, sizeof(big), "; place=split: 5 "
				     "workers on 2 allowed CPUs"), 0);
	assert_null(strstr(big, "[cut:"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_add_cut),
		cmocka_unit_test(test_string_values),
		cmocka_unit_test(test_list_default),
		cmocka_unit_test(test_size_valid),
		cmocka_unit_test(test_size_invalid),
		cmocka_unit_test(test_time_valid),
		cmocka_unit_test(test_time_invalid),
		cmocka_unit_test(test_time_unit_in_name),
		cmocka_unit_test(test_bind),
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_enum),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_format_roundtrip),
		cmocka_unit_test(test_request_defaults),
		cmocka_unit_test(test_request_init_errors),
		cmocka_unit_test(test_sweep_order),
		cmocka_unit_test(test_duplicate_replaces),
		cmocka_unit_test(test_apply_errors),
		cmocka_unit_test(test_list_limit),
		cmocka_unit_test(test_sweep_cap),
		cmocka_unit_test(test_count_saturates),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_suggest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
