/*
 * runner_hw.c - the hardware counters' part of a configuration's kept
 * samples (see runner_priv.h): room for their figures, each sample's
 * figures from what the workers read around their batches
 * (runner/hwcount.h does the arithmetic), and the note when the PMU was
 * shared or never counted.
 */
#include "runner/runner_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/hwcount.h"

int runner_hw_alloc(struct config_result *res, int cap)
{
	size_t n = cap > 0 ? (size_t)cap : 1;
	int m;

	if (!hwcount_on())
		return 0;
	for (m = 0; m < HW_NMETRICS; m++) {
		res->hw[m] = calloc(n, sizeof(double));
		if (!res->hw[m])
			return -1;
	}
	res->hw_running_pct = calloc(n, sizeof(double));
	return res->hw_running_pct ? 0 : -1;
}

void runner_hw_record(const struct runner *r, struct config_result *res,
		      size_t k, uint64_t nops)
{
	struct hwcount_sum sum;
	double v[HW_NMETRICS];
	int i, m;

	if (!res->hw_running_pct)
		return;
	hwcount_sum_init(&sum);
	for (i = 0; i < r->ctx.nworkers; i++)
		hwcount_sum_add(&sum, &r->ws.ctl->slot[i].hw0,
				&r->ws.ctl->slot[i].hw1);
	hwcount_per_op(&sum, nops, v);
	for (m = 0; m < HW_NMETRICS; m++)
		res->hw[m][k] = v[m];
	res->hw_running_pct[k] = sum.running_pct;
}

/* Append text to res->note, after a "; " when it has one. */
static void note_add(struct config_result *res, const char *text)
{
	size_t l = strlen(res->note);

	snprintf(res->note + l, sizeof(res->note) - l, "%s%s",
		 l ? "; " : "", text);
}

void runner_hw_note(struct config_result *res)
{
	double least = NAN;
	size_t k, none = 0;
	char text[320];

	if (!res->hw_running_pct || !res->nsamples)
		return;
	for (k = 0; k < res->nsamples; k++) {
		double p = res->hw_running_pct[k];

		if (isnan(p))
			none++;
		else if (isnan(least) || p < least)
			least = p;
	}
	if (none) {
		snprintf(text, sizeof(text), "the hardware counters did not "
			 "count in %zu of %zu samples (the PMU was taken by "
			 "others, or a read failed): no figures from those",
			 none, res->nsamples);
		note_add(res, text);
	}
	if (!isnan(least) && least < 99.95) {
		snprintf(text, sizeof(text), "the hardware counters were "
			 "multiplexed (on the PMU %.1f%% of a sample at "
			 "least): their counts are scaled by time enabled / "
			 "time running, as perf stat does", least);
		note_add(res, text);
	}
}

void runner_hw_free(struct config_result *res)
{
	int m;

	for (m = 0; m < HW_NMETRICS; m++) {
		free(res->hw[m]);
		res->hw[m] = NULL;
	}
	free(res->hw_running_pct);
	res->hw_running_pct = NULL;
}
