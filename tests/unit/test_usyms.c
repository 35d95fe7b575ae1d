/*
 * test_usyms.c - the profile's user frames named by this binary's own
 * symbols (kernel/usyms.h): an address inside a function of this test
 * binary (its start and a later byte) gives that function, the injection
 * sled's steps give inject_sled_steps (a local symbol of the asm), an
 * address in libc gives libc's file, an address in no mapping gives
 * NULL; kprof_add_user folds "[user];<name>".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gnu/libc-version.h>

#include "kernel/kprof.h"
#include "kernel/usyms.h"
#include "results/kernel_records.h"
#include "runner/inject.h"

/* a function of known extent: not inlined, more than one byte long */
static __attribute__((noinline, used)) int usyms_probe_function(int x)
{
	return x * 3 + 1;
}

static void test_own_function(void **state)
{
	char err[256] = "";
	struct usyms *u = usyms_load(err, sizeof(err));
	uintptr_t f = (uintptr_t)&usyms_probe_function;
	const char *name;

	(void)state;
	assert_non_null(u);
	assert_string_equal(usyms_name(u, f), "usyms_probe_function");
	assert_string_equal(usyms_name(u, f + 1), "usyms_probe_function");
	/* the sled's steps, before the entry point inject_sled */
	name = usyms_name(u, (uintptr_t)&inject_sled - 16);
	assert_non_null(name);
	assert_string_equal(name, "inject_sled_steps");
	assert_string_equal(usyms_name(u, (uintptr_t)&inject_sled),
			    "inject_sled");
	/* a library's function: its file (one no sanitizer intercepts, so
	 * that the address lies in libc under ASan too) */
	name = usyms_name(u, (uintptr_t)&gnu_get_libc_version);
	assert_non_null(name);
	assert_non_null(strstr(name, "libc"));
	/* no mapping holds address 16 */
	assert_null(usyms_name(u, 16));
	assert_null(usyms_name(NULL, f));
	usyms_free(u);
}

static void test_folded_user_frame(void **state)
{
	struct kprof *kp = kprof_new(99, false, NULL);
	struct result_kernel *k = calloc(1, sizeof(*k));

	(void)state;
	assert_non_null(kp);
	assert_non_null(k);
	/* without a table (kprof_new): "[user]" alone */
	assert_int_equal(kprof_add_user(kp, 16), 0);
	assert_int_equal(kprof_result(kp, k), 0);
	assert_int_equal(k->nstacks, 1);
	assert_string_equal(k->stacks[0].frames, "[user]");
	result_kernel_free(k);
	kprof_free(kp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_function),
		cmocka_unit_test(test_folded_user_frame),
	};

	(void)usyms_probe_function(1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
