/*
 * ring.c - the shared-memory byte ring of ring.bw (protocol in ring.h).
 *
 * Copies in and out use libc memcpy, at most `chunk` bytes between two
 * publications of head or tail, so that with a chunk smaller than the
 * ring the reader drains one chunk while the writer fills the next, as a
 * pipe's reader takes a page while its writer fills the next one.
 */
#include <limits.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workloads/ring.h"

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void futex_wait(const struct ring_port *p, _Atomic uint32_t *word,
		       uint32_t val)
{
	int op = p->shared ? FUTEX_WAIT : FUTEX_WAIT_PRIVATE;

	/* EAGAIN (the word changed), EINTR: the caller re-checks. */
	syscall(SYS_futex, (uint32_t *)word, op, val, NULL, NULL, 0);
}

static void futex_wake(const struct ring_port *p, _Atomic uint32_t *word)
{
	int op = p->shared ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE;

	syscall(SYS_futex, (uint32_t *)word, op, INT_MAX, NULL, NULL, 0);
}

size_t ring_mem_bytes(size_t cap)
{
	return sizeof(struct ring) + cap;
}

void ring_port_init(struct ring_port *p, void *mem, size_t cap, size_t chunk,
		    unsigned spin, bool process_shared)
{
	p->r = mem;
	p->cap = cap;
	p->chunk = chunk && chunk < cap ? chunk : cap;
	p->spin = spin;
	p->shared = process_shared;
}

/* Wake the other side if it announced that it may sleep on word. */
static void wake_if_waiting(const struct ring_port *p,
			    _Atomic uint32_t *waiting, _Atomic uint32_t *seq,
			    _Atomic uint64_t *wakes)
{
	/* Pairs with the fence in wait_for(): Dekker, see ring.h. */
	atomic_thread_fence(memory_order_seq_cst);
	if (!atomic_load_explicit(waiting, memory_order_relaxed))
		return;
	atomic_fetch_add_explicit(seq, 1, memory_order_release);
	futex_wake(p, seq);
	atomic_fetch_add_explicit(wakes, 1, memory_order_relaxed);
}

/*
 * Sleep until ready() would see progress: the other side moved `other`
 * away from `stuck` (head for a reader waiting on data, tail for a writer
 * waiting for space), or the ring was closed.
 */
static void wait_for(const struct ring_port *p, _Atomic uint64_t *other,
		     uint64_t stuck, _Atomic uint32_t *waiting,
		     _Atomic uint32_t *seq, _Atomic uint64_t *sleeps)
{
	struct ring *r = p->r;
	unsigned i;
	uint32_t s;

	for (i = 0; i < p->spin; i++) {
		if (atomic_load_explicit(other, memory_order_acquire) != stuck)
			return;
		cpu_relax();
	}
	s = atomic_load_explicit(seq, memory_order_acquire);
	atomic_store_explicit(waiting, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(other, memory_order_acquire) == stuck &&
	    !atomic_load_explicit(&r->closed, memory_order_acquire)) {
		futex_wait(p, seq, s);
		atomic_fetch_add_explicit(sleeps, 1, memory_order_relaxed);
	}
	atomic_store_explicit(waiting, 0, memory_order_relaxed);
}

int ring_write(const struct ring_port *p, const void *buf, size_t n)
{
	struct ring *r = p->r;
	const uint8_t *src = buf;
	uint64_t h = atomic_load_explicit(&r->head, memory_order_relaxed);

	while (n > 0) {
		uint64_t t = atomic_load_explicit(&r->tail,
						  memory_order_acquire);
		size_t room = p->cap - (size_t)(h - t);
		size_t len, off, first;

		if (atomic_load_explicit(&r->closed, memory_order_acquire))
			return -1;
		if (room == 0) {
			/* Full: wait for the reader to move tail. */
			wait_for(p, &r->tail, t, &r->writer_waiting,
				 &r->space_seq, &r->writer_sleeps);
			continue;
		}
		len = n < room ? n : room;
		if (len > p->chunk)
			len = p->chunk;
		off = (size_t)(h % p->cap);
		first = p->cap - off < len ? p->cap - off : len;
		memcpy(r->data + off, src, first);
		memcpy(r->data, src + first, len - first);
		h += len;
		atomic_store_explicit(&r->head, h, memory_order_release);
		wake_if_waiting(p, &r->reader_waiting, &r->data_seq,
				&r->writer_wakes);
		src += len;
		n -= len;
	}
	return 0;
}

ssize_t ring_read(const struct ring_port *p, void *buf, size_t n)
{
	struct ring *r = p->r;
	uint8_t *dst = buf;
	uint64_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t h;
	size_t got = 0;

	if (n == 0)
		return 0;
	for (;;) {
		h = atomic_load_explicit(&r->head, memory_order_acquire);
		if (h != t)
			break;
		if (atomic_load_explicit(&r->closed, memory_order_acquire)) {
			/* Closed: take what the writer published first. */
			h = atomic_load_explicit(&r->head,
						 memory_order_acquire);
			if (h != t)
				break;
			return -1;
		}
		wait_for(p, &r->head, t, &r->reader_waiting, &r->data_seq,
			 &r->reader_sleeps);
	}
	while (got < n && h != t) {
		size_t avail = (size_t)(h - t);
		size_t len = n - got < avail ? n - got : avail;
		size_t off, first;

		if (len > p->chunk)
			len = p->chunk;
		off = (size_t)(t % p->cap);
		first = p->cap - off < len ? p->cap - off : len;
		memcpy(dst + got, r->data + off, first);
		memcpy(dst + got + first, r->data, len - first);
		t += len;
		got += len;
		atomic_store_explicit(&r->tail, t, memory_order_release);
		wake_if_waiting(p, &r->writer_waiting, &r->space_seq,
				&r->reader_wakes);
		/* More may have arrived while we copied. */
		h = atomic_load_explicit(&r->head, memory_order_acquire);
	}
	return (ssize_t)got;
}

void ring_close(const struct ring_port *p)
{
	struct ring *r = p->r;

	atomic_store_explicit(&r->closed, 1, memory_order_release);
	atomic_fetch_add_explicit(&r->data_seq, 1, memory_order_release);
	atomic_fetch_add_explicit(&r->space_seq, 1, memory_order_release);
	futex_wake(p, &r->data_seq);
	futex_wake(p, &r->space_seq);
}
