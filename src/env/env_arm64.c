/*
 * env_arm64.c - what the environment records of an arm64 CPU
 * (env_arm64.h): the MIDR with the implementer's and the part's names,
 * the HWCAP features, PAC and BTI, the SVE vector length, PAN (the
 * kernel log's "detected" line, else whether the kernel was built with
 * it) and KPTI (the kernel log's lines).  On other architectures it
 * records nothing.
 *
 * On arm64 /proc/cpuinfo has no "model name" and its "Features" line is
 * the HWCAP list; under qemu-user it is the host's file, so this reads
 * what the process itself sees: the MIDR from sysfs, else through the
 * kernel's (or the emulator's) emulation of `mrs midr_el1`, and the
 * features from the auxiliary vector.
 */
#include "env/env_arm64.h"

#ifdef __aarch64__

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "util/array.h"

#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1UL << 11)
#endif
#ifndef PR_SVE_GET_VL
#define PR_SVE_GET_VL 51
#endif
#ifndef PR_SVE_VL_LEN_MASK
#define PR_SVE_VL_LEN_MASK 0xffff
#endif

struct midr_name {
	unsigned implementer, part;	/* part ~0u: the implementer */
	const char *name;
};

/* Implementers, then parts (arch/arm64/include/asm/cputype.h). */
static const struct midr_name midr_names[] = {
	{ 0x00, ~0u, "software-defined (implementer 0: an emulator?)" },
	{ 0x41, ~0u, "ARM" }, { 0x42, ~0u, "Broadcom" },
	{ 0x43, ~0u, "Cavium" }, { 0x46, ~0u, "Fujitsu" },
	{ 0x48, ~0u, "HiSilicon" }, { 0x4e, ~0u, "NVIDIA" },
	{ 0x50, ~0u, "APM" }, { 0x51, ~0u, "Qualcomm" },
	{ 0x61, ~0u, "Apple" }, { 0x6d, ~0u, "Microsoft" },
	{ 0xc0, ~0u, "Ampere" },
	{ 0x41, 0xd03, "Cortex-A53" }, { 0x41, 0xd07, "Cortex-A57" },
	{ 0x41, 0xd08, "Cortex-A72" }, { 0x41, 0xd0b, "Cortex-A76" },
	{ 0x41, 0xd0c, "Neoverse N1" }, { 0x41, 0xd40, "Neoverse V1" },
	{ 0x41, 0xd41, "Cortex-A78" }, { 0x41, 0xd44, "Cortex-X1" },
	{ 0x41, 0xd46, "Cortex-A510" }, { 0x41, 0xd47, "Cortex-A710" },
	{ 0x41, 0xd48, "Cortex-X2" }, { 0x41, 0xd49, "Neoverse N2" },
	{ 0x41, 0xd4f, "Neoverse V2" }, { 0x41, 0xd84, "Neoverse V3" },
	{ 0x41, 0xd8e, "Neoverse N3" },
	{ 0x43, 0x0af, "ThunderX2" }, { 0x46, 0x001, "A64FX" },
	{ 0x48, 0xd01, "TSV110 (Kunpeng 920)" },
	{ 0x4e, 0x004, "Carmel" }, { 0x51, 0xc00, "Falkor" },
	{ 0xc0, 0xac3, "AmpereOne" },
};

/* HWCAP and HWCAP2 bit names (arch/arm64/include/uapi/asm/hwcap.h). */
static const char *const hwcap_names[] = {
	"fp", "asimd", "evtstrm", "aes", "pmull", "sha1", "sha2", "crc32",
	"atomics", "fphp", "asimdhp", "cpuid", "asimdrdm", "jscvt", "fcma",
	"lrcpc", "dcpop", "sha3", "sm3", "sm4", "asimddp", "sha512", "sve",
	"asimdfhm", "dit", "uscat", "ilrcpc", "flagm", "ssbs", "sb", "paca",
	"pacg",
};
static const char *const hwcap2_names[] = {
	"dcpodp", "sve2", "sveaes", "svepmull", "svebitperm", "svesha3",
	"svesm4", "flagm2", "frint", "svei8mm", "svef32mm", "svef64mm",
	"svebf16", "i8mm", "bf16", "dgh", "rng", "bti", "mte",
};

/* The features that matter to copies, as cpu.flags lists x86's. */
static const char *const copy_features[] = {
	"asimd", "atomics", "sve", "sve2", "mte", "paca", "bti",
};

static const char *midr_lookup(unsigned impl, unsigned part)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(midr_names); i++)
		if (midr_names[i].implementer == impl &&
		    midr_names[i].part == part)
			return midr_names[i].name;
	return NULL;
}

/* The MIDR of CPU 0; 0 when it cannot be read. */
static uint64_t read_midr(const char **how)
{
	const char *path =
		"/sys/devices/system/cpu/cpu0/regs/identification/midr_el1";
	char line[64], *end;
	FILE *f = fopen(path, "re");

	if (f) {
		bool got = fgets(line, sizeof(line), f) != NULL;
		unsigned long long v;

		(void)fclose(f);
		errno = 0;
		v = got ? strtoull(line, &end, 16) : 0;
		if (got && end != line && errno == 0) {
			*how = "sysfs";
			return v;
		}
	}
	if (getauxval(AT_HWCAP) & HWCAP_CPUID) {
		uint64_t m;

		__asm__ volatile("mrs %0, midr_el1" : "=r"(m));
		*how = "mrs midr_el1 (trapped and emulated by the kernel, "
			"or by an emulator)";
		return m;
	}
	*how = "none";
	return 0;
}

/* names of the set bits of caps, space-separated, appended to buf. */
static void cap_words(unsigned long caps, const char *const *names,
		      size_t n, char *buf, size_t len)
{
	size_t i, off = strlen(buf);

	for (i = 0; i < n && off < len; i++)
		if (caps & (1UL << i))
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? " " : "", names[i]);
}

static bool has_word(const char *words, const char *w)
{
	size_t n = strlen(w);
	const char *p = words;

	while ((p = strstr(p, w)) != NULL) {
		if ((p == words || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

/* The kernel's line when its CPU feature code turned PAN on. */
#define PAN_DETECTED "CPU features: detected: Privileged Access Never"
/* ... and KPTI (arm64_features[]: ARM64_UNMAP_KERNEL_AT_EL0). */
#define KPTI_DETECTED "CPU features: detected: Kernel page table " \
	"isolation (KPTI)"
/* unmap_kernel_at_el0(): "forced ON|OFF by kpti command line option"
   (or "by mitigations=off") */
#define KPTI_FORCED "kernel page table isolation forced "

/*
 * The kernel log (klogctl, which needs CAP_SYSLOG where dmesg_restrict
 * is set; the log may also have wrapped since boot), malloc'd; NULL with
 * errno set when it cannot be read.
 */
static char *kernel_log(void)
{
	int size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *log;
	int n;

	if (size <= 0)
		return NULL;
	log = malloc((size_t)size + 1);
	if (!log)
		return NULL;
	n = klogctl(3, log, size);		/* SYSLOG_ACTION_READ_ALL */
	if (n < 0) {
		int e = errno;

		free(log);
		errno = e;
		return NULL;
	}
	log[n] = '\0';
	return log;
}

/* The log's line that holds mark, from mark to its end, into out. */
static void log_line(const char *log, const char *mark, char *out,
		     size_t len)
{
	const char *p = strstr(log, mark);
	size_t n = p ? strcspn(p, "\r\n") : 0;

	snprintf(out, len, "%.*s", (int)n, p ? p : "");
}

/*
 * cpu.arm64.kpti: whether the kernel unmaps itself at EL0 (KPTI), from
 * the line the kernel logs when it does ("detected: Kernel page table
 * isolation (KPTI)"), and the "forced ON|OFF by ..." line where kpti= or
 * mitigations=off forced it.  User space cannot see KPTI otherwise;
 * cpu.vuln.meltdown says "Not affected" on a CPU without Meltdown even
 * where kpti=1 forced it on.  A log without any "CPU features:" line
 * (wrapped, or the x86 host's under qemu-user) says nothing.
 */
static void kpti_text(const char *log, int log_errno, char *buf, size_t len)
{
	char forced[160];

	if (!log) {
		snprintf(buf, len, "unknown (the kernel log cannot be read: "
			 "%s)", strerror(log_errno));
		return;
	}
	if (!strstr(log, "CPU features: ")) {
		/* an arm64 kernel logs its CPU features at boot */
		snprintf(buf, len, "unknown (no \"CPU features:\" line in "
			 "the kernel log: wrapped since boot, or not an arm64 "
			 "kernel's log: emulated?)");
		return;
	}
	log_line(log, KPTI_FORCED, forced, sizeof(forced));
	if (strstr(log, KPTI_DETECTED))
		snprintf(buf, len, "on (the kernel log: \"" KPTI_DETECTED
			 "\"%s%s%s)", forced[0] ? "; \"" : "", forced,
			 forced[0] ? "\"" : "");
	else if (forced[0])
		snprintf(buf, len, "off (the kernel log: \"%s\")", forced);
	else
		snprintf(buf, len, "off (no \"" KPTI_DETECTED "\" in the "
			 "kernel log)");
}

/* cpu.arm64.pan: the kernel log's "detected" line (the CPU has PAN and
   the kernel uses it), else what the kernel config (/proc/config.gz,
   /boot/config-R) says of CONFIG_ARM64_PAN. */
static void pan_text(const char *log, char *buf, size_t len)
{
	struct utsname un;
	char path[300], line[256];
	bool arm64 = false, pan = false;
	gzFile f;

	if (log && strstr(log, PAN_DETECTED)) {
		snprintf(buf, len, "on (the kernel log: \"" PAN_DETECTED
			 "\")");
		return;
	}
	f = gzopen("/proc/config.gz", "rb");
	if (!f && uname(&un) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", un.release);
		f = gzopen(path, "rb");	/* reads plain files too */
	} else {
		snprintf(path, sizeof(path), "/proc/config.gz");
	}
	if (!f) {
		snprintf(buf, len, "unknown (no kernel config to read)");
		return;
	}
	while (gzgets(f, line, sizeof(line))) {
		arm64 |= strncmp(line, "CONFIG_ARM64=y", 14) == 0;
		pan |= strncmp(line, "CONFIG_ARM64_PAN=y", 18) == 0;
	}
	gzclose(f);
	if (!arm64)
		snprintf(buf, len, "unknown (%s is not an arm64 kernel's "
			 "config: emulated?)", path);
	else
		snprintf(buf, len, "%s (CONFIG_ARM64_PAN %s in %s; used where "
			 "the CPU has it)", pan ? "on" : "off",
			 pan ? "=y" : "not set", path);
}

int env_arm64_capture(struct env *env)
{
	const char *how, *impl, *part;
	uint64_t midr = read_midr(&how);
	unsigned im = (unsigned)(midr >> 24) & 0xff;
	unsigned pn = (unsigned)(midr >> 4) & 0xfff;
	unsigned var = (unsigned)(midr >> 20) & 0xf, rev = midr & 0xf;
	unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
	char model[160], v[512] = "", flags[128] = "", kpti[256], *log;
	int vl = prctl(PR_SVE_GET_VL, 0, 0, 0, 0), log_errno;
	size_t i;

	impl = midr_lookup(im, ~0u);
	part = midr_lookup(im, pn);
	if (!midr)
		snprintf(model, sizeof(model), "unavailable (no MIDR: "
			 "neither sysfs nor the cpuid feature)");
	else
		snprintf(model, sizeof(model), "%s%s%s r%up%u (MIDR 0x%08llx, "
			 "implementer 0x%02x, part 0x%03x)",
			 impl ? impl : "unknown implementer",
			 part ? " " : "", part ? part : "", var, rev,
			 (unsigned long long)midr, im, pn);
	cap_words(hw, hwcap_names, ARRAY_SIZE(hwcap_names), v, sizeof(v));
	cap_words(hw2, hwcap2_names, ARRAY_SIZE(hwcap2_names), v, sizeof(v));
	for (i = 0; i < ARRAY_SIZE(copy_features); i++)
		if (has_word(v, copy_features[i]))
			snprintf(flags + strlen(flags),
				 sizeof(flags) - strlen(flags), "%s%s",
				 flags[0] ? " " : "", copy_features[i]);
	if (env_set(env, "cpu.model", model) ||
	    env_set(env, "cpu.microcode", "n/a (arm64: see cpu.model's rNpN)") ||
	    env_set(env, "cpu.flags", flags[0] ? flags : "none") ||
	    env_set(env, "cpu.arm64.midr_source", how) ||
	    env_set(env, "cpu.arm64.hwcap", v[0] ? v : "none"))
		return -1;
	snprintf(v, sizeof(v), "%s", !(hw & (1UL << 30)) ? "no" :
		 hw & (1UL << 31) ? "yes (address and generic keys)" :
		 "yes (address keys)");
	if (env_set(env, "cpu.arm64.pac", v) ||
	    env_set(env, "cpu.arm64.bti", hw2 & (1UL << 17) ? "yes" : "no"))
		return -1;
	if (vl >= 0)
		snprintf(v, sizeof(v), "%d bits", (vl & PR_SVE_VL_LEN_MASK) * 8);
	else
		snprintf(v, sizeof(v), "none (no SVE)");
	if (env_set(env, "cpu.arm64.sve_vector_length", v))
		return -1;
	log = kernel_log();
	log_errno = errno;
	pan_text(log, v, sizeof(v));
	kpti_text(log, log_errno, kpti, sizeof(kpti));
	free(log);
	if (env_set(env, "cpu.arm64.pan", v) ||
	    env_set(env, "cpu.arm64.kpti", kpti))
		return -1;
	return 0;
}

#else

int env_arm64_capture(struct env *env)
{
	(void)env;
	return 0;
}

#endif
