#!/usr/bin/env python3
"""html_dom_check.py - checks of an HTML report's DOM after headless
Chromium ran its scripts (--dump-dom), shared by the smoke tests: no
script error, every chart drawn and not empty, and every numeric tick
label on its axis (the same check as tests/smoke/test_report.sh's).

usage: html_dom_check.py DOM MINCHARTS
As a module: figures(dom) gives each <figure class="plot">'s attributes.
"""
import html
import json
import re
import sys

NUM = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")


def figures(dom):
    """The attributes of each drawn figure, as a list of dicts."""
    out = []
    for tag in re.findall(r'<figure class="plot"[^>]*>', dom):
        a = dict(re.findall(r'([\w-]+)="([^"]*)"', tag))
        out.append({k: html.unescape(v) for k, v in a.items()})
    return out


def check(dom, want):
    root = re.search(r"<html[^>]*>", dom)
    if not root:
        sys.exit("no <html> in the DOM dump")
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', root.group(0)))
    if "data-errors" in attrs:
        sys.exit("the page logged errors: %s" % attrs["data-errors"])
    charts = int(attrs.get("data-charts", -1))
    drawn = int(attrs.get("data-rendered", -1))
    if charts < want or drawn != charts:
        sys.exit("%d charts, %d drawn, at least %d expected"
                 % (charts, drawn, want))
    figs = figures(dom)
    nlabels = 0
    for f in figs:
        # no point is right only where every headline was withheld
        if (int(f.get("data-points", 0)) == 0 and
                int(f.get("data-gaps", 0)) == 0) or \
                int(f.get("data-ink", 0)) < 2000:
            sys.exit("an empty %s chart" % f.get("data-kind"))
        for a in json.loads(f["data-axes"]):
            lo, hi = a["min"], a["max"]
            tol = max(abs(lo), abs(hi)) * 0.006
            if a["type"] == "logarithmic":
                lo, hi = lo / 1.01 - tol, hi * 1.01 + tol
            else:
                lo, hi = lo - (hi - lo) * 0.01 - tol, \
                    hi + (hi - lo) * 0.01 + tol
            for label in a["labels"]:
                if not NUM.match(label):
                    continue
                nlabels += 1
                if not lo <= float(label) <= hi:
                    sys.exit("%s chart, axis %s from %g to %g: tick label "
                             "%s is not on it" % (f["data-kind"], a["id"],
                                                  a["min"], a["max"], label))
    if nlabels == 0:
        sys.exit("no numeric tick label to check")
    return figs


if __name__ == "__main__":
    check(open(sys.argv[1]).read(), int(sys.argv[2]))
