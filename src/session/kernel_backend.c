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

#include "env/env.h"
#include "kernel/ktrace.h"
#include "kernel/kview.h"
#include "kernel/kprof_bpf.h"
#include "kernel/kview_bpf.h"
#include "results/kernel_records.h"
#include "util/msg.h"

/* The views tracefs can record, each refused one named with why. */
static unsigned tracefs_views(unsigned asked, struct kernel_backend *rk)
{
	unsigned ok = asked;
	char err[512];
	int id;

	if (ktrace_mount_tracefs(err, sizeof(err)) == 1) {
		snprintf(rk->mounted, sizeof(rk->mounted), "%s", err);
		msg_error("tracefs was not mounted: mounted it at %s (as perf "
			 "does)", err);
	}
	for (id = 0; id < KVIEW_NVIEWS; id++) {
		unsigned bit = KVIEW_BIT(id);

		if (!(asked & bit) ||
		    ktrace_probe(kview_kinds(bit), err, sizeof(err)) == 0)
			continue;
		msg_error("--kernel %s: refused: %s", kview_records[id]->name,
			  err);
		ok &= ~bit;
	}
	return ok;
}

/* The bpf backend forced: its views, each refused one with why. */
static unsigned bpf_views(unsigned asked, struct kernel_backend *rk)
{
	unsigned ok = 0;
	int id;

	for (id = 0; id < KVIEW_NVIEWS; id++) {
		unsigned got, bit = KVIEW_BIT(id);
		char why[512];

		if (!(asked & bit))
			continue;
		if (kview_bpf_probe(bit, &got, why, sizeof(why)) == 0) {
			ok |= bit;
			continue;
		}
		msg_error("--kernel %s: refused (--kernel-backend bpf): %s",
			  kview_records[id]->name, why);
		if (!rk->why[0])
			snprintf(rk->why, sizeof(rk->why), "%s", why);
	}
	return ok;
}

/*
 * The views with a recorder of their own (the profile: perf_event_open(2)
 * with kernel callchains): which of asked can run here, each refused one
 * named with why, and what to know of each that can (the profile with
 * no PMU samples cpu-clock) said on stderr.
 */
static unsigned own_views(unsigned asked)
{
	unsigned ok = 0;
	int id;

	for (id = 0; id < KVIEW_NVIEWS; id++) {
		const char *name = kview_records[id]->name;
		char why[512], note[256];

		if (!(asked & KVIEW_BIT(id)))
			continue;
		if (kview_probe_own(id, why, sizeof(why), note,
				    sizeof(note)) != 0) {
			msg_error("--kernel %s: refused: %s", name, why);
			continue;
		}
		if (note[0])
			msg_error("kernel views: %s: %s", name, note);
		ok |= KVIEW_BIT(id);
	}
	return ok;
}

int kernel_backend_choose(unsigned *views, const char *word,
		      struct kernel_backend *rk)
{
	unsigned asked = kview_traced_views(*views), got, prof;
	char d[48];

	memset(rk, 0, sizeof(*rk));
	if (!*views)
		return 0;
	prof = own_views(*views & ~asked);
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

void kernel_backend_profile(unsigned *views, const char *word,
			    struct kernel_backend *rk)
{
	char why[400];

	rk->prof_backend = KVIEW_BACKEND_TRACEFS;
	rk->prof_text[0] = '\0';
	if (!(*views & KVIEW_PROFILE))
		return;
	if (word && !strcmp(word, "tracefs")) {
		snprintf(rk->prof_text, sizeof(rk->prof_text), "ring (the "
			 "perf rings, folded in user space: --kernel-backend "
			 "tracefs)");
	} else if (!word && rk->backend == KVIEW_BACKEND_TRACEFS &&
		   (*views & ~KVIEW_PROFILE)) {
		snprintf(rk->prof_text, sizeof(rk->prof_text), "ring (the "
			 "perf rings, folded in user space: the other views "
			 "are on the tracefs backend)");
	} else if (kprof_bpf_probe(why, sizeof(why)) == 0) {
		rk->prof_backend = KVIEW_BACKEND_BPF;
		snprintf(rk->prof_text, sizeof(rk->prof_text), "bpf (stack "
			 "maps, aggregated in the kernel)");
	} else if (word && !strcmp(word, "bpf")) {
		msg_error("--kernel profile: refused (--kernel-backend bpf): "
			  "%s", why);
		*views &= ~KVIEW_PROFILE;
		return;
	} else {
		snprintf(rk->prof_text, sizeof(rk->prof_text), "ring (the "
			 "perf rings, folded in user space: the BPF program "
			 "does not load: %s)", why);
	}
	msg_error("kernel views: profile: %s", rk->prof_text);
}

int kernel_backend_add_env(const struct kernel_backend *rk, struct env *env)
{
	if (rk->prof_text[0] &&
	    env_set(env, "kernel_views.profile_backend", rk->prof_text) != 0)
		return -1;
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
