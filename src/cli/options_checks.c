/*
 * options_checks.c - the value checks option rows name (options.h):
 * a tag, a CPU list, an --ignore-param key.
 */
#include "cli/cli.h"
#include "cli/options.h"
#include "session/session.h"
#include "core/param.h"

int opt_check_tag(const char *cmd, const struct opt_row *r, const char *v,
		  void *dest)
{
	int e = cli_check_tag(cmd, v);

	(void)r;
	if (!e)
		*(const char **)dest = v;
	return e;
}

int opt_check_cpus(const char *cmd, const struct opt_row *r, const char *v,
		   void *dest)
{
	char err[256];

	(void)r;
	if (session_parse_cpus(v, dest, err, sizeof(err)) != 0)
		return cli_usage(cmd, "%s", err);
	return 0;
}

int opt_check_ignore(const char *cmd, const struct opt_row *r,
		     const char *v, void *dest)
{
	(void)r;
	return cmp_ignore_add(cmd, dest, v);
}
