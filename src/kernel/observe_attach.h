/*
 * observe_attach.h - `copyscope observe`'s kernel side: load the BPF program
 * (src/bpf/observe.bpf.c) for what was asked, let it aggregate in the
 * kernel for a while, then read its maps into an observation
 * (results/observation.h).  What cannot be loaded is said in the
 * observation's notes, with why: no BPF in this build, no BTF, BPF not
 * permitted (not root), a tracepoint missing, fexit or kprobes
 * unavailable (then the next pipe-writes source is tried).
 */
#ifndef COPYSCOPE_KOBSERVE_H
#define COPYSCOPE_KOBSERVE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "results/observation.h"

struct kobserve_request {
	unsigned what;			/* OBSERVE_* */
	const char *comm;		/* NULL: any; "name" or "prefix*" */
	int64_t pid;			/* 0: any process */
	int64_t duration_ns;
	/* set by a signal handler: stop early (NULL: never) */
	volatile sig_atomic_t *stop;
	/* forced pipe-writes source: NULL tries fexit, then kretprobe,
	   then the syscall tracepoints; "fexit", "kprobe" or "syscalls" */
	const char *pipe_source;
	/* called once everything is attached, before the wait (or NULL) */
	void (*started)(void *arg, const struct observation *o);
	void *arg;
};

/* The sources of pipe writes, in the order they are tried. */
extern const char *const kobserve_pipe_sources[3];

/*
 * Observe as rq asks into out (zeroed first; free with
 * observation_free()): out->ran says what ran, out->notes what did not
 * and why.  Returns 0 when something ran for the whole duration (or
 * until *rq->stop), 77 when nothing of the request can run here (why in
 * out->notes and err), -1 on another failure (err).
 */
int kobserve_run(const struct kobserve_request *rq, struct observation *out,
		 char *err, size_t errlen);

#endif
