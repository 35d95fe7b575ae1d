/*
 * env_now.c - the environment a run would store now (see env_now.h).
 */
#include <stdio.h>

#include "runner/timer.h"
#include "session/env_now.h"

int session_env_now(struct env *env)
{
	struct timer_info ti;
	char b[64];

	if (env_capture(env) != 0)
		return -1;
	timer_init(false, false, &ti);	/* what run uses: see cli/run.c */
	env_set(env, "timer.unit", ti.unit);
	snprintf(b, sizeof(b), "%.0f", ti.tsc_hz);
	env_set(env, "timer.tsc_hz", b);
	snprintf(b, sizeof(b), "%.1f", ti.overhead_ns);
	env_set(env, "timer.overhead_ns", b);
	env_set(env, "timer.fallback", ti.fallback_note[0] ?
					ti.fallback_note : "none");
	env_set(env, "timer.cycles", ti.cycles);
	return 0;
}

void session_env_free(struct env *env)
{
	env_free(env);
}
