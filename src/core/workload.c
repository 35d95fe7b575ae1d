/*
 * workload.c - lookup and validation of the workload table, and parameter
 * access for workload hooks.
 */
#include "core/workload.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct workload *workload_find(const char *name)
{
	size_t i;

	for (i = 0; i < workload_count; i++)
		if (strcmp(workload_table[i]->name, name) == 0)
			return workload_table[i];
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

static int validate_params(const struct workload *wl, char *err,
			   size_t errlen)
{
	int problems = 0;
	size_t i, j;

	if (wl->nparams > PARAM_MAX)
		PROBLEM("workload '%s': %zu parameters, at most %d", wl->name,
			wl->nparams, PARAM_MAX);
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
	}
	return problems;
}

static int validate_one(const struct workload *wl, char *err, size_t errlen)
{
	int problems = 0;
	size_t i;

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
	if (wl->nmetrics < 1 || wl->nmetrics > WL_MAX_METRICS)
		PROBLEM("workload '%s': %zu metrics (1..%d allowed)", wl->name,
			wl->nmetrics, WL_MAX_METRICS);
	for (i = 0; i < wl->nmetrics && i < WL_MAX_METRICS; i++)
		if (!text_ok(wl->metrics[i].name) ||
		    !text_ok(wl->metrics[i].help))
			PROBLEM("workload '%s': metric %zu lacks a name or "
				"help", wl->name, i);
	if (wl->verify_param &&
	    (param_find(wl->params, wl->nparams, wl->verify_param) < 0 ||
	     !wl->verify || !wl->verify_batch))
		PROBLEM("workload '%s': verify_param '%s' needs that "
			"parameter and the verify hooks", wl->name,
			wl->verify_param);
	if (wl->trace_param &&
	    param_find(wl->params, wl->nparams, wl->trace_param) < 0)
		PROBLEM("workload '%s': trace_param '%s' is not a parameter",
			wl->name, wl->trace_param);
	if (!problems)
		problems += validate_params(wl, err, errlen);
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

int64_t wl_param_of(const struct workload *wl, const struct param_set *ps,
		    const char *name)
{
	int i = param_find(wl->params, wl->nparams, name);

	if (i < 0) {
		fprintf(stderr, "copyscope: BUG: workload %s has no "
			"parameter '%s'\n", wl->name, name);
		abort();
	}
	return ps->v[i];
}

int64_t wl_param(const struct wl_ctx *ctx, const char *name)
{
	return wl_param_of(ctx->wl, &ctx->ps, name);
}
