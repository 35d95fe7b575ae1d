/*
 * test_kview.c - unit tests of the kernel views (src/kernel/,
 * results/kernel_records.c, their part of results/codec.c and report/kernel_text.c):
 * tracepoint records recorded on a real kernel (kview_records.h) read
 * through libtraceevent into the fields their format files give, the
 * lock's caller found past the locking code in the callchain and named
 * through kallsyms text; truncated and foreign records refused; the
 * views aggregated from hand-made event sequences (a mutex that spins
 * then sleeps is one wait; other tasks in their own row; wake-up latency
 * and the CPU it landed on; a wake-up of a running task ignored;
 * preemption counted as run-queue wait; syscall time; only what happens
 * inside a worker's batch counted); --kernel parsed; the views built
 * into results, stored as text and read back the same, and printed.
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

#include "kernel/ksyms.h"
#include "kernel/kparse.h"
#include "kernel/kview.h"
#include "kview_records.h"
#include "report/report.h"
#include "session/build_results.h"
#include "results/codec.h"
#include "results/kernel_records.h"
#include "util/array.h"
#include "workloads/workloads.h"

static struct kparse *parser(void)
{
	static const struct {
		int kind;
		const char *sys, *fmt;
	} f[] = {
		{ KEV_LOCK_BEGIN, "lock", FMT_LOCK_BEGIN },
		{ KEV_LOCK_END, "lock", FMT_LOCK_END },
		{ KEV_WAKEUP, "sched", FMT_WAKEUP },
		{ KEV_SWITCH, "sched", FMT_SWITCH },
		{ KEV_SYS_ENTER, "raw_syscalls", FMT_SYS_ENTER },
		{ KEV_SYS_EXIT, "raw_syscalls", FMT_SYS_EXIT },
	};
	struct kparse *kp = kparse_new();
	char err[256];
	size_t i;

	assert_non_null(kp);
	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (kparse_add_format(kp, f[i].kind, f[i].sys, f[i].fmt, err,
				      sizeof(err)) != 0)
			fail_msg("format %zu: %s", i, err);
	return kp;
}

static void test_parse_records(void **state)
{
	struct kparse *kp = parser();
	struct ksyms ks;
	struct kevent e;
	char name[128];

	(void)state;
	assert_int_equal(ksyms_load_text(&ks, KALLSYMS), 0);
	assert_int_equal(kparse_id(kp, KEV_LOCK_BEGIN), 408);

	assert_int_equal(kparse_sample(kp, REC_LOCK_BEGIN,
				       sizeof(REC_LOCK_BEGIN),
				       REC_LOCK_BEGIN_TYPE, &ks, &e), 0);
	assert_int_equal(e.kind, KEV_LOCK_BEGIN);
	assert_int_equal(e.tid, LOCK_TID);
	assert_int_equal(e.lock_addr, LOCK_ADDR);
	assert_int_equal(e.lock_flags, LOCK_FLAGS);
	assert_int_equal(e.ts_ns, LOCK_BEGIN_TS);
	assert_int_equal(e.cpu, LOCK_CPU);
	/* the first frame is __mutex_lock, in the sched text: skipped */
	assert_int_equal(e.caller, LOCK_CALLER);
	ksyms_name(&ks, e.caller, name, sizeof(name));
	assert_string_equal(name, "anon_pipe_write+0x43");
	assert_string_equal(kview_lock_type(e.lock_flags), "mutex");
	/* without symbols, the first frame is the caller */
	assert_int_equal(kparse_sample(kp, REC_LOCK_BEGIN,
				       sizeof(REC_LOCK_BEGIN),
				       REC_LOCK_BEGIN_TYPE, NULL, &e), 0);
	assert_true(ksyms_is_lock_code(&ks, e.caller));

	assert_int_equal(kparse_sample(kp, REC_LOCK_END, sizeof(REC_LOCK_END),
				       REC_LOCK_END_TYPE, &ks, &e), 0);
	assert_int_equal(e.kind, KEV_LOCK_END);
	assert_int_equal(e.tid, LOCK_TID);
	assert_int_equal(e.lock_addr, LOCK_ADDR);
	assert_int_equal(e.ts_ns, LOCK_END_TS);

	assert_int_equal(kparse_sample(kp, REC_WAKEUP, sizeof(REC_WAKEUP),
				       REC_WAKEUP_TYPE, &ks, &e), 0);
	assert_int_equal(e.kind, KEV_WAKEUP);
	assert_int_equal(e.pid, WAKEUP_PID);
	assert_int_equal(e.target_cpu, WAKEUP_TARGET_CPU);
	assert_int_equal(e.ts_ns, WAKEUP_TS);

	assert_int_equal(kparse_sample(kp, REC_SWITCH, sizeof(REC_SWITCH),
				       REC_SWITCH_TYPE, &ks, &e), 0);
	assert_int_equal(e.kind, KEV_SWITCH);
	assert_int_equal(e.prev_pid, SWITCH_PREV_PID);
	assert_int_equal(e.prev_state, SWITCH_PREV_STATE);
	assert_int_equal(e.next_pid, SWITCH_NEXT_PID);
	assert_int_equal(e.cpu, SWITCH_CPU);

	assert_int_equal(kparse_sample(kp, REC_SYS_ENTER,
				       sizeof(REC_SYS_ENTER),
				       REC_SYS_ENTER_TYPE, &ks, &e), 0);
	assert_int_equal(e.kind, KEV_SYS_ENTER);
	assert_int_equal(e.tid, SYS_TID);
	assert_int_equal(e.sys_id, SYS_ID);
	assert_int_equal(kparse_sample(kp, REC_SYS_EXIT, sizeof(REC_SYS_EXIT),
				       REC_SYS_EXIT_TYPE, &ks, &e), 0);
	assert_int_equal(e.kind, KEV_SYS_EXIT);
	assert_int_equal(e.sys_id, SYS_EXIT_ID);
	assert_int_equal(e.sys_ret, SYS_RET);
	assert_string_equal(kview_syscall_name((int)SYS_ID), "futex");
	assert_null(kview_syscall_name(-1));

	ksyms_free(&ks);
	kparse_free(kp);
}

static void test_parse_refused(void **state)
{
	struct kparse *kp = parser(), *empty = kparse_new();
	unsigned char buf[sizeof(REC_LOCK_BEGIN)];
	struct kevent e;
	char err[256];
	size_t n;

	(void)state;
	/* every truncation is refused, never read past the end */
	for (n = 0; n < sizeof(REC_SYS_EXIT); n++)
		assert_int_equal(kparse_sample(kp, REC_SYS_EXIT, n,
					       REC_SYS_EXIT_TYPE, NULL, &e),
				 -1);
	for (n = 0; n < sizeof(REC_LOCK_BEGIN); n++)
		assert_int_equal(kparse_sample(kp, REC_LOCK_BEGIN, n,
					       REC_LOCK_BEGIN_TYPE, NULL, &e),
				 -1);
	/* a tracepoint the parser was not taught */
	assert_int_equal(kparse_sample(empty, REC_WAKEUP, sizeof(REC_WAKEUP),
				       REC_WAKEUP_TYPE, NULL, &e), -1);
	/* sample bits it does not read */
	assert_int_equal(kparse_sample(kp, REC_WAKEUP, sizeof(REC_WAKEUP),
				       REC_WAKEUP_TYPE | PERF_SAMPLE_IP, NULL,
				       &e), -1);
	/* a callchain longer than the record */
	memcpy(buf, REC_LOCK_BEGIN, sizeof(buf));
	memset(buf + 32, 0x7f, 8);
	assert_int_equal(kparse_sample(kp, buf, sizeof(buf),
				       REC_LOCK_BEGIN_TYPE, NULL, &e), -1);
	/* a format without a field the view reads */
	assert_int_equal(kparse_add_format(empty, KEV_WAKEUP, "sched",
					   FMT_LOCK_END, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "no field 'pid'"));
	kparse_free(kp);
	kparse_free(empty);
}

/* Event helpers. */
static struct kevent ev_lock(int kind, uint64_t ts, int32_t tid,
			     uint64_t addr, uint32_t flags, uint64_t caller)
{
	struct kevent e;

	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.ts_ns = ts;
	e.tid = tid;
	e.lock_addr = addr;
	e.lock_flags = flags;
	e.caller = caller;
	return e;
}

static struct kevent ev_wake(uint64_t ts, int32_t pid)
{
	struct kevent e;

	memset(&e, 0, sizeof(e));
	e.kind = KEV_WAKEUP;
	e.ts_ns = ts;
	e.pid = pid;
	return e;
}

static struct kevent ev_switch(uint64_t ts, uint32_t cpu, int32_t prev,
			       int64_t state, int32_t next)
{
	struct kevent e;

	memset(&e, 0, sizeof(e));
	e.kind = KEV_SWITCH;
	e.ts_ns = ts;
	e.cpu = cpu;
	e.prev_pid = prev;
	e.prev_state = state;
	e.next_pid = next;
	return e;
}

static struct kevent ev_sys(int kind, uint64_t ts, int32_t tid, int64_t nr)
{
	struct kevent e;

	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.ts_ns = ts;
	e.tid = tid;
	e.sys_id = nr;
	return e;
}

#define W1 100
#define W2 101
#define OTHER 555

/* One sample of every view; 10 ops over 10 us, two workers. */
static struct kview *fed_view(const uint64_t *lo, const uint64_t *hi)
{
	static const pid_t tids[] = { W1, W2 };
	struct kevent e[] = {
		/* W1: spins (0x21) then sleeps (0x20) on one mutex: one
		   wait of 1000 ns from the first begin */
		ev_lock(KEV_LOCK_BEGIN, 1000, W1, 0xa, 0x21, 0x1234),
		ev_lock(KEV_LOCK_BEGIN, 1100, W1, 0xa, 0x20, 0x1234),
		/* another task's spinlock wait of 300 ns */
		ev_lock(KEV_LOCK_BEGIN, 1200, OTHER, 0xb, 0x1, 0x9999),
		ev_lock(KEV_LOCK_END, 1500, OTHER, 0xb, 0, 0),
		ev_lock(KEV_LOCK_END, 2000, W1, 0xa, 0, 0),
		/* W2 waits 3000 ns at the same caller */
		ev_lock(KEV_LOCK_BEGIN, 3000, W2, 0xa, 0x20, 0x1234),
		ev_lock(KEV_LOCK_END, 6000, W2, 0xa, 0, 0),
		/* W2 woken at 6100, runs on CPU 1 at 6600: 500 ns */
		ev_wake(6100, W2),
		ev_switch(6600, 1, 0, 0x1, W2),
		/* W2 is on a CPU: this wake-up is none */
		ev_wake(6700, W2),
		/* W1 preempted at 7000 (state 0: runnable), back at 7400 */
		ev_switch(7000, 0, W1, 0x100, OTHER),
		ev_switch(7400, 0, OTHER, 0x1, W1),
		/* a write by W1 of 2000 ns; OTHER's call is not counted */
		ev_sys(KEV_SYS_ENTER, 8000, W1, 1),
		ev_sys(KEV_SYS_ENTER, 8100, OTHER, 0),
		ev_sys(KEV_SYS_EXIT, 9000, OTHER, 0),
		ev_sys(KEV_SYS_EXIT, 10000, W1, 1),
	};
	struct kview_sample_info si = {
		.nops = 10, .window_ns = 10000, .nworkers = 2,
		.lo_ns = lo, .hi_ns = hi,
	};
	struct kview *kv = kview_new(KVIEW_LOCK | KVIEW_SCHED | KVIEW_SYSCALL, tids, 2,
				     4, NULL);

	assert_non_null(kv);
	assert_int_equal(kview_feed(kv, e, ARRAY_SIZE(e), 3, &si),
			 0);
	return kv;
}

static void test_aggregate(void **state)
{
	struct kview *kv = fed_view(NULL, NULL);
	const struct kview_samples *s = kview_samples(kv);
	struct result_kernel *k;

	(void)state;
	assert_int_equal(s->n, 1);
	assert_true(s->ns_per_op[0] == 1000.0);
	assert_true(s->lock_waits_per_op[0] == 0.2);	/* 2 waits / 10 */
	assert_true(s->lock_wait_ns_per_op[0] == 400.0); /* 4000 ns / 10 */
	assert_true(s->wake_p99_ns[0] >= 500 * (1 - 1.0 / 32) &&
		    s->wake_p99_ns[0] <= 500 * (1 + 1.0 / 32));
	assert_true(s->sys_share_pct[0] == 10.0);	/* 2000 / 20000 */
	k = kview_result(kv, 800.0);
	assert_non_null(k);
	assert_true(fabs(k->overhead_pct - 25.0) < 1e-9);
	assert_int_equal(k->lost, 3);
	assert_int_equal(k->nlocks, 2);
	/* the workers' row first, everything else last */
	assert_false(k->locks[0].other);
	assert_string_equal(k->locks[0].type, "mutex");
	assert_string_equal(k->locks[0].caller, "0x1234");
	assert_int_equal(k->locks[0].contended, 2);
	assert_int_equal(k->locks[0].total_ns, 4000);
	assert_int_equal(k->locks[0].max_ns, 3000);
	assert_int_equal(k->locks[0].hist[kv_log2_bucket(1000)], 1);
	assert_int_equal(k->locks[0].hist[kv_log2_bucket(3000)], 1);
	assert_true(k->locks[1].other);
	assert_string_equal(k->locks[1].caller, "[other tasks]");
	assert_int_equal(k->locks[1].contended, 1);
	assert_int_equal(k->locks[1].total_ns, 300);
	assert_int_equal(k->wakeups, 1);
	assert_int_equal(k->wake_max_ns, 500);
	assert_int_equal(k->nwake_cpu, 2);
	assert_int_equal(k->wake_cpu[1], 1);
	assert_int_equal(k->preemptions, 1);
	assert_int_equal(k->rq_wait_ns, 500 + 400);
	assert_int_equal(k->nsys, 1);
	assert_string_equal(k->sys[0].name, "write");
	assert_int_equal(k->sys[0].count, 1);
	assert_int_equal(k->sys[0].total_ns, 2000);
	result_kernel_free(k);
	kview_free(kv);
}

/* Only what begins inside a worker's own batch counts. */
static void test_batch_window(void **state)
{
	/* W1's batch is [2500, 20000]: its wait (1000) and its preemption
	   (7000) count, W2's batch [0, 2900] leaves out its wait, wake-up;
	   OTHER's wait (1200) is inside the span [0, 20000] */
	static const uint64_t lo[] = { 2500, 0 }, hi[] = { 20000, 2900 };
	struct kview *kv = fed_view(lo, hi);
	struct result_kernel *k = kview_result(kv, NAN);

	(void)state;
	assert_non_null(k);
	/* the span of the batches, for another tool's records */
	assert_int_equal(k->nwindows, 1);
	assert_int_equal(k->windows[0], 0);
	assert_int_equal(k->windows[1], 20000);
	assert_true(isnan(k->overhead_pct));
	assert_int_equal(k->nlocks, 1);		/* W1's wait began before */
	assert_true(k->locks[0].other);
	assert_int_equal(k->wakeups, 0);
	assert_int_equal(k->preemptions, 1);
	assert_int_equal(k->nsys, 1);
	result_kernel_free(k);
	kview_free(kv);
}

/* Two workers that each make one op per batch op: per op halves. */
static void test_op_workers(void **state)
{
	static const pid_t tids[] = { W1, W2 };
	struct kevent e[] = {
		ev_lock(KEV_LOCK_BEGIN, 1000, W1, 0xa, 0x20, 0x1234),
		ev_lock(KEV_LOCK_END, 2000, W1, 0xa, 0, 0),
	};
	struct kview_sample_info si = {
		.nops = 10, .op_workers = 2, .window_ns = 10000,
		.nworkers = 2,
	};
	struct kview *kv = kview_new(KVIEW_LOCK, tids, 2, 1, NULL);
	struct result_kernel *k;

	(void)state;
	assert_non_null(kv);
	assert_int_equal(kview_feed(kv, e, 2, 0, &si), 0);
	assert_true(kview_samples(kv)->lock_waits_per_op[0] == 0.05);
	assert_true(kview_samples(kv)->ns_per_op[0] == 500.0);
	/* a second sample past max_samples is aggregated, not kept */
	assert_int_equal(kview_feed(kv, e, 2, 0, &si), 0);
	assert_int_equal(kview_samples(kv)->n, 1);
	k = kview_result(kv, 1000.0);	/* per batch op: 500 per op */
	assert_non_null(k);
	assert_int_equal(k->ops, 20);
	assert_true(k->overhead_pct == 0.0);
	result_kernel_free(k);
	kview_free(kv);
}

/* A second begin that is not the spin -> sleep of a mutex restarts. */
static void test_lost_end(void **state)
{
	static const pid_t tids[] = { W1 };
	struct kevent e[] = {
		/* the end of this wait was lost */
		ev_lock(KEV_LOCK_BEGIN, 1000, W1, 0xa, 0x20, 0x1234),
		ev_lock(KEV_LOCK_BEGIN, 50000, W1, 0xa, 0x20, 0x1234),
		ev_lock(KEV_LOCK_END, 50100, W1, 0xa, 0, 0),
		/* a spinlock that begins twice: also a restart */
		ev_lock(KEV_LOCK_BEGIN, 60000, W1, 0xb, 0x1, 0x1234),
		ev_lock(KEV_LOCK_BEGIN, 70000, W1, 0xb, 0x1, 0x1234),
		ev_lock(KEV_LOCK_END, 70200, W1, 0xb, 0, 0),
	};
	struct kview_sample_info si = {
		.nops = 1, .op_workers = 1, .window_ns = 1e5, .nworkers = 1,
	};
	struct kview *kv = kview_new(KVIEW_LOCK, tids, 1, 1, NULL);
	struct result_kernel *k;
	size_t i;

	(void)state;
	assert_non_null(kv);
	assert_int_equal(kview_feed(kv, e, ARRAY_SIZE(e), 0, &si),
			 0);
	k = kview_result(kv, NAN);
	assert_non_null(k);
	assert_int_equal(k->nlocks, 2);
	for (i = 0; i < 2; i++)
		assert_int_equal(k->locks[i].contended, 1);
	assert_int_equal(k->locks[0].total_ns + k->locks[1].total_ns, 300);
	result_kernel_free(k);
	kview_free(kv);
}

static void test_parse_views(void **state)
{
	unsigned v;
	char err[256], text[64];

	(void)state;
	assert_int_equal(kview_parse("lock", &v, err, sizeof(err)), 0);
	assert_int_equal(v, KVIEW_LOCK);
	assert_int_equal(kview_parse("syscall,lock,sched", &v, err,
				     sizeof(err)), 0);
	assert_int_equal(v, KVIEW_LOCK | KVIEW_SCHED | KVIEW_SYSCALL);
	kview_mask_text(v, text, sizeof(text));
	assert_string_equal(text, "lock,sched,syscall");
	assert_int_equal(kview_parse("lock,futex", &v, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "--kernel: unknown view 'futex'"));
	assert_non_null(strstr(err, "lock, sched, syscall"));
	assert_int_equal(kview_parse("", &v, err, sizeof(err)), -1);
	assert_int_equal(kview_parse("lock,lock", &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "twice"));
	assert_int_equal(kv_log2_bucket(0), 0);
	assert_int_equal(kv_log2_bucket(1), 0);
	assert_int_equal(kv_log2_bucket(2), 1);
	assert_int_equal(kv_log2_bucket(1023), 9);
	assert_int_equal(kv_log2_bucket(1024), 10);
	assert_int_equal(kv_log2_bucket(UINT64_MAX), KV_LOG2_BUCKETS - 1);
	assert_string_equal(kview_lock_type(0x1), "spinlock");
	assert_string_equal(kview_lock_type(0x4), "rwsem:W");
	assert_string_equal(kview_lock_type(0x40), "unknown");
}

/* A runner output of sys.null with one traced sample. */
static void fake_config(struct config_result *cr)
{
	size_t k;

	memset(cr, 0, sizeof(*cr));
	cr->wl = &wl_sys_null;
	for (k = 0; k < wl_sys_null.nparams; k++) {
		char err[128];

		assert_int_equal(param_parse_value(&wl_sys_null.params[k],
						   wl_sys_null.params[k].def,
						   &cr->ps.v[k], err,
						   sizeof(err)), 0);
	}
	cr->nsamples = 1;
	for (k = 0; k < wl_sys_null.nmetrics; k++) {
		cr->units[k] = "ns";
		cr->values[k] = malloc(sizeof(double));
		cr->values[k][0] = 800;
	}
	cr->batch_ops = 10;
	cr->window_ns = malloc(sizeof(double));
	cr->window_ns[0] = 8000;
	cr->nworkers = 1;
	snprintf(cr->worker_names[0], 16, "caller");
	cr->cpus_seen = calloc(1, sizeof(cpu_set_t));
	cr->kview = fed_view(NULL, NULL);
}

static const struct result *find(const struct result_set *set,
				 const char *metric)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->v[i].metric, metric))
			return &set->v[i];
	return NULL;
}

static void test_build_store_print(void **state)
{
	struct config_result cr;
	struct result_set set, back;
	const struct result *r, *t;
	const struct result_kernel *a, *b;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	(void)state;
	fake_config(&cr);
	result_set_init(&set);
	assert_int_equal(results_build(&cr, 0, false, NULL, &set), 0);
	config_result_free(&cr);
	t = find(&set, KVIEW_METRIC_TIME);
	assert_non_null(t);
	assert_true(t->traced);
	assert_int_equal(t->direction, 0);
	r = find(&set, KVIEW_METRIC_WAIT);
	assert_non_null(r);
	assert_int_equal(r->direction, -1);
	assert_true(r->samples[0] == 400.0);
	assert_non_null(find(&set, KVIEW_METRIC_WAKE));
	assert_non_null(find(&set, KVIEW_METRIC_WAITS));
	assert_non_null(find(&set, KVIEW_METRIC_SYS));
	/* the kept metrics are untouched by the traced ones */
	assert_false(set.v[0].traced);
	assert_true(set.v[0].samples[0] == 800.0);
	a = set.v[0].cfg->kernel;
	assert_non_null(a);
	assert_true(fabs(a->overhead_pct - 25.0) < 1e-9);

	/* stored as text and read back: the same views */
	result_set_init(&back);
	for (i = 0; i < set.n; i++) {
		const struct result *x = &set.v[i];
		char *info = result_info_text(x), err[256];
		struct result_row row = {
			.id = (int64_t)i + 1, .seq = x->seq,
			.workload = x->cfg->workload,
			.params_json = x->cfg->params_json,
			.metric = x->metric, .unit = x->unit,
			.direction = x->direction, .info_json = info,
			.nsamples = x->nsamples,
		};

		assert_non_null(info);
		/* the views ride on the traced time result only */
		assert_int_equal(strstr(info, "\"kernel\"") != NULL, x == t);
		row.samples = malloc((x->nsamples + 1) * sizeof(double));
		memcpy(row.samples, x->samples, x->nsamples * sizeof(double));
		if (!result_decode_row(&back, &row, err, sizeof(err)))
			fail_msg("decode: %s", err);
		free(info);
	}
	assert_int_equal(back.n, set.n);
	b = back.v[0].cfg->kernel;
	assert_non_null(b);
	assert_int_equal(b->views, a->views);
	assert_int_equal(b->nlocks, a->nlocks);
	for (i = 0; i < a->nlocks; i++) {
		assert_string_equal(b->locks[i].caller, a->locks[i].caller);
		assert_string_equal(b->locks[i].type, a->locks[i].type);
		assert_int_equal(b->locks[i].other, a->locks[i].other);
		assert_int_equal(b->locks[i].total_ns, a->locks[i].total_ns);
		assert_memory_equal(b->locks[i].hist, a->locks[i].hist,
				    sizeof(a->locks[i].hist));
	}
	assert_int_equal(b->wakeups, a->wakeups);
	assert_int_equal(b->wake_p99_ns, a->wake_p99_ns);
	assert_memory_equal(b->wake_hist, a->wake_hist, sizeof(a->wake_hist));
	assert_int_equal(b->nwake_cpu, a->nwake_cpu);
	assert_int_equal(b->rq_wait_ns, a->rq_wait_ns);
	assert_int_equal(b->nsys, a->nsys);
	assert_string_equal(b->sys[0].name, a->sys[0].name);
	assert_int_equal(b->sys[0].total_ns, a->sys[0].total_ns);
	assert_true(b->thread_ns == a->thread_ns);
	assert_true(b->overhead_pct == a->overhead_pct);
	assert_int_equal(b->lost, a->lost);
	assert_int_equal(b->nwindows, a->nwindows);
	assert_memory_equal(b->windows, a->windows,
			    2 * a->nwindows * sizeof(*a->windows));
	for (i = 0; i < back.n; i++)
		assert_int_equal(back.v[i].traced, set.v[i].traced);

	/* printed: perf lock contention's header, the other row, sched,
	   syscall */
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	report_results(f, back.v, back.n);
	fclose(f);
	assert_non_null(strstr(buf, " contended total wait  max wait"
				    "  avg wait      type  caller"));
	assert_non_null(strstr(buf, "mutex  0x1234"));
	assert_non_null(strstr(buf, "[other tasks]"));
	assert_non_null(strstr(buf, "overhead +25.0%"));
	assert_non_null(strstr(buf, "1 wake-ups of the workers"));
	assert_non_null(strstr(buf, "write "));
	assert_non_null(strstr(buf, "3 kernel records lost"));
	free(buf);
	result_set_free(&back);
	result_set_free(&set);
}

/*
 * One histogram style in the text report: the kernel views' log2
 * histograms (a lock caller's waits, the wake-up latency) print the same
 * lines, indent, labels in human units and bar width, as --hist's per-op
 * times (stats/histogram.h) for the same values.
 */
static void test_hist_style(void **state)
{
	static const uint64_t waits[] = { 600, 700, 1500, 1600, 1700, 5000 };
	struct kv_lock_row row = { .type = "mutex", .caller = "pipe_write+0x1",
				   .contended = 6, .total_ns = 11100,
				   .max_ns = 5000 };
	struct result_kernel k = { .views = KVIEW_LOCK | KVIEW_SCHED,
				   .nsamples = 1, .ops = 100, .locks = &row,
				   .nlocks = 1, .wakeups = 6 };
	struct result_config c = { .kernel = &k };
	struct histogram *h = hist_new(1000000);
	char *kbuf = NULL, *hbuf = NULL, *p, *line;
	size_t klen = 0, hlen = 0, i, nlines = 0;
	FILE *f;

	(void)state;
	assert_non_null(h);
	for (i = 0; i < ARRAY_SIZE(waits); i++) {
		row.hist[kv_log2_bucket(waits[i])]++;
		k.wake_hist[kv_log2_bucket(waits[i])]++;
		hist_record(h, waits[i]);
	}
	f = open_memstream(&kbuf, &klen);
	assert_non_null(f);
	report_kernel(f, &c);
	fclose(f);
	f = open_memstream(&hbuf, &hlen);
	assert_non_null(f);
	hist_print_log2_at(h, f, "ns", REPORT_HIST_INDENT);
	fclose(f);
	/* "      [512ns, 1us)            2 |@@@...@|": the --hist style */
	assert_non_null(strstr(hbuf, "      [512ns, 1us)  "));
	assert_non_null(strstr(hbuf, "      [1us, 2us)  "));
	/* each --hist line twice in the kernel views: the caller's waits
	   and the wake-up latency */
	for (line = hbuf; *line; line = p + 1) {
		char want[128];
		const char *at;

		p = strchr(line, '\n');
		assert_non_null(p);
		assert_true(p - line <= 80);
		snprintf(want, sizeof(want), "%.*s", (int)(p - line + 1),
			 line);
		at = strstr(kbuf, want);
		if (!at)
			fail_msg("--hist line '%s' not in the kernel "
				 "views:\n%s", want, kbuf);
		assert_non_null(strstr(at + 1, want));
		nlines++;
	}
	assert_int_equal(nlines, 4);
	/* no bpftrace-style ns counts ("[2K, 4K)") any more */
	assert_null(strstr(kbuf, "K, "));
	/* the lock table's header indented as its rows */
	assert_non_null(strstr(kbuf, "\n      contended total wait  max wait"));
	free(kbuf);
	free(hbuf);
	hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_records),
		cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_aggregate),
		cmocka_unit_test(test_batch_window),
		cmocka_unit_test(test_op_workers),
		cmocka_unit_test(test_lost_end),
		cmocka_unit_test(test_parse_views),
		cmocka_unit_test(test_build_store_print),
		cmocka_unit_test(test_hist_style),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
