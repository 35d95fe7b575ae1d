/*
 * initramfs.c - the guest of `copyscope boot`: its /init script and the
 * initramfs (a cpio "newc" archive, written with libarchive) that holds
 * it with busybox-static and a static copyscope.  The archive is built in
 * memory order from the files as they are: nothing is staged on disk, and
 * /dev/console is written as a device node without needing root.
 */
#include <archive.h>
#include <archive_entry.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "util/array.h"

char *boot_shell_quote(const char *s)
{
	size_t n = 3, i, o = 0;
	char *q;

	for (i = 0; s[i]; i++)
		n += s[i] == '\'' ? 4 : 1;
	q = malloc(n);
	if (!q)
		return NULL;
	q[o++] = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(q + o, "'\\''", 4);
			o += 4;
		} else {
			q[o++] = s[i];
		}
	}
	q[o++] = '\'';
	q[o] = '\0';
	return q;
}

/*
 * The script, before and after the quoted arguments of `copyscope run`.
 * The guest's clock is the host's (qemu's RTC), so run times are right.
 * The loopback interface is brought up for udp.rr; /var/tmp exists for
 * the file workloads' default tmpdir.  Everything the guest says goes to
 * the data port (ttyS1; arm64 ttyS0) in raw mode (no \n -> \r\n); the
 * workloads' own output goes to the console (ttyS0; arm64 ttyAMA0), which
 * the host keeps for when a boot fails.  The head ends where the data
 * port's name goes.
 */
static const char script_head[] =
"#!/bin/busybox sh\n"
"# /init of a copyscope boot guest (written by copyscope boot)\n"
"/bin/busybox mkdir -p /sbin /usr/bin /usr/sbin\n"
"/bin/busybox --install -s\n"
"export PATH=/bin:/sbin:/usr/bin:/usr/sbin\n"
"mount -t proc proc /proc\n"
"mount -t sysfs sysfs /sys\n"
"mount -t devtmpfs devtmpfs /dev\n"
"mount -t tmpfs tmpfs /tmp\n"
"mount -t tmpfs tmpfs /var/tmp\n"
"hostname copyscope-guest\n"
"ip link set lo up\n"
"out=/dev/";

static const char script_mid[] =
"\n"
"stty -F $out raw -echo\n"
"{\n"
"  echo 'copyscope-boot-begin 1'\n"
"  echo \"release: $(uname -r)\"\n"
"  echo \"cmdline: $(cat /proc/cmdline)\"\n"
"  echo \"boot_id: $(cat /proc/sys/kernel/random/boot_id)\"\n"
"  echo \"unknown: $(dmesg | grep -m 1 'Unknown kernel command line "
"parameters')\"\n"
"} >$out\n"
"/bin/copyscope run --db /tmp/guest.db";

static const char script_tail[] =
" </dev/null >/dev/console 2>&1\n"
"echo \"run-rc: $?\" >$out\n"
"echo 'copyscope-export-begin' >$out\n"
"/bin/copyscope export last --db /tmp/guest.db >$out 2>/dev/console\n"
"echo \"copyscope-export-end $?\" >$out\n"
"echo 'copyscope-boot-end' >$out\n"
"reboot -f\n";

char *boot_init_script(const char *data_tty, char *const *run_args,
		       size_t nargs)
{
	size_t len = sizeof(script_head) + strlen(data_tty) +
		     sizeof(script_mid) + sizeof(script_tail), i, o;
	char **q = calloc(nargs ? nargs : 1, sizeof(*q));
	char *s = NULL;

	if (!q)
		return NULL;
	for (i = 0; i < nargs; i++) {
		q[i] = boot_shell_quote(run_args[i]);
		if (!q[i])
			goto out;
		len += strlen(q[i]) + 1;
	}
	s = malloc(len);
	if (!s)
		goto out;
	o = (size_t)snprintf(s, len, "%s%s%s", script_head, data_tty,
			     script_mid);
	for (i = 0; i < nargs; i++)
		o += (size_t)snprintf(s + o, len - o, " %s", q[i]);
	snprintf(s + o, len - o, "%s", script_tail);
out:
	for (i = 0; i < nargs; i++)
		free(q[i]);
	free(q);
	return s;
}

int boot_elf_is_static(const char *path, char *err, size_t errlen)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i, ret = 1;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph)) {
		snprintf(err, errlen, "%s: not a 64-bit ELF executable", path);
		close(fd);
		return -1;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		off_t off = (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph));

		if (pread(fd, &ph, sizeof(ph), off) != (ssize_t)sizeof(ph)) {
			snprintf(err, errlen, "%s: truncated ELF program "
				 "headers", path);
			ret = -1;
			break;
		}
		if (ph.p_type == PT_INTERP) {
			ret = 0;
			break;
		}
	}
	close(fd);
	return ret;
}

/* One archive entry's header; content (if any) follows. */
static int add_header(struct archive *a, struct archive_entry *e,
		      const char *name, unsigned type, unsigned perm,
		      int64_t size, unsigned *ino, char *err, size_t errlen)
{
	archive_entry_clear(e);
	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, perm);
	archive_entry_set_size(e, size);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_mtime(e, time(NULL), 0);
	archive_entry_set_ino(e, ++*ino);
	archive_entry_set_nlink(e, type == AE_IFDIR ? 2 : 1);
	if (type == AE_IFCHR) {
		archive_entry_set_rdevmajor(e, 5);	/* /dev/console */
		archive_entry_set_rdevminor(e, 1);
	}
	if (archive_write_header(a, e) != ARCHIVE_OK) {
		snprintf(err, errlen, "initramfs: %s: %s", name,
			 archive_error_string(a));
		return -1;
	}
	return 0;
}

/* A regular file of the archive from the file at src. */
static int add_file(struct archive *a, struct archive_entry *e,
		    const char *name, const char *src, unsigned *ino,
		    char *err, size_t errlen)
{
	char buf[65536];
	struct stat sb;
	int64_t left;
	int fd = open(src, O_RDONLY | O_CLOEXEC), ret = -1;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", src, strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", src);
		goto out;
	}
	if (add_header(a, e, name, AE_IFREG, 0755, sb.st_size, ino, err,
		       errlen))
		goto out;
	for (left = sb.st_size; left > 0;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "%s: %s", src,
				 n < 0 ? strerror(errno) : "shorter than it "
				 "was a moment ago");
			goto out;
		}
		if (archive_write_data(a, buf, (size_t)n) != n) {
			snprintf(err, errlen, "initramfs: %s: %s", name,
				 archive_error_string(a));
			goto out;
		}
		left -= n;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

int boot_write_initramfs(const char *path, const char *script,
			 const char *busybox, const char *copyscope_static,
			 char *err, size_t errlen)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys",
		"tmp", "var", "var/tmp" };
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	size_t i, slen = strlen(script);
	unsigned ino = 0;
	int ret = -1;

	if (!a || !e) {
		snprintf(err, errlen, "initramfs: out of memory");
		goto out;
	}
	if (archive_write_set_format_cpio_newc(a) != ARCHIVE_OK ||
	    archive_write_add_filter_none(a) != ARCHIVE_OK ||
	    archive_write_open_filename(a, path) != ARCHIVE_OK) {
		snprintf(err, errlen, "initramfs: %s: %s", path,
			 archive_error_string(a));
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (add_header(a, e, dirs[i], AE_IFDIR, 0755, 0, &ino, err,
			       errlen))
			goto out;
	if (add_header(a, e, "dev/console", AE_IFCHR, 0600, 0, &ino, err,
		       errlen) ||
	    add_header(a, e, "init", AE_IFREG, 0755, (int64_t)slen, &ino, err,
		       errlen))
		goto out;
	if (archive_write_data(a, script, slen) != (ssize_t)slen) {
		snprintf(err, errlen, "initramfs: init: %s",
			 archive_error_string(a));
		goto out;
	}
	if (add_file(a, e, "bin/busybox", busybox, &ino, err, errlen) ||
	    add_file(a, e, "bin/copyscope", copyscope_static, &ino, err,
		     errlen))
		goto out;
	if (archive_write_close(a) != ARCHIVE_OK) {
		snprintf(err, errlen, "initramfs: %s: %s", path,
			 archive_error_string(a));
		goto out;
	}
	ret = 0;
out:
	if (e)
		archive_entry_free(e);
	if (a)
		archive_write_free(a);
	return ret;
}
