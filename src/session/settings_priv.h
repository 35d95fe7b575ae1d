/*
 * settings_priv.h - what settings.c and settings_journal.c share: writing
 * a setting's file, the run directory, the per-file lock and journal.
 */
#ifndef COPYSCOPE_SESSION_SETTINGS_PRIV_H
#define COPYSCOPE_SESSION_SETTINGS_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "session/settings.h"

#define SYSCTL_DIR "/proc/sys/"
#define THP_DIR "/sys/kernel/mm/transparent_hugepage/"
/* an original longer than this is not a setting ab can restore */
#define ORIGINAL_MAX (1u << 20)

/*
 * Write value to the file at path (an empty value as an empty line); 0
 * or -1 with errno.  Only async-signal-safe calls: the signal handler
 * uses it.
 */
int settings_write_path(const char *path, const char *value);

/*
 * Check (with create, first make) the run directory: a directory of
 * this user that nobody else may write.  0, or -1 with the reason in err.
 */
int settings_run_dir_check(bool create, char *err, size_t errlen);

/* The journal (and lock) file of the resolved setting file, into out:
   RUN_DIR/proc+sys+vm+swappiness.setting. */
void settings_journal_path(const char *file, char *out, size_t len);

/* A regular file under SYSCTL_DIR or THP_DIR once every link is
   resolved, and path is that resolved name already. */
bool settings_restorable_path(const char *path);

/* Lock fd for writing without waiting: 0, or -1 with the holder's pid
   in *holder (0 when unknown). */
int settings_lock(int fd, pid_t *holder);

/*
 * A journal whose lock this process holds, left by another process:
 * write its original back and say so on stderr.  1 restored, 0 nothing
 * to do (empty, this process's own, of an earlier boot), -1 a journal
 * that cannot be used or an original that cannot be written (said; the
 * journal stays).
 */
int settings_recover_locked(int fd, const char *name);

/* Who holds journal fd (pid holder), "copyscope pid N (COMMAND)", into
   buf. */
void settings_describe_holder(int fd, pid_t holder, char *buf, size_t len);

/* Write st's journal (pid, boot, key, file, command, original) to its
   lock file, synced: 0 or -1 with errno. */
int settings_journal_write(const struct ab_setting *st, const char *command);

/* Empty a journal: its setting is back. */
void settings_journal_clear(int fd);

#endif
