#!/usr/bin/env python3
"""check-structure.py - the structure rules of docs/architecture.md.

Reads the layer table of docs/architecture.md and checks that
  - every include "X/..." in src/F/ names a folder X that F may include,
  - the table has no cycle,
  - no source file under src/ has more than 750 lines, and none under
    src/cli/ more than 450 (a command parses and calls: its option
    table, its usage, a call into session/ and one into report/),
  - no function has more than 120 lines (kernel style: the body runs
    from a '{' alone at the start of a line to the next '}' alone at the
    start of a line),
  - the option tables are checked ones (src/cli/options.h): no file of
    src/cli/ writes a row's destination as an offsetof() of its own
    (only the typed OPT_ROW_ macros do, which check its type) nor a
    synopsis by hand ("usage: copyscope ..."; they are printed from the
    tables' forms), and a row whose destination has the wrong type does
    not compile,
  - no two files under src/ share a basename (src/a/x.c and src/b/x.c:
    a name says what a file holds, and a grep, a backtrace or a
    header comment naming x.c names one file), and a folder's private
    header is named *_priv.h (not *_impl.h, *_internal.h, ...) and is
    included by no other folder of src/.
Prints one line per problem and exits 1 when there is any, else 0.
Run from the top of the tree (make lint does).
"""
import os
import re
import subprocess
import sys
import tempfile

MAX_FILE_LINES = 750
MAX_CLI_FILE_LINES = 450
MAX_FUNCTION_LINES = 120
DOC = 'docs/architecture.md'


def read_layers():
    """Return {folder: set of folders it may include} from the doc."""
    allowed = {}
    in_table = False
    for line in open(DOC):
        if line.startswith('<!-- layers'):
            in_table = True
            continue
        if not in_table:
            continue
        if not line.startswith('|'):
            if allowed:
                break
            continue
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) < 2 or cells[0] in ('folder', '') or \
                set(cells[0]) <= set('-'):
            continue
        allowed[cells[0]] = set(cells[1].split())
    return allowed


def table_cycles(allowed):
    """Return the folders that reach themselves through the table."""
    bad = []
    for start in allowed:
        seen, todo = set(), list(allowed[start])
        while todo:
            d = todo.pop()
            if d == start:
                bad.append(start)
                break
            if d in seen:
                continue
            seen.add(d)
            todo.extend(allowed.get(d, ()))
    return bad


def long_functions(path, lines):
    out = []
    start = None
    for i, line in enumerate(lines):
        if line.rstrip('\n') == '{' and start is None:
            start = i
        elif line.rstrip('\n') == '}' and start is not None:
            n = i - start + 1
            if n > MAX_FUNCTION_LINES:
                name = '?'
                for j in range(start - 1, max(start - 6, -1), -1):
                    m = re.search(r'(\w+)\s*\(', lines[j])
                    if m:
                        name = m.group(1)
                        break
                out.append('%s:%d: function %s has %d lines (at most %d)'
                           % (path, start + 1, name, n, MAX_FUNCTION_LINES))
            start = None
    return out


# A row whose destination is not of its kind's type: must not compile.
WRONG_ROW = r'''
#include <stdbool.h>
#include <stddef.h>
#include "cli/options.h"
struct wrong { unsigned n; };
#define OPT_BASE struct wrong
const struct opt_row wrong_rows[] = {
	OPT_ROW_INT("--n", "N", "an unsigned is not an int", n, .lo = 0,
		    .hi = 1),
};
'''


def option_table_problems():
    """The option-table rules above, as problem lines."""
    out = []
    d = 'src/cli'
    for f in sorted(os.listdir(d)):
        if not f.endswith(('.c', '.h')) or f == 'options.h':
            continue
        path = os.path.join(d, f)
        for n, line in enumerate(open(path, errors='replace'), 1):
            if 'offsetof(' in line:
                out.append('%s:%d: offsetof() in cli/: write option rows '
                           'with the typed OPT_ROW_ macros (cli/options.h)'
                           % (path, n))
            if '"usage: copyscope' in line:
                out.append('%s:%d: a hand-written synopsis: give the table '
                           'its forms (.synopsis = OPT_SYNOPSIS(...))'
                           % (path, n))
    cc = os.environ.get('CC', 'cc')
    with tempfile.NamedTemporaryFile('w', suffix='.c') as t:
        t.write(WRONG_ROW)
        t.flush()
        try:
            r = subprocess.run([cc, '-std=gnu11', '-fsyntax-only', '-Isrc',
                                t.name], capture_output=True, text=True)
        except OSError:
            return out
        if r.returncode == 0:
            out.append('src/cli/options.h: OPT_ROW_INT took an unsigned '
                       'destination: the typed row macros check nothing')
        elif 'is not int' not in r.stderr:
            out.append('src/cli/options.h: the wrong-type row failed to '
                       'compile for another reason: ' +
                       r.stderr.strip().splitlines()[0])
    return out


# Words that mark a header as private when its name is not *_priv.h.
PRIVATE_WORDS = ('impl', 'internal', 'intern', 'private', 'priv', 'detail')


def naming_problems():
    """Repeated basenames under src/, and private headers misnamed or
    included from another folder, as problem lines."""
    out = []
    seen = {}
    headers = []
    for root, dirs, files in os.walk('src'):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(root, f)
            seen.setdefault(f, []).append(path)
            if f.endswith('.h'):
                headers.append(path)
    for f in sorted(seen):
        if len(seen[f]) > 1:
            out.append('%s: basename %s repeated under src/ (%s): give '
                       'each a name that says what it holds'
                       % (seen[f][0], f, ', '.join(seen[f][1:])))
    priv = []
    for path in headers:
        f = os.path.basename(path)
        words = f[:-len('.h')].split('_')
        if f.endswith('_priv.h') and len(words) > 1:
            priv.append(path)
        elif any(w in PRIVATE_WORDS for w in words):
            out.append('%s: a private header: name it *_priv.h'
                       % path)
    srcs = []
    for root, dirs, files in os.walk('src'):
        srcs.extend(os.path.join(root, f) for f in files
                    if f.endswith(('.c', '.h')))
    for path in sorted(priv):
        rel = os.path.relpath(path, 'src')
        folder = rel.split(os.sep)[0]
        inc = re.compile(r'\s*#\s*include\s+"%s"' % re.escape(rel))
        for src in sorted(srcs):
            if os.path.relpath(src, 'src').split(os.sep)[0] == folder:
                continue
            for n, line in enumerate(open(src, errors='replace'), 1):
                if inc.match(line):
                    out.append('%s:%d: includes %s, private to src/%s/'
                               % (src, n, rel, folder))
    return out


def main():
    problems = []
    allowed = read_layers()
    if not allowed:
        print('%s: no layer table found' % DOC)
        return 1
    for d in table_cycles(allowed):
        problems.append('%s: folder %s reaches itself through the table'
                        % (DOC, d))
    for d in sorted(os.listdir('src')):
        p = os.path.join('src', d)
        if not os.path.isdir(p):
            continue
        if d not in allowed:
            problems.append('src/%s/: folder not in the layer table of %s'
                            % (d, DOC))
            continue
        for f in sorted(os.listdir(p)):
            if not f.endswith(('.c', '.h')):
                continue
            path = os.path.join(p, f)
            lines = open(path, errors='replace').readlines()
            if len(lines) > MAX_FILE_LINES:
                problems.append('%s: %d lines (at most %d)'
                                % (path, len(lines), MAX_FILE_LINES))
            elif d == 'cli' and len(lines) > MAX_CLI_FILE_LINES:
                problems.append('%s: %d lines (at most %d in src/cli/)'
                                % (path, len(lines), MAX_CLI_FILE_LINES))
            problems.extend(long_functions(path, lines))
            for n, line in enumerate(lines, 1):
                m = re.match(r'\s*#\s*include\s+"([a-z_]+)/', line)
                if m and m.group(1) != d and m.group(1) not in allowed[d]:
                    problems.append('%s:%d: includes %s/, which %s/ may not '
                                    '(%s)' % (path, n, m.group(1), d, DOC))
    problems.extend(option_table_problems())
    problems.extend(naming_problems())
    for f in ('src/main.c',):
        if os.path.exists(f):
            lines = open(f).readlines()
            problems.extend(long_functions(f, lines))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
