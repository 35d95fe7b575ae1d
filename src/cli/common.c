/*
 * common.c - helpers the subcommands share (see cli.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <unistd.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "report/comparison_print.h"
#include "util/msg.h"
#include "core/param.h"
#include "results/codec.h"
#include "results/exchange.h"
#include "session/compare_session.h"
#include "session/lost_run.h"
#include "report/format.h"
#include "report/notes.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_verror(fmt, ap);
	va_end(ap);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "copyscope %s: ", cmd);
	va_start(ap, fmt);
	msg_vprint(stderr, "", fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'copyscope %s --help')\n", cmd);
	return EXIT_USAGE;
}

int cli_tag_problem(const char *tag, char *why, size_t len)
{
	char *clean;
	bool same;

	if (!*tag || strlen(tag) > 100) {
		snprintf(why, len, "1 to 100 characters");
		return 1;
	}
	clean = codec_clean_text(tag, true);
	if (!clean) {
		snprintf(why, len, "%s", strerror(ENOMEM));
		return -1;
	}
	same = strcmp(clean, tag) == 0;
	if (!same)
		snprintf(why, len, "'%s' is not valid UTF-8 text without "
			 "control characters (newline, tab, escape...)",
			 clean);
	free(clean);
	if (!same)
		return 1;
	if (!store_spec_is_tag(tag)) {
		snprintf(why, len, "'%s' could not be selected by compare or "
			 "check (a number is a run id, 'last' the last run, "
			 "',' separates a list, host:, kernel:, boot: and "
			 "tag: select, '+' joins them)", tag);
		return 1;
	}
	return 0;
}

int cli_check_tag(const char *cmd, const char *tag)
{
	char why[512];
	int rc = cli_tag_problem(tag, why, sizeof(why));

	if (rc < 0) {
		cli_error("%s", why);
		return EXIT_FAIL;
	}
	return rc ? cli_usage(cmd, "--tag: %s", why) : 0;
}

void cli_clean_text(const char *s, char *buf, size_t len)
{
	char *clean = codec_clean_text(s ? s : "", true);

	snprintf(buf, len, "%s", clean ? clean : "?");
	free(clean);
}

char *cli_join_cmdline(int argc, char **argv)
{
	size_t len = 16, i;
	char *s, *masked;

	for (i = 0; i < (size_t)argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	strcpy(s, "copyscope");
	for (i = 0; i < (size_t)argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	/* a --db URL's password is neither stored nor printed */
	masked = store_mask_secrets(s);
	free(s);
	return masked;
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

/*
 * Open the store at path (a file path or a URL); then path says how
 * messages may name it: a URL with its passwords masked.  A database that
 * cannot be used is exit 2 whether the user named it or it is the
 * default: either way nothing is measured and the user must name another
 * one.
 */
static int open_at(const char *origin, struct store **st, char *path,
		   size_t pathlen, bool read)
{
	char err[1024], *shown;

	if ((read ? store_open_read(path, st, err, sizeof(err)) :
	     store_open(path, st, err, sizeof(err))) != 0) {
		cli_error("%s%s", err, origin);
		return EXIT_USAGE;
	}
	shown = store_mask_secrets(path);
	snprintf(path, pathlen, "%s", shown ? shown : "(database)");
	free(shown);
	if (!store_is_read_only(*st))
		session_mark_abandoned(*st);
	return 0;
}

/* Where the database name came from, for messages. */
static const char *origin(const char *db_opt, int named)
{
	return db_opt ? " (from --db)" :
		named ? " (from COPYSCOPE_DB)" :
		" (the default database: pass --db PATH or set "
		"COPYSCOPE_DB)";
}

/*
 * A database file the user named goes into a directory that exists: only
 * the default path's directories are created (a typo in --db must not
 * leave a tree of directories behind).  Returns 0, or 2 after printing.
 */
static int check_dir(const char *path, const char *from)
{
	char dir[4096], *slash;
	struct stat sb;

	if (store_is_url(path))
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
		return 0;
	if (stat(dir, &sb) == 0) {
		cli_error("cannot open database '%s'%s: '%s' is not a "
			  "directory", path, from, dir);
		return EXIT_USAGE;
	}
	cli_error("no directory '%s' for the database '%s'%s: create it "
		  "first (only the default database's directory is created)",
		  dir, path, from);
	return EXIT_USAGE;
}

int cli_open_store(const char *db_opt, struct store **st, char *path,
		   size_t pathlen)
{
	int named, e = resolve_db(db_opt, path, pathlen, &named);

	if (!e && named)
		e = check_dir(path, origin(db_opt, named));
	return e ? e : open_at(origin(db_opt, named), st, path, pathlen,
			       false);
}

int cli_open_store_opt(const char *opt, const char *target,
		       struct store **st, char *path, size_t pathlen)
{
	char from[64];

	snprintf(path, pathlen, "%s", target);
	snprintf(from, sizeof(from), " (from %s)", opt);
	if (check_dir(path, from))
		return EXIT_USAGE;
	return open_at(from, st, path, pathlen, false);
}

int cli_open_existing_store(const char *db_opt, struct store **st,
			    char *path, size_t pathlen, bool *absent)
{
	int named, e = resolve_db(db_opt, path, pathlen, &named);

	if (e)
		return e;
	if (absent)
		*absent = false;
	if (!store_is_url(path) && access(path, F_OK) != 0 &&
	    errno == ENOENT) {
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
	return open_at(origin(db_opt, named), st, path, pathlen, true);
}

int cli_load_side(struct store *st, const char *cmd, const char *spec,
		  struct cmp_side *side)
{
	char err[512];
	int e = session_load_side(st, spec, side, err, sizeof(err));

	if (e == 2)
		return cli_usage(cmd, "%s", err);
	if (e)
		cli_error("%s", err);
	return e ? EXIT_FAIL : 0;
}

void cli_free_side(struct cmp_side *side)
{
	session_free_side(side);
}

int cmp_ignore_add(const char *cmd, struct cmp_ignore *ig,
		   const char *list)
{
	char *save = NULL, *k, *copy;

	if (!*list || *list == ',' || strstr(list, ",,") ||
	    list[strlen(list) - 1] == ',')
		return cli_usage(cmd, "--ignore-param: empty parameter name in "
				 "'%s'", list);
	if (ig->nbufs >= CMP_MAX_IGNORE)
		return cli_usage(cmd, "--ignore-param: at most %d times",
				 CMP_MAX_IGNORE);
	copy = strdup(list);
	if (!copy) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	ig->bufs[ig->nbufs++] = copy;
	for (k = strtok_r(copy, ",", &save); k;
	     k = strtok_r(NULL, ",", &save)) {
		if (ig->n >= CMP_MAX_IGNORE)
			return cli_usage(cmd, "--ignore-param: at most %d "
					 "parameters", CMP_MAX_IGNORE);
		ig->keys[ig->n++] = k;
	}
	return 0;
}

/* Does any configuration of side have a parameter called name? */
static bool side_has_param(const struct cmp_side *side, const char *name)
{
	size_t i, j;

	for (i = 0; i < side->nruns; i++)
		for (j = 0; j < side->runs[i].results.ncfgs; j++)
			if (result_param(side->runs[i].results.cfgs[j], name))
				return true;
	return false;
}

int cmp_ignore_check(const char *cmd, const struct cmp_ignore *ig,
		     const struct cmp_side *a, const struct cmp_side *b)
{
	const char *names[256], *sug;
	size_t i, j, k, n = 0;

	for (k = 0; k < ig->n; k++) {
		if (side_has_param(a, ig->keys[k]) ||
		    side_has_param(b, ig->keys[k]))
			continue;
		/* every parameter name either side has, for a suggestion */
		for (i = 0; i < a->nruns + b->nruns && n < 256; i++) {
			const struct result_set *rs = i < a->nruns ?
				&a->runs[i].results :
				&b->runs[i - a->nruns].results;

			for (j = 0; j < rs->ncfgs; j++) {
				const struct result_config *c = rs->cfgs[j];
				size_t p;

				for (p = 0; p < c->nparams && n < 256; p++)
					names[n++] = c->params[p].name;
			}
		}
		sug = param_suggest(ig->keys[k], names, n);
		if (sug)
			return cli_usage(cmd, "--ignore-param: no result of "
					 "either side has a parameter '%s'; "
					 "did you mean '%s'?",
					 msg_quote(ig->keys[k]), sug);
		return cli_usage(cmd, "--ignore-param: no result of either "
				 "side has a parameter '%s'",
				 msg_quote(ig->keys[k]));
	}
	return 0;
}

void cmp_ignore_free(struct cmp_ignore *ig)
{
	size_t i;

	for (i = 0; i < ig->nbufs; i++)
		free(ig->bufs[i]);
	memset(ig, 0, sizeof(*ig));
}


void cli_catch_stop(void)
{
	session_catch_stop();
}

int cli_stop_signal(void)
{
	return session_stop_signal();
}

int cli_keep_lost_run(const struct store *st, const char *path,
		      const struct run_data *run)
{
	session_keep_lost_run(st, path, run);
	return EXIT_FAIL;
}

int cli_stopped(const char *fmt, ...)
{
	int sig = cli_stop_signal();
	char what[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fflush(stdout);
	cli_error("interrupted by signal %d (%s): %s", sig, strsignal(sig),
		  what);
	return EXIT_INTERRUPTED;
}
