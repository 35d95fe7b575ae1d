/*
 * swcount.c - per-thread software counters around a sample (see swcount.h).
 *
 * Context switches, CPU migrations and page faults of the calling thread,
 * from perf_event_open software events (pid 0, cpu -1) read with read(),
 * or from getrusage(RUSAGE_THREAD) where perf_event_open is refused.
 *
 * The events are opened with exclude_kernel = 0 only.  Context switches and
 * migrations are raised from inside the kernel (with kernel-mode registers),
 * so with exclude_kernel = 1 - all an unprivileged user gets when
 * perf_event_paranoid > 1 - they always read 0, and page faults taken by the
 * kernel on a user buffer (copy_to_user in read()) would be missed too.
 * Rather than report zeros, a refusal falls back to getrusage for all three.
 *
 * getrusage is the default, perf events are opt-in (swcount_prefer_perf):
 * a task that has any perf event open pays extra perf work in the kernel
 * on every context switch.  bench/ measured it: a one-CPU 64 KiB pipe
 * (two switches per message) lost about 15% of its bandwidth with the
 * three events open, and none without them.  In the getrusage mode
 * migrations come from se.nr_migrations in /proc/thread-self/sched where
 * the kernel has it (CONFIG_SCHED_DEBUG), read outside the timed window.
 */
#include "runner/swcount.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static const uint64_t sw_config[3] = {
	PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_CPU_MIGRATIONS,
	PERF_COUNT_SW_PAGE_FAULTS,
};

static int sw_open(uint64_t config)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	attr.exclude_kernel = 0;
	attr.exclude_hv = 0;
	/* This thread (pid 0), any CPU, no group, no flags. */
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

static bool prefer_perf;

void swcount_prefer_perf(bool on)
{
	prefer_perf = on;
}

bool swcount_open(struct swcount *sc)
{
	int i;

	for (i = 0; i < 3; i++)
		sc->fd[i] = -1;
	sc->perf = false;
	sc->sched_file = access("/proc/thread-self/sched", R_OK) == 0;
	if (!prefer_perf)
		return false;
	for (i = 0; i < 3; i++) {
		sc->fd[i] = sw_open(sw_config[i]);
		if (sc->fd[i] < 0) {
			swcount_close(sc);
			return false;
		}
	}
	sc->perf = true;
	return true;
}

static uint64_t fd_read(int fd)
{
	uint64_t v;

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return SWCOUNT_NA;
	return v;
}

/* se.nr_migrations of the calling thread, or SWCOUNT_NA. */
static uint64_t sched_migrations(void)
{
	char line[256];
	uint64_t v = SWCOUNT_NA;
	FILE *f = fopen("/proc/thread-self/sched", "r");

	if (!f)
		return SWCOUNT_NA;
	while (fgets(line, sizeof(line), f)) {
		char *colon;

		if (strncmp(line, "se.nr_migrations", 16) != 0)
			continue;
		colon = strchr(line, ':');
		if (colon) {
			char *end;
			unsigned long long x = strtoull(colon + 1, &end, 10);

			if (end != colon + 1)
				v = (uint64_t)x;
		}
		break;
	}
	fclose(f);
	return v;
}

void swcount_read(const struct swcount *sc, struct swcount_values *v)
{
	struct rusage ru;

	if (sc->perf) {
		v->ctx_switches = fd_read(sc->fd[0]);
		v->migrations = fd_read(sc->fd[1]);
		v->faults = fd_read(sc->fd[2]);
		return;
	}
	v->migrations = sc->sched_file ? sched_migrations() : SWCOUNT_NA;
	if (getrusage(RUSAGE_THREAD, &ru) != 0) {
		v->ctx_switches = SWCOUNT_NA;
		v->faults = SWCOUNT_NA;
		return;
	}
	v->ctx_switches = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
	v->faults = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
}

static uint64_t field_diff(uint64_t a, uint64_t b)
{
	if (a == SWCOUNT_NA || b == SWCOUNT_NA)
		return SWCOUNT_NA;
	return b - a;
}

void swcount_diff(const struct swcount_values *a,
		  const struct swcount_values *b, struct swcount_values *d)
{
	d->ctx_switches = field_diff(a->ctx_switches, b->ctx_switches);
	d->migrations = field_diff(a->migrations, b->migrations);
	d->faults = field_diff(a->faults, b->faults);
}

void swcount_close(struct swcount *sc)
{
	int i;

	for (i = 0; i < 3; i++) {
		if (sc->fd[i] >= 0 && close(sc->fd[i]) != 0)
			perror("copyscope: close(perf software event)");
		sc->fd[i] = -1;
	}
	sc->perf = false;
}
