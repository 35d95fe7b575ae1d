/*
 * profile_funcs.h - the profile view's stacks (results/kernel_records.h)
 * as a table of functions with the op's time attributed to each: a
 * function's self samples are those whose leaf frame it is, its total
 * samples those whose stack holds it (once per stack, recursion or
 * not); its share of the samples times the op's measured time is its
 * ns per op, with a 95% CI from the samples' binomial spread (Wilson).
 * The text and JSON renderers both read it, so they agree.
 */
#ifndef COPYSCOPE_RESULTS_PROFILE_FUNCS_H
#define COPYSCOPE_RESULTS_PROFILE_FUNCS_H

#include <stddef.h>
#include <stdint.h>

struct result_kernel;

/* One function of the profile. */
struct prof_func {
	char *name;
	uint64_t self, total;		/* samples */
};

/*
 * The functions of k's stacks into *out (malloc'd; prof_funcs_free()),
 * most self samples first, then most total samples, then by name.
 * Returns how many, or -1 on ENOMEM.
 */
long prof_functions(const struct result_kernel *k, struct prof_func **out);

void prof_funcs_free(struct prof_func *f, long n);

/*
 * The op's measured time the shares are of, ns: the untraced samples'
 * median time per op, else the traced samples' (NAN when neither).
 */
double prof_op_ns(const struct result_kernel *k);

/*
 * The 95% Wilson score interval of the share k of n samples into *lo
 * and *hi (0..1); both NAN when n is 0.
 */
void prof_share_ci(uint64_t k, uint64_t n, double *lo, double *hi);

#endif
