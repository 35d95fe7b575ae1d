/*
 * ab_session.c - a paired A/B run: the two sides' parameters and kernel
 * settings, the rounds, the precision stopping rule, the analysis (see
 * ab_session.h; the settings' files are session/settings.c).
 */
#include "session/ab_session.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/runner.h"
#include "stats/paired.h"
#include "util/msg.h"

static const char *const side_name[2] = { "A", "B" };

int ab_spec_workload(struct ab_spec *spec, const struct workload *wl,
		     char *err, size_t errlen)
{
	int i;

	spec->wl = wl;
	for (i = 0; i < 2; i++)
		if (param_request_init(&spec->req[i], wl->params,
				       wl->nparams, err, errlen) != 0)
			return -1;
	return 0;
}

void ab_spec_init(struct ab_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	session_spec_init(&spec->session);
	spec->session.ro.stored.sample_time_ns = AB_DEFAULT_SAMPLE_NS;
	spec->session.ro.stored.warmup_ns = AB_DEFAULT_WARMUP_NS;
	spec->session.ro.stored.interleave = true;
	spec->rounds = AB_DEFAULT_ROUNDS;
	spec->max_time_ns = AB_DEFAULT_MAX_NS;
	spec->stats.alpha = 0.05;
	spec->stats.noise_pct = AB_DEFAULT_NOISE_PCT;
	spec->stats.looks = 1;
}

/* Apply one "KEY=VALUE" to req; the key's index into *idx. */
static int apply_one(struct ab_spec *spec, struct param_request *req,
		     const char *text, int *idx, char *err, size_t errlen)
{
	const char *eq = strchr(text, '=');
	char name[64];
	size_t len = eq ? (size_t)(eq - text) : strlen(text);

	if (!eq || len == 0 || len >= sizeof(name)) {
		snprintf(err, errlen, "'%s' is not KEY=VALUE", text);
		return -1;
	}
	memcpy(name, text, len);
	name[len] = '\0';
	if (param_request_apply(req, spec->wl->name, text, err, errlen) != 0)
		return -1;
	*idx = param_find(spec->wl->params, spec->wl->nparams, name);
	if (*idx < 0) {
		snprintf(err, errlen, "unknown parameter '%s' for %s",
			 msg_quote(name),
			 spec->wl->name);
		return -1;
	}
	if (req->nvals[*idx] != 1) {
		snprintf(err, errlen, "%s: %zu values; each side of ab is one "
			 "configuration: give one value", name,
			 req->nvals[*idx]);
		return -1;
	}
	return 0;
}

/* "k=v" for both sides. */
static int apply_common(struct ab_spec *spec, const char *text, char *err,
			size_t errlen)
{
	int idx, s;

	for (s = 0; s < 2; s++)
		if (apply_one(spec, &spec->req[s], text, &idx, err,
			      errlen) != 0)
			return -1;
	if (spec->common_set[idx]) {
		snprintf(err, errlen, "%s is given twice",
			 spec->wl->params[idx].name);
		return -1;
	}
	spec->common_set[idx] = true;
	return 0;
}

int ab_spec_apply(struct ab_spec *spec, int side, const char *text,
		  char *err, size_t errlen)
{
	char buf[1024], *tok, *next;
	int idx;

	if (side < 0)
		return apply_common(spec, text, err, errlen);
	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, "--%c: at most %zu characters",
			 side ? 'b' : 'a', sizeof(buf) - 1);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	/*
	 * "k=v,k=v": a comma starts a new assignment when what follows it
	 * has a '=' before the next comma; otherwise it is a second value
	 * (refused below: a side is one configuration).
	 */
	for (tok = buf; tok && *tok; tok = next) {
		char *c = tok;

		next = NULL;
		while ((c = strchr(c, ',')) != NULL) {
			char *eq = strchr(c + 1, '='), *cm = strchr(c + 1, ',');

			if (eq && (!cm || eq < cm)) {
				*c = '\0';
				next = c + 1;
				break;
			}
			c++;
		}
		if (apply_one(spec, &spec->req[side], tok, &idx, err,
			      errlen) != 0)
			return -1;
		if (spec->side_set[side][idx] || spec->common_set[idx]) {
			snprintf(err, errlen, "%s is given twice for side %s",
				 spec->wl->params[idx].name, side_name[side]);
			return -1;
		}
		spec->side_set[side][idx] = true;
	}
	return 0;
}

int ab_setting_add(struct ab_spec *spec, enum ab_setting_kind kind, int side,
		   const char *text, char *err, size_t errlen)
{
	return ab_settings_add(&spec->settings, kind, side, text, err,
			       errlen);
}

/* side 0, 1: the parameters that side sets; 2: those neither sets. */
static void params_text(const struct ab_spec *spec, int side, char *buf,
			size_t len)
{
	const struct workload *wl = spec->wl;
	int from = side < 2 ? side : 0;	/* the shared values: A's */
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < wl->nparams && o < len; i++) {
		char v[PARAM_TEXT_MAX];
		int n;

		if (side < 2 ? !spec->side_set[side][i] :
		    spec->side_set[0][i] || spec->side_set[1][i])
			continue;
		param_format_value(&wl->params[i], spec->req[from].vals[i][0],
				   v, sizeof(v));
		n = snprintf(buf + o, len - o, "%s%s=%s", o ? " " : "",
			     wl->params[i].name, v);
		if (n < 0)
			break;
		o += (size_t)n;
	}
}

void ab_side_text(const struct ab_spec *spec, int side, char *buf,
		  size_t len)
{
	params_text(spec, side, buf, len);
}

void ab_shared_text(const struct ab_spec *spec, char *buf, size_t len)
{
	params_text(spec, 2, buf, len);
}

int ab_env_add(const struct ab_spec *spec, struct env *env, int looks)
{
	char buf[PARAM_MAX * PARAM_TEXT_MAX], *st;
	int s;

	if (env_set(env, AB_ENV_ROLES, "A B A'"))
		return -1;
	for (s = 0; s < 2; s++) {
		ab_side_text(spec, s, buf, sizeof(buf));
		if (env_set(env, s ? "ab.b" : "ab.a", buf))
			return -1;
		st = ab_settings_text(&spec->settings, s);
		if (!st || (st[0] && env_set(env, s ? "ab.b_settings" :
					     "ab.a_settings", st))) {
			free(st);
			return -1;
		}
		free(st);
	}
	ab_shared_text(spec, buf, sizeof(buf));
	if (env_set(env, "ab.both", buf))
		return -1;
	snprintf(buf, sizeof(buf), "%g", spec->stats.alpha);
	if (env_set(env, "ab.alpha", buf))
		return -1;
	snprintf(buf, sizeof(buf), "%g", spec->stats.noise_pct);
	if (env_set(env, "ab.noise_pct", buf))
		return -1;
	snprintf(buf, sizeof(buf), "%d", looks);
	if (env_set(env, "ab.looks", buf) ||
	    env_set(env, "ab.drop_noisy", spec->stats.drop_noisy ? "1" : "0"))
		return -1;
	snprintf(buf, sizeof(buf), "%g", spec->precision_pct);
	return env_set(env, "ab.precision_pct", buf);
}

/* What the session's hooks carry. */
struct ab_hooks {
	struct ab_spec *spec;
	struct ab_outcome *out;
	int64_t start_ns;
	int max_rounds;
	int looks_planned;	/* K of the Bonferroni correction */
	int next_look;
	int metric;		/* the primary metric's index */
};

static int hook_env(void *arg, struct env *env, uint64_t seed)
{
	const struct ab_hooks *h = arg;

	(void)seed;	/* stored with the run's options */
	return ab_env_add(h->spec, env, h->spec->precision_pct > 0 ?
			  h->looks_planned : 1);
}

static int64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int hook_before(void *arg, size_t config)
{
	struct ab_hooks *h = arg;

	return ab_settings_apply(&h->spec->settings,
				 config == AB_ROLE_B ? 1 : 0);
}

/*
 * --precision: at the planned looks (AB_PRECISION_FIRST_LOOK rounds,
 * then doubling, and the last round), stop when the primary metric's
 * CI at the corrected level is within +-precision_pct and so is the
 * A'/A control's (the verdict needs B's CI to clear the control's, so a
 * narrow B beside a wide control decides nothing), or when the time is
 * up.  precision_reached_pct is the wider of the two.
 */
static bool hook_round(void *arg, int rounds,
		       const struct config_result *const *cr, size_t n)
{
	struct ab_hooks *h = arg;
	struct ab_spec *spec = h->spec;
	double conf, hw, ctl_hw;
	int m = h->metric;

	if (n != AB_NROLES || !cr[0] || !cr[1] || !cr[2])
		return true;
	if (mono_ns() - h->start_ns >= spec->max_time_ns)
		return true;
	if (rounds != h->next_look && rounds != h->max_rounds)
		return false;
	while (h->next_look <= rounds)
		h->next_look *= 2;
	h->out->looks++;
	conf = 1 - spec->stats.alpha / h->looks_planned;
	hw = ab_ci_halfwidth_pct(cr[0]->values[m], cr[1]->values[m],
				 cr[2]->values[m], (size_t)rounds, conf,
				 &ctl_hw);
	if (isfinite(hw) && isfinite(ctl_hw) && ctl_hw > hw)
		hw = ctl_hw;
	h->out->precision_reached_pct = hw;
	if (isfinite(hw) && hw <= spec->precision_pct) {
		h->out->precision_met = true;
		return true;
	}
	return false;
}

/* The rounds' plan for --precision: the most rounds and the looks. */
static void plan_precision(struct ab_spec *spec, struct ab_hooks *h,
			   bool rounds_given)
{
	int64_t per_round = 3 * spec->session.ro.stored.sample_time_ns;
	int64_t most = per_round > 0 ? spec->max_time_ns / per_round : 0;
	int r;

	if (!rounds_given)
		spec->rounds = most > PAIRED_MAX_N ? PAIRED_MAX_N :
			       most < AB_PRECISION_FIRST_LOOK ?
			       AB_PRECISION_FIRST_LOOK : (int)most;
	h->max_rounds = spec->rounds;
	h->next_look = AB_PRECISION_FIRST_LOOK;
	h->looks_planned = 0;
	for (r = AB_PRECISION_FIRST_LOOK; r < h->max_rounds; r *= 2)
		h->looks_planned++;
	h->looks_planned++;	/* the last round */
}

int ab_run(struct ab_spec *spec, struct ab_outcome *out, char *err,
	   size_t errlen)
{
	struct session_job jobs[AB_NROLES];
	struct ab_hooks h = { .spec = spec, .out = out };
	struct session_spec *ss = &spec->session;
	const struct workload *wl = spec->wl;
	int rc, k;
	size_t m;

	memset(out, 0, sizeof(*out));
	out->precision_reached_pct = NAN;
	for (k = 0; k < AB_NROLES; k++) {
		jobs[k].wl = wl;
		jobs[k].req = spec->req[k == AB_ROLE_B ? 1 : 0];
	}
	ss->jobs = jobs;
	ss->njobs = AB_NROLES;
	ss->ro.stored.interleave = true;
	ss->pair_all = true;
	ss->before_config = hook_before;
	ss->add_env = hook_env;
	ss->hook_arg = &h;
	for (m = 0; m < wl->nmetrics && wl->metrics[m].dir == METRIC_INFO;
	     m++)
		;
	h.metric = m < wl->nmetrics ? (int)m : 0;
	if (spec->precision_pct > 0) {
		plan_precision(spec, &h, spec->rounds_given);
		ss->round_done = hook_round;
	}
	ss->ro.stored.reps = spec->rounds;
	rc = session_check(ss, err, errlen);
	if (rc != 0)
		return rc;
	/* a stop asked for from here on is seen by the run, which
	   restores the settings on its way out */
	runner_install_signals();
	if (ab_settings_acquire(&spec->settings, ss->cmdline, err,
				errlen) != 0)
		return 2;
	h.start_ns = mono_ns();
	rc = session_run(ss, &out->session);
	ab_settings_release(&spec->settings);
	out->elapsed_ns = mono_ns() - h.start_ns;
	spec->stats.looks = spec->precision_pct > 0 ? h.looks_planned : 1;
	spec->stats.hint_fresh = ab_could_refresh(&ss->ro.stored);
	if (out->session.run.results.n > 0 &&
	    ab_analyze(out->session.run.results.v, out->session.run.results.n,
		       &spec->stats, &out->analysis, err, errlen) != 0 &&
	    rc == 0)
		rc = 1;
	if (out->session.run.results.n > 0 && ss->ro.stored.kviews) {
		int p = pdiff_ab(out->session.run.results.v,
				 out->session.run.results.n,
				 spec->stats.drop_noisy, &out->pdiff);

		out->profiled = p == 0;
		if (p < 0) {
			snprintf(err, errlen, "the profile diff: %s",
				 strerror(ENOMEM));
			if (rc == 0)
				rc = 1;
		}
	}
	return rc;
}

void ab_spec_free(struct ab_spec *spec)
{
	ab_settings_free(&spec->settings);
}

void ab_outcome_free(struct ab_outcome *out)
{
	pdiff_free(&out->pdiff);
	ab_analysis_free(&out->analysis);
	session_result_free(&out->session);
}
