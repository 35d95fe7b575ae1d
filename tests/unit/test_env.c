/*
 * test_env.c - unit tests for the environment capture (src/env/env_capture.c):
 * the ordered key/value list, env_read_line, what env_capture records
 * and the layout env_print produces; the noise settings of
 * src/env/env_tuning.c (CPU lists, the IRQ summary, the noise line).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "env/env.h"

static void test_set_get_replace(void **state)
{
	struct env env = { 0 };
	char key[32];
	int i;

	(void)state;
	assert_null(env_get(&env, "a"));
	assert_int_equal(env_set(&env, "a", "1"), 0);
	assert_int_equal(env_set(&env, "b", "2"), 0);
	assert_string_equal(env_get(&env, "a"), "1");
	assert_string_equal(env_get(&env, "b"), "2");
	assert_int_equal(env.n, 2);

	/* replace keeps the position and the count */
	assert_int_equal(env_set(&env, "a", "one"), 0);
	assert_int_equal(env.n, 2);
	assert_string_equal(env.items[0].key, "a");
	assert_string_equal(env.items[0].value, "one");
	assert_null(env_get(&env, "c"));

	/* growth past the initial capacity keeps order */
	for (i = 0; i < 200; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		assert_int_equal(env_set(&env, key, key), 0);
	}
	assert_int_equal(env.n, 202);
	assert_string_equal(env.items[2].key, "k0");
	assert_string_equal(env.items[201].key, "k199");
	assert_string_equal(env_get(&env, "k150"), "k150");

	env_free(&env);
	assert_int_equal(env.n, 0);
	assert_null(env.items);
}

/*
 * 200,000 keys (an imported run may bring 10,000; the linear search this
 * replaced took over 120 s for these): set, replaced and found, in well
 * under the 10 s allowed here.
 */
static void test_many_keys(void **state)
{
	struct env env = { 0 };
	struct timespec t0, t1;
	char key[32], val[32];
	int i;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 200000; i++) {
		snprintf(key, sizeof(key), "key.%d", i);
		assert_int_equal(env_set(&env, key, key), 0);
	}
	for (i = 0; i < 200000; i += 7) {
		snprintf(key, sizeof(key), "key.%d", i);
		snprintf(val, sizeof(val), "v%d", i);
		assert_int_equal(env_set(&env, key, val), 0);
	}
	assert_int_equal(env.n, 200000);
	for (i = 0; i < 200000; i++) {
		snprintf(key, sizeof(key), "key.%d", i);
		snprintf(val, sizeof(val), i % 7 ? "key.%d" : "v%d", i);
		assert_string_equal(env_get(&env, key), val);
		assert_string_equal(env.items[i].key, key);
	}
	assert_null(env_get(&env, "key.200000"));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true(t1.tv_sec - t0.tv_sec < 10);
	env_free(&env);
	assert_null(env_get(&env, "key.1"));
}

static void test_read_line(void **state)
{
	char dir[] = "/tmp/test_env.XXXXXX";
	char path[64], buf[16];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs("first line\nsecond\n", f) >= 0);
	assert_int_equal(fclose(f), 0);

	assert_int_equal(env_read_line(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "first line");
	/* truncated to the buffer, still terminated */
	assert_int_equal(env_read_line(path, buf, 6), 0);
	assert_string_equal(buf, "first");

	errno = 0;
	assert_int_equal(env_read_line("/nonexistent/file", buf,
				       sizeof(buf)), -1);
	assert_int_equal(errno, ENOENT);

	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

static const char *const fixed_keys[] = {
	"kernel.release", "kernel.version", "kernel.cmdline", "cpu.model",
	"cpu.microcode", "cpu.flags", "cpu.online", "cpu.count", "cpu.smt",
	"numa.nodes", "cpufreq.governor", "cpufreq.boost",
	"clocksource.current", "cpu.isolcpus", "cpu.nohz_full",
	"cpuidle.driver", "cpuidle.states", "cpuidle.deepest",
	"irq.on_run_cpus", "irq.balance", "kernel.randomize_va_space",
	"kernel.perf_event_paranoid", "kernel.numa_balancing",
	"thp.enabled", "thp.defrag", "fs.pipe_max_size",
	"fs.pipe_user_pages_soft", "virt.hypervisor", "boot_id", "hostname",
	"copyscope.version", "copyscope.build_flavour", "copyscope.cflags",
	"compiler", "libc",
};

/* Index of key in env, or -1. */
static long key_index(const struct env *env, const char *key)
{
	size_t i;

	for (i = 0; i < env->n; i++)
		if (strcmp(env->items[i].key, key) == 0)
			return (long)i;
	return -1;
}

static void test_capture(void **state)
{
	struct env env = { 0 };
	struct utsname un;
	const char *v;
	long idx, prev = -1;
	size_t i, nvuln = 0;

	(void)state;
	assert_int_equal(uname(&un), 0);
	assert_int_equal(env_capture(&env), 0);

	assert_string_equal(env_get(&env, "kernel.release"), un.release);
	assert_string_equal(env_get(&env, "hostname"), un.nodename);
	v = env_get(&env, "boot_id");
	assert_non_null(v);
	assert_int_equal(strlen(v), 36);
	assert_int_equal(v[8], '-');

	/* every fixed key present, non-empty, in the fixed order */
	for (i = 0; i < sizeof(fixed_keys) / sizeof(fixed_keys[0]); i++) {
		idx = key_index(&env, fixed_keys[i]);
		if (idx < 0)
			fail_msg("key %s missing", fixed_keys[i]);
		assert_true(idx > prev);
		prev = idx;
		assert_true(env.items[idx].value[0] != '\0');
	}
	v = env_get(&env, "virt.hypervisor");
	assert_true(strncmp(v, "yes", 3) == 0 || strncmp(v, "no", 2) == 0 ||
		    strncmp(v, "unavailable", 11) == 0);

	/* vulnerabilities: one key each, or one "unavailable" marker */
	for (i = 0; i < env.n; i++)
		if (strncmp(env.items[i].key, "cpu.vuln.", 9) == 0)
			nvuln++;
	if (access("/sys/devices/system/cpu/vulnerabilities/meltdown",
		   R_OK) == 0) {
		assert_true(nvuln > 0);
		assert_non_null(env_get(&env, "cpu.vuln.meltdown"));
	} else if (nvuln == 0) {
		assert_string_equal(env_get(&env, "cpu.vuln"), "unavailable");
	}

	/* no duplicate keys */
	for (i = 0; i < env.n; i++)
		assert_int_equal(key_index(&env, env.items[i].key), (long)i);
	env_free(&env);
}

static void test_cpu_list(void **state)
{
	cpu_set_t set;

	(void)state;
	assert_int_equal(env_parse_cpu_list("0-3,6", &set), 0);
	assert_int_equal(CPU_COUNT(&set), 5);
	assert_true(CPU_ISSET(6, &set) && !CPU_ISSET(4, &set));
	assert_int_equal(env_parse_cpu_list("5", &set), 0);
	assert_int_equal(CPU_COUNT(&set), 1);
	assert_int_equal(env_parse_cpu_list("", &set), 0);
	assert_int_equal(CPU_COUNT(&set), 0);
	assert_int_equal(env_parse_cpu_list("3-1", &set), -1);
	assert_int_equal(env_parse_cpu_list("1-", &set), -1);
	assert_int_equal(env_parse_cpu_list("a", &set), -1);
	assert_int_equal(env_parse_cpu_list("1;2", &set), -1);
}

/* The IRQ summary over CPUs: no CPU takes none, all CPUs take all. */
static void test_irq_summary(void **state)
{
	static const int none[] = { CPU_SETSIZE - 1 };
	int all[CPU_SETSIZE], i, landing, total, landing0, total0;
	struct env env = { 0 };
	const char *v;

	(void)state;
	if (access("/proc/irq", R_OK) != 0)
		skip();
	for (i = 0; i < CPU_SETSIZE; i++)
		all[i] = i;
	assert_int_equal(env_add_irq(&env, none, 1), 0);
	v = env_get(&env, "irq.on_run_cpus");
	if (strcmp(v, "unavailable") == 0) {
		env_free(&env);
		skip();
	}
	/* NOLINTNEXTLINE(cert-err34-c): a test's parse of known text */
	assert_int_equal(sscanf(v, "%d of %d", &landing0, &total0), 2);
	assert_int_equal(landing0, 0);
	assert_non_null(strstr(v, "on CPUs 1023"));
	assert_int_equal(env_add_irq(&env, all, CPU_SETSIZE), 0);
	v = env_get(&env, "irq.on_run_cpus");
	/* NOLINTNEXTLINE(cert-err34-c): a test's parse of known text */
	assert_int_equal(sscanf(v, "%d of %d", &landing, &total), 2);
	assert_int_equal(landing, total);
	assert_int_equal(total, total0);
	assert_non_null(strstr(v, "on CPUs 0-1023"));
	env_free(&env);
}

/* Only the sources present are named, in a fixed order. */
static void test_noise_sources(void **state)
{
	struct env env = { 0 };
	char buf[512];

	(void)state;
	assert_int_equal(env_noise_sources(&env, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	env_set(&env, "cpufreq.governor", "performance");
	env_set(&env, "cpufreq.boost", "0");
	env_set(&env, "cpu.smt", "0");
	env_set(&env, "cpuidle.deepest", "C1 (exit latency 2 us)");
	env_set(&env, "irq.on_run_cpus", "0 of 19 IRQs may land on CPUs 1");
	env_set(&env, "irq.balance", "not running");
	env_set(&env, "kernel.randomize_va_space", "0");
	env_set(&env, "kernel.numa_balancing", "absent");
	env_set(&env, "thp.defrag", "madvise");
	env_set(&env, "virt.hypervisor", "no");
	assert_int_equal(env_noise_sources(&env, buf, sizeof(buf)), 0);
	env_set(&env, "cpufreq.governor", "powersave");
	env_set(&env, "cpufreq.boost", "1");
	env_set(&env, "cpu.smt", "1");
	env_set(&env, "cpuidle.deepest", "C6 (exit latency 170 us)");
	env_set(&env, "irq.on_run_cpus", "3 of 19 IRQs may land on CPUs 2-3");
	env_set(&env, "irq.balance", "running");
	env_set(&env, "kernel.randomize_va_space", "2");
	env_set(&env, "kernel.numa_balancing", "1");
	env_set(&env, "thp.defrag", "always");
	env_set(&env, "virt.hypervisor", "yes (dmi product: KVM)");
	assert_true(env_noise_sources(&env, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "governor powersave, boost on, SMT on, idle "
			    "state C6 (170 us exit), 3 IRQs on CPUs 2-3, "
			    "irqbalance running, ASLR on, NUMA balancing on, "
			    "THP defrag always, a hypervisor (steal time)");
	env_set(&env, "cpufreq.governor", "absent");
	env_set(&env, "cpufreq.boost", "absent");
	assert_true(env_noise_sources(&env, buf, sizeof(buf)) > 0);
	assert_true(strncmp(buf, "SMT on, ", 8) == 0);
	env_free(&env);
}

static void test_print(void **state)
{
	struct env env = { 0 };
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	char longval[400];
	int nlines = 0;
	FILE *out;

	(void)state;
	memset(longval, 'x', sizeof(longval) - 1);
	longval[sizeof(longval) - 1] = '\0';
	for (int i = 0; i < 30; i++)	/* words of "xxxxxxxxxx " */
		longval[i * 11 + 10] = ' ';

	assert_int_equal(env_capture(&env), 0);
	assert_int_equal(env_set(&env, "test.long", longval), 0);
	assert_int_equal(env_set(&env, "test.empty", ""), 0);
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	env_print(&env, out);
	assert_int_equal(fclose(out), 0);

	assert_non_null(strstr(buf, "kernel.release"));
	assert_non_null(strstr(buf, env_get(&env, "boot_id")));
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		/* over 80 only for one word longer than the line, which
		   is never cut */
		if (strlen(line) > 80 &&
		    strchr(line + strspn(line, " "), ' '))
			fail_msg("line over 80 columns: %s", line);
		nlines++;
	}
	/* the long value was wrapped onto several lines */
	assert_true(nlines > (int)env.n);
	free(buf);
	env_free(&env);
}

/*
 * A value is wrapped at a space or after a comma, never inside a word:
 * "no_guest_guest" of a kernel command line stays whole.
 */
static void test_print_no_mid_word(void **state)
{
	struct env env = { 0 };
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	assert_int_equal(env_set(&env, "kernel.cmdline", "mitigations=auto,"
				 "no_guest_host,no_guest_guest console=ttyS0 "
				 "quiet reboot=k panic=1 nomodule "
				 "random.trust_cpu=1 swiotlb=noforce psi=1"),
			 0);
	assert_int_equal(env_set(&env, "a.key.as.long.as.the.others.here.xx",
				 "x"), 0);
	assert_int_equal(env_set(&env, "test.word", "a_single_word_longer_"
				 "than_the_space_after_the_key_column_is_"
				 "printed_whole"), 0);
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	env_print(&env, out);
	assert_int_equal(fclose(out), 0);
	assert_non_null(strstr(buf, "no_guest_guest"));
	assert_non_null(strstr(buf, "mitigations=auto,no_guest_host,\n"));
	assert_non_null(strstr(buf, "a_single_word_longer_than_the_space_"
			       "after_the_key_column_is_printed_whole\n"));
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strlen(line) > 80 && !strstr(line, "printed_whole"))
			fail_msg("line over 80 columns: %s", line);
	free(buf);
	env_free(&env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_get_replace),
		cmocka_unit_test(test_many_keys),
		cmocka_unit_test(test_read_line),
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_irq_summary),
		cmocka_unit_test(test_noise_sources),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_print_no_mid_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
