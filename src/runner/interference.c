/*
 * interference.c - per-sample outside load, steal and canary (see
 * interference.h).
 */
#include "runner/interference.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/timer.h"
#include "util/sort.h"

/* Keeps the canary's result alive so the loop is never optimized out. */
static volatile uint64_t canary_sink;

int interference_parse_stat(const char *text, struct proc_stat_cpu *out)
{
	const char *p = text;
	uint64_t f[10] = { 0 };
	int nf = 0;

	while (p && strncmp(p, "cpu ", 4) != 0) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return -1;
	p += 4;
	while (nf < 10) {
		char *end;
		unsigned long long v;

		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno || end == p)
			return -1;
		f[nf++] = v;
		p = end;
	}
	if (nf < 4)
		return -1;
	/* user nice system idle iowait irq softirq steal guest guest_nice;
	   guest time is already part of user (and guest_nice of nice). */
	out->busy = f[0] + f[1] + f[2] + f[5] + f[6];
	out->steal = f[7];
	out->total = f[0] + f[1] + f[2] + f[3] + f[4] + f[5] + f[6] + f[7];
	return 0;
}

static int read_proc_stat(struct proc_stat_cpu *out)
{
	char buf[1024];
	ssize_t n;
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/* the "cpu " line comes first: one read is enough */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return interference_parse_stat(buf, out);
}

static double clock_ns(clockid_t clk, bool *ok)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts) != 0) {
		*ok = false;
		return 0.0;
	}
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double canary_once(void)
{
	uint64_t x = canary_sink | 1, t0, t1;
	int i;

	t0 = timer_mono_raw_ns();
	for (i = 0; i < CANARY_ITERS; i++) {
		/* one dependent multiply-add per iteration */
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ __volatile__("" : "+r"(x));
	}
	t1 = timer_mono_raw_ns();
	canary_sink = x;
	return (double)(t1 - t0);
}

static void sort3(double *v)
{
	double t;

	if (v[0] > v[1]) {
		t = v[0]; v[0] = v[1]; v[1] = t;
	}
	if (v[1] > v[2]) {
		t = v[1]; v[1] = v[2]; v[2] = t;
	}
	if (v[0] > v[1]) {
		t = v[0]; v[0] = v[1]; v[1] = t;
	}
}

double interference_canary_ns(void)
{
	double v[3];

	v[0] = canary_once();
	v[1] = canary_once();
	v[2] = canary_once();
	sort3(v);
	return v[1];
}

double interference_canary_calibrate(void)
{
	double v[15];
	size_t i;

	for (i = 0; i < 15; i++)
		v[i] = interference_canary_ns();
	qsort(v, 15, sizeof(v[0]), util_cmp_double);
	return v[7];
}

double interference_tick_ns(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? 1e9 / (double)hz : 1e7;
}

void interference_mark(struct interference_mark *m, const pid_t *pids,
		       int npids)
{
	bool ok = true;
	int i;

	memset(m, 0, sizeof(*m));
	m->canary_ns = interference_canary_ns();
	m->have_cpu = read_proc_stat(&m->cpu) == 0;
	m->self_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID, &ok);
	for (i = 0; i < npids && ok; i++) {
		clockid_t clk;

		if (pids[i] <= 0)
			continue;
		if (clock_getcpuclockid(pids[i], &clk) != 0) {
			ok = false;
			break;
		}
		m->self_ns += clock_ns(clk, &ok);
	}
	m->have_self = ok;
}

void interference_between(const struct interference_mark *a,
			  const struct interference_mark *b,
			  double canary_ref_ns, double tick_ns,
			  struct interference_sample *out)
{
	memset(out, 0, sizeof(*out));
	out->other_cpu_pct = NAN;
	out->steal_pct = NAN;
	out->canary_ns = a->canary_ns > b->canary_ns ? a->canary_ns
						      : b->canary_ns;
	if (a->have_cpu && b->have_cpu && b->cpu.total > a->cpu.total) {
		double total_ns = (double)(b->cpu.total - a->cpu.total) *
				  tick_ns;
		double steal = (double)(b->cpu.steal - a->cpu.steal);

		out->steal_pct = 100.0 * steal /
				 (double)(b->cpu.total - a->cpu.total);
		if (out->steal_pct > INTERF_STEAL_PCT)
			out->flags |= INTERF_FLAG_STEAL;
		if (a->have_self && b->have_self) {
			double busy_ns = (double)(b->cpu.busy - a->cpu.busy) *
					 tick_ns;
			double other = busy_ns - (b->self_ns - a->self_ns);

			if (other < 0)
				other = 0;
			out->other_cpu_pct = 100.0 * other / total_ns;
			if (out->other_cpu_pct > INTERF_OTHER_PCT &&
			    other > INTERF_RES_TICKS * tick_ns)
				out->flags |= INTERF_FLAG_OTHER;
		}
	}
	if (canary_ref_ns > 0 &&
	    out->canary_ns > INTERF_CANARY_SLOW * canary_ref_ns)
		out->flags |= INTERF_FLAG_CANARY;
}

unsigned interference_offcpu(const struct interference_worker *w, int nw,
			     double window_ns, double *offcpu_pct,
			     double *oncpu_ns)
{
	double wait = -1;
	int i;

	*offcpu_pct = NAN;
	*oncpu_ns = NAN;
	if (!(window_ns > 0) || nw <= 0)
		return 0;
	for (i = 0; i < nw; i++)
		if (w[i].wait_ns >= 0 && (double)w[i].wait_ns > wait)
			wait = (double)w[i].wait_ns;
	if (nw == 1 && w[0].timed && w[0].cpu_ns > 0) {
		double off = window_ns - (double)w[0].cpu_ns;

		if (off < 0)
			off = 0;
		if (wait >= 0 &&
		    off - wait <= INTERF_OFFCPU_PCT / 100.0 * window_ns) {
			*oncpu_ns = (double)w[0].cpu_ns < window_ns ?
				    (double)w[0].cpu_ns : window_ns;
			*offcpu_pct = 100.0 * off / window_ns;
		}
	}
	if (isnan(*offcpu_pct) && wait >= 0)
		*offcpu_pct = 100.0 * (wait < window_ns ? wait : window_ns) /
			      window_ns;
	/* the on-CPU figures do not carry the time: no flag for them */
	return isnan(*oncpu_ns) && *offcpu_pct > INTERF_OFFCPU_PCT ?
	       INTERF_FLAG_OFFCPU : 0;
}
