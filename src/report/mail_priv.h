/*
 * mail_priv.h - what the builders of a mail (report/mail_build.c,
 * mail_history.c) share from report/mail_common.c.
 */
#ifndef COPYSCOPE_REPORT_MAIL_PRIV_H
#define COPYSCOPE_REPORT_MAIL_PRIV_H

#include "report/mail_print.h"

/* Append text to buf (NUL-terminated, len bytes), truncating. */
void mail_cat(char *buf, size_t len, const char *text);

/* The mark of a verdict: '*' better or worse, '?', 'e', else ' '. */
char mail_verdict_mark(enum verdict v);

/* "tag a (runs 1, 2), kernel 6.18.4" of runs[0..n-1] into buf. */
void mail_side_head(const struct run_data *runs, size_t n, char *buf,
		    size_t len);

/* Add a head line: label ("" for a continuation) and text (not ""). */
void mail_add_head(struct mail_doc *d, const char *label, const char *text);

/*
 * Head lines for what differs between the kernels of environments b and
 * n: the command line's words, kernel.version, the image booted.
 */
void mail_add_kernel_diffs(struct mail_doc *d, const struct env *b,
			   const struct env *n);

/* The machine line of b, or one a side when n (may be NULL) differs. */
void mail_add_machines(struct mail_doc *d, const struct env *b,
		       const struct env *n);

/*
 * Name d's rows from their configurations b[i] (and the new side's n[i],
 * NULL for one side) and metric[i]: one workload's shared parameters go
 * to d->params ("io=write->vmsplice" where the sides differ), the rest
 * into the names; with several workloads each gets a heading row with
 * its own.  Returns 0, or -1 on ENOMEM.
 */
int mail_name_rows(struct mail_doc *d, const struct result_config *const *b,
		   const struct result_config *const *n,
		   const char *const *metric);

#endif
