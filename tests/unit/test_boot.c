/*
 * test_boot.c - unit tests for src/boot/: the guest's report parsed from
 * the data channel (whole, cut short, with noise and \r), the kernel's
 * unknown-parameter line, the command-line check, panic detection, the
 * settings asked for and seen (smap via clearcpuid, nosmap, pti,
 * mitigations), the accelerator choice (KVM, PVM, none), shell quoting
 * and the qemu argument vector, the initramfs written and the ELF check.
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

#include "boot/boot.h"

#define X86 BOOT_ARCH_X86_64
#define A64 BOOT_ARCH_AARCH64

static const char report_ok[] =
	"garbage before\n"
	"copyscope-boot-begin 1\n"
	"release: 6.1.0-57-amd64\n"
	"cmdline: console=ttyS0 panic=-1 clearcpuid=smap nosmap\n"
	"boot_id: 0b1c2d3e-aaaa-bbbb-cccc-123456789abc\n"
	"unknown: [    0.000000] Unknown kernel command line parameters "
	"\"nosmap\", will be passed to user space.\n"
	"run-rc: 1\n"
	"copyscope-export-begin\n"
	"{\"format\":\"copyscope-export\"}\n"
	"{\"type\":\"end\",\"runs\":1,\"results\":0}\n"
	"copyscope-export-end 0\n"
	"copyscope-boot-end\n";

static void test_report_whole(void **state)
{
	struct boot_report r;
	const char *exp = strstr(report_ok, "{\"format\"");

	(void)state;
	boot_parse_report(report_ok, strlen(report_ok), &r);
	assert_true(r.begun);
	assert_true(r.ended);
	assert_string_equal(r.release, "6.1.0-57-amd64");
	assert_string_equal(r.cmdline,
			    "console=ttyS0 panic=-1 clearcpuid=smap nosmap");
	assert_string_equal(r.boot_id,
			    "0b1c2d3e-aaaa-bbbb-cccc-123456789abc");
	assert_string_equal(r.unknown, "nosmap");
	assert_int_equal(r.run_rc, 1);
	assert_int_equal(r.export_rc, 0);
	assert_ptr_equal(r.export_text, exp);
	assert_int_equal(r.export_len,
			 strstr(report_ok, "copyscope-export-end") - exp);
}

static void test_report_cut_short(void **state)
{
	struct boot_report r;
	size_t cut = (size_t)(strstr(report_ok, "{\"type\"") - report_ok);

	(void)state;
	boot_parse_report(report_ok, cut, &r);
	assert_true(r.begun);
	assert_false(r.ended);
	assert_null(r.export_text);
	assert_int_equal(r.export_rc, -1);
	boot_parse_report("", 0, &r);
	assert_false(r.begun);
	assert_int_equal(r.run_rc, -1);
	/* lines before the begin line are noise */
	boot_parse_report("release: x\n", 11, &r);
	assert_string_equal(r.release, "");
}

static void test_report_crlf(void **state)
{
	static const char t[] = "copyscope-boot-begin 1\r\nrelease: 6.1\r\n"
		"unknown: \r\ncopyscope-boot-end\r\n";
	struct boot_report r;

	(void)state;
	boot_parse_report(t, strlen(t), &r);
	assert_string_equal(r.release, "6.1");
	assert_string_equal(r.unknown, "");
	assert_true(r.ended);
}

static void test_unknown_params(void **state)
{
	char out[128];

	(void)state;
	boot_unknown_params("Unknown kernel command line parameters "
			    "\"nosmap foo=1\", will be passed to user space.",
			    out, sizeof(out));
	assert_string_equal(out, "nosmap foo=1");
	boot_unknown_params("something else", out, sizeof(out));
	assert_string_equal(out, "");
}

static void test_cmdline_missing(void **state)
{
	char m[128];

	(void)state;
	boot_cmdline_missing("clearcpuid=smap  nosmap", "console=ttyS0 "
			     "clearcpuid=smap nosmap", m, sizeof(m));
	assert_string_equal(m, "");
	boot_cmdline_missing("clearcpuid=smap pti=off", "console=ttyS0 "
			     "clearcpuid=smap,smep", m, sizeof(m));
	assert_string_equal(m, "clearcpuid=smap pti=off");
	boot_cmdline_missing("", "x", m, sizeof(m));
	assert_string_equal(m, "");
	/* a prefix of a word is not the word */
	boot_cmdline_missing("pti", "nopti pti=on", m, sizeof(m));
	assert_string_equal(m, "pti");
}

static void test_console_failure(void **state)
{
	static const char c[] = "[ 1.0] ok\n[ 2.0] Kernel panic - not "
		"syncing: VFS: Unable to mount root\n[ 2.1] more\n";
	char why[128];

	(void)state;
	assert_true(boot_console_failure(c, strlen(c), why, sizeof(why)));
	assert_string_equal(why, "Kernel panic - not syncing: VFS: Unable "
			    "to mount root");
	assert_false(boot_console_failure("all fine\n", 9, why,
					   sizeof(why)));
}

static void test_setting_words(void **state)
{
	char w[128];

	(void)state;
	assert_true(boot_setting_words("quiet clearcpuid=smep,smap nosmap",
				       BOOT_SET_SMAP, w, sizeof(w)));
	assert_string_equal(w, "clearcpuid=smep,smap nosmap");
	assert_true(boot_setting_words("clearcpuid=smep,smap", BOOT_SET_SMEP,
				       w, sizeof(w)));
	/* clearcpuid=smapx names another flag */
	assert_false(boot_setting_words("clearcpuid=smapx", BOOT_SET_SMAP, w,
					sizeof(w)));
	assert_true(boot_setting_words("mitigations=off", BOOT_SET_PTI, w,
				       sizeof(w)));
	assert_true(boot_setting_words("mitigations=off",
				       BOOT_SET_MITIGATIONS, w, sizeof(w)));
	assert_true(boot_setting_words("pti=on", BOOT_SET_PTI, w,
				       sizeof(w)));
	assert_false(boot_setting_words("", BOOT_SET_PTI, w, sizeof(w)));
	assert_false(boot_setting_words(NULL, BOOT_SET_SMAP, w, sizeof(w)));
	assert_string_equal(boot_setting_name(BOOT_SET_MITIGATIONS),
			    "mitigations");
}

static void test_setting_state(void **state)
{
	struct env on = { 0 }, off = { 0 };
	char s1[256], s2[256], msg[256];

	(void)state;
	assert_int_equal(env_set(&on, "cpu.flags", "smap smep erms"), 0);
	assert_int_equal(env_set(&on, "cpu.vuln.meltdown", "Not affected"),
			 0);
	assert_int_equal(env_set(&off, "cpu.flags", "smep erms"), 0);
	assert_int_equal(env_set(&off, "cpu.vuln.meltdown", "Not affected"),
			 0);
	boot_setting_state(&on, BOOT_SET_SMAP, s1, sizeof(s1));
	boot_setting_state(&off, BOOT_SET_SMAP, s2, sizeof(s2));
	assert_string_equal(s1, "smap present");
	assert_string_equal(s2, "smap absent");
	boot_setting_state(&on, BOOT_SET_PTI, s1, sizeof(s1));
	assert_string_equal(s1, "pti absent; meltdown: Not affected");
	boot_setting_state(&on, BOOT_SET_MITIGATIONS, s1, sizeof(s1));
	boot_setting_state(&off, BOOT_SET_MITIGATIONS, s2, sizeof(s2));
	assert_string_equal(s1, s2);
	assert_non_null(strstr(s1, "meltdown"));
	/* nosmap on a kernel without it: the flag stays, said so */
	assert_true(boot_setting_not_applied("nosmap", &on, BOOT_SET_SMAP,
					     msg, sizeof(msg)));
	assert_non_null(strstr(msg, "smap"));
	assert_false(boot_setting_not_applied("clearcpuid=smap", &off,
					      BOOT_SET_SMAP, msg,
					      sizeof(msg)));
	assert_false(boot_setting_not_applied("", &on, BOOT_SET_SMAP, msg,
					      sizeof(msg)));
	env_free(&on);
	env_free(&off);
}

/* arm64's settings: PAN and KPTI, as the guest's kernel log says them */
static void test_setting_arm64(void **state)
{
	struct env on = { 0 }, off = { 0 };
	char s1[512], s2[512], msg[1024];

	(void)state;
	assert_true(boot_setting_applies(BOOT_SET_KPTI, BOOT_ARCH_AARCH64));
	assert_true(boot_setting_applies(BOOT_SET_PAN, BOOT_ARCH_AARCH64));
	assert_false(boot_setting_applies(BOOT_SET_SMAP, BOOT_ARCH_AARCH64));
	assert_false(boot_setting_applies(BOOT_SET_KPTI, BOOT_ARCH_X86_64));
	assert_true(boot_setting_applies(BOOT_SET_MITIGATIONS,
					 BOOT_ARCH_AARCH64));
	assert_true(boot_setting_words("quiet kpti=1", BOOT_SET_KPTI, s1,
				       sizeof(s1)));
	assert_string_equal(s1, "kpti=1");
	assert_true(boot_setting_words("arm64.nopan", BOOT_SET_PAN, s1,
				       sizeof(s1)));
	assert_false(boot_setting_words("arm64.nomte", BOOT_SET_PAN, s1,
					sizeof(s1)));

	assert_int_equal(env_set(&on, "cpu.arm64.pan", "on (the kernel log: "
				 "\"CPU features: detected: Privileged Access "
				 "Never\")"), 0);
	assert_int_equal(env_set(&on, "cpu.arm64.kpti", "on (the kernel log: "
				 "\"CPU features: detected: Kernel page table "
				 "isolation (KPTI)\")"), 0);
	assert_int_equal(env_set(&on, "cpu.vuln.meltdown", "Not affected"),
			 0);
	assert_int_equal(env_set(&off, "cpu.arm64.kpti", "off (no \"CPU "
				 "features: detected: Kernel page table "
				 "isolation (KPTI)\" in the kernel log)"), 0);
	boot_setting_state(&on, BOOT_SET_KPTI, s1, sizeof(s1));
	boot_setting_state(&off, BOOT_SET_KPTI, s2, sizeof(s2));
	assert_true(strncmp(s1, "kpti on (the kernel log", 23) == 0);
	assert_non_null(strstr(s1, "; meltdown: Not affected"));
	assert_true(strncmp(s2, "kpti off (no", 12) == 0);
	boot_setting_state(&on, BOOT_SET_PAN, s1, sizeof(s1));
	assert_true(strncmp(s1, "pan on (the kernel log", 22) == 0);
	boot_setting_state(&off, BOOT_SET_PAN, s2, sizeof(s2));
	assert_string_equal(s2, "");	/* no cpu.arm64.pan: not said */

	/* arm64.nopan on a kernel without it (6.1): PAN still on */
	assert_true(boot_setting_not_applied("arm64.nopan", &on,
					     BOOT_SET_PAN, msg, sizeof(msg)));
	assert_non_null(strstr(msg, "'arm64.nopan' asks to turn PAN off, "
			       "but the guest's cpu.arm64.pan is on"));
	/* kpti= asked and got; asked and not got; mitigations=off */
	assert_false(boot_setting_not_applied("kpti=1", &on, BOOT_SET_KPTI,
					      msg, sizeof(msg)));
	assert_false(boot_setting_not_applied("kpti=off", &off,
					      BOOT_SET_KPTI, msg,
					      sizeof(msg)));
	assert_true(boot_setting_not_applied("quiet kpti=y", &off,
					     BOOT_SET_KPTI, msg, sizeof(msg)));
	assert_true(strncmp(msg, "'kpti=y' asks for KPTI on, but the "
			    "guest's cpu.arm64.kpti is off", 58) == 0);
	assert_true(boot_setting_not_applied("mitigations=off", &on,
					     BOOT_SET_KPTI, msg, sizeof(msg)));
	assert_non_null(strstr(msg, "'mitigations=off' asks for KPTI off"));
	/* kpti= wins over mitigations=off, as in the kernel */
	assert_false(boot_setting_not_applied("mitigations=off kpti=1", &on,
					      BOOT_SET_KPTI, msg,
					      sizeof(msg)));
	assert_false(boot_setting_not_applied("", &on, BOOT_SET_KPTI, msg,
					      sizeof(msg)));
	env_free(&on);
	env_free(&off);
}

/* the other architecture's settings are refused before any boot */
static void test_setting_foreign(void **state)
{
	char err[512];

	(void)state;
	assert_true(boot_setting_foreign("--append", "quiet nosmap",
					 BOOT_ARCH_AARCH64, err, sizeof(err)));
	assert_true(strncmp(err, "--append: 'nosmap' is an x86 kernel "
			    "parameter and the guest is aarch64: on arm64 "
			    "the settings boot checks are kpti=0|1", 95) == 0);
	assert_true(boot_setting_foreign("--append-b", "clearcpuid=smap",
					 BOOT_ARCH_AARCH64, err, sizeof(err)));
	assert_true(strncmp(err, "--append-b: 'clearcpuid=smap'", 29) == 0);
	assert_true(boot_setting_foreign("--append", "pti=on",
					 BOOT_ARCH_AARCH64, err, sizeof(err)));
	assert_true(boot_setting_foreign("--append", "nopti",
					 BOOT_ARCH_AARCH64, err, sizeof(err)));
	assert_true(boot_setting_foreign("--append", "kpti=2",
					 BOOT_ARCH_AARCH64, err, sizeof(err)));
	assert_non_null(strstr(err, "'kpti=2': kpti takes 0 or 1"));
	assert_false(boot_setting_foreign("--append", "kpti=0 arm64.nopan "
					  "mitigations=off nosmapx pti",
					  BOOT_ARCH_AARCH64, err,
					  sizeof(err)));
	assert_false(boot_setting_foreign("--append", NULL,
					  BOOT_ARCH_AARCH64, err,
					  sizeof(err)));
	assert_true(boot_setting_foreign("--append", "kpti=1",
					 BOOT_ARCH_X86_64, err, sizeof(err)));
	assert_true(strncmp(err, "--append: 'kpti=1' is an arm64 kernel "
			    "parameter and the guest is x86_64: on x86", 79)
		    == 0);
	assert_true(boot_setting_foreign("--append", "arm64.nobti",
					 BOOT_ARCH_X86_64, err, sizeof(err)));
	assert_false(boot_setting_foreign("--append", "nosmap clearcpuid=smap "
					  "nopti pti=off kpti",
					  BOOT_ARCH_X86_64, err,
					  sizeof(err)));
}

static void test_accel(void **state)
{
	struct boot_kvm_probe p;
	enum boot_accel a;
	char why[256];

	(void)state;
	memset(&p, 0, sizeof(p));
	/* no /dev/kvm */
	assert_int_equal(boot_pick_accel("auto", X86, &p, &a, why, sizeof(why)),
			 0);
	assert_int_equal(a, BOOT_ACCEL_TCG);
	assert_non_null(strstr(why, "not present"));
	assert_int_equal(boot_pick_accel("kvm", X86, &p, &a, why, sizeof(why)),
			 -1);
	/* PVM: /dev/kvm opens, no vmx/svm */
	p.dev_present = true;
	p.pvm = true;
	assert_int_equal(boot_pick_accel("auto", X86, &p, &a, why, sizeof(why)),
			 0);
	assert_int_equal(a, BOOT_ACCEL_TCG);
	assert_non_null(strstr(why, "PVM"));
	/* asked for: tried */
	assert_int_equal(boot_pick_accel("kvm", X86, &p, &a, why, sizeof(why)),
			 0);
	assert_int_equal(a, BOOT_ACCEL_KVM);
	/* hardware KVM */
	p.pvm = false;
	p.cpu_virt = true;
	assert_int_equal(boot_pick_accel("auto", X86, &p, &a, why, sizeof(why)),
			 0);
	assert_int_equal(a, BOOT_ACCEL_KVM);
	assert_int_equal(boot_pick_accel("tcg", X86, &p, &a, why, sizeof(why)),
			 0);
	assert_int_equal(a, BOOT_ACCEL_TCG);
	/* present but not openable */
	p.dev_errno = 13;
	assert_int_equal(boot_pick_accel("auto", X86, &p, &a, why, sizeof(why)),
			 0);
	assert_int_equal(a, BOOT_ACCEL_TCG);
	/* an arm64 guest on an x86 host: TCG whatever KVM offers */
	p.dev_errno = 0;
	assert_int_equal(boot_pick_accel("auto", A64, &p, &a, why,
					 sizeof(why)), 0);
	assert_int_equal(a, BOOT_ACCEL_TCG);
	assert_non_null(strstr(why, "the guest is aarch64, this host "
			       "x86_64"));
	assert_int_equal(boot_pick_accel("kvm", A64, &p, &a, why,
					 sizeof(why)), -1);
	/* on an arm64 host: KVM without vmx/svm; PVM is x86's */
	p.host = A64;
	p.cpu_virt = false;
	p.pvm = true;
	assert_int_equal(boot_pick_accel("auto", A64, &p, &a, why,
					 sizeof(why)), 0);
	assert_int_equal(a, BOOT_ACCEL_KVM);
	assert_int_equal(boot_pick_accel("auto", X86, &p, &a, why,
					 sizeof(why)), 0);
	assert_int_equal(a, BOOT_ACCEL_TCG);
}

static void test_quote_and_script(void **state)
{
	char *q = boot_shell_quote("it's $HOME");
	char *args[] = { "pipe.bw", "size=4k,64k", "--reps", "3" };
	char *s;

	(void)state;
	assert_non_null(q);
	assert_string_equal(q, "'it'\\''s $HOME'");
	free(q);
	s = boot_init_script("ttyS1", args, 4);
	assert_non_null(s);
	assert_non_null(strstr(s, "\nout=/dev/ttyS1\nstty -F $out raw"));
	assert_non_null(strstr(s, "/bin/copyscope run --db /tmp/guest.db "
			       "'pipe.bw' 'size=4k,64k' '--reps' '3' "));
	assert_non_null(strstr(s, "copyscope-export-begin"));
	assert_non_null(strstr(s, "reboot -f"));
	free(s);
	s = boot_init_script("ttyS0", args, 1);
	assert_non_null(s);
	assert_non_null(strstr(s, "\nout=/dev/ttyS0\n"));
	free(s);
}

static void test_qemu_argv(void **state)
{
	const char *extra[] = { "-machine", "q35" };
	struct boot_qemu q = {
		.qemu = "qemu-system-x86_64", .accel = BOOT_ACCEL_TCG,
		.smp = 2, .memory_mib = 512, .kernel = "/k", .initramfs = "/i",
		.append = "console=ttyS0 a=b", .console_path = "/c",
		.data_path = "/d", .extra = extra, .nextra = 2,
	};
	char **v = boot_qemu_argv(&q);
	size_t n, i;
	bool tcg = false, cpu = false, ser = false;

	(void)state;
	assert_non_null(v);
	for (n = 0; v[n]; n++) {
		if (n && strcmp(v[n - 1], "-accel") == 0)
			tcg = strcmp(v[n], "tcg") == 0;
		if (n && strcmp(v[n - 1], "-cpu") == 0)
			cpu = strcmp(v[n], "max") == 0;
		ser |= strcmp(v[n], "file:/d") == 0;
	}
	assert_true(tcg && cpu && ser);
	assert_string_equal(v[n - 2], "-machine");
	assert_string_equal(v[n - 1], "q35");
	for (i = 0; i < n; i++)
		if (strcmp(v[i], "-append") == 0)
			assert_string_equal(v[i + 1], "console=ttyS0 a=b");
	boot_free_argv(v);
}

/* The value after option opt in v (NULL-terminated), NULL when absent. */
static const char *arg_after(char **v, const char *opt)
{
	size_t i;

	for (i = 0; v[i]; i++)
		if (strcmp(v[i], opt) == 0)
			return v[i + 1];
	return NULL;
}

static void test_qemu_argv_aarch64(void **state)
{
	struct boot_qemu q = {
		.qemu = "qemu-system-aarch64", .arch = BOOT_ARCH_AARCH64,
		.accel = BOOT_ACCEL_TCG, .smp = 2, .memory_mib = 512,
		.kernel = "/k", .initramfs = "/i",
		.append = "console=ttyAMA0 panic=-1", .console_path = "/c",
		.data_path = "/tmp/a,b/d",
	};
	char **v = boot_qemu_argv(&q);
	size_t n, nserial = 0;

	(void)state;
	assert_non_null(v);
	assert_string_equal(arg_after(v, "-M"), "virt");
	assert_string_equal(arg_after(v, "-cpu"), "max,pauth-impdef=on");
	assert_string_equal(arg_after(v, "-serial"), "file:/c");
	/* the data port: a PCI 16550 on a file chardev, commas doubled */
	assert_string_equal(arg_after(v, "-chardev"),
			    "file,id=copyscope-data,path=/tmp/a,,b/d");
	assert_string_equal(arg_after(v, "-device"),
			    "pci-serial,chardev=copyscope-data");
	for (n = 0; v[n]; n++)
		nserial += strcmp(v[n], "-serial") == 0;
	assert_int_equal(nserial, 1);
	boot_free_argv(v);
	/* KVM: the host's CPU and interrupt controller */
	q.accel = BOOT_ACCEL_KVM;
	v = boot_qemu_argv(&q);
	assert_non_null(v);
	assert_string_equal(arg_after(v, "-M"), "virt,gic-version=host");
	assert_string_equal(arg_after(v, "-cpu"), "host");
	boot_free_argv(v);
	/* x86-64: qemu's default machine, no -M */
	q.arch = BOOT_ARCH_X86_64;
	q.accel = BOOT_ACCEL_TCG;
	v = boot_qemu_argv(&q);
	assert_non_null(v);
	assert_null(arg_after(v, "-M"));
	assert_null(arg_after(v, "-chardev"));
	assert_string_equal(arg_after(v, "-cpu"), "max");
	boot_free_argv(v);
}

/* A file of len bytes, zero but for magic (mlen bytes) at off. */
static void write_image(const char *path, size_t len, size_t off,
			const char *magic, size_t mlen)
{
	char *buf = calloc(1, len);
	FILE *f = fopen(path, "wb");

	assert_non_null(buf);
	assert_non_null(f);
	memcpy(buf + off, magic, mlen);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
	free(buf);
}

static void test_arch(void **state)
{
	char dir[] = "/tmp/copyscope-test-arch.XXXXXX", path[128], err[256];
	char self[4096];
	enum boot_arch a = BOOT_NARCHS;
	ssize_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/img", dir);
	write_image(path, 4096, 0x202, "HdrS", 4);
	assert_int_equal(boot_kernel_arch(path, &a, err, sizeof(err)), 0);
	assert_int_equal(a, BOOT_ARCH_X86_64);
	write_image(path, 4096, 0x38, "ARM\x64", 4);
	assert_int_equal(boot_kernel_arch(path, &a, err, sizeof(err)), 0);
	assert_int_equal(a, BOOT_ARCH_AARCH64);
	/* a gzip'ed image or anything else: neither */
	write_image(path, 64, 0, "\x1f\x8b", 2);
	assert_int_equal(boot_kernel_arch(path, &a, err, sizeof(err)), 1);
	unlink(path);
	assert_int_equal(boot_kernel_arch(path, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	rmdir(dir);
	/* this test binary is of the host's architecture */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = '\0';
	assert_int_equal(boot_elf_arch(self, &a, err, sizeof(err)), 0);
	assert_int_equal(a, boot_host_arch());
	assert_int_equal(boot_elf_arch("/proc/self/cmdline", &a, err,
				       sizeof(err)), -1);
	assert_int_equal(boot_arch_parse("aarch64", &a), 0);
	assert_int_equal(a, BOOT_ARCH_AARCH64);
	assert_int_equal(boot_arch_parse("arm64", &a), -1);
	assert_string_equal(boot_arch_info(BOOT_ARCH_AARCH64)->base_append,
			    "console=ttyAMA0 panic=-1");
	assert_string_equal(boot_arch_info(BOOT_ARCH_X86_64)->data_tty,
			    "ttyS1");
}

static void test_initramfs(void **state)
{
	char dir[] = "/tmp/copyscope-test-boot.XXXXXX", path[128], err[256];
	char self[4096];
	FILE *f;
	ssize_t n;
	unsigned char magic[6];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/i.cpio", dir);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = '\0';
	assert_int_equal(boot_write_initramfs(path, "#!/bin/sh\n", self, self,
					      err, sizeof(err)), 0);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(magic, 1, 6, f), 6);
	fclose(f);
	assert_memory_equal(magic, "070701", 6);	/* newc */
	assert_int_equal(boot_write_initramfs(path, "x", "/nonexistent",
					      self, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent"));
	unlink(path);
	rmdir(dir);
	/* a test binary is dynamically linked; /nonexistent is nothing */
	assert_int_equal(boot_elf_is_static(self, err, sizeof(err)), 0);
	assert_int_equal(boot_elf_is_static("/nonexistent", err,
					    sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_whole),
		cmocka_unit_test(test_qemu_argv_aarch64),
		cmocka_unit_test(test_arch),
		cmocka_unit_test(test_report_cut_short),
		cmocka_unit_test(test_report_crlf),
		cmocka_unit_test(test_unknown_params),
		cmocka_unit_test(test_cmdline_missing),
		cmocka_unit_test(test_console_failure),
		cmocka_unit_test(test_setting_words),
		cmocka_unit_test(test_setting_state),
		cmocka_unit_test(test_setting_arm64),
		cmocka_unit_test(test_setting_foreign),
		cmocka_unit_test(test_accel),
		cmocka_unit_test(test_quote_and_script),
		cmocka_unit_test(test_qemu_argv),
		cmocka_unit_test(test_initramfs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
