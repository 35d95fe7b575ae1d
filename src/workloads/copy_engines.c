/*
 * copy_engines.c - the userspace copy engines of mem.copy.
 *
 * What each engine really is (gcc, -O2, x86-64):
 *   libc    memcpy() called through a volatile function pointer: the
 *           compiler cannot see which function it calls, so the copy is
 *           always an out-of-line call into glibc (which picks its own
 *           implementation by CPU: ERMS/AVX/...).
 *   movsb   one `rep movsb` per copy (fast with ERMS/FSRM).
 *   movsq   `rep movsq` for n / 8 quadwords, `rep movsb` for the rest.
 *   avx2    unaligned 32-byte loads and stores, 4 per iteration, in a
 *           function compiled for AVX2 only (target("avx2")).
 *   avx512  unaligned 64-byte loads and stores, 4 per iteration
 *           (target("avx512f")).
 *   nt      16-byte loads, movntdq non-temporal stores (SSE2, baseline
 *           x86-64) to a 16-byte aligned destination, one sfence at the
 *           end of each copy: the destination bypasses the caches.
 *   inline  __builtin_memcpy with a compile-time constant length, one
 *           loop per constant size (copy_inline_sizes): the compiler
 *           expands the copy in place as moves where it judges that
 *           worthwhile (small sizes) and emits its own code or a call for
 *           larger ones; a size outside the list falls back to the libc
 *           call.  It shows what the call costs when a copy of a size known
 *           at compile time is not inlined (E7's 3x).
 *   ldpstp  (arm64) four ldp/stp pairs of x registers, 64 bytes a loop.
 *   neon    (arm64) four 16-byte NEON q-register loads and stores a loop.
 * Tails shorter than a vector use constant-size moves of 32, 16, 8, 4, 2
 * and 1 bytes.
 */
#include <stdio.h>
#include <string.h>

#if defined(__aarch64__)
#include <arm_neon.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "workloads/copy_engines.h"

/*
 * After each copy of a batch: the compiler must assume memory was read and
 * written, so it neither merges copies nor drops one as a dead store.
 */
#define COPY_BARRIER(d, s) __asm__ volatile("" : : "r"(d), "r"(s) : "memory")

const size_t copy_inline_sizes[COPY_INLINE_NSIZES] = {
	1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096,
};

/* The compiler cannot know what this points to: never inlined. */
static void *(*volatile libc_memcpy)(void *, const void *, size_t) = memcpy;

static void libc_copy(void *dst, const void *src, size_t n)
{
	libc_memcpy(dst, src, n);
}

static void libc_batch(void *dst, const void *src, size_t n, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		libc_memcpy(dst, src, n);
		COPY_BARRIER(dst, src);
	}
}

bool copy_inline_is_constant(size_t n)
{
	size_t i;

	for (i = 0; i < COPY_INLINE_NSIZES; i++)
		if (copy_inline_sizes[i] == n)
			return true;
	return false;
}

#define INLINE_ONE(N)							\
	case N:								\
		__builtin_memcpy(dst, src, N);				\
		return

static void inline_copy(void *dst, const void *src, size_t n)
{
	switch (n) {
	INLINE_ONE(1); INLINE_ONE(2); INLINE_ONE(4); INLINE_ONE(8);
	INLINE_ONE(16); INLINE_ONE(32); INLINE_ONE(64); INLINE_ONE(128);
	INLINE_ONE(256); INLINE_ONE(512); INLINE_ONE(1024);
	INLINE_ONE(2048); INLINE_ONE(4096);
	default:
		libc_memcpy(dst, src, n);
	}
}

#define INLINE_LOOP(N)							\
	case N:								\
		for (i = 0; i < count; i++) {				\
			__builtin_memcpy(dst, src, N);			\
			COPY_BARRIER(dst, src);				\
		}							\
		return

/* The length is a constant inside each loop: no dispatch per copy. */
static void inline_batch(void *dst, const void *src, size_t n,
			 uint64_t count)
{
	uint64_t i;

	switch (n) {
	INLINE_LOOP(1); INLINE_LOOP(2); INLINE_LOOP(4); INLINE_LOOP(8);
	INLINE_LOOP(16); INLINE_LOOP(32); INLINE_LOOP(64); INLINE_LOOP(128);
	INLINE_LOOP(256); INLINE_LOOP(512); INLINE_LOOP(1024);
	INLINE_LOOP(2048); INLINE_LOOP(4096);
	default:
		libc_batch(dst, src, n, count);
	}
}

/* n < 64 bytes with constant-size moves (never a call). */
static inline __attribute__((always_inline)) void
copy_small(uint8_t *d, const uint8_t *s, size_t n)
{
	if (n & 32) {
		__builtin_memcpy(d, s, 32);
		d += 32;
		s += 32;
	}
	if (n & 16) {
		__builtin_memcpy(d, s, 16);
		d += 16;
		s += 16;
	}
	if (n & 8) {
		__builtin_memcpy(d, s, 8);
		d += 8;
		s += 8;
	}
	if (n & 4) {
		__builtin_memcpy(d, s, 4);
		d += 4;
		s += 4;
	}
	if (n & 2) {
		__builtin_memcpy(d, s, 2);
		d += 2;
		s += 2;
	}
	if (n & 1)
		*d = *s;
}

#if defined(__x86_64__)

static inline __attribute__((always_inline)) void
movsb_one(void *d, const void *s, size_t n)
{
	__asm__ volatile("rep movsb"
			 : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static inline __attribute__((always_inline)) void
movsq_one(void *d, const void *s, size_t n)
{
	size_t q = n >> 3, r = n & 7;

	__asm__ volatile("rep movsq"
			 : "+D"(d), "+S"(s), "+c"(q) : : "memory");
	__asm__ volatile("rep movsb"
			 : "+D"(d), "+S"(s), "+c"(r) : : "memory");
}

__attribute__((target("avx2"), always_inline)) static inline void
avx2_one(uint8_t *d, const uint8_t *s, size_t n)
{
	for (; n >= 128; n -= 128, d += 128, s += 128) {
		__m256i a = _mm256_loadu_si256((const __m256i *)s);
		__m256i b = _mm256_loadu_si256((const __m256i *)(s + 32));
		__m256i c = _mm256_loadu_si256((const __m256i *)(s + 64));
		__m256i e = _mm256_loadu_si256((const __m256i *)(s + 96));

		_mm256_storeu_si256((__m256i *)d, a);
		_mm256_storeu_si256((__m256i *)(d + 32), b);
		_mm256_storeu_si256((__m256i *)(d + 64), c);
		_mm256_storeu_si256((__m256i *)(d + 96), e);
	}
	for (; n >= 32; n -= 32, d += 32, s += 32)
		_mm256_storeu_si256((__m256i *)d,
				    _mm256_loadu_si256((const __m256i *)s));
	copy_small(d, s, n);
}

__attribute__((target("avx512f"), always_inline)) static inline void
avx512_one(uint8_t *d, const uint8_t *s, size_t n)
{
	for (; n >= 256; n -= 256, d += 256, s += 256) {
		__m512i a = _mm512_loadu_si512((const void *)s);
		__m512i b = _mm512_loadu_si512((const void *)(s + 64));
		__m512i c = _mm512_loadu_si512((const void *)(s + 128));
		__m512i e = _mm512_loadu_si512((const void *)(s + 192));

		_mm512_storeu_si512((void *)d, a);
		_mm512_storeu_si512((void *)(d + 64), b);
		_mm512_storeu_si512((void *)(d + 128), c);
		_mm512_storeu_si512((void *)(d + 192), e);
	}
	for (; n >= 64; n -= 64, d += 64, s += 64)
		_mm512_storeu_si512((void *)d,
				    _mm512_loadu_si512((const void *)s));
	copy_small(d, s, n);
}

static inline __attribute__((always_inline)) void
nt_one(uint8_t *d, const uint8_t *s, size_t n)
{
	/* movntdq needs a 16-byte aligned destination. */
	size_t head = (16 - ((uintptr_t)d & 15)) & 15;

	if (head > n)
		head = n;
	copy_small(d, s, head);
	d += head;
	s += head;
	n -= head;
	for (; n >= 64; n -= 64, d += 64, s += 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)s);
		__m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
		__m128i e = _mm_loadu_si128((const __m128i *)(s + 48));

		_mm_stream_si128((__m128i *)d, a);
		_mm_stream_si128((__m128i *)(d + 16), b);
		_mm_stream_si128((__m128i *)(d + 32), c);
		_mm_stream_si128((__m128i *)(d + 48), e);
	}
	for (; n >= 16; n -= 16, d += 16, s += 16)
		_mm_stream_si128((__m128i *)d,
				 _mm_loadu_si128((const __m128i *)s));
	copy_small(d, s, n);
	/* Non-temporal stores are weakly ordered: fence each copy. */
	_mm_sfence();
}

static void movsb_copy(void *dst, const void *src, size_t n)
{
	movsb_one(dst, src, n);
}

static void movsb_batch(void *dst, const void *src, size_t n, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		movsb_one(dst, src, n);
		COPY_BARRIER(dst, src);
	}
}

static void movsq_copy(void *dst, const void *src, size_t n)
{
	movsq_one(dst, src, n);
}

static void movsq_batch(void *dst, const void *src, size_t n, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		movsq_one(dst, src, n);
		COPY_BARRIER(dst, src);
	}
}

__attribute__((target("avx2"))) static void
avx2_copy(void *dst, const void *src, size_t n)
{
	avx2_one(dst, src, n);
}

__attribute__((target("avx2"))) static void
avx2_batch(void *dst, const void *src, size_t n, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		avx2_one(dst, src, n);
		COPY_BARRIER(dst, src);
	}
}

__attribute__((target("avx512f"))) static void
avx512_copy(void *dst, const void *src, size_t n)
{
	avx512_one(dst, src, n);
}

__attribute__((target("avx512f"))) static void
avx512_batch(void *dst, const void *src, size_t n, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		avx512_one(dst, src, n);
		COPY_BARRIER(dst, src);
	}
}

static void nt_copy(void *dst, const void *src, size_t n)
{
	nt_one(dst, src, n);
}

static void nt_batch(void *dst, const void *src, size_t n, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		nt_one(dst, src, n);
		COPY_BARRIER(dst, src);
	}
}

#define X86(f) f
#else
/* Not x86-64: these engines are unsupported and never called. */
#define X86(f) NULL
#endif

#if defined(__aarch64__)
/* 64 bytes a loop through four ldp/stp pairs of x registers. */
static inline __attribute__((always_inline)) void
ldpstp_one(uint8_t *d, const uint8_t *s, size_t n)
{
	for (; n >= 64; n -= 64, d += 64, s += 64) {
		uint64_t a, b, c, e, f, g, h, k;

		__asm__ volatile("ldp %0, %1, [%8]\n\t"
				 "ldp %2, %3, [%8, #16]\n\t"
				 "ldp %4, %5, [%8, #32]\n\t"
				 "ldp %6, %7, [%8, #48]\n\t"
				 "stp %0, %1, [%9]\n\t"
				 "stp %2, %3, [%9, #16]\n\t"
				 "stp %4, %5, [%9, #32]\n\t"
				 "stp %6, %7, [%9, #48]"
				 : "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(e),
				   "=&r"(f), "=&r"(g), "=&r"(h), "=&r"(k)
				 : "r"(s), "r"(d) : "memory");
	}
	copy_small(d, s, n);
}

/* 64 bytes a loop through four 16-byte NEON q registers. */
static inline __attribute__((always_inline)) void
neon_one(uint8_t *d, const uint8_t *s, size_t n)
{
	for (; n >= 64; n -= 64, d += 64, s += 64) {
		uint8x16_t a = vld1q_u8(s), b = vld1q_u8(s + 16);
		uint8x16_t c = vld1q_u8(s + 32), e = vld1q_u8(s + 48);

		vst1q_u8(d, a);
		vst1q_u8(d + 16, b);
		vst1q_u8(d + 32, c);
		vst1q_u8(d + 48, e);
	}
	for (; n >= 16; n -= 16, d += 16, s += 16)
		vst1q_u8(d, vld1q_u8(s));
	copy_small(d, s, n);
}

static void ldpstp_copy(void *dst, const void *src, size_t n)
{
	ldpstp_one(dst, src, n);
}

static void ldpstp_batch(void *dst, const void *src, size_t n,
			 uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		ldpstp_one(dst, src, n);
		COPY_BARRIER(dst, src);
	}
}

static void neon_copy(void *dst, const void *src, size_t n)
{
	neon_one(dst, src, n);
}

static void neon_batch(void *dst, const void *src, size_t n, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		neon_one(dst, src, n);
		COPY_BARRIER(dst, src);
	}
}

#define ARM64(f) f
#else
/* Not arm64: these engines are unsupported and never called. */
#define ARM64(f) NULL
#endif

const struct copy_engine copy_engines[COPY_NENGINES] = {
	[COPY_LIBC] = {
		.name = "libc", .needs = 0, .needs_flag = NULL,
		.help = "libc memcpy, called out of line through a pointer",
		.copy = libc_copy, .batch = libc_batch,
	},
	[COPY_MOVSB] = {
		.name = "movsb", .needs = COPY_CPU_X86_64,
		.needs_flag = "x86-64",
		.help = "rep movsb",
		.copy = X86(movsb_copy), .batch = X86(movsb_batch),
	},
	[COPY_MOVSQ] = {
		.name = "movsq", .needs = COPY_CPU_X86_64,
		.needs_flag = "x86-64",
		.help = "rep movsq, rep movsb for the last n % 8 bytes",
		.copy = X86(movsq_copy), .batch = X86(movsq_batch),
	},
	[COPY_AVX2] = {
		.name = "avx2", .needs = COPY_CPU_X86_64 | COPY_CPU_AVX2,
		.needs_flag = "avx2",
		.help = "32-byte AVX2 loads and stores, 128 bytes a loop",
		.copy = X86(avx2_copy), .batch = X86(avx2_batch),
	},
	[COPY_AVX512] = {
		.name = "avx512", .needs = COPY_CPU_X86_64 | COPY_CPU_AVX512F,
		.needs_flag = "avx512f",
		.help = "64-byte AVX-512 loads and stores, 256 bytes a loop",
		.copy = X86(avx512_copy), .batch = X86(avx512_batch),
	},
	[COPY_NT] = {
		.name = "nt", .needs = COPY_CPU_X86_64,
		.needs_flag = "x86-64",
		.help = "non-temporal 16-byte stores (movntdq) and sfence",
		.copy = X86(nt_copy), .batch = X86(nt_batch),
	},
	[COPY_INLINE] = {
		.name = "inline", .needs = 0, .needs_flag = NULL,
		.help = "__builtin_memcpy of a constant length (1..4096, "
			"powers of 2; else the libc call)",
		.copy = inline_copy, .batch = inline_batch,
	},
	[COPY_LDPSTP] = {
		.name = "ldpstp", .needs = COPY_CPU_ARM64,
		.needs_flag = "arm64",
		.help = "arm64 ldp/stp register pairs, 64 bytes a loop",
		.copy = ARM64(ldpstp_copy), .batch = ARM64(ldpstp_batch),
	},
	[COPY_NEON] = {
		.name = "neon", .needs = COPY_CPU_ARM64,
		.needs_flag = "arm64",
		.help = "arm64 16-byte NEON loads and stores, 64 bytes a loop",
		.copy = ARM64(neon_copy), .batch = ARM64(neon_batch),
	},
};

const char *const copy_engine_names[] = {
	"libc", "movsb", "movsq", "avx2", "avx512", "nt", "inline", "ldpstp",
	"neon", NULL,
};

unsigned copy_cpu_features(void)
{
	unsigned f = 0;

#if defined(__x86_64__)
	__builtin_cpu_init();
	f |= COPY_CPU_X86_64;
	/* These check the OS enabled the register state (XCR0) too. */
	if (__builtin_cpu_supports("avx2"))
		f |= COPY_CPU_AVX2;
	if (__builtin_cpu_supports("avx512f"))
		f |= COPY_CPU_AVX512F;
#elif defined(__aarch64__)
	/* Advanced SIMD is part of the Linux arm64 baseline. */
	f |= COPY_CPU_ARM64;
#endif
	return f;
}

bool copy_engine_supported_on(int e, unsigned features, char *why,
			      size_t len)
{
	const struct copy_engine *ce;

	if (e < 0 || e >= COPY_NENGINES) {
		snprintf(why, len, "no copy engine number %d", e);
		return false;
	}
	ce = &copy_engines[e];
	if ((ce->needs & features) == ce->needs)
		return true;
	if ((ce->needs & COPY_CPU_ARM64) && !(features & COPY_CPU_ARM64))
		snprintf(why, len, "engine=%s needs an arm64 CPU", ce->name);
	else if (!(features & COPY_CPU_X86_64))
		snprintf(why, len, "engine=%s needs an x86-64 CPU", ce->name);
	else
		snprintf(why, len, "engine=%s needs %s, which this CPU lacks "
			 "(no '%s' in /proc/cpuinfo flags)", ce->name,
			 ce->needs_flag, ce->needs_flag);
	return false;
}

bool copy_engine_supported(int e, char *why, size_t len)
{
	return copy_engine_supported_on(e, copy_cpu_features(), why, len);
}

void copy_engines_here(char *buf, size_t len)
{
	unsigned f = copy_cpu_features();
	size_t used = 0;
	char why[8];
	int e, n;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (e = 0; e < COPY_NENGINES; e++) {
		if (!copy_engine_supported_on(e, f, why, sizeof(why)))
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			     copy_engines[e].name);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
}
