/*
 * env_now.h - the environment a run would store now (env_now.c), for
 * `copyscope env`: what env_capture() reads, and the clock a run would
 * use.
 */
#ifndef COPYSCOPE_SESSION_ENV_NOW_H
#define COPYSCOPE_SESSION_ENV_NOW_H

#include "env/env.h"

/*
 * Capture the environment into env (zeroed by the caller) with the
 * clock's keys (timer.unit, timer.tsc_hz, timer.overhead_ns,
 * timer.fallback) as run chooses it.  Returns 0, or -1 when out of
 * memory.  Free env with env_free() (session_env_free()).
 */
int session_env_now(struct env *env);
void session_env_free(struct env *env);

#endif
