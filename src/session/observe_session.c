/*
 * observe_session.c - `copyscope observe` end to end
 * (session/observe_session.h): the environment, the kernel side, the store; and an observation read back
 * as the mix of a replay.
 *
 * An observation is stored as a run: its row says when, where (host,
 * boot), by which copyscope and with which command line; the
 * environment table holds the host's environment as for any run; the
 * observations table holds what was seen.  It has no results, so
 * compare and check find nothing to judge in it, while runs, show,
 * export, import and push carry it like any run.
 */
#include "session/observe_session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "env/env.h"

static int64_t realtime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The run row, environment and observation stored; 0 or 1 (err). */
static int store_it(const struct session_observe *so, struct run_data *run,
		    char *err, size_t errlen)
{
	/* stopped by a signal before its duration: what was seen is kept,
	   as interrupted */
	const char *status = so->rq.stop && *so->rq.stop ? "interrupted" :
		"complete";
	int64_t finished = run->info.finished_ns;

	if (store_begin_run(so->store, &run->info, &run->env, err, errlen))
		return 1;
	if (store_add_observation(so->store, run->info.id, run->observation,
				  err, errlen)) {
		char e2[256];

		store_finish_run(so->store, run->info.id, "failed", finished,
				 e2, sizeof(e2));
		return 1;
	}
	if (store_finish_run(so->store, run->info.id, status, finished, err,
			     errlen))
		return 1;
	snprintf(run->info.status, sizeof(run->info.status), "%s", status);
	/* as run does: the file still the one opened, the run reads back */
	if (store_check_stored(so->store, run->info.uuid, 0, err, errlen))
		return 1;
	return 0;
}

int session_observe(const struct session_observe *so, struct run_data *run,
		    struct observation *obs, char *err, size_t errlen)
{
	json_t *j;
	int rc;

	memset(run, 0, sizeof(*run));
	result_set_init(&run->results);
	memset(obs, 0, sizeof(*obs));
	if (env_capture(&run->env) != 0) {
		snprintf(err, errlen, "cannot capture the environment: %s",
			 strerror(errno));
		return 1;
	}
	run->info.started_ns = realtime_ns();
	run->info.pid = getpid();
	snprintf(run->info.tag, sizeof(run->info.tag), "%s",
		 so->tag ? so->tag : "");
	rc = kobserve_run(&so->rq, obs, err, errlen);
	run->info.finished_ns = realtime_ns();
	if (rc)
		return rc == 77 ? 77 : 1;
	j = observation_to_json(obs);
	run->observation = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) :
		NULL;
	json_decref(j);
	if (so->cmdline)
		run->info.cmdline = strdup(so->cmdline);
	if (!run->observation || (so->cmdline && !run->info.cmdline)) {
		snprintf(err, errlen, "observe: %s", strerror(ENOMEM));
		return 1;
	}
	if (!so->store)
		return 0;
	return store_it(so, run, err, errlen) ? OBSERVE_NOT_STORED : 0;
}

/* "ID (HOST, YYYY-MM-DD HH:MM UTC, COMM)" of the observation replayed. */
static void about_replay(const struct run_info *ri, const char *comm,
			 char *about)
{
	time_t t = (time_t)(ri->started_ns / 1000000000LL);
	char when[32] = "an unknown date";
	struct tm tm;

	if (ri->started_ns > 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	snprintf(about, SESSION_REPLAY_ABOUT, "%lld (%s, %s, %s%s)",
		 (long long)ri->id, ri->host[0] ? ri->host : "unknown host",
		 when, comm ? "comm " : "every comm", comm ? comm : "");
}

int session_observed_mix(struct store *st, const char *spec, char *mix,
			 size_t len, char *replayed, size_t rlen, char *about,
			 char *err, size_t errlen)
{
	struct run_data run;
	struct observation o;
	const char *comm = strchr(spec, '/');
	char *end, why[256];
	long long id;
	int rc;

	errno = 0;
	id = strtoll(spec, &end, 10);
	if (errno || end == spec || id <= 0 || (*end && end != comm)) {
		snprintf(err, errlen, "mix=observed:%s: not an observation's "
			 "run id (observed:ID or observed:ID/COMM)", spec);
		return 2;
	}
	if (comm)
		comm++;
	rc = store_load_run(st, id, &run, why, sizeof(why));
	if (rc < 0) {
		snprintf(err, errlen, "%s", why);
		return 1;
	}
	if (rc > 0 || !run.observation) {
		snprintf(err, errlen, "mix=observed:%s: run %lld %s", spec,
			 id, rc > 0 ? "does not exist" :
			 "is not an observation ('copyscope observe' makes "
			 "them)");
		if (rc == 0)
			run_data_free(&run);
		return 2;
	}
	rc = observation_from_text(run.observation, &o, why, sizeof(why));
	if (rc == 0)
		rc = observation_mix_text(&o, comm, mix, len, why,
					  sizeof(why));
	if (rc == 0) {
		snprintf(replayed, rlen, "%lld %s%s%s", id, run.info.uuid,
			 comm ? " " : "", comm ? comm : "");
		uint64_t big = observation_mix_clamped(&o, comm);

		about_replay(&run.info, comm, about);
		/* writes the replay cannot make as large are said */
		if (big)
			snprintf(about + strlen(about),
				 SESSION_REPLAY_ABOUT - strlen(about),
				 "; %llu writes of 1 MiB or more replayed as "
				 "512 KiB..1 MiB, pipe.mix's largest",
				 (unsigned long long)big);
	} else
		snprintf(err, errlen, "mix=observed:%s: %s", spec, why);
	observation_free(&o);
	run_data_free(&run);
	return rc ? 2 : 0;
}
