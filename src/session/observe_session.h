/*
 * observe_session.h - `copyscope observe` end to end: the host's environment
 * captured, the kernel side run (kernel/observe_attach.h), and the observation
 * stored as a run (its row, environment and observations row); and the
 * replay's half: an observation's pipe writes as pipe.mix's mix.
 */
#ifndef COPYSCOPE_SESSION_OBSERVE_H
#define COPYSCOPE_SESSION_OBSERVE_H

#include <stddef.h>

#include "kernel/observe_attach.h"
#include "results/observation.h"
#include "results/run.h"
#include "store/store.h"

struct session_observe {
	struct kobserve_request rq;
	const char *tag;		/* NULL: none */
	const char *cmdline;		/* stored with the run */
	struct store *store;		/* NULL: not stored */
};

/*
 * Observe as so asks: run gets the run (its info, id when stored, the
 * environment, the observation's JSON text), obs what was seen.  Free
 * both (run_data_free, observation_free) whatever is returned.  Returns
 * 0; 77 when nothing of the request can run here (why in obs->notes and
 * err); OBSERVE_NOT_STORED when the observation was made (run and obs
 * hold it) but the store did not keep it whole (err): the caller keeps
 * a copy to import; 1 on another failure (err).  An observation stopped
 * by *so->rq.stop before its duration is stored as "interrupted".
 */
#define OBSERVE_NOT_STORED 3
int session_observe(const struct session_observe *so, struct run_data *run,
		    struct observation *obs, char *err, size_t errlen);

/*
 * The mix text of `pipe.mix mix=observed:SPEC`: SPEC is a stored
 * observation's run id, optionally /COMM for one comm's writes only
 * (observation_mix_text()).  replayed gets what the run records: "ID
 * UUID" or "ID UUID COMM"; about (SESSION_REPLAY_ABOUT bytes) what the
 * run says of it: "ID (HOST, YYYY-MM-DD HH:MM UTC, COMM)", COMM "every
 * comm" without /COMM.  Returns 0, 2 when SPEC is wrong (no such run,
 * not an observation, no pipe writes; err says which), 1 on a store
 * error (err).
 */
#define SESSION_REPLAY_ABOUT 256
int session_observed_mix(struct store *st, const char *spec, char *mix,
			 size_t len, char *replayed, size_t rlen, char *about,
			 char *err, size_t errlen);

#endif
