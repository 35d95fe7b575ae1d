/*
 * ab_print.h - a paired A/B run (comparison/ab_verdict.h) as 80-column text, in
 * compare's layout (one row per metric: A's median, %change, B's median,
 * unit, p, the 95% CI of the change, the verdict, with the A'/A control's
 * row under it), and as JSON.  `ab` prints it as it ends and `show`
 * prints it again from the stored run.
 */
#ifndef COPYSCOPE_REPORT_AB_PRINT_H
#define COPYSCOPE_REPORT_AB_PRINT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "comparison/ab_verdict.h"
#include "comparison/ab_combine.h"
#include "results/run.h"

/* What the analysis does not hold: the run's identity and its sides. */
struct ab_header {
	const char *workload;
	int64_t run_id;			/* 0: not stored */
	const char *a, *b;		/* the sides' parameters, "segs=8" */
	const char *both;		/* the parameters both share;
					   NULL: unknown (older runs) */
	const char *a_settings, *b_settings;	/* "vm.x=1 (was 0)" or "" */
	const char *seed;
	int looks;			/* > 1: --precision's tests */
	double alpha, noise_pct;
	double precision_pct;		/* asked, 0: none */
	double precision_reached_pct;	/* NAN: unknown */
	double elapsed_s;		/* NAN: unknown (a stored run) */
	int rounds_asked;		/* --rounds (the most, with
					   --precision); 0: unknown */
	bool interrupted;		/* stopped by a signal before the
					   rounds asked */
	const char *stopped_why;	/* stopped by a failure before the
					   rounds asked ("B failed: ...");
					   NULL: it was not */
	char hw[400];			/* --hw-counters: report_hw_line()
					   (report/notes.h); "": none */
};

/* Print the header, the rows and the counts. */
void ab_print_text(FILE *out, const struct ab_header *h,
		   const struct ab_analysis *a);

/*
 * The same as a JSON object: header fields and "rows", each with at
 * least metric, unit, direction, rounds, a_median, b_median, change_pct,
 * ci [lo, hi], p, verdict, reason, same_reading_as, control
 * {change_pct, ci, p} and the per-round ratios.  NULL on ENOMEM.
 */
json_t *ab_json(const struct ab_header *h, const struct ab_analysis *a);

/*
 * A stored ab run (its environment has AB_ENV_ROLES) judged again from
 * its samples with the options it was judged with, and printed as `ab`
 * printed it (without the time it took).  Returns 0, or -1 when the run
 * is not a complete ab run or memory ran out (a message on out).
 */
int ab_print_stored(FILE *out, const struct run_info *run,
		    const struct env *env, const struct result *res,
		    size_t n);

/* The same as the JSON object of ab_json(), or NULL. */
json_t *ab_json_stored(const struct run_info *run, const struct env *env,
		       const struct result *res, size_t n);

/*
 * Several ab runs of one A/B judged together (comparison/ab_combine.h):
 * one row per metric with the pooled %change, its hierarchical CI, p and
 * verdict, and each run's own estimate under it.
 */
void ab_print_combined(FILE *out, const struct ab_combined *c,
		       const struct ab_opts *o);

/* The same as JSON, or NULL. */
json_t *ab_combined_json(const struct ab_combined *c, const struct ab_opts *o);

/* A stored ab run judged again: what ab_print_stored() prints. */
struct ab_stored {
	struct ab_analysis a;
	struct ab_opts o;
	struct ab_header h;		/* its strings point into the run
					   and into seed */
	char seed[32];
	char err[256];			/* why not, on -1 */
};

/*
 * Judge the stored ab run (run, env, res[0..n-1]) again with the options
 * it was judged with, into s.  Returns 0 (free with ab_stored_free()), or
 * -1 with the reason in s->err.
 */
int ab_stored_judge(const struct run_info *run, const struct env *env,
		    const struct result *res, size_t n, struct ab_stored *s);

/* Free what ab_stored_judge() made. */
void ab_stored_free(struct ab_stored *s);

#endif
