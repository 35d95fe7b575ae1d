#!/bin/sh
# test_mem_copy.sh - `run mem.copy`: every engine this CPU has across a small
# size sweep with odd sizes and offsets, each copy checked byte by byte
# (verify=1); the metrics and their units; an engine the CPU lacks is
# skipped with its reason (exit 77 when nothing else ran) - where the CPU
# has every engine, the reason is covered by tests/unit/test_copy_engines.c.
. "$(dirname "$0")/lib.sh"

case $(uname -m) in
x86_64) ;;
*) skip "the copy engines other than libc and inline need x86-64" ;;
esac

flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
has() {
	case " $flags " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}
engines="libc,movsb,movsq,nt,inline"
missing=""
if has avx2; then engines="$engines,avx2"; else missing="avx2"; fi
if has avx512f; then
	engines="$engines,avx512"
else
	missing="$missing avx512"
fi
n_engines=$(echo "$engines" | tr ',' '\n' | wc -l)

note "engines here: $engines; sizes 64,1000,4k; offsets 3, 61; verify=1"
cs 0 run mem.copy engine="$engines" size=64,1000,4k src_off=3 dst_off=61 \
	verify=1 --quick --no-store
contains_re "$OUT" '^mem\.copy '
[ "$(grep -c 'verify: ok' "$OUT")" -eq $((n_engines * 3)) ] ||
	fail "expected $((n_engines * 3)) 'verify: ok' lines"
grep -qi 'verify: fail' "$OUT" && fail "a copy engine copied wrongly"
contains_flat "$OUT" "0 wrong, 0 bytes written outside the destination"
[ "$(grep -E -c ' bandwidth +[0-9.]+ [KMGT]?i?B/s' "$OUT")" -eq \
	$((n_engines * 3)) ] || fail "expected a bandwidth row per config"
contains_re "$OUT" 'time/copy +[0-9.]+ [num]?s'
# cycle rates print bare (the heading names the timer); ns/byte keeps its unit
contains_re "$OUT" 'cycles/byte +[0-9.]+( ns/byte)? +[0-9.]+%'
awk '/^  / && length > 80 { bad = 1 } END { exit bad }' "$OUT" ||
	fail "mem.copy rows wider than 80 columns"
contains "$OUT" "copier cpu"

note "inline at a size that is not a constant: says it is the libc call"
cs 0 run mem.copy engine=inline size=100 --quick --no-store
contains_flat "$OUT" "is not one of its constant sizes"

note "metric help says each byte is counted once"
cs 0 list mem.copy
contains_flat "$OUT" "each byte counted once"

for e in $missing; do
	note "engine=$e: this CPU lacks it, skipped with the reason"
	cs 77 run mem.copy engine="$e" --quick --no-store
	contains "$ERR" "skipped"
	contains "$ERR" "engine=$e needs"
	contains "$ERR" "engines this CPU has"
	cs 0 run mem.copy engine="libc,$e" --quick --no-store
	contains "$ERR" "skipped"
done
[ -n "$missing" ] || note "this CPU has every engine: the reason is unit-tested"

note "bad offset is a usage error"
cs 2 run mem.copy src_off=4096 --quick --no-store
contains "$ERR" "src_off"
exit 0
