/*
 * env.h - capture of the environment a run was measured in.
 *
 * An ordered list of key/value strings: kernel release and version,
 * /proc/cmdline, CPU model, microcode, copy-relevant CPU flags, CPU
 * vulnerabilities, online CPUs, SMT, NUMA nodes, cpufreq governor and
 * boost, clocksource, THP, pipe sysctls, hypervisor, boot id, hostname,
 * copyscope version, compiler and flags, libc version.  What cannot be read
 * is stored as "unavailable" (never silently omitted).
 */
#ifndef COPYSCOPE_ENV_H
#define COPYSCOPE_ENV_H

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

/* Print as aligned "key  value" lines (long values wrapped at 80 cols). */
void env_print(const struct env *env, FILE *out);

/*
 * Read the first line of a file into buf without its newline; returns 0,
 * or -1 with errno set.  Shared helper for /proc and /sys reads.
 */
int env_read_line(const char *path, char *buf, size_t len);

#endif
