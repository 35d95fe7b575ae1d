#!/usr/bin/env python3
"""mail_check.py - checks of --mail and --markdown (tests/smoke/test_mail.sh).

  mail_check.py layout FILE SIDES        the text's layout: every line
                                         within 72 columns, the title, the
                                         head lines, the machine line, the
                                         table's heading (SIDES 1 or 2)
  mail_check.py rows FILE                the text's rows as JSON lines
  mail_check.py md FILE                  the markdown's rows as JSON lines
  mail_check.py against KIND ROWS JSON   the rows (from rows or md) against
                                         the command's --json: KIND is
                                         compare, run, ab or history

Exits 1 with the reason on the first mismatch.
"""
import json
import math
import re
import sys

W_VAL, W_SD, W_CHG = 8, 6, 10
END_B = W_VAL + W_SD
END_C = END_B + W_CHG
END_N = END_C + 2 + W_VAL + W_SD

SCALE = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9,
         "B/s": 1, "KiB/s": 1024, "MiB/s": 1024 ** 2, "GiB/s": 1024 ** 3,
         "TiB/s": 1024 ** 4, "/s": 1, "K/s": 1e3, "M/s": 1e6, "G/s": 1e9}


def die(msg):
    print("mail_check: " + msg)
    sys.exit(1)


def lines_of(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def layout(path, sides):
    ls = lines_of(path)
    for i, line in enumerate(ls):
        if len(line) > 72:
            die("line %d is %d columns: %r" % (i + 1, len(line), line))
        if line != line.rstrip():
            die("line %d ends in blanks: %r" % (i + 1, line))
    if not ls[0].startswith("copyscope "):
        die("no title: %r" % ls[0])
    if ls[1] != "":
        die("no blank line after the title")
    if not any(re.match(r"^machine( \w+)?: ", x) for x in ls):
        die("no machine line")
    dash = [i for i, x in enumerate(ls) if re.match(r"^-{%d}( -+)?$" % END_B, x)]
    if not dash:
        die("no table heading")
    d = dash[0]
    if sides == 2:
        want = "%*s%*s%*s" % (END_B, "%stddev", END_C - END_B, "%change",
                              END_N - END_C, "%stddev")
        if ls[d + 1] != want:
            die("heading %r, not %r" % (ls[d + 1], want))
    return 0


def num(text):
    text = text.strip()
    if text in ("", "-", "withheld"):   # withheld: no figure to check
        return None
    return float(text)


def split_name(name):
    """'size=4k bandwidth (GiB/s)' -> ({'size': '4k'}, 'bandwidth', 'GiB/s')"""
    unit = ""
    m = re.match(r"^(.*) \(([^() ]*)\)$", name)
    if m:
        name, unit = m.group(1), m.group(2)
    params = {}
    words = name.split(" ")
    while words and re.match(r"^[a-z_]+=\S+$", words[0]):
        k, v = words.pop(0).split("=", 1)
        params[k] = v
    return params, " ".join(words), unit


def rows(path):
    ls = lines_of(path)
    d = [i for i, x in enumerate(ls) if re.match(r"^-{%d}" % END_B, x)][0]
    two = " " in ls[d]
    body = ls[d + 1:]
    above = None
    heading = None
    out_since_heading = False
    out = []
    for line in body:
        if heading is not None and re.match(r"^[a-z][a-z0-9_]*\.", line):
            out_since_heading = False
        if not line or re.match(r"^[*?e] ", line):
            continue
        first = line[:W_VAL].strip()
        try:
            float(first)
        except ValueError:
            if first not in ("-", "withheld"):
                # a workload's heading (its continuation indented by
                # two, as a name above its numbers is), a name above its
                # numbers, or the table heading's own lines
                if re.match(r"^[a-z][a-z0-9_]*\.[a-z0-9_.]+( |$)", line):
                    heading = line
                elif line.startswith("  ") and heading and above is None \
                        and not out_since_heading:
                    heading += " " + line.strip()
                    above = line.strip()
                    continue
                above = line.strip() if line.startswith("  ") else None
                continue
        if two:
            r = {"base": num(line[:W_VAL]), "base_sd": line[W_VAL:END_B],
                 "change": line[END_B:END_C].strip(),
                 "mark": line[END_C + 1:END_C + 2],
                 "new": num(line[END_C + 2:END_C + 2 + W_VAL]),
                 "new_sd": line[END_C + 2 + W_VAL:END_N],
                 "name": line[END_N + 2:].strip()}
        else:
            r = {"base": num(line[:W_VAL]), "base_sd": line[W_VAL:END_B],
                 "name": line[END_B + 2:].strip()}
        if not r["name"]:
            if not above:
                die("a row without a name: %r" % line)
            r["name"] = above
        above = None
        out_since_heading = True
        if heading:
            r["heading"] = heading
        for k in ("base_sd", "new_sd"):
            if k in r:
                m = re.match(r"^ ±\s*(\d+)%$", r[k])
                r[k] = float(m.group(1)) if m else None
        out.append(r)
    for r in out:
        print(json.dumps(r))


def md(path):
    ls = lines_of(path)
    head = [i for i, x in enumerate(ls) if x.startswith("| metric |")]
    if not head:
        die("no markdown table of metrics")
    cols = [c.strip() for c in ls[head[0]].strip("|").split("|")]
    if not re.match(r"^\|(:?-+:?\|)+$", ls[head[0] + 1]):
        die("no alignment row under the heading: %r" % ls[head[0] + 1])
    for line in ls[head[0] + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        if len(cells) != len(cols):
            die("%d cells, %d columns: %r" % (len(cells), len(cols), line))
        if cells[0].startswith("**"):
            continue
        def sd(c):
            m = re.match(r"^±(\d+)%$", c)
            return float(m.group(1)) if m else None
        r = {"name": cells[0], "base": num(cells[1]), "base_sd": sd(cells[2])}
        if len(cells) == 7:
            chg = cells[3].split(" ")
            r.update({"change": chg[0], "mark": chg[1] if len(chg) > 1 else " ",
                      "ci": cells[4], "new": num(cells[5]),
                      "new_sd": sd(cells[6])})
        print(json.dumps(r))


def close(shown, exact, what):
    """shown has 3 significant digits of exact (or is exact rounded)."""
    if shown is None or exact is None:
        if shown is None and exact is None:
            return
        die("%s: shown %r, --json %r" % (what, shown, exact))
    tol = max(abs(exact) * 0.006, 0.0051 if abs(exact) < 10 else 0.5)
    if abs(shown - exact) > tol:
        die("%s: shown %r, --json %r" % (what, shown, exact))


def pct_close(shown, exact, what, tol=0.051):
    if shown is None:
        die("%s: no value shown, --json %r" % (what, exact))
    if abs(shown - exact) > tol:
        die("%s: shown %r, --json %r" % (what, shown, exact))


def find(rowsj, name, key, heading=None):
    params, metric, unit = split_name(name)
    if heading:
        words = heading.split()
        params.update(dict(w.split("=", 1) for w in words[1:]))
        params["__workload"] = words[0]
    hits = [j for j in rowsj if key(j)[1] == metric and
            all(key(j)[0].get(k) == v for k, v in params.items())]
    if len(hits) != 1:
        die("%r: %d rows of --json match" % (name, len(hits)))
    return hits[0], SCALE.get(unit, 1)


def change_val(text):
    return float(text.rstrip("%"))


def against(kind, rows_path, json_path):
    shown = [json.loads(x) for x in open(rows_path) if x.strip()]
    doc = json.load(open(json_path))
    if not shown:
        die("no rows shown")
    if kind == "compare":
        rj = doc["rows"]
        for r in shown:
            j, s = find(rj, r["name"], lambda j: (j["params"], j["metric"]))
            close(r["base"] * s, j["base"]["median"], r["name"] + " base")
            close(r["new"] * s, j["new"]["median"], r["name"] + " new")
            pct_close(r["base_sd"], round(j["base"]["stddev_pct"]),
                      r["name"] + " base %stddev", 1.0)
            pct_close(change_val(r["change"]), j["change_pct"],
                      r["name"] + " %change")
            want = {"better": "*", "worse": "*", "cannot tell": "?",
                    "emul": "e"}.get(j["verdict"], " ")
            if r["mark"] != want:
                die("%s: mark %r, verdict %r" % (r["name"], r["mark"],
                                                 j["verdict"]))
        if len(shown) != len(rj):
            die("%d rows shown, %d compared" % (len(shown), len(rj)))
    elif kind == "run":
        rj = [x for x in doc["results"] if x["summary"]["n"] > 0]
        for r in shown:
            j, s = find(rj, r["name"], lambda j: (
                dict(j["params"], __workload=j["workload"]), j["metric"]),
                r.get("heading"))
            if j["summary"]["median"] is None:
                # withheld (docs/methodology.md, "The headline"): the
                # mail says so and shows no figure
                close(r["base"], None, r["name"])
                continue
            close(r["base"] * s, j["summary"]["median"], r["name"])
            pct_close(r["base_sd"], round(j["summary"]["cv"] * 100),
                      r["name"] + " %stddev", 1.0)
        if len(shown) != len(rj):
            die("%d rows shown, %d results" % (len(shown), len(rj)))
    elif kind == "ab":
        rj = doc["ab"]["rows"] if "ab" in doc else doc["rows"]
        for r in shown:
            j, s = find(rj, r["name"], lambda j: ({}, j["metric"]))
            close(r["base"] * s, j["a_median"], r["name"] + " A")
            close(r["new"] * s, j["a_median"] * (1 + j["change_pct"] / 100),
                  r["name"] + " B")
            pct_close(change_val(r["change"]), j["change_pct"],
                      r["name"] + " %change")
        if len(shown) != len(rj):
            die("%d rows shown, %d in --json" % (len(shown), len(rj)))
    elif kind == "history":
        n = len(doc["histories"])
        if len(shown) != n:
            die("%d rows shown, %d series" % (len(shown), n))
    else:
        die("unknown kind " + kind)


def main():
    a = sys.argv[1:]
    if a[:1] == ["layout"]:
        layout(a[1], int(a[2]))
    elif a[:1] == ["rows"]:
        rows(a[1])
    elif a[:1] == ["md"]:
        md(a[1])
    elif a[:1] == ["against"]:
        against(a[1], a[2], a[3])
    else:
        die(__doc__)


if __name__ == "__main__":
    main()
