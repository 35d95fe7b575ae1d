/*
 * observe_text.c - an observation printed as text (report/observe_print.h).
 */
#include "report/observe_print.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/report.h"
#include "results/codec.h"

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
		fprintf(out, "    %-24s %10" PRIu64 " |", label, h[b]);
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
	char b[32], name[4 * 32 + 1];
	size_t c, i;

	fmt_bytes((double)o->pipe_bytes, b, sizeof(b));
	fprintf(out, "\npipe writes: %" PRIu64 " (%s), from %s\n",
		o->pipe_writes, b, o->pipe_source);
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

static void lock_row(FILE *out, uint64_t n, uint64_t total, uint64_t max,
		     const char *type, const char *who)
{
	char t[32], m[32], a[32], ty[4 * 32 + 1], w[4 * 128 + 1];

	fmt_value((double)total, "ns", t, sizeof(t));
	fmt_value((double)max, "ns", m, sizeof(m));
	fmt_value(n ? (double)total / (double)n : 0, "ns", a, sizeof(a));
	fmt_clean_text(type, ty, sizeof(ty));
	fmt_clean_text(who, w, sizeof(w));
	fprintf(out, "    %10" PRIu64 " %12s %12s %12s %12s  %s\n", n, t, m,
		a, ty, w);
}

/* Before: whether a's waits come before b's (most first, then name). */
static bool before(const struct observation_comm *a,
		   const struct observation_comm *b)
{
	if (a->contentions != b->contentions)
		return a->contentions > b->contentions;
	return strcmp(a->comm, b->comm) < 0;
}

/* The comm with the most waits after last (NULL: the first), or NULL. */
static const struct observation_comm *most_waits(
	const struct observation *o, const struct observation_comm *last)
{
	const struct observation_comm *best = NULL, *c;
	size_t i;

	for (i = 0; i < o->ncomms; i++) {
		c = &o->comms[i];
		if (!c->contentions || (last && !before(last, c)))
			continue;
		if (!best || before(c, best))
			best = c;
	}
	return best;
}

static void print_lock(FILE *out, const struct observation *o)
{
	const struct observation_comm *last = NULL;
	size_t i, shown;

	fprintf(out, "\nlock contention: %" PRIu64 " waits (as perf lock "
		"contention -ab counts them)\n", o->lock_count);
	fprintf(out, "    %10s %12s %12s %12s %12s  %s\n", "contended",
		"total wait", "max wait", "avg wait", "type", "caller");
	for (i = 0; i < o->nlocks && i < 20; i++)
		lock_row(out, o->locks[i].count, o->locks[i].wait_ns,
			 o->locks[i].max_wait_ns, o->locks[i].type,
			 o->locks[i].caller);
	fprintf(out, "  per comm:\n    %10s %12s %12s %12s %12s  %s\n",
		"contended", "total wait", "max wait", "avg wait", "", "comm");
	for (shown = 0; shown < 20; shown++) {
		const struct observation_comm *m = most_waits(o, last);

		if (!m)
			break;
		lock_row(out, m->contentions, m->wait_ns, m->max_wait_ns, "",
			 m->comm);
		last = m;
	}
	fprintf(out, "  mutex wait in pipe callers (pipe_*, anon_pipe_*): "
		"%" PRIu64 " waits\n", o->pipe_mutex_count);
	report_log2_hist(out, o->pipe_mutex_log2, OBSERVATION_NLOG2, "ns");
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
		report_log2_hist(out, o->wake_log2, OBSERVATION_NLOG2, "ns");
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
	if (o->notes)
		fprintf(out, "notes:\n%s", o->notes);
}

int report_observation_json(FILE *out, const struct run_info *run,
			    const struct env *env, const char *json)
{
	json_t *doc, *e = json_object(), *o = json_loads(json, 0, NULL);
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
	json_decref(o);
	return rc;
}
