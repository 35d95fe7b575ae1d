/*
 * grid.c - two-way grids of one metric over a two-parameter sweep (see
 * grid.h), e.g. for `copyscope run pipe.matrix writers=1,2,5
 * readers=1,5,10`:
 *
 *   bandwidth in MiB/s, median ±sd of the samples (size=64k)
 *                 readers=1    readers=5   readers=10
 *   writers=1     1006 ±2.1%   2750 ±3.0%   1780 ±1.3%
 *   writers=2     ...
 */
#include "report/grid.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/workload.h"
#include "report/format.h"
#include "stats/summary.h"

#define LINE 80
#define INDENT 2
#define VAL_LEN 48

/* One result that belongs in a grid. */
struct grid_item {
	size_t idx;			/* into res */
	char row[VAL_LEN], col[VAL_LEN];
	char *rest;			/* the other parameters, "k=v\t.." */
	size_t group;
};

/* The distinct values of one axis, in order. */
struct axis {
	char (*val)[VAL_LEN];
	int64_t *key;
	size_t n;
};

/*
 * Sort key of parameter param of cfg: its value as the workload holds it
 * ("4k" < "1M"), else the integer it spells, else 0 (then text order
 * decides).
 */
static int64_t value_key(const struct result_config *cfg, const char *param)
{
	int64_t v;

	return result_param_value(cfg, param, &v) ? v : 0;
}

static int axis_add(struct axis *a, const char *v, int64_t key)
{
	size_t i, at;

	for (i = 0; i < a->n; i++)
		if (strcmp(a->val[i], v) == 0)
			return 0;
	/* insertion sort: by key, then text */
	for (at = 0; at < a->n; at++)
		if (key < a->key[at] ||
		    (key == a->key[at] && strcmp(v, a->val[at]) < 0))
			break;
	{
		char (*nv)[VAL_LEN] = realloc(a->val, (a->n + 1) *
						       sizeof(*a->val));
		int64_t *nk;

		if (!nv)
			return -1;
		a->val = nv;
		nk = realloc(a->key, (a->n + 1) * sizeof(*a->key));
		if (!nk)
			return -1;
		a->key = nk;
	}
	memmove(&a->val[at + 1], &a->val[at], (a->n - at) * sizeof(*a->val));
	memmove(&a->key[at + 1], &a->key[at], (a->n - at) * sizeof(*a->key));
	snprintf(a->val[at], VAL_LEN, "%s", v);
	a->key[at] = key;
	a->n++;
	return 0;
}

static void axis_free(struct axis *a)
{
	free(a->val);
	free(a->key);
	memset(a, 0, sizeof(*a));
}

static size_t axis_find(const struct axis *a, const char *v)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (strcmp(a->val[i], v) == 0)
			return i;
	return a->n;
}

/*
 * "size=4k mode=proc": the parameters of group g's configuration that
 * differ in some other group (nothing when there is one group).
 */
static void group_label(const struct result *res,
			const struct grid_item *items, size_t nitems,
			size_t g, const struct wl_grid *sp, char *buf,
			size_t len)
{
	const struct result_config *mine = NULL;
	size_t i, k, used = 0;

	buf[0] = '\0';
	for (i = 0; i < nitems && !mine; i++)
		if (items[i].group == g)
			mine = res[items[i].idx].cfg;
	if (!mine)
		return;
	for (k = 0; k < mine->nparams; k++) {
		const struct result_param *p = &mine->params[k];
		bool differs = false;

		if (strcmp(p->name, sp->row) == 0 ||
		    strcmp(p->name, sp->col) == 0)
			continue;
		for (i = 0; i < nitems && !differs; i++) {
			const char *b;

			if (items[i].group == g)
				continue;
			b = result_param(res[items[i].idx].cfg, p->name);
			differs = !b || strcmp(p->value, b) != 0;
		}
		if (differs && used < len)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s=%s", used ? " " : "",
						 p->name, p->value);
	}
}

/* A cell's median in the grid's scale ("1.23") and ±%sd ("2.1%"). */
static void cell_text(const struct result *r, double div, char *num,
		      char *sd, size_t len)
{
	const struct summary *s = &r->summary;

	sd[0] = '\0';
	if (r->withheld) {	/* stats/headline.h: the table says why */
		snprintf(num, len, "withheld");
		return;
	}
	fmt_number(s->median / div, num, len);
	if (s->n < 2)
		return;
	if (s->cv * 100.0 < 9.95)
		snprintf(sd, len, "%.1f%%", s->cv * 100.0);
	else
		snprintf(sd, len, "%.0f%%", s->cv * 100.0);
}

/* Columns of text width w, for the ±: it takes 2 bytes, 1 column. */
static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

/* Append s right-aligned in width columns to line (of len bytes). */
static void add_padded(char *line, size_t len, const char *s, size_t width)
{
	size_t used = strlen(line), w = text_width(s);

	while (w++ < width && used + 1 < len)
		line[used++] = ' ';
	line[used] = '\0';
	snprintf(line + used, len - used, "%s", s);
}

/* Print line without trailing blanks. */
static void put_line(FILE *out, char *line)
{
	size_t n = strlen(line);

	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

/*
 * The view of group g: its axes in order and each cell's result (the
 * first of repeated configurations).  Returns 1 when both axes have at
 * least two values, 0 when not (v freed), -1 on ENOMEM.
 */
static int build_view(const struct wl_grid *sp, const struct result *res,
		      const struct grid_item *items, size_t nitems, size_t g,
		      struct grid_view *v)
{
	struct axis rows = { 0 }, cols = { 0 };
	size_t i, r, c;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < nitems; i++) {
		const struct result_config *cfg = res[items[i].idx].cfg;

		if (items[i].group != g)
			continue;
		if (axis_add(&rows, items[i].row, value_key(cfg, sp->row)) ||
		    axis_add(&cols, items[i].col, value_key(cfg, sp->col)))
			goto oom;
	}
	if (rows.n < 2 || cols.n < 2) {
		axis_free(&rows);
		axis_free(&cols);
		return 0;
	}
	v->cell = calloc(rows.n * cols.n, sizeof(const struct result *));
	if (!v->cell)
		goto oom;
	v->spec = sp;
	v->row = rows.val;
	v->col = cols.val;
	v->nrows = rows.n;
	v->ncols = cols.n;
	free(rows.key);
	free(cols.key);
	for (i = 0; i < nitems; i++) {
		const struct result *x = &res[items[i].idx];

		if (items[i].group != g)
			continue;
		r = axis_find(&rows, items[i].row);
		c = axis_find(&cols, items[i].col);
		if (v->cell[r * cols.n + c])
			continue;	/* the first of repeated configs */
		v->cell[r * cols.n + c] = x;
		v->unit = x->unit;
	}
	group_label(res, items, nitems, g, sp, v->label, sizeof(v->label));
	return 1;
oom:
	axis_free(&rows);
	axis_free(&cols);
	return -1;
}

static void print_view(FILE *out, const struct grid_view *v)
{
	const struct wl_grid *sp = v->spec;
	size_t ncell = v->nrows * v->ncols;
	char (*num)[32] = calloc(ncell, sizeof(*num));
	char (*sd)[32] = calloc(ncell, sizeof(*sd));
	char head[VAL_LEN + 32], text[80], line[LINE * 4];
	double lo = 0, div = 1.0;
	const char *scaled;
	size_t r, c, k, labelw = 0, colw = 0, numw = 0, sdw = 0, per_line, c0;

	if (!num || !sd) {
		fprintf(out, "  (grid: out of memory)\n");
		goto out;
	}
	for (k = 0; k < ncell; k++) {
		double m = v->cell[k] && !v->cell[k]->withheld ?
			   v->cell[k]->summary.median : 0;

		if (m > 0 && (lo == 0 || m < lo))
			lo = m;
	}
	/* One scale for all cells, the smallest's: no digits lost. */
	scaled = fmt_scale(lo, v->unit ? v->unit : "", &div);
	for (r = 0; r < v->nrows; r++) {
		snprintf(head, sizeof(head), "%s=%s", sp->row, v->row[r]);
		if (strlen(head) > labelw)
			labelw = strlen(head);
		for (c = 0; c < v->ncols; c++) {
			const struct result *x = v->cell[r * v->ncols + c];

			k = r * v->ncols + c;
			if (x)
				cell_text(x, div, num[k], sd[k],
					  sizeof(num[0]));
			else
				snprintf(num[k], sizeof(num[0]), "-");
			if (strlen(num[k]) > numw)
				numw = strlen(num[k]);
			if (strlen(sd[k]) > sdw)
				sdw = strlen(sd[k]);
		}
	}
	/* "1.23 ±2.1%": numbers right-aligned, spreads left-aligned */
	colw = numw + (sdw ? 2 + sdw : 0);
	for (c = 0; c < v->ncols; c++) {
		snprintf(head, sizeof(head), "%s=%s", sp->col, v->col[c]);
		if (strlen(head) > colw)
			colw = strlen(head);
	}
	per_line = (LINE - INDENT - labelw) / (colw + 2);
	if (per_line < 1)
		per_line = 1;

	fprintf(out, "\n  %s%s%s, median ±sd of the samples%s%s%s\n",
		sp->metric, *scaled ? " in " : "", scaled,
		*v->label ? " (" : "", v->label, *v->label ? ")" : "");
	for (c0 = 0; c0 < v->ncols; c0 += per_line) {
		size_t c1 = c0 + per_line < v->ncols ? c0 + per_line
						     : v->ncols;

		snprintf(line, sizeof(line), "%*s%*s", INDENT, "",
			 (int)labelw, "");
		for (c = c0; c < c1; c++) {
			snprintf(head, sizeof(head), "%s=%s", sp->col,
				 v->col[c]);
			add_padded(line, sizeof(line), head, colw + 2);
		}
		put_line(out, line);
		for (r = 0; r < v->nrows; r++) {
			snprintf(head, sizeof(head), "%s=%s", sp->row,
				 v->row[r]);
			snprintf(line, sizeof(line), "%*s%-*s", INDENT, "",
				 (int)labelw, head);
			for (c = c0; c < c1; c++) {
				k = r * v->ncols + c;
				if (sd[k][0])
					snprintf(text, sizeof(text),
						 "%*s ±%-*s", (int)numw,
						 num[k], (int)sdw, sd[k]);
				else
					snprintf(text, sizeof(text), "%*s%*s",
						 (int)numw, num[k],
						 (int)(sdw ? sdw + 2 : 0), "");
				add_padded(line, sizeof(line), text, colw + 2);
			}
			put_line(out, line);
		}
	}
out:
	free(num);
	free(sd);
}

/* "k=v\t..." of cfg's parameters other than the grid's two. */
static char *rest_key(const struct result_config *c,
		      const struct wl_grid *sp)
{
	size_t k, len = 1, used = 0;
	char *s;

	for (k = 0; k < c->nparams; k++)
		len += strlen(c->params[k].name) +
		       strlen(c->params[k].value) + 2;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (k = 0; k < c->nparams; k++)
		if (strcmp(c->params[k].name, sp->row) != 0 &&
		    strcmp(c->params[k].name, sp->col) != 0)
			used += (size_t)snprintf(s + used, len - used,
						 "%s=%s\t", c->params[k].name,
						 c->params[k].value);
	return s;
}

/* The results of res that spec's grid uses, grouped by other params. */
static int collect(const char *workload, const struct wl_grid *sp,
		   const struct result *res, size_t n,
		   struct grid_item **out, size_t *nout, size_t *ngroups)
{
	struct grid_item *items = NULL;
	size_t i, k, ni = 0;

	*ngroups = 0;
	for (i = 0; i < n; i++) {
		const struct result *x = &res[i];
		const char *rv, *cv;
		struct grid_item *it;

		if (strcmp(x->cfg->workload, workload) != 0 ||
		    strcmp(x->metric, sp->metric) != 0 || !x->nsamples ||
		    x->trace)
			continue;
		rv = result_param(x->cfg, sp->row);
		cv = result_param(x->cfg, sp->col);
		if (!rv || !cv)
			continue;
		it = realloc(items, (ni + 1) * sizeof(*items));
		if (!it)
			goto oom;
		items = it;
		it = &items[ni];
		memset(it, 0, sizeof(*it));
		it->idx = i;
		snprintf(it->row, sizeof(it->row), "%s", rv);
		snprintf(it->col, sizeof(it->col), "%s", cv);
		it->rest = rest_key(x->cfg, sp);
		ni++;
		if (!it->rest)
			goto oom;
		it->group = *ngroups;
		for (k = 0; k < ni - 1; k++)
			if (strcmp(items[k].rest, it->rest) == 0) {
				it->group = items[k].group;
				break;
			}
		if (it->group == *ngroups)
			(*ngroups)++;
	}
	*out = items;
	*nout = ni;
	return 0;
oom:
	for (k = 0; k < ni; k++)
		free(items[k].rest);
	free(items);
	return -1;
}

void grid_views_free(struct grid_view *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].row);
		free(v[i].col);
		free(v[i].cell);
	}
	free(v);
}

int grid_compute(const struct result *res, size_t n, struct grid_view **out,
		 size_t *nout)
{
	const struct workload *wl = n ? res[0].cfg->wl : NULL;
	struct grid_item *items = NULL;
	struct grid_view *views = NULL, *nv;
	size_t g, i, nitems = 0, ngroups = 0, nviews = 0;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if (!wl || !wl->grid)
		return 0;
	if (collect(wl->name, wl->grid, res, n, &items, &nitems,
		    &ngroups) != 0)
		return -1;
	for (g = 0; g < ngroups && rc >= 0; g++) {
		nv = realloc(views, (nviews + 1) * sizeof(*views));
		if (!nv) {
			rc = -1;
			break;
		}
		views = nv;
		rc = build_view(wl->grid, res, items, nitems, g,
				&views[nviews]);
		if (rc > 0)
			nviews++;
	}
	for (i = 0; i < nitems; i++)
		free(items[i].rest);
	free(items);
	if (rc < 0) {
		grid_views_free(views, nviews);
		return -1;
	}
	*out = views;
	*nout = nviews;
	return 0;
}

int grid_print(FILE *out, const struct result *res, size_t n)
{
	struct grid_view *v;
	size_t nv, i;

	if (grid_compute(res, n, &v, &nv) != 0)
		return -1;
	for (i = 0; i < nv; i++)
		print_view(out, &v[i]);
	grid_views_free(v, nv);
	return (int)nv;
}
