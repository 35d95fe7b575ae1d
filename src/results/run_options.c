/*
 * run_options.c - the table of stored run options and the conversions of
 * a field to and from its column and its environment text (see
 * run_options.h).
 */
#include "results/run_options.h"

#include "results/kernel_records.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(n, e, k, m) { .name = (n), .env_key = (e), .kind = (k), \
	.offset = offsetof(struct run_options, m), \
	.size = sizeof(((struct run_options *)0)->m) }

/* In the order of the JSON "options" object. */
const struct run_option_field run_option_fields[] = {
	FIELD("reps", "run.reps", RUN_OPTION_COUNT, reps),
	FIELD("sample_time_ns", "run.sample_time_ns", RUN_OPTION_NS,
	      sample_time_ns),
	FIELD("warmup_ns", "run.warmup_ns", RUN_OPTION_NS, warmup_ns),
	FIELD("cpus", "run.cpus", RUN_OPTION_TEXT, cpus),
	FIELD("hist", "run.hist", RUN_OPTION_FLAG, hist),
	/* the key says whether, not the seed: two seeds measure alike */
	FIELD("interleave_seed", "run.interleave", RUN_OPTION_SEED,
	      interleave_seed),
	FIELD("kernel_views", "run.kernel_views", RUN_OPTION_VIEWS, kviews),
	FIELD("perf_counters", "run.perf_counters", RUN_OPTION_FLAG,
	      perf_counters),
	{ .name = "hw_counters", .env_key = "run.hw_counters",
	  .kind = RUN_OPTION_FLAG, .optional = true,
	  .offset = offsetof(struct run_options, hw_counters),
	  .size = sizeof(bool) },
	{ .name = "fresh_workers", .env_key = "run.fresh_workers",
	  .kind = RUN_OPTION_FLAG, .optional = true,
	  .offset = offsetof(struct run_options, fresh_workers),
	  .size = sizeof(bool) },
};
const size_t run_option_count = sizeof(run_option_fields) /
				sizeof(run_option_fields[0]);

static void *at(struct run_options *o, const struct run_option_field *f)
{
	return (char *)o + f->offset;
}

static const void *at_const(const struct run_options *o,
			    const struct run_option_field *f)
{
	return (const char *)o + f->offset;
}

bool run_option_text_column(const struct run_option_field *f)
{
	return f->kind == RUN_OPTION_TEXT || f->kind == RUN_OPTION_SEED ||
	       f->kind == RUN_OPTION_VIEWS;
}

void run_option_get(const struct run_options *o,
		    const struct run_option_field *f,
		    struct run_option_value *v)
{
	const void *p = at_const(o, f);

	memset(v, 0, sizeof(*v));
	switch (f->kind) {
	case RUN_OPTION_COUNT:
		v->type = RUN_OPTION_INT;
		v->i = *(const int *)p;
		break;
	case RUN_OPTION_NS:
		v->type = RUN_OPTION_INT;
		v->i = *(const int64_t *)p;
		break;
	case RUN_OPTION_FLAG:
		v->type = RUN_OPTION_INT;
		v->i = *(const bool *)p;
		break;
	case RUN_OPTION_TEXT:
		v->type = RUN_OPTION_STR;
		snprintf(v->text, sizeof(v->text), "%s", (const char *)p);
		break;
	case RUN_OPTION_SEED:
		if (!o->interleave)
			break;
		v->type = RUN_OPTION_STR;
		snprintf(v->text, sizeof(v->text), "%" PRIu64,
			 *(const uint64_t *)p);
		break;
	case RUN_OPTION_VIEWS:
		if (!*(const unsigned *)p)
			break;
		v->type = RUN_OPTION_STR;
		kview_mask_text(*(const unsigned *)p, v->text,
				sizeof(v->text));
		break;
	}
}

static int put_int(void *p, const struct run_option_field *f,
		   const struct run_option_value *v, char *err,
		   size_t errlen)
{
	int64_t lo = f->kind == RUN_OPTION_COUNT ? 1 : 0;
	int64_t hi = f->kind == RUN_OPTION_COUNT ? INT32_MAX :
		     f->kind == RUN_OPTION_FLAG ? 1 : INT64_MAX;

	if (v->type != RUN_OPTION_INT || v->i < lo || v->i > hi) {
		snprintf(err, errlen, "'%s' is not an integer in %lld .. %lld",
			 f->name, (long long)lo, (long long)hi);
		return -1;
	}
	if (f->kind == RUN_OPTION_COUNT)
		*(int *)p = (int)v->i;
	else if (f->kind == RUN_OPTION_FLAG)
		*(bool *)p = v->i != 0;
	else
		*(int64_t *)p = v->i;
	return 0;
}

int run_option_put(struct run_options *o, const struct run_option_field *f,
		   const struct run_option_value *v, char *err,
		   size_t errlen)
{
	void *p = at(o, f);
	char *end;

	switch (f->kind) {
	case RUN_OPTION_COUNT:
	case RUN_OPTION_NS:
	case RUN_OPTION_FLAG:
		return put_int(p, f, v, err, errlen);
	case RUN_OPTION_TEXT:
		if (v->type == RUN_OPTION_NULL) {
			*(char *)p = '\0';
			return 0;
		}
		if (v->type != RUN_OPTION_STR || strlen(v->text) >= f->size) {
			snprintf(err, errlen, "'%s' is not a text of at most "
				 "%zu bytes", f->name, f->size - 1);
			return -1;
		}
		memcpy(p, v->text, strlen(v->text) + 1);
		return 0;
	case RUN_OPTION_SEED:
		o->interleave = v->type != RUN_OPTION_NULL;
		*(uint64_t *)p = 0;
		if (!o->interleave)
			return 0;
		if (v->type == RUN_OPTION_INT) {
			/* the seed's 64 bits in a signed integer */
			*(uint64_t *)p = (uint64_t)v->i;
			return 0;
		}
		*(uint64_t *)p = strtoull(v->text, &end, 10);
		if (!v->text[0] || *end) {
			snprintf(err, errlen, "'%s' is not a seed: '%s'",
				 f->name, v->text);
			return -1;
		}
		return 0;
	case RUN_OPTION_VIEWS: {
		char views_err[128];

		*(unsigned *)p = 0;
		if (v->type == RUN_OPTION_STR && v->text[0] &&
		    kview_parse(v->text, (unsigned *)p, views_err,
				sizeof(views_err)) != 0)
			*(unsigned *)p = 0;	/* a view not known here */
		return 0;
	}
	}
	return 0;
}

bool run_option_env_text(const struct run_options *o,
			 const struct run_option_field *f, char *buf,
			 size_t len)
{
	struct run_option_value v;

	switch (f->kind) {
	case RUN_OPTION_SEED:
		/* whether, not the seed: two seeds measure alike */
		snprintf(buf, len, "%d", o->interleave ? 1 : 0);
		return true;
	case RUN_OPTION_VIEWS:
		/* only when asked: runs without it stay alike */
		run_option_get(o, f, &v);
		snprintf(buf, len, "%s", v.text);
		return v.type != RUN_OPTION_NULL;
	case RUN_OPTION_TEXT:
		run_option_get(o, f, &v);
		snprintf(buf, len, "%s", v.text[0] ? v.text : "unavailable");
		return true;
	default:
		run_option_get(o, f, &v);
		snprintf(buf, len, "%lld", (long long)v.i);
		return !f->optional || v.i != 0;
	}
}

int run_options_validate(char *err, size_t errlen)
{
	size_t i, k;

	for (i = 0; i < run_option_count; i++) {
		const struct run_option_field *f = &run_option_fields[i];

		if (f->offset + f->size > sizeof(struct run_options) ||
		    f->size > sizeof(((struct run_option_value *)0)->text) ||
		    (f->optional && f->kind != RUN_OPTION_FLAG) ||
		    strncmp(f->env_key, "run.", 4) != 0) {
			snprintf(err, errlen, "run option '%s': offset, size "
				 "or environment key out of place", f->name);
			return -1;
		}
		for (k = 0; k < i; k++)
			if (strcmp(run_option_fields[k].name, f->name) == 0 ||
			    run_option_fields[k].offset == f->offset) {
				snprintf(err, errlen, "run option '%s' is in "
					 "the table twice", f->name);
				return -1;
			}
	}
	return 0;
}
