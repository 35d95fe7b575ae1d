/*
 * trace.c - the cold-call trace behind trace=N (see trace.h): the parent
 * side that re-executes the binary and reads the times back, and the
 * hidden "__trace" subcommand that sets the configuration up with the
 * same context set-up as a measured run and times its first N ops.
 */
#include "runner/trace.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/context.h"
#include "runner/timer.h"

/*
 * Cold-call trace.  The parent re-executes its own binary with the hidden
 * subcommand "__trace" so the calls run in a fresh process image (cold
 * caches, TLB and branch predictors for this code path); the child prints
 * raw clock ticks, one per line, and the parent converts them with its own
 * calibration (the child does not calibrate, so nothing warms up first).
 */
enum config_status trace_run(const struct workload *wl,
			     const struct param_set *ps,
			     struct config_result *res)
{
	const struct timer_info *ti = timer_get_info();
	const char *clock = ti->source == TIMER_CLOCK_NS ? "ns" : "tsc";
	int row = param_find_role(wl->params, wl->nparams, PARAM_ROLE_TRACE);
	int64_t n = row >= 0 ? ps->v[row] : 0;
	char *argv[PARAM_MAX + 6];
	char vals[PARAM_MAX][PARAM_TEXT_MAX + 64], nbuf[32];
	int pfd[2], st, argc = 0;
	size_t i, got = 0;
	FILE *in;
	pid_t p;

	argv[argc++] = "copyscope";
	argv[argc++] = "__trace";
	argv[argc++] = (char *)wl->name;
	argv[argc++] = (char *)clock;
	snprintf(nbuf, sizeof(nbuf), "%lld", (long long)n);
	argv[argc++] = nbuf;
	for (i = 0; i < wl->nparams; i++) {
		char v[PARAM_TEXT_MAX];

		param_format_value(&wl->params[i], ps->v[i], v, sizeof(v));
		snprintf(vals[i], sizeof(vals[i]), "%s=%s",
			 wl->params[i].name, v);
		argv[argc++] = vals[i];
	}
	argv[argc] = NULL;

	if (n <= 0) {
		snprintf(res->msg, sizeof(res->msg), "%s: trace: no trace=N "
			 "to run", wl->name);
		return CONFIG_FAILED;
	}
	res->trace_ns = calloc((size_t)n, sizeof(double));
	res->trace_ticks = calloc((size_t)n, sizeof(double));
	if (!res->trace_ns || !res->trace_ticks || pipe(pfd) != 0) {
		snprintf(res->msg, sizeof(res->msg), "%s: trace: %s", wl->name,
			 strerror(errno ? errno : ENOMEM));
		return CONFIG_FAILED;
	}
	fflush(NULL);
	p = fork();
	if (p < 0) {
		snprintf(res->msg, sizeof(res->msg), "%s: trace: fork: %s",
			 wl->name, strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return CONFIG_FAILED;
	}
	if (p == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(pfd[1], STDOUT_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "copyscope: trace: exec /proc/self/exe: %s\n",
			strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	in = fdopen(pfd[0], "r");
	if (in) {
		char line[32], *end;
		unsigned long long t;

		while (got < (size_t)n && fgets(line, sizeof(line), in)) {
			errno = 0;
			t = strtoull(line, &end, 10);
			if (errno || end == line || *end != '\n')
				break;
			res->trace_ticks[got] = (double)t;
			res->trace_ns[got] = ti->source == TIMER_CLOCK_NS ?
					     (double)t :
					     (double)t * 1e9 / ti->tsc_hz;
			got++;
		}
		fclose(in);
	} else {
		close(pfd[0]);
	}
	while (waitpid(p, &st, 0) < 0 && errno == EINTR)
		;
	if (runner_interrupted)
		return CONFIG_INTERRUPTED;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || got != (size_t)n) {
		snprintf(res->msg, sizeof(res->msg), "%s: trace: the traced "
			 "process failed (%zu of %lld calls reported)",
			 wl->name, got, (long long)n);
		return CONFIG_FAILED;
	}
	res->ntrace = got;
	return CONFIG_OK;
}

static uint64_t trace_clock(bool tsc)
{
	return tsc ? timer_rdtsc() : timer_mono_raw_ns();
}

/* The CPUs this process may run on, in order; how many (0: none). */
static int allowed_cpus(int *cpus)
{
	cpu_set_t set;
	int c, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

int trace_main(int argc, char **argv)
{
	static int cpus[CPU_SETSIZE];
	const struct workload *wl;
	struct param_request req;
	struct param_set ps;
	struct wl_ctx *ctx;
	struct wl_worker w;
	char err[256], *end;
	uint64_t *t;
	long long n;
	bool tsc;
	int i, rc = 1;

	if (argc < 4)
		return 2;
	wl = workload_find(argv[1]);
	tsc = strcmp(argv[2], "tsc") == 0;
	errno = 0;
	n = strtoll(argv[3], &end, 10);
	if (errno || end == argv[3] || *end)
		n = 0;
	if (!wl || n <= 0 ||
	    param_request_init(&req, wl->params, wl->nparams, err,
			       sizeof(err)) != 0)
		return 2;
	for (i = 4; i < argc; i++) {
		if (param_request_apply(&req, wl->name, argv[i], err,
					sizeof(err)) != 0) {
			fprintf(stderr, "copyscope: trace: %s\n", err);
			return 2;
		}
	}
	param_request_get(&req, 0, &ps);
	ctx = calloc(1, sizeof(*ctx));
	t = calloc((size_t)n, sizeof(*t));
	if (!ctx || !t) {
		free(ctx);
		free(t);
		return 1;
	}
	if (wl_ctx_setup(ctx, wl, &ps, cpus, allowed_cpus(cpus)) != WL_OK) {
		fprintf(stderr, "copyscope: trace: %s: %s\n", wl->name,
			ctx->err);
		goto out;
	}
	if (ctx->nworkers != 1) {
		fprintf(stderr, "copyscope: trace: %s: needs one worker, "
			"setup gave %d\n", wl->name, ctx->nworkers);
		goto out_teardown;
	}
	memset(&w, 0, sizeof(w));
	w.ctx = ctx;
	w.err = ctx->err;
	if (wl->worker_init && wl->worker_init(&w) != 0) {
		fprintf(stderr, "copyscope: trace: %s: %s\n", wl->name,
			w.err[0] ? w.err : "worker_init failed");
		goto out_teardown;
	}
	for (i = 0; i < n; i++) {
		uint64_t t0 = trace_clock(tsc);

		if (wl->run_batch(&w, 1) != 0) {
			fprintf(stderr, "copyscope: trace: %s: call %d: %s\n",
				wl->name, i + 1, w.err[0] ? w.err : "failed");
			goto out_fini;
		}
		t[i] = trace_clock(tsc) - t0;
	}
	for (i = 0; i < n; i++)
		printf("%llu\n", (unsigned long long)t[i]);
	rc = fflush(stdout) == 0 ? 0 : 1;
out_fini:
	if (wl->worker_fini)
		wl->worker_fini(&w);
out_teardown:
	wl_ctx_teardown(ctx);
out:
	free(t);
	free(ctx);
	return rc;
}
