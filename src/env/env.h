/*
 * env.h - capture of the environment a run was measured in.
 *
 * An ordered list of key/value strings: kernel release and version,
 * /proc/cmdline, CPU model, microcode, copy-relevant CPU flags, CPU
 * vulnerabilities, online CPUs, SMT, NUMA nodes, cpufreq governor and
 * boost, clocksource, THP, pipe sysctls, the noise settings of
 * env_tuning.c (isolcpus, nohz_full, idle states, IRQs, ASLR, ...), hypervisor, boot id, hostname,
 * copyscope version, compiler and flags, libc version.  What cannot be read
 * is stored as "unavailable" (never silently omitted).
 */
#ifndef COPYSCOPE_ENV_H
#define COPYSCOPE_ENV_H

#include <sched.h>
#include <stddef.h>
#include <stdio.h>

struct env_item {
	char *key;
	char *value;
};

struct env {
	struct env_item *items;
	size_t n, cap;
	/* a hash index of the keys (open addressing: item index + 1, 0
	   empty; nslots a power of two, 0: none yet), so that env_set and
	   env_get are not linear in the keys: env.c owns it */
	size_t *slots, nslots;
};

/* Fill env with everything this machine tells.  Returns 0 or -1 (ENOMEM). */
int env_capture(struct env *env);

/* Append or replace a key, in constant time on average.  Returns 0 or -1
   (ENOMEM). */
int env_set(struct env *env, const char *key, const char *value);

/* Value of key, or NULL. */
const char *env_get(const struct env *env, const char *key);

void env_free(struct env *env);

/*
 * Add the settings that add noise (env_tuning.c): cpu.isolcpus,
 * cpu.nohz_full, cpuidle.driver/states/deepest, irq.on_run_cpus (over
 * the CPUs this process may use), irq.balance,
 * kernel.randomize_va_space, kernel.perf_event_paranoid and
 * kernel.numa_balancing.  env_capture() calls it.  0 or -1 (ENOMEM).
 */
int env_capture_tuning(struct env *env);

/*
 * Set irq.on_run_cpus to how many IRQs may land on the given CPUs (the
 * run's --cpus): "3 of 19 IRQs may land on CPUs 0-1".  0 or -1 (ENOMEM).
 */
int env_add_irq(struct env *env, const int *cpus, int ncpus);

/* Parse a kernel CPU list ("0-3,6") into set; 0, or -1 when malformed. */
int env_parse_cpu_list(const char *text, cpu_set_t *set);

/*
 * Write into buf the noise sources env shows, ", " between them
 * ("governor powersave, boost on, SMT on, 19 IRQs on CPUs 0-1"): only
 * those present.  Returns the length written (0: none).
 */
size_t env_noise_sources(const struct env *env, char *buf, size_t len);

/* Print as aligned "key  value" lines (long values wrapped at 80 cols). */
void env_print(const struct env *env, FILE *out);

/*
 * Read the first line of a file into buf without its newline; returns 0,
 * or -1 with errno set.  Shared helper for /proc and /sys reads.
 */
int env_read_line(const char *path, char *buf, size_t len);

#endif
