/*
 * observe_html.c - an observation in the HTML report (report/observe_print.h):
 * a small section of plain tables, the same figures `observe` prints
 * (the lock callers by total wait, a wait histogram per pipe caller).
 */
#include "report/observe_print.h"

#include <inttypes.h>
#include <string.h>

#include "report/format.h"
#include "report/html_plots.h"
#include "stats/histogram.h"

static double share(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static void hist_rows(FILE *f, const uint64_t *h, const char *unit)
{
	size_t b, first = OBSERVATION_NLOG2, last = 0;
	char lo[32], hi[32];

	for (b = 0; b + 1 < OBSERVATION_NLOG2; b++)
		if (h[b]) {
			first = b < first ? b : first;
			last = b;
		}
	for (b = first; b <= last && first < OBSERVATION_NLOG2; b++) {
		double l = b ? (double)(1ull << b) : 0, u = (double)(2ull << b);

		if (strcmp(unit, "B") != 0) {
			/* the text's labels: bucket b is row b + 1 there */
			hist_row_label(lo, sizeof(lo), (unsigned int)b + 1,
				       unit);
			fprintf(f, "<tr><td>%s</td><td>%" PRIu64
				"</td></tr>\n", lo, h[b]);
			continue;
		}
		fmt_bytes(l, lo, sizeof(lo));
		fmt_bytes(u, hi, sizeof(hi));
		fprintf(f, "<tr><td>[%s, %s)</td><td>%" PRIu64 "</td></tr>\n",
			lo, hi, h[b]);
	}
}

static void pipe_tables(FILE *f, const struct observation *o)
{
	size_t c, i;

	fprintf(f, "<h3>pipe writes: %" PRIu64 "</h3>\n<p>from ",
		o->pipe_writes);
	html_text(f, o->pipe_source);
	fprintf(f, "</p>\n<table><tr><th>size</th><th>writes</th>"
		"<th>share</th></tr>\n");
	for (c = 0; c < OBSERVATION_NCLASSES; c++) {
		fprintf(f, "<tr><td>");
		html_text(f, observation_class_names[c]);
		fprintf(f, "</td><td>%" PRIu64 "</td><td>%.2f%%</td></tr>\n",
			o->pipe_cls[c], share(o->pipe_cls[c], o->pipe_writes));
	}
	fprintf(f, "</table>\n<table><tr><th>size (log2)</th><th>writes</th>"
		"</tr>\n");
	hist_rows(f, o->pipe_log2, "B");
	fprintf(f, "</table>\n<table><tr><th>comm</th><th>writes</th>"
		"<th>&lt;128 B</th></tr>\n");
	for (i = 0; i < o->ncomms && i < 20; i++) {
		if (!o->comms[i].writes)
			continue;
		fprintf(f, "<tr><td>");
		html_text(f, o->comms[i].comm);
		fprintf(f, "</td><td>%" PRIu64 "</td><td>%.2f%%</td></tr>\n",
			o->comms[i].writes, share(o->comms[i].cls[0],
						  o->comms[i].writes));
	}
	fprintf(f, "</table>\n");
}

static void lock_table(FILE *f, const struct observation *o)
{
	const struct observation_lock *top[20];
	char t[32], m[32];
	size_t i, n;

	fprintf(f, "<h3>lock contention: %" PRIu64 " waits</h3>\n<table><tr>"
		"<th>contended</th><th>total wait</th><th>max wait</th>"
		"<th>type</th><th>caller</th></tr>\n", o->lock_count);
	n = observation_top_locks(o, false, top, 20);
	for (i = 0; i < n && i < 20; i++) {
		fmt_perf_time((double)top[i]->wait_ns, t, sizeof(t));
		fmt_perf_time((double)top[i]->max_wait_ns, m, sizeof(m));
		fprintf(f, "<tr><td>%" PRIu64 "</td><td>%s</td><td>%s</td>"
			"<td>", top[i]->count, t, m);
		html_text(f, top[i]->type);
		fprintf(f, "</td><td>");
		html_text(f, top[i]->caller);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
	n = o->lock_hists ? observation_top_locks(o, true, top, 4) : 0;
	/* one histogram per pipe caller (read and write sides apart); an
	   older record has only their sum */
	for (i = 0; i < n && i < 4; i++) {
		fprintf(f, "<table><tr><th>mutex wait of ");
		html_text(f, top[i]->caller);
		fprintf(f, "</th><th>waits</th></tr>\n");
		hist_rows(f, top[i]->log2, "ns");
		fprintf(f, "</table>\n");
	}
	if (!o->lock_hists) {
		fprintf(f, "<table><tr><th>mutex wait in pipe callers (stored "
			"before per-caller histograms: read and write sides "
			"merged)</th><th>waits</th></tr>\n");
		hist_rows(f, o->pipe_mutex_log2, "ns");
		fprintf(f, "</table>\n");
	}
}

void report_observation_html(FILE *f, const char *json)
{
	struct observation o;
	char err[256];
	size_t i;

	if (observation_from_text(json, &o, err, sizeof(err))) {
		fprintf(f, "<p class=\"flagged\">");
		html_text(f, err);
		fprintf(f, "</p>\n");
		return;
	}
	fprintf(f, "<p>An observation of the host (copyscope observe), "
		"%.3g s.</p>\n", (double)o.duration_ns / 1e9);
	if (o.ran & OBSERVE_PIPE_WRITES)
		pipe_tables(f, &o);
	if (o.ran & OBSERVE_LOCK)
		lock_table(f, &o);
	if (o.ran & OBSERVE_WAKEUP) {
		fprintf(f, "<h3>wake-up latency: %" PRIu64 " wake-ups</h3>\n"
			"<table><tr><th>latency</th><th>wake-ups</th></tr>\n",
			o.wake_count);
		hist_rows(f, o.wake_log2, "ns");
		fprintf(f, "</table>\n");
	}
	if (o.ran & OBSERVE_SYSCALLS) {
		fprintf(f, "<h3>syscalls</h3>\n<table><tr><th>syscall</th>"
			"<th>calls</th><th>total ns</th></tr>\n");
		for (i = 0; i < o.nsys && i < 25; i++)
		{
			fprintf(f, "<tr><td>");
			html_text(f, o.sys[i].name);
			fprintf(f, "</td><td>%" PRIu64 "</td><td>%" PRIu64
				"</td></tr>\n", o.sys[i].count,
				o.sys[i].time_ns);
		}
		fprintf(f, "</table>\n");
	}
	observation_free(&o);
}
