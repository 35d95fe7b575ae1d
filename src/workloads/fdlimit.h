/*
 * fdlimit.h - make room for a workload's file descriptors under
 * RLIMIT_NOFILE (epoll.wait, udp.rr).
 */
#ifndef COPYSCOPE_FDLIMIT_H
#define COPYSCOPE_FDLIMIT_H

#include <stddef.h>

/* Descriptors left over for the rest of the program (stdio, the result
   store, /proc files, the timer's perf events). */
#define FDLIMIT_SLACK 64

/*
 * Make sure this process may hold `need` open file descriptors: the soft
 * RLIMIT_NOFILE is raised to `need` when the hard limit allows it, and
 * the hard limit too when the process may (CAP_SYS_RESOURCE, up to
 * fs.nr_open).  `what` says who needs them ("fds=30000 with
 * source=eventfd").  Returns 0, or -1 with a message in err naming
 * RLIMIT_NOFILE, its soft and hard values and what to do.
 */
int fdlimit_ensure(size_t need, const char *what, char *err, size_t len);

#endif
