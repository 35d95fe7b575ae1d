/*
 * explain.c - --explain (see explain.h): pipe.bw beside mem.copy, the
 * two-copy floor and ring.bw at the same size ("where the time goes"),
 * and a workload per byte against copy engines at each size of a sweep.
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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/param.h"
#include "core/workload.h"
#include "report/explain.h"
#include "report/format.h"
#include "stats/summary.h"

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

static void print_row(FILE *out, const char *name, double bps, double ns,
		      double frac, double cs)
{
	char b[32], t[32], f[16], c[24], line[128];
	size_t n;

	fmt_value(bps, "bytes/s", b, sizeof(b));
	fmt_value(ns, "ns", t, sizeof(t));
	snprintf(f, sizeof(f), "%.1f%%", frac * 100);
	if (cs >= 0) {
		fmt_number(cs, c, sizeof(c));
	} else {
		snprintf(c, sizeof(c), "%s", cs == -2 ? "" : "n/a");
	}
	snprintf(line, sizeof(line), "  %-24s %11s %11s %10s %11s", name, b, t,
		 f, c);
	n = strlen(line);
	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

void explain_print(FILE *out, const char *title,
		   const struct explain_labels *l,
		   const struct explain_input *in,
		   const struct explain_figures *f)
{
	char kt[32], text[512], sz[32];

	fmt_bytes(in->size_bytes, sz, sizeof(sz));
	snprintf(text, sizeof(text), "where the time goes: %s", title);
	fmt_wrap(out, 0, 2, text);
	fprintf(out, "  %-24s %11s %11s %10s %11s\n", "", "bandwidth",
		"per 64 KiB", "pipe as %", "ctx sw/MiB");
	print_row(out, l->copy, in->copy_bps, f->copy_ns_64k,
		  f->pipe_of_copy, -2);
	print_row(out, "two-copy floor (1/2)", f->floor_bps, f->floor_ns_64k,
		  f->pipe_of_floor, -2);
	print_row(out, l->ring, in->ring_bps, f->ring_ns_64k,
		  f->pipe_of_ring, in->ring_cs_per_mib);
	print_row(out, l->self, in->pipe_bps, f->pipe_ns_64k, 1.0,
		  in->pipe_cs_per_mib);
	fmt_value(fabs(f->kernel_ns_64k), "ns", kt, sizeof(kt));
	if (f->kernel_ns_64k >= 0)
		snprintf(text, sizeof(text), "kernel path (pipe - ring): %s "
			 "per 64 KiB, %.0f%% of the pipe's time, at %s "
			 "messages.", kt, f->kernel_share * 100, sz);
	else
		snprintf(text, sizeof(text), "kernel path (pipe - ring): the "
			 "pipe was %s per 64 KiB faster than the ring at %s "
			 "messages: no kernel overhead could be seen (check "
			 "the spread).", kt, sz);
	fmt_wrap(out, 2, 4, text);
	if (f->extra_cs_per_mib >= 0) {
		char ce[24], cp[24];

		fmt_number(in->pipe_cs_per_mib, cp, sizeof(cp));
		fmt_number(f->extra_cs_per_mib, ce, sizeof(ce));
		snprintf(text, sizeof(text), "the pipe switched context %s "
			 "times per MiB, %s more than the ring: each switch is "
			 "a sleep and a wake-up in the kernel path.", cp, ce);
		fmt_wrap(out, 2, 4, text);
	} else {
		fmt_wrap(out, 2, 4, "context switch counts are not known "
			 "for these results.");
	}
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

/* "mem.copy libc", the floor's workload and the values it sets. */
static void floor_name(const struct wl_floor *fl, char *buf, size_t len)
{
	const char *const *s;
	size_t used = (size_t)snprintf(buf, len, "%s", fl->workload);

	for (s = fl->set; s && *s && used < len; s++)
		used += (size_t)snprintf(buf + used, len - used, " %s",
					 strchr(*s, '=') + 1);
}

/* A pipe recipe: the copy (floors[0]) and the ring (floors[1]). */
static int explain_pipe(FILE *out, const struct result *res, size_t n,
			const struct result *self, bool sep, char *err,
			size_t errlen)
{
	const struct result_config *sc = self->cfg;
	const struct wl_explain *x = sc->wl->explain;
	const struct wl_floor *cf = &x->floors[0], *rf = &x->floors[1];
	const char *size_key = cf->same[0];
	const char *size = result_param(sc, size_key);
	const struct result *copy, *ring;
	struct explain_labels labels;
	struct explain_input in;
	struct explain_figures f;
	char title[256], copy_name[96], copy_label[128], ring_label[128];
	const char *const *k;
	int64_t bytes;
	size_t used;

	if (!size || param_parse_size(size, &bytes) != 0 || bytes <= 0) {
		snprintf(err, errlen, "%s result %lld has no %s",
			 sc->workload, (long long)self->id, size_key);
		return -1;
	}
	floor_name(cf, copy_name, sizeof(copy_name));
	copy = find_floor(res, n, sc, x->metric, cf);
	ring = find_floor(res, n, sc, x->metric, rf);
	if (!copy || !ring) {
		const struct wl_floor *missing = !copy ? cf : rf;
		char cmd[128];

		floor_command(missing, cmd, sizeof(cmd));
		snprintf(err, errlen, "no %s result at %s=%s to explain %s "
			 "against (run %s %s=%s)", !copy ? copy_name :
			 rf->workload, size_key, size, sc->workload, cmd,
			 size_key, size);
		return 0;
	}
	memset(&in, 0, sizeof(in));
	in.size_bytes = (double)bytes;
	in.copy_bps = copy->summary.median;
	in.ring_bps = ring->summary.median;
	in.pipe_bps = self->summary.median;
	in.ring_cs_per_mib = explain_cs_per_mib(ring, in.size_bytes);
	in.pipe_cs_per_mib = explain_cs_per_mib(self, in.size_bytes);
	explain_compute(&in, &f);
	if (sep)
		fputc('\n', out);
	used = (size_t)snprintf(title, sizeof(title), "%s", sc->workload);
	for (k = rf->same; *k && used < sizeof(title); k++)
		used += (size_t)snprintf(title + used, sizeof(title) - used,
					 " %s=%s", *k,
					 or_q(result_param(sc, *k)));
	snprintf(copy_label, sizeof(copy_label), "%s (1 copy)", copy_name);
	snprintf(ring_label, sizeof(ring_label), "%s (2 copies)",
		 rf->workload);
	labels.copy = copy_label;
	labels.ring = ring_label;
	labels.self = sc->workload;
	explain_print(out, title, &labels, &in, &f);
	return 1;
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

/* The short name of a floor: the values it sets ("libc"), else its
   workload. */
static void floor_short(const struct wl_floor *fl, char *buf, size_t len)
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

/* One size of a group: its result and its floors' results. */
struct pb_point {
	const struct result *self;
	const struct result *floor[WL_EXPLAIN_MAX_FLOORS];
	struct explain_pb_input in;
};

static int cmp_point(const void *a, const void *b)
{
	const struct pb_point *p = a, *q = b;

	return (p->in.size_bytes > q->in.size_bytes) -
	       (p->in.size_bytes < q->in.size_bytes);
}

/* Trailing blanks off, then the line. */
static void put_line(FILE *out, char *line)
{
	size_t n = strlen(line);

	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

static void pb_print_rows(FILE *out, const struct pb_point *pts, size_t n,
			  const struct wl_explain *x, size_t label_w)
{
	char line[160], a[32], b[32], c[32], d[32], e[16], sz[32], name[64];
	char per[32];
	size_t i, k;

	snprintf(per, sizeof(per), "per %s", x->per);
	snprintf(line, sizeof(line), "  %-6s %9s %10s   %-*s %11s %6s %10s",
		 "size", per, "per byte", (int)label_w, "floor", "per byte",
		 "speed", "over copy");
	put_line(out, line);
	for (i = 0; i < n; i++) {
		struct explain_pb_row row;

		explain_pb_compute(&pts[i].in, &row);
		snprintf(sz, sizeof(sz), "%s", or_q(result_param(
			 pts[i].self->cfg, x->floors[0].same[0])));
		fmt_value(row.self_ns, "ns", a, sizeof(a));
		fmt_value(row.self_ns_byte, "ns", b, sizeof(b));
		for (k = 0; k < x->nfloors; k++) {
			floor_short(&x->floors[k], name, sizeof(name));
			if (row.floor_ns[k] > 0) {
				fmt_value(row.floor_ns_byte[k], "ns", c,
					  sizeof(c));
				snprintf(e, sizeof(e), "%.1f%%",
					 row.speed[k] * 100);
				fmt_value(row.beyond_ns[k], "ns", d, sizeof(d));
			} else {
				snprintf(c, sizeof(c), "-");
				snprintf(e, sizeof(e), "-");
				snprintf(d, sizeof(d), "-");
			}
			snprintf(line, sizeof(line),
				 "  %-6s %9s %10s   %-*s %11s %6s %10s",
				 k ? "" : sz, k ? "" : a, k ? "" : b,
				 (int)label_w, name, c, e, d);
			put_line(out, line);
		}
	}
}

static void pb_print_fit(FILE *out, const struct pb_point *pts, size_t n,
			 const struct wl_explain *x, const char *wl_name)
{
	struct explain_pb_input *in;
	struct explain_pb_fit f;
	char text[1024], a[32], b[32], c[32], name[64];
	size_t i, k, used;
	int rc;

	if (n < 2)
		return;
	in = calloc(n, sizeof(*in));
	if (!in)
		return;
	for (i = 0; i < n; i++)
		in[i] = pts[i].in;
	rc = explain_pb_fit(in, n, &f);
	free(in);
	if (rc != 0)
		return;
	fmt_value(f.self.a, "ns", a, sizeof(a));
	fmt_value(fabs(f.self.b), "ns", b, sizeof(b));
	used = (size_t)snprintf(text, sizeof(text), "least-squares fit over "
				"%zu sizes: per %s = %s %c %s x size", f.self.n,
				x->per, a, f.self.b < 0 ? '-' : '+', b);
	if (f.self.n >= 3 && used < sizeof(text))
		snprintf(text + used, sizeof(text) - used, ", R² %.4f",
			 f.self.r2);
	fmt_wrap(out, 2, 4, text);
	if (!(f.self.b > 0)) {
		snprintf(text, sizeof(text), "the per-byte part is not "
			 "positive: the fixed cost and the noise hide it, no "
			 "speed to compare (sweep larger sizes)");
		fmt_wrap(out, 2, 4, text);
		return;
	}
	used = (size_t)snprintf(text, sizeof(text), "%s moves a byte in %s:",
				wl_name, b);
	for (k = 0; k < x->nfloors && used < sizeof(text); k++) {
		floor_name(&x->floors[k], name, sizeof(name));
		if (f.speed[k] > 0) {
			fmt_value(f.floor[k].b, "ns", c, sizeof(c));
			used += (size_t)snprintf(text + used,
				sizeof(text) - used, "%s %.0f%% of %s's speed "
				"(%s)", k ? "," : "", f.speed[k] * 100, name,
				c);
		} else {
			used += (size_t)snprintf(text + used,
				sizeof(text) - used, "%s %s has no per-byte "
				"speed to compare (%s)", k ? "," : "", name,
				f.floor_ok[k] ? "its per-byte part is not "
				"positive" : "fewer than two sizes");
		}
	}
	if (used < sizeof(text))
		snprintf(text + used, sizeof(text) - used, "; plus %s per %s.",
			 a, x->per);
	fmt_wrap(out, 2, 4, text);
}

/*
 * A per-byte recipe: every result of self's configuration apart from the
 * size (marked in done), a row per size with its floors, and the fit.
 */
static int explain_per_byte(FILE *out, const struct result *res, size_t n,
			    const struct result *self, bool *done, bool sep,
			    char *err, size_t errlen)
{
	const struct result_config *sc = self->cfg;
	const struct wl_explain *x = sc->wl->explain;
	const char *size_key = x->floors[0].same[0];
	struct pb_point *pts = calloc(n, sizeof(*pts));
	size_t i, j, k, npts = 0, label_w = 5, found = 0;
	char title[1024], name[96], cmd[128];
	int rc = 0;

	if (!pts) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];
		const char *size;
		int64_t bytes;
		bool dup = false;

		if (done[i] || r->cfg->wl != sc->wl ||
		    strcmp(r->metric, self->metric) != 0 || !r->nsamples ||
		    !same_but(sc, r->cfg, size_key))
			continue;
		done[i] = true;
		size = result_param(r->cfg, size_key);
		if (!size || param_parse_size(size, &bytes) != 0 ||
		    bytes <= 0) {
			snprintf(err, errlen, "%s result %lld has no %s",
				 r->cfg->workload, (long long)r->id, size_key);
			rc = -1;
			goto out;
		}
		for (j = 0; j < npts; j++)
			dup |= pts[j].in.size_bytes == (double)bytes;
		if (dup)
			continue;
		pts[npts].self = r;
		pts[npts].in.size_bytes = (double)bytes;
		pts[npts].in.self_bps = r->summary.median;
		pts[npts].in.nfloors = x->nfloors;
		for (k = 0; k < x->nfloors; k++) {
			const struct result *fr = find_floor(res, n, r->cfg,
				x->metric, &x->floors[k]);

			pts[npts].floor[k] = fr;
			pts[npts].in.floor_bps[k] = fr ? fr->summary.median
						       : 0;
			found += fr != NULL;
			if (!fr) {
				floor_name(&x->floors[k], name, sizeof(name));
				floor_command(&x->floors[k], cmd,
					      sizeof(cmd));
				snprintf(err, errlen, "no %s result at %s=%s "
					 "to explain %s against (run %s "
					 "%s=%s)", name, size_key, size,
					 r->cfg->workload, cmd, size_key,
					 size);
			}
		}
		npts++;
	}
	if (!found)
		goto out;
	qsort(pts, npts, sizeof(*pts), cmp_point);
	for (k = 0; k < x->nfloors; k++) {
		floor_short(&x->floors[k], name, sizeof(name));
		if (strlen(name) > label_w)
			label_w = strlen(name);
	}
	if (sep)
		fputc('\n', out);
	pb_title(sc, size_key, x, title, sizeof(title));
	fmt_wrap(out, 0, 2, title);
	pb_print_rows(out, pts, npts, x, label_w);
	pb_print_fit(out, pts, npts, x, sc->workload);
	rc = 1;
out:
	free(pts);
	return rc;
}

int explain_results(FILE *out, const struct result *res, size_t n,
		    char *err, size_t errlen)
{
	bool *done = calloc(n ? n : 1, sizeof(*done));
	size_t i, used = 0;
	int printed = 0, rc;

	used = (size_t)snprintf(err, errlen, "no result to explain (a "
				"bandwidth of");
	for (i = 0; i < workload_count && used < errlen; i++)
		if (workload_table[i]->explain)
			used += (size_t)snprintf(err + used, errlen - used,
						 " %s", workload_table[i]->name);
	if (used < errlen)
		snprintf(err + used, errlen - used, ")");
	if (!done) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct result_config *c = res[i].cfg;

		if (done[i] || !c->wl || !c->wl->explain ||
		    !is_of(&res[i], c->workload, c->wl->explain->metric) ||
		    !has_settings(c, c->wl->explain->only))
			continue;
		if (c->wl->explain->kind == WL_EXPLAIN_PIPE)
			rc = explain_pipe(out, res, n, &res[i], printed > 0,
					  err, errlen);
		else
			rc = explain_per_byte(out, res, n, &res[i], done,
					      printed > 0, err, errlen);
		if (rc < 0) {
			free(done);
			return -1;
		}
		printed += rc;
	}
	free(done);
	if (printed > 0)
		err[0] = '\0';
	return printed;
}
