/*
 * run_options.h - the stored run options: how a run measured (the options
 * of `run` that shape every sample), as one record and one table.
 *
 * The record, struct run_options, is what the runner is handed (runner/
 * runner.h embeds it) and what the results model keeps (results/run.h).
 * The table, run_option_fields[], names each field once: its key in the
 * JSON "options" object (results/codec.c), its column of the runs table
 * (store/, which builds its statements from the table), its "run.*"
 * environment key (for telling two sides apart) and the kind of value it
 * holds.  So a new run option is a field and a row here, a migration that
 * adds its column (store/schema.c) and, where it should be read, a phrase
 * in the options line (report/run_options_print.c).
 */
#ifndef COPYSCOPE_RUN_OPTIONS_H
#define COPYSCOPE_RUN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct run_options {
	int reps;			/* kept samples per configuration */
	int64_t sample_time_ns;		/* target length of one sample */
	int64_t warmup_ns;		/* warm-up after the batch is sized */
	char cpus[256];			/* allowed CPUs as ranges, "0-1" */
	bool hist;			/* per-op histogram pass */
	bool interleave;		/* samples in shuffled round-robin */
	uint64_t interleave_seed;	/* of the shuffle, when interleave */
	unsigned kviews;		/* --kernel: KVIEW_* bits
					   (results/kview_table.h), 0 none */
	bool perf_counters;		/* counters from perf, not getrusage */
	bool hw_counters;		/* --hw-counters: the PMU's counts
					   around each kept sample */
	bool fresh_workers;		/* --fresh-workers: new workers
					   before each kept sample */
};

enum run_option_kind {
	RUN_OPTION_COUNT,	/* int >= 1; a JSON integer, an integer column */
	RUN_OPTION_NS,		/* int64_t >= 0 ns; likewise */
	RUN_OPTION_TEXT,	/* char[]; a JSON string, a text column */
	RUN_OPTION_FLAG,	/* bool; JSON true/false, a 0/1 column */
	/* interleave and interleave_seed: the seed, or null when not
	   interleaved; JSON an integer (the seed's 64 bits, signed), the
	   column decimal text */
	RUN_OPTION_SEED,
	/* kviews: "lock,sched" text; JSON always a string ("" none), the
	   column null when none, the environment key only when some */
	RUN_OPTION_VIEWS,
};

struct run_option_field {
	const char *name;	/* JSON key and column name */
	const char *env_key;	/* "run.NAME" */
	size_t offset;		/* in struct run_options */
	size_t size;		/* of the field (a text's buffer) */
	enum run_option_kind kind;
	/*
	 * A flag added after runs were first exported: absent from an
	 * export (or null) it reads as off, and its "run.*" key is there
	 * only when it is on, so that runs from before it and runs without
	 * it stay alike.
	 */
	bool optional;
};

extern const struct run_option_field run_option_fields[];
extern const size_t run_option_count;

/* A field's value as it is stored: null, an integer or text. */
struct run_option_value {
	enum { RUN_OPTION_NULL, RUN_OPTION_INT, RUN_OPTION_STR } type;
	int64_t i;
	char text[256];
};

/* Whether field f's column holds text (else an integer). */
bool run_option_text_column(const struct run_option_field *f);

/* Field f of o as its column holds it. */
void run_option_get(const struct run_options *o,
		    const struct run_option_field *f,
		    struct run_option_value *v);

/*
 * Set field f of o from its column's value v.  A value out of range or of
 * the wrong type: -1 with err naming the field.  A view this version does
 * not know is dropped (the run stays readable).
 */
int run_option_put(struct run_options *o, const struct run_option_field *f,
		   const struct run_option_value *v, char *err,
		   size_t errlen);

/*
 * Field f as "run.*" environment text into buf; false where the field
 * adds no key (no views).
 */
bool run_option_env_text(const struct run_options *o,
			 const struct run_option_field *f, char *buf,
			 size_t len);

/*
 * Check the table at start-up: names unique, every field of the record
 * covered once, sizes that fit run_option_value.  0, or -1 with err.
 */
int run_options_validate(char *err, size_t errlen);

#endif
