#!/usr/bin/env python3
# make-runs.py - made runs for bench/store-scale.sh and the scale smoke
# test: reads one real export file (copyscope export) and writes an export
# file of N copies of its runs, each with a new unique id, a start time
# one minute after the previous copy, the given tag, and every sample
# multiplied by (1 + noise), noise drawn from a normal distribution of
# standard deviation NOISE (relative) by a seeded generator, so that the
# same arguments write the same file.
#
# usage: make-runs.py SOURCE N TAG SEED [NOISE [START_NS [STEP_PCT
#                     [KEY=VALUE | -KEY ...]]]]
#   STEP_PCT: the samples of the second half of the copies are also
#   multiplied by (1 + STEP_PCT / 100) (default 0).
#   KEY=VALUE sets an environment key of every copy, -KEY removes one.
import json
import random
import sys


def main():
    if len(sys.argv) < 5:
        sys.exit("usage: make-runs.py SOURCE N TAG SEED "
                 "[NOISE [START_NS [STEP_PCT]]]")
    src, n, tag, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3], \
        int(sys.argv[4])
    noise = float(sys.argv[5]) if len(sys.argv) > 5 else 0.03
    start = int(sys.argv[6]) if len(sys.argv) > 6 else 1700000000 * 10**9
    step = float(sys.argv[7]) if len(sys.argv) > 7 else 0.0
    edits = sys.argv[8:]
    rng = random.Random(seed)
    lines = [json.loads(x) for x in open(src)]
    header = lines[0]
    runs = [x for x in lines if x.get("type") == "run"]
    results = [x for x in lines if x.get("type") == "result"]
    if not runs:
        sys.exit("make-runs.py: %s holds no run" % src)
    out = sys.stdout
    out.write(json.dumps(header) + "\n")
    nres = 0
    for i in range(n):
        proto = runs[i % len(runs)]
        uuid = "%032x" % rng.getrandbits(128)
        run = json.loads(json.dumps(proto))
        t = start + i * 60 * 10**9
        dur = (proto["run"]["finished_ns"] or proto["run"]["started_ns"]) \
            - proto["run"]["started_ns"]
        run["run"].update(uuid=uuid, tag=tag, started_ns=t,
                          finished_ns=t + dur, group=None)
        for e in edits:
            if e.startswith("-"):
                run["environment"].pop(e[1:], None)
            else:
                k, _, v = e.partition("=")
                run["environment"][k] = v
        out.write(json.dumps(run) + "\n")
        scale = 1.0 + (step / 100.0 if i >= n // 2 else 0.0)
        run_shift = rng.gauss(0.0, noise)
        for r in results:
            if r["run"] != proto["run"]["uuid"]:
                continue
            r = json.loads(json.dumps(r))
            r["run"] = uuid
            r["samples"] = [v * scale * (1.0 + run_shift +
                                         rng.gauss(0.0, noise / 3))
                            for v in r["samples"]]
            out.write(json.dumps(r) + "\n")
            nres += 1
    out.write(json.dumps({"type": "end", "runs": n, "results": nres}) + "\n")


main()
