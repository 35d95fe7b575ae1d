/*
 * mail_build.c - what goes in a mail (report/mail_print.h) of compare, ab
 * and a single run: the sides, the machine line, the shared parameters
 * and one row per metric, taken from the comparison engine's rows, ab's
 * verdict rows or the run's stored summaries (nothing recomputed).  The
 * layout is report/mail_table.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/mail_print.h"

/* Append text to buf (NUL-terminated, len bytes), truncating. */
static void cat(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s", text);
}

/* Append ", " then text unless buf is empty. */
static void cat_item(char *buf, size_t len, const char *text)
{
	if (buf[0])
		cat(buf, len, ", ");
	cat(buf, len, text);
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
		cat(buf, len, buf[0] ? " (" : "");
		cat(buf, len, word);
		cat(buf, len, buf[0] != 'm' || mit + vul ? ")" : "");
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
		cat(t, sizeof(t), " RAM");
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
			cat(buf, len, w);
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
static char verdict_mark(enum verdict v)
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
static void side_head(const struct run_data *runs, size_t n, char *buf,
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
		cat(buf, len, t);
	}
	cat(buf, len, buf[0] ? " (" : "");
	cat(buf, len, n == 1 ? "run" : "runs");
	for (i = 0; i < n; i++) {
		snprintf(t, sizeof(t), "%s%lld", i ? ", " : " ",
			 (long long)runs[i].info.id);
		cat(buf, len, t);
	}
	cat(buf, len, strchr(buf, '(') ? ")" : "");
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
		cat(buf, len, t);
	}
}

/* A head line: label ("" for a continuation) and text. */
static void add_head(struct mail_doc *d, const char *label, const char *text)
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
static void add_kernel_diffs(struct mail_doc *d, const struct env *b,
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
		add_head(d, "", line);
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *x = env_get(b, keys[i]), *y = env_get(n, keys[i]);

		if (!x || !y || strcmp(x, y) == 0)
			continue;
		snprintf(t, sizeof(t), "%s %s -> %s", keys[i], x, y);
		add_head(d, "", t);
	}
}

/* The machine line(s): one, or one a side when they differ. */
static void add_machines(struct mail_doc *d, const struct env *b,
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
			   sizeof(void *));	/* NOLINT(bugprone-sizeof-expression) */
		name[0] = '\0';
		if (p)
			result_params_sorted(b[i], p);
		for (k = 0; p && k < b[i]->nparams; k++) {
			bool same = param_common(b + s, n ? n + s : NULL,
						 e - s, p[k]->name);

			param_text(b[i], n ? n[i] : NULL, p[k]->name, t,
				   sizeof(t));
			if (!same) {
				cat(name, nl, name[0] ? " " : "");
				cat(name, nl, t);
			} else if (i == s) {
				cat(common, clen, " ");
				cat(common, clen, t);
			}
		}
		free(p);
		cat(name, nl, name[0] ? " " : "");
		cat(name, nl, metric[i]);
	}
}

/*
 * Name d's rows: one workload's shared parameters go to d->params; with
 * several workloads (a suite) each gets a heading row with its own.
 * Returns 0, or -1 on ENOMEM.
 */
static int name_rows(struct mail_doc *d, const struct result_config *const *b,
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

/* Fill d's row r from a comparison row. */
static void compare_row(struct mail_row *m, const struct cmp_row *r)
{
	m->unit = r->ref->unit;
	m->base = r->b.s.median;
	m->new = r->n.s.median;
	m->base_cv = r->b.n >= 2 ? r->b.s.cv : NAN;
	m->new_cv = r->n.n >= 2 ? r->n.s.cv : NAN;
	if (strcmp(m->unit, "%") == 0) {
		m->change = m->new - m->base;
	} else {
		m->change = r->change_pct;
		m->ci_lo = r->ci_lo;
		m->ci_hi = r->ci_hi;
	}
	m->mark = verdict_mark(r->verdict);
}

/* "tag a" or "run 3" as a column heading for a side. */
static void side_column(const struct cmp_side *s, char *buf, size_t len)
{
	if (s->nruns && s->runs[0].info.tag[0])
		snprintf(buf, len, "%.28s", s->runs[0].info.tag);
	else if (s->nruns == 1)
		snprintf(buf, len, "run %lld", (long long)s->runs[0].info.id);
	else
		snprintf(buf, len, "%zu runs", s->nruns);
}

/* The rows of compare and their names; -1 on ENOMEM. */
static int compare_rows(struct mail_doc *d, const struct cmp *c)
{
	const struct result_config **cb, **cn;
	const char **metric;
	size_t i;
	int e = 0;

	cb = calloc(c->nrows + 1, sizeof(void *));	/* NOLINT(bugprone-sizeof-expression) */
	cn = calloc(c->nrows + 1, sizeof(void *));	/* NOLINT(bugprone-sizeof-expression) */
	metric = calloc(c->nrows + 1, sizeof(void *));	/* NOLINT(bugprone-sizeof-expression) */
	if (!cb || !cn || !metric)
		e = -1;
	for (i = 0; !e && i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		struct mail_row *m;

		if (!r->in_base || !r->in_new)
			continue;
		m = mail_add_row(d);
		if (!m) {
			e = -1;
			break;
		}
		compare_row(m, r);
		cb[d->nrows - 1] = r->ref->cfg;
		cn[d->nrows - 1] = (r->ref_new ? r->ref_new : r->ref)->cfg;
		metric[d->nrows - 1] = r->ref->metric;
	}
	if (!e)
		e = name_rows(d, cb, cn, metric);
	free(cb);
	free(cn);
	free(metric);
	return e;
}

int mail_print_compare(FILE *out, const struct cmp *c, enum mail_format f)
{
	struct mail_doc *d = calloc(1, sizeof(*d));
	const struct env *eb = c->base.nruns ? &c->base.runs[0].env : NULL;
	const struct env *en = c->new.nruns ? &c->new.runs[0].env : NULL;
	char t[512];

	if (!d)
		return -1;
	d->two_sided = true;
	d->alpha = c->opts.alpha;
	d->noise_pct = c->opts.noise_pct;
	side_column(&c->base, d->col_base, sizeof(d->col_base));
	side_column(&c->new, d->col_new, sizeof(d->col_new));
	snprintf(d->title, sizeof(d->title), "copyscope compare: %s against "
		 "%s", d->col_new, d->col_base);
	side_head(c->base.runs, c->base.nruns, t, sizeof(t));
	add_head(d, "base", t);
	side_head(c->new.runs, c->new.nruns, t, sizeof(t));
	add_head(d, "new", t);
	if (eb && en)
		add_kernel_diffs(d, eb, en);
	if (eb)
		add_machines(d, eb, en);
	if (compare_rows(d, c) != 0) {
		mail_doc_free(d);
		free(d);
		return -1;
	}
	mail_print(out, d, f);
	mail_doc_free(d);
	free(d);
	return 0;
}

/* Fill m from ab's row r: A's median, the %change, A x (1 + %change). */
static void ab_row(struct mail_row *m, const struct ab_row *r)
{
	const struct result *a = r->res[AB_ROLE_A], *b = r->res[AB_ROLE_B];

	m->unit = r->unit;
	m->base = r->median[AB_ROLE_A];
	m->base_cv = a && a->summary.n >= 2 ? a->summary.cv : NAN;
	m->new_cv = b && b->summary.n >= 2 ? b->summary.cv : NAN;
	if (strcmp(r->unit, "%") == 0) {
		m->new = r->median[AB_ROLE_B];
		m->change = m->new - m->base;
	} else {
		/* as ab's table: the B column is what the %change says */
		m->new = m->base * (1 + r->change_pct / 100);
		m->change = r->change_pct;
		m->ci_lo = r->ci_lo_pct;
		m->ci_hi = r->ci_hi_pct;
	}
	m->mark = verdict_mark(r->verdict);
}

/* The head lines of ab: the run, A and B with their settings. */
static void ab_head(struct mail_doc *d, const struct ab_header *h,
		    const struct ab_analysis *a, const struct run_data *run)
{
	const struct env *env = run ? &run->env : NULL;
	size_t rounds = a->n ? a->rows[0].rounds : 0;
	const char *k = env ? env_get(env, "kernel.release") : NULL;
	char t[512];

	snprintf(d->title, sizeof(d->title), "copyscope ab %s: B against A, "
		 "%zu paired rounds", h->workload, rounds);
	t[0] = '\0';
	if (h->run_id > 0)
		snprintf(t, sizeof(t), "run %lld", (long long)h->run_id);
	if (run && run->info.tag[0]) {
		cat(t, sizeof(t), t[0] ? ", tag " : "tag ");
		cat(t, sizeof(t), run->info.tag);
	}
	if (k) {
		cat(t, sizeof(t), t[0] ? ", kernel " : "kernel ");
		cat(t, sizeof(t), k);
	}
	add_head(d, "run", t);
	snprintf(t, sizeof(t), "%s%s%s", h->a && *h->a ? h->a : "(defaults)",
		 h->a_settings && *h->a_settings ? " " : "",
		 h->a_settings ? h->a_settings : "");
	add_head(d, "A", t);
	snprintf(t, sizeof(t), "%s%s%s", h->b && *h->b ? h->b : "(defaults)",
		 h->b_settings && *h->b_settings ? " " : "",
		 h->b_settings ? h->b_settings : "");
	add_head(d, "B", t);
}

int mail_print_ab(FILE *out, const struct ab_header *h,
		  const struct ab_analysis *a, const struct run_data *run,
		  enum mail_format f)
{
	struct mail_doc *d = calloc(1, sizeof(*d));
	const struct result_config **cfg, **cfgb;
	const char **metric;
	size_t i;
	int e = 0;

	cfg = calloc(a->n + 1, sizeof(void *));	/* NOLINT(bugprone-sizeof-expression) */
	cfgb = calloc(a->n + 1, sizeof(void *));	/* NOLINT(bugprone-sizeof-expression) */
	metric = calloc(a->n + 1, sizeof(void *));	/* NOLINT(bugprone-sizeof-expression) */
	if (!d || !cfg || !cfgb || !metric)
		e = -1;
	for (i = 0; !e && i < a->n; i++) {
		struct mail_row *m = mail_add_row(d);

		if (!m) {
			e = -1;
			break;
		}
		ab_row(m, &a->rows[i]);
		cfg[i] = a->rows[i].res[AB_ROLE_A]->cfg;
		cfgb[i] = a->rows[i].res[AB_ROLE_B] ?
			  a->rows[i].res[AB_ROLE_B]->cfg : cfg[i];
		metric[i] = a->rows[i].metric;
	}
	if (!e) {
		d->two_sided = true;
		d->alpha = h->alpha;
		d->noise_pct = h->noise_pct;
		snprintf(d->col_base, sizeof(d->col_base), "A");
		snprintf(d->col_new, sizeof(d->col_new), "B");
		ab_head(d, h, a, run);
		if (run)
			add_machines(d, &run->env, NULL);
		/* "segs=1->8": A's parameters and B's where they differ */
		e = name_rows(d, cfg, cfgb, metric);
	}
	if (!e)
		mail_print(out, d, f);
	free(cfg);
	free(cfgb);
	free(metric);
	if (d)
		mail_doc_free(d);
	free(d);
	return e;
}

/* The rows of a single run: every kept (not traced) result. */
static int run_rows(struct mail_doc *d, const struct run_data *run)
{
	const struct result_set *rs = &run->results;
	const struct result_config **cfg;
	const char **metric;
	size_t i;
	int e = 0;

	cfg = calloc(rs->n + 1, sizeof(void *));	/* NOLINT(bugprone-sizeof-expression) */
	metric = calloc(rs->n + 1, sizeof(void *));	/* NOLINT(bugprone-sizeof-expression) */
	if (!cfg || !metric)
		e = -1;
	for (i = 0; !e && i < rs->n; i++) {
		const struct result *r = &rs->v[i];
		struct mail_row *m;

		if (r->traced || r->nsamples == 0)
			continue;
		m = mail_add_row(d);
		if (!m) {
			e = -1;
			break;
		}
		m->unit = r->unit;
		m->base = r->summary.median;
		m->base_cv = r->summary.n >= 2 ? r->summary.cv : NAN;
		cfg[d->nrows - 1] = r->cfg;
		metric[d->nrows - 1] = r->metric;
	}
	if (!e)
		e = name_rows(d, cfg, NULL, metric);
	free(cfg);
	free(metric);
	return e;
}

int mail_print_run(FILE *out, const struct run_data *run,
		   enum mail_format f)
{
	struct mail_doc *d;
	char t[512];
	int e;

	if (ab_env_is_ab(&run->env)) {
		struct ab_stored s;

		if (ab_stored_judge(&run->info, &run->env, run->results.v,
				    run->results.n, &s) != 0) {
			fprintf(stderr, "copyscope: %s\n", s.err);
			return -1;
		}
		e = mail_print_ab(out, &s.h, &s.a, run, f);
		ab_stored_free(&s);
		return e;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -1;
	if (run->info.tag[0])
		snprintf(d->col_base, sizeof(d->col_base), "%.28s",
			 run->info.tag);
	else
		snprintf(d->col_base, sizeof(d->col_base), "run %lld",
			 (long long)run->info.id);
	if (run->info.id > 0) {
		snprintf(d->title, sizeof(d->title), "copyscope run %lld",
			 (long long)run->info.id);
		side_head(run, 1, t, sizeof(t));
	} else {
		const char *k = env_get(&run->env, "kernel.release");

		snprintf(d->title, sizeof(d->title), "copyscope run (not "
			 "stored)");
		snprintf(t, sizeof(t), "%s%s%s%s", run->info.tag[0] ? "tag " :
			 "", run->info.tag, run->info.tag[0] && k ? ", " : "",
			 k ? "kernel " : "");
		cat(t, sizeof(t), k ? k : "");
	}
	add_head(d, "run", t);
	add_machines(d, &run->env, NULL);
	e = run_rows(d, run);
	if (!e)
		mail_print(out, d, f);
	mail_doc_free(d);
	free(d);
	return e;
}
