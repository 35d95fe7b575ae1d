/*
 * explain.c - "where the time goes": pipe.bw beside mem.copy, the two-copy
 * floor and ring.bw at the same size (see explain.h).
 *
 * Arithmetic (explain_compute): with B a bandwidth in bytes/s, the time to
 * move 64 KiB is 65536 / B seconds.  A pipe copies every byte twice (into
 * the pipe's pages, out to the reader), so the floor is one copy's
 * bandwidth halved, i.e. twice its time.  ring.bw also copies twice but
 * with no system call in the data path, so pipe time minus ring time is
 * what the kernel path adds per 64 KiB (entry and exit, locking, page
 * allocation, wake-ups and the context switches they cause).
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

/* "mem.copy libc", the floor's workload and the values it sets. */
static void floor_name(const struct wl_floor *fl, char *buf, size_t len)
{
	const char *const *s;
	size_t used = (size_t)snprintf(buf, len, "%s", fl->workload);

	for (s = fl->set; s && *s && used < len; s++)
		used += (size_t)snprintf(buf + used, len - used, " %s",
					 strchr(*s, '=') + 1);
}

/*
 * The block of one explained result: 1 when its floors were found, 0
 * when not (err says which is missing), -1 without its size.
 */
static int explain_one(const struct result *res, size_t n,
		       const struct result *self, struct explain_block *b,
		       char *err, size_t errlen)
{
	const struct result_config *sc = self->cfg;
	const struct wl_explain *x = sc->wl->explain;
	const char *size_key = x->copy.same[0];
	const char *size = result_param(sc, size_key);
	const struct result *copy, *ring;
	char copy_name[96];
	const char *const *k;
	int64_t bytes;
	size_t used;

	if (!size || param_parse_size(size, &bytes) != 0 || bytes <= 0) {
		snprintf(err, errlen, "%s result %lld has no %s",
			 sc->workload, (long long)self->id, size_key);
		return -1;
	}
	floor_name(&x->copy, copy_name, sizeof(copy_name));
	copy = find_floor(res, n, sc, x->metric, &x->copy);
	ring = find_floor(res, n, sc, x->metric, &x->ring);
	if (!copy || !ring) {
		const char *what = !copy ? copy_name : x->ring.workload;

		snprintf(err, errlen, "no %s result at %s=%s to explain %s "
			 "against (run %s %s=%s)", what, size_key, size,
			 sc->workload, what, size_key, size);
		return 0;
	}
	memset(b, 0, sizeof(*b));
	b->self = self;
	b->copy = copy;
	b->ring = ring;
	b->in.size_bytes = (double)bytes;
	b->in.copy_bps = copy->summary.median;
	b->in.ring_bps = ring->summary.median;
	b->in.pipe_bps = self->summary.median;
	b->in.ring_cs_per_mib = explain_cs_per_mib(ring, b->in.size_bytes);
	b->in.pipe_cs_per_mib = explain_cs_per_mib(self, b->in.size_bytes);
	explain_compute(&b->in, &b->f);
	used = (size_t)snprintf(b->title, sizeof(b->title), "%s",
				sc->workload);
	for (k = x->ring.same; *k && used < sizeof(b->title); k++)
		used += (size_t)snprintf(b->title + used,
					 sizeof(b->title) - used, " %s=%s", *k,
					 or_q(result_param(sc, *k)));
	snprintf(b->copy_label, sizeof(b->copy_label), "%s (1 copy)",
		 copy_name);
	snprintf(b->ring_label, sizeof(b->ring_label), "%s (2 copies)",
		 x->ring.workload);
	snprintf(b->self_label, sizeof(b->self_label), "%s", sc->workload);
	return 1;
}

int explain_collect(const struct result *res, size_t n,
		    struct explain_block **out, size_t *nout, char *err,
		    size_t errlen)
{
	struct explain_block b, *nb;
	size_t i, used = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	used = (size_t)snprintf(err, errlen, "no result to explain (a "
				"bandwidth of");
	for (i = 0; i < workload_count && used < errlen; i++)
		if (workload_table[i]->explain)
			used += (size_t)snprintf(err + used, errlen - used,
						 " %s", workload_table[i]->name);
	if (used < errlen)
		snprintf(err + used, errlen - used, ")");
	for (i = 0; i < n; i++) {
		const struct result_config *c = res[i].cfg;

		if (!c->wl || !c->wl->explain ||
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

int explain_results(FILE *out, const struct result *res, size_t n,
		    char *err, size_t errlen)
{
	struct explain_block *b;
	size_t nb, i;
	int rc = explain_collect(res, n, &b, &nb, err, errlen);

	if (rc <= 0)
		return rc;
	for (i = 0; i < nb; i++) {
		struct explain_labels labels = {
			.copy = b[i].copy_label, .ring = b[i].ring_label,
			.self = b[i].self_label,
		};

		if (i)
			fputc('\n', out);
		explain_print(out, b[i].title, &labels, &b[i].in, &b[i].f);
	}
	free(b);
	return rc;
}
