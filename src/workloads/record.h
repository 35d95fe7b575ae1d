/*
 * record.h - fixed-size self-checking records for verifying a pipe shared
 * by several writers and readers (DESIGN §5, verification).
 *
 * A record is `len` bytes (at least RECORD_HDR_BYTES): a 32-byte header
 *
 *   offset  0  u32  magic RECORD_MAGIC
 *           4  u32  writer id
 *           8  u64  sequence number (per writer, from 0)
 *          16  u32  record length in bytes
 *          20  u32  zero
 *          24  u64  checksum of the whole record, this field taken as 0
 *
 * (little-endian, as the machine writes it) followed by a payload that is a
 * function of (writer, sequence), so that a record carries everything
 * needed to check it.  A record whose checksum, magic, length, writer id or
 * sequence range is wrong is corrupted; its header cannot be trusted, so
 * its sequence number also stays unseen (and counts as lost).
 *
 * Checking is split in two:
 *   - struct record_seen: one bitmap per writer of the sequence numbers
 *     seen by any reader, updated with atomic operations so that it may
 *     live in memory shared by reader threads or processes; memory that is
 *     all zero is an empty set.  What no reader saw is lost; a record seen
 *     twice (by one reader or two) is duplicated.
 *   - struct record_reader: one reader's state: the last sequence number
 *     it saw from each writer (a pipe is FIFO and each writer sends in
 *     order, so one reader must see each writer's records in increasing
 *     order: a smaller one is reordered), its counts, and a buffer that
 *     joins a record split across two reads.
 */
#ifndef COPYSCOPE_RECORD_H
#define COPYSCOPE_RECORD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RECORD_HDR_BYTES 32
#define RECORD_MAGIC UINT32_C(0x43535243)	/* "CRSC" in memory */

enum record_status {
	RECORD_OK,
	RECORD_CORRUPTED,
	RECORD_DUPLICATED,
	RECORD_REORDERED,
};

/* Sequence numbers seen, per writer (see above). */
struct record_seen {
	uint32_t nwriters;
	uint64_t nseq;			/* records expected per writer */
	size_t words_per_writer;	/* bitmap stride, 64-bit words */
	_Atomic uint64_t *bits;
};

struct record_counts {
	uint64_t checked;		/* records examined */
	uint64_t corrupted, duplicated, reordered;
	/* the first error this reader found */
	enum record_status first;
	uint32_t first_writer;		/* UINT32_MAX: unknown (corrupted) */
	uint64_t first_seq;
};

struct record_reader {
	uint32_t nwriters;
	size_t len;			/* record length */
	uint64_t *last_seq;		/* per writer; UINT64_MAX: none yet */
	uint8_t *partial;		/* len bytes: a record being joined */
	size_t have;			/* bytes in partial */
	struct record_counts counts;
};

/* Bytes of bitmap for nwriters writers of at most max_seq records each. */
size_t record_seen_bytes(uint32_t nwriters, uint64_t max_seq);

/*
 * Make s a view of the bitmap at mem (record_seen_bytes(nwriters,
 * max_seq) bytes, zero for an empty set) expecting nseq <= max_seq
 * records per writer.  Every reader makes its own view of the same
 * memory.
 */
void record_seen_view(struct record_seen *s, void *mem, uint32_t nwriters,
		      uint64_t max_seq, uint64_t nseq);

/* Records expected but seen by no reader, over all writers. */
uint64_t record_seen_lost(const struct record_seen *s);

/*
 * Write record (writer, seq) of len bytes (len >= RECORD_HDR_BYTES) into
 * buf.
 */
void record_fill(uint8_t *buf, size_t len, uint32_t writer, uint64_t seq);

/*
 * Set up a reader for records of len bytes from nwriters writers.
 * Returns 0, or -1 when memory cannot be allocated.
 */
int record_reader_init(struct record_reader *rd, uint32_t nwriters,
		       size_t len);
void record_reader_free(struct record_reader *rd);

/*
 * Check one whole record of rd->len bytes against the shared set s and
 * the reader's own order; count it.  Returns what it found.
 */
enum record_status record_check(struct record_reader *rd,
				struct record_seen *s, const uint8_t *rec);

/*
 * Feed n bytes just read: records are checked as they complete; a record
 * split across two feeds is joined first.
 */
void record_feed(struct record_reader *rd, struct record_seen *s,
		 const uint8_t *data, size_t n);

/*
 * End of the stream for this reader: a partial record left over counts as
 * corrupted.  Returns true if there was one.
 */
bool record_reader_finish(struct record_reader *rd);

/* Add a reader's counts into total (keeping total's first error if any). */
void record_counts_add(struct record_counts *total,
		       const struct record_counts *c);

/* Name of a status ("corrupted", ...). */
const char *record_status_name(enum record_status st);

#endif
