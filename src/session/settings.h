/*
 * settings.h - the runtime kernel settings that ab changes (files under
 * /proc/sys and /sys/kernel/mm/transparent_hugepage), and the promise
 * that they always come back.
 *
 * One file, one owner: a setting is known by its resolved file (the key
 * normalised, vm.swappiness and vm/swappiness are one setting; empty and
 * "." components refused; two keys naming one device and inode refused),
 * and a host-wide lock per file (an fcntl write lock on a file under the
 * run directory, /run/copyscope or $COPYSCOPE_RUN_DIR) makes a second
 * copyscope that wants the same file exit 2 naming the process that holds
 * it.  The lock file is also the setting's journal: before the first
 * change it holds the owner's pid, boot and command and the original value
 * (of any length); it is emptied once the original is back.  A journal
 * whose lock nobody holds was left by a copyscope that died (kill -9, a
 * crash): ab_settings_recover(), called before every command, writes its
 * original back and says so.  While settings are changed, SIGINT, SIGTERM
 * and SIGHUP stop the run (the runner's handlers; the end restores), and
 * every other catchable signal whose default ends the process (SIGQUIT,
 * SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO,
 * SIGPWR, SIGSYS, SIGSTKFLT and the real-time signals) writes the
 * originals back, empties the journals and then ends the process as the
 * signal would have.  exit() restores too (atexit).
 */
#ifndef COPYSCOPE_SESSION_SETTINGS_H
#define COPYSCOPE_SESSION_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define AB_MAX_SETTINGS 16
#define AB_KEY_MAX 200		/* a key's characters, and one more */
#define AB_VALUE_MAX 4096	/* a side's value, and one more */
#define AB_PATH_MAX 512

enum ab_setting_kind { AB_SYSCTL, AB_THP };

/* One runtime setting that a side changes. */
struct ab_setting {
	enum ab_setting_kind kind;
	char key[AB_KEY_MAX];		/* as first given: "vm.swappiness",
					   "enabled" (THP) */
	char path[AB_PATH_MAX];		/* the file, resolved once checked */
	bool set[2];			/* side A, side B */
	char value[2][AB_VALUE_MAX];
	char *original;			/* any length; NULL until read */
	int written;			/* -1 none yet, 0 A's, 1 B's, 2 the
					   original */
	int lock_fd;			/* the lock and journal, or -1 */
	dev_t dev;
	ino_t ino;
};

/* The settings of one ab run. */
struct ab_settings {
	struct ab_setting v[AB_MAX_SETTINGS];
	size_t n;
};

/*
 * Add "KEY=VALUE" as a setting of side (0 A, 1 B): a sysctl key
 * (vm.swappiness, or vm/swappiness) or a THP file name (enabled,
 * defrag, shmem_enabled, khugepaged/defrag).  Two spellings of one file
 * are one setting.  Checks the key's form only; ab_settings_acquire()
 * checks the files.  Returns 0 or -1 with err.
 */
int ab_settings_add(struct ab_settings *ss, enum ab_setting_kind kind,
		    int side, const char *text, char *err, size_t errlen);

/*
 * Take every setting for this process before measuring: the file is
 * resolved (a directory, a missing file, or a second name of a file
 * already given is refused), locked host-wide (held by another process:
 * refused, naming it), a journal left by a dead owner restored, the
 * original read and journaled with command (the owner's command line),
 * and each side's value written once and the original written back.
 * Nothing is left changed.  Returns 0, or -1 with the reason in err;
 * on -1 nothing is held.
 */
int ab_settings_acquire(struct ab_settings *ss, const char *command,
			char *err, size_t errlen);

/* Write side's values (the original where the side sets none): 0, or
   -1 after a message. */
int ab_settings_apply(struct ab_settings *ss, int side);

/* Write every changed setting's original back (idempotent). */
void ab_settings_restore(struct ab_settings *ss);

/*
 * Restore, then empty the journals of the settings that came back and
 * release the locks; a journal whose original could not be written back
 * stays for the next command to retry.  Idempotent.
 */
void ab_settings_release(struct ab_settings *ss);

/* Release (if held) and free the originals. */
void ab_settings_free(struct ab_settings *ss);

/*
 * The settings of side as "vm.swappiness=10 (was 60), thp:enabled=never
 * (was always)" in a new string (the caller frees it; "" when the side
 * sets none), or NULL on ENOMEM.
 */
char *ab_settings_text(const struct ab_settings *ss, int side);

/*
 * Find the journals in the run directory that no live process holds,
 * write their originals back and say so on stderr (one line each; a
 * journal of an earlier boot is dropped: the kernel started afresh).
 * Without the right to do it (not root), say that a root copyscope
 * will.  Returns the number of settings restored.
 */
int ab_settings_recover(void);

#endif
