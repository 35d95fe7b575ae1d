/*
 * test_lock_table.c - unit tests of the one lock table (report/
 * lock_table.c) that `run --kernel lock` and `observe` print: rows by
 * total wait with [other tasks] last, perf lock contention's time
 * format, a caller too long for the row on its own line, every line
 * within 80 columns; observe's text (report/observe_text.c) within 80
 * columns with the same header as run's, one wait histogram per pipe
 * caller (read and write sides apart), and a record stored before
 * per-caller histograms printed with the merged one and a note.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/lock_table.h"
#include "report/observe_print.h"
#include "report/report.h"
#include "results/kernel_records.h"
#include "results/observation.h"

/* Whether every line of text is at most 80 columns (fails naming it). */
static void assert_fits(const char *text)
{
	const char *line = text, *nl;

	for (; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		assert_non_null(nl);
		if (nl - line > 80)
			fail_msg("%d columns: '%.*s'", (int)(nl - line),
				 (int)(nl - line), line);
	}
}

static void test_sort_and_print(void **state)
{
	struct lock_table_row rows[] = {
		{ "[other tasks]", "-", 100, 9000000, 10, true },
		{ "anon_pipe_read+0x54", "mutex", 73, 519560, 106150, false },
		{ "anon_pipe_write+0x43", "mutex", 1620, 8560000, 2380000,
		  false },
		{ "a_function_with_a_very_long_name.isra.0.cold+0x1234",
		  "rwlock-rt:W", 5, 1000, 400, false },
	};
	char *buf = NULL;
	size_t len = 0;
	const char *w, *r, *o;
	FILE *f;

	(void)state;
	lock_table_sort(rows, 4);
	assert_string_equal(rows[0].caller, "anon_pipe_write+0x43");
	assert_string_equal(rows[1].caller, "anon_pipe_read+0x54");
	assert_string_equal(rows[3].caller, "[other tasks]");
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	lock_table_print(f, 6, "caller", rows, 4, 0);
	lock_table_print(f, 4, "caller", rows, 4, 2);
	fclose(f);
	assert_fits(buf);
	assert_non_null(strstr(buf, "      contended total wait  max wait  "
			       "avg wait      type  caller\n"));
	/* perf's time format; the average is total / contended */
	assert_non_null(strstr(buf, "           1620    8.56 ms   2.38 ms   "
			       "5.28 us     mutex  anon_pipe_write+0x43\n"));
	assert_non_null(strstr(buf, "  519.56 us 106.15 us   7.12 us"));
	w = strstr(buf, "anon_pipe_write");
	r = strstr(buf, "anon_pipe_read");
	o = strstr(buf, "[other tasks]");
	assert_true(w && r && o && w < r && r < o);
	/* the long caller under its row, not cut */
	assert_non_null(strstr(buf, "rwlock-rt:W\n          "
			       "a_function_with_a_very_long_name.isra.0.cold"
			       "+0x1234\n"));
	assert_non_null(strstr(buf, "    (2 more with less wait; --json has "
			       "them all)\n"));
	free(buf);
}

static void fill(struct observation *o, bool hists)
{
	static const char *const callers[] = {
		"anon_pipe_read+0x54", "anon_pipe_write+0x43",
		"do_epoll_wait+0x3c_and_a_much_longer_suffix.cold",
	};
	size_t i;

	memset(o, 0, sizeof(*o));
	o->asked = o->ran = OBSERVE_LOCK | OBSERVE_PIPE_WRITES;
	o->duration_ns = 1000000000;
	snprintf(o->pipe_source, sizeof(o->pipe_source), "tracepoints "
		 "syscalls:write,writev,splice (FIFO fds)");
	o->pipe_writes = 10;
	o->pipe_cls[0] = 10;
	o->pipe_log2[6] = 10;
	o->locks = calloc(3, sizeof(*o->locks));
	assert_non_null(o->locks);
	o->nlocks = 3;
	for (i = 0; i < 3; i++) {
		struct observation_lock *l = &o->locks[i];

		snprintf(l->caller, sizeof(l->caller), "%s", callers[i]);
		snprintf(l->type, sizeof(l->type), i < 2 ? "mutex" :
			 "spinlock");
		l->count = 10 * (i + 1);
		l->wait_ns = 30000 * (i + 1);
		l->max_wait_ns = 9000;
		l->log2[10 + i] = l->count;
		o->lock_count += l->count;
		o->lock_wait_ns += l->wait_ns;
	}
	o->pipe_mutex_count = 30;
	o->pipe_mutex_log2[10] = 10;
	o->pipe_mutex_log2[11] = 20;
	o->lock_hists = hists;
	assert_int_equal(observation_note(o, "pipe-writes: fexit on "
		"anon_pipe_write unavailable here: it does not load (Operation"
		" not permitted: libbpf: failed to load BPF skeleton "
		"'observe': -1); trying the next source"), 0);
}

static __attribute__((noinline)) char *observation_text(
	const struct observation *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_observation(f, o);
	fclose(f);
	return buf;
}

static void test_observe_text(void **state)
{
	struct kv_lock_row row = { .type = "mutex",
				   .caller = "anon_pipe_write+0x43",
				   .contended = 1, .total_ns = 10,
				   .max_ns = 10 };
	struct result_kernel k = { .views = KVIEW_LOCK, .nsamples = 1,
				   .ops = 1, .locks = &row, .nlocks = 1 };
	struct result_config c = { .kernel = &k };
	struct observation o;
	char *text, *run = NULL, head[128];
	const char *r, *w;
	size_t len = 0;
	FILE *f;

	(void)state;
	fill(&o, true);
	text = observation_text(&o);
	assert_fits(text);
	/* the header of run --kernel lock's table, at observe's indent */
	f = open_memstream(&run, &len);
	assert_non_null(f);
	report_kernel(f, &c);
	fclose(f);
	r = strstr(run, "contended total wait");
	assert_non_null(r);
	snprintf(head, sizeof(head), "\n    %.*s", (int)(strchr(r, '\n') - r),
		 r);
	assert_non_null(strstr(text, head));
	/* one histogram per pipe caller, the write side's (more wait)
	   first; the spinlock caller gets none */
	w = strstr(text, "    wait of anon_pipe_write+0x43 (mutex): 20 waits\n"
		   "    [2us, 4us)  ");
	r = strstr(text, "    wait of anon_pipe_read+0x54 (mutex): 10 waits\n"
		   "    [1us, 2us)  ");
	assert_true(w && r && w < r);
	assert_null(strstr(text, "wait of do_epoll_wait"));
	assert_null(strstr(text, "merged"));
	free(text);
	free(run);
	observation_free(&o);

	/* stored before per-caller histograms: the merged one, said so */
	fill(&o, false);
	text = observation_text(&o);
	assert_fits(text);
	assert_non_null(strstr(text, "(stored before observe kept a histogram"
			       " per caller: the read and write sides\n"
			       "    are merged here)\n    [1us, 2us)  "));
	assert_null(strstr(text, "wait of "));
	free(text);
	observation_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_and_print),
		cmocka_unit_test(test_observe_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
