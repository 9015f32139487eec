#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/same-output.py NEW BASE [SCENARIO-DIR] [--cache DIR] - does a faster wpsim
print byte for byte what the baseline prints?

For a change that must not change results (an optimisation of the engine,
the primitives or DPOR's bookkeeping): both binaries run the same checks
and their stdout and exit status are compared, each binary's model hash
in front of schedules aside (it names the sources, which changed).  Per scenario in
SCENARIO-DIR (default scenarios/, both tiers):

  - the default search, --format json and text (deep-tier scenarios:
    with --executions 20000, their whole space takes minutes);
  - --exhaustive --format json, when the baseline's default search took
    under 2 user seconds (a timeout of 120 s each: a baseline that times
    out is reported as not compared);
  - --strategy dfs, random and pct with --executions 300 --seed 7.

Per built-in program (`wpsim list programs`): dfs and dpor with
--executions 20000, random and pct with --executions 300 --seed 7.

--states: for a change that may change how many executions DPOR runs but
not what it finds (a reduction): where a DPOR search's output differs,
its JSON is compared by what it observed (the observation, the verdict,
whether it is complete and decided, which failure kinds occurred, and,
for a search that did not stop early, the final states and whether each
holds; not their counts, the executions, the witness chosen); a built-in
program's text by its failure lines (the kind and the tasks, not the
schedule); the text report of a scenario's DPOR search is not compared
(the same search's JSON is).  The executions and redundant executions of
both are summed and printed.  Other strategies must still match byte
for byte.

--cache DIR keeps the baseline's outputs (keyed by the binary's bytes
and the arguments), so a second comparison against the same baseline
runs only the new binary.

Prints one line per difference and a summary; exits 1 if any output
differs, 0 if all are identical.  Never times anything (bench/ only
measures; docs/performance.md has the figures).
"""
import hashlib
import json
import os
import pickle
import re
import resource
import subprocess
import sys

TIMEOUT = 120


HASHES = {}


def model_hash(wpsim):
    """The model hash wpsim puts in front of schedules ("HASH:0*4.1")."""
    if wpsim in HASHES:
        return HASHES[wpsim]
    p = subprocess.run([wpsim, "--version"], capture_output=True,
                       text=True)
    m = re.search(r"\(model ([0-9a-f]+)\)", p.stdout)
    HASHES[wpsim] = m.group(1).encode() if m else None
    return HASHES[wpsim]


def run(wpsim, args):
    """((exit status, stdout with the model hash as MODEL), user s)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    try:
        p = subprocess.run([wpsim] + args, capture_output=True,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, TIMEOUT
    user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    out = p.stdout
    h = model_hash(wpsim)
    if h:
        out = out.replace(h + b":", b"MODEL:")
    return (p.returncode, out), user


def cached(cache, wpsim, args):
    """run(), with the baseline's results kept in CACHE (if not None)."""
    if cache is None:
        return run(wpsim, args)
    key = hashlib.sha256(open(wpsim, "rb").read() +
                         "\0".join(args).encode()).hexdigest()
    path = os.path.join(cache, key)
    if os.path.exists(path):
        with open(path, "rb") as f:
            return pickle.load(f)
    r = run(wpsim, args)
    with open(path, "wb") as f:
        pickle.dump(r, f)
    return r


def is_dpor(argv):
    """Does this check run DPOR (the default strategy)?"""
    return "--strategy" not in argv or \
        argv[argv.index("--strategy") + 1] == "dpor"


def json_states(out):
    """What each JSON record of OUT observed, and its (executions,
    redundant); None if OUT is not JSON records."""
    seen, counts = [], [0, 0]
    try:
        for line in out.decode().splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            early = r.get("decided_early") or not r.get("complete")
            # A search that stopped once decided saw only part of the
            # states; which part, and whether the other ran to the end
            # first, depends on the order of the search.
            seen.append((r.get("name"), r.get("variant"),
                         r.get("observation"), r.get("expected"),
                         r.get("ok"), r.get("decided"),
                         (r.get("complete") or r.get("decided_early")),
                         r.get("error"),
                         None if early else
                         sorted(k for k, v in
                                (r.get("outcomes") or {}).items() if v),
                         None if early else
                         sorted((x["state"], x["holds"])
                                for x in r.get("states") or [])))
            counts[0] += r.get("executions") or 0
            counts[1] += r.get("redundant") or 0
    except ValueError:
        return None, None
    return seen, counts


def text_failures(out):
    """A built-in program's report: its failure lines and completeness."""
    lines = out.decode(errors="replace").splitlines()
    head = re.sub(r"[0-9]+ [a-z]+,? ?", "", lines[0]) if lines else ""
    return [head] + [l for l in lines if l.startswith("FAIL")]


def scenarios(root):
    out = []
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".litmus"):
                path = os.path.join(d, f)
                out.append((path, "// tier: deep" in open(path).read()))
    return sorted(out)


def programs(wpsim):
    p = subprocess.run([wpsim, "list", "programs"], capture_output=True,
                       text=True)
    return [l.split()[0] for l in p.stdout.splitlines() if l.strip()]


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    cache = None
    if "--cache" in args:
        i = args.index("--cache")
        cache = args[i + 1]
        del args[i:i + 2]
        os.makedirs(cache, exist_ok=True)
    states_mode = "--states" in args
    if states_mode:
        args.remove("--states")
    totals = {"new": [0, 0], "base": [0, 0]}
    text_skipped = 0
    new, base = args[0], args[1]
    root = args[2] if len(args) > 2 else "scenarios"
    checks = []
    for path, deep in scenarios(root):
        default = [path] + (["--executions", "20000"] if deep else [])
        checks.append((default + ["--format", "json"], True))
        checks.append((default, False))
        for s in ("dfs", "random", "pct"):
            checks.append(([path, "--strategy", s, "--executions", "300",
                            "--seed", "7", "--format", "json"], False))
    for prog in programs(base):
        for s in ("dfs", "dpor"):
            checks.append(([prog, "--strategy", s, "--executions",
                            "20000"], False))
        for s in ("random", "pct"):
            checks.append(([prog, "--strategy", s, "--executions", "300",
                            "--seed", "7"], False))
    same = differ = skipped = 0
    for argv, try_exhaustive in checks:
        todo = [argv]
        b, user = cached(cache, base, ["check"] + argv)
        if try_exhaustive and b is not None and user < 2.0:
            todo.append(argv + ["--exhaustive"])
        for i, a in enumerate(todo):
            if i > 0:
                b, _ = cached(cache, base, ["check"] + a)
            if b is None:
                print("not compared (baseline timed out): check " +
                      " ".join(a))
                skipped += 1
                continue
            n, _ = run(new, ["check"] + a)
            if states_mode and is_dpor(a) and n is not None:
                if "--format" in a:
                    ns, nc = json_states(n[1])
                    bs, bc = json_states(b[1])
                    if ns is not None and bs is not None:
                        for who, c in (("new", nc), ("base", bc)):
                            totals[who][0] += c[0]
                            totals[who][1] += c[1]
                        if n[0] == b[0] and len(ns) == len(bs) and all(
                                x[:-2] == y[:-2] and
                                (x[-1] is None or y[-1] is None or
                                 x[-2:] == y[-2:])
                                for x, y in zip(ns, bs)):
                            same += 1
                        else:
                            differ += 1
                            print("DIFFERS (observed): check " +
                                  " ".join(a))
                        continue
                elif a[0].endswith(".litmus"):
                    if n != b:
                        text_skipped += 1
                    else:
                        same += 1
                    continue
                elif n[0] == b[0] and \
                        text_failures(n[1]) == text_failures(b[1]):
                    same += 1
                    continue
            if n == b:
                same += 1
            else:
                differ += 1
                print("DIFFERS: check " + " ".join(a))
    if states_mode:
        print("DPOR JSON records: executions (+redundant) %d (+%d) -> "
              "%d (+%d); %d DPOR text reports of scenarios differ and are "
              "not compared (their JSON is)" %
              (totals["base"][0], totals["base"][1], totals["new"][0],
               totals["new"][1], text_skipped))
    print("%d %s, %d differ, %d not compared" % (
        same, "same" if states_mode else "identical", differ, skipped))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
