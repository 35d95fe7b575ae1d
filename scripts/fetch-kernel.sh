#!/bin/sh
# fetch-kernel.sh - put a bootable Linux kernel image into the build
# directory for `copyscope boot` and its test: Debian's current
# linux-image-amd64 (the package the metapackage depends on) is downloaded
# with `apt-get download` (no installation, no root needed for that) and
# unpacked with `dpkg-deb -x` under build/kernel/; the host's /boot and
# package database are never touched.  Prints the image's path
# (build/kernel/vmlinuz, a link to the unpacked vmlinuz-RELEASE).
# Idempotent: does nothing when the image is already there.
#
# --arch arm64: Debian's linux-image-arm64 instead (an arm64 Image, for
# qemu-system-aarch64) into build/kernel-arm64/, and beside it `busybox`,
# the arm64 busybox-static the guest needs (Debian's busybox-static for
# amd64 and arm64 cannot be installed together: it is unpacked the same
# way).  apt needs the arm64 architecture for that (dpkg
# --add-architecture arm64, which scripts/install-deps.sh does).
#
#   scripts/fetch-kernel.sh [--arch amd64|arm64] [DIR]
#                                  (DIR: default build/kernel, or
#                                   build/kernel-arm64 for arm64)
set -eu
cd "$(dirname "$0")/.."
arch=amd64
if [ "${1:-}" = --arch ]; then
	arch=${2:-}
	shift 2 || { echo "fetch-kernel: --arch needs amd64 or arm64" >&2; exit 2; }
fi
case $arch in
amd64)	dir=${1:-build/kernel} ;;
arm64)	dir=${1:-build/kernel-arm64} ;;
*)	echo "fetch-kernel: --arch: '$arch' is not one of amd64, arm64" >&2
	exit 2 ;;
esac
if [ -e "$dir/vmlinuz" ] && { [ $arch = amd64 ] || [ -e "$dir/busybox" ]; }
then
	echo "$dir/vmlinuz"
	exit 0
fi
for t in apt-get apt-cache dpkg-deb; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "fetch-kernel: $t is missing (a Debian system is needed)" >&2
		exit 1
	}
done
qual=""
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
	dpkg --print-foreign-architectures | grep -qx "$arch" || {
		echo "fetch-kernel: dpkg has no $arch architecture (dpkg" \
			"--add-architecture $arch and apt-get update;" \
			"scripts/install-deps.sh adds arm64)" >&2
		exit 1
	}
	qual=":$arch"
fi
# The metapackage depends on linux-image-VERSION-ARCH, which holds the
# image.
pkg=$(apt-cache depends "linux-image-$arch$qual" 2>/dev/null |
	sed -n "s/^ *Depends: \(linux-image-[0-9].*-$arch\)\(:$arch\)\{0,1\}\$/\1/p" |
	head -n 1)
if [ -z "$pkg" ]; then
	echo "fetch-kernel: no linux-image-*-$arch behind linux-image-$arch" \
		"in the package lists (run apt-get update)" >&2
	exit 1
fi
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.fetch.XXXXXX")
chmod 755 "$tmp"	# apt-get downloads as the _apt user where it can
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
want="$pkg$qual"
[ $arch = amd64 ] || want="$want busybox-static$qual"
echo "fetch-kernel: downloading $want" >&2
# shellcheck disable=SC2086
(cd "$tmp" && apt-get download -q $want >/dev/null)
for deb in "$tmp"/*.deb; do
	dpkg-deb -x "$deb" "$tmp/root"
done
img=$(ls "$tmp"/root/boot/vmlinuz-* | head -n 1)
rel=${img##*/vmlinuz-}
# Only the image and its config are kept (the modules are not needed:
# the guest uses the serial ports, which are built in).
mv "$img" "$dir/vmlinuz-$rel"
[ ! -e "$tmp/root/boot/config-$rel" ] ||
	mv "$tmp/root/boot/config-$rel" "$dir/config-$rel"
[ $arch = amd64 ] || mv "$tmp/root/bin/busybox" "$dir/busybox"
ln -sf "vmlinuz-$rel" "$dir/vmlinuz"
echo "$dir/vmlinuz"
