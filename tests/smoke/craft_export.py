#!/usr/bin/env python3
"""craft_export.py - known data for the smoke tests, written the promised
way: an export file of real runs (`copyscope export`, docs/export-format.md)
rewritten so that its samples are values with a known answer, then
imported with `copyscope import`.  The tests never touch the database's
tables; the export format is promised, the schema is not.

usage: craft_export.py IN OUT [--edits FILE] [--new-uuid PREFIX]
                       [--tag TAG]

IN is an export file, OUT the file written.  Every run of IN is kept with
everything it measured (its environment, options, info, histograms), and
the edits of FILE, one a line, fields separated by tabs, change it:

  gauss    METRIC SEED MEDIAN COUNT  COUNT values around MEDIAN, a 2%
                                     spread drawn by a generator seeded
                                     with SEED (each line its own)
  bimodal  METRIC SEED LOW HIGH NHIGH  10 values, NHIGH of them around
                                     HIGH and the others around LOW (1%)
  values   METRIC V1 V2 ...          exactly these values
  ab       METRIC SEED BFACTOR ROUNDS  an ab run's A, B and A' (its
                                     three METRIC results in seq order):
                                     ROUNDS values each around 1000, B
                                     BFACTOR times as much, 2% noise of
                                     each sample, and the same drift of
                                     up to +-20% applied to the three
                                     samples of each round
  flagged  all|other|none|as-is      every sample of every result marked
                                     disturbed (flagged, why kept; with
                                     other, why "other": a busy machine,
                                     which leaves the headline whole) or
                                     not (the default: a verdict on made
                                     values must not depend on how loaded
                                     this machine was when it measured;
                                     as-is keeps what was recorded: a
                                     copy of a run, not made values)
  add      FROM METRIC UNIT DIR      a new result METRIC (UNIT; DIR
                                     lower, higher or info) beside each
                                     result FROM, a copy of it (its
                                     configuration's info, its samples
                                     until an edit sets them): a metric
                                     this machine cannot measure (the
                                     PMU's, where there is none)
  env      KEY VALUE                 an environment key set (or added)
  run      KEY VALUE                 a field of the run set: host, tag,
                                     cmdline, boot_id (text)
  offcpu   I,J,...|none              after the flagged edit: exactly
                                     these samples (0-based) of every
                                     result flagged offcpu, a worker off
                                     its CPU 40% of the window, the
                                     others quiet (0%); for the headline
                                     rule (docs/methodology.md)

METRIC is a result's metric ("time/call"), "*" for every result, or #SEQ
for the result at that seq.  The values are rounded to 6 decimals, as
the tests' shell helpers always wrote them.  A result whose sample count
changes gets per-sample info arrays (counters, interference) of the new
length: the recorded ones repeated in turn.  --new-uuid gives each run a
new unique id (PREFIX and the run's place in the file, 32 hex digits), so
that a crafted copy of a run already in a database is a run of its own;
--tag gives each run that tag.  --copies N writes each run N times (with
--new-uuid: each its own unique id), copy k started and finished k ns
later than the one before, with all its results: many runs of real data
without measuring each (the store's own copies, not table surgery).
"""
import argparse
import copy
import json
import random
import sys

PER_SAMPLE = ("ctx_switches", "migrations", "faults", "window_ns",
              "oncpu_ns")
LOAD = ("other_cpu_pct", "steal_pct", "canary_ns", "offcpu_pct", "flagged",
        "why")


def gauss(seed, median, count):
    """COUNT values around MEDIAN, 2% spread, generator seeded SEED."""
    r = random.Random(int(seed))
    m = float(median)
    return [m * (1 + r.gauss(0, 0.02)) for _ in range(int(count))]


def bimodal(seed, low, high, nhigh):
    """10 values: NHIGH around HIGH, the rest around LOW (1% spread)."""
    r = random.Random(int(seed))
    lo, hi, nhi = float(low), float(high), int(nhigh)
    v = [lo * (1 + r.gauss(0, 0.01)) for _ in range(10 - nhi)]
    return v + [hi * (1 + r.gauss(0, 0.01)) for _ in range(nhi)]


def ab_rounds(results, sel, seed, bfactor, rounds, a2factor="1"):
    """The ab edit: A, B and A' of one round share that round's drift;
    B is BFACTOR times A, A' A2FACTOR times (a control that moved)."""
    hit = sorted((r for r in results if picks(r, sel)),
                 key=lambda r: r["seq"])
    if len(hit) != 3:
        sys.exit("craft_export.py: ab needs 3 results %s, not %d"
                 % (sel, len(hit)))
    r = random.Random(int(seed))
    n = int(rounds)
    drift = [1 + r.uniform(-0.2, 0.2) for _ in range(n)]
    for role, res in enumerate(hit):
        f = float(bfactor) if role == 1 else \
            float(a2factor) if role == 2 else 1.0
        set_samples(res, [1000 * f * drift[k] * (1 + r.gauss(0, 0.02))
                          for k in range(n)])


def resize(a, n):
    """The list a made n long, its values repeated in turn."""
    if not isinstance(a, list) or len(a) == n or not a:
        return a
    return [a[i % len(a)] for i in range(n)]


def set_samples(res, values):
    """The result's samples replaced, its per-sample arrays resized."""
    n = len(values)
    res["samples"] = [float("%.6f" % v) for v in values]
    info = res["info"]
    info.pop("retaken", None)   # made values are no retakes
    for k in PER_SAMPLE:
        if k in info:
            info[k] = resize(info[k], n)
    it = info.get("interference")
    if isinstance(it, dict):
        for k in LOAD:
            if k in it:
                it[k] = resize(it[k], n)


def set_flags(res, flagged):
    """Every sample of the result flagged as disturbed, or none."""
    it = res["info"].get("interference")
    if not isinstance(it, dict) or "flagged" not in it:
        return
    it["flagged"] = [bool(flagged)] * len(it["flagged"])
    if not flagged and "why" in it:
        it["why"] = [""] * len(it["why"])
    if flagged == "other":
        it["why"] = ["other"] * len(it["flagged"])
        if "offcpu_pct" in it:
            it["offcpu_pct"] = [0.0] * len(it["flagged"])


def set_offcpu(res, which):
    """Exactly the samples in which flagged offcpu, the others quiet."""
    it = res["info"].get("interference")
    if not isinstance(it, dict):
        return
    n = len(res["samples"])
    it["flagged"] = [k in which for k in range(n)]
    it["why"] = ["offcpu" if k in which else "" for k in range(n)]
    it["offcpu_pct"] = [40.0 if k in which else 0.0 for k in range(n)]


def add_result(results, runs, sel, metric, unit, direction):
    """The add edit: a copy of each result sel named metric, last."""
    hit = [r for r in results if picks(r, sel)]
    if not hit:
        sys.exit("craft_export.py: no result is %s" % sel)
    for r in hit:
        y = copy.deepcopy(r)
        y.update(metric=metric, unit=unit, direction=direction,
                 histogram=[])
        y["seq"] = 1 + max(x["seq"] for x in results
                           if x["run"] == r["run"])
        results.append(y)
        for run in runs:
            if run["run"]["uuid"] == r["run"]:
                run["results"] += 1


def picks(res, sel):
    """Whether the edit's selector names the result."""
    if sel == "*":
        return True
    if sel.startswith("#"):
        return res["seq"] == int(sel[1:])
    return res["metric"] == sel


def read_edits(path):
    """The edits of the file, as lists of fields."""
    if not path:
        return []
    edits = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                edits.append(line.split("\t"))
    return edits


def apply(results, runs, edits):
    """The edits applied to the runs and their results, in order."""
    flagged = False
    offcpu = None
    for e in edits:
        kind, args = e[0], e[1:]
        if kind == "flagged":
            flagged = {"all": True, "other": "other", "none": False,
                       "as-is": None}[args[0]]
            continue
        if kind == "offcpu":
            offcpu = set() if args[0] == "none" else \
                {int(k) for k in args[0].split(",")}
            continue
        if kind == "ab":
            ab_rounds(results, *args)
            continue
        if kind == "add":
            add_result(results, runs, *args)
            continue
        if kind == "env":
            for r in runs:
                r["environment"][args[0]] = args[1]
            continue
        if kind == "run":
            if args[0] not in ("host", "tag", "cmdline", "boot_id"):
                sys.exit("craft_export.py: run: %s is not host, tag, "
                         "cmdline or boot_id" % args[0])
            for r in runs:
                r["run"][args[0]] = args[1]
            continue
        make = {"gauss": lambda a: gauss(*a),
                "bimodal": lambda a: bimodal(*a),
                "values": lambda a: [float(v) for v in a]}[kind]
        hit = [r for r in results if picks(r, args[0])]
        if not hit:
            sys.exit("craft_export.py: no result is %s" % args[0])
        for r in hit:
            set_samples(r, make(args[1:]))
    for r in results:
        if flagged is not None:
            set_flags(r, flagged)
        if offcpu is not None:
            set_offcpu(r, offcpu)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--edits")
    ap.add_argument("--new-uuid")
    ap.add_argument("--tag")
    ap.add_argument("--copies", type=int, default=1)
    a = ap.parse_args()
    lines = [json.loads(line) for line in open(a.inp)]
    runs = [x for x in lines if x.get("type") == "run"]
    results = [x for x in lines if x.get("type") == "result"]
    if not runs:
        sys.exit("craft_export.py: %s holds no run" % a.inp)
    apply(results, runs, read_edits(a.edits))
    if a.copies < 1 or (a.copies > 1 and not a.new_uuid):
        sys.exit("craft_export.py: --copies N: N >= 1, and with --new-uuid "
                 "when N > 1 (a run's unique id once in a store)")
    head = [x for x in lines if "format" in x]
    tail = [x for x in lines if x.get("type") == "end"]
    body, n = [], 0
    for k in range(a.copies):
        for run in runs:
            r = copy.deepcopy(run)
            old = r["run"]["uuid"]
            if a.new_uuid:
                r["run"]["uuid"] = "%s%0*x" % (a.new_uuid,
                                               32 - len(a.new_uuid), n)
            n += 1
            if a.tag is not None:
                r["run"]["tag"] = a.tag
            if k:
                r["run"]["started_ns"] += k
                if r["run"]["finished_ns"]:
                    r["run"]["finished_ns"] += k
            body.append(r)
            for x in results:
                if x["run"] == old:
                    y = copy.deepcopy(x)
                    y["run"] = r["run"]["uuid"]
                    body.append(y)
    for x in tail:
        x["runs"] = sum(1 for y in body if y["type"] == "run")
        x["results"] = sum(1 for y in body if y["type"] == "result")
    with open(a.out, "w") as out:
        for x in head + body + tail:
            out.write(json.dumps(x, separators=(",", ":")) + "\n")


main()
