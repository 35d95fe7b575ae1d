/*
 * env.c - `copyscope env`: the environment as a run would store it,
 * including the clock that would be used.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "report/show_print.h"
#include "session/env_now.h"

static void env_usage(FILE *out, const struct opt_cmd *c)
{
	(void)c;
	fprintf(out, "usage: copyscope env\n\nPrints the environment that "
		"every run stores: kernel, CPU, mitigations,\nsettings that "
		"matter to copies, and the clock copyscope would use.\n");
}

static const struct opt_cmd env_cmd = {
	.name = "env", .max_pos = 0, .usage = env_usage,
};

int cmd_env(int argc, char **argv)
{
	struct env env = { 0 };
	struct opt_result res;
	int e = opt_parse(&env_cmd, argc, argv, NULL, &res);

	if (e)
		return e < 0 ? EXIT_OK : e;
	opt_result_free(&res);
	if (session_env_now(&env) != 0) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	report_show_env(stdout, &env);
	session_env_free(&env);
	return EXIT_OK;
}
