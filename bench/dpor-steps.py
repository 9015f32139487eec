#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/dpor-steps.py WPSIM [SCENARIO-DIR] [--repeat N] - engine steps
per second of DPOR on the model scenarios (issue 16: "DPOR steps/s on the
model scenarios: goal >= 5 M per core").

Each scenario of the quick tier (the files `wpsim check DIR` takes: not
"// tier: deep") is checked with its default search and --format json,
which reports the engine steps the search ran (`steps`: every step of
every execution, redundant ones included).  The host cost is the child's
user CPU time (getrusage), not wall time, so a loaded machine slows the
figure less; the best of --repeat runs (default 3) is kept.  Printed per
scenario: executions (+redundant), steps, user s, steps per user second;
then the totals and the ratio of the whole to the goal.

The baseline in the same run: each scenario under plain DFS, capped at as
many executions as DPOR ran (`--strategy dfs --executions E`; DFS has no
race analysis and no sleep sets), so the ratio DPOR/DFS steps per second
is what DPOR's bookkeeping costs per step.  Never fails on timing
(docs/performance.md has the figures).
"""
import json
import os
import resource
import subprocess
import sys

GOAL = 5e6


def check(wpsim, args):
    """(executions, redundant, steps, user seconds) of one check."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    p = subprocess.run([wpsim, "check"] + args + ["--format", "json"],
                       capture_output=True, text=True)
    user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    ex = red = steps = 0
    for line in p.stdout.splitlines():
        if not line.startswith("{"):
            continue
        d = json.loads(line)
        ex += d["executions"]
        red += d["redundant"]
        steps += d["steps"]
    return ex, red, steps, user


def best(wpsim, args, repeat):
    runs = [check(wpsim, args) for _ in range(repeat)]
    return min(runs, key=lambda r: r[3])


def scenarios(root):
    out = []
    for d, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith(".litmus"):
                continue
            path = os.path.join(d, f)
            if "// tier: deep" in open(path).read():
                continue
            out.append(path)
    return sorted(out)


def main():
    args = sys.argv[1:]
    repeat = 3
    if "--repeat" in args:
        i = args.index("--repeat")
        repeat = int(args[i + 1])
        del args[i:i + 2]
    if not args:
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    wpsim = args[0]
    root = args[1] if len(args) > 1 else "scenarios"
    print("%-44s %8s %8s %10s %7s %9s %9s %6s" % (
        "scenario", "execs", "redund", "steps", "user s", "steps/s",
        "dfs st/s", "ratio"))
    tot = [0, 0, 0, 0.0]
    dfs_steps, dfs_user = 0, 0.0
    for path in scenarios(root):
        ex, red, steps, user = best(wpsim, [path], repeat)
        for k, v in enumerate((ex, red, steps, user)):
            tot[k] += v
        _, _, bs, bu = best(wpsim, [path, "--strategy", "dfs",
                                    "--executions", str(max(ex, 1))],
                            repeat)
        dfs_steps += bs
        dfs_user += bu
        rate = steps / user if user > 0 else float("nan")
        brate = bs / bu if bu > 0 else float("nan")
        print("%-44s %8d %8d %10d %7.2f %9.3g %9.3g %6.2f" % (
            os.path.relpath(path, root), ex, red, steps, user, rate, brate,
            rate / brate if brate else float("nan")))
    rate = tot[2] / tot[3] if tot[3] > 0 else float("nan")
    brate = dfs_steps / dfs_user if dfs_user > 0 else float("nan")
    print("%-44s %8d %8d %10d %7.2f %9.3g %9.3g %6.2f" % (
        "all", tot[0], tot[1], tot[2], tot[3], rate, brate, rate / brate))
    print("DPOR on the model scenarios: %.3g steps per user second, "
          "%.2fx the goal (5 M); DFS on the same: %.3g (DPOR/DFS %.2f)" %
          (rate, rate / GOAL, brate, rate / brate))
    return 0


if __name__ == "__main__":
    sys.exit(main())
