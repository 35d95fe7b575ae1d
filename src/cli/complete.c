/*
 * complete.c - `copyscope __complete KIND [--db PATH|URL]`: the words
 * bash completion (completion/copyscope.bash) offers that only the
 * program knows, one a line (session_complete()).  Hidden, as
 * __options is: for the completion script, not for people.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "session/complete_session.h"
#include "store/store.h"

int cli_complete(int argc, char **argv)
{
	const char *db = NULL;
	struct store *st = NULL;
	char path[1024];
	bool absent = false;
	int rc;

	if (argc == 4 && strcmp(argv[2], "--db") == 0)
		db = argv[3];
	else if (argc != 2) {
		cli_error("__complete: usage: copyscope __complete KIND "
			  "[--db PATH|URL], KIND one of "
			  SESSION_COMPLETE_KINDS);
		return EXIT_USAGE;
	}
	/* a store only where the words come from one */
	if ((strcmp(argv[1], "runs") == 0 || strcmp(argv[1], "mix") == 0) &&
	    cli_open_existing_store(db, &st, path, sizeof(path), &absent))
		return EXIT_USAGE;
	rc = session_complete(argv[1], st, stdout);
	if (st)
		store_close(st);
	if (rc == 2)
		cli_error("__complete: no kind '%s' (%s)", argv[1],
			  SESSION_COMPLETE_KINDS);
	if (rc == 0 && fflush(stdout) != 0)
		rc = 1;
	return rc == 2 ? EXIT_USAGE : rc ? EXIT_FAIL : EXIT_OK;
}
