#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/estimate-check.py WPSIM [--budgets B1,B2,..] [--cpu-limit S]
[--truth FILE [--known-only]] [--grown N] [--only SUBSTRING] - how
`--estimate` holds (issue 34 item 4).

Every file of scenarios/ (every variant) and the grown write-write-sync
programs of bench/search-growth.py (one page and one writer per folio,
N = 1 .. --grown, default 3) is checked twice over:
  - exhaustively (`wpsim check FILE --exhaustive --format json`), the true
    count: executions plus redundant ones.  A run past --cpu-limit CPU
    seconds (default 300) is "not finished" and its pairs are left out.
    With --truth FILE the counts are kept in FILE (JSON) and read from it
    when it exists, so a second run measures only the estimates (with
    --known-only, only the files FILE has);
  - with `--estimate B --executions 1` for each budget B (default 100,
    1000, 10000): the estimate alone (the search after it is cut at one
    execution).
Printed per pair and budget: the estimate and its ratio to the true
count; then per budget the worst ratio (as a factor off, high or low)
and how many pairs are within 10x, for the estimate and for the
weighted backtrack estimate the report gives beside it
("weighted_backtrack": the estimator before issue 34's sample of
subtrees), and whether the true count is at least the report's lower
bound ("at_least") on every pair.  The load average is printed before
and after.
Never a test: bench/ only measures (docs/performance.md has the figures).
"""
import glob
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def load():
    return open("/proc/loadavg").read().split()[0]


def variant(d):
    v = d.get("variant", {})
    return ",".join("%s=%s" % kv for kv in sorted(v.items())) \
        if isinstance(v, dict) else str(v)


def records(wpsim, path, extra, limit):
    def cap():
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))

    p = subprocess.run([wpsim, "check", path, "--format", "json",
                        "--quiet"] + extra, capture_output=True, text=True,
                       preexec_fn=cap)
    recs = []
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            try:
                recs.append(json.loads(line))
            except ValueError:
                pass
    return recs


def grown(n):
    spec = importlib.util.spec_from_file_location(
        "growth", os.path.join(HERE, "search-growth.py"))
    g = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(g)
    tmp = tempfile.mkdtemp(prefix="wpsim-estimate-")
    files = []
    for kind in ("one page", "per folio"):
        for i in range(1, n + 1):
            path = os.path.join(tmp, "wws-%s-%d.litmus" %
                                (kind.replace(" ", "-"), i))
            with open(path, "w") as f:
                f.write(g.program(kind, i))
            files.append(path)
    return files


def name(f):
    return os.path.basename(f) if f.startswith(tempfile.gettempdir()) \
        else os.path.relpath(f)


def main():
    args = sys.argv[1:]
    known_only = "--known-only" in args
    if known_only:
        args.remove("--known-only")
    opts = {"--budgets": "100,1000,10000", "--cpu-limit": "300",
            "--truth": None, "--grown": "3", "--only": None}
    for o in list(opts):
        if o in args:
            i = args.index(o)
            opts[o] = args[i + 1]
            del args[i:i + 2]
    if not args:
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    wpsim = args[0]
    budgets = [int(b) for b in opts["--budgets"].split(",")]
    limit = int(opts["--cpu-limit"])
    os.chdir(os.path.join(HERE, ".."))
    files = sorted(glob.glob("scenarios/**/*.litmus", recursive=True))
    files += grown(int(opts["--grown"]))
    if opts["--only"]:
        files = [f for f in files if opts["--only"] in f]
    truth = {}
    if opts["--truth"] and os.path.exists(opts["--truth"]):
        with open(opts["--truth"]) as f:
            truth = json.load(f)
    print("load average before: %s" % load())
    unfinished = []
    for f in files:
        key = name(f)
        if key in truth or known_only:
            continue
        recs = records(wpsim, f, ["--exhaustive"], limit)
        t = {}
        for d in recs:
            if d.get("complete"):
                t[variant(d)] = d["executions"] + d["redundant"]
        if not recs or len(t) < len(recs):
            unfinished.append(key)
        truth[key] = t
        if opts["--truth"]:
            with open(opts["--truth"], "w") as out:
                json.dump(truth, out, indent=0, sort_keys=True)
    print("| scenario | variant | whole | " +
          " | ".join("estimate %d (ratio)" % b
                     for b in budgets) + " |")
    print("|---|---|---|" + "---|" * len(budgets))
    keys = ("executions", "weighted_backtrack")
    worst = {(b, k): (1.0, None) for b in budgets for k in keys}
    within = {(b, k): 0 for b in budgets for k in keys}
    bound_ok = {b: [0, 0] for b in budgets}
    pairs = 0
    for f in files:
        key = name(f)
        t = truth.get(key, {})
        if not t:
            continue
        cells = {}
        for b in budgets:
            for d in records(wpsim, f, ["--estimate", str(b),
                                        "--executions", "1"], limit):
                e = d.get("estimate")
                if e:
                    cells.setdefault(variant(d), {})[b] = e
        for v in sorted(t):
            whole = t[v]
            pairs += 1
            row = "| %s | %s | %s |" % (key, v or "(defaults)",
                                        format(whole, ","))
            for b in budgets:
                e = cells.get(v, {}).get(b)
                if not e:
                    row += " - |"
                    continue
                for k in keys:
                    est = e.get(k, e["executions"])
                    r = est / whole if whole else 1.0
                    off = max(r, 1 / r) if r > 0 else float("inf")
                    if off > worst[(b, k)][0]:
                        worst[(b, k)] = (off, "%s %s" % (key, v))
                    if off <= 10:
                        within[(b, k)] += 1
                est = e["executions"]
                r = est / whole if whole else 1.0
                cell = " %s (%.2f)" % (format(int(round(est)), ","), r)
                if "at_least" in e:
                    bound_ok[b][0] += e["at_least"] <= whole
                    bound_ok[b][1] += 1
                row += cell + " |"
            print(row)
            sys.stdout.flush()
    print()
    for b in budgets:
        for k in keys:
            print("budget %d, %s: %d pairs, %d within 10x, worst %.2fx "
                  "off (%s)" % (b, k, pairs, within[(b, k)],
                                worst[(b, k)][0], worst[(b, k)][1]))
        print("budget %d: the count is at least the lower bound on %d of "
              "the %d pairs that give one" % (b, bound_ok[b][0],
                                              bound_ok[b][1]))
    print("not finished within %d CPU s: %s" %
          (limit, ", ".join(unfinished) or "none"))
    print("load average after: %s" % load())
    return 0


if __name__ == "__main__":
    sys.exit(main())
