#!/usr/bin/env python3
"""kernel-btf.py - the kernel's own BTF (its .BTF section) cut out of a
kernel image, for building BPF programs for another architecture than the
build host's: `make aarch64` takes vmlinux.h for arm64 from the BTF inside
Debian's linux-image-arm64 Image (scripts/fetch-kernel.sh --arch arm64),
since the running kernel's /sys/kernel/btf/vmlinux is x86's.

    scripts/kernel-btf.py IMAGE OUT

IMAGE: an uncompressed arm64 Image (what Debian ships as vmlinuz on
arm64), or a gzip-compressed one.  The .BTF section is found by its
header (include/uapi/linux/btf.h: magic 0xeb9f, version 1, a 24-byte
header, then types and strings back to back); the largest such blob is
the kernel's (modules' BTF is not in the image).  OUT is written only
when the blob is found and `bpftool btf dump` reads it.  Exit 1 with the
reason on stderr otherwise.
"""
import gzip
import os
import struct
import subprocess
import sys

MAGIC = b"\x9f\xeb\x01\x00"  # 0xeb9f little endian, version 1, flags 0
HDR_LEN = 24


def blobs(data):
    """(offset, length) of each BTF header that describes itself sanely."""
    i = data.find(MAGIC)
    while i >= 0:
        if i + HDR_LEN <= len(data):
            hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from(
                "<IIIII", data, i + 4)
            end = i + hdr_len + str_off + str_len
            if (hdr_len == HDR_LEN and type_off == 0 and str_off == type_len
                    and type_len > 0 and str_len > 0 and end <= len(data)
                    and data[i + hdr_len + str_off] == 0):
                yield i, end - i
        i = data.find(MAGIC, i + 1)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: kernel-btf.py IMAGE OUT")
    image, out = sys.argv[1], sys.argv[2]
    try:
        with open(image, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit("kernel-btf: %s: %s" % (image, e.strerror))
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    found = sorted(blobs(data), key=lambda b: b[1])
    if not found:
        sys.exit("kernel-btf: %s holds no BTF (a kernel built without "
                 "CONFIG_DEBUG_INFO_BTF, or a compression this script does "
                 "not read)" % image)
    off, length = found[-1]
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data[off:off + length])
    p = subprocess.run(["bpftool", "btf", "dump", "file", tmp],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        os.unlink(tmp)
        sys.exit("kernel-btf: bpftool does not read the BTF found in %s: %s"
                 % (image, p.stderr.strip()))
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
