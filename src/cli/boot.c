/*
 * boot.c - `copyscope boot`: A/B of a kernel or a boot setting across
 * boots.  This file parses the options into a struct boot_ab_spec and
 * prints the usage; the boots themselves are the session layer's boot
 * A/B loop (src/session/boot_ab.c, with what it does in boot_ab.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "session/boot_ab.h"
#include "util/array.h"

/* The command's options: the loop's spec and the command's own. */
struct boot_cli {
	struct boot_ab_spec spec;
	const char *db;
	bool print_script;
};

#define BOOT_STR(x) #x
#define BOOT_XSTR(x) BOOT_STR(x)
_Static_assert((int)BOOT_DEFAULT_TIMEOUT_S == 900, "--timeout-s's help says 900");

static const char *const accel_words[] = { "auto", "kvm", "tcg", NULL };
static const char *const arch_words[] = { "auto", "x86_64", "aarch64",
	NULL };

#define OPT_BASE struct boot_cli
static const struct opt_row boot_rows[] = {
	OPT_ROW_STR("--kernel", "IMAGE", "the kernel image, an x86 bzImage "
	  "or an arm64 Image (side A's, and B's without --kernel-b); "
	  "scripts/fetch-kernel.sh puts Debian's into build/kernel/vmlinuz "
	  "(fetch-kernel.sh --arch arm64: build/kernel-arm64/vmlinuz)",
	  spec.side[0].kernel,
	  .complete = OPT_C_FILE),
	OPT_ROW_STR("--side", "NAME", "side A: the tag of its runs",
	  spec.side[0].name, .complete = OPT_C_TAG),
	OPT_ROW_STR("--append", "ARGS", "side A's kernel parameters "
	  "(after \"console=ttyS0 panic=-1\"; arm64: console=ttyAMA0)",
	  spec.side[0].append),
	OPT_ROW_STR("--side-b", "NAME", "side B: a second side, booted "
	  "in turn with A", spec.side[1].name, .complete = OPT_C_TAG),
	OPT_ROW_STR("--append-b", "ARGS", "side B's kernel parameters",
	  spec.side[1].append),
	OPT_ROW_STR("--kernel-b", "IMAGE", "side B's kernel image (A/B "
	  "of a kernel patch)", spec.side[1].kernel, .complete = OPT_C_FILE),
	OPT_ROW_STR("--arch", "auto|x86_64|aarch64", "the guests' "
	  "architecture (default auto: from the kernel images' headers)",
	  spec.arch, .words = arch_words, .complete = OPT_C_WORDS),
	OPT_ROW_INT("--boots", "N", "boots per side, 1 .. "
	  BOOT_XSTR(BOOT_MAX_BOOTS) " (default " BOOT_XSTR(BOOT_DEFAULT_BOOTS)
	  ")", spec.boots, .lo = 1, .hi = BOOT_MAX_BOOTS),
	OPT_ROW_NUM("--timeout-s", "S", "seconds one boot may take, run "
	  "included (default 900)", spec.timeout_s, .lo = 1, .hi = 86400,
	  .unit = "seconds"),
	OPT_ROW_STR("--accel", "auto|kvm|tcg", "(default auto, as "
	  "above)", spec.accel, .words = accel_words,
	  .complete = OPT_C_WORDS),
	OPT_ROW_INT("--smp", "N", "guest CPUs, 1 .. 64 (default "
	  BOOT_XSTR(BOOT_DEFAULT_SMP) ")", spec.smp, .lo = 1, .hi = 64),
	OPT_ROW_INT("--memory-mib", "M", "guest memory in MiB, 128 .. "
	  "65536 (default " BOOT_XSTR(BOOT_DEFAULT_MEMORY_MIB) ")",
	  spec.memory_mib, .lo = 128, .hi = 65536),
	OPT_ROW_STR("--qemu", "PATH", "qemu binary (default "
	  "qemu-system-x86_64, for aarch64 qemu-system-aarch64)", spec.qemu,
	  .complete = OPT_C_FILE),
	OPT_ROW_REPEAT("--qemu-arg", "ARG", "one more qemu argument "
	  "(repeat for more)", spec.qemu_args, spec.nqemu_args),
	OPT_ROW_STR("--busybox", "PATH", "a static busybox of the guests' "
	  "architecture (default /bin/busybox, from Debian's busybox-static; "
	  "arm64 guests on x86: build/kernel-arm64/busybox)", spec.busybox,
	  .complete = OPT_C_FILE),
	OPT_ROW_STR("--copyscope-static", "PATH", "the static copyscope "
	  "for the guest (default: copyscope-static beside this binary, else "
	  "../libexec/copyscope/ from it; make static; arm64: also "
	  "aarch64/copyscope-static, make static-aarch64)", spec.cstatic,
	  .complete = OPT_C_FILE),
	OPT_ROW_FLAG("--print-init", "print the guest's /init "
	  "script and exit", print_script),
	OPT_ROW_DB(db, "database (default $COPYSCOPE_DB, else "
		   "$XDG_DATA_HOME/copyscope/results.db)"),
};
#undef OPT_BASE

static void boot_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd boot_cmd = {
	.name = "boot", .rows = boot_rows,
	.nrows = ARRAY_SIZE(boot_rows), .help_col = 21,
	.unknown_hint = "(options for the guest's run go after '--')",
	.max_pos = -1, .pos = OPT_C_WORKLOADS, .after_dashdash = "run",
	.after_cmd = cli_run_options, .usage = boot_usage,
	.synopsis = OPT_SYNOPSIS("--kernel --side [--append]\n"
				 "[--side-b [--append-b] [--kernel-b]]\n"
				 "[--boots] [--timeout-s] [--accel]\n"
				 "[--arch] [--smp] [--memory-mib]\n"
				 "[--qemu] [--qemu-arg]... [--busybox]\n"
				 "[--copyscope-static]\n"
				 "[--print-init] [--db]\n"
				 "WORKLOAD|SUITE... [key=value...]\n"
				 "[-- RUN-OPTIONS]"),
};

const struct opt_cmd *cli_boot_options(void)
{
	return &boot_cmd;
}

static void boot_usage(FILE *out, const struct opt_cmd *c)
{
	fprintf(out,
"\n"
"Boots a kernel in qemu once per boot, runs the workloads or suites inside\n"
"(copyscope run, with a static copyscope - make static - and busybox in an\n"
"initramfs) and imports each boot's run into the database tagged with its\n"
"side; the guest's kernel release, command line and boot id come with it.\n"
"With two sides the boots alternate, A B A B ..., N per side, so that\n"
"'copyscope compare A B' compares with boots as the unit.  Every run gets\n"
"the environment keys boot.side, boot.arch, boot.append,\n"
"boot.kernel_image, boot.accel, boot.qemu, boot.unknown_params,\n"
"boot.cmdline_check and virt.emulated.\n"
"\n"
"The accelerator: KVM when /dev/kvm is hardware KVM; otherwise (no KVM, or\n"
"a PVM hypervisor, under which a stock kernel does not boot) TCG, qemu's\n"
"emulator, with a warning: its timings measure the emulator, so the runs\n"
"are marked virt.emulated=yes and compare withholds verdicts on them.\n"
"\n"
"The guest's architecture is the kernel image's (--arch to say): x86_64\n"
"boots in qemu-system-x86_64; aarch64 (an arm64 Image) in\n"
"qemu-system-aarch64 -M virt, console on ttyAMA0, with the static\n"
"copyscope of make static-aarch64 and an arm64 busybox.  A guest of\n"
"another architecture than the host's is always TCG (emulated).\n"
"\n"
"After each boot it checks that the side's --append words are in the\n"
"guest's /proc/cmdline and reports parameters the kernel did not recognise\n"
"(e.g. nosmap, removed in 5.19: use clearcpuid=smap).  For smap, smep, pti\n"
"and mitigations= it compares the guests' CPU flags and vulnerability\n"
"files between the sides and warns when they do not differ as asked.\n"
"\n"
"A boot that panics, hangs past --timeout-s or sends no result is recorded\n"
"as a failed run (status failed, boot.failure says why) and the others go\n"
"on.  Ctrl-C stops qemu and keeps the boots already imported.\n"
"\n"
"options:\n");
	opt_print_options(out, c);
	fprintf(out,
"  -- RUN-OPTIONS     options for the guest's copyscope run (--reps,\n"
"                     --quick, --sample-time, ...; not --db, --tag, --json,\n"
"                     --no-store, --runs: boot owns those)\n"
"\n"
"exit: 0 every boot imported, 1 a boot failed (the others are stored),\n"
"      2 usage error, 77 qemu or KVM (--accel kvm) missing, 130 interrupted\n"
"\nexamples:\n"
"  scripts/fetch-kernel.sh\n"
"  copyscope boot --kernel build/kernel/vmlinuz --side on \\\n"
"      --side-b off --append-b clearcpuid=smap --boots 2 quick\n"
"  copyscope compare on off\n"
"  scripts/fetch-kernel.sh --arch arm64; make static-aarch64\n"
"  copyscope boot --kernel build/kernel-arm64/vmlinuz --side arm \\\n"
"      --busybox build/kernel-arm64/busybox --boots 1 sys.null -- --quick\n"
"  copyscope boot --kernel old/bzImage --side base \\\n"
"      --kernel-b new/bzImage --side-b patched pipe.bw size=4k,64k\n");
}

/* Options of run the guest's command line owns. */
static const char *owned_run_option(const char *a)
{
	static const char *const owned[] = { "--db", "--tag", "--json",
		"--no-store", "--runs", "--group", "--help", "-h" };
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(owned); i++) {
		n = strlen(owned[i]);
		if (strncmp(a, owned[i], n) == 0 && (!a[n] || a[n] == '='))
			return owned[i];
	}
	return NULL;
}

/* A file the guest needs: readable, regular; into abs (realpath). */
static int check_file(const char *opt, const char *path, char *abs,
		      size_t len)
{
	char err[PATH_MAX + 256];

	if (boot_ab_check_file(opt, path, abs, len, err, sizeof(err)) != 0)
		return cli_usage("boot", "%s", err);
	return 0;
}

static int parse_args(struct boot_cli *cl, int argc, char **argv)
{
	struct boot_ab_spec *bc = &cl->spec;
	struct opt_result res;
	int i, e;
	bool have_work = false;

	bc->run_args[bc->nrun_args++] = "run";
	e = opt_parse(&boot_cmd, argc, argv, cl, &res);
	if (e)
		return e;
	for (i = 0; i < res.npos && !e; i++) {
		const char *a = res.pos[i];
		const char *own = i >= res.ndash ? owned_run_option(a) : NULL;

		if (own)
			e = cli_usage("boot", "%s after '--': boot gives the "
				      "guest's run its own %s", own, own);
		else if (bc->nrun_args >= BOOT_MAX_RUN_ARGS)
			e = cli_usage("boot", "too many run arguments (at "
				      "most %d)", BOOT_MAX_RUN_ARGS - 1);
		else
			bc->run_args[bc->nrun_args++] = res.pos[i];
		have_work |= i < res.ndash && strchr(a, '=') == NULL;
	}
	opt_result_free(&res);
	if (e)
		return e;
	if (!have_work)
		return cli_usage("boot", "which WORKLOAD or SUITE should the "
				 "guest run? (e.g. quick; 'copyscope list' "
				 "names them)");
	e = cli_run_check_args((int)bc->nrun_args, bc->run_args);
	if (e) {
		cli_error("boot: (the workloads, key=value and options after "
			  "'--' are for the guest's 'copyscope run')");
		return e;
	}
	if (cl->print_script)
		return 0;
	if (!bc->side[0].kernel)
		return cli_usage("boot", "--kernel IMAGE is needed "
				 "(scripts/fetch-kernel.sh fetches Debian's)");
	if (!bc->side[0].name)
		return cli_usage("boot", "--side NAME is needed (the tag of "
				 "the runs)");
	bc->nsides = bc->side[1].name ? 2 : 1;
	if (bc->nsides == 1 && (bc->side[1].append || bc->side[1].kernel))
		return cli_usage("boot", "%s needs --side-b NAME",
				 bc->side[1].append ? "--append-b" :
				 "--kernel-b");
	for (i = 0; i < bc->nsides; i++) {
		e = cli_check_tag("boot", bc->side[i].name);
		if (e)
			return e;
	}
	if (bc->nsides == 2 &&
	    strcmp(bc->side[0].name, bc->side[1].name) == 0)
		return cli_usage("boot", "--side and --side-b are both '%s': "
				 "two sides need two names",
				 bc->side[0].name);
	if (!bc->side[1].kernel)
		bc->side[1].kernel = bc->side[0].kernel;
	for (i = 0; i < 2; i++) {
		if (!bc->side[i].append)
			bc->side[i].append = "";
		if (strchr(bc->side[i].append, '\n'))
			return cli_usage("boot", "%s: a kernel command line "
					 "has no newline", i ? "--append-b" :
					 "--append");
	}
	if (bc->nsides == 2 &&
	    strcmp(bc->side[0].append, bc->side[1].append) == 0 &&
	    strcmp(bc->side[0].kernel, bc->side[1].kernel) == 0)
		cli_error("warning: sides '%s' and '%s' boot the same kernel "
			  "with the same parameters: an A/A comparison",
			  bc->side[0].name, bc->side[1].name);
	for (i = 0; i < bc->nsides; i++) {
		e = check_file(i ? "--kernel-b" : "--kernel",
			       bc->side[i].kernel, bc->side[i].kernel_abs,
			       sizeof(bc->side[i].kernel_abs));
		if (e)
			return e;
	}
	return 0;
}

/* What boot_ab_prepare() found wrong (or memory), as the command says it. */
static int prepare_failed(enum boot_ab_fault f, const char *err,
			  const char *hint)
{
	if (f == BOOT_AB_FAULT_USAGE) {
		cli_usage("boot", "%s", err);
		if (hint)
			fprintf(stderr, "  %s\n", hint);
		return EXIT_USAGE;
	}
	if (f == BOOT_AB_FAULT_HOST) {
		cli_error("boot: %s", err);
		return EXIT_NOTHING_RAN;
	}
	cli_error("out of memory");
	return EXIT_FAIL;
}

/* The guest's /init for --print-init. */
static int print_init(const struct boot_ab_spec *spec)
{
	char *script = boot_ab_init_script(spec);

	if (!script) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	fputs(script, stdout);
	free(script);
	return EXIT_OK;
}

int cmd_boot(int argc, char **argv)
{
	struct boot_cli cl;
	struct boot_ab_spec *sp = &cl.spec;
	struct boot_ab_result res;
	struct store *st = NULL;
	char err[1024], path[4096], *run_cmd;
	const char *hint = NULL;
	enum boot_ab_fault f;
	int e;

	memset(&cl, 0, sizeof(cl));
	boot_ab_spec_init(sp);
	memset(&res, 0, sizeof(res));
	e = parse_args(&cl, argc, argv);
	if (e)
		return e < 0 ? EXIT_OK : e;
	if (cl.print_script)
		return print_init(sp);
	sp->run_cmd = run_cmd = cli_join_cmdline((int)sp->nrun_args,
						 sp->run_args);
	f = run_cmd ? boot_ab_prepare(sp, &res, err, sizeof(err), &hint) :
	    BOOT_AB_FAULT_MEMORY;
	if (f) {
		e = prepare_failed(f, err, hint);
		goto out;
	}
	e = cli_open_store(cl.db, &st, path, sizeof(path));
	if (e)
		goto out;
	if (boot_ab_run(sp, st, &res) != 0) {
		e = EXIT_FAIL;
		goto out;
	}
	boot_ab_print_summary(stdout, sp, &res, path);
	e = res.interrupted ? EXIT_INTERRUPTED : res.spawn_failed ?
	    EXIT_NOTHING_RAN : res.nfail ? EXIT_FAIL : EXIT_OK;
out:
	if (st)
		store_close(st);
	boot_ab_result_free(&res);
	free(run_cmd);
	return e;
}
