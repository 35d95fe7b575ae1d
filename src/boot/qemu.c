/*
 * qemu.c - the qemu side of `copyscope boot`: which accelerator can boot
 * a stock kernel here (hardware KVM, else TCG, said out loud; always TCG
 * for a guest of another architecture than the host's), the qemu command
 * line (x86-64: qemu's default pc; arm64: the virt machine, its data port
 * on a PCI 16550), and one qemu process run to its end, a timeout or an
 * interrupt, always reaped.
 *
 * Why not KVM whenever /dev/kvm exists: a PVM hypervisor (module kvm_pvm,
 * no vmx/svm in the CPU flags) also offers /dev/kvm, but a stock kernel
 * cannot boot under it (qemu -enable-kvm -cpu host aborts setting MSR
 * 0x10a; without arch-capabilities the guest dies on int3).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "util/process.h"

/* How long qemu has to exit on SIGTERM before SIGKILL. */
#define QEMU_STOP_NS (2LL * 1000000000)


/* Whether word is a whole word of the space separated list s. */
static bool has_word(const char *s, const char *word)
{
	size_t n = strlen(word);
	const char *p = s;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == s || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\t' ||
		     p[n] == '\n'))
			return true;
		p += n;
	}
	return false;
}

void boot_kvm_probe(struct boot_kvm_probe *p)
{
	char line[8192];
	struct stat sb;
	FILE *f;
	int fd;

	memset(p, 0, sizeof(*p));
	p->host = boot_host_arch();
	p->dev_present = stat("/dev/kvm", &sb) == 0;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	else
		p->dev_errno = errno;
	p->pvm = stat("/sys/module/kvm_pvm", &sb) == 0;
	f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		p->cpu_virt = has_word(line, "vmx") || has_word(line, "svm");
		break;
	}
	fclose(f);
}

int boot_pick_accel(const char *want, enum boot_arch guest,
		    const struct boot_kvm_probe *p, enum boot_accel *out,
		    char *why, size_t whylen)
{
	bool opens = p->dev_present && p->dev_errno == 0;
	/* arm64 KVM runs on the CPU's EL2: no flag to check, no PVM */
	bool hw = p->host == BOOT_ARCH_AARCH64 || p->cpu_virt;

	why[0] = '\0';
	if (strcmp(want, "tcg") == 0) {
		*out = BOOT_ACCEL_TCG;
		snprintf(why, whylen, "asked for (--accel tcg)");
		return 0;
	}
	if (guest != p->host) {
		snprintf(why, whylen, "the guest is %s, this host %s: KVM "
			 "runs only guests of the host's architecture",
			 boot_arch_info(guest)->name,
			 boot_arch_info(p->host)->name);
	} else if (!opens) {
		snprintf(why, whylen, "/dev/kvm: %s",
			 !p->dev_present ? "not present (no KVM here)" :
			 strerror(p->dev_errno));
	} else if (strcmp(want, "kvm") == 0) {
		*out = BOOT_ACCEL_KVM;
		return 0;
	} else if (p->pvm && p->host == BOOT_ARCH_X86_64) {
		snprintf(why, whylen, "/dev/kvm is a PVM hypervisor (module "
			 "kvm_pvm), under which a stock kernel does not boot");
	} else if (!hw) {
		snprintf(why, whylen, "/dev/kvm opens but the CPU shows no "
			 "vmx or svm flag (not hardware KVM; --accel kvm to "
			 "try it anyway)");
	} else {
		*out = BOOT_ACCEL_KVM;
		return 0;
	}
	if (strcmp(want, "kvm") == 0)
		return -1;
	*out = BOOT_ACCEL_TCG;
	return 0;
}

const char *boot_qemu_machine(enum boot_arch a, enum boot_accel acc)
{
	if (a != BOOT_ARCH_AARCH64)
		return NULL;
	return acc == BOOT_ACCEL_KVM ? "virt,gic-version=host" : "virt";
}

const char *boot_qemu_cpu(enum boot_arch a, enum boot_accel acc)
{
	if (acc == BOOT_ACCEL_KVM)
		return "host";
	return a == BOOT_ARCH_AARCH64 ? "max,pauth-impdef=on" : "max";
}

void boot_free_argv(char **argv)
{
	size_t i;

	if (!argv)
		return;
	for (i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* s with each ',' doubled, as qemu's option syntax wants it in a value. */
static char *qemu_opt_escape(const char *s)
{
	size_t n = strlen(s), i, o = 0;
	char *e = malloc(2 * n + 1);

	if (!e)
		return NULL;
	for (i = 0; i < n; i++) {
		e[o++] = s[i];
		if (s[i] == ',')
			e[o++] = ',';
	}
	e[o] = '\0';
	return e;
}

char **boot_qemu_argv(const struct boot_qemu *q)
{
	size_t cap = 40 + q->nextra, n = 0, i;
	char **v = calloc(cap, sizeof(*v));
	bool ok = v != NULL;

#define ARG(...)							\
	do {								\
		if (ok && asprintf(&v[n], __VA_ARGS__) < 0) {		\
			v[n] = NULL;					\
			ok = false;					\
		}							\
		if (ok)							\
			n++;						\
	} while (0)

	ARG("%s", q->qemu);
	ARG("-nodefaults");
	ARG("-no-user-config");
	ARG("-display");
	ARG("none");
	ARG("-no-reboot");
	if (boot_qemu_machine(q->arch, q->accel)) {
		ARG("-M");
		ARG("%s", boot_qemu_machine(q->arch, q->accel));
	}
	ARG("-accel");
	ARG("%s", q->accel == BOOT_ACCEL_KVM ? "kvm" : "tcg");
	ARG("-cpu");
	ARG("%s", boot_qemu_cpu(q->arch, q->accel));
	ARG("-smp");
	ARG("%d", q->smp);
	ARG("-m");
	ARG("%dM", q->memory_mib);
	ARG("-kernel");
	ARG("%s", q->kernel);
	ARG("-initrd");
	ARG("%s", q->initramfs);
	ARG("-append");
	ARG("%s", q->append);
	ARG("-serial");
	ARG("file:%s", q->console_path);
	if (q->arch == BOOT_ARCH_AARCH64) {
		/* virt has one UART for Linux (the console): the data port
		   is a PCI 16550, the guest's ttyS0 (8250_pci is built in
		   Debian's arm64 kernel) */
		char *path = qemu_opt_escape(q->data_path);

		ok = ok && path;
		ARG("-chardev");
		ARG("file,id=copyscope-data,path=%s", path);
		free(path);
		ARG("-device");
		ARG("pci-serial,chardev=copyscope-data");
	} else {
		ARG("-serial");
		ARG("file:%s", q->data_path);
	}
	for (i = 0; i < q->nextra; i++)
		ARG("%s", q->extra[i]);
#undef ARG
	if (!ok) {
		boot_free_argv(v);
		return NULL;
	}
	v[n] = NULL;
	return v;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap(void)
{
	struct timespec ts = { 0, 20L * 1000 * 1000 };	/* 20 ms */

	nanosleep(&ts, NULL);
}

/*
 * Start qemu: its own process group (Ctrl-C reaches copyscope, which
 * stops it), stdin /dev/null, stdout and stderr to log_path, and
 * PR_SET_PDEATHSIG so that it dies with copyscope, however copyscope
 * ends (kill -9 included: it never outlives the boot that started it).
 * Returns the pid, or -1 with err.
 */
static pid_t spawn_qemu(char *const *argv, const char *log_path, char *err,
			size_t errlen)
{
	pid_t parent = getpid(), pid = fork();
	int fd;

	if (pid < 0) {
		snprintf(err, errlen, "cannot start %s: fork: %s", argv[0],
			 strerror(errno));
		return -1;
	}
	if (pid > 0)
		return pid;
	/* the child: only async-signal-safe calls until exec */
	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(126);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || dup2(fd, 0) < 0)
		_exit(126);
	fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(1, 2) < 0)
		_exit(126);
	execvp(argv[0], argv);
	_exit(127);
}

enum boot_end boot_run_qemu(char *const *argv, const char *log_path,
			    double timeout_s,
			    const volatile sig_atomic_t *stop, int *status,
			    double *wall_s, char *err, size_t errlen)
{
	double t0 = now_s();
	pid_t pid;

	*status = 0;
	*wall_s = 0;
	pid = spawn_qemu(argv, log_path, err, errlen);
	if (pid < 0)
		return BOOT_END_SPAWN_FAILED;
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid) {
			*wall_s = now_s() - t0;
			/* the child reports a binary it cannot run so */
			if (WIFEXITED(*status) && WEXITSTATUS(*status) == 127) {
				snprintf(err, errlen, "cannot start %s (exit "
					 "127: not found?)", argv[0]);
				return BOOT_END_SPAWN_FAILED;
			}
			return BOOT_END_EXITED;
		}
		if (r < 0 && errno != EINTR) {
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			util_stop_child(pid, QEMU_STOP_NS);
			*wall_s = now_s() - t0;
			return BOOT_END_INTERRUPTED;
		}
		if (*stop) {
			util_stop_child(pid, QEMU_STOP_NS);
			*wall_s = now_s() - t0;
			return BOOT_END_INTERRUPTED;
		}
		if (now_s() - t0 > timeout_s) {
			util_stop_child(pid, QEMU_STOP_NS);
			*wall_s = now_s() - t0;
			return BOOT_END_TIMEOUT;
		}
		nap();
	}
}
