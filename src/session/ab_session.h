/*
 * ab_session.h - a paired A/B run (`copyscope ab`): A, B and a control
 * A' of one workload opened together (workers started, batch sized, warmed up),
 * then kept samples in rounds, each round in a freshly shuffled order
 * (the session's interleaved mode; the seed is stored), judged pair by
 * pair over the rounds (comparison/ab_verdict.h).
 *
 * Runtime kernel settings can differ between the sides: files under
 * /proc/sys (--a-sysctl vm.swappiness=10) and under
 * /sys/kernel/mm/transparent_hugepage (--a-thp enabled=never).  A side's
 * values are written before its configuration is opened and before each
 * of its samples whenever the side changes, outside the timed window;
 * keys only one side sets keep their original value on the other side.
 * Every setting is checked before anything is measured (it exists, it
 * can be written, both sides' values are accepted: each is written once
 * and the original put back), and the original values are restored at
 * the end, on error, on SIGINT/SIGTERM/SIGHUP (any number of them: the
 * handler only sets a flag), on every other terminating signal and at
 * exit; a host-wide lock and journal per file cover the rest
 * (session/settings.h).
 */
#ifndef COPYSCOPE_SESSION_AB_H
#define COPYSCOPE_SESSION_AB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "comparison/ab_verdict.h"
#include "comparison/profile_diff.h"
#include "core/param.h"
#include "session/session.h"
#include "session/settings.h"
#include "stats/paired.h"

/* The most samples a side of a paired A/B takes (the paired tests'). */
#define AB_SESSION_MAX_N PAIRED_MAX_N

/* Defaults: one call takes a few seconds. */
#define AB_DEFAULT_ROUNDS 40
#define AB_DEFAULT_SAMPLE_NS 10000000LL		/* 10 ms */
#define AB_DEFAULT_WARMUP_NS 100000000LL	/* 100 ms */
/* --precision: the first look, and the default time limit */
#define AB_PRECISION_FIRST_LOOK 20
#define AB_DEFAULT_MAX_NS 60000000000LL		/* 60 s */

struct ab_spec {
	const struct workload *wl;
	struct param_request req[2];	/* A (and A'), B */
	bool side_set[2][PARAM_MAX];	/* keys given for a side */
	bool common_set[PARAM_MAX];	/* keys given for both */
	struct ab_settings settings;	/* kernel settings of the sides */
	int rounds;			/* fixed rounds, or the most with
					   --precision */
	bool rounds_given;		/* --rounds was given */
	double precision_pct;		/* 0: off */
	int64_t max_time_ns;		/* --precision's limit */
	struct ab_opts stats;
	struct session_spec session;	/* reps, times, CPUs, store, tag */
};

/*
 * Fill spec with the defaults (AB_DEFAULT_*, the session's CPUs, alpha
 * 0.05, the noise band of AB_DEFAULT_NOISE_PCT), no workload yet.
 */
void ab_spec_init(struct ab_spec *spec);

/*
 * Set the workload (both sides at its defaults) before any
 * ab_spec_apply().  Returns 0, or -1 with the reason in err.
 */
int ab_spec_workload(struct ab_spec *spec, const struct workload *wl,
		     char *err, size_t errlen);

/*
 * Apply "KEY=VALUE" to both sides (side -1), or a comma list
 * "K=V[,K=V...]" to side 0 (A) or 1 (B).  A key the workload does not
 * know, a key given twice for one side (also once for both and once for
 * the side), or a value that is not one value, gives -1 with a message
 * naming the key.
 */
int ab_spec_apply(struct ab_spec *spec, int side, const char *text,
		  char *err, size_t errlen);

/*
 * Add "KEY=VALUE" as a setting of side (0 A, 1 B): a sysctl key
 * (vm.swappiness, or vm/swappiness) or a THP file name (enabled,
 * defrag, shmem_enabled, khugepaged/defrag).  Checks the key's form only;
 * ab_settings_acquire() checks the files.  Returns 0 or -1 with err.
 */
int ab_setting_add(struct ab_spec *spec, enum ab_setting_kind kind, int side,
		   const char *text, char *err, size_t errlen);

/*
 * The parameters both sides share (neither --a nor --b sets them), with
 * their values: "call=preadv target=zero trace=0 inject_ns=0".
 */
void ab_shared_text(const struct ab_spec *spec, char *buf, size_t len);

/* A side's parameters that differ from the other's, "segs=9", into buf. */
void ab_side_text(const struct ab_spec *spec, int side, char *buf,
		  size_t len);

/*
 * Record the ab run in its environment (stored, exported and pushed with
 * it): AB_ENV_ROLES and the sides, settings, alpha, noise band, looks,
 * --drop-noisy and --precision, as ab.* keys (comparison/ab_verdict.h
 * reads them back).  Returns 0, or -1 on ENOMEM.
 */
int ab_env_add(const struct ab_spec *spec, struct env *env, int looks);

/* What an ab run produced. */
struct ab_outcome {
	struct session_result session;	/* the run and its results */
	struct ab_analysis analysis;
	int looks;			/* tests taken while adding rounds */
	bool precision_met;
	double precision_reached_pct;	/* the primary metric's CI
					   half-width at the end */
	int64_t elapsed_ns;
	/* --kernel profile: the paired diff of the profiles of A and B
	   beside A' (comparison/profile_diff.h) */
	bool profiled;
	struct pdiff pdiff;
};

/*
 * Validate, run and judge spec: session_check(), the rounds (with the
 * settings written for each side, restored at the end whatever
 * happens), then ab_analyze(), and with spec->session.ro.stored.kviews
 * the profile view (each of A, B and A' profiled in a traced sample after
 * each of its kept ones) pdiff_ab() into out->pdiff.  Returns the exit code (0, 1, 2, 77,
 * 130); out is always filled (free with ab_outcome_free()).
 */
int ab_run(struct ab_spec *spec, struct ab_outcome *out, char *err,
	   size_t errlen);

void ab_outcome_free(struct ab_outcome *out);

/* Free what spec holds (the settings' originals; releases them if
   held). */
void ab_spec_free(struct ab_spec *spec);

#endif
