#!/bin/sh
# test_examples.sh - the examples of README.md and docs/*.md marked with a
# line '<!-- example -->' before their indented block run, and their
# output still has the documented shape (#24 item 6): each '$ copyscope'
# command of the block runs against a fresh database and exits 0; then,
# numbers and units set aside, each configuration heading (with its
# continuation lines), each table header and each line that opens with a
# word of the explanations (where, kernel, the, per, least-squares,
# summary, draw, copyscope, stored) must be what the command prints.  A
# '...' line stands for output the example leaves out.  Also: the run
# header of docs/output-schema.md's JSON example has the keys show --json
# writes.
. "$(dirname "$0")/lib.sh"
need_python

: >"$TMP/examples-skipped"
python3 - "$BIN" "$TMP/examples-skipped" README.md docs/*.md <<'PY' || fail "the examples above are stale"
import re, subprocess, sys

bin_, skipped, files = sys.argv[1], sys.argv[2], sys.argv[3:]
UNIT = r"(ns|us|ms|s|B|KiB|MiB|GiB|[KMG]?i?B/s|[KMG]/s|ratio|calls)"
OPENERS = {"where", "kernel", "the", "per", "least-squares", "summary",
           "draw", "copyscope", "stored"}


def norm(line):
    line = re.sub(r"[0-9]+(\.[0-9]+)?(\s*" + UNIT + r")?(?![\w=])", "#", line)
    return " ".join(line.split())


def items(lines):
    """(kind, text) of the lines an example's output is checked on."""
    out, i = [], 0
    while i < len(lines):
        ln = lines[i]
        first = ln.split()[0] if ln.split() else ""
        ind = len(ln) - len(ln.lstrip())
        if re.match(r"^[a-z]+\.[a-z_]+$", first) and "=" in ln:
            text = ln
            while (i + 1 < len(lines) and "=" in lines[i + 1] and
                   len(lines[i + 1]) - len(lines[i + 1].lstrip()) == ind + 2
                   and not re.search(r"[0-9] +(ns|us|ms)\b", lines[i + 1])):
                i += 1
                text += " " + lines[i]
            out.append(("heading", norm(text)))
        elif "metric" in ln.split() and "median" in ln.split():
            out.append(("header", norm(ln)))
        elif first in OPENERS:
            out.append(("line", " ".join(norm(ln).split()[:4])))
        i += 1
    return out


def blocks(path):
    text = open(path).read().split("\n")
    for i, ln in enumerate(text):
        if ln.strip() != "<!-- example -->":
            continue
        j = i + 1
        while j < len(text) and not text[j].strip():
            j += 1
        block = []
        while j < len(text) and (text[j].startswith("    ") or
                                 not text[j].strip()):
            block.append(text[j][4:])
            j += 1
        yield i + 1, block


bad = 0
for path in files:
    for lineno, block in blocks(path):
        cmds, cur = [], None
        for ln in block:
            if ln.startswith("$ copyscope "):
                cur = [ln[2:].split("#")[0].split(), []]
                cmds.append(cur)
            elif cur is not None:
                cur[1].append(ln)
        if not cmds:
            print("%s:%d: an example without a '$ copyscope' line"
                  % (path, lineno))
            bad += 1
        for argv, want in cmds:
            argv[0] = bin_
            p = subprocess.run(argv, capture_output=True, text=True)
            if p.returncode == 4 and "the machine was not quiet" in p.stderr:
                # withheld on a loaded machine: not judged, and said so
                with open(skipped, "a") as f:
                    f.write("%s:%d: '%s' exited 4 (the machine was not "
                            "quiet): its example is unchecked\n"
                            % (path, lineno, " ".join(argv[1:])))
                continue
            if p.returncode != 0:
                print("%s:%d: '%s' exited %d: %s" % (path, lineno,
                      " ".join(argv[1:]), p.returncode, p.stderr[-500:]))
                bad += 1
                continue
            got = items(p.stdout.split("\n"))
            gotset = set(got)
            for it in items([w for w in want if w.strip() != "..."]):
                if it not in gotset:
                    print("%s:%d: '%s': the example's %s\n    %s\n  is not"
                          " in the output (normalized: %s)"
                          % (path, lineno, " ".join(argv[1:]), it[0], it[1],
                             sorted(t for k, t in got if k == it[0])[:6]))
                    bad += 1
print("checked the examples of %d files" % len(files))
sys.exit(1 if bad else 0)
PY
while IFS= read -r line; do
	skip_case "$line"
done <"$TMP/examples-skipped"

note "docs/output-schema.md: the run header's keys"
cs 0 run sys.null --quick --tag schema
cs 0 show last --json
python3 - "$OUT" docs/output-schema.md <<'PY' || fail "output-schema.md's run header is stale"
import json, re, sys
run = json.load(open(sys.argv[1]))["run"]
doc = open(sys.argv[2]).read()
m = re.search(r'"run": \{(.*?)"options": \{(.*?)\} \}', doc, re.S)
keys = set(re.findall(r'"([a-z_]+)":', m.group(1)))
opts = set(re.findall(r'"([a-z_]+)":', m.group(2)))
want, wopts = set(run) - {"options"}, set(run["options"])
if keys != want or opts != wopts:
    sys.exit("run keys: doc %s, show --json %s; options: doc %s, json %s"
             % (sorted(keys ^ want), sorted(want), sorted(opts ^ wopts),
                sorted(wopts)))
PY
exit 0
