#!/usr/bin/env python3
"""pdiff_table_check.py - the report's tables of a profile diff against
the same run's JSON (tests/smoke/test_report_flame.sh).

usage: pdiff_table_check.py PAGE JSON KIND...

PAGE is a report (copyscope report), JSON the --json of the same run or
comparison (show RUN --json of an ab run: its profile_diff and
profile_diff_summary; compare BASE NEW --json: the row that has them).
Each KIND is one <table class="profile-diff"> of PAGE in page order:

  ab       an ab run's B against A: function, A ns/op, B ns/op, B - A,
           95% CI, A' - A 95% CI, moved
  control  its control's figure, A' against A: function, A ns/op,
           A' - A, 95% CI, by the size of A' - A
  compare  compare's new against base: function, base ns/op, new ns/op,
           new - base, 95% CI, moved

Checked against the JSON (never against the page's own data): the rows
are the JSON's in its order (control: by |control_change_ns_per_op|),
less those with no sample on either side, at most 15; every figure is
the JSON's value as printed (3 significant digits: within half a unit
of its last digit; "0" only for 0; "-" only where the JSON has null);
a change is B - A of the printed sides within their rounding; '*'
exactly where the JSON says moved; the line under the table: how many
rows, their changes' sum, the op's change and CI (and the control's)
and the count of moved functions, as the JSON gives them.  Prints one
line per table; exits 1 with the reason on the first mismatch.
"""
import html
import json
import re
import sys

TOP = 15


def die(msg):
    print("pdiff_table_check: " + msg)
    sys.exit(1)


def tol(s):
    """Half a unit of the last printed digit of s."""
    frac = s.split(".", 1)[1] if "." in s else ""
    return 0.5 * 10 ** -len(frac) * (1 + 1e-9) + 1e-12


def same(s, v, what):
    """s (printed) is v (the JSON's), as printed."""
    if v is None:
        if s != "-":
            die("%s: %r printed where the JSON has none" % (what, s))
        return
    if s == "-":
        die("%s: '-' printed where the JSON has %r" % (what, v))
    if s == "0":
        if v != 0:
            die("%s: '0' printed for %r" % (what, v))
        return
    if abs(float(s) - v) > tol(s):
        die("%s: %r printed for %r" % (what, s, v))


def same_ci(s, ci, what):
    if ci is None:
        same(s, None, what)
        return
    if " .. " not in s:
        die("%s: %r is not a CI (the JSON has %r)" % (what, s, ci))
    lo, hi = s.split(" .. ")
    same(lo, ci[0], what + " lo")
    same(hi, ci[1], what + " hi")


def adds_up(a, b, c, what):
    """c (printed B - A) equals b - a of the printed sides within their
    rounding."""
    if "-" in (a, b, c):
        die("%s: a side without a figure" % what)
    if abs((float(b) - float(a)) - float(c)) > tol(a) + tol(b) + tol(c):
        die("%s: %s - %s is not %s" % (what, b, a, c))


def tables(page):
    out = []
    for m in re.finditer(r'<table class="profile-diff">(.*?)</table>\n'
                         r'((?:<p class="muted">.*?</p>\n)*)', page, re.S):
        head = [html.unescape(h) for h in re.findall(r"<th>(.*?)</th>",
                                                      m.group(1))]
        rows = []
        for tr in re.findall(r'<tr class="(\w+)">(.*?)</tr>', m.group(1)):
            cells = [html.unescape(c) for c in
                     re.findall(r"<td(?: class=\"num\")?>(.*?)</td>", tr[1])]
            rows.append((tr[0], cells))
        notes = html.unescape(re.sub(r"<[^>]*>", "", m.group(2)))
        out.append((head, rows, notes))
    return out


def diff_of(j):
    if "profile_diff" in j:
        return j["profile_diff"], j["profile_diff_summary"]
    if "ab" in j and "profile_diff" in j["ab"]:
        return j["ab"]["profile_diff"], j["ab"]["profile_diff_summary"]
    pd = [r for r in j.get("rows", []) if "profile_diff" in r]
    if len(pd) != 1:
        die("the JSON has %d rows with a profile diff, not 1" % len(pd))
    return pd[0]["profile_diff"], pd[0]["profile_diff_summary"]


def check(kind, tab, rows, s):
    head, got, notes = tab
    control = kind == "control"
    heads = {
        "ab": ["function", "A ns/op", "B ns/op", "B - A", "95% CI",
               "A' - A 95% CI", "moved"],
        "control": ["function", "A ns/op", "A' - A", "95% CI"],
        "compare": ["function", "base ns/op", "new ns/op", "new - base",
                    "95% CI", "moved"],
    }[kind]
    if head != heads:
        die("%s: the heading is %r, not %r" % (kind, head, heads))
    if control:
        want = sorted(rows, key=lambda r: (-abs(r["control_change_ns_per_op"]),
                                           r["function"]))
        want = [r for r in want if r["a_ns_per_op"] != 0 or
                r["control_change_ns_per_op"] != 0]
    else:
        want = [r for r in rows if r["a_ns_per_op"] != 0 or
                r["b_ns_per_op"] != 0]
    want = want[:TOP]
    if [c[0] for _, c in got] != [r["function"] for r in want]:
        die("%s: the functions %r, not the JSON's %r" % (
            kind, [c[0] for _, c in got], [r["function"] for r in want]))
    total = 0.0
    for (cls, c), r in zip(got, want):
        f = "%s %s" % (kind, r["function"])
        if len(c) != len(heads):
            die("%s: %d cells, not %d" % (f, len(c), len(heads)))
        same(c[1], r["a_ns_per_op"], f + " A")
        if control:
            same(c[2], r["control_change_ns_per_op"], f + " A'-A")
            same_ci(c[3], r["control_ci"], f + " A'-A CI")
            total += r["control_change_ns_per_op"]
            continue
        same(c[2], r["b_ns_per_op"], f + " B")
        same(c[3], r["change_ns_per_op"], f + " change")
        adds_up(c[1], c[2], c[3], f)
        same_ci(c[4], r["ci"], f + " CI")
        if kind == "ab":
            same_ci(c[5], r["control_ci"], f + " control CI")
        if (c[-1] == "*") != r["moved"] or c[-1] not in ("*", ""):
            die("%s: marked %r, the JSON's moved is %r" % (f, c[-1],
                                                           r["moved"]))
        want_cls = "unmoved" if not r["moved"] else \
            "grew" if r["change_ns_per_op"] > 0 else "shrank"
        if cls != want_cls:
            die("%s: class %r, not %r" % (f, cls, want_cls))
        total += r["change_ns_per_op"]
    m = re.search(r"These (\d+) explain (\S+) of (\S+) ns per op: .*?"
                  r"\(95% CI (\S+ \.\. \S+|-)(?:; the control's "
                  r"(\S+ \.\. \S+|-))?\)", notes)
    if not m:
        die("%s: no 'These N explain' line in %r" % (kind, notes))
    if int(m.group(1)) != len(want):
        die("%s: 'These %s', %d rows" % (kind, m.group(1), len(want)))
    same(m.group(2), total, kind + " the rows' sum")
    op = "control_change_ns_per_op" if control else "change_ns_per_op"
    same(m.group(3), s[op], kind + " the op's change")
    same_ci(m.group(4), s["control_ci" if control else "ci"],
            kind + " the op's CI")
    if kind == "ab":
        if m.group(5) is None:
            die("ab: the op's control CI is not given")
        same_ci(m.group(5), s["control_ci"], "ab the op's control CI")
    if not control:
        mv = re.search(r"\((\d+) of (\d+) functions\)", notes)
        if not mv or int(mv.group(1)) != sum(r["moved"] for r in rows) or \
                int(mv.group(2)) != len(rows):
            die("%s: moved count %r, JSON %d of %d" % (
                kind, mv and mv.group(0), sum(r["moved"] for r in rows),
                len(rows)))
    print("%s: %d functions, their changes %+.4g of the op's %+.4g ns/op, "
          "as the JSON" % (kind, len(want), total, s[op]))


def main(argv):
    if len(argv) < 3:
        die(__doc__.split("\n\n")[1])
    page = open(argv[0], encoding="utf-8").read()
    rows, s = diff_of(json.load(open(argv[1])))
    tabs = tables(page)
    kinds = argv[2:]
    if len(tabs) != len(kinds):
        die("%d profile-diff tables, %d expected" % (len(tabs), len(kinds)))
    for kind, tab in zip(kinds, tabs):
        check(kind, tab, rows, s)


if __name__ == "__main__":
    main(sys.argv[1:])
