/*
 * test_options.c - unit tests for src/cli/options.c, the subcommands'
 * option parser: every kind of row with its range, both --opt value and
 * --opt=value, short names, the error of each kind of mistake (unknown
 * option with its suggestion, missing value, out of range, a time without
 * its unit, a flag with a value, a row given twice), positional arguments
 * and '--', --help, the generated option list, opt_strip() and the table
 * that completion reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "core/param.h"

struct t_opts {
	bool flag;
	int n;
	uint64_t seed;
	double secs, pct, alpha;
	int64_t time_ns, wait_ns, size_bytes, buf;
	const char *str, *choice, *list, *once, *tag;
	const char *rep[3];
	size_t nrep;
	struct cmp_ignore ig;
};

static const char *const choices[] = { "auto", "kvm", "tcg", NULL };

static int check_list(const char *cmd, const struct opt_row *r,
		      const char *v, void *dest)
{
	if (strchr(v, ' '))
		return cli_usage(cmd, "%s: '%s' has a blank", r->name, v);
	*(const char **)dest = v;
	return 0;
}

#define OPT_BASE struct t_opts
static const struct opt_row t_rows[] = {
	OPT_ROW_FLAG("--flag", "a flag", flag),
	OPT_ROW_INT("--n", "N", "an integer", n, .lo = 1, .hi = 10),
	OPT_ROW_U64("--seed", "S", "a seed", seed),
	OPT_ROW_NUM("--wait-s", "S", "seconds", secs, .lo = 1, .hi = 60,
		    .unit = "seconds"),
	OPT_ROW_PCT("--pct", "PCT", "a percentage", pct, .lo = 0.5,
		    .hi = 100, .unit = "1%"),
	OPT_ROW_ALPHA(alpha),
	OPT_ROW_TIME("--time", "T", "a time", time_ns, .lo = 1e6, .hi = 60e9),
	OPT_ROW_TIME("--wait_ns", "T", "a time in ns", wait_ns, .lo = 0,
		     .hi = 1e9),
	OPT_ROW_SIZE("--size-bytes", "B", "a size", size_bytes, .lo = 1,
		     .hi = 1 << 20),
	OPT_ROW_SIZE("--buf", "SIZE", "a size", buf, .lo = 1, .hi = 1 << 20),
	OPT_ROW_STR("--str", "S", "a string", str, .complete = OPT_C_FILE,
		    .short_name = "-s"),
	OPT_ROW_STR("--choice", "C", "one of three", choice, .words = choices,
		    .complete = OPT_C_WORDS),
	OPT_ROW_CHECK(OPT_LIST, "--list", "L", "a list", list, const char *,
		      check_list, .words = choices),
	OPT_ROW_STR("--once", "X", "once only", once, .flags = OPT_ONCE),
	OPT_ROW_REPEAT("--rep", "R", "repeatable", rep, nrep),
	OPT_ROW_TAG(tag, "a tag"),
	OPT_ROW_IGNORE_PARAM(ig, "ignored parameters"),
	OPT_ROW_FLAG("--hidden", NULL, flag),
	OPT_ROW_STR("-o", "FILE", "a short one", str),
};
#undef OPT_BASE

static int usage_calls;

static void t_usage(FILE *out, const struct opt_cmd *c)
{
	usage_calls++;
	fprintf(out, "\nthe t command\n");
	opt_print_options(out, c);
}

static const struct opt_cmd t_cmd = {
	.name = "t", .rows = t_rows,
	.nrows = sizeof(t_rows) / sizeof(t_rows[0]), .help_col = 16,
	.max_pos = 3, .pos = OPT_C_RUNS, .usage = t_usage,
	.synopsis = OPT_SYNOPSIS("[RUN ...] [--flag] [--n] [--str|-o]\n"
				 "[--rep]... [options]"),
};

/* stderr and stdout of the last parse() */
static char err_text[4096], out_text[8192];

/* The text written to fd while redirected to tmp, into buf. */
static void take_back(int fd, int saved, FILE *tmp, char *buf, size_t len)
{
	size_t n;

	dup2(saved, fd);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
}

/* Parse the words (NULL-terminated) with t_cmd into o; stderr kept. */
static int parse(struct t_opts *o, struct opt_result *res, ...)
{
	char *argv[32];
	int argc = 0, saved_err, saved_out, e;
	FILE *err = tmpfile(), *out = tmpfile();
	va_list ap;

	assert_non_null(err);
	assert_non_null(out);
	argv[argc++] = "t";
	va_start(ap, res);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	memset(o, 0, sizeof(*o));
	fflush(stderr);
	fflush(stdout);
	saved_err = dup(2);
	saved_out = dup(1);
	dup2(fileno(err), 2);
	dup2(fileno(out), 1);
	e = opt_parse(&t_cmd, argc, argv, o, res);
	fflush(stderr);
	fflush(stdout);
	take_back(2, saved_err, err, err_text, sizeof(err_text));
	take_back(1, saved_out, out, out_text, sizeof(out_text));
	return e;
}

/* Parse expecting exit 2 and an error that holds want. */
static void bad(const char *want, ...)
{
	struct t_opts o;
	struct opt_result res;
	char *w[8] = { NULL };
	va_list ap;
	int n = 0;

	va_start(ap, want);
	while (n < 7 && (w[n] = va_arg(ap, char *)) != NULL)
		n++;
	va_end(ap);
	w[n] = NULL;
	assert_int_equal(parse(&o, &res, w[0], w[1], w[2], w[3], w[4], w[5],
			       w[6], (char *)NULL), EXIT_USAGE);
	if (!strstr(err_text, want))
		fail_msg("error '%s' lacks '%s'", err_text, want);
	assert_non_null(strstr(err_text, "(see 'copyscope t --help')"));
	cmp_ignore_free(&o.ig);
}

static void test_kinds(void **state)
{
	struct t_opts o;
	struct opt_result res;

	(void)state;
	assert_int_equal(parse(&o, &res, "--flag", "--n", "7", "--seed=0x10",
			       "--wait-s", "2.5", "--pct", "5%", "--alpha",
			       "0.01", "--time", "1.5s", "--wait_ns", "250",
			       "--size-bytes", "4096", "--buf=64k", "-s", "x",
			       "--choice=kvm", "--list", "a,b", "--tag", "tg",
			       "--ignore-param", "size,mode", (char *)NULL), 0);
	assert_true(o.flag);
	assert_int_equal(o.n, 7);
	assert_int_equal(o.seed, 16);
	assert_true(o.secs == 2.5);
	assert_true(o.pct == 5);
	assert_true(o.alpha == 0.01);
	assert_int_equal(o.time_ns, 1500000000);
	assert_int_equal(o.wait_ns, 250);
	assert_int_equal(o.size_bytes, 4096);
	assert_int_equal(o.buf, 65536);
	assert_string_equal(o.str, "x");
	assert_string_equal(o.choice, "kvm");
	assert_string_equal(o.list, "a,b");
	assert_string_equal(o.tag, "tg");
	assert_int_equal(o.ig.n, 2);
	assert_string_equal(o.ig.keys[1], "mode");
	assert_int_equal(res.npos, 0);
	assert_true(opt_given(&t_cmd, &res, "--n"));
	assert_false(opt_given(&t_cmd, &res, "--once"));
	opt_result_free(&res);
	cmp_ignore_free(&o.ig);
}

static void test_equals_form(void **state)
{
	struct t_opts o;
	struct opt_result res;

	(void)state;
	assert_int_equal(parse(&o, &res, "--n=3", "--str=a=b", "-o=f",
			       "--time=1.5ms", "--wait_ns=0", (char *)NULL), 0);
	assert_int_equal(o.n, 3);
	assert_string_equal(o.str, "f");
	assert_int_equal(o.time_ns, 1500000);
	assert_int_equal(o.wait_ns, 0);
	opt_result_free(&res);
	/* an empty value is a value */
	assert_int_equal(parse(&o, &res, "--str=", (char *)NULL), 0);
	assert_string_equal(o.str, "");
	opt_result_free(&res);
	/* the value may begin with '-' */
	bad("--n: '-3' is not an integer in 1 .. 10", "--n", "-3", (char *)NULL);
}

static void test_ranges(void **state)
{
	(void)state;
	bad("--n: '0' is not an integer in 1 .. 10", "--n", "0", (char *)NULL);
	bad("--n: '11' is not an integer in 1 .. 10", "--n", "11", (char *)NULL);
	bad("--n: 'x' is not an integer in 1 .. 10", "--n=x", (char *)NULL);
	bad("--n: '99999999999999999999' is not an integer", "--n",
	    "99999999999999999999", (char *)NULL);
	bad("--seed: '-1' is not a non-negative integer", "--seed", "-1",
	    (char *)NULL);
	bad("--wait-s: '0.5' is not a number of seconds in 1 .. 60",
	    "--wait-s", "0.5", (char *)NULL);
	bad("--alpha: '1' is not a number between 0 and 1", "--alpha", "1",
	    (char *)NULL);
	bad("--pct: '0.1%' is not a percentage in 0.5% .. 100% (e.g. 1%)",
	    "--pct", "0.1%", (char *)NULL);
	bad("--pct: '5x' is not a percentage", "--pct", "5x", (char *)NULL);
	bad("--time: '100s' is not a time in 1ms .. 60s", "--time", "100s",
	    (char *)NULL);
	bad("--buf: '2M' is not a size in 1 .. 1048576 bytes", "--buf", "2M",
	    (char *)NULL);
	bad("--choice: 'kvn' is not one of auto, kvm, tcg; did you mean "
	    "'kvm'?", "--choice", "kvn", (char *)NULL);
	bad("--list: 'a b' has a blank", "--list", "a b", (char *)NULL);
	bad("--tag: '12' could not be selected", "--tag", "12", (char *)NULL);
	bad("--ignore-param: empty parameter name in 'a,'", "--ignore-param",
	    "a,", (char *)NULL);
}

static void test_units(void **state)
{
	(void)state;
	/* a bare number only where the name carries the unit */
	bad("--time: '100' is not a time in 1ms .. 60s: a number with a "
	    "unit, ns, us, ms or s (e.g. 100ms, 1s)", "--time", "100", (char *)NULL);
	bad("--time: '5m' is not a time", "--time", "5m", (char *)NULL);
	bad("--wait_ns: '2s' is not a time in 0ms .. 1s: a number of ns, or "
	    "with a unit", "--wait_ns", "2s", (char *)NULL);
	bad("--buf: '4096' is not a size in 1 .. 1048576 bytes (a bare "
	    "number needs a B here, 4096B; " PARAM_SIZE_RULE ")", "--buf",
	    "4096", (char *)NULL);
	bad("--buf: '64Kb' is not a size in 1 .. 1048576 bytes (a bare "
	    "number needs a B here, 4096B; " PARAM_SIZE_RULE ")", "--buf",
	    "64Kb", (char *)NULL);
	bad("--size-bytes: '4q' is not a size", "--size-bytes", "4q", (char *)NULL);
}

static void test_mistakes(void **state)
{
	(void)state;
	bad("unknown option '--fleg'; did you mean '--flag'?", "--fleg",
	    (char *)NULL);
	bad("unknown option '--chioce=kvm'; did you mean '--choice'?",
	    "--chioce=kvm", (char *)NULL);
	bad("unknown option '--zzzzzzzzzz'\n", "--zzzzzzzzzz", (char *)NULL);
	bad("unknown option '-x'", "-x", (char *)NULL);
	bad("--n needs a value", "--n", (char *)NULL);
	bad("--flag takes no value", "--flag=1", (char *)NULL);
	bad("--once is given twice", "--once", "a", "--once=b", (char *)NULL);
	bad("--rep: at most 3", "--rep=a", "--rep=b", "--rep", "c", "--rep=d",
	    (char *)NULL);
	bad("unexpected argument 'd'", "a", "b", "c", "d", (char *)NULL);
}

static void test_repeated(void **state)
{
	struct t_opts o;
	struct opt_result res;

	(void)state;
	/* a value given again replaces the earlier one */
	assert_int_equal(parse(&o, &res, "--n", "2", "--n=4", "--rep", "a",
			       "--rep=b", "--ignore-param", "x",
			       "--ignore-param", "y,z", (char *)NULL), 0);
	assert_int_equal(o.n, 4);
	assert_int_equal(o.nrep, 2);
	assert_string_equal(o.rep[0], "a");
	assert_string_equal(o.rep[1], "b");
	assert_int_equal(o.ig.n, 3);
	opt_result_free(&res);
	cmp_ignore_free(&o.ig);
}

static void test_positional(void **state)
{
	struct t_opts o;
	struct opt_result res;

	(void)state;
	assert_int_equal(parse(&o, &res, "a", "--flag", "-", "--", "--n",
			       (char *)NULL), 0);
	assert_int_equal(res.npos, 3);
	assert_string_equal(res.pos[0], "a");
	assert_string_equal(res.pos[1], "-");
	assert_string_equal(res.pos[2], "--n");
	assert_int_equal(res.ndash, 2);
	assert_true(o.flag);
	assert_int_equal(o.n, 0);
	opt_result_free(&res);
	assert_int_equal(parse(&o, &res, "x", (char *)NULL), 0);
	assert_int_equal(res.ndash, 1);
	opt_result_free(&res);
}

static void test_help(void **state)
{
	struct t_opts o;
	struct opt_result res;
	char buf[8192];
	FILE *f = tmpfile();
	size_t n;

	(void)state;
	usage_calls = 0;
	assert_int_equal(parse(&o, &res, "--n", "3", "-h", "--n", "0",
			       (char *)NULL), OPT_HELP);
	assert_int_equal(usage_calls, 1);
	/* the synopsis from the forms and the rows' placeholders */
	assert_non_null(strstr(out_text, "usage: copyscope t [RUN ...] [--flag] "
			       "[--n N] [--str S|-o FILE]\n"
			       "                   [--rep R]... [options]\n"
			       "\nthe t command\n"));
	assert_string_equal(err_text, "");
	/* an error before --help wins */
	assert_int_equal(parse(&o, &res, "--n", "0", "--help", (char *)NULL),
			 EXIT_USAGE);
	assert_int_equal(usage_calls, 1);
	assert_non_null(f);
	opt_print_options(f, &t_cmd);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "\n  --n N         an integer\n"));
	assert_non_null(strstr(buf, "\n  --str, -s S   a string\n"));
	assert_non_null(strstr(buf, "\n  --ignore-param KEY[,KEY...]\n"
			       "                ignored parameters\n"));
	assert_null(strstr(buf, "--hidden"));
}

static void test_strip(void **state)
{
	char *argv[] = { "t", "--n", "3", "a", "--flag", "--str=x", "--str",
			 "y", "--once", "--n", "--", "--n", "4", NULL };
	static const char *const drop[] = { "--n", "--str", NULL };
	char *out[16];
	int n;

	(void)state;
	n = opt_strip(&t_cmd, 13, argv, drop, out);
	assert_int_equal(n, 8);
	assert_string_equal(out[0], "t");
	assert_string_equal(out[1], "a");
	assert_string_equal(out[2], "--flag");
	/* --once takes "--n" as its value */
	assert_string_equal(out[3], "--once");
	assert_string_equal(out[4], "--n");
	assert_string_equal(out[5], "--");
	assert_string_equal(out[6], "--n");
	assert_string_equal(out[7], "4");
	assert_null(out[8]);
}

static void test_describe(void **state)
{
	char buf[8192];
	FILE *f = tmpfile();
	size_t n;

	(void)state;
	assert_non_null(f);
	opt_describe(f, &t_cmd);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "command t runs\n"));
	assert_non_null(strstr(buf, "option t --flag flag\n"));
	assert_non_null(strstr(buf, "option t --n value\n"));
	assert_non_null(strstr(buf, "option t --str file\noption t -s file\n"));
	assert_non_null(strstr(buf, "option t --choice words auto kvm tcg\n"));
	assert_non_null(strstr(buf, "option t --list list auto kvm tcg\n"));
	assert_non_null(strstr(buf, "option t --tag tag\n"));
	assert_null(strstr(buf, "--hidden"));
}

/* Every command's tables, as main checks them at start-up, and t's. */
static void test_tables_valid(void **state)
{
	char err[512] = "";

	(void)state;
	assert_int_equal(cli_commands_check(err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(opt_cmd_check(&t_cmd, err, sizeof(err)), 0);
	assert_true(cli_command_count >= 14);
	assert_non_null(cli_command_find("compare"));
	assert_null(cli_command_find("nosuch"));
}

/* opt_cmd_check() of a table t_cmd's rows rows[0..n) and forms syn. */
static int check_rows(const struct opt_row *rows, size_t n,
		      const char *const *syn, char *err, size_t len)
{
	struct opt_cmd c = t_cmd;

	c.rows = rows;
	c.nrows = n;
	c.synopsis = syn;
	err[0] = '\0';
	return opt_cmd_check(&c, err, len);
}

static void assert_refused(const struct opt_row *rows, size_t n,
			   const char *const *syn, const char *why)
{
	char err[512];

	assert_int_equal(check_rows(rows, n, syn, err, sizeof(err)), -1);
	if (!strstr(err, why))
		fail_msg("'%s' does not say '%s'", err, why);
}

static void test_table_rules(void **state)
{
	static const char *const opts[] = { "[options]", NULL };
	static const char *const bad_name[] = { "[--flag] [--nosuch]", NULL };
	static const char *const wide[] = { "[--flag] [options] "
		"................................................................",
		NULL };
	static const char *const only_flag[] = { "[--flag]", NULL };
	static struct opt_row many[OPT_MAX_ROWS + 1];
	static char names[OPT_MAX_ROWS + 1][16];
	struct opt_row two[2] = { t_rows[0], t_rows[0] };
	struct opt_row untyped[1] = { { .name = "--x", .kind = OPT_FLAG,
					.help = "x" } };
	struct opt_row r[1];
	char err[512];
	size_t i;

	(void)state;
	assert_int_equal(check_rows(t_rows, 1, opts, err, sizeof(err)), 0);
	assert_refused(two, 2, opts, "--flag: named twice");
	/* a short name that is another row's name */
	two[0] = t_rows[10];		/* --str, -s */
	two[1] = t_rows[0];
	two[1].name = "-s";
	assert_refused(two, 2, opts, "named twice");
	assert_refused(untyped, 1, opts, "typed row macro");
	/* a kind its destination does not fit: refused, and never written */
	r[0] = t_rows[1];		/* --n: an int */
	r[0].kind = OPT_NUM;
	assert_refused(r, 1, opts, "does not fit its kind");
	assert_false(opt_row_fits(&r[0]));
	r[0] = t_rows[1];
	r[0].hi = r[0].lo;
	assert_refused(r, 1, opts, "no range");
	r[0] = t_rows[0];
	r[0].arg = "X";
	assert_refused(r, 1, opts, "placeholder");
	r[0] = t_rows[0];
	r[0].name = "--help";
	assert_refused(r, 1, opts, "a name that is not");
	/* synopses: every name a row, every listed row named, 80 columns */
	assert_refused(t_rows, 1, bad_name, "names --nosuch");
	assert_refused(t_rows, 2, only_flag, "--n: a listed option the "
		       "synopsis does not name");
	assert_refused(t_rows, 1, wide, "columns");
	/* rows: as many as the given mask has bits, not one more */
	for (i = 0; i <= OPT_MAX_ROWS; i++) {
		many[i] = t_rows[0];
		snprintf(names[i], sizeof(names[i]), "--f%zu", i);
		many[i].name = names[i];
	}
	assert_int_equal(check_rows(many, OPT_MAX_ROWS, opts, err,
				    sizeof(err)), 0);
	assert_refused(many, OPT_MAX_ROWS + 1, opts, "at most 64");
}

/* A row whose destination does not fit its kind is never written. */
static void test_unfit_row_not_written(void **state)
{
	struct opt_row r[1] = { t_rows[1] };	/* --n: an int */
	struct opt_cmd c = t_cmd;
	struct opt_result res;
	struct t_opts o = { 0 };
	char *argv[] = { "t", "--n", "3", NULL };
	int saved = dup(2);
	FILE *tmp = tmpfile();

	(void)state;
	r[0].kind = OPT_NUM;
	c.rows = r;
	c.nrows = 1;
	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	assert_int_equal(opt_parse(&c, 3, argv, &o, &res), EXIT_FAIL);
	take_back(2, saved, tmp, err_text, sizeof(err_text));
	assert_non_null(strstr(err_text, "BUG"));
	assert_int_equal(o.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_equals_form),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_mistakes),
		cmocka_unit_test(test_repeated),
		cmocka_unit_test(test_positional),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_strip),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_tables_valid),
		cmocka_unit_test(test_table_rules),
		cmocka_unit_test(test_unfit_row_not_written),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
