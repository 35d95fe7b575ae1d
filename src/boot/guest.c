/*
 * guest.c - what a `copyscope boot` guest says, read on the host: its
 * report on the data channel (boot.h describes the lines), the kernel's
 * console (a panic), and whether a side's kernel setting took effect (the
 * command line, parameters the kernel did not recognise, CPU flags and
 * vulnerability files).  Pure functions of text: unit tested.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "util/array.h"

/* The line at p (up to '\n' or end) without a trailing '\r', into out. */
static void copy_line(const char *p, const char *end, char *out, size_t len)
{
	size_t n = 0;

	while (p + n < end && p[n] != '\n')
		n++;
	if (n && p[n - 1] == '\r')
		n--;
	snprintf(out, len, "%.*s", (int)n, p);
}

/* An exit status reported as text: 0 .. 255, else -1. */
static int parse_rc(const char *text)
{
	char *end;
	long v = strtol(text, &end, 10);

	return end != text && !*end && v >= 0 && v <= 255 ? (int)v : -1;
}

/* Whether the line at p begins with prefix. */
static bool starts(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - p) >= n && memcmp(p, prefix, n) == 0;
}

void boot_parse_report(const char *buf, size_t len, struct boot_report *r)
{
	const char *p = buf, *end = buf + len, *exp = NULL;
	char line[64];

	memset(r, 0, sizeof(*r));
	r->run_rc = r->export_rc = -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;

		if (exp) {
			if (starts(p, end, "copyscope-export-end ")) {
				copy_line(p + 21, end, line, sizeof(line));
				r->export_rc = parse_rc(line);
				r->export_text = exp;
				r->export_len = (size_t)(p - exp);
				exp = NULL;
			}
		} else if (starts(p, end, "copyscope-boot-begin ")) {
			r->begun = true;
		} else if (!r->begun) {
			/* noise before the begin line */
		} else if (starts(p, end, "release: ")) {
			copy_line(p + 9, end, r->release, sizeof(r->release));
		} else if (starts(p, end, "cmdline: ")) {
			copy_line(p + 9, end, r->cmdline, sizeof(r->cmdline));
		} else if (starts(p, end, "boot_id: ")) {
			copy_line(p + 9, end, r->boot_id, sizeof(r->boot_id));
		} else if (starts(p, end, "unknown: ")) {
			char l[2048];

			copy_line(p + 9, end, l, sizeof(l));
			boot_unknown_params(l, r->unknown, sizeof(r->unknown));
		} else if (starts(p, end, "run-rc: ")) {
			copy_line(p + 8, end, line, sizeof(line));
			r->run_rc = parse_rc(line);
		} else if (starts(p, end, "copyscope-export-begin")) {
			exp = next;
		} else if (starts(p, end, "copyscope-boot-end")) {
			r->ended = true;
		}
		p = next;
	}
}

void boot_unknown_params(const char *line, char *out, size_t outlen)
{
	static const char key[] = "Unknown kernel command line parameters \"";
	const char *p = strstr(line, key), *q;

	out[0] = '\0';
	if (!p)
		return;
	p += sizeof(key) - 1;
	q = strrchr(p, '"');
	if (!q)
		return;
	snprintf(out, outlen, "%.*s", (int)(q - p), p);
}

/* Whether word (n bytes) is a whole word of the space separated s. */
static bool has_wordn(const char *s, const char *word, size_t n)
{
	const char *p = s;

	if (!n)
		return true;
	while ((p = strstr(p, word)) != NULL) {
		if ((p == s || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return true;
		p++;
	}
	return false;
}

/* Append word (n bytes) to out, a space before it unless first. */
static void add_word(char *out, size_t len, const char *word, size_t n)
{
	size_t o = strlen(out);

	if (o + 1 < len)
		snprintf(out + o, len - o, "%s%.*s", o ? " " : "", (int)n,
			 word);
}

void boot_cmdline_missing(const char *asked, const char *cmdline,
			  char *missing, size_t len)
{
	const char *p = asked;

	missing[0] = '\0';
	while (*p) {
		size_t n;
		char w[512];

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (!n)
			break;
		snprintf(w, sizeof(w), "%.*s", (int)n, p);
		if (!has_wordn(cmdline, w, strlen(w)))
			add_word(missing, len, p, n);
		p += n;
	}
}

bool boot_console_failure(const char *console, size_t len, char *why,
			  size_t whylen)
{
	static const char *const marks[] = {
		"Kernel panic - not syncing", "BUG: ", "Oops: ",
		"general protection fault",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		const char *p = memmem(console, len, marks[i],
				       strlen(marks[i]));

		if (p) {
			copy_line(p, console + len, why, whylen);
			return true;
		}
	}
	return false;
}

/* ---- settings ---- */

const char *boot_setting_name(enum boot_setting s)
{
	static const char *const names[BOOT_NSETTINGS] = {
		"smap", "smep", "pti", "mitigations",
	};

	return s < BOOT_NSETTINGS ? names[s] : "?";
}

/* Whether the clearcpuid= value (a comma list) names flag. */
static bool clearcpuid_has(const char *val, size_t n, const char *flag)
{
	size_t fl = strlen(flag);
	const char *p = val, *end = val + n;

	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t wl = (size_t)((c ? c : end) - p);

		if (wl == fl && memcmp(p, flag, fl) == 0)
			return true;
		p += wl + 1;
	}
	return false;
}

/* Whether the word w (n bytes) asks for setting s. */
static bool word_asks(const char *w, size_t n, enum boot_setting s)
{
#define IS(lit) (n == sizeof(lit) - 1 && memcmp(w, lit, n) == 0)
#define PREFIX(lit) \
	(n >= sizeof(lit) - 1 && memcmp(w, lit, sizeof(lit) - 1) == 0)
	switch (s) {
	case BOOT_SET_SMAP:
		return IS("nosmap") ||
		       (PREFIX("clearcpuid=") &&
			clearcpuid_has(w + 11, n - 11, "smap"));
	case BOOT_SET_SMEP:
		return IS("nosmep") ||
		       (PREFIX("clearcpuid=") &&
			clearcpuid_has(w + 11, n - 11, "smep"));
	case BOOT_SET_PTI:
		return IS("nopti") || PREFIX("pti=") ||
		       IS("mitigations=off");
	case BOOT_SET_MITIGATIONS:
		return PREFIX("mitigations=");
	default:
		return false;
	}
#undef IS
#undef PREFIX
}

bool boot_setting_words(const char *append, enum boot_setting s, char *out,
			size_t len)
{
	const char *p = append ? append : "";

	out[0] = '\0';
	while (*p) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (!n)
			break;
		if (word_asks(p, n, s))
			add_word(out, len, p, n);
		p += n;
	}
	return out[0] != '\0';
}

void boot_setting_state(const struct env *env, enum boot_setting s,
			char *out, size_t len)
{
	const char *flags = env_get(env, "cpu.flags");
	size_t i;

	out[0] = '\0';
	if (s == BOOT_SET_MITIGATIONS) {
		for (i = 0; i < env->n; i++) {
			const struct env_item *it = &env->items[i];

			if (strncmp(it->key, "cpu.vuln.", 9) != 0)
				continue;
			add_word(out, len, it->key + 9, strlen(it->key + 9));
			add_word(out, len, "=", 1);
			add_word(out, len, it->value, strlen(it->value));
			add_word(out, len, ";", 1);
		}
		return;
	}
	if (!flags || strcmp(flags, "unavailable") == 0)
		return;
	snprintf(out, len, "%s %s", boot_setting_name(s),
		 has_wordn(flags, boot_setting_name(s),
			   strlen(boot_setting_name(s))) ? "present" :
		 "absent");
	if (s == BOOT_SET_PTI) {
		const char *m = env_get(env, "cpu.vuln.meltdown");
		size_t o = strlen(out);

		snprintf(out + o, len - o, "; meltdown: %s", m ? m :
			 "(no file)");
	}
}

bool boot_setting_not_applied(const char *append, const struct env *env,
			      enum boot_setting s, char *msg, size_t len)
{
	const char *flags = env_get(env, "cpu.flags");
	const char *name = boot_setting_name(s);
	char words[512];

	msg[0] = '\0';
	if (s != BOOT_SET_SMAP && s != BOOT_SET_SMEP)
		return false;
	if (!boot_setting_words(append, s, words, sizeof(words)) || !flags ||
	    !has_wordn(flags, name, strlen(name)))
		return false;
	snprintf(msg, len, "'%s' asks to turn %s off, but the guest's CPU "
		 "flags still show %s", words, name, name);
	return true;
}
