#!/usr/bin/env python3
"""flame_check.py - known profiles for the report's flame graphs, and the
check of the graphs headless Chromium drew (tests/smoke/test_report_flame.sh).

usage: flame_check.py craft IN OUT [--uuid HEX32] [--tag TAG]
                            --profile JOB=FOLDED...
       flame_check.py check DOM EXPECT...

craft: IN is an export file of one run (`copyscope export`, the promised
format, docs/export-format.md), OUT the file written: the run with, after
the last result of each JOB named, a "traced t/op" result (a copy of the
job's first result: its samples, the traced time) holding the profile
view's record with the stacks of FOLDED (a file in `show --folded`'s
format: "frame;frame;frame COUNT" a line, root first).  --uuid gives the
run a new unique id, --tag a tag.

check: DOM is the page after its scripts ran (chromium --dump-dom), each
EXPECT one <figure class="flame"> of it in page order:
  flame:SHOW:N           the Nth profile (in result order) of SHOW, a
                         `show RUN --json` file: a flame graph of it
  diff:SHOW:N:SHOW2:N2   a differential flame graph, the first side the
                         Nth profile of SHOW, the second the N2th of SHOW2
SHOW may be several files joined by '+': the side is their Nth profiles
pooled (their stacks' counts added), as compare pools a side's runs.
Checked against the stored counts (never against the page's own data):
every frame is drawn once (a diff: every frame of the second side), each
frame's value is the samples of the stacks through it, the root's is the
total, its width is value / total x the chart's width, it lies inside its
parent; a diff's both counts per frame, the frames left out (only the
first side has them), the colour's sign (red more of the self share,
blue fewer, the largest change deepest); each frame's tooltip names its
counts, and a diff's says it is not a CI, or, for an ab run (crafted
with each traced sample's even share of the stacks), gives each frame's
paired change, which is checked against the traced samples.
"""
import html
import json
import re
import sys


def read_folded(path):
    out = []
    for line in open(path):
        line = line.strip()
        if line:
            frames, n = line.rsplit(" ", 1)
            out.append([frames, int(n)])
    return out


def craft(argv):
    args = {"uuid": None, "tag": None, "profile": []}
    rest = []
    i = 0
    while i < len(argv):
        if argv[i] in ("--uuid", "--tag", "--profile"):
            key = argv[i][2:]
            if key == "profile":
                args[key].append(argv[i + 1])
            else:
                args[key] = argv[i + 1]
            i += 2
        else:
            rest.append(argv[i])
            i += 1
    src, dst = rest
    lines = [json.loads(l) for l in open(src) if l.strip()]
    runs = [d for d in lines if d.get("type") == "run"]
    assert len(runs) == 1, "craft takes an export of one run"
    run = runs[0]
    old = run["run"]["uuid"]
    uuid = args["uuid"] or old
    run["run"]["uuid"] = uuid
    if args["tag"] is not None:
        run["run"]["tag"] = args["tag"]
    results = [d for d in lines if d.get("type") == "result"]
    profiles = {}
    for p in args["profile"]:
        job, path = p.split("=", 1)
        profiles[int(job)] = read_folded(path)
    out = []
    for j, r in enumerate(results):
        r["run"] = uuid
        out.append(r)
        job = r["info"].get("job", 0)
        last = j + 1 == len(results) or \
            results[j + 1]["info"].get("job", 0) != job
        if not last or job not in profiles:
            continue
        first = [x for x in results if x["info"].get("job", 0) == job][0]
        t = json.loads(json.dumps(first))
        stacks = profiles[job]
        n = len(t["samples"])
        med = sorted(t["samples"])[n // 2]
        t["metric"] = "traced t/op"
        t["unit"] = "ns"
        t["direction"] = "info"
        t["histogram"] = []
        t["info"]["traced"] = True
        # each traced sample (round) its even share of every stack
        per = []
        for i in range(n):
            st = [[j, c // n + (1 if i < c % n else 0)]
                  for j, (_, c) in enumerate(stacks)]
            st = [x for x in st if x[1]]
            per.append({"op_ns": med, "samples": sum(c for _, c in st),
                        "stacks": st})
        t["info"]["kernel"] = {
            "views": "profile", "samples": n, "ops": 1000 * n, "lost": 0,
            "traced_ns_per_op": med, "untraced_ns_per_op": med,
            "overhead_pct": 0.0,
            "profile": {"event": "cpu-clock", "pmu": False, "hz": 499,
                        "samples": sum(c for _, c in stacks),
                        "outside": 0, "lost": 0, "op_ns": med,
                        "stacks": stacks, "per_sample": per}}
        out.append(t)
    for seq, r in enumerate(out):
        r["seq"] = seq
    run["results"] = len(out)
    with open(dst, "w") as f:
        for d in lines:
            if d.get("type") == "result":
                continue
            if d.get("type") == "end":
                for r in out:
                    f.write(json.dumps(r) + "\n")
                d["results"] = len(out)
            f.write(json.dumps(d) + "\n")


def profiles_of(show):
    d = json.load(open(show))
    return [r["info"]["kernel"]["profile"] for r in d["results"]
            if "profile" in r.get("info", {}).get("kernel", {})]


def side(shows, n):
    """The nth profile of each file of shows ('a.json+b.json'), pooled;
    one profile's traced samples as "per" (None when pooled)."""
    ps = [profiles_of(s)[int(n)] for s in shows.split("+")]
    return {"stacks": [st for p in ps for st in p["stacks"]],
            "samples": sum(p["samples"] for p in ps),
            "per": ps[0].get("per_sample") if len(ps) == 1 else None}


def frame_changes(a, b):
    """path -> the mean over rounds of b's ns/op in the frame minus a's
    (each round: the frame's share of the round's samples x its op)."""
    def value(side, r, path):
        p = side["per"][r]
        n = sum(c for i, c in p["stacks"]
                if side["stacks"][i][0] == path or
                side["stacks"][i][0].startswith(path + ";"))
        return n / p["samples"] * p["op_ns"]
    rounds = min(len(a["per"]), len(b["per"]))
    paths = set()
    for f, _ in a["stacks"] + b["stacks"]:
        parts = f.split(";")
        paths.update(";".join(parts[:i + 1]) for i in range(len(parts)))
    out = {p: sum(value(b, r, p) - value(a, r, p)
                  for r in range(rounds)) / rounds for p in paths}
    # the root: the op's own change
    out[""] = sum(b["per"][r]["op_ns"] - a["per"][r]["op_ns"]
                  for r in range(rounds)) / rounds
    return out


UNIT_NS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
CI_RE = (r"in it: ([+-][0-9.]+) (ns|us|ms|s)/op, 95% CI ([+-][0-9.]+) "
         r"(ns|us|ms|s)\.\.([+-][0-9.]+) (ns|us|ms|s) \(paired over "
         r"(\d+) rounds\)")


def nodes(stacks):
    """path -> (samples through it, samples ending there); root ''."""
    tot, self_ = {"": 0}, {"": 0}
    for frames, n in stacks:
        tot[""] += n
        parts = frames.split(";")
        for i in range(len(parts)):
            p = ";".join(parts[:i + 1])
            tot[p] = tot.get(p, 0) + n
            self_.setdefault(p, 0)
        self_[frames] += n
    return tot, self_


def parent(p):
    return p.rsplit(";", 1)[0] if ";" in p else ""


def rgb(fill):
    m = re.match(r"rgb\((\d+),\s*(\d+),\s*(\d+)\)", fill or "")
    assert m, "a frame's fill is %r, not rgb()" % fill
    return tuple(int(x) for x in m.groups())


def check_figure(fig, kind, a, b):
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', fig["tag"]))
    got = attrs.get("data-kind")
    assert got == kind, "figure is %s, expected %s" % (got, kind)
    assert "data-drawn" in attrs, "the %s figure did not draw" % kind
    drawn = json.loads(html.unescape(attrs["data-drawn"]))
    W, T = drawn["width"], drawn["total"]
    tb, sb = nodes(b["stacks"])
    total = sum(n for _, n in b["stacks"])
    assert total == b["samples"], (total, b["samples"])
    assert T == total, "root drawn %s, stored samples %s" % (T, total)
    frames = {}
    for row in drawn["frames"]:
        assert row[0] not in frames, "frame %r drawn twice" % row[0]
        frames[row[0]] = row
    want = set(p for p, n in tb.items() if n > 0)
    assert set(frames) == want, "frames drawn and stored differ: %s" % (
        sorted(set(frames) ^ want)[:6])
    for p, row in frames.items():
        v, x, w = row[1], row[2], row[3]
        assert v == tb[p], "%r: value %s, stored %s" % (p, v, tb[p])
        assert w is not None and abs(w - v / T * W) < 1e-6 * W, \
            "%r: width %s, %s of %s samples x %s px is %s" % (
                p, w, v, T, W, v / T * W)
        if p:
            q = frames[parent(p)]
            assert x >= q[2] - 1e-6 and x + w <= q[2] + q[3] + 1e-6, \
                "%r at %s..%s outside its parent %s..%s" % (
                    p, x, x + w, q[2], q[2] + q[3])
    gone = int(attrs.get("data-gone", -1))
    if kind == "flame":
        assert gone == 0, gone
        return len(frames)
    ta, sa = nodes(a["stacks"])
    TA = sum(n for _, n in a["stacks"])
    want_gone = sum(1 for p, n in ta.items()
                    if n > 0 and tb.get(p, 0) == 0 and
                    tb.get(parent(p), 0) > 0)
    assert gone == want_gone, "left out %s, expected %s" % (gone, want_gone)
    change = {}
    for p, row in frames.items():
        assert row[5] == ta.get(p, 0) and row[6] == tb[p], \
            "%r: counts drawn %s/%s, stored %s/%s" % (
                p, row[5], row[6], ta.get(p, 0), tb[p])
        change[p] = sb[p] / T - sa.get(p, 0) / TA
    big = max(abs(c) for c in change.values())
    for p, row in frames.items():
        r, g, bl = rgb(row[4])
        c = change[p]
        if c > 1e-12:
            assert r == 255 and g == bl < 255, "%r grew, fill %s" % (p, row[4])
        elif c < -1e-12:
            assert bl == 255 and r == g < 255, "%r shrank, fill %s" % (
                p, row[4])
        else:
            assert r == g == bl, "%r unchanged, fill %s" % (p, row[4])
        if big > 0 and abs(c) == big:
            assert min(r, g, bl) == 0, "%r, the largest change, is %s" % (
                p, row[4])
    return len(frames)


def check_titles(body, kind, a, b):
    """Each frame's tooltip (<title>) names its counts; a diff's says
    it is not a CI, or (an ab run's, whose spec carries "ci") gives the
    frame's paired change, checked against the traced samples."""
    spec = json.loads(html.unescape(re.search(
        r'<script type="application/json">(.*?)</script>', body,
        re.S).group(1)))
    want = frame_changes(a, b) if spec.get("ci") and a["per"] and \
        b["per"] else None
    assert not spec.get("ci") or want, "a CI without traced samples"
    tb, sb = nodes(b["stacks"])
    nci = 0
    T = sum(n for _, n in b["stacks"])
    by_name = {}
    for p, n in tb.items():
        name = p.rsplit(";", 1)[-1] if p else "all"
        by_name.setdefault(name, set()).add((n, sb[p]))
    titles = re.findall(r'<g[^>]* name="([^"]*)"[^>]*>.*?<title>(.*?)'
                        r'</title>', body, re.S)
    assert titles, "no frame has a tooltip"
    for name, t in titles:
        name, t = html.unescape(name), html.unescape(t)
        assert t.startswith(name + ": "), (name, t)
        if kind == "flame":
            m = re.match(re.escape(name) + r": (\d+) of (\d+) samples "
                         r"\([0-9.]+%\), self (\d+) ", t)
        else:
            m = re.search(r": \S+ (\d+) of (\d+) samples \([0-9.]+%\), "
                          r"self (\d+) ", t)
            if want is None:
                assert "not a CI" in t, "a diff's tooltip: %r" % t
            else:
                c = re.search(CI_RE, t)
                assert c or "No CI for this frame" in t, \
                    "a diff's tooltip without its CI: %r" % t
                if c:
                    est = float(c.group(1)) * UNIT_NS[c.group(2)]
                    lo = float(c.group(3)) * UNIT_NS[c.group(4)]
                    hi = float(c.group(5)) * UNIT_NS[c.group(6)]
                    near = [v for p, v in want.items()
                            if (p.rsplit(";", 1)[-1] or "all") == name and
                            abs(v - est) <= 0.006 * abs(v) + 1e-3]
                    assert near, "tooltip %r: the change is none of %s" % (
                        t, sorted(v for p, v in want.items()
                                  if p.rsplit(";", 1)[-1] == name))
                    assert lo <= est <= hi, t
                    nci += 1
        assert m, "tooltip %r" % t
        n, of, s = int(m.group(1)), int(m.group(2)), int(m.group(3))
        assert of == T and (n, s) in by_name[name], \
            "tooltip %r: not the stored counts %s" % (t, by_name[name])
    assert want is None or nci > 0, "no frame's CI was checked"
    if want is not None:
        print("%d of %d tooltips: the frame's paired change as the traced "
              "samples give it" % (nci, len(titles)))
    return len(titles)


def check(argv):
    dom = open(argv[0]).read()
    root = re.search(r"<html[^>]*>", dom).group(0)
    hattrs = dict(re.findall(r'([\w-]+)="([^"]*)"', root))
    assert "data-errors" not in hattrs, hattrs.get("data-errors")
    expects = argv[1:]
    starts = [m.start() for m in re.finditer(r'<figure class="flame"', dom)]
    assert int(hattrs.get("data-flames", -1)) == len(starts) == \
        len(expects), "%s flame graphs, %d figures, %d expected" % (
            hattrs.get("data-flames"), len(starts), len(expects))
    assert int(hattrs.get("data-flames-drawn", -1)) == len(expects), \
        "drawn: %s" % hattrs.get("data-flames-drawn")
    ends = starts[1:] + [len(dom)]
    nf = nt = 0
    for e, s, t in zip(expects, starts, ends):
        part = e.split(":")
        body = dom[s:t]
        fig = {"tag": re.match(r"<figure[^>]*>", body).group(0)}
        if part[0] == "flame":
            b = side(part[1], part[2])
            nf += check_figure(fig, "flame", None, b)
            nt += check_titles(body, "flame", None, b)
        else:
            a = side(part[1], part[2])
            b = side(part[3], part[4])
            nf += check_figure(fig, "flamediff", a, b)
            nt += check_titles(body, "flamediff", a, b)
    print("%d flame graphs: %d frames and %d tooltips as stored" %
          (len(expects), nf, nt))


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("craft", "check"):
        sys.exit(__doc__)
    try:
        (craft if sys.argv[1] == "craft" else check)(sys.argv[2:])
    except AssertionError as e:
        sys.exit("flame_check: %s" % e)
