/*
 * run.h - one run as the results model holds it: who measured what, when,
 * how (the run options, typed) and with which outcome; with its
 * environment and results (results/result.h) when loaded whole.
 */
#ifndef COPYSCOPE_RUN_H
#define COPYSCOPE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "env/env.h"
#include "results/result.h"
#include "results/run_options.h"

struct run_info {
	int64_t id;			/* 0: not stored */
	int64_t started_ns, finished_ns;	/* CLOCK_REALTIME, 0 unset */
	char tag[128];
	char host[128];
	char boot_id[64];
	char tool_version[64];
	char build_flavour[32];		/* "release", "sanitize", "debug" */
	char *cmdline;			/* owned */
	char status[16];		/* running, complete, interrupted,
					   failed */
	int nresults;			/* filled when listing */
	char kernel[96];		/* kernel.release, filled when listing
					   or loading */
	int64_t pid;			/* the measuring process; 0 unknown */
	char uuid[40];			/* globally unique: 32 hex digits,
					   given when first stored */
	char group_id[40];		/* shared by the runs of one
					   `run --runs N`; "" alone */
	bool have_options;		/* false for runs stored before the
					   options were */
	struct run_options opts;
};

/* A run loaded whole. */
struct run_data {
	struct run_info info;
	struct env env;
	struct result_set results;
	char *observation;		/* `observe`: its JSON text (owned;
					   NULL for a measured run) */
};

/*
 * Append the run's options to out as key/value text (each field's
 * "run.*" key of results/run_options.h), for printing and for telling two
 * sides apart.  Nothing for a run without options.  Returns 0 or -1
 * (ENOMEM).
 */
int run_options_env(const struct run_info *run, struct env *out);

/* Free what info owns (its cmdline) and zero it. */
void run_info_free(struct run_info *info);
void run_data_free(struct run_data *run);

#endif
