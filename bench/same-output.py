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

--cache DIR keeps the baseline's outputs (keyed by the binary's bytes
and the arguments), so a second comparison against the same baseline
runs only the new binary.

Prints one line per difference and a summary; exits 1 if any output
differs, 0 if all are identical.  Never times anything (bench/ only
measures; docs/performance.md has the figures).
"""
import hashlib
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
            if n == b:
                same += 1
            else:
                differ += 1
                print("DIFFERS: check " + " ".join(a))
    print("%d identical, %d differ, %d not compared" % (same, differ,
                                                        skipped))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
