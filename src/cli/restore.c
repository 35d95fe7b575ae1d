/*
 * restore.c - `copyscope restore`: kernel settings that an ab left
 * changed when it died (kill -9, a crash, a power cut of the process)
 * written back from their journals now (session/settings.h), and said.
 * Every other command does the same first; this one does only that, and
 * says when there was nothing to restore.
 */
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "session/settings.h"

static void restore_usage(FILE *out, const struct opt_cmd *c)
{
	(void)c;
	fprintf(out,
"\nab journals each kernel setting it changes (under /run/copyscope, or\n"
"$COPYSCOPE_RUN_DIR) before the first change.  A journal whose owner is\n"
"gone was left by an ab that died: restore writes its original back and\n"
"says so, one line per setting (a journal of an earlier boot is dropped:\n"
"the kernel started afresh).  Every copyscope command does this first;\n"
"restore does only this.  Exit 0, also when there was nothing to\n"
"restore (it says so); 2 when not root.\n");
}

static const struct opt_cmd restore_cmd = {
	.name = "restore", .max_pos = 0, .usage = restore_usage,
	.synopsis = OPT_SYNOPSIS(""),
};

const struct opt_cmd *cli_restore_options(void)
{
	return &restore_cmd;
}

int cmd_restore(int argc, char **argv)
{
	struct opt_result res;
	int e = opt_parse(&restore_cmd, argc, argv, NULL, &res), n;

	if (e)
		return e < 0 ? EXIT_OK : e;
	opt_result_free(&res);
	n = ab_settings_recover();
	if (n > 0)
		printf("restored %d setting%s left changed by an ab that "
		       "died (see above)\n", n, n == 1 ? "" : "s");
	else if (geteuid() != 0)
		return cli_usage("restore", "not root: kernel settings are "
				 "written back by root (run it as root)");
	else
		printf("nothing to restore: no journal left by an ab that "
		       "died\n");
	return EXIT_OK;
}
