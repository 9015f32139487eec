#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/scenarios/test-timed-pins.py WPSIM SOURCE-ROOT [--regen] - the
timed lines of every scenario's default run, pinned (TAP).

A regression pin of the model's timing, not evidence that a time is
right.  For every scenarios/**/*.litmus, under its default variant, the
test runs `wpsim run FILE --schedule 0 --explain` on 1, 2 and 4 CPUs
(`--cpus N`) and compares exactly, with tests/scenarios/timed-pins.json,
the run's exit code and the lines that carry its virtual times and
answers: "Virtual time: ends at ..."; every "---- Pn calls ... (at T
us)" and "---- Pn returns from ...: VALUE (at T us, D us after the
call)"; "Final state:", "Condition ..." and "Outcome:"; and the
path summaries some runs print (an ext4 O_DIRECT write's "ext4 DIO:"
line: the lock it held, its restarts and zeroing bios; an io_uring
request's "io_uring:" line: inline and worker attempts, punts, CQEs).
The rest of the output, the step trace (every access with its virtual
time, CPU, task, object and value), is not pinned: the order of steps
is the implementation, not something the model answers, and
docs/reliability.md does not count a mutant that changes only it as
observable, so a test must not kill mutants by it.
Timed runs are deterministic (schedule 0 runs task 0 first and then
the default schedule; on N CPUs the engine's virtual clock runs the
tasks in parallel), so nothing is approximate.

Why: the mutation measure (`make mutate`, docs/reliability.md) keeps
finding mutants that change no answer, only when something happens in
virtual time (a folio put moved before the unlock wakes a sleeper 15
ns later; a deleted write nothing reads returns 1 ns sooner).  The
seeds before this test pinned them one by one in
tests/fio/timed-golden/; this test pins every scenario's timed run at
once.  A scenario whose run at schedule 0 fails on purpose (a witness:
exit 1) is pinned with its exit code and the same lines; any other
exit code fails the test, pinned or not.

A change to the model's timing changes these lines on purpose:
regenerate them with `--regen` (tools/regen-witness.sh does) and say
in the commit what moved.
"""
import json
import os
import subprocess
import sys

wpsim, root = os.path.abspath(sys.argv[1]), sys.argv[2]
regen = "--regen" in sys.argv[3:]
pins_path = os.path.join(root, "tests", "scenarios", "timed-pins.json")
CPUS = (1, 2, 4)
PREFIXES = ("Virtual time:", "---- ", "Final state:", "Condition ",
            "Outcome:", "ext4 DIO:", "io_uring:")


def timed_lines(out):
    """The lines of `wpsim run --explain`'s output @out that are pinned."""
    keep = []
    for line in out.splitlines():
        s = line.strip()
        if s.startswith(PREFIXES):
            keep.append(s)
    return keep


def scenarios():
    found = []
    top = os.path.join(root, "scenarios")
    for d, _, names in os.walk(top):
        for n in names:
            if n.endswith(".litmus"):
                found.append(os.path.relpath(os.path.join(d, n), root))
    return sorted(found)


files = scenarios()
try:
    want_all = {} if regen else json.load(open(pins_path))
except OSError:
    want_all = {}
stale = sorted(set(want_all) - set(files))
print("TAP version 13")
print("1..%d" % (len(files) * len(CPUS) + 1))
got_all = {}
failed = 0
i = 0
for f in files:
    got_all[f] = {}
    for cpus in CPUS:
        i += 1
        what = "%s --cpus %d" % (f, cpus)
        r = subprocess.run([wpsim, "run", f, "--schedule", "0", "--explain",
                            "--cpus", str(cpus)],
                           cwd=root, capture_output=True, text=True)
        got = {"exit": r.returncode, "lines": timed_lines(r.stdout)}
        got_all[f][str(cpus)] = got
        if r.returncode not in (0, 1) or not got["lines"]:
            failed += 1
            print("not ok %d - %s: wpsim run exit %d, %d timed lines "
                  "(only a run that ends, 0 or a witness's 1, is pinned)"
                  % (i, what, r.returncode, len(got["lines"])))
            for line in r.stderr.splitlines()[-5:]:
                print("# " + line)
            continue
        if regen:
            print("ok %d - %s: regenerated" % (i, what))
            continue
        want = want_all.get(f, {}).get(str(cpus))
        if want is None:
            failed += 1
            print("not ok %d - %s: no pin (a new scenario? regenerate "
                  "with --regen)" % (i, what))
            continue
        if got == want:
            print("ok %d - %s: exit %d, %d timed lines as "
                  "pinned" % (i, what, got["exit"], len(got["lines"])))
            continue
        failed += 1
        print("not ok %d - %s: differs from the pin (a timing change? "
              "regenerate with --regen and say why)" % (i, what))
        if got["exit"] != want["exit"]:
            print("# exit: got %d, want %d" % (got["exit"], want["exit"]))
        g, w = got["lines"], want["lines"]
        for k in range(max(len(g), len(w))):
            gl = g[k] if k < len(g) else "(none)"
            wl = w[k] if k < len(w) else "(none)"
            if gl != wl:
                print("# got:  " + gl[:300])
                print("# want: " + wl[:300])
                break
i += 1
if regen:
    with open(pins_path, "w") as out:
        json.dump(got_all, out, indent=1, sort_keys=True)
        out.write("\n")
    print("ok %d - %s written (%d scenarios)"
          % (i, os.path.relpath(pins_path, root), len(files)))
elif stale:
    failed += 1
    print("not ok %d - pins of scenarios that no longer exist: %s "
          "(regenerate with --regen)" % (i, ", ".join(stale)))
else:
    print("ok %d - every pin names a scenario" % i)
sys.exit(1 if failed else 0)
