#!/usr/bin/env python3
"""hw_html_check.py - the HTML report of a `--hw-counters` run says what
`show` says (tests/smoke/test_hw_counters.sh): the hardware counters line
word for word in the run's header (none where show has none), and each hardware counter row of the
text table, with the same median, in the results table.

usage: hw_html_check.py SHOW_TEXT REPORT_HTML
"""
import html
import re
import sys

HW = ("hw cycles/op", "hw instr/op", "hw IPC", "cache-miss/op",
      "dTLB-miss/op")
LINE = re.compile(r"^  (no PMU here|no hardware counters|hardware counters):")


def text_line(lines):
    """show's hardware counters line, its wrapped lines joined."""
    for i, l in enumerate(lines):
        if LINE.match(l):
            parts = [l.strip()]
            for m in lines[i + 1:]:
                if not m.startswith("    ") or m.startswith("     "):
                    break
                parts.append(m.strip())
            return " ".join(parts)
    return None


def text_rows(lines):
    """{metric: median text} of the text table's hardware rows."""
    rows = {}
    for l in lines:
        for m in HW:
            r = re.match(r"^  %s +(\S+) " % re.escape(m), l)
            if r:
                rows[m] = r.group(1)
    return rows


def main():
    lines = open(sys.argv[1]).read().splitlines()
    page = open(sys.argv[2]).read()
    want = text_line(lines)
    got = re.findall(r"<tr><th>hardware counters</th><td>(.*?)</td></tr>",
                     page)
    if len(got) != (want is not None):
        sys.exit("the report has %d hardware counters rows, show %s"
                 % (len(got), "one line" if want else "none"))
    if want and html.unescape(got[0]) != want:
        sys.exit("the report says %r, show says %r"
                 % (html.unescape(got[0]), want))
    cells = dict(re.findall(r'<tr><td>([^<]+)</td><td class="num">'
                            r'([^<]*)</td>', page))
    for m, med in text_rows(lines).items():
        if html.unescape(cells.get(m, "")) != med:
            sys.exit("%s: the report has %r, show %r"
                     % (m, cells.get(m), med))
    print("hardware counters line %s and %d rows alike"
          % ("(none)" if want is None else "", len(text_rows(lines))))


main()
