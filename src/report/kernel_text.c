/*
 * kernel_text.c - the kernel views of a configuration as text (run --kernel,
 * show): the overhead of the traced samples, the lock table in the
 * layout of `perf lock contention` (so that it pastes beside theirs)
 * with the workers' waits per op and a log2 histogram of the callers
 * that waited most (in the style of every histogram of the text report,
 * stats/histogram.h), the workers' wake-up latency and run-queue wait, and
 * their time in the kernel per system call.  Everything comes from the
 * results model (results/kernel_records.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/kview_render.h"
#include "report/lock_table.h"
#include "report/report.h"

/* Callers whose wait histogram is printed. */
#define HIST_CALLERS 2

/*
 * A kernel view's log2 histogram of ns (results/kernel_records.h: bucket
 * b holds [2^b, 2^(b+1)), bucket 0 everything under 2 ns) in the one
 * style of the text report's histograms (report/lock_table.h), so that
 * --hist, --kernel and observe look alike.
 */
static void print_log2(FILE *out, const uint64_t *h)
{
	lock_table_log2_ns(out, REPORT_HIST_INDENT, h, KV_LOG2_BUCKETS);
}

static void print_overhead(FILE *out, const struct result_kernel *k)
{
	char t[32], u[32], views[32];

	kview_mask_text(k->views, views, sizeof(views));
	fmt_value(k->traced_ns_per_op, "ns", t, sizeof(t));
	fmt_value(k->untraced_ns_per_op, "ns", u, sizeof(u));
	fprintf(out, "    kernel views (%s): %zu traced samples, %llu ops",
		views, k->nsamples, (unsigned long long)k->ops);
	if (isfinite(k->overhead_pct))
		fprintf(out, ";\n      overhead %+.1f%%: %s per op traced, "
			"%s untraced (medians)", k->overhead_pct, t, u);
	fprintf(out, "\n");
	if (k->lost)
		fprintf(out, "      %llu kernel records lost (the ring was "
			"full): the counts below are short by about that "
			"many; use a shorter --sample-time\n",
			(unsigned long long)k->lost);
}

void report_kernel_lock(FILE *out, const struct result_kernel *k)
{
	struct lock_table_row *rows = calloc(k->nlocks + 1, sizeof(*rows));
	uint64_t waits = 0, wait_ns = 0;
	size_t i, n = 0, shown = 0;
	bool other = false;

	fprintf(out, "    lock: contended waits of the workers by caller, "
		"then of every other task\n");
	if (!rows) {
		fprintf(out, "      (out of memory: the table is not "
			"printed)\n");
		return;
	}
	for (i = 0; i < k->nlocks; i++) {
		const struct kv_lock_row *r = &k->locks[i];

		rows[n++] = (struct lock_table_row){
			.caller = r->caller, .type = r->type,
			.contended = r->contended, .total_ns = r->total_ns,
			.max_ns = r->max_ns, .last = r->other,
		};
		if (!r->other) {
			waits += r->contended;
			wait_ns += r->total_ns;
		}
		other |= r->other;
	}
	if (!other)
		rows[n++] = (struct lock_table_row){
			.caller = "[other tasks]", .type = "-", .last = true,
		};
	lock_table_sort(rows, n);
	lock_table_print(out, 6, "caller", rows, n, 0);
	free(rows);
	if (k->ops) {
		char w[32];

		fmt_value((double)wait_ns / (double)k->ops, "ns", w,
			  sizeof(w));
		fprintf(out, "      workers per op: %.4g waits, %s wait\n",
			(double)waits / (double)k->ops, w);
	}
	/* k->locks is by total wait already (the workers' rows first) */
	for (i = 0; i < k->nlocks && shown < HIST_CALLERS; i++) {
		if (k->locks[i].other)
			continue;
		lock_table_hist(out, 6, k->locks[i].caller, k->locks[i].type,
				k->locks[i].contended, k->locks[i].hist,
				KV_LOG2_BUCKETS);
		shown++;
	}
}

void report_kernel_sched(FILE *out, const struct result_kernel *k)
{
	char p50[32], p99[32], mx[32], mean[32], rq[32];
	uint64_t total = 0;
	size_t i;
	int col;

	if (!k->wakeups) {
		fprintf(out, "    sched: no wake-up of the workers\n");
		return;
	}
	fmt_value((double)k->wake_p50_ns, "ns", p50, sizeof(p50));
	fmt_value((double)k->wake_p99_ns, "ns", p99, sizeof(p99));
	fmt_value((double)k->wake_max_ns, "ns", mx, sizeof(mx));
	fmt_value(k->wake_mean_ns, "ns", mean, sizeof(mean));
	fmt_value(k->ops ? (double)k->rq_wait_ns / (double)k->ops : NAN,
		  "ns", rq, sizeof(rq));
	fprintf(out, "    sched: %llu wake-ups of the workers, latency "
		"p50 %s, p99 %s,\n      max %s, mean %s; run-queue wait %s "
		"per op,\n", (unsigned long long)k->wakeups, p50, p99, mx,
		mean, rq);
	/* the CPUs they landed on, wrapped at 80 columns */
	col = fprintf(out, "      %llu preemptions; landed on:",
		      (unsigned long long)k->preemptions);
	for (i = 0; i < k->nwake_cpu; i++)
		total += k->wake_cpu[i];
	for (i = 0; i < k->nwake_cpu && total; i++) {
		char item[32];
		int l;

		if (!k->wake_cpu[i])
			continue;
		l = snprintf(item, sizeof(item), " cpu%zu %.0f%%", i,
			     100.0 * (double)k->wake_cpu[i] / (double)total);
		if (col + l > 80) {
			fputs("\n       ", out);
			col = 7;
		}
		fputs(item, out);
		col += l;
	}
	fprintf(out, "\n      wake-up latency:\n");
	print_log2(out, k->wake_hist);
}

void report_kernel_sys(FILE *out, const struct result_kernel *k)
{
	size_t i;

	if (!k->nsys) {
		fprintf(out, "    syscall: no system call of the workers\n");
		return;
	}
	fprintf(out, "    syscall: in the kernel %.1f%% of the workers' wall "
		"time (window x workers)\n",
		k->thread_ns > 0 ? 100.0 * (double)k->sys_ns / k->thread_ns :
		NAN);
	fprintf(out, "      %-16s %10s %10s %10s %10s %7s\n", "syscall",
		"calls/op", "mean", "p99", "max", "share");
	for (i = 0; i < k->nsys; i++) {
		const struct kv_sys_row *r = &k->sys[i];
		char mean[32], p99[32], mx[32];

		fmt_value((double)r->total_ns / (double)r->count, "ns", mean,
			  sizeof(mean));
		fmt_value((double)r->p99_ns, "ns", p99, sizeof(p99));
		fmt_value((double)r->max_ns, "ns", mx, sizeof(mx));
		fprintf(out, "      %-16.16s %10.4g %10s %10s %10s %6.1f%%\n",
			r->name, k->ops ? (double)r->count / (double)k->ops :
			NAN, mean, p99, mx, k->thread_ns > 0 ?
			100.0 * (double)r->total_ns / k->thread_ns : NAN);
	}
}

void report_kernel(FILE *out, const struct result_config *c)
{
	const struct result_kernel *k = c->kernel;
	int id;

	if (!k)
		return;
	print_overhead(out, k);
	for (id = 0; id < KVIEW_NVIEWS; id++)
		if (k->views & KVIEW_BIT(id))
			kview_renderers[id].text(out, k);
}
