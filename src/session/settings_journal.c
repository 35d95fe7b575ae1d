/*
 * settings_journal.c - the run directory, the host-wide lock and journal
 * of each kernel setting ab changes, and the recovery of the journals
 * that a dead copyscope left (see settings.h, settings_priv.h).
 */
#include "session/settings_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file.h"
#include "util/msg.h"

#define RUN_DIR "/run/copyscope"
#define JOURNAL_MAGIC "copyscope-setting-journal 1"
#define JOURNAL_SUFFIX ".setting"

int settings_write_path(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(value);
	ssize_t w;
	int e;

	if (fd < 0)
		return -1;
	/* an empty value is written as an empty line */
	w = len ? write(fd, value, len) : write(fd, "\n", 1);
	e = w < 0 ? errno : EIO;	/* a short write is an error too */
	close(fd);
	if (w == (ssize_t)(len ? len : 1))
		return 0;
	errno = e;
	return -1;
}

/* ---- the run directory, the locks and the journals ---- */

static const char *run_dir(void)
{
	const char *d = getenv("COPYSCOPE_RUN_DIR");

	return d && *d ? d : RUN_DIR;
}

/*
 * The run directory is copyscope's to trust: a directory owned by this
 * user that nobody else may write.  0, or -1 with the reason in err.
 */
int settings_run_dir_check(bool create, char *err, size_t errlen)
{
	const char *d = run_dir();
	struct stat sb;

	if (create && mkdir(d, 0755) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot make the lock directory %s: "
			 "%s%s", d, strerror(errno), geteuid() != 0 ?
			 " (run as root)" : "");
		return -1;
	}
	if (lstat(d, &sb) != 0) {
		snprintf(err, errlen, "lock directory %s: %s", d,
			 strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & 022)) {
		snprintf(err, errlen, "lock directory %s is not a directory "
			 "of this user that only it may write: not used", d);
		return -1;
	}
	return 0;
}

/* The journal of a resolved file: RUN_DIR/proc+sys+vm+swappiness.setting */
void settings_journal_path(const char *file, char *out, size_t len)
{
	int n = snprintf(out, len, "%s/", run_dir());
	const char *p;
	size_t o = n > 0 ? (size_t)n : 0;

	for (p = file + (*file == '/'); *p && o + 1 < len; p++)
		out[o++] = *p == '/' ? '+' : *p;
	out[o < len ? o : len - 1] = '\0';
	if (o + strlen(JOURNAL_SUFFIX) < len)
		strcat(out, JOURNAL_SUFFIX);
}

/* This boot's id, into buf ("" when unknown). */
static void boot_id(char *buf, size_t len)
{
	char *s = util_slurp("/proc/sys/kernel/random/boot_id", NULL, false);

	snprintf(buf, len, "%s", s ? s : "");
	buf[strcspn(buf, "\n")] = '\0';
	free(s);
}

/* What a journal holds. */
struct journal {
	long pid;
	char boot[64];
	char key[AB_KEY_MAX];
	char path[AB_PATH_MAX];
	char command[512];
	char *original;		/* points into the text */
};

/* Parse text (NUL-ended, modified) as a journal; 0 or -1. */
static int journal_parse(char *text, struct journal *j)
{
	char *line, *next;

	memset(j, 0, sizeof(*j));
	if (strncmp(text, JOURNAL_MAGIC "\n", strlen(JOURNAL_MAGIC) + 1) != 0)
		return -1;
	for (line = text + strlen(JOURNAL_MAGIC) + 1; *line; line = next) {
		next = strchr(line, '\n');
		if (!next)
			return -1;	/* cut short: a torn write */
		*next++ = '\0';
		if (strncmp(line, "pid ", 4) == 0)
			j->pid = strtol(line + 4, NULL, 10);
		else if (strncmp(line, "boot ", 5) == 0)
			snprintf(j->boot, sizeof(j->boot), "%s", line + 5);
		else if (strncmp(line, "key ", 4) == 0)
			snprintf(j->key, sizeof(j->key), "%s", line + 4);
		else if (strncmp(line, "path ", 5) == 0)
			snprintf(j->path, sizeof(j->path), "%s", line + 5);
		else if (strncmp(line, "command ", 8) == 0)
			snprintf(j->command, sizeof(j->command), "%s",
				 line + 8);
		else if (strncmp(line, "original ", 9) == 0)
			j->original = line + 9;
	}
	return j->pid > 0 && j->path[0] && j->original ? 0 : -1;
}

/* The whole content of an open journal in a new string, or NULL. */
static char *journal_read(int fd)
{
	struct stat sb;
	char *s;
	ssize_t r;

	if (fstat(fd, &sb) != 0 || sb.st_size <= 0 ||
	    (size_t)sb.st_size > (size_t)2 * ORIGINAL_MAX)
		return NULL;
	s = malloc((size_t)sb.st_size + 1);
	if (!s)
		return NULL;
	r = pread(fd, s, (size_t)sb.st_size, 0);
	if (r < 0) {
		free(s);
		return NULL;
	}
	s[r] = '\0';
	return s;
}

/* A path a journal may ask to write: a regular file under the two
   setting directories, once every link is resolved. */
bool settings_restorable_path(const char *path)
{
	char real[PATH_MAX];
	struct stat sb;

	if (!realpath(path, real) || strcmp(real, path) != 0)
		return false;
	if (strncmp(real, SYSCTL_DIR, strlen(SYSCTL_DIR)) != 0 &&
	    strncmp(real, THP_DIR, strlen(THP_DIR)) != 0)
		return false;
	return stat(real, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* Empty a journal: its setting is back. */
void settings_journal_clear(int fd)
{
	if (ftruncate(fd, 0) == 0)
		fsync(fd);
}

/*
 * A journal whose lock this process holds, left by another process:
 * write its original back and say so.  1 restored, 0 nothing to do
 * (empty, of an earlier boot), -1 a journal that cannot be used or an
 * original that cannot be written (said; the journal stays).
 */
int settings_recover_locked(int fd, const char *name)
{
	char *text = journal_read(fd), boot[64];
	struct journal j;
	int rc = 0;

	if (!text)
		return 0;
	boot_id(boot, sizeof(boot));
	if (journal_parse(text, &j) != 0) {
		msg_error("%s: not a settings journal copyscope can read; "
			  "left alone", name);
		rc = -1;
	} else if (j.pid == (long)getpid()) {
		rc = 0;		/* this process's own, still in use */
	} else if (boot[0] && j.boot[0] && strcmp(boot, j.boot) != 0) {
		settings_journal_clear(fd);	/* the kernel started afresh */
	} else if (!settings_restorable_path(j.path)) {
		msg_error("%s: journal names '%s', not a setting under %s or "
			  "%s; left alone", name, j.path, SYSCTL_DIR,
			  THP_DIR);
		rc = -1;
	} else if (settings_write_path(j.path, j.original) != 0) {
		msg_error("could not restore %s (%s) to '%s', left changed by "
			  "copyscope pid %ld (%s): %s; set it back by hand",
			  j.key, j.path, j.original, j.pid, j.command,
			  strerror(errno));
		rc = -1;
	} else {
		msg_error("restored %s (%s) to its original '%s': copyscope "
			  "pid %ld (%s) changed it and ended without putting "
			  "it back", j.key, j.path, j.original, j.pid,
			  j.command);
		settings_journal_clear(fd);
		rc = 1;
	}
	free(text);
	return rc;
}

/* Lock fd for writing without waiting: 0, or -1 with the holder's pid. */
int settings_lock(int fd, pid_t *holder)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	if (fcntl(fd, F_SETLK, &fl) == 0)
		return 0;
	*holder = 0;
	fl.l_type = F_WRLCK;
	if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
		*holder = fl.l_pid;
	return -1;
}

/* One journal in the run directory, as ab_settings_recover() does. */
static int recover_one(const char *name)
{
	char path[PATH_MAX];
	struct stat sb;
	pid_t holder;
	int fd, rc;

	snprintf(path, sizeof(path), "%s/%s", run_dir(), name);
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno == EACCES) {
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0 || fstat(fd, &sb) != 0 || sb.st_size == 0) {
			if (fd >= 0)
				close(fd);
			return 0;
		}
		msg_error("%s: a kernel setting may be left changed by a "
			  "copyscope that ended; a copyscope command run as "
			  "root puts it back", path);
		close(fd);
		return 0;
	}
	if (fd < 0)
		return 0;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_uid != geteuid() || (sb.st_mode & 022) || sb.st_size == 0 ||
	    settings_lock(fd, &holder) != 0) {
		close(fd);	/* empty, someone else's, or in use */
		return 0;
	}
	rc = settings_recover_locked(fd, path);
	close(fd);		/* and the lock with it */
	return rc > 0 ? 1 : 0;
}

int ab_settings_recover(void)
{
	char err[512];
	struct dirent *de;
	DIR *d;
	int n = 0;

	d = opendir(run_dir());
	if (!d)
		return 0;
	if (settings_run_dir_check(false, err, sizeof(err)) != 0) {
		if (geteuid() == 0)
			msg_error("%s", err);
		closedir(d);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name), sl = strlen(JOURNAL_SUFFIX);

		if (l > sl && strcmp(de->d_name + l - sl, JOURNAL_SUFFIX) == 0)
			n += recover_one(de->d_name);
	}
	closedir(d);
	return n;
}

void settings_describe_holder(int fd, pid_t holder, char *buf, size_t len)
{
	char *text = journal_read(fd);
	struct journal j;

	if (text && journal_parse(text, &j) == 0)
		snprintf(buf, len, "copyscope pid %ld (%s)", (long)holder,
			 j.command);
	else
		snprintf(buf, len, "process %ld", (long)holder);
	free(text);
}

/* Write st's journal: who, which file, the original.  0 or -1. */
int settings_journal_write(const struct ab_setting *st, const char *command)
{
	char boot[64], *text = NULL, *cmd;
	int n, rc = -1;

	cmd = strdup(command ? command : "copyscope ab");
	if (!cmd)
		return -1;
	cmd[strcspn(cmd, "\n\r")] = '\0';
	boot_id(boot, sizeof(boot));
	n = asprintf(&text, JOURNAL_MAGIC "\npid %ld\nboot %s\nkey %s%s\n"
		     "path %s\ncommand %.400s\noriginal %s\n", (long)getpid(),
		     boot, st->kind == AB_THP ? "thp:" : "", st->key, st->path,
		     cmd, st->original);
	free(cmd);
	if (n < 0)
		return -1;
	if (pwrite(st->lock_fd, text, (size_t)n, 0) == n &&
	    ftruncate(st->lock_fd, n) == 0 && fsync(st->lock_fd) == 0)
		rc = 0;
	free(text);
	return rc;
}

/* Lock, recover, read the original and journal it.  0 or -1 with err. */