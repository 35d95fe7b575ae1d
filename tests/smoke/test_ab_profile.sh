#!/bin/sh
# test_ab_profile.sh - `ab --kernel profile`: A, B and A' each profiled
# in their own traced samples, the kernel functions' ns per op diffed
# round by round.  Known answer (issue 31): reading /dev/zero 64 KiB at a
# time instead of 4 KiB, the zeroing routine (read_zero on this kernel:
# clear_user is inlined into it) grows the most, with a 95% CI above 0.
# The JSON's profile_diff rows carry the fields the docs promise, change
# = B - A, and the functions' changes add up to the op's; the text fits
# 80 columns and says what the listed functions explain; show prints the
# stored run's diff again, also after export and import; compare of two
# profiled runs gives the unpaired diff; a busy wait injected in user
# space (inject_ns) grows the sled's own function (inject_sled_steps, the
# user frame named by the binary's symbols), not a kernel function (issue
# 31's third known answer); --mail and --markdown carry the diff under
# their table, in 80 columns (markdown: one fenced block), and show
# --mail and --markdown of the stored run the same diff, rebuilt from its
# traced samples (the mail byte for byte ab --mail's, the markdown's
# fenced block its text).  Bad input is a usage error.
# Asserts signs, orderings and arithmetic, never times.  Skips (with
# why) where perf_event_open of kernel callchains is refused.
. "$(dirname "$0")/lib.sh"
need_python

q="--sample-time 10ms --warmup 20ms"

note "bad input: only the profile view, --profile-hz only with it"
cs 2 ab sys.null --a call=gettid --b call=gettid --kernel lock --no-store
contains "$ERR" "--kernel lock: ab records only profile"
cs 2 ab sys.null --a call=gettid --b call=gettid --profile-hz 997 \
	--no-store
contains "$ERR" "--profile-hz: only with --kernel profile"
cs 2 ab sys.null --a call=gettid --b call=gettid --kernel prof --no-store
contains "$ERR" "--kernel"

note "4k against 64k reads of /dev/zero, profiled"
rc=0
"$BIN" ab sys.rw target=zero --a size=4k --b size=64k --kernel profile \
	--profile-hz 1999 --rounds 20 $q --tag pab --json >"$OUT" 2>"$ERR" ||
	rc=$?
if [ "$rc" -eq 77 ]; then
	contains "$ERR" "--kernel profile: refused"
	skip "perf_event_open refused here: $(grep refused "$ERR" | head -1)"
fi
[ "$rc" -eq 0 ] || fail "ab --kernel profile exited $rc"
python3 - "$OUT" <<'PY' || fail "ab --json's profile_diff"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["profile_diff"]
s = d["profile_diff_summary"]
assert s["paired"] is True and s["a_units"] >= 2, s
assert s["a_units"] + s["left_out"] == 20, s
for r in rows:
    assert set(r) >= {"function", "a_ns_per_op", "b_ns_per_op",
                      "change_ns_per_op", "ci", "control_ci",
                      "control_change_ns_per_op", "moved"}, r
    c = r["change_ns_per_op"]
    assert abs(c - (r["b_ns_per_op"] - r["a_ns_per_op"])) <= \
        1e-6 * max(1.0, abs(c)), r
    lo, hi = r["ci"]
    assert lo <= c <= hi, r
    if r["moved"]:
        clo, chi = r["control_ci"]
        assert (lo > 0 or hi < 0) and (lo > chi or hi < clo), r
# the functions' changes add up to the op's
tot = sum(r["change_ns_per_op"] for r in rows)
assert abs(tot - s["change_ns_per_op"]) <= 1e-6 * abs(s["change_ns_per_op"]), \
    (tot, s)
# the known answer: the zeroing routine grows most, its CI above 0
grow = max(rows, key=lambda r: r["change_ns_per_op"])
assert grow["function"] == "read_zero", [(r["function"],
    round(r["change_ns_per_op"])) for r in rows[:5]]
assert grow["ci"][0] > 0, grow
# sorted by the size of the change
ch = [abs(r["change_ns_per_op"]) for r in rows]
assert ch == sorted(ch, reverse=True), ch
PY

note "a busy wait in user space (inject_ns) shows in the injection's own function, not the kernel"
cs 0 ab sys.null --a inject_ns=0 --b inject_ns=2000 --kernel profile \
	--profile-hz 1999 --rounds 12 $q --no-store --json
nm "$BIN" | awk '$2 ~ /^[tTwW]$/ { print $3 }' >"$TMP/user-funcs"
python3 - "$OUT" "$TMP/user-funcs" <<'PY' || fail "the injected user-space wait is not inject_sled_steps"
import json, sys
d = json.load(open(sys.argv[1]))
own = set(open(sys.argv[2]).read().split())
rows = d["profile_diff"]
grow = max(rows, key=lambda r: r["change_ns_per_op"])
# the sled's steps: a function of this binary (kernel/usyms.h)
assert grow["function"] == "inject_sled_steps", [(r["function"],
    round(r["change_ns_per_op"])) for r in rows[:5]]
assert grow["ci"][0] > 0 and grow["moved"], grow
# user frames: this binary's functions, a library's file, [user]
def user(f):
    return f in own or f == "[user]" or ".so" in f or f.startswith("[")
# the kernel's functions together moved far less than the wait added
kern = sum(r["change_ns_per_op"] for r in rows if not user(r["function"]))
assert abs(kern) < 0.25 * grow["change_ns_per_op"], (kern, grow)
PY

note "show prints the stored run's diff again, in 80 columns"
cs 0 show pab
contains "$OUT" "kernel profile: B - A in self ns per op"
contains "$OUT" "A'-A 95% CI"
contains_re "$OUT" '^ .* [*] read_zero$'
contains_re "$OUT" 'these [0-9]+ explain [+-][0-9.k]+ of [+-][0-9.k]+ ns per op'
# the diff's lines (show's own header carries the whole boot id)
awk '/kernel profile: B - A/ { on = 1 } on && /^$/ { on = 0 }
     on && length($0) > 80 { print; bad = 1 } END { exit bad }' "$OUT" ||
	fail "the diff's text is wider than 80 columns"
cs 0 show pab --json
python3 - "$OUT" <<'PY' || fail "show --json of the ab run: profile_diff"
import json, sys
d = json.load(open(sys.argv[1]))
ab = d.get("ab", d)
assert any(r["function"] == "read_zero" for r in ab["profile_diff"]), ab
PY

note "export and import keep the traced samples: the same diff"
cs 0 show pab
sed -n '/kernel profile: B - A/,/^$/p' "$OUT" >"$TMP/diff.a"
cs 0 export pab -o "$TMP/pab.jsonl"
cs 0 import "$TMP/pab.jsonl" --db "$TMP/other.db"
cs 0 show last --db "$TMP/other.db"
sed -n '/kernel profile: B - A/,/^$/p' "$OUT" >"$TMP/diff.b"
[ -s "$TMP/diff.a" ] && cmp -s "$TMP/diff.a" "$TMP/diff.b" ||
	fail "the imported run's profile diff differs"

note "compare of two profiled runs: the unpaired diff"
cs 0 run sys.rw target=zero size=4k --kernel profile --profile-hz 1999 \
	--reps 6 $q --tag p4k
cs 0 run sys.rw target=zero size=64k --kernel profile --profile-hz 1999 \
	--reps 6 $q --tag p64k
cs 0 compare p4k p64k --ignore-param size
contains "$OUT" "kernel profile: new - base in self ns per op"
contains "$OUT" "unpaired: 6 traced samples of 1 run(s) on base, 6 of 1"
contains "$OUT" "Welch 95% CI from the samples' spread"
awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$OUT" ||
	fail "compare's text is wider than 80 columns"
cs 0 compare p4k p64k --ignore-param size --json
python3 - "$OUT" <<'PY' || fail "compare --json: profile_diff"
import json, sys
d = json.load(open(sys.argv[1]))
pd = [r for r in d["rows"] if "profile_diff" in r]
assert len(pd) == 1, [r["metric"] for r in d["rows"]]
s = pd[0]["profile_diff_summary"]
assert s["paired"] is False and s["a_units"] == 6 and s["b_units"] == 6, s
rz = [r for r in pd[0]["profile_diff"] if r["function"] == "read_zero"]
assert rz and rz[0]["change_ns_per_op"] > 0, rz
assert rz[0]["control_ci"] is None, rz
PY

note "ab --mail and --markdown: the profile diff under the table, in 80 columns"
cs 0 ab sys.rw target=zero --a size=4k --b size=64k --kernel profile \
	--profile-hz 1999 --rounds 5 $q --tag pabm --mail
cp "$OUT" "$TMP/pabm.mail"
contains "$OUT" "Kernel profile (ab --kernel profile):"
contains "$OUT" "kernel profile: B - A in self ns per op"
contains_re "$OUT" "^ +[-+0-9.]+ +[-+0-9.]+ +[-+0-9.]+ .* read_zero$"
awk 'length > 80 { print; bad = 1 } END { exit bad }' "$OUT" ||
	fail "a line of the mail is over 80 columns"

note "show --mail and --markdown of the stored run: the same diff, rebuilt from its traced samples"
cs 0 show pabm --mail
cmp -s "$OUT" "$TMP/pabm.mail" ||
	fail "show --mail of the profiled ab run differs from ab --mail's"
cs 0 show pabm --markdown
python3 - "$OUT" "$TMP/pabm.mail" <<'PY' || fail "show --markdown's profile diff is not ab --mail's"
import sys
md, mail = open(sys.argv[1]).read(), open(sys.argv[2]).read()
rest = md[md.index("#### Kernel profile (ab --kernel profile)"):]
assert rest.count("```") == 2, rest
body = rest.split("```")[1].lstrip("\n")
text = mail.split("Kernel profile (ab --kernel profile):\n", 1)[1]
assert body == text, (body, text)
PY
cs 0 ab sys.rw target=zero --a size=4k --b size=64k --kernel profile \
	--profile-hz 1999 --rounds 5 $q --no-store --markdown
contains "$OUT" "#### Kernel profile (ab --kernel profile)"
python3 - "$OUT" <<'PY' || fail "the markdown's profile diff is not one fenced block"
import sys
t = open(sys.argv[1]).read()
i = t.index("#### Kernel profile")
rest = t[i:]
assert rest.count("```") == 2, rest
body = rest.split("```")[1]
assert "kernel profile: B - A in self ns per op" in body, body
PY
exit 0
