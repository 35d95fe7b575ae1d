/*
 * mail_print.h - a result for pasting into a mail or a commit message:
 * `--mail` (plain text within 72 columns) and `--markdown` (the same as
 * markdown tables) of run, show, compare, ab, history and observe.
 *
 * The text holds only a header naming each side (tag, runs, kernel
 * release, and the command-line or setting difference where there is
 * one), one machine line (CPU model, CPUs, SMT, memory, hypervisor,
 * governor, boost, mitigations in short), the parameters the rows share,
 * and a table in the kernel test robot's layout:
 *
 *                a                         b
 *   -------------- -------------------------
 *          %stddev   %change         %stddev
 *             \         |               \
 *       1.80 ±  2%     -2.4% ?    1.76 ±  1%  size=4k bandwidth (GiB/s)
 *
 * base median with its %stddev, the %change of the medians with a mark
 * (`*` a verdict: p < alpha and the CI beyond the noise band; `?` cannot
 * tell; `e` withheld, emulated; none for `~` and informational rows), the
 * new median with its %stddev, and the metric with the parameters that
 * vary between rows.  A metric that is already a percentage (unit "%")
 * gets the difference in points instead of a %change.  A single run (run,
 * show) has the base columns only.  Rows of several workloads (a
 * suite) come under a heading line each, naming the workload and the
 * parameters its rows share.  The numbers are those of the
 * comparison engine and ab's verdict rows, never recomputed; markdown adds
 * the 95% CI of the change as a column.
 */
#ifndef COPYSCOPE_REPORT_MAIL_PRINT_H
#define COPYSCOPE_REPORT_MAIL_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "comparison/ab_verdict.h"
#include "comparison/comparison.h"
#include "env/env.h"
#include "report/ab_print.h"
#include "results/run.h"

/* The width of the text form. */
#define MAIL_COLS 72

enum mail_format { MAIL_NONE = 0, MAIL_TEXT, MAIL_MARKDOWN };

/* One row of the table; values in the result's own unit. */
struct mail_row {
	char name[160];			/* varying parameters, metric */
	const char *unit;		/* the result's unit ("ns", "%") */
	double base, base_cv;		/* median, CV as a fraction (NAN:
					   fewer than 2 values) */
	double new, new_cv;		/* NAN new: a single side */
	double change;			/* %change; points for unit "%" */
	double ci_lo, ci_hi;		/* its CI, NAN: none */
	char mark;			/* ' ', '*', '?', 'e' */
	bool heading;			/* a workload's heading */
	bool withheld;			/* a run's headline withheld
					   (stats/headline.h): "withheld"
					   in place of base, which only
					   scales the unit */
};

#define MAIL_MAX_HEAD 8
#define MAIL_MAX_MACHINES 2

/* What one mail holds, before it is laid out as text or markdown. */
struct mail_doc {
	char title[160];		/* "copyscope compare: b against a" */
	/* "base", "new" (or "A", "B", "run") and what names each side;
	   extra lines (differences) have an empty label */
	char head_label[MAIL_MAX_HEAD][16];
	char head[MAIL_MAX_HEAD][512];
	size_t nhead;
	char machine[MAIL_MAX_MACHINES][640];	/* one, or one a side */
	char machine_label[MAIL_MAX_MACHINES][16];
	size_t nmachine;
	char params[2048];		/* "pipe.bw io=write ..." */
	char col_base[32], col_new[32];	/* the table's side headings */
	bool two_sided;
	struct mail_row *rows;		/* owned */
	size_t nrows, cap;
	double alpha, noise_pct;	/* for the key of the marks */
	char star_key[200];		/* what '*' means, "" compare's */
};

/* The format asked by --mail / --markdown (MAIL_NONE: neither). */
enum mail_format mail_format_of(bool mail, bool markdown);

/* Print d in format f (MAIL_TEXT or MAIL_MARKDOWN). */
void mail_print(FILE *out, const struct mail_doc *d, enum mail_format f);

/* Free d's rows. */
void mail_doc_free(struct mail_doc *d);

/*
 * Append a row to d (zeroed, values NAN, mark ' '); NULL on ENOMEM.
 */
struct mail_row *mail_add_row(struct mail_doc *d);

/*
 * The machine line of env into buf: "AMD EPYC, 2 CPUs, SMT off, 7.8 GiB,
 * VM, no cpufreq, mitigations: 5 mitigated, 2 vulnerable".
 */
void mail_machine_text(const struct env *env, char *buf, size_t len);

/*
 * The words of kernel command line b missing from a ("-quiet") and those
 * of b missing from a ("+mitigations=off") into buf ("" when equal).
 */
void mail_cmdline_diff(const char *a, const char *b, char *buf, size_t len);

/*
 * compare's result (built) as a mail.  Returns 0, or -1 on ENOMEM
 * (nothing printed).
 */
int mail_print_compare(FILE *out, const struct cmp *c, enum mail_format f);

/*
 * An ab run as a mail: h and a as ab prints them, run the run (its tag
 * and environment; NULL: none known).  Returns 0, or -1 on ENOMEM.
 */
int mail_print_ab(FILE *out, const struct ab_header *h,
		  const struct ab_analysis *a, const struct run_data *run,
		  enum mail_format f);

/*
 * history's series as a mail, newest (may be NULL) the newest run, for
 * the machine line; alpha the change points' significance level.
 * Returns 0, or -1 on ENOMEM.
 */
struct history;
int mail_print_history(FILE *out, const struct history *h,
		       const struct run_data *newest, double alpha,
		       enum mail_format f);

/*
 * An observation (observe) as a mail: the run's head and machine, what
 * was watched, and one column of counts (report/mail_observe.c).
 * Returns 0, or -1 on ENOMEM.
 */
struct observation;
int mail_print_observation(FILE *out, const struct run_data *run,
			   const struct observation *o, enum mail_format f);

/*
 * A stored observation run (its JSON in run->observation) as a mail.
 * Returns 0, or -1 when it cannot be read (a message on stderr).
 */
int mail_print_observation_run(FILE *out, const struct run_data *run,
			       enum mail_format f);

/*
 * A stored run as a mail (show, run): an observation as observe's mail,
 * an ab run as ab's mail (a profiled one with its kernel profile diff
 * under the table, rebuilt from the stored traced samples), otherwise
 * one row per kept result with its median and %stddev.  Returns 0, or -1
 * on ENOMEM or a broken ab run (a message on stderr).
 */
int mail_print_run(FILE *out, const struct run_data *run,
		   enum mail_format f);

#endif
