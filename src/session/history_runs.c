/*
 * history_runs.c - the earlier runs behind history as the noise model
 * of a single run (see history_noise.h).  The store's history read
 * (store/history_read.c) gives every result of complete runs of one workload
 * and metric, oldest run first; here those of the judged run's host and
 * configuration that started before it are kept, one median per run, and
 * handed to the comparison (comparison/history_noise.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/codec.h"
#include "session/history_runs.h"
#include "stats/summary.h"
#include "store/history_read.h"

/* Did x start before run (by start time, then id)? */
static bool earlier(const struct store_hist_result *x,
		    const struct run_data *run)
{
	if (x->started_ns != run->info.started_ns)
		return x->started_ns < run->info.started_ns;
	return x->run_id < run->info.id;
}

/* Is x of row r's configuration (parameters less c's ignored ones)? */
static int same_config(const struct cmp *c, const struct cmp_row *r,
		       const struct store_hist_result *x, bool *same)
{
	char *m;

	*same = false;
	if (strcmp(x->unit, r->ref->unit) != 0)
		return 0;
	if (!c->opts.nignore) {
		*same = strcmp(x->params, r->match) == 0;
		return 0;
	}
	m = result_params_without(x->params, c->opts.ignore, c->opts.nignore);
	if (!m)
		return -1;
	*same = strcmp(m, r->match) == 0;
	free(m);
	return 0;
}

/* Judge row r against the earlier runs in h (one workload, metric). */
static int judge_row(const struct cmp *c, struct cmp_row *r,
		     const struct store_history *h)
{
	const struct run_data *run;
	int64_t *ids = malloc((h->n ? h->n : 1) * sizeof(*ids));
	double *med = malloc((h->n ? h->n : 1) * sizeof(*med));
	size_t i, n = 0;
	bool jb, same;
	int rc = -1;

	if (!ids || !med || !cmp_hist_wanted(c, r, &run, &jb))
		goto out;
	for (i = 0; i < h->n; i++) {
		const struct store_hist_result *x = &h->r[i];

		if (x->run_id == run->info.id || !x->nsamples ||
		    strcmp(x->host, run->info.host) != 0 || !earlier(x, run) ||
		    (n && ids[n - 1] == x->run_id))
			continue;
		if (same_config(c, r, x, &same) != 0)
			goto out;
		if (!same)
			continue;
		ids[n] = x->run_id;
		med[n++] = stats_median(x->samples, x->nsamples);
	}
	rc = cmp_hist_judge(c, r, run, jb, ids, med, n);
out:
	free(ids);
	free(med);
	return rc;
}

int history_noise_apply(struct store *st, struct cmp *c, char *err,
			size_t errlen)
{
	bool *done = calloc(c->nrows ? c->nrows : 1, sizeof(*done));
	const struct run_data *run;
	struct store_history h;
	size_t i, j;
	bool jb;

	if (!done)
		goto nomem;
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (done[i] || !cmp_hist_wanted(c, r, &run, &jb))
			continue;
		if (store_history_load(st, r->ref->cfg->workload, r->ref->metric,
				       NULL, 0, &h, err, errlen) != 0) {
			free(done);
			return -1;
		}
		for (j = i; j < c->nrows; j++) {
			struct cmp_row *q = &c->rows[j];

			if (done[j] || !cmp_hist_wanted(c, q, &run, &jb) ||
			    strcmp(q->ref->cfg->workload,
				   r->ref->cfg->workload) != 0 ||
			    strcmp(q->ref->metric, r->ref->metric) != 0)
				continue;
			done[j] = true;
			if (judge_row(c, q, &h) != 0) {
				store_history_free(&h);
				goto nomem;
			}
		}
		store_history_free(&h);
	}
	free(done);
	return 0;
nomem:
	free(done);
	snprintf(err, errlen, "cannot judge against the history: %s",
		 strerror(ENOMEM));
	return -1;
}
