#!/bin/sh
# test_udp_rr.sh - `run udp.rr`: the table and the stored run, percentiles
# in order and transactions/s consistent with the round trips, IPv4, the
# announced fallback to IPv4 when IPv6 is off (in a private network
# namespace), retransmits after injected loss, a bounded failure when a
# flow never answers, and no socket, thread or process left behind across
# a sweep of configurations (sampled from /proc while it runs).
. "$(dirname "$0")/lib.sh"

note "run udp.rr flows=100 --quick"
cs 0 run udp.rr flows=100 --quick
# the n column: 3 samples, or up to 6 where disturbed ones were taken
# again and the headline was withheld all the same (docs/methodology.md)
contains_re "$OUT" '^udp\.rr +flows=100 +server_threads=1 +client_threads=2'
contains_re "$OUT" '^ +transactions/s +([0-9.]+ [KMG]?/s|withheld) .* [3-6]$'
contains_re "$OUT" '^ +rtt mean +([0-9.]+ (ns|us|ms|s)|withheld) .* [3-6]$'
contains_re "$OUT" '^ +rtt p50 +([0-9.]+ (ns|us|ms|s)|withheld) .* [3-6]$'
contains_re "$OUT" '^ +rtt p99 +([0-9.]+ (ns|us|ms|s)|withheld) .* [3-6]$'
contains_re "$OUT" '^ +rtt p99\.9 +([0-9.]+ (ns|us|ms|s)|withheld) .* [3-6]$'
contains_re "$OUT" '^ +events/wait +([0-9.]+|withheld) .* [3-6]$'
contains_re "$OUT" '^ +retransmits +([0-9.]+|withheld) .* [3-6]$'
contains "$OUT" "server0 cpu"
contains "$OUT" "client1 cpu"
contains_flat "$OUT" "per worker: mean, p50, p99, max"
contains_flat "$OUT" "loopback"
contains "$OUT" "stored as run 1"

need_python
note "client_threads=1,2 family=4 --json: percentiles, rate vs round trips"
cs 0 run udp.rr flows=20 client_threads=1,2 family=4 --quick --json \
	--no-store
python3 - "$OUT" <<'EOF' || fail "the JSON results do not hold (above)"
import json, sys

d = json.load(open(sys.argv[1]))
res = {}
for r in d["results"]:
    p = r["params"]
    res.setdefault(int(p["client_threads"]), {})[r["metric"]] = r
bad = []
if sorted(res) != [1, 2]:
    bad.append("configurations: %s" % sorted(res))
for ct, m in sorted(res.items()):
    s = {k: v["samples"] for k, v in m.items()}
    note = m["transactions/s"]["info"]["note"]
    if "127.0.0.1" not in note:
        bad.append("family=4 note does not say 127.0.0.1: %r" % note)
    for i in range(len(s["rtt p50"])):
        p50, p99, p999 = s["rtt p50"][i], s["rtt p99"][i], s["rtt p99.9"][i]
        mx = s["rtt max"][i]
        if not 0 < p50 <= p99 <= p999 <= mx * 1.04:
            bad.append("client_threads=%d sample %d: p50 %g p99 %g "
                       "p99.9 %g max %g out of order"
                       % (ct, i, p50, p99, p999, mx))
        # Each client has one transaction in flight, so the clients
        # together complete at most client_threads per mean round trip.
        tps, mean = s["transactions/s"][i], s["rtt mean"][i]
        if not 0 < tps <= ct * 1e9 / mean * 1.01:
            bad.append("client_threads=%d sample %d: %g transactions/s "
                       "with a mean round trip of %g ns"
                       % (ct, i, tps, mean))
        if s["events/wait"][i] < 1:
            bad.append("client_threads=%d: events/wait %g < 1"
                       % (ct, s["events/wait"][i]))
        if s["retransmits"][i] != 0 and s["retransmits"][i] < 1:
            bad.append("retransmits %g" % s["retransmits"][i])
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF

if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
	command -v ip >/dev/null 2>&1 &&
	unshare -n true 2>/dev/null; then
	note "IPv6 off in a private network namespace: falls back to IPv4"
	LAST_CMD="unshare -n sh -c '... $BIN run udp.rr flows=10 ...'"
	unshare -n sh -c "ip link set lo up &&
		echo 1 >/proc/sys/net/ipv6/conf/lo/disable_ipv6 &&
		exec $BIN run udp.rr flows=10 --quick --no-store" \
		>"$OUT" 2>"$ERR"
	LAST_RC=$?
	# exit 0, or 4 with a headline withheld on a loaded machine (as
	# lib.sh's cs takes it)
	if [ "$LAST_RC" -eq 4 ]; then
		contains "$ERR" "headline withheld for"
	elif [ "$LAST_RC" -ne 0 ]; then
		fail "expected exit 0, got $LAST_RC"
	fi
	contains "$ERR" "udp.rr: IPv6 loopback unavailable"
	contains_flat "$OUT" "IPv6 loopback unavailable"
	contains_flat "$OUT" "using IPv4 127.0.0.1"
	contains_re "$OUT" '^ +transactions/s +([0-9.]+ [KMG]?/s|withheld) .* [3-6]$'
else
	note "not root or no unshare/ip: the IPv4 fallback is not tested"
fi

note "drop=2: every other request lost, resent, the run completes"
cs 0 run udp.rr flows=4 drop=2 --quick --no-store
contains_re "$OUT" '^ +retransmits +([1-9][0-9.]*|withheld) .* [3-6]$'

note "drop=1: a flow never answers; the run fails within bounded time"
start=$(date +%s)
cs 1 run udp.rr flows=4 drop=1 --quick --no-store
[ $(($(date +%s) - start)) -lt 30 ] || fail "the failing run took too long"
contains "$ERR" "no response in 50 tries"

# A private copy of the binary, so that no other test's processes match.
cp "$BIN" "$TMP/cs-udp-rr" || fail "cp $BIN"
note "sweep flows=1000,10 x mode=proc,thread: fds and threads from /proc"
"$TMP/cs-udp-rr" run udp.rr flows=1000,10 mode=proc,thread \
	--sample-time 20ms --reps 15 --warmup 0 --no-store \
	>"$OUT" 2>"$ERR" &
pid=$!
: >"$TMP/counts"
while kill -0 "$pid" 2>/dev/null; do
	nfd=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
	ntask=$(ls "/proc/$pid/task" 2>/dev/null | wc -l)
	[ "$nfd" -gt 0 ] && echo "$nfd $ntask" >>"$TMP/counts"
	sleep 0.02
done
wait "$pid"
LAST_RC=$?
LAST_CMD="cs-udp-rr run udp.rr flows=1000,10 mode=proc,thread ..."
# exit 0, or 4 with a headline withheld on a loaded machine
[ "$LAST_RC" -eq 0 ] || { [ "$LAST_RC" -eq 4 ] &&
	grep -q "headline withheld for" "$ERR"; } || fail "the sweep failed"
[ "$(grep -c 'transactions/s' "$OUT")" -ge 1 ] || fail "no results"
max_fd=$(sort -n "$TMP/counts" | tail -n 1 | cut -d' ' -f1)
[ -n "$max_fd" ] || fail "no /proc samples taken"
note "fd and task counts sampled: $(wc -l <"$TMP/counts"), peak $max_fd fds"
# flows=1000 holds 2000 sockets: the sampling must have seen them ...
[ "$max_fd" -ge 2000 ] ||
	fail "never saw the 2000 sockets of flows=1000 (peak $max_fd fds)"
# ... and the last configuration (flows=10, threads: 1 + 3 workers) must
# not hold them, nor the earlier configurations' threads.
last=$(grep -v '^$' "$TMP/counts" | tail -n 1)
last_fd=${last% *}
last_task=${last#* }
[ "$last_fd" -lt 200 ] ||
	fail "$last_fd fds open in the last configuration (sockets leaked?)"
[ "$last_task" -le 4 ] ||
	fail "$last_task threads in the last configuration (threads leaked?)"
# none_left: no process of the private copy remains
none_left() {
	! pgrep -f "$TMP/cs-udp-rr" >/dev/null 2>&1
}
wait_for 10 none_left
exit 0
