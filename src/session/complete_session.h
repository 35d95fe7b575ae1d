/*
 * complete_session.h - the words bash completion offers that only the
 * program knows: stored run ids, observations as mix=observed:ID,
 * pipe.mix's presets, the /proc/sys and transparent_hugepage keys ab may
 * set (`copyscope __complete KIND`, completion/copyscope.bash).
 */
#ifndef COPYSCOPE_SESSION_COMPLETE_SESSION_H
#define COPYSCOPE_SESSION_COMPLETE_SESSION_H

#include <stdio.h>

#include "store/store.h"

/*
 * Print the candidates of kind, one a line: "runs" (stored run ids, st),
 * "mix" (pipe.mix's presets, then observed:ID of each stored
 * observation, st), "sysctl" (the writable keys under /proc/sys as
 * --a-sysctl takes them, "vm.swappiness"), "thp" (the writable files
 * under /sys/kernel/mm/transparent_hugepage, "khugepaged/defrag").  st
 * may be NULL (no database: no runs).  Returns 0, 1 on a store error, 2
 * for an unknown kind.
 */
int session_complete(const char *kind, struct store *st, FILE *out);

/* The kinds session_complete() knows, for its usage message. */
#define SESSION_COMPLETE_KINDS "runs, mix, sysctl, thp"

#endif
