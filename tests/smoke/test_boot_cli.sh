#!/bin/sh
# test_boot_cli.sh - `copyscope boot` without booting a kernel (the real
# boots are tests/boot/test_boot.sh, `make test-boot`): its usage errors
# (exit 2, naming the parameter), --print-init, and what it does with a
# guest that goes wrong, played by a fake qemu (a shell script given as
# --qemu that reads the -serial file: paths from its arguments): a guest
# that hangs (killed at --timeout-s, recorded as a failed run, the next
# boot still made), one that panics (the panic line recorded), one whose
# copyscope stored nothing (its error shown), one that
# sends a good report (imported, tagged, marked emulated, with boot.*
# keys), Ctrl-C (qemu stopped, exit 130, what was imported kept); no
# temporary files left.  Then compare on emulated runs: numbers, no
# verdicts ('emul'), unless --allow-emulated; check exits 1 on them.
. "$(dirname "$0")/lib.sh"
need_python

STATIC=build/copyscope-static
[ -x "$STATIC" ] || skip "no $STATIC (make static)"
BB=/bin/busybox
[ -x "$BB" ] || skip "no $BB (busybox-static; scripts/install-deps.sh)"
KERNEL=$TMP/bzImage
printf 'not a kernel: the fake qemu never reads it\n' >"$KERNEL"
export TMPDIR="$TMP/tmpdir"
mkdir -p "$TMPDIR"
BOOT="boot --kernel $KERNEL --busybox $BB --copyscope-static $STATIC --accel tcg"

# ---- usage errors ----
cs 2 boot --side on sys.null
contains "$ERR" "--kernel IMAGE is needed"
cs 2 boot --kernel "$KERNEL" sys.null
contains "$ERR" "--side NAME is needed"
cs 2 $BOOT --side on
contains "$ERR" "which WORKLOAD or SUITE"
cs 2 $BOOT --side on --boots 0 sys.null
contains "$ERR" "--boots: '0' is not an integer in 1 .. 100"
cs 2 $BOOT --side on --accel fast sys.null
contains "$ERR" "--accel: 'fast' is not one of auto, kvm, tcg"
cs 2 $BOOT --side on --timeout-s 0 sys.null
contains "$ERR" "--timeout-s: '0' is not a number of seconds in 1 .. 86400"
cs 2 $BOOT --side on --smp 0 sys.null
contains "$ERR" "--smp: '0' is not an integer in 1 .. 64"
cs 2 $BOOT --side on --memory-mib 64 sys.null
contains "$ERR" "--memory-mib: '64' is not an integer in 128 .. 65536"
cs 2 $BOOT --side on --side-b on sys.null
contains "$ERR" "--side and --side-b are both 'on'"
cs 2 $BOOT --side on --append-b nosmap sys.null
contains "$ERR" "--append-b needs --side-b NAME"
cs 2 $BOOT --side 12 sys.null
contains "$ERR" "boot"
cs 2 $BOOT --side on sys.null -- --db /x
contains "$ERR" "--db after '--'"
cs 2 $BOOT --side on nosuch.workload
contains "$ERR" "nosuch.workload"
cs 2 $BOOT --side on sys.null --frobnicate
contains "$ERR" "unknown option '--frobnicate'"
cs 2 boot --kernel "$TMP/missing" --side on sys.null
contains "$ERR" "--kernel: cannot read '$TMP/missing'"
cs 2 $BOOT --side on --busybox build/copyscope sys.null
contains "$ERR" "--busybox: it is dynamically linked"
cs 2 boot --kernel "$KERNEL" --side on --copyscope-static build/copyscope \
	sys.null
contains "$ERR" "--copyscope-static: it is dynamically linked"
cs 77 $BOOT --side on --qemu "$TMP/no-qemu" sys.null
contains "$ERR" "no-qemu: not found"
# ---- the guest's architecture: the image's, checked against the files ----
contains "$ERR" "warning: --kernel: $KERNEL is neither an x86 bzImage nor an arm64 Image"
cs 2 $BOOT --side on --arch arm64 sys.null
contains "$ERR" "--arch: 'arm64' is not one of auto, x86_64, aarch64"
# an arm64 Image header ("ARM\x64" at 0x38) and an x86 one ("HdrS" at 0x202)
python3 -c '
import sys
for path, off, magic in ((sys.argv[1], 0x38, b"ARM\x64"),
                         (sys.argv[2], 0x202, b"HdrS")):
    b = bytearray(4096); b[off:off + 4] = magic
    open(path, "wb").write(b)
' "$TMP/Image" "$TMP/bzImage2" || fail "writing the fake images"
cs 2 boot --kernel "$TMP/Image" --busybox $BB --copyscope-static $STATIC \
	--side arm sys.null
contains "$ERR" "--copyscope-static: $(realpath "$STATIC") is an executable for x86_64, the guest is aarch64: make static-aarch64"
cs 2 boot --kernel "$TMP/Image" --side arm --arch x86_64 sys.null
contains "$ERR" "--kernel: $TMP/Image is an aarch64 kernel (Image), but --arch is x86_64"
cs 2 boot --kernel "$TMP/bzImage2" --kernel-b "$TMP/Image" --side a \
	--side-b b sys.null
contains "$ERR" "--kernel-b: $TMP/Image is an aarch64 kernel (Image), but side A's kernel is x86_64"
if [ -x build/aarch64/copyscope-static ]; then
	cs 2 boot --kernel "$TMP/Image" --busybox $BB --side arm \
		--copyscope-static build/aarch64/copyscope-static sys.null
	contains "$ERR" "--busybox: $(realpath $BB) is an executable for x86_64, the guest is aarch64: scripts/fetch-kernel.sh --arch arm64"
fi
cs 0 boot --help
contains "$OUT" "usage: copyscope boot"
cs 0 boot --print-init sys.null call=getppid -- --reps 3
contains "$OUT" "/bin/copyscope run --db /tmp/guest.db 'sys.null' 'call=getppid' '--reps' '3'"
# the data port: ttyS1 on x86-64, the PCI 16550's ttyS0 on arm64
cs 0 boot --print-init --arch x86_64 sys.null
contains "$OUT" "out=/dev/ttyS1"
cs 0 boot --print-init --arch aarch64 sys.null
contains "$OUT" "out=/dev/ttyS0"

# ---- a fake qemu: MODE hang, panic, good (sends $TMP/export.jsonl) ----
"$BIN" run sys.null --reps 3 --sample-time 5ms --db "$TMP/guest.db" \
	>/dev/null 2>&1 || fail "a run for the fake guest's export failed"
"$BIN" export last --db "$TMP/guest.db" >"$TMP/export.jsonl" ||
	fail "export failed"
FAKE=$TMP/fake-qemu
cat >"$FAKE" <<EOF
#!/bin/sh
# fake qemu for test_boot_cli.sh: the two -serial file: paths, then act
console= data= append=
prev=
for a in "\$@"; do
	case \$prev:\$a in
	-serial:file:*) if [ -z "\$console" ]; then console=\${a#file:};
		else data=\${a#file:}; fi ;;
	-append:*) append=\$a ;;
	esac
	prev=\$a
done
echo "\$\$" >>"$TMP/fake.pids"
case \$(cat "$TMP/mode") in
hang)	echo "[    1.0] Run /init as init process" >"\$console"
	exec sleep 60 ;;
panic)	echo "[    1.5] Kernel panic - not syncing: Attempted to kill init!" \
		>"\$console"
	exit 0 ;;
norun)	{ echo "[    1.0] Run /init as init process"
	  echo "copyscope run: /var/tmp: No space left on device"
	  echo "[    2.0] reboot: Restarting system"; } >"\$console"
	printf 'copyscope-boot-begin 1\nrun-rc: 1\ncopyscope-export-begin\ncopyscope-export-end 1\ncopyscope-boot-end\n' >"\$data"
	exit 0 ;;
good)	echo "[    1.0] booted" >"\$console"
	{
		echo 'copyscope-boot-begin 1'
		echo 'release: 6.1.0-fake'
		echo "cmdline: \$append"
		echo "boot_id: \$(cat /proc/sys/kernel/random/uuid)"
		echo 'unknown: [    0.0] Unknown kernel command line parameters "nosmap", will be passed to user space.'
		echo 'run-rc: 0'
		echo 'copyscope-export-begin'
		# a run is new at every boot: a fresh unique id
		old=\$(sed -n 's/.*"uuid":"\([0-9a-f]*\)".*/\1/p' \
			"$TMP/export.jsonl" | head -n 1)
		new=\$(tr -d '-' </proc/sys/kernel/random/uuid)
		sed "s/\$old/\$new/g" "$TMP/export.jsonl"
		echo 'copyscope-export-end 0'
		echo 'copyscope-boot-end'
	} >"\$data"
	exit 0 ;;
esac
EOF
chmod +x "$FAKE"

echo hang >"$TMP/mode"
cs 1 $BOOT --qemu "$FAKE" --side on --boots 2 --timeout-s 1 sys.null
contains "$OUT" "boot 1/2  side on: FAILED after"
contains "$OUT" "no end after 1 s (--timeout-s): a hung guest?"
contains "$OUT" "boot 2/2  side on: FAILED"
contains "$OUT" "0 imported, 2 failed"
[ "$(count_runs)" -eq 2 ] || fail "two failed boots should be two runs"
cs 0 runs
contains_re "$OUT" "failed"
echo panic >"$TMP/mode"
cs 1 $BOOT --qemu "$FAKE" --side on --boots 1 sys.null
contains "$OUT" "the guest kernel failed: Kernel panic - not syncing"
id=$(sed -n 's/.*recorded as run \([0-9]*\) .*/\1/p' "$OUT")
cs 0 show "$id"
contains "$OUT" "boot.failure"
contains "$OUT" "Kernel panic"
echo norun >"$TMP/mode"
cs 1 $BOOT --qemu "$FAKE" --side on --boots 1 sys.null
contains "$OUT" "the guest's copyscope stored no run to send (qemu exit status 0); the console says: copyscope run: /var/tmp: No space left on device"
# no qemu left behind, no temporary directory left
for p in $(cat "$TMP/fake.pids"); do
	! kill -0 "$p" 2>/dev/null || fail "fake qemu $p still running"
done
[ -z "$(ls "$TMPDIR")" ] || fail "left in TMPDIR: $(ls "$TMPDIR")"

echo good >"$TMP/mode"
rm -f "$COPYSCOPE_DB"
cs 0 $BOOT --qemu "$FAKE" --side on --side-b off \
	--append-b "clearcpuid=smap nosmap" --boots 2 sys.null
contains "$OUT" "boot 1/4  side on: run"
contains "$OUT" "boot 2/4  side off: run"
contains "$OUT" "unknown to the guest kernel: nosmap"
contains "$ERR" "the guest kernel did not recognise: nosmap"
contains "$ERR" "guests run under TCG"
contains "$OUT" "4 of 4 boots done in"
contains "$OUT" "4 imported, 0 failed"
contains "$OUT" "compare: copyscope compare on off"
[ "$(count_runs)" -eq 4 ] || fail "four boots should be four runs"
[ -z "$(ls "$TMPDIR")" ] || fail "left in TMPDIR: $(ls "$TMPDIR")"
cs 0 show 1
contains "$OUT" "tag on"
contains_re "$OUT" "^virt.emulated +yes"
contains_re "$OUT" "^boot.side +on"
contains_re "$OUT" "^boot.accel +tcg \(asked for"
contains_re "$OUT" "^boot.unknown_params +nosmap"

# ---- Ctrl-C: qemu stopped, exit 130, imported boots kept ----
echo hang >"$TMP/mode"
: >"$TMP/fake.pids"
"$BIN" $BOOT --qemu "$FAKE" --side on --boots 3 --timeout-s 50 sys.null \
	>"$OUT" 2>"$ERR" &
bp=$!
i=0
while [ ! -s "$TMP/fake.pids" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -s "$TMP/fake.pids" ] || fail "the fake qemu never started"
kill -INT $bp
wait $bp
rc=$?
LAST_CMD="boot ... (SIGINT)"
[ $rc -eq 130 ] || fail "boot exited $rc after SIGINT, not 130"
contains "$OUT" "interrupted after"
for p in $(cat "$TMP/fake.pids"); do
	! kill -0 "$p" 2>/dev/null || fail "fake qemu $p survived Ctrl-C"
done
[ -z "$(ls "$TMPDIR")" ] || fail "left in TMPDIR: $(ls "$TMPDIR")"
cs 0 show 1
contains "$OUT" "tag on"

# ---- SIGHUP as Ctrl-C; kill -9 of copyscope takes qemu with it ----
fake_started() { [ -s "$TMP/fake.pids" ]; }
fakes_gone() {
	for _p in $(cat "$TMP/fake.pids"); do
		! kill -0 "$_p" 2>/dev/null || return 1
	done
}
echo hang >"$TMP/mode"
for sig in HUP KILL; do
	: >"$TMP/fake.pids"
	"$BIN" $BOOT --qemu "$FAKE" --side on --boots 1 --timeout-s 50 \
		sys.null >"$OUT" 2>"$ERR" &
	bp=$!
	wait_for 10 fake_started
	kill -$sig $bp
	wait $bp
	rc=$?
	LAST_CMD="boot ... (SIG$sig)"
	# the fake qemu: gone with copyscope (PR_SET_PDEATHSIG), not left
	# running past its boot's timeout reparented to init
	wait_for 5 fakes_gone
	if [ $sig = HUP ]; then
		[ $rc -eq 130 ] || fail "boot exited $rc after SIGHUP, not 130"
		contains "$OUT" "interrupted after"
		[ -z "$(ls "$TMPDIR")" ] ||
			fail "left in TMPDIR after SIGHUP: $(ls "$TMPDIR")"
	else
		[ $rc -eq 137 ] || fail "boot exited $rc after SIGKILL"
		rm -rf "$TMPDIR"/copyscope-boot.*
	fi
done

# ---- compare and check on emulated runs ----
# one real run, staged, imported twice as each side, each copy marked
# emulated as boot marks its guests' runs
db=$TMP/emu.db
stage run sys.null --reps 5 --sample-time 5ms
for t in a b; do
	made_env virt.emulated "yes (qemu TCG: test)"
	made_run tag "emu-$t"
	made_copies "$db" 2
done
cs 0 compare emu-a emu-b --db "$db"
contains_flat "$OUT" "WARNING: 2 base and 2 new runs were measured under an emulator"
contains_flat "$OUT" "verdicts are withheld"
contains_re "$OUT" " emul$"
! grep -E -q ' (better|worse|~)$' "$OUT" || fail "a verdict on emulated runs"
contains_flat "$OUT" "informational, 1 emul, 1 read with another row"
cs 0 compare emu-a emu-b --db "$db" --allow-emulated
! grep -E -q " emul$" "$OUT" || fail "emul with --allow-emulated"
contains_flat "$OUT" "Verdicts are given all the same (--allow-emulated)"
cs 0 compare emu-a emu-b --db "$db" --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = d["emulated"]
assert e == {"base_runs": 2, "new_runs": 2, "verdicts_withheld": True}, e
assert all(r["verdict"] in ("withheld", "info") for r in d["rows"]), d["rows"]
' "$OUT" || fail "compare --json on emulated runs"
cs 1 check emu-a --new emu-b --db "$db"
contains "$ERR" "were measured under an emulator"
# judged: known samples, emu-b's 20% above emu-a's, are a regression;
# undisturbed (made values: the real samples' interference flags, which a
# loaded machine sets on most, would make them "cannot tell", exit 4)
for t in a b; do
	case $t in
	a) made_values "*" 100 101 102 103 104 ;;
	b) made_values "*" 120 121.2 122.4 123.6 124.8 ;;
	esac
	made_env virt.emulated "yes (qemu TCG: test)"
	made_run tag "emu-j$t"
	made_flags none
	made_copies "$db" 2
done
cs 3 check emu-ja --new emu-jb --db "$db" --allow-emulated --by-sample
contains_re "$OUT" '^check: REGRESSION: 1 of 2 metrics worse by more than 5% '
not_contains "$ERR" "were measured under an emulator"
echo "ok"
