/*
 * ring.h - a single-producer single-consumer byte ring in shared memory,
 * with futex sleeps only when the ring is empty or full: a pipe with no
 * kernel in the data path (ring.bw).
 *
 * The ring's state (struct ring) lives in memory both sides map (MAP_SHARED
 * before fork, or plain memory for threads) and is valid when zeroed: head
 * and tail count bytes ever written and read (64-bit, never wrap in
 * practice), so the fill is head - tail and the byte at stream offset x sits
 * at data[x % cap].  Its shape (capacity, chunk, spin) is not in shared
 * memory: each side holds it in a struct ring_port, so nothing needs
 * initialising after the memory is zeroed.
 *
 * Protocol (writer; the reader is symmetric with tail and "data"):
 *   copy a chunk into the ring; store head (release); full fence;
 *   if reader_waiting: bump data_seq, futex_wake(data_seq).
 * A side that finds the ring empty (full) spins `spin` times, then
 *   seq = data_seq; reader_waiting = 1; full fence; re-check head;
 *   still empty: futex_wait(data_seq, seq); reader_waiting = 0.
 * The two full fences make the check and the flag a Dekker pair: either
 * the writer sees the flag and wakes, or the reader sees the new head; a
 * wake between the re-check and the sleep changes data_seq, so the futex
 * returns at once.  No wake-up is lost, and while both sides keep up no
 * system call is made.
 */
#ifndef COPYSCOPE_RING_H
#define COPYSCOPE_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RING_CACHELINE 64

struct ring {
	/* written by the writer */
	_Alignas(RING_CACHELINE) _Atomic uint64_t head;
	_Atomic uint32_t data_seq;	/* futex word the reader sleeps on */
	_Atomic uint32_t writer_waiting;
	_Atomic uint64_t writer_sleeps;	/* futex_wait calls by the writer */
	_Atomic uint64_t writer_wakes;	/* futex_wake calls by the writer */
	/* written by the reader */
	_Alignas(RING_CACHELINE) _Atomic uint64_t tail;
	_Atomic uint32_t space_seq;	/* futex word the writer sleeps on */
	_Atomic uint32_t reader_waiting;
	_Atomic uint64_t reader_sleeps;
	_Atomic uint64_t reader_wakes;
	/* either side */
	_Alignas(RING_CACHELINE) _Atomic uint32_t closed;
	_Alignas(RING_CACHELINE) uint8_t data[];
};

/* One side's view of a ring. */
struct ring_port {
	struct ring *r;
	size_t cap;		/* data bytes */
	size_t chunk;		/* bytes copied between two publications */
	unsigned spin;		/* empty/full checks before sleeping */
	bool shared;		/* across processes: non-private futexes */
};

/* Bytes of shared memory a ring of cap data bytes needs. */
size_t ring_mem_bytes(size_t cap);

/*
 * Set up a port on zeroed memory mem of ring_mem_bytes(cap) bytes,
 * RING_CACHELINE aligned.  chunk 0 means cap.  process_shared selects
 * non-private futexes (the memory is MAP_SHARED between processes).
 */
void ring_port_init(struct ring_port *p, void *mem, size_t cap, size_t chunk,
		    unsigned spin, bool process_shared);

/*
 * Writer: copy all n bytes of buf into the ring, sleeping while it is full.
 * Returns 0, or -1 when the ring was closed (some bytes may have gone).
 */
int ring_write(const struct ring_port *p, const void *buf, size_t n);

/*
 * Reader: copy between 1 and n bytes out of the ring into buf, sleeping
 * while it is empty (like read(2) on a pipe).  Returns the number of
 * bytes, 0 for n == 0, or -1 when the ring is closed and empty.
 */
ssize_t ring_read(const struct ring_port *p, void *buf, size_t n);

/* Either side: mark the ring closed and wake both sides. */
void ring_close(const struct ring_port *p);

#endif
