/*
 * run_plan.c - the jobs of `copyscope run` from its command line (see
 * run_plan.h): workloads and suites by name, key=value settings, verify
 * and the --explain floors.
 */
#include <stdio.h>
#include <string.h>

#include "session/explain_plan.h"
#include "session/run_plan.h"
#include "util/array.h"
#include "util/msg.h"
#include "workloads/workloads.h"

/* What the functions return (cli/cli.h names them EXIT_USAGE and
   EXIT_FAIL): a usage error, or a bug of this build. */
#define PLAN_USAGE 2
#define PLAN_BUG 1

/* One job of workload wl, with a suite entry's settings args (or NULL). */
static int add_job(struct run_plan *p, const struct workload *wl,
		   const char *const *args, char *err, size_t errlen)
{
	struct session_job *j;
	char why[512];

	if (p->njobs >= RUN_PLAN_MAX_JOBS) {
		snprintf(err, errlen, "too many workloads (at most %d)",
			 RUN_PLAN_MAX_JOBS);
		return PLAN_USAGE;
	}
	j = &p->jobs[p->njobs];
	j->wl = wl;
	if (param_request_init(&j->req, wl->params, wl->nparams, why,
			       sizeof(why)) != 0) {
		snprintf(err, errlen, "BUG: %s: %s", wl->name, why);
		return PLAN_BUG;
	}
	for (; args && *args; args++)
		if (param_request_apply(&j->req, wl->name, *args, why,
					sizeof(why)) != 0) {
			snprintf(err, errlen, "BUG: suite entry for %s: %s",
				 wl->name, why);
			return PLAN_BUG;
		}
	p->njobs++;
	return 0;
}

/* The jobs of suite s, each with its summary line. */
static int add_suite(struct run_plan *p, const struct suite *s, char *err,
		     size_t errlen)
{
	const struct workload *wl;
	size_t i;
	int e;

	if (s->quick)
		p->quick = true;
	for (i = 0; i < s->nentries; i++) {
		wl = workload_find(s->entries[i].workload);
		if (!wl) {
			snprintf(err, errlen, "BUG: suite %s names unknown "
				 "workload %s", s->name,
				 s->entries[i].workload);
			return PLAN_BUG;
		}
		e = add_job(p, wl, s->entries[i].args, err, errlen);
		if (e)
			return e;
		p->from[p->njobs - 1] = (struct summary_line) {
			.job = (int)p->njobs - 1,
			.workload = wl->name,
			.label = s->headlines ? s->headlines[i].label : NULL,
			.metric = s->headlines ? s->headlines[i].metric : NULL,
		};
		p->any_suite = true;
	}
	return 0;
}

int run_plan_add_name(struct run_plan *p, const char *name, char *err,
		      size_t errlen)
{
	const struct workload *wl = workload_find(name);
	const struct suite *s = suite_find(name);
	const char *names[64];
	const char *sug;
	size_t n;

	if (wl)
		return add_job(p, wl, NULL, err, errlen);
	if (s)
		return add_suite(p, s, err, errlen);
	n = run_plan_names(false, names, ARRAY_SIZE(names));
	n += run_plan_names(true, names + n, ARRAY_SIZE(names) - n);
	sug = param_suggest(name, names, n);
	if (sug)
		snprintf(err, errlen, "unknown workload or suite '%s'; did "
			 "you mean '%s'?", msg_quote(name), sug);
	else
		snprintf(err, errlen, "unknown workload or suite '%s' "
			 "('copyscope list' shows them)", msg_quote(name));
	return PLAN_USAGE;
}

/* Apply key=value as (its key: key) to the jobs that have the key. */
static int apply_one(struct run_plan *p, const char *as, const char *key,
		     char *err, size_t errlen)
{
	bool used = false;
	size_t j;

	for (j = 0; j < p->njobs; j++) {
		const struct workload *wl = p->jobs[j].wl;

		if (param_find(wl->params, wl->nparams, key) < 0)
			continue;
		used = true;
		if (param_request_apply(&p->jobs[j].req, wl->name, as, err,
					errlen) != 0)
			return PLAN_USAGE;
	}
	if (!used) {
		/* Let the first job's parser word the error. */
		param_request_apply(&p->jobs[0].req, p->jobs[0].wl->name, as,
				    err, errlen);
		return PLAN_USAGE;
	}
	return 0;
}

/* verify=1 on the jobs that can verify data. */
static int apply_verify(struct run_plan *p, char *err, size_t errlen)
{
	size_t j;

	for (j = 0; j < p->njobs; j++) {
		const struct workload *wl = p->jobs[j].wl;
		int row = param_find_role(wl->params, wl->nparams,
					  PARAM_ROLE_VERIFY);
		char v[64];

		if (!(wl->caps & WL_CAP_VERIFY) || row < 0)
			continue;
		snprintf(v, sizeof(v), "%s=1", wl->params[row].name);
		if (param_request_apply(&p->jobs[j].req, wl->name, v, err,
					errlen) != 0)
			return PLAN_USAGE;
	}
	return 0;
}

int run_plan_apply(struct run_plan *p, const char *const *assign, size_t n,
		   bool verify, char *err, size_t errlen)
{
	size_t a, j;
	int e;

	for (a = 0; a < n; a++) {
		const char *as = assign[a];
		size_t klen = strcspn(as, "=");
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)klen, as);
		for (j = 0; j < a; j++)
			if (strncmp(assign[j], as, klen + 1) == 0) {
				snprintf(err, errlen, "%s is given twice "
					 "('%s' and '%s'); to sweep, give one "
					 "comma list (%s=a,b)", key,
					 assign[j], as, key);
				return PLAN_USAGE;
			}
		e = apply_one(p, as, key, err, errlen);
		if (e)
			return e;
	}
	return verify ? apply_verify(p, err, errlen) : 0;
}

int run_plan_add_explain(struct run_plan *p, char *err, size_t errlen)
{
	return explain_plan_add_floors(p->jobs, &p->njobs, RUN_PLAN_MAX_JOBS,
				       err, errlen);
}

size_t run_plan_names(bool suites, const char **names, size_t max)
{
	size_t i, n = 0;

	if (suites) {
		for (i = 0; i < suite_count && n < max; i++)
			names[n++] = suite_table[i]->name;
	} else {
		for (i = 0; i < workload_count && n < max; i++)
			names[n++] = workload_table[i]->name;
	}
	return n;
}

const struct workload *const *run_plan_workloads(size_t *n)
{
	*n = workload_count;
	return workload_table;
}

const struct suite *const *run_plan_suites(size_t *n)
{
	*n = suite_count;
	return suite_table;
}

const struct workload *run_plan_workload(const char *name)
{
	return workload_find(name);
}

const struct suite *run_plan_suite(const char *name)
{
	return suite_find(name);
}

/* Whether the run's job number job ran workload name. */
static bool job_is(const struct run_data *run, int job, const char *name)
{
	size_t i;

	for (i = 0; i < run->results.n; i++)
		if (run->results.v[i].cfg->job == job)
			return strcmp(run->results.v[i].cfg->workload,
				      name) == 0;
	return false;
}

/* The lines of suite s, its first entry job number job, into lines. */
static size_t add_suite_lines(const struct suite *s, int job,
			struct summary_line *lines, size_t nl, size_t max)
{
	size_t i;

	for (i = 0; i < s->nentries && nl < max; i++)
		lines[nl++] = (struct summary_line) {
			.job = job + (int)i,
			.workload = s->entries[i].workload,
			.label = s->headlines ? s->headlines[i].label : NULL,
			.metric = s->headlines ? s->headlines[i].metric : NULL,
		};
	return nl;
}

size_t run_plan_suite_lines(const struct run_data *run,
			    struct summary_line *lines, size_t max)
{
	const char *p = run->info.cmdline;
	const struct suite *s;
	bool in_run = false;
	size_t nl = 0, len, i;
	char word[128];
	int job = 0;

	/* "copyscope run [options] NAME|SUITE|key=value ...": each
	   workload named is a job, each suite its entries' jobs */
	for (; p && *p; p += len + strspn(p + len, " ")) {
		len = strcspn(p, " ");
		if (!len || len >= sizeof(word))
			continue;
		memcpy(word, p, len);
		word[len] = '\0';
		if (!in_run) {
			in_run = strcmp(word, "run") == 0;
			continue;
		}
		if (word[0] == '-' || strchr(word, '='))
			continue;
		if (workload_find(word)) {
			job++;
		} else if ((s = suite_find(word)) != NULL) {
			nl = add_suite_lines(s, job, lines, nl, max);
			job += (int)s->nentries;
		}
	}
	for (i = 0; i < nl; i++)
		if (!job_is(run, lines[i].job, lines[i].workload))
			return 0;
	return nl;
}
