/*
 * test_boot_ab.c - unit tests for the boot A/B loop (src/session/
 * boot_ab*.c) on its failure paths: a boot judged from made console and
 * report text (a hung guest, a kernel panic, a guest that never reports,
 * a guest whose copyscope stored nothing, a report cut short, a good
 * one), a failed import (not an export, a run already stored), a failed
 * boot recorded as a run with status failed and read back, and whole
 * boots made with a fake qemu (a shell script that hangs, panics, stays
 * silent or sends a run; a qemu that is not there), with the stored runs
 * and the printed block checked.
 */
#include <ftw.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "results/exchange.h"
#include "session/boot_ab.h"
#include "store/store.h"

/* The console of a guest that ran /init and then nothing more. */
static const char console_hang[] =
	"[    0.5] Linux version 6.1.0\n"
	"[    1.0] Run /init as init process\n";
static const char console_panic[] =
	"[    1.0] Run /init as init process\n"
	"[    1.5] Kernel panic - not syncing: Attempted to kill init! "
	"exitcode=0x00000100\n"
	"[    1.6] ---[ end Kernel panic ]---\n";
static const char console_norun[] =
	"[    1.0] Run /init as init process\n"
	"copyscope run: /var/tmp: No space left on device\n"
	"[    2.0] reboot: Restarting system\n";
static const char data_norun[] =
	"copyscope-boot-begin 1\n"
	"release: 6.1.0-fake\n"
	"cmdline: console=ttyS0 panic=-1 nosmap\n"
	"boot_id: 11111111-2222-3333-4444-555555555555\n"
	"run-rc: 1\n"
	"copyscope-export-begin\n"
	"copyscope-export-end 1\n"
	"copyscope-boot-end\n";

struct fx {
	char dir[64];
	char db[128];
	struct store *st;
	struct boot_ab_spec spec;
	struct boot_ab_result res;
	char *outbuf;
	size_t outlen;
};

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char err[512];

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_boot_ab.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->db, sizeof(f->db), "%s/r.db", f->dir);
	assert_int_equal(store_open(f->db, &f->st, err, sizeof(err)), 0);
	boot_ab_spec_init(&f->spec);
	f->spec.side[0].name = "on";
	f->spec.side[0].append = "";
	snprintf(f->spec.side[0].kernel_abs, PATH_MAX, "%s/bzImage", f->dir);
	f->spec.side[1].name = "off";
	f->spec.side[1].append = "nosmap";
	snprintf(f->spec.side[1].kernel_abs, PATH_MAX, "%s/bzImage", f->dir);
	f->spec.nsides = 2;
	f->spec.timeout_s = 1;
	f->spec.run_cmd = "copyscope run sys.null";
	f->spec.out = open_memstream(&f->outbuf, &f->outlen);
	assert_non_null(f->spec.out);
	f->res.accel = BOOT_ACCEL_TCG;
	f->res.emulated = true;
	snprintf(f->res.accel_text, sizeof(f->res.accel_text), "tcg (test)");
	f->res.qemu_summary = strdup("fake-qemu -accel tcg");
	assert_non_null(f->res.qemu_summary);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	fclose(f->spec.out);
	free(f->outbuf);
	boot_ab_result_free(&f->res);
	store_close(f->st);
	nftw(f->dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	free(f);
	return 0;
}

/* What the loop has printed so far. */
static const char *printed(struct fx *f)
{
	fflush(f->spec.out);
	return f->outbuf ? f->outbuf : "";
}

/* ---- judged from made text ---- */

static void test_judge_hang(void **state)
{
	struct boot_report rep;
	char missing[256], why[1024];

	(void)state;
	assert_false(boot_ab_judge(BOOT_END_TIMEOUT, 0, 30, "", 0,
				   console_hang, strlen(console_hang), "",
				   &rep, missing, sizeof(missing), why,
				   sizeof(why)));
	assert_string_equal(why, "no end after 30 s (--timeout-s): a hung "
			    "guest? qemu was killed; the console's last line: "
			    "[    1.0] Run /init as init process");
	assert_false(rep.begun);
	assert_string_equal(missing, "");
}

static void test_judge_panic(void **state)
{
	struct boot_report rep;
	char missing[256], why[1024];

	(void)state;
	assert_false(boot_ab_judge(BOOT_END_EXITED, 0, 30, "", 0,
				   console_panic, strlen(console_panic), "",
				   &rep, missing, sizeof(missing), why,
				   sizeof(why)));
	assert_non_null(strstr(why, "the guest kernel failed: Kernel panic - "
			       "not syncing: Attempted to kill init!"));
}

static void test_judge_silent(void **state)
{
	static const char qemu_log[] = "qemu-system-x86_64: linux kernel "
				       "too old to load a ram disk\n\n";
	struct boot_report rep;
	char missing[256], why[1024];

	(void)state;
	/* exit status 1: the wait status of exit(1) is 1 << 8 */
	assert_false(boot_ab_judge(BOOT_END_EXITED, 1 << 8, 30, "", 0,
				   console_hang, strlen(console_hang), "nosmap",
				   &rep, missing, sizeof(missing), why,
				   sizeof(why)));
	assert_string_equal(why, "the guest never reported (no /init output) "
			    "(qemu exit status 1); the console says: "
			    "[    1.0] Run /init as init process");
	/* nothing reported: no command line to check */
	assert_string_equal(missing, "");
	/* nothing at all on the console either */
	assert_false(boot_ab_judge(BOOT_END_EXITED, 0, 30, "", 0, "", 0, "",
				   &rep, missing, sizeof(missing), why,
				   sizeof(why)));
	assert_string_equal(why, "the guest never reported (no /init output) "
			    "(qemu exit status 0); the console is empty");
	/* then qemu's own last line tells why (#25 item 14) */
	boot_ab_add_qemu_says(why, sizeof(why), qemu_log, strlen(qemu_log));
	assert_string_equal(why, "the guest never reported (no /init output) "
			    "(qemu exit status 0); the console is empty; qemu "
			    "says: qemu-system-x86_64: linux kernel too old to "
			    "load a ram disk");
	/* a console that said something: qemu's log is not added */
	snprintf(why, sizeof(why), "the console says: x");
	boot_ab_add_qemu_says(why, sizeof(why), "qemu: y\n", 8);
	assert_string_equal(why, "the console says: x");
}

static void test_judge_norun(void **state)
{
	struct boot_report rep;
	char missing[256], why[1024];

	(void)state;
	assert_false(boot_ab_judge(BOOT_END_EXITED, 0, 30, data_norun,
				   strlen(data_norun), console_norun,
				   strlen(console_norun), "clearcpuid=smap",
				   &rep, missing, sizeof(missing), why,
				   sizeof(why)));
	assert_string_equal(why, "the guest's copyscope stored no run to send "
			    "(qemu exit status 0); the console says: "
			    "copyscope run: /var/tmp: No space left on device");
	assert_true(rep.begun);
	assert_int_equal(rep.run_rc, 1);
	assert_string_equal(missing, "clearcpuid=smap");
}

static void test_judge_cut_short(void **state)
{
	static const char data[] =
		"copyscope-boot-begin 1\n"
		"release: 6.1.0-fake\n"
		"copyscope-export-begin\n"
		"{\"format\":\"copyscope-export\"}\n"
		"copyscope-export-end 0\n";
	struct boot_report rep;
	char missing[256], why[1024];

	(void)state;
	assert_false(boot_ab_judge(BOOT_END_EXITED, 0, 30, data, strlen(data),
				   "[ 1.0] reboot\r\n", 15, "", &rep, missing,
				   sizeof(missing), why, sizeof(why)));
	assert_string_equal(why, "the guest's report was cut short (qemu "
			    "exit status 0); the console says: [ 1.0] reboot");
}

static void test_judge_good(void **state)
{
	static const char data[] =
		"copyscope-boot-begin 1\n"
		"cmdline: console=ttyS0 panic=-1 nosmap\n"
		"copyscope-export-begin\n"
		"{}\n"
		"copyscope-export-end 0\n"
		"copyscope-boot-end\n";
	struct boot_report rep;
	char missing[256], why[1024];

	(void)state;
	/* a panic line after the report's end does not fail the boot */
	assert_true(boot_ab_judge(BOOT_END_EXITED, 0, 30, data, strlen(data),
				  console_panic, strlen(console_panic),
				  "nosmap nopti", &rep, missing,
				  sizeof(missing), why, sizeof(why)));
	assert_string_equal(why, "");
	assert_string_equal(missing, "nopti");
}

/* ---- import and the failed run ---- */

/* An export of one run, as a guest sends it, into a malloc'ed string. */
static char *make_export(const char *uuid)
{
	struct run_data run;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	memset(&run, 0, sizeof(run));
	result_set_init(&run.results);
	snprintf(run.info.uuid, sizeof(run.info.uuid), "%s", uuid);
	snprintf(run.info.host, sizeof(run.info.host), "guest");
	snprintf(run.info.status, sizeof(run.info.status), "complete");
	run.info.started_ns = 1000000000LL;
	run.info.finished_ns = 2000000000LL;
	assert_int_equal(env_set(&run.env, "kernel.release", "6.1.0-fake"),
			 0);
	assert_int_equal(exchange_write(out, &run, 1, err, sizeof(err)), 0);
	fclose(out);
	run_data_free(&run);
	return buf;
}

static void test_import_fails(void **state)
{
	struct fx *f = *state;
	struct boot_report rep;
	char err[1024], *exp = make_export("0123456789abcdef0123456789abcdef");
	int64_t id = 0, id2 = 0;
	size_t nres = 9;

	memset(&rep, 0, sizeof(rep));
	rep.begun = rep.ended = true;
	/* not an export */
	rep.export_text = "{\"no\":1}\n";
	rep.export_len = strlen(rep.export_text);
	assert_int_equal(boot_ab_import(f->st, &f->spec, &f->res, 0, &rep, "",
					&id, &nres, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the guest's export"));
	assert_int_equal(f->res.side[0].nruns, 0);
	/* nothing sent */
	rep.export_text = NULL;
	assert_int_equal(boot_ab_import(f->st, &f->spec, &f->res, 0, &rep, "",
					&id, &nres, err, sizeof(err)), -1);
	assert_string_equal(err, "the guest sent no export");
	/* a good one, then the same again: already stored */
	rep.export_text = exp;
	rep.export_len = strlen(exp);
	snprintf(rep.unknown, sizeof(rep.unknown), "nosmap");
	assert_int_equal(boot_ab_import(f->st, &f->spec, &f->res, 1, &rep,
					"nopti", &id, &nres, err,
					sizeof(err)), 0);
	assert_true(id > 0);
	assert_int_equal(nres, 0);
	assert_int_equal(f->res.side[1].nruns, 1);
	assert_int_equal(f->res.side[1].run_ids[0], id);
	assert_string_equal(env_get(&f->res.side[1].envs[0], "boot.side"),
			    "off");
	assert_string_equal(env_get(&f->res.side[1].envs[0],
				    "boot.unknown_params"), "nosmap");
	assert_string_equal(env_get(&f->res.side[1].envs[0],
				    "boot.cmdline_check"), "nopti");
	assert_int_equal(boot_ab_import(f->st, &f->spec, &f->res, 1, &rep, "",
					&id2, &nres, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is already in the database as run"));
	assert_non_null(strstr(err, "was the initramfs reused?"));
	assert_int_equal(f->res.side[1].nruns, 1);
	free(exp);
}

static void test_record_failure(void **state)
{
	struct fx *f = *state;
	struct boot_report rep;
	struct run_data back;
	char err[512];
	int64_t id = 0, id2 = 0;

	memset(&rep, 0, sizeof(rep));
	rep.run_rc = rep.export_rc = -1;
	assert_int_equal(boot_ab_record_failure(f->st, &f->spec, &f->res, 1,
						&rep, "the guest kernel "
						"failed: Kernel panic",
						123, &id, err, sizeof(err)),
			 0);
	assert_true(id > 0);
	assert_int_equal(store_load_run(f->st, id, &back, err, sizeof(err)),
			 0);
	assert_string_equal(back.info.status, "failed");
	assert_string_equal(back.info.tag, "off");
	assert_string_equal(back.info.host, "copyscope-guest");
	assert_int_equal(strlen(back.info.uuid), 32);
	assert_int_equal(back.info.started_ns, 123);
	assert_int_equal(back.results.n, 0);
	assert_string_equal(back.info.cmdline, "copyscope run sys.null (in a "
			    "guest of copyscope boot; the boot failed)");
	assert_string_equal(env_get(&back.env, "boot.failure"),
			    "the guest kernel failed: Kernel panic");
	assert_string_equal(env_get(&back.env, "boot.side"), "off");
	assert_string_equal(env_get(&back.env, "boot.append"), "nosmap");
	assert_string_equal(env_get(&back.env, "boot.accel"), "tcg (test)");
	/* the guest said nothing: what it would have said is unknown */
	assert_string_equal(env_get(&back.env, "boot.cmdline_check"),
			    "unknown");
	assert_null(env_get(&back.env, "kernel.release"));
	assert_non_null(strstr(env_get(&back.env, "virt.emulated"), "yes"));
	run_data_free(&back);
	/* a guest that reported its kernel before failing */
	rep.begun = true;
	snprintf(rep.release, sizeof(rep.release), "6.1.0-fake");
	snprintf(rep.cmdline, sizeof(rep.cmdline), "console=ttyS0");
	assert_int_equal(boot_ab_record_failure(f->st, &f->spec, &f->res, 0,
						&rep, "x", 0, &id2, err,
						sizeof(err)), 0);
	assert_true(id2 > id);
	assert_int_equal(store_load_run(f->st, id2, &back, err, sizeof(err)),
			 0);
	assert_string_equal(env_get(&back.env, "kernel.release"),
			    "6.1.0-fake");
	assert_string_equal(env_get(&back.env, "kernel.cmdline"),
			    "console=ttyS0");
	assert_string_equal(env_get(&back.env, "boot.append"), "(none)");
	assert_string_equal(env_get(&back.env, "boot.cmdline_check"), "ok");
	run_data_free(&back);
}

/* ---- whole boots with a fake qemu ---- */

/*
 * A fake qemu at dir/fake-qemu: finds its two -serial file: paths, writes
 * console to the first and, unless NULL, copies dir/data to the second,
 * then runs tail (a shell command).
 */
static void fake_qemu(struct fx *f, const char *console, const char *data,
		      const char *tail)
{
	char path[256];
	FILE *s;

	if (data) {
		snprintf(path, sizeof(path), "%s/data", f->dir);
		s = fopen(path, "w");
		assert_non_null(s);
		fputs(data, s);
		fclose(s);
	}
	snprintf(path, sizeof(path), "%s/fake-qemu", f->dir);
	s = fopen(path, "w");
	assert_non_null(s);
	fprintf(s, "#!/bin/sh\nconsole= data= prev=\n"
		"for a in \"$@\"; do\n"
		"\tcase $prev:$a in\n"
		"\t-serial:file:*) if [ -z \"$console\" ]; then "
		"console=${a#file:}; else data=${a#file:}; fi ;;\n"
		"\tesac\n\tprev=$a\ndone\n"
		"printf '%%s' '%s' >\"$console\"\n"
		"%s%s%s\n%s\n", console, data ? "cat '" : "",
		data ? f->dir : "", data ? "/data' >\"$data\"" : "", tail);
	fclose(s);
	assert_int_equal(chmod(path, 0755), 0);
	f->spec.qemu = strdup(path);
	assert_non_null(f->spec.qemu);
}

/* One boot of side 0 with the fake qemu; the boot's record into b. */
static void one_boot(struct fx *f, struct boot_ab_boot *b)
{
	static volatile sig_atomic_t stop;

	stop = 0;
	boot_ab_one(&f->spec, f->st, &f->res, 0, f->dir, &stop, 1, 2, b);
	free((char *)f->spec.qemu);
	f->spec.qemu = NULL;
}

/* The failed run b stored: status failed, boot.failure is b->why. */
static void assert_failed_run(struct fx *f, const struct boot_ab_boot *b)
{
	struct run_data back;
	char err[512], line[256];

	assert_int_equal(b->outcome, BOOT_AB_FAILED);
	assert_true(b->run_id > 0);
	assert_string_equal(b->not_recorded, "");
	assert_int_equal(store_load_run(f->st, b->run_id, &back, err,
					sizeof(err)), 0);
	assert_string_equal(back.info.status, "failed");
	assert_string_equal(back.info.tag, "on");
	assert_string_equal(env_get(&back.env, "boot.failure"), b->why);
	run_data_free(&back);
	assert_int_equal(f->res.side[0].nfailed, 1);
	snprintf(line, sizeof(line), "    recorded as run %lld (status "
		 "failed)\n", (long long)b->run_id);
	assert_non_null(strstr(printed(f), line));
}

static void test_boot_hangs(void **state)
{
	struct fx *f = *state;
	struct boot_ab_boot b;

	fake_qemu(f, console_hang, NULL, "exec sleep 30");
	one_boot(f, &b);
	assert_true(b.wall_s >= 1 && b.wall_s < 10);
	assert_string_equal(b.why, "no end after 1 s (--timeout-s): a hung "
			    "guest? qemu was killed; the console's last line: "
			    "[    1.0] Run /init as init process");
	assert_failed_run(f, &b);
	assert_true(strncmp(printed(f), "boot 1/2  side on: FAILED after ",
			    strlen("boot 1/2  side on: FAILED after ")) == 0);
	assert_int_equal(f->res.side[0].nruns, 0);
}

static void test_boot_panics(void **state)
{
	struct fx *f = *state;
	struct boot_ab_boot b;

	fake_qemu(f, console_panic, NULL, "exit 0");
	one_boot(f, &b);
	assert_non_null(strstr(b.why, "the guest kernel failed: Kernel panic "
			       "- not syncing"));
	assert_failed_run(f, &b);
	assert_non_null(strstr(printed(f), b.why));
}

static void test_boot_silent(void **state)
{
	struct fx *f = *state;
	struct boot_ab_boot b;

	/* a guest that never ran: qemu's own message tells why */
	fake_qemu(f, "", NULL, "echo 'qemu-system-x86_64: linux kernel too "
		  "old to load a ram disk' >&2; exit 3");
	one_boot(f, &b);
	assert_string_equal(b.why, "the guest never reported (no /init "
			    "output) (qemu exit status 3); the console is "
			    "empty; qemu says: qemu-system-x86_64: linux "
			    "kernel too old to load a ram disk");
	assert_failed_run(f, &b);
}

static void test_boot_norun(void **state)
{
	struct fx *f = *state;
	struct boot_ab_boot b;

	fake_qemu(f, console_norun, data_norun, "exit 0");
	one_boot(f, &b);
	assert_non_null(strstr(b.why, "the console says: copyscope run: "
			       "/var/tmp: No space left on device"));
	assert_failed_run(f, &b);
	/* what the guest reported goes with the failed run */
	assert_string_equal(b.rep.release, "6.1.0-fake");
	assert_null(b.rep.export_text);
}

static void test_boot_import_fails(void **state)
{
	struct fx *f = *state;
	struct boot_ab_boot b;
	char *exp = make_export("00000000000000000000000000000001");
	char *data = NULL, msg[1024];

	assert_true(asprintf(&data, "copyscope-boot-begin 1\n"
			     "release: 6.1.0-fake\nrun-rc: 0\n"
			     "copyscope-export-begin\n%s"
			     "copyscope-export-end 0\ncopyscope-boot-end\n",
			     exp) > 0);
	fake_qemu(f, "[ 1.0] booted\n", data, "exit 0");
	one_boot(f, &b);
	assert_int_equal(b.outcome, BOOT_AB_IMPORTED);
	assert_true(b.run_id > 0);
	assert_int_equal(f->res.side[0].nruns, 1);
	assert_non_null(strstr(printed(f), "    kernel 6.1.0-fake, boot id"));
	/* the same run again: the import fails, the boot is recorded */
	fake_qemu(f, "[ 1.0] booted\n", data, "exit 0");
	one_boot(f, &b);
	snprintf(msg, sizeof(msg), "its run could not be imported: its run "
		 "00000000000000000000000000000001 is already in the "
		 "database as run");
	assert_true(strncmp(b.why, msg, strlen(msg)) == 0);
	assert_failed_run(f, &b);
	free(exp);
	free(data);
}

static void test_boot_no_qemu(void **state)
{
	struct fx *f = *state;
	struct boot_ab_boot b;
	static volatile sig_atomic_t stop;
	char path[256];

	snprintf(path, sizeof(path), "%s/no-such-qemu", f->dir);
	f->spec.qemu = path;
	boot_ab_one(&f->spec, f->st, &f->res, 0, f->dir, &stop, 1, 1, &b);
	f->spec.qemu = NULL;
	assert_int_equal(b.outcome, BOOT_AB_SPAWN_FAILED);
	assert_int_equal(b.run_id, 0);
	assert_non_null(strstr(b.why, "no-such-qemu"));
	assert_int_equal(f->res.side[0].nfailed, 0);
	assert_string_equal(printed(f), "boot 1/1  side on: qemu did not "
			    "start\n");
}

static void test_boot_stopped(void **state)
{
	struct fx *f = *state;
	struct boot_ab_boot b;
	static volatile sig_atomic_t stop;

	fake_qemu(f, console_hang, NULL, "exec sleep 30");
	/* a stop already asked for: qemu is killed at once */
	stop = SIGINT;
	boot_ab_one(&f->spec, f->st, &f->res, 0, f->dir, &stop, 1, 1, &b);
	free((char *)f->spec.qemu);
	f->spec.qemu = NULL;
	assert_int_equal(b.outcome, BOOT_AB_INTERRUPTED);
	assert_int_equal(b.run_id, 0);
	assert_true(b.wall_s < 5);
	assert_non_null(strstr(printed(f), "interrupted after"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_hang),
		cmocka_unit_test(test_judge_panic),
		cmocka_unit_test(test_judge_silent),
		cmocka_unit_test(test_judge_norun),
		cmocka_unit_test(test_judge_cut_short),
		cmocka_unit_test(test_judge_good),
		cmocka_unit_test_setup_teardown(test_import_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_record_failure, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_boot_hangs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_boot_panics, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_boot_silent, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_boot_norun, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_boot_import_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_boot_no_qemu, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_boot_stopped, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
