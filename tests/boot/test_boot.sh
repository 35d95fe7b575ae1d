#!/bin/sh
# test_boot.sh - `copyscope boot` for real (make test-boot): Debian's
# kernel (scripts/fetch-kernel.sh puts it into build/kernel/) booted in
# qemu twice per side, side 'on' with the default command line, side 'off'
# with "clearcpuid=smap nosmap" (nosmap was removed in 5.19: the kernel
# must report it as unknown), each boot running the workloads of BOOT_WORK
# (default: the quick suite; about 20-25 s per boot under TCG here).
# Checks: four runs arrive, tagged on/off alternately, each with its own
# boot id, the guest's kernel release and command line, marked emulated
# when the accelerator is TCG; the unknown parameter is reported; the
# setting check sees smap differ; `compare on off` names the smap flag in
# its environment differences and, on emulated runs, prints numbers but no
# verdicts.  Uses the smoke tests' helpers (tests/smoke/lib.sh).
#
#   BOOT_WORK="sys.null"  a smaller workload, for a faster try
. "$(dirname "$0")/../smoke/lib.sh"

BOOT_WORK=${BOOT_WORK:-quick}
command -v qemu-system-x86_64 >/dev/null 2>&1 ||
	skip "qemu-system-x86_64 is missing (scripts/install-deps.sh)"
[ -x /bin/busybox ] ||
	skip "/bin/busybox is missing (busybox-static; scripts/install-deps.sh)"
[ -x build/copyscope-static ] || skip "no build/copyscope-static (make static)"
KERNEL=$(scripts/fetch-kernel.sh) ||
	skip "no kernel image: scripts/fetch-kernel.sh failed (no package archive?)"
export TMPDIR="$TMP/tmpdir"
mkdir -p "$TMPDIR"

start=$(date +%s)
# stdout and stderr into one file, as on a terminal: a warning on stderr
# must not cut a boot's line ("boot 2/4  side off: run 2, ..." below)
# shellcheck disable=SC2086
"$BIN" boot --kernel "$KERNEL" --side on --side-b off \
	--append-b "clearcpuid=smap nosmap" --boots 2 --timeout-s 600 \
	$BOOT_WORK >"$TMP/boot.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat "$TMP/boot.out"; fail "boot exited $rc"; }
secs=$(( $(date +%s) - start ))
cp "$TMP/boot.out" "$TMP/boot.err"
echo "4 boots in ${secs}s:"
sed 's/^/  | /' "$TMP/boot.out"
[ -z "$(ls "$TMPDIR")" ] || fail "left in TMPDIR: $(ls "$TMPDIR")"

contains "$TMP/boot.out" "4 of 4 boots done in"
contains "$TMP/boot.out" "4 imported, 0 failed"
for i in 1 3; do contains "$TMP/boot.out" "boot $i/4  side on: run"; done
for i in 2 4; do contains "$TMP/boot.out" "boot $i/4  side off: run"; done
# the unknown parameter, on both boots of side off only
[ "$(count_matches "$TMP/boot.out" "unknown to the guest kernel: nosmap")" \
	-eq 2 ] || fail "nosmap should be reported unknown twice"
# the setting check: smap differs between the sides
contains "$TMP/boot.out" "smap: on asks '(default)', off asks 'clearcpuid=smap nosmap'"
contains "$TMP/boot.out" "on: smap present"
contains "$TMP/boot.out" "off: smap absent"
contains "$TMP/boot.out" "differ, as asked"
emulated=no
grep -q 'accel TCG (emulated)' "$TMP/boot.out" && emulated=yes
[ $emulated = no ] || contains "$TMP/boot.err" "the guests run under TCG"

[ "$(count_runs)" -eq 4 ] || fail "not four runs"
python3 - "$BIN" "$COPYSCOPE_DB" "$emulated" <<'PY' || fail "the runs' tags and environments"
import json, subprocess, sys
bin_, db, emulated = sys.argv[1:]
boot_ids = set()
for rid, side in ((1, "on"), (2, "off"), (3, "on"), (4, "off")):
    out = subprocess.run([bin_, "export", str(rid), "--db", db],
                         capture_output=True, text=True, check=True).stdout
    lines = [json.loads(l) for l in out.splitlines()]
    run = next(l for l in lines if l.get("type") == "run")
    env, info = run["environment"], run["run"]
    assert info["tag"] == side, (rid, info["tag"])
    assert info["status"] == "complete", (rid, info["status"])
    assert env["boot.side"] == side
    assert env["boot_id"] == info["boot_id"]
    boot_ids.add(info["boot_id"])
    assert env["kernel.release"].endswith("-amd64"), env["kernel.release"]
    assert env["kernel.cmdline"].startswith("console=ttyS0 panic=-1")
    want = "clearcpuid=smap nosmap" if side == "off" else ""
    assert env["kernel.cmdline"].endswith(want), env["kernel.cmdline"]
    assert env["boot.unknown_params"] == ("nosmap" if side == "off"
                                          else "none")
    assert env["boot.cmdline_check"] == "ok"
    assert env["virt.emulated"].startswith(emulated), env["virt.emulated"]
    flags = env["cpu.flags"].split()
    assert ("smap" in flags) == (side == "on"), flags
    assert run["results"] > 0
assert len(boot_ids) == 4, boot_ids
PY

cs 0 compare on off
cp "$OUT" "$TMP/compare.out"
contains "$TMP/compare.out" "base: tag on (runs 1, 3; 2 boots)"
contains "$TMP/compare.out" "new:  tag off (runs 2, 4; 2 boots)"
# the environment differences name the smap flag
python3 - "$TMP/compare.out" <<'PY' || fail "compare's cpu.flags difference lacks smap"
import sys
t = open(sys.argv[1]).read().split("\n")
i = next(i for i, l in enumerate(t) if l.strip().startswith("cpu.flags:"))
base = " ".join(t[i:i + 3])
assert "smap" in base.split("new:")[0] and "smap" not in base.split("new:")[1], base
PY
contains "$TMP/compare.out" "boot.unknown_params: none -> nosmap"
if [ $emulated = yes ]; then
	contains_flat "$TMP/compare.out" "verdicts are withheld"
	contains_re "$TMP/compare.out" " emul$"
	! grep -E -q ' (better|worse|~)$' "$TMP/compare.out" ||
		fail "a verdict on emulated runs"
	cs 0 compare on off --allow-emulated
	! grep -E -q ' emul$' "$OUT" || fail "emul with --allow-emulated"
fi
echo "ok (${secs}s for 4 boots of '$BOOT_WORK')"
