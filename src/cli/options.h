/*
 * options.h - the one option parser of the subcommands.  Each command
 * declares a table of rows (name, kind, range or unit, where the value
 * goes, placeholder, help line); opt_parse() reads the command line with
 * it, the usage's option list is printed from it, and bash completion
 * reads it through `copyscope __options` (opt_describe()), so that none of
 * them can drift from what the command accepts.
 *
 * Both `--opt value` and `--opt=value`; `-h`/`--help`; `--` ends the
 * options; every other argument is returned, in order, as a positional
 * one.  Every mistake has one wording in every command, and is exit 2.
 */
#ifndef COPYSCOPE_OPTIONS_H
#define COPYSCOPE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_kind {
	OPT_FLAG,	/* bool, no value */
	OPT_INT,	/* int: a whole decimal number in lo .. hi */
	OPT_U64,	/* uint64_t: a non-negative integer (0x.. allowed) */
	OPT_NUM,	/* double in lo .. hi; unit: what it counts */
	OPT_PCT,	/* double: "5%" or "5", in lo .. hi */
	OPT_TIME,	/* int64_t ns in lo .. hi, with a unit (see below) */
	OPT_SIZE,	/* int64_t bytes in lo .. hi, k/M/G */
	OPT_STR,	/* const char *; words: must be one of them */
	OPT_LIST,	/* a comma list of words, read by check */
	OPT_REPEAT,	/* each value appended (const char *[max]), or check */
};

/* What bash completion offers for a value or a positional argument. */
enum opt_complete {
	OPT_C_NONE,		/* nothing known */
	OPT_C_FILE,		/* file names */
	OPT_C_TAG,		/* stored tags (copyscope runs --tags) */
	OPT_C_WORDS,		/* the row's words */
	OPT_C_RUNS,		/* 'last' and stored tags */
	OPT_C_LAST,		/* 'last' */
	OPT_C_WORKLOADS,	/* workloads, suites, their key=value */
	OPT_C_NAMES,		/* workload and suite names */
};

/* Row flags. */
#define OPT_LO_OPEN 0x1		/* the range excludes lo */
#define OPT_HI_OPEN 0x2		/* the range excludes hi */
#define OPT_ONCE 0x4		/* given twice is an error */

struct opt_row;

/*
 * A row's own reading of a value (a tag, a CPU list, kernel views...):
 * store what v says at dest; return 0, or print the usage error (naming
 * cmd and the option) and return its exit code.
 */
typedef int (*opt_check_fn)(const char *cmd, const struct opt_row *r,
			    const char *v, void *dest);

struct opt_row {
	const char *name;		/* "--reps", or "-o" for a short one */
	const char *arg;		/* the value's placeholder; NULL: flag */
	const char *help;		/* NULL: accepted but not listed */
	size_t off;			/* destination in the options struct */
	const char *short_name;		/* "-o" beside a long name, or NULL */
	size_t count_off;		/* OPT_REPEAT without check: size_t */
	size_t max;			/* OPT_REPEAT without check: array size */
	double lo, hi;			/* INT, NUM, PCT, TIME, SIZE */
	const char *unit;		/* NUM: what it counts ("seconds");
					   PCT: an example ("5%") */
	const char *const *words;	/* STR: the choices; LIST: the items */
	opt_check_fn check;		/* STR, LIST, REPEAT: own reading */
	enum opt_kind kind;
	enum opt_complete complete;	/* what the value completes to */
	unsigned flags;			/* OPT_LO_OPEN, OPT_HI_OPEN, OPT_ONCE */
};

struct opt_cmd {
	const char *name;		/* "run" */
	const struct opt_row *rows;
	size_t nrows;
	size_t help_col;		/* column of the help text in usage */
	const char *unknown_hint;	/* after an unknown option's error */
	int max_pos;			/* positional arguments; -1: any */
	enum opt_complete pos;		/* what they complete to */
	const char *after_dashdash;	/* the command '--' hands over to */
	/* its option table: an unknown option that is one of its (or
	   close to one) is pointed after '--' */
	const struct opt_cmd *(*after_cmd)(void);
	/* the whole --help text; calls opt_print_options() for the list */
	void (*usage)(FILE *out, const struct opt_cmd *c);
};

/* What opt_parse() found besides the options. */
struct opt_result {
	char **pos;			/* positional arguments, in order */
	int npos;
	int ndash;			/* how many came before '--' */
	uint64_t given;			/* bit i: row i was given */
};

/* opt_parse()'s return after --help (the usage went to stdout). */
#define OPT_HELP (-1)

/*
 * Read argv[1 .. argc) (argv[0] is the command's name) with c's rows into
 * the struct at base, which holds the defaults.  Returns 0 with res
 * filled (free with opt_result_free()), OPT_HELP after printing the usage
 * for -h/--help, 2 after printing a usage error, 1 when out of memory
 * (printed).  Rows are read left to right; a value given again replaces
 * the earlier one unless the row is OPT_ONCE.
 */
int opt_parse(const struct opt_cmd *c, int argc, char **argv, void *base,
	      struct opt_result *res);
void opt_result_free(struct opt_result *res);

/* True when the row called name was given (name must be a row of c). */
bool opt_given(const struct opt_cmd *c, const struct opt_result *res,
	       const char *name);

/*
 * Print c's option list for its usage: each visible row as "  NAME ARG"
 * with its help word-wrapped at 80 columns from column c->help_col.
 */
void opt_print_options(FILE *out, const struct opt_cmd *c);

/*
 * Write argv[0 .. argc) without the options named in drop (a
 * NULL-terminated list of c's row names) and their values, as c reads
 * them (both forms; nothing after '--' is an option), into out (argc + 1
 * entries, NULL-terminated).  Returns the number written.
 */
int opt_strip(const struct opt_cmd *c, int argc, char **argv,
	      const char *const *drop, char **out);

/*
 * The command table for completion: for command c, one line
 * "command NAME POSITIONAL [AFTER_DASHDASH]" and per visible row one line
 * "option NAME OPT HINT [WORDS...]", HINT being flag, value, file, tag,
 * words or list (and one for its short name), and one line
 * "help NAME OPT<TAB>SHORT<TAB>ARG<TAB>HELP" from which
 * scripts/man-options.sh writes the man page's option lists.
 */
void opt_describe(FILE *out, const struct opt_cmd *c);

/*
 * In describe mode (main's `copyscope __options`), opt_parse() prints
 * opt_describe() to out for the command it is given and returns
 * OPT_HELP, whatever the arguments; NULL ends the mode.
 */
void opt_set_describe(FILE *out);

/*
 * A row's name, kind and placeholder; its help and destination may follow
 * in order: { OPT_R("--reps", OPT_INT, "N"), "help", offsetof(...) }.
 */
#define OPT_R(nm, k, a) .name = (nm), .kind = (k), .arg = (a)

/*
 * The shared rows, defined once: each names the field of the command's
 * options struct (type T) that takes the value.
 */
#define OPT_ROW_DB(T, field, helptext)					\
	{ .name = "--db", .kind = OPT_STR, .arg = "PATH|URL",		\
	  .help = (helptext), .off = offsetof(T, field),			\
	  .complete = OPT_C_FILE }
#define OPT_HELP_DB "database: a SQLite file or postgresql://... (default " \
	"$COPYSCOPE_DB, else $XDG_DATA_HOME/copyscope/results.db)"
#define OPT_ROW_JSON(T, field, helptext)				\
	{ .name = "--json", .kind = OPT_FLAG, .help = (helptext),	\
	  .off = offsetof(T, field) }
#define OPT_ROW_CSV(T, field, helptext)					\
	{ .name = "--csv", .kind = OPT_FLAG, .help = (helptext),		\
	  .off = offsetof(T, field) }
#define OPT_ROW_ALPHA(T, field)						\
	{ .name = "--alpha", .kind = OPT_NUM, .arg = "A",		\
	  .help = "significance level (default 0.05)",			\
	  .off = offsetof(T, field), .lo = 0, .hi = 1,			\
	  .flags = OPT_LO_OPEN | OPT_HI_OPEN }
#define OPT_ROW_IGNORE_PARAM(T, field, helptext)			\
	{ .name = "--ignore-param", .kind = OPT_REPEAT,		\
	  .arg = "KEY[,KEY...]", .help = (helptext),			\
	  .off = offsetof(T, field), .check = opt_check_ignore }
#define OPT_ROW_TAG(T, field, helptext)					\
	{ .name = "--tag", .kind = OPT_STR, .arg = "TAG",		\
	  .help = (helptext), .off = offsetof(T, field),			\
	  .complete = OPT_C_TAG, .check = opt_check_tag }

/* --tag: cli_check_tag(), then the value into the const char * at dest. */
int opt_check_tag(const char *cmd, const struct opt_row *r, const char *v,
		  void *dest);
/* --cpus LIST: session_parse_cpus() into the struct run_opts at dest. */
int opt_check_cpus(const char *cmd, const struct opt_row *r, const char *v,
		   void *dest);
/* --ignore-param: cmp_ignore_add() into the struct cmp_ignore at dest. */
int opt_check_ignore(const char *cmd, const struct opt_row *r,
		     const char *v, void *dest);

#endif
