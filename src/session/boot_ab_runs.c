/*
 * boot_ab_runs.c - what one boot of the boot A/B loop leaves in the
 * store (see boot_ab.h): how it ended judged from its console and report,
 * its run imported with the boot keys, or its failure recorded as a
 * failed run; and the check between the sides that the settings asked
 * for took effect in their guests.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "results/codec.h"
#include "results/exchange.h"
#include "session/boot_ab.h"
#include "util/msg.h"
#include "util/random_id.h"

#ifndef COPYSCOPE_VERSION
#define COPYSCOPE_VERSION "unknown"
#endif

static int64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* s made printable into buf (its bytes that are not, as \xNN). */
static void clean_text(const char *s, char *buf, size_t len)
{
	char *clean = codec_clean_text(s ? s : "", true);

	snprintf(buf, len, "%s", clean ? clean : "?");
	free(clean);
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
	clean_text(out, out, olen);
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
	clean_text(out, out, olen);
}

bool boot_ab_judge(enum boot_end end, int status, double timeout_s,
		   const char *data, size_t dlen, const char *console,
		   size_t clen, const char *append, struct boot_report *rep,
		   char *missing, size_t missing_len, char *why,
		   size_t whylen)
{
	char last[256];

	missing[0] = why[0] = '\0';
	boot_parse_report(data, dlen, rep);
	if (rep->begun)
		boot_cmdline_missing(append, rep->cmdline, missing,
				     missing_len);
	if (end == BOOT_END_TIMEOUT) {
		last_line(console, clen, last, sizeof(last));
		snprintf(why, whylen, "no end after %g s (--timeout-s): a "
			 "hung guest? qemu was killed; the console's last "
			 "line: %s", timeout_s, last);
		return false;
	}
	if (boot_console_failure(console, clen, last, sizeof(last)) &&
	    !rep->ended) {
		snprintf(why, whylen, "the guest kernel failed: %s", last);
		return false;
	}
	if (!rep->begun || !rep->ended || !rep->export_text ||
	    rep->export_rc != 0) {
		telling_line(console, clen, last, sizeof(last));
		snprintf(why, whylen, "%s (qemu exit status %d); %s%s",
			 !rep->begun ?
			 "the guest never reported (no /init output)" :
			 !rep->export_text || rep->export_rc != 0 ?
			 "the guest's copyscope stored no run to send" :
			 "the guest's report was cut short",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1,
			 last[0] ? "the console says: " :
			 BOOT_AB_EMPTY_CONSOLE, last);
		return false;
	}
	return true;
}

void boot_ab_add_qemu_says(char *why, size_t whylen, const char *log,
			   size_t loglen)
{
	char last[256];
	size_t used = strlen(why);

	if (!log || !loglen || used < strlen(BOOT_AB_EMPTY_CONSOLE) ||
	    strcmp(why + used - strlen(BOOT_AB_EMPTY_CONSOLE),
		   BOOT_AB_EMPTY_CONSOLE) != 0)
		return;
	last_line(log, loglen, last, sizeof(last));
	if (last[0])
		snprintf(why + used, whylen - used, "; qemu says: %s", last);
}

/* What every run of a side's boot gets in its environment. */
static int set_boot_env(struct env *env, const struct boot_ab_spec *spec,
			const struct boot_ab_result *res, int side,
			const struct boot_report *rep, const char *missing)
{
	const struct boot_ab_side *sd = &spec->side[side];

	return env_set(env, "virt.emulated", res->emulated ?
		       "yes (qemu TCG: timings measure the emulator, not the "
		       "kernel)" : "no (qemu KVM)") ||
	       env_set(env, "boot.side", sd->name) ||
	       env_set(env, "boot.arch", boot_arch_info(res->arch)->name) ||
	       env_set(env, "boot.append", sd->append[0] ? sd->append :
		       "(none)") ||
	       env_set(env, "boot.kernel_image", sd->kernel_abs) ||
	       env_set(env, "boot.accel", res->accel_text) ||
	       env_set(env, "boot.qemu", res->qemu_summary) ||
	       env_set(env, "boot.unknown_params", !rep->begun ? "unknown" :
		       rep->unknown[0] ? rep->unknown : "none") ||
	       env_set(env, "boot.cmdline_check", !rep->begun ? "unknown" :
		       missing[0] ? missing : "ok");
}

/* Copy env into the side's list (for the checks between sides). */
static int keep_env(struct boot_ab_side_runs *sd, const struct env *env,
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

/* The one run of an export text into *runs (*n of them); 0 or -1. */
static int read_export(const struct boot_report *rep, struct run_data **runs,
		       size_t *n, char *err, size_t errlen)
{
	char e2[1024];
	FILE *in;
	int rc;

	in = fmemopen((void *)rep->export_text, rep->export_len, "r");
	if (!in) {
		snprintf(err, errlen, "fmemopen: %s", strerror(errno));
		return -1;
	}
	rc = exchange_read(in, "the guest's export", runs, n, e2, sizeof(e2));
	fclose(in);
	if (rc != 0) {
		snprintf(err, errlen, "%s", e2);
		return -1;
	}
	if (*n != 1) {
		snprintf(err, errlen, "the guest sent %zu runs, not 1", *n);
		exchange_free(*runs, *n);
		return -1;
	}
	return 0;
}

int boot_ab_import(struct store *st, const struct boot_ab_spec *spec,
		   struct boot_ab_result *res, int side,
		   const struct boot_report *rep, const char *missing,
		   int64_t *run_id, size_t *nresults, char *err,
		   size_t errlen)
{
	struct run_data *runs = NULL;
	size_t n = 0;
	char e2[1024];
	int rc;

	if (!rep->export_text) {
		snprintf(err, errlen, "the guest sent no export");
		return -1;
	}
	if (read_export(rep, &runs, &n, err, errlen) != 0)
		return -1;
	snprintf(runs[0].info.tag, sizeof(runs[0].info.tag), "%s",
		 spec->side[side].name);
	if (set_boot_env(&runs[0].env, spec, res, side, rep, missing)) {
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
	if (keep_env(&res->side[side], &runs[0].env, *run_id)) {
		snprintf(err, errlen, "out of memory");
		exchange_free(runs, n);
		return -1;
	}
	exchange_free(runs, n);
	return 0;
}

int boot_ab_record_failure(struct store *st, const struct boot_ab_spec *spec,
			   const struct boot_ab_result *res, int side,
			   const struct boot_report *rep, const char *why,
			   int64_t started_ns, int64_t *run_id, char *err,
			   size_t errlen)
{
	struct run_data run;
	int rc = -1;

	memset(&run, 0, sizeof(run));
	result_set_init(&run.results);
	if (util_random_id(run.info.uuid, sizeof(run.info.uuid)) != 0) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		return -1;
	}
	run.info.started_ns = started_ns;
	run.info.finished_ns = real_ns();
	snprintf(run.info.tag, sizeof(run.info.tag), "%s",
		 spec->side[side].name);
	snprintf(run.info.host, sizeof(run.info.host), "copyscope-guest");
	snprintf(run.info.boot_id, sizeof(run.info.boot_id), "%s",
		 rep->boot_id);
	snprintf(run.info.tool_version, sizeof(run.info.tool_version), "%s",
		 COPYSCOPE_VERSION);
	snprintf(run.info.build_flavour, sizeof(run.info.build_flavour),
		 "static");
	snprintf(run.info.status, sizeof(run.info.status), "failed");
	if (asprintf(&run.info.cmdline, "%s (in a guest of copyscope boot; "
		     "the boot failed)", spec->run_cmd) < 0) {
		run.info.cmdline = NULL;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (set_boot_env(&run.env, spec, res, side, rep, "") ||
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
static size_t side_states(const struct boot_ab_side_runs *sd,
			  enum boot_setting s, char (*out)[1024], size_t max)
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
 * One setting s that the sides ask differently (words wa and wb): what
 * their guests show, to out.  Returns 1 when they do not differ in it.
 */
static int check_setting(FILE *out, const struct boot_ab_spec *spec,
			 const struct boot_ab_result *res,
			 enum boot_setting s, const char *wa, const char *wb,
			 char (*sa)[1024], char (*sb)[1024])
{
	const char *a = spec->side[0].name, *b = spec->side[1].name;
	size_t na, nb, i;

	na = side_states(&res->side[0], s, sa, BOOT_MAX_BOOTS);
	nb = side_states(&res->side[1], s, sb, BOOT_MAX_BOOTS);
	fprintf(out, "  %s: %s asks '%s', %s asks '%s'\n",
		boot_setting_name(s), a, wa[0] ? wa : "(default)", b,
		wb[0] ? wb : "(default)");
	if (!na || !nb) {
		fprintf(out, "    not checked: no boot of side '%s' "
			"arrived\n", !na ? a : b);
		return 0;
	}
	for (i = 0; i < na; i++)
		fprintf(out, "    %s: %s\n", a, sa[i]);
	for (i = 0; i < nb; i++)
		fprintf(out, "    %s: %s\n", b, sb[i]);
	if (!states_overlap(sa, na, sb, nb)) {
		fprintf(out, "    differ, as asked\n");
		return 0;
	}
	fprintf(out, "    NOT DIFFERENT: the setting did not take effect\n");
	msg_error("WARNING: sides '%s' and '%s' ask for different %s ('%s' "
		  "vs '%s') but their guests do not differ in it; the "
		  "comparison is not of what was asked (a parameter the "
		  "kernel does not know? see boot.unknown_params)", a, b,
		  boot_setting_name(s), wa[0] ? wa : "(default)",
		  wb[0] ? wb : "(default)");
	return 1;
}

int boot_ab_check_sides(FILE *out, const struct boot_ab_spec *spec,
			const struct boot_ab_result *res)
{
	char (*sa)[1024] = calloc(BOOT_MAX_BOOTS, sizeof(*sa));
	char (*sb)[1024] = calloc(BOOT_MAX_BOOTS, sizeof(*sb));
	char wa[512], wb[512];
	int s, bad = 0, checked = 0;

	if (!sa || !sb) {
		free(sa);
		free(sb);
		msg_error("out of memory");
		return 1;
	}
	fprintf(out, "\nsettings asked for, and what the guests show:\n");
	for (s = 0; s < BOOT_NSETTINGS; s++) {
		if (!boot_setting_applies((enum boot_setting)s, res->arch))
			continue;
		boot_setting_words(spec->side[0].append, (enum boot_setting)s,
				   wa, sizeof(wa));
		boot_setting_words(spec->side[1].append, (enum boot_setting)s,
				   wb, sizeof(wb));
		if (strcmp(wa, wb) == 0)
			continue;
		checked++;
		bad += check_setting(out, spec, res, (enum boot_setting)s, wa,
				     wb, sa, sb);
	}
	if (!checked)
		fprintf(out, "  none of %s differs between the sides' "
			"parameters: nothing to check\n",
			res->arch == BOOT_ARCH_AARCH64 ? "kpti=, arm64.nopan, "
			"mitigations=" : "smap, smep, pti, mitigations=");
	free(sa);
	free(sb);
	return bad;
}
