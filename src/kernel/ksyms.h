/*
 * ksyms.h - kernel text symbols from /proc/kallsyms, for naming the
 * caller of a contended lock: an address becomes "symbol+0xoff", and the
 * locking code (the __lock_text and __sched_text sections, where the
 * spinlock, mutex and rwsem slow paths live) can be told apart from its
 * callers, as perf lock contention does.
 */
#ifndef COPYSCOPE_KSYMS_H
#define COPYSCOPE_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	char *name;
};

struct ksyms {
	struct ksym *v;			/* sorted by addr */
	size_t n;
	uint64_t lock_lo, lock_hi;	/* [__lock_text_start, _end) */
	uint64_t sched_lo, sched_hi;	/* [__sched_text_start, _end) */
	bool hidden;			/* every address read as 0
					   (kptr_restrict) */
};

/*
 * Load the text symbols of path (normally "/proc/kallsyms").  Returns 0,
 * or -1 with the reason in err (cannot open it; every address is 0, i.e.
 * kernel.kptr_restrict hides them; out of memory).
 */
int ksyms_load(struct ksyms *ks, const char *path, char *err, size_t errlen);

/* Load from text already in memory (tests). 0, or -1 on ENOMEM. */
int ksyms_load_text(struct ksyms *ks, const char *text);

void ksyms_free(struct ksyms *ks);

/*
 * The running kernel's symbols (/proc/kallsyms), read once per process
 * and kept until exit: every configuration of a sweep names its lock
 * callers from them.  NULL with the reason in err (see ksyms_load()).
 */
const struct ksyms *ksyms_kernel(char *err, size_t errlen);

/*
 * "name+0xoff" of addr into buf (the symbol at or below addr), or the
 * address in hex when no symbol covers it.
 */
void ksyms_name(const struct ksyms *ks, uint64_t addr, char *buf,
		size_t len);

/*
 * The name of the function at or below addr ("read_zero"; a module's
 * own name as kallsyms gives it), or NULL when no symbol covers it.
 */
const char *ksyms_func(const struct ksyms *ks, uint64_t addr);

/* Whether addr lies in the kernel's locking code (lock or sched text). */
bool ksyms_is_lock_code(const struct ksyms *ks, uint64_t addr);

#endif
