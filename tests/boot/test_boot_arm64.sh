#!/bin/sh
# test_boot_arm64.sh - `copyscope boot` with an arm64 guest, for real
# (make test-boot): Debian's linux-image-arm64 and busybox-static:arm64
# (scripts/fetch-kernel.sh --arch arm64 puts them into build/kernel-arm64/)
# and the static aarch64 copyscope (make static-aarch64) booted once in
# qemu-system-aarch64 -M virt, running BOOT_WORK_ARM64 (default: sys.null
# with --quick, about 11-20 s under TCG here: CI time is short).  The
# architecture is told from the image (no --arch).  Checks: the one run
# arrives, complete, with results, from an aarch64 guest (boot.arch,
# kernel.machine, an -arm64 kernel release, the console on ttyAMA0), timed
# on the arm64 counter (timer.source cntvct), PAN seen on (qemu's max CPU
# has it: the kernel log says so); under TCG it is marked
# emulated, and on a host of another architecture boot.accel says that is
# why.  Uses the smoke tests' helpers (tests/smoke/lib.sh).
. "$(dirname "$0")/../smoke/lib.sh"

BOOT_WORK_ARM64=${BOOT_WORK_ARM64:-"sys.null -- --quick"}
command -v qemu-system-aarch64 >/dev/null 2>&1 ||
	skip "qemu-system-aarch64 is missing (qemu-system-arm; scripts/install-deps.sh)"
STATIC=build/aarch64/copyscope-static
[ -x "$STATIC" ] || skip "no $STATIC (make static-aarch64)"
KERNEL=$(scripts/fetch-kernel.sh --arch arm64) ||
	skip "no arm64 kernel: scripts/fetch-kernel.sh --arch arm64 failed (no package archive?)"
BB=$(dirname "$KERNEL")/busybox
export TMPDIR="$TMP/tmpdir"
mkdir -p "$TMPDIR"

start=$(date +%s)
# shellcheck disable=SC2086
cs 0 boot --kernel "$KERNEL" --busybox "$BB" --copyscope-static "$STATIC" \
	--side arm --boots 1 --timeout-s 300 $BOOT_WORK_ARM64
secs=$(( $(date +%s) - start ))
echo "1 arm64 boot in ${secs}s:"
sed 's/^/  | /' "$OUT"
[ -z "$(ls "$TMPDIR")" ] || fail "left in TMPDIR: $(ls "$TMPDIR")"
contains "$OUT" "1 of 1 boots done in"
contains "$OUT" "1 imported, 0 failed"
contains "$OUT" "  guest: aarch64 (--kernel is an arm64 Image)"
contains "$OUT" "boot 1/1  side arm: run 1,"
emulated=no
grep -q 'accel TCG (emulated)' "$OUT" && emulated=yes
[ $emulated = no ] || contains "$ERR" "the guests run under TCG"
[ "$(count_runs)" -eq 1 ] || fail "not one run"

"$BIN" export 1 >"$TMP/export.jsonl" || fail "export of run 1 failed"
python3 - "$TMP/export.jsonl" "$emulated" "$(uname -m)" <<'PY' || fail "the arm64 run's environment"
import json, sys
path, emulated, host = sys.argv[1:]
lines = [json.loads(l) for l in open(path)]
run = next(l for l in lines if l.get("type") == "run")
env, info = run["environment"], run["run"]
assert info["tag"] == "arm", info["tag"]
assert info["status"] == "complete", info["status"]
assert run["results"] > 0
assert env["boot.arch"] == "aarch64", env["boot.arch"]
assert env["kernel.machine"] == "aarch64", env["kernel.machine"]
assert env["kernel.release"].endswith("-arm64"), env["kernel.release"]
assert env["kernel.cmdline"] == "console=ttyAMA0 panic=-1", env["kernel.cmdline"]
assert env["boot.cmdline_check"] == "ok"
assert env["boot.qemu"].startswith("qemu-system-aarch64 -M virt"), env["boot.qemu"]
assert env["timer.source"] == "cntvct", env["timer.source"]
# qemu's max CPU has PAN; the kernel log says the kernel turned it on
assert env["cpu.arm64.pan"].startswith("on (the kernel log"), env["cpu.arm64.pan"]
assert env["virt.emulated"].startswith(emulated), env["virt.emulated"]
if host != "aarch64":
    assert env["virt.emulated"].startswith("yes"), env["virt.emulated"]
    assert env["boot.accel"].startswith(
        "tcg (the guest is aarch64, this host x86_64"), env["boot.accel"]
PY
echo "ok (${secs}s for 1 arm64 boot of '$BOOT_WORK_ARM64')"
