/*
 * pipe_matrix_pressure.c - pipe.matrix's pressure=vm (see
 * pipe_matrix_pressure.h): starting stress-ng's vm stressor with a share
 * of MemAvailable, waiting for it to take its memory, and stopping it
 * and whatever it left behind.
 */
#include "workloads/pipe_matrix_pressure.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/workload.h"
#include "util/process.h"

/* How long setup waits for the stressor to take its memory. */
#define PM_PRESSURE_RAMP_NS (60LL * 1000000000)
#define PM_PRESSURE_POLL_NS 50000000L
/* How long teardown waits for stress-ng to exit on SIGTERM. */
#define PM_PRESSURE_STOP_NS (5LL * 1000000000)

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/* MemAvailable from /proc/meminfo in KiB, or -1. */
static long long mem_available_kib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	static const char key[] = "MemAvailable:";
	char line[128], *end;
	long long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, sizeof(key) - 1) != 0)
			continue;
		errno = 0;
		v = strtoll(line + sizeof(key) - 1, &end, 10);
		if (errno || end == line + sizeof(key) - 1)
			v = -1;
		break;
	}
	fclose(f);
	return v;
}

int pm_pressure_start(int64_t vm_pct, pid_t *stress_pid, char *err,
		      size_t errlen, char *note, size_t note_len)
{
	long long avail = mem_available_kib(), target_kib, now_kib;
	char path[PATH_MAX], bytes_arg[32];
	char *argv[] = { "stress-ng", "--vm", "1", "--vm-bytes", bytes_arg,
			 "--vm-keep", "--timeout", "0", "--quiet", NULL };
	uint64_t start;
	pid_t parent = getpid(), pid;
	int st;

	if (util_find_program("stress-ng", path, sizeof(path)) != 0) {
		snprintf(err, errlen, "pressure=vm needs "
			 "stress-ng (apt-get install stress-ng)");
		return WL_EFAIL;
	}
	if (avail <= 0) {
		snprintf(err, errlen, "pressure=vm: cannot "
			 "read MemAvailable from /proc/meminfo");
		return WL_EFAIL;
	}
	target_kib = avail * vm_pct / 100;
	snprintf(bytes_arg, sizeof(bytes_arg), "%lldk", target_kib);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "pressure=vm: fork: %s",
			 strerror(errno));
		return WL_EFAIL;
	}
	if (pid == 0) {
		sigset_t none;

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execv(path, argv);
		fprintf(stderr, "copyscope: pipe.matrix: exec %s: %s\n", path,
			strerror(errno));
		_exit(127);
	}
	*stress_pid = pid;
	/* Both sides set the group, so kill(-pid) works from here on. */
	setpgid(pid, pid);
	start = mono_ns();
	for (;;) {
		pid_t got = waitpid(pid, &st, WNOHANG);

		if (got == pid) {
			*stress_pid = 0;
			snprintf(err, errlen, "pressure=vm: "
				 "stress-ng %s %d at start (%s --vm 1 "
				 "--vm-bytes %s ...)",
				 WIFSIGNALED(st) ? "was killed by signal"
						 : "exited with status",
				 WIFSIGNALED(st) ? WTERMSIG(st)
						 : WEXITSTATUS(st),
				 path, bytes_arg);
			return WL_EFAIL;
		}
		now_kib = mem_available_kib();
		if (now_kib >= 0 && avail - now_kib >= target_kib * 3 / 4)
			break;
		if (wl_interrupted()) {
			snprintf(err, errlen, "interrupted");
			return WL_EFAIL;
		}
		if ((int64_t)(mono_ns() - start) > PM_PRESSURE_RAMP_NS) {
			snprintf(note, note_len, "; pressure=vm: stress-ng "
				 "still taking its memory after %lld s",
				 PM_PRESSURE_RAMP_NS / 1000000000);
			return WL_OK;
		}
		sleep_ns(PM_PRESSURE_POLL_NS);
	}
	snprintf(note, note_len, "; pressure=vm: stress-ng vm stressor "
		 "holding %lld MiB (%lld%% of MemAvailable %lld MiB)",
		 target_kib / 1024, (long long)vm_pct,
		 avail / 1024);
	return WL_OK;
}

void pm_pressure_stop(pid_t *stress_pid)
{
	uint64_t start;
	pid_t pid = *stress_pid;

	if (pid <= 0)
		return;
	*stress_pid = 0;
	if (util_stop_child(pid, PM_PRESSURE_STOP_NS) < 0)
		fprintf(stderr, "copyscope: pipe.matrix: stop stress-ng "
			"(pid %d): %s\n", (int)pid, strerror(errno));
	/*
	 * Stressor children that outlived their parent: killed, and waited
	 * for (they are init's to reap now) while they give back their
	 * memory, so that none is left when the run ends.
	 */
	kill(-pid, SIGKILL);
	start = mono_ns();
	while (kill(-pid, 0) == 0 &&
	       (int64_t)(mono_ns() - start) < PM_PRESSURE_STOP_NS)
		sleep_ns(10000000);
}
