/*
 * env.c - `copyscope env`: the environment as a run would store it,
 * including the clock that would be used.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "runner/timer.h"
#include "env/env.h"

int cmd_env(int argc, char **argv)
{
	struct timer_info ti;
	struct env env = { 0 };
	char b[64];

	if (argc > 1) {
		if (cli_is_help(argv[1])) {
			printf("usage: copyscope env\n\nPrints the "
			       "environment that every run stores: kernel, "
			       "CPU, mitigations,\nsettings that matter to "
			       "copies, and the clock copyscope would use.\n");
			return EXIT_OK;
		}
		return cli_usage("env", "unknown argument '%s'", argv[1]);
	}
	if (env_capture(&env) != 0) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	timer_init(false, false, &ti);	/* what run uses: see run.c */
	env_set(&env, "timer.unit", ti.unit);
	snprintf(b, sizeof(b), "%.0f", ti.tsc_hz);
	env_set(&env, "timer.tsc_hz", b);
	snprintf(b, sizeof(b), "%.1f", ti.overhead_ns);
	env_set(&env, "timer.overhead_ns", b);
	env_set(&env, "timer.fallback", ti.fallback_note[0] ?
					ti.fallback_note : "none");
	env_print(&env, stdout);
	env_free(&env);
	return EXIT_OK;
}
