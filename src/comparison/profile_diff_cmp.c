/*
 * profile_diff_cmp.c - compare's kernel profile diff: for a row of the
 * traced samples' time per op (KVIEW_METRIC_TIME, the row that carries
 * the configuration's kernel record), every profile of that
 * configuration on each side, the unpaired diff of the new side's
 * against the base's (comparison/profile_diff.h).
 */
#include "comparison/profile_diff.h"

#include <stdlib.h>
#include <string.h>

#include "comparison/comparison.h"

/*
 * The profiles of side's results that belong to row r (same workload,
 * traced time metric, matching parameters m[run][result]) into *out
 * (malloc'd), the runs they come from into *nruns.  The count, or -1 on
 * ENOMEM.
 */
static long side_profiles(const struct cmp_side *side, char ***m,
			  const struct cmp_row *r,
			  const struct result_kernel ***out, size_t *nruns)
{
	const struct result_kernel **v = NULL;
	size_t i, j, n = 0, cap = 0;

	*nruns = 0;
	for (i = 0; i < side->nruns; i++) {
		const struct result_set *rs = &side->runs[i].results;
		bool any = false;

		for (j = 0; j < rs->n; j++) {
			const struct result *x = &rs->v[j];

			if (!x->traced ||
			    strcmp(x->metric, KVIEW_METRIC_TIME) != 0 ||
			    strcmp(x->cfg->workload,
				   r->ref->cfg->workload) != 0 ||
			    strcmp(m[i][j], r->match) != 0 || !x->cfg->kernel ||
			    !kview_mask_has(x->cfg->kernel->views, "profile"))
				continue;
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 8;
				/* an array of pointers: sizeof(void *) */
				const struct result_kernel **nv =
					realloc(v, nc * sizeof(void *));

				if (!nv) {
					free(v);
					return -1;
				}
				v = nv;
				cap = nc;
			}
			v[n++] = x->cfg->kernel;
			any = true;
		}
		*nruns += any;
	}
	*out = v;
	return (long)n;
}

int pdiff_cmp_row(const struct cmp *c, const struct cmp_row *r,
		  struct pdiff *out)
{
	const struct result_kernel **a = NULL, **b = NULL;
	size_t ra, rb;
	long na, nb;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!r->in_base || !r->in_new || !r->ref->traced ||
	    strcmp(r->ref->metric, KVIEW_METRIC_TIME) != 0)
		return 1;
	na = side_profiles(&c->base, c->match_base, r, &a, &ra);
	nb = na < 0 ? -1 : side_profiles(&c->new, c->match_new, r, &b, &rb);
	if (na < 0 || nb < 0) {
		free(a);
		return -1;
	}
	if (!na && !nb) {
		free(a);
		free(b);
		return 1;
	}
	rc = pdiff_unpaired(a, (size_t)na, b, (size_t)nb, ra, rb, out);
	free(a);
	free(b);
	return rc;
}
