/*
 * process.c - finding and stopping child programs (see process.h).
 */
#include "util/process.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Whether path is a regular file we may execute. */
static int runnable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

/* Whether buf (len bytes) holds what snprintf returned w for, whole. */
static int fits(int w, size_t len)
{
	return w >= 0 && (size_t)w < len;
}

int util_find_program(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p;
	char buf[PATH_MAX];
	int found = 0;

	if (strchr(name, '/')) {
		found = fits(snprintf(buf, sizeof(buf), "%s", name),
			     sizeof(buf)) && runnable(buf);
	} else {
		p = path && *path ? path : "/usr/bin:/bin";
		while (*p && !found) {
			size_t n = strcspn(p, ":");

			found = fits(snprintf(buf, sizeof(buf), "%.*s/%s",
					      (int)(n ? n : 1), n ? p : ".",
					      name), sizeof(buf)) &&
				runnable(buf);
			p += n + (p[n] == ':');
		}
	}
	if (!found)
		return -1;
	if (out && !fits(snprintf(out, len, "%s", buf), len))
		return -1;
	return 0;
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int util_stop_child(pid_t pid, int64_t grace_ns)
{
	const struct timespec nap = { 0, 10000000 };
	int64_t until = mono_ns() + grace_ns;
	int st;

	if (kill(-pid, SIGTERM) != 0 && kill(pid, SIGTERM) != 0 &&
	    errno != ESRCH)
		return -1;
	for (;;) {
		pid_t got = waitpid(pid, &st, WNOHANG);

		if (got == pid)
			return 0;
		if (got < 0 && errno != EINTR)
			return -1;
		if (mono_ns() >= until)
			break;
		nanosleep(&nap, NULL);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 1;
}
