/*
 * outfile.c - what export and report share: the runs their arguments
 * name, and their -o FILE.
 *
 * A regular file (new or existing) is written to a temporary file beside
 * it and renamed into place when complete, so that a failure half way (a
 * full disk, an interrupt) never leaves half a file under the name asked
 * for, and an older file of that name stays until then; an existing
 * file keeps its mode and owner.  A symbolic link is followed: the file
 * it names is replaced that way and the link stays.  Anything that is not
 * a regular file (a device such as /dev/null, a FIFO, /dev/stdout) is
 * written through, never replaced.  `-o -` is stdout.  An output that is
 * the database being read, or its -wal or -shm file, is refused.  While
 * the temporary file exists, SIGINT, SIGTERM, SIGHUP and SIGPIPE remove
 * it before the process dies of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/comparison_print.h"
#include "util/array.h"

/* The temporary file a signal removes (one output at a time). */
static char out_tmp_path[PATH_MAX + 32];
static volatile sig_atomic_t out_tmp_set;
static const int out_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
static struct sigaction out_old[4];

static void out_on_signal(int sig)
{
	if (out_tmp_set)
		unlink(out_tmp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void out_guard(const char *tmp)
{
	struct sigaction sa;
	size_t i;

	snprintf(out_tmp_path, sizeof(out_tmp_path), "%s", tmp);
	out_tmp_set = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = out_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(out_signals); i++)
		sigaction(out_signals[i], &sa, &out_old[i]);
}

static void out_unguard(void)
{
	size_t i;

	if (!out_tmp_set)
		return;
	for (i = 0; i < ARRAY_SIZE(out_signals); i++)
		sigaction(out_signals[i], &out_old[i], NULL);
	out_tmp_set = 0;
}

/* Whether the file at path is the same file as st (device and inode). */
static bool same_file(const char *path, const struct stat *st)
{
	struct stat sb;

	return stat(path, &sb) == 0 && sb.st_dev == st->st_dev &&
	       sb.st_ino == st->st_ino;
}

/* -o naming the database (or its -wal/-shm) being read: refused. */
static int check_not_db(const char *cmd, const char *path, const char *db)
{
	char side[PATH_MAX + 8];
	struct stat out;
	static const char *const ext[] = { "", "-wal", "-shm" };
	size_t i;

	if (!db || !*db || strstr(db, "://") || stat(path, &out) != 0)
		return 0;
	for (i = 0; i < ARRAY_SIZE(ext); i++) {
		snprintf(side, sizeof(side), "%s%s", db, ext[i]);
		if (same_file(side, &out))
			return cli_usage(cmd, "-o: '%s' is the database being "
					 "read (%s%s): writing it would destroy "
					 "the runs", path, db, ext[i]);
	}
	return 0;
}

/* Write straight through a file that is not a regular one. */
static int open_through(const char *cmd, const char *path, struct cli_out *o)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return cli_usage(cmd, "-o: cannot write '%s': %s", path,
				 strerror(e));
	}
	o->path = strdup(path);
	o->direct = true;
	if (!o->path) {
		fclose(o->f);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	return 0;
}

int cli_out_open(const char *cmd, const char *path, const char *db,
		 struct cli_out *o)
{
	char target[PATH_MAX];
	struct stat lst, st;
	bool exists;
	int fd, e;

	memset(o, 0, sizeof(*o));
	if (!path || strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	if (!*path)
		return cli_usage(cmd, "-o: empty file name");
	e = check_not_db(cmd, path, db);
	if (e)
		return e;
	snprintf(target, sizeof(target), "%s", path);
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) &&
	    !realpath(path, target))
		return cli_usage(cmd, "-o: '%s' is a symbolic link to a file "
				 "that cannot be reached (%s)", path,
				 strerror(errno));
	exists = stat(target, &st) == 0;
	if (exists && !S_ISREG(st.st_mode))
		return open_through(cmd, target, o);
	o->path = strdup(target);
	o->tmp = malloc(strlen(target) + 16);
	if (!o->path || !o->tmp) {
		free(o->path);
		free(o->tmp);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	snprintf(o->tmp, strlen(target) + 16, "%s.tmp.XXXXXX", target);
	fd = mkstemp(o->tmp);
	if (fd >= 0) {
		out_guard(o->tmp);
		if (exists) {
			/* the file it replaces keeps its mode and owner */
			(void)fchmod(fd, st.st_mode & 07777);
			if (fchown(fd, st.st_uid, st.st_gid) != 0)
				(void)fchmod(fd, st.st_mode & 0777);
		} else {
			/* mkstemp makes it 0600: a new file gets what a new
			   file gets */
			mode_t mask = umask(0);

			umask(mask);
			(void)fchmod(fd, 0666 & ~mask);
		}
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
			out_unguard();
		}
		free(o->path);
		free(o->tmp);
		return cli_usage(cmd, "-o: cannot write '%s': %s", path,
				 strerror(e));
	}
	return 0;
}

int cli_out_close(struct cli_out *o, bool ok)
{
	int rc = EXIT_OK;

	if (o->f == stdout) {
		if (fflush(stdout) != 0 || ferror(stdout)) {
			cli_error("cannot write the output: %s",
				  strerror(errno));
			rc = EXIT_FAIL;
		}
		return ok ? rc : EXIT_FAIL;
	}
	if (ok && (fflush(o->f) != 0 || ferror(o->f) ||
		   (!o->direct && fsync(fileno(o->f)) != 0))) {
		cli_error("cannot write '%s': %s", o->path, strerror(errno));
		ok = false;
	}
	if (fclose(o->f) != 0 && ok) {
		cli_error("cannot write '%s': %s", o->path, strerror(errno));
		ok = false;
	}
	if (!o->direct && ok && rename(o->tmp, o->path) != 0) {
		cli_error("cannot rename '%s' to '%s': %s", o->tmp, o->path,
			  strerror(errno));
		ok = false;
	}
	if (!o->direct && !ok)
		unlink(o->tmp);
	if (!o->direct)
		out_unguard();
	if (!ok)
		rc = EXIT_FAIL;
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return rc;
}

int cli_load_runs(struct store *st, const char *cmd, char **args, size_t n,
		  struct cmp_side *side)
{
	size_t i, len = 1;
	char *spec;
	int e;

	for (i = 0; i < n; i++)
		len += strlen(args[i]) + 1;
	spec = calloc(1, len);
	if (!spec) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	/* a tag never holds a ',': the arguments join into one list */
	for (i = 0; i < n; i++) {
		if (i)
			strcat(spec, ",");
		strcat(spec, args[i]);
	}
	e = cli_load_side(st, cmd, spec, side);
	free(spec);
	return e;
}
