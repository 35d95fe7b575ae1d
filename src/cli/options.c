/*
 * options.c - the one option parser of the subcommands (see options.h):
 * reading argv with a command's table of rows, its errors (one wording for
 * each kind of mistake) and the usage's option list.  The tables' checks,
 * synopses and their description for completion are option_tables.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "session/session.h"
#include "core/param.h"

/* The row that argument a (up to a '=') names, or NULL. */
static const struct opt_row *find_row(const struct opt_cmd *c, const char *a,
				      size_t *ri)
{
	size_t len = strcspn(a, "="), i;

	for (i = 0; i < c->nrows; i++) {
		const struct opt_row *r = &c->rows[i];

		if ((strlen(r->name) == len && strncmp(r->name, a, len) == 0) ||
		    (r->short_name && strlen(r->short_name) == len &&
		     strncmp(r->short_name, a, len) == 0)) {
			*ri = i;
			return r;
		}
	}
	return NULL;
}

/*
 * The only visible option of c that word is a prefix of (--sample for
 * --sample-time), or with by_distance the closest by edit distance
 * (param_suggest); NULL when none.
 */
static const char *suggest(const struct opt_cmd *c, const char *word,
			   bool by_distance)
{
	const char *names[64], *prefix_of = NULL;
	size_t i, n = 0, nprefix = 0;

	for (i = 0; i < c->nrows && n < 64; i++) {
		if (!c->rows[i].help)
			continue;
		names[n++] = c->rows[i].name;
		if (strlen(word) > 2 && strncmp(c->rows[i].name, word,
						strlen(word)) == 0) {
			prefix_of = c->rows[i].name;
			nprefix++;
		}
	}
	if (nprefix == 1)
		return prefix_of;
	return by_distance ? param_suggest(word, names, n) : NULL;
}

/*
 * An unknown option: suggest what it most likely meant, by prefix first,
 * then by edit distance, of this command and then of the command after
 * '--' (boot: run's options, which go after '--').
 */
static int unknown(const struct opt_cmd *c, const char *a)
{
	const struct opt_cmd *ac = c->after_cmd ? c->after_cmd() : NULL;
	const char *s = NULL, *after = NULL;
	char word[64];
	size_t ri;

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(a, "="), a);
	if (ac && find_row(ac, word, &ri))
		after = ac->rows[ri].name;
	if (!after)
		s = suggest(c, word, false);
	if (!after && !s && ac)
		after = suggest(ac, word, false);
	if (!after && !s)
		s = suggest(c, word, true);
	if (!after && !s && ac)
		after = suggest(ac, word, true);
	if (after)
		return cli_usage(c->name, "unknown option '%s'; did you mean "
				 "'-- %s' (%s's options go after '--')?", msg_quote(a),
				 after, c->after_dashdash);
	return cli_usage(c->name, "unknown option '%s'%s%s%s%s%s",
			 msg_quote(a),
			 s ? "; did you mean '" : "", s ? s : "",
			 s ? "'?" : "", c->unknown_hint ? " " : "",
			 c->unknown_hint ? c->unknown_hint : "");
}

/* "in 1 .. 100", "between 0 and 1", ... for a range in the row's terms. */
static void range_text(const struct opt_row *r, const char *sfx, char *buf,
		       size_t len)
{
	bool lo_open = r->flags & OPT_LO_OPEN, hi_open = r->flags & OPT_HI_OPEN;
	char lo[40], hi[40];

	/* %.15g: 4194304, not 4.1943e+06 */
	snprintf(lo, sizeof(lo), "%.15g%s", r->lo, sfx);
	snprintf(hi, sizeof(hi), "%.15g%s", r->hi, sfx);
	if (lo_open && hi_open)
		snprintf(buf, len, "between %s and %s", lo, hi);
	else if (lo_open)
		snprintf(buf, len, "above %s, up to %s", lo, hi);
	else if (hi_open)
		snprintf(buf, len, "from %s, below %s", lo, hi);
	else
		snprintf(buf, len, "in %s .. %s", lo, hi);
}

static bool in_range(const struct opt_row *r, double x)
{
	if (!(r->flags & OPT_LO_OPEN ? x > r->lo : x >= r->lo))
		return false;
	return r->flags & OPT_HI_OPEN ? x < r->hi : x <= r->hi;
}

/* "5%" or "5" into 5.0 (0 .. 1000); 0 or -1. */
static int parse_pct(const char *v, double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || (*end && strcmp(end, "%") != 0) ||
	    !(x >= 0) || x > 1000)
		return -1;
	*out = x;
	return 0;
}

/* The time unit a name carries ("--timeout-s", "--wait_ns"), or NULL. */
static const char *name_time_unit(const char *name)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	size_t n = strlen(name), i, l;

	for (i = 0; i < 4; i++) {
		l = strlen(units[i]);
		if (n > l + 1 && strcmp(name + n - l, units[i]) == 0 &&
		    (name[n - l - 1] == '-' || name[n - l - 1] == '_'))
			return units[i];
	}
	return NULL;
}

static bool is_bare_number(const char *v)
{
	return *v && strspn(v, "0123456789.") == strlen(v);
}

static int parse_time(const struct opt_cmd *c, const struct opt_row *r,
		      const char *v, int64_t *out)
{
	const char *unit = name_time_unit(r->name);
	char buf[128];

	snprintf(buf, sizeof(buf), "%s%s", v,
		 unit && is_bare_number(v) ? unit : "");
	if (param_parse_time_ns(buf, out) == 0 && *out >= r->lo &&
	    *out <= r->hi)
		return 0;
	if (unit)
		return cli_usage(c->name, "%s: '%s' is not a time in %lldms .. "
				 "%llds: a number of %s, or with a unit, ns, "
				 "us, ms or s", r->name, msg_quote(v),
				 (long long)(r->lo / 1e6),
				 (long long)(r->hi / 1e9), unit);
	return cli_usage(c->name, "%s: '%s' is not a time in %lldms .. %llds: "
			 "a number with a unit, ns, us, ms or s (e.g. 100ms, "
			 "1s)", r->name, msg_quote(v), (long long)(r->lo / 1e6),
			 (long long)(r->hi / 1e9));
}

static int parse_size(const struct opt_cmd *c, const struct opt_row *r,
		      const char *v, int64_t *out)
{
	size_t n = strlen(r->name);
	bool bytes = n > 6 && strcmp(r->name + n - 5, "bytes") == 0;

	if ((bytes || !is_bare_number(v)) && param_parse_size(v, out) == 0 &&
	    *out >= r->lo && *out <= r->hi)
		return 0;
	return cli_usage(c->name, "%s: '%s' is not a size in %.0f .. %.0f "
			 "bytes (%s" PARAM_SIZE_RULE ")", r->name,
			 msg_quote(v), r->lo, r->hi,
			 bytes ? "" : "a bare number needs a B here, 4096B; ");
}

static int parse_words(const struct opt_cmd *c, const struct opt_row *r,
		       const char *v)
{
	char list[256];
	const char *s;
	size_t i, used = 0, n = 0;

	for (i = 0; r->words[i]; i++, n++) {
		if (strcmp(v, r->words[i]) == 0)
			return 0;
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%s", i ? ", " : "", r->words[i]);
		if (used >= sizeof(list))
			used = sizeof(list) - 1;
	}
	s = param_suggest(v, r->words, n);
	return cli_usage(c->name, "%s: '%s' is not one of %s%s%s%s", r->name,
			 msg_quote(v), list, s ? "; did you mean '" : "",
			 s ? s : "",
			 s ? "'?" : "");
}

/* The value v of row r into its field of base. */
static int set_value(const struct opt_cmd *c, const struct opt_row *r,
		     const char *v, void *base)
{
	void *dest = (char *)base + r->off;
	char range[128], *end;
	double x;
	int64_t t = 0;

	/* the type at dest is the kind's (opt_cmd_check() says more) */
	if (!opt_row_fits(r)) {
		cli_error("BUG: %s: option %s: its destination does not fit "
			  "its kind", c->name, r->name);
		return EXIT_FAIL;
	}
	if (!v && r->kind != OPT_FLAG) {
		cli_error("BUG: %s: option %s: no value", c->name, r->name);
		return EXIT_FAIL;
	}
	errno = 0;
	switch (r->kind) {
	case OPT_FLAG:
		*(bool *)dest = true;
		return 0;
	case OPT_INT:
		x = (double)strtol(v, &end, 10);
		if (errno || end == v || *end || !in_range(r, x)) {
			range_text(r, "", range, sizeof(range));
			return cli_usage(c->name, "%s: '%s' is not an integer "
					 "%s", r->name, msg_quote(v), range);
		}
		*(int *)dest = (int)x;
		return 0;
	case OPT_U64:
		*(uint64_t *)dest = strtoull(v, &end, 0);
		if (errno || end == v || *end || *v == '-')
			return cli_usage(c->name, "%s: '%s' is not a "
					 "non-negative integer", r->name,
					 msg_quote(v));
		return 0;
	case OPT_NUM:
		x = strtod(v, &end);
		if (errno || end == v || *end || !in_range(r, x)) {
			range_text(r, "", range, sizeof(range));
			return cli_usage(c->name, "%s: '%s' is not a number%s%s "
					 "%s", r->name, msg_quote(v),
					 r->unit ? " of " : "",
					 r->unit ? r->unit : "", range);
		}
		*(double *)dest = x;
		return 0;
	case OPT_PCT:
		if (parse_pct(v, &x) != 0 || !in_range(r, x)) {
			range_text(r, "%", range, sizeof(range));
			return cli_usage(c->name, "%s: '%s' is not a percentage "
					 "%s (e.g. %s)", r->name,
					 msg_quote(v), range,
					 r->unit ? r->unit : "5%");
		}
		*(double *)dest = x;
		return 0;
	case OPT_TIME:
		if (parse_time(c, r, v, &t))
			return EXIT_USAGE;
		*(int64_t *)dest = t;
		return 0;
	case OPT_SIZE:
		if (parse_size(c, r, v, &t))
			return EXIT_USAGE;
		*(int64_t *)dest = t;
		return 0;
	case OPT_STR:
	case OPT_LIST:
	case OPT_REPEAT:
		break;
	}
	if (r->words && r->kind == OPT_STR && parse_words(c, r, v))
		return EXIT_USAGE;
	if (r->check)
		return r->check(c->name, r, v, dest);
	if (r->kind == OPT_REPEAT) {
		size_t *n = (size_t *)((char *)base + r->count_off);

		if (*n >= r->max)
			return cli_usage(c->name, "%s: at most %zu", r->name,
					 r->max);
		((const char **)dest)[(*n)++] = v;
		return 0;
	}
	*(const char **)dest = v;
	return 0;
}

/* One option at argv[*i]; advances *i past its value. */
static int take_option(const struct opt_cmd *c, int argc, char **argv,
		       int *i, void *base, struct opt_result *res)
{
	const char *a = argv[*i], *eq = strchr(a, '=');
	const struct opt_row *r;
	size_t ri;

	r = find_row(c, a, &ri);
	if (!r)
		return unknown(c, a);
	if (r->kind == OPT_FLAG && eq)
		return cli_usage(c->name, "%s takes no value", r->name);
	if ((r->flags & OPT_ONCE) && (res->given & (1ULL << ri)))
		return cli_usage(c->name, "%s is given twice", r->name);
	res->given |= 1ULL << ri;
	if (r->kind == OPT_FLAG)
		return set_value(c, r, NULL, base);
	if (!eq) {
		if (*i + 1 >= argc)
			return cli_usage(c->name, "%s needs a value", r->name);
		eq = argv[++*i] - 1;
	}
	return set_value(c, r, eq + 1, base);
}

int opt_parse(const struct opt_cmd *c, int argc, char **argv, void *base,
	      struct opt_result *res)
{
	bool dashdash = false;
	int i, e = 0;

	memset(res, 0, sizeof(*res));
	res->pos = calloc((size_t)argc + 1, sizeof(*res->pos));
	if (!res->pos) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	for (i = 1; i < argc && !e; i++) {
		const char *a = argv[i];

		if (dashdash || a[0] != '-' || a[1] == '\0') {
			if (c->max_pos >= 0 && res->npos >= c->max_pos)
				e = cli_usage(c->name, "unexpected argument "
					      "'%s'", msg_quote(a));
			else
				res->pos[res->npos++] = argv[i];
		} else if (strcmp(a, "--") == 0) {
			dashdash = true;
			res->ndash = res->npos;
		} else if (cli_is_help(a)) {
			opt_print_synopsis(stdout, c);
			c->usage(stdout, c);
			e = OPT_HELP;
		} else {
			e = take_option(c, argc, argv, &i, base, res);
		}
	}
	if (!dashdash)
		res->ndash = res->npos;
	if (e)
		opt_result_free(res);
	return e;
}

void opt_result_free(struct opt_result *res)
{
	free(res->pos);
	res->pos = NULL;
	res->npos = 0;
}

bool opt_given(const struct opt_cmd *c, const struct opt_result *res,
	       const char *name)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (strcmp(c->rows[i].name, name) == 0)
			return res->given & (1ULL << i);
	return false;
}

/* Columns of the first len bytes of UTF-8 text s. */
int opt_strip(const struct opt_cmd *c, int argc, char **argv,
	      const char *const *drop, char **out)
{
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		const struct opt_row *r = NULL;
		const char *const *d;
		bool takes, dropped = false;
		size_t ri;

		if (i > 0 && strcmp(argv[i], "--") == 0) {
			while (i < argc)
				out[n++] = argv[i++];
			break;
		}
		if (i > 0 && argv[i][0] == '-')
			r = find_row(c, argv[i], &ri);
		takes = r && r->kind != OPT_FLAG && !strchr(argv[i], '=');
		for (d = drop; r && *d; d++)
			dropped |= strcmp(*d, r->name) == 0;
		if (!dropped)
			out[n++] = argv[i];
		if (takes && i + 1 < argc) {
			i++;
			if (!dropped)
				out[n++] = argv[i];
		}
	}
	out[n] = NULL;
	return n;
}
