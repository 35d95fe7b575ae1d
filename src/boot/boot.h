/*
 * boot.h - boot A/B (`copyscope boot`): the guest's architecture, its
 * initramfs and /init script, the qemu process and its accelerator, the
 * channel that brings a boot's results home, and the checks that a side's
 * kernel setting took effect.  The loop over the boots is
 * src/session/boot_ab.c, the command src/cli/boot.c.
 *
 * The guest: busybox-static and a static copyscope (make static, or make
 * static-aarch64 for an arm64 guest) in a cpio archive; /init mounts
 * /proc, /sys, /dev and /tmp, runs the suite into a database in /tmp, and
 * writes to the data port (raw): on x86-64 the second serial port, ttyS1;
 * on arm64 (qemu's virt machine, whose one PL011 UART is the console) a
 * PCI 16550, ttyS0:
 *
 *   copyscope-boot-begin 1
 *   release: RELEASE            uname -r
 *   cmdline: CMDLINE            /proc/cmdline
 *   boot_id: ID                 /proc/sys/kernel/random/boot_id
 *   unknown: LINE               the kernel's "Unknown kernel command line
 *                               parameters" line ("" when none)
 *   run-rc: N                   exit status of copyscope run
 *   copyscope-export-begin
 *   ...                         copyscope export of the run (JSON lines)
 *   copyscope-export-end N      exit status of copyscope export
 *   copyscope-boot-end
 *
 * then reboots (qemu runs with -no-reboot, so it exits).  The kernel's
 * console (ttyS0 on x86-64, ttyAMA0 on arm64) is kept to tell a panic
 * from a hang and to show what went wrong.
 */
#ifndef COPYSCOPE_BOOT_H
#define COPYSCOPE_BOOT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "env/env.h"

/* ---- the guest's architecture (arch.c) ---- */

enum boot_arch { BOOT_ARCH_X86_64, BOOT_ARCH_AARCH64, BOOT_NARCHS };

/* What differs between the guests of the two architectures. */
struct boot_arch_info {
	const char *name;		/* "x86_64", "aarch64" (uname -m) */
	const char *qemu;		/* the default qemu binary */
	const char *qemu_pkg;		/* Debian's package of it */
	const char *console_tty;	/* the kernel's console */
	const char *data_tty;		/* the guest's data port */
	const char *base_append;	/* console=... panic=-1 */
	const char *image;		/* what its kernel image is called */
};

const struct boot_arch_info *boot_arch_info(enum boot_arch a);

/* The architecture this copyscope was built for. */
enum boot_arch boot_host_arch(void);

/* "x86_64" or "aarch64" into *out: 0, or -1 for any other word. */
int boot_arch_parse(const char *word, enum boot_arch *out);

/*
 * The architecture of the kernel image at path, from its boot header: an
 * x86 bzImage ("HdrS" at 0x202) or an arm64 Image ("ARM\x64" at 0x38).
 * Returns 0 with *out set; 1 when the file is neither (a compressed or
 * unknown image: the caller decides); -1 when it cannot be read (message
 * in err).
 */
int boot_kernel_arch(const char *path, enum boot_arch *out, char *err,
		     size_t errlen);

/*
 * The ELF machine of the executable at path: 0 with *out set (x86-64 or
 * AArch64); 1 another machine (its e_machine number in err); -1 not
 * readable or not a 64-bit ELF (message in err).
 */
int boot_elf_arch(const char *path, enum boot_arch *out, char *err,
		  size_t errlen);

/* ---- the initramfs (initramfs.c) ---- */

/*
 * The guest's /init: a busybox sh script that runs
 * `copyscope run --db /tmp/guest.db ARGS...` (run_args[0..nargs), each
 * quoted for the shell) and reports on /dev/DATA_TTY (data_tty, e.g.
 * "ttyS1") as above.  Returns a malloc'ed string, NULL when out of
 * memory.
 */
char *boot_init_script(const char *data_tty, char *const *run_args,
		       size_t nargs);

/*
 * Quote s for a POSIX shell: '...' with each ' written as '\''.  Returns
 * a malloc'ed string, NULL when out of memory.
 */
char *boot_shell_quote(const char *s);

/*
 * Write the initramfs to path: a cpio (newc) archive, written with
 * libarchive, holding /init (script), /bin/busybox (from busybox, which
 * must be a static executable), /bin/copyscope (from copyscope_static),
 * /dev/console and the empty directories the script mounts on.  Returns
 * 0, or -1 with a message in err naming the file at fault.
 */
int boot_write_initramfs(const char *path, const char *script,
			 const char *busybox, const char *copyscope_static,
			 char *err, size_t errlen);

/*
 * Whether the ELF executable at path is statically linked (no program
 * interpreter): 1 yes, 0 no, -1 not readable or not ELF (message in err).
 */
int boot_elf_is_static(const char *path, char *err, size_t errlen);

/* ---- the accelerator and the qemu process (qemu.c) ---- */

enum boot_accel { BOOT_ACCEL_KVM, BOOT_ACCEL_TCG };

/* What the host offers for KVM, as probed (or given by a test). */
struct boot_kvm_probe {
	enum boot_arch host;		/* the host's architecture */
	bool dev_present;		/* /dev/kvm exists */
	int dev_errno;			/* 0: opened read-write, else why not */
	bool cpu_virt;			/* vmx or svm in /proc/cpuinfo */
	bool pvm;			/* /sys/module/kvm_pvm: a PVM
					   hypervisor, not hardware KVM */
};

/* Probe this machine into p. */
void boot_kvm_probe(struct boot_kvm_probe *p);

/*
 * Choose the accelerator for want ("auto", "kvm" or "tcg") and a guest of
 * architecture guest, given probe p.  A guest of another architecture
 * than the host's is TCG (KVM runs only the host's own instruction set):
 * "auto" says so in why, "kvm" is -1 with it.  Otherwise "auto": KVM when
 * /dev/kvm opens and is hardware KVM (on x86-64 vmx/svm and not PVM; on
 * arm64 any, the CPU's EL2), else TCG with the reason in why.  "kvm": KVM
 * when /dev/kvm opens, else -1 with the reason in why.  "tcg": TCG.
 * Returns 0 with *out set, or -1.
 */
int boot_pick_accel(const char *want, enum boot_arch guest,
		    const struct boot_kvm_probe *p, enum boot_accel *out,
		    char *why, size_t whylen);

/*
 * The qemu machine (-M) for a guest of arch a under accelerator acc: NULL
 * for x86-64 (qemu's default pc), "virt" for arm64 ("virt,gic-version=host"
 * under KVM, the host's interrupt controller).
 */
const char *boot_qemu_machine(enum boot_arch a, enum boot_accel acc);

/*
 * The qemu CPU (-cpu): "host" under KVM; under TCG "max" (every feature
 * qemu emulates), on arm64 "max,pauth-impdef=on" (pointer authentication
 * with qemu's cheap implementation-defined algorithm instead of QARMA,
 * which emulates many times slower; the guest still sees PAC).
 */
const char *boot_qemu_cpu(enum boot_arch a, enum boot_accel acc);

/* One qemu invocation. */
struct boot_qemu {
	const char *qemu;		/* binary, searched in PATH */
	enum boot_arch arch;		/* the guest's */
	enum boot_accel accel;
	int smp;
	int memory_mib;
	const char *kernel;		/* bzImage or arm64 Image */
	const char *initramfs;
	const char *append;		/* the whole kernel command line */
	const char *console_path;	/* the console goes here: -serial
					   (ttyS0; arm64: ttyAMA0) */
	const char *data_path;		/* the data port: a second -serial
					   (ttyS1); arm64: -device
					   pci-serial (ttyS0) */
	const char *log_path;		/* qemu's own stdout and stderr */
	const char *const *extra;	/* --qemu-arg values */
	size_t nextra;
};

/*
 * The argument vector of q, NULL-terminated, in a malloc'ed array of
 * malloc'ed strings (free with boot_free_argv); NULL when out of memory.
 */
char **boot_qemu_argv(const struct boot_qemu *q);
void boot_free_argv(char **argv);

/* How a qemu process ended. */
enum boot_end {
	BOOT_END_EXITED,		/* it exited by itself (status) */
	BOOT_END_TIMEOUT,		/* killed after the timeout */
	BOOT_END_INTERRUPTED,		/* killed because *stop was set */
	BOOT_END_SPAWN_FAILED,		/* it could not be started */
};

/*
 * Run argv (argv[0] searched in PATH) in its own process group, stdin
 * from /dev/null, stdout and stderr to log_path, and wait for it for at
 * most timeout_s seconds, watching *stop (set by a signal handler): on
 * the timeout or a stop it is sent SIGTERM, then SIGKILL after 2 s, and
 * always reaped.  *status gets the wait status when it exited by itself;
 * *wall_s the seconds it ran.  A failure to start is BOOT_END_SPAWN_FAILED
 * with the errno text in err.
 */
enum boot_end boot_run_qemu(char *const *argv, const char *log_path,
			    double timeout_s,
			    const volatile sig_atomic_t *stop, int *status,
			    double *wall_s, char *err, size_t errlen);

/* ---- what comes back (guest.c) ---- */

/* A boot's report, parsed from the data channel (pointers into it). */
struct boot_report {
	bool begun;			/* the begin line arrived */
	bool ended;			/* the end line arrived */
	char release[128];
	char cmdline[2048];
	char boot_id[64];
	char unknown[1024];		/* the unknown parameters, as the
					   kernel quoted them ("" none) */
	int run_rc;			/* -1 not reported */
	int export_rc;			/* -1 not reported */
	const char *export_text;	/* the export lines, NULL none */
	size_t export_len;
};

/*
 * Parse the data channel's bytes buf[0..len) into r (whose export_text
 * points into buf).  Never fails: what did not arrive stays unset
 * (begun/ended false, rc -1, export_text NULL).
 */
void boot_parse_report(const char *buf, size_t len, struct boot_report *r);

/*
 * From the "Unknown kernel command line parameters "a b", will be passed
 * to user space." line (with or without the dmesg time stamp), the
 * quoted list into out ("a b"); "" when line is not that message.
 */
void boot_unknown_params(const char *line, char *out, size_t outlen);

/*
 * The words of asked (a side's --append) that are not words of the
 * guest's cmdline, space separated, into missing ("" when all are
 * there).
 */
void boot_cmdline_missing(const char *asked, const char *cmdline,
			  char *missing, size_t len);

/*
 * Why the console log says the guest died, from its text: the kernel's
 * "Kernel panic - not syncing: ..." line (or an Oops/BUG line) into why;
 * returns true when found.
 */
bool boot_console_failure(const char *console, size_t len, char *why,
			  size_t whylen);

/* ---- did the setting take effect (guest.c) ---- */

/*
 * The settings whose effect can be seen in the environment: x86's
 * (smap, smep, pti), arm64's (pan, kpti) and both's (mitigations).
 */
enum boot_setting {
	BOOT_SET_SMAP,		/* cpu.flags: smap */
	BOOT_SET_SMEP,		/* cpu.flags: smep */
	BOOT_SET_PTI,		/* cpu.flags: pti; cpu.vuln.meltdown */
	BOOT_SET_MITIGATIONS,	/* cpu.vuln.* */
	BOOT_SET_PAN,		/* arm64: cpu.arm64.pan (arm64.nopan) */
	BOOT_SET_KPTI,		/* arm64: cpu.arm64.kpti (kpti=) */
	BOOT_NSETTINGS
};

/* "smap", "smep", "pti", "mitigations", "pan", "kpti". */
const char *boot_setting_name(enum boot_setting s);

/* Whether setting s is one of the guests of architecture a. */
bool boot_setting_applies(enum boot_setting s, enum boot_arch a);

/*
 * Whether append (the value of opt, "--append" or "--append-b") asks for
 * a setting of another architecture than a's (x86's nosmap, nosmep,
 * nopti, pti=, clearcpuid= of an arm64 guest; arm64's arm64.*, kpti= of
 * an x86 one), or a kpti= that is neither on nor off: a message naming
 * the word and what a's guests take into err, and true.
 */
bool boot_setting_foreign(const char *opt, const char *append,
			  enum boot_arch a, char *err, size_t len);

/*
 * The words of append that ask for setting s, space separated, into out
 * ("" when none): nosmap, clearcpuid=...smap..., nosmep, nopti, pti=...,
 * mitigations=..., arm64.nopan, kpti=... .  Returns true when there is
 * any.
 */
bool boot_setting_words(const char *append, enum boot_setting s, char *out,
			size_t len);

/*
 * What setting s looks like in one guest environment, as a string into
 * out: for smap/smep/pti "flag present"/"flag absent" (from cpu.flags),
 * plus for pti the meltdown file; for mitigations the cpu.vuln.* values
 * joined; for pan cpu.arm64.pan; for kpti cpu.arm64.kpti and the
 * meltdown file.  "" when the environment does not say.
 */
void boot_setting_state(const struct env *env, enum boot_setting s,
			char *out, size_t len);

/*
 * A check for one side alone: when append asks to remove smap or smep
 * and the guest's cpu.flags still has it, when it asks arm64.nopan and
 * cpu.arm64.pan is still on, or when its kpti= (or mitigations=off)
 * asks for KPTI on or off and cpu.arm64.kpti says the other: a message
 * into msg and true.
 */
bool boot_setting_not_applied(const char *append, const struct env *env,
			      enum boot_setting s, char *msg, size_t len);

#endif
