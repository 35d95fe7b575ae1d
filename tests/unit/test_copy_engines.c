/*
 * test_copy_engines.c - unit tests for src/workloads/copy_engines.c: every
 * engine this CPU has copies exactly the bytes asked for (odd sizes and
 * source/destination offsets, nothing written outside the destination),
 * through both the single-copy and the batch entry; the support table
 * finds the engines a CPU lacks, with the reason (mem.copy skips them); the inline engine's
 * constant sizes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workloads/copy_engines.h"

#define AREA 20000
#define GUARD 0x5a

static uint8_t src_area[AREA], dst_area[AREA];

static void fill_src(void)
{
	size_t i;

	for (i = 0; i < AREA; i++)
		src_area[i] = (uint8_t)(i * 131 + (i >> 8) + 1);
}

static void check_copy(int e, size_t n, size_t soff, size_t doff, bool batch)
{
	const struct copy_engine *ce = &copy_engines[e];
	size_t i;

	memset(dst_area, GUARD, AREA);
	if (batch)
		ce->batch(dst_area + doff, src_area + soff, n, 3);
	else
		ce->copy(dst_area + doff, src_area + soff, n);
	for (i = 0; i < doff; i++)
		if (dst_area[i] != GUARD)
			fail_msg("%s: n=%zu soff=%zu doff=%zu: byte %zu before "
				 "dst written", ce->name, n, soff, doff, i);
	if (memcmp(dst_area + doff, src_area + soff, n) != 0)
		fail_msg("%s: n=%zu soff=%zu doff=%zu: wrong bytes", ce->name,
			 n, soff, doff);
	for (i = doff + n; i < doff + n + 128 && i < AREA; i++)
		if (dst_area[i] != GUARD)
			fail_msg("%s: n=%zu soff=%zu doff=%zu: byte %zu after "
				 "dst written", ce->name, n, soff, doff,
				 i - doff - n);
}

static void test_engines_copy_exactly(void **state)
{
	static const size_t sizes[] = {
		0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100,
		127, 128, 129, 255, 256, 257, 511, 512, 1000, 1024, 4095,
		4096, 4097, 12345,
	};
	static const size_t offs[] = { 0, 1, 3, 8, 15, 63 };
	char why[256];
	int e, tested = 0;
	size_t i, a, b;

	(void)state;
	fill_src();
	for (e = 0; e < COPY_NENGINES; e++) {
		if (!copy_engine_supported(e, why, sizeof(why))) {
			printf("skip engine %s: %s\n", copy_engines[e].name,
			       why);
			continue;
		}
		tested++;
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			for (a = 0; a < sizeof(offs) / sizeof(offs[0]); a++)
				for (b = 0; b < sizeof(offs) / sizeof(offs[0]);
				     b++) {
					check_copy(e, sizes[i], offs[a],
						   offs[b], false);
					check_copy(e, sizes[i], offs[a],
						   offs[b], true);
				}
	}
	/* libc and inline run everywhere. */
	assert_true(tested >= 2);
}

static void test_support_table(void **state)
{
	char why[256];
	int e;

	(void)state;
	/* Any CPU: only libc and inline. */
	for (e = 0; e < COPY_NENGINES; e++) {
		bool ok = copy_engine_supported_on(e, 0, why, sizeof(why));

		assert_int_equal(ok, e == COPY_LIBC || e == COPY_INLINE);
		if (!ok)
			assert_non_null(strstr(why, copy_engines[e].name));
	}
	/* x86-64 without AVX: the vector engines are refused, by flag. */
	assert_true(copy_engine_supported_on(COPY_MOVSB, COPY_CPU_X86_64, why,
					     sizeof(why)));
	assert_true(copy_engine_supported_on(COPY_NT, COPY_CPU_X86_64, why,
					     sizeof(why)));
	assert_false(copy_engine_supported_on(COPY_AVX2, COPY_CPU_X86_64,
					      why, sizeof(why)));
	assert_non_null(strstr(why, "engine=avx2 needs avx2"));
	assert_false(copy_engine_supported_on(COPY_AVX512,
					      COPY_CPU_X86_64 | COPY_CPU_AVX2,
					      why, sizeof(why)));
	assert_non_null(strstr(why, "engine=avx512 needs avx512f"));
	assert_non_null(strstr(why, "lacks"));
	assert_true(copy_engine_supported_on(COPY_AVX512, COPY_CPU_X86_64 |
					     COPY_CPU_AVX512F, why,
					     sizeof(why)));
	assert_false(copy_engine_supported_on(-1, ~0u, why, sizeof(why)));
	assert_false(copy_engine_supported_on(COPY_NENGINES, ~0u, why,
					      sizeof(why)));
}

static void test_names_and_inline_sizes(void **state)
{
	char here[256];
	size_t i;
	int e;

	(void)state;
	for (e = 0; e < COPY_NENGINES; e++)
		assert_string_equal(copy_engine_names[e],
				    copy_engines[e].name);
	assert_null(copy_engine_names[COPY_NENGINES]);
	for (i = 0; i < COPY_INLINE_NSIZES; i++)
		assert_true(copy_inline_is_constant(copy_inline_sizes[i]));
	assert_false(copy_inline_is_constant(0));
	assert_false(copy_inline_is_constant(3));
	assert_false(copy_inline_is_constant(8192));
	copy_engines_here(here, sizeof(here));
	assert_non_null(strstr(here, "libc"));
	assert_non_null(strstr(here, "inline"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engines_copy_exactly),
		cmocka_unit_test(test_support_table),
		cmocka_unit_test(test_names_and_inline_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
