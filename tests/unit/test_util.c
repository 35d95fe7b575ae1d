/*
 * test_util.c - the helpers of src/util/: the double comparator, random
 * ids, reading a whole file, finding a program on $PATH (regular files
 * only), stopping a child and its group, ARRAY_SIZE; and the job blocks
 * of a result list (results/job_block.h), which the report renderers
 * share.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "results/job_block.h"
#include "results/result.h"
#include "util/array.h"
#include "util/file.h"
#include "util/msg.h"
#include "util/process.h"
#include "util/random_id.h"
#include "util/sort.h"

static void test_cmp_double(void **state)
{
	double v[] = { 3.5, -1.0, 2.0, -1.0, 1e300, 0.0 };
	double one = 1.0, two = 2.0;
	size_t i;

	(void)state;
	assert_int_equal(util_cmp_double(&one, &two), -1);
	assert_int_equal(util_cmp_double(&two, &one), 1);
	assert_int_equal(util_cmp_double(&one, &one), 0);
	qsort(v, ARRAY_SIZE(v), sizeof(v[0]), util_cmp_double);
	for (i = 1; i < ARRAY_SIZE(v); i++)
		assert_true(v[i - 1] <= v[i]);
	assert_true(v[0] == -1.0 && v[5] == 1e300);
}

static void test_array_size(void **state)
{
	static const char *const names[] = { "a", "b", "c" };
	struct {
		int x[7];
	} s;

	(void)state;
	(void)s;
	assert_int_equal(ARRAY_SIZE(names), 3);
	assert_int_equal(ARRAY_SIZE(s.x), 7);
	_Static_assert(ARRAY_SIZE(names) == 3, "a constant expression");
}

static void test_random_id(void **state)
{
	char a[UTIL_RANDOM_ID_LEN], b[UTIL_RANDOM_ID_LEN], small[32];
	size_t i;

	(void)state;
	assert_int_equal(util_random_id(a, sizeof(a)), 0);
	assert_int_equal(util_random_id(b, sizeof(b)), 0);
	assert_int_equal(strlen(a), 32);
	for (i = 0; i < 32; i++)
		assert_non_null(strchr("0123456789abcdef", a[i]));
	assert_string_not_equal(a, b);
	errno = 0;
	assert_int_equal(util_random_id(small, sizeof(small)), -1);
	assert_int_equal(errno, EINVAL);
}

/* A new temporary directory's path into dir (PATH_MAX-sized). */
static void make_dir(char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/copyscope-test-util-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static void test_slurp(void **state)
{
	char dir[64], path[128], *s;
	size_t len = 99, i;
	FILE *f;

	(void)state;
	make_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/big", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	/* past the first buffer, with a NUL inside */
	for (i = 0; i < 10000; i++)
		fputc(i == 5000 ? 0 : 'a' + (int)(i % 26), f);
	fclose(f);
	s = util_slurp(path, &len, false);
	assert_non_null(s);
	assert_int_equal(len, 10000);
	assert_int_equal(s[5000], 0);
	assert_int_equal(s[9999], 'a' + 9999 % 26);
	assert_int_equal(s[10000], 0);
	free(s);
	unlink(path);

	errno = 0;
	assert_null(util_slurp(path, &len, false));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(len, 0);
	s = util_slurp(path, &len, true);
	assert_non_null(s);
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	free(s);
	rmdir(dir);
}

static void test_find_program(void **state)
{
	char dir[64], sub[128], prog[128], out[256], path[300];
	const char *path_env = getenv("PATH");
	char *old = path_env ? strdup(path_env) : NULL;
	FILE *f;

	(void)state;
	make_dir(dir, sizeof(dir));
	/* a directory named like the program, first on $PATH: not taken */
	snprintf(sub, sizeof(sub), "%s/first", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(prog, sizeof(prog), "%s/first/cs-prog", dir);
	assert_int_equal(mkdir(prog, 0755), 0);
	snprintf(prog, sizeof(prog), "%s/cs-prog", dir);
	f = fopen(prog, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s:%s", sub, dir);
	setenv("PATH", path, 1);
	/* not executable yet */
	assert_int_equal(util_find_program("cs-prog", out, sizeof(out)), -1);
	assert_int_equal(chmod(prog, 0755), 0);
	assert_int_equal(util_find_program("cs-prog", out, sizeof(out)), 0);
	assert_string_equal(out, prog);
	/* a path is taken as it is; too small a buffer finds nothing */
	assert_int_equal(util_find_program(prog, out, sizeof(out)), 0);
	assert_string_equal(out, prog);
	assert_int_equal(util_find_program("cs-prog", out, 8), -1);
	assert_int_equal(util_find_program("cs-prog", NULL, 0), 0);
	assert_int_equal(util_find_program("cs-none", out, sizeof(out)), -1);
	if (old)
		setenv("PATH", old, 1);
	else
		unsetenv("PATH");
	free(old);
	unlink(prog);
	snprintf(prog, sizeof(prog), "%s/first/cs-prog", dir);
	rmdir(prog);
	rmdir(sub);
	rmdir(dir);
}

/* A child in its own group that ignores SIGTERM if stubborn. */
static pid_t spawn(int stubborn)
{
	pid_t p = fork();

	assert_true(p >= 0);
	if (p == 0) {
		setpgid(0, 0);
		if (stubborn)
			signal(SIGTERM, SIG_IGN);
		for (;;)
			pause();
	}
	setpgid(p, p);
	return p;
}

static void test_stop_child(void **state)
{
	pid_t p;

	(void)state;
	p = spawn(0);
	assert_int_equal(util_stop_child(p, 2000000000LL), 0);
	/* reaped: nothing left to wait for */
	assert_int_equal(waitpid(p, NULL, WNOHANG), -1);
	p = spawn(1);
	usleep(50000);
	assert_int_equal(util_stop_child(p, 50000000LL), 1);
	assert_int_equal(waitpid(p, NULL, WNOHANG), -1);
}

/* Text from outside is escaped for a terminal (#25 item 11). */
static void test_msg_escape(void **state)
{
	static const char in[] = "a\033]0;T\007\n\xff\xc2\x9b\xc3\xa9\x7f"
				 "\xed\xa0\x80\xe0\x80\x80z";
	char out[128], small[6];

	(void)state;
	msg_escape(in, sizeof(in) - 1, true, out, sizeof(out));
	assert_string_equal(out, "a\\x1b]0;T\\x07\n\\xff\\xc2\\x9b\xc3\xa9"
			    "\\x7f\\xed\\xa0\\x80\\xe0\\x80\\x80z");
	msg_escape(in, sizeof(in) - 1, false, out, sizeof(out));
	assert_non_null(strstr(out, "\\x07\\x0a\\xff"));
	assert_string_equal(msg_quote("x\ny"), "x\\x0ay");
	assert_string_equal(msg_quote(NULL), "");
	/* cut short, never inside an escape */
	assert_int_equal(msg_escape("ab\033c", 4, false, small,
				    sizeof(small)), 2);
	assert_string_equal(small, "ab");
}

static void test_job_block_end(void **state)
{
	struct result_config cfg[4];
	struct result res[5];
	char bw[] = "pipe.bw", lat[] = "pipe.lat";
	size_t i;

	(void)state;
	memset(cfg, 0, sizeof(cfg));
	memset(res, 0, sizeof(res));
	cfg[0].workload = bw;
	cfg[1] = cfg[0];
	cfg[2] = cfg[0];
	cfg[2].job = 1;
	cfg[3] = cfg[2];
	cfg[3].workload = lat;
	/* results 0-1 job 0 of pipe.bw, 2 job 1, 3-4 pipe.lat */
	for (i = 0; i < 5; i++)
		res[i].cfg = &cfg[i < 2 ? 0 : i == 2 ? 2 : 3];
	res[1].cfg = &cfg[1];
	assert_int_equal(result_block_end(res, 5, 0), 2);
	assert_int_equal(result_block_end(res, 5, 1), 2);
	assert_int_equal(result_block_end(res, 5, 2), 3);
	assert_int_equal(result_block_end(res, 5, 3), 5);
	assert_int_equal(result_block_end(res, 4, 3), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmp_double),
		cmocka_unit_test(test_array_size),
		cmocka_unit_test(test_random_id),
		cmocka_unit_test(test_slurp),
		cmocka_unit_test(test_find_program),
		cmocka_unit_test(test_stop_child),
		cmocka_unit_test(test_job_block_end),
		cmocka_unit_test(test_msg_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
