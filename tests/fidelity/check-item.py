#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/fidelity/check-item.py WPSIM FILE.litmus - one fidelity test of
issue 30 (a behaviour where the model disagreed with the v6.18 kernel).

The scenario's expect line is the kernel's answer.  Directives, each a
comment line of the file:

  // xfail: item N: REASON     a known divergence (or class X, one the
                               oracle found beyond the issue's list), not fixed yet: the
                               check must FAIL (exit 1, an expectation
                               that does not hold; never a scenario
                               error); the test passes and prints XFAIL.
                               When the model is fixed the check passes
                               and this test fails (XPASS): delete the
                               line.
  // expect-warning: TEXT      the loader must print TEXT (a warning
                               about a likely mistake in the scenario);
                               TEXT starting "LINE:COL: " must be
                               printed as "FILE:LINE:COL: ..." with
                               FILE the path given to wpsim.  One
                               directive per expected warning.
  // expect-warnings: N        the loader prints exactly N warnings.
  // bounded: WHY              the search is bounded by the file's
                               `bound preemptions=K`: a Never
                               expectation passes when no execution
                               within the bound has the outcome; the
                               test says "not decided beyond the bound".

Under the sanitizer tier (WPSIM_TEST_SCALE > 1, tests/scale.h) the
search is capped at 20000 / scale executions with --accept-incomplete, as
the scenario tests are: a check the cap leaves undecided is a SKIP (exit
77), never a pass.

Exit 0 pass (or expected failure), 1 fail, 77 skip.
"""
import os
import re
import subprocess
import sys


def scale():
    try:
        n = int(os.environ.get("WPSIM_TEST_SCALE", "1"))
    except ValueError:
        return 1
    return n if 1 <= n <= 1000 else 1


def main(wpsim, path):
    text = open(path, encoding="utf-8").read()
    xfail = re.search(r"^// xfail: ((?:item|class) \w+): (.*)$", text, re.M)
    warns = re.findall(r"^// expect-warning: (.*)$", text, re.M)
    nwarn = re.search(r"^// expect-warnings: (\d+)$", text, re.M)
    bounded = re.search(r"^// bounded: (.*)$", text, re.M)
    cap = []
    if scale() > 1:
        cap = ["--executions", str(20000 // scale()), "--accept-incomplete"]
    p = subprocess.run([wpsim, "check"] + cap + [path], capture_output=True,
                       text=True, timeout=600)
    out = p.stdout + p.stderr
    if cap and p.returncode == 0 and "not decided" in out:
        print("SKIP %s: not decided within the sanitizer tier's cap of %s "
              "executions" % (path, cap[1]))
        return 77
    ok = p.returncode == 0
    why = "wpsim check exit %d" % p.returncode
    if bounded and p.returncode == 3:
        obs = re.search(r"^Observation \S+ (\w+) (\d+) (\d+)", out, re.M)
        ok = bool(obs) and obs.group(2) == "0"
        why = "bounded search: %s positive" % (obs.group(2) if obs else "?")
    for w in warns:
        if re.match(r"\d+:\d+: ", w):
            w = path + ":" + w
        if ok and w not in out:
            ok = False
            why = "no warning '%s'" % w
    printed = len(re.findall(r"^\S+:\d+:\d+: warning: ", p.stderr, re.M))
    if ok and nwarn and printed != int(nwarn.group(1)):
        ok = False
        why = "%d warnings, expected %s" % (printed, nwarn.group(1))
    if xfail:
        if ok:
            print("XPASS %s: %s: the model now agrees with the kernel: "
                  "delete its xfail line" % (path, xfail.group(1)))
            return 1
        if p.returncode == 2:
            print(out)
            print("FAIL %s: a scenario error is never an expected failure"
                  % path)
            return 1
        print("XFAIL %s: %s: %s (%s)" % (path, xfail.group(1),
                                          xfail.group(2), why))
        return 0
    if not ok:
        print(out)
        print("FAIL %s: %s" % (path, why))
        return 1
    print("ok %s%s" % (path, " (bounded: %s; not decided beyond the bound)"
                       % bounded.group(1) if bounded else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
