#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/split-speedup.py WPSIM [--timeout S] [--scale-out [--mpi MPI-WPSIM]]
[SCENARIO[:VARIANT]...] -
the speedup of one split search (`wpsim check --jobs N`, docs/
architecture.md "Splitting one exploration") on 2 cores (issue 16: "goal
>= 1.8x on 2 cores on the model scenarios").

For each scenario (default: the four largest model scenarios), in one
run and in this order: the classic search (no --jobs), --jobs 1 and
--jobs 2, each --exhaustive --format json.  Printed per row: executions
(+redundant) of the classic and the split search (the split's are the
same for every N: the script checks that the two split runs agree), wall
seconds and CPU seconds (user + system of the children) of each, the
wall ratio --jobs 1 / --jobs 2, the share of the workers' time the
--jobs 2 run had no item to give them (from each pair's last --progress
line, weighed by its seconds: how well the search splits, which the load
changes little), and the load
average before and after (the machine may be shared: a loaded machine gives --jobs 2 less than
two cores, which the CPU/wall ratio of its row shows).  Never fails on
timing (docs/performance.md has the figures).

--scale-out [--mpi MPI-WPSIM] (issue 34): per scenario, in one run and
in this order, the single plain process (no --jobs), --jobs 2 with a
CPU-bound process of the same length beside it (a second single
search of the same scenario, started with it and killed when it ends),
and with --mpi (a -Dmpi=enabled build) `mpirun -np 2` and `-np 4`
(--oversubscribe); the wall ratios single / --jobs 2 contended,
single / -np 2 and -np 2 / -np 4, whether the split runs printed the
same report byte for byte (and the same observations and final states
as the single process), and the load average (1 min) before each run.
"""
import json
import os
import re
import resource
import subprocess
import sys
import time

DEFAULT = [
    "scenarios/io_uring/nowait-vs-writeback.litmus",
    "scenarios/writethrough/noserial-overlap.litmus",
    "scenarios/dontcache/adjacent-records.litmus",
    "scenarios/dontcache/sashiko-double-count.litmus",
]


def run(wpsim, args, timeout, prefix=()):
    """(executions, redundant, observations, wall s, cpu s, stdout,
    workers idle % of the last progress line or None)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    try:
        p = subprocess.run(list(prefix) + [wpsim, "check", "--exhaustive",
                                           "--format", "json"] + args,
                           capture_output=True, text=True,
                           timeout=timeout)
        out = p.stdout
        # The last progress line of each pair: its seconds and idle
        # share, weighed by its seconds.
        last = {}
        for m in re.finditer(r"^(.*?): .*, ([0-9]+) s, .*workers idle "
                             r"([0-9]+)%$", p.stderr, re.M):
            last[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        secs = sum(t for t, _ in last.values())
        idle = ["%.0f" % (sum(t * i for t, i in last.values()) / secs)
                ] if secs else []
    except subprocess.TimeoutExpired:
        out = None
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if out is None:
        return None, None, None, wall, cpu, None, None
    ex = red = 0
    obs = []
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        d = json.loads(line)
        ex += d["executions"]
        red += d["redundant"]
        obs.append((d["observation"], d["ok"],
                    sorted(s["state"] for s in d["states"])))
    return ex, red, obs, wall, cpu, out, idle[-1] + "%" if idle else "-"


def load():
    return "%.2f" % os.getloadavg()[0]


def mpirun(np):
    return ["mpirun", "--oversubscribe", "--allow-run-as-root", "-np",
            str(np)]


def scale_out(wpsim, mpi, names, timeout):
    """Issue 34's figures: see the module's doc."""
    print("| scenario | executions | single wall / cpu s | --jobs 2 "
          "contended wall / cpu s | single / --jobs 2 contended | "
          "-np 2 wall / cpu s | single / -np 2 | -np 4 wall / cpu s | "
          "-np 2 / -np 4 | same report | load before each |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        f, _, variant = name.partition(":")
        args = [f] + (["--variant", variant] if variant else [])
        loads = [load()]
        one = run(wpsim, args, timeout)
        loads.append(load())
        hog = subprocess.Popen([wpsim, "check", "--exhaustive", "--quiet"] +
                               args, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        j2 = run(wpsim, ["--jobs", "2"] + args, timeout)
        hog.kill()
        hog.wait()
        rows = [one, j2]
        if mpi:
            loads.append(load())
            rows.append(run(mpi, args, timeout, mpirun(2)))
            loads.append(load())
            rows.append(run(mpi, args, timeout, mpirun(4)))
        if any(r[0] is None for r in rows):
            print("| %s | timed out after %.0f s | | | | | | | | | %s |" %
                  (name, timeout, ", ".join(loads)))
            continue
        same = all(r[5] == j2[5] for r in rows[2:]) and one[2] == j2[2]

        def cell(r):
            return "%.2f / %.2f" % (r[3], r[4])

        def ratio(a, b):
            return "%.2f×" % (a[3] / b[3]) if b[3] else "-"
        mp = [cell(rows[2]), ratio(one, rows[2]), cell(rows[3]),
              ratio(rows[2], rows[3])] if mpi else ["-"] * 4
        print("| %s | %d (+%d) | %s | %s | %s | %s | %s | %s | %s | %s | "
              "%s |" % (name, one[0], one[1], cell(one), cell(j2),
                        ratio(one, j2), mp[0], mp[1], mp[2], mp[3],
                        "yes" if same else "NO", ", ".join(loads)))
        sys.stdout.flush()


def main(argv):
    wpsim = argv[1]
    timeout = 1800
    names = []
    mpi = None
    scale = False
    i = 2
    while i < len(argv):
        if argv[i] == "--timeout":
            timeout = float(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--mpi":
            mpi = argv[i + 1]
            i += 2
            continue
        if argv[i] == "--scale-out":
            scale = True
            i += 1
            continue
        names.append(argv[i])
        i += 1
    if scale:
        scale_out(wpsim, mpi, names or [
            "scenarios/writethrough/noserial-overlap.litmus:writethrough=v3"
        ], timeout)
        return
    names = names or DEFAULT
    print("| scenario | classic executions (+red.) | split executions "
          "(+red.) | classic wall / cpu s | --jobs 1 wall / cpu s | "
          "--jobs 2 wall / cpu s | wall j1/j2 | --jobs 2 workers idle | "
          "same answers | load before, after |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        f, _, variant = name.partition(":")
        args = [f] + (["--variant", variant] if variant else [])
        before = load()
        c = run(wpsim, args, timeout)
        j1 = run(wpsim, ["--jobs", "1"] + args, timeout)
        j2 = run(wpsim, ["--jobs", "2", "--progress", "1"] + args,
                 timeout)
        after = load()
        if c[0] is None or j1[0] is None or j2[0] is None:
            print("| %s | timed out after %.0f s | | | | | | | | %s, %s |" %
                  (name, timeout, before, after))
            continue
        same = j1[5] == j2[5] and c[2] == j1[2]
        print("| %s | %d (+%d) | %d (+%d) | %.2f / %.2f | %.2f / %.2f | "
              "%.2f / %.2f | %.2f× | %s | %s | %s, %s |" %
              (name, c[0], c[1], j2[0], j2[1], c[3], c[4], j1[3], j1[4],
               j2[3], j2[4], j1[3] / j2[3] if j2[3] else 0, j2[6],
               "yes" if same else "NO", before, after))
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv)
