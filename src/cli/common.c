/*
 * common.c - helpers the subcommands share (see cli.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <unistd.h>
#include <errno.h>
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

/* The database path: --db, $COPYSCOPE_DB or the default; *named when the
   user chose it.  Returns 0, or the exit code after printing why. */
static int resolve_db(const char *db_opt, char *path, size_t pathlen,
		      int *named)
{
	const char *env_db = getenv("COPYSCOPE_DB");

	*named = 1;
	if (db_opt) {
		snprintf(path, pathlen, "%s", db_opt);
	} else if (env_db && *env_db) {
		snprintf(path, pathlen, "%s", env_db);
	} else {
		*named = 0;
		if (store_default_path(path, pathlen) != 0) {
			cli_error("no database path: set HOME, "
				  "XDG_DATA_HOME or COPYSCOPE_DB, or pass --db");
			return EXIT_USAGE;
		}
	}
	return 0;
}

static int open_at(const char *db_opt, int named, struct store **st,
		   const char *path)
{
	char err[512];

	if (store_open(path, st, err, sizeof(err)) != 0) {
		cli_error("%s%s", err,
			  db_opt ? " (from --db)" :
			  named ? " (from COPYSCOPE_DB)" : "");
		return named ? EXIT_USAGE : EXIT_FAIL;
	}
	return 0;
}

int cli_open_store(const char *db_opt, struct store **st, char *path,
		   size_t pathlen)
{
	int named, e = resolve_db(db_opt, path, pathlen, &named);

	return e ? e : open_at(db_opt, named, st, path);
}

int cli_open_existing_store(const char *db_opt, struct store **st,
			    char *path, size_t pathlen, bool *absent)
{
	int named, e = resolve_db(db_opt, path, pathlen, &named);

	if (e)
		return e;
	if (absent)
		*absent = false;
	if (access(path, F_OK) != 0 && errno == ENOENT) {
		/* only the default path may be absent: a named one that is
		   not there is most likely a typo */
		if (absent && !named) {
			*absent = true;
			return 0;
		}
		cli_error("no database at '%s'%s: nothing has been stored "
			  "there ('copyscope run' creates it)", path,
			  db_opt ? " (from --db)" :
			  named ? " (from COPYSCOPE_DB)" : "");
		return EXIT_USAGE;
	}
	return open_at(db_opt, named, st, path);
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
