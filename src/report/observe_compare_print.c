/*
 * observe_compare_print.c - observations side by side as text (80
 * columns, one column per observation, the change from the first where
 * there are two) and as JSON (report/observe_compare_print.h).
 */
#include "report/observe_compare_print.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "stats/histogram.h"
#include "results/codec.h"

#define LABEL_W 22
#define CELL_W 13
#define CHANGE_W 10

static bool ran(const struct obs_cmp *c, size_t k, unsigned what)
{
	return (c->cols[k].o.ran & what) != 0;
}

/* The row's label: on its own line when it is wider than the column. */
static void label(FILE *out, const char *text)
{
	char t[4 * 128 + 1];

	fmt_clean_text(text, t, sizeof(t));
	if (strlen(t) > LABEL_W - 2)
		fprintf(out, "  %s\n%-*s", t, LABEL_W, "");
	else
		fprintf(out, "  %-*s", LABEL_W - 2, t);
}

static void change_pct(FILE *out, uint64_t a, uint64_t b)
{
	char ch[32];

	if (!a)		/* from none: no ratio ("" when none to none) */
		fprintf(out, " %*s", CHANGE_W - 1, b ? "new" : "");
	else {
		fmt_change(100.0 * ((double)b - (double)a) / (double)a, ch,
			   sizeof(ch));
		fprintf(out, " %*s", CHANGE_W - 1, ch);
	}
}

/* A row of counts, what (OBSERVE_*) telling which columns have it. */
static void count_row(FILE *out, const struct obs_cmp *c, const char *name,
		      unsigned what, const uint64_t *v, bool as_time)
{
	char cell[32];
	size_t k;

	label(out, name);
	for (k = 0; k < c->ncols; k++) {
		if (!ran(c, k, what))
			snprintf(cell, sizeof(cell), "-");
		else if (as_time)
			fmt_value((double)v[k], "ns", cell, sizeof(cell));
		else
			snprintf(cell, sizeof(cell), "%" PRIu64, v[k]);
		fprintf(out, " %*s", CELL_W - 1, cell);
	}
	if (c->ncols == 2 && ran(c, 0, what) && ran(c, 1, what))
		change_pct(out, v[0], v[1]);
	fputc('\n', out);
}

/* A row of shares (part of whole per column) and the point difference. */
static void share_row(FILE *out, const struct obs_cmp *c, const char *name,
		      unsigned what, const uint64_t *part,
		      const uint64_t *whole)
{
	char cell[32];
	size_t k;

	label(out, name);
	for (k = 0; k < c->ncols; k++) {
		if (ran(c, k, what) && !whole[k])
			snprintf(cell, sizeof(cell), "n/a");
		else if (ran(c, k, what))
			snprintf(cell, sizeof(cell), "%.2f%%",
				 obs_cmp_share_pct(part[k], whole[k]));
		else
			snprintf(cell, sizeof(cell), "-");
		fprintf(out, " %*s", CELL_W - 1, cell);
	}
	if (c->ncols == 2 && ran(c, 0, what) && ran(c, 1, what) &&
	    whole[0] && whole[1]) {
		snprintf(cell, sizeof(cell), "%+.2f pp",
			 obs_cmp_share_pct(part[1], whole[1]) -
			 obs_cmp_share_pct(part[0], whole[0]));
		fprintf(out, " %*s", CHANGE_W - 1, cell);
	}
	fputc('\n', out);
}

static void heading(FILE *out, const struct obs_cmp *c, const char *title)
{
	size_t k;

	fprintf(out, "\n%-*s", LABEL_W, title);
	for (k = 0; k < c->ncols; k++)
		fprintf(out, " %*c", CELL_W - 1, (int)('A' + k));
	if (c->ncols == 2)
		fprintf(out, " %*s", CHANGE_W - 1, "B vs A");
	fputc('\n', out);
}

static void legend(FILE *out, const struct obs_cmp *c)
{
	size_t k;

	fprintf(out, "copyscope compare: %zu observations side by side\n",
		c->ncols);
	for (k = 0; k < c->ncols; k++) {
		const struct run_info *r = &c->cols[k].run->info;
		const struct observation *o = &c->cols[k].o;
		char t[32], d[32], tag[4 * 100 + 1], host[4 * 64 + 1];
		char line[1024], filt[4 * 32 + 64];

		fmt_utc_time(r->started_ns, t, sizeof(t));
		fmt_value((double)o->duration_ns, "ns", d, sizeof(d));
		fmt_clean_text(r->tag[0] ? r->tag : "-", tag, sizeof(tag));
		fmt_clean_text(r->host, host, sizeof(host));
		if (*o->comm_filter || o->pid_filter) {
			char cf[4 * 32 + 1];

			fmt_clean_text(o->comm_filter, cf, sizeof(cf));
			snprintf(filt, sizeof(filt), "only%s%s%s%.0lld",
				 *cf ? " comm " : "", cf,
				 o->pid_filter ? " pid " : "",
				 (long long)o->pid_filter);
		} else {
			snprintf(filt, sizeof(filt), "system-wide");
		}
		snprintf(line, sizeof(line), "%c: run %lld, tag %s, host %s, "
			 "%s UTC, %s, %s%s", (int)('A' + k),
			 (long long)r->id, tag, host, t, d, filt,
			 strcmp(r->status, "complete") == 0 ? "" :
			 " (interrupted)");
		fmt_wrap(out, 2, 5, line);
	}
}

static void pipe_table(FILE *out, const struct obs_cmp *c, uint64_t *v,
		       uint64_t *w)
{
	size_t k, cl;

	heading(out, c, "pipe writes");
	for (k = 0; k < c->ncols; k++)
		v[k] = c->cols[k].o.pipe_writes;
	count_row(out, c, "writes", OBSERVE_PIPE_WRITES, v, false);
	for (cl = 0; cl < OBSERVATION_NCLASSES; cl++) {
		for (k = 0; k < c->ncols; k++) {
			v[k] = c->cols[k].o.pipe_cls[cl];
			w[k] = c->cols[k].o.pipe_writes;
		}
		share_row(out, c, observation_class_names[cl],
			  OBSERVE_PIPE_WRITES, v, w);
	}
}

static void lock_table(FILE *out, const struct obs_cmp *c, uint64_t *v)
{
	size_t k, i;
	char name[200];

	heading(out, c, "lock contention");
	for (k = 0; k < c->ncols; k++)
		v[k] = c->cols[k].o.lock_count;
	count_row(out, c, "waits", OBSERVE_LOCK, v, false);
	for (k = 0; k < c->ncols; k++)
		v[k] = c->cols[k].o.lock_wait_ns;
	count_row(out, c, "total wait", OBSERVE_LOCK, v, true);
	fprintf(out, "  total wait by caller%s%s%s (most first):\n",
		c->caller_pattern ? " matching '" : "",
		c->caller_pattern ? c->caller_pattern : "",
		c->caller_pattern ? "'" : "");
	for (i = 0; i < c->ncallers; i++) {
		snprintf(name, sizeof(name), "%s (%s)", c->callers[i].caller,
			 c->callers[i].type);
		count_row(out, c, name, OBSERVE_LOCK, c->callers[i].wait_ns,
			  true);
	}
	if (!c->ncallers)
		fprintf(out, "  (no caller waited)\n");
	if (c->callers_left_out)
		fprintf(out, "  (%zu more callers with less wait: --json has "
			"the %d most)\n", c->callers_left_out,
			OBS_CMP_MAX_CALLERS);
}

/* The share rows of one histogram per column: h(k, b), of whole[k]. */
static void bucket_rows(FILE *out, const struct obs_cmp *c, uint64_t *v,
			uint64_t *w, const uint64_t *whole, const uint64_t *h,
			size_t stride, const char *indent)
{
	size_t k, b;
	char lab[32], name[48];

	for (b = 0; b < OBSERVATION_NLOG2; b++) {
		bool any = false;

		for (k = 0; k < c->ncols; k++) {
			v[k] = h[k * stride + b];
			w[k] = whole[k];
			any |= v[k] != 0;
		}
		if (!any)
			continue;
		/* bucket b [2^b, 2^(b+1)) is the histograms' row b + 1 */
		hist_row_label(lab, sizeof(lab), (unsigned int)b + 1, "ns");
		snprintf(name, sizeof(name), "%s%s", indent, lab);
		share_row(out, c, name, OBSERVE_LOCK, v, w);
	}
}

static void mutex_hist(FILE *out, const struct obs_cmp *c, uint64_t *v,
		       uint64_t *w)
{
	uint64_t *h = calloc(c->ncols * OBSERVATION_NLOG2 + 1, sizeof(*h));
	uint64_t *all = calloc(c->ncols + 1, sizeof(*all));
	char name[4 * 64 + 160];
	size_t k, i;

	heading(out, c, "pipe mutex wait");
	for (k = 0; k < c->ncols; k++)
		all[k] = v[k] = c->cols[k].o.pipe_mutex_count;
	count_row(out, c, "waits", OBSERVE_LOCK, v, false);
	if (!h || !all) {
		fprintf(out, "  (out of memory: no histogram printed)\n");
	} else if (c->sides_missing) {
		/* a column stored before per-caller histograms: the sum */
		fmt_wrap(out, 2, 2, "(a column was stored before observe kept "
			 "a histogram per caller: the read and write sides "
			 "merged, every pipe caller)");
		for (k = 0; k < c->ncols; k++)
			memcpy(&h[k * OBSERVATION_NLOG2],
			       c->cols[k].o.pipe_mutex_log2,
			       sizeof(c->cols[k].o.pipe_mutex_log2));
		bucket_rows(out, c, v, w, all, h, OBSERVATION_NLOG2, "");
	} else {
		char pat[4 * 64 + 1];

		fmt_clean_text(c->caller_pattern ? c->caller_pattern : "",
			       pat, sizeof(pat));
		snprintf(name, sizeof(name), "waits by pipe function%s%s%s "
			 "(its call sites summed), then their shares by wait:",
			 *pat ? ", callers matching '" : "", pat,
			 *pat ? "'" : "");
		fmt_wrap(out, 2, 2, name);
		for (i = 0; i < c->nsides; i++) {
			snprintf(name, sizeof(name), "%s", c->sides[i].func);
			count_row(out, c, name, OBSERVE_LOCK,
				  c->sides[i].count, false);
			bucket_rows(out, c, v, w, c->sides[i].count,
				    c->sides[i].log2, OBSERVATION_NLOG2,
				    "  ");
		}
		if (!c->nsides)
			fprintf(out, "  (no pipe caller waited)\n");
	}
	free(h);
	free(all);
}

int report_observation_compare(FILE *out, const struct obs_cmp *c)
{
	uint64_t *v = calloc(c->ncols + 1, sizeof(*v));
	uint64_t *w = calloc(c->ncols + 1, sizeof(*w));
	size_t k;

	if (!v || !w) {
		free(v);
		free(w);
		return -1;
	}
	legend(out, c);
	pipe_table(out, c, v, w);
	lock_table(out, c, v);
	mutex_hist(out, c, v, w);
	heading(out, c, "wake-ups");
	for (k = 0; k < c->ncols; k++)
		v[k] = c->cols[k].o.wake_count;
	count_row(out, c, "sched_waking", OBSERVE_WAKEUP, v, false);
	fputc('\n', out);
	fmt_wrap(out, 0, 1, "(each column is one observation, what was seen "
		 "in it; '-': not observed there; n/a: a share of nothing. No CI is given for a "
		 "change: the writes and waits of one observation come in "
		 "bursts from a few threads and are not independent samples. "
		 "pp: percentage points)");
	free(v);
	free(w);
	return 0;
}

/* ---- JSON ---- */

static json_t *u64s(const struct obs_cmp *c, unsigned what,
		    uint64_t (*get)(const struct observation *, size_t),
		    size_t arg)
{
	json_t *a = json_array();
	size_t k;

	for (k = 0; a && k < c->ncols; k++)
		json_array_append_new(a, ran(c, k, what) ?
			json_integer((json_int_t)get(&c->cols[k].o, arg)) :
			json_null());
	return a;
}

static uint64_t g_writes(const struct observation *o, size_t i)
{
	(void)i;
	return o->pipe_writes;
}

static uint64_t g_bytes(const struct observation *o, size_t i)
{
	(void)i;
	return o->pipe_bytes;
}

static uint64_t g_cls(const struct observation *o, size_t i)
{
	return o->pipe_cls[i];
}

static uint64_t g_lock(const struct observation *o, size_t i)
{
	(void)i;
	return o->lock_count;
}

static uint64_t g_lock_wait(const struct observation *o, size_t i)
{
	(void)i;
	return o->lock_wait_ns;
}

static uint64_t g_mutex(const struct observation *o, size_t i)
{
	(void)i;
	return o->pipe_mutex_count;
}

static uint64_t g_mutex_b(const struct observation *o, size_t i)
{
	return o->pipe_mutex_log2[i];
}

static uint64_t g_wake(const struct observation *o, size_t i)
{
	(void)i;
	return o->wake_count;
}

static json_t *columns_json(const struct obs_cmp *c)
{
	json_t *a = json_array();
	size_t k;

	for (k = 0; a && k < c->ncols; k++) {
		const struct run_info *r = &c->cols[k].run->info;
		const struct observation *o = &c->cols[k].o;

		json_array_append_new(a, json_pack(
			"{s:s%,s:I,s:o,s:o,s:o,s:I,s:I,s:o,s:I}",
			"column", &"ABCDEFGHIJKLMNOPQRSTUVWXYZ"[k % 26], 1,
			"run", (json_int_t)r->id,
			"tag", codec_json_text(r->tag),
			"host", codec_json_text(r->host),
			"status", codec_json_text(r->status),
			"started_ns", (json_int_t)r->started_ns,
			"duration_ns", (json_int_t)o->duration_ns,
			"comm_filter", codec_json_text(o->comm_filter),
			"pid_filter", (json_int_t)o->pid_filter));
	}
	return a;
}

static json_t *classes_json(const struct obs_cmp *c)
{
	json_t *a = json_array();
	size_t cl;

	for (cl = 0; a && cl < OBSERVATION_NCLASSES; cl++)
		json_array_append_new(a, json_pack("{s:s,s:o}", "class",
			observation_class_names[cl], "count",
			u64s(c, OBSERVE_PIPE_WRITES, g_cls, cl)));
	return a;
}

static json_t *callers_json(const struct obs_cmp *c)
{
	json_t *a = json_array();
	size_t i, k;

	for (i = 0; a && i < c->ncallers; i++) {
		json_t *n = json_array(), *w = json_array();

		for (k = 0; n && w && k < c->ncols; k++) {
			json_array_append_new(n, json_integer(
				(json_int_t)c->callers[i].count[k]));
			json_array_append_new(w, json_integer(
				(json_int_t)c->callers[i].wait_ns[k]));
		}
		json_array_append_new(a, json_pack("{s:o,s:o,s:o,s:o}",
			"caller", codec_json_text(c->callers[i].caller),
			"type", codec_json_text(c->callers[i].type),
			"contentions", n, "wait_ns", w));
	}
	return a;
}

static json_t *mutex_json(const struct obs_cmp *c)
{
	json_t *a = json_array();
	size_t b, k;

	for (b = 0; a && b < OBSERVATION_NLOG2; b++) {
		bool any = false;

		for (k = 0; k < c->ncols; k++)
			any |= c->cols[k].o.pipe_mutex_log2[b] != 0;
		if (any)
			json_array_append_new(a, json_pack("{s:I,s:o}",
				"bucket", (json_int_t)b, "count",
				u64s(c, OBSERVE_LOCK, g_mutex_b, b)));
	}
	return a;
}

/* The pipe mutex waits per pipe function; null: not kept everywhere. */
static json_t *sides_json(const struct obs_cmp *c)
{
	json_t *a = json_array();
	size_t i, k, b;

	if (c->sides_missing) {
		json_decref(a);
		return json_null();
	}
	for (i = 0; a && i < c->nsides; i++) {
		const struct obs_cmp_side *r = &c->sides[i];
		json_t *n = json_array(), *h = json_array();

		for (k = 0; n && k < c->ncols; k++)
			json_array_append_new(n, ran(c, k, OBSERVE_LOCK) ?
				json_integer((json_int_t)r->count[k]) :
				json_null());
		for (b = 0; h && b < OBSERVATION_NLOG2; b++) {
			json_t *cnt = json_array();
			bool any = false;

			for (k = 0; cnt && k < c->ncols; k++) {
				uint64_t x = r->log2[k * OBSERVATION_NLOG2 +
						     b];

				any |= x != 0;
				json_array_append_new(cnt, json_integer(
					(json_int_t)x));
			}
			if (any)
				json_array_append_new(h, json_pack(
					"{s:I,s:o}", "bucket", (json_int_t)b,
					"count", cnt));
			else
				json_decref(cnt);
		}
		json_array_append_new(a, json_pack("{s:o,s:o,s:o}",
			"function", codec_json_text(r->func), "count", n,
			"log2", h));
	}
	return a;
}

int report_observation_compare_json(FILE *out, const struct obs_cmp *c)
{
	json_t *doc = json_pack(
		"{s:s,s:o,s:{s:o,s:o,s:o},s:{s:o,s:o,s:o,s:o,s:I},"
		"s:{s:o,s:o,s:o},s:{s:o}}",
		"kind", "observation_compare",
		"columns", columns_json(c),
		"pipe_writes", "count", u64s(c, OBSERVE_PIPE_WRITES,
					     g_writes, 0),
		"bytes", u64s(c, OBSERVE_PIPE_WRITES, g_bytes, 0),
		"classes", classes_json(c),
		"lock", "contentions", u64s(c, OBSERVE_LOCK, g_lock, 0),
		"wait_ns", u64s(c, OBSERVE_LOCK, g_lock_wait, 0),
		"caller_pattern", c->caller_pattern ?
			json_string(c->caller_pattern) : json_null(),
		"callers", callers_json(c),
		"callers_left_out", (json_int_t)c->callers_left_out,
		"pipe_mutex", "count", u64s(c, OBSERVE_LOCK, g_mutex, 0),
		"log2", mutex_json(c), "by_function", sides_json(c),
		"wakeup", "count", u64s(c, OBSERVE_WAKEUP, g_wake, 0));
	int rc = -1;

	if (doc && json_dumpf(doc, out, JSON_INDENT(2) |
			      JSON_PRESERVE_ORDER) == 0 &&
	    fputc('\n', out) != EOF)
		rc = 0;
	json_decref(doc);
	return rc;
}
