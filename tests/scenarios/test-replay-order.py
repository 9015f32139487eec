#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/scenarios/test-replay-order.py WPSIM SOURCE-ROOT - a replayed
schedule's times follow its order; the timed strategy's already do (TAP).

The order rule (docs/timed-mode.md, "Order"; sim/engine.c order_floor):
in an execution that follows a given schedule, a step starts no earlier
than every step before it in the schedule whose access to an object it
accesses conflicts with its own.

1. The scratch scenario of the problem (tests/scenarios/order/
   truncate-vs-pwrite.litmus: XFS, P0 truncates f to 0, P1 writes its
   first 4 KiB), `wpsim run FILE --cpus N --schedule 0 --explain` on
   1, 2 and 4 CPUs: the schedule runs P0 to its end, then P1.  Must
   hold: every take of a lock printed in the step trace (acquire,
   acquire-shared) is no earlier than every release of that lock by
   another task before it in the trace (a shared take after a shared
   release excepted: they commute), and P1 takes the inode's IOLOCK
   ("f").  The bug looked like (main before session 15, 2 CPUs): P1
   takes "f" at 0.475 us, P0 releases it at 0.672 us.
2. The timed strategy is left as it was: `wpsim check --strategy timed
   --seed 5 --executions 50 --cpus N` of every scenario (but the claims,
   which timed does not check) on 2 and 4 CPUs prints the same bytes and
   exits the same with WPSIM_ORDER_CHECK=1 (every timed step checked
   against the rule; a step that breaks it fails its execution with
   "order check") as without.
"""
import glob
import os
import re
import subprocess
import sys

wpsim, root = os.path.abspath(sys.argv[1]), sys.argv[2]
SCRATCH = os.path.join("tests", "scenarios", "order", "truncate-vs-pwrite.litmus")
STEP = re.compile(r"^\s+(\d+)\s+([0-9.]+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)")

tests = []


def takes_after_releases(out):
    """Problems of a trace: takes printed before a release before them."""
    released = {}
    problems = []
    takes = 0
    for line in out.splitlines():
        m = STEP.match(line)
        if not m:
            continue
        _, t, _, task, access, obj = m.groups()
        ns = round(float(t) * 1000)
        if access in ("release", "release-shared"):
            released.setdefault(obj, []).append((task, ns, access))
        elif access in ("acquire", "acquire-shared"):
            takes += 1
            for (who, when, how) in released.get(obj, []):
                if how == "release-shared" and access == "acquire-shared":
                    continue
                if who != task and ns < when:
                    problems.append("%s %s %s at %d ns, before %s's release "
                                    "at %d ns" % (task, access, obj, ns,
                                                  who, when))
    return takes, problems


for cpus in (1, 2, 4):
    r = subprocess.run([wpsim, "run", SCRATCH, "--cpus", str(cpus),
                        "--schedule", "0", "--explain"],
                       cwd=root, capture_output=True, text=True)
    takes, problems = takes_after_releases(r.stdout)
    p1_takes_f = re.search(r"^\s+\d+\s+[0-9.]+\s+\d+\s+P1\s+acquire\s+f = ",
                           r.stdout, re.M)
    ok = r.returncode == 0 and takes > 0 and p1_takes_f and not problems
    tests.append((ok, "%s --cpus %d --schedule 0: %d takes, none before a "
                  "release before it" % (SCRATCH, cpus, takes),
                  problems[:3] or r.stderr.splitlines()[-3:]))

scenarios = sorted(f for f in glob.glob(os.path.join(root, "scenarios", "*",
                                                     "*.litmus"))
                   if os.sep + "claims" + os.sep not in f)
for cpus in (2, 4):
    differ = []
    for f in scenarios:
        args = [wpsim, "check", "--strategy", "timed", "--seed", "5",
                "--executions", "50", "--cpus", str(cpus), f]
        plain = subprocess.run(args, cwd=root, capture_output=True,
                               text=True)
        env = dict(os.environ, WPSIM_ORDER_CHECK="1")
        checked = subprocess.run(args, cwd=root, capture_output=True,
                                 text=True, env=env)
        if (plain.stdout, plain.returncode) != (checked.stdout,
                                                checked.returncode) or \
           "order check" in checked.stdout + checked.stderr:
            differ.append(os.path.relpath(f, root))
    tests.append((not differ and len(scenarios) > 50,
                  "check --strategy timed --cpus %d of %d scenarios: the "
                  "same with WPSIM_ORDER_CHECK=1" % (cpus, len(scenarios)),
                  ["differs: " + d for d in differ[:5]]))

print("TAP version 13")
print("1..%d" % len(tests))
failed = 0
for i, (ok, what, notes) in enumerate(tests, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
    if not ok:
        failed += 1
        for n in notes:
            print("# " + n)
sys.exit(1 if failed else 0)
