/*
 * registry.c - the one explicit table of all workloads, and the suites.
 *
 * Adding a workload: define its descriptor in its family's file, declare
 * it in workloads.h, list it here.  The table is validated at start-up and
 * by tests/unit/test_registry.c.
 */
#include <string.h>

#include "util/array.h"
#include "workloads/workloads.h"

const struct workload *const workload_table[] = {
	&wl_sys_null,
	&wl_sys_rw,
	&wl_sys_iov,
	&wl_pipe_bw,
	&wl_pipe_matrix,
	&wl_pipe_lat,
	&wl_pipe_mix,
	&wl_mem_copy,
	&wl_ring_bw,
	&wl_epoll_wait,
	&wl_udp_rr,
	&wl_file_rw,
	&wl_file_splice,
	&wl_file_sendfile,
	&wl_file_copy,
};

const size_t workload_count =
	ARRAY_SIZE(workload_table);

static const char *const no_args[] = { NULL };

/* E4: preadv/pwritev of 8 x 1 byte to /dev/zero and /dev/null */
static const char *const sys_iov_e4[] = { "call=preadv,pwritev",
	"target=zero,null", NULL };
/* E4 swept: fixed + per-segment cost by least squares */
static const char *const sys_iov_segs[] = { "call=preadv,pwritev",
	"target=zero,null", "segs=1,8,64,1024", NULL };
static const char *const sys_calls[] = { "call=gettid,getppid", NULL };
/* sys.rw: a size sweep per target; the report fits fixed + per byte */
static const char *const sys_rw_memfd[] = { "target=memfd", "dir=read,write",
	"size=1,64,4k,64k,256k,1M", NULL };
static const char *const sys_rw_zero[] = { "target=zero", "dir=read",
	"size=1,64,4k,64k,256k,1M", NULL };
static const char *const sys_rw_null[] = { "target=null", "dir=write",
	"size=1,64,4k,64k,256k,1M", NULL };
static const char *const pipe_sizes[] = { "size=4k,16k,64k,256k,1M", NULL };
/* E2: the nine mixes of 1, 2, 5 writers x 1, 5, 10 readers */
static const char *const pipe_matrix_nine[] = { "writers=1,2,5",
	"readers=1,5,10", NULL };
/* pipe.lat: one CPU against two */
static const char *const pipe_lat_places[] = { "place=same,split", NULL };
/* E3 with a 64 KiB writer beside the small writers */
static const char *const pipe_mix_big[] = { "big_writers=1", NULL };
/* E5 at fds=1000: maxevents around the default 64, then the set's size */
static const char *const epoll_maxevents[] = { "maxevents=1,8,256,1024",
	NULL };
static const char *const epoll_fds[] = { "fds=10,100,10000", NULL };
/* E6 at flows=1000: more client threads against one server */
static const char *const udp_clients[] = { "client_threads=1,4,8", NULL };
/* E7: inline against out-of-line memcpy where the call shows */
static const char *const mem_e7[] = { "engine=libc,inline",
	"size=64,256,4k", NULL };
static const char *const ring_sizes[] = { "size=4k,16k,64k,256k,1M", NULL };

/* --quick: every workload once, small, with verification where it has it */
static const char *const quick_pipe[] = { "size=4k,64k", "verify=1", NULL };
static const char *const quick_matrix[] = { "writers=1,2", "readers=1,2",
	"size=4k", "verify=1", NULL };
static const char *const quick_sys_rw[] = { "size=64,64k", NULL };
static const char *const quick_udp[] = { "flows=100", NULL };
static const char *const quick_mem[] = { "engine=libc,inline,movsb",
	"size=64,4k", "verify=1", NULL };
static const char *const quick_ring[] = { "size=4k,64k", "verify=1", NULL };

/*
 * iter: the kernel's copy routines by iterator shape, at the iov_kunit
 * sizes (a page, 16 pages, 256 pages: its per-page ubuf and 256-page bvec
 * chunks), on the page cache of a file of the machine's own file system
 * (and of a memfd for the plain read and write).
 */
#define ITER_SIZES "size=4k,64k,1M"
static const char *const iter_ubuf[] = { "target=memfd,file",
	"dir=read,write", ITER_SIZES, NULL };
/* iov_kunit's iovec benchmark copies to the iterator: a read */
static const char *const iter_iovec[] = { "target=file", "dir=read",
	"segs=16", ITER_SIZES, NULL };
static const char *const iter_nowait[] = { "target=file", "dir=read",
	"flags=nowait", ITER_SIZES, NULL };
static const char *const iter_splice[] = { "call=to_pipe,from_pipe,tee",
	"target=file", ITER_SIZES, NULL };
static const char *const iter_sendfile[] = { "to=socket", "target=file",
	ITER_SIZES, NULL };
static const char *const iter_copy[] = { "target=file", ITER_SIZES, NULL };

/* --quick: the file workloads small, every shape, verified */
static const char *const quick_file_rw[] = { "target=memfd,file",
	"dir=read,write", "segs=1,8", "size=4k", "verify=1", NULL };
static const char *const quick_splice[] = { "call=to_pipe,from_pipe,tee",
	"target=file", "size=64k", "verify=1", NULL };
static const char *const quick_sendfile[] = { "to=null,socket",
	"target=file", "size=64k", "verify=1", NULL };
static const char *const quick_copy[] = { "target=file", "size=64k",
	"verify=1", NULL };

/* E1-E7 at their published parameters. */
static const struct suite_entry default_entries[] = {
	{ "pipe.bw", no_args },			/* E1 */
	{ "pipe.matrix", pipe_matrix_nine },	/* E2 */
	{ "pipe.mix", no_args },		/* E3 */
	{ "sys.null", no_args },		/* E4 baseline */
	{ "sys.iov", sys_iov_e4 },		/* E4 */
	{ "epoll.wait", no_args },		/* E5 */
	{ "udp.rr", no_args },			/* E6 */
	{ "mem.copy", mem_e7 },			/* E7 */
	{ "ring.bw", no_args },			/* the floor for E1 */
};

static const struct suite_entry quick_entries[] = {
	{ "sys.null", no_args },
	{ "sys.rw", quick_sys_rw },
	{ "sys.iov", no_args },
	{ "pipe.bw", quick_pipe },
	{ "pipe.matrix", quick_matrix },
	{ "pipe.lat", no_args },
	{ "pipe.mix", no_args },
	{ "epoll.wait", no_args },
	{ "udp.rr", quick_udp },
	{ "mem.copy", quick_mem },
	{ "ring.bw", quick_ring },
	{ "file.rw", quick_file_rw },
	{ "file.splice", quick_splice },
	{ "file.sendfile", quick_sendfile },
	{ "file.copy", quick_copy },
};

static const struct suite_entry pipe_entries[] = {
	{ "pipe.bw", no_args },
	{ "pipe.bw", pipe_sizes },
	{ "pipe.matrix", pipe_matrix_nine },
	{ "pipe.lat", pipe_lat_places },
	{ "pipe.mix", no_args },
	{ "pipe.mix", pipe_mix_big },
};

static const struct suite_entry sys_entries[] = {
	{ "sys.null", sys_calls },
	{ "sys.rw", sys_rw_memfd },
	{ "sys.rw", sys_rw_zero },
	{ "sys.rw", sys_rw_null },
	{ "sys.iov", sys_iov_segs },
};

static const struct suite_entry epoll_entries[] = {
	{ "epoll.wait", no_args },
	{ "epoll.wait", epoll_maxevents },
	{ "epoll.wait", epoll_fds },
};

static const struct suite_entry udp_entries[] = {
	{ "udp.rr", no_args },
	{ "udp.rr", udp_clients },
};

static const struct suite_entry mem_entries[] = {
	{ "mem.copy", no_args },	/* every engine x 64 B .. 64 MiB */
	{ "ring.bw", no_args },
	{ "ring.bw", ring_sizes },
};

static const struct suite_entry iter_entries[] = {
	{ "file.rw", iter_ubuf },	/* ITER_UBUF: copy to/from user */
	{ "file.rw", iter_iovec },	/* ITER_IOVEC */
	{ "file.rw", iter_nowait },	/* preadv2(RWF_NOWAIT) */
	{ "file.splice", iter_splice },	/* page references; ITER_BVEC */
	{ "file.sendfile", iter_sendfile },
	{ "file.copy", iter_copy },	/* never reaches user space */
};

#define SUITE(n, s, e, q)						\
	static const struct suite suite_##n = {				\
		.name = #n, .summary = (s), .entries = (e),		\
		.nentries = ARRAY_SIZE(e), .quick = (q),	\
	}

/* The summary after `run default`: each experiment by its headline. */
static const struct suite_headline default_headlines[] = {
	{ "E1", "bandwidth" },
	{ "E2", "bandwidth" },
	{ "E3", "p99 <128B" },		/* the small writers' wait */
	{ "E4", "time/call" },		/* the gettid baseline */
	{ "E4", "time/call" },
	{ "E5", "events/s" },
	{ "E6", "transactions/s" },
	{ "E7", "time/copy" },
	{ "floor", "bandwidth" },	/* the userspace ring, E1's floor */
};

_Static_assert(ARRAY_SIZE(default_headlines) ==
	       ARRAY_SIZE(default_entries),
	       "a headline for each entry of the default suite");

static const struct suite suite_default = {
	.name = "default", .summary = "E1-E7 at their published parameters",
	.entries = default_entries,
	.nentries = ARRAY_SIZE(default_entries),
	.headlines = default_headlines,
};
SUITE(quick, "every workload once, tiny, for tests", quick_entries, true);
SUITE(pipe, "pipes: E1 and a size sweep, E2's nine mixes, latency, E3",
      pipe_entries, false);
SUITE(sys, "system call costs: null, read/write by size, iovecs (E4)",
      sys_entries, false);
SUITE(epoll, "epoll event delivery: E5 and maxevents, fds sweeps",
      epoll_entries, false);
SUITE(udp, "loopback UDP request/response: E6 and a client sweep",
      udp_entries, false);
SUITE(mem, "the floor: copy engines by size, the userspace ring",
      mem_entries, false);
SUITE(iter, "the kernel's copy routines by iterator shape: read/write, "
      "iovec, splice, tee, sendfile, copy_file_range", iter_entries, false);

const struct suite *const suite_table[] = {
	&suite_default, &suite_quick, &suite_pipe, &suite_sys,
	&suite_epoll, &suite_udp, &suite_mem, &suite_iter,
};

const size_t suite_count = ARRAY_SIZE(suite_table);

const struct suite *suite_find(const char *name)
{
	size_t i;

	for (i = 0; i < suite_count; i++)
		if (strcmp(suite_table[i]->name, name) == 0)
			return suite_table[i];
	return NULL;
}
