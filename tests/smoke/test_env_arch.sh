#!/bin/sh
# test_env_arch.sh - the environment describes the CPU of the binary's own
# architecture (#33 item 4): an arm64 build records the MIDR with the
# implementer's and the part's names, the HWCAP features, PAC, BTI, the
# SVE vector length, PAN and KPTI, and none of x86's flags (under
# qemu-user /proc/cpuinfo is the x86 host's, which must not be taken for
# the CPU); an x86 build records its cpuinfo model and flags and no arm64
# keys.  Both say whether core cycles can be read from user space
# (timer.cycles: yes, or no with the reason); under qemu-user, which does
# not translate perf_event_open, no, and the line under the timer line
# says so.
. "$(dirname "$0")/lib.sh"
need_python

qemu_user=no
case ${COPYSCOPE_BIN:-} in *qemu-copyscope) qemu_user=yes ;; esac
cs 0 run sys.null --quick --tag arch
if [ $qemu_user = yes ]; then
	contains "$OUT" "  core cycles from user space: no: perf_event_open: Function not"
fi
cs 0 show last --json
python3 - "$OUT" "$qemu_user" <<'PY' || fail "the environment does not describe this CPU"
import json, sys
env = json.load(open(sys.argv[1]))["environment"]
cyc = env["timer.cycles"]
assert cyc.startswith("yes: ") or (cyc.startswith("no: ") and len(cyc) > 20), cyc
if sys.argv[2] == "yes":
    assert cyc.startswith("no: perf_event_open: Function not implemented ("), cyc
    assert "qemu-user" in cyc, cyc
m = env["kernel.machine"]
if m == "aarch64":
    assert "MIDR 0x" in env["cpu.model"], env["cpu.model"]
    assert "implementer 0x" in env["cpu.model"], env["cpu.model"]
    for k in ("midr_source", "hwcap", "pac", "bti", "sve_vector_length",
              "pan", "kpti"):
        assert env["cpu.arm64." + k], k
    assert env["cpu.arm64.kpti"].startswith(("on (", "off (", "unknown (")), \
        env["cpu.arm64.kpti"]
    assert "asimd" in env["cpu.arm64.hwcap"].split(), env["cpu.arm64.hwcap"]
    for x86 in ("avx2", "erms", "fsrm", "smap", "pti"):
        assert x86 not in env["cpu.flags"].split(), env["cpu.flags"]
elif m == "x86_64":
    assert not [k for k in env if k.startswith("cpu.arm64.")]
    assert "MIDR" not in env["cpu.model"]
else:
    sys.exit("kernel.machine is %r" % m)
PY
exit 0
