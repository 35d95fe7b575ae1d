/*
 * run_print.c - what `copyscope run` prints as its session goes (see
 * run_print.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/env.h"
#include "report/explain.h"
#include "report/format.h"
#include "report/headline_print.h"
#include "report/notes.h"
#include "report/report.h"
#include "report/run_brief.h"
#include "report/run_print.h"
#include "report/mail_print.h"
#include "results/codec.h"
#include "util/msg.h"

/* Exit statuses (README.md, "Command line"). */
#define PRINT_OK 0
#define PRINT_FAIL 1
#define PRINT_INTERRUPTED 130

/* The noise sources line, wrapped, when the machine shows any. */
static void print_noise(FILE *out, const struct env *env)
{
	char list[1024], line[1100];

	if (!env || env_noise_sources(env, list, sizeof(list)) == 0)
		return;
	snprintf(line, sizeof(line), "noise sources: %s", list);
	fmt_wrap(out, 0, 2, line);
}

void run_print_preamble(FILE *out, const struct run_print *p,
			const struct run_info *run, const struct env *env,
			const struct run_print_clock *clk)
{
	const struct run_options *o = &run->opts;
	char hw[600];

	/* where no counter was read, --json and --mail say why on stderr */
	if (report_hw_line(env, hw, sizeof(hw)) < 0 && (p->json || p->mail))
		fprintf(stderr, "copyscope: %s\n", hw);
	if (p->json || p->mail)
		return;
	if (run->id > 0)
		fprintf(out, "copyscope run %lld", (long long)run->id);
	else
		fprintf(out, "copyscope run (not stored)");
	if (run->tag[0])
		fprintf(out, " [%s]", run->tag);
	if (p->precision_pct > 0)
		fprintf(out, ": samples of >= %.0fms each after %.0fms "
			"warm-up, at least %d and more until each\nmedian's "
			"95%% CI is within ±%g%% (at most %.0fs of samples a "
			"configuration)\n", o->sample_time_ns / 1e6,
			o->warmup_ns / 1e6, o->reps, p->precision_pct,
			p->max_time_ns / 1e9);
	else
		fprintf(out, ": %d samples of >= %.0fms each after %.0fms "
			"warm-up\n", o->reps, o->sample_time_ns / 1e6,
			o->warmup_ns / 1e6);
	fprintf(out, "timer: %s", clk->unit);
	if (clk->tsc && clk->counter)
		fprintf(out, " (%s)", clk->counter);
	else if (clk->tsc)
		fprintf(out, " (TSC %.3f GHz)", clk->tsc_hz / 1e9);
	fprintf(out, ", %.0f ns per read pair; rows: median, ±%%sd, CI\n",
		clk->overhead_ns);
	if (clk->cycles && clk->cycles[0]) {
		char line[320];

		/* the timer line's second half: the counter is not cycles */
		snprintf(line, sizeof(line), "core cycles from user space: %s",
			 clk->cycles);
		fmt_wrap(out, 2, 4, line);
	}
	if (o->interleave)
		fprintf(out, "interleaved: the samples of all configurations "
			"in a shuffled round-robin\norder, seed %llu\n",
			(unsigned long long)o->interleave_seed);
	if (hw[0])
		fmt_wrap(out, 0, 2, hw);
	print_noise(out, env);
	fprintf(out, "\n");
	fflush(out);
}

void run_print_job(FILE *out, struct run_print *p, const struct result *res,
		   size_t n)
{
	int job = n ? res[0].cfg->job : 0;

	if (p->json || p->mail)
		return;
	if (p->brief) {
		if (!p->brief_started)
			run_brief_heading(out);
		p->brief_started = true;
		run_brief_job(out, res, n, job >= 0 && (size_t)job < p->njobs ?
			      p->from[job].metric : NULL);
		fflush(out);
		return;
	}
	report_results(out, res, n);
	fprintf(out, "\n");
	fflush(out);
}

/* The suite summary's lines: one per job that came from a suite. */
static size_t summary_lines(const struct run_print *p,
			    struct summary_line *lines)
{
	size_t j, nl = 0;

	for (j = 0; j < p->njobs; j++)
		if (p->from[j].workload)
			lines[nl++] = p->from[j];
	return nl;
}

/* What of a run the store took before it failed, and what the run
   never came to measure (it stops at the failure). */
static void print_incomplete(FILE *out, long long id, const char *path,
			     size_t stored, size_t measured, size_t never,
			     size_t planned)
{
	char *line = NULL;

	if (asprintf(&line, "run %lld in %s is incomplete: %zu of the %zu "
		     "results measured were stored, and %zu of %zu "
		     "configurations were never measured (the store failed, "
		     "see the messages above)", id, path, stored, measured,
		     never, planned) < 0) {
		fprintf(out, "run %lld is incomplete (the store failed)\n",
			id);
		return;
	}
	fmt_wrap(out, 0, 2, line);
	free(line);
}

/* Where the run went: "stored as", kept elsewhere, or incomplete. */
static int print_stored(FILE *out, const struct run_print_end *end, int e)
{
	const struct run_data *run = end->run;
	size_t never = end->planned > end->ran + end->skipped ?
		       end->planned - end->ran - end->skipped : 0;
	char *clean = codec_clean_text(end->path ? end->path : "", true);

	if (end->store_lost)
		e = end->keep_lost(end->keep_arg);
	else if (!end->store_failed)
		fprintf(out, "stored as run %lld in %s\n",
			(long long)run->info.id, clean ? clean : "?");
	else
		print_incomplete(out, run->info.id, clean ? clean : "?",
				 end->stored, run->results.n, never,
				 end->planned);
	free(clean);
	return e;
}

int run_print_end(FILE *out, const struct run_print *p,
		  const struct run_print_end *end)
{
	const struct run_data *run = end->run;
	struct summary_line *lines = calloc(p->njobs + 1, sizeof(*lines));
	int e = end->exit_code;
	char err[512];

	report_warn_noisy(end->nsamples, end->nflagged, end->n_other,
			  end->n_steal, end->n_canary, end->n_offcpu);
	if (p->explain && !p->json && !p->mail && e == PRINT_OK) {
		int nb = explain_results(out, run->results.v, run->results.n,
					 err, sizeof(err));

		if (nb <= 0)
			msg_error("--explain: %s", err);
		if (nb < 0)
			e = PRINT_FAIL;
		fprintf(out, "\n");
	}
	if (!lines) {
		msg_error("out of memory");
		return PRINT_FAIL;
	}
	if (p->mail) {
		if (mail_print_run(out, run, (enum mail_format)p->mail) != 0)
			e = PRINT_FAIL;
	} else if (p->json) {
		if (report_json_summary(out, &run->info, &run->env,
					run->results.v, run->results.n, lines,
					summary_lines(p, lines)) != 0) {
			msg_error("cannot write JSON: %s", strerror(errno));
			e = PRINT_FAIL;
		}
	} else if (run->info.id > 0) {
		e = print_stored(out, end, e);
	}
	if (p->any_suite && !p->json && !p->mail) {
		fprintf(out, "\n");
		summary_print(out, &run->info, p->db, lines,
			      summary_lines(p, lines), run->results.v,
			      run->results.n);
	}
	free(lines);
	if (end->exit_code == PRINT_INTERRUPTED)
		msg_error("interrupted by signal %d (%s): %s", end->signal,
			  strsignal(end->signal), run->info.id > 0 ?
			  "results so far stored with status 'interrupted'" :
			  "nothing stored (--no-store)");
	return e;
}

void run_print_group_end(FILE *out, int runs, const char *group,
			 const int64_t *ids, size_t n, const char *tag)
{
	size_t k;

	fprintf(out, "\n%zu of %d runs stored as group %s:", n, runs, group);
	for (k = 0; k < n; k++)
		fprintf(out, "%s %lld", k ? "," : "", (long long)ids[k]);
	fprintf(out, "\ncompare them as one side: copyscope compare ");
	if (tag)
		fprintf(out, "%s", tag);
	for (k = 0; !tag && k < n; k++)
		fprintf(out, "%s%lld", k ? "," : "", (long long)ids[k]);
	fprintf(out, " OTHER\n");
}

int run_print_group_json(FILE *out, const char *group,
			 const struct run_data *runs, size_t n)
{
	size_t i;
	int e = 0;

	fprintf(out, "{\n\"schema_version\": %d,\n\"group\": \"%s\",\n"
		"\"runs\": [\n", REPORT_JSON_SCHEMA_VERSION, group);
	for (i = 0; i < n && e == 0; i++) {
		if (i)
			fprintf(out, ",\n");
		if (report_json(out, &runs[i].info, &runs[i].env,
				runs[i].results.v, runs[i].results.n) != 0)
			e = PRINT_FAIL;
	}
	fprintf(out, "]\n}\n");
	return e;
}
