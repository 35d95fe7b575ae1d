/*
 * test_registry.c - unit tests for the workload table and its validation
 * (src/core/workload.c, src/workloads/registry.c): the real table passes,
 * each kind of broken descriptor is reported naming its workload (bad
 * field bindings and capability flags included), a configuration binds
 * into the right fields, every WL_CAP_TRACE workload sets up one worker
 * (src/runner/context.c), every suite names existing workloads with
 * arguments that parse, explain recipes (kind, floors, their one shared
 * size) are checked, and lookups.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/common_params.h"
#include "runner/context.h"
#include "core/param.h"
#include "core/workload.h"
#include "util/array.h"
#include "workloads/workloads.h"

#define ERRLEN 512

/* ---- a well-formed synthetic workload, copied and broken below ---- */

static const char *const mode_choices[] = { "proc", "thread", NULL };
static const char *const no_choices[] = { NULL };

/* The synthetic workload's parameters; spare fields for broken tables. */
struct good {
	int64_t size, n, t;
	int mode, place;
	bool verify;
	int64_t trace;
	const char *text;
};

#define FIELD(m) PARAM_FIELD(struct good, m)

static const struct param_def good_params[] = {
	{ "size", PARAM_SIZE, "64k", 1, 1 << 30, NULL, "bytes per op",
	  FIELD(size) },
	WL_PARAM_MODE(struct good, mode, "proc"),
	WL_PARAM_PLACE(struct good, place),
	WL_PARAM_VERIFY(struct good, verify),
	WL_PARAM_TRACE(struct good, trace),
	{ .name = "text", .type = PARAM_STRING, .def = "hello",
	  .help = "some text", FIELD(text) },
};

/* Rows for the broken tables below, bound to fields of struct good. */
#define VERIFY_ROW WL_PARAM_VERIFY(struct good, verify)
#define TRACE_ROW WL_PARAM_TRACE(struct good, trace)

static const struct metric_def good_metrics[] = {
	{ .name = "time/op", .kind = METRIC_NS_PER_OP, .dir = METRIC_LOWER_BETTER, .help = "time per op" },
	{ .name = "bandwidth", .kind = METRIC_BYTES_PER_SEC, .dir = METRIC_HIGHER_BETTER, .help = "bytes per second" },
};

static int fake_setup(struct wl_ctx *ctx)
{
	(void)ctx;
	return WL_OK;
}

static int fake_run_batch(struct wl_worker *w, uint64_t nops)
{
	(void)w;
	(void)nops;
	return WL_OK;
}

static int fake_verify_batch(struct wl_worker *w, uint64_t nops)
{
	(void)w;
	(void)nops;
	return WL_OK;
}

static long fake_verify(struct wl_ctx *ctx, char *buf, size_t len)
{
	(void)ctx;
	if (len)
		buf[0] = '\0';
	return 0;
}

static const struct workload good_wl = {
	.name = "test.good",
	.summary = "a synthetic workload",
	.op = "nothing",
	.not_measured = "everything",
	.params = good_params,
	.nparams = ARRAY_SIZE(good_params),
	.params_size = sizeof(struct good),
	.metrics = good_metrics,
	.nmetrics = ARRAY_SIZE(good_metrics),
	.caps = WL_CAP_VERIFY | WL_CAP_TRACE,
	.setup = fake_setup,
	.run_batch = fake_run_batch,
	.verify_batch = fake_verify_batch,
	.verify = fake_verify,
};

/* Validate a one-entry table holding wl; return the problem count. */
static int validate1(const struct workload *wl, char *err, size_t errlen)
{
	const struct workload *const table[] = { wl };

	return workload_table_validate(table, 1, err, errlen);
}

/* wl must give at least one problem, and the message must name it. */
static void expect_broken(const struct workload *wl, const char *label)
{
	char err[ERRLEN];
	char want[128];
	int n;

	memset(err, 'x', sizeof(err));
	err[sizeof(err) - 1] = '\0';
	n = validate1(wl, err, sizeof(err));
	if (n < 1)
		fail_msg("%s: no problem reported", label);
	snprintf(want, sizeof(want), "workload '%s'",
		 wl->name ? wl->name : "(null)");
	if (!strstr(err, want))
		fail_msg("%s: message does not name the workload: '%s'",
			 label, err);
}

/* Copy good_wl with params replaced (n of them). */
static struct workload with_params(const struct param_def *p, size_t n)
{
	struct workload wl = good_wl;

	wl.params = p;
	wl.nparams = n;
	return wl;
}

static void test_real_table_valid(void **state)
{
	char err[ERRLEN] = "untouched";
	int n;

	(void)state;
	assert_true(workload_count >= 2);
	n = workload_table_validate(workload_table, workload_count, err,
				    sizeof(err));
	if (n != 0)
		fail_msg("real table: %d problems: %s", n, err);
	assert_string_equal(err, "");
}

static void test_good_synthetic_valid(void **state)
{
	char err[ERRLEN];
	int n;

	(void)state;
	n = validate1(&good_wl, err, sizeof(err));
	if (n != 0)
		fail_msg("synthetic good workload: %d problems: %s", n, err);
	/* An empty table is fine too. */
	assert_int_equal(workload_table_validate(NULL, 0, err, sizeof(err)),
			 0);
}

static void test_bad_names(void **state)
{
	static const char *const bad[] = {
		"Pipe", "pipe", "a.b.c", "pipe.", ".bw", "pipe.BW",
		"pipe bw.x", "pipe-bw.x", "",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct workload wl = good_wl;

		wl.name = bad[i];
		expect_broken(&wl, bad[i]);
	}
}

static void test_good_names(void **state)
{
	static const char *const good[] = { "pipe.bw", "sys.null",
					    "mem_copy.x2", "a.b" };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		struct workload wl = good_wl;
		char err[ERRLEN];

		wl.name = good[i];
		if (validate1(&wl, err, sizeof(err)) != 0)
			fail_msg("name '%s' rejected: %s", good[i], err);
	}
}

static void test_missing_texts(void **state)
{
	struct workload wl;

	(void)state;
	wl = good_wl;
	wl.summary = NULL;
	expect_broken(&wl, "no summary");
	wl = good_wl;
	wl.summary = "";
	expect_broken(&wl, "empty summary");
	wl = good_wl;
	wl.op = NULL;
	expect_broken(&wl, "no op");
	wl = good_wl;
	wl.not_measured = NULL;
	expect_broken(&wl, "no not_measured");
	wl = good_wl;
	wl.not_measured = "";
	expect_broken(&wl, "empty not_measured");
}

static void test_missing_hooks(void **state)
{
	struct workload wl;

	(void)state;
	wl = good_wl;
	wl.setup = NULL;
	expect_broken(&wl, "no setup");
	wl = good_wl;
	wl.run_batch = NULL;
	expect_broken(&wl, "no run_batch");
}

static void test_metrics(void **state)
{
	static const struct metric_def unnamed[] = {
		{ .name = NULL, .kind = METRIC_NS_PER_OP, .dir = METRIC_LOWER_BETTER, .help = "help" },
	};
	static const struct metric_def no_help[] = {
		{ .name = "time", .kind = METRIC_NS_PER_OP, .dir = METRIC_LOWER_BETTER, .help = "" },
	};
	struct workload wl;

	(void)state;
	wl = good_wl;
	wl.metrics = NULL;
	wl.nmetrics = 0;
	expect_broken(&wl, "zero metrics");
	wl = good_wl;
	wl.nmetrics = WL_MAX_METRICS + 1;	/* never dereferenced past 8 */
	{
		struct metric_def many[WL_MAX_METRICS + 1];
		size_t i;

		for (i = 0; i < WL_MAX_METRICS + 1; i++)
			many[i] = good_metrics[0];
		wl.metrics = many;
		expect_broken(&wl, "too many metrics");
	}
	wl = good_wl;
	wl.metrics = unnamed;
	wl.nmetrics = 1;
	expect_broken(&wl, "unnamed metric");
	wl = good_wl;
	wl.metrics = no_help;
	wl.nmetrics = 1;
	expect_broken(&wl, "metric without help");
}

/* wl must be refused with exactly the message want (the first problem). */
static void expect_error(const struct workload *wl, const char *want)
{
	char err[ERRLEN];

	memset(err, 'x', sizeof(err));
	err[sizeof(err) - 1] = '\0';
	assert_true(validate1(wl, err, sizeof(err)) >= 1);
	assert_string_equal(err, want);
}

static double fake_sample_metric(struct wl_ctx *ctx, size_t metric,
				 const struct wl_sample *s)
{
	(void)ctx;
	(void)metric;
	return (double)s->nops;
}

/*
 * The metric rows a start-up check refuses: a name twice, a custom metric
 * that nothing samples (it would record 0) or that has no unit (it would
 * be shown as a count).
 */
static void test_metric_descriptors(void **state)
{
	static const struct metric_def twice[] = {
		{ .name = "time/op", .kind = METRIC_NS_PER_OP, .dir = METRIC_LOWER_BETTER, .help = "a" },
		{ .name = "bandwidth", .kind = METRIC_BYTES_PER_SEC, .dir = METRIC_HIGHER_BETTER, .help = "b" },
		{ .name = "time/op", .kind = METRIC_OPS_PER_SEC, .dir = METRIC_HIGHER_BETTER, .help = "c" },
	};
	static const struct metric_def custom[] = {
		{ .name = "time/op", .kind = METRIC_NS_PER_OP, .dir = METRIC_LOWER_BETTER, .help = "a" },
		{ .name = "events/call", .kind = METRIC_CUSTOM, .dir = METRIC_INFO, .help = "b", .unit = "events" },
	};
	static const struct metric_def no_unit[] = {
		{ .name = "events/call", .kind = METRIC_CUSTOM, .dir = METRIC_INFO, .help = "b" },
	};
	struct workload wl = good_wl;
	char err[ERRLEN] = "";

	(void)state;
	wl.metrics = twice;
	wl.nmetrics = ARRAY_SIZE(twice);
	expect_error(&wl, "workload 'test.good': metric 'time/op' twice");

	wl = good_wl;
	wl.metrics = custom;
	wl.nmetrics = ARRAY_SIZE(custom);
	expect_error(&wl, "workload 'test.good': custom metric 'events/call' "
		     "needs the sample_metric hook");
	wl.sample_metric = fake_sample_metric;
	assert_int_equal(validate1(&wl, err, sizeof(err)), 0);
	assert_string_equal(err, "");

	wl.metrics = no_unit;
	wl.nmetrics = ARRAY_SIZE(no_unit);
	expect_error(&wl, "workload 'test.good': custom metric 'events/call' "
		     "has no unit");
	wl.sample_metric = NULL;
	/* both problems are counted; the first one is the message */
	assert_int_equal(validate1(&wl, err, sizeof(err)), 2);
	assert_string_equal(err, "workload 'test.good': custom metric "
			    "'events/call' needs the sample_metric hook");
}

static void test_duplicate_param(void **state)
{
	static const struct param_def p[] = {
		{ "size", PARAM_SIZE, "64k", 1, 1 << 30, NULL, "a",
		  FIELD(size) },
		VERIFY_ROW,
		TRACE_ROW,
		{ "size", PARAM_SIZE, "4k", 1, 1 << 30, NULL, "d", FIELD(n) },
	};
	struct workload wl = with_params(p, 4);

	(void)state;
	expect_broken(&wl, "duplicate parameter");
}

static void test_param_texts(void **state)
{
	static const struct param_def no_help[] = {
		VERIFY_ROW,
		TRACE_ROW,
		{ "n", PARAM_INT, "0", 0, 9, NULL, "", FIELD(n) },
	};
	static const struct param_def unnamed[] = {
		VERIFY_ROW,
		TRACE_ROW,
		{ NULL, PARAM_INT, "0", 0, 9, NULL, "c", FIELD(n) },
	};
	struct workload wl;

	(void)state;
	wl = with_params(no_help, 3);
	expect_broken(&wl, "parameter without help");
	wl = with_params(unnamed, 3);
	expect_broken(&wl, "unnamed parameter");
}

static void test_enum_without_choices(void **state)
{
	static const struct param_def null_choices[] = {
		VERIFY_ROW,
		TRACE_ROW,
		{ "mode", PARAM_ENUM, "proc", 0, 0, NULL, "d", FIELD(mode) },
	};
	static const struct param_def empty_choices[] = {
		VERIFY_ROW,
		TRACE_ROW,
		{ "mode", PARAM_ENUM, "proc", 0, 0, no_choices, "d",
		  FIELD(mode) },
	};
	struct workload wl;

	(void)state;
	wl = with_params(null_choices, 3);
	expect_broken(&wl, "enum with NULL choices");
	wl = with_params(empty_choices, 3);
	expect_broken(&wl, "enum with no choices");
}

static void test_bad_defaults(void **state)
{
	static const struct param_def cases[][3] = {
		{ VERIFY_ROW, TRACE_ROW,
		  { "size", PARAM_SIZE, "5x", 1, 1 << 20, NULL, "d",
		    FIELD(size) } },
		{ VERIFY_ROW, TRACE_ROW,
		  { "size", PARAM_SIZE, "2M", 1, 1 << 20, NULL, "d",
		    FIELD(size) } },
		{ VERIFY_ROW, TRACE_ROW,
		  { "n", PARAM_INT, "0", 1, 64, NULL, "d", FIELD(n) } },
		{ VERIFY_ROW, TRACE_ROW,
		  { "t", PARAM_TIME, "fast", 0, 1000000000, NULL, "d",
		    FIELD(t) } },
		/* a time needs its unit */
		{ VERIFY_ROW, TRACE_ROW,
		  { "t", PARAM_TIME, "5", 0, 1000000000, NULL, "d",
		    FIELD(t) } },
		{ VERIFY_ROW, TRACE_ROW,
		  { "mode", PARAM_ENUM, "fiber", 0, 0, mode_choices, "d",
		    FIELD(mode) } },
		{ { "verify", PARAM_BOOL, "maybe", 0, 0, NULL, "b",
		    FIELD(verify), .role = PARAM_ROLE_VERIFY },
		  TRACE_ROW,
		  { "n", PARAM_INT, "1", 1, 64, NULL, "d", FIELD(n) } },
		{ VERIFY_ROW, TRACE_ROW,
		  { "n", PARAM_INT, NULL, 1, 64, NULL, "d", FIELD(n) } },
		{ VERIFY_ROW, TRACE_ROW,
		  { "n", PARAM_INT, "5", 10, 1, NULL, "min > max",
		    FIELD(n) } },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct workload wl = with_params(cases[i], 3);
		char label[64];

		snprintf(label, sizeof(label), "bad default case %zu", i);
		expect_broken(&wl, label);
	}
}

/* wl with its parameter table replaced by p (n rows). */
#define WITH(p) with_params((p), ARRAY_SIZE(p))

static void test_caps(void **state)
{
	static const struct param_def no_verify[] = {
		{ "size", PARAM_SIZE, "64k", 1, 1 << 30, NULL, "a",
		  FIELD(size) },
		TRACE_ROW,
	};
	static const struct param_def no_trace[] = {
		{ "size", PARAM_SIZE, "64k", 1, 1 << 30, NULL, "a",
		  FIELD(size) },
		VERIFY_ROW,
	};
	static const struct param_def verify_row_untagged[] = {
		{ "verify", PARAM_BOOL, "0", 0, 0, NULL, "b", FIELD(verify) },
		TRACE_ROW,
	};
	struct workload wl;

	(void)state;
	wl = WITH(no_verify);
	expect_broken(&wl, "WL_CAP_VERIFY without the verify row");
	wl = good_wl;
	wl.verify = NULL;
	expect_broken(&wl, "WL_CAP_VERIFY without the verify hook");
	wl = good_wl;
	wl.verify_batch = NULL;
	expect_broken(&wl, "WL_CAP_VERIFY without the verify_batch hook");
	wl = good_wl;
	wl.caps = WL_CAP_TRACE;
	expect_broken(&wl, "a verify row and hooks without WL_CAP_VERIFY");
	wl = good_wl;
	wl.caps = WL_CAP_TRACE;
	wl.verify = NULL;
	wl.verify_batch = NULL;
	expect_broken(&wl, "a verify row without WL_CAP_VERIFY");
	wl = WITH(verify_row_untagged);
	expect_broken(&wl, "WL_CAP_VERIFY with a row that lacks the role");
	wl = WITH(no_trace);
	expect_broken(&wl, "WL_CAP_TRACE without the trace row");
	wl = good_wl;
	wl.caps = WL_CAP_VERIFY;
	expect_broken(&wl, "a trace row without WL_CAP_TRACE");
	wl = good_wl;
	wl.caps |= 1u << 7;
	expect_broken(&wl, "an unknown capability bit");
	/* No verify or trace at all is fine. */
	{
		static const struct param_def plain[] = {
			{ "size", PARAM_SIZE, "64k", 1, 1 << 30, NULL, "a",
			  FIELD(size) },
		};
		char err[ERRLEN];

		wl = WITH(plain);
		wl.caps = 0;
		wl.verify = NULL;
		wl.verify_batch = NULL;
		if (validate1(&wl, err, sizeof(err)) != 0)
			fail_msg("no verify/trace rows rejected: %s", err);
	}
}

static void test_field_bindings(void **state)
{
	static const struct param_def wrong_size[] = {
		VERIFY_ROW, TRACE_ROW,
		/* an enum binds an int, not an int64_t */
		{ "mode", PARAM_ENUM, "proc", 0, 0, mode_choices, "d",
		  FIELD(size) },
	};
	static const struct param_def int_as_int[] = {
		VERIFY_ROW, TRACE_ROW,
		{ "n", PARAM_INT, "1", 0, 9, NULL, "d", FIELD(mode) },
	};
	static const struct param_def bool_as_int[] = {
		{ "verify", PARAM_BOOL, "0", 0, 0, NULL, "b", FIELD(mode),
		  .role = PARAM_ROLE_VERIFY },
		TRACE_ROW,
	};
	static const struct param_def unbound[] = {
		VERIFY_ROW, TRACE_ROW,
		{ "n", PARAM_INT, "1", 0, 9, NULL, "d", .field_size = 0 },
	};
	static const struct param_def overlap[] = {
		VERIFY_ROW, TRACE_ROW,
		{ "n", PARAM_INT, "1", 0, 9, NULL, "d", FIELD(n) },
		{ "m", PARAM_INT, "1", 0, 9, NULL, "e", FIELD(n) },
	};
	static const struct param_def outside[] = {
		VERIFY_ROW, TRACE_ROW,
		{ "n", PARAM_INT, "1", 0, 9, NULL, "d",
		  .offset = sizeof(struct good), .field_size = 8 },
	};
	static const struct param_def two_modes[] = {
		VERIFY_ROW, TRACE_ROW,
		WL_PARAM_MODE(struct good, mode, "proc"),
		{ "mode2", PARAM_ENUM, "proc", 0, 0, wl_mode_choices, "d",
		  FIELD(place), .role = PARAM_ROLE_MODE },
	};
	static const struct param_def mode_order[] = {
		VERIFY_ROW, TRACE_ROW,
		/* proc first: the index would not be enum wl_mode */
		{ "mode", PARAM_ENUM, "proc", 0, 0, mode_choices, "d",
		  FIELD(mode), .role = PARAM_ROLE_MODE },
	};
	struct workload wl;

	(void)state;
	wl = WITH(wrong_size);
	expect_broken(&wl, "enum bound to an int64_t");
	wl = WITH(int_as_int);
	expect_broken(&wl, "int bound to an int");
	wl = WITH(bool_as_int);
	expect_broken(&wl, "bool bound to an int");
	wl = WITH(unbound);
	expect_broken(&wl, "a row bound to no field");
	wl = WITH(overlap);
	expect_broken(&wl, "two rows sharing a field");
	wl = WITH(outside);
	expect_broken(&wl, "a field past params_size");
	wl = good_wl;
	wl.params_size = offsetof(struct good, text);
	expect_broken(&wl, "params_size too small for the last field");
	wl = good_wl;
	wl.params_size = WL_PARAMS_MAX_BYTES + 8;
	expect_broken(&wl, "params_size above WL_PARAMS_MAX_BYTES");
	wl = WITH(two_modes);
	expect_broken(&wl, "two mode rows");
	wl = WITH(mode_order);
	expect_broken(&wl, "a mode row with its own choices");
}

/* A configuration lands in the right fields, each of its type. */
static void test_bind(void **state)
{
	struct param_request req;
	struct param_set ps;
	struct good g;
	char err[256];

	(void)state;
	assert_int_equal(param_request_init(&req, good_params,
					    good_wl.nparams, err,
					    sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "test.good", "size=4k",
					     err, sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "test.good",
					     "mode=thread", err,
					     sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "test.good", "place=none",
					     err, sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "test.good", "verify=1",
					     err, sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "test.good", "trace=7",
					     err, sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "test.good",
					     "text=a,b", err, sizeof(err)),
			 0);
	param_request_get(&req, 0, &ps);
	memset(&g, 0xa5, sizeof(g));
	g.n = 11;
	g.t = 12;
	param_bind(good_params, good_wl.nparams, &ps, &g);
	assert_int_equal(g.size, 4096);
	assert_int_equal(g.mode, WL_MODE_THREAD);
	assert_int_equal(g.place, PLACE_NONE);
	assert_true(g.verify);
	assert_int_equal(g.trace, 7);
	assert_string_equal(g.text, "a,b");
	/* fields without a row are left alone */
	assert_int_equal(g.n, 11);
	assert_int_equal(g.t, 12);

	/* the shared rows' choices are the enums, in order */
	assert_int_equal(param_request_apply(&req, "test.good", "mode=proc",
					     err, sizeof(err)), 0);
	assert_int_equal(param_request_apply(&req, "test.good",
					     "place=same", err, sizeof(err)),
			 0);
	param_request_get(&req, 0, &ps);
	param_bind(good_params, good_wl.nparams, &ps, &g);
	assert_int_equal(g.mode, WL_MODE_PROC);
	assert_int_equal(g.place, PLACE_SAME);
	assert_int_equal(param_find_role(good_params, good_wl.nparams,
					 PARAM_ROLE_TRACE), 4);
	assert_int_equal(param_find_role(good_params, 1, PARAM_ROLE_MODE),
			 -1);
}

/*
 * The trace contract: a WL_CAP_TRACE workload's setup() gives exactly one
 * worker (the traced process runs that one worker's ops).  Each one's
 * default configuration is set up the way a run and the traced process
 * do it, and torn down again.
 */
static void test_trace_one_worker(void **state)
{
	static const int cpus[] = { 0, 1 };
	size_t i, ntrace = 0;

	(void)state;
	for (i = 0; i < workload_count; i++) {
		const struct workload *wl = workload_table[i];
		struct param_request req;
		struct param_set ps;
		struct wl_ctx ctx;
		char err[256];
		int rc;

		if (!(wl->caps & WL_CAP_TRACE))
			continue;
		ntrace++;
		assert_int_equal(param_request_init(&req, wl->params,
						    wl->nparams, err,
						    sizeof(err)), 0);
		param_request_get(&req, 0, &ps);
		rc = wl_ctx_setup(&ctx, wl, &ps, cpus, 2);
		if (rc != WL_OK)
			fail_msg("%s: setup: %s", wl->name, ctx.err);
		if (ctx.nworkers != 1)
			fail_msg("%s: WL_CAP_TRACE, but setup gave %d "
				 "workers", wl->name, ctx.nworkers);
		assert_int_equal(ctx.worker_cpu[0], 0);
		wl_ctx_teardown(&ctx);
	}
	assert_true(ntrace >= 3);	/* sys.null, sys.rw, sys.iov */
}

static void test_duplicate_workload(void **state)
{
	struct workload other = good_wl;
	const struct workload *table[3];
	char err[ERRLEN];
	int n;

	(void)state;
	other.name = "test.other";
	table[0] = &good_wl;
	table[1] = &other;
	table[2] = &good_wl;
	n = workload_table_validate(table, 3, err, sizeof(err));
	assert_true(n >= 1);
	assert_non_null(strstr(err, "workload 'test.good'"));

	/* Two distinct descriptors with the same name. */
	other.name = "test.good";
	table[2] = &other;
	n = workload_table_validate(table, 2, err, sizeof(err));
	assert_true(n >= 1);
	assert_non_null(strstr(err, "workload 'test.good'"));

	/* The real table with one entry repeated. */
	{
		const struct workload *big[64];
		size_t i;

		assert_true(workload_count < 63);
		for (i = 0; i < workload_count; i++)
			big[i] = workload_table[i];
		big[workload_count] = workload_table[0];
		n = workload_table_validate(big, workload_count + 1, err,
					    sizeof(err));
		assert_true(n >= 1);
		assert_non_null(strstr(err, workload_table[0]->name));
	}
}

static void test_null_entry(void **state)
{
	const struct workload *table[2] = { &good_wl, NULL };
	char err[ERRLEN];

	(void)state;
	assert_true(workload_table_validate(table, 2, err, sizeof(err)) >= 1);
	assert_true(strlen(err) > 0);
}

/* Problems are counted; the first one is the message. */
static void test_counts_and_first_message(void **state)
{
	struct workload a = good_wl, b = good_wl;
	const struct workload *table[2] = { &a, &b };
	char err[ERRLEN];
	int n;

	(void)state;
	a.name = "first.bad";
	a.setup = NULL;
	b.name = "second.bad";
	b.run_batch = NULL;
	n = workload_table_validate(table, 2, err, sizeof(err));
	assert_true(n >= 2);
	assert_non_null(strstr(err, "workload 'first.bad'"));
	assert_null(strstr(err, "second.bad"));

	/* A tiny buffer is not overrun and stays terminated. */
	{
		char small[8];

		memset(small, 'x', sizeof(small));
		n = workload_table_validate(table, 2, small, sizeof(small));
		assert_true(n >= 2);
		assert_int_equal(strlen(small), sizeof(small) - 1);
	}
}

static void test_real_descriptors_complete(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < workload_count; i++) {
		const struct workload *wl = workload_table[i];

		assert_non_null(wl);
		assert_true(wl->nmetrics >= 1);
		assert_true(wl->nparams <= PARAM_MAX);
		for (j = 0; j < wl->nparams; j++) {
			struct param_request one;
			char err[256];

			/* a default may be a list (a sweep by default) */
			if (param_request_init(&one, &wl->params[j], 1, err,
					       sizeof(err)) != 0)
				fail_msg("%s: %s", wl->name, err);
			assert_true(param_request_count(&one) >= 1);
		}
		assert_ptr_equal(workload_find(wl->name), wl);
	}
}

static void test_suites_parse(void **state)
{
	size_t s, e;
	int a;

	(void)state;
	assert_true(suite_count >= 1);
	for (s = 0; s < suite_count; s++) {
		const struct suite *su = suite_table[s];

		assert_non_null(su);
		assert_non_null(su->name);
		assert_true(strlen(su->name) > 0);
		assert_non_null(su->summary);
		assert_true(strlen(su->summary) > 0);
		assert_true(su->nentries >= 1);
		assert_ptr_equal(suite_find(su->name), su);
		for (e = 0; e < su->nentries; e++) {
			const struct suite_entry *en = &su->entries[e];
			const struct workload *wl = workload_find(en->workload);
			struct param_request req;
			char err[256];

			if (!wl) {
				fail_msg("suite %s: unknown workload '%s'",
					 su->name, en->workload);
				continue;	/* not reached */
			}
			assert_non_null(en->args);
			if (param_request_init(&req, wl->params, wl->nparams,
					       err, sizeof(err)) != 0)
				fail_msg("suite %s: %s: %s", su->name,
					 wl->name, err);
			for (a = 0; en->args[a]; a++)
				if (param_request_apply(&req, wl->name,
							en->args[a], err,
							sizeof(err)) != 0)
					fail_msg("suite %s: %s '%s': %s",
						 su->name, wl->name,
						 en->args[a], err);
			if (param_request_check(&req, err, sizeof(err)) != 0)
				fail_msg("suite %s: %s: %s", su->name,
					 wl->name, err);
			assert_true(param_request_count(&req) >= 1);
			if (su->headlines && su->headlines[e].metric) {
				const char *m = su->headlines[e].metric;
				size_t k;
				bool found = false;

				for (k = 0; k < wl->nmetrics; k++)
					found |= strcmp(wl->metrics[k].name,
							m) == 0;
				if (!found)
					fail_msg("suite %s: %s has no metric "
						 "'%s' for the summary",
						 su->name, wl->name, m);
			}
		}
	}
	/* Suite names are unique. */
	for (s = 0; s < suite_count; s++)
		for (e = 0; e < s; e++)
			assert_string_not_equal(suite_table[s]->name,
						suite_table[e]->name);
}

/* ---- explain recipes: checked against a table that has mem.copy ---- */

static const char *const pb_libc[] = { "engine=libc", NULL };
static const char *const pb_movsb[] = { "engine=movsb", NULL };
static const char *const pb_nosuch[] = { "engine=nosuch", NULL };
static const char *const pb_size[] = { "size", NULL };
static const char *const pb_verify[] = { "verify", NULL };

/* Validate { wl, mem.copy }; the number of problems, the first in err. */
static int validate_with_copy(const struct workload *wl, char *err,
			      size_t len)
{
	const struct workload *const table[] = { wl, &wl_mem_copy };

	return workload_table_validate(table, 2, err, len);
}

/* wl's recipe x must be refused, naming the workload. */
static void expect_bad_recipe(const struct wl_explain *x, const char *label)
{
	struct workload wl = good_wl;
	char err[ERRLEN];

	wl.explain = x;
	if (validate_with_copy(&wl, err, sizeof(err)) < 1)
		fail_msg("%s: no problem reported", label);
	if (!strstr(err, "workload 'test.good': explain"))
		fail_msg("%s: message '%s'", label, err);
}

static void test_explain_recipes(void **state)
{
	static const struct wl_floor two[] = {
		{ .workload = "mem.copy", .set = pb_libc, .same = pb_size },
		{ .workload = "mem.copy", .set = pb_movsb, .same = pb_size },
	};
	static const struct wl_floor other_first[] = {
		{ .workload = "mem.copy", .set = pb_libc, .same = pb_size },
		{ .workload = "mem.copy", .set = pb_movsb, .same = pb_verify },
	};
	static const struct wl_floor bad_set[] = {
		{ .workload = "mem.copy", .set = pb_nosuch, .same = pb_size },
	};
	static const struct wl_floor no_such[] = {
		{ .workload = "no.such", .same = pb_size },
	};
	static const struct wl_floor shares_nothing[] = {
		{ .workload = "mem.copy", .set = pb_libc },
	};
	struct wl_explain x = {
		.kind = WL_EXPLAIN_PER_BYTE, .metric = "bandwidth",
		.floors = two, .nfloors = 2, .per = "op",
	};
	struct wl_explain bad;
	struct workload wl = good_wl;
	char err[ERRLEN];

	(void)state;
	wl.explain = &x;
	if (validate_with_copy(&wl, err, sizeof(err)) != 0)
		fail_msg("a good per-byte recipe refused: %s", err);
	/* the same floors make a pipe recipe too (a copy and a "ring") */
	x.kind = WL_EXPLAIN_PIPE;
	x.per = NULL;
	if (validate_with_copy(&wl, err, sizeof(err)) != 0)
		fail_msg("a good pipe recipe refused: %s", err);

	bad = x;
	bad.nfloors = 1;
	expect_bad_recipe(&bad, "a pipe recipe of one floor");
	bad = x;
	bad.kind = (enum wl_explain_kind)7;
	expect_bad_recipe(&bad, "an unknown kind");
	bad = x;
	bad.kind = WL_EXPLAIN_PER_BYTE;
	expect_bad_recipe(&bad, "per byte without the name of an op");
	bad.per = "op";
	bad.nfloors = 0;
	expect_bad_recipe(&bad, "per byte without floors");
	bad.nfloors = WL_EXPLAIN_MAX_FLOORS + 1;
	expect_bad_recipe(&bad, "too many floors");
	bad.floors = other_first;
	bad.nfloors = 2;
	expect_bad_recipe(&bad, "floors that share different sizes");
	bad.floors = bad_set;
	bad.nfloors = 1;
	expect_bad_recipe(&bad, "a floor setting that does not parse");
	bad.floors = no_such;
	expect_bad_recipe(&bad, "a floor not in the table");
	bad.floors = shares_nothing;
	expect_bad_recipe(&bad, "a floor that shares no parameter");
	bad.floors = two;
	bad.nfloors = 2;
	bad.metric = "time/op";		/* mem.copy has no time/op */
	expect_bad_recipe(&bad, "a metric the floors lack");
	bad.metric = "bandwidth";
	if (validate_with_copy(&wl, err, sizeof(err)) != 0)
		fail_msg("back to good: %s", err);
}

static void test_find(void **state)
{
	(void)state;
	assert_ptr_equal(workload_find("pipe.bw"), &wl_pipe_bw);
	assert_ptr_equal(workload_find("sys.null"), &wl_sys_null);
	assert_null(workload_find("pipe"));
	assert_null(workload_find("pipe.bw "));
	assert_null(workload_find("PIPE.BW"));
	assert_null(workload_find(""));
	assert_non_null(suite_find("default"));
	assert_non_null(suite_find("quick"));
	assert_true(suite_find("quick")->quick);
	assert_false(suite_find("default")->quick);
	assert_null(suite_find("no-such-suite"));
	assert_null(suite_find(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_table_valid),
		cmocka_unit_test(test_good_synthetic_valid),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_good_names),
		cmocka_unit_test(test_missing_texts),
		cmocka_unit_test(test_missing_hooks),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_metric_descriptors),
		cmocka_unit_test(test_duplicate_param),
		cmocka_unit_test(test_param_texts),
		cmocka_unit_test(test_enum_without_choices),
		cmocka_unit_test(test_bad_defaults),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_field_bindings),
		cmocka_unit_test(test_bind),
		cmocka_unit_test(test_trace_one_worker),
		cmocka_unit_test(test_duplicate_workload),
		cmocka_unit_test(test_null_entry),
		cmocka_unit_test(test_counts_and_first_message),
		cmocka_unit_test(test_real_descriptors_complete),
		cmocka_unit_test(test_suites_parse),
		cmocka_unit_test(test_explain_recipes),
		cmocka_unit_test(test_find),
	};

	/* what main() does first: the codec finds workloads by name */
	workload_registry_set(workload_table, workload_count);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
