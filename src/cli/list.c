/*
 * list.c - `copyscope list [PATTERN]`: workloads with what one op is,
 * their parameters (type, default, range) and metrics, and the suites
 * (printed by report/list_print.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "report/list_print.h"
#include "session/run_plan.h"

static void list_usage(FILE *out, const struct opt_cmd *c)
{
	(void)c;
	fprintf(out,
"usage: copyscope list [PATTERN]\n"
"\n"
"Lists workloads (their parameters with defaults and ranges, and their\n"
"metrics) and suites.  PATTERN is a shell glob or a prefix: 'pipe',\n"
"'sys.*'.  Workloads that cannot run here say why.\n");
}

static const struct opt_cmd list_cmd = {
	.name = "list", .max_pos = 1, .pos = OPT_C_NAMES, .usage = list_usage,
};

int cmd_list(int argc, char **argv)
{
	const struct workload *const *wls;
	const struct suite *const *suites;
	struct opt_result res;
	const char *pattern;
	size_t nwl, ns;
	int e;

	e = opt_parse(&list_cmd, argc, argv, NULL, &res);
	if (e)
		return e < 0 ? EXIT_OK : e;
	pattern = res.npos ? res.pos[0] : NULL;
	wls = run_plan_workloads(&nwl);
	suites = run_plan_suites(&ns);
	if (report_list(stdout, pattern, wls, nwl, suites, ns) == 0) {
		cli_error("nothing matches '%s'", msg_quote(pattern));
		opt_result_free(&res);
		return EXIT_USAGE;
	}
	opt_result_free(&res);
	return EXIT_OK;
}
