/*
 * kernel_backend.h - `run --kernel VIEWS [--kernel-backend bpf|tracefs]`
 * (and ab --kernel):
 * before anything is measured, which backend records the views and
 * which of them can run here, said on stderr and kept for the run's
 * environment.
 */
#ifndef COPYSCOPE_SESSION_KERNEL_BACKEND_H
#define COPYSCOPE_SESSION_KERNEL_BACKEND_H

#include <stdint.h>

struct env;

/* What was chosen, for the run's environment. */
struct kernel_backend {
	int backend;			/* enum kview_backend, resolved */
	char backend_text[64];		/* "bpf (libbpf 1.1, BTF)" */
	char why[512];			/* why that one ("" when asked) */
	char mounted[128];		/* where copyscope mounted tracefs,
					   "" when it did not */
	int prof_backend;		/* the profile's: enum kview_backend,
					   BPF (in the kernel) or TRACEFS
					   (the perf rings) */
	char prof_text[600];		/* "bpf (stack maps in the kernel)",
					   "ring (...: why)"; "" without
					   the profile */
};

/*
 * Choose the backend of the views *views (KVIEW_* bits; 0: nothing to
 * do) as asked (word: "bpf", "tracefs", or NULL/"auto": bpf when it
 * loads, else tracefs), drop the views it cannot record, each named on
 * stderr with why, and say on stderr which backend runs and why.  The
 * tracefs backend mounts tracefs when it is missing and this runs as
 * root (said once).  Returns 0, or 1 when none of the views can be
 * recorded (said on stderr; the command exits 77, nothing ran).
 */
int kernel_backend_choose(unsigned *views, const char *word,
		      struct kernel_backend *rk);

/*
 * The profile's aggregation, once *views are chosen (a no-op without
 * the profile): in the kernel with BPF stack maps where the program
 * loads (word "bpf": there or not at all, the profile then refused and
 * dropped from *views), else from the perf rings (word "tracefs", or
 * the other views on the tracefs backend: the rings too); said on
 * stderr, kept in rk->prof_backend and prof_text.
 */
void kernel_backend_profile(unsigned *views, const char *word,
			    struct kernel_backend *rk);

/*
 * Into env, the keys kernel_views.backend, kernel_views.backend_why and,
 * when copyscope mounted tracefs, kernel_views.tracefs_mounted (none when
 * no backend was chosen); with the profile, kernel_views.profile_backend
 * (how its samples are aggregated: "bpf ..." or "ring ...", and why).  0, or -1 on ENOMEM.
 */
int kernel_backend_add_env(const struct kernel_backend *kb, struct env *env);

#endif
