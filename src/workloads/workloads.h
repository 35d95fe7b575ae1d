/*
 * workloads.h - the descriptors defined in src/workloads/, one per workload,
 * and the suites.  The table of all workloads is in registry.c.
 */
#ifndef COPYSCOPE_WORKLOADS_H
#define COPYSCOPE_WORKLOADS_H

#include <stddef.h>

#include "core/suite.h"
#include "core/workload.h"

extern const struct workload wl_sys_null;
extern const struct workload wl_sys_rw;
extern const struct workload wl_sys_iov;
extern const struct workload wl_pipe_bw;
extern const struct workload wl_pipe_matrix;
extern const struct workload wl_pipe_lat;
extern const struct workload wl_pipe_mix;
extern const struct workload wl_mem_copy;
extern const struct workload wl_ring_bw;
extern const struct workload wl_epoll_wait;
extern const struct workload wl_udp_rr;
extern const struct workload wl_file_rw;
extern const struct workload wl_file_splice;
extern const struct workload wl_file_sendfile;
extern const struct workload wl_file_copy;

extern const struct suite *const suite_table[];
extern const size_t suite_count;

/* Find a suite by name, or NULL. */
const struct suite *suite_find(const char *name);

#endif
