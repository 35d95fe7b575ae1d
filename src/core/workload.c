/*
 * workload.c - the registered workload table (handed down by main) and
 * its lookup, and the validation of a workload table: names, texts, hooks,
 * metrics, parameter rows and their binding to the parameter struct, the
 * shared rows' roles and the capability flags.
 */
#include "core/workload.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common_params.h"

/* The table registered by workload_registry_set(), and its length. */
static const struct workload *const *registry;
static size_t registry_count;

void workload_registry_set(const struct workload *const *table, size_t n)
{
	registry = table;
	registry_count = n;
}

const struct workload *const *workload_registry(size_t *n)
{
	*n = registry_count;
	return registry;
}

const struct workload *workload_find(const char *name)
{
	size_t i;

	for (i = 0; i < registry_count; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}

static bool name_ok(const char *s)
{
	const char *dot;

	if (!s || !*s)
		return false;
	dot = strchr(s, '.');
	if (!dot || dot == s || !dot[1] || strchr(dot + 1, '.'))
		return false;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) ||
		      *s == '.' || *s == '_'))
			return false;
	return true;
}

static bool text_ok(const char *s)
{
	return s && *s;
}

#define PROBLEM(...)							\
	do {								\
		if (problems++ == 0)					\
			snprintf(err, errlen, __VA_ARGS__);		\
	} while (0)

static const char *field_type(enum param_type type)
{
	switch (type) {
	case PARAM_ENUM:
		return "an int";
	case PARAM_BOOL:
		return "a bool";
	case PARAM_STRING:
		return "a const char *";
	case PARAM_INT:
	case PARAM_SIZE:
	case PARAM_TIME:
		break;
	}
	return "an int64_t";
}

/* Row i's field: its type's size, inside params_size, shared with none. */
static int validate_field(const struct workload *wl, size_t i, char *err,
			  size_t errlen)
{
	const struct param_def *p = &wl->params[i];
	size_t want = param_field_size(p->type), j;
	int problems = 0;

	if (p->field_size != want)
		PROBLEM("workload '%s': parameter '%s' is bound to a field of "
			"%u bytes; its type binds %s (%zu bytes)", wl->name,
			p->name, p->field_size, field_type(p->type), want);
	if (p->offset > wl->params_size ||
	    p->field_size > wl->params_size - p->offset)
		PROBLEM("workload '%s': parameter '%s': field at %zu + %u "
			"bytes is outside params_size %zu", wl->name, p->name,
			p->offset, p->field_size, wl->params_size);
	for (j = 0; j < i; j++) {
		const struct param_def *q = &wl->params[j];

		if (q->name && p->offset < q->offset + q->field_size &&
		    q->offset < p->offset + p->field_size)
			PROBLEM("workload '%s': parameters '%s' and '%s' share "
				"a field", wl->name, q->name, p->name);
	}
	return problems;
}

/* Row i's role: one row per role, of the type the core reads. */
static int validate_role(const struct workload *wl, size_t i, char *err,
			 size_t errlen)
{
	const struct param_def *p = &wl->params[i];
	bool ok = true;
	int problems = 0;

	switch (p->role) {
	case PARAM_ROLE_NONE:
		return 0;
	case PARAM_ROLE_MODE:
		ok = p->type == PARAM_ENUM && p->choices == wl_mode_choices;
		break;
	case PARAM_ROLE_PLACE:
		ok = p->type == PARAM_ENUM && p->choices == wl_place_choices;
		break;
	case PARAM_ROLE_VERIFY:
		ok = p->type == PARAM_BOOL;
		break;
	case PARAM_ROLE_TRACE:
		ok = p->type == PARAM_INT && p->min >= 0;
		break;
	case PARAM_ROLE_INJECT:
		ok = p->type == PARAM_TIME && p->min >= 0;
		break;
	default:
		ok = false;
		break;
	}
	if (!ok)
		PROBLEM("workload '%s': parameter '%s' has a role but not its "
			"type or choices (use the row of common_params.h)",
			wl->name, p->name);
	if (param_find_role(wl->params, i, p->role) >= 0)
		PROBLEM("workload '%s': parameter '%s': a second row with the "
			"same role", wl->name, p->name);
	return problems;
}

static int validate_params(const struct workload *wl, char *err,
			   size_t errlen)
{
	int problems = 0;
	size_t i, j;

	if (wl->nparams > PARAM_MAX)
		PROBLEM("workload '%s': %zu parameters, at most %d", wl->name,
			wl->nparams, PARAM_MAX);
	if (wl->params_size > WL_PARAMS_MAX_BYTES)
		PROBLEM("workload '%s': params_size %zu, at most %d", wl->name,
			wl->params_size, WL_PARAMS_MAX_BYTES);
	for (i = 0; i < wl->nparams && i < PARAM_MAX; i++) {
		const struct param_def *p = &wl->params[i];
		char perr[256];
		struct param_request one;

		if (!text_ok(p->name) || !text_ok(p->help))
			PROBLEM("workload '%s': parameter %zu lacks a name "
				"or help", wl->name, i);
		if (!p->name)
			continue;
		for (j = 0; j < i; j++)
			if (wl->params[j].name &&
			    strcmp(wl->params[j].name, p->name) == 0)
				PROBLEM("workload '%s': parameter '%s' twice",
					wl->name, p->name);
		if (p->type == PARAM_ENUM && (!p->choices || !p->choices[0]))
			PROBLEM("workload '%s': enum '%s' has no choices",
				wl->name, p->name);
		if ((p->type == PARAM_INT || p->type == PARAM_SIZE ||
		     p->type == PARAM_TIME) && p->min > p->max)
			PROBLEM("workload '%s': '%s' has min > max", wl->name,
				p->name);
		/* the default may be a list: parse it as the user's would be */
		if (!p->def ||
		    param_request_init(&one, p, 1, perr, sizeof(perr)) != 0)
			PROBLEM("workload '%s': default of '%s' is invalid: %s",
				wl->name, p->name, p->def ? perr : "missing");
		problems += validate_field(wl, i, err, problems ? 0 : errlen);
		problems += validate_role(wl, i, err, problems ? 0 : errlen);
	}
	return problems;
}

/* The capability flags against the rows and hooks they stand for. */
static int validate_caps(const struct workload *wl, char *err,
			 size_t errlen)
{
	bool verify_row = param_find_role(wl->params, wl->nparams,
					  PARAM_ROLE_VERIFY) >= 0;
	bool trace_row = param_find_role(wl->params, wl->nparams,
					 PARAM_ROLE_TRACE) >= 0;
	bool inject_row = param_find_role(wl->params, wl->nparams,
					  PARAM_ROLE_INJECT) >= 0;
	bool cap_verify = wl->caps & WL_CAP_VERIFY;
	bool cap_trace = wl->caps & WL_CAP_TRACE;
	bool cap_inject = wl->caps & WL_CAP_INJECT;
	int problems = 0;

	if (wl->caps & ~(WL_CAP_VERIFY | WL_CAP_TRACE | WL_CAP_INJECT))
		PROBLEM("workload '%s': unknown bits in caps %#x", wl->name,
			wl->caps);
	if (cap_verify && (!verify_row || !wl->verify || !wl->verify_batch))
		PROBLEM("workload '%s': WL_CAP_VERIFY needs the verify row "
			"and the verify and verify_batch hooks", wl->name);
	if (!cap_verify && (verify_row || wl->verify || wl->verify_batch))
		PROBLEM("workload '%s': a verify row or hook without "
			"WL_CAP_VERIFY", wl->name);
	if (cap_trace != trace_row)
		PROBLEM("workload '%s': %s", wl->name, cap_trace ?
			"WL_CAP_TRACE needs the trace row" :
			"a trace row without WL_CAP_TRACE");
	if (cap_inject != inject_row)
		PROBLEM("workload '%s': %s", wl->name, cap_inject ?
			"WL_CAP_INJECT needs the inject_ns row" :
			"an inject_ns row without WL_CAP_INJECT");
	return problems;
}

/*
 * The metric rows: 1..WL_MAX_METRICS of them, each with a name and help,
 * no name twice; a custom metric needs the sample_metric hook (without it
 * every sample would record 0) and its unit (nothing else tells one).
 */
static int validate_metrics(const struct workload *wl, char *err,
			    size_t errlen)
{
	int problems = 0;
	size_t i, j;

	if (wl->nmetrics < 1 || wl->nmetrics > WL_MAX_METRICS || !wl->metrics) {
		PROBLEM("workload '%s': %zu metrics (1..%d allowed)", wl->name,
			wl->nmetrics, WL_MAX_METRICS);
		return problems;
	}
	for (i = 0; i < wl->nmetrics; i++) {
		const struct metric_def *m = &wl->metrics[i];

		if (!text_ok(m->name) || !text_ok(m->help)) {
			PROBLEM("workload '%s': metric %zu lacks a name or "
				"help", wl->name, i);
			continue;
		}
		for (j = 0; j < i; j++)
			if (wl->metrics[j].name &&
			    strcmp(wl->metrics[j].name, m->name) == 0)
				PROBLEM("workload '%s': metric '%s' twice",
					wl->name, m->name);
		if (m->kind != METRIC_CUSTOM)
			continue;
		if (!wl->sample_metric)
			PROBLEM("workload '%s': custom metric '%s' needs the "
				"sample_metric hook", wl->name, m->name);
		if (!text_ok(m->unit))
			PROBLEM("workload '%s': custom metric '%s' has no unit",
				wl->name, m->name);
	}
	return problems;
}

static int validate_one(const struct workload *wl, char *err, size_t errlen)
{
	int problems = 0;

	if (!name_ok(wl->name))
		PROBLEM("workload '%s': name must be family.name in lower "
			"case", wl->name ? wl->name : "(null)");
	if (!text_ok(wl->summary) || !text_ok(wl->op) ||
	    !text_ok(wl->not_measured))
		PROBLEM("workload '%s': summary, op and not_measured are "
			"required", wl->name);
	if (!wl->setup || !wl->run_batch)
		PROBLEM("workload '%s': setup and run_batch are required",
			wl->name);
	problems += validate_metrics(wl, err, problems ? 0 : errlen);
	problems += validate_caps(wl, err, problems ? 0 : errlen);
	if (!problems)
		problems += validate_params(wl, err, errlen);
	return problems;
}

static bool has_metric(const struct workload *wl, const char *name)
{
	size_t i;

	for (i = 0; name && i < wl->nmetrics; i++)
		if (wl->metrics[i].name && strcmp(wl->metrics[i].name, name) == 0)
			return true;
	return false;
}

static bool has_param(const struct workload *wl, const char *name)
{
	return name && param_find(wl->params, wl->nparams, name) >= 0;
}

/* Each "key=value" of list is a parameter of wl with a valid value. */
static int check_assignments(const struct workload *wl,
			     const struct workload *owner,
			     const char *const *list, char *err,
			     size_t errlen)
{
	int problems = 0;

	for (; list && *list; list++) {
		const char *eq = strchr(*list, '=');
		char key[64], perr[256];
		int64_t v;
		int i;

		snprintf(key, sizeof(key), "%.*s",
			 eq ? (int)(eq - *list) : 0, *list);
		i = param_find(wl->params, wl->nparams, key);
		if (!eq || i < 0 ||
		    param_parse_value(&wl->params[i], eq + 1, &v, perr,
				      sizeof(perr)) != 0)
			PROBLEM("workload '%s': explain: '%s' is not a valid "
				"setting of %s", owner->name, *list, wl->name);
	}
	return problems;
}

static int check_floor(const struct workload *wl, const struct wl_floor *f,
		       const struct workload *const *table, size_t n,
		       const char *metric, char *err, size_t errlen)
{
	const struct workload *fw = NULL;
	const char *const *k;
	int problems = 0;
	size_t i;

	for (i = 0; f->workload && i < n; i++)
		if (table[i] && table[i]->name &&
		    strcmp(table[i]->name, f->workload) == 0)
			fw = table[i];
	if (!fw) {
		PROBLEM("workload '%s': explain: floor '%s' is not in the "
			"table", wl->name, f->workload ? f->workload : "");
		return problems;
	}
	if (!has_metric(fw, metric))
		PROBLEM("workload '%s': explain: %s has no metric '%s'",
			wl->name, fw->name, metric);
	if (!f->same || !f->same[0])
		PROBLEM("workload '%s': explain: floor %s shares no parameter",
			wl->name, fw->name);
	for (k = f->same; k && *k; k++)
		if (!has_param(wl, *k) || !has_param(fw, *k))
			PROBLEM("workload '%s': explain: '%s' is not a "
				"parameter of both it and %s", wl->name, *k,
				fw->name);
	if (!problems)
		problems += check_assignments(fw, wl, f->set, err, errlen);
	return problems;
}

/* The floors of an explain recipe: their number for its kind, each a
   workload of the table with the metric, and for PER_BYTE one size. */
static int check_floors(const struct workload *wl,
			const struct workload *const *table, size_t n,
			char *err, size_t errlen)
{
	const struct wl_explain *x = wl->explain;
	int problems = 0;
	size_t i;

	if (!x->floors || x->nfloors < 1 ||
	    x->nfloors > WL_EXPLAIN_MAX_FLOORS ||
	    (x->kind == WL_EXPLAIN_PIPE && x->nfloors != 2)) {
		PROBLEM("workload '%s': explain: %zu floors (a pipe recipe "
			"takes 2: the copy and the ring; per byte 1 .. %d)",
			wl->name, x->floors ? x->nfloors : 0,
			WL_EXPLAIN_MAX_FLOORS);
		return problems;
	}
	for (i = 0; i < x->nfloors && !problems; i++)
		problems += check_floor(wl, &x->floors[i], table, n, x->metric,
					err, errlen);
	for (i = 1; i < x->nfloors && !problems; i++)
		if (strcmp(x->floors[i].same[0], x->floors[0].same[0]) != 0)
			PROBLEM("workload '%s': explain: the floors share "
				"'%s' and '%s' first: per byte needs one size",
				wl->name, x->floors[0].same[0],
				x->floors[i].same[0]);
	return problems;
}

/* Fit, grid and explain name parameters and metrics that exist. */
static int validate_presentation(const struct workload *wl,
				 const struct workload *const *table,
				 size_t n, char *err, size_t errlen)
{
	const struct wl_explain *x = wl->explain;
	int problems = 0;

	if (wl->fit && (!has_param(wl, wl->fit->param) ||
			!has_metric(wl, wl->fit->metric) ||
			!text_ok(wl->fit->per)))
		PROBLEM("workload '%s': fit: parameter, metric or unit "
			"missing", wl->name);
	if (wl->grid && (!has_param(wl, wl->grid->row) ||
			 !has_param(wl, wl->grid->col) ||
			 !has_metric(wl, wl->grid->metric)))
		PROBLEM("workload '%s': grid: its parameters or metric are "
			"not the workload's", wl->name);
	if (!x || problems)
		return problems;
	if (x->kind != WL_EXPLAIN_PIPE && x->kind != WL_EXPLAIN_PER_BYTE)
		PROBLEM("workload '%s': explain: unknown kind %d", wl->name,
			(int)x->kind);
	else if (x->kind == WL_EXPLAIN_PER_BYTE && !text_ok(x->per))
		PROBLEM("workload '%s': explain: per byte needs the name of "
			"one op (per)", wl->name);
	if (!has_metric(wl, x->metric))
		PROBLEM("workload '%s': explain: no metric '%s'", wl->name,
			x->metric ? x->metric : "");
	if (!problems)
		problems += check_assignments(wl, wl, x->only, err, errlen);
	if (!problems)
		problems += check_floors(wl, table, n, err, errlen);
	return problems;
}

int workload_table_validate(const struct workload *const *table, size_t n,
			    char *err, size_t errlen)
{
	int problems = 0;
	size_t i, j;

	if (errlen)
		err[0] = '\0';
	for (i = 0; i < n; i++) {
		char one[256];
		int p;

		if (!table[i]) {
			PROBLEM("workload table entry %zu is NULL", i);
			continue;
		}
		p = validate_one(table[i], one, sizeof(one));
		if (!p)
			p = validate_presentation(table[i], table, n, one,
						  sizeof(one));
		if (p && problems == 0)
			snprintf(err, errlen, "%s", one);
		problems += p;
		for (j = 0; j < i; j++)
			if (table[j] && table[i]->name && table[j]->name &&
			    strcmp(table[i]->name, table[j]->name) == 0)
				PROBLEM("workload '%s' is listed twice",
					table[i]->name);
	}
	return problems;
}

int wl_text_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len), total, keep, cut, m;
	char mark[48];
	va_list ap;
	char *add;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&add, fmt, ap);
	va_end(ap);
	if (n < 0 || len == 0)
		return -1;
	total = used + (size_t)n;
	if (total < len) {
		memcpy(buf + used, add, (size_t)n + 1);
		free(add);
		return 0;
	}
	/* the most that fits with the mark after it; its N is what is cut */
	cut = total - (len - 1);
	for (;;) {
		m = (size_t)snprintf(mark, sizeof(mark),
				     " [cut: %zu more chars]", cut);
		keep = len - 1 > m ? len - 1 - m : 0;
		if (total - keep <= cut)
			break;
		cut = total - keep;
	}
	if (keep > used)
		memcpy(buf + used, add, keep - used);
	buf[keep] = '\0';
	snprintf(buf + keep, len - keep, "%s", mark);
	free(add);
	return -1;
}
