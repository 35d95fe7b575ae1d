#!/usr/bin/env python3
"""bpf_progs_of.py PID - the names of the BPF programs that process PID
and its descendants hold open, one line, sorted, blank-separated.

The ids come from /proc/PID/fdinfo (prog_id), the names from `bpftool
prog show --json`: Debian's bpftool lists no owning pids, and other runs
on the machine may hold programs of the same names.
"""
import json
import os
import subprocess
import sys


def descendants(root):
    """root and every process below it."""
    pids, more = set(), {root}
    while more:
        pids |= more
        more = set()
        for d in os.listdir('/proc'):
            if not d.isdigit() or int(d) in pids:
                continue
            try:
                with open('/proc/%s/stat' % d) as f:
                    ppid = int(f.read().rsplit(')', 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid in pids:
                more.add(int(d))
    return pids


def prog_ids(pids):
    ids = set()
    for pid in pids:
        try:
            fds = os.listdir('/proc/%d/fdinfo' % pid)
        except OSError:
            continue
        for fd in fds:
            try:
                with open('/proc/%d/fdinfo/%s' % (pid, fd)) as f:
                    for line in f:
                        if line.startswith('prog_id:'):
                            ids.add(int(line.split()[1]))
            except (OSError, ValueError):
                pass
    return ids


def main():
    ids = prog_ids(descendants(int(sys.argv[1])))
    if not ids:
        print()
        return 0
    out = subprocess.run(['bpftool', 'prog', 'show', '--json'],
                         capture_output=True, text=True, check=False)
    progs = json.loads(out.stdout or '[]')
    print(' '.join(sorted(p.get('name', '') for p in progs
                          if p.get('id') in ids)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
