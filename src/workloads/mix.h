/*
 * mix.h - write-size mixes for pipe.mix: the mix syntax, its parser, the
 * named presets, the size classes that latencies are reported by, and the
 * seeded table of sizes the writers cycle through.
 *
 * Syntax: entries separated by ',' or '+' ('+' is the form to use inside
 * one command-line value, where a comma starts a sweep), each
 *   SIZE:WEIGHT       every write of this entry is SIZE bytes
 *   LO-HI:WEIGHT      sizes uniform in LO..HI bytes, both ends included
 * SIZE, LO and HI take k/M/G suffixes (1024-based) and lie in
 * 1 .. MIX_MAX_SIZE; WEIGHT is a decimal number > 0.  Weights are relative
 * (they need not sum to 100): an entry's share of the writes is its weight
 * over the sum of all weights.
 * e.g. pipe.mix's fleet preset:
 *   1-127:98,128-4095:0.4,4k-8191:0.72,8k-16383:0.5,32k-65535:0.3,
 *   64k-72k:0.08
 */
#ifndef COPYSCOPE_MIX_H
#define COPYSCOPE_MIX_H

#include <stddef.h>
#include <stdint.h>

#define MIX_MAX_ENTRIES 16
#define MIX_MAX_SIZE (1u << 20)	/* largest write of a mix: 1 MiB */
#define MIX_MAX_TEXT 1024	/* longest mix text accepted: 16 entries
				   of counts up to 13 digits, an
				   observation's replayed */

struct mix_entry {
	uint32_t lo_bytes, hi_bytes;	/* inclusive; lo == hi: one size */
	double weight;
};

struct mix {
	struct mix_entry e[MIX_MAX_ENTRIES];
	size_t n;
	double total_weight;
	uint32_t max_bytes;		/* largest size any entry gives */
};

/*
 * Parse a mix.  Returns 0, or -1 with a message in err that names the
 * offending entry by number and text and says what is allowed, e.g.
 *   "entry 2 '4k-2k:1': low end 4096 is above high end 2048"
 */
int mix_parse(const char *text, struct mix *m, char *err, size_t errlen);

/* A named mix: name and its text in the syntax above. */
struct mix_preset {
	const char *name;
	const char *text;
	const char *help;
};

/* The presets, in the order of pipe.mix's `mix` parameter choices. */
extern const struct mix_preset mix_presets[];
extern const size_t mix_npresets;

/*
 * Size classes latencies are reported by: <128 B, 128 B-4 KiB, 4-8 KiB,
 * 8 KiB and up (lower bounds included: 4096 is in class 2).
 */
#define MIX_NCLASSES 4
extern const char *const mix_class_names[MIX_NCLASSES];

/* Class index (0 .. MIX_NCLASSES-1) of a write of `bytes`. */
int mix_class_of(uint64_t bytes);

/*
 * Share (0..1) of the writes of m that fall into class `cls`, from the
 * weights (entries that straddle a class boundary are split by the number
 * of sizes on each side, as uniform draws are).
 */
double mix_class_share(const struct mix *m, int cls);

/*
 * Fill sizes[0..n) with write sizes drawn from m, reproducibly from seed:
 * each entry gets its share of the n slots exactly (largest-remainder
 * rounding, at least one slot for every entry when n allows), each slot a
 * size uniform in its entry's range, then the slots are shuffled.
 * Returns 0, or -1 when n is smaller than the number of entries.
 */
int mix_fill_table(const struct mix *m, uint64_t seed, uint32_t *sizes,
		   size_t n);

/* splitmix64: the next value of the generator whose state is *state. */
uint64_t mix_rand_next(uint64_t *state);

#endif
