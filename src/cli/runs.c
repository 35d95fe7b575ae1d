/*
 * runs.c - `copyscope runs`: the stored runs, oldest first.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

static void runs_usage(FILE *out)
{
	fprintf(out,
"usage: copyscope runs [--tags] [--db PATH]\n"
"\n"
"Lists stored runs: id, start time (UTC), status, tag, host, kernel and the\n"
"first 8 characters of the boot id, then the command line.\n"
"  --tags   the distinct tags instead, one per line, oldest first (for\n"
"           shell completion and scripts)\n");
}

void cli_format_time(int64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (ns <= 0 || !gmtime_r(&t, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

/* The distinct tags of runs, oldest first, one per line. */
static void print_tags(const struct run_info *runs, size_t n)
{
	char tag[512];
	size_t i, k;

	for (i = 0; i < n; i++) {
		bool seen = !runs[i].tag[0];

		for (k = 0; k < i && !seen; k++)
			seen = strcmp(runs[k].tag, runs[i].tag) == 0;
		if (seen)
			continue;
		cli_clean_text(runs[i].tag, tag, sizeof(tag));
		printf("%s\n", tag);
	}
}

int cmd_runs(int argc, char **argv)
{
	struct run_info *runs = NULL;
	const char *db = NULL, *v;
	struct store *st;
	char path[4096], err[512];
	size_t n = 0, i;
	bool absent, tags = false;
	int e, missing;

	for (int a = 1; a < argc; a++) {
		if (cli_is_help(argv[a])) {
			runs_usage(stdout);
			return EXIT_OK;
		}
		if (strcmp(argv[a], "--tags") == 0) {
			tags = true;
			continue;
		}
		v = cli_opt_value(argc, argv, &a, "--db", &missing);
		if (missing)
			return cli_usage("runs", "--db needs a value");
		if (!v)
			return cli_usage("runs", "unknown argument '%s'",
					 argv[a]);
		db = v;
	}
	e = cli_open_existing_store(db, &st, path, sizeof(path), &absent);
	if (e)
		return e;
	if (absent) {
		if (!tags)
			printf("no runs stored in %s (no database there yet)\n",
			       path);
		return EXIT_OK;
	}
	if (store_list_runs(st, &runs, &n, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		store_close(st);
		return EXIT_FAIL;
	}
	if (tags)
		print_tags(runs, n);
	else if (n == 0)
		printf("no runs stored in %s\n", path);
	else
		printf("%4s  %-16s  %-11s %-10s %-8s %-16s %-8s %s\n", "id",
		       "started (UTC)", "status", "tag", "host", "kernel",
		       "boot", "res");
	for (i = 0; i < n && !tags; i++) {
		char when[32], tag[512], host[512], kernel[384], boot[256];
		char cmd[300];

		cli_format_time(runs[i].started_ns, when, sizeof(when));
		cli_clean_text(runs[i].tag[0] ? runs[i].tag : "-", tag,
			       sizeof(tag));
		cli_clean_text(runs[i].host, host, sizeof(host));
		cli_clean_text(runs[i].kernel[0] ? runs[i].kernel : "?",
			       kernel, sizeof(kernel));
		cli_clean_text(runs[i].boot_id, boot, sizeof(boot));
		cli_clean_text(runs[i].cmdline, cmd, sizeof(cmd));
		printf("%4lld  %-16.16s  %-11s %-10.10s %-8.8s %-16.16s %-8.8s "
		       "%d\n", (long long)runs[i].id, when, runs[i].status,
		       tag, host, kernel, boot, runs[i].nresults);
		printf("      %.74s\n", cmd);
	}
	store_free_runs(runs, n);
	store_close(st);
	return EXIT_OK;
}
