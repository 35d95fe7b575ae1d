/*
 * test_mail.c - unit tests for the mail layout (src/report/mail_table.c,
 * mail_common.c): a percentage metric gets a point difference, the marks
 * and their key, a name too long for the line goes above its numbers,
 * every line within 72 columns, markdown cells escaped, the kernel
 * command line's difference and the machine line.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/mail_print.h"

/* d printed in format f, as a string (owned by the caller). */
static char *printed(const struct mail_doc *d, enum mail_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	mail_print(out, d, f);
	assert_int_equal(fclose(out), 0);
	return buf;
}

/* Columns of the UTF-8 text s up to n bytes: bytes that start a rune. */
static size_t columns(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

static void assert_within_72(const char *text)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (columns(p, n) > MAIL_COLS)
			fail_msg("line of %zu columns: %.*s", columns(p, n),
				 (int)n, p);
		if (n && p[n - 1] == ' ')
			fail_msg("trailing blank: %.*s", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

static struct mail_doc *doc(void)
{
	struct mail_doc *d = calloc(1, sizeof(*d));
	struct mail_row *r;

	assert_non_null(d);
	snprintf(d->title, sizeof(d->title), "copyscope compare: b against a");
	snprintf(d->head_label[0], sizeof(d->head_label[0]), "base");
	snprintf(d->head[0], sizeof(d->head[0]), "tag a (run 1)");
	snprintf(d->head_label[1], sizeof(d->head_label[1]), "new");
	snprintf(d->head[1], sizeof(d->head[1]), "tag b (run 2)");
	d->nhead = 2;
	snprintf(d->machine[0], sizeof(d->machine[0]), "some CPU, 2 CPUs");
	d->nmachine = 1;
	snprintf(d->params, sizeof(d->params), "sys.null call=gettid");
	snprintf(d->col_base, sizeof(d->col_base), "a");
	snprintf(d->col_new, sizeof(d->col_new), "b");
	d->two_sided = true;
	d->alpha = 0.05;
	d->noise_pct = 1;
	r = mail_add_row(d);
	assert_non_null(r);
	snprintf(r->name, sizeof(r->name), "time/call");
	r->unit = "ns";
	r->base = 1000;
	r->base_cv = 0.02;
	r->new = 1100;
	r->new_cv = 0.01;
	r->change = 10;
	r->ci_lo = 8;
	r->ci_hi = 12;
	r->mark = '*';
	r = mail_add_row(d);
	assert_non_null(r);
	snprintf(r->name, sizeof(r->name), "sys%%");
	r->unit = "%";
	r->base = 12.5;
	r->new = 13.0;
	r->change = 0.5;
	r = mail_add_row(d);
	assert_non_null(r);
	snprintf(r->name, sizeof(r->name), "a|very long parameter=value "
		 "another=value metric name");
	r->unit = "count";
	r->base = 36;
	r->new = 40;
	r->change = 11.1;
	r->mark = '?';
	return d;
}

static void test_text(void **state)
{
	struct mail_doc *d = doc();
	char *t = printed(d, MAIL_TEXT);

	(void)state;
	if (getenv("TEST_MAIL_SHOW"))
		fputs(t, stdout);
	assert_within_72(t);
	assert_non_null(strstr(t, "copyscope compare: b against a\n\n"));
	assert_non_null(strstr(t, "\nbase: tag a (run 1)\nnew:  tag b (run "
			       "2)\n"));
	assert_non_null(strstr(t, "\nmachine: some CPU, 2 CPUs\n"));
	assert_non_null(strstr(t, "\nparameters: sys.null call=gettid\n"));
	/* the time row: base, %stddev, %change and its mark, new */
	assert_non_null(strstr(t, "    1.00 ±  2%    +10.0% *    1.10 ±  1%"
			       "  time/call (us)\n"));
	/* a percentage: the difference in points, no % sign */
	assert_non_null(strstr(t, "    12.5            +0.5      13.0"
			       "        sys% (%)\n"));
	/* too long: the name above, the numbers under it; counts whole */
	assert_non_null(strstr(t, "\n  a|very long parameter=value "
			       "another=value metric name\n      36"
			       "          +11.1% ?      40\n"));
	assert_non_null(strstr(t, "\n* p < 0.05 and the 95% CI of the "
			       "change beyond ±1%\n"));
	assert_non_null(strstr(t, "\n? cannot tell"));
	assert_null(strstr(t, "\ne "));
	free(t);
	mail_doc_free(d);
	free(d);
}

static void test_markdown(void **state)
{
	struct mail_doc *d = doc();
	char *t = printed(d, MAIL_MARKDOWN);

	(void)state;
	if (getenv("TEST_MAIL_SHOW"))
		fputs(t, stdout);
	assert_non_null(strstr(t, "**copyscope compare: b against a**\n"));
	assert_non_null(strstr(t, "| base | tag a (run 1) |\n"));
	assert_non_null(strstr(t, "| metric | a | %stddev | %change | 95% CI "
			       "| b | %stddev |\n|:---|---:|---:|---:|---:|"
			       "---:|---:|\n"));
	assert_non_null(strstr(t, "| time/call (us) | 1.00 | ±2% | +10.0% * "
			       "| +8..+12 | 1.10 | ±1% |\n"));
	assert_non_null(strstr(t, "| sys% (%) | 12.5 | - | +0.5 | - | 13.0 "
			       "| - |\n"));
	/* a '|' in a cell is escaped */
	assert_non_null(strstr(t, "| a\\|very long"));
	assert_non_null(strstr(t, "\n- `*` p < 0.05"));
	free(t);
	mail_doc_free(d);
	free(d);
}

static void test_cmdline_diff(void **state)
{
	char buf[256];

	(void)state;
	mail_cmdline_diff("console=ttyS0 quiet", "console=ttyS0 "
			  "mitigations=off", buf, sizeof(buf));
	assert_string_equal(buf, "-quiet +mitigations=off");
	mail_cmdline_diff("a b", "a b", buf, sizeof(buf));
	assert_string_equal(buf, "");
}

static void test_machine(void **state)
{
	struct env e = { 0 };
	char buf[640];

	(void)state;
	assert_int_equal(env_set(&e, "cpu.model", "Some CPU @ 2GHz"), 0);
	assert_int_equal(env_set(&e, "cpu.count", "16"), 0);
	assert_int_equal(env_set(&e, "cpu.smt", "1"), 0);
	assert_int_equal(env_set(&e, "mem.total", "68719476736"), 0);
	assert_int_equal(env_set(&e, "virt.hypervisor",
				 "yes (hypervisor type: xen)"), 0);
	assert_int_equal(env_set(&e, "cpufreq.governor", "performance"), 0);
	assert_int_equal(env_set(&e, "cpufreq.boost", "0"), 0);
	assert_int_equal(env_set(&e, "cpu.vuln.meltdown",
				 "Mitigation: PTI"), 0);
	assert_int_equal(env_set(&e, "cpu.vuln.mds", "Vulnerable"), 0);
	assert_int_equal(env_set(&e, "cpu.vuln.l1tf", "Not affected"), 0);
	assert_int_equal(env_set(&e, "kernel.cmdline", "ro mitigations=off"),
			 0);
	mail_machine_text(&e, buf, sizeof(buf));
	assert_string_equal(buf, "Some CPU @ 2GHz, 16 CPUs, SMT on, 64 GiB "
			    "RAM, VM (xen), governor performance, boost off, "
			    "mitigations: 1 mitigated, 1 vulnerable "
			    "(mitigations=off)");
	env_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_cmdline_diff),
		cmocka_unit_test(test_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
