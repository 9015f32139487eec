#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/lint/race-headers.py - every race test tells its interleaving.

Each `Test(race, ...)` in a .c file under tests/ must have, directly above
it (no blank line, no code between), one comment block that gives, in
this order (STYLE.md, "Tests tell the interleaving"; docs/HACKING.md):

  - the interleaving as numbered steps ("1." and "2." at least), e.g. a
    two-column P0/P1 picture;
  - a line starting "Must hold" (what the checks require);
  - a line starting "Bug" (the variant, break= switch or M_BREAK_* bit
    the test runs to show that the checks catch it, or "none run");
  - a line starting "Kernel:" (the kernel file and version, the seed
    patch, or "none (engine test: ...)").

Helpers go above the header.  TAP output: first a self-check of the rules
on two made-up tests, then one line per race test; a failing line names
file:line and what is missing.  Usage: race-headers.py SOURCE_ROOT
"""
import os
import re
import sys

TEST = re.compile(r'^Test\(race,\s*(\w+)')
# A label at the start of a comment line: " * Must hold: ..." or
# " * Bug (M_BREAK_X): ...".
LABELS = (('Must hold', re.compile(r'^\s*\*\s+Must hold\b')),
          ('Bug', re.compile(r'^\s*\*\s+Bug\b\s*[:(]')),
          ('Kernel:', re.compile(r'^\s*\*\s+Kernel:')))
STEP = re.compile(r'(^|[\s*(])([12])\.\s')


def header_problems(lines, i):
    """What the header above lines[i] (a Test(race, ...) line) lacks."""
    above = lines[i - 1].rstrip() if i > 0 else ''
    if not above.endswith('*/'):
        return ['no comment block directly above (found %r)' %
                above.strip()[:40]]
    start = i - 1
    while start > 0 and not lines[start].lstrip().startswith('/*'):
        start -= 1
    block = lines[start:i]
    problems = []
    steps = {}
    for n, line in enumerate(block):
        for m in STEP.finditer(line):
            steps.setdefault(m.group(2), n)
    if '1' not in steps or '2' not in steps:
        problems.append('no interleaving (numbered steps 1. and 2.)')
    where = {}
    for name, rx in LABELS:
        hits = [n for n, line in enumerate(block) if rx.match(line)]
        if hits:
            where[name] = hits[0]
        else:
            problems.append('no line starting "%s"' % name)
    order = [steps.get('1')] + [where.get(name) for name, _ in LABELS]
    known = [n for n in order if n is not None]
    if not problems and known != sorted(known):
        problems.append('not in the order: interleaving, Must hold, Bug, '
                        'Kernel:')
    return problems


def check_file(path, rel):
    """[(rel:line, name, problems)] for each race test in @path."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    out = []
    for i, line in enumerate(lines):
        m = TEST.match(line)
        if m:
            out.append(('%s:%d' % (rel, i + 1), m.group(1),
                        header_problems(lines, i)))
    return out


GOOD = '''/*
 * A sample.
 *   P0                 P1
 *   1. a
 *                      2. b
 * Must hold: x.
 * Bug (break=y): z.
 * Kernel: mm/filemap.c, v6.18.
 */
Test(race, good)
'''


def self_check():
    """The rules accept GOOD and reject each way of breaking it."""
    lines = GOOD.split('\n')
    i = lines.index('Test(race, good)')
    if header_problems(lines, i):
        return 'a complete header is rejected: %s' % header_problems(lines, i)
    bad = {
        'helper between': lines[:i] + ['static int helper;'] + lines[i:],
        'no steps': [l.replace('1.', 'a)').replace('2.', 'b)')
                     for l in lines],
        'no Must hold': [l for l in lines if 'Must hold' not in l],
        'no Bug': [l for l in lines if 'Bug' not in l],
        'no Kernel': [l for l in lines if 'Kernel' not in l],
        'out of order': lines[:5] + [lines[7], lines[6], lines[5]] +
                        lines[8:],
    }
    for what, b in bad.items():
        if not header_problems(b, b.index('Test(race, good)')):
            return 'a header with %s is accepted' % what
    return None


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else '.'
    results = []
    for root, dirs, files in os.walk(os.path.join(top, 'tests')):
        dirs.sort()
        for name in sorted(files):
            if name.endswith('.c'):
                path = os.path.join(root, name)
                results += check_file(path, os.path.relpath(path, top))
    print('TAP version 13')
    print('1..%d' % (len(results) + 2))
    fail = 0
    err = self_check()
    print('%s 1 - the rules reject a header that breaks them%s' %
          ('not ok' if err else 'ok', ': ' + err if err else ''))
    fail |= err is not None
    print('%s 2 - race tests found: %d' %
          ('ok' if results else 'not ok', len(results)))
    fail |= not results
    for n, (where, name, problems) in enumerate(results, 3):
        if problems:
            print('not ok %d - %s: race/%s: %s' %
                  (n, where, name, '; '.join(problems)))
            fail = 1
        else:
            print('ok %d - %s: race/%s' % (n, where, name))
    return 1 if fail else 0


if __name__ == '__main__':
    sys.exit(main())
