/*
 * hwcount.c - per-thread hardware counters around a sample (see
 * hwcount.h): the perf_event group, the probe, the environment keys and
 * the per-op arithmetic.
 *
 * The four events are opened as one group (cycles leading), pid 0 (this
 * thread), cpu -1, counting from the open; a read of the leader with
 * PERF_FORMAT_GROUP gives every count and the group's time enabled and
 * running in one system call, so the counts of one reading cover the
 * same instants and IPC divides like by like.  The kernel's share is
 * counted (the point of most workloads here is the system call) unless
 * perf_event_paranoid refuses it to this user; then user space only,
 * and the environment says so.  An open event costs the task some perf
 * work at every context switch, as the software events do (swcount.c):
 * that is why the counters are asked for (--hw-counters), never on by
 * default.
 */
#include "runner/hwcount.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *const hwcount_names[HWC_N] = {
	[HWC_CYCLES] = "cycles",
	[HWC_INSTRUCTIONS] = "instructions",
	[HWC_CACHE_MISSES] = "cache-misses",
	[HWC_DTLB_MISSES] = "dTLB-load-misses",
};

static const struct {
	uint32_t type;
	uint64_t config;
} hw_events[HWC_N] = {
	[HWC_CYCLES] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	[HWC_INSTRUCTIONS] = { PERF_TYPE_HARDWARE,
			       PERF_COUNT_HW_INSTRUCTIONS },
	[HWC_CACHE_MISSES] = { PERF_TYPE_HARDWARE,
			       PERF_COUNT_HW_CACHE_MISSES },
	/* the generic cache event: cache id | op << 8 | result << 16 */
	[HWC_DTLB_MISSES] = { PERF_TYPE_HW_CACHE,
			      PERF_COUNT_HW_CACHE_DTLB |
			      (PERF_COUNT_HW_CACHE_OP_READ << 8) |
			      (PERF_COUNT_HW_CACHE_RESULT_MISS << 16) },
};

static int perf_open(enum hwcount_counter c, bool user_only, int leader)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = hw_events[c].type;
	attr.config = hw_events[c].config;
	attr.read_format = PERF_FORMAT_GROUP |
			   PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.exclude_kernel = user_only;
	attr.exclude_hv = user_only;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, leader,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

/*
 * The group's read: nr, time enabled, time running, then the counts in
 * the order the events joined (the leader first), which is counter
 * order: hwcount_open() opens them so.
 */
static int perf_read(const struct hwcount *hc, struct hwcount_values *v)
{
	uint64_t buf[3 + HWC_N];
	ssize_t got;
	int c, n = 0, k = 0;

	for (c = 0; c < HWC_N; c++)
		n += hc->fd[c] >= 0;
	got = read(hc->leader, buf, sizeof(buf));
	if (got < (ssize_t)((3 + n) * sizeof(uint64_t)) ||
	    buf[0] != (uint64_t)n)
		return -1;
	for (c = 0; c < HWC_N; c++) {
		if (hc->fd[c] < 0)
			continue;
		v->c[c].value = buf[3 + k++];
		v->c[c].enabled_ns = buf[1];
		v->c[c].running_ns = buf[2];
	}
	return 0;
}

static void perf_close(int fd)
{
	if (close(fd) != 0)
		perror("copyscope: close(perf hardware event)");
}

const struct hwcount_source hwcount_perf = {
	.open = perf_open, .read = perf_read, .close = perf_close,
};

static const struct hwcount_source *src = &hwcount_perf;

/* What hwcount_open() opens (hwcount_use()). */
static struct {
	bool have[HWC_N];
	bool user_only;
	bool on;
} use;

void hwcount_set_source(const struct hwcount_source *s)
{
	src = s ? s : &hwcount_perf;
}

static void clear(struct hwcount *hc)
{
	int c;

	for (c = 0; c < HWC_N; c++)
		hc->fd[c] = -1;
	hc->leader = -1;
}

/* Open the counters in want[] (all when NULL) into hc; errs: -errno. */
static int open_group(struct hwcount *hc, const bool *want, bool user_only,
		      int err[HWC_N])
{
	int c, n = 0;

	clear(hc);
	for (c = 0; c < HWC_N; c++) {
		int fd;

		err[c] = 0;
		if (want && !want[c])
			continue;
		fd = src->open((enum hwcount_counter)c, user_only, hc->leader);
		if (fd < 0) {
			err[c] = -fd;
			continue;
		}
		hc->fd[c] = fd;
		if (hc->leader < 0)
			hc->leader = fd;
		n++;
	}
	return n;
}

static bool refused(int e)
{
	return e == EACCES || e == EPERM;
}

static bool absent(int e)
{
	return e == ENOENT || e == ENODEV || e == EOPNOTSUPP;
}

/* p->missing from the errors of the counters that did not open. */
static void missing_text(struct hwcount_probe *p, const int err[HWC_N])
{
	size_t used = 0;
	bool same = true;
	int c, first = -1;

	for (c = 0; c < HWC_N; c++) {
		if (!err[c])
			continue;
		if (first < 0)
			first = c;
		same = same && err[c] == err[first];
	}
	p->missing[0] = '\0';
	if (first < 0)
		return;
	if (p->nhave == 0 && same) {
		snprintf(p->missing, sizeof(p->missing),
			 "perf_event_open: %s", strerror(err[first]));
		return;
	}
	for (c = 0; c < HWC_N && used < sizeof(p->missing); c++)
		if (err[c])
			used += (size_t)snprintf(p->missing + used,
						 sizeof(p->missing) - used,
						 "%s%s: %s", used ? "; " : "",
						 hwcount_names[c],
						 strerror(err[c]));
}

void hwcount_probe(struct hwcount_probe *p)
{
	struct hwcount hc;
	int err[HWC_N], c;
	bool all_absent = true;

	memset(p, 0, sizeof(*p));
	p->nhave = open_group(&hc, NULL, false, err);
	if (p->nhave == 0 && refused(err[HWC_CYCLES])) {
		/* perf_event_paranoid > 1: user space only, as perf does */
		p->user_only = true;
		p->nhave = open_group(&hc, NULL, true, err);
	}
	for (c = 0; c < HWC_N; c++) {
		p->have[c] = hc.fd[c] >= 0;
		all_absent = all_absent && absent(err[c]);
	}
	p->no_pmu = p->nhave == 0 && all_absent;
	if (p->nhave == 0)
		p->user_only = false;
	missing_text(p, err);
	hwcount_close(&hc);
}

void hwcount_use(const struct hwcount_probe *p)
{
	int c;

	memset(&use, 0, sizeof(use));
	if (!p || p->nhave == 0)
		return;
	for (c = 0; c < HWC_N; c++)
		use.have[c] = p->have[c];
	use.user_only = p->user_only;
	use.on = true;
}

bool hwcount_on(void)
{
	return use.on;
}

int hwcount_env(const struct hwcount_probe *p, struct env *env)
{
	char list[128] = "";
	size_t used = 0;
	int c;

	for (c = 0; c < HWC_N; c++)
		if (p->have[c])
			used += (size_t)snprintf(list + used,
						 sizeof(list) - used, "%s%s",
						 used ? "," : "",
						 hwcount_names[c]);
	if (env_set(env, HW_ENV_COUNTERS, p->nhave ? list : "none") ||
	    env_set(env, HW_ENV_PMU, p->no_pmu ? "none" : "present"))
		return -1;
	if (p->nhave && env_set(env, HW_ENV_SCOPE, p->user_only ? "user" :
				"user+kernel"))
		return -1;
	if (p->missing[0] && env_set(env, HW_ENV_MISSING, p->missing))
		return -1;
	return 0;
}

void hwcount_open(struct hwcount *hc)
{
	int err[HWC_N];

	clear(hc);
	if (use.on)
		open_group(hc, use.have, use.user_only, err);
}

void hwcount_read(const struct hwcount *hc, struct hwcount_values *v)
{
	int c;

	for (c = 0; c < HWC_N; c++) {
		v->c[c].value = HWCOUNT_NA;
		v->c[c].enabled_ns = v->c[c].running_ns = 0;
	}
	if (hc->leader >= 0 && src->read(hc, v) != 0)
		for (c = 0; c < HWC_N; c++)
			v->c[c].value = HWCOUNT_NA;
}

void hwcount_close(struct hwcount *hc)
{
	int c;

	/* the siblings first, then the leader */
	for (c = HWC_N - 1; c >= 0; c--)
		if (hc->fd[c] >= 0)
			src->close(hc->fd[c]);
	clear(hc);
}

double hwcount_delta(const struct hwcount_reading *a,
		     const struct hwcount_reading *b, double *running_pct)
{
	uint64_t en, run;
	double d;

	*running_pct = NAN;
	if (a->value == HWCOUNT_NA || b->value == HWCOUNT_NA ||
	    b->value < a->value || b->enabled_ns < a->enabled_ns ||
	    b->running_ns < a->running_ns)
		return NAN;
	en = b->enabled_ns - a->enabled_ns;
	run = b->running_ns - a->running_ns;
	if (run == 0)
		return NAN;	/* never on the PMU: no count, not zero */
	d = (double)(b->value - a->value);
	if (en <= run) {
		*running_pct = 100.0;
		return d;
	}
	*running_pct = 100.0 * (double)run / (double)en;
	return d * (double)en / (double)run;
}

void hwcount_sum_init(struct hwcount_sum *s)
{
	int c;

	for (c = 0; c < HWC_N; c++)
		s->count[c] = 0.0;
	s->running_pct = NAN;
	s->nworkers = 0;
}

void hwcount_sum_add(struct hwcount_sum *s, const struct hwcount_values *a,
		     const struct hwcount_values *b)
{
	int c;

	for (c = 0; c < HWC_N; c++) {
		double pct, d = hwcount_delta(&a->c[c], &b->c[c], &pct);

		s->count[c] += d;	/* NAN stays NAN */
		if (!isnan(pct) && (isnan(s->running_pct) ||
				    pct < s->running_pct))
			s->running_pct = pct;
	}
	s->nworkers++;
}

void hwcount_per_op(const struct hwcount_sum *s, uint64_t nops,
		    double out[HW_NMETRICS])
{
	double ops = (double)nops;
	double cyc = s->count[HWC_CYCLES], ins = s->count[HWC_INSTRUCTIONS];
	int m;

	for (m = 0; m < HW_NMETRICS; m++)
		out[m] = NAN;
	if (nops == 0 || s->nworkers == 0)
		return;
	out[HW_METRIC_CYCLES] = cyc / ops;
	out[HW_METRIC_INSTR] = ins / ops;
	out[HW_METRIC_IPC] = cyc > 0 ? ins / cyc : NAN;
	out[HW_METRIC_CACHE] = s->count[HWC_CACHE_MISSES] / ops;
	out[HW_METRIC_DTLB] = s->count[HWC_DTLB_MISSES] / ops;
}
