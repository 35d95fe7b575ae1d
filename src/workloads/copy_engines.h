/*
 * copy_engines.h - the userspace copy engines mem.copy measures (E7, the
 * floor every kernel copy path is held against).
 *
 * Each engine copies n bytes from src to dst (distinct, non-overlapping)
 * and has two entry points sharing one implementation: copy() for a single
 * copy (what the unit tests check byte by byte) and batch() for `count`
 * back-to-back copies of the same buffers (what mem.copy times).  batch()
 * puts a compiler barrier after every copy, so no copy is merged with the
 * next or elided as a dead store.
 *
 * The vector engines are compiled with __attribute__((target(...))) so that
 * the rest of the build stays baseline x86-64; they must only be called
 * when copy_engine_supported() says so.  On arm64 the x86 engines are
 * absent (and say so) and ldpstp and neon are there; on x86 the reverse.
 */
#ifndef COPYSCOPE_COPY_ENGINES_H
#define COPYSCOPE_COPY_ENGINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum copy_engine_id {
	COPY_LIBC,	/* libc memcpy through a volatile function pointer */
	COPY_MOVSB,	/* rep movsb */
	COPY_MOVSQ,	/* rep movsq, then rep movsb for the n % 8 tail */
	COPY_AVX2,	/* 32-byte vector loop, 128 bytes per iteration */
	COPY_AVX512,	/* 64-byte vector loop, 256 bytes per iteration */
	COPY_NT,	/* SSE2 non-temporal 16-byte stores, then sfence */
	COPY_INLINE,	/* __builtin_memcpy with a constant length */
	COPY_LDPSTP,	/* arm64: ldp/stp register pairs, 64 bytes a loop */
	COPY_NEON,	/* arm64: 16-byte NEON loads and stores, 64 a loop */
	COPY_NENGINES,
};

/* CPU features the engines need, as bits of copy_cpu_features(). */
#define COPY_CPU_X86_64	(1u << 0)	/* rep movs, SSE2 (baseline) */
#define COPY_CPU_AVX2	(1u << 1)
#define COPY_CPU_AVX512F (1u << 2)
#define COPY_CPU_ARM64	(1u << 3)	/* ldp/stp, NEON (baseline) */

struct copy_engine {
	const char *name;		/* the mem.copy engine= value */
	const char *help;		/* one line */
	unsigned needs;			/* COPY_CPU_* bits; 0: any CPU */
	const char *needs_flag;		/* /proc/cpuinfo flag, for messages */
	void (*copy)(void *dst, const void *src, size_t n);
	void (*batch)(void *dst, const void *src, size_t n, uint64_t count);
};

/* The engines, indexed by enum copy_engine_id. */
extern const struct copy_engine copy_engines[COPY_NENGINES];

/* NULL-terminated engine names, for the engine= parameter's choices. */
extern const char *const copy_engine_names[];

/*
 * The sizes the inline engine copies with a constant length (ascending);
 * any other size falls back to the libc call.  INLINE_NSIZES entries.
 */
#define COPY_INLINE_NSIZES 13
extern const size_t copy_inline_sizes[COPY_INLINE_NSIZES];

/* True when engine=inline copies n bytes with a compile-time length. */
bool copy_inline_is_constant(size_t n);

/* The COPY_CPU_* features of this CPU (CPUID, with OS support checked). */
unsigned copy_cpu_features(void);

/*
 * Can engine e run on a CPU with `features`?  false with the reason in why
 * ("engine=avx512 needs avx512f, which this CPU lacks").  e out of range is
 * unsupported too.  Pure: the tests pass made-up feature sets.
 */
bool copy_engine_supported_on(int e, unsigned features, char *why,
			      size_t len);

/* copy_engine_supported_on() with this CPU's features. */
bool copy_engine_supported(int e, char *why, size_t len);

/*
 * Write the names of the engines this CPU supports, comma-separated, into
 * buf (for messages).
 */
void copy_engines_here(char *buf, size_t len);

#endif
