/*
 * outfile.c - what export and report share: the runs their arguments
 * name, and their -o FILE, written to a temporary file beside it and
 * renamed into place when complete, so that a failure half way (a full
 * disk, an interrupt) never leaves half a file under the name asked for,
 * and an older file of that name stays until then.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

int cli_out_open(const char *cmd, const char *path, struct cli_out *o)
{
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	if (!*path)
		return cli_usage(cmd, "-o: empty file name");
	o->path = strdup(path);
	o->tmp = malloc(strlen(path) + 16);
	if (!o->path || !o->tmp) {
		free(o->path);
		free(o->tmp);
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	snprintf(o->tmp, strlen(path) + 16, "%s.tmp.XXXXXX", path);
	fd = mkstemp(o->tmp);
	if (fd >= 0) {
		/* mkstemp makes it 0600: the file gets what a new file gets */
		mode_t mask = umask(0);

		umask(mask);
		(void)fchmod(fd, 0666 & ~mask);
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->path);
		free(o->tmp);
		return cli_usage(cmd, "-o: cannot write '%s': %s", path,
				 strerror(e));
	}
	return 0;
}

int cli_out_close(struct cli_out *o, bool ok)
{
	int rc = EXIT_OK;

	if (o->f == stdout) {
		if (fflush(stdout) != 0 || ferror(stdout)) {
			cli_error("cannot write the output: %s",
				  strerror(errno));
			rc = EXIT_FAIL;
		}
		return ok ? rc : EXIT_FAIL;
	}
	if (ok && (fflush(o->f) != 0 || ferror(o->f) ||
		   fsync(fileno(o->f)) != 0)) {
		cli_error("cannot write '%s': %s", o->path, strerror(errno));
		ok = false;
	}
	if (fclose(o->f) != 0 && ok) {
		cli_error("cannot write '%s': %s", o->path, strerror(errno));
		ok = false;
	}
	if (ok && rename(o->tmp, o->path) != 0) {
		cli_error("cannot rename '%s' to '%s': %s", o->tmp, o->path,
			  strerror(errno));
		ok = false;
	}
	if (!ok) {
		unlink(o->tmp);
		rc = EXIT_FAIL;
	}
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return rc;
}

int cli_load_runs(struct store *st, const char *cmd, char **args, size_t n,
		  struct cmp_side *side)
{
	size_t i, len = 1;
	char *spec;
	int e;

	for (i = 0; i < n; i++)
		len += strlen(args[i]) + 1;
	spec = calloc(1, len);
	if (!spec) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	/* a tag never holds a ',': the arguments join into one list */
	for (i = 0; i < n; i++) {
		if (i)
			strcat(spec, ",");
		strcat(spec, args[i]);
	}
	e = cli_load_side(st, cmd, spec, side);
	free(spec);
	return e;
}
