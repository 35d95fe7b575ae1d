/*
 * option_tables.c - the subcommands' option tables as a whole (see
 * options.h): checking a table against its rules (opt_cmd_check, run on
 * every table at start-up and by tests/unit/test_options.c), printing
 * the synopsis from a table's forms and rows, and describing a table for
 * bash completion and the man page (opt_describe).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"

#define SYNOPSIS_WIDTH 80

bool opt_row_fits(const struct opt_row *r)
{
	bool checked = r->dest == OPT_D_CHECKED && r->check;

	switch (r->kind) {
	case OPT_FLAG:
		return r->dest == OPT_D_BOOL && r->dest_size == sizeof(bool);
	case OPT_INT:
		return r->dest == OPT_D_INT && r->dest_size == sizeof(int);
	case OPT_U64:
		return r->dest == OPT_D_U64 &&
		       r->dest_size == sizeof(uint64_t);
	case OPT_NUM:
	case OPT_PCT:
		return r->dest == OPT_D_DOUBLE &&
		       r->dest_size == sizeof(double);
	case OPT_TIME:
	case OPT_SIZE:
		return r->dest == OPT_D_INT64 &&
		       r->dest_size == sizeof(int64_t);
	case OPT_STR:
	case OPT_LIST:
		return checked || (r->dest == OPT_D_STR && !r->check &&
				   r->dest_size == sizeof(const char *));
	case OPT_REPEAT:
		return checked || (r->dest == OPT_D_STRS && !r->check &&
				   r->max > 0 && r->dest_size ==
				   r->max * sizeof(const char *));
	}
	return false;
}

/* "--name" or "-x": a dash or two, then letters, digits, '-' or '_'. */
static bool good_name(const char *n, bool short_only)
{
	size_t dashes = n[0] == '-' ? (n[1] == '-' ? 2 : 1) : 0;
	size_t len = strlen(n);

	if (!dashes || len == dashes || (short_only && dashes != 1))
		return false;
	if (dashes == 1 && len != 2)
		return false;
	if (n[dashes] == '-' ||
	    strspn(n + dashes, "abcdefghijklmnopqrstuvwxyz"
		   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != len - dashes)
		return false;
	return strcmp(n, "-h") != 0 && strcmp(n, "--help") != 0;
}

/* The row of c that name is (its name or short name), or NULL. */
static const struct opt_row *row_named(const struct opt_cmd *c,
				       const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		const struct opt_row *r = &c->rows[i];

		if ((strlen(r->name) == len &&
		     strncmp(r->name, name, len) == 0) ||
		    (r->short_name && strlen(r->short_name) == len &&
		     strncmp(r->short_name, name, len) == 0))
			return r;
	}
	return NULL;
}

/* The length of the option name at s in a form, or 0 when none is. */
static size_t form_name_len(const char *form, const char *s)
{
	size_t n;

	if (*s != '-' || (s > form && !strchr(" [|\n", s[-1])))
		return 0;
	n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789-_");
	return n == 2 && s[1] == '-' ? 0 : n;	/* "--" alone: literal */
}

/* One form of c after "copyscope NAME "; indent: that prefix's width. */
static void print_form(FILE *out, const struct opt_cmd *c, const char *form,
		       size_t indent)
{
	const char *s = form;

	while (*s) {
		size_t n = form_name_len(form, s);
		const struct opt_row *r = n ? row_named(c, s, n) : NULL;

		if (n) {
			fprintf(out, "%.*s", (int)n, s);
			if (r && r->arg)
				fprintf(out, " %s", r->arg);
			s += n;
		} else if (*s == '\n') {
			fprintf(out, "\n%*s", (int)indent, "");
			s++;
		} else {
			fputc(*s++, out);
		}
	}
}

/* c's forms, the first after first_prefix, the others after "       ". */
static void print_forms(FILE *out, const struct opt_cmd *c,
			const char *first_prefix)
{
	const char *const *f;

	for (f = c->synopsis; f && *f; f++) {
		int n = fprintf(out, "%scopyscope %s%s",
				f == c->synopsis ? first_prefix : "       ",
				c->name, **f ? " " : "");

		print_form(out, c, *f, n > 0 ? (size_t)n : 0);
		fputc('\n', out);
	}
}

void opt_print_synopsis(FILE *out, const struct opt_cmd *c)
{
	const struct opt_cmd *also = c->also ? c->also() : NULL;

	print_forms(out, c, "usage: ");
	if (also)
		print_forms(out, also, "       ");
}

/* Is row r named in one of c's forms? */
static bool in_forms(const struct opt_cmd *c, const struct opt_row *r)
{
	const char *const *f;
	const char *s;

	for (f = c->synopsis; f && *f; f++)
		for (s = *f; *s; s++) {
			size_t n = form_name_len(*f, s);

			if (n && row_named(c, s, n) == r)
				return true;
			if (n)
				s += n - 1;
		}
	return false;
}

/* c's forms: every name a row, every line within SYNOPSIS_WIDTH. */
static int check_forms(const struct opt_cmd *c, char *err, size_t len)
{
	const char *const *f;
	const char *s;
	char *text = NULL, *line;
	size_t size = 0;
	FILE *m;

	for (f = c->synopsis; f && *f; f++)
		for (s = *f; *s; s++) {
			size_t n = form_name_len(*f, s);

			if (n && !row_named(c, s, n)) {
				snprintf(err, len, "%s: the synopsis names "
					 "%.*s, which is no option of it",
					 c->name, (int)n, s);
				return -1;
			}
			if (n)
				s += n - 1;
		}
	m = open_memstream(&text, &size);
	if (!m) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	opt_print_synopsis(m, c);
	if (fclose(m) != 0 || !text) {
		free(text);
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (line = text; *line;) {
		size_t w = strcspn(line, "\n");

		if (w > SYNOPSIS_WIDTH) {
			snprintf(err, len, "%s: a synopsis line is %zu columns "
				 "(at most %d): %.*s", c->name, w,
				 SYNOPSIS_WIDTH, (int)w, line);
			free(text);
			return -1;
		}
		line += w + (line[w] == '\n');
	}
	free(text);
	return 0;
}

/* Is "[options]" in one of c's forms (the rows it leaves out)? */
static bool says_options(const struct opt_cmd *c)
{
	const char *const *f;

	for (f = c->synopsis; f && *f; f++)
		if (strstr(*f, "[options]"))
			return true;
	return false;
}

/* Row r of c: NULL when it keeps the rules, else what is wrong. */
static const char *row_problem(const struct opt_cmd *c,
			       const struct opt_row *r)
{
	const struct opt_cmd *also = c->also ? c->also() : NULL;
	const struct opt_row *also_row = NULL;
	bool ranged = r->kind == OPT_INT || r->kind == OPT_NUM ||
		      r->kind == OPT_PCT || r->kind == OPT_TIME ||
		      r->kind == OPT_SIZE;

	if (!r->name || !good_name(r->name, false))
		return "a name that is not --NAME or -X (nor -h, --help)";
	if (r->short_name && !good_name(r->short_name, true))
		return "a short name that is not -X";
	if (r->dest == OPT_D_NONE)
		return "a row not made by a typed row macro (OPT_ROW_...)";
	if (!opt_row_fits(r))
		return "a destination that does not fit its kind";
	if ((r->kind == OPT_FLAG) != !r->arg)
		return "a placeholder on a flag, or none on a value";
	if (ranged && !(r->lo < r->hi))
		return "no range (lo < hi)";
	if (r->kind == OPT_INT && (r->lo < -2147483648.0 ||
				   r->hi > 2147483647.0))
		return "a range beyond an int";
	if (r->words && r->kind != OPT_STR && r->kind != OPT_LIST)
		return "words on a row that is neither OPT_STR nor OPT_LIST";
	if (r->complete == OPT_C_WORDS && !r->words)
		return "completes to its words but has none";
	if (r->flags & ~(unsigned)(OPT_LO_OPEN | OPT_HI_OPEN | OPT_ONCE))
		return "unknown flags";
	if (also)
		also_row = row_named(also, r->name, strlen(r->name));
	if (r->help && !in_forms(c, r) && !says_options(c) &&
	    !(also_row && in_forms(also, also_row)))
		return "a listed option the synopsis does not name (nor say "
		       "[options])";
	return NULL;
}

/* Are the names (and short names) of c's rows unique? */
static const char *duplicate_name(const struct opt_cmd *c)
{
	size_t i, j;

	for (i = 0; i < c->nrows; i++)
		for (j = 0; j < c->nrows; j++) {
			const struct opt_row *a = &c->rows[i], *b = &c->rows[j];

			if (i != j && strcmp(a->name, b->name) == 0)
				return a->name;
			if (!a->short_name)
				continue;
			if (strcmp(a->short_name, b->name) == 0 ||
			    (i != j && b->short_name &&
			     strcmp(a->short_name, b->short_name) == 0))
				return a->short_name;
		}
	return NULL;
}

int opt_cmd_check(const struct opt_cmd *c, char *err, size_t len)
{
	const char *p;
	size_t i;

	if (!c->name || !c->usage || !c->synopsis || !c->synopsis[0]) {
		snprintf(err, len, "%s: a table without name, usage or "
			 "synopsis", c->name ? c->name : "?");
		return -1;
	}
	if (c->nrows > OPT_MAX_ROWS || (c->nrows && !c->rows)) {
		snprintf(err, len, "%s: %zu rows (at most %d: opt_result's "
			 "given mask)", c->name, c->nrows, OPT_MAX_ROWS);
		return -1;
	}
	for (i = 0; i < c->nrows; i++) {
		p = row_problem(c, &c->rows[i]);
		if (p) {
			snprintf(err, len, "%s: option %s: %s", c->name,
				 c->rows[i].name ? c->rows[i].name : "?", p);
			return -1;
		}
	}
	p = duplicate_name(c);
	if (p) {
		snprintf(err, len, "%s: option %s: named twice", c->name, p);
		return -1;
	}
	return check_forms(c, err, len);
}

static const char *complete_name(enum opt_complete k)
{
	switch (k) {
	case OPT_C_NONE:
		return "value";
	case OPT_C_FILE:
		return "file";
	case OPT_C_TAG:
		return "tag";
	case OPT_C_WORDS:
		return "words";
	case OPT_C_RUNS:
		return "runs";
	case OPT_C_LAST:
		return "last";
	case OPT_C_WORKLOADS:
		return "workloads";
	case OPT_C_NAMES:
		return "names";
	case OPT_C_PARAMS:
		return "params";
	case OPT_C_SYSCTL:
		return "sysctl";
	case OPT_C_THP:
		return "thp";
	}
	return "value";
}

void opt_describe(FILE *out, const struct opt_cmd *c)
{
	size_t i, k;

	fprintf(out, "command %s %s%s%s\n", c->name,
		c->max_pos == 0 ? "none" : complete_name(c->pos),
		c->after_dashdash ? " " : "",
		c->after_dashdash ? c->after_dashdash : "");
	for (i = 0; i < c->nrows; i++) {
		const struct opt_row *r = &c->rows[i];
		const char *hint = r->kind == OPT_FLAG ? "flag" :
				   r->kind == OPT_LIST && r->words ? "list" :
				   complete_name(r->complete);

		if (!r->help)
			continue;
		fprintf(out, "option %s %s %s", c->name, r->name, hint);
		for (k = 0; r->words && r->words[k]; k++)
			fprintf(out, " %s", r->words[k]);
		fputc('\n', out);
		if (r->short_name)
			fprintf(out, "option %s %s %s\n", c->name,
				r->short_name, hint);
		/* the row as the man page lists it (scripts/man-options.sh) */
		fprintf(out, "help %s %s\t%s\t%s\t%s\n", c->name, r->name,
			r->short_name ? r->short_name : "",
			r->arg ? r->arg : "", r->help);
	}
}
