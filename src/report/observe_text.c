/*
 * observe_text.c - an observation printed as text (report/observe_print.h),
 * within 80 columns: the lock tables and wait histograms are those of
 * `run --kernel lock` (report/lock_table.h).
 */
#include "report/observe_print.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/lock_table.h"
#include "report/report.h"
#include "results/codec.h"

/* Rows of the lock tables; pipe callers whose waits get a histogram. */
#define OBS_TEXT_ROWS 20
#define PIPE_HIST_CALLERS 4

static void bucket_label(size_t b, const char *unit, char *buf, size_t len)
{
	char lo[32], hi[32];
	double l = b ? (double)(1ull << b) : 0, h = (double)(2ull << b);

	if (strcmp(unit, "B") == 0) {
		fmt_bytes(l, lo, sizeof(lo));
		fmt_bytes(h, hi, sizeof(hi));
	} else {
		fmt_value(l, unit, lo, sizeof(lo));
		fmt_value(h, unit, hi, sizeof(hi));
	}
	snprintf(buf, len, "[%s, %s)", lo, hi);
}

void report_log2_hist(FILE *out, const uint64_t *h, size_t n,
		      const char *unit)
{
	size_t b, first = n, last = 0, bar, i;
	uint64_t max = 0;
	char label[64];

	for (b = 0; b < n && b < 63; b++) {
		if (!h[b])
			continue;
		first = b < first ? b : first;
		last = b;
		max = h[b] > max ? h[b] : max;
	}
	for (b = first; b <= last && first < n; b++) {
		bucket_label(b, unit, label, sizeof(label));
		bar = max ? (size_t)((40.0 * (double)h[b] + max - 1) /
				     (double)max) : 0;
		/* 4 + 18 + 1 + 10 + " |" + 40 + "|": 76 columns */
		fprintf(out, "    %-18s %10" PRIu64 " |", label, h[b]);
		for (i = 0; i < 40; i++)
			fputc(i < bar ? '@' : ' ', out);
		fputs("|\n", out);
	}
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static void print_pipe(FILE *out, const struct observation *o)
{
	char b[32], name[4 * 64 + 1], line[4 * 64 + 128];
	size_t c, i;

	fmt_bytes((double)o->pipe_bytes, b, sizeof(b));
	fmt_clean_text(o->pipe_source, name, sizeof(name));
	snprintf(line, sizeof(line), "pipe writes: %" PRIu64 " (%s), from %s",
		 o->pipe_writes, b, name);
	fputc('\n', out);
	fmt_wrap(out, 0, 2, line);
	fprintf(out, "    %-14s %12s %8s\n", "size", "writes", "share");
	for (c = 0; c < OBSERVATION_NCLASSES; c++)
		fprintf(out, "    %-14s %12" PRIu64 " %7.2f%%\n",
			observation_class_names[c], o->pipe_cls[c],
			pct(o->pipe_cls[c], o->pipe_writes));
	fprintf(out, "  log2 histogram of the size:\n");
	report_log2_hist(out, o->pipe_log2, OBSERVATION_NLOG2, "B");
	fprintf(out, "  per comm:\n    %-16s %12s %10s %8s %8s\n", "comm",
		"writes", "bytes", "<128 B", ">=4 KiB");
	for (i = 0; i < o->ncomms && i < 20; i++) {
		const struct observation_comm *m = &o->comms[i];
		uint64_t big = 0;

		if (!m->writes)
			continue;
		for (c = 2; c < OBSERVATION_NCLASSES; c++)
			big += m->cls[c];
		fmt_bytes((double)m->bytes, b, sizeof(b));
		fmt_clean_text(m->comm, name, sizeof(name));
		fprintf(out, "    %-16s %12" PRIu64 " %10s %7.2f%% %7.2f%%\n",
			name, m->writes, b, pct(m->cls[0], m->writes),
			pct(big, m->writes));
	}
}

/* The comms that waited, as rows of the lock table (sorted there). */
static size_t comm_rows(const struct observation *o,
			struct lock_table_row *rows)
{
	size_t i, n = 0;

	for (i = 0; i < o->ncomms; i++)
		if (o->comms[i].contentions)
			rows[n++] = (struct lock_table_row){
				.caller = o->comms[i].comm, .type = "",
				.contended = o->comms[i].contentions,
				.total_ns = o->comms[i].wait_ns,
				.max_ns = o->comms[i].max_wait_ns,
			};
	return n;
}

/*
 * The mutex waits of the pipe's callers: one histogram per caller, the
 * read and write sides apart, most total wait first; a record stored
 * before callers had histograms has only their sum, and says so.
 */
static void print_pipe_mutex(FILE *out, const struct observation *o)
{
	const struct observation_lock *pipe[PIPE_HIST_CALLERS];
	size_t i, n;

	fprintf(out, "  mutex wait in pipe callers (pipe_*, anon_pipe_*): "
		"%" PRIu64 " waits\n", o->pipe_mutex_count);
	if (!o->lock_hists) {
		fmt_wrap(out, 4, 4, "(stored before observe kept a histogram "
			 "per caller: the read and write sides are merged "
			 "here)");
		lock_table_log2_ns(out, 4, o->pipe_mutex_log2,
				   OBSERVATION_NLOG2);
		return;
	}
	n = observation_top_locks(o, true, pipe, PIPE_HIST_CALLERS);
	for (i = 0; i < n && i < PIPE_HIST_CALLERS; i++)
		lock_table_hist(out, 4, pipe[i]->caller, pipe[i]->type,
				pipe[i]->count, pipe[i]->log2,
				OBSERVATION_NLOG2);
	if (n > PIPE_HIST_CALLERS)
		fprintf(out, "    (%zu more pipe callers with less wait; "
			"--json has each one's histogram)\n",
			n - PIPE_HIST_CALLERS);
}

static void print_lock(FILE *out, const struct observation *o)
{
	struct lock_table_row *rows = calloc(o->nlocks + o->ncomms + 1,
					     sizeof(*rows));
	size_t i, n;

	fprintf(out, "\nlock contention: %" PRIu64 " waits (as perf lock "
		"contention -ab counts them)\n", o->lock_count);
	if (!rows) {
		fprintf(out, "  (out of memory: the tables are not printed)\n");
		return;
	}
	for (i = 0; i < o->nlocks; i++)
		rows[i] = (struct lock_table_row){
			.caller = o->locks[i].caller, .type = o->locks[i].type,
			.contended = o->locks[i].count,
			.total_ns = o->locks[i].wait_ns,
			.max_ns = o->locks[i].max_wait_ns,
		};
	lock_table_sort(rows, o->nlocks);
	lock_table_print(out, 4, "caller", rows, o->nlocks, OBS_TEXT_ROWS);
	n = comm_rows(o, rows);
	lock_table_sort(rows, n);
	fprintf(out, "  per comm:\n");
	lock_table_print(out, 4, "comm", rows, n, OBS_TEXT_ROWS);
	free(rows);
	print_pipe_mutex(out, o);
}

static void print_sys(FILE *out, const struct observation *o)
{
	char t[32], a[32];
	size_t i;

	fprintf(out, "\nsyscalls (most time first):\n    %-20s %12s %12s "
		"%12s\n", "syscall", "calls", "total", "avg");
	for (i = 0; i < o->nsys && i < 25; i++) {
		const struct observation_sys *s = &o->sys[i];

		fmt_value((double)s->time_ns, "ns", t, sizeof(t));
		fmt_value((double)s->time_ns / (double)s->count, "ns", a,
			  sizeof(a));
		fprintf(out, "    %-20s %12" PRIu64 " %12s %12s\n", s->name,
			s->count, t, a);
	}
}

static void print_what(FILE *out, unsigned mask)
{
	size_t i;
	const char *sep = "";

	for (i = 0; i < 4; i++)
		if (mask & (1u << i)) {
			fprintf(out, "%s%s", sep, observe_what_names[i]);
			sep = ",";
		}
	if (!*sep)
		fputs("nothing", out);
}

void report_observation(FILE *out, const struct observation *o)
{
	char d[32];
	size_t i;
	uint64_t dropped = 0;

	fmt_value((double)o->duration_ns, "ns", d, sizeof(d));
	/* what was watched: the whole host, or only what the filters let
	   through */
	if (*o->comm_filter || o->pid_filter) {
		char c[4 * 32 + 1];

		fmt_clean_text(o->comm_filter, c, sizeof(c));
		fprintf(out, "observed %s, only", d);
		if (*o->comm_filter)
			fprintf(out, " comm %s", c);
		if (o->pid_filter)
			fprintf(out, "%s pid %lld", *o->comm_filter ? "," : "",
				(long long)o->pid_filter);
		fputs(": ", out);
	} else {
		fprintf(out, "observed %s system-wide: ", d);
	}
	print_what(out, o->ran);
	fputc('\n', out);
	if (o->ran & OBSERVE_PIPE_WRITES)
		print_pipe(out, o);
	if (o->ran & OBSERVE_LOCK)
		print_lock(out, o);
	if (o->ran & OBSERVE_WAKEUP) {
		fprintf(out, "\nwake-up latency (sched_waking to "
			"sched_switch): %" PRIu64 " wake-ups\n",
			o->wake_count);
		lock_table_log2_ns(out, 4, o->wake_log2, OBSERVATION_NLOG2);
	}
	if (o->ran & OBSERVE_SYSCALLS)
		print_sys(out, o);
	for (i = 0; i < OBSERVATION_NDROPS; i++)
		dropped += o->drops[i];
	fprintf(out, "\nlost events: %" PRIu64, dropped);
	for (i = 0; i < OBSERVATION_NDROPS; i++)
		if (o->drops[i])
			fprintf(out, ", %s %" PRIu64,
				observation_drop_names[i], o->drops[i]);
	fputc('\n', out);
	if (o->notes) {
		const char *p = o->notes, *nl;
		char line[512];

		fputs("notes:\n", out);
		for (; *p; p = *nl ? nl + 1 : nl) {
			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p);
			snprintf(line, sizeof(line), "%.*s", (int)(nl - p), p);
			fmt_wrap(out, 0, 2, line);
		}
	}
}

int report_observation_json(FILE *out, const struct run_info *run,
			    const struct env *env, json_t *o)
{
	json_t *doc, *e = json_object();
	size_t i;
	int rc = -1;

	for (i = 0; e && env && i < env->n; i++)
		json_object_set_new(e, env->items[i].key,
				    codec_json_text(env->items[i].value));
	doc = o && e ? json_pack("{s:i, s:o, s:O, s:O}", "schema_version",
				 REPORT_JSON_SCHEMA_VERSION, "run",
				 codec_run_json(run), "environment", e,
				 "observation", o) : NULL;
	if (doc && json_dumpf(doc, out, JSON_INDENT(2) | JSON_ENSURE_ASCII) ==
	    0 && fputc('\n', out) != EOF && fflush(out) == 0)
		rc = 0;
	json_decref(doc);
	json_decref(e);
	return rc;
}
