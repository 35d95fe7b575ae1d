/*
 * common.c - helpers the subcommands share (see cli.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "copyscope: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "copyscope %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'copyscope %s --help')\n", cmd);
	return EXIT_USAGE;
}

int cli_check_tag(const char *cmd, const char *tag)
{
	const char *p = tag;

	if (!*tag || strlen(tag) > 100)
		return cli_usage(cmd, "--tag: 1 to 100 characters");
	while (*p >= '0' && *p <= '9')
		p++;
	if (!*p || strcmp(tag, "last") == 0 || strchr(tag, ','))
		return cli_usage(cmd, "--tag: '%s' could not be selected by "
				 "compare or check (a number is a run id, "
				 "'last' the last run, ',' separates a list)",
				 tag);
	return 0;
}

int cli_is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int cli_open_store(const char *db_opt, struct store **st, char *path,
		   size_t pathlen)
{
	const char *env_db = getenv("COPYSCOPE_DB");
	char err[512];
	int named = 1;

	if (db_opt) {
		snprintf(path, pathlen, "%s", db_opt);
	} else if (env_db && *env_db) {
		snprintf(path, pathlen, "%s", env_db);
	} else {
		named = 0;
		if (store_default_path(path, pathlen) != 0) {
			cli_error("no database path: set HOME, "
				  "XDG_DATA_HOME or COPYSCOPE_DB, or pass --db");
			return EXIT_USAGE;
		}
	}
	if (store_open(path, st, err, sizeof(err)) != 0) {
		cli_error("%s%s", err,
			  db_opt ? " (from --db)" :
			  named ? " (from COPYSCOPE_DB)" : "");
		return named ? EXIT_USAGE : EXIT_FAIL;
	}
	return 0;
}

const char *cli_opt_value(int argc, char **argv, int *i, const char *name,
			  int *missing)
{
	const char *a = argv[*i];
	size_t len = strlen(name);

	*missing = 0;
	if (strncmp(a, name, len) != 0)
		return NULL;
	if (a[len] == '=')
		return a + len + 1;
	if (a[len] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	(*i)++;
	return argv[*i];
}
