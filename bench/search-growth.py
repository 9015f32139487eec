#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/search-growth.py NEW [BASE] [--before all|plain|off] [--max N]
[--cpu-limit S] [--dfs N] [--estimate PROBES] [--only one-page|per-folio]
- how an exhaustive search grows with the program.

The issue 34 table: write-write-sync (scenarios/mm/write-write-sync.litmus)
grown two ways, each with a WB_SYNC_ALL writeback pass as its last task:
  - "one page": N buffered writers of one 4 KiB page, writer i writing
    sector i (N = 1 .. --max, default 4);
  - "per folio": N writers of an N-page file, writer i writing page i.
Each program is checked with `wpsim check --exhaustive --format json` by
NEW (and BASE, the baseline binary, when given; or with --before MODE
and no BASE, NEW itself with `--lock-aware MODE`: `plain` leaves bit
locks (the folio lock) and read sections out of the lock-aware
reduction, `off` turns it off), under a CPU-time limit per run
(--cpu-limit, default 600 s): a run that hits it is "not finished in S
CPU s".
Printed per program: executions (+ redundant), the growth over the
program one smaller, the CPU seconds (user + system, a load-independent
figure; wall time under load is not), and whether NEW and BASE reached
the same observation and the same final states (the states' texts and
whether each holds, not their counts).  With --dfs N, programs with at
most N writers are also checked with --strategy dfs --preemptions 2
(unbounded DFS does not end even on one writer: > 460 000 executions in
a minute), and every final state DFS reaches must be one NEW reaches
("all reached (d of n)": d states of DFS's within n of NEW's).  With --estimate PROBES, NEW's
`--estimate PROBES` figure is printed next to the true count (the
estimator's ratio, and its interval when it gives one).  The load average is printed before and after.
Never a test: bench/ only measures (docs/performance.md has the figures).
"""
import json
import os
import resource
import subprocess
import sys
import tempfile

HEAD = 'wpsim %s\n"%s"\n'


def program(kind, n):
    """The text of a grown write-write-sync program."""
    if kind == "one page":
        lines = [HEAD % ("wws-page-%d" % n, "%d writers of one page" % n),
                 "{", "  file f: size=4096, layout=W, cached=0, "
                 "open=O_RDWR;", "}"]
        for i in range(n):
            lines += ["P%d {" % i, "  r0 = pwrite(f, %d, 512);" % (512 * i),
                      "}"]
    else:
        lines = [HEAD % ("wws-folio-%d" % n,
                         "%d writers, one per folio" % n),
                 "{", "  file f: size=%dK, bsize=4096, folio=4096, "
                 "layout=%s, cached=0, open=O_RDWR;" % (4 * n, "W" * n),
                 "}"]
        for i in range(n):
            lines += ["P%d {" % i,
                      "  r0 = pwrite(f, %d, 512);" % (4096 * i), "}"]
    step = 1 if kind == "one page" else 8	# sectors per writer
    cond = " /\\ ".join("f.disk[%d] == %d" % (step * i, 100 * (i + 1))
                         for i in range(n))
    lines += ["P%d {" % n, "  r0 = writeback(f, WB_SYNC_ALL);", "}",
              "exists (%s /\\ f.lost_sectors == 0)" % cond]
    return "\n".join(lines) + "\n"


def run(wpsim, path, extra, limit):
    """(parsed json or None, cpu seconds, timed out)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)

    def cap():
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))

    p = subprocess.run([wpsim, "check", path, "--exhaustive", "--format",
                        "json", "--quiet"] + extra, capture_output=True,
                       text=True, preexec_fn=cap)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime +
           after.ru_stime - before.ru_stime)
    try:
        return json.loads(p.stdout.splitlines()[0]), cpu, False
    except (ValueError, IndexError):
        return None, cpu, True


def states(r):
    return (r["observation"], r["outcomes"]["deadlock"] > 0,
            sorted((s["state"], s["holds"]) for s in r["states"]))


def count(r):
    return r["executions"] + r["redundant"]


def load():
    return open("/proc/loadavg").read().split()[0]


def main():
    args = sys.argv[1:]
    opts = {"--max": 4, "--cpu-limit": 600, "--dfs": 0, "--estimate": 0,
            "--only": None, "--before": None}
    for o in list(opts):
        if o in args:
            i = args.index(o)
            opts[o] = args[i + 1] if o in ("--only", "--before") \
                else int(args[i + 1])
            del args[i:i + 2]
    if not args:
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    new = args[0]
    base = args[1] if len(args) > 1 else None
    base_args = []
    if base is None and opts["--before"]:
        base, base_args = new, ["--lock-aware", opts["--before"]]
    limit = opts["--cpu-limit"]
    tmp = tempfile.mkdtemp(prefix="wpsim-growth-")
    print("load average before: %s" % load())
    print("BASE: %s%s; NEW: %s" % (base, " " + " ".join(base_args)
                                   if base_args else "", new))
    print("| program | N | BASE executions (+red.) | BASE CPU s | growth |"
          " NEW executions (+red.) | NEW CPU s | growth | BASE/NEW |"
          " same observation and states | DFS states | estimate (ratio) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for kind in ("one page", "per folio"):
        if opts["--only"] and opts["--only"] != kind.replace(" ", "-"):
            continue
        prev = {"new": None, "base": None}
        for n in range(1, opts["--max"] + 1):
            path = os.path.join(tmp, "%s-%d.litmus" %
                                (kind.replace(" ", "-"), n))
            with open(path, "w") as f:
                f.write(program(kind, n))
            row = ["| %s | %d" % (kind, n)]
            res = {}
            for who, binary in (("base", base), ("new", new)):
                if binary is None:
                    row.append("| - | - | -")
                    continue
                r, cpu, out = run(binary, path,
                                  base_args if who == "base" else [],
                                  limit)
                res[who] = r
                if r is None or not r["complete"]:
                    row.append("| not finished in %.0f CPU s | %.1f | -"
                               % (limit, cpu))
                    prev[who] = None
                    continue
                g = ("%.1f×" % (count(r) / prev[who]) if prev[who]
                     else "-")
                row.append("| %s (+%s) | %.1f | %s" % (
                    format(r["executions"], ","),
                    format(r["redundant"], ","), cpu, g))
                prev[who] = count(r)
            b, nw = res.get("base"), res.get("new")
            if b and nw and b["complete"] and nw["complete"]:
                row.append("| %.1f× | %s" % (count(b) / count(nw),
                                             "yes" if states(b) ==
                                             states(nw) else "NO"))
            else:
                row.append("| - | -")
            if n <= opts["--dfs"] and nw and nw["complete"]:
                d, _, _ = run(new, path, ["--strategy", "dfs",
                                          "--preemptions", "2"], limit)
                if d and d["complete"]:
                    dfs = set(states(d)[2])
                    got = set(states(nw)[2])
                    row.append("| %s (%d of %d; %s executions)" % (
                        "all reached" if dfs <= got else "MISSED",
                        len(dfs), len(got), format(d["executions"], ",")))
                else:
                    row.append("| DFS > limit")
            else:
                row.append("| -")
            if opts["--estimate"] and nw and nw["complete"]:
                e, _, _ = run(new, path, ["--estimate",
                                          str(opts["--estimate"])], limit)
                est = e.get("estimate") if e else None
                if est:
                    x = est["executions"]
                    iv = (" [%s-%s]" % (format(int(est["low"]), ","),
                                        format(int(est["high"]), ","))
                          if "low" in est else "")
                    row.append("| %s (%.2f)%s |" % (
                        format(int(x), ","), x / count(nw), iv))
                else:
                    row.append("| - |")
            else:
                row.append("| - |")
            print(" ".join(row), flush=True)
    print("load average after: %s" % load())
    return 0


if __name__ == "__main__":
    sys.exit(main())
