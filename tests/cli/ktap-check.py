#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/cli/ktap-check.py FILE - is FILE KTAP version 1 as the kernel's
readers take it (Documentation/dev-tools/ktap.rst; the line forms that
tools/testing/kunit/kunit_parser.py matches)?

Checks: the first line is "KTAP version 1"; every test is a version line,
an optional "# Subtest: NAME", a plan "1..N", then N subtests or result
lines numbered 1..N; a test with a "# Subtest:" header ends with a result
line of the same NAME one level out; nested tests are indented four more
spaces; every other line is a "# " diagnostic (or empty).  Prints one
line "ok: T tests, P passed, F failed, S skipped" and exits 0, or the
first error with its line number and exits 1.  Written for wpsim from the
specification, not taken from the kernel's parser.
"""
import re
import sys

VERSION = re.compile(r"^KTAP version 1$")
HEADER = re.compile(r"^# Subtest: (.*)$")
PLAN = re.compile(r"^1\.\.([0-9]+)$")
RESULT = re.compile(r"^(ok|not ok) ([0-9]+) (?:- )?([^#]*?)( # .*)?$")


class Bad(Exception):
    pass


class Lines:
    def __init__(self, text):
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.i = 0

    def peek(self, indent):
        """The next line with @indent spaces removed, or None."""
        if self.i >= len(self.lines):
            return None
        line = self.lines[self.i]
        if line.strip() == "":
            return ""
        if not line.startswith(" " * indent):
            return None
        return line[indent:]

    def where(self):
        return "line %d" % (self.i + 1)


def diagnostics(lines, indent):
    """Skip "# " lines (not headers) and empty lines at this level."""
    while True:
        line = lines.peek(indent)
        if line == "" and lines.i < len(lines.lines):
            lines.i += 1
            continue
        if line is None or HEADER.match(line) or not line.startswith("#"):
            return
        if not line.startswith("# ") and line != "#":
            raise Bad("%s: a diagnostic starts with '# ': %r" %
                      (lines.where(), line))
        lines.i += 1


def parse_test(lines, indent, counts):
    """A test with a version line and a plan at @indent; its subtests."""
    line = lines.peek(indent)
    if line is None or not VERSION.match(line):
        raise Bad("%s: expected 'KTAP version 1', found %r" %
                  (lines.where(), line))
    lines.i += 1
    name = None
    line = lines.peek(indent)
    if line is not None and HEADER.match(line):
        name = HEADER.match(line).group(1)
        lines.i += 1
    diagnostics(lines, indent)
    line = lines.peek(indent)
    if line is None or not PLAN.match(line):
        raise Bad("%s: expected a plan '1..N', found %r" %
                  (lines.where(), line))
    planned = int(PLAN.match(line).group(1))
    lines.i += 1
    for number in range(1, planned + 1):
        diagnostics(lines, indent)
        line = lines.peek(indent + 4)
        nested = line is not None and VERSION.match(line)
        if nested:
            sub = parse_test(lines, indent + 4, counts)
            diagnostics(lines, indent)
        line = lines.peek(indent)
        m = RESULT.match(line) if line is not None else None
        if not m:
            raise Bad("%s: expected result %d, found %r" %
                      (lines.where(), number, line))
        if int(m.group(2)) != number:
            raise Bad("%s: result %s where %d is due" %
                      (lines.where(), m.group(2), number))
        if nested and sub is not None and m.group(3) != sub:
            raise Bad("%s: result named %r closes subtest %r" %
                      (lines.where(), m.group(3), sub))
        lines.i += 1
        if not nested:
            skip = m.group(4) and m.group(4).startswith(" # SKIP")
            counts["tests"] += 1
            if skip:
                counts["skipped"] += 1
            elif m.group(1) == "ok":
                counts["passed"] += 1
            else:
                counts["failed"] += 1
    return name


def main():
    text = open(sys.argv[1]).read()
    lines = Lines(text)
    counts = {"tests": 0, "passed": 0, "failed": 0, "skipped": 0}
    try:
        parse_test(lines, 0, counts)
        diagnostics(lines, 0)
        if lines.i < len(lines.lines):
            raise Bad("%s: unexpected %r after the last test" %
                      (lines.where(), lines.lines[lines.i]))
    except Bad as e:
        print("not KTAP: %s" % e)
        return 1
    print("ok: %(tests)d tests, %(passed)d passed, %(failed)d failed, "
          "%(skipped)d skipped" % counts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
