#!/bin/sh
# install-deps.sh - install the Debian packages copyscope needs to build,
# test, lint and benchmark, when they are missing.  Idempotent: does nothing
# (and needs no network) when everything is there.  Needs root (or sudo)
# only when something is missing.  The HTML report's charting library
# (web/package-lock.json) is installed by the Makefile with npm ci.
set -eu

# clang and libclang-rt-dev: the libFuzzer harnesses (make fuzz); sqlite3:
# the tests inject known data into a stored run; libgsl-dev: the t
# distribution of the comparison statistics; xxd: the report's script
# embedded into the binary; chromium and fonts-liberation: the HTML report
# tested in a real browser; groff and man-db: the man page rendered;
# libpq-dev: the PostgreSQL store; postgresql: the tests start a
# throw-away server (the packaged cluster is not used); openssl: the test
# of a TLS connection; libtraceevent-dev: run --kernel reads the kernel's
# tracepoint records with it.  (linux-perf is not installed here: only
# bench/kernel-lock-vs-perf.sh uses it, and it skips without it.)
# libarchive-dev: the initramfs of copyscope boot; qemu-system-x86 and
# busybox-static: the guests of copyscope boot (make test-boot), whose
# kernel scripts/fetch-kernel.sh unpacks from Debian's linux-image-amd64
# with apt-get download and dpkg-deb (dpkg).  bpftool and libbpf-dev: the
# BPF programs of the kernel views and observe (vmlinux.h and skeletons by
# bpftool, loaded with libbpf); bpftrace: bench/ holds observe against a
# bpftrace one-liner.  gcc-aarch64-linux-gnu, qemu-user-static and the
# :arm64 packages (ARM64_PKGS, after dpkg --add-architecture arm64): make
# aarch64 and make test-aarch64; libpq-dev and libgsl-dev are not
# co-installable across architectures, so their arm64 runtime libraries
# (libpq5, libgsl27) are installed and linked by file name (make
# static-aarch64 unpacks libgsl-dev:arm64's .a files into build/ with
# scripts/fetch-arm64-static.sh).  qemu-system-arm: the arm64 guest of
# make test-boot (qemu-system-aarch64), whose kernel and busybox
# scripts/fetch-kernel.sh --arch arm64 unpacks from Debian's
# linux-image-arm64 and busybox-static:arm64 (busybox-static is not
# co-installable across architectures either).  strace: test_ab_fresh
# counts the threads ab --fresh-workers makes.
ARM64_PKGS="libsqlite3-dev:arm64 libjansson-dev:arm64 libpq5:arm64 \
libgsl27:arm64 libgslcblas0:arm64 libtraceevent-dev:arm64 \
libarchive-dev:arm64 libbpf-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64 \
libcmocka-dev:arm64"
PKGS="build-essential pkg-config libsqlite3-dev libjansson-dev libgsl-dev \
libcmocka-dev sqlite3 python3 cppcheck clang-tidy stress-ng clang \
libclang-rt-dev xxd chromium fonts-liberation groff man-db libpq-dev \
postgresql openssl libtraceevent-dev libarchive-dev qemu-system-x86 \
qemu-system-arm \
busybox-static bpftool libbpf-dev bpftrace gcc-aarch64-linux-gnu \
libc6-dev-arm64-cross qemu-user-static strace"

arm64_arch=""
dpkg --print-foreign-architectures | grep -qx arm64 || arm64_arch=missing
missing=""
for p in $PKGS $ARM64_PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
# npm builds the report's script: Debian's npm unless one is there
# (a Node.js from elsewhere brings its own)
command -v npm >/dev/null 2>&1 || missing="$missing npm"
[ -z "$missing" ] && [ -z "$arm64_arch" ] && exit 0

echo "install-deps: installing:$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		echo "install-deps: need root to install:$missing" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
[ -z "$arm64_arch" ] || $SUDO dpkg --add-architecture arm64
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
