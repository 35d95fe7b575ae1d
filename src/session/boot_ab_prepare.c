/*
 * boot_ab_prepare.c - what the boot A/B loop (see boot_ab.h) settles
 * before any boot: the guests' architecture (asked, or told from the
 * kernel images' headers), the guest's static files (busybox and
 * copyscope, found or checked to be static executables of that
 * architecture), qemu, the accelerator, the qemu summary every run
 * records and the guest's /init.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/boot_ab.h"
#include "util/msg.h"
#include "util/process.h"

int boot_ab_check_file(const char *opt, const char *path, char *abs,
		       size_t len, char *err, size_t errlen)
{
	char buf[PATH_MAX];
	struct stat sb;

	if (stat(path, &sb) != 0 || access(path, R_OK) != 0) {
		snprintf(err, errlen, "%s: cannot read '%s': %s", opt, path,
			 strerror(errno));
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "%s: '%s' is not a regular file", opt,
			 path);
		return -1;
	}
	if (!realpath(path, buf)) {
		snprintf(err, errlen, "%s: '%s': %s", opt, path,
			 strerror(errno));
		return -1;
	}
	snprintf(abs, len, "%s", buf);
	return 0;
}

/* Whether path is an executable of architecture a. */
static bool is_arch(const char *path, enum boot_arch a)
{
	enum boot_arch got;
	char err[PATH_MAX + 64];

	return access(path, R_OK) == 0 &&
	       boot_elf_arch(path, &got, err, sizeof(err)) == 0 && got == a;
}

/*
 * The static copyscope for a guest of architecture a: beside this binary
 * (copyscope-static; for arm64 also aarch64/copyscope-static, where make
 * static-aarch64 puts it next to build/copyscope), else as make install
 * puts it (../libexec/copyscope/copyscope-static, for arm64 also
 * copyscope-static-aarch64); the first of those of architecture a.
 */
static enum boot_ab_fault find_cstatic(enum boot_arch a, char *cs,
				       size_t cslen, char *err, size_t errlen)
{
	static const char *const rel[] = { "copyscope-static",
		"../libexec/copyscope/copyscope-static",
		"aarch64/copyscope-static",
		"../libexec/copyscope/copyscope-static-aarch64" };
	size_t i, nrel = a == BOOT_ARCH_AARCH64 ? 4 : 2;
	char self[PATH_MAX];
	ssize_t n;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		snprintf(err, errlen, "/proc/self/exe: %s; give "
			 "--copyscope-static PATH", strerror(errno));
		return BOOT_AB_FAULT_USAGE;
	}
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	for (i = 0; i < nrel; i++) {
		snprintf(cs, cslen, "%s/%s", self, rel[i]);
		if (is_arch(cs, a))
			return BOOT_AB_OK;
	}
	if (a == BOOT_ARCH_AARCH64)
		snprintf(err, errlen, "no static aarch64 copyscope beside "
			 "this one (%s/copyscope-static, %s/aarch64/"
			 "copyscope-static) nor in %s/../libexec/copyscope/ "
			 "(copyscope-static-aarch64): run 'make "
			 "static-aarch64', or give --copyscope-static PATH",
			 self, self, self);
	else
		snprintf(err, errlen, "no static x86_64 copyscope beside "
			 "this one (%s/copyscope-static) nor in %s/../libexec/"
			 "copyscope/: run 'make static', or give "
			 "--copyscope-static PATH", self, self);
	return BOOT_AB_FAULT_USAGE;
}

/*
 * The executable at path (the value of opt) is of architecture a: 0, or
 * -1 with why in err (what it is, and what to give instead: hint).
 */
static int check_arch(const char *opt, const char *path, enum boot_arch a,
		      const char *hint, char *err, size_t errlen)
{
	enum boot_arch got;
	char why[PATH_MAX + 64];
	int r = boot_elf_arch(path, &got, why, sizeof(why));

	if (r == 0 && got == a)
		return 0;
	snprintf(err, errlen, "%s: %s is %s%s, the guest is %s: %s", opt,
		 path, r < 0 ? "not usable: " : r > 0 ? "for " :
		 "an executable for ", r != 0 ? why :
		 boot_arch_info(got)->name, boot_arch_info(a)->name, hint);
	return -1;
}

/* The guest's static files: busybox and copyscope, both static. */
static enum boot_ab_fault guest_files(const struct boot_ab_spec *spec,
				      struct boot_ab_result *res, char *err,
				      size_t errlen, const char **hint)
{
	char *cs = res->cstatic, *bb = res->busybox, why[512];
	int st;

	if (!spec->cstatic) {
		enum boot_ab_fault f = find_cstatic(res->arch, cs,
						    sizeof(res->cstatic), err,
						    errlen);

		if (f)
			return f;
	} else if (boot_ab_check_file("--copyscope-static", spec->cstatic,
				      cs, sizeof(res->cstatic), err,
				      errlen) != 0) {
		return BOOT_AB_FAULT_USAGE;
	}
	if (boot_ab_check_file("--busybox", spec->busybox, bb,
			       sizeof(res->busybox), err, errlen) != 0) {
		*hint = "(Debian: apt-get install busybox-static, or "
			"scripts/install-deps.sh)";
		return BOOT_AB_FAULT_USAGE;
	}
	st = boot_elf_is_static(cs, why, sizeof(why));
	if (st != 1) {
		snprintf(err, errlen, "--copyscope-static: %s", st < 0 ? why :
			 "it is dynamically linked; the guest has no "
			 "libraries (make static builds "
			 "build/copyscope-static)");
		return BOOT_AB_FAULT_USAGE;
	}
	st = boot_elf_is_static(bb, why, sizeof(why));
	if (st != 1) {
		snprintf(err, errlen, "--busybox: %s", st < 0 ? why :
			 "it is dynamically linked; the guest has no "
			 "libraries (Debian's busybox-static is static)");
		return BOOT_AB_FAULT_USAGE;
	}
	if (check_arch("--copyscope-static", cs, res->arch,
		       res->arch == BOOT_ARCH_AARCH64 ? "make static-aarch64 "
		       "builds build/aarch64/copyscope-static" : "make static "
		       "builds build/copyscope-static", err, errlen) != 0)
		return BOOT_AB_FAULT_USAGE;
	if (check_arch("--busybox", bb, res->arch,
		       res->arch == BOOT_ARCH_AARCH64 ? "scripts/fetch-kernel.sh "
		       "--arch arm64 puts Debian's arm64 busybox-static into "
		       "build/kernel-arm64/busybox" : "Debian's busybox-static "
		       "is /bin/busybox", err, errlen) != 0) {
		return BOOT_AB_FAULT_USAGE;
	}
	return BOOT_AB_OK;
}

/*
 * The guests' architecture into res (arch, arch_why): spec->arch, checked
 * against what each side's kernel image says it is; "auto" from the
 * images.  An image of neither kind (compressed, or not a kernel) is
 * booted as the asked or the host's architecture, with a warning.
 */
static enum boot_ab_fault guest_arch(const struct boot_ab_spec *spec,
				     struct boot_ab_result *res, char *err,
				     size_t errlen)
{
	bool asked = strcmp(spec->arch, "auto") != 0, known = asked;
	enum boot_arch a = boot_host_arch(), k;
	char why[PATH_MAX + 64];
	int i, unknown[2] = { 0, 0 };

	if (asked && boot_arch_parse(spec->arch, &a) != 0) {
		snprintf(err, errlen, "--arch: '%s' is not one of auto, "
			 "x86_64, aarch64", spec->arch);
		return BOOT_AB_FAULT_USAGE;
	}
	snprintf(res->arch_why, sizeof(res->arch_why), "%s", asked ?
		 "asked for (--arch)" : "the host's: no image says");
	for (i = 0; i < spec->nsides && i < 2; i++) {
		const char *img = spec->side[i].kernel_abs;
		const char *opt = i ? "--kernel-b" : "--kernel";
		int r = boot_kernel_arch(img, &k, why, sizeof(why));

		if (r < 0) {
			snprintf(err, errlen, "%s: %s", opt, why);
			return BOOT_AB_FAULT_USAGE;
		}
		unknown[i] = r > 0;
		if (r > 0)
			continue;
		if (known && k != a) {
			snprintf(err, errlen, "%s: %s is an %s kernel (%s), "
				 "but %s is %s", opt, img,
				 boot_arch_info(k)->name,
				 boot_arch_info(k)->image, asked ? "--arch" :
				 "side A's kernel", boot_arch_info(a)->name);
			return BOOT_AB_FAULT_USAGE;
		}
		if (!known)
			snprintf(res->arch_why, sizeof(res->arch_why),
				 "%s is an %s", opt, k == BOOT_ARCH_AARCH64 ?
				 "arm64 Image" : "x86 bzImage");
		a = k;
		known = true;
	}
	for (i = 0; i < spec->nsides && i < 2; i++)
		if (unknown[i])
			msg_error("warning: %s: %s is neither an x86 bzImage "
				  "nor an arm64 Image (by its header); it is "
				  "booted as %s (%s)", i ? "--kernel-b" :
				  "--kernel", spec->side[i].kernel_abs,
				  boot_arch_info(a)->name, asked ? "--arch" :
				  known ? "the other side's" :
				  "the host's; --arch to say");
	res->arch = a;
	return BOOT_AB_OK;
}

/* The summary of the qemu command stored with each run. */
static char *qemu_summary(const struct boot_ab_spec *spec,
			  const struct boot_ab_result *res)
{
	const char *m = boot_qemu_machine(res->arch, res->accel);
	enum boot_accel acc = res->accel;
	size_t i, len = 256, o;
	char *s;

	for (i = 0; i < spec->nqemu_args; i++)
		len += strlen(spec->qemu_args[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	o = (size_t)snprintf(s, len, "%s%s%s -accel %s -cpu %s -smp %d -m %dM",
			     res->qemu, m ? " -M " : "", m ? m : "",
			     acc == BOOT_ACCEL_KVM ? "kvm" : "tcg",
			     boot_qemu_cpu(res->arch, acc), spec->smp,
			     spec->memory_mib);
	for (i = 0; i < spec->nqemu_args; i++)
		o += (size_t)snprintf(s + o, len - o, " %s",
				      spec->qemu_args[i]);
	return s;
}

enum boot_ab_fault boot_ab_prepare(const struct boot_ab_spec *spec,
				   struct boot_ab_result *res, char *err,
				   size_t errlen, const char **hint)
{
	struct boot_kvm_probe probe;
	enum boot_ab_fault f;
	int i;

	memset(res, 0, sizeof(*res));
	*hint = NULL;
	f = guest_arch(spec, res, err, errlen);
	if (f)
		return f;
	for (i = 0; i < spec->nsides && i < 2; i++)
		if (boot_setting_foreign(i ? "--append-b" : "--append",
					 spec->side[i].append, res->arch, err,
					 errlen))
			return BOOT_AB_FAULT_USAGE;
	f = guest_files(spec, res, err, errlen, hint);
	if (f)
		return f;
	res->qemu = spec->qemu ? spec->qemu : boot_arch_info(res->arch)->qemu;
	if (util_find_program(res->qemu, NULL, 0) != 0) {
		snprintf(err, errlen, "%s: not found (Debian: apt-get install "
			 "%s, or scripts/install-deps.sh)", res->qemu,
			 boot_arch_info(res->arch)->qemu_pkg);
		return BOOT_AB_FAULT_HOST;
	}
	boot_kvm_probe(&probe);
	if (boot_pick_accel(spec->accel, res->arch, &probe, &res->accel,
			    res->accel_why, sizeof(res->accel_why)) != 0) {
		snprintf(err, errlen, "--accel kvm: %s", res->accel_why);
		return BOOT_AB_FAULT_HOST;
	}
	res->emulated = res->accel == BOOT_ACCEL_TCG;
	if (res->emulated)
		snprintf(res->accel_text, sizeof(res->accel_text), "tcg (%s)",
			 res->accel_why);
	else
		snprintf(res->accel_text, sizeof(res->accel_text), "kvm");
	res->qemu_summary = qemu_summary(spec, res);
	res->script = boot_init_script(boot_arch_info(res->arch)->data_tty,
				       spec->run_args + 1, spec->nrun_args - 1);
	if (!res->qemu_summary || !res->script) {
		snprintf(err, errlen, "out of memory");
		return BOOT_AB_FAULT_MEMORY;
	}
	return BOOT_AB_OK;
}

void boot_ab_result_free(struct boot_ab_result *res)
{
	int i;

	for (i = 0; i < 2; i++) {
		size_t k;

		for (k = 0; k < res->side[i].nenvs; k++)
			env_free(&res->side[i].envs[k]);
		free(res->side[i].envs);
		free(res->side[i].run_ids);
	}
	free(res->qemu_summary);
	free(res->script);
	memset(res, 0, sizeof(*res));
}
