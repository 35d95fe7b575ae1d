/*
 * lost_run.c - a run the store lost, kept as an export file beside the
 * database (see lost_run.h); and the stop signals of the commands that
 * add runs one after the other.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "results/codec.h"
#include "results/exchange.h"
#include "env/env.h"
#include "runner/runner.h"
#include "session/lost_run.h"
#include "util/msg.h"

/* Text from outside (a path) with control bytes escaped. */
static void clean_text(const char *s, char *buf, size_t len)
{
	char *c = codec_clean_text(s ? s : "", true);

	snprintf(buf, len, "%s", c ? c : "?");
	free(c);
}

/* Write run to a new file named name; 0 or -1 (errno-like text in err). */
static int write_lost(const char *name, const struct run_data *run,
		      char *err, size_t errlen)
{
	FILE *f = fopen(name, "wx");
	int rc;

	if (!f) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	rc = exchange_write(f, run, 1, err, errlen);
	if (fclose(f) != 0 && rc == 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		rc = -1;
	}
	if (rc)
		unlink(name);
	return rc;
}

void session_keep_lost_run(const struct store *st, const char *path,
			   const struct run_data *run)
{
	char name[PATH_MAX + 64], clean[4 * PATH_MAX + 1], err[512];
	const char *file = store_file(st);
	int rc = -1;

	if (file) {
		snprintf(name, sizeof(name), "%s.lost-run-%s.json", file,
			 run->info.uuid);
		rc = write_lost(name, run, err, sizeof(err));
	}
	if (rc) {
		snprintf(name, sizeof(name), "copyscope-lost-run-%s.json",
			 run->info.uuid);
		rc = write_lost(name, run, err, sizeof(err));
	}
	clean_text(path, clean, sizeof(clean));
	if (rc) {
		msg_error("run %s is not stored in %s, and cannot be kept in "
			  "'%s' either: %s", run->info.uuid, clean, name, err);
		return;
	}
	clean_text(name, clean, sizeof(clean));
	msg_error("run %s is not stored: all of it (%zu results) is kept in "
		  "'%s'; 'copyscope import' adds it to a database",
		  run->info.uuid, run->results.n, clean);
}

void session_catch_stop(void)
{
	runner_install_signals();
}

int session_stop_signal(void)
{
	return runner_interrupted ? (int)runner_signal : 0;
}

/*
 * Runs of this host and boot left 'running' by a process that is gone
 * (SIGKILL, the OOM killer, a power cut) are marked interrupted whenever
 * the store is opened; a failure to do so only warns.
 */
void session_mark_abandoned(struct store *st)
{
	struct utsname un;
	char boot[64], err[512];
	size_t n = 0;

	if (uname(&un) != 0 ||
	    env_read_line("/proc/sys/kernel/random/boot_id", boot,
			  sizeof(boot)) != 0)
		return;
	if (store_mark_abandoned(st, un.nodename, boot, &n, err,
				 sizeof(err)) != 0)
		msg_error("warning: %s", err);
	else if (n)
		msg_error("%zu run%s left 'running' by a copyscope process "
			  "that no longer exists marked 'interrupted'", n,
			  n == 1 ? "" : "s");
}
