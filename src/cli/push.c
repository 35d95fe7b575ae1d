/*
 * push.c - `copyscope push [RUNS ...] --to URL`: copy runs of the local
 * store (a host's SQLite file) to a shared one (a lab's PostgreSQL
 * database), so that a host that measures offline hands its runs over
 * later.  Each run is added whole in one transaction, once by its
 * globally unique id (store_add_run): pushing again, or after a push
 * that was killed half-way, adds what is missing and nothing twice.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "util/array.h"

struct push_args {
	const char *to, *db;
	char **specs;
	size_t nspecs;
	bool quiet;
	int connect_timeout_s, statement_timeout_s;	/* 0: default */
};

#define OPT_BASE struct push_args
static const struct opt_row push_rows[] = {
	OPT_ROW_STR("--to", "URL|PATH", "the database to copy to "
	  "(created tables on first use)", to, .flags = OPT_ONCE,
	  .complete = OPT_C_FILE),
	OPT_ROW_DB(db, "the database to copy from (default "
		   "$COPYSCOPE_DB, else $XDG_DATA_HOME/copyscope/results.db)"),
	OPT_ROW_FLAG("--quiet", "print only the summary line",
	  quiet),
	OPT_ROW_INT("--connect-timeout-s", "S", "seconds to connect "
	  "and log in, 2 .. 3600 (default 10, or the URL's "
	  "connect_timeout)", connect_timeout_s, .lo = 2, .hi = 3600),
	OPT_ROW_INT("--statement-timeout-s", "S", "seconds one "
	  "statement may take, 1 .. 86400 (default 60)",
	  statement_timeout_s, .lo = 1, .hi = 86400),
};
#undef OPT_BASE

static void push_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd push_cmd = {
	.name = "push", .rows = push_rows,
	.nrows = ARRAY_SIZE(push_rows), .help_col = 18,
	.max_pos = -1, .pos = OPT_C_RUNS, .usage = push_usage,
	.synopsis = OPT_SYNOPSIS("[RUNS ...] --to [--db] [--quiet]\n"
				 "[--connect-timeout-s] "
				 "[--statement-timeout-s]"),
};

const struct opt_cmd *cli_push_options(void)
{
	return &push_cmd;
}

static void push_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"Copies stored runs, whole (options, environment, results, samples,\n"
"histograms), from this host's database to a shared one: typically a\n"
"PostgreSQL database of a lab, postgresql://[user@]host[:port]/db?...\n"
"(libpq's URL: sslmode, sslrootcert, sslcert... pass through; keep the\n"
"password in ~/.pgpass or PGPASSWORD, not in the URL).  Each run is added\n"
"in one transaction and only once, by its globally unique id: pushing\n"
"again adds what is not there yet, so a host that measured offline, or a\n"
"push that was stopped half-way, can simply push again.  Runs still\n"
"'running' are left for a later push.\n"
"\n"
"A server that does not answer (stopped, its machine gone) ends the push\n"
"after the timeouts below, naming it, instead of hanging: the connection\n"
"and login get --connect-timeout-s, each statement --statement-timeout-s\n"
"(also set on the server), and TCP keepalives drop a dead link.\n"
"\n"
"RUNS selects which (default: all), as a side of 'compare' does: run ids,\n"
"tags, 'last', host:, kernel:, boot:, tag: patterns, '+' and ',' lists.\n"
"\n"
"options:\n");
	opt_print_options(out, c);
	fprintf(out,
"\nexit: 0 every selected run is there, 1 a run could not be copied (the\n"
"others were), 2 usage or a database that cannot be opened.\n"
"\nexamples:\n"
"  copyscope push --to \\\n"
"      'postgresql://lab.example/copyscope?sslmode=verify-full'\n"
"  copyscope push nightly --to \\\n"
"      'postgresql:///copyscope?host=/run/postgresql'\n");
}


/* Returns 0, -1 after --help, or the usage exit code. */
static int push_parse(int argc, char **argv, struct push_args *pa)
{
	struct opt_result res;
	int e = opt_parse(&push_cmd, argc, argv, pa, &res);

	if (e)
		return e;
	pa->nspecs = (size_t)res.npos;
	memcpy(pa->specs, res.pos, pa->nspecs * sizeof(*pa->specs));
	opt_result_free(&res);
	if (!pa->to)
		return cli_usage("push", "--to: where to? (a postgresql:// "
				 "URL, or a database path)");
	if (!*pa->to)
		return cli_usage("push", "--to: empty database name");
	return 0;
}

/* The run ids to push, oldest first: those specs select, or all. */
static int push_select(struct store *st, const struct push_args *pa,
		       const struct run_info *runs, size_t n, bool *pick)
{
	enum store_select_status ss;
	int64_t *ids;
	char err[512];
	size_t nids, i, j, k;

	for (i = 0; i < n; i++)
		pick[i] = pa->nspecs == 0;
	for (k = 0; k < pa->nspecs; k++) {
		ss = store_select_runs(st, pa->specs[k], &ids, &nids, err,
				       sizeof(err));
		if (ss == STORE_SELECT_EMPTY_ITEM ||
		    ss == STORE_SELECT_NO_MATCH)
			return cli_usage("push", "%s ('copyscope runs' lists "
					 "them)", err);
		if (ss != STORE_SELECT_OK) {
			cli_error("%s", err);
			return EXIT_FAIL;
		}
		for (i = 0; i < n; i++)
			for (j = 0; j < nids && !pick[i]; j++)
				pick[i] = runs[i].id == ids[j];
		free(ids);
	}
	return 0;
}

struct push_count {
	size_t added, there, running, failed;
	size_t same;			/* failures after the first with its
					   message (a server gone): counted,
					   not each printed */
	char last_err[1024];
};

/* Push one run: load it here, add it there.  0, or 1 (printed). */
static int push_one(struct store *from, struct store *to,
		    const struct run_info *r, bool quiet,
		    struct push_count *c)
{
	struct run_data run;
	char err[1024];
	int64_t id;
	int rc;

	/* cheap first: most runs of a repeated push are there already */
	rc = store_find_uuid(to, r->uuid, &id, err, sizeof(err));
	if (rc == 0) {
		c->there++;
		return 0;
	}
	if (rc < 0)
		goto fail;
	if (store_load_run(from, r->id, &run, err, sizeof(err)) != 0)
		goto fail;
	rc = store_add_run(to, &run, err, sizeof(err));
	if (rc >= 0) {
		if (rc == 0 && !quiet)
			printf("run %lld -> run %lld (%zu results)\n",
			       (long long)r->id, (long long)run.info.id,
			       run.results.n);
		if (rc == 0)
			c->added++;
		else
			c->there++;
	}
	run_data_free(&run);
	if (rc >= 0)
		return 0;
fail:
	if (c->failed && strcmp(err, c->last_err) == 0) {
		c->same++;
	} else {
		cli_error("run %lld not pushed: %s", (long long)r->id, err);
		snprintf(c->last_err, sizeof(c->last_err), "%s", err);
	}
	c->failed++;
	return 1;
}

/*
 * Stopped by a signal with nleft runs not looked at (left[0..nleft-1]
 * says which of them were selected): say what was pushed; 130.
 */
static int push_stopped(const struct push_count *c, const bool *left,
			size_t nleft, const char *topath)
{
	char clean[4096 * 4 + 1];
	size_t i, rest = 0;

	for (i = 0; i < nleft; i++)
		rest += left[i];
	cli_clean_text(topath, clean, sizeof(clean));
	return cli_stopped("%zu run%s added to %s, %zu there already, "
			   "%zu failed; %zu not pushed: push again to add "
			   "them (a run already there is not added twice)",
			   c->added, c->added == 1 ? "" : "s", clean,
			   c->there, c->failed, rest);
}

int cmd_push(int argc, char **argv)
{
	struct push_args pa;
	struct push_count c = { 0 };
	struct run_info *runs = NULL;
	struct store *from = NULL, *to = NULL;
	char path[4096], topath[4096], err[512];
	size_t n = 0, i, npick = 0;
	bool absent, *pick = NULL;
	int e;

	memset(&pa, 0, sizeof(pa));
	pa.specs = calloc((size_t)argc + 1, sizeof(*pa.specs));
	if (!pa.specs) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	e = push_parse(argc, argv, &pa);
	if (e) {
		free(pa.specs);
		return e < 0 ? EXIT_OK : e;
	}
	cli_catch_stop();
	e = cli_open_existing_store(pa.db, &from, path, sizeof(path),
				    &absent);
	if (e)
		goto out;
	if (absent) {
		if (pa.nspecs)
			e = cli_usage("push", "'%s' selects no stored run (no "
				      "database at %s yet)", pa.specs[0], path);
		else
			printf("nothing to push: no database at %s yet\n",
			       path);
		goto out;
	}
	if (store_list_runs(from, &runs, &n, err, sizeof(err)) != 0) {
		cli_error("%s", err);
		e = EXIT_FAIL;
		goto out;
	}
	pick = calloc(n ? n : 1, sizeof(*pick));
	if (!pick) {
		cli_error("out of memory");
		e = EXIT_FAIL;
		goto out;
	}
	e = push_select(from, &pa, runs, n, pick);
	if (e)
		goto out;
	/* the local store is read and selected first: a typo in RUNS
	   costs no connection */
	store_set_timeouts(pa.connect_timeout_s, pa.statement_timeout_s);
	e = cli_open_store_opt("--to", pa.to, &to, topath, sizeof(topath));
	if (e)
		goto out;
	for (i = 0; i < n && !cli_stop_signal(); i++) {
		if (!pick[i])
			continue;
		npick++;
		if (strcmp(runs[i].status, "running") == 0) {
			c.running++;
			if (!pa.quiet)
				printf("run %lld is still running: not "
				       "pushed\n", (long long)runs[i].id);
			continue;
		}
		if (push_one(from, to, &runs[i], pa.quiet, &c))
			e = EXIT_FAIL;
	}
	if (cli_stop_signal()) {
		e = push_stopped(&c, pick + i, n - i, topath);
		goto out;
	}
	printf("pushed to %s: %zu run%s added, %zu there already", topath,
	       c.added, c.added == 1 ? "" : "s", c.there);
	if (c.running)
		printf(", %zu still running (push again later)", c.running);
	if (c.same)
		cli_error("%zu more run%s not pushed for the same reason",
			  c.same, c.same == 1 ? "" : "s");
	if (c.failed)
		printf(", %zu failed", c.failed);
	printf(" (of %zu selected)\n", npick);
	if (fflush(stdout) != 0) {
		cli_error("cannot write the output: %s", strerror(errno));
		e = EXIT_FAIL;
	}
out:
	free(pick);
	store_free_runs(runs, n);
	store_close(to);
	store_close(from);
	free(pa.specs);
	return e;
}
