/*
 * list_print.c - what `copyscope list` prints (see list_print.h): per
 * workload what one op is, its parameters (type, default, range) and
 * metrics, and the suites with their entries.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/list_print.h"

static const char *type_name(enum param_type t)
{
	switch (t) {
	case PARAM_INT:
		return "int";
	case PARAM_SIZE:
		return "size";
	case PARAM_TIME:
		return "time";
	case PARAM_ENUM:
		return "enum";
	case PARAM_BOOL:
		return "bool";
	case PARAM_STRING:
		return "text";
	}
	return "?";
}

/*
 * One parameter: name, type, default and what is allowed on one line
 * (the default column dw wide, so that "allowed" lines up under a sweep's
 * default and bash completion reads both from the line), then its help.
 */
/* What p allows: "a|b|c", "0|1", "1 .. 64M" or "text ...", into buf. */
static void allowed_text(const struct param_def *p, char *allowed,
			 size_t len)
{
	char lo[32], hi[32];
	size_t used = 0;
	int i;

	allowed[0] = '\0';
	if (p->type == PARAM_ENUM) {
		for (i = 0; p->choices[i]; i++)
			used += (size_t)snprintf(allowed + used,
						 len - used,
						 "%s%s", i ? "|" : "",
						 p->choices[i]);
	} else if (p->type == PARAM_BOOL) {
		snprintf(allowed, len, "0|1");
	} else if (p->type == PARAM_STRING) {
		snprintf(allowed, len, "text (';' between values to sweep)");
	} else {
		param_format_value(p, p->min, lo, sizeof(lo));
		param_format_value(p, p->max, hi, sizeof(hi));
		snprintf(allowed, len, "%s .. %s", lo, hi);
	}
}

/* The default column's width dw, widened for p when its row then fits. */
static int default_width(const struct param_def *p, int dw)
{
	char allowed[160];

	allowed_text(p, allowed, sizeof(allowed));
	if (strlen(p->def) > (size_t)dw &&
	    4 + 14 + 1 + 5 + 1 + strlen(p->def) + 1 + strlen(allowed) <= 80)
		return (int)strlen(p->def);
	return dw;
}

static void print_param(FILE *out, const struct param_def *p, int dw)
{
	char allowed[160];

	allowed_text(p, allowed, sizeof(allowed));
	if (4 + 14 + 1 + 5 + 1 + (size_t)dw + 1 + strlen(allowed) <= 80 &&
	    strlen(p->def) <= (size_t)dw) {
		fprintf(out, "    %-14s %-5s %-*s %s\n", p->name, type_name(p->type),
		       dw, p->def, allowed);
	} else {
		/* a default too long to share the line: allowed below */
		fprintf(out, "    %-14s %-5s %s\n", p->name, type_name(p->type),
		       p->def);
		fprintf(out, "    %-14s %-5s %s\n", "", "", allowed);
	}
	fmt_wrap(out, 19, 19, p->help);
}

static const char *dir_text(enum metric_dir d)
{
	return d == METRIC_HIGHER_BETTER ? "higher is better" :
	       d == METRIC_LOWER_BETTER ? "lower is better" : "info";
}

static const char *kind_unit(const struct metric_def *m)
{
	switch (m->kind) {
	case METRIC_NS_PER_OP:
		return "ns";
	case METRIC_TICKS_PER_OP:
		return "cycles (tsc-cycles without a PMU)";
	case METRIC_BYTES_PER_SEC:
		return "bytes/s";
	case METRIC_OPS_PER_SEC:
		return "ops/s";
	case METRIC_OP_PCT:
	case METRIC_OP_MEAN:
		return "ns, from per-op times";
	case METRIC_CUSTOM:
		return m->unit ? m->unit : "count";
	}
	return "?";
}

static void print_workload(FILE *out, const struct workload *wl)
{
	char why[256], text[1024];
	size_t i;
	int dw = 7;		/* the default column: "default" */

	snprintf(text, sizeof(text), "%s - %s", wl->name, wl->summary);
	fmt_wrap(out, 0, 4, text);
	if (wl->supported && !wl->supported(why, sizeof(why))) {
		snprintf(text, sizeof(text), "cannot run here: %s", why);
		fmt_wrap(out, 2, 4, text);
	}
	snprintf(text, sizeof(text), "one op: %s", wl->op);
	fmt_wrap(out, 2, 4, text);
	snprintf(text, sizeof(text), "not measured: %s", wl->not_measured);
	fmt_wrap(out, 2, 4, text);
	/* as wide as the longest default that fits with its allowed */
	for (i = 0; i < wl->nparams; i++)
		dw = default_width(&wl->params[i], dw);
	fprintf(out, "  parameters:\n    %-14s %-5s %-*s %s\n", "name", "type", dw,
	       "default", "allowed");
	for (i = 0; i < wl->nparams; i++)
		print_param(out, &wl->params[i], dw);
	fprintf(out, "  metrics:\n");
	for (i = 0; i < wl->nmetrics; i++) {
		fprintf(out, "    %-14s %s, %s\n", wl->metrics[i].name,
		       kind_unit(&wl->metrics[i]),
		       dir_text(wl->metrics[i].dir));
		fmt_wrap(out, 19, 19, wl->metrics[i].help);
	}
	fprintf(out, "\n");
}

static int matches(const char *pattern, const char *name)
{
	return !pattern || fnmatch(pattern, name, 0) == 0 ||
	       strncmp(pattern, name, strlen(pattern)) == 0;
}

/* The line of suite s: its name, summary and entries, wrapped. */
static void print_suite(FILE *out, const struct suite *s)
{
	char text[1024];
	size_t used, j;

	used = (size_t)snprintf(text, sizeof(text), "%s - %s:", s->name,
				s->summary);
	for (j = 0; j < s->nentries; j++) {
		const char *const *a = s->entries[j].args;

		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "%s %s", j ? ";" : "",
					 s->entries[j].workload);
		for (; a && *a && used < sizeof(text); a++)
			used += (size_t)snprintf(text + used,
						 sizeof(text) - used, " %s",
						 *a);
		if (used >= sizeof(text))
			break;
	}
	fmt_wrap(out, 2, 4, text);
}

size_t report_list(FILE *out, const char *pattern,
		   const struct workload *const *wls, size_t nwl,
		   const struct suite *const *suites, size_t ns)
{
	size_t i, shown = 0;

	for (i = 0; i < nwl; i++) {
		if (!matches(pattern, wls[i]->name))
			continue;
		print_workload(out, wls[i]);
		shown++;
	}
	for (i = 0; i < ns; i++) {
		if (!matches(pattern, suites[i]->name))
			continue;
		if (shown++ == 0 || i == 0 ||
		    !matches(pattern, suites[i - 1]->name))
			fprintf(out, "suites:\n");
		print_suite(out, suites[i]);
	}
	return shown;
}
