/*
 * boot.c - `copyscope boot`: A/B of a kernel or a boot setting across
 * boots.  This file parses the options into a struct boot_ab_spec and
 * prints the usage; the boots themselves are the session layer's boot
 * A/B loop (src/session/boot_ab.c, with what it does in boot_ab.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "cli/cli.h"
#include "session/boot_ab.h"
#include "util/array.h"

/* The options that are the command's own, not the loop's. */
struct boot_cli {
	const char *db;
	bool print_script;
};

static void boot_usage(FILE *out)
{
	fprintf(out,
"usage: copyscope boot --kernel BZIMAGE --side NAME [--append ARGS]\n"
"                      [--side-b NAME [--append-b ARGS] [--kernel-b BZIMAGE]]\n"
"                      [--boots N] [--timeout-s S] [--accel auto|kvm|tcg]\n"
"                      [--smp N] [--memory-mib M] [--qemu-arg ARG]...\n"
"                      [--db PATH] WORKLOAD|SUITE... [key=value...]\n"
"                      [-- RUN-OPTIONS]\n"
"\n"
"Boots a kernel in qemu once per boot, runs the workloads or suites inside\n"
"(copyscope run, with a static copyscope - make static - and busybox in an\n"
"initramfs) and imports each boot's run into the database tagged with its\n"
"side; the guest's kernel release, command line and boot id come with it.\n"
"With two sides the boots alternate, A B A B ..., N per side, so that\n"
"'copyscope compare A B' compares with boots as the unit.  Every run gets\n"
"the environment keys boot.side, boot.append, boot.kernel_image,\n"
"boot.accel, boot.qemu, boot.unknown_params, boot.cmdline_check and\n"
"virt.emulated.\n"
"\n"
"The accelerator: KVM when /dev/kvm is hardware KVM; otherwise (no KVM, or\n"
"a PVM hypervisor, under which a stock kernel does not boot) TCG, qemu's\n"
"emulator, with a warning: its timings measure the emulator, so the runs\n"
"are marked virt.emulated=yes and compare withholds verdicts on them.\n"
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
"options:\n"
"  --kernel BZIMAGE   the kernel image (side A's, and B's without\n"
"                     --kernel-b); scripts/fetch-kernel.sh puts Debian's\n"
"                     into build/kernel/vmlinuz\n"
"  --side NAME        side A: the tag of its runs\n"
"  --append ARGS      side A's kernel parameters (after \"%s\")\n"
"  --side-b NAME      side B: a second side, booted in turn with A\n"
"  --append-b ARGS    side B's kernel parameters\n"
"  --kernel-b BZIMAGE side B's kernel image (A/B of a kernel patch)\n"
"  --boots N          boots per side, 1 .. %d (default %d)\n"
"  --timeout-s S      seconds one boot may take, run included (default %g)\n"
"  --accel auto|kvm|tcg  (default auto, as above)\n"
"  --smp N            guest CPUs, 1 .. 64 (default %d)\n"
"  --memory-mib M     guest memory in MiB, 128 .. 65536 (default %d)\n"
"  --qemu PATH        qemu binary (default qemu-system-x86_64)\n"
"  --qemu-arg ARG     one more qemu argument (repeat for more)\n"
"  --busybox PATH     a static busybox (default /bin/busybox, from Debian's\n"
"                     busybox-static)\n"
"  --copyscope-static PATH  the static copyscope for the guest (default:\n"
"                     copyscope-static beside this binary, else\n"
"                     ../libexec/copyscope/ from it; make static)\n"
"  --print-init       print the guest's /init script and exit\n"
"  --db PATH          database (default $COPYSCOPE_DB, else\n"
"                     $XDG_DATA_HOME/copyscope/results.db)\n"
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
"  copyscope boot --kernel old/bzImage --side base \\\n"
"      --kernel-b new/bzImage --side-b patched pipe.bw size=4k,64k\n",
		BOOT_BASE_APPEND, BOOT_MAX_BOOTS, BOOT_DEFAULT_BOOTS,
		BOOT_DEFAULT_TIMEOUT_S, BOOT_DEFAULT_SMP,
		BOOT_DEFAULT_MEMORY_MIB);
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

static int parse_args(struct boot_ab_spec *bc, struct boot_cli *cl, int argc,
		      char **argv)
{
	const char *v;
	int i, missing, e;
	bool dashdash = false, have_work = false;

	bc->run_args[bc->nrun_args++] = "run";
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

#define OPT(name) ((v = cli_opt_value(argc, argv, &i, name, &missing)) || \
		   missing)
		if (dashdash) {
			const char *own = owned_run_option(a);

			if (own)
				return cli_usage("boot", "%s after '--': boot "
						 "gives the guest's run its "
						 "own %s", own, own);
			if (bc->nrun_args >= BOOT_MAX_RUN_ARGS)
				return cli_usage("boot", "too many run "
						 "arguments (at most %d)",
						 BOOT_MAX_RUN_ARGS - 1);
			bc->run_args[bc->nrun_args++] = argv[i];
			continue;
		}
		if (cli_is_help(a)) {
			boot_usage(stdout);
			return -1;
		} else if (strcmp(a, "--") == 0) {
			dashdash = true;
		} else if (OPT("--kernel")) {
			if (missing)
				goto no_value;
			bc->side[0].kernel = v;
		} else if (OPT("--kernel-b")) {
			if (missing)
				goto no_value;
			bc->side[1].kernel = v;
		} else if (OPT("--side")) {
			if (missing)
				goto no_value;
			bc->side[0].name = v;
		} else if (OPT("--side-b")) {
			if (missing)
				goto no_value;
			bc->side[1].name = v;
		} else if (OPT("--append")) {
			if (missing)
				goto no_value;
			bc->side[0].append = v;
		} else if (OPT("--append-b")) {
			if (missing)
				goto no_value;
			bc->side[1].append = v;
		} else if (OPT("--boots")) {
			if (missing)
				goto no_value;
			e = cli_parse_int("boot", "--boots", v, 1,
					  BOOT_MAX_BOOTS, &bc->boots);
			if (e)
				return e;
		} else if (OPT("--timeout-s")) {
			char *end;

			if (missing)
				goto no_value;
			errno = 0;
			bc->timeout_s = strtod(v, &end);
			if (errno || end == v || *end ||
			    !(bc->timeout_s >= 1) ||
			    !(bc->timeout_s <= 86400))
				return cli_usage("boot", "--timeout-s: '%s' is "
						 "not a number of seconds in "
						 "1 .. 86400", v);
		} else if (OPT("--accel")) {
			if (missing)
				goto no_value;
			if (strcmp(v, "auto") != 0 && strcmp(v, "kvm") != 0 &&
			    strcmp(v, "tcg") != 0)
				return cli_usage("boot", "--accel: '%s' is not "
						 "one of auto, kvm, tcg", v);
			bc->accel = v;
		} else if (OPT("--smp")) {
			if (missing)
				goto no_value;
			e = cli_parse_int("boot", "--smp", v, 1, 64,
					  &bc->smp);
			if (e)
				return e;
		} else if (OPT("--memory-mib")) {
			if (missing)
				goto no_value;
			e = cli_parse_int("boot", "--memory-mib", v, 128,
					  65536, &bc->memory_mib);
			if (e)
				return e;
		} else if (OPT("--qemu")) {
			if (missing)
				goto no_value;
			bc->qemu = v;
		} else if (OPT("--qemu-arg")) {
			if (missing)
				goto no_value;
			if (bc->nqemu_args >= BOOT_MAX_QEMU_ARGS)
				return cli_usage("boot", "--qemu-arg: at most "
						 "%d", BOOT_MAX_QEMU_ARGS);
			bc->qemu_args[bc->nqemu_args++] = (char *)v;
		} else if (OPT("--busybox")) {
			if (missing)
				goto no_value;
			bc->busybox = v;
		} else if (OPT("--copyscope-static")) {
			if (missing)
				goto no_value;
			bc->cstatic = v;
		} else if (OPT("--db")) {
			if (missing)
				goto no_value;
			cl->db = v;
		} else if (strcmp(a, "--print-init") == 0) {
			cl->print_script = true;
		} else if (a[0] == '-') {
			return cli_usage("boot", "unknown option '%s' (options "
					 "for the guest's run go after '--')",
					 a);
		} else {
			if (bc->nrun_args >= BOOT_MAX_RUN_ARGS)
				return cli_usage("boot", "too many run "
						 "arguments (at most %d)",
						 BOOT_MAX_RUN_ARGS - 1);
			bc->run_args[bc->nrun_args++] = argv[i];
			have_work |= strchr(a, '=') == NULL;
		}
#undef OPT
	}
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
		return cli_usage("boot", "--kernel BZIMAGE is needed "
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
no_value:
	return cli_usage("boot", "%s needs a value", argv[i]);
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
	char *script = boot_init_script(spec->run_args + 1,
					spec->nrun_args - 1);

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
	struct boot_ab_spec spec;
	struct boot_cli cl = { NULL, false };
	struct boot_ab_result res;
	struct store *st = NULL;
	char err[1024], path[4096], *run_cmd;
	const char *hint = NULL;
	enum boot_ab_fault f;
	int e;

	boot_ab_spec_init(&spec);
	memset(&res, 0, sizeof(res));
	e = parse_args(&spec, &cl, argc, argv);
	if (e)
		return e < 0 ? EXIT_OK : e;
	if (cl.print_script)
		return print_init(&spec);
	spec.run_cmd = run_cmd = cli_join_cmdline((int)spec.nrun_args,
						  spec.run_args);
	f = run_cmd ? boot_ab_prepare(&spec, &res, err, sizeof(err), &hint) :
	    BOOT_AB_FAULT_MEMORY;
	if (f) {
		e = prepare_failed(f, err, hint);
		goto out;
	}
	e = cli_open_store(cl.db, &st, path, sizeof(path));
	if (e)
		goto out;
	if (boot_ab_run(&spec, st, &res) != 0) {
		e = EXIT_FAIL;
		goto out;
	}
	boot_ab_print_summary(stdout, &spec, &res, path);
	e = res.interrupted ? EXIT_INTERRUPTED : res.spawn_failed ?
	    EXIT_NOTHING_RAN : res.nfail ? EXIT_FAIL : EXIT_OK;
out:
	if (st)
		store_close(st);
	boot_ab_result_free(&res);
	free(run_cmd);
	return e;
}
