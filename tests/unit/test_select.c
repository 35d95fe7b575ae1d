/*
 * test_select.c - unit tests of the selection of runs (src/store/
 * select.c), on both backends (store_fixture.h): run ids, tags, 'last',
 * the selectors host:, kernel:, boot: and tag: with shell patterns, terms
 * joined by '+', comma lists in their order, and the refusals (a selector
 * without a pattern, an item that selects nothing); which texts are
 * tags (store_spec_is_tag).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "env/env.h"
#include "store/store.h"
#include "store_fixture.h"

#define NRUNS 4

static const struct {
	const char *host, *kernel, *cmdline, *tag;
} runs_made[NRUNS] = {
	{ "lab1", "6.18.1", "ro quiet nosmap", "nightly" },
	{ "lab1", "6.18.2", "ro  mitigations=off\n", "nightly" },
	{ "lab2", "6.1.0", "ro", "a+b" },
	{ "lab2", "6.18.1", "", "v1:rc" },
};

/* The four runs, stored oldest first; ids[] gets their ids. */
static void store_runs(const char *db, int64_t *ids)
{
	struct store *st = open_ok(db);
	char err[512];
	int i;

	for (i = 0; i < NRUNS; i++) {
		struct run_info run = { 0 };
		struct env env = { 0 };

		run.started_ns = 1000 + i;
		snprintf(run.host, sizeof(run.host), "%s", runs_made[i].host);
		snprintf(run.tag, sizeof(run.tag), "%s", runs_made[i].tag);
		assert_int_equal(env_set(&env, "kernel.release",
					 runs_made[i].kernel), 0);
		if (runs_made[i].cmdline[0])
			assert_int_equal(env_set(&env, "kernel.cmdline",
						 runs_made[i].cmdline), 0);
		if (store_begin_run(st, &run, &env, err, sizeof(err)))
			fail_msg("store_begin_run: %s", err);
		ids[i] = run.id;
		env_free(&env);
	}
	store_close(st);
}

/*
 * spec selects exactly the runs want (indexes into runs_made, -1 ends),
 * in that order.
 */
static void expect(struct store *st, const int64_t *ids, const char *spec,
		   const int *want)
{
	enum store_select_status rc;
	int64_t *got = NULL;
	char err[512] = "";
	size_t n = 0, i;

	rc = store_select_runs(st, spec, &got, &n, err, sizeof(err));
	if (rc != STORE_SELECT_OK)
		fail_msg("'%s': status %d: %s", spec, rc, err);
	for (i = 0; want[i] >= 0; i++) {
		if (i >= n || got[i] != ids[want[i]])
			fail_msg("'%s': run %zu is %lld, not %lld", spec, i,
				 i < n ? (long long)got[i] : -1LL,
				 (long long)ids[want[i]]);
	}
	if (n != i)
		fail_msg("'%s': %zu runs, not %zu", spec, n, i);
	free(got);
}

static void expect_fail(struct store *st, const char *spec,
			enum store_select_status want, const char *text)
{
	int64_t *got = NULL;
	char err[512] = "";
	size_t n = 0;

	assert_int_equal(store_select_runs(st, spec, &got, &n, err,
					   sizeof(err)), want);
	assert_null(got);
	assert_int_equal(n, 0);
	if (!strstr(err, text))
		fail_msg("'%s': '%s' lacks '%s'", spec, err, text);
}

#define L(...) ((const int[]){ __VA_ARGS__, -1 })

static void test_select(void **state)
{
	struct fixture *fx = *state;
	int64_t ids[NRUNS];
	struct store *st;
	char spec[32];

	FX_NEED_DB(fx);
	store_runs(fx->db, ids);
	st = open_ok(fx->db);

	snprintf(spec, sizeof(spec), "%lld", (long long)ids[1]);
	expect(st, ids, spec, L(1));
	expect(st, ids, "last", L(3));
	expect(st, ids, "nightly", L(0, 1));
	expect(st, ids, "a+b", L(2));		/* a tag with '+' */
	expect(st, ids, "v1:rc", L(3));		/* a tag with ':' */
	expect(st, ids, "host:lab1", L(0, 1));
	expect(st, ids, "host:lab*", L(0, 1, 2, 3));
	expect(st, ids, "kernel:6.18.*", L(0, 1, 3));
	expect(st, ids, "kernel:6.1.?", L(2));
	expect(st, ids, "boot:nosmap", L(0));
	expect(st, ids, "boot:mitigations=*", L(1));	/* words, any space */
	expect(st, ids, "boot:ro", L(0, 1, 2));
	expect(st, ids, "tag:night*", L(0, 1));
	expect(st, ids, "tag:a+b", L(2));
	expect(st, ids, "host:lab1+kernel:6.18.2", L(1));
	expect(st, ids, "nightly+host:lab1", L(0, 1));
	expect(st, ids, "host:lab2+last", L(3));
	expect(st, ids, "host:lab1+tag:nightly+last", L(1));
	expect(st, ids, "last+host:lab1", L(1));
	/* items in their order, each run once */
	expect(st, ids, "host:lab2,host:lab1", L(2, 3, 0, 1));
	expect(st, ids, "nightly,host:lab1,last", L(0, 1, 3));

	expect_fail(st, "host:", STORE_SELECT_EMPTY_ITEM, "needs a pattern");
	expect_fail(st, "nightly+kernel:", STORE_SELECT_EMPTY_ITEM,
		    "'kernel:' needs a pattern");
	expect_fail(st, "a,,b", STORE_SELECT_EMPTY_ITEM, "empty");
	expect_fail(st, "host:lab9", STORE_SELECT_NO_MATCH,
		    "'host:lab9' selects no stored run");
	expect_fail(st, "nightly,host:lab1+kernel:6.1.*",
		    STORE_SELECT_NO_MATCH,
		    "'host:lab1+kernel:6.1.*' selects no stored run");
	expect_fail(st, "nosuch", STORE_SELECT_NO_MATCH,
		    "'nosuch' is neither a stored run id nor a tag");
	expect_fail(st, "999999", STORE_SELECT_NO_MATCH, "'999999'");
	store_close(st);
}

static void test_spec_is_tag(void **state)
{
	(void)state;
	assert_true(store_spec_is_tag("nightly"));
	assert_true(store_spec_is_tag("a+b"));
	assert_true(store_spec_is_tag("v1:rc"));
	assert_true(store_spec_is_tag("lastly"));
	assert_true(store_spec_is_tag("smap-on"));
	assert_false(store_spec_is_tag(""));
	assert_false(store_spec_is_tag("12"));
	assert_false(store_spec_is_tag("last"));
	assert_false(store_spec_is_tag("a,b"));
	assert_false(store_spec_is_tag("host:x"));
	assert_false(store_spec_is_tag("tag:x"));
	assert_false(store_spec_is_tag("x+boot:y"));
	assert_false(store_spec_is_tag("x+last"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		{ "test_select [SQLite]", test_select, setup_sqlite, teardown,
		  NULL },
		{ "test_select [PostgreSQL]", test_select, setup_pg, teardown,
		  NULL },
		cmocka_unit_test(test_spec_is_tag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
