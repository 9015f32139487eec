#!/usr/bin/env python3
"""tools/mutate/mutate.py SRC [--seed N] [--n N] [--judge covered|quick]
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

Judges: "covered" (default) is the quick suite, test by test, each test
run only on the mutants whose changed lines it executes: a coverage
build of the scratch tree (gcov, -O0) runs every quick test once and
records the lines of model/ and sim/ it executes.  The tests are
deterministic, so a test that never executes a mutated line behaves as on
the unmutated tree and cannot kill the mutant; a mutant no test executes
survives without being built ("not covered").  The selected tests run
cheapest first and stop at the first failure.  doc-commands is left out
(it compares the docs' printed outputs byte for byte: a regression pin,
not a check of the model; 2 minutes).  "quick" runs the whole quick suite
(meson test) on every mutant.
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


LEFT_OUT = ("doc-commands",)


def quick_tests(work, build):
    """The quick suite's tests of @build: name, command, env, cwd."""
    out = subprocess.run(["meson", "introspect", build, "--tests"],
                         cwd=work, stdout=subprocess.PIPE, check=True).stdout
    tests = []
    for t in json.loads(out):
        if not any(x.endswith("quick") for x in t["suite"]) or \
                t["name"] in LEFT_OUT:
            continue
        env = dict(os.environ)
        env.update(t.get("env") or {})
        tests.append({"name": t["name"], "cmd": t["cmd"], "env": env,
                      "cwd": t.get("workdir") or os.path.join(work, build),
                      "tap": t.get("protocol") == "tap"})
    return tests


def run_test(t, timeout):
    """Run one test as meson would: exit 0 or 77 (skip) and no TAP
    "not ok" is a pass."""
    began = time.time()
    try:
        p = subprocess.run(t["cmd"], cwd=t["cwd"], env=t["env"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", "", time.time() - began
    out = p.stdout.decode(errors="replace")
    failed = p.returncode not in (0, 77)
    if t["tap"] and not failed:
        for ln in out.split("\n"):
            ln = ln.strip()
            if ln.startswith("not ok") and "# TODO" not in ln and \
                    "# SKIP" not in ln:
                failed = True
                break
    return (1 if failed else 0), out, time.time() - began


def gcov_lines(work, build):
    """Lines of model/ and sim/ .c files executed since the .gcda files
    were removed: {relative path: set of line numbers}."""
    root = os.path.join(work, build)
    dirs = {}
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".gcda"):
                dirs.setdefault(d, []).append(f)
    lines = {}
    for d, files in dirs.items():
        p = subprocess.run(["gcov", "--json-format", "--stdout", "-o", d] +
                           files, cwd=d, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        for doc in p.stdout.decode(errors="replace").split("\n"):
            if not doc.strip():
                continue
            doc = json.loads(doc)
            base = doc.get("current_working_directory", root)
            for f in doc.get("files", []):
                path = os.path.normpath(os.path.join(base, f["file"]))
                rel = os.path.relpath(path, work)
                if not rel.startswith(("model/", "sim/")):
                    continue
                got = lines.setdefault(rel, set())
                for ln in f["lines"]:
                    if ln["count"] > 0:
                        got.add(ln["line_number"])
    return lines


def remove_gcda(work, build):
    for d, _, files in os.walk(os.path.join(work, build)):
        for f in files:
            if f.endswith(".gcda"):
                os.unlink(os.path.join(d, f))


def coverage_map(work, tests, timeout):
    """Per quick test, the lines it executes (a -O0 coverage build)."""
    build = "build-cov"
    if not os.path.isdir(os.path.join(work, build)):
        rc, out, _ = run(["meson", "setup", build, "-Dtests=enabled",
                          "-Db_coverage=true", "-Dbuildtype=debug"],
                         work, 600)
        if rc != 0:
            print(out)
            return None
    rc, out, _ = run(["ninja", "-C", build], work, 1800)
    if rc != 0:
        print(out)
        return None
    by_name = {t["name"]: t for t in quick_tests(work, build)}
    cover = {}
    for t in tests:
        ct = by_name.get(t["name"])
        if ct is None:
            continue
        remove_gcda(work, build)
        rc, out, _ = run_test(ct, 10 * timeout)
        if rc != 0:
            # E.g. recipes, which links a program of its own against
            # the library without --coverage: its lines are unknown, so
            # it judges every mutant.
            print("mutate: %s fails in the coverage build (%s): it "
                  "judges every mutant" % (t["name"], rc))
            cover[t["name"]] = None
            continue
        cover[t["name"]] = gcov_lines(work, build)
    return cover


def changed_lines(action):
    """1-based lines a mutation changes."""
    if action[0] == "del":
        return [k + 1 for k in action[1:]]
    if action[0] == "sub":
        return [action[1] + 1]
    return [action[1] + 1, action[2] + 1]


def copy_tree(src, work):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"],
                           cwd=src, stdout=subprocess.PIPE,
                           check=True).stdout.decode().split("\n")
    for f in files:
        if not f or not os.path.isfile(os.path.join(src, f)):
            continue
        d = os.path.join(work, os.path.dirname(f))
        os.makedirs(d, exist_ok=True)
        to = os.path.join(work, f)
        if os.path.exists(to) and \
                open(to, "rb").read() == open(os.path.join(src, f),
                                              "rb").read():
            continue
        # A new mtime (not copy2's): a scratch tree left with a mutant
        # (an interrupted run) has objects newer than the source's
        # mtime, which ninja would keep.
        shutil.copyfile(os.path.join(src, f), to)
        shutil.copymode(os.path.join(src, f), to)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--seed", type=int,
                    default=int(os.environ.get("MUTATE_SEED", "1")))
    ap.add_argument("--n", type=int,
                    default=int(os.environ.get("MUTATE_N", "100")))
    ap.add_argument("--judge", default=os.environ.get("MUTATE_JUDGE",
                                                      "covered"),
                    choices=["covered", "quick"])
    ap.add_argument("--only", default=None,
                    help="judge only these mutants of the selection "
                    "(1-based numbers, comma-separated: a rerun of "
                    "survivors)")
    ap.add_argument("--work", default=None)
    ap.add_argument("--timeout", type=int, default=600,
                    help="seconds the unmutated tree gets per judge, x3")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--cover", default=None,
                    help="the coverage map (JSON): read if it exists, "
                    "else computed and written there (two seeds of one "
                    "tree share it)")
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
    marker = os.path.join(work, ".mutant")
    if os.path.exists(marker):
        os.utime(os.path.join(work, open(marker).read().strip()))
        os.unlink(marker)
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
    if a.judge == "quick":
        tests = [{"name": "quick", "cmd": ["meson", "test", "-C", "build",
                                           "--suite", "quick", "--no-rebuild",
                                           "-q"],
                  "env": dict(os.environ), "cwd": work, "tap": False}]
    else:
        tests = quick_tests(work, "build")
    limit, took = {}, {}
    for t in tests:
        rc, out, secs = run_test(t, 3 * a.timeout)
        if rc != 0:
            print("mutate: the unmutated tree fails %s (%s):\n%s" %
                  (t["name"], rc, out[-2000:]))
            return 2
        # A mutant that takes three times as long (plus slack for a
        # loaded machine) is a hang: killed by timeout.
        limit[t["name"]] = max(3 * secs + 60, 120)
        took[t["name"]] = secs
    tests.sort(key=lambda t: took[t["name"]])
    cover = None
    if a.judge == "covered":
        if a.cover and os.path.exists(a.cover):
            cover = {n: None if m is None else
                     {f: set(ls) for f, ls in m.items()}
                     for n, m in json.load(open(a.cover)).items()}
        else:
            cover = coverage_map(work, tests, a.timeout)
            if cover is None:
                return 2
            if a.cover:
                json.dump({n: None if m is None else
                           {f: sorted(ls) for f, ls in m.items()}
                           for n, m in cover.items()}, open(a.cover, "w"))
    print("mutate: seed %d, %d mutants of %d sites, judge %s (%d tests%s)" %
          (a.seed, len(pick), len(every), a.judge, len(tests),
           ", " + ", ".join(LEFT_OUT) + " left out"
           if a.judge == "covered" else ""))
    sys.stdout.flush()
    only = set(int(x) for x in a.only.split(",")) if a.only else None
    killed, survivors, stillborn, by_op, uncovered = 0, [], 0, {}, 0
    for k, (path, op, i, action) in enumerate(pick):
        if only is not None and k + 1 not in only:
            continue
        full = os.path.join(work, path)
        orig = open(full).read()
        lines = orig.split("\n")
        new = apply(lines, action)
        diff = "".join(difflib.unified_diff(
            [l + "\n" for l in lines], [l + "\n" for l in new],
            "a/" + path, "b/" + path, n=0))
        # The mutated file's name, kept until it is restored: a run
        # interrupted here leaves the marker, and the next run in this
        # work directory rebuilds that file (its objects are the
        # mutant's, newer than the restored source).
        open(marker, "w").write(path)
        open(full, "w").write("\n".join(new))
        verdict, by, ran = "survived", "", 0
        began = time.time()
        judges = tests
        if cover is not None:
            at = changed_lines(action)
            judges = [t for t in tests
                      if t["name"] not in cover or
                      cover[t["name"]] is None or
                      any(n in cover[t["name"]].get(path, ())
                          for n in at)]
        try:
            rc, out, _ = run(["ninja", "-C", "build"], work, 900)
            if rc != 0:
                verdict = "stillborn"
            elif not judges:
                by = "not covered: no quick test executes it"
            else:
                for t in judges:
                    ran += 1
                    rc, out, _ = run_test(t, limit[t["name"]])
                    if rc != 0:
                        verdict = "killed"
                        by = t["name"] if rc != "timeout" else \
                            t["name"] + " (timeout)"
                        if "FAIL locking" in out or "lockdep:" in out:
                            by += ", lockdep"
                        break
                if verdict == "survived":
                    by = "%d tests execute it" % ran
        finally:
            open(full, "w").write(orig)
            os.unlink(marker)
        if verdict == "survived" and not judges:
            uncovered += 1
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
            k + 1, verdict, path, i + 1, op,
            (" by " if verdict == "killed" else ", ") + by if by else "",
            time.time() - began))
        if verdict == "survived":
            print(diff, end="")
        sys.stdout.flush()
    run(["ninja", "-C", "build"], work, 900)
    judged = sum(st[1] for st in by_op.values())
    print("mutate: seed %d: %d of %d killed (%.0f%%), %d did not build, "
          "%d survivors executed by no quick test" %
          (a.seed, killed, judged, 100.0 * killed / max(judged, 1),
           stillborn, uncovered))
    for op in sorted(by_op):
        print("  %-9s %d of %d killed" % (op, by_op[op][0], by_op[op][1]))
    for path, line, op, diff in survivors:
        print("survivor %s:%d %s\n%s" % (path, line, op, diff))
    return 0


if __name__ == "__main__":
    sys.exit(main())
