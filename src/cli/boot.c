/*
 * boot.c - `copyscope boot`: A/B of a kernel or a boot setting across
 * boots.  Each boot is a fresh qemu guest (src/boot/: initramfs, qemu,
 * what comes back) that runs the suite with a static copyscope and sends
 * its run home over the second serial port; the run is imported into the
 * host's store (results/exchange.c, as `import` does) tagged with its
 * side, with the guest's kernel release, command line and boot id as the
 * guest's own environment has them, and boot.* keys saying how it was
 * booted.  Sides alternate boot by boot (A B A B ...) so that drift of the
 * host spreads over both.  A boot that hangs, panics or sends nothing is
 * recorded as a failed run and the others go on; Ctrl-C stops qemu and
 * keeps the boots already imported; the temporary directory (initramfs,
 * console and channel files) is always removed.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "results/exchange.h"

#ifndef COPYSCOPE_VERSION
#define COPYSCOPE_VERSION "unknown"
#endif

#define BOOT_MAX_BOOTS 100
#define BOOT_MAX_QEMU_ARGS 64
#define BOOT_MAX_RUN_ARGS 256
#define BOOT_DEFAULT_BOOTS 3
#define BOOT_DEFAULT_TIMEOUT_S 900.0
#define BOOT_DEFAULT_SMP 2
#define BOOT_DEFAULT_MEMORY_MIB 1024
/* Before the side's own --append: the console on the first serial port
   (kept, to tell a panic from a hang) and a panic that ends qemu at once
   (-no-reboot) instead of waiting for the timeout. */
#define BOOT_BASE_APPEND "console=ttyS0 panic=-1"

struct boot_side {
	const char *name;
	const char *append;		/* "" none */
	const char *kernel;		/* as given */
	char kernel_abs[PATH_MAX];
	struct env *envs;		/* guests' environments, imported */
	size_t nenvs;
	size_t nfailed;
	int64_t *run_ids;		/* imported runs */
	size_t nruns;
};

struct boot_cli {
	struct boot_side side[2];
	int nsides;
	int boots;			/* per side */
	double timeout_s;
	const char *accel;		/* auto, kvm, tcg */
	int smp, memory_mib;
	const char *qemu, *busybox, *cstatic, *db;
	char *qemu_args[BOOT_MAX_QEMU_ARGS];
	size_t nqemu_args;
	char *run_args[BOOT_MAX_RUN_ARGS];	/* "run" and its arguments */
	size_t nrun_args;
	bool print_script;
};

static volatile sig_atomic_t boot_stop;

static void on_signal(int sig)
{
	boot_stop = sig;
}

#define BOOT_STR(x) #x
#define BOOT_XSTR(x) BOOT_STR(x)
_Static_assert(BOOT_DEFAULT_TIMEOUT_S == 900, "--timeout-s's help says 900");

static const char *const accel_words[] = { "auto", "kvm", "tcg", NULL };

#define BC(field) offsetof(struct boot_cli, field)
static const struct opt_row boot_rows[] = {
	{ OPT_R("--kernel", OPT_STR, "BZIMAGE"), "the kernel image (side A's, "
	  "and B's without --kernel-b); scripts/fetch-kernel.sh puts Debian's "
	  "into build/kernel/vmlinuz", BC(side[0].kernel),
	  .complete = OPT_C_FILE },
	{ OPT_R("--side", OPT_STR, "NAME"), "side A: the tag of its runs",
	  BC(side[0].name), .complete = OPT_C_TAG },
	{ OPT_R("--append", OPT_STR, "ARGS"), "side A's kernel parameters "
	  "(after \"" BOOT_BASE_APPEND "\")", BC(side[0].append) },
	{ OPT_R("--side-b", OPT_STR, "NAME"), "side B: a second side, booted "
	  "in turn with A", BC(side[1].name), .complete = OPT_C_TAG },
	{ OPT_R("--append-b", OPT_STR, "ARGS"), "side B's kernel parameters",
	  BC(side[1].append) },
	{ OPT_R("--kernel-b", OPT_STR, "BZIMAGE"), "side B's kernel image (A/B "
	  "of a kernel patch)", BC(side[1].kernel), .complete = OPT_C_FILE },
	{ OPT_R("--boots", OPT_INT, "N"), "boots per side, 1 .. "
	  BOOT_XSTR(BOOT_MAX_BOOTS) " (default " BOOT_XSTR(BOOT_DEFAULT_BOOTS)
	  ")", BC(boots), .lo = 1, .hi = BOOT_MAX_BOOTS },
	{ OPT_R("--timeout-s", OPT_NUM, "S"), "seconds one boot may take, run "
	  "included (default 900)", BC(timeout_s), .lo = 1, .hi = 86400,
	  .unit = "seconds" },
	{ OPT_R("--accel", OPT_STR, "auto|kvm|tcg"), "(default auto, as "
	  "above)", BC(accel), .words = accel_words,
	  .complete = OPT_C_WORDS },
	{ OPT_R("--smp", OPT_INT, "N"), "guest CPUs, 1 .. 64 (default "
	  BOOT_XSTR(BOOT_DEFAULT_SMP) ")", BC(smp), .lo = 1, .hi = 64 },
	{ OPT_R("--memory-mib", OPT_INT, "M"), "guest memory in MiB, 128 .. "
	  "65536 (default " BOOT_XSTR(BOOT_DEFAULT_MEMORY_MIB) ")",
	  BC(memory_mib), .lo = 128, .hi = 65536 },
	{ OPT_R("--qemu", OPT_STR, "PATH"), "qemu binary (default "
	  "qemu-system-x86_64)", BC(qemu), .complete = OPT_C_FILE },
	{ OPT_R("--qemu-arg", OPT_REPEAT, "ARG"), "one more qemu argument "
	  "(repeat for more)", BC(qemu_args), .count_off = BC(nqemu_args),
	  .max = BOOT_MAX_QEMU_ARGS },
	{ OPT_R("--busybox", OPT_STR, "PATH"), "a static busybox (default "
	  "/bin/busybox, from Debian's busybox-static)", BC(busybox),
	  .complete = OPT_C_FILE },
	{ OPT_R("--copyscope-static", OPT_STR, "PATH"), "the static copyscope "
	  "for the guest (default: copyscope-static beside this binary, else "
	  "../libexec/copyscope/ from it; make static)", BC(cstatic),
	  .complete = OPT_C_FILE },
	{ OPT_R("--print-init", OPT_FLAG, NULL), "print the guest's /init "
	  "script and exit", BC(print_script) },
	OPT_ROW_DB(struct boot_cli, db, "database (default $COPYSCOPE_DB, else "
		   "$XDG_DATA_HOME/copyscope/results.db)"),
};
#undef BC

static void boot_usage(FILE *out, const struct opt_cmd *c);

static const struct opt_cmd boot_cmd = {
	.name = "boot", .rows = boot_rows,
	.nrows = sizeof(boot_rows) / sizeof(boot_rows[0]), .help_col = 21,
	.unknown_hint = "(options for the guest's run go after '--')",
	.max_pos = -1, .pos = OPT_C_WORKLOADS, .after_dashdash = "run",
	.usage = boot_usage,
};

static void boot_usage(FILE *out, const struct opt_cmd *c)
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
"  copyscope boot --kernel old/bzImage --side base \\\n"
"      --kernel-b new/bzImage --side-b patched pipe.bw size=4k,64k\n");
}

/* Options of run the guest's command line owns. */
static const char *owned_run_option(const char *a)
{
	static const char *const owned[] = { "--db", "--tag", "--json",
		"--no-store", "--runs", "--group", "--help", "-h" };
	size_t i, n;

	for (i = 0; i < sizeof(owned) / sizeof(owned[0]); i++) {
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
	char buf[PATH_MAX];
	struct stat sb;

	if (stat(path, &sb) != 0 || access(path, R_OK) != 0)
		return cli_usage("boot", "%s: cannot read '%s': %s", opt, path,
				 strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return cli_usage("boot", "%s: '%s' is not a regular file", opt,
				 path);
	if (!realpath(path, buf))
		return cli_usage("boot", "%s: '%s': %s", opt, path,
				 strerror(errno));
	snprintf(abs, len, "%s", buf);
	return 0;
}

static int parse_args(struct boot_cli *bc, int argc, char **argv)
{
	struct opt_result res;
	int i, e;
	bool have_work = false;

	bc->run_args[bc->nrun_args++] = "run";
	e = opt_parse(&boot_cmd, argc, argv, bc, &res);
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
	if (bc->print_script)
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
}

/* The guest's static files: busybox and copyscope, both static. */
static int check_guest_binaries(struct boot_cli *bc, char *cs, size_t cslen,
				char *bb, size_t bblen)
{
	char self[PATH_MAX], err[512];
	ssize_t n;
	int st, e;

	if (!bc->cstatic) {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0) {
			cli_error("boot: /proc/self/exe: %s; give "
				  "--copyscope-static PATH", strerror(errno));
			return EXIT_USAGE;
		}
		self[n] = '\0';
		*strrchr(self, '/') = '\0';
		/* the build directory, then as make install puts it */
		snprintf(cs, cslen, "%s/copyscope-static", self);
		if (access(cs, R_OK) != 0)
			snprintf(cs, cslen, "%s/../libexec/copyscope/"
				 "copyscope-static", self);
		if (access(cs, R_OK) != 0)
			return cli_usage("boot", "no static copyscope beside "
					 "this one (%s/copyscope-static) nor "
					 "in %s: run 'make static', or give "
					 "--copyscope-static PATH", self, cs);
	} else {
		e = check_file("--copyscope-static", bc->cstatic, cs, cslen);
		if (e)
			return e;
	}
	e = check_file("--busybox", bc->busybox, bb, bblen);
	if (e) {
		fprintf(stderr, "  (Debian: apt-get install busybox-static, "
			"or scripts/install-deps.sh)\n");
		return e;
	}
	st = boot_elf_is_static(cs, err, sizeof(err));
	if (st != 1)
		return cli_usage("boot", "--copyscope-static: %s", st < 0 ?
				 err : "it is dynamically linked; the guest "
				 "has no libraries (make static builds "
				 "build/copyscope-static)");
	st = boot_elf_is_static(bb, err, sizeof(err));
	if (st != 1)
		return cli_usage("boot", "--busybox: %s", st < 0 ? err :
				 "it is dynamically linked; the guest has no "
				 "libraries (Debian's busybox-static is static)");
	return 0;
}

/* Whether prog is an executable found as execvp would find it. */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH"), *p;
	char buf[PATH_MAX];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	for (p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n,
			 n ? p : ".", prog);
		if (access(buf, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

static double real_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A whole file into a malloc'ed, NUL-terminated buffer ("" if absent). */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);

	*len = 0;
	if (!buf) {
		if (f)
			fclose(f);
		return NULL;
	}
	if (f) {
		size_t r;

		while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
			n += r;
			if (n == cap) {
				char *nb = realloc(buf, cap * 2 + 1);

				if (!nb) {
					free(buf);
					fclose(f);
					return NULL;
				}
				buf = nb;
				cap *= 2;
			}
		}
		fclose(f);
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The last non-empty line of text into out. */
static void last_line(const char *text, size_t len, char *out, size_t olen)
{
	size_t end = len, start;

	while (end && (text[end - 1] == '\n' || text[end - 1] == '\r'))
		end--;
	start = end;
	while (start && text[start - 1] != '\n')
		start--;
	snprintf(out, olen, "%.*s", (int)(end - start), text + start);
	cli_clean_text(out, out, olen);
}

/*
 * The last line of the console that the guest's copyscope wrote (its
 * error, when it failed: "copyscope run: ..."), else the last line.
 */
static void telling_line(const char *text, size_t len, char *out,
			 size_t olen)
{
	const char *p = text, *best = NULL;

	while ((p = memmem(p, len - (size_t)(p - text), "copyscope",
			   9)) != NULL) {
		best = p;
		p += 9;
	}
	if (!best) {
		last_line(text, len, out, olen);
		return;
	}
	while (best > text && best[-1] != '\n')
		best--;
	snprintf(out, olen, "%.*s", (int)strcspn(best, "\r\n"), best);
	cli_clean_text(out, out, olen);
}

/* What every run of a side's boot gets in its environment. */
struct boot_keys {
	const char *accel;		/* "tcg: why" or "kvm" */
	const char *qemu;		/* the qemu command, summarized */
	bool emulated;
};

static int set_boot_env(struct env *env, const struct boot_side *sd,
			const struct boot_keys *k,
			const struct boot_report *rep, const char *missing)
{
	return env_set(env, "virt.emulated", k->emulated ?
		       "yes (qemu TCG: timings measure the emulator, not the "
		       "kernel)" : "no (qemu KVM)") ||
	       env_set(env, "boot.side", sd->name) ||
	       env_set(env, "boot.append", sd->append[0] ? sd->append :
		       "(none)") ||
	       env_set(env, "boot.kernel_image", sd->kernel_abs) ||
	       env_set(env, "boot.accel", k->accel) ||
	       env_set(env, "boot.qemu", k->qemu) ||
	       env_set(env, "boot.unknown_params", !rep->begun ? "unknown" :
		       rep->unknown[0] ? rep->unknown : "none") ||
	       env_set(env, "boot.cmdline_check", !rep->begun ? "unknown" :
		       missing[0] ? missing : "ok");
}

/* Copy env into the side's list (for the checks between sides). */
static int keep_env(struct boot_side *sd, const struct env *env,
		    int64_t run_id)
{
	struct env *v = realloc(sd->envs, (sd->nenvs + 1) * sizeof(*v));
	int64_t *ids;
	size_t i;

	if (!v)
		return -1;
	sd->envs = v;
	memset(&v[sd->nenvs], 0, sizeof(*v));
	for (i = 0; i < env->n; i++)
		if (env_set(&v[sd->nenvs], env->items[i].key,
			    env->items[i].value)) {
			env_free(&v[sd->nenvs]);
			return -1;
		}
	sd->nenvs++;
	ids = realloc(sd->run_ids, (sd->nruns + 1) * sizeof(*ids));
	if (!ids)
		return -1;
	sd->run_ids = ids;
	sd->run_ids[sd->nruns++] = run_id;
	return 0;
}

/*
 * Import the run of a boot's export text, tagged and with the boot keys.
 * Returns 0 with *run_id set; -1 with why in err.
 */
static int import_boot(struct store *st, struct boot_side *sd,
		       const struct boot_keys *k,
		       const struct boot_report *rep, const char *missing,
		       int64_t *run_id, size_t *nresults, char *err,
		       size_t errlen)
{
	struct run_data *runs = NULL;
	size_t n = 0;
	char e2[1024];
	FILE *in;
	int rc;

	in = fmemopen((void *)rep->export_text, rep->export_len, "r");
	if (!in) {
		snprintf(err, errlen, "fmemopen: %s", strerror(errno));
		return -1;
	}
	rc = exchange_read(in, "the guest's export", &runs, &n, e2,
			   sizeof(e2));
	fclose(in);
	if (rc != 0) {
		snprintf(err, errlen, "%s", e2);
		return -1;
	}
	if (n != 1) {
		snprintf(err, errlen, "the guest sent %zu runs, not 1", n);
		exchange_free(runs, n);
		return -1;
	}
	snprintf(runs[0].info.tag, sizeof(runs[0].info.tag), "%s", sd->name);
	if (set_boot_env(&runs[0].env, sd, k, rep, missing)) {
		snprintf(err, errlen, "out of memory");
		exchange_free(runs, n);
		return -1;
	}
	rc = store_add_run(st, &runs[0], e2, sizeof(e2));
	if (rc != 0) {
		if (rc > 0)
			snprintf(err, errlen, "its run %s is already in the "
				 "database as run %lld (a guest's run is new "
				 "at every boot: was the initramfs reused?)",
				 runs[0].info.uuid,
				 (long long)runs[0].info.id);
		else
			snprintf(err, errlen, "%s", e2);
		exchange_free(runs, n);
		return -1;
	}
	*run_id = runs[0].info.id;
	*nresults = runs[0].results.n;
	if (keep_env(sd, &runs[0].env, *run_id)) {
		snprintf(err, errlen, "out of memory");
		exchange_free(runs, n);
		return -1;
	}
	exchange_free(runs, n);
	return 0;
}

/* A failed boot as a run with status failed, no results.  Returns 0/-1. */
static int record_failure(struct store *st, const struct boot_side *sd,
			  const struct boot_keys *k,
			  const struct boot_report *rep, const char *why,
			  const char *run_cmd, int64_t started_ns,
			  int64_t *run_id, char *err, size_t errlen)
{
	struct run_data run;
	unsigned char rnd[16];
	size_t i;
	int rc = -1;

	memset(&run, 0, sizeof(run));
	result_set_init(&run.results);
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < sizeof(rnd); i++)
		snprintf(run.info.uuid + 2 * i, 3, "%02x", rnd[i]);
	run.info.started_ns = started_ns;
	run.info.finished_ns = real_ns();
	snprintf(run.info.tag, sizeof(run.info.tag), "%s", sd->name);
	snprintf(run.info.host, sizeof(run.info.host), "copyscope-guest");
	snprintf(run.info.boot_id, sizeof(run.info.boot_id), "%s",
		 rep->boot_id);
	snprintf(run.info.tool_version, sizeof(run.info.tool_version), "%s",
		 COPYSCOPE_VERSION);
	snprintf(run.info.build_flavour, sizeof(run.info.build_flavour),
		 "static");
	snprintf(run.info.status, sizeof(run.info.status), "failed");
	if (asprintf(&run.info.cmdline, "%s (in a guest of copyscope boot; "
		     "the boot failed)", run_cmd) < 0) {
		run.info.cmdline = NULL;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (set_boot_env(&run.env, sd, k, rep, "") ||
	    env_set(&run.env, "boot.failure", why) ||
	    (rep->release[0] &&
	     env_set(&run.env, "kernel.release", rep->release)) ||
	    (rep->cmdline[0] &&
	     env_set(&run.env, "kernel.cmdline", rep->cmdline))) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (store_add_run(st, &run, err, errlen) < 0)
		goto out;
	*run_id = run.info.id;
	rc = 0;
out:
	run_data_free(&run);
	return rc;
}

/* Whether the distinct states of a side and b side share one. */
static bool states_overlap(char (*a)[1024], size_t na, char (*b)[1024],
			   size_t nb)
{
	size_t i, j;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (strcmp(a[i], b[j]) == 0)
				return true;
	return false;
}

/* The distinct states of setting s over a side's guests. */
static size_t side_states(const struct boot_side *sd, enum boot_setting s,
			  char (*out)[1024], size_t max)
{
	size_t i, j, n = 0;
	char st[1024];

	for (i = 0; i < sd->nenvs && n < max; i++) {
		bool dup = false;

		boot_setting_state(&sd->envs[i], s, st, sizeof(st));
		for (j = 0; j < n; j++)
			dup |= strcmp(out[j], st) == 0;
		if (!dup)
			snprintf(out[n++], sizeof(out[0]), "%s", st);
	}
	return n;
}

/*
 * Between two sides: for each known setting that their --append words
 * ask differently, whether the guests' environments differ in it.
 * Returns the number of settings that did not take effect.
 */
static int check_sides(const struct boot_cli *bc)
{
	const struct boot_side *a = &bc->side[0], *b = &bc->side[1];
	char (*sa)[1024] = calloc(BOOT_MAX_BOOTS, sizeof(*sa));
	char (*sb)[1024] = calloc(BOOT_MAX_BOOTS, sizeof(*sb));
	char wa[512], wb[512];
	int s, bad = 0, checked = 0;

	if (!sa || !sb) {
		free(sa);
		free(sb);
		cli_error("out of memory");
		return 1;
	}
	printf("\nsettings asked for, and what the guests show:\n");
	for (s = 0; s < BOOT_NSETTINGS; s++) {
		size_t na, nb, i;

		boot_setting_words(a->append, (enum boot_setting)s, wa,
				   sizeof(wa));
		boot_setting_words(b->append, (enum boot_setting)s, wb,
				   sizeof(wb));
		if (strcmp(wa, wb) == 0)
			continue;
		checked++;
		na = side_states(a, (enum boot_setting)s, sa, BOOT_MAX_BOOTS);
		nb = side_states(b, (enum boot_setting)s, sb, BOOT_MAX_BOOTS);
		printf("  %s: %s asks '%s', %s asks '%s'\n",
		       boot_setting_name((enum boot_setting)s), a->name,
		       wa[0] ? wa : "(default)", b->name,
		       wb[0] ? wb : "(default)");
		if (!na || !nb) {
			printf("    not checked: no boot of side '%s' "
			       "arrived\n", !na ? a->name : b->name);
			continue;
		}
		for (i = 0; i < na; i++)
			printf("    %s: %s\n", a->name, sa[i]);
		for (i = 0; i < nb; i++)
			printf("    %s: %s\n", b->name, sb[i]);
		if (states_overlap(sa, na, sb, nb)) {
			bad++;
			printf("    NOT DIFFERENT: the setting did not take "
			       "effect\n");
			cli_error("WARNING: sides '%s' and '%s' ask for "
				  "different %s ('%s' vs '%s') but their "
				  "guests do not differ in it; the comparison "
				  "is not of what was asked (a parameter the "
				  "kernel does not know? see "
				  "boot.unknown_params)", a->name, b->name,
				  boot_setting_name((enum boot_setting)s),
				  wa[0] ? wa : "(default)",
				  wb[0] ? wb : "(default)");
		} else {
			printf("    differ, as asked\n");
		}
	}
	if (!checked)
		printf("  none of smap, smep, pti, mitigations= differs "
		       "between the sides' parameters: nothing to check\n");
	free(sa);
	free(sb);
	return bad;
}

/* The summary of the qemu command stored with each run. */
static char *qemu_summary(const struct boot_cli *bc, enum boot_accel acc)
{
	size_t i, len = 256, o;
	char *s;

	for (i = 0; i < bc->nqemu_args; i++)
		len += strlen(bc->qemu_args[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	o = (size_t)snprintf(s, len, "%s -accel %s -cpu %s -smp %d -m %dM",
			     bc->qemu, acc == BOOT_ACCEL_KVM ? "kvm" : "tcg",
			     acc == BOOT_ACCEL_KVM ? "host" : "max", bc->smp,
			     bc->memory_mib);
	for (i = 0; i < bc->nqemu_args; i++)
		o += (size_t)snprintf(s + o, len - o, " %s",
				      bc->qemu_args[i]);
	return s;
}

struct boot_tmp {
	char dir[PATH_MAX];
	char initramfs[PATH_MAX], console[PATH_MAX], data[PATH_MAX];
	char log[PATH_MAX];
};

static void tmp_remove(struct boot_tmp *t)
{
	if (!t->dir[0])
		return;
	unlink(t->initramfs);
	unlink(t->console);
	unlink(t->data);
	unlink(t->log);
	if (rmdir(t->dir) != 0)
		cli_error("warning: cannot remove %s: %s", t->dir,
			  strerror(errno));
	t->dir[0] = '\0';
}

static int tmp_make(struct boot_tmp *t)
{
	const char *base = getenv("TMPDIR");

	snprintf(t->dir, sizeof(t->dir), "%s/copyscope-boot.XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(t->dir)) {
		cli_error("boot: cannot make a temporary directory %s: %s",
			  t->dir, strerror(errno));
		t->dir[0] = '\0';
		return -1;
	}
	snprintf(t->initramfs, sizeof(t->initramfs), "%s/initramfs.cpio",
		 t->dir);
	snprintf(t->console, sizeof(t->console), "%s/console.log", t->dir);
	snprintf(t->data, sizeof(t->data), "%s/channel.out", t->dir);
	snprintf(t->log, sizeof(t->log), "%s/qemu.log", t->dir);
	return 0;
}

/* One boot's outcome. */
struct boot_done {
	bool ok, interrupted, spawn_failed;
	int64_t run_id;
	double wall_s;
};

/* Boot side sd once (boot number no of total) and bring its run home. */
static void one_boot(struct boot_cli *bc, struct store *st,
		     struct boot_side *sd, const struct boot_keys *k,
		     enum boot_accel acc, const struct boot_tmp *t,
		     const char *run_cmd, int no, int total,
		     struct boot_done *d)
{
	struct boot_qemu q;
	struct boot_report rep;
	char append[4096], why[1024], err[1024], missing[1024], last[256];
	char **argv = NULL, *data = NULL, *console = NULL;
	size_t dlen = 0, clen = 0, nres = 0;
	int64_t started = real_ns();
	enum boot_end end;
	int status = 0;

	memset(d, 0, sizeof(*d));
	memset(&rep, 0, sizeof(rep));
	rep.run_rc = rep.export_rc = -1;
	missing[0] = why[0] = '\0';
	snprintf(append, sizeof(append), "%s%s%s", BOOT_BASE_APPEND,
		 sd->append[0] ? " " : "", sd->append);
	unlink(t->console);
	unlink(t->data);
	memset(&q, 0, sizeof(q));
	q.qemu = bc->qemu;
	q.accel = acc;
	q.smp = bc->smp;
	q.memory_mib = bc->memory_mib;
	q.kernel = sd->kernel_abs;
	q.initramfs = t->initramfs;
	q.append = append;
	q.console_path = t->console;
	q.data_path = t->data;
	q.log_path = t->log;
	q.extra = bc->qemu_args;
	q.nextra = bc->nqemu_args;
	argv = boot_qemu_argv(&q);
	printf("boot %d/%d  side %s: ", no, total, sd->name);
	fflush(stdout);
	if (!argv) {
		snprintf(why, sizeof(why), "out of memory");
		goto failed;
	}
	end = boot_run_qemu(argv, t->log, bc->timeout_s, &boot_stop, &status,
			    &d->wall_s, err, sizeof(err));
	boot_free_argv(argv);
	if (end == BOOT_END_SPAWN_FAILED) {
		printf("qemu did not start\n");
		cli_error("boot: %s (install qemu-system-x86: "
			  "scripts/install-deps.sh)", err);
		d->spawn_failed = true;
		return;
	}
	if (end == BOOT_END_INTERRUPTED) {
		printf("interrupted after %.1f s; qemu stopped, nothing "
		       "stored for this boot\n", d->wall_s);
		d->interrupted = true;
		return;
	}
	data = slurp(t->data, &dlen);
	console = slurp(t->console, &clen);
	if (!data || !console) {
		snprintf(why, sizeof(why), "out of memory");
		goto failed;
	}
	boot_parse_report(data, dlen, &rep);
	if (rep.begun)
		boot_cmdline_missing(sd->append, rep.cmdline, missing,
				     sizeof(missing));
	if (end == BOOT_END_TIMEOUT) {
		last_line(console, clen, last, sizeof(last));
		snprintf(why, sizeof(why), "no end after %g s (--timeout-s): a "
			 "hung guest? qemu was killed; the console's last "
			 "line: %s", bc->timeout_s, last);
		goto failed;
	}
	if (boot_console_failure(console, clen, last, sizeof(last)) &&
	    !rep.ended) {
		snprintf(why, sizeof(why), "the guest kernel failed: %s",
			 last);
		goto failed;
	}
	if (!rep.begun || !rep.ended || !rep.export_text ||
	    rep.export_rc != 0) {
		telling_line(console, clen, last, sizeof(last));
		snprintf(why, sizeof(why), "%s (qemu exit status %d); the "
			 "console says: %s", !rep.begun ?
			 "the guest never reported (no /init output)" :
			 !rep.export_text || rep.export_rc != 0 ?
			 "the guest's copyscope stored no run to send" :
			 "the guest's report was cut short",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, last);
		goto failed;
	}
	if (import_boot(st, sd, k, &rep, missing, &d->run_id, &nres, err,
			sizeof(err)) != 0) {
		snprintf(why, sizeof(why), "its run could not be imported: %s",
			 err);
		goto failed;
	}
	d->ok = true;
	printf("run %lld, %zu results, %.1f s\n", (long long)d->run_id, nres,
	       d->wall_s);
	printf("    kernel %s, boot id %s\n", rep.release, rep.boot_id);
	printf("    cmdline: %s\n", rep.cmdline);
	if (rep.run_rc != 0)
		printf("    the guest's copyscope run exited %d (some "
		       "workload failed or could not run there: "
		       "'copyscope show %lld')\n", rep.run_rc,
		       (long long)d->run_id);
	goto checks;
failed:
	sd->nfailed++;
	d->run_id = 0;
	if (record_failure(st, sd, k, &rep, why, run_cmd, started,
			   &d->run_id, err, sizeof(err)) != 0)
		printf("FAILED after %.1f s: %s\n    (not recorded: %s)\n",
		       d->wall_s, why, err);
	else
		printf("FAILED after %.1f s: %s\n    recorded as run %lld "
		       "(status failed)\n", d->wall_s, why,
		       (long long)d->run_id);
checks:
	if (missing[0]) {
		printf("    WARNING: not in the guest's /proc/cmdline: %s\n",
		       missing);
		cli_error("WARNING: boot %d (side %s): '%s' is not in the "
			  "guest's /proc/cmdline", no, sd->name, missing);
	}
	if (rep.unknown[0]) {
		printf("    unknown to the guest kernel: %s (passed to init "
		       "instead; no effect)\n", rep.unknown);
		cli_error("WARNING: boot %d (side %s): the guest kernel did "
			  "not recognise: %s", no, sd->name, rep.unknown);
	}
	if (d->ok) {
		const struct env *env = &sd->envs[sd->nenvs - 1];
		int s;

		for (s = 0; s < BOOT_NSETTINGS; s++) {
			char msg[1024];

			if (!boot_setting_not_applied(sd->append, env,
						      (enum boot_setting)s,
						      msg, sizeof(msg)))
				continue;
			printf("    WARNING: %s\n", msg);
			cli_error("WARNING: boot %d (side %s): %s", no,
				  sd->name, msg);
		}
	}
	fflush(stdout);
	free(data);
	free(console);
}

/* The run command the guest runs, for messages and failed runs. */
static char *run_command(struct boot_cli *bc)
{
	return cli_join_cmdline((int)bc->nrun_args, bc->run_args);
}

int cmd_boot(int argc, char **argv)
{
	struct boot_cli bc;
	struct boot_kvm_probe probe;
	struct boot_keys keys;
	struct boot_tmp tmp;
	struct sigaction sa, old_int, old_term;
	struct store *st = NULL;
	enum boot_accel acc;
	char why[512], err[1024], path[4096], cs[PATH_MAX], bb[PATH_MAX];
	char accel_text[640];
	char *script = NULL, *qsum = NULL, *run_cmd = NULL;
	int e, i, total, done = 0, nok = 0, nfail = 0, nbad = 0;
	double t0, wall_sum = 0;
	bool interrupted = false, spawn_failed = false;

	memset(&bc, 0, sizeof(bc));
	memset(&tmp, 0, sizeof(tmp));
	bc.boots = BOOT_DEFAULT_BOOTS;
	bc.timeout_s = BOOT_DEFAULT_TIMEOUT_S;
	bc.accel = "auto";
	bc.smp = BOOT_DEFAULT_SMP;
	bc.memory_mib = BOOT_DEFAULT_MEMORY_MIB;
	bc.qemu = "qemu-system-x86_64";
	bc.busybox = "/bin/busybox";
	e = parse_args(&bc, argc, argv);
	if (e)
		return e < 0 ? EXIT_OK : e;
	script = boot_init_script(bc.run_args + 1, bc.nrun_args - 1);
	if (!script) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	if (bc.print_script) {
		fputs(script, stdout);
		free(script);
		return EXIT_OK;
	}
	e = check_guest_binaries(&bc, cs, sizeof(cs), bb, sizeof(bb));
	if (e)
		goto out;
	if (!in_path(bc.qemu)) {
		cli_error("boot: %s: not found (Debian: apt-get install "
			  "qemu-system-x86, or scripts/install-deps.sh)",
			  bc.qemu);
		e = EXIT_NOTHING_RAN;
		goto out;
	}
	boot_kvm_probe(&probe);
	if (boot_pick_accel(bc.accel, &probe, &acc, why, sizeof(why)) != 0) {
		cli_error("boot: --accel kvm: %s", why);
		e = EXIT_NOTHING_RAN;
		goto out;
	}
	if (acc == BOOT_ACCEL_TCG)
		snprintf(accel_text, sizeof(accel_text), "tcg (%s)", why);
	else
		snprintf(accel_text, sizeof(accel_text), "kvm");
	keys.accel = accel_text;
	keys.emulated = acc == BOOT_ACCEL_TCG;
	qsum = qemu_summary(&bc, acc);
	run_cmd = run_command(&bc);
	if (!qsum || !run_cmd) {
		cli_error("out of memory");
		e = EXIT_FAIL;
		goto out;
	}
	keys.qemu = qsum;
	e = cli_open_store(bc.db, &st, path, sizeof(path));
	if (e)
		goto out;
	if (tmp_make(&tmp) != 0) {
		e = EXIT_FAIL;
		goto out;
	}
	if (boot_write_initramfs(tmp.initramfs, script, bb, cs, err,
				 sizeof(err)) != 0) {
		cli_error("boot: %s", err);
		e = EXIT_FAIL;
		goto out;
	}
	if (keys.emulated)
		cli_error("warning: the guests run under TCG, qemu's "
			  "emulator (%s): their timings measure the emulator, "
			  "not the kernel.  Every run is marked "
			  "virt.emulated=yes and compare gives no verdicts on "
			  "them (--allow-emulated to force).", why);
	total = bc.boots * bc.nsides;
	printf("copyscope boot: %d side%s x %d boot%s%s, %s; accel %s\n",
	       bc.nsides, bc.nsides == 1 ? "" : "s", bc.boots,
	       bc.boots == 1 ? "" : "s",
	       bc.nsides == 2 ? " alternating" : "", run_cmd,
	       keys.emulated ? "TCG (emulated)" : "KVM");
	for (i = 0; i < bc.nsides; i++)
		printf("  side %s: %s, append \"%s%s%s\"\n", bc.side[i].name,
		       bc.side[i].kernel_abs, BOOT_BASE_APPEND,
		       bc.side[i].append[0] ? " " : "", bc.side[i].append);
	fflush(stdout);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* the store's writes go on; the waits of boot_run_qemu (nanosleep,
	   waitpid WNOHANG) see the flag within 20 ms */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	boot_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	t0 = real_s();
	for (i = 0; i < total && !boot_stop; i++) {
		struct boot_done d;

		one_boot(&bc, st, &bc.side[i % bc.nsides], &keys, acc, &tmp,
			 run_cmd, i + 1, total, &d);
		if (d.spawn_failed) {
			spawn_failed = true;
			break;
		}
		if (d.interrupted) {
			interrupted = true;
			break;
		}
		done++;
		wall_sum += d.wall_s;
		nok += d.ok;
		nfail += !d.ok;
	}
	interrupted |= boot_stop != 0;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (bc.nsides == 2 && !spawn_failed)
		nbad = check_sides(&bc);
	printf("\n%d of %d boots done in %.0f s (%.1f s per boot): %d "
	       "imported, %d failed%s\n", done, total, real_s() - t0,
	       done ? wall_sum / done : 0.0, nok, nfail,
	       interrupted ? "; interrupted (what was imported is kept)" :
	       "");
	for (i = 0; i < bc.nsides; i++) {
		size_t r;

		printf("  %s: %zu run%s", bc.side[i].name, bc.side[i].nruns,
		       bc.side[i].nruns == 1 ? "" : "s");
		for (r = 0; r < bc.side[i].nruns; r++)
			printf("%s%lld", r ? "," : " ",
			       (long long)bc.side[i].run_ids[r]);
		if (bc.side[i].nfailed)
			printf(", %zu failed boot%s", bc.side[i].nfailed,
			       bc.side[i].nfailed == 1 ? "" : "s");
		putchar('\n');
	}
	cli_clean_text(path, err, sizeof(err));
	printf("stored in %s\n", err);
	if (bc.nsides == 2 && nok)
		printf("compare: copyscope compare %s %s%s\n",
		       bc.side[0].name, bc.side[1].name,
		       keys.emulated ? "   (emulated: numbers, no verdicts)" :
		       "");
	if (nbad)
		printf("WARNING: %d setting%s did not differ between the "
		       "sides as asked (above)\n", nbad, nbad == 1 ? "" : "s");
	e = interrupted ? EXIT_INTERRUPTED : spawn_failed ? EXIT_NOTHING_RAN :
	    nfail ? EXIT_FAIL : EXIT_OK;
out:
	tmp_remove(&tmp);
	if (st)
		store_close(st);
	for (i = 0; i < 2; i++) {
		size_t k;

		for (k = 0; k < bc.side[i].nenvs; k++)
			env_free(&bc.side[i].envs[k]);
		free(bc.side[i].envs);
		free(bc.side[i].run_ids);
	}
	free(script);
	free(qsum);
	free(run_cmd);
	return e;
}
