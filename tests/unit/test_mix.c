/*
 * test_mix.c - unit tests for src/workloads/mix.c, pipe.mix's write-size
 * mixes: the parser on valid and invalid mixes (errors name the offending
 * entry), the presets behind pipe.mix's `mix` choices, size classes, class
 * shares, and the seeded size table (exact shares, bounds, reproducible).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/workload.h"
#include "workloads/mix.h"

/* Defined in src/workloads/pipe_mix.c (also declared in workloads.h). */
extern const struct workload wl_pipe_mix;

static void parse_ok(const char *text, struct mix *m)
{
	char err[256] = "";

	if (mix_parse(text, m, err, sizeof(err)) != 0)
		fail_msg("'%s' did not parse: %s", text, err);
}

static void test_fleet(void **state)
{
	const struct mix_preset *fleet = &mix_presets[0];
	struct mix m;

	(void)state;
	assert_string_equal(fleet->name, "fleet");
	parse_ok(fleet->text, &m);
	assert_int_equal(m.n, 6);
	/* the documented weights sum to 100 */
	assert_true(m.total_weight > 99.999 && m.total_weight < 100.001);
	assert_int_equal(m.max_bytes, 72 * 1024);
	assert_int_equal(m.e[0].lo_bytes, 1);
	assert_int_equal(m.e[0].hi_bytes, 127);
	assert_int_equal(m.e[2].lo_bytes, 4096);
	assert_int_equal(m.e[2].hi_bytes, 8191);
	/* E3: 98.0% under 128 B, 0.4% 128 B-4 KiB, 0.72% 4-8 KiB, rest */
	assert_true(mix_class_share(&m, 0) > 0.97999 &&
		    mix_class_share(&m, 0) < 0.98001);
	assert_true(mix_class_share(&m, 1) > 0.003999 &&
		    mix_class_share(&m, 1) < 0.004001);
	assert_true(mix_class_share(&m, 2) > 0.007199 &&
		    mix_class_share(&m, 2) < 0.007201);
	assert_true(mix_class_share(&m, 3) > 0.008799 &&
		    mix_class_share(&m, 3) < 0.008801);
}

/*
 * pipe.mix's `mix` is text: its default is a preset, every preset parses,
 * and the help names every preset.
 */
static void test_presets(void **state)
{
	const struct workload *wl = &wl_pipe_mix;
	const struct param_def *def = NULL;
	bool default_found = false;
	size_t i;
	struct mix m;

	(void)state;
	for (i = 0; i < wl->nparams; i++)
		if (strcmp(wl->params[i].name, "mix") == 0)
			def = &wl->params[i];
	if (!def) {
		fail_msg("pipe.mix has no 'mix' parameter");
		return;
	}
	assert_int_equal(def->type, PARAM_STRING);
	assert_true(mix_npresets >= 1);
	for (i = 0; i < mix_npresets; i++) {
		parse_ok(mix_presets[i].text, &m);
		assert_true(m.n >= 1);
		if (!strstr(def->help, mix_presets[i].name))
			fail_msg("the help of mix does not name preset '%s'",
				 mix_presets[i].name);
		default_found |= strcmp(def->def, mix_presets[i].name) == 0;
	}
	assert_true(default_found);
}

static void test_valid(void **state)
{
	struct mix m;

	(void)state;
	parse_ok("64:1", &m);
	assert_int_equal(m.n, 1);
	assert_int_equal(m.e[0].lo_bytes, 64);
	assert_int_equal(m.e[0].hi_bytes, 64);
	assert_int_equal(m.max_bytes, 64);

	/* '+' separates entries as ',' does */
	parse_ok("1-127:98+128-4k:2", &m);
	assert_int_equal(m.n, 2);
	assert_int_equal(m.e[1].lo_bytes, 128);
	assert_int_equal(m.e[1].hi_bytes, 4096);
	assert_true(m.total_weight > 99.999 && m.total_weight < 100.001);

	parse_ok("64k-72k:.5,1M:5.,7:0.25", &m);
	assert_int_equal(m.n, 3);
	assert_int_equal(m.e[0].lo_bytes, 65536);
	assert_int_equal(m.e[0].hi_bytes, 73728);
	assert_int_equal(m.e[1].lo_bytes, 1 << 20);
	assert_int_equal(m.max_bytes, 1 << 20);
	assert_true(m.total_weight > 5.7499 && m.total_weight < 5.7501);

	/* a one-size range */
	parse_ok("100-100:3", &m);
	assert_int_equal(m.e[0].lo_bytes, 100);
	assert_int_equal(m.e[0].hi_bytes, 100);

	/* sixteen entries are allowed */
	parse_ok("1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1,10:1,11:1,12:1,13:1,"
		 "14:1,15:1,16:1", &m);
	assert_int_equal(m.n, MIX_MAX_ENTRIES);
}

struct bad {
	const char *text;
	const char *want;	/* substring of the error */
};

static void test_invalid(void **state)
{
	static const struct bad cases[] = {
		{ "", "empty mix" },
		{ "64", "entry 1 '64': no ':WEIGHT'" },
		{ "64:1,,128:1", "entry 2 '': empty entry" },
		{ "64:1,", "entry 2 '': empty entry" },
		{ "64:1+4k-2k:1", "entry 2 '4k-2k:1': low end 4096 is above "
				  "high end 2048" },
		{ "0:1", "entry 1 '0:1': size 0 is out of range (1 .. 1M)" },
		{ "64:1,2M:1", "entry 2 '2M:1': size 2M is out of range" },
		{ "1-2M:1", "entry 1 '1-2M:1': size 2M is out of range" },
		{ "64:0", "entry 1 '64:0': weight 0 is not above 0" },
		{ "64:0.000", "weight 0.000 is not above 0" },
		{ "64:-1", "entry 1 '64:-1': weight '-1' is not a decimal" },
		{ "64:abc", "weight 'abc' is not a decimal number" },
		{ "64:1e3", "weight '1e3' is not a decimal number" },
		{ "64:inf", "weight 'inf' is not a decimal number" },
		{ "64:nan", "weight 'nan' is not a decimal number" },
		{ "64:0x10", "weight '0x10' is not a decimal number" },
		{ "64:1.2.3", "weight '1.2.3' is not a decimal number" },
		{ "64:", "entry 1 '64:': weight '' is not a decimal number" },
		{ "64:.", "weight '.' is not a decimal number" },
		{ "x:1", "entry 1 'x:1': 'x' is not a size" },
		{ "5q-6:1", "'5q' is not a size" },
		{ "64:1:2", "entry 1 '64:1:2': more than one ':'" },
		{ "1-:1", "entry 1 '1-:1': a size is missing" },
		{ "-5:1", "entry 1 '-5:1': a size is missing" },
		{ ":1", "entry 1 ':1': a size is missing" },
		{ "1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1,10:1,11:1,12:1,13:1,"
		  "14:1,15:1,16:1,17:1", "entry 17 '17:1': more than 16 "
		  "entries" },
	};
	char err[256], big[MIX_MAX_TEXT + 8];
	struct mix m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		if (mix_parse(cases[i].text, &m, err, sizeof(err)) == 0)
			fail_msg("'%s' parsed but should not", cases[i].text);
		if (!strstr(err, cases[i].want))
			fail_msg("'%s': error '%s' lacks '%s'", cases[i].text,
				 err, cases[i].want);
	}
	memset(big, '1', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(mix_parse(big, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "characters long"));
}

static void test_classes(void **state)
{
	char huge[6 + 306 + 1];
	static const struct {
		uint64_t bytes;
		int cls;
	} cases[] = {
		{ 0, 0 }, { 1, 0 }, { 127, 0 }, { 128, 1 }, { 4095, 1 },
		{ 4096, 2 }, { 8191, 2 }, { 8192, 3 }, { 73728, 3 },
		{ UINT64_MAX, 3 },
	};
	struct mix m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(mix_class_of(cases[i].bytes), cases[i].cls);
	assert_string_equal(mix_class_names[0], "<128B");
	assert_string_equal(mix_class_names[3], "8K+");
	/* an entry straddling 128 is split by its number of sizes */
	parse_ok("100-199:1", &m);
	assert_true(mix_class_share(&m, 0) > 0.2799 &&
		    mix_class_share(&m, 0) < 0.2801);
	assert_true(mix_class_share(&m, 1) > 0.7199 &&
		    mix_class_share(&m, 1) < 0.7201);
	assert_true(mix_class_share(&m, 2) == 0);
	assert_true(mix_class_share(&m, -1) == 0);
	assert_true(mix_class_share(&m, MIX_NCLASSES) == 0);
	/*
	 * A weight near the largest double (found by fuzzing): the shares
	 * still sum to 1 (weight x sizes overflowed to inf, the share NaN).
	 */
	memset(huge, '0', sizeof(huge) - 1);
	memcpy(huge, "6-3k:1", 6);	/* 1 and 306 zeros: 1e306 */
	huge[6 + 306] = '\0';
	parse_ok(huge, &m);
	assert_true(fabs(mix_class_share(&m, 0) + mix_class_share(&m, 1) +
			 mix_class_share(&m, 2) - 1.0) < 1e-12);
}

#define TABLE_LEN (1u << 16)

static void test_table(void **state)
{
	uint32_t *a = calloc(TABLE_LEN, sizeof(*a));
	uint32_t *b = calloc(TABLE_LEN, sizeof(*b));
	size_t count[MIX_NCLASSES] = { 0 }, i, e, differ = 0;
	struct mix m;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	parse_ok(mix_presets[0].text, &m);
	assert_int_equal(mix_fill_table(&m, 1, a, TABLE_LEN), 0);
	for (i = 0; i < TABLE_LEN; i++) {
		bool in_some = false;

		for (e = 0; e < m.n; e++)
			in_some |= a[i] >= m.e[e].lo_bytes &&
				   a[i] <= m.e[e].hi_bytes;
		assert_true(in_some);
		count[mix_class_of(a[i])]++;
	}
	/* each class gets its exact share (entries align with classes) */
	for (i = 0; i < MIX_NCLASSES; i++) {
		double want = mix_class_share(&m, (int)i) * TABLE_LEN;

		if ((double)count[i] < want - 1.5 ||
		    (double)count[i] > want + 1.5)
			fail_msg("class %zu: %zu slots, want %.1f", i,
				 count[i], want);
	}
	/* the same seed gives the same table, another seed another one */
	assert_int_equal(mix_fill_table(&m, 1, b, TABLE_LEN), 0);
	assert_memory_equal(a, b, TABLE_LEN * sizeof(*a));
	assert_int_equal(mix_fill_table(&m, 2, b, TABLE_LEN), 0);
	for (i = 0; i < TABLE_LEN; i++)
		differ += a[i] != b[i];
	assert_true(differ > TABLE_LEN / 100);
	/* shuffled: the first slots are not all from the first entry */
	for (i = 0, differ = 0; i < 1000; i++)
		differ += a[i] >= 128;
	assert_true(differ > 0);

	/* a tiny weight still gets a slot; too small a table is refused */
	parse_ok("1:1000000,2:0.000001", &m);
	assert_int_equal(mix_fill_table(&m, 7, a, 16), 0);
	for (i = 0, differ = 0; i < 16; i++)
		differ += a[i] == 2;
	assert_int_equal(differ, 1);
	assert_int_equal(mix_fill_table(&m, 7, a, 1), -1);
	free(a);
	free(b);
}

/* splitmix64's published first output for state 0. */
static void test_rand(void **state)
{
	uint64_t st = 0;

	(void)state;
	assert_true(mix_rand_next(&st) == UINT64_C(0xe220a8397b1dcdaf));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fleet),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_rand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
