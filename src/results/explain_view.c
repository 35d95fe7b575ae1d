/*
 * explain_view.c - the --explain model (see explain_view.h): pipe.bw
 * beside mem.copy, the two-copy floor and ring.bw at the same size
 * ("where the time goes"), and a workload per byte against copy engines
 * at each size of a sweep, computed once from the results for every
 * renderer.
 *
 * Pipe arithmetic (explain_compute): with B a bandwidth in bytes/s, the
 * time to move 64 KiB is 65536 / B seconds.  A pipe copies every byte
 * twice (into the pipe's pages, out to the reader), so the floor is one
 * copy's bandwidth halved, i.e. twice its time.  ring.bw also copies
 * twice but with no system call in the data path, so pipe time minus
 * ring time is what the kernel path adds per 64 KiB (entry and exit,
 * locking, page allocation, wake-ups and the context switches they
 * cause).
 *
 * Per-byte arithmetic (explain_pb_compute, explain_pb_fit): an op moves
 * S bytes, so at bandwidth B it takes T = S / B (x 1e9 ns) and S / T per
 * byte; the floor's copy of the same S bytes takes T_f = S / B_f.  The
 * workload runs at T_f / T of the floor's speed, and T - T_f is the time
 * per op beyond the floor's copy.  Over a sweep, T = a + b S is fitted
 * by least squares for the workload and each floor: b_f / b is the
 * workload's per-byte speed as a share of the floor's, a its fixed cost
 * per op.  The points are weighted by 1 / T^2 (each counts by its
 * relative error), as under the tables (report/fit_report.c).
 */
#include "results/explain_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/param.h"

#define MIB 1048576.0

static double ns_per_unit(double bps)
{
	return bps > 0 ? EXPLAIN_UNIT_BYTES / bps * 1e9 : 0.0;
}

int explain_compute(const struct explain_input *in,
		    struct explain_figures *out)
{
	memset(out, 0, sizeof(*out));
	out->extra_cs_per_mib = -1;
	out->floor_bps = in->copy_bps > 0 ? in->copy_bps / 2 : 0;
	out->copy_ns_64k = ns_per_unit(in->copy_bps);
	out->floor_ns_64k = ns_per_unit(out->floor_bps);
	out->ring_ns_64k = ns_per_unit(in->ring_bps);
	out->pipe_ns_64k = ns_per_unit(in->pipe_bps);
	if (in->pipe_bps > 0) {
		if (in->copy_bps > 0) {
			out->pipe_of_copy = in->pipe_bps / in->copy_bps;
			out->pipe_of_floor = in->pipe_bps / out->floor_bps;
		}
		if (in->ring_bps > 0) {
			out->pipe_of_ring = in->pipe_bps / in->ring_bps;
			out->kernel_ns_64k = out->pipe_ns_64k -
					     out->ring_ns_64k;
			out->kernel_share = out->kernel_ns_64k /
					    out->pipe_ns_64k;
		}
	}
	if (in->pipe_cs_per_mib >= 0 && in->ring_cs_per_mib >= 0)
		out->extra_cs_per_mib = in->pipe_cs_per_mib -
					in->ring_cs_per_mib;
	return in->copy_bps > 0 && in->ring_bps > 0 && in->pipe_bps > 0 ? 0
									: -1;
}

static bool same_param(const struct result_config *a,
		       const struct result_config *b, const char *key)
{
	const char *x = result_param(a, key), *y = result_param(b, key);

	return x && y && strcmp(x, y) == 0;
}

double explain_cs_per_mib(const struct result *r, double size_bytes)
{
	const struct result_config *c = r->cfg;
	double m;

	if (size_bytes <= 0 || c->batch_ops == 0)
		return -1;
	m = result_counter_median(c, c->ctx_switches,
				  (double)c->batch_ops * size_bytes / MIB);
	return isnan(m) ? -1 : m;
}

/* A result of workload wl's metric with samples. */
static bool is_of(const struct result *r, const char *wl, const char *metric)
{
	return strcmp(r->cfg->workload, wl) == 0 &&
	       strcmp(r->metric, metric) == 0 && r->nsamples > 0;
}

static const char *or_q(const char *s)
{
	return s ? s : "?";
}

/* Does cfg carry every "key=value" of list (NULL: nothing asked)? */
static bool has_settings(const struct result_config *cfg,
			 const char *const *list)
{
	for (; list && *list; list++) {
		const char *eq = strchr(*list, '='), *v;
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)(eq - *list), *list);
		v = result_param(cfg, key);
		if (!v || strcmp(v, eq + 1) != 0)
			return false;
	}
	return true;
}

/* How many of the floor's shared parameters agree; -1 if the first
   (the message size) does not. */
static int floor_match(const struct result_config *self,
		       const struct result_config *other,
		       const struct wl_floor *fl)
{
	int score = 0;
	size_t k;

	for (k = 0; fl->same[k]; k++) {
		bool same = same_param(self, other, fl->same[k]);

		if (k == 0 && !same)
			return -1;
		score += same;
	}
	return score;
}

/* The best result of floor fl for self: its metric, its settings, the
   most shared parameters agreeing. */
static const struct result *find_floor(const struct result *res, size_t n,
				       const struct result_config *self,
				       const char *metric,
				       const struct wl_floor *fl)
{
	const struct result *best = NULL;
	int best_score = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		int score;

		if (!is_of(&res[i], fl->workload, metric) ||
		    !has_settings(res[i].cfg, fl->set))
			continue;
		score = floor_match(self, res[i].cfg, fl);
		if (score > best_score) {
			best_score = score;
			best = &res[i];
		}
	}
	return best;
}

/* "mem.copy engine=libc": the command line that measures the floor. */
static void floor_command(const struct wl_floor *fl, char *buf, size_t len)
{
	const char *const *s;
	size_t used = (size_t)snprintf(buf, len, "%s", fl->workload);

	for (s = fl->set; s && *s && used < len; s++)
		used += (size_t)snprintf(buf + used, len - used, " %s", *s);
}

void explain_floor_name(const struct wl_floor *fl, char *buf, size_t len)
{
	const char *const *s;
	size_t used = (size_t)snprintf(buf, len, "%s", fl->workload);

	for (s = fl->set; s && *s && used < len; s++)
		used += (size_t)snprintf(buf + used, len - used, " %s",
					 strchr(*s, '=') + 1);
}

/*
 * The block of one result explained by a pipe recipe (the copy is
 * floors[0], the ring floors[1]): 1 when its floors were found, 0 when
 * not (err says which is missing), -1 without its size.
 */
static int explain_one(const struct result *res, size_t n,
		       const struct result *self, struct explain_block *b,
		       char *err, size_t errlen)
{
	const struct result_config *sc = self->cfg;
	const struct wl_explain *x = sc->wl->explain;
	const struct wl_floor *cf = &x->floors[0], *rf = &x->floors[1];
	const char *size_key = cf->same[0];
	const struct result_param *size = result_param_find(sc, size_key);
	const struct result *copy, *ring;
	char copy_name[96];
	const char *const *k;
	size_t used;

	if (!size || !size->has_v || size->v <= 0) {
		snprintf(err, errlen, "%s result %lld has no %s",
			 sc->workload, (long long)self->id, size_key);
		return -1;
	}
	explain_floor_name(cf, copy_name, sizeof(copy_name));
	copy = find_floor(res, n, sc, x->metric, cf);
	ring = find_floor(res, n, sc, x->metric, rf);
	if (!copy || !ring) {
		char cmd[128];

		floor_command(!copy ? cf : rf, cmd, sizeof(cmd));
		snprintf(err, errlen, "no %s result at %s=%s to explain %s "
			 "against (run %s %s=%s)", !copy ? copy_name :
			 rf->workload, size_key, size->value, sc->workload,
			 cmd, size_key, size->value);
		return 0;
	}
	memset(b, 0, sizeof(*b));
	b->self = self;
	b->copy = copy;
	b->ring = ring;
	b->in.size_bytes = (double)size->v;
	b->in.copy_bps = copy->summary.median;
	b->in.ring_bps = ring->summary.median;
	b->in.pipe_bps = self->summary.median;
	b->in.ring_cs_per_mib = explain_cs_per_mib(ring, b->in.size_bytes);
	b->in.pipe_cs_per_mib = explain_cs_per_mib(self, b->in.size_bytes);
	explain_compute(&b->in, &b->f);
	used = (size_t)snprintf(b->title, sizeof(b->title), "%s",
				sc->workload);
	for (k = rf->same; *k && used < sizeof(b->title); k++)
		used += (size_t)snprintf(b->title + used,
					 sizeof(b->title) - used, " %s=%s", *k,
					 or_q(result_param(sc, *k)));
	snprintf(b->copy_label, sizeof(b->copy_label), "%s (1 copy)",
		 copy_name);
	snprintf(b->ring_label, sizeof(b->ring_label), "%s (2 copies)",
		 rf->workload);
	snprintf(b->self_label, sizeof(b->self_label), "%s", sc->workload);
	return 1;
}

/*
 * The pipe-recipe blocks: *out (malloc'ed) gets *nout blocks.  Returns
 * their number; 0 with a message in err when nothing could be explained;
 * -1 with a message on a result without its size or out of memory.
 */
static int pipe_collect(const struct result *res, size_t n,
		    struct explain_block **out, size_t *nout, char *err,
		    size_t errlen)
{
	const struct workload *const *table;
	struct explain_block b, *nb;
	size_t i, nwl, used = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	table = workload_registry(&nwl);
	used = (size_t)snprintf(err, errlen, "no result to explain (a "
				"bandwidth of");
	for (i = 0; i < nwl && used < errlen; i++)
		if (table[i]->explain)
			used += (size_t)snprintf(err + used, errlen - used,
						 " %s", table[i]->name);
	if (used < errlen)
		snprintf(err + used, errlen - used, ")");
	for (i = 0; i < n; i++) {
		const struct result_config *c = res[i].cfg;

		if (!c->wl || !c->wl->explain ||
		    c->wl->explain->kind != WL_EXPLAIN_PIPE ||
		    !is_of(&res[i], c->workload, c->wl->explain->metric) ||
		    !has_settings(c, c->wl->explain->only))
			continue;
		rc = explain_one(res, n, &res[i], &b, err, errlen);
		if (rc < 0) {
			free(*out);
			*out = NULL;
			*nout = 0;
			return -1;
		}
		if (rc == 0)
			continue;
		nb = realloc(*out, (*nout + 1) * sizeof(**out));
		if (!nb) {
			snprintf(err, errlen, "out of memory");
			free(*out);
			*out = NULL;
			*nout = 0;
			return -1;
		}
		*out = nb;
		nb[(*nout)++] = b;
	}
	if (*nout > 0)
		err[0] = '\0';
	return (int)*nout;
}

/* ---- per byte ---- */

int explain_pb_compute(const struct explain_pb_input *in,
		       struct explain_pb_row *out)
{
	double s = in->size_bytes;
	size_t k;

	memset(out, 0, sizeof(*out));
	if (!(s > 0) || !(in->self_bps > 0))
		return -1;
	out->self_ns = s / in->self_bps * 1e9;
	out->self_ns_byte = out->self_ns / s;
	for (k = 0; k < in->nfloors && k < WL_EXPLAIN_MAX_FLOORS; k++) {
		if (!(in->floor_bps[k] > 0))
			continue;
		out->floor_ns[k] = s / in->floor_bps[k] * 1e9;
		out->floor_ns_byte[k] = out->floor_ns[k] / s;
		out->speed[k] = out->floor_ns[k] / out->self_ns;
		out->beyond_ns[k] = out->self_ns - out->floor_ns[k];
	}
	return 0;
}

/* Fit time = a + b size over the points whose rate (bps[i]) is > 0. */
static bool fit_times(const struct explain_pb_input *in, size_t n,
		      int floor, struct fit_line *line)
{
	double *x = calloc(n ? n : 1, sizeof(*x));
	double *y = calloc(n ? n : 1, sizeof(*y));
	double *w = calloc(n ? n : 1, sizeof(*w));
	size_t i, m = 0;
	bool ok = false;

	if (!x || !y || !w)
		goto out;
	for (i = 0; i < n; i++) {
		double bps = floor < 0 ? in[i].self_bps
				       : in[i].floor_bps[floor];

		if (!(bps > 0) || !(in[i].size_bytes > 0))
			continue;
		x[m] = in[i].size_bytes;
		y[m] = in[i].size_bytes / bps * 1e9;
		w[m] = 1.0 / (y[m] * y[m]);
		m++;
	}
	ok = fit_linear(x, y, w, m, line) == 0;
out:
	free(x);
	free(y);
	free(w);
	return ok;
}

int explain_pb_fit(const struct explain_pb_input *in, size_t n,
		   struct explain_pb_fit *out)
{
	size_t k, nf = n ? in[0].nfloors : 0;

	memset(out, 0, sizeof(*out));
	out->self_ok = fit_times(in, n, -1, &out->self);
	for (k = 0; k < nf && k < WL_EXPLAIN_MAX_FLOORS; k++) {
		out->floor_ok[k] = fit_times(in, n, (int)k, &out->floor[k]);
		if (out->self_ok && out->floor_ok[k] && out->self.b > 0 &&
		    out->floor[k].b > 0)
			out->speed[k] = out->floor[k].b / out->self.b;
	}
	return out->self_ok ? 0 : -1;
}

/* Is b the same configuration as a apart from parameter key? */
static bool same_but(const struct result_config *a,
		     const struct result_config *b, const char *key)
{
	size_t i;

	if (strcmp(a->workload, b->workload) != 0 ||
	    a->nparams != b->nparams)
		return false;
	for (i = 0; i < a->nparams; i++) {
		const char *name = a->params[i].name;
		const char *v = result_param(b, name);

		if (strcmp(name, key) == 0)
			continue;
		if (!v || strcmp(v, a->params[i].value) != 0)
			return false;
	}
	return true;
}

void explain_floor_short(const struct wl_floor *fl, char *buf, size_t len)
{
	const char *const *s;
	size_t used = 0;

	buf[0] = '\0';
	for (s = fl->set; s && *s && used < len; s++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? " " : "", strchr(*s, '=') + 1);
	if (!buf[0])
		snprintf(buf, len, "%s", fl->workload);
}

/* The title: the workload and its parameters but the size and the
   verify row. */
static void pb_title(const struct result_config *c, const char *size_key,
		     const struct wl_explain *x, char *buf, size_t len)
{
	const struct workload *wl = c->wl;
	size_t used, i, k;

	used = (size_t)snprintf(buf, len, "per byte against");
	for (k = 0; k < x->nfloors && used < len; k++) {
		size_t j;
		bool seen = false;

		for (j = 0; j < k; j++)
			seen |= strcmp(x->floors[j].workload,
				       x->floors[k].workload) == 0;
		if (!seen)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s %s", k ? "," : "",
						 x->floors[k].workload);
	}
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, ": %s",
					 c->workload);
	for (i = 0; i < c->nparams && used < len; i++) {
		const char *name = c->params[i].name;
		int row = param_find(wl->params, wl->nparams, name);

		if (strcmp(name, size_key) == 0 ||
		    (row >= 0 && wl->params[row].role == PARAM_ROLE_VERIFY))
			continue;
		used += (size_t)snprintf(buf + used, len - used, " %s=%s",
					 name, c->params[i].value);
	}
}

static int cmp_point(const void *a, const void *b)
{
	const struct explain_pb_point *p = a, *q = b;

	return (p->in.size_bytes > q->in.size_bytes) -
	       (p->in.size_bytes < q->in.size_bytes);
}

/*
 * The block of self's configuration apart from its size: every result of
 * it (marked in done), a point per size with its floors, the fit.
 * Returns 1, 0 when no floor was found at any size (err says what to
 * run), -1 on a result without its size or out of memory (err).
 */
static int pb_block_make(const struct result *res, size_t n,
			 const struct result *self, bool *done,
			 struct explain_pb_block *b, char *err, size_t errlen)
{
	const struct result_config *sc = self->cfg;
	const struct wl_explain *x = sc->wl->explain;
	const char *size_key = x->floors[0].same[0];
	char name[96], cmd[128];
	size_t i, j, k, found = 0;

	memset(b, 0, sizeof(*b));
	b->x = x;
	b->workload = sc->workload;
	b->pts = calloc(n ? n : 1, sizeof(*b->pts));
	if (!b->pts) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];
		struct explain_pb_point *p = &b->pts[b->npts];
		const struct result_param *size;
		bool dup = false;

		if (done[i] || r->cfg->wl != sc->wl ||
		    strcmp(r->metric, self->metric) != 0 || !r->nsamples ||
		    !same_but(sc, r->cfg, size_key))
			continue;
		done[i] = true;
		size = result_param_find(r->cfg, size_key);
		if (!size || !size->has_v || size->v <= 0) {
			snprintf(err, errlen, "%s result %lld has no %s",
				 r->cfg->workload, (long long)r->id, size_key);
			return -1;
		}
		for (j = 0; j < b->npts; j++)
			dup |= b->pts[j].in.size_bytes == (double)size->v;
		if (dup)
			continue;
		p->self = r;
		p->size = size->value;
		p->in.size_bytes = (double)size->v;
		p->in.self_bps = r->summary.median;
		p->in.nfloors = x->nfloors;
		for (k = 0; k < x->nfloors; k++) {
			const struct result *fr = find_floor(res, n, r->cfg,
				x->metric, &x->floors[k]);

			p->floor[k] = fr;
			p->in.floor_bps[k] = fr ? fr->summary.median : 0;
			found += fr != NULL;
			if (!fr) {
				explain_floor_name(&x->floors[k], name,
						   sizeof(name));
				floor_command(&x->floors[k], cmd,
					      sizeof(cmd));
				snprintf(err, errlen, "no %s result at %s=%s "
					 "to explain %s against (run %s "
					 "%s=%s)", name, size_key,
					 size->value, r->cfg->workload, cmd,
					 size_key, size->value);
			}
		}
		explain_pb_compute(&p->in, &p->row);
		b->npts++;
	}
	if (!found)
		return 0;
	qsort(b->pts, b->npts, sizeof(*b->pts), cmp_point);
	pb_title(sc, size_key, x, b->title, sizeof(b->title));
	if (b->npts >= 2) {
		struct explain_pb_input *in = calloc(b->npts, sizeof(*in));

		if (!in) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		for (i = 0; i < b->npts; i++)
			in[i] = b->pts[i].in;
		b->fitted = explain_pb_fit(in, b->npts, &b->fit) == 0;
		free(in);
	}
	return 1;
}

static void pb_free(struct explain_pb_block *b, size_t n)
{
	size_t i;

	for (i = 0; b && i < n; i++)
		free(b[i].pts);
	free(b);
}

/*
 * The per-byte blocks: *out gets *nout blocks (free them with pb_free()).
 * Returns their number; 0 with a message in err naming what to run when
 * nothing could be explained; -1 with a message on a result without its
 * size or out of memory.
 */
static int pb_collect(const struct result *res, size_t n,
		       struct explain_pb_block **out, size_t *nout,
		       char *err, size_t errlen)
{
	bool *done = calloc(n ? n : 1, sizeof(*done));
	struct explain_pb_block b, *nb;
	size_t i;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	snprintf(err, errlen, "no result to explain per byte");
	if (!done) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct result_config *c = res[i].cfg;

		if (done[i] || !c->wl || !c->wl->explain ||
		    c->wl->explain->kind != WL_EXPLAIN_PER_BYTE ||
		    !is_of(&res[i], c->workload, c->wl->explain->metric) ||
		    !has_settings(c, c->wl->explain->only))
			continue;
		rc = pb_block_make(res, n, &res[i], done, &b, err, errlen);
		if (rc <= 0) {
			free(b.pts);
			if (rc < 0)
				break;
			continue;
		}
		nb = realloc(*out, (*nout + 1) * sizeof(**out));
		if (!nb) {
			free(b.pts);
			snprintf(err, errlen, "out of memory");
			rc = -1;
			break;
		}
		*out = nb;
		nb[(*nout)++] = b;
	}
	free(done);
	if (rc < 0) {
		pb_free(*out, *nout);
		*out = NULL;
		*nout = 0;
		return -1;
	}
	if (*nout > 0)
		err[0] = '\0';
	return (int)*nout;
}

int explain_view_build(const struct result *res, size_t n,
		       struct explain_view *view, char *err, size_t errlen)
{
	char pb_err[512];
	int rc;

	memset(view, 0, sizeof(*view));
	rc = pipe_collect(res, n, &view->pipe, &view->npipe, err, errlen);
	if (rc < 0)
		return -1;
	rc = pb_collect(res, n, &view->pb, &view->npb, pb_err,
			sizeof(pb_err));
	if (rc < 0) {
		snprintf(err, errlen, "%s", pb_err);
		explain_view_free(view);
		return -1;
	}
	/* nothing explained: the per-byte message when it says what is
	   missing, else the general one */
	if (view->npipe + view->npb == 0 &&
	    strncmp(pb_err, "no result to", 12) != 0)
		snprintf(err, errlen, "%s", pb_err);
	if (view->npipe + view->npb > 0)
		err[0] = '\0';
	return (int)(view->npipe + view->npb);
}

void explain_view_free(struct explain_view *view)
{
	free(view->pipe);
	pb_free(view->pb, view->npb);
	memset(view, 0, sizeof(*view));
}
