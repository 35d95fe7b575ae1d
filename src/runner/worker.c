/*
 * worker.c - the workers of one configuration (see worker.h for the
 * protocol): starting them as threads or processes, the worker's loop
 * (pin, worker_init, wait for a command, barrier, run it, report),
 * waiting for them with a watchdog, stopping them.
 */
#include "runner/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/timer.h"

/* Iterations a worker spins at the barrier before sleeping in futex. */
#define BARRIER_SPINS 2000

struct worker_arg {
	struct workers *ws;
	int idx;
};

static long futex(_Atomic uint32_t *addr, int op, uint32_t val,
		  const struct timespec *ts)
{
	return syscall(SYS_futex, addr, op, val, ts, NULL, 0);
}

static void futex_wait(_Atomic uint32_t *addr, uint32_t val,
		       const struct timespec *ts)
{
	/* Shared (not PRIVATE) futexes: the block may be shared by fork. */
	futex(addr, FUTEX_WAIT, val, ts);
}

static void futex_wake_all(_Atomic uint32_t *addr)
{
	futex(addr, FUTEX_WAKE, INT32_MAX, NULL);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* The CPU we are on, from the kernel (never rdtscp/rdpid: under a
   hypervisor those can report the host's CPU). */
static int current_cpu(void)
{
	unsigned int cpu = 0;

	if (syscall(SYS_getcpu, &cpu, NULL, NULL) != 0)
		return -1;
	return (int)cpu;
}

static int pin_to(int cpu, char *err)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		snprintf(err, WL_ERR_LEN, "sched_setaffinity(cpu %d): %s",
			 cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* All workers arrive; the last one releases the others. */
static void barrier_wait(struct control *ctl, uint32_t gen)
{
	uint32_t n = atomic_fetch_add(&ctl->arrived, 1) + 1;
	uint32_t v;
	int spins = 0;

	if (n == ctl->nworkers) {
		atomic_store(&ctl->go, gen);
		futex_wake_all(&ctl->go);
		return;
	}
	while ((v = atomic_load(&ctl->go)) != gen) {
		if (spins++ < BARRIER_SPINS)
			cpu_relax();
		else
			futex_wait(&ctl->go, v, NULL);
	}
}

static void report_done(struct control *ctl)
{
	if (atomic_fetch_add(&ctl->done, 1) + 1 == ctl->nworkers)
		futex_wake_all(&ctl->done);
}

/* This thread's CPU time (user + system), ns; -1 when unreadable. */
static int64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * This thread's run-queue wait so far, ns: the second field of
 * /proc/thread-self/schedstat (time runnable but not running,
 * CONFIG_SCHED_INFO), read through fd (opened once by the worker);
 * -1 when fd < 0 or the file cannot be read.
 */
static int64_t thread_wait_ns(int fd)
{
	char buf[128], *p, *end;
	unsigned long long wait;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "run_ns wait_ns timeslices": skip the first, read the second */
	p = strchr(buf, ' ');
	if (!p)
		return -1;
	errno = 0;
	wait = strtoull(p + 1, &end, 10);
	if (errno || end == p + 1)
		return -1;
	return (int64_t)wait;
}

/*
 * The batch mark the kernel views' BPF program reads (kernel/kview.h:
 * struct kview_workers): a plain store into the worker's slot of the
 * shared control block, ordered against the batch only by the compiler
 * (the program reads it on this task's own CPU, in its own context).
 */
static void batch_mark(struct worker_slot *s, uint32_t in)
{
	__atomic_store_n(&s->in_batch, in, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static void worker_run_cmd(struct workers *ws, struct wl_worker *w,
			   struct swcount *sc, const struct hwcount *hc,
			   uint32_t cmd, uint64_t nops, int sched_fd)
{
	const struct workload *wl = ws->ctx->wl;
	struct worker_slot *s = &ws->ctl->slot[w->idx];

	switch (cmd) {
	case CMD_RUN:
		s->cpu_start = current_cpu();
		swcount_read(sc, &s->sw0);
		hwcount_read(hc, &s->hw0);
		s->wait0_ns = thread_wait_ns(sched_fd);
		s->cpu0_ns = thread_cpu_ns();
		if (ws->ctl->mono_marks) {
			batch_mark(s, 1);
			s->mono0 = timer_mono_raw_ns();
		}
		if (ws->ctx->op_timed[w->idx]) {
			optime_run_ops(ws->ot, w, nops, &s->rc, &s->t0, &s->t1);
		} else {
			s->t0 = timer_ticks();
			s->rc = wl->run_batch(w, nops);
			s->t1 = timer_ticks();
		}
		if (ws->ctl->mono_marks) {
			s->mono1 = timer_mono_raw_ns();
			batch_mark(s, 0);
		}
		s->cpu1_ns = thread_cpu_ns();
		s->wait1_ns = thread_wait_ns(sched_fd);
		hwcount_read(hc, &s->hw1);
		s->idle_end = s->rc == WL_IDLE_END;
		if (s->idle_end)
			s->rc = 0;
		swcount_read(sc, &s->sw1);
		s->cpu_end = current_cpu();
		break;
	case CMD_VERIFY:
		s->rc = wl->verify_batch ? wl->verify_batch(w, nops) : 0;
		if (s->rc > 0)
			s->rc = 0;
		break;
	case CMD_HIST:
		optime_hist_run(ws->ot, w, nops, &s->rc);
		break;
	default:
		break;
	}
}

static void worker_main(struct workers *ws, int idx)
{
	const struct workload *wl = ws->ctx->wl;
	struct control *ctl = ws->ctl;
	struct worker_slot *s = &ctl->slot[idx];
	struct wl_worker w = {
		.idx = idx, .ctx = ws->ctx, .priv = NULL, .err = s->err,
	};
	struct swcount sc;
	struct hwcount hc;
	/* the generation now: a worker started again (--fresh-workers)
	   must not take the command its predecessor exited on */
	uint32_t seen = atomic_load(&ctl->gen);
	int sched_fd;

	s->tid = gettid();
	s->rc = pin_to(ws->ctx->worker_cpu[idx], s->err);
	if (s->rc == 0 && timer_thread_init() != 0) {
		snprintf(s->err, WL_ERR_LEN, "cannot open the cycle counter "
			 "in worker %d", idx);
		s->rc = -1;
	}
	swcount_open(&sc);
	hwcount_open(&hc);
	sched_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (s->rc == 0 && wl->worker_init)
		s->rc = wl->worker_init(&w);
	s->cpu_start = current_cpu();
	report_done(ctl);
	if (s->rc != 0)
		goto out;

	for (;;) {
		uint32_t g, cmd;

		while ((g = atomic_load(&ctl->gen)) == seen)
			futex_wait(&ctl->gen, g, NULL);
		seen = g;
		cmd = ctl->cmd;
		if (cmd == CMD_EXIT)
			break;
		barrier_wait(ctl, seen);
		worker_run_cmd(ws, &w, &sc, &hc, cmd, ctl->nops, sched_fd);
		report_done(ctl);
	}
	if (wl->worker_fini)
		wl->worker_fini(&w);
out:
	if (sched_fd >= 0)
		close(sched_fd);
	hwcount_close(&hc);
	swcount_close(&sc);
}

static void *worker_thread(void *p)
{
	struct worker_arg *a = p;

	worker_main(a->ws, a->idx);
	free(a);
	return NULL;
}

static bool worker_died(struct workers *ws, char *msg, size_t len)
{
	const struct wl_ctx *ctx = ws->ctx;
	int i, st;

	if (ctx->mode != WL_MODE_PROC)
		return false;
	for (i = 0; i < ws->nstarted; i++) {
		pid_t p;

		if (ws->pid[i] <= 0)
			continue;
		p = waitpid(ws->pid[i], &st, WNOHANG);
		if (p == ws->pid[i]) {
			ws->pid[i] = 0;
			if (WIFSIGNALED(st))
				snprintf(msg, len, "%s: worker %d (%s) killed "
					 "by signal %d (%s)", ctx->wl->name, i,
					 ctx->worker_name[i], WTERMSIG(st),
					 strsignal(WTERMSIG(st)));
			else
				snprintf(msg, len, "%s: worker %d (%s) exited "
					 "with status %d", ctx->wl->name, i,
					 ctx->worker_name[i],
					 WEXITSTATUS(st));
			return true;
		}
	}
	return false;
}

/*
 * Wait until all workers reported done.  Returns CONFIG_OK, or
 * CONFIG_INTERRUPTED / CONFIG_FAILED with msg filled.
 */
static enum config_status wait_done(struct workers *ws, int64_t limit_ns,
				    char *msg, size_t len)
{
	struct control *ctl = ws->ctl;
	struct timespec slice = { 0, 100000000 };
	uint64_t start = timer_mono_raw_ns();
	uint32_t d;

	while ((d = atomic_load(&ctl->done)) < ctl->nworkers) {
		futex_wait(&ctl->done, d, &slice);
		if (runner_interrupted)
			return CONFIG_INTERRUPTED;
		if (worker_died(ws, msg, len))
			return CONFIG_FAILED;
		if (limit_ns > 0 &&
		    (int64_t)(timer_mono_raw_ns() - start) > limit_ns) {
			snprintf(msg, len, "%s: workers did not finish within "
				 "%.0f s (watchdog); the workload hangs",
				 ws->ctx->wl->name, limit_ns / 1e9);
			return CONFIG_FAILED;
		}
	}
	return CONFIG_OK;
}

static enum config_status check_rcs(struct workers *ws, char *msg,
				    size_t len)
{
	int i;

	for (i = 0; i < ws->ctx->nworkers; i++) {
		struct worker_slot *s = &ws->ctl->slot[i];

		if (s->rc != 0) {
			snprintf(msg, len, "%s: %s: %s", ws->ctx->wl->name,
				 ws->ctx->worker_name[i],
				 s->err[0] ? s->err : "failed");
			return s->rc == WL_EUSAGE ? CONFIG_USAGE
						  : CONFIG_FAILED;
		}
	}
	return CONFIG_OK;
}

enum config_status workers_wait(struct workers *ws, int64_t limit_ns,
				char *msg, size_t len)
{
	enum config_status st = wait_done(ws, limit_ns, msg, len);

	if (st != CONFIG_OK) {
		ws->unsynced = true;
		return st;
	}
	return check_rcs(ws, msg, len);
}

enum config_status workers_command(struct workers *ws, uint32_t cmd,
				   uint64_t nops, int64_t limit_ns,
				   char *msg, size_t len)
{
	struct control *ctl = ws->ctl;

	ctl->cmd = cmd;
	ctl->nops = nops;
	atomic_store(&ctl->arrived, 0);
	atomic_store(&ctl->done, 0);
	atomic_fetch_add(&ctl->gen, 1);
	futex_wake_all(&ctl->gen);
	return workers_wait(ws, limit_ns, msg, len);
}

enum config_status workers_start(struct workers *ws, char *msg, size_t len)
{
	struct wl_ctx *ctx = ws->ctx;
	const char *name = ctx->wl->name;
	sigset_t all, old;
	int i;

	ws->ctl->nworkers = ctx->nworkers;
	atomic_store(&ws->ctl->done, 0);
	fflush(NULL);
	/* Workers never take SIGINT, SIGTERM or SIGHUP: the coordinator
	   handles them and kills or abandons the workers. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < ctx->nworkers; i++) {
		if (ctx->mode == WL_MODE_PROC) {
			pid_t ppid = getpid();
			pid_t p = fork();

			if (p < 0) {
				snprintf(msg, len, "%s: fork: %s", name,
					 strerror(errno));
				break;
			}
			if (p == 0) {
				signal(SIGINT, SIG_IGN);
				signal(SIGTERM, SIG_IGN);
				signal(SIGHUP, SIG_IGN);
				signal(SIGPIPE, SIG_DFL);
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				if (getppid() != ppid)
					_exit(1);
				worker_main(ws, i);
				_exit(0);
			}
			ws->pid[i] = p;
		} else {
			struct worker_arg *a = malloc(sizeof(*a));
			int e;

			if (!a) {
				snprintf(msg, len, "%s: out of memory", name);
				break;
			}
			a->ws = ws;
			a->idx = i;
			e = pthread_create(&ws->tid[i], NULL, worker_thread,
					   a);
			if (e != 0) {
				free(a);
				snprintf(msg, len, "%s: pthread_create: %s",
					 name, strerror(e));
				break;
			}
		}
		ws->nstarted++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ws->nstarted < ctx->nworkers)
		return CONFIG_FAILED;
	return CONFIG_OK;
}

void workers_stop(struct workers *ws, bool kill_them)
{
	struct control *ctl = ws->ctl;
	int i;

	if (ws->nstarted == 0)
		return;
	if (!kill_them) {
		ctl->cmd = CMD_EXIT;
		atomic_fetch_add(&ctl->gen, 1);
		futex_wake_all(&ctl->gen);
	}
	if (ws->ctx->mode == WL_MODE_PROC) {
		for (i = 0; i < ws->nstarted; i++) {
			if (ws->pid[i] <= 0)
				continue;
			if (kill_them)
				kill(ws->pid[i], SIGKILL);
			while (waitpid(ws->pid[i], NULL, 0) < 0 &&
			       errno == EINTR)
				;
			ws->pid[i] = 0;
		}
	} else if (!kill_them) {
		for (i = 0; i < ws->nstarted; i++)
			pthread_join(ws->tid[i], NULL);
	} else {
		ws->stuck = true;
	}
	ws->nstarted = 0;
}
