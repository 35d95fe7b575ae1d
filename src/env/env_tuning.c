/*
 * env_tuning.c - the machine settings that add noise to a measurement:
 * isolated and nohz_full CPUs, the idle driver and its states, the IRQs
 * that may land on the run's CPUs and whether irqbalance moves them,
 * ASLR, perf_event_paranoid, NUMA balancing (THP defrag is read beside
 * thp.enabled in env_capture.c), and the one-line summary of those that
 * are present (env_noise_sources).
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/env.h"

#define UNAVAILABLE "unavailable"
#define ABSENT "absent"

#define SYS_CPU "/sys/devices/system/cpu"

/* The exit latency from which an idle state shows in a wake-up. */
#define DEEP_IDLE_US 10

/* Set key to the first line of path; missing gives absent_text. */
static int set_line(struct env *env, const char *key, const char *path,
		    const char *absent_text, const char *empty_text)
{
	char buf[1024];

	if (env_read_line(path, buf, sizeof(buf)) != 0)
		return env_set(env, key, absent_text);
	if (!buf[0] || strcmp(buf, "(null)") == 0)
		return env_set(env, key, empty_text);
	return env_set(env, key, buf);
}

int env_parse_cpu_list(const char *text, cpu_set_t *set)
{
	const char *p = text;
	char *end;
	long lo, hi, c;

	CPU_ZERO(set);
	while (*p) {
		if (!isdigit((unsigned char)*p))
			return -1;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				return -1;
			hi = strtol(p + 1, &end, 10);
			p = end;
		}
		if (lo < 0 || hi < lo || hi >= CPU_SETSIZE)
			return -1;
		for (c = lo; c <= hi; c++)
			CPU_SET((int)c, set);
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return 0;
}

/* "0-3,6" of a set: ranges joined by commas ("none" when empty). */
static void cpu_list_text(const cpu_set_t *set, char *buf, size_t len)
{
	size_t off = 0;
	int c, hi;

	buf[0] = '\0';
	for (c = 0; c < CPU_SETSIZE && off < len; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		hi = c;
		while (hi + 1 < CPU_SETSIZE && CPU_ISSET(hi + 1, set))
			hi++;
		if (hi == c)
			off += (size_t)snprintf(buf + off, len - off, "%s%d",
						off ? "," : "", c);
		else
			off += (size_t)snprintf(buf + off, len - off,
						"%s%d-%d", off ? "," : "", c,
						hi);
		c = hi;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/*
 * cpuidle.states: cpu0's idle states with their exit latencies
 * ("POLL 0us, C1 1us, C6 170us (disabled)"), and cpuidle.deepest: the
 * deepest enabled one.
 */
static int capture_idle_states(struct env *env)
{
	char states[1024] = "", deepest[128] = "none", path[128];
	char name[64], lat[32], dis[8];
	size_t off = 0;
	int i;

	for (i = 0; i < 32; i++) {
		snprintf(path, sizeof(path), SYS_CPU "/cpu0/cpuidle/state%d/"
			 "name", i);
		if (env_read_line(path, name, sizeof(name)) != 0)
			break;
		snprintf(path, sizeof(path), SYS_CPU "/cpu0/cpuidle/state%d/"
			 "latency", i);
		if (env_read_line(path, lat, sizeof(lat)) != 0)
			snprintf(lat, sizeof(lat), "?");
		snprintf(path, sizeof(path), SYS_CPU "/cpu0/cpuidle/state%d/"
			 "disable", i);
		if (env_read_line(path, dis, sizeof(dis)) != 0)
			snprintf(dis, sizeof(dis), "0");
		if (off < sizeof(states))
			off += (size_t)snprintf(states + off,
						sizeof(states) - off,
						"%s%s %sus%s", off ? ", " : "",
						name, lat,
						strcmp(dis, "0") ?
						" (disabled)" : "");
		if (strcmp(dis, "0") == 0)
			snprintf(deepest, sizeof(deepest), "%s (exit latency "
				 "%s us)", name, lat);
	}
	if (env_set(env, "cpuidle.states", i ? states : "none"))
		return -1;
	return env_set(env, "cpuidle.deepest", deepest);
}

/* True when a process named name runs (a /proc/PID/comm scan). */
static bool process_runs(const char *name)
{
	char path[300], comm[64];
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/proc");

	if (!d)
		return false;
	while (!found && (de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		found = env_read_line(path, comm, sizeof(comm)) == 0 &&
			strcmp(comm, name) == 0;
	}
	(void)closedir(d);	/* read-only stream: nothing to lose */
	return found;
}

int env_add_irq(struct env *env, const int *cpus, int ncpus)
{
	char path[300], list[1024], val[1200], cpu_text[256];
	cpu_set_t run, irq, both;
	struct dirent *de;
	int total = 0, landing = 0, i;
	DIR *d;

	CPU_ZERO(&run);
	for (i = 0; i < ncpus; i++)
		if (cpus[i] >= 0 && cpus[i] < CPU_SETSIZE)
			CPU_SET(cpus[i], &run);
	cpu_list_text(&run, cpu_text, sizeof(cpu_text));
	d = opendir("/proc/irq");
	if (!d)
		return env_set(env, "irq.on_run_cpus", UNAVAILABLE);
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list",
			 de->d_name);
		if (env_read_line(path, list, sizeof(list)) != 0 ||
		    env_parse_cpu_list(list, &irq) != 0)
			continue;
		total++;
		CPU_AND(&both, &irq, &run);
		landing += CPU_COUNT(&both) > 0;
	}
	(void)closedir(d);	/* read-only stream: nothing to lose */
	snprintf(val, sizeof(val), "%d of %d IRQs may land on CPUs %s",
		 landing, total, cpu_text);
	return env_set(env, "irq.on_run_cpus", total ? val : UNAVAILABLE);
}

/* The CPUs this process may run on, as env_add_irq takes them. */
static int capture_irq(struct env *env)
{
	static int cpus[CPU_SETSIZE];
	cpu_set_t allowed;
	int c, n = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return env_set(env, "irq.on_run_cpus", UNAVAILABLE);
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			cpus[n++] = c;
	return env_add_irq(env, cpus, n);
}

int env_capture_tuning(struct env *env)
{
	if (set_line(env, "cpu.isolcpus", SYS_CPU "/isolated", UNAVAILABLE,
		     "none") ||
	    set_line(env, "cpu.nohz_full", SYS_CPU "/nohz_full", ABSENT,
		     "none") ||
	    set_line(env, "cpuidle.driver", SYS_CPU "/cpuidle/current_driver",
		     ABSENT, "none") ||
	    capture_idle_states(env) ||
	    capture_irq(env) ||
	    env_set(env, "irq.balance", process_runs("irqbalance") ?
		    "running" : "not running") ||
	    set_line(env, "kernel.randomize_va_space",
		     "/proc/sys/kernel/randomize_va_space", UNAVAILABLE,
		     UNAVAILABLE) ||
	    set_line(env, "kernel.perf_event_paranoid",
		     "/proc/sys/kernel/perf_event_paranoid", UNAVAILABLE,
		     UNAVAILABLE) ||
	    set_line(env, "kernel.numa_balancing",
		     "/proc/sys/kernel/numa_balancing", ABSENT, UNAVAILABLE))
		return -1;
	return 0;
}

/* Append ", what" (or "what" first) to buf; keeps it terminated. */
static void add_source(char *buf, size_t len, size_t *off, const char *what)
{
	if (*off < len)
		*off += (size_t)snprintf(buf + *off, len - *off, "%s%s",
					 *off ? ", " : "", what);
}

/* True when the stored value v is a number other than 0. */
static bool value_nonzero(const char *v)
{
	return v && isdigit((unsigned char)v[0]) && strcmp(v, "0") != 0;
}

/* True when the stored value v exists and starts with prefix. */
static bool value_is(const char *v, const char *prefix)
{
	return v && strncmp(v, prefix, strlen(prefix)) == 0;
}

/* The IRQs that may land on the run's CPUs, when some may. */
static void add_irq_source(const struct env *env, char *buf, size_t len,
			   size_t *off)
{
	const char *v = env_get(env, "irq.on_run_cpus");
	const char *on = v ? strstr(v, " on CPUs ") : NULL;
	char what[160], *end;
	long landing = on ? strtol(v, &end, 10) : 0;

	if (!on || end == v || landing <= 0 || landing > INT_MAX)
		return;
	snprintf(what, sizeof(what), "%ld IRQs on CPUs %s", landing, on + 9);
	add_source(buf, len, off, what);
}

/* The deepest idle state, when its exit latency shows in a wake-up. */
static void add_idle_source(const struct env *env, char *buf, size_t len,
			    size_t *off)
{
	const char *v = env_get(env, "cpuidle.deepest");
	const char *lat = v ? strstr(v, "(exit latency ") : NULL;
	char what[160], name[64], *end;
	long us = lat ? strtol(lat + strlen("(exit latency "), &end, 10) : 0;

	if (!lat || end == lat + strlen("(exit latency ") ||
	    us < DEEP_IDLE_US || sscanf(v, "%63s", name) != 1)
		return;
	snprintf(what, sizeof(what), "idle state %s (%ld us exit)", name, us);
	add_source(buf, len, off, what);
}

size_t env_noise_sources(const struct env *env, char *buf, size_t len)
{
	const char *gov = env_get(env, "cpufreq.governor");
	const char *defrag = env_get(env, "thp.defrag");
	char what[160];
	size_t off = 0;

	buf[0] = '\0';
	if (gov && strcmp(gov, "performance") != 0 &&
	    strcmp(gov, ABSENT) != 0 && strcmp(gov, UNAVAILABLE) != 0) {
		snprintf(what, sizeof(what), "governor %s", gov);
		add_source(buf, len, &off, what);
	}
	if (value_is(env_get(env, "cpufreq.boost"), "1"))
		add_source(buf, len, &off, "boost on");
	if (value_is(env_get(env, "cpu.smt"), "1"))
		add_source(buf, len, &off, "SMT on");
	add_idle_source(env, buf, len, &off);
	add_irq_source(env, buf, len, &off);
	if (value_is(env_get(env, "irq.balance"), "running"))
		add_source(buf, len, &off, "irqbalance running");
	if (value_nonzero(env_get(env, "kernel.randomize_va_space")))
		add_source(buf, len, &off, "ASLR on");
	if (value_nonzero(env_get(env, "kernel.numa_balancing")))
		add_source(buf, len, &off, "NUMA balancing on");
	if (defrag && strcmp(defrag, "always") == 0)
		add_source(buf, len, &off, "THP defrag always");
	if (value_is(env_get(env, "virt.hypervisor"), "yes"))
		add_source(buf, len, &off, "a hypervisor (steal time)");
	return off;
}
