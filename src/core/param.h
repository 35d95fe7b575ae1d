/*
 * param.h - typed workload parameters with units, sweeps, and binding a
 * configuration to a workload's own parameter struct.
 *
 * Every parameter value is held as an int64_t: integers as is, sizes in
 * bytes (k/M/G suffixes, 1024-based; a bare number is bytes), times in
 * nanoseconds (ns/us/ms/s suffixes), enums as the index of the choice,
 * booleans as 0/1.  A time needs its unit: a bare number is refused (a
 * bare 0 is allowed), except for a parameter whose name carries its unit
 * (inject_ns, timeout_ms: "_ns", "_us", "_ms" or "_s" last), which takes a
 * bare number in that unit (inject_ns=100 is 100 ns).  A command-line value
 * may be a comma list; the lists of all parameters expand to a sweep,
 * their cartesian product, in the order the workload declares its
 * parameters (first parameter slowest).
 *
 * A workload reads its parameters from a struct of its own: each row names
 * its field with PARAM_FIELD(struct, member), and param_bind() writes a
 * configuration (a param_set) into that struct.  A misspelt member is a
 * compile error; workload_table_validate() checks the rest.
 *
 * One value is parsed and formatted in param_value.c, a sweep request in
 * param_request.c, and a configuration's JSON, binding and lookups in
 * param_set.c.
 */
#ifndef COPYSCOPE_PARAM_H
#define COPYSCOPE_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PARAM_MAX 16		/* parameters per workload */
/* Room for any value param_format_value() writes: the longest string
   value (pipe.mix's mix, 1024 bytes) and its NUL, so none is cut. */
#define PARAM_TEXT_MAX 1040
#define PARAM_MAX_LIST 64	/* values in one comma list */
#define PARAM_MAX_SWEEP 4096	/* configurations in one sweep */

enum param_type {
	PARAM_INT,
	PARAM_SIZE,	/* bytes */
	PARAM_TIME,	/* ns */
	PARAM_ENUM,
	PARAM_BOOL,
	/*
	 * Text (e.g. a distribution "64:98,128-4k:2"), held as an index into
	 * a process-wide table of interned strings so that a param_set stays
	 * plain integers (and survives fork).  A comma is part of the value;
	 * ';' separates the values of a sweep.  max is the longest length
	 * allowed (0: 255).  The workload's validate() checks the syntax.
	 */
	PARAM_STRING,
};

/*
 * What the core reads a row for (the shared rows of core/common_params.h
 * carry one), so that it finds the row without knowing its name.
 */
enum param_role {
	PARAM_ROLE_NONE,
	PARAM_ROLE_MODE,	/* enum wl_mode: threads or processes */
	PARAM_ROLE_PLACE,	/* enum wl_place: where the workers run */
	PARAM_ROLE_VERIFY,	/* bool: the untimed verify pass */
	PARAM_ROLE_TRACE,	/* int: cold-call trace of N calls */
	PARAM_ROLE_INJECT,	/* time: the calibrated injection */
};

struct param_def {
	const char *name;
	enum param_type type;
	const char *def;		/* default, as the user would type it */
	int64_t min, max;		/* inclusive; ignored for ENUM/BOOL */
	const char *const *choices;	/* ENUM: NULL-terminated */
	const char *help;		/* one line; says what 0 means if
					   0 is special */
	/*
	 * The field param_bind() writes, in the workload's parameter
	 * struct; set both with PARAM_FIELD().  INT, SIZE and TIME bind an
	 * int64_t, ENUM an int (the choice's index), BOOL a bool, STRING a
	 * const char * (the interned text, which lives for the process).
	 */
	size_t offset;
	unsigned int field_size;
	enum param_role role;
};

/* The field of a row: PARAM_FIELD(struct pipe_bw_params, size). */
#define PARAM_FIELD(st, member)						\
	.offset = offsetof(st, member),					\
	.field_size = sizeof(((st *)0)->member)

/* One configuration: a value for each of the workload's parameters. */
struct param_set {
	int64_t v[PARAM_MAX];
};

/*
 * Parse one value (no commas) for def.  Returns 0, or -1 with a message
 * in err naming the parameter and what is allowed, e.g.
 *   "size: '5x' is not a size (a number with optional k, M or G suffix)"
 *   "size: 2G is out of range (1 .. 1G)"
 */
int param_parse_value(const struct param_def *def, const char *text,
		      int64_t *out, char *err, size_t errlen);

/*
 * Format a value for display and for canonical JSON: sizes as the
 * shortest exact form (65536 -> "64k", 1000 -> "1000"), times likewise
 * (1000000 -> "1ms"), enums as the choice, bools as 0/1.
 */
void param_format_value(const struct param_def *def, int64_t v, char *buf,
			size_t len);

/*
 * A sweep request: per parameter, the list of values to take (defaults
 * when the user gave none).
 */
struct param_request {
	const struct param_def *defs;
	size_t ndefs;
	size_t nvals[PARAM_MAX];
	int64_t vals[PARAM_MAX][PARAM_MAX_LIST];
	bool user_set[PARAM_MAX];
};

/*
 * Fill req with each parameter's default: one value, or a list (a
 * default of "64,4k" sweeps both unless the user sets the parameter).
 * 0 or -1.
 */
int param_request_init(struct param_request *req,
		       const struct param_def *defs, size_t ndefs,
		       char *err, size_t errlen);

/*
 * Apply "key=value[,value...]" to req.  Unknown keys give -1 with a
 * message naming the key and suggesting the closest name
 * ("unknown parameter 'szie' for pipe.bw; did you mean 'size'?").
 * Returns 0 or -1.
 */
int param_request_apply(struct param_request *req, const char *workload,
			const char *assignment, char *err, size_t errlen);

/* Number of configurations the request expands to. */
size_t param_request_count(const struct param_request *req);

/*
 * 0 when the request expands to at most PARAM_MAX_SWEEP configurations,
 * else -1 with a message giving the count and the parameters that vary.
 * (param_request_count() saturates at SIZE_MAX rather than overflow.)
 */
int param_request_check(const struct param_request *req, char *err,
			size_t errlen);

/*
 * Configuration number idx (0 .. count-1) of the cartesian product, first
 * declared parameter varying slowest.
 */
void param_request_get(const struct param_request *req, size_t idx,
		       struct param_set *out);

/*
 * Canonical JSON of one configuration: an object with keys sorted by name,
 * values as strings in param_format_value() form.  malloc'ed; NULL on
 * ENOMEM.
 */
char *param_set_json(const struct param_def *defs, size_t ndefs,
		     const struct param_set *set);

/* The text of a PARAM_STRING value ("" for an unknown index). */
const char *param_string(int64_t v);

/* Bytes of the field a row of this type binds (see struct param_def). */
size_t param_field_size(enum param_type type);

/*
 * Write every value of set into the struct at out (the caller zeroes it),
 * each into its row's field.  The rows must have passed
 * workload_table_validate() (fields of the right size inside the struct).
 */
void param_bind(const struct param_def *defs, size_t ndefs,
		const struct param_set *set, void *out);

/* Index of a parameter by name, or -1. */
int param_find(const struct param_def *defs, size_t ndefs, const char *name);

/* Index of the row with this role, or -1 when there is none. */
int param_find_role(const struct param_def *defs, size_t ndefs,
		    enum param_role role);

/*
 * Closest name to `word` among `names` (n of them) by edit distance, or
 * NULL when none is within a distance of max(2, strlen(word)/3).
 */
const char *param_suggest(const char *word, const char *const *names,
			  size_t n);

/*
 * The two parsers below return 0, or -1 with errno EINVAL (not a
 * size/time, a time without a unit, or a time finer than 1ns) or ERANGE
 * (beyond INT64_MAX).
 */
/*
 * The one rule every size follows (parameters, options, mix entries),
 * stated as is in every refusal and in README.md: the kernel's memparse()
 * letters in either case, 1024-based, then an optional byte mark.  A
 * lowercase b after a number is bits, which no size counts: refused.
 */
#define PARAM_SIZE_RULE \
	"a whole number of bytes, then optionally K, M or G in either " \
	"case (1024-based) and B or iB: 64k, 64K, 64KB, 64KiB, 1M; a " \
	"lowercase b means bits and is refused"

/* Parse a size alone ("64k", "1M"; a bare number is bytes), by
   PARAM_SIZE_RULE. */
int param_parse_size(const char *text, int64_t *out);
/*
 * Parse a time alone, for options such as --warmup: "200ms", "1s",
 * "0.5s", "500us", "100ns"; a unit is required (a bare 0 is allowed).
 */
int param_parse_time_ns(const char *text, int64_t *out);

#endif
