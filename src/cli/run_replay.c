/*
 * run_replay.c - `run pipe.mix mix=observed:ID[/COMM]` (run_replay.h):
 * an observation of a live host replayed in the lab.  The workload never
 * sees the store: the reference becomes an explicit mix text here, before
 * the parameters are parsed, so the run stores that text as its mix (it
 * can be rerun without the observation) and records the observation it
 * came from in its environment (replay.observation).
 */
#include "cli/run_replay.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "session/observe_session.h"

int cli_run_replay(const char *db, const char **assign, size_t n, char *buf,
		   size_t len, char *replayed, size_t rlen)
{
	static const char key[] = "mix=observed:";
	struct store *st;
	char path[4096], err[512], about[SESSION_REPLAY_ABOUT];
	size_t i;
	int e;

	replayed[0] = '\0';
	for (i = 0; i < n; i++)
		if (strncmp(assign[i], key, sizeof(key) - 1) == 0)
			break;
	if (i == n)
		return 0;
	e = cli_open_store(db, &st, path, sizeof(path));
	if (e)
		return e;
	snprintf(buf, len, "mix=");
	e = session_observed_mix(st, assign[i] + sizeof(key) - 1, buf + 4,
				 len - 4, replayed, rlen, about, err,
				 sizeof(err));
	store_close(st);
	if (e == 2)
		return cli_usage("run", "%s ('copyscope runs' lists the "
				 "stored runs; observe makes observations)",
				 err);
	if (e) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	assign[i] = buf;
	fprintf(stderr, "copyscope: replaying observation %s\n", about);
	return 0;
}
