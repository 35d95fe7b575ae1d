/*
 * observation.c - an observation of a live host (observation.h): its size
 * classes, notes, and its JSON form written and read.  Histograms are
 * written sparse, as [[bucket, count], ...] for the non-zero buckets.
 */
#include "results/observation.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/codec.h"
#include "util/array.h"

const char *const observe_what_names[4] = {
	"pipe-writes", "lock", "wakeup", "syscalls",
};

const char *const observation_class_names[OBSERVATION_NCLASSES] = {
	"<128 B", "128 B-4 KiB", "4-8 KiB", "8-16 KiB", "16-32 KiB",
	"32-64 KiB", "64-128 KiB", ">=128 KiB",
};

const uint64_t observation_class_lo[OBSERVATION_NCLASSES + 1] = {
	0, 128, 4096, 8192, 16384, 32768, 65536, 131072, UINT64_MAX,
};

const char *const observation_drop_names[OBSERVATION_NDROPS] = {
	"pending_full", "comm_full", "lock_full", "no_stack",
	"syscall_nr", "wakeup_full",
};

bool observation_is_pipe_mutex(const struct observation_lock *l)
{
	return strcmp(l->type, "mutex") == 0 &&
	       (strncmp(l->caller, "pipe_", 5) == 0 ||
		strncmp(l->caller, "anon_pipe_", 10) == 0);
}

/* Whether a waited longer than b (then: by name). */
static bool waited_more(const struct observation_lock *a,
			const struct observation_lock *b)
{
	if (a->wait_ns != b->wait_ns)
		return a->wait_ns > b->wait_ns;
	return strcmp(a->caller, b->caller) < 0;
}

size_t observation_top_locks(const struct observation *o, bool pipe_only,
			     const struct observation_lock **out, size_t max)
{
	size_t i, j, n = 0, kept = 0;

	/* insertion into the max kept: max is small (a table's rows) */
	for (i = 0; i < o->nlocks; i++) {
		const struct observation_lock *l = &o->locks[i];

		if (pipe_only && !observation_is_pipe_mutex(l))
			continue;
		n++;
		if (!max)
			continue;
		if (kept == max && !waited_more(l, out[max - 1]))
			continue;
		j = kept < max ? kept++ : max - 1;
		for (; j > 0 && waited_more(l, out[j - 1]); j--)
			out[j] = out[j - 1];
		out[j] = l;
	}
	return n;
}

int observation_class_of(uint64_t bytes)
{
	int c = 0;

	while (c + 1 < OBSERVATION_NCLASSES &&
	       bytes >= observation_class_lo[c + 1])
		c++;
	return c;
}

int observation_note(struct observation *o, const char *fmt, ...)
{
	size_t old = o->notes ? strlen(o->notes) : 0;
	char line[512], *p;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	p = realloc(o->notes, old + strlen(line) + 2);
	if (!p)
		return -1;
	o->notes = p;
	sprintf(p + old, "%s\n", line);
	return 0;
}

void observation_free(struct observation *o)
{
	free(o->notes);
	free(o->comms);
	free(o->locks);
	free(o->sys);
	memset(o, 0, sizeof(*o));
}

const struct observation_comm *observation_find_comm(
	const struct observation *o, const char *comm)
{
	size_t i;

	for (i = 0; i < o->ncomms; i++)
		if (strcmp(o->comms[i].comm, comm) == 0)
			return &o->comms[i];
	return NULL;
}

/* ---- writing ---- */

static json_t *u64_json(uint64_t v)
{
	return json_integer((json_int_t)(v > INT64_MAX ? INT64_MAX : v));
}

static json_t *sparse_json(const uint64_t *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < n; i++)
		if (v[i] && json_array_append_new(a, json_pack("[I, o]",
				(json_int_t)i, u64_json(v[i]))))
			goto fail;
	return a;
fail:
	json_decref(a);
	return NULL;
}

static json_t *dense_json(const uint64_t *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < n; i++)
		if (json_array_append_new(a, u64_json(v[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *what_json(unsigned mask)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < ARRAY_SIZE(observe_what_names); i++) {
		const char *name = observe_what_names[i];

		if (mask & (1u << i))
			json_array_append_new(a, json_string(name));
	}
	return a;
}

static json_t *comms_json(const struct observation *o)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < o->ncomms; i++) {
		const struct observation_comm *c = &o->comms[i];

		if (json_array_append_new(a, json_pack(
			"{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"comm", codec_json_text(c->comm),
			"writes", u64_json(c->writes),
			"bytes", u64_json(c->bytes),
			"classes", dense_json(c->cls, OBSERVATION_NCLASSES),
			"log2", sparse_json(c->log2, OBSERVATION_NLOG2),
			"contentions", u64_json(c->contentions),
			"wait_ns", u64_json(c->wait_ns),
			"max_wait_ns", u64_json(c->max_wait_ns)))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *locks_json(const struct observation *o)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < o->nlocks; i++) {
		const struct observation_lock *l = &o->locks[i];
		json_t *e = json_pack("{s:o, s:o, s:o, s:o, s:o}",
			"caller", codec_json_text(l->caller),
			"type", codec_json_text(l->type),
			"contentions", u64_json(l->count),
			"wait_ns", u64_json(l->wait_ns),
			"max_wait_ns", u64_json(l->max_wait_ns));

		/* a record read without histograms is written without */
		if (e && o->lock_hists &&
		    json_object_set_new(e, "log2", sparse_json(l->log2,
						OBSERVATION_NLOG2))) {
			json_decref(e);
			e = NULL;
		}
		if (json_array_append_new(a, e)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *sys_json(const struct observation *o)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < o->nsys; i++) {
		const struct observation_sys *s = &o->sys[i];

		if (json_array_append_new(a, json_pack("{s:i, s:o, s:o, s:o}",
			"nr", s->nr, "name", codec_json_text(s->name),
			"count", u64_json(s->count),
			"time_ns", u64_json(s->time_ns)))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *notes_json(const char *notes)
{
	json_t *a = json_array();
	const char *p = notes, *nl;

	while (a && p && *p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		json_array_append_new(a, json_stringn(p, (size_t)(nl - p)));
		p = *nl ? nl + 1 : nl;
	}
	return a;
}

json_t *observation_to_json(const struct observation *o)
{
	json_t *drops = json_object();
	size_t i;

	for (i = 0; drops && i < OBSERVATION_NDROPS; i++)
		json_object_set_new(drops, observation_drop_names[i],
				    u64_json(o->drops[i]));
	return json_pack("{s:o, s:o, s:I, s:o, s:I, s:o, s:o,"
			 " s:{s:o, s:o, s:o, s:o}, s:o,"
			 " s:{s:o, s:o, s:o, s:{s:o, s:o}},"
			 " s:{s:o, s:o}, s:o, s:o}",
		"asked", what_json(o->asked), "ran", what_json(o->ran),
		"duration_ns", (json_int_t)o->duration_ns,
		"comm_filter", codec_json_text(o->comm_filter),
		"pid_filter", (json_int_t)o->pid_filter,
		"pipe_source", codec_json_text(o->pipe_source),
		"notes", notes_json(o->notes),
		"pipe_writes",
		"count", u64_json(o->pipe_writes),
		"bytes", u64_json(o->pipe_bytes),
		"classes", dense_json(o->pipe_cls, OBSERVATION_NCLASSES),
		"log2", sparse_json(o->pipe_log2, OBSERVATION_NLOG2),
		"comms", comms_json(o),
		"lock",
		"contentions", u64_json(o->lock_count),
		"wait_ns", u64_json(o->lock_wait_ns),
		"callers", locks_json(o),
		"pipe_mutex", "count", u64_json(o->pipe_mutex_count),
		"log2", sparse_json(o->pipe_mutex_log2, OBSERVATION_NLOG2),
		"wakeup", "count", u64_json(o->wake_count),
		"log2", sparse_json(o->wake_log2, OBSERVATION_NLOG2),
		"syscalls", sys_json(o), "drops", drops);
}

/* ---- reading ---- */

struct rd {
	char *err;
	size_t errlen;
	int bad;
};

static const json_t *member(struct rd *r, const json_t *o, const char *key,
			    json_type type)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_typeof(v) != type) {
		if (!r->bad)
			snprintf(r->err, r->errlen, "observation: '%s' is "
				 "missing or of the wrong type", key);
		r->bad = 1;
		return NULL;
	}
	return v;
}

static uint64_t get_u64(struct rd *r, const json_t *o, const char *key)
{
	const json_t *v = member(r, o, key, JSON_INTEGER);
	json_int_t i = v ? json_integer_value(v) : 0;

	if (i < 0) {
		if (!r->bad)
			snprintf(r->err, r->errlen, "observation: '%s' is %lld "
				 "(a count or duration, >= 0)", key,
				 (long long)i);
		r->bad = 1;
		return 0;
	}
	return (uint64_t)i;
}

static void get_text(struct rd *r, const json_t *o, const char *key,
		     char *buf, size_t len)
{
	const json_t *v = member(r, o, key, JSON_STRING);

	snprintf(buf, len, "%s", v ? json_string_value(v) : "");
}

/*
 * A sparse log2 histogram: [[bucket, count], ...], each bucket once, in
 * 0..max_bucket (the largest a value can reach: a pipe write is at most
 * MAX_RW_COUNT bytes, under 2^31), each count an integer >= 0.
 */
static void get_sparse(struct rd *r, const json_t *o, const char *key,
		       uint64_t *v, size_t n, size_t max_bucket)
{
	const json_t *a = member(r, o, key, JSON_ARRAY), *e;
	unsigned char seen[OBSERVATION_NLOG2] = { 0 };
	size_t i;

	json_array_foreach(a, i, e) {
		const json_t *jb = json_array_get(e, 0);
		const json_t *jc = json_array_get(e, 1);
		json_int_t b = json_integer_value(jb);
		json_int_t c = json_integer_value(jc);

		if (!json_is_array(e) || json_array_size(e) != 2 ||
		    !json_is_integer(jb) || !json_is_integer(jc) || b < 0 ||
		    (size_t)b > max_bucket || (size_t)b >= n || c < 0) {
			snprintf(r->err, r->errlen, "observation: '%s': "
				 "bucket %zu is not [0..%zu, count] (two "
				 "integers, the count >= 0)", key, i,
				 max_bucket < n ? max_bucket : n - 1);
			r->bad = 1;
			return;
		}
		if (seen[b]) {
			snprintf(r->err, r->errlen, "observation: '%s': "
				 "bucket %lld appears twice (entry %zu)", key,
				 (long long)b, i);
			r->bad = 1;
			return;
		}
		seen[b] = 1;
		v[b] = (uint64_t)c;
	}
}

/* A dense class array: exactly n integer counts >= 0. */
static void get_dense(struct rd *r, const json_t *o, const char *key,
		      uint64_t *v, size_t n)
{
	const json_t *a = member(r, o, key, JSON_ARRAY);
	size_t i;

	if (!a)
		return;
	if (json_array_size(a) != n) {
		snprintf(r->err, r->errlen, "observation: '%s' has %zu "
			 "entries (one count per size class: %zu)", key,
			 json_array_size(a), n);
		r->bad = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		const json_t *e = json_array_get(a, i);

		if (!json_is_integer(e) || json_integer_value(e) < 0) {
			snprintf(r->err, r->errlen, "observation: '%s': "
				 "class %zu is not a count (an integer >= 0)",
				 key, i);
			r->bad = 1;
			return;
		}
		v[i] = (uint64_t)json_integer_value(e);
	}
}

static unsigned get_what(struct rd *r, const json_t *o, const char *key)
{
	const json_t *a = member(r, o, key, JSON_ARRAY), *e;
	unsigned mask = 0;
	size_t i, k;

	json_array_foreach(a, i, e)
		for (k = 0; k < ARRAY_SIZE(observe_what_names); k++)
			if (json_is_string(e) &&
			    strcmp(json_string_value(e),
				   observe_what_names[k]) == 0)
				mask |= 1u << k;
	return mask;
}

/* calloc'ed rows for array a; NULL (and *n 0) when empty or ENOMEM. */
static void *rows(struct rd *r, const json_t *a, size_t size, size_t *n)
{
	void *p;

	*n = 0;
	if (!a || !json_array_size(a))
		return NULL;
	p = calloc(json_array_size(a), size);
	if (!p) {
		snprintf(r->err, r->errlen, "observation: %s",
			 strerror(ENOMEM));
		r->bad = 1;
		return NULL;
	}
	*n = json_array_size(a);
	return p;
}

static void get_comms(struct rd *r, const json_t *j, struct observation *o)
{
	const json_t *a = member(r, j, "comms", JSON_ARRAY), *e;
	size_t i;

	o->comms = rows(r, a, sizeof(*o->comms), &o->ncomms);
	for (i = 0; i < o->ncomms; i++) {
		struct observation_comm *c = &o->comms[i];

		e = json_array_get(a, i);
		get_text(r, e, "comm", c->comm, sizeof(c->comm));
		c->writes = get_u64(r, e, "writes");
		c->bytes = get_u64(r, e, "bytes");
		get_dense(r, e, "classes", c->cls, OBSERVATION_NCLASSES);
		get_sparse(r, e, "log2", c->log2, OBSERVATION_NLOG2,
			   OBSERVATION_WRITE_MAX_LOG2);
		c->contentions = get_u64(r, e, "contentions");
		c->wait_ns = get_u64(r, e, "wait_ns");
		c->max_wait_ns = get_u64(r, e, "max_wait_ns");
	}
}

static void get_lock(struct rd *r, const json_t *j, struct observation *o)
{
	const json_t *l = member(r, j, "lock", JSON_OBJECT), *a, *e, *pm;
	size_t i;

	if (!l)
		return;
	o->lock_count = get_u64(r, l, "contentions");
	o->lock_wait_ns = get_u64(r, l, "wait_ns");
	pm = member(r, l, "pipe_mutex", JSON_OBJECT);
	o->pipe_mutex_count = pm ? get_u64(r, pm, "count") : 0;
	if (pm)
		get_sparse(r, pm, "log2", o->pipe_mutex_log2,
			   OBSERVATION_NLOG2, OBSERVATION_NLOG2 - 1);
	a = member(r, l, "callers", JSON_ARRAY);
	o->locks = rows(r, a, sizeof(*o->locks), &o->nlocks);
	o->lock_hists = true;
	for (i = 0; i < o->nlocks; i++) {
		struct observation_lock *k = &o->locks[i];

		e = json_array_get(a, i);
		get_text(r, e, "caller", k->caller, sizeof(k->caller));
		get_text(r, e, "type", k->type, sizeof(k->type));
		k->count = get_u64(r, e, "contentions");
		k->wait_ns = get_u64(r, e, "wait_ns");
		k->max_wait_ns = get_u64(r, e, "max_wait_ns");
		/* optional: records from before per-caller histograms */
		if (json_object_get(e, "log2"))
			get_sparse(r, e, "log2", k->log2, OBSERVATION_NLOG2,
				   OBSERVATION_NLOG2 - 1);
		else
			o->lock_hists = false;
	}
}

static void get_rest(struct rd *r, const json_t *j, struct observation *o)
{
	const json_t *a, *e, *w, *d;
	size_t i;

	a = member(r, j, "syscalls", JSON_ARRAY);
	o->sys = rows(r, a, sizeof(*o->sys), &o->nsys);
	for (i = 0; i < o->nsys; i++) {
		e = json_array_get(a, i);
		o->sys[i].nr = (int)json_integer_value(json_object_get(e,
								       "nr"));
		get_text(r, e, "name", o->sys[i].name,
			 sizeof(o->sys[i].name));
		o->sys[i].count = get_u64(r, e, "count");
		o->sys[i].time_ns = get_u64(r, e, "time_ns");
	}
	w = member(r, j, "wakeup", JSON_OBJECT);
	if (w) {
		o->wake_count = get_u64(r, w, "count");
		get_sparse(r, w, "log2", o->wake_log2, OBSERVATION_NLOG2,
			   OBSERVATION_NLOG2 - 1);
	}
	d = member(r, j, "drops", JSON_OBJECT);
	for (i = 0; d && i < OBSERVATION_NDROPS; i++)
		o->drops[i] = get_u64(r, d, observation_drop_names[i]);
	a = member(r, j, "notes", JSON_ARRAY);
	json_array_foreach(a, i, e)
		if (json_is_string(e) &&
		    observation_note(o, "%s", json_string_value(e))) {
			snprintf(r->err, r->errlen, "observation: %s",
				 strerror(ENOMEM));
			r->bad = 1;
		}
}

int observation_from_json(const json_t *j, struct observation *o,
			  char *err, size_t errlen)
{
	struct rd r = { .err = err, .errlen = errlen };
	const json_t *p;

	memset(o, 0, sizeof(*o));
	if (!json_is_object(j)) {
		snprintf(err, errlen, "observation: not a JSON object");
		return -1;
	}
	o->asked = get_what(&r, j, "asked");
	o->ran = get_what(&r, j, "ran");
	o->duration_ns = (int64_t)get_u64(&r, j, "duration_ns");
	get_text(&r, j, "comm_filter", o->comm_filter,
		 sizeof(o->comm_filter));
	o->pid_filter = (int64_t)get_u64(&r, j, "pid_filter");
	get_text(&r, j, "pipe_source", o->pipe_source,
		 sizeof(o->pipe_source));
	p = member(&r, j, "pipe_writes", JSON_OBJECT);
	if (p) {
		o->pipe_writes = get_u64(&r, p, "count");
		o->pipe_bytes = get_u64(&r, p, "bytes");
		get_dense(&r, p, "classes", o->pipe_cls,
			  OBSERVATION_NCLASSES);
		get_sparse(&r, p, "log2", o->pipe_log2, OBSERVATION_NLOG2,
			   OBSERVATION_WRITE_MAX_LOG2);
	}
	get_comms(&r, j, o);
	get_lock(&r, j, o);
	get_rest(&r, j, o);
	if (r.bad) {
		observation_free(o);
		return -1;
	}
	return 0;
}

json_t *observation_stored_json(const char *text)
{
	return text ? json_loads(text, 0, NULL) : NULL;
}

int observation_from_text(const char *text, struct observation *o,
			  char *err, size_t errlen)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	int rc;

	if (!j) {
		snprintf(err, errlen, "observation: not JSON: %s", je.text);
		memset(o, 0, sizeof(*o));
		return -1;
	}
	rc = observation_from_json(j, o, err, errlen);
	json_decref(j);
	return rc;
}
