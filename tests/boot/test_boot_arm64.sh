#!/bin/sh
# test_boot_arm64.sh - `copyscope boot` with an arm64 guest, for real
# (make test-boot): Debian's linux-image-arm64 and busybox-static:arm64
# (scripts/fetch-kernel.sh --arch arm64 puts them into build/kernel-arm64/)
# and the static aarch64 copyscope (make static-aarch64) booted twice in
# qemu-system-aarch64 -M virt, once a side, running BOOT_WORK_ARM64
# (default: sys.null with --quick and the syscall view, about 6-10 s a
# boot under TCG here: CI time is short).  Side arm boots with sysctl.kernel.perf_user_access=1
# (the kernel applies sysctl.* parameters itself), kpti=1 and arm64.nopan
# (which Linux 6.1 does not have, and ignores without a word: a dotted
# parameter is not "unknown"), side arm0 with none.  The architecture is told from the image (no --arch).
# Checks: each run arrives, complete, with results, from an aarch64 guest
# (boot.arch, kernel.machine, an -arm64 kernel release, the console on
# ttyAMA0), timed on the arm64 counter (timer.source cntvct), PAN seen on
# (qemu's max CPU has it: the kernel log says so); core cycles readable
# from user space on side arm (timer.cycles "yes: PMCCNTR_EL0, N cycles a
# read pair": qemu emulates the PMU) and refused on arm0 with the reason
# (perf_user_access is 0); KPTI on for arm (forced by kpti=1) and off for
# arm0 (qemu's max CPU has CSV3 and E0PD), which boot's settings check
# reports as "differ, as asked"; PAN still on for arm, which the check
# reports after the boot and as NOT DIFFERENT between sides; under TCG the runs are marked emulated,
# and on a host of another architecture boot.accel says that is why; the
# kernel view ran on BPF (the arm64 build's programs, compiled against the
# BTF of Debian's arm64 Image, load in the guest) and recorded in-kernel %.
# Uses the smoke tests' helpers (tests/smoke/lib.sh).
. "$(dirname "$0")/../smoke/lib.sh"

BOOT_WORK_ARM64=${BOOT_WORK_ARM64:-"sys.null -- --quick --kernel syscall"}
case $BOOT_WORK_ARM64 in
*"--kernel syscall"*) views=yes ;;
*) views=no ;;
esac
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
	--side arm --append "sysctl.kernel.perf_user_access=1 kpti=1 arm64.nopan" \
	--side-b arm0 --boots 1 --timeout-s 300 $BOOT_WORK_ARM64
secs=$(( $(date +%s) - start ))
echo "2 arm64 boots in ${secs}s:"
sed 's/^/  | /' "$OUT"
[ -z "$(ls "$TMPDIR")" ] || fail "left in TMPDIR: $(ls "$TMPDIR")"
contains "$OUT" "2 of 2 boots done in"
contains "$OUT" "2 imported, 0 failed"
contains "$OUT" "  guest: aarch64 (--kernel is an arm64 Image)"
contains "$OUT" "boot 1/2  side arm: run 1,"
contains "$OUT" "boot 2/2  side arm0: run 2,"
# the settings check of an arm64 guest: kpti
contains "$OUT" "  kpti: arm asks 'kpti=1', arm0 asks '(default)'"
contains "$OUT" '    arm: kpti on (the kernel log: "CPU features: detected: Kernel page table isolation (KPTI)"'
contains "$OUT" '    arm0: kpti off (no "CPU features: detected: Kernel page table isolation (KPTI)" in the kernel log)'
contains "$OUT" "    differ, as asked"
# arm64.nopan: Linux 6.1 has no such parameter, PAN stays on, and boot
# says so after the boot and between the sides
contains "$OUT" "    WARNING: 'arm64.nopan' asks to turn PAN off, but the guest's cpu.arm64.pan is on (the kernel log"
contains "$ERR" "WARNING: boot 1 (side arm): 'arm64.nopan' asks to turn PAN off"
contains "$OUT" "  pan: arm asks 'arm64.nopan', arm0 asks '(default)'"
contains "$OUT" "    NOT DIFFERENT: the setting did not take effect"
contains "$ERR" "WARNING: sides 'arm' and 'arm0' ask for different pan ('arm64.nopan' vs '(default)')"
[ "$(grep -c "NOT DIFFERENT" "$OUT")" -eq 1 ] || fail "kpti not different too"
emulated=no
grep -q 'accel TCG (emulated)' "$OUT" && emulated=yes
[ $emulated = no ] || contains "$ERR" "the guests run under TCG"
[ "$(count_runs)" -eq 2 ] || fail "not two runs"

for id in 1 2; do
"$BIN" export $id >"$TMP/export.jsonl" || fail "export of run $id failed"
python3 - "$TMP/export.jsonl" "$emulated" "$(uname -m)" "$views" <<'PY' || fail "the arm64 run $id's environment"
import json, sys
path, emulated, host, views = sys.argv[1:]
lines = [json.loads(l) for l in open(path)]
run = next(l for l in lines if l.get("type") == "run")
env, info = run["environment"], run["run"]
arm = info["tag"] == "arm"
assert info["tag"] in ("arm", "arm0"), info["tag"]
assert info["status"] == "complete", info["status"]
assert run["results"] > 0
assert env["boot.arch"] == "aarch64", env["boot.arch"]
assert env["kernel.machine"] == "aarch64", env["kernel.machine"]
assert env["kernel.release"].endswith("-arm64"), env["kernel.release"]
assert env["kernel.cmdline"] == "console=ttyAMA0 panic=-1" + (
    " sysctl.kernel.perf_user_access=1 kpti=1 arm64.nopan" if arm else ""), env["kernel.cmdline"]
assert env["boot.cmdline_check"] == "ok"
assert env["boot.qemu"].startswith("qemu-system-aarch64 -M virt"), env["boot.qemu"]
assert env["timer.source"] == "cntvct", env["timer.source"]
# core cycles from user space: with perf_user_access=1 the PMU's cycle
# counter (qemu emulates it), else the kernel's refusal
cyc = env["timer.cycles"]
if arm:
    assert cyc.startswith("yes: PMCCNTR_EL0, "), cyc
    assert cyc.endswith(" cycles a read pair"), cyc
    assert int(cyc.split(", ")[1].split()[0]) > 0, cyc
else:
    assert cyc == ("no: /proc/sys/kernel/perf_user_access is 0: the kernel "
                   "does not let user space read the PMU (sysctl "
                   "kernel.perf_user_access=1 allows it)"), cyc
print("  %s: timer.cycles %s" % (info["tag"], cyc))
kpti = env["cpu.arm64.kpti"]
assert kpti.startswith("on (the kernel log" if arm else "off ("), kpti
# qemu's max CPU has PAN; the kernel log says the kernel turned it on
assert env["cpu.arm64.pan"].startswith("on (the kernel log"), env["cpu.arm64.pan"]
assert env["virt.emulated"].startswith(emulated), env["virt.emulated"]
if host != "aarch64":
    assert env["virt.emulated"].startswith("yes"), env["virt.emulated"]
    assert env["boot.accel"].startswith(
        "tcg (the guest is aarch64, this host x86_64"), env["boot.accel"]
if views == "yes":
    assert env["kernel_views.backend"].startswith("bpf ("), env.get("kernel_views.backend")
    metrics = {l["metric"] for l in lines if l.get("type") == "result"}
    assert "in-kernel %" in metrics, metrics
    print("  %s: kernel_views.backend %s" % (info["tag"], env["kernel_views.backend"]))
PY
done
echo "ok (${secs}s for 2 arm64 boots of '$BOOT_WORK_ARM64')"
