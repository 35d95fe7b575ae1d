#!/usr/bin/env python3
"""check-links.py - the layer table of docs/architecture.md at link time.

The include check (check-structure.py) sees only #include lines; a
declaration in a low header whose definition lives in a folder above it
(an extern table, a function) passes that check and still makes the low
folder depend on the high one when linked.  This script reads the
symbols of the build's objects with nm:

  - every global symbol a folder's objects define belongs to that folder,
  - every undefined symbol of an object of folder F that some other folder
    G defines must have G in F's row of the layer table.

Symbols defined nowhere under src/ (the C library, libsqlite3, the
generated sources of build/gen) are not checked.  src/main.c may use
anything, as it may include anything.

Usage: check-links.py [OBJDIR]   (default build/release/src)
Prints one line per problem and exits 1 when there is any, else 0; exits
2 when OBJDIR holds no objects (build them first: make lint does).
Run from the top of the tree.
"""
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load_structure():
    """The layer-table reader of check-structure.py (one parser)."""
    spec = importlib.util.spec_from_file_location(
        'check_structure', os.path.join(HERE, 'check-structure.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def objects(objdir, allowed):
    """Return {folder: [object paths]} for the folders of the table."""
    out = {}
    for d in sorted(os.listdir(objdir)):
        p = os.path.join(objdir, d)
        if not os.path.isdir(p) or d not in allowed:
            continue
        out[d] = sorted(os.path.join(p, f) for f in os.listdir(p)
                        if f.endswith('.o'))
    return out


def symbols(paths):
    """Return ({object: set(defined)}, {object: set(undefined)})."""
    defined, undefined = {}, {}
    if not paths:
        return defined, undefined
    res = subprocess.run(['nm', '-A', '-g'] + paths, check=True,
                         capture_output=True, text=True)
    for line in res.stdout.splitlines():
        # "path.o:                 U name" or "path.o:0000 T name"
        obj, _, rest = line.partition(':')
        fields = rest.split()
        if len(fields) < 2:
            continue
        kind, name = fields[-2], fields[-1]
        if kind == 'U':
            undefined.setdefault(obj, set()).add(name)
        elif kind not in ('w', 'v'):
            defined.setdefault(obj, set()).add(name)
    return defined, undefined


def main(argv):
    objdir = argv[1] if len(argv) > 1 else 'build/release/src'
    st = load_structure()
    allowed = st.read_layers()
    if not allowed:
        print('%s: no layer table found' % st.DOC)
        return 1
    if not os.path.isdir(objdir):
        print('%s: no objects (build first)' % objdir)
        return 2
    by_folder = objects(objdir, allowed)
    paths = [o for objs in by_folder.values() for o in objs]
    if not paths:
        print('%s: no objects (build first)' % objdir)
        return 2
    defined, undefined = symbols(paths)
    owner = {}
    for folder, objs in by_folder.items():
        for o in objs:
            for name in defined.get(o, ()):
                owner[name] = (folder, o)
    problems = []
    for folder, objs in sorted(by_folder.items()):
        for o in objs:
            for name in sorted(undefined.get(o, ())):
                if name not in owner:
                    continue
                g, where = owner[name]
                if g == folder or g in allowed[folder]:
                    continue
                src = os.path.relpath(o, objdir)[:-2] + '.c'
                problems.append('src/%s: uses %s, defined in src/%s, '
                                'which %s/ may not use (%s)'
                                % (src, name,
                                   os.path.relpath(where, objdir)[:-2] +
                                   '.c', folder, st.DOC))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
