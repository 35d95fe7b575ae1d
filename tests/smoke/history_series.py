#!/usr/bin/env python3
"""history_series.py - a made history for tests/smoke/test_history.sh and
bench runs: the runs of one real export file copied N times, each copy a
new run (a new unique id, started an hour after the one before), every
sample the real result's median multiplied by 1 + a seeded normal draw of
sd NOISE (so that the real run's own spread, which varies with the
machine's load, does not reach the series), and from copy
STEP_FROM (1-based) on also by 1 + STEP; with --kernel-at-step those
copies report the kernel release KERNEL.

usage: history_series.py IN OUT --copies N [--noise 0.03] [--step 0.10]
                         [--step-from 15] [--seed 1] [--kernel-at-step K]
"""
import argparse
import json
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--copies", type=int, required=True)
    ap.add_argument("--noise", type=float, default=0.03)
    ap.add_argument("--step", type=float, default=0.0)
    ap.add_argument("--step-from", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kernel-at-step", default=None)
    ap.add_argument("--uuid-prefix", default="5e")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    lines = [json.loads(line) for line in open(a.inp)]
    head = lines[0]
    runs = [x for x in lines if x.get("type") == "run"]
    results = [x for x in lines if x.get("type") == "result"]
    hour = 3600 * 10**9
    nres = 0
    with open(a.out, "w") as out:
        out.write(json.dumps(head) + "\n")
        for i in range(a.copies):
            stepped = a.step_from and i + 1 >= a.step_from
            for r in runs:
                uuid = "%s%030x" % (a.uuid_prefix, i * 1000 +
                                    runs.index(r))
                new = json.loads(json.dumps(r))
                old = new["run"]["uuid"]
                new["run"]["uuid"] = uuid
                new["run"]["group"] = None
                d = new["run"]["finished_ns"] - new["run"]["started_ns"]
                new["run"]["started_ns"] = r["run"]["started_ns"] + i * hour
                new["run"]["finished_ns"] = new["run"]["started_ns"] + d
                if stepped and a.kernel_at_step:
                    new["environment"]["kernel.release"] = a.kernel_at_step
                out.write(json.dumps(new) + "\n")
                for res in results:
                    if res["run"] != old:
                        continue
                    x = json.loads(json.dumps(res))
                    x["run"] = uuid
                    f = 1 + a.step if stepped else 1.0
                    m = sorted(x["samples"])[len(x["samples"]) // 2]
                    x["samples"] = [m * f * (1 + a.noise * rng.gauss(0, 1))
                                    for v in x["samples"]]
                    out.write(json.dumps(x) + "\n")
                    nres += 1
        out.write(json.dumps({"type": "end", "runs": a.copies * len(runs),
                              "results": nres}) + "\n")


main()
