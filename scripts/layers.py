#!/usr/bin/env python3
"""layers.py - print the include graph between the folders of src/."""
import os, re, collections
edges = collections.defaultdict(lambda: collections.defaultdict(set))
for d in sorted(os.listdir('src')):
    p = os.path.join('src', d)
    if not os.path.isdir(p):
        continue
    for f in sorted(os.listdir(p)):
        if f.endswith(('.c', '.h')):
            for m in re.finditer(r'#include\s+"([a-z_]+)/([a-z_0-9.]+)"',
                                 open(os.path.join(p, f)).read()):
                if m.group(1) != d:
                    edges[d][m.group(1)].add(f + '->' + m.group(2))
for a in sorted(edges):
    for b in sorted(edges[a]):
        print(a, '->', b, ' '.join(sorted(edges[a][b])))
