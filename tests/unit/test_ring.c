/*
 * test_ring.c - unit tests for src/workloads/ring.c, the shared-memory byte
 * ring of ring.bw: wrap-around in one thread, a two-thread stress test that
 * checks every byte of the stream (message and read sizes that do not
 * divide the capacity, tiny and odd capacities, with and without spinning),
 * and close semantics.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workloads/pattern.h"
#include "workloads/ring.h"

static void *ring_mem(size_t cap)
{
	void *m = aligned_alloc(RING_CACHELINE,
				(ring_mem_bytes(cap) + RING_CACHELINE - 1) &
				~(size_t)(RING_CACHELINE - 1));

	assert_non_null(m);
	memset(m, 0, ring_mem_bytes(cap));
	return m;
}

/* One thread: write and read around the end of the ring many times. */
static void test_wrap_single_thread(void **state)
{
	struct ring_port p;
	void *mem = ring_mem(10);
	uint8_t in[7], out[7], scratch[7];
	struct pattern_errors e;
	uint64_t pos = 0;
	int i;

	(void)state;
	memset(&e, 0, sizeof(e));
	ring_port_init(&p, mem, 10, 3, 0, false);
	for (i = 0; i < 1000; i++) {
		size_t n = 1 + (size_t)(i % 7), got = 0;

		pattern_fill(in, n, pos);
		assert_int_equal(ring_write(&p, in, n), 0);
		while (got < n) {
			ssize_t r = ring_read(&p, out + got, n - got);

			assert_true(r > 0);
			got += (size_t)r;
		}
		assert_int_equal(pattern_check(out, n, pos, scratch, &e), 0);
		pos += n;
	}
	assert_int_equal(pattern_error_total(&e), 0);
	assert_int_equal(e.bytes_checked, pos);
	/* Both counters ran past the capacity many times. */
	assert_true(atomic_load(&p.r->head) == pos);
	assert_true(atomic_load(&p.r->tail) == pos);
	free(mem);
}

struct stress {
	size_t cap, chunk, wsize, rsize;
	unsigned spin;
	uint64_t total;
	void *mem;
	struct pattern_errors errs;
	uint64_t got;
	int write_rc;
};

static void *stress_writer(void *arg)
{
	struct stress *s = arg;
	struct ring_port p;
	uint8_t *buf = malloc(s->wsize);
	uint64_t pos = 0;

	ring_port_init(&p, s->mem, s->cap, s->chunk, s->spin, false);
	while (buf && pos < s->total) {
		size_t n = s->total - pos < s->wsize ? (size_t)(s->total - pos)
						     : s->wsize;

		pattern_fill(buf, n, pos);
		if (ring_write(&p, buf, n) != 0) {
			s->write_rc = -1;
			break;
		}
		pos += n;
	}
	free(buf);
	return NULL;
}

static void *stress_reader(void *arg)
{
	struct stress *s = arg;
	struct ring_port p;
	uint8_t *buf = malloc(s->rsize), *scratch = malloc(s->rsize);

	ring_port_init(&p, s->mem, s->cap, s->chunk, s->spin, false);
	while (buf && scratch && s->got < s->total) {
		ssize_t n = ring_read(&p, buf, s->rsize);

		if (n <= 0)
			break;
		pattern_check(buf, (size_t)n, s->got, scratch, &s->errs);
		s->got += (uint64_t)n;
	}
	free(buf);
	free(scratch);
	return NULL;
}

static void run_stress(size_t cap, size_t chunk, size_t wsize, size_t rsize,
		       unsigned spin, uint64_t total)
{
	struct stress s = {
		.cap = cap, .chunk = chunk, .wsize = wsize, .rsize = rsize,
		.spin = spin, .total = total,
	};
	pthread_t w, r;

	s.mem = ring_mem(cap);
	assert_int_equal(pthread_create(&r, NULL, stress_reader, &s), 0);
	assert_int_equal(pthread_create(&w, NULL, stress_writer, &s), 0);
	assert_int_equal(pthread_join(w, NULL), 0);
	assert_int_equal(pthread_join(r, NULL), 0);
	assert_int_equal(s.write_rc, 0);
	assert_int_equal(s.got, total);
	assert_int_equal(s.errs.bytes_checked, total);
	assert_int_equal(s.errs.lost, 0);
	assert_int_equal(s.errs.duplicated, 0);
	assert_int_equal(s.errs.corrupted, 0);
	free(s.mem);
}

/* Two threads, every byte checked: sizes that do not divide the ring. */
static void test_stress_two_threads(void **state)
{
	(void)state;
	run_stress(65536, 4096, 65536, 65536, 1000, 64u << 20);
	run_stress(65536, 4096, 100, 7, 100, 1u << 20);
	run_stress(4096, 1024, 3000, 5000, 0, 8u << 20);
	run_stress(61, 13, 97, 29, 0, 1u << 20);
	run_stress(1, 1, 3, 2, 10, 100000);
	run_stress(1000, 0, 12345, 777, 1000, 16u << 20);
}

/* A reader of a closed, empty ring gets -1; data before close survives. */
static void test_close(void **state)
{
	struct ring_port p;
	void *mem = ring_mem(16);
	uint8_t b[16] = "abcdef";

	(void)state;
	ring_port_init(&p, mem, 16, 0, 0, false);
	assert_int_equal(ring_write(&p, b, 6), 0);
	ring_close(&p);
	memset(b, 0, sizeof(b));
	assert_int_equal(ring_read(&p, b, sizeof(b)), 6);
	assert_memory_equal(b, "abcdef", 6);
	assert_int_equal(ring_read(&p, b, sizeof(b)), -1);
	assert_int_equal(ring_write(&p, b, 1), -1);
	assert_int_equal(ring_read(&p, b, 0), 0);
	free(mem);
}

struct closer {
	struct ring_port *p;
};

static void *close_later(void *arg)
{
	struct closer *c = arg;
	struct timespec ts = { 0, 20000000L };	/* 20 ms */

	nanosleep(&ts, NULL);
	ring_close(c->p);
	return NULL;
}

/* A writer asleep on a full ring is woken by close and returns -1. */
static void test_close_wakes_writer(void **state)
{
	struct ring_port p;
	struct closer c = { &p };
	void *mem = ring_mem(8);
	uint8_t b[32] = { 0 };
	pthread_t t;

	(void)state;
	ring_port_init(&p, mem, 8, 0, 0, false);
	assert_int_equal(pthread_create(&t, NULL, close_later, &c), 0);
	assert_int_equal(ring_write(&p, b, sizeof(b)), -1);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(atomic_load(&p.r->writer_sleeps) >= 1);
	free(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap_single_thread),
		cmocka_unit_test(test_stress_two_threads),
		cmocka_unit_test(test_close),
		cmocka_unit_test(test_close_wakes_writer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
