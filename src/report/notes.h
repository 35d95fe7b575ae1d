/*
 * notes.h - the notes printed under a configuration's rows: the
 * workload's note, what inject_ns added, the precision --precision
 * reached, the verify outcome, a status other than finished, samples
 * shorter than asked for, the outside load, the samples the headline
 * left out or why it was withheld (stats/headline.h), and each metric whose
 * samples form two clusters.  One wording for the table (report/table.c),
 * the JSON document (report/json.c) and the HTML report.
 */
#ifndef COPYSCOPE_NOTES_H
#define COPYSCOPE_NOTES_H

#include <stdbool.h>
#include <stddef.h>

#include "env/env.h"
#include "results/result.h"

/* What a note is about. */
enum note_kind {
	NOTE_WORKLOAD,		/* the workload's own or a placement note */
	NOTE_INJECT,		/* inject_ns: what the delay added, measured */
	NOTE_PRECISION,		/* run --precision: what was reached, when */
	NOTE_VERIFY,		/* verify: ok / FAILED and the report */
	NOTE_STATUS,		/* the configuration did not finish */
	NOTE_SHORT,		/* samples shorter than the target */
	NOTE_LOAD,		/* outside load and flagged samples */
	NOTE_HEADLINE,		/* disturbed samples left out of the
				   headline, or the headline withheld */
	NOTE_BIMODAL,		/* one metric's samples in two clusters */
	NOTE_TICK,		/* per-op times only a few timer ticks */
};

/* "workload", "inject", "precision", "verify", "status", "short", "load",
   "headline", "bimodal", "tick". */
const char *note_kind_name(enum note_kind k);

/*
 * Call emit for each note of one configuration, res[0..n-1] being its
 * results (all with the same cfg), in the order the table prints them.
 * r is the result a NOTE_BIMODAL note is about, else NULL; text is one
 * line, unwrapped.
 */
void report_notes(const struct result *res, size_t n,
		  void (*emit)(void *arg, enum note_kind kind,
			       const struct result *r, const char *text),
		  void *arg);

/*
 * The noisy-machine note: "the machine was not quiet: N of M samples
 * flagged (...). Stop other work ..." into buf, from counts of kept
 * samples and flagged ones by reason (a sample may have several).
 */
void report_noisy_text(size_t nsamples, size_t nflagged, size_t n_other,
		       size_t n_steal, size_t n_canary, size_t n_offcpu,
		       char *buf, size_t len);

/*
 * The stderr warning of a run whose machine was not quiet: nflagged of
 * nsamples kept samples flagged, by reason (other CPU, steal, canary,
 * a worker off its CPU),
 * wrapped, after "copyscope: ".  Prints nothing when none was flagged.
 */
void report_warn_noisy(size_t nsamples, size_t nflagged, size_t n_other,
		       size_t n_steal, size_t n_canary, size_t n_offcpu);

/*
 * The run-level note of results res[0..n-1] when samples were flagged:
 * "the machine was not quiet: 3 of 90 samples flagged (...)" into buf;
 * returns the number of flagged samples (0: nothing written, buf "").
 */
size_t report_noisy_note(const struct result *res, size_t n, char *buf,
			 size_t len);

/*
 * The headline note of results res[0..n-1] of one configuration into
 * buf: "withheld: 4 of 5 samples had a worker off its CPU >5%; ..." when
 * a result's headline was withheld, "headline over 7 of 10 samples: ..."
 * when disturbed samples were left out; "" (returns false) otherwise.
 */
bool report_headline_note(const struct result *res, size_t n, char *buf,
			  size_t len);

/*
 * The hardware counters' line of a run with --hw-counters, from its
 * environment (results/hw_metrics.h: hw.*) into buf: "hardware counters:
 * cycles,instructions,... , user and kernel", or where there were none
 * "no PMU here: no cycles, instructions or cache/TLB counts
 * (perf_event_open: ...)" (or why else none).  Returns 1 for counters,
 * -1 for none (the line says why), 0 for a run without them (buf "").
 */
int report_hw_line(const struct env *env, char *buf, size_t len);

#endif
