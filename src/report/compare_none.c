/*
 * compare_none.c - why two sides of a comparison have nothing in common:
 * the workloads each side has and, for a workload on both, the parameters
 * whose values differ (what --ignore-param would match), so that `compare`,
 * `check` and `report --compare` can say it instead of "0 compared".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/comparison_print.h"
#include "report/format.h"
#include "results/codec.h"
#include "results/result.h"
#include "util/msg.h"

/* The most configurations listed per side. */
#define NONE_MAX_LISTED 4

/* Has side a row (present there) of workload wl? */
static bool side_has_workload(const struct cmp *c, bool base, const char *wl)
{
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		const struct result *res = base ? r->ref : r->ref_new;

		if ((base ? r->in_base : r->in_new) && res &&
		    strcmp(res->cfg->workload, wl) == 0)
			return true;
	}
	return false;
}

/* Does side hold name=value in a configuration of workload wl? */
static bool side_has_value(const struct cmp *c, bool base, const char *wl,
			   const char *name, const char *value)
{
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		const struct result *res = base ? r->ref : r->ref_new;
		const char *v;

		if (!(base ? r->in_base : r->in_new) || !res ||
		    strcmp(res->cfg->workload, wl) != 0)
			continue;
		v = result_param(res->cfg, name);
		if (v && strcmp(v, value) == 0)
			return true;
	}
	return false;
}

/* Append name to the comma list in buf unless it is there. */
static void add_name(char *buf, size_t len, const char *name)
{
	size_t n = strlen(name), used = strlen(buf);
	const char *p = buf;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == buf || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return;
		p += n;
	}
	if (used + n + 2 < len)
		snprintf(buf + used, len - used, "%s%s", used ? "," : "", name);
}

/*
 * The parameters of the base side's configurations whose value no new
 * configuration of the same workload has (and the other way), into buf
 * as a comma list.
 */
static void differing_params(const struct cmp *c, char *buf, size_t len)
{
	size_t i, k;
	int s;

	buf[0] = '\0';
	for (s = 0; s < 2; s++) {
		bool base = s == 0;

		for (i = 0; i < c->nrows; i++) {
			const struct cmp_row *r = &c->rows[i];
			const struct result *res = base ? r->ref : r->ref_new;

			if (!(base ? r->in_base : r->in_new) || !res ||
			    !side_has_workload(c, !base, res->cfg->workload))
				continue;
			for (k = 0; k < res->cfg->nparams; k++) {
				const struct result_param *p =
					&res->cfg->params[k];

				if (!side_has_value(c, !base,
						    res->cfg->workload,
						    p->name, p->value))
					add_name(buf, len, p->name);
			}
		}
	}
}

/* "  base: sys.null call=gettid inject_ns=0" lines, a few per side. */
static void list_side(FILE *out, const struct cmp *c, bool base)
{
	const char *last = NULL;
	size_t i, k, shown = 0, more = 0;

	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		const struct result *res = base ? r->ref : r->ref_new;
		char line[512], clean[2048];
		size_t used;

		if (!(base ? r->in_base : r->in_new) || !res)
			continue;
		if (last && strcmp(last, res->cfg->params_json) == 0)
			continue;
		last = res->cfg->params_json;
		if (shown == NONE_MAX_LISTED) {
			more++;
			continue;
		}
		used = (size_t)snprintf(line, sizeof(line), "%s",
					res->cfg->workload);
		for (k = 0; k < res->cfg->nparams && used < sizeof(line); k++)
			used += (size_t)snprintf(line + used,
						 sizeof(line) - used, " %s=%s",
						 res->cfg->params[k].name,
						 res->cfg->params[k].value);
		fmt_clean_text(line, clean, sizeof(clean));
		fprintf(out, "  %s %s\n", base ? "base:" : "new: ", clean);
		shown++;
	}
	if (!shown)
		fprintf(out, "  %s no results\n", base ? "base:" : "new: ");
	if (more)
		fprintf(out, "  %s ... and %zu more configuration%s\n",
			base ? "base:" : "new: ", more, more == 1 ? "" : "s");
}

bool cmp_print_explain_none(const char *cmd, const struct cmp *c)
{
	char names[512];
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].in_base && c->rows[i].in_new)
			return false;
	msg_error("%s: nothing compared: BASE and NEW share no (workload, "
		  "parameters):", cmd);
	list_side(stderr, c, true);
	list_side(stderr, c, false);
	differing_params(c, names, sizeof(names));
	if (names[0])
		fprintf(stderr, "  they differ in %s: --ignore-param %s "
			"matches them regardless\n", names, names);
	else
		fprintf(stderr, "  no workload is on both sides: name runs "
			"of the same workloads\n");
	return true;
}
