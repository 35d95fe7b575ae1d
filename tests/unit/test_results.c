/*
 * test_results.c - unit tests of the results model (src/results/): a
 * runner output made by hand turned into records
 * (session/build_results.c): one configuration shared by its metrics,
 * samples without a value left out,
 * a metric without any left out, the histogram on the first time metric,
 * the cold-call trace as its own result, unknown counters, status and
 * interleave order; the summary computed once; the stored text form
 * written and decoded back to the same records (results/codec.c), each
 * parameter with its definition and parsed value, and malformed text
 * refused with a message.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/param.h"
#include "report/report.h"
#include "result_fixture.h"
#include "runner/interference.h"
#include "runner/swcount.h"
#include "session/build_results.h"
#include "stats/histogram.h"
#include "workloads/workloads.h"

#define NS 4

/* What the runner would give for 4 samples of pipe.bw (2 metrics). */
static void fake_config(struct config_result *cr, bool with_hist)
{
	static const double bw[NS] = { 1e9, 2e9, 3e9, 4e9 };
	static const double t[NS] = { 4000, NAN, 2000, 1000 };
	size_t k;

	memset(cr, 0, sizeof(*cr));
	cr->wl = &wl_pipe_bw;
	assert_int_equal(wl_pipe_bw.nmetrics, 2);
	for (k = 0; k < wl_pipe_bw.nparams; k++) {
		char err[128];

		assert_int_equal(param_parse_value(&wl_pipe_bw.params[k],
						   wl_pipe_bw.params[k].def,
						   &cr->ps.v[k], err,
						   sizeof(err)), 0);
	}
	cr->status = CONFIG_INTERRUPTED;
	snprintf(cr->msg, sizeof(cr->msg), "interrupted");
	snprintf(cr->note, sizeof(cr->note), "pipe capacity 65536 bytes");
	cr->nsamples = NS;
	cr->units[0] = "bytes/s";
	cr->units[1] = "ns";
	cr->values[0] = malloc(NS * sizeof(double));
	cr->values[1] = malloc(NS * sizeof(double));
	memcpy(cr->values[0], bw, sizeof(bw));
	memcpy(cr->values[1], t, sizeof(t));
	cr->batch_ops = 100;
	cr->target_ns = 10000000;
	cr->window_ns = malloc(NS * sizeof(double));
	cr->window_ns[0] = 12e6;
	cr->window_ns[1] = 7e6;		/* shorter than asked for */
	cr->window_ns[2] = 11e6;
	cr->window_ns[3] = 10.5e6;
	cr->nworkers = 2;
	snprintf(cr->worker_names[0], 16, "writer");
	snprintf(cr->worker_names[1], 16, "reader");
	cr->worker_cpu[0] = 0;
	cr->worker_cpu[1] = -1;
	cr->cpus_seen = calloc(2, sizeof(cpu_set_t));
	CPU_SET(0, &cr->cpus_seen[0]);
	CPU_SET(1, &cr->cpus_seen[1]);
	CPU_SET(3, &cr->cpus_seen[1]);
	cr->ctx_switches = calloc(NS, sizeof(uint64_t));
	cr->migrations = calloc(NS, sizeof(uint64_t));
	cr->faults = calloc(NS, sizeof(uint64_t));
	for (k = 0; k < NS; k++) {
		cr->ctx_switches[k] = 10 * (k + 1);
		cr->faults[k] = SWCOUNT_NA;
	}
	cr->other_cpu_pct = calloc(NS, sizeof(double));
	cr->steal_pct = calloc(NS, sizeof(double));
	cr->canary_ns = calloc(NS, sizeof(double));
	cr->interf_flags = calloc(NS, sizeof(unsigned));
	cr->other_cpu_pct[1] = NAN;
	cr->interf_flags[2] = INTERF_FLAG_OTHER | INTERF_FLAG_CANARY;
	cr->canary_ref_ns = 20000;
	for (k = 0; k < NS; k++)
		cr->canary_ns[k] = 20000 + (double)k;
	/* the share of the window the workers did not run; on-CPU ns */
	cr->offcpu_pct = calloc(NS, sizeof(double));
	cr->oncpu_ns = calloc(NS, sizeof(double));
	for (k = 0; k < NS; k++) {
		cr->offcpu_pct[k] = k == 3 ? 40.0 : 1.0;
		cr->oncpu_ns[k] = cr->window_ns[k] *
				  (1 - cr->offcpu_pct[k] / 100);
	}
	cr->offcpu_pct[1] = NAN;
	cr->interf_flags[3] = INTERF_FLAG_OFFCPU;
	if (with_hist) {
		cr->hist = hist_new(1000000);
		for (k = 1; k <= 100; k++)
			hist_record(cr->hist, k * 10);
		hist_record(cr->hist, 5000000);		/* overflow */
		cr->hist_worker = 0;
		cr->hist_ops = 101;
	}
	cr->trace_ns = malloc(3 * sizeof(double));
	cr->trace_ns[0] = 900;
	cr->trace_ns[1] = 150;
	cr->trace_ns[2] = 120;
	cr->ntrace = 3;
}

static void test_build(void **state)
{
	struct config_result cr;
	struct result_set set;
	const struct result_config *c;
	int64_t order[NS] = { 5, 1, 7, 2 };
	struct result_interleave il = { 42, order, NS, 8 };

	(void)state;
	fake_config(&cr, true);
	result_set_init(&set);
	assert_int_equal(results_build(&cr, 3, true, &il, &set), 0);
	/* bandwidth, time/write (3 of 4 samples), the trace */
	assert_int_equal(set.n, 3);
	assert_int_equal(set.ncfgs, 1);
	c = set.v[0].cfg;
	assert_ptr_equal(set.v[1].cfg, c);
	assert_ptr_equal(set.v[2].cfg, c);
	assert_string_equal(c->workload, "pipe.bw");
	assert_ptr_equal(c->wl, &wl_pipe_bw);
	assert_string_equal(result_param(c, "size"), "64k");
	assert_null(result_param(c, "nosuch"));
	assert_string_equal(c->params[0].name, wl_pipe_bw.params[0].name);
	assert_ptr_equal(c->params[0].def, &wl_pipe_bw.params[0]);
	assert_true(result_param_find(c, "size")->has_v);
	assert_int_equal(result_param_find(c, "size")->v, 65536);
	assert_non_null(strstr(c->params_json, "\"size\":\"64k\""));
	assert_int_equal(c->job, 3);
	assert_int_equal(c->nsamples, NS);
	assert_string_equal(c->status, "interrupted");
	assert_int_equal(c->nworkers, 2);
	assert_int_equal(c->workers[1].ncpus, 2);
	assert_int_equal(c->workers[1].cpus[1], 3);
	assert_int_equal(c->workers[1].cpu_requested, -1);
	assert_non_null(c->ctx_switches);
	assert_null(c->faults);		/* a sample without the counter */
	assert_true(c->interleaved && c->interleave_seed == 42);
	assert_int_equal(c->ninterleave_order, NS);
	assert_int_equal(result_config_flagged(c), 2);
	{
		double shortest;

		assert_int_equal(result_config_short(c, &shortest), 1);
		assert_float_equal(shortest, 7e6, 1e-6);
	}
	/* ctx switches per op: median of 0.1, 0.2, 0.3, 0.4 */
	assert_float_equal(result_counter_median(c, c->ctx_switches, 100),
			   0.25, 1e-12);

	assert_string_equal(set.v[0].metric, "bandwidth");
	assert_int_equal(set.v[0].direction, 1);
	assert_float_equal(set.v[0].summary.median, 2.5e9, 1);
	assert_true(result_value_flagged(&set.v[0], 2));
	assert_false(result_value_flagged(&set.v[0], 1));
	assert_null(set.v[0].hist);
	/* the NaN sample is left out; flags no longer line up with it */
	assert_string_equal(set.v[1].metric, "time/write");
	assert_int_equal(set.v[1].nsamples, 3);
	assert_false(result_value_flagged(&set.v[1], 1));
	assert_non_null(set.v[1].hist);
	assert_string_equal(set.v[1].hist->of, "writer");
	assert_int_equal(set.v[1].hist->ops, 101);
	assert_int_equal(set.v[1].hist->buckets[set.v[1].hist->nbuckets - 1]
			 .hi, -1);
	assert_true(set.v[2].trace);
	assert_string_equal(set.v[2].metric, "cold bandwidth");
	assert_int_equal(set.v[2].direction, 0);
	assert_float_equal(set.v[2].summary.median, 150, 1e-9);
	assert_int_equal(set.v[2].seq, 2);

	config_result_free(&cr);
	result_set_free(&set);
}

/* Every result of a set written to text and decoded into another set. */
static void round_trip(const struct result_set *a, struct result_set *b)
{
	size_t i;

	result_set_init(b);
	for (i = 0; i < a->n; i++) {
		const struct result *r = &a->v[i];
		char *info = result_info_text(r);
		struct result_row row = {
			.id = (int64_t)i + 1, .seq = r->seq,
			.workload = r->cfg->workload,
			.params_json = r->cfg->params_json,
			.metric = r->metric, .unit = r->unit,
			.direction = r->direction, .info_json = info,
			.nsamples = r->nsamples,
		};
		char err[256];

		assert_non_null(info);
		row.samples = malloc((r->nsamples + 1) * sizeof(double));
		memcpy(row.samples, r->samples, r->nsamples * sizeof(double));
		if (r->hist) {
			row.nbuckets = r->hist->nbuckets;
			row.buckets = malloc(row.nbuckets *
					     sizeof(*row.buckets));
			memcpy(row.buckets, r->hist->buckets,
			       row.nbuckets * sizeof(*row.buckets));
		}
		if (!result_decode_row(b, &row, err, sizeof(err)))
			fail_msg("decode: %s", err);
		free(row.buckets);
		free(info);
	}
}

/* The table shows a sample shorter than the sample time asked for. */
static void test_table_short_samples(void **state)
{
	struct config_result cr;
	struct result_set set;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	fake_config(&cr, false);
	result_set_init(&set);
	assert_int_equal(results_build(&cr, 0, false, NULL, &set), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	report_results(f, set.v, set.n);
	fclose(f);
	assert_non_null(strstr(buf, "1 of 4 samples shorter than the 10.0 ms "
				"asked for (the shortest 7.00 ms)"));
	free(buf);
	config_result_free(&cr);
	result_set_free(&set);
}

static void test_codec_round_trip(void **state)
{
	struct config_result cr;
	struct result_set a, b;
	size_t i;

	(void)state;
	fake_config(&cr, true);
	result_set_init(&a);
	assert_int_equal(results_build(&cr, 0, true, NULL, &a), 0);
	round_trip(&a, &b);
	assert_int_equal(b.n, a.n);
	assert_int_equal(b.ncfgs, 1);
	for (i = 0; i < a.n; i++) {
		char *x = result_info_text(&a.v[i]);
		char *y = result_info_text(&b.v[i]);

		assert_string_equal(x, y);
		assert_true(a.v[i].summary.median == b.v[i].summary.median);
		assert_int_equal(a.v[i].trace, b.v[i].trace);
		free(x);
		free(y);
	}
	assert_int_equal(b.v[0].cfg->target_ns, 10000000);
	assert_non_null(b.v[0].cfg->window_ns);
	assert_float_equal(b.v[0].cfg->window_ns[1], 7e6, 1e-6);
	/* unknown values stay unknown */
	assert_true(isnan(b.v[0].cfg->load->other_cpu_pct[1]));
	/* the off-CPU share, the on-CPU time and the offcpu flag */
	assert_non_null(b.v[0].cfg->load->offcpu_pct);
	assert_float_equal(b.v[0].cfg->load->offcpu_pct[3], 40.0, 1e-9);
	assert_true(isnan(b.v[0].cfg->load->offcpu_pct[1]));
	assert_non_null(b.v[0].cfg->oncpu_ns);
	assert_float_equal(b.v[0].cfg->oncpu_ns[3], 6.3e6, 1e-3);
	assert_int_equal(b.v[0].cfg->load->flags[3], INTERF_FLAG_OFFCPU);
	assert_int_equal(b.v[0].cfg->load->flags[2],
			 INTERF_FLAG_OTHER | INTERF_FLAG_CANARY);
	assert_null(b.v[0].cfg->faults);
	/* parameters in the workload's order, known workload found */
	assert_ptr_equal(b.v[0].cfg->wl, &wl_pipe_bw);
	assert_string_equal(b.v[0].cfg->params[0].name,
			    wl_pipe_bw.params[0].name);
	config_result_free(&cr);
	result_set_free(&a);
	result_set_free(&b);
}

static void test_decode_errors(void **state)
{
	struct result_set set;
	struct result_row row = {
		.id = 9, .workload = "x.y", .params_json = "{}",
		.metric = "m", .unit = "ns", .direction = -1,
		.info_json = "{not json",
	};
	char err[256];
	double x = 1;

	(void)state;
	result_set_init(&set);
	row.samples = &x;
	row.nsamples = 1;
	assert_null(result_decode_row(&set, &row, err, sizeof(err)));
	assert_non_null(strstr(err, "result 9"));
	assert_non_null(strstr(err, "info"));
	row.info_json = NULL;
	row.params_json = "{\"size\":4}";	/* not a string value */
	assert_null(result_decode_row(&set, &row, err, sizeof(err)));
	assert_non_null(strstr(err, "parameters"));
	assert_int_equal(set.n, 0);
	/* an unknown workload decodes, its parameters in name order */
	fx_add(&set, "gone.wl", "{\"b\":\"2\",\"a\":\"1\"}", "m", "ns", -1,
	       &x, 1, NULL);
	assert_null(set.v[0].cfg->wl);
	assert_string_equal(set.v[0].cfg->params[0].name, "b");
	assert_string_equal(result_param(set.v[0].cfg, "a"), "1");
	result_set_free(&set);
}

/*
 * The parameters decoded from their stored text carry their definition
 * and value: sizes in bytes, enums as the choice's index; a value this
 * build refuses, and every value of an unknown workload, has no
 * definition, and a value only when it is a plain integer.
 */
static void test_params_typed(void **state)
{
	struct result_set set;
	const struct result_config *c;
	const struct result_param *p;
	double x = 1;
	int64_t v = -1;
	int k;

	(void)state;
	result_set_init(&set);
	fx_add(&set, "pipe.bw", "{\"size\":\"1M\",\"mode\":\"thread\","
	       "\"rsize\":\"12\"}", "bandwidth", "bytes/s", 1, &x, 1, NULL);
	c = set.v[0].cfg;
	p = result_param_find(c, "size");
	k = param_find(wl_pipe_bw.params, wl_pipe_bw.nparams, "size");
	assert_non_null(p);
	assert_ptr_equal(p->def, &wl_pipe_bw.params[k]);
	assert_true(p->has_v);
	assert_int_equal(p->v, 1048576);
	assert_string_equal(p->value, "1M");
	p = result_param_find(c, "mode");
	assert_non_null(p->def);
	assert_int_equal(p->def->type, PARAM_ENUM);
	assert_string_equal(p->def->choices[p->v], "thread");
	assert_true(result_param_value(c, "rsize", &v));
	assert_int_equal(v, 12);
	assert_false(result_param_value(c, "nosuch", &v));
	assert_int_equal(v, 12);
	assert_null(result_param_find(c, "nosuch"));

	/* a size this build refuses: text only */
	fx_add(&set, "pipe.bw", "{\"size\":\"5x\"}", "bandwidth", "bytes/s",
	       1, &x, 1, NULL);
	p = result_param_find(set.v[1].cfg, "size");
	assert_null(p->def);
	assert_false(p->has_v);
	assert_false(result_param_value(set.v[1].cfg, "size", &v));

	/* an unknown workload: no definitions, plain integers kept */
	fx_add(&set, "gone.wl", "{\"n\":\"-7\",\"s\":\"64k\"}", "m",
	       "ns", -1, &x, 1, NULL);
	c = set.v[2].cfg;
	assert_null(result_param_find(c, "n")->def);
	assert_true(result_param_value(c, "n", &v));
	assert_int_equal(v, -7);
	assert_false(result_param_find(c, "s")->has_v);
	result_set_free(&set);
}

static void test_take_and_without(void **state)
{
	struct result_set a, b;
	double x[2] = { 1, 2 };
	char *s;
	static const char *const drop[] = { "inject_ns", "nosuch" };

	(void)state;
	result_set_init(&a);
	result_set_init(&b);
	fx_add(&a, "w.a", "{}", "m", "ns", -1, x, 2, NULL);
	fx_add(&b, "w.b", "{}", "m", "ns", -1, x, 2, NULL);
	fx_add(&b, "w.b", "{}", "n", "ns", -1, x, 2, NULL);
	assert_int_equal(result_set_take(&a, &b), 0);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.ncfgs, 2);
	assert_int_equal(b.n, 0);
	assert_int_equal(a.v[2].seq, 2);
	assert_string_equal(a.v[2].cfg->workload, "w.b");
	s = result_params_without("{\"call\":\"gettid\",\"inject_ns\":\"30ns\"}",
				  drop, 2);
	assert_string_equal(s, "{\"call\":\"gettid\"}");
	free(s);
	result_set_free(&a);
	result_set_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_table_short_samples),
		cmocka_unit_test(test_codec_round_trip),
		cmocka_unit_test(test_decode_errors),
		cmocka_unit_test(test_take_and_without),
		cmocka_unit_test(test_params_typed),
	};

	/* what main() does first: the codec finds workloads by name */
	workload_registry_set(workload_table, workload_count);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
