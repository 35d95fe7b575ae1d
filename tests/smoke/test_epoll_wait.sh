#!/bin/sh
# test_epoll_wait.sh - `run epoll.wait`: the table, the stored run, events
# per call equal to min(fds, maxevents) over a sweep of both sources, the
# per-sample identity time/call = time/event x events/call, raising a low
# soft RLIMIT_NOFILE, and the RLIMIT_NOFILE error (exit 2) as nobody.
. "$(dirname "$0")/lib.sh"

note "run epoll.wait fds=100 maxevents=16 --quick"
cs 0 run epoll.wait fds=100 maxevents=16 --quick
contains_re "$OUT" '^epoll\.wait +fds=100 +maxevents=16 +source=eventfd'
contains_re "$OUT" '^ +time/call +[0-9.]+ (ns|us|ms|s) .* 3$'
contains_re "$OUT" '^ +cycles/call +[0-9.]+ .* 3$'
contains_re "$OUT" '^ +time/event +[0-9.]+ (ns|us|ms|s) .* 3$'
contains_re "$OUT" '^ +events/call +16\.0 .* 3$'
contains_re "$OUT" '^ +events/s +[0-9.]+ [KMG]?/s .* 3$'
contains "$OUT" "waiter cpu"
contains "$OUT" "stored as run 1"

need_python
note "sweep fds x maxevents x source, --json: events/call and the identity"
cs 0 run epoll.wait fds=1,10,300 maxevents=1,64,1024 source=eventfd,pipe \
	--quick --json --no-store
python3 - "$OUT" <<'EOF' || fail "the JSON results do not hold (above)"
import json, sys

d = json.load(open(sys.argv[1]))
res = {}
for r in d["results"]:
    p = r["params"]
    key = (int(p["fds"]), int(p["maxevents"]), p["source"])
    res.setdefault(key, {})[r["metric"]] = r
bad = []
if len(res) != 18:
    bad.append("expected 18 configurations, got %d" % len(res))
for (fds, maxev, src), m in sorted(res.items()):
    want = min(fds, maxev)
    for name in ("time/call", "time/event", "events/call", "events/s"):
        if name not in m:
            bad.append("%s %s: no %s" % ((fds, maxev, src), name))
    if bad:
        continue
    epc = m["events/call"]["samples"]
    if any(abs(e - want) > 1e-9 for e in epc):
        bad.append("fds=%d maxevents=%d %s: events/call %s, want %d"
                   % (fds, maxev, src, epc, want))
    for tc, te, ec in zip(m["time/call"]["samples"],
                          m["time/event"]["samples"], epc):
        if tc <= 0 or abs(tc - te * ec) > 1e-6 * tc:
            bad.append("fds=%d maxevents=%d %s: time/call %g != "
                       "time/event %g x events/call %g"
                       % (fds, maxev, src, tc, te, ec))
    if m["events/s"]["direction"] != "higher":
        bad.append("events/s is not higher-is-better")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF

hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -lt 1200 ]; then
	note "hard RLIMIT_NOFILE is $hard: raising the soft limit not tested"
else
	note "soft RLIMIT_NOFILE 200 (hard $hard): fds=1000 raises it"
	expect_exit 0 sh -c "ulimit -Sn 200 && exec $BIN run epoll.wait \
		fds=1000 source=pipe --quick --no-store"
	contains_re "$OUT" '^ +events/call +64\.0 .* 3$'
fi

if ! command -v setpriv >/dev/null 2>&1; then
	note "setpriv is missing: the RLIMIT_NOFILE error is not tested"
elif [ "$(id -u)" -ne 0 ]; then
	note "not root: cannot become nobody; RLIMIT_NOFILE error not tested"
elif [ "$hard" = unlimited ] || [ "$hard" -gt 400000 ]; then
	note "hard RLIMIT_NOFILE is $hard: no fds count above it to test"
else
	fds=$((hard + 1000))
	note "as nobody, fds=$fds over the hard RLIMIT_NOFILE $hard: exit 2"
	runs_before=$(count_runs)
	expect_exit 2 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$BIN" run epoll.wait fds=$fds --quick --no-store
	contains "$ERR" "RLIMIT_NOFILE"
	contains "$ERR" "epoll.wait"
	contains "$ERR" "fds=$fds"
	contains "$ERR" "/ $hard (hard)"
	not_contains "$OUT" "time/call"
	[ "$(count_runs)" -eq "$runs_before" ] ||
		fail "the refused run changed the store"
fi

note "maxevents=0 is refused before measuring"
cs 2 run epoll.wait maxevents=0 --quick --no-store
contains "$ERR" "maxevents"
exit 0
