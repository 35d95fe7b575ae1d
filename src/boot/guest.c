/*
 * guest.c - what a `copyscope boot` guest says, read on the host: its
 * report on the data channel (boot.h describes the lines), the kernel's
 * console (a panic), and whether a side's kernel setting took effect (the
 * command line, parameters the kernel did not recognise, CPU flags and
 * vulnerability files; on arm64 the kernel log's PAN and KPTI lines the
 * guest's environment quotes), and which settings a guest's architecture
 * takes at all.  Pure functions of text: unit tested.
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
		"smap", "smep", "pti", "mitigations", "pan", "kpti",
	};

	return s < BOOT_NSETTINGS ? names[s] : "?";
}

bool boot_setting_applies(enum boot_setting s, enum boot_arch a)
{
	switch (s) {
	case BOOT_SET_SMAP:
	case BOOT_SET_SMEP:
	case BOOT_SET_PTI:
		return a == BOOT_ARCH_X86_64;
	case BOOT_SET_PAN:
	case BOOT_SET_KPTI:
		return a == BOOT_ARCH_AARCH64;
	case BOOT_SET_MITIGATIONS:
		return true;
	default:
		return false;
	}
}

/*
 * A kpti= value as the kernel's kstrtobool reads it: 1 (1, y, Y, t, T,
 * on), 0 (0, n, N, f, F, off), -1 (anything else: the kernel ignores
 * the word).
 */
static int kpti_value(const char *v, size_t n)
{
	if (n == 0)
		return -1;
	if (strchr("1yYtT", v[0]))
		return 1;
	if (strchr("0nNfF", v[0]))
		return 0;
	if ((v[0] == 'o' || v[0] == 'O') && n > 1)
		return v[1] == 'n' || v[1] == 'N' ? 1 :
		       v[1] == 'f' || v[1] == 'F' ? 0 : -1;
	return -1;
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
	case BOOT_SET_PAN:
		return IS("arm64.nopan");
	case BOOT_SET_KPTI:
		return PREFIX("kpti=") || IS("mitigations=off");
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
	if (s == BOOT_SET_PAN || s == BOOT_SET_KPTI) {
		const char *v = env_get(env, s == BOOT_SET_PAN ?
					"cpu.arm64.pan" : "cpu.arm64.kpti");
		const char *m = env_get(env, "cpu.vuln.meltdown");

		if (!v)
			return;
		if (s == BOOT_SET_PAN)
			snprintf(out, len, "pan %s", v);
		else
			snprintf(out, len, "kpti %s; meltdown: %s", v,
				 m ? m : "(no file)");
		return;
	}
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

/*
 * KPTI as append asks it: 1 on, 0 off (the last kpti= word, else
 * mitigations=off), -1 not asked; *word is the deciding word.
 */
static int kpti_asked(const char *append, char *word, size_t len)
{
	const char *p = append ? append : "";
	int want = -1;
	bool by_kpti = false;

	word[0] = '\0';
	while (*p) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (!n)
			break;
		if (n > 5 && memcmp(p, "kpti=", 5) == 0 &&
		    kpti_value(p + 5, n - 5) >= 0) {
			want = kpti_value(p + 5, n - 5);
			by_kpti = true;
			snprintf(word, len, "%.*s", (int)n, p);
		} else if (!by_kpti && n == 15 &&
			   memcmp(p, "mitigations=off", 15) == 0) {
			want = 0;
			snprintf(word, len, "mitigations=off");
		}
		p += n;
	}
	return want;
}

/* boot_setting_not_applied() for pan and kpti (arm64 guests). */
static bool arm64_not_applied(const char *append, const struct env *env,
			      enum boot_setting s, char *msg, size_t len)
{
	const char *v;
	char word[128];
	int want;

	if (s == BOOT_SET_PAN) {
		v = env_get(env, "cpu.arm64.pan");
		if (!has_wordn(append ? append : "", "arm64.nopan", 11) ||
		    !v || strncmp(v, "on ", 3) != 0)
			return false;
		snprintf(msg, len, "'arm64.nopan' asks to turn PAN off, but "
			 "the guest's cpu.arm64.pan is %s: a kernel without "
			 "that parameter ignores it (Linux 6.1 has none); PAN "
			 "off needs a kernel built without CONFIG_ARM64_PAN",
			 v);
		return true;
	}
	v = env_get(env, "cpu.arm64.kpti");
	want = kpti_asked(append, word, sizeof(word));
	if (want < 0 || !v || (strncmp(v, "on ", 3) != 0 &&
			       strncmp(v, "off ", 4) != 0))
		return false;
	if ((want == 1) == (strncmp(v, "on ", 3) == 0))
		return false;
	snprintf(msg, len, "'%s' asks for KPTI %s, but the guest's "
		 "cpu.arm64.kpti is %s", word, want ? "on" : "off", v);
	return true;
}

bool boot_setting_not_applied(const char *append, const struct env *env,
			      enum boot_setting s, char *msg, size_t len)
{
	const char *flags = env_get(env, "cpu.flags");
	const char *name = boot_setting_name(s);
	char words[512];

	msg[0] = '\0';
	if (s == BOOT_SET_PAN || s == BOOT_SET_KPTI)
		return arm64_not_applied(append, env, s, msg, len);
	if (s != BOOT_SET_SMAP && s != BOOT_SET_SMEP)
		return false;
	if (!boot_setting_words(append, s, words, sizeof(words)) || !flags ||
	    !has_wordn(flags, name, strlen(name)))
		return false;
	snprintf(msg, len, "'%s' asks to turn %s off, but the guest's CPU "
		 "flags still show %s", words, name, name);
	return true;
}

/* The x86-only words, then the arm64-only ones (prefix when '=' ends). */
static const char *const x86_words[] = {
	"nosmap", "nosmep", "nopti", "pti=", "clearcpuid=",
};
static const char *const arm64_words[] = { "arm64.", "kpti=" };

/* Whether word w (n bytes) is pat, or begins with it where pat ends in
   '=' or '.'. */
static bool word_is(const char *w, size_t n, const char *pat)
{
	size_t pl = strlen(pat);
	char last = pat[pl - 1];

	if (last == '=' || last == '.')
		return n >= pl && memcmp(w, pat, pl) == 0;
	return n == pl && memcmp(w, pat, pl) == 0;
}

bool boot_setting_foreign(const char *opt, const char *append,
			  enum boot_arch a, char *err, size_t len)
{
	bool arm = a == BOOT_ARCH_AARCH64;
	const char *const *bad = arm ? x86_words : arm64_words;
	size_t nbad = arm ? ARRAY_SIZE(x86_words) : ARRAY_SIZE(arm64_words);
	const char *p = append ? append : "";

	while (*p) {
		size_t n, i;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (!n)
			break;
		for (i = 0; i < nbad; i++) {
			if (!word_is(p, n, bad[i]))
				continue;
			snprintf(err, len, "%s: '%.*s' is %s kernel parameter "
				 "and the guest is %s: %s", opt, (int)n, p,
				 arm ? "an x86" : "an arm64",
				 boot_arch_info(a)->name, arm ?
				 "on arm64 the settings boot checks are "
				 "kpti=0|1 (KPTI), arm64.nopan (PAN, where "
				 "the kernel has it; Linux 6.1 has not) and "
				 "mitigations=" : "on x86 the settings boot "
				 "checks are nosmap, nosmep, clearcpuid=smap,"
				 "smep, nopti, pti= and mitigations=");
			return true;
		}
		if (arm && n > 5 && memcmp(p, "kpti=", 5) == 0 &&
		    kpti_value(p + 5, n - 5) < 0) {
			snprintf(err, len, "%s: '%.*s': kpti takes 0 or 1 (or "
				 "off, on, n, y), else the kernel ignores it",
				 opt, (int)n, p);
			return true;
		}
		p += n;
	}
	return false;
}
