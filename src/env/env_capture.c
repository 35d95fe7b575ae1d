/*
 * env_capture.c - capture of the environment a run was measured in.
 *
 * Reads /proc, /sys, uname() and build-time macros into an ordered list of
 * dotted key/value strings.  Keys always appear in the same order; a value
 * that cannot be read is recorded as "unavailable" (cpufreq values are
 * "absent" on machines without cpufreq), never omitted.
 */
#include <dirent.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "env/env.h"
#include "env/env_arm64.h"

#include "util/array.h"

#ifndef COPYSCOPE_VERSION
#define COPYSCOPE_VERSION "unknown"
#endif
#ifndef COPYSCOPE_BUILD_FLAVOUR
#define COPYSCOPE_BUILD_FLAVOUR "unknown"
#endif
#ifndef COPYSCOPE_CFLAGS
#define COPYSCOPE_CFLAGS "unknown"
#endif

#if defined(__clang__)
#define ENV_COMPILER __VERSION__
#elif defined(__GNUC__)
#define ENV_COMPILER "gcc " __VERSION__
#else
#define ENV_COMPILER __VERSION__
#endif

#define UNAVAILABLE "unavailable"
#define ABSENT "absent"

#define SYS_CPU "/sys/devices/system/cpu"

/* CPU flags that matter to copies, in the order they are reported. */
static const char *const copy_flags[] = {
	"smap", "smep", "fsrm", "erms", "avx2", "avx512f", "pti",
	"rdtscp", "constant_tsc", "nonstop_tsc", "hypervisor",
};

/* FNV-1a of a key. */
static size_t key_hash(const char *key)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 0x100000001b3ULL;
	return (size_t)h;
}

/* The slot that holds key, or the empty one where it would go. */
static size_t *key_slot(const struct env *env, const char *key)
{
	size_t mask = env->nslots - 1, i = key_hash(key) & mask;

	while (env->slots[i] &&
	       strcmp(env->items[env->slots[i] - 1].key, key) != 0)
		i = (i + 1) & mask;
	return &env->slots[i];
}

/* Room for one more key in the index (at most half full).  0 or -1. */
static int index_grow(struct env *env)
{
	size_t n = env->nslots ? env->nslots : 64, i;

	while (n < 2 * (env->n + 1))
		n *= 2;
	if (n == env->nslots)
		return 0;
	free(env->slots);
	env->slots = calloc(n, sizeof(*env->slots));
	env->nslots = env->slots ? n : 0;
	if (!env->slots)
		return -1;
	for (i = 0; i < env->n; i++)
		*key_slot(env, env->items[i].key) = i + 1;
	return 0;
}

int env_set(struct env *env, const char *key, const char *value)
{
	struct env_item *items;
	size_t cap, *slot;
	char *k, *v;

	v = strdup(value);
	if (!v || index_grow(env)) {
		free(v);
		return -1;
	}
	slot = key_slot(env, key);
	if (*slot) {
		free(env->items[*slot - 1].value);
		env->items[*slot - 1].value = v;
		return 0;
	}
	if (env->n == env->cap) {
		cap = env->cap ? env->cap * 2 : 64;
		items = realloc(env->items, cap * sizeof(*items));
		if (!items) {
			free(v);
			return -1;
		}
		env->items = items;
		env->cap = cap;
	}
	k = strdup(key);
	if (!k) {
		free(v);
		return -1;
	}
	env->items[env->n].key = k;
	env->items[env->n].value = v;
	*slot = ++env->n;
	return 0;
}

const char *env_get(const struct env *env, const char *key)
{
	size_t *slot;

	if (!env->nslots)
		return NULL;
	slot = key_slot(env, key);
	return *slot ? env->items[*slot - 1].value : NULL;
}

void env_free(struct env *env)
{
	size_t i;

	for (i = 0; i < env->n; i++) {
		free(env->items[i].key);
		free(env->items[i].value);
	}
	free(env->items);
	free(env->slots);
	env->items = NULL;
	env->slots = NULL;
	env->n = 0;
	env->cap = 0;
	env->nslots = 0;
}

int env_read_line(const char *path, char *buf, size_t len)
{
	FILE *f;
	int saved;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		saved = ferror(f) ? errno : 0;
		buf[0] = '\0';
		if (fclose(f) != 0 && !saved)
			saved = errno;
		if (saved) {
			errno = saved;
			return -1;
		}
		return 0;	/* empty file: empty line */
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (fclose(f) != 0)
		return -1;
	return 0;
}

/* Set key to the first line of path, or "unavailable". */
static int set_file(struct env *env, const char *key, const char *path)
{
	char buf[4096];

	if (env_read_line(path, buf, sizeof(buf)) != 0)
		return env_set(env, key, UNAVAILABLE);
	return env_set(env, key, buf);
}

static bool is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* True if the space-separated list contains word. */
static bool has_word(const char *list, const char *word)
{
	size_t wl = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == list || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[wl] == '\0' || p[wl] == ' ' || p[wl] == '\t' ||
		     p[wl] == '\n'))
			return true;
		p += wl;
	}
	return false;
}

struct cpuinfo {
	char *model;		/* NULL if not found */
	char *microcode;
	char *flags;
};

static void cpuinfo_free(struct cpuinfo *ci)
{
	free(ci->model);
	free(ci->microcode);
	free(ci->flags);
}

/* Value after "name<tabs>: " in a cpuinfo line, or NULL if not that name. */
static const char *cpuinfo_field(const char *line, const char *name)
{
	size_t nl = strlen(name);
	const char *p;

	if (strncmp(line, name, nl) != 0)
		return NULL;
	p = line + nl;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	return p;
}

/* Store a copy of v (without its newline) into *dst once; -1 on ENOMEM. */
static int keep_first(char **dst, const char *v)
{
	if (*dst || !v)
		return 0;
	*dst = strndup(v, strcspn(v, "\n"));
	return *dst ? 0 : -1;
}

/*
 * First CPU's model name, microcode and flags.  Missing fields stay NULL.
 * Returns -1 only on ENOMEM.
 */
static int read_cpuinfo(struct cpuinfo *ci)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int ret = 0;

	f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		if (keep_first(&ci->model, cpuinfo_field(line, "model name")) ||
		    keep_first(&ci->microcode,
			       cpuinfo_field(line, "microcode")) ||
		    keep_first(&ci->flags, cpuinfo_field(line, "flags"))) {
			ret = -1;
			break;
		}
		if (ci->model && ci->microcode && ci->flags)
			break;
	}
	free(line);
	(void)fclose(f);	/* read-only stream: nothing to lose */
	return ret;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* cpu.vuln.<name> for each vulnerability file, sorted by name. */
static int capture_vulns(struct env *env)
{
	const char *dir = SYS_CPU "/vulnerabilities";
	char **names = NULL, **tmp;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	char key[320], path[512];
	int ret = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return env_set(env, "cpu.vuln", UNAVAILABLE);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			tmp = realloc(names, cap * sizeof(*names));
			if (!tmp) {
				ret = -1;
				goto out;
			}
			names = tmp;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			ret = -1;
			goto out;
		}
		n++;
	}
	if (n == 0) {
		ret = env_set(env, "cpu.vuln", UNAVAILABLE);
		goto out;
	}
	qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n && ret == 0; i++) {
		snprintf(key, sizeof(key), "cpu.vuln.%s", names[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		ret = set_file(env, key, path);
	}
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	(void)closedir(d);	/* read-only stream: nothing to lose */
	return ret;
}

static int capture_cpufreq(struct env *env)
{
	char buf[64], val[96];

	if (!is_dir(SYS_CPU "/cpu0/cpufreq") &&
	    !is_dir(SYS_CPU "/cpufreq/policy0")) {
		if (env_set(env, "cpufreq.governor", ABSENT))
			return -1;
		return env_set(env, "cpufreq.boost", ABSENT);
	}
	if (set_file(env, "cpufreq.governor",
		     SYS_CPU "/cpu0/cpufreq/scaling_governor"))
		return -1;
	if (env_read_line(SYS_CPU "/cpufreq/boost", buf, sizeof(buf)) == 0)
		return env_set(env, "cpufreq.boost", buf);
	if (env_read_line(SYS_CPU "/intel_pstate/no_turbo", buf,
			  sizeof(buf)) == 0) {
		snprintf(val, sizeof(val), "%s (intel_pstate no_turbo=%s)",
			 strcmp(buf, "0") == 0 ? "1" : "0", buf);
		return env_set(env, "cpufreq.boost", val);
	}
	return env_set(env, "cpufreq.boost", UNAVAILABLE);
}

/* The selected word of "always [madvise] never", else the raw line. */
static int capture_thp(struct env *env)
{
	char buf[256];
	char *lb, *rb;

	if (env_read_line("/sys/kernel/mm/transparent_hugepage/enabled", buf,
			  sizeof(buf)) != 0)
		return env_set(env, "thp.enabled", UNAVAILABLE);
	lb = strchr(buf, '[');
	rb = lb ? strchr(lb, ']') : NULL;
	if (lb && rb) {
		*rb = '\0';
		return env_set(env, "thp.enabled", lb + 1);
	}
	return env_set(env, "thp.enabled", buf);
}

static int capture_virt(struct env *env, const char *flags)
{
	char type[128], val[256];
	const char *yn;

	if (!flags)
		yn = UNAVAILABLE;
	else
		yn = has_word(flags, "hypervisor") ? "yes" : "no";
	if (env_read_line("/sys/hypervisor/type", type, sizeof(type)) == 0 &&
	    type[0]) {
		snprintf(val, sizeof(val), "%s (hypervisor type: %s)", yn,
			 type);
	} else if (env_read_line("/sys/class/dmi/id/product_name", type,
				 sizeof(type)) == 0 && type[0]) {
		snprintf(val, sizeof(val), "%s (dmi product: %s)", yn, type);
	} else {
		snprintf(val, sizeof(val), "%s", yn);
	}
	return env_set(env, "virt.hypervisor", val);
}

/* mem.total: the machine's memory in bytes (for the mail's machine line). */
static int capture_mem(struct env *env)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	char buf[32];

	if (pages > 0 && size > 0)
		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)pages * (unsigned long long)size);
	else
		snprintf(buf, sizeof(buf), "%s", UNAVAILABLE);
	return env_set(env, "mem.total", buf);
}

static int capture_cpu(struct env *env, struct cpuinfo *ci)
{
	char buf[512];
	size_t i, off = 0;
	long ncpu;

	if (env_set(env, "cpu.model", ci->model ? ci->model : UNAVAILABLE) ||
	    env_set(env, "cpu.microcode",
		    ci->microcode ? ci->microcode : UNAVAILABLE))
		return -1;
	if (ci->flags) {
		buf[0] = '\0';
		for (i = 0; i < ARRAY_SIZE(copy_flags);
		     i++) {
			if (!has_word(ci->flags, copy_flags[i]))
				continue;
			off += snprintf(buf + off, sizeof(buf) - off, "%s%s",
					off ? " " : "", copy_flags[i]);
		}
		if (env_set(env, "cpu.flags", off ? buf : "none"))
			return -1;
	} else if (env_set(env, "cpu.flags", UNAVAILABLE)) {
		return -1;
	}
	if (capture_vulns(env) ||
	    set_file(env, "cpu.online", SYS_CPU "/online"))
		return -1;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu > 0)
		snprintf(buf, sizeof(buf), "%ld", ncpu);
	else
		snprintf(buf, sizeof(buf), "%s", UNAVAILABLE);
	if (env_set(env, "cpu.count", buf) ||
	    set_file(env, "cpu.smt", SYS_CPU "/smt/active"))
		return -1;
	return capture_mem(env);
}

int env_capture(struct env *env)
{
	struct cpuinfo ci = { NULL, NULL, NULL };
	struct utsname un;
	bool have_un;
	int ret = -1;

	have_un = uname(&un) == 0;
	if (read_cpuinfo(&ci))
		goto out;

	if (env_set(env, "kernel.release",
		    have_un ? un.release : UNAVAILABLE) ||
	    env_set(env, "kernel.version",
		    have_un ? un.version : UNAVAILABLE) ||
	    env_set(env, "kernel.machine",
		    have_un ? un.machine : UNAVAILABLE) ||
	    set_file(env, "kernel.cmdline", "/proc/cmdline") ||
	    capture_cpu(env, &ci) ||
	    env_arm64_capture(env) ||
	    set_file(env, "numa.nodes", "/sys/devices/system/node/online") ||
	    capture_cpufreq(env) ||
	    set_file(env, "clocksource.current",
		     "/sys/devices/system/clocksource/clocksource0/"
		     "current_clocksource") ||
	    capture_thp(env) ||
	    set_file(env, "fs.pipe_max_size", "/proc/sys/fs/pipe-max-size") ||
	    set_file(env, "fs.pipe_user_pages_soft",
		     "/proc/sys/fs/pipe-user-pages-soft") ||
	    capture_virt(env, ci.flags) ||
	    set_file(env, "boot_id", "/proc/sys/kernel/random/boot_id") ||
	    env_set(env, "hostname", have_un ? un.nodename : UNAVAILABLE) ||
	    env_set(env, "copyscope.version", COPYSCOPE_VERSION) ||
	    env_set(env, "copyscope.build_flavour", COPYSCOPE_BUILD_FLAVOUR) ||
	    env_set(env, "copyscope.cflags", COPYSCOPE_CFLAGS) ||
	    env_set(env, "compiler", ENV_COMPILER) ||
	    env_set(env, "libc", gnu_get_libc_version()))
		goto out;
	ret = 0;
out:
	cpuinfo_free(&ci);
	return ret;
}

#define PRINT_COLS 80
#define PRINT_MAX_KEY 36

/* Print value wrapped to width columns, continuation lines at indent. */
static void print_wrapped(FILE *out, const char *v, int indent, int width)
{
	size_t len, cut;
	bool first = true;

	do {
		len = strlen(v);
		cut = len;
		if (len > (size_t)width) {
			/* at a space, or after a comma (kept on the line) */
			cut = (size_t)width;
			while (cut > 0 && v[cut] != ' ' && v[cut - 1] != ',')
				cut--;
			/* one word longer than the line: whole, never cut */
			if (cut == 0)
				cut = strcspn(v, " ,") + (v[strcspn(v, " ,")] ==
							 ',');
		}
		if (!first)
			fprintf(out, "%*s", indent, "");
		fprintf(out, "%.*s\n", (int)cut, v);
		first = false;
		v += cut;
		while (*v == ' ')
			v++;
	} while (*v);
}

void env_print(const struct env *env, FILE *out)
{
	size_t i, kl, w = 0;
	int indent;

	for (i = 0; i < env->n; i++) {
		kl = strlen(env->items[i].key);
		if (kl > w)
			w = kl;
	}
	if (w > PRINT_MAX_KEY)
		w = PRINT_MAX_KEY;
	indent = (int)w + 2;
	for (i = 0; i < env->n; i++) {
		const struct env_item *it = &env->items[i];

		kl = strlen(it->key);
		if (kl > w)	/* key too long to align: value below it */
			fprintf(out, "%s\n%*s", it->key, indent, "");
		else
			fprintf(out, "%-*s", indent, it->key);
		print_wrapped(out, it->value, indent, PRINT_COLS - indent);
	}
}
