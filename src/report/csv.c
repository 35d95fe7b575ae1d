/*
 * csv.c - a run's results as CSV (`show --csv`): a header line, then one
 * line per result row, and the CSV fields the comparison's CSV shares.
 */
#include <math.h>
#include <stdio.h>

#include "report/report.h"

void report_csv_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void report_csv_num(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fprintf(out, ",");
	else
		fprintf(out, ",%.17g", v);
}

int report_csv(FILE *out, const struct run_info *run,
	       const struct result *res, size_t n)
{
	size_t i, k;

	fprintf(out, "run,uuid,job,workload,params,metric,unit,direction,"
		"trace,n,median,mean,min,max,stddev,mad,cv,ci95_lo,ci95_hi,"
		"flagged,bimodal,median_lo,median_hi\n");
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];
		const struct summary *s = &r->summary;
		size_t flagged = 0;

		for (k = 0; k < r->nsamples; k++)
			flagged += result_value_flagged(r, k);
		fprintf(out, "%lld,%s,%d,", (long long)run->id, run->uuid,
			r->cfg->job);
		report_csv_str(out, r->cfg->workload);
		fputc(',', out);
		report_csv_str(out, r->cfg->params_json);
		fputc(',', out);
		report_csv_str(out, r->metric);
		fputc(',', out);
		report_csv_str(out, r->unit);
		fprintf(out, ",%s,%d,%zu", r->direction > 0 ? "higher" :
			r->direction < 0 ? "lower" : "info", r->trace, s->n);
		/* a withheld headline (stats/headline.h): no median, mean
		   or CI; n counts the samples the summary is over */
		report_csv_num(out, r->withheld ? NAN : s->median);
		report_csv_num(out, r->withheld ? NAN : s->mean);
		report_csv_num(out, s->min);
		report_csv_num(out, s->max);
		report_csv_num(out, s->stddev);
		report_csv_num(out, s->mad);
		report_csv_num(out, s->cv);
		report_csv_num(out, r->withheld ? NAN : s->ci_lo);
		report_csv_num(out, r->withheld ? NAN : s->ci_hi);
		fprintf(out, ",%zu,%d", flagged, r->modes.bimodal);
		report_csv_num(out, r->modes.bimodal ? r->modes.median_lo :
			       NAN);
		report_csv_num(out, r->modes.bimodal ? r->modes.median_hi :
			       NAN);
		fputc('\n', out);
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
