/*
 * fdlimit.c - raise RLIMIT_NOFILE for workloads that open thousands of
 * descriptors (see fdlimit.h).
 */
#include "workloads/fdlimit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "workloads/wl_util.h"

int fdlimit_ensure(size_t need, const char *what, char *err, size_t len)
{
	struct rlimit rl, want;
	long max_open;
	int err_no;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0) {
		snprintf(err, len, "getrlimit(RLIMIT_NOFILE): %s",
			 strerror(errno));
		return -1;
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return 0;
	want = rl;
	want.rlim_cur = need;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need)
		want.rlim_max = need;
	if (setrlimit(RLIMIT_NOFILE, &want) == 0)
		return 0;
	err_no = errno;
	/* fs.nr_open: the most any process may have, or -1 */
	max_open = wl_read_long("/proc/sys/fs/nr_open");
	if (max_open > 0 && need > (size_t)max_open)
		snprintf(err, len, "%s needs %zu file descriptors, more than "
			 "fs.nr_open (%ld) allows for RLIMIT_NOFILE (now %llu "
			 "soft / %llu hard); use fewer or raise fs.nr_open",
			 what, need, max_open,
			 (unsigned long long)rl.rlim_cur,
			 (unsigned long long)rl.rlim_max);
	else if (want.rlim_max != rl.rlim_max && err_no == EPERM)
		snprintf(err, len, "%s needs %zu file descriptors but "
			 "RLIMIT_NOFILE is %llu (soft) / %llu (hard) and this "
			 "user may not raise the hard limit (no "
			 "CAP_SYS_RESOURCE); use fewer or raise the limit "
			 "(ulimit -Hn, limits.conf)", what, need,
			 (unsigned long long)rl.rlim_cur,
			 (unsigned long long)rl.rlim_max);
	else
		snprintf(err, len, "%s needs %zu file descriptors: "
			 "setrlimit(RLIMIT_NOFILE, %zu) failed: %s (now %llu "
			 "soft / %llu hard)", what, need, need,
			 strerror(err_no), (unsigned long long)rl.rlim_cur,
			 (unsigned long long)rl.rlim_max);
	return -1;
}
