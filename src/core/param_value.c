/*
 * param_value.c - one parameter value: parsing it from text by its row's
 * type (integers, sizes with k/M/G suffixes, times with ns/us/ms/s
 * units, enums by choice name, booleans, strings) within the row's
 * range, and formatting it back in the same units.  A string value is
 * the index of its text in a table kept here for the process
 * (param_string()).  The size and time parsers are also offered alone
 * (param_parse_size(), param_parse_time_ns()), for option values and
 * pipe.mix's texts.  Sweeps of values are in param_request.c; a
 * configuration's JSON and binding in param_set.c.
 */
#include "core/param.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/param_priv.h"
#include "util/array.h"
#include "util/msg.h"

#define KIB ((int64_t)1024)
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)

#define NS_US ((int64_t)1000)
#define NS_MS ((int64_t)1000000)
#define NS_S ((int64_t)1000000000)

/* Results of the internal number parsers. */
enum parse_result {
	PARSE_OK = 0,
	PARSE_SYNTAX = -1,	/* not a number of the expected form */
	PARSE_RANGE = -2,	/* beyond INT64_MAX */
	PARSE_FINE = -3,	/* a time finer than one nanosecond */
	PARSE_NO_UNIT = -4,	/* a time other than 0 without a unit */
};

#define is_digit(c) ((c) >= '0' && (c) <= '9')

/*
 * Accumulate the decimal digits at *p into *v.  Returns the number of
 * digits read (0: none), or -1 on overflow (the digits are still skipped).
 */
static int read_digits(const char **p, int64_t *v)
{
	const char *s = *p;
	bool over = false;
	int n = 0;

	*v = 0;
	while (is_digit(*s)) {
		int d = *s - '0';

		if (!over && *v > (INT64_MAX - d) / 10)
			over = true;
		if (!over)
			*v = *v * 10 + d;
		s++;
		n++;
	}
	*p = s;
	return over ? -1 : n;
}

static enum parse_result parse_size(const char *text, int64_t *out)
{
	const char *p = text;
	int64_t v, mult = 1;
	int n;

	if (!text)
		return PARSE_SYNTAX;
	n = read_digits(&p, &v);
	if (n == 0)
		return PARSE_SYNTAX;
	switch (*p) {
	case 'k':
	case 'K':
		mult = KIB;
		p++;
		break;
	case 'm':
	case 'M':
		mult = MIB;
		p++;
		break;
	case 'g':
	case 'G':
		mult = GIB;
		p++;
		break;
	default:
		break;
	}
	if (*p == 'B')
		p++;
	else if (mult != 1 && p[0] == 'i' && p[1] == 'B')
		p += 2;
	if (*p != '\0')
		return PARSE_SYNTAX;
	if (n < 0 || v > INT64_MAX / mult)
		return PARSE_RANGE;
	*out = v * mult;
	return PARSE_OK;
}

/* The units a time may carry, and what each is in ns. */
struct time_unit {
	const char *name;
	int64_t ns;
	int exp10;		/* ns = 10^exp10 */
};

static const struct time_unit time_units[] = {
	{ "ns", 1, 0 },
	{ "us", NS_US, 3 },
	{ "ms", NS_MS, 6 },
	{ "s", NS_S, 9 },
};

#define NTIME_UNITS (ARRAY_SIZE(time_units))

/* The unit a parameter's name ends in ("inject_ns": ns), or NULL. */
static const struct time_unit *name_unit(const char *name)
{
	const char *u = name ? strrchr(name, '_') : NULL;
	size_t i;

	if (!u)
		return NULL;
	for (i = 0; i < NTIME_UNITS; i++)
		if (strcmp(u + 1, time_units[i].name) == 0)
			return &time_units[i];
	return NULL;
}

/*
 * A time: digits, an optional fraction, a unit.  Without a unit the number
 * is in `bare` (the unit the parameter's name carries); with no such unit
 * only a value of 0 may go without one.  The value must be a whole number
 * of nanoseconds: a fraction may have at most as many significant digits
 * as the unit has zeros in ns.
 */
static enum parse_result parse_time(const char *text,
				    const struct time_unit *bare,
				    int64_t *out)
{
	static const struct time_unit zero = { "", 1, 0 };
	const struct time_unit *unit = NULL;
	const char *p = text, *frac = NULL;
	size_t fraclen = 0, u;
	int64_t ip, fv = 0;
	bool over;
	int n, i;

	if (!text)
		return PARSE_SYNTAX;
	n = read_digits(&p, &ip);
	if (n == 0)
		return PARSE_SYNTAX;
	over = n < 0;
	if (*p == '.') {
		p++;
		frac = p;
		while (is_digit(*p))
			p++;
		fraclen = (size_t)(p - frac);
		if (fraclen == 0)
			return PARSE_SYNTAX;
	}
	/* Trailing zeros of the fraction carry nothing. */
	while (fraclen > 0 && frac[fraclen - 1] == '0')
		fraclen--;
	for (u = 0; u < NTIME_UNITS; u++)
		if (strcmp(p, time_units[u].name) == 0)
			unit = &time_units[u];
	if (!unit && *p != '\0')
		return PARSE_SYNTAX;
	if (!unit)
		unit = bare;
	if (!unit) {
		/* a bare number: only 0 means the same in every unit */
		if (over || ip != 0 || fraclen != 0)
			return PARSE_NO_UNIT;
		unit = &zero;
	}
	if (over || ip > INT64_MAX / unit->ns)
		return PARSE_RANGE;
	ip *= unit->ns;
	if (fraclen > (size_t)unit->exp10)
		return PARSE_FINE;
	for (i = 0; i < unit->exp10; i++)
		fv = fv * 10 + ((size_t)i < fraclen ? frac[i] - '0' : 0);
	if (fv > INT64_MAX - ip)
		return PARSE_RANGE;
	*out = ip + fv;
	return PARSE_OK;
}

/* An integer: optional '-', decimal digits, nothing else. */
static enum parse_result parse_int(const char *text, int64_t *out)
{
	const char *p = text;
	bool neg = false;
	int64_t v;
	int n;

	if (!text)
		return PARSE_SYNTAX;
	if (*p == '-') {
		neg = true;
		p++;
	}
	n = read_digits(&p, &v);
	if (n == 0 || *p != '\0')
		return PARSE_SYNTAX;
	if (n < 0) {
		/* INT64_MIN itself does not fit as a positive number. */
		if (neg && strcmp(text, "-9223372036854775808") == 0) {
			*out = INT64_MIN;
			return PARSE_OK;
		}
		return PARSE_RANGE;
	}
	*out = neg ? -v : v;
	return PARSE_OK;
}

static int parse_bool(const char *text, int64_t *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	size_t i;

	if (!text)
		return -1;
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcasecmp(text, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(text, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

static int set_errno(enum parse_result r)
{
	if (r == PARSE_OK)
		return 0;
	errno = r == PARSE_RANGE ? ERANGE : EINVAL;
	return -1;
}

int param_parse_size(const char *text, int64_t *out)
{
	return set_errno(parse_size(text, out));
}

int param_parse_time_ns(const char *text, int64_t *out)
{
	return set_errno(parse_time(text, NULL, out));
}

/* Interned PARAM_STRING values; never freed (a handful per process). */
static char **strings;
static size_t nstrings, strings_cap;

static int intern(const char *text, int64_t *out)
{
	size_t i;
	char *dup;

	for (i = 0; i < nstrings; i++) {
		if (strcmp(strings[i], text) == 0) {
			*out = (int64_t)i;
			return 0;
		}
	}
	if (nstrings == strings_cap) {
		size_t cap = strings_cap ? strings_cap * 2 : 16;
		char **v = realloc(strings, cap * sizeof(*v));

		if (!v)
			return -1;
		strings = v;
		strings_cap = cap;
	}
	dup = strdup(text);
	if (!dup)
		return -1;
	strings[nstrings] = dup;
	*out = (int64_t)nstrings++;
	return 0;
}

const char *param_string(int64_t v)
{
	if (v < 0 || (size_t)v >= nstrings)
		return "";
	return strings[v];
}

static int parse_string(const struct param_def *def, const char *text,
			int64_t *out, struct msg *m)
{
	size_t max = def->max > 0 ? (size_t)def->max : 255;

	if (strlen(text) > max) {
		msg_add(m, "%s: '%.32s...' is longer than %zu characters",
			def->name, text, max);
		return -1;
	}
	if (intern(text, out) != 0) {
		msg_add(m, "%s: out of memory", def->name);
		return -1;
	}
	return 0;
}

static size_t count_choices(const struct param_def *def)
{
	size_t n = 0;

	if (!def->choices)
		return 0;
	while (def->choices[n])
		n++;
	return n;
}

/* The form a value of each type must take, for error messages. */
static const char *type_form(enum param_type type)
{
	switch (type) {
	case PARAM_INT:
		return "is not an integer";
	case PARAM_SIZE:
		return "is not a size (" PARAM_SIZE_RULE ")";
	case PARAM_TIME:
		return "is not a time (a number with a unit: ns, us, ms or "
		       "s; bare where the name ends in one: inject_ns=5)";
	case PARAM_BOOL:
		return "is not a boolean (0, 1, yes, no, true, false, on, off)";
	case PARAM_ENUM:
	case PARAM_STRING:
		break;
	}
	return "is not valid";
}

static int parse_enum(const struct param_def *def, const char *text,
		      int64_t *out, struct msg *m)
{
	size_t i, n = count_choices(def);
	const char *hint;

	for (i = 0; i < n; i++) {
		if (strcmp(text, def->choices[i]) == 0) {
			*out = (int64_t)i;
			return 0;
		}
	}
	msg_add(m, "%s: '%s' is not one of ", def->name, msg_quote(text));
	for (i = 0; i < n; i++)
		msg_add(m, "%s%s", i ? ", " : "", def->choices[i]);
	hint = n ? param_suggest(text, def->choices, n) : NULL;
	if (hint)
		msg_add(m, "; did you mean '%s'?", hint);
	return -1;
}

int param_parse_value(const struct param_def *def, const char *text,
		      int64_t *out, char *err, size_t errlen)
{
	enum parse_result r = PARSE_OK;
	char vbuf[32], lo[32], hi[32];
	struct msg m;
	int64_t v = 0;

	msg_init(&m, err, errlen);
	if (!text) {
		msg_add(&m, "%s: no value", def->name);
		return -1;
	}
	if ((def->type == PARAM_SIZE || def->type == PARAM_TIME) &&
	    text[0] == '-' && is_digit(text[1])) {
		param_format_value(def, def->min, lo, sizeof(lo));
		msg_add(&m, "%s: '%s' is negative: it must be ≥ %s", def->name,
			text, lo);
		return -1;
	}
	switch (def->type) {
	case PARAM_STRING:
		return parse_string(def, text, out, &m);
	case PARAM_ENUM:
		if (parse_enum(def, text, out, &m) < 0)
			return -1;
		return 0;
	case PARAM_BOOL:
		if (parse_bool(text, out) < 0) {
			msg_add(&m, "%s: '%s' %s", def->name, text,
				type_form(def->type));
			return -1;
		}
		return 0;
	case PARAM_INT:
		r = parse_int(text, &v);
		break;
	case PARAM_SIZE:
		r = parse_size(text, &v);
		break;
	case PARAM_TIME:
		r = parse_time(text, name_unit(def->name), &v);
		break;
	}
	switch (r) {
	case PARSE_OK:
		break;
	case PARSE_SYNTAX:
		msg_add(&m, "%s: '%s' %s", def->name, text,
			type_form(def->type));
		return -1;
	case PARSE_RANGE:
		param_format_value(def, def->min, lo, sizeof(lo));
		param_format_value(def, def->max, hi, sizeof(hi));
		msg_add(&m, "%s: '%s' is out of range (%s .. %s)", def->name,
			text, lo, hi);
		return -1;
	case PARSE_FINE:
		msg_add(&m, "%s: '%s' is not a whole number of nanoseconds",
			def->name, text);
		return -1;
	case PARSE_NO_UNIT:
		msg_add(&m, "%s: '%s' has no unit; a time takes ns, us, ms or "
			"s (e.g. 100ms)", def->name, text);
		return -1;
	}
	if (v < def->min || v > def->max) {
		param_format_value(def, v, vbuf, sizeof(vbuf));
		param_format_value(def, def->min, lo, sizeof(lo));
		param_format_value(def, def->max, hi, sizeof(hi));
		msg_add(&m, "%s: %s is out of range (%s .. %s)", def->name,
			vbuf, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* v as the largest unit in units[] (biggest first) that divides it. */
static void format_units(int64_t v, const int64_t *mult,
			 const char *const *suffix, size_t n, char *buf,
			 size_t len)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (v != 0 && v % mult[i] == 0) {
			snprintf(buf, len, "%lld%s", (long long)(v / mult[i]),
				 suffix[i]);
			return;
		}
	}
	snprintf(buf, len, "%lld", (long long)v);
}

void param_format_value(const struct param_def *def, int64_t v, char *buf,
			size_t len)
{
	static const int64_t size_mult[] = { GIB, MIB, KIB };
	static const char *const size_suffix[] = { "G", "M", "k" };
	static const int64_t time_mult[] = { NS_S, NS_MS, NS_US, 1 };
	static const char *const time_suffix[] = { "s", "ms", "us", "ns" };

	if (!buf || len == 0)
		return;
	switch (def->type) {
	case PARAM_SIZE:
		format_units(v, size_mult, size_suffix, 3, buf, len);
		return;
	case PARAM_TIME:
		/* 0 prints as "0": the one time that needs no unit. */
		format_units(v, time_mult, time_suffix, 4, buf, len);
		return;
	case PARAM_ENUM:
		if (v >= 0 && (size_t)v < count_choices(def))
			snprintf(buf, len, "%s", def->choices[v]);
		else
			snprintf(buf, len, "#%lld", (long long)v);
		return;
	case PARAM_BOOL:
		snprintf(buf, len, "%d", v != 0);
		return;
	case PARAM_STRING:
		snprintf(buf, len, "%s", param_string(v));
		return;
	case PARAM_INT:
		break;
	}
	snprintf(buf, len, "%lld", (long long)v);
}
