/*
 * observe_priv.h - what the two files of `observe`'s kernel side share:
 * the loaded program (its skeleton, build/bpf/observe.skel.h) and the
 * reading of its maps into an observation (observe_read.c).
 */
#ifndef COPYSCOPE_KOBSERVE_IMPL_H
#define COPYSCOPE_KOBSERVE_IMPL_H

#ifndef COPYSCOPE_NO_BPF
#include <bpf/libbpf.h>

#include "bpf/observe_maps.h"
#include "observe.skel.h"

#ifdef __clang_analyzer__
/*
 * bpftool's generated observe__create_skeleton() frees the skeleton on
 * its error path through bpf_object__destroy_skeleton(), which the static
 * analyzer takes for a leak; under the analyzer (clang-tidy) the open is
 * an opaque call, so that it checks our code and not bpftool's.
 */
struct observe *kobserve_open_opaque(void);
#define KOBSERVE_OPEN() kobserve_open_opaque()
#else
#define KOBSERVE_OPEN() observe__open()
#endif
#include "kernel/ksyms.h"
#include "results/observation.h"

/*
 * Read what the program aggregated (its global arrays and maps) into o,
 * for the views o->ran says ran; ks (may be NULL) names lock callers.
 * Returns 0, or -1 with the reason in err (ENOMEM).
 */
int kobserve_read(struct observe *skel, const struct ksyms *ks,
		  struct observation *o, char *err, size_t errlen);
#endif

#endif
