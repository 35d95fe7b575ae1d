/*
 * options_help.c - the usage's list of a command's options, from its table
 * of rows (options.h: opt_print_options), wrapped at 78 columns.
 */
#include <stdio.h>
#include <string.h>

#include "cli/options.h"

#define OPT_HELP_WIDTH 78

static size_t text_width(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

void opt_print_options(FILE *out, const struct opt_cmd *c)
{
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		const struct opt_row *r = &c->rows[i];
		const char *p;
		int col;

		if (!r->help)
			continue;
		col = fprintf(out, "  %s%s%s%s%s", r->name,
			      r->short_name ? ", " : "",
			      r->short_name ? r->short_name : "",
			      r->arg ? " " : "", r->arg ? r->arg : "");
		if (col >= (int)c->help_col) {
			fputc('\n', out);
			col = 0;
		}
		col += fprintf(out, "%*s", (int)c->help_col - col, "");
		/* the help, word by word, wrapped at OPT_HELP_WIDTH */
		for (p = r->help; *p;) {
			size_t sp = strspn(p, " "), w = strcspn(p + sp, " ");
			bool first = col == (int)c->help_col;

			if (!first && col + (int)(sp + text_width(p + sp, w)) >
			    OPT_HELP_WIDTH) {
				col = fprintf(out, "\n%*s", (int)c->help_col,
					      "") - 1;
				first = true;
			}
			if (first)
				p += sp;
			col += fprintf(out, "%.*s", (int)(first ? w : sp + w),
				       p) - (int)(w - text_width(p + (first ?
				       0 : sp), w));
			p += first ? w : sp + w;
		}
		fputc('\n', out);
	}
}
