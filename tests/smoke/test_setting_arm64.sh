#!/bin/sh
# test_setting_arm64.sh - boot's kernel settings of the other architecture
# are refused before anything boots (no qemu, no static copyscope, no
# busybox needed: the guest's architecture is told from a fake image's
# header): x86's nosmap, nosmep, nopti, pti= and clearcpuid= asked of an
# arm64 guest, arm64's arm64.* and kpti= of an x86 one, and a kpti= that
# is neither on nor off, each with exit 2 and a message naming the option,
# the word and what that architecture takes.  The arm64 settings' check
# in a real guest is tests/boot/test_boot_arm64.sh (make test-boot).
. "$(dirname "$0")/lib.sh"
need_python

# an arm64 Image header ("ARM\x64" at 0x38) and an x86 one ("HdrS" at 0x202)
python3 -c '
import sys
for path, off, magic in ((sys.argv[1], 0x38, b"ARM\x64"),
                         (sys.argv[2], 0x202, b"HdrS")):
    b = bytearray(4096); b[off:off + 4] = magic
    open(path, "wb").write(b)
' "$TMP/Image" "$TMP/bzImage" || fail "writing the fake images"
export TMPDIR="$TMP/tmpdir"
mkdir -p "$TMPDIR"
ARM="boot --kernel $TMP/Image --side a"
X86="boot --kernel $TMP/bzImage --side a"
ARM_TAKES="on arm64 the settings boot checks are kpti=0|1 (KPTI), arm64.nopan (PAN, where the kernel has it; Linux 6.1 has not) and mitigations="
X86_TAKES="on x86 the settings boot checks are nosmap, nosmep, clearcpuid=smap,smep, nopti, pti= and mitigations="

for w in nosmap nosmep nopti pti=off clearcpuid=smap; do
	cs 2 $ARM --append "quiet $w" sys.null
	contains "$ERR" "--append: '$w' is an x86 kernel parameter and the guest is aarch64: $ARM_TAKES"
	not_contains "$ERR" "Traceback"
done
# side B's words are checked too, named by their option
cs 2 $ARM --side-b b --append-b "clearcpuid=smep,smap" sys.null
contains "$ERR" "--append-b: 'clearcpuid=smep,smap' is an x86 kernel parameter and the guest is aarch64"
# what an arm64 guest takes is not refused: the next check (the static
# copyscope) is what stops these
for w in kpti=0 kpti=1 kpti=off arm64.nopan mitigations=off nokaslr; do
	cs 2 $ARM --append "$w" --copyscope-static "$TMP/none" sys.null
	contains "$ERR" "--copyscope-static: cannot read '$TMP/none'"
	not_contains "$ERR" "kernel parameter"
done
cs 2 $ARM --append "kpti=maybe" sys.null
contains "$ERR" "--append: 'kpti=maybe': kpti takes 0 or 1 (or off, on, n, y), else the kernel ignores it"

for w in kpti=1 arm64.nopan arm64.nomte; do
	cs 2 $X86 --append "$w" sys.null
	contains "$ERR" "--append: '$w' is an arm64 kernel parameter and the guest is x86_64: $X86_TAKES"
done
[ -z "$(ls "$TMPDIR")" ] || fail "left in TMPDIR: $(ls "$TMPDIR")"
exit 0
