/*
 * run_kernel.h - `run --kernel VIEWS [--kernel-backend bpf|tracefs]`:
 * before anything is measured, which backend records the views and
 * which of them can run here, said on stderr and kept for the run's
 * environment.
 */
#ifndef COPYSCOPE_CLI_RUN_KERNEL_H
#define COPYSCOPE_CLI_RUN_KERNEL_H

#include <stdint.h>

struct env;

/* What was chosen, for the run's environment. */
struct run_kernel {
	int backend;			/* enum kview_backend, resolved */
	char backend_text[64];		/* "bpf (libbpf 1.1, BTF)" */
	char why[512];			/* why that one ("" when asked) */
	char mounted[128];		/* where copyscope mounted tracefs,
					   "" when it did not */
};

/*
 * Choose the backend of the views *views (KVIEW_* bits; 0: nothing to
 * do) as asked (word: "bpf", "tracefs", or NULL/"auto": bpf when it
 * loads, else tracefs), drop the views it cannot record, each named on
 * stderr with why, and say on stderr which backend runs and why.  The
 * tracefs backend mounts tracefs when it is missing and this runs as
 * root (said once).  Returns 0, or 77 (EXIT_NOTHING_RAN) when none of
 * the views can be recorded.
 */
int run_kernel_choose(unsigned *views, const char *word,
		      struct run_kernel *rk);

/*
 * The session's add_env hook (arg: a struct run_kernel): the keys
 * kernel_views.backend, kernel_views.backend_why and, when copyscope
 * mounted tracefs, kernel_views.tracefs_mounted.  0, or -1 on ENOMEM.
 */
int run_kernel_add_env(void *arg, struct env *env, uint64_t seed);

#endif
