/*
 * settings.c - ab's runtime kernel settings: keys resolved to one file
 * each, a host-wide lock and journal per file, the originals written back
 * at the end, on a signal, at exit and by the next command after a death
 * (see settings.h); the journals themselves are settings_journal.c.
 */
#include "session/settings.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/settings_priv.h"
#include "util/file.h"
#include "util/msg.h"

static const char *opt_name(const struct ab_setting *st, int side)
{
	static const char *const n[2][2] = {
		{ "--a-sysctl", "--b-sysctl" }, { "--a-thp", "--b-thp" },
	};

	return n[st->kind == AB_THP][side ? 1 : 0];
}

/* The side that names st in messages: A when it sets it, else B. */
static int msg_side(const struct ab_setting *st)
{
	return st->set[0] ? 0 : 1;
}

/*
 * A key of [A-Za-z0-9_.-/]: not starting with '/' or '.', no "..", no
 * empty component (vm//swappiness) and no "." component (vm/./x).
 */
static bool key_ok(const char *k)
{
	const char *p;

	if (!*k || *k == '/' || *k == '.' || strstr(k, "..") ||
	    strstr(k, "//") || strstr(k, "/./") ||
	    k[strlen(k) - 1] == '/' ||
	    (strlen(k) >= 2 && strcmp(k + strlen(k) - 2, "/.") == 0))
		return false;
	for (p = k; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' ||
		      *p == '-' || *p == '/'))
			return false;
	return true;
}

/* The file a key names, into path (AB_PATH_MAX). */
static void key_path(enum ab_setting_kind kind, const char *key, char *path)
{
	char *p;

	if (kind == AB_THP) {
		snprintf(path, AB_PATH_MAX, THP_DIR "%s", key);
		return;
	}
	snprintf(path, AB_PATH_MAX, SYSCTL_DIR "%s", key);
	/* vm.swappiness is vm/swappiness; a key written with '/' keeps
	   its dots (net/ipv4/conf/eth0.1/...) */
	if (!strchr(key, '/'))
		for (p = path + strlen(SYSCTL_DIR); *p; p++)
			if (*p == '.')
				*p = '/';
}

int ab_settings_add(struct ab_settings *ss, enum ab_setting_kind kind,
		    int side, const char *text, char *err, size_t errlen)
{
	const char *eq = strchr(text, '=');
	char key[AB_KEY_MAX], path[AB_PATH_MAX];
	struct ab_setting *st = NULL, probe = { .kind = kind };
	const char *opt = opt_name(&probe, side);
	size_t len = eq ? (size_t)(eq - text) : 0, i;

	if (!eq || len == 0 || !eq[1]) {
		snprintf(err, errlen, "%s: '%s' is not KEY=VALUE", opt,
			 msg_quote(text));
		return -1;
	}
	if (len >= sizeof(key)) {
		snprintf(err, errlen, "%s: a key of at most %zu characters "
			 "(this one has %zu)", opt, sizeof(key) - 1, len);
		return -1;
	}
	memcpy(key, text, len);
	key[len] = '\0';
	if (!key_ok(key) || strlen(eq + 1) >= AB_VALUE_MAX ||
	    strpbrk(eq + 1, "\n\r")) {
		snprintf(err, errlen, "%s: '%s': a key of letters, digits, "
			 "'_', '-', '.' and '/' (no empty or '.' part) and a "
			 "one-line value of at most %d characters", opt,
			 msg_quote(text), AB_VALUE_MAX - 1);
		return -1;
	}
	key_path(kind, key, path);
	for (i = 0; i < ss->n; i++)
		if (strcmp(ss->v[i].path, path) == 0)
			st = &ss->v[i];
	if (!st) {
		if (ss->n == AB_MAX_SETTINGS) {
			snprintf(err, errlen, "at most %d settings",
				 AB_MAX_SETTINGS);
			return -1;
		}
		st = &ss->v[ss->n++];
		memset(st, 0, sizeof(*st));
		st->kind = kind;
		st->written = -1;
		st->lock_fd = -1;
		snprintf(st->key, sizeof(st->key), "%s", key);
		snprintf(st->path, sizeof(st->path), "%s", path);
	}
	if (st->set[side]) {
		snprintf(err, errlen, "%s: %s is given twice%s%s%s", opt, key,
			 strcmp(key, st->key) ? " (as " : "",
			 strcmp(key, st->key) ? st->key : "",
			 strcmp(key, st->key) ? ": the same file)" : "");
		return -1;
	}
	st->set[side] = true;
	snprintf(st->value[side], AB_VALUE_MAX, "%s", eq + 1);
	return 0;
}

/*
 * The current value of a setting's file into a new string: its content
 * without the last newline; of a THP choice list ("always [madvise]
 * never") the chosen word.  NULL with errno (EMSGSIZE: more than one
 * line, or too long).
 */
static char *read_setting(const struct ab_setting *st)
{
	size_t len;
	char *s = util_slurp(st->path, &len, false), *o, *c;

	if (!s)
		return NULL;
	if (len > 0 && s[len - 1] == '\n')
		s[--len] = '\0';
	if (memchr(s, '\n', len) || strlen(s) != len ||
	    len >= ORIGINAL_MAX) {
		free(s);
		errno = EMSGSIZE;
		return NULL;
	}
	o = strchr(s, '[');
	c = o ? strchr(o, ']') : NULL;
	if (st->kind == AB_THP && o && c) {
		*c = '\0';
		memmove(s, o + 1, (size_t)(c - o));
	}
	return s;
}

/*
 * Write value to path; 0 or -1 with errno.  Only async-signal-safe
 * calls: the signal handler uses it.
 */
/* ---- restoring on a signal and at exit ---- */

/* The settings held by this process, restored at exit and on a signal. */
static struct ab_settings *held;
static pid_t held_pid;
static bool atexit_set;

/*
 * The catchable signals whose default ends the process, beside SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE (the runner's: they stop the run, whose end
 * restores).  The real-time signals are added at run time.
 */
static const int fatal_signals[] = {
	SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
	SIGXFSZ, SIGIO, SIGPWR, SIGSYS,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
#define NRT 33	/* SIGRTMIN..SIGRTMAX is at most this many */

static struct sigaction fatal_old[NFATAL], rt_old[NRT];
static bool fatal_set;

static void say(const char *s)
{
	ssize_t w = write(STDERR_FILENO, s, strlen(s));

	(void)w;
}

/*
 * A signal that ends the process: write every original back and empty
 * the journals (async-signal-safe calls only), then end as the signal
 * would (SA_RESETHAND put its default back; SA_NODEFER lets raise()
 * deliver it now).  In a forked worker (another pid) it only ends.
 */
static void on_fatal(int sig)
{
	int saved = errno;
	bool ok = true;
	size_t i;

	if (held && getpid() == held_pid) {
		for (i = 0; i < held->n; i++) {
			struct ab_setting *st = &held->v[i];

			if (!st->original || st->lock_fd < 0)
				continue;
			if (settings_write_path(st->path, st->original) != 0)
				ok = false;
			else if (ftruncate(st->lock_fd, 0) != 0)
				ok = false;
		}
		say(ok ? "copyscope: ab: ended by a signal; the kernel "
			 "settings are restored\n" :
			 "copyscope: ab: ended by a signal; a kernel setting "
			 "could not be restored: the next copyscope command "
			 "retries\n");
	}
	errno = saved;
	raise(sig);
}

static void catch_fatal(bool on)
{
	struct sigaction sa;
	size_t i;
	int s;

	if (on == fatal_set)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NFATAL; i++) {
		if (on)
			sigaction(fatal_signals[i], &sa, &fatal_old[i]);
		else
			sigaction(fatal_signals[i], &fatal_old[i], NULL);
	}
	for (s = SIGRTMIN, i = 0; s <= SIGRTMAX && i < NRT; s++, i++) {
		if (on)
			sigaction(s, &sa, &rt_old[i]);
		else
			sigaction(s, &rt_old[i], NULL);
	}
	fatal_set = on;
}

static void release_atexit(void)
{
	if (held)
		ab_settings_release(held);
}

/* ---- taking, writing and giving back ---- */

/* Resolve st->path: a regular file, not a second name of one before it. */
static int resolve(struct ab_settings *ss, struct ab_setting *st,
		   char *err, size_t errlen)
{
	const char *opt = opt_name(st, msg_side(st));
	char real[PATH_MAX];
	struct stat sb;
	size_t i;

	if (stat(st->path, &sb) != 0) {
		snprintf(err, errlen, "%s %s: %s: %s%s", opt, st->key,
			 st->path, strerror(errno), errno == ENOENT ?
			 " (no such setting in this kernel)" : "");
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "%s %s: %s is %s, not a setting: name a "
			 "file in it", opt, st->key, st->path,
			 S_ISDIR(sb.st_mode) ? "a directory" : "not a file");
		return -1;
	}
	if (!realpath(st->path, real) || !settings_restorable_path(real)) {
		snprintf(err, errlen, "%s %s: %s does not resolve to a file "
			 "under %s or %s", opt, st->key, st->path, SYSCTL_DIR,
			 THP_DIR);
		return -1;
	}
	snprintf(st->path, sizeof(st->path), "%s", real);
	st->dev = sb.st_dev;
	st->ino = sb.st_ino;
	for (i = 0; &ss->v[i] != st; i++)
		if ((ss->v[i].dev == st->dev && ss->v[i].ino == st->ino) ||
		    strcmp(ss->v[i].path, st->path) == 0) {
			snprintf(err, errlen, "%s %s and %s %s are one file, "
				 "%s: give it once per side", opt, st->key,
				 opt_name(&ss->v[i], msg_side(&ss->v[i])),
				 ss->v[i].key, st->path);
			return -1;
		}
	return 0;
}

/* Who holds the journal fd (pid holder): "pid N (command)", into buf. */
static int take(struct ab_setting *st, const char *command, char *err,
		size_t errlen)
{
	const char *opt = opt_name(st, msg_side(st));
	char jpath[PATH_MAX], who[600];
	pid_t holder;
	int e;

	settings_journal_path(st->path, jpath, sizeof(jpath));
	st->lock_fd = open(jpath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
			   0644);
	if (st->lock_fd < 0) {
		snprintf(err, errlen, "%s %s: cannot open its lock %s: %s%s",
			 opt, st->key, jpath, strerror(errno),
			 geteuid() != 0 ? " (run as root)" : "");
		return -1;
	}
	if (settings_lock(st->lock_fd, &holder) != 0) {
		settings_describe_holder(st->lock_fd, holder, who, sizeof(who));
		snprintf(err, errlen, "%s %s: %s is in use by %s; wait until "
			 "it ends", opt, st->key, st->path, who);
		goto fail;
	}
	if (settings_recover_locked(st->lock_fd, jpath) < 0) {
		snprintf(err, errlen, "%s %s: its journal %s holds an original "
			 "that cannot be restored (see above)", opt, st->key,
			 jpath);
		goto fail;
	}
	st->original = read_setting(st);
	if (!st->original) {
		e = errno;
		snprintf(err, errlen, "%s %s: %s: %s", opt, st->key, st->path,
			 e == EMSGSIZE ? "its value is more than one line (or "
			 "over 1 MiB): not a setting ab can restore" :
			 strerror(e));
		goto fail;
	}
	if (settings_journal_write(st, command) != 0) {
		snprintf(err, errlen, "%s %s: cannot write its journal %s: %s",
			 opt, st->key, jpath, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	free(st->original);
	st->original = NULL;
	close(st->lock_fd);
	st->lock_fd = -1;
	return -1;
}

/* Each side's value written once and the original back: 0 or -1. */
static int try_values(struct ab_settings *ss, struct ab_setting *st,
		      char *err, size_t errlen)
{
	int s;

	if (settings_write_path(st->path, st->original) != 0) {
		snprintf(err, errlen, "%s %s: %s cannot be written: %s%s",
			 opt_name(st, msg_side(st)), st->key, st->path,
			 strerror(errno), geteuid() != 0 ? " (run as root)" :
			 "");
		return -1;
	}
	for (s = 0; s < 2; s++) {
		if (!st->set[s])
			continue;
		st->written = s;
		if (settings_write_path(st->path, st->value[s]) != 0) {
			snprintf(err, errlen, "%s %s=%s: the kernel refused "
				 "it: %s", opt_name(st, s), st->key,
				 st->value[s], strerror(errno));
			return -1;
		}
	}
	ab_settings_restore(ss);
	return 0;
}

int ab_settings_acquire(struct ab_settings *ss, const char *command,
			char *err, size_t errlen)
{
	size_t i;

	if (ss->n == 0)
		return 0;
	for (i = 0; i < ss->n; i++)
		if (resolve(ss, &ss->v[i], err, errlen) != 0)
			return -1;
	if (settings_run_dir_check(true, err, errlen) != 0)
		return -1;
	if (!atexit_set) {
		atexit(release_atexit);
		atexit_set = true;
	}
	held = ss;
	held_pid = getpid();
	catch_fatal(true);
	for (i = 0; i < ss->n; i++)
		if (take(&ss->v[i], command, err, errlen) != 0 ||
		    try_values(ss, &ss->v[i], err, errlen) != 0) {
			ab_settings_release(ss);
			return -1;
		}
	return 0;
}

int ab_settings_apply(struct ab_settings *ss, int side)
{
	static const char *const name[2] = { "A", "B" };
	size_t i;

	if (side < 0 || side > 1)
		return -1;
	for (i = 0; i < ss->n; i++) {
		struct ab_setting *st = &ss->v[i];
		int want = st->set[side] ? side : 2;

		if (st->written == want)
			continue;
		if (settings_write_path(st->path, want == 2 ? st->original :
			       st->value[side]) != 0) {
			msg_error("ab: writing %s for side %s: %s", st->path,
				  name[side], strerror(errno));
			return -1;
		}
		st->written = want;
	}
	return 0;
}

void ab_settings_restore(struct ab_settings *ss)
{
	size_t i;

	for (i = 0; i < ss->n; i++) {
		struct ab_setting *st = &ss->v[i];

		if (st->written == -1 || st->written == 2 || !st->original)
			continue;
		if (settings_write_path(st->path, st->original) != 0)
			msg_error("ab: could not restore %s to '%s' (%s): set "
				  "it back by hand", st->path, st->original,
				  strerror(errno));
		else
			st->written = 2;
	}
}

void ab_settings_release(struct ab_settings *ss)
{
	size_t i;

	ab_settings_restore(ss);
	for (i = 0; i < ss->n; i++) {
		struct ab_setting *st = &ss->v[i];

		if (st->lock_fd < 0)
			continue;
		/* a journal whose original is not back stays for the next
		   command to retry */
		if (st->written == -1 || st->written == 2)
			settings_journal_clear(st->lock_fd);
		close(st->lock_fd);
		st->lock_fd = -1;
	}
	if (held == ss) {
		catch_fatal(false);
		held = NULL;
	}
}

void ab_settings_free(struct ab_settings *ss)
{
	size_t i;

	ab_settings_release(ss);
	for (i = 0; i < ss->n; i++) {
		free(ss->v[i].original);
		ss->v[i].original = NULL;
	}
}

char *ab_settings_text(const struct ab_settings *ss, int side)
{
	char *out = strdup(""), *t;
	size_t i;

	for (i = 0; out && i < ss->n; i++) {
		const struct ab_setting *st = &ss->v[i];

		if (!st->set[side])
			continue;
		if (asprintf(&t, "%s%s%s%s=%s (was %s)", out,
			     out[0] ? ", " : "", st->kind == AB_THP ? "thp:" :
			     "", st->key, st->value[side],
			     st->original ? st->original : "?") < 0)
			t = NULL;
		free(out);
		out = t;
	}
	return out;
}
