/*
 * options.h - the one option parser of the subcommands.  Each command
 * declares a table of rows (name, kind, range or unit, where the value
 * goes, placeholder, help line), made by typed row macros that check the
 * destination's type at compile time, and its synopsis forms; opt_parse()
 * reads the command line with it, the usage's synopsis and option list
 * are printed from it, and bash completion and the man page read it
 * through `copyscope __options` (opt_describe()), so that none of them
 * can drift from what the command accepts.  opt_cmd_check() holds a table
 * to its rules (cli/commands.c runs it on every table at start-up).
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
	OPT_C_PARAMS,		/* KEY= of the named workloads' parameters */
	OPT_C_SYSCTL,		/* KEY= of the writable /proc/sys files */
	OPT_C_THP,		/* KEY= of the transparent_hugepage files */
};

/* Row flags. */
#define OPT_LO_OPEN 0x1		/* the range excludes lo */
#define OPT_HI_OPEN 0x2		/* the range excludes hi */
#define OPT_ONCE 0x4		/* given twice is an error */

/* What a row's destination is: set by the typed row macros below. */
enum opt_dest {
	OPT_D_NONE,		/* a row not made by them: refused */
	OPT_D_BOOL,		/* bool (OPT_FLAG) */
	OPT_D_INT,		/* int (OPT_INT) */
	OPT_D_U64,		/* uint64_t (OPT_U64) */
	OPT_D_DOUBLE,		/* double (OPT_NUM, OPT_PCT) */
	OPT_D_INT64,		/* int64_t (OPT_TIME, OPT_SIZE) */
	OPT_D_STR,		/* const char * (OPT_STR, OPT_LIST) */
	OPT_D_STRS,		/* const char *[max] and a size_t count
				   (OPT_REPEAT) */
	OPT_D_CHECKED,		/* the type the row's check writes */
};

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
	enum opt_dest dest;		/* what is at off (typed macros) */
	size_t dest_size;		/* and its size */
	enum opt_complete complete;	/* what the value completes to */
	unsigned flags;			/* OPT_LO_OPEN, OPT_HI_OPEN, OPT_ONCE */
};

/* The most rows a table may have: one bit each in opt_result.given. */
#define OPT_MAX_ROWS 64

struct opt_cmd {
	const char *name;		/* "run" */
	const struct opt_row *rows;
	size_t nrows;			/* at most OPT_MAX_ROWS */
	size_t help_col;		/* column of the help text in usage */
	/*
	 * The forms of the command line after "copyscope NAME", NULL
	 * terminated (OPT_SYNOPSIS): each option is written by its name
	 * alone ("[--json|--csv] [--alpha]") and printed with its row's
	 * placeholder ("[--alpha A]"); '\n' breaks the line.  Every
	 * listed row is named in a form (or in also's), or a form says
	 * "[options]"; opt_cmd_check() holds the forms to that.
	 */
	const char *const *synopsis;
	/* more forms of the same command, from another table (report
	   --history's), printed after these */
	const struct opt_cmd *(*also)(void);
	const char *unknown_hint;	/* after an unknown option's error */
	int max_pos;			/* positional arguments; -1: any */
	enum opt_complete pos;		/* what they complete to */
	const char *after_dashdash;	/* the command '--' hands over to */
	/* its option table: an unknown option that is one of its (or
	   close to one) is pointed after '--' */
	const struct opt_cmd *(*after_cmd)(void);
	/* the --help text after the synopsis; calls opt_print_options() */
	void (*usage)(FILE *out, const struct opt_cmd *c);
};

/* A command's forms: OPT_SYNOPSIS("BASE NEW [--json|--csv]"). */
#define OPT_SYNOPSIS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* What opt_parse() found besides the options. */
struct opt_result {
	char **pos;			/* positional arguments, in order */
	int npos;
	int ndash;			/* how many came before '--' */
	uint64_t given;			/* bit i: row i was given */
};

_Static_assert(sizeof(((struct opt_result *)0)->given) * 8 >= OPT_MAX_ROWS,
	       "opt_result.given has a bit for every row");

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
 * Print c's synopsis: "usage: copyscope NAME " and its first form, its
 * other forms (and also's) under it, each as "       copyscope NAME ...",
 * the options named in them with their placeholders, a line broken
 * where the form says so, continued under the form's start.
 */
void opt_print_synopsis(FILE *out, const struct opt_cmd *c);

/*
 * Check c's table: at most OPT_MAX_ROWS rows; every name (and short
 * name) well formed and unique, none of -h, --help and --; every row made
 * by a typed row macro, its kind fitting its destination (the type and
 * size at off), a placeholder exactly when it takes a value, a range
 * (lo < hi) where its kind has one, words where it completes to them,
 * a check where its destination is the check's own; and the synopsis:
 * every option it names a row, every listed row named (or "[options]"),
 * no line over 80 columns.  Returns 0, or -1 with what is wrong
 * (naming the command and the row) in err.
 */
int opt_cmd_check(const struct opt_cmd *c, char *err, size_t len);

/*
 * True when r was made by a typed row macro and its destination (type
 * and size) is what its kind writes; opt_parse() writes no other.
 */
bool opt_row_fits(const struct opt_row *r);

/*
 * The typed row macros.  Each writes a row whose destination is field
 * of OPT_BASE, which the file defines as its options struct before its
 * table:
 *
 *	#define OPT_BASE struct compare_cli
 *	static const struct opt_row compare_rows[] = {
 *		OPT_ROW_FLAG("--drop-noisy", "leave out ...", o.drop_noisy),
 *		OPT_ROW_PCT("--noise", "PCT", "a verdict needs ...",
 *			    o.noise_pct, .lo = 0, .hi = 1000, .unit = "1%"),
 *	};
 *	#undef OPT_BASE
 *
 * A field whose type is not the kind's (an int for OPT_NUM, an unsigned
 * for OPT_INT) is a compile-time error, as perf's OPT_INTEGER and friends
 * make it; the rest of a row (.lo, .hi, .unit, .words, .complete,
 * .flags, .short_name) follows as designated initializers.
 */

/* 0, or a build error when OPT_BASE's field is not of type type. */
#define OPT_TYPE_CHECK(field, type)					\
	(0 * sizeof(struct {						\
		_Static_assert(__builtin_types_compatible_p(		\
			__typeof__(((OPT_BASE *)0)->field), type),	\
			"option row destination " #field		\
			" is not " #type);				\
		int opt_type_ok;					\
	}))

#define OPT_FIELD_SIZE(field) sizeof(((OPT_BASE *)0)->field)

/* The destination of a row: field, checked to be of type type. */
#define OPT_DEST(field, type, d)					\
	.off = offsetof(OPT_BASE, field) + OPT_TYPE_CHECK(field, type),	\
	.dest = (d), .dest_size = OPT_FIELD_SIZE(field)

#define OPT_ROW_FLAG(nm, helptext, field, ...)				\
	{ .name = (nm), .kind = OPT_FLAG, .help = (helptext),		\
	  OPT_DEST(field, bool, OPT_D_BOOL), __VA_ARGS__ }
#define OPT_ROW_INT(nm, a, helptext, field, ...)			\
	{ .name = (nm), .kind = OPT_INT, .arg = (a), .help = (helptext), \
	  OPT_DEST(field, int, OPT_D_INT), __VA_ARGS__ }
#define OPT_ROW_U64(nm, a, helptext, field, ...)			\
	{ .name = (nm), .kind = OPT_U64, .arg = (a), .help = (helptext), \
	  OPT_DEST(field, uint64_t, OPT_D_U64), __VA_ARGS__ }
#define OPT_ROW_NUM(nm, a, helptext, field, ...)			\
	{ .name = (nm), .kind = OPT_NUM, .arg = (a), .help = (helptext), \
	  OPT_DEST(field, double, OPT_D_DOUBLE), __VA_ARGS__ }
#define OPT_ROW_PCT(nm, a, helptext, field, ...)			\
	{ .name = (nm), .kind = OPT_PCT, .arg = (a), .help = (helptext), \
	  OPT_DEST(field, double, OPT_D_DOUBLE), __VA_ARGS__ }
#define OPT_ROW_TIME(nm, a, helptext, field, ...)			\
	{ .name = (nm), .kind = OPT_TIME, .arg = (a), .help = (helptext), \
	  OPT_DEST(field, int64_t, OPT_D_INT64), __VA_ARGS__ }
#define OPT_ROW_SIZE(nm, a, helptext, field, ...)			\
	{ .name = (nm), .kind = OPT_SIZE, .arg = (a), .help = (helptext), \
	  OPT_DEST(field, int64_t, OPT_D_INT64), __VA_ARGS__ }
/* A string (.words: one of them); kind OPT_STR or OPT_LIST. */
#define OPT_ROW_STR(nm, a, helptext, field, ...)			\
	{ .name = (nm), .kind = OPT_STR, .arg = (a), .help = (helptext), \
	  OPT_DEST(field, const char *, OPT_D_STR), __VA_ARGS__ }
/* Each value appended to the array field, its count in field count. */
#define OPT_ROW_REPEAT(nm, a, helptext, field, count, ...)		\
	{ .name = (nm), .kind = OPT_REPEAT, .arg = (a),		\
	  .help = (helptext),						\
	  OPT_DEST(field, const char *[OPT_FIELD_SIZE(field) /		\
				       sizeof(const char *)],		\
		   OPT_D_STRS),						\
	  .count_off = offsetof(OPT_BASE, count) +			\
		       OPT_TYPE_CHECK(count, size_t),			\
	  .max = OPT_FIELD_SIZE(field) / sizeof(const char *),		\
	  __VA_ARGS__ }
/*
 * A value that fn reads into field, of type type (what fn writes: the
 * row names it, the macro checks the field); kind k is OPT_STR, OPT_LIST
 * or OPT_REPEAT.
 */
#define OPT_ROW_CHECK(k, nm, a, helptext, field, type, fn, ...)	\
	{ .name = (nm), .kind = (k), .arg = (a), .help = (helptext),	\
	  OPT_DEST(field, type, OPT_D_CHECKED), .check = (fn),		\
	  __VA_ARGS__ }

/* The shared rows, defined once, each into field of OPT_BASE. */
#define OPT_ROW_DB(field, helptext)					\
	OPT_ROW_STR("--db", "PATH|URL", helptext, field,		\
		    .complete = OPT_C_FILE)
#define OPT_HELP_DB "database: a SQLite file or postgresql://... (default " \
	"$COPYSCOPE_DB, else $XDG_DATA_HOME/copyscope/results.db)"
#define OPT_ROW_JSON(field, helptext) OPT_ROW_FLAG("--json", helptext, field)
#define OPT_ROW_CSV(field, helptext) OPT_ROW_FLAG("--csv", helptext, field)
#define OPT_ROW_ALPHA(field)						\
	OPT_ROW_NUM("--alpha", "A", "significance level (default 0.05)", \
		    field, .lo = 0, .hi = 1,				\
		    .flags = OPT_LO_OPEN | OPT_HI_OPEN)
#define OPT_ROW_IGNORE_PARAM(field, helptext)				\
	OPT_ROW_CHECK(OPT_REPEAT, "--ignore-param", "KEY[,KEY...]",	\
		      helptext, field, struct cmp_ignore, opt_check_ignore)
#define OPT_ROW_TAG(field, helptext)					\
	OPT_ROW_CHECK(OPT_STR, "--tag", "TAG", helptext, field,	\
		      const char *, opt_check_tag, .complete = OPT_C_TAG)

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
