/*
 * runs.c - `copyscope runs`: the stored runs, oldest first; those that
 * RUNS select (ids, tags, host:, kernel:, boot: ...; store_select_runs),
 * and with --by-host grouped under the host that measured them.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "report/format.h"
#include "util/array.h"

struct runs_cli {
	const char *db;
	bool by_host, tags;
	int last;			/* --last N; 0: all */
};

static const struct opt_row runs_rows[] = {
	{ OPT_R("--by-host", OPT_FLAG, NULL), "group the runs under the host "
	  "that measured them, each with its count, kernels and last run",
	  offsetof(struct runs_cli, by_host) },
	{ OPT_R("--tags", OPT_FLAG, NULL), "the distinct tags of the runs "
	  "instead, one per line, oldest first (for shell completion and "
	  "scripts)", offsetof(struct runs_cli, tags) },
	{ OPT_R("--last", OPT_INT, "N"), "only the N newest of the runs "
	  "selected (still oldest first), as the selector 'last' is the "
	  "newest one", offsetof(struct runs_cli, last), .lo = 1,
	  .hi = 100000 },
	OPT_ROW_DB(struct runs_cli, db, OPT_HELP_DB),
};

static void runs_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd runs_cmd = {
	.name = "runs", .rows = runs_rows,
	.nrows = ARRAY_SIZE(runs_rows), .help_col = 14,
	.max_pos = -1, .pos = OPT_C_RUNS, .usage = runs_usage,
};

static void runs_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"usage: copyscope runs [RUNS ...] [--last N] [--by-host|--tags]\n"
"                      [--db PATH|URL]\n"
"\n"
"Lists stored runs: id, start time (UTC), status, tag, host, kernel and the\n"
"first 8 characters of the boot id, then the command line.\n"
"\n"
"RUNS selects which, as a side of 'compare' does: a run id, a tag, 'last',\n"
"host:PATTERN, kernel:PATTERN (the kernel release), boot:PATTERN (a word of\n"
"the kernel command line), tag:PATTERN; PATTERN is a shell glob; '+' joins\n"
"terms that must all hold, ',' lists.  Several RUNS: the runs of any.\n"
"\n"
"options:\n");
	opt_print_options(out, c);
	fprintf(out,
"\nexamples:\n"
"  copyscope runs --last 10\n"
"  copyscope runs host:lab3\n"
"  copyscope runs 'kernel:6.18.*' --by-host\n"
"  copyscope runs host:lab1+tag:nightly --db postgresql://lab/copyscope\n");
}

void cli_format_time(int64_t ns, char *buf, size_t len)
{
	fmt_utc_time(ns, buf, len);
}

/* The distinct tags of runs, oldest first, one per line. */
static void print_tags(const struct run_info *runs, size_t n,
		       const bool *keep)
{
	char tag[512];
	size_t i, k;

	for (i = 0; i < n; i++) {
		bool seen = !keep[i] || !runs[i].tag[0];

		for (k = 0; k < i && !seen; k++)
			seen = keep[k] && strcmp(runs[k].tag, runs[i].tag) == 0;
		if (seen)
			continue;
		cli_clean_text(runs[i].tag, tag, sizeof(tag));
		printf("%s\n", tag);
	}
}

/* The ids of runs[] that any of specs selects, as flags; 0 or exit. */
static int select_specs(struct store *st, char **specs, size_t nspecs,
			const struct run_info *runs, size_t n, bool *keep)
{
	enum store_select_status ss;
	int64_t *ids;
	char err[512];
	size_t nids, i, j, k;

	for (k = 0; k < nspecs; k++) {
		ss = store_select_runs(st, specs[k], &ids, &nids, err,
				       sizeof(err));
		if (ss == STORE_SELECT_EMPTY_ITEM)
			return cli_usage("runs", "%s", err);
		if (ss == STORE_SELECT_NO_MATCH)
			return cli_usage("runs", "%s", err);
		if (ss != STORE_SELECT_OK) {
			cli_error("%s", err);
			return EXIT_FAIL;
		}
		for (i = 0; i < n; i++)
			for (j = 0; j < nids && !keep[i]; j++)
				keep[i] = runs[i].id == ids[j];
		free(ids);
	}
	return 0;
}

static void print_run(const struct run_info *r)
{
	char when[32], tag[512], host[512], kernel[384], boot[256];
	char cmd[300];

	cli_format_time(r->started_ns, when, sizeof(when));
	cli_clean_text(r->tag[0] ? r->tag : "-", tag, sizeof(tag));
	cli_clean_text(r->host, host, sizeof(host));
	cli_clean_text(r->kernel[0] ? r->kernel : "?", kernel,
		       sizeof(kernel));
	cli_clean_text(r->boot_id, boot, sizeof(boot));
	cli_clean_text(r->cmdline, cmd, sizeof(cmd));
	printf("%4lld  %-16.16s  %-11s %-10.10s %-8.8s %-16.16s %-8.8s "
	       "%d\n", (long long)r->id, when, r->status, tag, host, kernel,
	       boot, r->nresults);
	printf("      %.74s\n", cmd);
}

static void print_header(void)
{
	printf("%4s  %-16s  %-11s %-10s %-8s %-16s %-8s %s\n", "id",
	       "started (UTC)", "status", "tag", "host", "kernel", "boot",
	       "res");
}

/*
 * One host's heading: its name, how many runs, its kernels (first seen
 * first) and when it last ran.
 */
static void print_host(const struct run_info *runs, size_t n,
		       const bool *keep, const char *h)
{
	const char *kernels[8];
	char name[512], when[32], kernel[384], line[1024];
	size_t i, j, cnt = 0, nk = 0, used;
	int64_t last = 0;

	for (i = 0; i < n; i++) {
		if (!keep[i] || strcmp(runs[i].host, h) != 0)
			continue;
		cnt++;
		if (runs[i].started_ns > last)
			last = runs[i].started_ns;
		for (j = 0; j < nk && strcmp(kernels[j], runs[i].kernel) != 0;
		     j++)
			;
		if (j == nk && nk < 8)
			kernels[nk++] = runs[i].kernel;
	}
	cli_clean_text(h[0] ? h : "?", name, sizeof(name));
	cli_format_time(last, when, sizeof(when));
	used = (size_t)snprintf(line, sizeof(line), "host %s: %zu run%s, "
				"last %s; kernel%s", name, cnt,
				cnt == 1 ? "" : "s", when, nk == 1 ? "" : "s");
	for (j = 0; j < nk && used < sizeof(line); j++) {
		cli_clean_text(kernels[j][0] ? kernels[j] : "?", kernel,
			       sizeof(kernel));
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "%s %s", j ? "," : "", kernel);
	}
	printf("\n%s\n", line);
}

/* The runs kept, grouped by host (hosts in the order first seen). */
static void print_by_host(const struct run_info *runs, size_t n,
			  const bool *keep)
{
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		for (j = 0; j < i && (!keep[j] ||
				      strcmp(runs[j].host, runs[i].host) != 0);
		     j++)
			;
		if (j < i)
			continue;	/* this host was printed */
		print_host(runs, n, keep, runs[i].host);
		print_header();
		for (k = i; k < n; k++)
			if (keep[k] && strcmp(runs[k].host, runs[i].host) == 0)
				print_run(&runs[k]);
	}
}

/* --last N: of the runs kept (oldest first), only the N newest stay. */
static void keep_last(size_t n, bool *keep, int last)
{
	size_t i, seen = 0;

	if (last <= 0)
		return;
	for (i = n; i > 0; i--)
		if (keep[i - 1] && ++seen > (size_t)last)
			keep[i - 1] = false;
}

int cmd_runs(int argc, char **argv)
{
	struct run_info *runs = NULL;
	struct runs_cli rc = { 0 };
	struct opt_result res;
	const char *db;
	struct store *st;
	char path[4096], err[512], **specs;
	size_t n = 0, i, nspecs = 0;
	bool absent, by_host, tags, *keep = NULL;
	int e;

	e = opt_parse(&runs_cmd, argc, argv, &rc, &res);
	if (e)
		return e < 0 ? EXIT_OK : e;
	specs = res.pos;
	nspecs = (size_t)res.npos;
	db = rc.db;
	by_host = rc.by_host;
	tags = rc.tags;
	if (tags && by_host) {
		free(specs);
		return cli_usage("runs", "--tags and --by-host: one or the "
				 "other");
	}
	e = cli_open_existing_store(db, &st, path, sizeof(path), &absent);
	if (e) {
		free(specs);
		return e;
	}
	if (absent) {
		if (nspecs)
			e = cli_usage("runs", "'%s' selects no stored run "
				      "(no database at %s yet)", specs[0],
				      path);
		else if (!tags)
			printf("no runs stored in %s (no database there "
			       "yet)\n", path);
		free(specs);
		return e;
	}
	if (store_list_runs(st, &runs, &n, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		e = EXIT_FAIL;
		goto out;
	}
	keep = calloc(n ? n : 1, sizeof(*keep));
	if (!keep) {
		cli_error("out of memory");
		e = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < n; i++)
		keep[i] = nspecs == 0;
	if (nspecs && (e = select_specs(st, specs, nspecs, runs, n, keep)))
		goto out;
	keep_last(n, keep, rc.last);
	if (tags)
		print_tags(runs, n, keep);
	else if (n == 0)
		printf("no runs stored in %s\n", path);
	else if (by_host)
		print_by_host(runs, n, keep);
	else
		print_header();
	for (i = 0; i < n && !by_host && !tags; i++)
		if (keep[i])
			print_run(&runs[i]);
out:
	free(keep);
	free(specs);
	store_free_runs(runs, n);
	store_close(st);
	return e;
}
