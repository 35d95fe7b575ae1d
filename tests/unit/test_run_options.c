/*
 * test_run_options.c - the stored run options' table (results/
 * run_options.h): it passes its start-up check, every field goes to its
 * column value and back, to the export's JSON and back, and to its
 * environment text; a bad JSON member is refused naming the field and
 * what is allowed; an optional flag (hw_counters) absent from an older
 * export reads as off and has an environment key only when on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "env/env.h"
#include "results/codec.h"
#include "results/kview_table.h"
#include "results/run.h"
#include "results/run_options.h"

static void filled(struct run_options *o)
{
	memset(o, 0, sizeof(*o));
	o->reps = 7;
	o->sample_time_ns = 25000000;
	o->warmup_ns = 3;
	snprintf(o->cpus, sizeof(o->cpus), "0-3,7");
	o->hist = true;
	o->interleave = true;
	o->interleave_seed = UINT64_MAX;
	o->kviews = KVIEW_LOCK | KVIEW_PROFILE;
	o->perf_counters = true;
	o->hw_counters = true;
	o->fresh_workers = true;
}

static void test_table_checks(void **state)
{
	char err[256];
	size_t i, cover = 0;

	(void)state;
	assert_int_equal(run_options_validate(err, sizeof(err)), 0);
	/* every field of the record is in the table (interleave with its
	   seed): the bytes the rows cover are the record's fields' */
	for (i = 0; i < run_option_count; i++)
		cover += run_option_fields[i].size;
	assert_int_equal(cover + sizeof(bool),
			 sizeof(int) + 2 * sizeof(int64_t) + 256 +
			 5 * sizeof(bool) + sizeof(uint64_t) +
			 sizeof(unsigned));
}

static void test_column_round_trip(void **state)
{
	struct run_options o, back;
	struct run_option_value v;
	char err[256];
	size_t i;

	(void)state;
	filled(&o);
	memset(&back, 0, sizeof(back));
	for (i = 0; i < run_option_count; i++) {
		run_option_get(&o, &run_option_fields[i], &v);
		assert_int_equal(v.type == RUN_OPTION_STR,
				 run_option_text_column(&run_option_fields[i]));
		assert_int_equal(run_option_put(&back, &run_option_fields[i],
						&v, err, sizeof(err)), 0);
	}
	assert_memory_equal(&o, &back, sizeof(o));

	/* not interleaved, no views: both columns null */
	o.interleave = false;
	o.interleave_seed = 0;
	o.kviews = 0;
	for (i = 0; i < run_option_count; i++) {
		const struct run_option_field *f = &run_option_fields[i];

		run_option_get(&o, f, &v);
		if (f->kind == RUN_OPTION_SEED || f->kind == RUN_OPTION_VIEWS)
			assert_int_equal(v.type, RUN_OPTION_NULL);
	}
}

static void test_json_round_trip(void **state)
{
	struct run_info run, back;
	char err[256];
	json_t *j;

	(void)state;
	memset(&run, 0, sizeof(run));
	snprintf(run.uuid, sizeof(run.uuid), "00112233445566778899aabbccddeeff");
	snprintf(run.status, sizeof(run.status), "complete");
	run.have_options = true;
	filled(&run.opts);
	j = codec_run_json(&run);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(j, "options"), "kernel_views")),
		"lock,profile");
	assert_int_equal(codec_run_decode(j, &back, err, sizeof(err)), 0);
	assert_true(back.have_options);
	assert_memory_equal(&run.opts, &back.opts, sizeof(run.opts));
	json_decref(j);
	run_info_free(&back);

	run.opts.interleave = false;
	run.opts.interleave_seed = 0;
	run.opts.kviews = 0;
	j = codec_run_json(&run);
	assert_true(json_is_null(json_object_get(json_object_get(j, "options"),
						 "interleave_seed")));
	assert_int_equal(codec_run_decode(j, &back, err, sizeof(err)), 0);
	assert_memory_equal(&run.opts, &back.opts, sizeof(run.opts));
	json_decref(j);
	run_info_free(&back);
}

/* The options of run with member key set to value; its decode error. */
static const char *decode_with(const char *key, json_t *value)
{
	static char err[256];
	struct run_info run, back;
	json_t *j;
	int rc;

	memset(&run, 0, sizeof(run));
	snprintf(run.status, sizeof(run.status), "complete");
	run.have_options = true;
	filled(&run.opts);
	j = codec_run_json(&run);
	json_object_set_new(json_object_get(j, "options"), key, value);
	err[0] = '\0';
	rc = codec_run_decode(j, &back, err, sizeof(err));
	json_decref(j);
	run_info_free(&back);
	return rc == 0 ? NULL : err;
}

static void test_json_refusals(void **state)
{
	(void)state;
	assert_string_equal(decode_with("reps", json_integer(0)),
			    "'reps' is not an integer in 1 .. 2147483647");
	assert_string_equal(decode_with("warmup_ns", json_string("1ms")),
			    "'warmup_ns' is not an integer in 0 .. "
			    "9223372036854775807");
	assert_string_equal(decode_with("hist", json_integer(1)),
			    "'hist' is not true or false");
	assert_string_equal(decode_with("interleave_seed", json_string("x")),
			    "'interleave_seed' is neither an integer nor null");
	assert_non_null(strstr(decode_with("kernel_views",
					   json_string("futex")), "futex"));
	assert_string_equal(decode_with("cpus", json_null()),
			    "'cpus' is not a string");
	/* runs exported before the views existed have no member */
	assert_null(decode_with("kernel_views", json_null()));
	/* nor before --hw-counters: off */
	assert_null(decode_with("hw_counters", json_null()));
	assert_string_equal(decode_with("hw_counters", json_integer(1)),
			    "'hw_counters' is not true or false");
}

/* An export from before --hw-counters (no member) reads it as off. */
static void test_json_without_hw(void **state)
{
	struct run_info run, back;
	char err[256];
	json_t *j;

	(void)state;
	memset(&run, 0, sizeof(run));
	snprintf(run.status, sizeof(run.status), "complete");
	run.have_options = true;
	filled(&run.opts);
	j = codec_run_json(&run);
	assert_true(json_is_true(json_object_get(json_object_get(j,
		"options"), "hw_counters")));
	assert_int_equal(json_object_del(json_object_get(j, "options"),
					 "hw_counters"), 0);
	assert_int_equal(codec_run_decode(j, &back, err, sizeof(err)), 0);
	assert_false(back.opts.hw_counters);
	assert_true(back.opts.fresh_workers);
	assert_true(back.opts.perf_counters);
	json_decref(j);
	run_info_free(&back);
}

static void test_env_text(void **state)
{
	struct run_info run;
	struct env e;
	const char *v;

	(void)state;
	memset(&run, 0, sizeof(run));
	memset(&e, 0, sizeof(e));
	run.have_options = true;
	filled(&run.opts);
	assert_int_equal(run_options_env(&run, &e), 0);
	assert_string_equal(env_get(&e, "run.reps"), "7");
	assert_string_equal(env_get(&e, "run.warmup_ns"), "3");
	assert_string_equal(env_get(&e, "run.cpus"), "0-3,7");
	assert_string_equal(env_get(&e, "run.hist"), "1");
	/* whether, not the seed: two seeds measure alike */
	assert_string_equal(env_get(&e, "run.interleave"), "1");
	assert_string_equal(env_get(&e, "run.kernel_views"), "lock,profile");
	assert_string_equal(env_get(&e, "run.perf_counters"), "1");
	assert_string_equal(env_get(&e, "run.hw_counters"), "1");
	assert_string_equal(env_get(&e, "run.fresh_workers"), "1");
	env_free(&e);

	/* off: no key, so that runs from before it and runs without it
	   compare alike */
	memset(&e, 0, sizeof(e));
	run.opts.kviews = 0;
	run.opts.hw_counters = false;
	run.opts.fresh_workers = false;
	run.opts.cpus[0] = '\0';
	assert_int_equal(run_options_env(&run, &e), 0);
	v = env_get(&e, "run.kernel_views");
	assert_null(v);
	assert_null(env_get(&e, "run.hw_counters"));
	assert_null(env_get(&e, "run.fresh_workers"));
	assert_string_equal(env_get(&e, "run.cpus"), "unavailable");
	env_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_checks),
		cmocka_unit_test(test_column_round_trip),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_refusals),
		cmocka_unit_test(test_json_without_hw),
		cmocka_unit_test(test_env_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
