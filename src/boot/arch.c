/*
 * arch.c - the guest's architecture for `copyscope boot`: what differs
 * between an x86-64 and an arm64 guest (qemu binary, console and data
 * ports, the kernel's console parameter), and how the architecture of a
 * kernel image (its boot header) and of an executable (its ELF machine)
 * is told, so that a side's kernel, busybox and static copyscope are
 * checked to be of one architecture before anything boots.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "boot/boot.h"

static const struct boot_arch_info arch_info[BOOT_NARCHS] = {
	[BOOT_ARCH_X86_64] = {
		.name = "x86_64", .qemu = "qemu-system-x86_64",
		.qemu_pkg = "qemu-system-x86", .console_tty = "ttyS0",
		.data_tty = "ttyS1", .base_append = "console=ttyS0 panic=-1",
		.image = "bzImage",
	},
	[BOOT_ARCH_AARCH64] = {
		.name = "aarch64", .qemu = "qemu-system-aarch64",
		.qemu_pkg = "qemu-system-arm", .console_tty = "ttyAMA0",
		.data_tty = "ttyS0",
		.base_append = "console=ttyAMA0 panic=-1", .image = "Image",
	},
};

const struct boot_arch_info *boot_arch_info(enum boot_arch a)
{
	return &arch_info[a < BOOT_NARCHS ? a : BOOT_ARCH_X86_64];
}

enum boot_arch boot_host_arch(void)
{
#if defined(__aarch64__)
	return BOOT_ARCH_AARCH64;
#else
	return BOOT_ARCH_X86_64;
#endif
}

int boot_arch_parse(const char *word, enum boot_arch *out)
{
	int a;

	for (a = 0; a < BOOT_NARCHS; a++)
		if (strcmp(word, arch_info[a].name) == 0) {
			*out = (enum boot_arch)a;
			return 0;
		}
	return -1;
}

/* Read len bytes at off of fd into buf: 0, or -1 (short file). */
static int read_at(int fd, void *buf, size_t len, off_t off)
{
	return pread(fd, buf, len, off) == (ssize_t)len ? 0 : -1;
}

int boot_kernel_arch(const char *path, enum boot_arch *out, char *err,
		     size_t errlen)
{
	unsigned char hdr[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 1;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* Documentation/arch/x86/boot.rst: the setup header's magic */
	if (read_at(fd, hdr, 4, 0x202) == 0 && memcmp(hdr, "HdrS", 4) == 0) {
		*out = BOOT_ARCH_X86_64;
		ret = 0;
	/* Documentation/arch/arm64/booting.rst: the Image header's magic */
	} else if (read_at(fd, hdr, 4, 0x38) == 0 &&
		   memcmp(hdr, "ARM\x64", 4) == 0) {
		*out = BOOT_ARCH_AARCH64;
		ret = 0;
	}
	close(fd);
	return ret;
}

int boot_elf_arch(const char *path, enum boot_arch *out, char *err,
		  size_t errlen)
{
	Elf64_Ehdr eh;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (read_at(fd, &eh, sizeof(eh), 0) != 0 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB) {
		snprintf(err, errlen, "%s: not a 64-bit little-endian ELF "
			 "executable", path);
		close(fd);
		return -1;
	}
	close(fd);
	if (eh.e_machine == EM_X86_64) {
		*out = BOOT_ARCH_X86_64;
		return 0;
	}
	if (eh.e_machine == EM_AARCH64) {
		*out = BOOT_ARCH_AARCH64;
		return 0;
	}
	snprintf(err, errlen, "ELF machine %u", (unsigned)eh.e_machine);
	return 1;
}
