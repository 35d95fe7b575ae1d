/*
 * explain_plan.c - the extra jobs `run --explain` measures: each
 * explained job's floors at its sizes (see explain_plan.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "session/explain_plan.h"
#include "workloads/workloads.h"

/* Exit codes of explain_plan_add_floors() (those of the process). */
#define PLAN_FAIL 1
#define PLAN_USAGE 2

/*
 * jobs[*njobs] = wl with its defaults and the "key=value" list set (may be
 * NULL); *njobs grows.  0, or PLAN_USAGE / PLAN_FAIL with err.
 */
static int add_job(struct session_job *jobs, size_t *njobs, size_t max_jobs,
		   const struct workload *wl, const char *const *set,
		   char *err, size_t errlen)
{
	struct session_job *j;
	char why[256];

	if (*njobs >= max_jobs) {
		snprintf(err, errlen, "too many workloads (at most %zu)",
			 max_jobs);
		return PLAN_USAGE;
	}
	j = &jobs[*njobs];
	j->wl = wl;
	if (param_request_init(&j->req, wl->params, wl->nparams, why,
			       sizeof(why)) != 0) {
		snprintf(err, errlen, "BUG: %s: %s", wl->name, why);
		return PLAN_FAIL;
	}
	for (; set && *set; set++)
		if (param_request_apply(&j->req, wl->name, *set, why,
					sizeof(why)) != 0) {
			snprintf(err, errlen, "BUG: --explain floor %s: %s",
				 wl->name, why);
			return PLAN_FAIL;
		}
	(*njobs)++;
	return 0;
}

/* Copy the value list of `name` from one job's request into another's. */
static int copy_values(const struct session_job *from,
		       struct session_job *to, const char *name,
		       char *err, size_t errlen)
{
	int fi = param_find(from->wl->params, from->wl->nparams, name);
	int ti = param_find(to->wl->params, to->wl->nparams, name);
	char text[PARAM_TEXT_MAX], why[256];
	size_t k;

	if (fi < 0 || ti < 0) {
		snprintf(err, errlen, "BUG: --explain: %s or %s has no "
			 "parameter %s", from->wl->name, to->wl->name, name);
		return PLAN_FAIL;
	}
	for (k = 0; k < from->req.nvals[fi]; k++) {
		/* by text: enum choices need not be in the same order */
		param_format_value(&from->wl->params[fi],
				   from->req.vals[fi][k], text, sizeof(text));
		if (param_parse_value(&to->wl->params[ti], text,
				      &to->req.vals[ti][k], why,
				      sizeof(why)) != 0) {
			snprintf(err, errlen, "--explain: %s", why);
			return PLAN_USAGE;
		}
	}
	to->req.nvals[ti] = from->req.nvals[fi];
	to->req.user_set[ti] = true;
	return 0;
}

/* Does every configuration of job j have the "key=value" settings? */
static bool job_has(const struct session_job *j, const char *const *list)
{
	for (; list && *list; list++) {
		const char *eq = strchr(*list, '=');
		char key[64], err[256];
		int64_t v;
		int i;

		if (!eq)
			return false;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - *list), *list);
		i = param_find(j->wl->params, j->wl->nparams, key);
		if (i < 0 || param_parse_value(&j->wl->params[i], eq + 1, &v,
					       err, sizeof(err)) != 0 ||
		    j->req.nvals[i] != 1 || j->req.vals[i][0] != v)
			return false;
	}
	return true;
}

/* Do two jobs measure the same configurations? */
static bool same_job(const struct session_job *a, const struct session_job *b)
{
	size_t i;

	if (a->wl != b->wl)
		return false;
	for (i = 0; i < a->wl->nparams; i++)
		if (a->req.nvals[i] != b->req.nvals[i] ||
		    memcmp(a->req.vals[i], b->req.vals[i],
			   a->req.nvals[i] * sizeof(a->req.vals[i][0])) != 0)
			return false;
	return true;
}

/*
 * A job of floor fl at the shared parameters of job `from`, unless a job
 * already measures the same.
 */
static int add_floor(struct session_job *jobs, size_t *njobs,
		     size_t max_jobs, size_t from, const struct wl_floor *fl,
		     char *err, size_t errlen)
{
	const struct workload *wl = workload_find(fl->workload);
	const char *const *k;
	size_t j;
	int e;

	if (!wl) {	/* the table validation makes this impossible */
		snprintf(err, errlen, "--explain needs %s", fl->workload);
		return PLAN_USAGE;
	}
	e = add_job(jobs, njobs, max_jobs, wl, fl->set, err, errlen);
	for (k = fl->same; !e && k && *k; k++)
		e = copy_values(&jobs[from], &jobs[*njobs - 1], *k, err,
				errlen);
	for (j = 0; !e && j + 1 < *njobs; j++)
		if (same_job(&jobs[j], &jobs[*njobs - 1])) {
			(*njobs)--;
			break;
		}
	return e;
}

/* The "key=value and key=value" text of an explain recipe's only list. */
static void only_text(const char *const *only, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; only && *only && used < len; only++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? " and " : "", *only);
}

/* No job has a recipe: name the workloads that have one. */
static int none_explained(char *err, size_t errlen)
{
	const char *first = NULL;
	char names[256] = "";
	size_t j;

	for (j = 0; j < workload_count; j++)
		if (workload_table[j]->explain) {
			if (!first)
				first = workload_table[j]->name;
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", workload_table[j]->name);
		}
	snprintf(err, errlen, "--explain explains %s: name one of them "
		 "(copyscope run %s --explain)", names,
		 first ? first : "WORKLOAD");
	return PLAN_USAGE;
}

int explain_plan_add_floors(struct session_job *jobs, size_t *njobs,
			    size_t max_jobs, char *err, size_t errlen)
{
	size_t j, k, n = *njobs, found = 0;
	int e;

	for (j = 0; j < n; j++) {
		const struct wl_explain *x = jobs[j].wl->explain;

		if (!x)
			continue;
		found++;
		if (!job_has(&jobs[j], x->only)) {
			char only[128];

			only_text(x->only, only, sizeof(only));
			snprintf(err, errlen, "--explain explains %s only "
				 "with %s", jobs[j].wl->name, only);
			return PLAN_USAGE;
		}
		for (k = 0; k < x->nfloors; k++) {
			e = add_floor(jobs, njobs, max_jobs, j, &x->floors[k],
				      err, errlen);
			if (e)
				return e;
		}
	}
	return found ? 0 : none_explained(err, errlen);
}
