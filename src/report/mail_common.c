/*
 * mail_common.c - the parts of a mail (report/mail_print.h) that compare,
 * ab, a run and history share: the machine line, the kernel differences,
 * the head lines and the naming of rows by the parameters that vary
 * (report/mail_priv.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/mail_priv.h"

/* Append text to buf (NUL-terminated, len bytes), truncating. */
void mail_cat(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s", text);
}

/* Append ", " then text unless buf is empty. */
static void cat_item(char *buf, size_t len, const char *text)
{
	if (buf[0])
		mail_cat(buf, len, ", ");
	mail_cat(buf, len, text);
}

/* Whether env value v is missing or not known. */
static bool unknown(const char *v)
{
	return !v || !*v || strcmp(v, "absent") == 0 ||
	       strncmp(v, "unavailable", 11) == 0;
}

/* "VM (xen)", "VM", "bare metal" from virt.hypervisor; "" unknown. */
static void virt_text(const char *v, char *buf, size_t len)
{
	const char *open = v ? strchr(v, ':') : NULL;

	buf[0] = '\0';
	if (unknown(v))
		return;
	if (strncmp(v, "no", 2) == 0) {
		snprintf(buf, len, "bare metal");
	} else if (open && strchr(open, ')')) {
		int n = (int)(strchr(open, ')') - open - 2);

		snprintf(buf, len, "VM (%.*s)", n > 0 ? n : 0, open + 2);
	} else {
		snprintf(buf, len, "VM");
	}
}

/* "mitigations: 5 mitigated, 2 vulnerable" from cpu.vuln.*. */
static void vuln_text(const struct env *env, char *buf, size_t len)
{
	size_t i, mit = 0, vul = 0;
	const char *cmd = env_get(env, "kernel.cmdline");
	const char *m = cmd ? strstr(cmd, "mitigations=") : NULL;

	for (i = 0; i < env->n; i++) {
		const char *k = env->items[i].key, *v = env->items[i].value;

		if (strncmp(k, "cpu.vuln.", 9) != 0 || !v)
			continue;
		if (strncmp(v, "Mitigation", 10) == 0)
			mit++;
		else if (strncmp(v, "Vulnerable", 10) == 0)
			vul++;
	}
	buf[0] = '\0';
	if (mit + vul)
		snprintf(buf, len, "mitigations: %zu mitigated, %zu "
			 "vulnerable", mit, vul);
	if (m && (m == cmd || m[-1] == ' ')) {
		char word[64];

		snprintf(word, sizeof(word), "%.*s", (int)strcspn(m, " "), m);
		mail_cat(buf, len, buf[0] ? " (" : "");
		mail_cat(buf, len, word);
		mail_cat(buf, len, buf[0] != 'm' || mit + vul ? ")" : "");
	}
}

void mail_machine_text(const struct env *env, char *buf, size_t len)
{
	const char *v;
	char t[256];

	buf[0] = '\0';
	v = env_get(env, "cpu.model");
	cat_item(buf, len, unknown(v) ? "unknown CPU" : v);
	v = env_get(env, "cpu.count");
	if (!unknown(v)) {
		snprintf(t, sizeof(t), "%s CPU%s", v,
			 strcmp(v, "1") == 0 ? "" : "s");
		cat_item(buf, len, t);
	}
	v = env_get(env, "cpu.smt");
	if (!unknown(v))
		cat_item(buf, len, strcmp(v, "1") == 0 ? "SMT on" : "SMT off");
	v = env_get(env, "mem.total");
	if (!unknown(v)) {
		fmt_bytes(strtod(v, NULL), t, sizeof(t));
		mail_cat(t, sizeof(t), " RAM");
		cat_item(buf, len, t);
	}
	virt_text(env_get(env, "virt.hypervisor"), t, sizeof(t));
	if (t[0])
		cat_item(buf, len, t);
	v = env_get(env, "virt.emulated");
	if (v && strncmp(v, "yes", 3) == 0)
		cat_item(buf, len, "emulated");
	v = env_get(env, "cpufreq.governor");
	if (unknown(v)) {
		cat_item(buf, len, "no cpufreq");
	} else {
		snprintf(t, sizeof(t), "governor %s", v);
		cat_item(buf, len, t);
		v = env_get(env, "cpufreq.boost");
		if (!unknown(v)) {
			snprintf(t, sizeof(t), "boost %s",
				 v[0] == '1' ? "on" : "off");
			cat_item(buf, len, t);
		}
	}
	vuln_text(env, t, sizeof(t));
	if (t[0])
		cat_item(buf, len, t);
}

/* Whether word (w bytes) is one of the words of line. */
static bool has_word(const char *line, const char *w, size_t n)
{
	const char *p = line;

	while (p && *p) {
		size_t k;

		p += strspn(p, " ");
		k = strcspn(p, " ");
		if (k == n && strncmp(p, w, n) == 0)
			return true;
		p += k;
	}
	return false;
}

/* Append the words of from missing in other, each after sign. */
static void words_missing(const char *from, const char *other, char sign,
			  char *buf, size_t len)
{
	const char *p = from;

	while (*p) {
		size_t k;
		char w[300];

		p += strspn(p, " ");
		k = strcspn(p, " ");
		if (k && !has_word(other, p, k)) {
			snprintf(w, sizeof(w), "%s%c%.*s", buf[0] ? " " : "",
				 sign, (int)(k < 280 ? k : 280), p);
			mail_cat(buf, len, w);
		}
		p += k;
	}
}

void mail_cmdline_diff(const char *a, const char *b, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!a || !b || strcmp(a, b) == 0)
		return;
	words_missing(a, b, '-', buf, len);
	words_missing(b, a, '+', buf, len);
}

/* The mark of a verdict: '*' better or worse, '?', 'e' or none. */
char mail_verdict_mark(enum verdict v)
{
	switch (v) {
	case VERDICT_BETTER:
	case VERDICT_WORSE:
		return '*';
	case VERDICT_CANNOT_TELL:
		return '?';
	case VERDICT_WITHHELD:
		return 'e';
	default:
		return ' ';
	}
}

/* "tag a (runs 1, 2), kernel 6.18.4" of a side's runs. */
void mail_side_head(const struct run_data *runs, size_t n, char *buf,
		    size_t len)
{
	size_t i, j;
	char t[200];

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		bool dup = false;

		for (j = 0; j < i; j++)
			dup |= strcmp(runs[j].info.tag, runs[i].info.tag) == 0;
		if (dup || !runs[i].info.tag[0])
			continue;
		snprintf(t, sizeof(t), "%s%s", buf[0] ? ", " : "tag ",
			 runs[i].info.tag);
		mail_cat(buf, len, t);
	}
	mail_cat(buf, len, buf[0] ? " (" : "");
	mail_cat(buf, len, n == 1 ? "run" : "runs");
	for (i = 0; i < n; i++) {
		snprintf(t, sizeof(t), "%s%lld", i ? ", " : " ",
			 (long long)runs[i].info.id);
		mail_cat(buf, len, t);
	}
	mail_cat(buf, len, strchr(buf, '(') ? ")" : "");
	for (i = 0; i < n; i++) {
		const char *k = env_get(&runs[i].env, "kernel.release");
		bool dup = false;

		for (j = 0; j < i && k; j++) {
			const char *o = env_get(&runs[j].env,
						"kernel.release");

			dup |= o && strcmp(o, k) == 0;
		}
		if (!k || dup)
			continue;
		snprintf(t, sizeof(t), "%s%s", strstr(buf, ", kernel") ?
			 " " : ", kernel ", k);
		mail_cat(buf, len, t);
	}
}

/* A head line: label ("" for a continuation) and text. */
void mail_add_head(struct mail_doc *d, const char *label, const char *text)
{
	if (d->nhead >= MAIL_MAX_HEAD || !text[0])
		return;
	snprintf(d->head_label[d->nhead], sizeof(d->head_label[0]), "%s",
		 label);
	snprintf(d->head[d->nhead], sizeof(d->head[0]), "%s", text);
	d->nhead++;
}

/*
 * The differences of the kernels of two runs' environments, as head
 * lines: the command line's words, the version (a rebuild of one
 * release), the image booted.
 */
void mail_add_kernel_diffs(struct mail_doc *d, const struct env *b,
			   const struct env *n)
{
	static const char *const keys[] = { "kernel.version",
					    "boot.kernel_image",
					    "boot.append" };
	char t[512];
	size_t i;

	mail_cmdline_diff(env_get(b, "kernel.cmdline"),
			  env_get(n, "kernel.cmdline"), t, sizeof(t));
	if (t[0]) {
		char line[540];

		snprintf(line, sizeof(line), "cmdline %s", t);
		mail_add_head(d, "", line);
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *x = env_get(b, keys[i]), *y = env_get(n, keys[i]);

		if (!x || !y || strcmp(x, y) == 0)
			continue;
		snprintf(t, sizeof(t), "%s %s -> %s", keys[i], x, y);
		mail_add_head(d, "", t);
	}
}

/* The machine line(s): one, or one a side when they differ. */
void mail_add_machines(struct mail_doc *d, const struct env *b,
		       const struct env *n)
{
	mail_machine_text(b, d->machine[0], sizeof(d->machine[0]));
	d->nmachine = 1;
	if (!n)
		return;
	mail_machine_text(n, d->machine[1], sizeof(d->machine[1]));
	if (strcmp(d->machine[0], d->machine[1]) == 0)
		return;
	snprintf(d->machine_label[0], sizeof(d->machine_label[0]), "base");
	snprintf(d->machine_label[1], sizeof(d->machine_label[1]), "new");
	d->nmachine = 2;
}

/*
 * The parameter text of (b, n): "k=v", or "k=a->b" where the new side's
 * differs; n may be NULL.  Into buf.
 */
static void param_text(const struct result_config *b,
		       const struct result_config *n, const char *name,
		       char *buf, size_t len)
{
	const char *x = result_param(b, name);
	const char *y = n ? result_param(n, name) : x;

	if (!y || strcmp(x, y) == 0)
		snprintf(buf, len, "%s=%s", name, x);
	else
		snprintf(buf, len, "%s=%s->%s", name, x, y);
}

/* Whether cfgs b[i] (and n[i]) of every row agree on name's text. */
static bool param_common(const struct result_config *const *b,
			 const struct result_config *const *n, size_t rows,
			 const char *name)
{
	char first[300], t[300];
	size_t i;

	if (!result_param(b[0], name))
		return false;
	param_text(b[0], n ? n[0] : NULL, name, first, sizeof(first));
	for (i = 1; i < rows; i++) {
		if (!result_param(b[i], name) ||
		    strcmp(b[i]->workload, b[0]->workload) != 0)
			return false;
		param_text(b[i], n ? n[i] : NULL, name, t, sizeof(t));
		if (strcmp(t, first) != 0)
			return false;
	}
	return true;
}

/*
 * Name rows [s, e) of d, of one workload: the parameters they all share
 * into common ("pipe.bw io=write ..."), each row's name the parameters
 * that vary and the metric.  b[i] and n[i] (n may be NULL) are row i's
 * configurations.
 */
static void name_group(struct mail_doc *d, const struct result_config *const *b,
		       const struct result_config *const *n,
		       const char *const *metric, size_t s, size_t e,
		       char *common, size_t clen)
{
	const struct result_param **p;
	size_t i, k;
	char t[300];

	snprintf(common, clen, "%s", b[s]->workload);
	for (i = s; i < e; i++) {
		char *name = d->rows[i].name;
		size_t nl = sizeof(d->rows[i].name);

		/* an array of pointers */
		p = calloc(b[i]->nparams ? b[i]->nparams : 1,
			   sizeof(void *));
		name[0] = '\0';
		if (p)
			result_params_sorted(b[i], p);
		for (k = 0; p && k < b[i]->nparams; k++) {
			bool same = param_common(b + s, n ? n + s : NULL,
						 e - s, p[k]->name);

			param_text(b[i], n ? n[i] : NULL, p[k]->name, t,
				   sizeof(t));
			if (!same) {
				mail_cat(name, nl, name[0] ? " " : "");
				mail_cat(name, nl, t);
			} else if (i == s) {
				mail_cat(common, clen, " ");
				mail_cat(common, clen, t);
			}
		}
		free(p);
		mail_cat(name, nl, name[0] ? " " : "");
		mail_cat(name, nl, metric[i]);
	}
}

/*
 * Name d's rows: one workload's shared parameters go to d->params; with
 * several workloads (a suite) each gets a heading row with its own.
 * Returns 0, or -1 on ENOMEM.
 */
int mail_name_rows(struct mail_doc *d, const struct result_config *const *b,
		   const struct result_config *const *n,
		   const char *const *metric)
{
	struct mail_doc g = { .nrows = 0 };
	size_t s = 0, e, i;
	char common[sizeof(d->params)];

	d->params[0] = '\0';
	while (s < d->nrows) {
		for (e = s + 1; e < d->nrows &&
		     strcmp(b[e]->workload, b[s]->workload) == 0; e++)
			;
		name_group(d, b, n, metric, s, e, common, sizeof(common));
		if (s == 0 && e == d->nrows) {
			snprintf(d->params, sizeof(d->params), "%s", common);
			return 0;
		}
		if (!mail_add_row(&g))
			goto nomem;
		snprintf(g.rows[g.nrows - 1].name, sizeof(g.rows[0].name),
			 "%s", common);
		g.rows[g.nrows - 1].heading = true;
		for (i = s; i < e; i++) {
			if (!mail_add_row(&g))
				goto nomem;
			g.rows[g.nrows - 1] = d->rows[i];
		}
		s = e;
	}
	mail_doc_free(d);
	d->rows = g.rows;
	d->nrows = g.nrows;
	d->cap = g.cap;
	return 0;
nomem:
	mail_doc_free(&g);
	return -1;
}
