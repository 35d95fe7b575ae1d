/*
 * env.c - `copyscope env`: the environment as a run would store it,
 * including the clock that would be used.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "runner/timer.h"
#include "env/env.h"

static void env_usage(FILE *out, const struct opt_cmd *c)
{
	(void)c;
	fprintf(out, "\nPrints the environment that "
		"every run stores: kernel, CPU, mitigations,\nsettings that "
		"matter to copies, and the clock copyscope would use.\n");
}

static const struct opt_cmd env_cmd = {
	.name = "env", .max_pos = 0, .usage = env_usage,
	.synopsis = OPT_SYNOPSIS(""),
};

const struct opt_cmd *cli_env_options(void)
{
	return &env_cmd;
}

int cmd_env(int argc, char **argv)
{
	struct timer_info ti;
	struct env env = { 0 };
	char b[64];

	struct opt_result res;
	int e = opt_parse(&env_cmd, argc, argv, NULL, &res);

	if (e)
		return e < 0 ? EXIT_OK : e;
	opt_result_free(&res);
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
