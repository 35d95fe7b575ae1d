/*
 * boot_ab.c - the boot A/B loop (see boot_ab.h): the temporary directory,
 * the boots with the sides alternating, each boot's block of progress,
 * and the summary.  What is checked before any boot (the guests'
 * architecture and files, qemu, the accelerator) is boot_ab_prepare.c;
 * what a boot leaves in the store is boot_ab_runs.c.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "results/codec.h"
#include "session/boot_ab.h"
#include "util/file.h"
#include "util/msg.h"
#include "util/process.h"

static volatile sig_atomic_t boot_stop;

static void on_signal(int sig)
{
	boot_stop = sig;
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

/* ---- before any boot ---- */

void boot_ab_spec_init(struct boot_ab_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->boots = BOOT_DEFAULT_BOOTS;
	spec->timeout_s = BOOT_DEFAULT_TIMEOUT_S;
	spec->accel = "auto";
	spec->arch = "auto";
	spec->smp = BOOT_DEFAULT_SMP;
	spec->memory_mib = BOOT_DEFAULT_MEMORY_MIB;
	spec->qemu = NULL;
	spec->busybox = "/bin/busybox";
	spec->out = stdout;
}

/* ---- the temporary directory ---- */

struct boot_tmp {
	char dir[PATH_MAX];
	char initramfs[PATH_MAX], console[PATH_MAX], data[PATH_MAX];
	char log[PATH_MAX];
};

/* The files in the directory t->dir. */
static void tmp_paths(struct boot_tmp *t)
{
	snprintf(t->initramfs, sizeof(t->initramfs), "%s/initramfs.cpio",
		 t->dir);
	snprintf(t->console, sizeof(t->console), "%s/console.log", t->dir);
	snprintf(t->data, sizeof(t->data), "%s/channel.out", t->dir);
	snprintf(t->log, sizeof(t->log), "%s/qemu.log", t->dir);
}

static void tmp_remove(struct boot_tmp *t)
{
	if (!t->dir[0])
		return;
	unlink(t->initramfs);
	unlink(t->console);
	unlink(t->data);
	unlink(t->log);
	if (rmdir(t->dir) != 0)
		msg_error("warning: cannot remove %s: %s", t->dir,
			  strerror(errno));
	t->dir[0] = '\0';
}

static int tmp_make(struct boot_tmp *t)
{
	const char *base = getenv("TMPDIR");

	snprintf(t->dir, sizeof(t->dir), "%s/copyscope-boot.XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(t->dir)) {
		msg_error("boot: cannot make a temporary directory %s: %s",
			  t->dir, strerror(errno));
		t->dir[0] = '\0';
		return -1;
	}
	tmp_paths(t);
	return 0;
}

/* ---- one boot ---- */

/* Run qemu on side `side`; a failure to build its arguments is FAILED. */
static enum boot_end boot_qemu(const struct boot_ab_spec *spec,
			       const struct boot_ab_result *res, int side,
			       const struct boot_tmp *t,
			       const volatile sig_atomic_t *stop, int *status,
			       struct boot_ab_boot *b, bool *oom)
{
	const struct boot_ab_side *sd = &spec->side[side];
	struct boot_qemu q;
	char append[4096], **argv;
	enum boot_end end;

	snprintf(append, sizeof(append), "%s%s%s",
		 boot_arch_info(res->arch)->base_append,
		 sd->append[0] ? " " : "", sd->append);
	memset(&q, 0, sizeof(q));
	q.qemu = spec->qemu ? spec->qemu : boot_arch_info(res->arch)->qemu;
	q.arch = res->arch;
	q.accel = res->accel;
	q.smp = spec->smp;
	q.memory_mib = spec->memory_mib;
	q.kernel = sd->kernel_abs;
	q.initramfs = t->initramfs;
	q.append = append;
	q.console_path = t->console;
	q.data_path = t->data;
	q.log_path = t->log;
	q.extra = spec->qemu_args;
	q.nextra = spec->nqemu_args;
	argv = boot_qemu_argv(&q);
	*oom = !argv;
	if (!argv)
		return BOOT_END_EXITED;
	end = boot_run_qemu(argv, t->log, spec->timeout_s, stop, status,
			    &b->wall_s, b->why, sizeof(b->why));
	boot_free_argv(argv);
	return end;
}

/* A failed boot (b->why says why) stored as a failed run, if it can be. */
static void record_failed(const struct boot_ab_spec *spec, struct store *st,
			  const struct boot_ab_result *res, int64_t started_ns,
			  struct boot_ab_boot *b)
{
	b->outcome = BOOT_AB_FAILED;
	b->run_id = 0;
	if (boot_ab_record_failure(st, spec, res, b->side, &b->rep, b->why,
				   started_ns, &b->run_id, b->not_recorded,
				   sizeof(b->not_recorded)) == 0)
		return;
	b->run_id = 0;
	if (!b->not_recorded[0])
		snprintf(b->not_recorded, sizeof(b->not_recorded),
			 "the store gave no reason");
}

/* A qemu that ended: judge it, import its run or record the failure. */
static void boot_outcome(const struct boot_ab_spec *spec, struct store *st,
			 struct boot_ab_result *res, const struct boot_tmp *t,
			 enum boot_end end, int status, int64_t started_ns,
			 struct boot_ab_boot *b)
{
	const char *append = spec->side[b->side].append;
	char *data, *console, err[1024];
	size_t dlen = 0, clen = 0;
	bool imported = false;

	data = util_slurp(t->data, &dlen, true);
	console = util_slurp(t->console, &clen, true);
	if (!data || !console) {
		snprintf(b->why, sizeof(b->why), "out of memory");
	} else if (boot_ab_judge(end, status, spec->timeout_s, data, dlen,
				 console, clen, append, &b->rep, b->missing,
				 sizeof(b->missing), b->why, sizeof(b->why))) {
		if (boot_ab_import(st, spec, res, b->side, &b->rep, b->missing,
				   &b->run_id, &b->nresults, err,
				   sizeof(err)) == 0)
			imported = true;
		else
			snprintf(b->why, sizeof(b->why), "its run could not "
				 "be imported: %s", err);
	}
	b->rep.export_text = NULL;
	b->rep.export_len = 0;
	free(data);
	free(console);
	if (!imported) {
		size_t llen = 0;
		char *log = util_slurp(t->log, &llen, true);

		boot_ab_add_qemu_says(b->why, sizeof(b->why), log, llen);
		free(log);
	}
	if (imported) {
		b->outcome = BOOT_AB_IMPORTED;
		return;
	}
	record_failed(spec, st, res, started_ns, b);
}

/* The warnings after a boot that arrived: asked, and what the guest has. */
static void print_checks(FILE *out, const struct boot_ab_spec *spec,
			 const struct boot_ab_result *res,
			 const struct boot_ab_boot *b)
{
	const struct boot_ab_side *sd = &spec->side[b->side];
	const struct boot_ab_side_runs *sr = &res->side[b->side];
	int s;

	/* each line on stdout before its warning on stderr, which would
	 * otherwise cut the boot's lines where both go to one terminal */
	fflush(out);
	if (b->missing[0]) {
		fprintf(out, "    WARNING: not in the guest's /proc/cmdline: "
			"%s\n", b->missing);
		fflush(out);
		msg_error("WARNING: boot %d (side %s): '%s' is not in the "
			  "guest's /proc/cmdline", b->no, sd->name,
			  b->missing);
	}
	if (b->rep.unknown[0]) {
		fprintf(out, "    unknown to the guest kernel: %s (passed to "
			"init instead; no effect)\n", b->rep.unknown);
		fflush(out);
		msg_error("WARNING: boot %d (side %s): the guest kernel did "
			  "not recognise: %s", b->no, sd->name,
			  b->rep.unknown);
	}
	if (b->outcome != BOOT_AB_IMPORTED || !sr->nenvs)
		return;
	for (s = 0; s < BOOT_NSETTINGS; s++) {
		char msg[1024];

		if (!boot_setting_applies((enum boot_setting)s, res->arch) ||
		    !boot_setting_not_applied(sd->append,
					      &sr->envs[sr->nenvs - 1],
					      (enum boot_setting)s, msg,
					      sizeof(msg)))
			continue;
		fprintf(out, "    WARNING: %s\n", msg);
		fflush(out);
		msg_error("WARNING: boot %d (side %s): %s", b->no, sd->name,
			  msg);
	}
}

/* The rest of a boot's block, after "boot N/M  side S: ". */
static void print_boot(FILE *out, const struct boot_ab_spec *spec,
		       const struct boot_ab_result *res,
		       const struct boot_ab_boot *b)
{
	switch (b->outcome) {
	case BOOT_AB_SPAWN_FAILED:
		fprintf(out, "qemu did not start\n");
		msg_error("boot: %s (install %s: scripts/install-deps.sh)",
			  b->why, boot_arch_info(res->arch)->qemu_pkg);
		return;
	case BOOT_AB_INTERRUPTED:
		fprintf(out, "interrupted after %.1f s; qemu stopped, nothing "
			"stored for this boot\n", b->wall_s);
		return;
	case BOOT_AB_IMPORTED:
		fprintf(out, "run %lld, %zu results, %.1f s\n",
			(long long)b->run_id, b->nresults, b->wall_s);
		fprintf(out, "    kernel %s, boot id %s\n", b->rep.release,
			b->rep.boot_id);
		fprintf(out, "    cmdline: %s\n", b->rep.cmdline);
		if (b->rep.run_rc != 0)
			fprintf(out, "    the guest's copyscope run exited %d "
				"(some workload failed or could not run "
				"there: 'copyscope show %lld')\n",
				b->rep.run_rc, (long long)b->run_id);
		break;
	case BOOT_AB_FAILED:
		if (b->not_recorded[0])
			fprintf(out, "FAILED after %.1f s: %s\n    (not "
				"recorded: %s)\n", b->wall_s, b->why,
				b->not_recorded);
		else
			fprintf(out, "FAILED after %.1f s: %s\n    recorded "
				"as run %lld (status failed)\n", b->wall_s,
				b->why, (long long)b->run_id);
		break;
	}
	print_checks(out, spec, res, b);
}

void boot_ab_one(const struct boot_ab_spec *spec, struct store *st,
		 struct boot_ab_result *res, int side, const char *tmpdir,
		 const volatile sig_atomic_t *stop, int no, int total,
		 struct boot_ab_boot *b)
{
	FILE *out = spec->out ? spec->out : stdout;
	int64_t started = real_ns();
	struct boot_tmp t;
	enum boot_end end;
	int status = 0;
	bool oom;

	memset(b, 0, sizeof(*b));
	b->no = no;
	b->total = total;
	b->side = side;
	b->rep.run_rc = b->rep.export_rc = -1;
	snprintf(t.dir, sizeof(t.dir), "%s", tmpdir);
	tmp_paths(&t);
	unlink(t.console);
	unlink(t.data);
	fprintf(out, "boot %d/%d  side %s: ", no, total,
		spec->side[side].name);
	fflush(out);
	end = boot_qemu(spec, res, side, &t, stop, &status, b, &oom);
	if (oom) {
		snprintf(b->why, sizeof(b->why), "out of memory");
		record_failed(spec, st, res, started, b);
	} else if (end == BOOT_END_SPAWN_FAILED) {
		b->outcome = BOOT_AB_SPAWN_FAILED;
	} else if (end == BOOT_END_INTERRUPTED) {
		b->outcome = BOOT_AB_INTERRUPTED;
	} else {
		b->why[0] = '\0';
		boot_outcome(spec, st, res, &t, end, status, started, b);
	}
	if (b->outcome == BOOT_AB_FAILED)
		res->side[side].nfailed++;
	print_boot(out, spec, res, b);
	fflush(out);
}

/* ---- the loop ---- */

/* prefix and text's words, wrapped at 80 columns under the text. */
static void print_words(FILE *out, const char *prefix, const char *text)
{
	size_t indent = strlen(prefix), col = indent;
	const char *p = text;

	fputs(prefix, out);
	while (*p) {
		size_t n = strcspn(p, " ");

		if (col > indent && col + 1 + n > 80) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)n, p);
		col += n;
		p += n;
		p += strspn(p, " ");
	}
	fputc('\n', out);
}

static void print_header(FILE *out, const struct boot_ab_spec *spec,
			 const struct boot_ab_result *res)
{
	int i;

	fprintf(out, "copyscope boot: %d side%s x %d boot%s%s, %s; accel %s\n",
		spec->nsides, spec->nsides == 1 ? "" : "s", spec->boots,
		spec->boots == 1 ? "" : "s",
		spec->nsides == 2 ? " alternating" : "", spec->run_cmd,
		res->emulated ? "TCG (emulated)" : "KVM");
	fprintf(out, "  guest: %s (%s)\n", boot_arch_info(res->arch)->name,
		res->arch_why);
	print_words(out, "  qemu: ", res->qemu_summary);
	for (i = 0; i < spec->nsides; i++)
		fprintf(out, "  side %s: %s, append \"%s%s%s\"\n",
			spec->side[i].name, spec->side[i].kernel_abs,
			boot_arch_info(res->arch)->base_append,
			spec->side[i].append[0] ? " " : "",
			spec->side[i].append);
	fflush(out);
}

/* Every boot, sides alternating, until done, a signal or no qemu. */
static void boots(const struct boot_ab_spec *spec, struct store *st,
		  struct boot_ab_result *res, const char *tmpdir)
{
	struct sigaction sa, old_int, old_term, old_hup;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* the store's writes go on; the waits of boot_run_qemu (nanosleep,
	   waitpid WNOHANG) see the flag within 20 ms */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	boot_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	/* the terminal went away: stop as for Ctrl-C (qemu stopped, the
	   temporary directory removed, the boots imported kept) */
	sigaction(SIGHUP, &sa, &old_hup);
	for (i = 0; i < res->total && !boot_stop; i++) {
		struct boot_ab_boot b;

		boot_ab_one(spec, st, res, i % spec->nsides, tmpdir,
			    &boot_stop, i + 1, res->total, &b);
		if (b.outcome == BOOT_AB_SPAWN_FAILED) {
			res->spawn_failed = true;
			break;
		}
		if (b.outcome == BOOT_AB_INTERRUPTED) {
			res->interrupted = true;
			break;
		}
		res->done++;
		res->wall_sum_s += b.wall_s;
		res->nok += b.outcome == BOOT_AB_IMPORTED;
		res->nfail += b.outcome != BOOT_AB_IMPORTED;
	}
	res->interrupted |= boot_stop != 0;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
}

int boot_ab_run(const struct boot_ab_spec *spec, struct store *st,
		struct boot_ab_result *res)
{
	FILE *out = spec->out ? spec->out : stdout;
	struct boot_tmp tmp;
	char err[1024];
	double t0;

	memset(&tmp, 0, sizeof(tmp));
	if (tmp_make(&tmp) != 0)
		return -1;
	if (boot_write_initramfs(tmp.initramfs, res->script, res->busybox,
				 res->cstatic, err, sizeof(err)) != 0) {
		msg_error("boot: %s", err);
		tmp_remove(&tmp);
		return -1;
	}
	if (res->emulated)
		msg_error("warning: the guests run under TCG, qemu's "
			  "emulator (%s): their timings measure the emulator, "
			  "not the kernel.  Every run is marked "
			  "virt.emulated=yes and compare gives no verdicts on "
			  "them (--allow-emulated to force).", res->accel_why);
	res->total = spec->boots * spec->nsides;
	print_header(out, spec, res);
	t0 = real_s();
	boots(spec, st, res, tmp.dir);
	if (spec->nsides == 2 && !res->spawn_failed)
		res->nbad = boot_ab_check_sides(out, spec, res);
	res->elapsed_s = real_s() - t0;
	tmp_remove(&tmp);
	return 0;
}

void boot_ab_print_summary(FILE *out, const struct boot_ab_spec *spec,
			   const struct boot_ab_result *res,
			   const char *db_path)
{
	char *clean;
	int i;

	fprintf(out, "\n%d of %d boots done in %.0f s (%.1f s per boot): %d "
		"imported, %d failed%s\n", res->done, res->total,
		res->elapsed_s, res->done ? res->wall_sum_s / res->done : 0.0,
		res->nok, res->nfail, res->interrupted ?
		"; interrupted (what was imported is kept)" : "");
	for (i = 0; i < spec->nsides; i++) {
		const struct boot_ab_side_runs *sr = &res->side[i];
		size_t r;

		fprintf(out, "  %s: %zu run%s", spec->side[i].name, sr->nruns,
			sr->nruns == 1 ? "" : "s");
		for (r = 0; r < sr->nruns; r++)
			fprintf(out, "%s%lld", r ? "," : " ",
				(long long)sr->run_ids[r]);
		if (sr->nfailed)
			fprintf(out, ", %zu failed boot%s", sr->nfailed,
				sr->nfailed == 1 ? "" : "s");
		fputc('\n', out);
	}
	clean = codec_clean_text(db_path, true);
	fprintf(out, "stored in %s\n", clean ? clean : "?");
	free(clean);
	if (spec->nsides == 2 && res->nok)
		fprintf(out, "compare: copyscope compare %s %s%s\n",
			spec->side[0].name, spec->side[1].name,
			res->emulated ? "   (emulated: numbers, no verdicts)" :
			"");
	if (res->nbad)
		fprintf(out, "WARNING: %d setting%s did not differ between the "
			"sides as asked (above)\n", res->nbad,
			res->nbad == 1 ? "" : "s");
}

char *boot_ab_init_script(const struct boot_ab_spec *spec)
{
	enum boot_arch a = boot_host_arch();

	if (spec->arch && strcmp(spec->arch, "auto") != 0)
		(void)boot_arch_parse(spec->arch, &a);
	return boot_init_script(boot_arch_info(a)->data_tty,
				spec->run_args + 1, spec->nrun_args - 1);
}
