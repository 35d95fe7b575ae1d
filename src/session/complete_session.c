/*
 * complete_session.c - the completion words only the program knows (see
 * complete_session.h): stored run ids and observations from the store,
 * pipe.mix's presets from its table, and ab's setting keys from the files
 * under /proc/sys and /sys/kernel/mm/transparent_hugepage.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/complete_session.h"
#include "workloads/mix.h"

/* Where ab's settings live (session/settings_priv.h names them too). */
#define SYSCTL_ROOT "/proc/sys"
#define THP_ROOT "/sys/kernel/mm/transparent_hugepage"

/* How deep the key walks go (net/ipv4/conf/IF/KEY is 5). */
#define WALK_DEPTH 6

/*
 * Print the writable regular files under dir (rel: their path below the
 * root so far), as keys: '/' between the parts, or '.' when dotted and no
 * part holds a dot (sysctl's vm.swappiness).
 */
static void walk_keys(FILE *out, const char *dir, const char *rel,
		      int depth, bool dotted)
{
	char path[1024], sub[512];
	struct dirent *de;
	struct stat sb;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		snprintf(sub, sizeof(sub), "%s%s%s", rel, rel[0] ? "/" : "",
			 de->d_name);
		if (lstat(path, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode) && depth < WALK_DEPTH)
			walk_keys(out, path, sub, depth + 1, dotted);
		else if (S_ISREG(sb.st_mode) && (sb.st_mode & 0222)) {
			char *p;

			if (dotted && !strchr(sub, '.'))
				for (p = sub; *p; p++)
					if (*p == '/')
						*p = '.';
			fprintf(out, "%s\n", sub);
		}
	}
	(void)closedir(d);	/* read-only stream: nothing to lose */
}

/* True when a stored run is an observation: its command is observe. */
static bool is_observation(const struct run_info *r)
{
	const char *c = r->cmdline, *sp = c ? strchr(c, ' ') : NULL;

	return sp && strncmp(sp + 1, "observe", 7) == 0 &&
	       (sp[8] == ' ' || sp[8] == '\0');
}

/* Run ids (observations: observed:ID only), oldest first.  0 or 1. */
static int print_runs(FILE *out, struct store *st, bool observations)
{
	struct run_info *runs = NULL;
	char err[512];
	size_t n = 0, i;

	if (!st)
		return 0;
	if (store_list_runs(st, &runs, &n, err, sizeof(err)) != 0)
		return 1;
	for (i = 0; i < n; i++) {
		if (!observations)
			fprintf(out, "%lld\n", (long long)runs[i].id);
		else if (is_observation(&runs[i]))
			fprintf(out, "observed:%lld\n", (long long)runs[i].id);
	}
	store_free_runs(runs, n);
	return 0;
}

int session_complete(const char *kind, struct store *st, FILE *out)
{
	size_t i;

	if (strcmp(kind, "runs") == 0)
		return print_runs(out, st, false);
	if (strcmp(kind, "mix") == 0) {
		for (i = 0; i < mix_npresets; i++)
			fprintf(out, "%s\n", mix_presets[i].name);
		return print_runs(out, st, true);
	}
	if (strcmp(kind, "sysctl") == 0) {
		walk_keys(out, SYSCTL_ROOT, "", 1, true);
		return 0;
	}
	if (strcmp(kind, "thp") == 0) {
		walk_keys(out, THP_ROOT, "", 1, false);
		return 0;
	}
	return 2;
}
