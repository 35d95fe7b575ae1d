/*
 * check_plan.c - what `copyscope check` measures again, from BASE's stored
 * runs (see check_plan.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison/comparison.h"
#include "session/check_plan.h"
#include "workloads/workloads.h"

/* Is workload among the named ones (or are none named)? */
static bool named(const struct check_plan_request *req, const char *workload)
{
	size_t i;

	if (req->nworkloads == 0)
		return true;
	for (i = 0; i < req->nworkloads; i++)
		if (strcmp(req->workloads[i], workload) == 0)
			return true;
	return false;
}

/*
 * The configuration a stored result was measured with, as a job of one
 * configuration; 0 or -1 with err.
 */
static int job_of(const struct result_config *c, struct session_job *out,
		  char *err, size_t len)
{
	const struct workload *wl = workload_find(c->workload);
	size_t k;

	if (!wl) {
		snprintf(err, len, "BASE's workload %s is not in this build",
			 c->workload);
		return -1;
	}
	if (param_request_init(&out->req, wl->params, wl->nparams, err,
			       len) != 0)
		return -1;
	for (k = 0; k < c->nparams; k++) {
		char as[PARAM_TEXT_MAX + 64];

		snprintf(as, sizeof(as), "%s=%s", c->params[k].name,
			 c->params[k].value);
		if (param_request_apply(&out->req, wl->name, as, err,
					len) != 0)
			return -1;
	}
	out->wl = wl;
	return 0;
}

/* Do two jobs of one configuration each measure the same one? */
static bool same_job(const struct session_job *a, const struct session_job *b)
{
	struct param_set x, y;

	if (a->wl != b->wl)
		return false;
	param_request_get(&a->req, 0, &x);
	param_request_get(&b->req, 0, &y);
	return memcmp(x.v, y.v, a->wl->nparams * sizeof(int64_t)) == 0;
}

/*
 * BASE's distinct configurations (of the named workloads) into
 * plan->spec.jobs; 0, or 1 with err.
 */
static int plan_jobs(const struct check_plan_request *req,
		     struct check_plan *plan, char *err, size_t errlen)
{
	struct session_job *jobs;
	size_t i, j, n = 0, cap = 0;

	for (i = 0; i < req->nbase; i++)
		cap += req->base[i].results.ncfgs;
	jobs = calloc(cap ? cap : 1, sizeof(*jobs));
	if (!jobs) {
		snprintf(err, errlen, "out of memory");
		return 1;
	}
	plan->spec.jobs = jobs;
	for (i = 0; i < req->nbase; i++)
		for (j = 0; j < req->base[i].results.ncfgs; j++) {
			const struct result_config *c =
				req->base[i].results.cfgs[j];
			char why[512];
			size_t k;
			bool dup = false;

			if (!named(req, c->workload))
				continue;
			if (job_of(c, &jobs[n], why, sizeof(why)) != 0) {
				snprintf(err, errlen, "cannot rerun run %lld: "
					 "%s", (long long)req->base[i].info.id,
					 why);
				return 1;
			}
			for (k = 0; k < n && !dup; k++)
				dup = same_job(&jobs[k], &jobs[n]);
			if (!dup)
				n++;
		}
	plan->spec.njobs = n;
	if (n == 0) {
		snprintf(err, errlen, "BASE has no results%s to measure again",
			 req->nworkloads ? " of the named workloads" : "");
		return 1;
	}
	return 0;
}

/* BASE's options (its first run's) as the run options of the plan. */
static void base_options(const struct check_plan_request *req,
			 struct check_plan *plan)
{
	const struct run_info *base = &req->base[0].info;
	const struct run_options *o = &base->opts;
	struct session_spec *spec = &plan->spec;
	char err[256];

	if (base->have_options) {
		unsigned kviews = spec->ro.stored.kviews;

		/* how BASE measured; its kernel views are not taken again */
		spec->ro.stored = *o;
		spec->ro.stored.kviews = kviews;
		spec->ro.stored.interleave = o->interleave &&
					     spec->njobs <= SESSION_MAX_INTERLEAVE;
		if (o->cpus[0] && session_parse_cpus(o->cpus, &spec->ro, err,
						     sizeof(err)) != 0) {
			struct session_spec d;

			snprintf(plan->warning, sizeof(plan->warning),
				 "%s (BASE's CPUs); using every allowed CPU",
				 err);
			session_spec_init(&d);
			memcpy(spec->ro.cpus, d.ro.cpus, sizeof(d.ro.cpus));
			spec->ro.ncpus = d.ro.ncpus;
		}
	}
	if (req->reps)
		spec->ro.stored.reps = req->reps;
}

int check_plan_make(const struct check_plan_request *req,
		    struct check_plan *plan, char *err, size_t errlen)
{
	int e;

	memset(plan, 0, sizeof(*plan));
	session_spec_init(&plan->spec);
	e = plan_jobs(req, plan, err, errlen);
	if (e)
		return e;
	base_options(req, plan);
	if (req->runs)
		plan->nruns = req->runs;
	else
		plan->nruns = req->nbase >= CMP_MIN_RUNS ? (int)req->nbase : 1;
	return 0;
}

void check_plan_free(struct check_plan *plan)
{
	free(plan->spec.jobs);
	plan->spec.jobs = NULL;
	plan->spec.njobs = 0;
}
