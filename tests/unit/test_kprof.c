/*
 * test_kprof.c - the profile view without a ring: callchains as the
 * kernel gives them (leaf first, PERF_CONTEXT_* markers) folded root
 * first and named through kallsyms lines; the functions' self and total
 * samples (a recursive frame counted once per stack); the ns per op and
 * its Wilson CI (values computed by hand); user call chains (the part
 * after PERF_CONTEXT_USER, named by this test binary's own symbols,
 * "[unknown]" where no mapping holds a frame) as the root of the kernel
 * part; the record through its codec
 * and back; the text in 80 columns with the no-PMU line and the skew
 * note, and the folded lines of show --folded.
 */
#include <linux/perf_event.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "kernel/kprof.h"
#include "kernel/ksyms.h"
#include "report/report.h"
#include "results/kernel_records.h"
#include "results/kview_table.h"
#include "results/profile_funcs.h"

static const char SYMS[] =
	"ffffffff81000000 T entry_SYSCALL_64\n"
	"ffffffff81001000 T do_syscall_64\n"
	"ffffffff81002000 T vfs_read\n"
	"ffffffff81003000 T read_zero\n"
	"ffffffff81004000 T _raw_spin_unlock_irqrestore\n"
	"ffffffff81005000 t helper_recursive_with_a_long_name\n"
	"ffffffffc0001000 t mod_func\t[mymod]\n";

#define CTX_K ((uint64_t)PERF_CONTEXT_KERNEL)

/* 6 samples: 3 read_zero, 1 recursive helper, 1 module, 1 user. */
static struct kprof *fed(struct ksyms *ks, bool pmu)
{
	static const uint64_t rz[] = { CTX_K, 0xffffffff81003010,
				       0xffffffff81002020,
				       0xffffffff81001030,
				       0xffffffff81000040 };
	static const uint64_t rec[] = { CTX_K, 0xffffffff81005008,
					0xffffffff81005010,
					0xffffffff81001030 };
	static const uint64_t mod[] = { CTX_K, 0xffffffffc0001004,
					0xffffffff81001030 };
	struct kprof *kp;
	int i;

	assert_int_equal(ksyms_load_text(ks, SYMS), 0);
	kp = kprof_new(KV_PROF_DEFAULT_HZ, pmu, ks);
	assert_non_null(kp);
	for (i = 0; i < 3; i++)
		assert_int_equal(kprof_add(kp, rz, 5, false), 0);
	assert_int_equal(kprof_add(kp, rec, 4, false), 0);
	assert_int_equal(kprof_add(kp, mod, 3, false), 0);
	assert_int_equal(kprof_add(kp, NULL, 0, true), 0);
	return kp;
}

static const struct kv_prof_stack *stack_of(const struct result_kernel *k,
					    const char *frames)
{
	size_t i;

	for (i = 0; i < k->nstacks; i++)
		if (!strcmp(k->stacks[i].frames, frames))
			return &k->stacks[i];
	return NULL;
}

static void test_fold(void **state)
{
	struct result_kernel k = { .views = KVIEW_PROFILE };
	const struct kv_prof_stack *s;
	struct ksyms ks;
	struct kprof *kp = fed(&ks, false);

	(void)state;
	assert_int_equal(kprof_result(kp, &k), 0);
	assert_int_equal(k.prof_samples, 6);
	assert_int_equal(k.nstacks, 4);
	assert_string_equal(k.prof_event, "cpu-clock");
	/* root first, the user part one frame; largest count first */
	assert_string_equal(k.stacks[0].frames, "[user];entry_SYSCALL_64;"
			    "do_syscall_64;vfs_read;read_zero");
	assert_int_equal(k.stacks[0].count, 3);
	s = stack_of(&k, "[user];do_syscall_64;helper_recursive_with_a_long_name;"
		     "helper_recursive_with_a_long_name");
	assert_non_null(s);
	assert_int_equal(s->count, 1);
	assert_non_null(stack_of(&k, "[user];do_syscall_64;mod_func"));
	assert_non_null(stack_of(&k, "[user]"));
	kprof_free(kp);
	free(k.stacks[0].frames);
	free(k.stacks[1].frames);
	free(k.stacks[2].frames);
	free(k.stacks[3].frames);
	free(k.stacks);
	assert_int_equal(k.nprof_per, 0);	/* no traced sample closed */
	free(k.prof_per);
	ksyms_free(&ks);
}

static const struct prof_func *func(const struct prof_func *f, long n,
				    const char *name)
{
	long i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	fail_msg("no function %s", name);
	return NULL;
}

static struct result_kernel *fed_result(bool pmu)
{
	struct result_kernel *k = calloc(1, sizeof(*k));
	struct ksyms ks;
	struct kprof *kp = fed(&ks, pmu);

	assert_non_null(k);
	k->views = KVIEW_PROFILE;
	k->untraced_ns_per_op = 600;
	k->traced_ns_per_op = 620;
	assert_int_equal(kprof_result(kp, k), 0);
	kprof_free(kp);
	ksyms_free(&ks);
	return k;
}

/* Two functions of this binary, to be named as user frames. */
__attribute__((noinline)) int user_leaf_fn(volatile int *x);
__attribute__((noinline)) int user_caller_fn(volatile int *x);

__attribute__((noinline)) int user_leaf_fn(volatile int *x)
{
	return *x * 3 + *x;
}

__attribute__((noinline)) int user_caller_fn(volatile int *x)
{
	return user_leaf_fn(x) + *x * 7 + user_leaf_fn(x);
}

static void test_user_chain(void **state)
{
	const uint64_t leaf = (uint64_t)(uintptr_t)&user_leaf_fn + 1;
	const uint64_t ret = (uint64_t)(uintptr_t)&user_caller_fn + 4;
	/* a system call from user_leaf_fn, called by user_caller_fn,
	   called from a frame the walk could not read (0x10) */
	const uint64_t sys[] = { CTX_K, 0xffffffff81003010,
				 0xffffffff81002020, 0xffffffff81001030,
				 0xffffffff81000040,
				 (uint64_t)PERF_CONTEXT_USER, leaf, ret, 0x10 };
	/* user mode, in user_leaf_fn: the user part only */
	const uint64_t usr[] = { (uint64_t)PERF_CONTEXT_USER, leaf, ret };
	struct result_kernel k = { .views = KVIEW_PROFILE };
	struct ksyms ks;
	struct kprof *kp;
	volatile int x = 1;
	size_t i;

	(void)state;
	assert_int_equal(user_caller_fn(&x), 15);
	assert_int_equal(ksyms_load_text(&ks, SYMS), 0);
	kp = kprof_new(KV_PROF_DEFAULT_HZ, false, &ks);
	assert_non_null(kp);
	assert_int_equal(kprof_add(kp, sys, 9, false), 0);
	assert_int_equal(kprof_add(kp, sys, 9, false), 0);
	assert_int_equal(kprof_add(kp, usr, 3, true), 0);
	assert_int_equal(kprof_result(kp, &k), 0);
	assert_int_equal(k.nstacks, 2);
	/* root first: the user frames, outermost first, then the kernel's */
	assert_string_equal(k.stacks[0].frames, "[unknown];user_caller_fn;"
			    "user_leaf_fn;entry_SYSCALL_64;do_syscall_64;"
			    "vfs_read;read_zero");
	assert_int_equal(k.stacks[0].count, 2);
	assert_string_equal(k.stacks[1].frames,
			    "user_caller_fn;user_leaf_fn");
	assert_int_equal(k.stacks[1].count, 1);
	kprof_free(kp);
	for (i = 0; i < k.nstacks; i++)
		free(k.stacks[i].frames);
	free(k.stacks);
	free(k.prof_per);
	ksyms_free(&ks);
}

static void test_functions(void **state)
{
	struct result_kernel *k = fed_result(false);
	struct prof_func *f;
	long n = prof_functions(k, &f);
	double lo, hi;

	(void)state;
	assert_int_equal(n, 7);
	assert_string_equal(f[0].name, "read_zero");
	assert_int_equal(f[0].self, 3);
	assert_int_equal(func(f, n, "do_syscall_64")->total, 5);
	assert_int_equal(func(f, n, "do_syscall_64")->self, 0);
	assert_int_equal(func(f, n, "[user]")->total, 6);
	assert_int_equal(func(f, n, "[user]")->self, 1);
	/* recursion: two frames of one sample are one total sample */
	assert_int_equal(func(f, n, "helper_recursive_with_a_long_name")->total, 1);
	assert_int_equal(func(f, n, "helper_recursive_with_a_long_name")->self, 1);
	assert_int_equal(func(f, n, "mod_func")->self, 1);
	/* the op's measured time: the untraced median */
	assert_true(prof_op_ns(k) == 600);
	/* Wilson 95% (computed apart): 3 of 6, 0 of 6, 50 of 100 */
	prof_share_ci(3, 6, &lo, &hi);
	assert_true(fabs(lo - 0.18761) < 1e-4 && fabs(hi - 0.81239) < 1e-4);
	prof_share_ci(0, 6, &lo, &hi);
	assert_true(lo == 0 && fabs(hi - 0.39033) < 1e-4);
	prof_share_ci(50, 100, &lo, &hi);
	assert_true(fabs(lo - 0.40383) < 1e-4 && fabs(hi - 0.59617) < 1e-4);
	prof_share_ci(1, 0, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
	prof_funcs_free(f, n);
	result_kernel_free(k);
}

static void test_codec(void **state)
{
	const struct kview_record_desc *d;
	struct result_kernel *k = fed_result(false), b = { 0 };
	json_t *o, *fn;
	size_t i;
	int id = kview_id("profile");

	(void)state;
	assert_true(id >= 0);
	assert_int_equal(KVIEW_BIT(id), KVIEW_PROFILE);
	d = kview_records[id];
	k->prof_lost = 7;
	k->prof_outside = 2;
	o = d->encode(k);
	assert_non_null(o);
	fn = json_array_get(json_object_get(o, "functions"), 0);
	assert_string_equal(json_string_value(json_object_get(fn,
				"function")), "read_zero");
	/* share x the op's time: 3 of 6 samples of 600 ns */
	assert_true(fabs(json_real_value(json_object_get(fn,
			"self_ns_per_op")) - 300.0) < 1e-9);
	assert_true(fabs(json_real_value(json_array_get(json_object_get(fn,
			"self_ci"), 0)) - 0.18761 * 600) < 0.1);
	assert_int_equal(d->decode(&b, o), 0);
	assert_string_equal(b.prof_event, k->prof_event);
	assert_int_equal(b.prof_hz, k->prof_hz);
	assert_int_equal(b.prof_samples, 6);
	assert_int_equal(b.prof_lost, 7);
	assert_int_equal(b.prof_outside, 2);
	assert_int_equal(b.nstacks, k->nstacks);
	for (i = 0; i < k->nstacks; i++) {
		assert_string_equal(b.stacks[i].frames, k->stacks[i].frames);
		assert_int_equal(b.stacks[i].count, k->stacks[i].count);
	}
	json_decref(o);
	for (i = 0; i < b.nstacks; i++)
		free(b.stacks[i].frames);
	free(b.stacks);
	assert_int_equal(b.nprof_per, 0);
	free(b.prof_per);
	result_kernel_free(k);
}

/*
 * Two traced samples closed: each keeps its own counts by stack, named
 * by the index of the stack in the sorted table, and the codec keeps
 * them (a stack index out of the table is refused).
 */
static void test_per_sample(void **state)
{
	static const uint64_t rz[] = { CTX_K, 0xffffffff81003010,
				       0xffffffff81002020 };
	static const uint64_t vr[] = { CTX_K, 0xffffffff81002020 };
	const struct kview_record_desc *d = kview_records[kview_id("profile")];
	struct result_kernel *k = calloc(1, sizeof(*k)), *b;
	struct ksyms ks;
	struct kprof *kp;
	json_t *o, *st;
	size_t i, j;

	(void)state;
	assert_non_null(k);
	assert_int_equal(ksyms_load_text(&ks, SYMS), 0);
	kp = kprof_new(KV_PROF_DEFAULT_HZ, false, &ks);
	assert_non_null(kp);
	/* sample 0: one vfs_read; sample 1: three read_zero, one user */
	assert_int_equal(kprof_add(kp, vr, 2, false), 0);
	assert_int_equal(kprof_sample_end(kp), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(kprof_add(kp, rz, 3, false), 0);
	assert_int_equal(kprof_add(kp, NULL, 0, true), 0);
	assert_int_equal(kprof_sample_end(kp), 0);
	k->views = KVIEW_PROFILE;
	assert_int_equal(kprof_result(kp, k), 0);
	kprof_free(kp);
	ksyms_free(&ks);
	assert_int_equal(k->nprof_per, 2);
	/* read_zero's stack came second, sorts first (3 samples) */
	assert_string_equal(k->stacks[0].frames, "[user];vfs_read;read_zero");
	assert_int_equal(k->prof_per[0].samples, 1);
	assert_int_equal(k->prof_per[0].n, 1);
	assert_string_equal(k->stacks[k->prof_per[0].stack[0]].frames,
			    "[user];vfs_read");
	assert_int_equal(k->prof_per[1].samples, 4);
	assert_int_equal(k->prof_per[1].n, 2);
	for (j = 0; j < 2; j++) {
		const char *f = k->stacks[k->prof_per[1].stack[j]].frames;

		assert_int_equal(k->prof_per[1].count[j],
				 strcmp(f, "[user]") ? 3 : 1);
	}
	assert_true(isnan(k->prof_per[0].op_ns));
	k->prof_per[0].op_ns = 250;
	k->prof_per[1].op_ns = 260;
	o = d->encode(k);
	assert_non_null(o);
	b = calloc(1, sizeof(*b));
	assert_non_null(b);
	assert_int_equal(d->decode(b, o), 0);
	assert_int_equal(b->nprof_per, 2);
	for (i = 0; i < 2; i++) {
		assert_true(b->prof_per[i].op_ns == k->prof_per[i].op_ns);
		assert_int_equal(b->prof_per[i].samples,
				 k->prof_per[i].samples);
		assert_int_equal(b->prof_per[i].n, k->prof_per[i].n);
		for (j = 0; j < b->prof_per[i].n; j++) {
			assert_int_equal(b->prof_per[i].stack[j],
					 k->prof_per[i].stack[j]);
			assert_int_equal(b->prof_per[i].count[j],
					 k->prof_per[i].count[j]);
		}
	}
	result_kernel_free(b);
	/* a traced sample naming a stack that is not there */
	st = json_object_get(json_array_get(json_object_get(o, "per_sample"),
					    0), "stacks");
	json_array_set_new(json_array_get(st, 0), 0, json_integer(99));
	b = calloc(1, sizeof(*b));
	assert_non_null(b);
	assert_int_equal(d->decode(b, o), -1);
	result_kernel_free(b);
	json_decref(o);
	result_kernel_free(k);
}

/* Every line of text at most 80 columns. */
static void assert_80(const char *text)
{
	const char *p = text;

	while (*p) {
		size_t l = strcspn(p, "\n");

		if (l > 80)
			fail_msg("line of %zu columns: %.*s", l, (int)l, p);
		p += l + (p[l] == '\n');
	}
}

static char *printed(const struct result_kernel *k, bool folded)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (folded)
		report_folded(f, k);
	else
		report_profile(f, k);
	fclose(f);
	return buf;
}

static void test_text(void **state)
{
	struct result_kernel *k = fed_result(false), *h = fed_result(true);
	char *t = printed(k, false), *th = printed(h, false);
	char *fo = printed(k, true);

	(void)state;
	assert_80(t);
	assert_80(th);
	assert_non_null(strstr(t, "cpu-clock at 499 Hz per worker (the "
				  "default; --profile-hz)"));
	assert_non_null(strstr(t, "no PMU here"));
	assert_non_null(strstr(t, "skew: cpu-clock"));
	assert_non_null(strstr(t, "x 600 ns per op"));
	/* the first row: 50% of 600 ns, CI 113-487 */
	assert_non_null(strstr(t, " 50.0%        300       113-487"));
	assert_non_null(strstr(t, "_raw_spin_unlock_irqrestore"));
	/* a name longer than the column is cut with '~', and it says so */
	assert_non_null(strstr(t, " helper_recursive_with_a~\n"));
	assert_non_null(strstr(t, "'~' ends a name cut to fit (show --json "
				  "and show --folded have it whole)"));
	assert_null(strstr(th, "no PMU here"));
	assert_null(strstr(th, "skew:"));
	assert_non_null(strstr(th, "cycles at 499 Hz"));
	assert_string_equal(fo, "[user];entry_SYSCALL_64;do_syscall_64;"
			    "vfs_read;read_zero 3\n"
			    "[user] 1\n"
			    "[user];do_syscall_64;helper_recursive_with_a_long_name;"
			    "helper_recursive_with_a_long_name 1\n"
			    "[user];do_syscall_64;mod_func 1\n");
	free(t);
	free(th);
	free(fo);
	result_kernel_free(k);
	result_kernel_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_user_chain),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_codec),
		cmocka_unit_test(test_per_sample),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
