/*
 * kernel_backend.c - which backend records `run --kernel`'s and `ab
 * --kernel`'s views (see kernel_backend.h): the bpf
 * backend when it loads (aggregated in the kernel, docs/kernel-views.md),
 * else the tracefs one (every event read by libtraceevent), or the one
 * --kernel-backend forces; the views each cannot record refused with
 * why, and tracefs mounted when it is missing and we are root.
 */
#include "session/kernel_backend.h"

#include <stdio.h>
#include <string.h>

#include "kernel/kprof.h"
#include "env/env.h"
#include "kernel/ktrace.h"
#include "kernel/kview.h"
#include "kernel/kview_bpf.h"
#include "results/kernel_records.h"
#include "util/array.h"
#include "util/msg.h"

static const unsigned view_bits[] = { KVIEW_LOCK, KVIEW_SCHED,
				      KVIEW_SYSCALL };

/* The views tracefs can record, each refused one named with why. */
static unsigned tracefs_views(unsigned asked, struct kernel_backend *rk)
{
	unsigned ok = asked;
	char err[512];
	size_t i;

	if (ktrace_mount_tracefs(err, sizeof(err)) == 1) {
		snprintf(rk->mounted, sizeof(rk->mounted), "%s", err);
		msg_error("tracefs was not mounted: mounted it at %s (as perf "
			 "does)", err);
	}
	for (i = 0; i < ARRAY_SIZE(view_bits); i++) {
		char name[16];

		if (!(asked & view_bits[i]) ||
		    ktrace_probe(kview_kinds(view_bits[i]), err,
				 sizeof(err)) == 0)
			continue;
		kview_mask_text(view_bits[i], name, sizeof(name));
		msg_error("--kernel %s: refused: %s", name, err);
		ok &= ~view_bits[i];
	}
	return ok;
}

/* The bpf backend forced: its views, each refused one with why. */
static unsigned bpf_views(unsigned asked, struct kernel_backend *rk)
{
	unsigned ok = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(view_bits); i++) {
		unsigned got;
		char name[16], why[512];

		if (!(asked & view_bits[i]))
			continue;
		if (kview_bpf_probe(view_bits[i], &got, why,
				    sizeof(why)) == 0) {
			ok |= view_bits[i];
			continue;
		}
		kview_mask_text(view_bits[i], name, sizeof(name));
		msg_error("--kernel %s: refused (--kernel-backend bpf): %s",
			  name, why);
		if (!rk->why[0])
			snprintf(rk->why, sizeof(rk->why), "%s", why);
	}
	return ok;
}

/*
 * The profile view: it needs no backend, only perf_event_open(2) with
 * kernel callchains.  Whether it can run, said on stderr with the event
 * it samples (the PMU's cycles, else cpu-clock: "no PMU here").
 */
static unsigned profile_view(unsigned asked)
{
	char why[512];
	bool pmu;

	if (!(asked & KVIEW_PROFILE))
		return 0;
	if (kprof_probe(&pmu, why, sizeof(why)) != 0) {
		msg_error("--kernel profile: refused: %s", why);
		return 0;
	}
	if (!pmu)
		msg_error("kernel views: profile: no PMU here (the cycles "
			  "event does not open): sampling cpu-clock");
	return KVIEW_PROFILE;
}

int kernel_backend_choose(unsigned *views, const char *word,
		      struct kernel_backend *rk)
{
	unsigned asked = *views & ~KVIEW_PROFILE, got, prof;
	char d[48];

	memset(rk, 0, sizeof(*rk));
	if (!*views)
		return 0;
	prof = profile_view(*views);
	*views = asked;
	if (!asked && prof) {
		*views = prof;
		return 0;
	}
	if (!asked) {
		msg_error("--kernel: none of the views asked for can be "
			  "recorded here; nothing measured");
		return 1;
	}
	kview_bpf_describe(d, sizeof(d));
	if (word && !strcmp(word, "bpf")) {
		rk->backend = KVIEW_BACKEND_BPF;
		*views = bpf_views(asked, rk);
		if (*views)
			snprintf(rk->why, sizeof(rk->why),
				 "--kernel-backend bpf");
	} else if (word && !strcmp(word, "tracefs")) {
		snprintf(rk->why, sizeof(rk->why), "--kernel-backend tracefs");
	} else if (kview_bpf_probe(asked, &got, rk->why,
				   sizeof(rk->why)) == 0) {
		rk->backend = KVIEW_BACKEND_BPF;
		snprintf(rk->why, sizeof(rk->why), "the BPF program loads");
	}
	if (rk->backend == KVIEW_BACKEND_BPF) {
		snprintf(rk->backend_text, sizeof(rk->backend_text),
			 "bpf (%s)", d);
		if (*views)
			msg_error("kernel views: bpf backend (%s)", d);
	} else {
		rk->backend = KVIEW_BACKEND_TRACEFS;
		snprintf(rk->backend_text, sizeof(rk->backend_text),
			 "tracefs (libtraceevent)");
		msg_error("kernel views: tracefs backend: %s", rk->why);
		*views = tracefs_views(asked, rk);
	}
	*views |= prof;
	if (!*views) {
		msg_error("--kernel: none of the views asked for can be "
			  "recorded here; nothing measured");
		return 1;
	}
	return 0;
}

int kernel_backend_add_env(const struct kernel_backend *rk, struct env *env)
{
	if (!rk->backend_text[0])
		return 0;
	if (env_set(env, "kernel_views.backend", rk->backend_text) != 0 ||
	    env_set(env, "kernel_views.backend_why", rk->why) != 0)
		return -1;
	if (rk->mounted[0] &&
	    env_set(env, "kernel_views.tracefs_mounted", rk->mounted) != 0)
		return -1;
	return 0;
}
