#!/usr/bin/env python3
"""tools/mutate/mutate.py SRC [--seed N] [--n N] [--judge quick|fast]
[--work DIR] [--list] [--timeout S] - seeded mutation testing (make mutate).

Each mutant is one realistic kernel bug applied to one line of model/ or
sim/ (operators below), built incrementally in a scratch copy of SRC
(never in SRC itself) and judged by a set of tests; a mutant is killed
when a test fails or times out, or when it does not build (counted apart:
"stillborn", not in the rate).  Prints one line per mutant and a summary:
the kill rate, and per survivor file:line, operator and the diff.

Operators (issue 20):
  lock-pair   delete a lock call and its matching unlock in one function
              (sim_spin_lock/unlock, sim_mutex_*, km_down_*/km_up_*,
              km_inode_lock*/unlock*, km_folio_lock/unlock)
  call        delete one call statement of a km_/sim_ function
  swap        swap two adjacent statements that each touch shared state
  negate      negate an if/while condition
  shift       < <-> <=, > <-> >= in a condition
  counter     change a counter update by one (add/add_nr deltas, += 1)
  errret      replace `return -KM_E...;` by `return 0;`

Judges: "fast" (default) is the scenario corpus (wpsim check scenarios,
the quick tier's scenarios with their default bounds) plus the quick
suite's Criterion suites that run in seconds (engine-lockdep,
engine-primitives, model-paths, model-filemap, model-races,
model-io-uring, model-writethrough, model-ext4-dio, harness): about a
minute per mutant on a loaded 2-core machine, against 4-5 for the whole
quick suite.  It leaves out the slow explorations (engine-dpor,
model-dontcache, model-rwsem*, dpor-vs-dfs, doc-commands, the per-scenario
meson tests with --exhaustive); a survivor of "fast" can be rerun with
--judge quick.  "quick" is the whole quick suite.
Environment: MUTATE_SEED, MUTATE_N (defaults for --seed, --n).
"""
import argparse
import difflib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

LOCKS = [
    (r"sim_spin_lock\((.+?)\);", r"sim_spin_unlock\(\1\);"),
    (r"sim_mutex_lock\((.+?)\);", r"sim_mutex_unlock\(\1\);"),
    (r"km_down_write\((.+?)\);", r"km_up_write\(\1\);"),
    (r"km_down_read\((.+?)\);", r"km_up_read\(\1\);"),
    (r"km_inode_lock\((.+?)\);", r"km_inode_unlock\(\1\);"),
    (r"km_inode_lock_shared\((.+?)\);", r"km_inode_unlock_shared\(\1\);"),
    (r"km_folio_lock\((.+?)\);", r"km_folio_unlock\(\1\);"),
]
SHARED = re.compile(r"\b(sim_word_|sim_bit_|sim_spin_|km_)\w*\(")
CALL_STMT = re.compile(r"^\s*(km_\w+|sim_word_\w+|sim_bit_\w+|"
                       r"sim_spin_\w+|sim_mutex_\w+)\(.*\);\s*$")
COND = re.compile(r"^(\s*)(\}\s*else\s+)?(if|while) \((.*)\)( \{)?\s*$")
ADD = re.compile(r"(sim_word_add(?:_nr)?\(&[^,]+,\s*)(-?)(\(?[^;]*?\)?)"
                 r"(\);)")
ERRRET = re.compile(r"return -KM_E[A-Z]+;")


def sources(src):
    out = []
    for d in ("model", "sim"):
        for root, _, files in os.walk(os.path.join(src, d)):
            for f in sorted(files):
                if f.endswith(".c"):
                    out.append(os.path.relpath(os.path.join(root, f), src))
    return sorted(out)


def in_comment_mask(lines):
    """True for lines inside /* */ comments (roughly: whole-line ones)."""
    mask, inside = [], False
    for ln in lines:
        s = ln.strip()
        if inside:
            mask.append(True)
            if "*/" in s:
                inside = False
            continue
        if s.startswith("/*") or s.startswith("*") or s.startswith("//"):
            mask.append(True)
            if s.startswith("/*") and "*/" not in s:
                inside = True
            continue
        mask.append(False)
    return mask


def function_spans(lines):
    """(start, end) line index pairs of top-level function bodies."""
    spans, start = [], None
    for i, ln in enumerate(lines):
        if ln.startswith("{"):
            start = i
        elif ln.startswith("}") and start is not None:
            spans.append((start, i))
            start = None
    return spans


def sites(src, path):
    """Every mutation site of @path: (operator, line index, new lines)."""
    lines = open(os.path.join(src, path)).read().split("\n")
    mask = in_comment_mask(lines)
    out = []
    for a, b in function_spans(lines):
        for i in range(a + 1, b):
            if mask[i]:
                continue
            ln = lines[i]
            for lock, unlock in LOCKS:
                m = re.search(lock, ln)
                if not m or not re.match(r"^\s*" + lock + r"\s*$", ln):
                    continue
                ul = re.compile(r"^\s*" + unlock.replace(r"\1",
                                re.escape(m.group(1))) + r"\s*$")
                for j in range(i + 1, b):
                    if ul.match(lines[j]):
                        out.append(("lock-pair", i, ("del", i, j)))
                        break
            if CALL_STMT.match(ln) and "unlock" not in ln and \
                    "_init" not in ln and not ln.rstrip().endswith(","):
                out.append(("call", i, ("del", i)))
            m = COND.match(ln)
            if m and "#" not in ln:
                cond = m.group(4)
                if cond.count("(") == cond.count(")"):
                    neg = "%s%s%s (!(%s))%s" % (m.group(1), m.group(2) or "",
                                               m.group(3), cond,
                                               m.group(5) or "")
                    out.append(("negate", i, ("sub", i, neg)))
                    for op, rep in (("<=", "<"), (">=", ">"), ("<", "<="),
                                    (">", ">=")):
                        pat = r"(?<![<>=!-])%s(?![<>=])" % re.escape(op)
                        if re.search(pat, cond) and "->" not in op:
                            new = ln.replace(cond, re.sub(pat, rep, cond, 1),
                                             1)
                            if new != ln:
                                out.append(("shift", i, ("sub", i, new)))
                            break
            m = ADD.search(ln)
            if m:
                new = ADD.sub(lambda mm: "%s%s(%s) + 1%s" % (
                    mm.group(1), mm.group(2), mm.group(3), mm.group(4)),
                    ln, 1)
                out.append(("counter", i, ("sub", i, new)))
            elif re.search(r"\+= 1;|-= 1;|\+\+;|--;", ln):
                new = ln.replace("+= 1;", "+= 2;").replace(
                    "-= 1;", "-= 2;").replace("++;", " += 2;").replace(
                    "--;", " -= 2;")
                out.append(("counter", i, ("sub", i, new)))
            if ERRRET.search(ln):
                out.append(("errret", i,
                            ("sub", i, ERRRET.sub("return 0;", ln))))
            # swap: this statement and the next, both touching shared
            # state, simple statements at the same indentation.
            if i + 1 < b and not mask[i + 1]:
                nx = lines[i + 1]
                ind = len(ln) - len(ln.lstrip())
                if ln.rstrip().endswith(";") and nx.rstrip().endswith(";") \
                        and SHARED.search(ln) and SHARED.search(nx) \
                        and ind == len(nx) - len(nx.lstrip()) \
                        and not ln.lstrip().startswith("return") \
                        and not nx.lstrip().startswith("return") \
                        and "=" not in ln.split("(")[0] \
                        and ln.count("(") == ln.count(")") \
                        and nx.count("(") == nx.count(")"):
                    out.append(("swap", i, ("swap", i, i + 1)))
    return lines, out


# The mix of realistic kernel bugs (40 mutants: 9 deleted calls,
# 6 swaps, 10 conditions, 8 counters, 7 error returns); model/ gets four
# mutants in five, sim/ the fifth.
OP_WEIGHTS = [("lock-pair", 4), ("call", 5), ("swap", 6), ("negate", 6),
              ("shift", 4), ("counter", 8), ("errret", 7)]


def choose(rng, every, n):
    pools = {}
    for site in every:
        d = "sim" if site[0].startswith("sim/") else "model"
        pools.setdefault((d, site[1]), []).append(site)
    for v in pools.values():
        rng.shuffle(v)
    pick = []
    while len(pick) < n and any(pools.values()):
        d = "sim" if rng.random() < 0.2 else "model"
        ops = [(op, w) for op, w in OP_WEIGHTS if pools.get((d, op))]
        if not ops:
            continue
        r = rng.random() * sum(w for _, w in ops)
        for op, w in ops:
            r -= w
            if r < 0:
                break
        pick.append(pools[(d, op)].pop())
    return pick


def apply(lines, action):
    new = list(lines)
    if action[0] == "del":
        for k in sorted(action[1:], reverse=True):
            del new[k]
    elif action[0] == "sub":
        new[action[1]] = action[2]
    elif action[0] == "swap":
        i, j = action[1], action[2]
        new[i], new[j] = new[j], new[i]
    return new


def run(cmd, cwd, timeout):
    t = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), \
            time.time() - t
    except subprocess.TimeoutExpired:
        return "timeout", "", time.time() - t


def judges(kind):
    if kind == "quick":
        return [("quick", ["meson", "test", "-C", "build", "--suite",
                           "quick", "--no-rebuild", "-q"])]
    fast = ["engine-lockdep", "engine-primitives", "model-paths",
            "model-filemap", "model-races", "model-io-uring",
            "model-writethrough", "model-ext4-dio", "model-nvme", "harness"]
    return [("scenarios", ["build/wpsim", "check", "scenarios", "--jobs",
                           "1", "--format", "tap"])] + \
        [(t, ["meson", "test", "-C", "build", "--no-rebuild", "-q", t])
         for t in fast]


def judge_targets(work, kind):
    """The ninja targets the judges run: wpsim and the test executables
    (a mutant is rebuilt only as far as it is judged; a full build links
    some thirty programs)."""
    if kind == "quick":
        return []
    names = set(n for n, _ in judges(kind)[1:])
    out = subprocess.run(["meson", "introspect", "build", "--tests"],
                         cwd=work, stdout=subprocess.PIPE, check=True).stdout
    build = os.path.join(work, "build") + os.sep
    targets = ["wpsim"]
    for t in json.loads(out):
        if t["name"] in names and t["cmd"][0].startswith(build):
            targets.append(t["cmd"][0][len(build):])
    return targets


def copy_tree(src, work):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"],
                           cwd=src, stdout=subprocess.PIPE,
                           check=True).stdout.decode().split("\n")
    for f in files:
        if not f or not os.path.isfile(os.path.join(src, f)):
            continue
        d = os.path.join(work, os.path.dirname(f))
        os.makedirs(d, exist_ok=True)
        shutil.copy2(os.path.join(src, f), os.path.join(work, f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--seed", type=int,
                    default=int(os.environ.get("MUTATE_SEED", "1")))
    ap.add_argument("--n", type=int,
                    default=int(os.environ.get("MUTATE_N", "100")))
    ap.add_argument("--judge", default=os.environ.get("MUTATE_JUDGE",
                                                      "fast"))
    ap.add_argument("--work", default=None)
    ap.add_argument("--timeout", type=int, default=600,
                    help="seconds the unmutated tree gets per judge, x3")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    src = os.path.abspath(a.src)

    every = []
    for path in sources(src):
        lines, ss = sites(src, path)
        for op, i, action in ss:
            every.append((path, op, i, action))
    rng = random.Random(a.seed)
    pick = choose(rng, every, a.n)
    if a.list:
        for path, op, i, action in pick:
            lines = open(os.path.join(src, path)).read().split("\n")
            print("%s:%d %s" % (path, i + 1, op))
            print("".join(difflib.unified_diff(
                [l + "\n" for l in lines],
                [l + "\n" for l in apply(lines, action)],
                "a/" + path, "b/" + path, n=0)), end="")
        print("%d sites in all" % len(every))
        return 0

    work = a.work or os.path.join("/tmp", "wpsim-mutate-%d" % os.getpid())
    if os.path.abspath(work).startswith(src + os.sep) or \
            os.path.abspath(work) == src:
        print("mutate: --work must be outside the source tree",
              file=sys.stderr)
        return 2
    os.makedirs(work, exist_ok=True)
    copy_tree(src, work)
    if not os.path.isdir(os.path.join(work, "build")):
        rc, out, _ = run(["meson", "setup", "build", "-Dtests=enabled"],
                         work, 600)
        if rc != 0:
            print(out)
            return 2
    rc, out, _ = run(["ninja", "-C", "build"], work, 1800)
    if rc != 0:
        print(out)
        return 2
    targets = judge_targets(work, a.judge)
    limit = {}
    for name, cmd in judges(a.judge):
        rc, out, t = run(cmd, work, 3 * a.timeout)
        if rc != 0:
            print("mutate: the unmutated tree fails %s (%s):\n%s" %
                  (name, rc, out))
            return 2
        # A mutant that takes three times as long (plus slack for a
        # loaded machine) is a hang: killed by timeout.
        limit[name] = max(3 * t + 60, 120)
    print("mutate: seed %d, %d mutants of %d sites, judge %s" %
          (a.seed, len(pick), len(every), a.judge))
    sys.stdout.flush()
    killed, survivors, stillborn, by_op = 0, [], 0, {}
    for k, (path, op, i, action) in enumerate(pick):
        full = os.path.join(work, path)
        orig = open(full).read()
        lines = orig.split("\n")
        new = apply(lines, action)
        diff = "".join(difflib.unified_diff(
            [l + "\n" for l in lines], [l + "\n" for l in new],
            "a/" + path, "b/" + path, n=0))
        open(full, "w").write("\n".join(new))
        verdict, by = "survived", ""
        began = time.time()
        try:
            rc, out, _ = run(["ninja", "-C", "build"] + targets, work, 900)
            if rc != 0:
                verdict = "stillborn"
            else:
                for name, cmd in judges(a.judge):
                    rc, out, _ = run(cmd, work, limit[name])
                    if rc != 0:
                        verdict = "killed"
                        by = name if rc != "timeout" else name + \
                            " (timeout)"
                        if "FAIL locking" in out or "lockdep:" in out:
                            by += ", lockdep"
                        break
        finally:
            open(full, "w").write(orig)
        st = by_op.setdefault(op, [0, 0])
        if verdict == "stillborn":
            stillborn += 1
        else:
            st[1] += 1
            if verdict == "killed":
                killed += 1
                st[0] += 1
            else:
                survivors.append((path, i + 1, op, diff))
        print("%3d %-9s %s:%d %s%s (%.0f s)" % (
            k + 1, verdict, path, i + 1, op, " by " + by if by else "",
            time.time() - began))
        if verdict == "survived":
            print(diff, end="")
        sys.stdout.flush()
    run(["ninja", "-C", "build"], work, 900)
    judged = len(pick) - stillborn
    print("mutate: seed %d: %d of %d killed (%.0f%%), %d did not build" %
          (a.seed, killed, judged, 100.0 * killed / max(judged, 1),
           stillborn))
    for op in sorted(by_op):
        print("  %-9s %d of %d killed" % (op, by_op[op][0], by_op[op][1]))
    for path, line, op, diff in survivors:
        print("survivor %s:%d %s\n%s" % (path, line, op, diff))
    return 0


if __name__ == "__main__":
    sys.exit(main())
