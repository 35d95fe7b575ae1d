/*
 * test_kview_bpf.c - unit tests of the pure parts of the kernel views'
 * bpf backend: the BPF program's bucket functions (src/bpf/kviews.h)
 * are stats/histogram.h's and results/kernel_records.h's; buckets read
 * back from its maps give the histograms, log2 rows and percentiles that
 * the same values recorded one by one give (kview_bpf_add_bucket()); a
 * lock's caller is found past the frames of the tracepoint's BPF call
 * and the locking code (kview_bpf_caller()); waits aggregated in the
 * kernel merge into the rows and the sample (kview_merge_lock()).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bpf/kviews.h"
#include "kernel/ksyms.h"
#include "kernel/kview.h"
#include "kernel/kview_bpf.h"
#include "kernel/kview_priv.h"
#include "results/kernel_records.h"
#include "stats/histogram.h"
#include "util/array.h"

/* Values around every power of two, and a dense run of small ones. */
static uint64_t value(size_t i)
{
	unsigned k = (unsigned)(i / 5) % 63;
	uint64_t p = 1ull << k;

	switch (i % 5) {
	case 0: return p;
	case 1: return p - 1;
	case 2: return p + 1;
	case 3: return p + p / 3;
	default: return i < 5000 ? i : p * 2 - 1;
	}
}

static void test_buckets_match(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(KVB_LOG2_BUCKETS, KV_LOG2_BUCKETS);
	assert_int_equal(KVB_SUB_BITS, HIST_SUB_BITS);
	for (i = 0; i < 5000; i++) {
		assert_int_equal(kvb_fine_bucket(i), hist_bucket_of(i));
		assert_int_equal(kvb_log2_bucket(i), kv_log2_bucket(i));
	}
	for (i = 0; i < (size_t)63 * 5; i++) {
		uint64_t v = value(i);

		assert_int_equal(kvb_fine_bucket(v), hist_bucket_of(v));
		assert_int_equal(kvb_log2_bucket(v), kv_log2_bucket(v));
	}
}

/*
 * The same latencies recorded one by one and as bucket counts (what the
 * program's map holds): the same buckets, log2 rows and percentiles.
 */
static void test_buckets_to_records(void **state)
{
	static const uint64_t lat[] = { 0, 1, 7, 31, 32, 33, 600, 650, 700,
					1023, 1024, 5000, 123456, 999999,
					2 * KV_HIST_MAX_NS };
	struct histogram *one = hist_new(KV_HIST_MAX_NS);
	struct histogram *bk = hist_new(KV_HIST_MAX_NS);
	uint64_t log2_one[KV_LOG2_BUCKETS] = { 0 };
	uint64_t log2_bk[KV_LOG2_BUCKETS] = { 0 };
	uint64_t sum = 0, max = 0;
	size_t i, r;

	(void)state;
	assert_non_null(one);
	assert_non_null(bk);
	for (r = 0; r < 3; r++) {
		for (i = 0; i < ARRAY_SIZE(lat); i++) {
			hist_record(one, lat[i]);
			log2_one[kv_log2_bucket(lat[i])]++;
			sum += lat[i];
			if (lat[i] > max)
				max = lat[i];
		}
	}
	/* as the map gives them: one count per bucket */
	for (i = 0; i < ARRAY_SIZE(lat); i++)
		kview_bpf_add_bucket(bk, log2_bk, kvb_fine_bucket(lat[i]), 3);
	bk->sum = (long double)sum;
	bk->max_seen = max;
	assert_int_equal(bk->total, one->total);
	assert_int_equal(bk->overflow, one->overflow);
	assert_int_equal(bk->overflow, 3);
	assert_memory_equal(bk->counts, one->counts,
			    one->nbuckets * sizeof(*one->counts));
	assert_memory_equal(log2_bk, log2_one, sizeof(log2_one));
	assert_int_equal(hist_percentile(bk, 50), hist_percentile(one, 50));
	assert_int_equal(hist_percentile(bk, 99), hist_percentile(one, 99));
	assert_true(hist_mean(bk) == hist_mean(one));
	/* no histogram: the log2 row only; a zero count changes nothing */
	kview_bpf_add_bucket(NULL, log2_bk, kvb_fine_bucket(600), 2);
	assert_int_equal(log2_bk[kv_log2_bucket(600)],
			 log2_one[kv_log2_bucket(600)] + 2);
	kview_bpf_add_bucket(bk, NULL, kvb_fine_bucket(600), 0);
	assert_int_equal(bk->total, one->total);
	hist_free(one);
	hist_free(bk);
}

#define KALLSYMS_TEXT \
	"ffffffff81100000 T bpf_trace_run2\n" \
	"ffffffff81100100 t __bpf_trace_contention_begin\n" \
	"ffffffff81100200 T __traceiter_contention_begin\n" \
	"ffffffff81200000 T queued_spin_lock_slowpath\n" \
	"ffffffff81300000 T anon_pipe_write\n" \
	"ffffffff81300400 T ksys_write\n" \
	"ffffffff81400000 T __sched_text_start\n" \
	"ffffffff81400010 t __mutex_lock.constprop.0\n" \
	"ffffffff81400800 T __sched_text_end\n" \
	"ffffffff81500000 T __lock_text_start\n" \
	"ffffffff81500010 T _raw_spin_lock\n" \
	"ffffffff81500800 T __lock_text_end\n"

static void test_caller(void **state)
{
	/* a mutex: the program, bpf_trace_run2, the tracepoint, the slow
	   path in the sched text, then its caller */
	static const uint64_t mutex[KVB_STACK_DEPTH] = {
		0xffffffffa0001234ull,		/* the JITed program */
		0xffffffff81100042ull,		/* bpf_trace_run2+0x42 */
		0xffffffff81100110ull,		/* __bpf_trace_contention_.. */
		0xffffffff81400050ull,		/* __mutex_lock */
		0xffffffff81300043ull,		/* anon_pipe_write+0x43 */
		0xffffffff81300410ull,		/* ksys_write */
	};
	/* a spinlock: its slow path is outside the lock text, and is the
	   first frame of the tracefs callchain, so it is named */
	static const uint64_t spin[] = {
		0xffffffff81100042ull, 0xffffffff81100210ull,
		0xffffffff8120010eull, 0xffffffff8150003bull,
		0xffffffff81300043ull,
	};
	/* no tracing frames (another way of taking the stack) */
	static const uint64_t bare[] = {
		0xffffffff81400050ull, 0xffffffff81300043ull,
	};
	static const uint64_t only_lock[] = { 0xffffffff81400050ull, 0 };
	struct ksyms ks;

	(void)state;
	assert_int_equal(ksyms_load_text(&ks, KALLSYMS_TEXT), 0);
	assert_int_equal(kview_bpf_caller(&ks, mutex, KVB_STACK_DEPTH),
			 0xffffffff81300043ull);
	assert_int_equal(kview_bpf_caller(&ks, spin, ARRAY_SIZE(spin)),
			 0xffffffff8120010eull);
	assert_int_equal(kview_bpf_caller(&ks, bare, ARRAY_SIZE(bare)),
			 0xffffffff81300043ull);
	assert_int_equal(kview_bpf_caller(&ks, only_lock, 2), 0);
	/* without symbols: the first frame */
	assert_int_equal(kview_bpf_caller(NULL, bare, ARRAY_SIZE(bare)),
			 0xffffffff81400050ull);
	ksyms_free(&ks);
}

/* Rows aggregated in the kernel merge by type and caller, as events do. */
static void test_merge(void **state)
{
	static const pid_t tids[] = { 100 };
	struct kview_sample_info si = { .nops = 10, .op_workers = 1,
					.window_ns = 1000, .nworkers = 1 };
	struct kview *kv = kview_new(KVIEW_LOCK | KVIEW_SYSCALL, tids, 1, 2,
				     NULL);
	struct kview_lock in;
	struct result_kernel *k;
	struct kview_sys *r;

	(void)state;
	assert_non_null(kv);
	memset(&in, 0, sizeof(in));
	in.flags = LCB_F_MUTEX;
	in.caller = 0x1234;
	in.contended = 2;
	in.total_ns = 3000;
	in.max_ns = 2000;
	in.hist[kv_log2_bucket(1000)] = 1;
	in.hist[kv_log2_bucket(2000)] = 1;
	/* one stack per CPU in the kernel, two rows here: the same caller */
	assert_int_equal(kview_merge_lock(kv, &in), 0);
	in.contended = 1;
	in.total_ns = 5000;
	in.max_ns = 5000;
	memset(in.hist, 0, sizeof(in.hist));
	in.hist[kv_log2_bucket(5000)] = 1;
	assert_int_equal(kview_merge_lock(kv, &in), 0);
	memset(&in, 0, sizeof(in));
	in.other = true;
	in.contended = 7;
	in.total_ns = 700;
	assert_int_equal(kview_merge_lock(kv, &in), 0);
	r = kview_sys_row(kv, 1);
	assert_non_null(r);
	r->count = 10;
	r->total_ns = 100;
	kv->s_sys_ns = 100;
	assert_int_equal(kview_feed(kv, NULL, 0, 0, &si), 0);
	k = kview_result(kv, NAN);
	assert_non_null(k);
	assert_int_equal(k->nlocks, 2);
	assert_string_equal(k->locks[0].type, "mutex");
	assert_int_equal(k->locks[0].contended, 3);
	assert_int_equal(k->locks[0].total_ns, 8000);
	assert_int_equal(k->locks[0].max_ns, 5000);
	assert_int_equal(k->locks[0].hist[kv_log2_bucket(5000)], 1);
	assert_true(k->locks[1].other);
	assert_int_equal(k->locks[1].contended, 7);
	assert_int_equal(k->nsys, 1);
	assert_int_equal(k->sys[0].count, 10);
	result_kernel_free(k);
	kview_free(kv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_match),
		cmocka_unit_test(test_buckets_to_records),
		cmocka_unit_test(test_caller),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
