/*
 * record.c - fixed-size self-checking records and their checker (see
 * record.h).
 */
#include "workloads/record.h"

#include <stdlib.h>
#include <string.h>

#define OFF_MAGIC 0
#define OFF_WRITER 4
#define OFF_SEQ 8
#define OFF_LEN 16
#define OFF_ZERO 20
#define OFF_SUM 24

/* splitmix64's finalizer: a bijection on 64 bits with full avalanche. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	x ^= x >> 31;
	return x;
}

static uint64_t rotl64(uint64_t x, unsigned int r)
{
	return (x << r) | (x >> (64 - r));
}

/*
 * Checksum of a record with its checksum field taken as 0.  Each step
 * h = rotl(h ^ w, 27) * odd is a bijection of h for a fixed word w and of
 * w for a fixed h, so a record that differs from the sent one in a single
 * 8-byte word always has a different checksum; more changes collide with
 * probability about 2^-64.  The length is folded in first.
 */
static uint64_t record_sum(const uint8_t *rec, size_t len)
{
	uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ len, w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		if (i == OFF_SUM)
			w = 0;
		else
			memcpy(&w, rec + i, 8);
		h = rotl64(h ^ w, 27) * UINT64_C(0x100000001b3);
	}
	if (i < len) {
		w = 0;
		memcpy(&w, rec + i, len - i);
		h = rotl64(h ^ w, 27) * UINT64_C(0x100000001b3);
	}
	return mix64(h);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

void record_fill(uint8_t *buf, size_t len, uint32_t writer, uint64_t seq)
{
	uint64_t seed = mix64(((uint64_t)writer << 40) ^ seq ^
			      ((uint64_t)RECORD_MAGIC << 20));
	uint32_t magic = RECORD_MAGIC, len32 = (uint32_t)len, zero = 0;
	uint64_t sum, w, k = 0;
	size_t i;

	memcpy(buf + OFF_MAGIC, &magic, 4);
	memcpy(buf + OFF_WRITER, &writer, 4);
	memcpy(buf + OFF_SEQ, &seq, 8);
	memcpy(buf + OFF_LEN, &len32, 4);
	memcpy(buf + OFF_ZERO, &zero, 4);
	memset(buf + OFF_SUM, 0, 8);
	for (i = RECORD_HDR_BYTES; i + 8 <= len; i += 8) {
		w = mix64(seed + k++);
		memcpy(buf + i, &w, 8);
	}
	if (i < len) {
		w = mix64(seed + k);
		memcpy(buf + i, &w, len - i);
	}
	sum = record_sum(buf, len);
	memcpy(buf + OFF_SUM, &sum, 8);
}

size_t record_seen_bytes(uint32_t nwriters, uint64_t max_seq)
{
	return (size_t)nwriters * (size_t)((max_seq + 63) / 64) *
	       sizeof(uint64_t);
}

void record_seen_view(struct record_seen *s, void *mem, uint32_t nwriters,
		      uint64_t max_seq, uint64_t nseq)
{
	s->nwriters = nwriters;
	s->nseq = nseq < max_seq ? nseq : max_seq;
	s->words_per_writer = (size_t)((max_seq + 63) / 64);
	s->bits = mem;
}

uint64_t record_seen_lost(const struct record_seen *s)
{
	uint64_t lost = 0, seen;
	uint32_t wr;
	size_t k, full = (size_t)(s->nseq / 64);

	for (wr = 0; wr < s->nwriters; wr++) {
		_Atomic uint64_t *b = s->bits + wr * s->words_per_writer;

		seen = 0;
		for (k = 0; k < full; k++)
			seen += (uint64_t)__builtin_popcountll(
				atomic_load(&b[k]));
		if (s->nseq % 64)
			seen += (uint64_t)__builtin_popcountll(
				atomic_load(&b[full]) &
				((UINT64_C(1) << (s->nseq % 64)) - 1));
		lost += s->nseq - seen;
	}
	return lost;
}

int record_reader_init(struct record_reader *rd, uint32_t nwriters,
		       size_t len)
{
	uint32_t i;

	memset(rd, 0, sizeof(*rd));
	rd->nwriters = nwriters;
	rd->len = len;
	rd->last_seq = calloc(nwriters ? nwriters : 1, sizeof(uint64_t));
	rd->partial = malloc(len);
	if (!rd->last_seq || !rd->partial) {
		record_reader_free(rd);
		return -1;
	}
	for (i = 0; i < nwriters; i++)
		rd->last_seq[i] = UINT64_MAX;
	rd->counts.first_writer = UINT32_MAX;
	return 0;
}

void record_reader_free(struct record_reader *rd)
{
	free(rd->last_seq);
	free(rd->partial);
	rd->last_seq = NULL;
	rd->partial = NULL;
}

static enum record_status note(struct record_reader *rd,
			       enum record_status st, uint32_t writer,
			       uint64_t seq)
{
	struct record_counts *c = &rd->counts;

	switch (st) {
	case RECORD_CORRUPTED:
		c->corrupted++;
		break;
	case RECORD_DUPLICATED:
		c->duplicated++;
		break;
	case RECORD_REORDERED:
		c->reordered++;
		break;
	case RECORD_OK:
		return st;
	}
	if (c->first == RECORD_OK) {
		c->first = st;
		c->first_writer = writer;
		c->first_seq = seq;
	}
	return st;
}

enum record_status record_check(struct record_reader *rd,
				struct record_seen *s, const uint8_t *rec)
{
	uint32_t writer = get32(rec + OFF_WRITER);
	uint64_t seq = get64(rec + OFF_SEQ), bit, old;
	_Atomic uint64_t *word;

	rd->counts.checked++;
	if (get32(rec + OFF_MAGIC) != RECORD_MAGIC ||
	    get32(rec + OFF_LEN) != rd->len || get32(rec + OFF_ZERO) != 0 ||
	    writer >= rd->nwriters || writer >= s->nwriters ||
	    seq >= s->nseq || get64(rec + OFF_SUM) != record_sum(rec, rd->len))
		return note(rd, RECORD_CORRUPTED, UINT32_MAX, 0);
	word = s->bits + writer * s->words_per_writer + seq / 64;
	bit = UINT64_C(1) << (seq % 64);
	old = atomic_fetch_or(word, bit);
	if (old & bit)
		return note(rd, RECORD_DUPLICATED, writer, seq);
	if (rd->last_seq[writer] != UINT64_MAX &&
	    seq < rd->last_seq[writer])
		return note(rd, RECORD_REORDERED, writer, seq);
	rd->last_seq[writer] = seq;
	return RECORD_OK;
}

void record_feed(struct record_reader *rd, struct record_seen *s,
		 const uint8_t *data, size_t n)
{
	while (n > 0) {
		size_t take;

		if (rd->have == 0 && n >= rd->len) {
			record_check(rd, s, data);
			data += rd->len;
			n -= rd->len;
			continue;
		}
		take = rd->len - rd->have;
		if (take > n)
			take = n;
		memcpy(rd->partial + rd->have, data, take);
		rd->have += take;
		data += take;
		n -= take;
		if (rd->have == rd->len) {
			record_check(rd, s, rd->partial);
			rd->have = 0;
		}
	}
}

bool record_reader_finish(struct record_reader *rd)
{
	if (rd->have == 0)
		return false;
	rd->counts.checked++;
	note(rd, RECORD_CORRUPTED, UINT32_MAX, 0);
	rd->have = 0;
	return true;
}

void record_counts_add(struct record_counts *total,
		       const struct record_counts *c)
{
	total->checked += c->checked;
	total->corrupted += c->corrupted;
	total->duplicated += c->duplicated;
	total->reordered += c->reordered;
	if (total->first == RECORD_OK && c->first != RECORD_OK) {
		total->first = c->first;
		total->first_writer = c->first_writer;
		total->first_seq = c->first_seq;
	}
}

const char *record_status_name(enum record_status st)
{
	switch (st) {
	case RECORD_OK:
		return "ok";
	case RECORD_CORRUPTED:
		return "corrupted";
	case RECORD_DUPLICATED:
		return "duplicated";
	case RECORD_REORDERED:
		return "reordered";
	}
	return "?";
}
