/*
 * process.h - child programs: finding one on $PATH as execvp would, and
 * stopping one (with its process group) for good.
 */
#ifndef COPYSCOPE_PROCESS_H
#define COPYSCOPE_PROCESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Find the program name as execvp(3) would: a name with a '/' is taken
 * as it is, else each directory of $PATH is tried in turn (an empty entry
 * is the current directory; an unset or empty $PATH is "/usr/bin:/bin").
 * A match is a regular file we may execute.  Its path goes to out (len
 * bytes) unless out is NULL.  Returns 0, or -1 if there is none or the
 * path does not fit into out.
 */
int util_find_program(const char *name, char *out, size_t len);

/*
 * Stop the child pid and its process group: SIGTERM (to the group, or to
 * pid alone if it leads none), up to grace_ns for it to exit, then
 * SIGKILL to the group; pid is reaped.  Returns 0 if it exited within
 * grace_ns, 1 if it had to be killed, -1 with errno if it could not be
 * signalled (ESRCH aside) or waited for.
 */
int util_stop_child(pid_t pid, int64_t grace_ns);

#endif
