/*
 * test_format.c - unit tests for src/report/format.c: values scaled to
 * their unit (times 1000-based, byte rates 1024-based, op rates
 * 1000-based, cycles bare), three significant digits, byte counts, the
 * points where rounding carries into the next scale, and word wrapping.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/format.h"

#define KIB 1024.0
#define MIB (KIB * 1024.0)
#define GIB (MIB * 1024.0)
#define TIB (GIB * 1024.0)

struct vcase {
	double v;
	const char *unit;
	const char *want;
};

static void check_values(const struct vcase *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char buf[64];

		memset(buf, 'x', sizeof(buf));
		fmt_value(c[i].v, c[i].unit, buf, sizeof(buf));
		if (strcmp(buf, c[i].want) != 0)
			fail_msg("fmt_value(%.17g, \"%s\") = \"%s\", want "
				 "\"%s\"", c[i].v, c[i].unit, buf, c[i].want);
	}
}

static void test_value_ns(void **state)
{
	static const struct vcase c[] = {
		{ 0, "ns", "0 ns" },
		{ 3.14159, "ns", "3.14 ns" },
		{ 42.3, "ns", "42.3 ns" },
		{ 107, "ns", "107 ns" },
		{ 999, "ns", "999 ns" },
		{ 1000, "ns", "1.00 us" },
		{ 1680, "ns", "1.68 us" },
		{ 25400, "ns", "25.4 us" },
		{ 612000, "ns", "612 us" },
		{ 1.88e6, "ns", "1.88 ms" },
		{ 2.5e9, "ns", "2.50 s" },
		{ 3600e9, "ns", "3600 s" },	/* no larger unit */
		{ -1680, "ns", "-1.68 us" },
	};

	(void)state;
	check_values(c, sizeof(c) / sizeof(c[0]));
}

static void test_value_bytes_per_sec(void **state)
{
	static const struct vcase c[] = {
		{ 0, "bytes/s", "0 B/s" },
		{ 500, "bytes/s", "500 B/s" },
		{ 1023, "bytes/s", "1023 B/s" },
		{ 1024, "bytes/s", "1.00 KiB/s" },
		{ 1536, "bytes/s", "1.50 KiB/s" },
		{ 658 * MIB, "bytes/s", "658 MiB/s" },
		{ 2.27 * GIB, "bytes/s", "2.27 GiB/s" },
		{ 12.5 * GIB, "bytes/s", "12.5 GiB/s" },
		{ 3 * TIB, "bytes/s", "3.00 TiB/s" },
		{ 2048 * TIB, "bytes/s", "2048 TiB/s" },
	};

	(void)state;
	check_values(c, sizeof(c) / sizeof(c[0]));
}

static void test_value_ops_per_sec(void **state)
{
	static const struct vcase c[] = {
		{ 1500, "ops/s", "1.50 K/s" },
		{ 999000, "ops/s", "999 K/s" },
		{ 1e6, "ops/s", "1.00 M/s" },
		{ 2.34e6, "ops/s", "2.34 M/s" },
		{ 5.6e9, "ops/s", "5.60 G/s" },
		{ 7e12, "ops/s", "7000 G/s" },
	};
	char buf[64];

	(void)state;
	check_values(c, sizeof(c) / sizeof(c[0]));
	/* Below a thousand: not scaled, still a rate. */
	fmt_value(950, "ops/s", buf, sizeof(buf));
	assert_true(strncmp(buf, "950 ", 4) == 0);
	assert_non_null(strstr(buf, "/s"));
}

static void test_value_bare(void **state)
{
	static const struct vcase c[] = {
		{ 0, "tsc-cycles", "0" },
		{ 3.14159, "tsc-cycles", "3.14" },
		{ 42.3, "tsc-cycles", "42.3" },
		{ 317, "tsc-cycles", "317" },
		{ 1234.4, "tsc-cycles", "1234" },
		{ 2.5e6, "tsc-cycles", "2500000" },
		{ 98765, "cycles", "98765" },
		{ 12, "count", "12.0" },
	};
	double div = 0;

	(void)state;
	check_values(c, sizeof(c) / sizeof(c[0]));
	assert_true(fmt_unit_is_bare("tsc-cycles"));
	assert_true(fmt_unit_is_bare("cycles"));
	assert_true(fmt_unit_is_bare("count"));
	assert_false(fmt_unit_is_bare("ns"));
	assert_false(fmt_unit_is_bare("bytes/s"));
	assert_string_equal(fmt_scale(2.5e9, "tsc-cycles", &div), "");
	assert_true(div == 1.0);
}

/* Units the formatter does not know print as given, unscaled. */
static void test_value_other_unit(void **state)
{
	static const struct vcase c[] = {
		{ 5, "widgets", "5.00 widgets" },
		{ 123456, "widgets", "123456 widgets" },
	};

	(void)state;
	check_values(c, sizeof(c) / sizeof(c[0]));
}

static void test_scale(void **state)
{
	double div = 0;

	(void)state;
	assert_string_equal(fmt_scale(107, "ns", &div), "ns");
	assert_true(div == 1.0);
	assert_string_equal(fmt_scale(1680, "ns", &div), "us");
	assert_true(div == 1e3);
	assert_string_equal(fmt_scale(1.88e6, "ns", &div), "ms");
	assert_true(div == 1e6);
	assert_string_equal(fmt_scale(2.5e9, "ns", &div), "s");
	assert_true(div == 1e9);
	assert_string_equal(fmt_scale(658 * MIB, "bytes/s", &div), "MiB/s");
	assert_true(div == MIB);
	assert_string_equal(fmt_scale(2.27 * GIB, "bytes/s", &div), "GiB/s");
	assert_true(div == GIB);
	assert_string_equal(fmt_scale(2.34e6, "ops/s", &div), "M/s");
	assert_true(div == 1e6);
	/* Negative values scale by their magnitude. */
	assert_string_equal(fmt_scale(-1680, "ns", &div), "us");
	assert_true(div == 1e3);
}

/*
 * A value that rounds up to the next scale is shown in that scale:
 * 999.7 ns prints as "1.00 us", not "1000 ns".
 */
static void test_scale_rollover(void **state)
{
	static const struct vcase c[] = {
		{ 999.7, "ns", "1.00 us" },
		{ 999.4, "ns", "999 ns" },
		{ 999999, "ns", "1.00 ms" },
		{ 1023.7 * MIB, "bytes/s", "1.00 GiB/s" },
		{ 1023.4 * MIB, "bytes/s", "1023 MiB/s" },
		{ 999999, "ops/s", "1.00 M/s" },
	};

	(void)state;
	check_values(c, sizeof(c) / sizeof(c[0]));
}

static void check_number(double v, const char *want)
{
	char buf[64];

	fmt_number(v, buf, sizeof(buf));
	if (strcmp(buf, want) != 0)
		fail_msg("fmt_number(%.17g) = \"%s\", want \"%s\"", v, buf,
			 want);
}

static void test_number(void **state)
{
	(void)state;
	check_number(0, "0");
	/* below 1 too: 0.0138 and 0.0149 cycles/byte must not both be
	   "0.01" */
	check_number(0.001234, "0.00123");
	check_number(0.0138, "0.0138");
	check_number(0.5, "0.500");
	check_number(0.000050, "0.000050");
	check_number(-0.0433, "-0.0433");
	check_number(1, "1.00");
	check_number(1.234, "1.23");
	check_number(9.87, "9.87");
	check_number(10, "10.0");
	check_number(12.34, "12.3");
	check_number(99.4, "99.4");
	check_number(100, "100");
	check_number(123.4, "123");
	check_number(12345.6, "12346");
	check_number(-1.234, "-1.23");
	check_number(-12.34, "-12.3");
	check_number(-123.4, "-123");
}

/* Three significant digits also where rounding carries a digit. */
static void test_number_carry(void **state)
{
	(void)state;
	check_number(9.996, "10.0");
	check_number(0.9996, "1.00");
	check_number(0.09996, "0.100");
	check_number(99.96, "100");
	check_number(-99.96, "-100");
}

/*
 * Any finite double prints as a number (#25 item 9): from 1e15 on with
 * an exponent, not 309 digits cut to the buffer, and never "nan" or
 * undefined behaviour (the sanitize build aborted on 1.7e308's CV).
 */
static void test_number_huge(void **state)
{
	char buf[64];

	(void)state;
	check_number(1.7e308, "1.7e+308");
	check_number(-1e300, "-1e+300");
	check_number(DBL_MAX, "1.8e+308");
	check_number(999999999999999.0, "999999999999999");
	fmt_value(1.6e308, "ns", buf, sizeof(buf));
	assert_string_equal(buf, "1.6e+299 s");
	fmt_change(5.35e307, buf, sizeof(buf));
	assert_string_equal(buf, "+5.35e+307%");
	fmt_change(-12.34, buf, sizeof(buf));
	assert_string_equal(buf, "-12.3%");
	fmt_ci(3.17e307, 5.76e307, buf, sizeof(buf));
	assert_string_equal(buf, "+3.17e+307..+5.76e+307");
	fmt_number(NAN, buf, sizeof(buf));
	assert_string_equal(buf, "nan");
	fmt_number(INFINITY, buf, sizeof(buf));
	assert_string_equal(buf, "inf");
}

static void test_number_truncates(void **state)
{
	char buf[4];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	fmt_number(123456, buf, sizeof(buf));
	assert_string_equal(buf, "123");
	memset(buf, 'x', sizeof(buf));
	fmt_value(1680, "ns", buf, sizeof(buf));
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
}

static void check_bytes(double v, const char *want)
{
	char buf[64];

	fmt_bytes(v, buf, sizeof(buf));
	if (strcmp(buf, want) != 0)
		fail_msg("fmt_bytes(%.17g) = \"%s\", want \"%s\"", v, buf,
			 want);
}

static void test_bytes(void **state)
{
	(void)state;
	check_bytes(0, "0 B");
	check_bytes(1, "1 B");
	check_bytes(512, "512 B");
	check_bytes(1023, "1023 B");
	check_bytes(KIB, "1 KiB");
	check_bytes(4 * KIB, "4 KiB");
	check_bytes(64 * KIB, "64 KiB");		/* as format.h says */
	check_bytes(1.5 * MIB, "1.5 MiB");		/* as format.h says */
	check_bytes(1.25 * MIB, "1.25 MiB");
	check_bytes(256 * MIB, "256 MiB");
	check_bytes(GIB, "1 GiB");
	check_bytes(3.33 * GIB, "3.33 GiB");
	check_bytes(2 * TIB, "2 TiB");
	check_bytes(4096 * TIB, "4096 TiB");
	check_bytes(1023.9 * KIB, "1 MiB");		/* rounds up a scale */
}

static void test_wrap(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	char *line, *save = NULL;
	int lines = 0;

	(void)state;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	fmt_wrap(f, 2, 6,
		 "alpha beta gamma delta epsilon zeta eta theta iota kappa "
		 "lambda mu nu xi omicron pi rho sigma tau upsilon phi chi "
		 "psi omega alpha beta gamma delta epsilon zeta eta theta");
	assert_int_equal(fclose(f), 0);
	assert_non_null(text);
	assert_true(len > 0);
	assert_int_equal(text[len - 1], '\n');
	assert_true(strncmp(text, "  alpha beta", 12) == 0);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		assert_true(strlen(line) <= 80);
		assert_true(line[strlen(line) - 1] != ' ');
		if (lines++ > 0) {
			assert_true(strncmp(line, "      ", 6) == 0);
			assert_true(line[6] != ' ');
		}
	}
	assert_true(lines >= 2);
	free(text);

	/* Empty text prints nothing. */
	text = NULL;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	fmt_wrap(f, 4, 4, "");
	assert_int_equal(fclose(f), 0);
	assert_int_equal(len, 0);
	free(text);
}

/* FMT_NBSP joins "#3 142 ns" into one item that is never broken. */
static void test_wrap_nbsp(void **state)
{
	char *text = NULL, *line, *save = NULL;
	char in[512];
	size_t len = 0, used = 0;
	int i;
	FILE *f;

	(void)state;
	used += (size_t)snprintf(in, sizeof(in), "cold calls in a fresh "
				 "process, cold time/call:");
	for (i = 1; i <= 8; i++)
		used += (size_t)snprintf(in + used, sizeof(in) - used,
					 " #%d%c%d%cns", i, FMT_NBSP, 271,
					 FMT_NBSP);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	fmt_wrap(f, 4, 6, in);
	assert_int_equal(fclose(f), 0);
	assert_null(strchr(text, FMT_NBSP));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		assert_true(n <= 80);
		/* every line ends with a whole item: "... #k 271 ns" */
		assert_true(n >= 3 && strcmp(line + n - 3, " ns") == 0);
	}
	free(text);
}

/* The text with every newline and run of spaces removed. */
static void squeeze(const char *in, char *out)
{
	for (; *in; in++)
		if (*in != ' ' && *in != '\n')
			*out++ = *in;
	*out = '\0';
}

/*
 * A word wider than a line (a replayed mix) is broken after a '+', every
 * line within 80 columns, and nothing of it lost; a heading item of the
 * same width likewise; a word without separators (a path) stays whole.
 */
static void test_wrap_long_word(void **state)
{
	char mix[600], in[700], got[1400], want[700], *text = NULL;
	char *line, *save = NULL;
	size_t len = 0, used = 0;
	struct fmt_items items;
	int i;
	FILE *f;

	(void)state;
	for (i = 0; i < 16; i++)
		used += (size_t)snprintf(mix + used, sizeof(mix) - used,
					 "%s%d-%d:%d", i ? "+" : "", 1 << i,
					 (2 << i) - 1, 123456789 + i);
	snprintf(in, sizeof(in), "mix %s: 98%% <128B", mix);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	fmt_wrap(f, 4, 6, in);
	fmt_items_begin(&items, f, "pipe.mix");
	fmt_items_add(&items, "writers=4");
	fmt_items_addf(&items, "mix=%s", mix);
	fmt_items_add(&items, "seed=1");
	fmt_items_end(&items);
	fmt_wrap(f, 0, 2, "/a/very/long/path/without/any/separator/in/it/that/"
		 "is/wider/than/a/line/of/eighty/columns/x");
	assert_int_equal(fclose(f), 0);
	squeeze(text, got);
	snprintf(want, sizeof(want), "mix%s:98%%<128Bpipe.mixwriters=4mix=%s"
		 "seed=1", mix, mix);
	assert_non_null(strstr(got, want));
	assert_non_null(strstr(text, "\n/a/very/long/path/without/any/"
			       "separator/in/it/that/is/wider/than/a/line/of/"
			       "eighty/columns/x\n"));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		assert_true(strlen(line) <= 80 || !strchr(line, '+'));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_ns),
		cmocka_unit_test(test_value_bytes_per_sec),
		cmocka_unit_test(test_value_ops_per_sec),
		cmocka_unit_test(test_value_bare),
		cmocka_unit_test(test_value_other_unit),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_wrap_nbsp),
		cmocka_unit_test(test_scale_rollover),
		cmocka_unit_test(test_number),
		cmocka_unit_test(test_number_carry),
		cmocka_unit_test(test_number_huge),
		cmocka_unit_test(test_number_truncates),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_wrap_long_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
