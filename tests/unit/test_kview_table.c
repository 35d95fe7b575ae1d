/*
 * test_kview_table.c - the kernel views' table (results/kview_table.h):
 * the real table passes its check, broken rows are each found and named,
 * and a views mask goes to names and back through it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kernel/kview.h"
#include "report/kview_render.h"
#include "results/kernel_records.h"
#include "results/kview_table.h"

static void test_real_table(void **state)
{
	char err[256];
	int id;

	(void)state;
	assert_int_equal(kview_records_validate(kview_records, KVIEW_NVIEWS,
						err, sizeof(err)), 0);
	for (id = 0; id < KVIEW_NVIEWS; id++)
		assert_int_equal(kview_id(kview_records[id]->name), id);
	assert_int_equal(kview_id("futex"), -1);
}

static void test_broken_rows(void **state)
{
	struct kview_record_desc dup = *kview_records[0];
	struct kview_record_desc bad = *kview_records[1];
	struct kview_record_desc bare = *kview_records[2];
	const struct kview_record_desc *t[KVIEW_NVIEWS];
	char err[256];

	(void)state;
	t[0] = kview_records[0];
	t[1] = &dup;
	t[2] = kview_records[2];
	t[3] = kview_records[3];
	assert_int_equal(kview_records_validate(t, KVIEW_NVIEWS, err,
						sizeof(err)), 1);
	assert_non_null(strstr(err, "named twice"));
	bad.name = "Sched";
	t[1] = &bad;
	assert_int_equal(kview_records_validate(t, KVIEW_NVIEWS, err,
						sizeof(err)), 1);
	assert_non_null(strstr(err, "kernel view 'Sched': a name is"));
	bare.decode = NULL;
	bare.attaches = "";
	t[1] = kview_records[1];
	t[2] = &bare;
	assert_int_equal(kview_records_validate(t, KVIEW_NVIEWS, err,
						sizeof(err)), 2);
	assert_non_null(strstr(err, "what it attaches"));
	t[2] = NULL;
	assert_int_equal(kview_records_validate(t, KVIEW_NVIEWS, err,
						sizeof(err)), 1);
	assert_int_equal(kview_records_validate(kview_records, 2, err,
						sizeof(err)), 1);
	assert_non_null(strstr(err, "2 rows"));
}

static void test_mask_names(void **state)
{
	unsigned v;
	char text[128], err[256];

	(void)state;
	kview_mask_text(KVIEW_ALL, text, sizeof(text));
	assert_string_equal(text, "lock,sched,syscall,profile");
	assert_int_equal(kview_parse("syscall,lock", &v, err, sizeof(err)),
			 0);
	assert_int_equal(v, KVIEW_BIT(kview_id("lock")) |
			 KVIEW_BIT(kview_id("syscall")));
	assert_int_equal(kview_parse("lock,futex", &v, err, sizeof(err)), -1);
	assert_string_equal(err, "--kernel: unknown view 'futex' (allowed: "
			    "lock, sched, syscall, profile, as a comma list)");
	assert_int_equal(kview_parse("sched,sched", &v, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "--kernel: view 'sched' given twice "
			    "(allowed: lock, sched, syscall, profile, each "
			    "once)");
}

/* The kernel and report layers' tables agree with the results one. */
static void test_layer_tables(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(kview_recorders_validate(err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(kview_renderers_validate(err, sizeof(err)), 0);
	assert_string_equal(err, "");
}

/* A mask asked for a view by name, and its views a backend records. */
static void test_mask_queries(void **state)
{
	unsigned v;
	char err[256];

	(void)state;
	assert_int_equal(kview_parse("lock,profile", &v, err, sizeof(err)),
			 0);
	assert_true(kview_mask_has(v, "profile"));
	assert_true(kview_mask_has(v, "lock"));
	assert_false(kview_mask_has(v, "sched"));
	assert_false(kview_mask_has(v, "futex"));
	assert_int_equal(kview_traced_views(v), KVIEW_BIT(kview_id("lock")));
	assert_int_equal(kview_traced_views(KVIEW_BIT(kview_id("profile"))),
			 0);
	assert_int_equal(kview_traced_views(KVIEW_ALL),
			 KVIEW_ALL & ~KVIEW_BIT(kview_id("profile")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_table),
		cmocka_unit_test(test_broken_rows),
		cmocka_unit_test(test_mask_names),
		cmocka_unit_test(test_layer_tables),
		cmocka_unit_test(test_mask_queries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
