/*
 * observation.h - one observation of a live host (`copyscope observe`) as
 * the results model holds it: the pipe writes' sizes (by the seed's
 * classes, log2 and per comm), the lock contentions per caller and per
 * comm, the wake-up latencies and the per-syscall times, with what could
 * not be observed and why; and its JSON form, the one text the store,
 * `--json` and the export file carry (observation_to_json /
 * observation_from_json).
 */
#ifndef COPYSCOPE_OBSERVATION_H
#define COPYSCOPE_OBSERVATION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OBSERVATION_NLOG2 64		/* bucket b: [2^b, 2^(b+1)); 0: 0..1 */
/*
 * The largest bucket a write size can reach: observe records the bytes a
 * write returned, at most MAX_RW_COUNT (INT_MAX rounded down to a page,
 * under 2^31).  Import refuses larger ones.
 */
#define OBSERVATION_WRITE_MAX_LOG2 30
#define OBSERVATION_NCLASSES 8
#define OBSERVATION_NDROPS 6

/* What an observation watches (a mask). */
#define OBSERVE_PIPE_WRITES 0x1u
#define OBSERVE_LOCK 0x2u
#define OBSERVE_WAKEUP 0x4u
#define OBSERVE_SYSCALLS 0x8u
#define OBSERVE_ALL 0xfu

/* "pipe-writes", "lock", "wakeup", "syscalls": the names of the bits. */
extern const char *const observe_what_names[4];

/* The seed thread's size classes: "<128 B", "128 B-4 KiB", ... */
extern const char *const observation_class_names[OBSERVATION_NCLASSES];
/* Each class's smallest size and the next class's (bytes). */
extern const uint64_t observation_class_lo[OBSERVATION_NCLASSES + 1];

/* Why an event was not recorded (the program's drops, by reason). */
extern const char *const observation_drop_names[OBSERVATION_NDROPS];

struct observation_comm {
	char comm[32];
	uint64_t writes, bytes;
	uint64_t cls[OBSERVATION_NCLASSES];
	uint64_t log2[OBSERVATION_NLOG2];
	uint64_t contentions, wait_ns, max_wait_ns;
};

/*
 * One row of the lock table: a caller and the lock's type.  Observations
 * stored before the callers had histograms (and offsets) have names
 * without the offset ("anon_pipe_write") and no log2.
 */
struct observation_lock {
	char caller[128];		/* "anon_pipe_write+0x2f" */
	char type[24];			/* perf lock's name: "mutex" */
	uint64_t count, wait_ns, max_wait_ns;
	uint64_t log2[OBSERVATION_NLOG2];	/* wait, ns */
};

struct observation_sys {
	int nr;
	char name[32];
	uint64_t count, time_ns;
};

struct observation {
	unsigned asked, ran;		/* OBSERVE_* */
	int64_t duration_ns;		/* how long it watched */
	char comm_filter[32];		/* "" any */
	int64_t pid_filter;		/* 0 any */
	char pipe_source[64];		/* "fexit anon_pipe_write", ... */
	char *notes;			/* what did not load, and why (owned,
					   one line each; NULL none) */
	uint64_t pipe_writes, pipe_bytes;
	uint64_t pipe_cls[OBSERVATION_NCLASSES];
	uint64_t pipe_log2[OBSERVATION_NLOG2];
	struct observation_comm *comms;	/* most writes first */
	size_t ncomms;
	struct observation_lock *locks;	/* most total wait first (most
					   contentions in older records) */
	size_t nlocks;
	bool lock_hists;		/* every caller has its wait
					   histogram (log2); false in
					   records stored before them */
	uint64_t lock_count, lock_wait_ns;
	/* mutex waits whose caller is a pipe function (pipe_*) */
	uint64_t pipe_mutex_count;
	uint64_t pipe_mutex_log2[OBSERVATION_NLOG2];	/* ns */
	uint64_t wake_count;
	uint64_t wake_log2[OBSERVATION_NLOG2];		/* ns */
	struct observation_sys *sys;	/* most time first */
	size_t nsys;
	uint64_t drops[OBSERVATION_NDROPS];
};

/*
 * Whether l is a wait on the pipe's mutex: a mutex whose caller is a
 * pipe function (pipe_*, anon_pipe_*), the waits o->pipe_mutex_log2
 * sums.
 */
bool observation_is_pipe_mutex(const struct observation_lock *l);

/*
 * o's lock callers (only the pipe mutex's when pipe_only) by total wait,
 * most first (ties: the name), into out[0..max); returns how many there
 * are in all (more than max: the rest left out).
 */
size_t observation_top_locks(const struct observation *o, bool pipe_only,
			     const struct observation_lock **out, size_t max);

/* The class of a write of bytes (0 .. OBSERVATION_NCLASSES - 1). */
int observation_class_of(uint64_t bytes);

/*
 * Append one line to o->notes (printf-style).  0, or -1 on ENOMEM.
 */
int observation_note(struct observation *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Free what o owns and zero it. */
void observation_free(struct observation *o);

/* The observation as JSON (a new reference), or NULL on ENOMEM. */
json_t *observation_to_json(const struct observation *o);

/*
 * Read the JSON of observation_to_json() into o (zeroed first; free with
 * observation_free()).  Returns 0, or -1 with what is wrong in err (a
 * member missing or of the wrong type, ENOMEM).
 */
int observation_from_json(const json_t *j, struct observation *o,
			  char *err, size_t errlen);

/* The same from text (as stored). */
int observation_from_text(const char *text, struct observation *o,
			  char *err, size_t errlen);

/* The stored text of an observation as JSON, as it is stored, for a
   renderer to write out (a new reference; NULL when it is not JSON). */
json_t *observation_stored_json(const char *text);

/*
 * The comm whose name is comm, or NULL.
 */
const struct observation_comm *observation_find_comm(
	const struct observation *o, const char *comm);

/* The largest write a replayed mix may hold (pipe.mix's MIX_MAX_SIZE). */
#define OBSERVATION_MIX_MAX_BYTES (1u << 20)
/* At most this many entries (pipe.mix's MIX_MAX_ENTRIES). */
#define OBSERVATION_MIX_MAX_ENTRIES 16

/*
 * The pipe-write sizes of o (of comm's writes only when comm is not
 * NULL) as a pipe.mix mix text (workloads/mix.h): one uniform range
 * 2^b .. 2^(b+1)-1 per non-zero log2 bucket, weighted by its count of
 * writes (weights are relative), entries joined by '+'; writes over
 * OBSERVATION_MIX_MAX_BYTES fall into the last range, and when there
 * are more than OBSERVATION_MIX_MAX_ENTRIES buckets the neighbours with
 * the fewest writes are merged.  Returns 0, or -1 with the reason in err
 * (no pipe writes, no such comm, buf too small).
 */
int observation_mix_text(const struct observation *o, const char *comm,
			 char *buf, size_t len, char *err, size_t errlen);

/*
 * How many of o's pipe writes (comm's only when not NULL) were 1 MiB or
 * more: observation_mix_text() puts them into its last range, as pipe.mix
 * writes at most OBSERVATION_MIX_MAX_BYTES.
 */
uint64_t observation_mix_clamped(const struct observation *o,
				 const char *comm);

#endif
