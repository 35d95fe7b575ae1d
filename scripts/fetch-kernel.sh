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
#   scripts/fetch-kernel.sh [DIR]      (DIR: default build/kernel)
set -eu
cd "$(dirname "$0")/.."
dir=${1:-build/kernel}
if [ -e "$dir/vmlinuz" ]; then
	echo "$dir/vmlinuz"
	exit 0
fi
for t in apt-get apt-cache dpkg-deb; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "fetch-kernel: $t is missing (a Debian system is needed)" >&2
		exit 1
	}
done
# The metapackage depends on linux-image-VERSION-amd64, which holds the
# image.
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1)
if [ -z "$pkg" ]; then
	echo "fetch-kernel: no linux-image-*-amd64 behind linux-image-amd64" \
		"in the package lists (run apt-get update)" >&2
	exit 1
fi
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.fetch.XXXXXX")
chmod 755 "$tmp"	# apt-get downloads as the _apt user where it can
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
echo "fetch-kernel: downloading $pkg" >&2
(cd "$tmp" && apt-get download -q "$pkg" >/dev/null)
deb=$(ls "$tmp"/*.deb)
dpkg-deb -x "$deb" "$tmp/root"
img=$(ls "$tmp"/root/boot/vmlinuz-* | head -n 1)
rel=${img##*/vmlinuz-}
# Only the image and its config are kept (the modules are not needed:
# the guest uses the serial ports, which are built in).
mv "$img" "$dir/vmlinuz-$rel"
[ ! -e "$tmp/root/boot/config-$rel" ] ||
	mv "$tmp/root/boot/config-$rel" "$dir/config-$rel"
ln -sf "vmlinuz-$rel" "$dir/vmlinuz"
echo "$dir/vmlinuz"
