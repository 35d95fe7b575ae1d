/*
 * test_kprof_bpf.c - the profile aggregated in the kernel
 * (kernel/kprof_bpf.c, src/bpf/kstacks.bpf.c) on this test's own
 * thread: with its batch mark at 1, the samples of a busy loop in user
 * space are counted by the BPF program, folded with their user call
 * chain (the loop's function under its caller, by this binary's
 * symbols) and emptied after each sample; with the mark at 0 every
 * sample is counted as outside and none is kept.  Loops until enough
 * samples came, never on a time.  Skipped (with why) where the program
 * does not load or the event does not open (not root, no BTF).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "kernel/kprof.h"
#include "kernel/kprof_bpf.h"
#include "kernel/ksyms.h"
#include "results/kernel_records.h"
#include "results/kview_table.h"

static volatile uint32_t mark;

__attribute__((noinline)) uint64_t bpf_spin_leaf(uint64_t n);
__attribute__((noinline)) uint64_t bpf_spin_caller(uint64_t n);

__attribute__((noinline)) uint64_t bpf_spin_leaf(uint64_t n)
{
	volatile uint64_t s = 0;
	uint64_t i;

	for (i = 0; i < n; i++)
		s += i;
	return s;
}

__attribute__((noinline)) uint64_t bpf_spin_caller(uint64_t n)
{
	return bpf_spin_leaf(n) + 1;
}

/* kp on this thread, on the BPF path; NULL: skipped. */
static struct kprof *open_here(struct ksyms *ks)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	char err[512];
	struct kprof *kp;

	if (kprof_bpf_probe(err, sizeof(err)) != 0) {
		fprintf(stderr, "skipped: %s\n", err);
		return NULL;
	}
	kp = kprof_open(&tid, 1, 4999, ks, err, sizeof(err));
	if (!kp) {
		fprintf(stderr, "skipped: %s\n", err);
		return NULL;
	}
	assert_int_equal(kprof_use_bpf(kp, &tid, &mark, sizeof(mark), err,
				       sizeof(err)), 0);
	assert_true(kprof_in_kernel(kp));
	return kp;
}

/* Traced samples of the busy loop until they hold at least want: the
   profile so far (result_kernel_free() it). */
static struct result_kernel *spin_samples(struct kprof *kp, uint64_t want)
{
	struct result_kernel *k;
	int round;

	for (round = 0; round < 2000; round++) {
		assert_int_equal(kprof_enable(kp, 1), 0);
		bpf_spin_caller(2000000);
		assert_int_equal(kprof_enable(kp, 0), 0);
		assert_int_equal(kprof_drain(kp, NULL, NULL), 0);
		assert_int_equal(kprof_sample_end(kp), 0);
		k = calloc(1, sizeof(*k));
		assert_non_null(k);
		k->views = KVIEW_PROFILE;
		assert_int_equal(kprof_result(kp, k), 0);
		if (k->prof_samples + k->prof_outside >= want)
			return k;
		result_kernel_free(k);
	}
	fail_msg("no samples came");
	return NULL;
}

static void test_counted_in_kernel(void **state)
{
	struct result_kernel *k;
	struct ksyms ks = { 0 };
	struct kprof *kp;
	uint64_t in_spin = 0, sum = 0;
	size_t i;

	(void)state;
	kp = open_here(&ks);
	if (!kp)
		skip();
	mark = 1;
	k = spin_samples(kp, 20);
	assert_int_equal(k->prof_outside, 0);
	for (i = 0; i < k->nstacks; i++) {
		const char *f = k->stacks[i].frames, *leaf = strrchr(f, ';');

		if (leaf && !strcmp(leaf + 1, "bpf_spin_leaf")) {
			/* its callers above it: frames of this binary, by
			   its symbols */
			assert_non_null(strstr(f, "bpf_spin_caller;"));
			assert_non_null(strstr(f, "test_counted_in_kernel"));
			in_spin += k->stacks[i].count;
		}
	}
	assert_true(in_spin * 2 > k->prof_samples);
	/* the counts of every closed sample add up to the samples */
	for (i = 0; i < k->nprof_per; i++)
		sum += k->prof_per[i].samples;
	assert_int_equal(sum, k->prof_samples);
	result_kernel_free(k);
	kprof_free(kp);
}

static void test_outside_the_batch(void **state)
{
	struct result_kernel *k;
	struct ksyms ks = { 0 };
	struct kprof *kp;

	(void)state;
	kp = open_here(&ks);
	if (!kp)
		skip();
	mark = 0;
	k = spin_samples(kp, 20);
	assert_int_equal(k->prof_samples, 0);
	assert_true(k->prof_outside >= 20);
	result_kernel_free(k);
	kprof_free(kp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counted_in_kernel),
		cmocka_unit_test(test_outside_the_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
