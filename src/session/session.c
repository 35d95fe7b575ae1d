/*
 * session.c - one run session (see session.h): checking, environment and
 * timer, the stored run, sequential or interleaved scheduling of the
 * configurations, and finishing each one into the results model and the
 * store.
 */
#include "session/session.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/context.h"
#include "runner/hwcount.h"
#include "runner/interference.h"
#include "util/msg.h"
#include "runner/swcount.h"
#include "session/build_results.h"
#include "stats/summary.h"

/* Exit codes (the same as the command line's). */
#define SESSION_OK 0
#define SESSION_FAIL 1
#define SESSION_USAGE 2
#define SESSION_NOTHING_RAN 77
#define SESSION_INTERRUPTED 130

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

void session_spec_init(struct session_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->ro.stored.reps = RUN_DEFAULT_REPS;
	spec->ro.stored.sample_time_ns = RUN_DEFAULT_SAMPLE_NS;
	spec->ro.stored.warmup_ns = RUN_DEFAULT_WARMUP_NS;
	default_cpus(&spec->ro);
}

int session_parse_cpus(const char *v, struct run_opts *ro, char *err,
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
			int k;

			if (a >= CPU_SETSIZE || !CPU_ISSET(a, &allowed)) {
				snprintf(err, errlen, "--cpus: CPU %ld is not "
					 "online or not allowed for this "
					 "process", a);
				return -1;
			}
			for (k = 0; k < ro->ncpus; k++)
				if (ro->cpus[k] == a) {
					snprintf(err, errlen, "--cpus: CPU %ld "
						 "is listed twice in '%s' (each "
						 "CPU once; workers share a "
						 "CPU with place=same)", a, v);
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
		 "2-5)", msg_quote(v));
	return -1;
}

/* ro's CPUs in --cpus syntax, ascending runs as ranges ("0-63,65"). */
static void cpus_text(const struct run_opts *ro, char *s, size_t len)
{
	size_t used = 0;
	int i, j;

	s[0] = '\0';
	for (i = 0; i < ro->ncpus && used < len; i = j + 1) {
		for (j = i; j + 1 < ro->ncpus &&
			    ro->cpus[j + 1] == ro->cpus[j] + 1; j++)
			;
		used += (size_t)snprintf(s + used, len - used, "%s%d",
					 i ? "," : "", ro->cpus[i]);
		if (j > i && used < len)
			used += (size_t)snprintf(s + used, len - used, "-%d",
						 ro->cpus[j]);
	}
}

static size_t total_configs(const struct session_spec *spec)
{
	size_t j, n = 0;

	for (j = 0; j < spec->njobs; j++)
		n += param_request_count(&spec->jobs[j].req);
	return n;
}

int session_check(const struct session_spec *spec, char *err, size_t errlen)
{
	char msg[512];
	size_t j, k, n;

	for (j = 0; j < spec->njobs; j++) {
		const struct session_job *jb = &spec->jobs[j];

		if (param_request_check(&jb->req, msg, sizeof(msg)) != 0) {
			snprintf(err, errlen, "%s: %s", jb->wl->name, msg);
			return SESSION_USAGE;
		}
		if (!jb->wl->validate)
			continue;
		for (k = 0; k < param_request_count(&jb->req); k++) {
			struct param_set ps;
			int e;

			param_request_get(&jb->req, k, &ps);
			e = wl_validate(jb->wl, &ps, msg, sizeof(msg));
			if (e == WL_OK)
				continue;
			snprintf(err, errlen, "%s: %s", jb->wl->name, msg);
			return e == WL_EUSAGE ? SESSION_USAGE : SESSION_FAIL;
		}
	}
	n = total_configs(spec);
	if (spec->ro.stored.interleave && n > SESSION_MAX_INTERLEAVE) {
		snprintf(err, errlen, "--interleave: %zu configurations, at "
			 "most %d can be open at once", n,
			 SESSION_MAX_INTERLEAVE);
		return SESSION_USAGE;
	}
	return SESSION_OK;
}

/* What the scheduling loops carry along. */
struct session {
	const struct session_spec *spec;
	struct session_result *out;
	bool stop;
};

/*
 * After one configuration: into the results model, stored, flagged
 * samples counted, and its status turned into the run's exit code.
 */
static void finish_config(struct session *s, size_t job,
			  struct config_result *cr, enum config_status cs,
			  const struct result_interleave *il)
{
	struct session_result *out = s->out;
	struct result_set *set = &out->run.results;
	size_t r0 = set->n, k;
	char err[512];

	if (cs == CONFIG_UNSUPPORTED) {
		msg_error("%s: skipped: %s", cr->wl->name, cr->msg);
		out->skipped++;
		return;
	}
	out->ran++;
	for (k = 0; cr->interf_flags && k < cr->nsamples; k++) {
		unsigned f = cr->interf_flags[k];

		out->nsamples++;
		out->nflagged += f != 0;
		out->n_other += (f & INTERF_FLAG_OTHER) != 0;
		out->n_steal += (f & INTERF_FLAG_STEAL) != 0;
		out->n_canary += (f & INTERF_FLAG_CANARY) != 0;
		out->n_offcpu += (f & INTERF_FLAG_OFFCPU) != 0;
	}
	if (results_build(cr, (int)job, s->spec->ro.stored.hist, il, set) != 0) {
		msg_error("out of memory");
		cs = CONFIG_FAILED;
	}
	for (k = r0; k < set->n; k++)
		if (set->v[k].withheld) {
			out->nwithheld++;
			break;
		}
	if (s->spec->store && set->n > r0) {
		if (store_add_results(s->spec->store, out->run.info.id,
				      set->v + r0, set->n - r0, err,
				      sizeof(err)) == 0) {
			out->stored += set->n - r0;
		} else {
			msg_error("%s", err);
			out->store_failed = true;
			out->exit_code = SESSION_FAIL;
			s->stop = true;
		}
	}
	if (cs == CONFIG_INTERRUPTED) {
		/* 130 only after a signal: a configuration stopped because
		   the store or another configuration failed keeps the run's
		   failure */
		if (runner_interrupted)
			out->exit_code = SESSION_INTERRUPTED;
		else if (out->exit_code == SESSION_OK)
			out->exit_code = SESSION_FAIL;
		s->stop = true;
	} else if (cs == CONFIG_USAGE) {
		msg_error("%s", cr->msg);
		out->exit_code = SESSION_USAGE;
		s->stop = true;
	} else if (cs != CONFIG_OK) {
		msg_error("%s", cr->msg);
		if (out->exit_code == SESSION_OK)
			out->exit_code = SESSION_FAIL;
	}
}

static void job_done(struct session *s, size_t first)
{
	const struct session_output *o = s->spec->out;
	const struct result_set *set = &s->out->run.results;

	if (o && o->job_done && set->n > first)
		o->job_done(s->spec->out_arg, set->v + first, set->n - first);
}

/* One configuration after another (the default). */
static void run_sequential(struct session *s)
{
	const struct session_spec *spec = s->spec;
	size_t j, k;

	for (j = 0; j < spec->njobs && !s->stop; j++) {
		const struct session_job *jb = &spec->jobs[j];
		size_t first = s->out->run.results.n;

		for (k = 0; k < param_request_count(&jb->req) && !s->stop;
		     k++) {
			struct config_result cr;
			struct param_set ps;
			enum config_status cs;

			param_request_get(&jb->req, k, &ps);
			cs = runner_run_config(jb->wl, &ps, &spec->ro, &cr);
			finish_config(s, j, &cr, cs, NULL);
			config_result_free(&cr);
		}
		job_done(s, first);
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
	int64_t *order;		/* global index of each kept sample */
	size_t norder;
};

static void close_slot(struct session *s, struct slot *sl, int64_t total)
{
	struct result_interleave il = {
		.seed = s->spec->seed, .order = sl->order,
		.norder = sl->norder, .of = total,
	};

	if (sl->done)
		return;
	if (!sl->r && !sl->cr.wl) {
		/* never opened: the run stopped before it got this far */
		sl->done = true;
		return;
	}
	if (sl->r) {
		if (sl->cs == CONFIG_OK)
			sl->cs = runner_finish(sl->r, &sl->cr);
		sl->cs = runner_close(sl->r, &sl->cr, sl->cs);
		sl->r = NULL;
	}
	finish_config(s, sl->job, &sl->cr, sl->cs, &il);
	config_result_free(&sl->cr);
	sl->done = true;
}

/* The caller's hook before a configuration is opened or sampled: false
   when it failed (the run stops as failed). */
static bool before_config(struct session *s, size_t config)
{
	const struct session_spec *spec = s->spec;

	if (!spec->before_config ||
	    spec->before_config(spec->hook_arg, config) == 0)
		return true;
	s->out->exit_code = SESSION_FAIL;
	s->stop = true;
	return false;
}

/* pair_all: configuration `config` failed; the others stop with it. */
static void lose_pair(struct session *s, const struct slot *x, size_t config)
{
	s->stop = true;
	s->out->pair_lost = (int)config;
	snprintf(s->out->pair_lost_why, sizeof(s->out->pair_lost_why), "%s",
		 x->cr.msg[0] ? x->cr.msg : "it failed");
}

/* The caller's hook after a round: true when no more rounds are wanted. */
static bool round_done(struct session *s, const struct slot *sl, size_t n,
		       int rounds)
{
	const struct session_spec *spec = s->spec;
	const struct config_result **cr;
	bool stop;
	size_t i;

	if (!spec->round_done)
		return false;
	cr = calloc(n, sizeof(*cr));	/* NOLINT(bugprone-sizeof-expression) */
	if (!cr)
		return false;
	for (i = 0; i < n; i++)
		cr[i] = sl[i].r ? &sl[i].cr : NULL;
	stop = spec->round_done(spec->hook_arg, rounds, cr, n);
	free(cr);
	return stop;
}

/* Fisher-Yates over perm[0..m-1] from the run's generator. */
static void shuffle(size_t *perm, size_t m, uint64_t *rng)
{
	size_t i;

	for (i = m; i > 1; i--) {
		size_t r = stats_rng_index(rng, i);
		size_t t = perm[i - 1];

		perm[i - 1] = perm[r];
		perm[r] = t;
	}
}

/*
 * --interleave: open every configuration (set up, start workers, size the
 * batch, warm up), then take kept samples round by round, each round in a
 * freshly shuffled order, so that drift of a noisy machine spreads over
 * all configurations alike.  Each configuration records the seed and the
 * global index of its samples.
 */
static void run_interleaved(struct session *s)
{
	const struct session_spec *spec = s->spec;
	size_t n = total_configs(spec), i, j, k, nopen = 0, *perm;
	uint64_t rng = spec->seed;
	int64_t seq = 0, total;
	struct slot *sl;
	int round;

	if (n == 0)
		return;
	sl = calloc(n, sizeof(*sl));
	perm = calloc(n, sizeof(*perm));
	for (i = 0; sl && i < n; i++) {
		sl[i].order = calloc((size_t)spec->ro.stored.reps, sizeof(int64_t));
		if (!sl[i].order)
			break;
	}
	if (!sl || !perm || i < n) {
		msg_error("out of memory");
		s->out->exit_code = SESSION_FAIL;
		goto out;
	}
	for (j = 0, i = 0; j < spec->njobs; j++)
		for (k = 0; k < param_request_count(&spec->jobs[j].req); k++) {
			sl[i].job = j;
			param_request_get(&spec->jobs[j].req, k, &sl[i].ps);
			i++;
		}
	total = (int64_t)n * spec->ro.stored.reps;
	for (i = 0; i < n && !s->stop; i++) {
		if (!before_config(s, i))
			break;
		sl[i].r = runner_open(spec->jobs[sl[i].job].wl, &sl[i].ps,
				      &spec->ro, &sl[i].cr);
		if (!sl[i].r) {
			sl[i].cs = sl[i].cr.status;
			close_slot(s, &sl[i], total);
		} else {
			sl[i].cs = CONFIG_OK;
			nopen++;
		}
		if (runner_interrupted)
			s->stop = true;
	}
	for (round = 0; round < spec->ro.stored.reps && !s->stop && nopen; round++) {
		size_t m = 0;

		for (i = 0; i < n; i++)
			if (sl[i].r && sl[i].cs == CONFIG_OK)
				perm[m++] = i;
		shuffle(perm, m, &rng);
		for (i = 0; i < m && !s->stop; i++) {
			struct slot *x = &sl[perm[i]];

			if (!before_config(s, perm[i]))
				break;
			x->cs = runner_sample(x->r, &x->cr);
			x->order[x->norder++] = seq++;
			if (x->cs == CONFIG_INTERRUPTED)
				s->stop = true;
			else if (x->cs != CONFIG_OK && spec->pair_all)
				lose_pair(s, x, perm[i]);
		}
		if (!s->stop && round_done(s, sl, n, round + 1))
			break;
	}
	/* finish, close and store in job order (the tables print so) */
	for (j = 0, i = 0; j < spec->njobs; j++) {
		size_t first = s->out->run.results.n;

		for (; i < n && sl[i].job == j; i++) {
			if (s->stop && sl[i].r && sl[i].cs == CONFIG_OK)
				sl[i].cs = CONFIG_INTERRUPTED;
			close_slot(s, &sl[i], total);
		}
		job_done(s, first);
	}
out:
	for (i = 0; sl && i < n; i++)
		free(sl[i].order);
	free(sl);
	free(perm);
}

static int64_t realtime_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static void env_add_timer(struct env *env, const struct timer_info *ti)
{
	char b[64];

	env_set(env, "timer.source", ti->source == TIMER_RDPMC ? "rdpmc" :
				     ti->source == TIMER_TSC ? "tsc" :
				     ti->source == TIMER_CNTVCT ? "cntvct" :
				     "clock_gettime");
	env_set(env, "timer.unit", ti->unit);
	snprintf(b, sizeof(b), "%.0f", ti->tsc_hz);
	env_set(env, "timer.tsc_hz", b);
	snprintf(b, sizeof(b), "%.1f", ti->overhead_ns);
	env_set(env, "timer.overhead_ns", b);
	env_set(env, "timer.fallback", ti->fallback_note[0] ?
				       ti->fallback_note : "none");
	env_set(env, "timer.cycles", ti->cycles);
}

/* The run's identity and options, before it is stored. */
static void fill_info(const struct session_spec *spec, struct run_info *ri,
		      const struct env *env, uint64_t seed)
{
	struct run_options *o = &ri->opts;
	const char *v;

	snprintf(ri->tag, sizeof(ri->tag), "%s", spec->tag ? spec->tag : "");
	snprintf(ri->group_id, sizeof(ri->group_id), "%s",
		 spec->group_id ? spec->group_id : "");
	ri->cmdline = strdup(spec->cmdline ? spec->cmdline : "copyscope");
	ri->started_ns = realtime_ns();
	if ((v = env_get(env, "hostname")))
		snprintf(ri->host, sizeof(ri->host), "%s", v);
	if ((v = env_get(env, "boot_id")))
		snprintf(ri->boot_id, sizeof(ri->boot_id), "%s", v);
	if ((v = env_get(env, "copyscope.version")))
		snprintf(ri->tool_version, sizeof(ri->tool_version), "%s", v);
	if ((v = env_get(env, "copyscope.build_flavour")))
		snprintf(ri->build_flavour, sizeof(ri->build_flavour), "%s",
			 v);
	if ((v = env_get(env, "kernel.release")))
		snprintf(ri->kernel, sizeof(ri->kernel), "%s", v);
	snprintf(ri->status, sizeof(ri->status), "running");
	ri->pid = (int64_t)getpid();
	ri->have_options = true;
	*o = spec->ro.stored;
	cpus_text(&spec->ro, o->cpus, sizeof(o->cpus));
	o->interleave_seed = o->interleave ? seed : 0;
}

static const char *status_of(int exit_code)
{
	return exit_code == SESSION_OK ? "complete" :
	       exit_code == SESSION_INTERRUPTED ? "interrupted" : "failed";
}

int session_run(const struct session_spec *spec, struct session_result *out)
{
	struct session s = { .spec = spec, .out = out };
	struct session_spec sp = *spec;
	struct timer_info ti;
	struct hwcount_probe hw;
	char err[512];

	memset(out, 0, sizeof(*out));
	out->pair_lost = -1;
	result_set_init(&out->run.results);
	out->planned = total_configs(spec);
	runner_install_signals();
	swcount_prefer_perf(spec->ro.stored.perf_counters);
	/* --hw-counters: what the PMU has here, for every worker to open */
	memset(&hw, 0, sizeof(hw));
	if (spec->ro.stored.hw_counters)
		hwcount_probe(&hw);
	hwcount_use(spec->ro.stored.hw_counters ? &hw : NULL);
	sp.ro.progress = isatty(STDERR_FILENO);
	if (sp.ro.stored.interleave && !sp.seed_set)
		sp.seed = (uint64_t)realtime_ns();
	s.spec = &sp;
	/*
	 * The TSC, not rdpmc: a sample's window spans several workers, and
	 * rdpmc counts each thread's own cycles (not the blocked time, not on
	 * one scale), so it cannot give a shared window.  Core cycles need a
	 * second read beside the TSC; until the runner has it, cycles are
	 * tsc-cycles everywhere (see docs/methodology.md).
	 */
	timer_init(false, true, &ti);
	if (env_capture(&out->run.env) != 0) {
		msg_error("out of memory capturing the environment");
		out->exit_code = SESSION_FAIL;
		return out->exit_code;
	}
	env_add_timer(&out->run.env, &ti);
	/* the IRQs that may land where the workers are pinned (--cpus) */
	if (env_add_irq(&out->run.env, sp.ro.cpus, sp.ro.ncpus) != 0 ||
	    (sp.ro.stored.hw_counters &&
	     hwcount_env(&hw, &out->run.env) != 0) ||
	    (sp.ro.stored.kviews && sp.kernel_backend &&
	     kernel_backend_add_env(sp.kernel_backend, &out->run.env) != 0) ||
	    (sp.replayed && sp.replayed[0] &&
	     env_set(&out->run.env, "replay.observation",
		     sp.replayed) != 0) ||
	    (sp.add_env && sp.add_env(sp.hook_arg, &out->run.env,
				      sp.seed))) {
		msg_error("out of memory adding to the environment");
		out->exit_code = SESSION_FAIL;
		return out->exit_code;
	}
	fill_info(&sp, &out->run.info, &out->run.env, sp.seed);
	if (sp.store && store_begin_run(sp.store, &out->run.info,
					&out->run.env, err,
					sizeof(err)) != 0) {
		msg_error("%s", err);
		out->exit_code = SESSION_FAIL;
		return out->exit_code;
	}
	if (sp.out && sp.out->begin) {
		struct session_clock clk = {
			.unit = ti.unit, .tsc = ti.source != TIMER_CLOCK_NS,
			.tsc_hz = ti.tsc_hz, .overhead_ns = ti.overhead_ns,
		};

		timer_counter_text(&ti, clk.counter, sizeof(clk.counter));
		if (ti.source == TIMER_CNTVCT)
			snprintf(clk.cycles, sizeof(clk.cycles), "%s",
				 ti.cycles);
		sp.out->begin(sp.out_arg, &out->run.info, &out->run.env,
			      &clk);
	}
	if (sp.ro.stored.interleave)
		run_interleaved(&s);
	else
		run_sequential(&s);
	if (out->exit_code == SESSION_OK && out->ran == 0 && out->skipped > 0)
		out->exit_code = SESSION_NOTHING_RAN;
	/* a stop asked for after the last sample (while storing): the run
	   is whole, but it was interrupted all the same */
	if (runner_interrupted && (out->exit_code == SESSION_OK ||
				   out->exit_code == SESSION_NOTHING_RAN))
		out->exit_code = SESSION_INTERRUPTED;
	out->signal = (int)runner_signal;
	snprintf(out->run.info.status, sizeof(out->run.info.status), "%s",
		 status_of(out->exit_code));
	out->run.info.finished_ns = realtime_ns();
	if (sp.store && store_finish_run(sp.store, out->run.info.id,
					 out->run.info.status,
					 out->run.info.finished_ns, err,
					 sizeof(err)) != 0) {
		msg_error("%s", err);
		out->store_failed = true;
		out->exit_code = SESSION_FAIL;
	} else if (sp.store && store_check_stored(sp.store,
						  out->run.info.uuid,
						  out->stored, err,
						  sizeof(err)) != 0) {
		/* "stored" would be a lie: the caller keeps it elsewhere */
		msg_error("%s", err);
		out->store_lost = true;
		out->exit_code = SESSION_FAIL;
	}
	out->run.info.nresults = (int)out->run.results.n;
	return out->exit_code;
}

void session_result_free(struct session_result *out)
{
	run_data_free(&out->run);
}
