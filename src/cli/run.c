/*
 * run.c - `copyscope run`: parse workloads, suites, parameters and
 * options; check everything before measuring; run each configuration;
 * store every result as soon as it exists; print the tables (or JSON).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/context.h"
#include "core/interference.h"
#include "core/runner.h"
#include "core/swcount.h"
#include "core/timer.h"
#include "env/env.h"
#include "report/explain.h"
#include "report/format.h"
#include "report/report.h"
#include "stats/summary.h"
#include "store/store.h"
#include "workloads/workloads.h"

#define MAX_JOBS 256
/* Configurations open at once with --interleave. */
#define MAX_INTERLEAVE 64

struct job {
	const struct workload *wl;
	struct param_request req;
};

struct run_cli {
	struct run_opts ro;
	bool reps_set, sample_set, warmup_set, quick;
	const char *tag;
	const char *db;
	bool json, no_store, verify, explain, perf_counters;
	struct job jobs[MAX_JOBS];
	size_t njobs;
	const char *assign[256];
	size_t nassign;
	bool interleave, seed_set, quiet;
	uint64_t seed;
	/* per run: kept samples and flagged ones, by reason */
	size_t nsamples, nflagged, n_other, n_steal, n_canary;
};

static void run_usage(FILE *out)
{
	size_t i;

	fprintf(out,
"usage: copyscope run [WORKLOAD|SUITE ...] [key=value ...] [options]\n"
"\n"
"Measures each configuration (a comma list expands into a sweep: size=4k,64k)\n"
"and stores the results with the environment.  Without a workload or suite,\n"
"runs the suite 'default'.  A key=value applies to every named workload that\n"
"has that parameter.  Sizes take k/M/G (1024-based; bare: bytes), times\n"
"need a unit, ns/us/ms/s (bare: only 0, or the unit a name ends in:\n"
"spin_ns=100 is 100 ns).\n"
"\n"
"options:\n"
"  --reps N          kept samples per configuration (default 10)\n"
"  --sample-time T   target length of one sample (default 100ms)\n"
"  --warmup T        warm-up after the batch is sized (default 200ms)\n"
"  --quick           3 samples of 10ms, no extra warm-up (for tests)\n"
"  --tag TAG         label the run (for runs, show, compare)\n"
"  --cpus LIST       CPUs workers may use, in order (e.g. 0,1 or 2-5)\n"
"  --hist            per-op latency histogram (a separate pass)\n"
"  --interleave      take the samples of all configurations in a shuffled\n"
"                    round-robin order (spreads drift evenly; the order is\n"
"                    recorded); at most 64 configurations\n"
"  --seed N          seed of the --interleave order (default: the clock)\n"
"  --verify          set verify=1 on workloads that can verify data\n"
"  --explain         for each pipe.bw configuration also run mem.copy (libc)\n"
"                    and ring.bw at the same size and print where the pipe's\n"
"                    time goes (copy floor, ring, kernel path)\n"
"  --perf-counters   count context switches, migrations and faults with perf\n"
"                    software events instead of getrusage (costs time on\n"
"                    every context switch: see docs/methodology.md)\n"
"  --json            print the run as JSON on stdout\n"
"  --no-store        do not write to the database\n"
"  --db PATH         database (default $COPYSCOPE_DB, else\n"
"                    $XDG_DATA_HOME/copyscope/results.db)\n"
"\nsuites:");
	for (i = 0; i < suite_count; i++)
		fprintf(out, " %s", suite_table[i]->name);
	fprintf(out, "\nworkloads:");
	for (i = 0; i < workload_count; i++)
		fprintf(out, " %s", workload_table[i]->name);
	fprintf(out,
"\n('copyscope list' shows their parameters)\n"
"\nexamples:\n"
"  copyscope run pipe.bw size=4k,64k,1M\n"
"  copyscope run sys.null trace=10 --tag baseline\n"
"  copyscope run pipe.bw place=same,split --hist --json\n");
}

static int parse_int_opt(const char *name, const char *v, long lo, long hi,
			 int *out)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(v, &end, 10);
	if (errno || end == v || *end || x < lo || x > hi)
		return cli_usage("run", "%s: '%s' is not an integer in "
				 "%ld .. %ld", name, v, lo, hi);
	*out = (int)x;
	return 0;
}

static int parse_time_opt(const char *name, const char *v, int64_t lo,
			  int64_t hi, int64_t *out)
{
	if (param_parse_time_ns(v, out) != 0 || *out < lo || *out > hi)
		return cli_usage("run", "%s: '%s' is not a time in %lldms .. "
				 "%llds: a number with a unit, ns, us, ms or "
				 "s (e.g. 100ms, 1s)", name, v,
				 (long long)(lo / 1000000),
				 (long long)(hi / 1000000000));
	return 0;
}

/*
 * "0,2-3" into cpus; each must be in this process's affinity mask.
 * Returns 0, or -1 with the reason in err.
 */
static int cpu_list(const char *v, struct run_opts *ro, char *err,
		    size_t errlen)
{
	cpu_set_t allowed;
	const char *p = v;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		CPU_ZERO(&allowed);
	ro->ncpus = 0;
	while (*p) {
		char *end;
		long a, b;

		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				goto bad;
			b = strtol(p, &end, 10);
		}
		if (errno || b < a)
			goto bad;
		for (; a <= b; a++) {
			if (a >= CPU_SETSIZE || !CPU_ISSET(a, &allowed)) {
				snprintf(err, errlen, "--cpus: CPU %ld is not "
					 "online or not allowed for this "
					 "process", a);
				return -1;
			}
			if (ro->ncpus < CPU_SETSIZE)
				ro->cpus[ro->ncpus++] = (int)a;
		}
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	if (ro->ncpus == 0)
		goto bad;
	return 0;
bad:
	snprintf(err, errlen, "--cpus: '%s' is not a CPU list (e.g. 0,1 or "
		 "2-5)", v);
	return -1;
}

static int parse_cpus(const char *v, struct run_opts *ro)
{
	char err[256];

	if (cpu_list(v, ro, err, sizeof(err)) != 0)
		return cli_usage("run", "%s", err);
	return 0;
}

static void default_cpus(struct run_opts *ro)
{
	cpu_set_t allowed;
	int c;

	ro->ncpus = 0;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
		ro->cpus[ro->ncpus++] = 0;
		return;
	}
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			ro->cpus[ro->ncpus++] = c;
}

static int add_job(struct run_cli *rc, const struct workload *wl,
		   const char *const *args)
{
	struct job *j;
	char err[512];

	if (rc->njobs >= MAX_JOBS)
		return cli_usage("run", "too many workloads (at most %d)",
				 MAX_JOBS);
	j = &rc->jobs[rc->njobs];
	j->wl = wl;
	if (param_request_init(&j->req, wl->params, wl->nparams, err,
			       sizeof(err)) != 0) {
		cli_error("BUG: %s: %s", wl->name, err);
		return EXIT_FAIL;
	}
	for (; args && *args; args++)
		if (param_request_apply(&j->req, wl->name, *args, err,
					sizeof(err)) != 0) {
			cli_error("BUG: suite entry for %s: %s", wl->name, err);
			return EXIT_FAIL;
		}
	rc->njobs++;
	return 0;
}

static int add_name(struct run_cli *rc, const char *name)
{
	const struct workload *wl = workload_find(name);
	const struct suite *s = suite_find(name);
	const char *names[64];
	const char *sug;
	size_t i, n = 0;
	int e;

	if (wl)
		return add_job(rc, wl, NULL);
	if (s) {
		if (s->quick)
			rc->quick = true;
		for (i = 0; i < s->nentries; i++) {
			wl = workload_find(s->entries[i].workload);
			if (!wl) {
				cli_error("BUG: suite %s names unknown "
					  "workload %s", s->name,
					  s->entries[i].workload);
				return EXIT_FAIL;
			}
			e = add_job(rc, wl, s->entries[i].args);
			if (e)
				return e;
		}
		return 0;
	}
	for (i = 0; i < workload_count && n < 64; i++)
		names[n++] = workload_table[i]->name;
	for (i = 0; i < suite_count && n < 64; i++)
		names[n++] = suite_table[i]->name;
	sug = param_suggest(name, names, n);
	if (sug)
		return cli_usage("run", "unknown workload or suite '%s'; did "
				 "you mean '%s'?", name, sug);
	return cli_usage("run", "unknown workload or suite '%s' ('copyscope "
			 "list' shows them)", name);
}

/* Apply every key=value to the jobs that have the key. */
static int apply_assignments(struct run_cli *rc)
{
	char err[512];
	size_t a, j;

	for (a = 0; a < rc->nassign; a++) {
		const char *as = rc->assign[a];
		size_t klen = strcspn(as, "=");
		char key[64];
		bool used = false;

		snprintf(key, sizeof(key), "%.*s", (int)klen, as);
		for (j = 0; j < rc->njobs; j++) {
			const struct workload *wl = rc->jobs[j].wl;

			if (param_find(wl->params, wl->nparams, key) < 0)
				continue;
			used = true;
			if (param_request_apply(&rc->jobs[j].req, wl->name, as,
						err, sizeof(err)) != 0)
				return cli_usage("run", "%s", err);
		}
		if (!used) {
			/* Let the first job's parser word the error. */
			param_request_apply(&rc->jobs[0].req,
					    rc->jobs[0].wl->name, as, err,
					    sizeof(err));
			return cli_usage("run", "%s", err);
		}
	}
	if (rc->verify) {
		for (j = 0; j < rc->njobs; j++) {
			const struct workload *wl = rc->jobs[j].wl;
			int row = param_find_role(wl->params, wl->nparams,
						  PARAM_ROLE_VERIFY);
			char v[64];

			if (!(wl->caps & WL_CAP_VERIFY) || row < 0)
				continue;
			snprintf(v, sizeof(v), "%s=1", wl->params[row].name);
			if (param_request_apply(&rc->jobs[j].req, wl->name, v,
						err, sizeof(err)) != 0)
				return cli_usage("run", "%s", err);
		}
	}
	return 0;
}

/* Copy the value list of `name` from one job's request into another's. */
static int copy_values(const struct job *from, struct job *to,
		       const char *name)
{
	int fi = param_find(from->wl->params, from->wl->nparams, name);
	int ti = param_find(to->wl->params, to->wl->nparams, name);
	char text[64], err[256];
	size_t k;

	if (fi < 0 || ti < 0)
		return -1;
	for (k = 0; k < from->req.nvals[fi]; k++) {
		/* by text: enum choices need not be in the same order */
		param_format_value(&from->wl->params[fi],
				   from->req.vals[fi][k], text, sizeof(text));
		if (param_parse_value(&to->wl->params[ti], text,
				      &to->req.vals[ti][k], err,
				      sizeof(err)) != 0)
			return cli_usage("run", "--explain: %s", err);
	}
	to->req.nvals[ti] = from->req.nvals[fi];
	to->req.user_set[ti] = true;
	return 0;
}

/*
 * --explain: for every pipe.bw job, the same sizes through mem.copy
 * (engine=libc, one copy) and through ring.bw (the same rsize, pipe_size,
 * mode and place), so that explain_results() can place them side by side.
 */
static int add_explain_jobs(struct run_cli *rc)
{
	static const char *const explain_copy_args[] = { "engine=libc",
							 NULL };
	static const char *const ring_keys[] = { "size", "rsize", "pipe_size",
						  "mode", "place" };
	const struct workload *copy = workload_find("mem.copy");
	const struct workload *ring = workload_find("ring.bw");
	size_t j, n = rc->njobs, k, found = 0;
	int e;

	for (j = 0; j < n; j++) {
		const struct job *pj = &rc->jobs[j];
		int io = param_find(pj->wl->params, pj->wl->nparams, "io");
		int rd = param_find(pj->wl->params, pj->wl->nparams, "reader");

		if (strcmp(pj->wl->name, "pipe.bw") != 0)
			continue;
		found++;
		if (pj->req.nvals[io] != 1 || pj->req.vals[io][0] != 0 ||
		    pj->req.nvals[rd] != 1 || pj->req.vals[rd][0] != 0)
			return cli_usage("run", "--explain compares two "
					 "copies: pipe.bw with io=write and "
					 "reader=read only");
		if (!copy || !ring)
			return cli_usage("run", "--explain needs mem.copy "
					 "and ring.bw");
		e = add_job(rc, copy, explain_copy_args);
		if (e)
			return e;
		e = copy_values(pj, &rc->jobs[rc->njobs - 1], "size");
		if (e)
			return e;
		e = add_job(rc, ring, NULL);
		if (e)
			return e;
		for (k = 0; k < sizeof(ring_keys) / sizeof(ring_keys[0]); k++) {
			e = copy_values(pj, &rc->jobs[rc->njobs - 1],
					ring_keys[k]);
			if (e)
				return e;
		}
	}
	if (!found)
		return cli_usage("run", "--explain explains pipe.bw: name it "
				 "(copyscope run pipe.bw --explain)");
	return 0;
}

static int parse_args(struct run_cli *rc, int argc, char **argv)
{
	const char *v;
	int i, missing, e;

	rc->ro.reps = 10;
	rc->ro.sample_time_ns = 100000000;
	rc->ro.warmup_ns = 200000000;
	default_cpus(&rc->ro);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

#define OPT(name) ((v = cli_opt_value(argc, argv, &i, name, &missing)) || \
		   missing)
		if (cli_is_help(a)) {
			run_usage(stdout);
			return -1;
		} else if (OPT("--reps")) {
			if (missing)
				goto no_value;
			e = parse_int_opt("--reps", v, 1, 100000,
					  &rc->ro.reps);
			if (e)
				return e;
			rc->reps_set = true;
		} else if (OPT("--sample-time")) {
			if (missing)
				goto no_value;
			e = parse_time_opt("--sample-time", v, 1000000,
					   60000000000LL,
					   &rc->ro.sample_time_ns);
			if (e)
				return e;
			rc->sample_set = true;
		} else if (OPT("--warmup")) {
			if (missing)
				goto no_value;
			e = parse_time_opt("--warmup", v, 0, 600000000000LL,
					   &rc->ro.warmup_ns);
			if (e)
				return e;
			rc->warmup_set = true;
		} else if (OPT("--tag")) {
			if (missing)
				goto no_value;
			e = cli_check_tag("run", v);
			if (e)
				return e;
			rc->tag = v;
		} else if (OPT("--cpus")) {
			if (missing)
				goto no_value;
			e = parse_cpus(v, &rc->ro);
			if (e)
				return e;
		} else if (OPT("--db")) {
			if (missing)
				goto no_value;
			rc->db = v;
		} else if (strcmp(a, "--quick") == 0) {
			rc->quick = true;
		} else if (OPT("--seed")) {
			char *end;

			if (missing)
				goto no_value;
			errno = 0;
			rc->seed = strtoull(v, &end, 0);
			if (errno || end == v || *end || *v == '-')
				return cli_usage("run", "--seed: '%s' is not a "
						 "non-negative integer", v);
			rc->seed_set = true;
		} else if (strcmp(a, "--interleave") == 0) {
			rc->interleave = true;
		} else if (strcmp(a, "--explain") == 0) {
			rc->explain = true;
		} else if (strcmp(a, "--perf-counters") == 0) {
			rc->perf_counters = true;
		} else if (strcmp(a, "--hist") == 0) {
			rc->ro.hist = true;
		} else if (strcmp(a, "--verify") == 0) {
			rc->verify = true;
		} else if (strcmp(a, "--json") == 0) {
			rc->json = true;
		} else if (strcmp(a, "--no-store") == 0) {
			rc->no_store = true;
		} else if (a[0] == '-') {
			return cli_usage("run", "unknown option '%s'", a);
		} else if (strchr(a, '=')) {
			if (rc->nassign >= sizeof(rc->assign) /
					   sizeof(rc->assign[0]))
				return cli_usage("run", "too many key=value "
						 "arguments");
			rc->assign[rc->nassign++] = a;
		} else {
			e = add_name(rc, a);
			if (e)
				return e;
		}
#undef OPT
	}
	if (rc->njobs == 0) {
		e = add_name(rc, "default");
		if (e)
			return e;
	}
	if (rc->seed_set && !rc->interleave)
		return cli_usage("run", "--seed: only with --interleave");
	if (rc->quick) {
		if (!rc->reps_set)
			rc->ro.reps = 3;
		if (!rc->sample_set)
			rc->ro.sample_time_ns = 10000000;
		if (!rc->warmup_set)
			rc->ro.warmup_ns = 0;
	}
	e = apply_assignments(rc);
	if (e)
		return e;
	return rc->explain ? add_explain_jobs(rc) : 0;
no_value:
	return cli_usage("run", "%s needs a value", argv[i]);
}

/* Sweep sizes and each configuration's validate() before measuring. */
static int check_jobs(struct run_cli *rc)
{
	char err[512];
	size_t j, k;

	for (j = 0; j < rc->njobs; j++) {
		struct job *jb = &rc->jobs[j];

		if (param_request_check(&jb->req, err, sizeof(err)) != 0)
			return cli_usage("run", "%s: %s", jb->wl->name, err);
		if (!jb->wl->validate)
			continue;
		for (k = 0; k < param_request_count(&jb->req); k++) {
			struct param_set ps;
			int e;

			param_request_get(&jb->req, k, &ps);
			e = wl_validate(jb->wl, &ps, err, sizeof(err));
			if (e == WL_EUSAGE)
				return cli_usage("run", "%s: %s",
						 jb->wl->name, err);
			if (e != WL_OK) {
				cli_error("%s: %s", jb->wl->name, err);
				return EXIT_FAIL;
			}
		}
	}
	if (rc->interleave) {
		size_t n = 0;

		for (j = 0; j < rc->njobs; j++)
			n += param_request_count(&rc->jobs[j].req);
		if (n > MAX_INTERLEAVE)
			return cli_usage("run", "--interleave: %zu "
					 "configurations, at most %d can be "
					 "open at once", n, MAX_INTERLEAVE);
	}
	return 0;
}

char *cli_join_cmdline(int argc, char **argv)
{
	size_t len = 16, i;
	char *s;

	for (i = 0; i < (size_t)argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	strcpy(s, "copyscope");
	for (i = 0; i < (size_t)argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/*
 * ro's CPUs in --cpus syntax, ascending runs as ranges ("0-63,65"), in a
 * string the caller frees; NULL when out of memory.
 */
static char *cpus_text(const struct run_opts *ro)
{
	/* an item is at most ",NNNN-NNNN" (CPU_SETSIZE is 1024) */
	char *s = malloc((size_t)ro->ncpus * 12 + 1);
	size_t used = 0;
	int i, j;

	if (!s)
		return NULL;
	s[0] = '\0';
	for (i = 0; i < ro->ncpus; i = j + 1) {
		for (j = i; j + 1 < ro->ncpus &&
			    ro->cpus[j + 1] == ro->cpus[j] + 1; j++)
			;
		used += (size_t)sprintf(s + used, "%s%d", i ? "," : "",
					ro->cpus[i]);
		if (j > i)
			used += (size_t)sprintf(s + used, "-%d", ro->cpus[j]);
	}
	return s;
}

static void env_add_timer(struct env *env, const struct timer_info *ti,
			  const struct run_opts *ro)
{
	char b[256], *cpus;

	env_set(env, "timer.source", ti->source == TIMER_RDPMC ? "rdpmc" :
				     ti->source == TIMER_TSC ? "tsc" :
				     "clock_gettime");
	env_set(env, "timer.unit", ti->unit);
	snprintf(b, sizeof(b), "%.0f", ti->tsc_hz);
	env_set(env, "timer.tsc_hz", b);
	snprintf(b, sizeof(b), "%.1f", ti->overhead_ns);
	env_set(env, "timer.overhead_ns", b);
	env_set(env, "timer.fallback", ti->fallback_note[0] ?
				       ti->fallback_note : "none");
	snprintf(b, sizeof(b), "%d", ro->reps);
	env_set(env, "run.reps", b);
	snprintf(b, sizeof(b), "%lld", (long long)ro->sample_time_ns);
	env_set(env, "run.sample_time_ns", b);
	snprintf(b, sizeof(b), "%lld", (long long)ro->warmup_ns);
	env_set(env, "run.warmup_ns", b);
	cpus = cpus_text(ro);
	env_set(env, "run.cpus", cpus ? cpus : "unavailable");
	free(cpus);
}

static json_t *counter_array(const uint64_t *v, size_t n)
{
	json_t *a;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == SWCOUNT_NA)
			return json_null();
	a = json_array();
	for (i = 0; a && i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

static const char *status_name(enum config_status st)
{
	switch (st) {
	case CONFIG_OK:
		return NULL;
	case CONFIG_INTERRUPTED:
		return "interrupted";
	case CONFIG_VERIFY_FAILED:
		return "verify-failed";
	default:
		return "failed";
	}
}

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* "other,canary" from INTERF_FLAG_* bits ("" for a quiet sample). */
static void flag_text(unsigned f, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", f & INTERF_FLAG_OTHER ? "other" : "",
		 (f & INTERF_FLAG_OTHER) && (f & ~INTERF_FLAG_OTHER) ? "," : "",
		 f & INTERF_FLAG_STEAL ? "steal" : "",
		 (f & INTERF_FLAG_STEAL) && (f & INTERF_FLAG_CANARY) ? "," : "",
		 f & INTERF_FLAG_CANARY ? "canary" : "");
}

/* info.interference: per-sample outside load, steal, canary and flags. */
static json_t *interference_info(const struct config_result *cr)
{
	json_t *o = json_object(), *other = json_array(), *steal = json_array();
	json_t *canary = json_array(), *flagged = json_array();
	json_t *why = json_array();
	size_t k;

	for (k = 0; k < cr->nsamples; k++) {
		char w[32];

		json_array_append_new(other, num_or_null(cr->other_cpu_pct[k]));
		json_array_append_new(steal, num_or_null(cr->steal_pct[k]));
		json_array_append_new(canary, json_real(cr->canary_ns[k]));
		json_array_append_new(flagged,
				      json_boolean(cr->interf_flags[k] != 0));
		flag_text(cr->interf_flags[k], w, sizeof(w));
		json_array_append_new(why, json_string(w));
	}
	json_object_set_new(o, "other_cpu_pct", other);
	json_object_set_new(o, "steal_pct", steal);
	json_object_set_new(o, "canary_ns", canary);
	json_object_set_new(o, "canary_ref_ns", json_real(cr->canary_ref_ns));
	json_object_set_new(o, "flagged", flagged);
	json_object_set_new(o, "why", why);
	return o;
}

static char *config_info(const struct config_result *cr, size_t job)
{
	json_t *info = json_object(), *workers = json_array();
	char *s;
	int w, c;

	for (w = 0; w < cr->nworkers; w++) {
		json_t *cpus = json_array();

		for (c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &cr->cpus_seen[w]))
				json_array_append_new(cpus, json_integer(c));
		json_array_append_new(workers, json_pack("{s:s, s:i, s:o}",
			"name", cr->worker_names[w],
			"cpu_requested", cr->worker_cpu[w], "cpus", cpus));
	}
	json_object_set_new(info, "job", json_integer((json_int_t)job));
	json_object_set_new(info, "batch_ops",
			    json_integer((json_int_t)cr->batch_ops));
	json_object_set_new(info, "workers", workers);
	json_object_set_new(info, "ctx_switches",
			    counter_array(cr->ctx_switches, cr->nsamples));
	json_object_set_new(info, "migrations",
			    counter_array(cr->migrations, cr->nsamples));
	json_object_set_new(info, "faults",
			    counter_array(cr->faults, cr->nsamples));
	json_object_set_new(info, "note", json_string(cr->note));
	if (cr->nsamples && cr->interf_flags)
		json_object_set_new(info, "interference",
				    interference_info(cr));
	{
		json_t *pw = json_array();

		for (w = 0; w < cr->nworkers; w++) {
			const struct histogram *h = cr->worker_hist[w];

			if (!h || !h->total)
				continue;
			json_array_append_new(pw, json_pack(
				"{s:s, s:I, s:f, s:I, s:I, s:I}",
				"name", cr->worker_names[w],
				"ops", (json_int_t)h->total,
				"mean_ns", hist_mean(h),
				"p50_ns", (json_int_t)hist_percentile(h, 50),
				"p99_ns", (json_int_t)hist_percentile(h, 99),
				"max_ns", (json_int_t)h->max_seen));
		}
		if (json_array_size(pw))
			json_object_set_new(info, "per_worker", pw);
		else
			json_decref(pw);
	}
	if (cr->verified)
		json_object_set_new(info, "verify", json_pack("{s:I, s:s}",
			"errors", (json_int_t)cr->verify_errors,
			"report", cr->verify_report));
	if (status_name(cr->status)) {
		json_object_set_new(info, "status",
				    json_string(status_name(cr->status)));
		json_object_set_new(info, "message", json_string(cr->msg));
	}
	s = json_dumps(info, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(info);
	return s;
}

static int add_hist(struct store_result *sr, const struct config_result *cr)
{
	const struct histogram *h = cr->hist;
	json_t *info;
	size_t i, n = 0;

	sr->buckets = calloc(h->nbuckets + 1, sizeof(*sr->buckets));
	if (!sr->buckets)
		return -1;
	for (i = 0; i < h->nbuckets; i++) {
		if (!h->counts[i])
			continue;
		sr->buckets[n].lo = (int64_t)hist_bucket_lo(i);
		sr->buckets[n].hi = (int64_t)hist_bucket_hi(i);
		sr->buckets[n].count = h->counts[i];
		n++;
	}
	if (h->overflow) {
		sr->buckets[n].lo = (int64_t)h->max_value + 1;
		sr->buckets[n].hi = -1;
		sr->buckets[n].count = h->overflow;
		n++;
	}
	sr->nbuckets = n;
	info = json_loads(sr->info_json, 0, NULL);
	if (!info)
		return -1;
	json_object_set_new(info, "hist", json_pack("{s:s, s:I, s:I, s:I, "
		"s:f}", "of", cr->worker_names[cr->hist_worker],
		"ops", (json_int_t)cr->hist_ops,
		"min", (json_int_t)h->min_seen, "max", (json_int_t)h->max_seen,
		"mean", hist_mean(h)));
	free(sr->info_json);
	sr->info_json = json_dumps(info, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(info);
	return sr->info_json ? 0 : -1;
}

struct result_list {
	struct store_result *v;
	size_t n, cap;
	int seq;
};

static struct store_result *result_new(struct result_list *l)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct store_result *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	l->v[l->n].seq = l->seq++;
	return &l->v[l->n++];
}

/* The stored form of one configuration's results; 0 or -1 (ENOMEM). */
static int convert(const struct config_result *cr, size_t job, bool want_hist,
		   struct result_list *out)
{
	const struct workload *wl = cr->wl;
	char *params = param_set_json(wl->params, wl->nparams, &cr->ps);
	char *info = config_info(cr, job);
	bool hist_done = !want_hist || !cr->hist || !cr->hist->total;
	size_t m, hist_metric = 0;
	int rc = -1;

	if (!params || !info)
		goto out;
	/* The histogram goes with the first time-per-op metric. */
	for (m = wl->nmetrics; m-- > 0;)
		if (wl->metrics[m].kind == METRIC_NS_PER_OP ||
		    wl->metrics[m].kind == METRIC_OP_PCT ||
		    wl->metrics[m].kind == METRIC_OP_MEAN)
			hist_metric = m;
	for (m = 0; m < wl->nmetrics && cr->nsamples > 0; m++) {
		struct store_result *sr;
		size_t k, nfinite = 0;

		/*
		 * A per-op percentile of a class with no ops in a sample has
		 * no value (NaN): those samples are left out, and a metric
		 * with none left is not stored.
		 */
		for (k = 0; k < cr->nsamples; k++)
			nfinite += isfinite(cr->values[m][k]) != 0;
		if (nfinite == 0)
			continue;
		sr = result_new(out);
		if (!sr)
			goto out;
		snprintf(sr->workload, sizeof(sr->workload), "%s", wl->name);
		snprintf(sr->metric, sizeof(sr->metric), "%s",
			 wl->metrics[m].name);
		snprintf(sr->unit, sizeof(sr->unit), "%s", cr->units[m]);
		sr->direction = wl->metrics[m].dir;
		sr->params_json = strdup(params);
		sr->info_json = strdup(info);
		sr->samples = calloc(cr->nsamples, sizeof(double));
		if (!sr->params_json || !sr->info_json || !sr->samples)
			goto out;
		for (k = 0; k < cr->nsamples; k++)
			if (isfinite(cr->values[m][k]))
				sr->samples[sr->nsamples++] = cr->values[m][k];
		if (!hist_done && m == hist_metric) {
			if (add_hist(sr, cr) != 0)
				goto out;
			hist_done = true;
		}
	}
	if (cr->ntrace > 0) {
		struct store_result *sr = result_new(out);
		json_t *ti;

		if (!sr)
			goto out;
		snprintf(sr->workload, sizeof(sr->workload), "%s", wl->name);
		snprintf(sr->metric, sizeof(sr->metric), "cold %s",
			 wl->metrics[0].name);
		snprintf(sr->unit, sizeof(sr->unit), "ns");
		sr->direction = METRIC_INFO;
		sr->params_json = strdup(params);
		ti = json_loads(info, 0, NULL);
		if (!ti)
			goto out;
		json_object_set_new(ti, "trace", json_true());
		sr->info_json = json_dumps(ti, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(ti);
		sr->samples = calloc(cr->ntrace, sizeof(double));
		if (!sr->params_json || !sr->info_json || !sr->samples)
			goto out;
		memcpy(sr->samples, cr->trace_ns, cr->ntrace * sizeof(double));
		sr->nsamples = cr->ntrace;
	}
	rc = 0;
out:
	free(params);
	free(info);
	return rc;
}

static void print_preamble(const struct run_cli *rc, int64_t run_id,
			   const struct timer_info *ti)
{
	char st[32], wu[32];

	snprintf(st, sizeof(st), "%.0fms", rc->ro.sample_time_ns / 1e6);
	snprintf(wu, sizeof(wu), "%.0fms", rc->ro.warmup_ns / 1e6);
	if (run_id > 0)
		printf("copyscope run %lld", (long long)run_id);
	else
		printf("copyscope run (not stored)");
	if (rc->tag)
		printf(" [%s]", rc->tag);
	printf(": %d samples of >= %s each after %s warm-up\n",
	       rc->ro.reps, st, wu);
	printf("timer: %s", ti->unit);
	if (ti->source != TIMER_CLOCK_NS)
		printf(" (TSC %.3f GHz)", ti->tsc_hz / 1e9);
	printf(", %.0f ns per read pair; rows: median, ±%%sd, CI\n",
	       ti->overhead_ns);
	if (rc->interleave)
		printf("interleaved: the samples of all configurations in a "
		       "shuffled round-robin\norder, seed %llu\n",
		       (unsigned long long)rc->seed);
	printf("\n");
	fflush(stdout);
}

/* Merge the members of extra (may be NULL) into sr's info JSON. */
static int info_merge(struct store_result *sr, json_t *extra)
{
	json_t *info;

	if (!extra)
		return 0;
	info = json_loads(sr->info_json, 0, NULL);
	if (!info)
		return -1;
	json_object_update(info, extra);
	free(sr->info_json);
	sr->info_json = json_dumps(info, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(info);
	return sr->info_json ? 0 : -1;
}

/* What execute() carries from one configuration to the next. */
struct exec_state {
	struct store *st;
	int64_t run_id;
	struct result_list results;
	int exit_code;
	size_t ran, skipped;
	bool stop;
};

/*
 * After one configuration: convert, add extra to its info, store, count
 * flagged samples, and turn its status into the run's exit code.
 */
static void finish_config(struct run_cli *rc, struct exec_state *es,
			  size_t job, struct config_result *cr,
			  enum config_status cs, json_t *extra)
{
	char err[512];
	size_t r0 = es->results.n, r, k;

	if (cs == CONFIG_UNSUPPORTED) {
		cli_error("%s: skipped: %s", cr->wl->name, cr->msg);
		es->skipped++;
		return;
	}
	es->ran++;
	for (k = 0; cr->interf_flags && k < cr->nsamples; k++) {
		unsigned f = cr->interf_flags[k];

		rc->nsamples++;
		rc->nflagged += f != 0;
		rc->n_other += (f & INTERF_FLAG_OTHER) != 0;
		rc->n_steal += (f & INTERF_FLAG_STEAL) != 0;
		rc->n_canary += (f & INTERF_FLAG_CANARY) != 0;
	}
	if (convert(cr, job, rc->ro.hist, &es->results) != 0) {
		cli_error("out of memory");
		cs = CONFIG_FAILED;
	}
	for (r = r0; r < es->results.n; r++)
		if (info_merge(&es->results.v[r], extra) != 0) {
			cli_error("out of memory");
			cs = CONFIG_FAILED;
		}
	for (r = r0; es->st && r < es->results.n; r++)
		if (store_add_result(es->st, es->run_id, &es->results.v[r],
				     err, sizeof(err)) != 0) {
			cli_error("%s", err);
			es->exit_code = EXIT_FAIL;
			es->stop = true;
		}
	if (cs == CONFIG_INTERRUPTED) {
		es->exit_code = EXIT_INTERRUPTED;
		es->stop = true;
	} else if (cs == CONFIG_USAGE) {
		cli_error("%s", cr->msg);
		es->exit_code = EXIT_USAGE;
		es->stop = true;
	} else if (cs != CONFIG_OK) {
		cli_error("%s", cr->msg);
		if (es->exit_code == EXIT_OK)
			es->exit_code = EXIT_FAIL;
	}
}

static void print_job_tables(const struct run_cli *rc,
			     const struct exec_state *es, size_t first)
{
	if (rc->json || rc->quiet || es->results.n <= first)
		return;
	report_results(stdout, es->results.v + first, es->results.n - first);
	printf("\n");
	fflush(stdout);
}

/* One configuration after another (the default). */
static void run_sequential(struct run_cli *rc, struct exec_state *es)
{
	size_t j, k;

	for (j = 0; j < rc->njobs && !es->stop; j++) {
		struct job *jb = &rc->jobs[j];
		size_t first = es->results.n;

		for (k = 0; k < param_request_count(&jb->req) && !es->stop;
		     k++) {
			struct config_result cr;
			struct param_set ps;
			enum config_status cs;

			param_request_get(&jb->req, k, &ps);
			cs = runner_run_config(jb->wl, &ps, &rc->ro, &cr);
			finish_config(rc, es, j, &cr, cs, NULL);
			config_result_free(&cr);
		}
		print_job_tables(rc, es, first);
	}
}

/* One configuration of an interleaved run. */
struct slot {
	size_t job;
	struct param_set ps;
	struct runner *r;
	struct config_result cr;
	enum config_status cs;
	bool done;		/* finished and stored */
	json_t *order;		/* global index of each kept sample */
};

static size_t total_configs(const struct run_cli *rc)
{
	size_t j, n = 0;

	for (j = 0; j < rc->njobs; j++)
		n += param_request_count(&rc->jobs[j].req);
	return n;
}

static void close_slot(struct run_cli *rc, struct exec_state *es,
		       struct slot *s, json_int_t total)
{
	json_t *extra;

	if (s->done)
		return;
	if (s->r) {
		if (s->cs == CONFIG_OK)
			s->cs = runner_finish(s->r, &s->cr);
		s->cs = runner_close(s->r, &s->cr, s->cs);
		s->r = NULL;
	}
	extra = json_pack("{s:{s:I, s:O, s:I}}", "interleave",
			  "seed", (json_int_t)rc->seed, "order", s->order,
			  "of", total);
	finish_config(rc, es, s->job, &s->cr, s->cs, extra);
	json_decref(extra);
	config_result_free(&s->cr);
	s->done = true;
}

/*
 * --interleave: open every configuration (set up, start workers, size the
 * batch, warm up), then take kept samples round by round, each round in a
 * freshly shuffled order (Fisher-Yates from the seed), so that drift of a
 * noisy machine spreads over all configurations alike.  Each result's
 * info.interleave records the seed and the global index of its samples.
 */
static void run_interleaved(struct run_cli *rc, struct exec_state *es)
{
	size_t n = total_configs(rc), i, j, k, nopen = 0, *perm;
	uint64_t rng = rc->seed;
	json_int_t seq = 0, total;
	struct slot *sl;
	int round;

	if (n == 0)
		return;
	sl = calloc(n, sizeof(*sl));
	perm = calloc(n, sizeof(*perm));
	if (!sl || !perm) {
		cli_error("out of memory");
		es->exit_code = EXIT_FAIL;
		free(sl);
		free(perm);
		return;
	}
	for (j = 0, i = 0; j < rc->njobs; j++)
		for (k = 0; k < param_request_count(&rc->jobs[j].req); k++) {
			sl[i].job = j;
			param_request_get(&rc->jobs[j].req, k, &sl[i].ps);
			sl[i].order = json_array();
			i++;
		}
	total = (json_int_t)n * rc->ro.reps;
	for (i = 0; i < n && !es->stop; i++) {
		sl[i].r = runner_open(rc->jobs[sl[i].job].wl, &sl[i].ps,
				      &rc->ro, &sl[i].cr);
		if (!sl[i].r) {
			sl[i].cs = sl[i].cr.status;
			close_slot(rc, es, &sl[i], total);
		} else {
			sl[i].cs = CONFIG_OK;
			nopen++;
		}
		if (runner_interrupted)
			es->stop = true;
	}
	for (round = 0; round < rc->ro.reps && !es->stop && nopen; round++) {
		size_t m = 0;

		for (i = 0; i < n; i++)
			if (sl[i].r && sl[i].cs == CONFIG_OK)
				perm[m++] = i;
		for (i = m; i > 1; i--) {
			size_t r = (size_t)(((unsigned __int128)
				    stats_rng_next(&rng) * i) >> 64);
			size_t t = perm[i - 1];

			perm[i - 1] = perm[r];
			perm[r] = t;
		}
		for (i = 0; i < m && !es->stop; i++) {
			struct slot *s = &sl[perm[i]];

			s->cs = runner_sample(s->r, &s->cr);
			json_array_append_new(s->order, json_integer(seq++));
			if (s->cs == CONFIG_INTERRUPTED)
				es->stop = true;
		}
	}
	/* finish, close and store in job order (the tables print so) */
	for (j = 0, i = 0; j < rc->njobs; j++) {
		size_t first = es->results.n;

		for (; i < n && sl[i].job == j; i++) {
			if (es->stop && sl[i].r && sl[i].cs == CONFIG_OK)
				sl[i].cs = CONFIG_INTERRUPTED;
			close_slot(rc, es, &sl[i], total);
		}
		print_job_tables(rc, es, first);
	}
	for (i = 0; i < n; i++)
		json_decref(sl[i].order);
	free(sl);
	free(perm);
}

/* The stderr warning of a run whose machine was not quiet. */
static void warn_noisy(const struct run_cli *rc)
{
	char why[160];
	size_t used = 0;

	if (rc->nflagged == 0)
		return;
	why[0] = '\0';
	if (rc->n_other)
		used += (size_t)snprintf(why + used, sizeof(why) - used,
					 "%s%zu with other programs using "
					 "CPU", used ? ", " : "", rc->n_other);
	if (rc->n_steal && used < sizeof(why))
		used += (size_t)snprintf(why + used, sizeof(why) - used,
					 "%s%zu with steal time (host load)",
					 used ? ", " : "", rc->n_steal);
	if (rc->n_canary && used < sizeof(why))
		snprintf(why + used, sizeof(why) - used,
			 "%s%zu with a slow canary (host load or frequency)",
			 used ? ", " : "", rc->n_canary);
	{
		char text[512];

		snprintf(text, sizeof(text), "copyscope: the machine was not "
			 "quiet: %zu of %zu samples flagged (%s). Stop other "
			 "work (top shows it), keep the workers off busy CPUs "
			 "with --cpus, or rerun; 'copyscope compare "
			 "--drop-noisy' leaves flagged samples out.",
			 rc->nflagged, rc->nsamples, why);
		fmt_wrap(stderr, 0, 2, text);
	}
}

/*
 * Measure every configuration of rc's jobs and store them as one run.
 * The tables (unless rc->json or rc->quiet) and the run's JSON (rc->json)
 * go to stdout.  *run_id_out gets the stored run id (0 when not stored).
 * Returns the exit code.
 */
static int execute(struct run_cli *rc, const char *cmdline,
		   int64_t *run_id_out)
{
	struct exec_state es = { 0 };
	struct store_run run;
	struct env env = { 0 };
	struct timer_info ti;
	char path[4096], err[512];
	int e;
	int64_t started_ns = 0;

	memset(&run, 0, sizeof(run));
	*run_id_out = 0;
	es.exit_code = EXIT_OK;
	if (!rc->no_store) {
		e = cli_open_store(rc->db, &es.st, path, sizeof(path));
		if (e)
			return e;
	}
	runner_install_signals();
	swcount_prefer_perf(rc->perf_counters);
	rc->ro.progress = isatty(STDERR_FILENO);
	{
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		started_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
		if (rc->interleave && !rc->seed_set)
			rc->seed = (uint64_t)started_ns;
	}
	/*
	 * The TSC, not rdpmc: a sample's window spans several workers, and
	 * rdpmc counts each thread's own cycles (not the blocked time, not on
	 * one scale), so it cannot give a shared window.  Core cycles need a
	 * second read beside the TSC; until the runner has it, cycles are
	 * tsc-cycles everywhere (see docs/methodology.md).
	 */
	timer_init(false, true, &ti);
	if (env_capture(&env) != 0) {
		cli_error("out of memory capturing the environment");
		e = EXIT_FAIL;
		goto done_early;
	}
	env_add_timer(&env, &ti, &rc->ro);
	if (rc->interleave) {
		char b[32];

		snprintf(b, sizeof(b), "%llu", (unsigned long long)rc->seed);
		env_set(&env, "run.interleave_seed", b);
	}
	if (es.st) {
		snprintf(run.tag, sizeof(run.tag), "%s",
			 rc->tag ? rc->tag : "");
		run.cmdline = strdup(cmdline);
		if (store_begin_run(es.st, &run, &env, err, sizeof(err)) != 0) {
			cli_error("%s", err);
			e = EXIT_FAIL;
			goto done_early;
		}
		es.run_id = run.id;
		*run_id_out = run.id;
	}
	if (!rc->json && !rc->quiet)
		print_preamble(rc, es.st ? run.id : 0, &ti);

	if (rc->interleave)
		run_interleaved(rc, &es);
	else
		run_sequential(rc, &es);
	warn_noisy(rc);
	if (rc->explain && !rc->json && es.exit_code == EXIT_OK) {
		int nb = explain_results(stdout, es.results.v, es.results.n,
					 err, sizeof(err));

		if (nb <= 0)
			cli_error("--explain: %s", err);
		if (nb < 0)
			es.exit_code = EXIT_FAIL;
		printf("\n");
	}
	if (es.exit_code == EXIT_OK && es.ran == 0 && es.skipped > 0)
		es.exit_code = EXIT_NOTHING_RAN;
	if (es.st) {
		const char *status = es.exit_code == EXIT_OK ? "complete" :
				     es.exit_code == EXIT_INTERRUPTED ?
				     "interrupted" : "failed";

		if (store_finish_run(es.st, run.id, status, err,
				     sizeof(err)) != 0) {
			cli_error("%s", err);
			es.exit_code = EXIT_FAIL;
		} else {
			/* the finish time as stored, for --json */
			struct store_run done = { 0 };

			if (store_load_run(es.st, run.id, &done, NULL, NULL,
					   NULL, err, sizeof(err)) == 0)
				run.finished_ns = done.finished_ns;
			free(done.cmdline);
		}
		snprintf(run.status, sizeof(run.status), "%s", status);
	}
	if (rc->json) {
		if (!es.st) {
			/* Not stored: the header still says what ran. */
			const char *h = env_get(&env, "hostname");
			const char *b = env_get(&env, "boot_id");
			const char *v = env_get(&env, "copyscope.version");
			const char *f = env_get(&env,
						"copyscope.build_flavour");
			struct timespec now;

			snprintf(run.tag, sizeof(run.tag), "%s",
				 rc->tag ? rc->tag : "");
			snprintf(run.host, sizeof(run.host), "%s", h ? h : "");
			snprintf(run.boot_id, sizeof(run.boot_id), "%s",
				 b ? b : "");
			snprintf(run.tool_version, sizeof(run.tool_version),
				 "%s", v ? v : "");
			snprintf(run.build_flavour, sizeof(run.build_flavour),
				 "%s", f ? f : "");
			snprintf(run.status, sizeof(run.status), "%s",
				 es.exit_code == EXIT_OK ? "complete" :
				 es.exit_code == EXIT_INTERRUPTED ?
				 "interrupted" : "failed");
			run.started_ns = started_ns;
			clock_gettime(CLOCK_REALTIME, &now);
			run.finished_ns = (int64_t)now.tv_sec * 1000000000 +
					  now.tv_nsec;
			if (!run.cmdline)
				run.cmdline = strdup(cmdline);
		}
		if (report_json(stdout, &run, &env, es.results.v,
				es.results.n) != 0) {
			cli_error("cannot write JSON: %s", strerror(errno));
			es.exit_code = EXIT_FAIL;
		}
	} else if (es.st && !rc->quiet) {
		printf("stored as run %lld in %s\n", (long long)run.id, path);
	}
	if (es.exit_code == EXIT_INTERRUPTED)
		cli_error("interrupted by signal %d: results so far stored "
			  "with status 'interrupted'", (int)runner_signal);
	e = es.exit_code;
done_early:
	store_free_results(es.results.v, es.results.n);
	free(run.cmdline);
	env_free(&env);
	if (es.st)
		store_close(es.st);
	return e;
}

int cmd_run(int argc, char **argv)
{
	struct run_cli *rc = calloc(1, sizeof(*rc));
	char *cmdline;
	int64_t id;
	int e;

	if (!rc) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	e = parse_args(rc, argc, argv);
	if (e) {
		free(rc);
		return e < 0 ? EXIT_OK : e;
	}
	e = check_jobs(rc);
	if (e) {
		free(rc);
		return e;
	}
	cmdline = cli_join_cmdline(argc, argv);
	if (!cmdline) {
		cli_error("out of memory");
		free(rc);
		return EXIT_FAIL;
	}
	e = execute(rc, cmdline, &id);
	free(cmdline);
	free(rc);
	return e;
}

int cli_run_configs(const struct run_spec *spec, int64_t *run_id)
{
	struct run_cli *rc = calloc(1, sizeof(*rc));
	char err[512];
	size_t i, p;
	int e;

	*run_id = 0;
	if (!rc) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	rc->ro.reps = spec->reps > 0 ? spec->reps : 10;
	rc->ro.sample_time_ns = spec->sample_time_ns > 0 ?
				spec->sample_time_ns : 100000000;
	rc->ro.warmup_ns = spec->warmup_ns >= 0 ? spec->warmup_ns
						: 200000000;
	default_cpus(&rc->ro);
	if (spec->cpus && *spec->cpus &&
	    cpu_list(spec->cpus, &rc->ro, err, sizeof(err)) != 0) {
		cli_error("%s; using every allowed CPU", err);
		default_cpus(&rc->ro);
	}
	rc->tag = spec->tag;
	rc->db = spec->db;
	rc->quiet = !spec->print_tables;
	rc->interleave = spec->interleave;
	for (i = 0; i < spec->nconfigs; i++) {
		const struct run_config_spec *c = &spec->configs[i];
		struct job *jb;

		if (rc->njobs >= MAX_JOBS) {
			free(rc);
			return cli_usage("check", "too many configurations "
					 "(at most %d)", MAX_JOBS);
		}
		jb = &rc->jobs[rc->njobs++];
		jb->wl = c->wl;
		if (param_request_init(&jb->req, c->wl->params,
				       c->wl->nparams, err, sizeof(err)) != 0) {
			cli_error("BUG: %s: %s", c->wl->name, err);
			free(rc);
			return EXIT_FAIL;
		}
		for (p = 0; p < c->wl->nparams; p++) {
			jb->req.nvals[p] = 1;
			jb->req.vals[p][0] = c->ps.v[p];
			jb->req.user_set[p] = true;
		}
	}
	e = check_jobs(rc);
	if (!e)
		e = execute(rc, spec->cmdline, run_id);
	free(rc);
	return e;
}
