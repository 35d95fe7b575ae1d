#!/bin/sh
# fetch-arm64-static.sh - the arm64 static libraries that `make
# static-aarch64` links and that no installable package provides here:
# libgsl.a and libgslcblas.a are in libgsl-dev, which cannot be installed
# for arm64 beside the amd64 one the x86 build needs (it is not
# multiarch co-installable).  So Debian's libgsl-dev:arm64 is downloaded
# with `apt-get download` (no installation) and its two .a files are
# unpacked with `dpkg-deb -x` into DIR; the package database is never
# touched.  The version is the one apt would install, the same as the
# libgsl27:arm64 that scripts/install-deps.sh installs.  On an arm64 host
# the installed libgsl-dev's files are copied instead.  Idempotent: does
# nothing when both files are there.
#
#   scripts/fetch-arm64-static.sh [DIR]    (DIR: default build/aarch64/static-lib)
set -eu
cd "$(dirname "$0")/.."
dir=${1:-build/aarch64/static-lib}
[ -e "$dir/libgsl.a" ] && [ -e "$dir/libgslcblas.a" ] && exit 0
for t in apt-get dpkg-deb; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "fetch-arm64-static: $t is missing (a Debian system is" \
			"needed)" >&2
		exit 1
	}
done
mkdir -p "$dir"
# On an arm64 host libgsl-dev is the native package: its files, if there.
if [ "$(dpkg --print-architecture)" = arm64 ]; then
	if [ -e /usr/lib/aarch64-linux-gnu/libgsl.a ]; then
		cp /usr/lib/aarch64-linux-gnu/libgsl.a \
			/usr/lib/aarch64-linux-gnu/libgslcblas.a "$dir/"
		exit 0
	fi
	echo "fetch-arm64-static: no /usr/lib/aarch64-linux-gnu/libgsl.a" \
		"(apt-get install libgsl-dev; scripts/install-deps.sh)" >&2
	exit 1
fi
dpkg --print-foreign-architectures | grep -qx arm64 || {
	echo "fetch-arm64-static: dpkg has no arm64 architecture (run" \
		"scripts/install-deps.sh, which adds it)" >&2
	exit 1
}
tmp=$(mktemp -d "$dir/.fetch.XXXXXX")
chmod 755 "$tmp"	# apt-get downloads as the _apt user where it can
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
echo "fetch-arm64-static: downloading libgsl-dev:arm64" >&2
(cd "$tmp" && apt-get download -q libgsl-dev:arm64 >/dev/null) || {
	echo "fetch-arm64-static: apt-get download libgsl-dev:arm64 failed" \
		"(no package archive? run apt-get update)" >&2
	exit 1
}
dpkg-deb -x "$(ls "$tmp"/*.deb)" "$tmp/root"
for f in libgsl.a libgslcblas.a; do
	mv "$tmp/root/usr/lib/aarch64-linux-gnu/$f" "$dir/$f"
done
