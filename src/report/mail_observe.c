/*
 * mail_observe.c - an observation (results/observation.h) as a mail
 * (report/mail_print.h): the run, the machine, what was watched for how
 * long, and one column of counts: the pipe writes with the share of each
 * size class (in %), the lock contentions with the callers that waited
 * longest, the pipe mutex waits (and those of each pipe caller: the read
 * and write sides apart), the wake-ups and the syscalls that took
 * the most time.  Counted, not sampled: no %stddev.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/mail_priv.h"
#include "results/observation.h"

/* The most lock callers and syscalls listed. */
#define MAIL_OBS_TOP 5

/* Add a row "name" of value v in unit; or a heading (unit NULL). */
static int obs_row(struct mail_doc *d, const char *name, double v,
		   const char *unit)
{
	struct mail_row *m = mail_add_row(d);

	if (!m)
		return -1;
	snprintf(m->name, sizeof(m->name), "%s", name);
	if (!unit) {
		m->heading = true;
		return 0;
	}
	m->unit = unit;
	m->base = v;
	return 0;
}

static int pipe_rows(struct mail_doc *d, const struct observation *o)
{
	char name[160];
	size_t i;
	int e;

	e = obs_row(d, "pipe writes", 0, NULL) ||
	    obs_row(d, "writes", (double)o->pipe_writes, "count") ||
	    obs_row(d, "bytes", (double)o->pipe_bytes, "B");
	for (i = 0; !e && o->pipe_writes && i < OBSERVATION_NCLASSES; i++) {
		snprintf(name, sizeof(name), "writes %s",
			 observation_class_names[i]);
		e = obs_row(d, name, 100.0 * (double)o->pipe_cls[i] /
			    (double)o->pipe_writes, "%");
	}
	return e;
}

static int lock_rows(struct mail_doc *d, const struct observation *o)
{
	const struct observation_lock *top[MAIL_OBS_TOP];
	char name[200];
	size_t i, n;
	int e;

	e = obs_row(d, "locks", 0, NULL) ||
	    obs_row(d, "contentions", (double)o->lock_count, "count") ||
	    obs_row(d, "wait total", (double)o->lock_wait_ns, "ns");
	n = observation_top_locks(o, false, top, MAIL_OBS_TOP);
	for (i = 0; !e && i < n && i < MAIL_OBS_TOP; i++) {
		snprintf(name, sizeof(name), "wait %s (%s)", top[i]->caller,
			 top[i]->type);
		e = obs_row(d, name, (double)top[i]->wait_ns, "ns");
	}
	if (!e)
		e = obs_row(d, "pipe mutex waits",
			    (double)o->pipe_mutex_count, "count");
	/* the read and write sides apart: each pipe caller's waits */
	n = observation_top_locks(o, true, top, MAIL_OBS_TOP);
	for (i = 0; !e && n > 1 && i < n && i < MAIL_OBS_TOP; i++) {
		snprintf(name, sizeof(name), "  of %s", top[i]->caller);
		e = obs_row(d, name, (double)top[i]->count, "count");
	}
	return e;
}

static int other_rows(struct mail_doc *d, const struct observation *o)
{
	char name[200];
	size_t i;
	int e = 0;

	if (o->ran & OBSERVE_WAKEUP)
		e = obs_row(d, "wake-ups", 0, NULL) ||
		    obs_row(d, "wake-ups", (double)o->wake_count, "count");
	if (!e && (o->ran & OBSERVE_SYSCALLS))
		e = obs_row(d, "syscalls (time)", 0, NULL);
	for (i = 0; !e && (o->ran & OBSERVE_SYSCALLS) && i < o->nsys &&
	     i < MAIL_OBS_TOP; i++) {
		snprintf(name, sizeof(name), "%s (%llu calls)",
			 o->sys[i].name, (unsigned long long)o->sys[i].count);
		e = obs_row(d, name, (double)o->sys[i].time_ns, "ns");
	}
	return e;
}

/* "pipe writes, lock for 10 s; comm nginx, pid 42" */
static void watched_text(const struct observation *o, char *buf, size_t len)
{
	char t[160];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < 4; i++)
		if (o->ran & (1u << i)) {
			mail_cat(buf, len, buf[0] ? ", " : "");
			mail_cat(buf, len, observe_what_names[i]);
		}
	snprintf(t, sizeof(t), " for %.3g s", (double)o->duration_ns / 1e9);
	mail_cat(buf, len, t);
	if (o->comm_filter[0]) {
		snprintf(t, sizeof(t), "; comm %s", o->comm_filter);
		mail_cat(buf, len, t);
	}
	if (o->pid_filter) {
		snprintf(t, sizeof(t), "; pid %lld", (long long)o->pid_filter);
		mail_cat(buf, len, t);
	}
	if (o->pipe_source[0] && (o->ran & OBSERVE_PIPE_WRITES)) {
		snprintf(t, sizeof(t), "; pipe writes by %s", o->pipe_source);
		mail_cat(buf, len, t);
	}
}

int mail_print_observation(FILE *out, const struct run_data *run,
			   const struct observation *o, enum mail_format f)
{
	struct mail_doc *d = calloc(1, sizeof(*d));
	char t[512];
	int e = 0;

	if (!d)
		return -1;
	if (run->info.id > 0)
		snprintf(d->title, sizeof(d->title), "copyscope observe "
			 "(run %lld)", (long long)run->info.id);
	else
		snprintf(d->title, sizeof(d->title), "copyscope observe");
	snprintf(d->col_base, sizeof(d->col_base), "%.28s",
		 run->info.tag[0] ? run->info.tag : "count");
	if (run->info.id > 0) {
		mail_side_head(run, 1, t, sizeof(t));
		mail_add_head(d, "run", t);
	}
	watched_text(o, t, sizeof(t));
	mail_add_head(d, "watched", t);
	mail_add_machines(d, &run->env, NULL);
	if (o->ran & OBSERVE_PIPE_WRITES)
		e = pipe_rows(d, o);
	if (!e && (o->ran & OBSERVE_LOCK))
		e = lock_rows(d, o);
	if (!e)
		e = other_rows(d, o);
	if (!e)
		mail_print(out, d, f);
	mail_doc_free(d);
	free(d);
	return e;
}

int mail_print_observation_run(FILE *out, const struct run_data *run,
			       enum mail_format f)
{
	struct observation o;
	char err[256];
	int e;

	if (observation_from_text(run->observation, &o, err, sizeof(err))) {
		fprintf(stderr, "copyscope: run %lld: the observation cannot "
			"be read: %s\n", (long long)run->info.id, err);
		return -1;
	}
	e = mail_print_observation(out, run, &o, f);
	observation_free(&o);
	return e;
}
