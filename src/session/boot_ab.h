/*
 * boot_ab.h - the boot A/B loop of `copyscope boot`: a kernel or a boot
 * setting compared across boots.  The command (src/cli/boot.c) parses its
 * options into a struct boot_ab_spec and calls, in order,
 * boot_ab_prepare() (the guest's files, qemu, the accelerator),
 * boot_ab_run() (the boots) and boot_ab_print_summary().
 *
 * Each boot is a fresh qemu guest (src/boot/: initramfs, qemu, what comes
 * back) that runs the suite with a static copyscope and sends its run home
 * over the second serial port; the run is imported into the host's store
 * (results/exchange.c, as `import` does) tagged with its side, with the
 * guest's kernel release, command line and boot id as the guest's own
 * environment has them, and boot.* keys saying how it was booted.  Sides
 * alternate boot by boot (A B A B ...) so that drift of the host spreads
 * over both.  A boot that hangs, panics or sends nothing is recorded as a
 * failed run (status failed, boot.failure says why) and the others go on;
 * Ctrl-C stops qemu and keeps the boots already imported; the temporary
 * directory (initramfs, console and channel files) is always removed.
 *
 * The loop writes its progress (one block per boot, the settings checked
 * between the sides) to spec->out as it goes, and its warnings to stderr
 * as "copyscope: WARNING: ...".
 */
#ifndef COPYSCOPE_BOOT_AB_H
#define COPYSCOPE_BOOT_AB_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "boot/boot.h"
#include "env/env.h"
#include "store/store.h"

#define BOOT_MAX_BOOTS 100
#define BOOT_MAX_QEMU_ARGS 64
#define BOOT_MAX_RUN_ARGS 256
#define BOOT_DEFAULT_BOOTS 3
#define BOOT_DEFAULT_TIMEOUT_S 900.0
#define BOOT_DEFAULT_SMP 2
#define BOOT_DEFAULT_MEMORY_MIB 1024
/* Before the side's own --append, boot_arch_info(arch)->base_append: the
   console on the first serial port (ttyS0; arm64 ttyAMA0; kept, to tell a
   panic from a hang) and a panic that ends qemu at once (-no-reboot)
   instead of waiting for the timeout. */

/* One side: the tag of its runs, its kernel and its parameters. */
struct boot_ab_side {
	const char *name;
	const char *append;		/* "" none */
	const char *kernel;		/* as given */
	char kernel_abs[PATH_MAX];	/* what qemu boots */
};

/* What the options of `copyscope boot` ask for. */
struct boot_ab_spec {
	struct boot_ab_side side[2];
	int nsides;			/* 1 or 2 */
	int boots;			/* per side */
	double timeout_s;		/* one boot, run included */
	const char *accel;		/* auto, kvm, tcg */
	const char *arch;		/* auto (from the kernel image),
					   x86_64, aarch64 */
	int smp, memory_mib;
	const char *qemu;		/* binary, searched in PATH; NULL:
					   the architecture's */
	const char *busybox;		/* a static busybox */
	const char *cstatic;		/* the static copyscope; NULL:
					   beside this binary */
	const char *qemu_args[BOOT_MAX_QEMU_ARGS];
	size_t nqemu_args;
	char *run_args[BOOT_MAX_RUN_ARGS];	/* "run" and its arguments */
	size_t nrun_args;
	const char *run_cmd;		/* the guest's command line, as
					   shown and stored with a failed
					   boot */
	FILE *out;			/* the progress; NULL: stdout */
};

/*
 * Set spec to the defaults: BOOT_DEFAULT_* boots, timeout, CPUs and
 * memory, accel and arch auto, the architecture's qemu, /bin/busybox,
 * progress to stdout, no side, no run arguments.
 */
void boot_ab_spec_init(struct boot_ab_spec *spec);

/*
 * The guest's /init for spec's run arguments (boot_init_script()), for
 * `boot --print-init`, with the data port of spec->arch (the host's
 * when "auto": --print-init reads no kernel): a malloc'ed string, NULL when
 * out of memory.
 */
char *boot_ab_init_script(const struct boot_ab_spec *spec);

/* What the boots of one side brought. */
struct boot_ab_side_runs {
	struct env *envs;		/* guests' environments, imported */
	size_t nenvs;
	int64_t *run_ids;		/* imported runs */
	size_t nruns;
	size_t nfailed;			/* failed boots */
};

/* What boot_ab_prepare() chose and boot_ab_run() did. */
struct boot_ab_result {
	/* prepared */
	enum boot_arch arch;		/* the guests' */
	char arch_why[128];		/* how it was chosen */
	const char *qemu;		/* the qemu binary */
	char cstatic[PATH_MAX], busybox[PATH_MAX];	/* resolved */
	enum boot_accel accel;
	bool emulated;			/* TCG */
	char accel_why[512];		/* why TCG ("" KVM) */
	char accel_text[640];		/* boot.accel: tcg (why), kvm */
	char *qemu_summary;		/* boot.qemu */
	char *script;			/* the guest's /init */
	/* the boots */
	int total;			/* boots asked for */
	int done, nok, nfail;		/* boots made, imported, failed */
	double wall_sum_s;		/* their qemu time */
	double elapsed_s;		/* the loop's time */
	bool interrupted;		/* Ctrl-C (or SIGTERM) */
	bool spawn_failed;		/* qemu did not start */
	struct boot_ab_side_runs side[2];
	int nbad;			/* settings that did not differ between
					   the sides as asked */
};

/* What went wrong in boot_ab_prepare(). */
enum boot_ab_fault {
	BOOT_AB_OK,
	BOOT_AB_FAULT_USAGE,		/* a guest file (--busybox,
					   --copyscope-static) is unusable,
					   or the kernels' architecture is
					   not the one asked or not one */
	BOOT_AB_FAULT_HOST,		/* qemu or KVM (--accel kvm)
					   missing */
	BOOT_AB_FAULT_MEMORY,		/* out of memory */
};

/*
 * Check that path (the value of option opt) is a readable regular file
 * and put its absolute path (realpath) into abs.  Returns 0, or -1 with
 * a message naming opt in err.
 */
int boot_ab_check_file(const char *opt, const char *path, char *abs,
		       size_t len, char *err, size_t errlen);

/*
 * Before any boot: the guests' architecture (spec->arch, or from the
 * sides' kernel images; on an image of neither kind the host's, with a
 * warning on stderr), find and check the guest's files (both static
 * executables of that architecture), find qemu, choose the accelerator
 * (spec->accel) and build what every run records (the qemu summary) and
 * the guest's /init.  res
 * is cleared first.  Returns BOOT_AB_OK, or a fault with the message in
 * err (and for a missing busybox a hint, a second line to print, in
 * *hint; NULL otherwise).  Free res with boot_ab_result_free() either
 * way.
 */
enum boot_ab_fault boot_ab_prepare(const struct boot_ab_spec *spec,
				   struct boot_ab_result *res, char *err,
				   size_t errlen, const char **hint);

/*
 * The boots, on a prepared res: writes the initramfs into a new temporary
 * directory (under $TMPDIR, else /tmp), warns when the guests are
 * emulated, boots spec->boots times per side with the sides alternating,
 * imports each boot's run into st or records the failed boot as a failed
 * run, and with two sides checks that the settings asked differ between
 * their guests.  SIGINT and SIGTERM stop the boot under way (qemu is
 * killed) and the loop; the handlers before are restored after.  Returns
 * 0 with the counts in res (the boots' own failures are counted, not
 * returned), or -1 when nothing could be booted (the temporary directory
 * or the initramfs could not be made; the message is on stderr).
 */
int boot_ab_run(const struct boot_ab_spec *spec, struct store *st,
		struct boot_ab_result *res);

/*
 * The summary after the boots to out: boots done, imported and failed,
 * each side's runs, where they are stored (db_path, its bytes that are
 * not printable shown as \xNN), the compare command, and the settings
 * that did not differ.
 */
void boot_ab_print_summary(FILE *out, const struct boot_ab_spec *spec,
			   const struct boot_ab_result *res,
			   const char *db_path);

/* Free what res holds (safe on a cleared or partly prepared res). */
void boot_ab_result_free(struct boot_ab_result *res);

/* ---- the pieces of the loop, public for the unit tests ---- */

/* How one boot ended. */
enum boot_ab_outcome {
	BOOT_AB_IMPORTED,		/* its run is in the store */
	BOOT_AB_FAILED,			/* a failed boot: recorded as a
					   failed run, unless not_recorded
					   says why not */
	BOOT_AB_INTERRUPTED,		/* stopped by a signal: nothing
					   stored */
	BOOT_AB_SPAWN_FAILED,		/* qemu did not start: nothing
					   stored */
};

/* One boot, as the loop saw it. */
struct boot_ab_boot {
	int no, total;			/* boot no of total, from 1 */
	int side;			/* index into spec->side */
	enum boot_ab_outcome outcome;
	double wall_s;			/* qemu's time */
	int64_t run_id;			/* the run stored (imported or
					   failed); 0 none */
	size_t nresults;		/* imported: its results */
	char why[1024];			/* failed: why; spawn failed: the
					   error */
	char not_recorded[1024];	/* failed, not stored: why not */
	char missing[1024];		/* words of the side's --append
					   not in the guest's /proc/cmdline */
	struct boot_report rep;		/* the guest's report (its
					   export_text is NULL: freed) */
};

/*
 * Boot side `side` once, as boot no of total: run qemu (spec->qemu, else
 * the architecture's, with the kernel, res's initramfs and the
 * architecture's base_append plus the side's --append; the console,
 * channel and qemu log files in tmpdir), judge the end (boot_ab_judge),
 * import the run or record the failure, and write the boot's block to
 * spec->out (warnings also to stderr).  stop is the flag a signal handler
 * sets.  The outcome goes into b and res's counts of the side.
 */
void boot_ab_one(const struct boot_ab_spec *spec, struct store *st,
		 struct boot_ab_result *res, int side, const char *tmpdir,
		 const volatile sig_atomic_t *stop, int no, int total,
		 struct boot_ab_boot *b);

/*
 * Judge how a boot ended from qemu's end and wait status, the data
 * channel's bytes data[0..dlen) (parsed into rep, whose export_text points
 * into data) and the console's text console[0..clen): a timeout (a hung
 * guest), a kernel panic or Oops before the report's end, and a report
 * that never began, was cut short or carries no run are failures, with
 * why (naming the console's telling line) in why.  missing gets the words
 * of append (the side's --append) that the guest's /proc/cmdline lacks,
 * when the report began.  Returns true when the run can be imported.
 */
bool boot_ab_judge(enum boot_end end, int status, double timeout_s,
		   const char *data, size_t dlen, const char *console,
		   size_t clen, const char *append, struct boot_report *rep,
		   char *missing, size_t missing_len, char *why,
		   size_t whylen);

/* How boot_ab_judge()'s why ends when the guest wrote nothing at all. */
#define BOOT_AB_EMPTY_CONSOLE "the console is empty"

/*
 * A why of boot_ab_judge() that ends in BOOT_AB_EMPTY_CONSOLE (the guest
 * never started: qemu itself refused the kernel, its memory, ...) gets
 * "; qemu says: " and the last line of qemu's own output log[0..loglen)
 * appended ("linux kernel too old to load a ram disk"), escaped; any
 * other why is left as it is.
 */
void boot_ab_add_qemu_says(char *why, size_t whylen, const char *log,
			   size_t loglen);

/*
 * Import the run of rep's export text into st, tagged with side `side`'s
 * name and with the boot keys (boot.*, virt.emulated); its environment
 * and id are kept in res->side[side] for the checks between sides.
 * Returns 0 with *run_id and *nresults set, or -1 with why in err (not
 * one run, a run already stored, the store's error).
 */
int boot_ab_import(struct store *st, const struct boot_ab_spec *spec,
		   struct boot_ab_result *res, int side,
		   const struct boot_report *rep, const char *missing,
		   int64_t *run_id, size_t *nresults, char *err,
		   size_t errlen);

/*
 * Store a failed boot of side `side` as a run with status failed and no
 * results: a new random uuid, the side's tag, the guest's boot id,
 * release and command line when it reported them, the boot keys and
 * boot.failure = why; its command line is spec->run_cmd and a note.
 * Returns 0 with *run_id set, or -1 with why in err.
 */
int boot_ab_record_failure(struct store *st, const struct boot_ab_spec *spec,
			   const struct boot_ab_result *res, int side,
			   const struct boot_report *rep, const char *why,
			   int64_t started_ns, int64_t *run_id, char *err,
			   size_t errlen);

/*
 * Between the two sides: for each known setting (smap, smep, pti,
 * mitigations=) that their --append words ask differently, whether the
 * guests' environments kept in res differ in it, written to out (and a
 * warning to stderr when they do not).  Returns the number of settings
 * that did not take effect.
 */
int boot_ab_check_sides(FILE *out, const struct boot_ab_spec *spec,
			const struct boot_ab_result *res);

#endif
