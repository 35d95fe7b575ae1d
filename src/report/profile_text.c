/*
 * profile_text.c - the profile view of a configuration as text (run
 * --kernel profile, show): what was sampled and how often, the top
 * functions by self samples with their ns per op (their share of the
 * samples x the op's measured time, results/profile_funcs.h) and its
 * 95% CI, in 80 columns; the skew of the cpu-clock event said under
 * the table; and the folded stacks of show --folded.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/report.h"
#include "results/profile_funcs.h"

/* Functions of the text table. */
#define PROF_TOP 15
/* Width of the function's column: the rest of 80 columns. */
#define PROF_NAME_W 24

static void print_head(FILE *out, const struct result_kernel *k,
		       double op_ns)
{
	char op[32];

	fmt_value(op_ns, "ns", op, sizeof(op));
	fprintf(out, "    profile: %s at %u Hz per worker (%s--profile-hz)\n",
		k->prof_event, k->prof_hz,
		k->prof_hz == KV_PROF_DEFAULT_HZ ? "the default; " : "");
	if (!k->prof_pmu)
		fprintf(out, "      no PMU here: no cycles, instructions or "
			"cache misses; sampled by cpu-clock\n");
	fprintf(out, "      %llu samples in the batches (%llu outside them "
		"left out, %llu lost);\n      ns/op = share of the samples x "
		"%s per op (the op's measured time)\n",
		(unsigned long long)k->prof_samples,
		(unsigned long long)k->prof_outside,
		(unsigned long long)k->prof_lost, op);
}

/* A function's name in PROF_NAME_W columns ('~' ends a cut one). */
static void name_col(const char *name, char *buf, size_t len)
{
	size_t l = strlen(name);

	if (l <= PROF_NAME_W) {
		snprintf(buf, len, "%s", name);
		return;
	}
	snprintf(buf, len, "%.*s~", PROF_NAME_W - 1, name);
}

/* ns with 3 significant digits ("0" for none). */
static void ns_col(double v, char *buf, size_t len)
{
	if (v == 0)
		snprintf(buf, len, "0");
	else
		fmt_number(v, buf, len);
}

static void print_row(FILE *out, const struct prof_func *f, uint64_t of,
		      double op_ns)
{
	char self[16], tot[16], lo[16], hi[16], ci[32], nm[PROF_NAME_W + 2];
	double clo, chi, share = (double)f->self / (double)of;

	prof_share_ci(f->self, of, &clo, &chi);
	ns_col(share * op_ns, self, sizeof(self));
	ns_col((double)f->total / (double)of * op_ns, tot, sizeof(tot));
	ns_col(clo * op_ns, lo, sizeof(lo));
	ns_col(chi * op_ns, hi, sizeof(hi));
	snprintf(ci, sizeof(ci), "%s-%s", lo, hi);
	name_col(f->name, nm, sizeof(nm));
	fprintf(out, "      %5.1f%% %10s %13s %10s %6llu %s\n",
		100.0 * share, self, ci, tot, (unsigned long long)f->self, nm);
}

/* What the cpu-clock event cannot see, under its table. */
static void print_skew(FILE *out, const struct result_kernel *k)
{
	if (k->prof_pmu)
		return;
	fprintf(out, "      skew: cpu-clock samples from a timer "
		"interrupt, so time with interrupts\n      disabled lands "
		"where they are enabled again (finish_task_switch,\n      "
		"_raw_spin_unlock_irqrestore): their self share is the "
		"section they end\n");
}

void report_profile(FILE *out, const struct result_kernel *k)
{
	struct prof_func *f;
	double op_ns = prof_op_ns(k);
	long n, i;
	bool cut = false;

	print_head(out, k, op_ns);
	if (!k->prof_samples) {
		fprintf(out, "      no sample of the workers in their batches "
			"(batches shorter than a sample period?)\n");
		return;
	}
	n = prof_functions(k, &f);
	if (n < 0) {
		fprintf(out, "      (out of memory)\n");
		return;
	}
	fprintf(out, "      %6s %10s %13s %10s %6s %s\n", "self", "self ns/op",
		"95% CI", "total ns/op", "self n", "function");
	for (i = 0; i < n && i < PROF_TOP; i++) {
		print_row(out, &f[i], k->prof_samples, op_ns);
		cut |= strlen(f[i].name) > PROF_NAME_W;
	}
	if (n > PROF_TOP)
		fprintf(out, "      ... %ld function%s more (show --json; "
			"show --folded)\n", n - PROF_TOP,
			n - PROF_TOP == 1 ? "" : "s");
	if (cut)
		fprintf(out, "      '~' ends a name cut to fit (show --json "
			"and show --folded have it whole)\n");
	print_skew(out, k);
	prof_funcs_free(f, n);
}

void report_folded(FILE *out, const struct result_kernel *k)
{
	size_t i;

	for (i = 0; k && i < k->nstacks; i++)
		fprintf(out, "%s %llu\n", k->stacks[i].frames,
			(unsigned long long)k->stacks[i].count);
}
