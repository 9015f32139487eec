#!/usr/bin/env python3
"""Closing line of `make test`: count every test case meson ran.

Reads build/meson-logs/testlog.json (one JSON object per line).  A TAP test
counts each of its result lines; a test that failed without a "not ok" line
(a crash, a timeout) counts one more failure; any other test counts once.
Prints "N passed, N failed" (", N skipped" when any) and exits 1 on failure.
"""
import json
import re
import sys

RESULT = re.compile(r"^(not ok|ok)\b(.*)$")


def main(path):
    passed = failed = skipped = 0
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as err:
        print(f"test-summary: {path}: {err.strerror}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            test = json.loads(line)
        except json.JSONDecodeError as err:
            print(f"test-summary: {path}:{number}:{err.colno}: expected a "
                  f"JSON object, found {line[:30]!r}", file=sys.stderr)
            failed += 1
            continue
        result = test.get("result", "ERROR")
        tap = [RESULT.match(l) for l in test.get("stdout", "").splitlines()]
        tap = [m for m in tap if m]
        if tap:
            bad = 0
            for m in tap:
                if m.group(1) == "not ok":
                    bad += 1
                elif re.search(r"#\s*skip", m.group(2), re.I):
                    skipped += 1
                else:
                    passed += 1
            failed += bad
            if result not in ("OK", "SKIP", "EXPECTEDFAIL") and bad == 0:
                failed += 1
        elif result in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif result == "SKIP":
            skipped += 1
        else:
            failed += 1
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1
                  else "build/meson-logs/testlog.json"))
