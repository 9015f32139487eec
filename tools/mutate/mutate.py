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
(meson test) on every mutant.  --check-sample K gives K judged mutants
(half survivors) every quick test the fast judge left out, to check its
verdict is the whole quick suite's (docs/reliability.md).  Each mutant's
line gives the CPU time its judging took (ninja, compiler, linker,
tests), the summary their sum.  A changed line gcov has no record of
(a folded `return -KM_E...;`), or one no test executes, is judged by
the tests of its function (judged_lines).  A mutant whose file compiles to the unmutated object
code is trivially equivalent: not judged, not in the rate (--no-tce).
--replay judges an earlier run's mutants on this tree, --tests with
chosen tests only, --ops one class of operators (docs/reliability.md).
Environment: MUTATE_SEED, MUTATE_N (defaults for --seed, --n).
"""
import argparse
import difflib
import hashlib
import json
import os
import random
import re
import resource
import shlex
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
INIT = re.compile(r"^\s*\w+_init(?:_as)?\(")


def sources(src, dirs=("model", "sim")):
    out = []
    for d in dirs:
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
            # state, simple statements at the same indentation; not two
            # initialisations (sim_word_init, sim_spin_init, ...: the
            # object is not yet shared, and the order changes only the
            # ids the engine gives them, which are identities: every
            # such swap judged so far was equivalent).
            if i + 1 < b and not mask[i + 1] and \
                    not (INIT.search(lines[i]) and INIT.search(lines[i + 1])):
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


def choose(rng, every, n, dirs=("model", "sim")):
    pools = {}
    for site in every:
        d = "sim" if site[0].startswith("sim/") else "model"
        pools.setdefault((d, site[1]), []).append(site)
    for v in pools.values():
        rng.shuffle(v)
    pick = []
    while len(pick) < n and any(pools.values()):
        if len(dirs) == 1:
            d = dirs[0]
        else:
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
# The kept differential corpus (issue 30: the judge is the quick suite
# plus the corpus): run on every judged mutant, covered or not.
ALWAYS = ("fidelity-corpus",)
JUNK = "/gcov-judge"
TICK = os.sysconf("SC_CLK_TCK")
WALL = 3600


def quick_tests(work, build):
    """The quick suite's tests of @build: name, command, env, cwd, and
    the ninja outputs it needs (its command's program and the targets it
    declares with depends:), relative to @build."""
    root = os.path.join(work, build)
    out = subprocess.run(["meson", "introspect", build, "--targets"],
                         cwd=work, stdout=subprocess.PIPE, check=True).stdout
    files = {}
    for t in json.loads(out):
        files[t["id"]] = [os.path.relpath(f, root) for f in t["filename"]]
    outputs = set(f for fs in files.values() for f in fs)
    out = subprocess.run(["meson", "introspect", build, "--tests"],
                         cwd=work, stdout=subprocess.PIPE, check=True).stdout
    tests = []
    for t in json.loads(out):
        if not any(x.endswith("quick") for x in t["suite"]) or \
                t["name"] in LEFT_OUT:
            continue
        env = dict(os.environ)
        env.update(t.get("env") or {})
        need = set()
        for d in t.get("depends") or []:
            need.update(files.get(d, []))
        for c in t["cmd"]:
            if os.path.isabs(c) and \
                    os.path.relpath(c, root) in outputs:
                need.add(os.path.relpath(c, root))
        tests.append({"name": t["name"], "cmd": t["cmd"], "env": env,
                      "cwd": t.get("workdir") or root,
                      "tap": t.get("protocol") == "tap",
                      "need": sorted(need)})
    return tests


def tap_failed(out):
    for ln in out.split("\n"):
        ln = ln.strip()
        if ln.startswith("not ok") and "# TODO" not in ln and \
                "# SKIP" not in ln:
            return True
    return False


class Running:
    """One test run in its own process group (so that a kill reaches the
    programs a script starts); output to a file."""

    serial = 0
    checked = 0.0
    cpu = 0.0

    def __init__(self, t, timeout, env=None):
        self.t, self.timeout = t, timeout
        self.out = open(os.path.join("/tmp", "wpsim-mutate-%d-%s.out" % (
            os.getpid(), t["name"])), "w+b")
        self.began = time.time()
        env = env or t["env"]
        self.junk = None
        if env.get("GCOV_PREFIX", "").endswith(JUNK):
            # The judged build carries gcov counters (the coverage map
            # is of this build): each run writes its .gcda files to a
            # directory of its own, removed after it, so that no run
            # merges counters of another mutant's objects.
            Running.serial += 1
            env = dict(env)
            self.junk = env["GCOV_PREFIX"] = "%s/%d" % (env["GCOV_PREFIX"],
                                                        Running.serial)
        self.p = subprocess.Popen(t["cmd"], cwd=t["cwd"],
                                  env=env, stdout=self.out,
                                  stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL,
                                  start_new_session=True)

    def kill(self):
        try:
            os.killpg(self.p.pid, 9)
        except OSError:
            pass
        self.p.wait()

    def group_cpu(self):
        """CPU seconds of the test's process group so far: each live
        member's own and its reaped children's."""
        total = 0
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                st = open("/proc/%s/stat" % d).read()
            except OSError:
                continue
            f = st[st.rindex(")") + 2:].split()
            if int(f[2]) == self.p.pid:
                total += sum(int(x) for x in f[11:15])
        return total / TICK

    def poll(self):
        """None while running, else (rc, output, cpu seconds): rc 0
        pass, 1 fail, "timeout".  The limit is of CPU time (the test's
        process group), not of wall time: on a loaded machine at nice 19
        a test's wall time can be fifty times its CPU time, which is no
        hang.  A run without CPU (a sleep) is stopped after WALL s."""
        now = time.time()
        secs = now - self.began
        try:
            pid, status, ru = os.wait4(self.p.pid, os.WNOHANG)
        except ChildProcessError:
            pid, status, ru = self.p.pid, 0, None
        if pid == 0:
            if now - self.checked >= 1.0:
                self.checked = now
                self.cpu = self.group_cpu()
            if self.cpu <= self.timeout and secs <= WALL:
                return None
            self.kill()
            rc, cpu = "timeout", self.cpu
        else:
            rc = os.waitstatus_to_exitcode(status)
            self.p.returncode = rc
            cpu = ru.ru_utime + ru.ru_stime if ru else self.cpu
            # The script's own children, if any are left.
            try:
                os.killpg(self.p.pid, 9)
            except OSError:
                pass
        self.out.seek(0)
        out = self.out.read().decode(errors="replace")
        self.out.close()
        os.unlink(self.out.name)
        if self.junk:
            shutil.rmtree(self.junk, ignore_errors=True)
        if rc != "timeout":
            failed = rc not in (0, 77) or (self.t["tap"] and tap_failed(out))
            rc = 1 if failed else 0
        return rc, out, cpu


def run_tests(tests, limit, jobs, build=None, stop=True, env=None):
    """Run @tests, @jobs at a time, in order; before starting one, build
    the ninja outputs it needs (@build: (work, builddir)).  With @stop,
    stop at the first failure (the rest are not started, running ones are
    killed).  Returns [(test, rc, output, seconds)] of those finished."""
    todo, running, done = list(tests), [], []
    built = set()
    while todo or running:
        while todo and len(running) < jobs and \
                not (stop and any(r[1] != 0 for r in done)):
            t = todo.pop(0)
            if build is not None:
                need = [n for n in t["need"] if n not in built]
                if need:
                    rc, out, _ = run(["ninja", "-C", build[1]] + need,
                                     build[0], 900)
                    if rc != 0:
                        return [(t, "build", out, 0)]
                    built.update(need)
            running.append(Running(t, limit(t), env(t) if env else None))
        if stop and any(r[1] != 0 for r in done):
            for r in running:
                r.kill()
            break
        if not running:
            break
        time.sleep(0.1)
        for r in list(running):
            got = r.poll()
            if got is not None:
                running.remove(r)
                done.append((r.t,) + got)
    return done


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def gcov_lines(root, work, code=None):
    """Lines of model/ and sim/ .c files executed, from the .gcda files
    under @root (with the .gcno files beside them): {path relative to
    @work: set of line numbers}.  With @code (a dict), also every line
    gcov has a record of, executed or not, added to @code[path]: the
    lines with code (see judged_lines)."""
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
                has = code.setdefault(rel, set()) if code is not None \
                    else set()
                for ln in f["lines"]:
                    has.add(ln["line_number"])
                    if ln["count"] > 0:
                        got.add(ln["line_number"])
    return lines


SPAWN = ("execv", "execve", "execvp", "execl", "execlp", "posix_spawn",
         "posix_spawnp", "system", "popen", "fork", "vfork")


def model_free(work, build, t):
    """True when @t cannot execute a line of model/: its command is one
    compiled program of @build (not wpsim, not a script) that links no
    object of the model library (a coverage build names the .gcda file
    of every instrumented object it links) and imports no call that
    starts another program; no other program is named."""
    root = os.path.join(work, build)
    prog = t["cmd"][0]
    if not os.path.isabs(prog) or \
            not os.path.realpath(prog).startswith(root + os.sep) or \
            os.path.basename(prog) == "wpsim" or \
            any(os.path.isabs(c) and c.startswith(root + os.sep)
                for c in t["cmd"][1:]) or \
            set(t["need"]) - {os.path.relpath(prog, root)}:
        return False
    try:
        data = open(prog, "rb").read()
    except OSError:
        return False
    gcda = re.findall(rb"[\x20-\x7e]*\.gcda", data)
    if not data.startswith(b"\x7fELF") or not gcda or \
            any(b"model" in g for g in gcda):
        return False
    p = subprocess.run(["nm", "-D", "--undefined-only", prog],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if p.returncode != 0:
        return False
    imported = set(ln.split()[-1].split("@")[0]
                   for ln in p.stdout.decode().split("\n") if ln.strip())
    return not imported & set(SPAWN)


def coverage_map(work, tests, jobs, build="build", code=None):
    """Per quick test, the lines it executes, in @build (the judged
    build, compiled with --coverage), each test writing its .gcda files
    under a directory of its own (GCOV_PREFIX), @jobs tests at a time.
    A test that cannot execute model/ (model_free) is not run: its map
    is empty, its time unknown (None).  @code (a dict) gets every line
    with code of the files the tests reach (gcov_lines)."""
    broot = os.path.join(work, build)
    gcno = {}
    for d, _, files in os.walk(broot):
        for f in files:
            if f.endswith(".gcno"):
                gcno.setdefault(d, []).append(f)
    by_name = {t["name"]: t for t in quick_tests(work, build)}
    prefix = os.path.join(work, "cov")
    shutil.rmtree(prefix, ignore_errors=True)
    ctests = [by_name[t["name"]] for t in tests if t["name"] in by_name]
    index = {t["name"]: k for k, t in enumerate(ctests)}

    def env(t):
        e = dict(t["env"])
        e["GCOV_PREFIX"] = os.path.join(prefix, str(index[t["name"]]))
        e["GCOV_PREFIX_STRIP"] = "0"
        return e

    cover = {}
    free = [t for t in ctests if model_free(work, build, t)]
    for t in free:
        cover[t["name"]] = ({}, None)
    if free:
        print("mutate: %d tests run no program that links the model, "
              "not run: %s" % (len(free),
                               ", ".join(t["name"] for t in free)))
        sys.stdout.flush()
    ctests = [t for t in ctests if t not in free]
    for t, rc, out, secs in run_tests(ctests, lambda t: 3600,
                                      jobs, stop=False, env=env):
        if rc != 0:
            # E.g. recipes, which links a program of its own against
            # the library without --coverage: its lines are unknown, so
            # it judges every mutant.
            print("mutate: %s fails in the coverage build (%s): it "
                  "judges every mutant" % (t["name"], rc))
            cover[t["name"]] = (None, secs)
            continue
        mine = os.path.join(prefix, str(index[t["name"]]))
        for d, names in gcno.items():
            into = mine + d
            if os.path.isdir(into):
                for f in names:
                    if not os.path.exists(os.path.join(into, f)):
                        os.symlink(os.path.join(d, f), os.path.join(into, f))
        cover[t["name"]] = (gcov_lines(mine, work, code), secs)
        shutil.rmtree(mine, ignore_errors=True)
    return cover


def covers(cover, name, path, at):
    """Whether test @name judges a mutant of @path changing lines @at:
    its map has one of them, or its map is unknown (not measured, or
    its coverage run failed), or it is the kept corpus (ALWAYS)."""
    return name not in cover or cover[name] is None or name in ALWAYS \
        or any(n in cover[name].get(path, ()) for n in at)


def judged_lines(lines, at, code, ran=None):
    """The lines whose tests judge a mutant changing lines @at (1-based)
    of a file whose text is @lines (unmutated), given @code, the lines
    of that file gcov has a record of (None: unknown).  A changed line
    with code is itself.  A line without one is in no test's map even
    when it runs: at -O2 gcov gives `if (c) return -KM_EINVAL;`'s return
    no line of its own (the constant is folded into the function's
    exit), so its mutant would be judged by no test (seed 5051's
    `xfs_file.c:71` errret, which `xfs/nowait-write-stale-times`
    kills).  Such a line stands for the whole function around it (from
    the end of the function before it to its closing brace): a test
    that runs the line runs the function, so the tests of the function
    are a superset of the line's.  Judging with more tests than needed
    costs time, never a verdict.  @ran (when given): the lines of the
    file some test executes; a line with code that none executes is
    widened the same way (since the thirteenth session): at -O2 gcov
    can count a folded return's block under another line, so that
    `rw_verify_area`'s second `return -KM_EINVAL;` (read_write.c:174 on
    babbad1) has a record that no test ever counts, while model-errno
    runs it and kills its errret mutant."""
    if code is None:
        return set(at)
    out = set()
    spans = function_spans(lines)
    for ln in at:
        if ln in code and (ran is None or ln in ran):
            out.add(ln)
            continue
        prev = 0
        for a, b in spans:
            if a <= ln - 1 <= b:
                out.update(range(prev + 1, b + 2))
                break
            prev = b + 1
        else:
            out.add(ln)
    return out


DROP = ("--coverage", "-fprofile-arcs", "-ftest-coverage", "-MD", "-MMD")
DROP_ARG = ("-MQ", "-MF", "-MT", "-o")


def compile_command(work, build, path):
    """The build's command that compiles @path of @work into the model
    library (build/compile_commands.json), as (directory, argv), without
    its output, dependency and coverage flags and with no debug
    information (-g0: GCC's code does not depend on -g); None if the
    build has no such command."""
    try:
        db = json.load(open(os.path.join(work, build,
                                         "compile_commands.json")))
    except (OSError, ValueError):
        return None
    want = os.path.realpath(os.path.join(work, path))
    best = None
    for e in db:
        f = os.path.realpath(os.path.join(e["directory"], e["file"]))
        if f != want:
            continue
        # The model library's object (libwpsim-model.a), not a traced
        # or instrumented copy's.
        if best is None or "libwpsim-model.a.p" in e.get("output", ""):
            best = e
    if best is None:
        return None
    argv = best.get("arguments") or shlex.split(best["command"])
    out, skip = [], False
    for x in argv:
        if skip:
            skip = False
            continue
        if x in DROP_ARG:
            skip = True
            continue
        if x in DROP or x.startswith(("-fprofile-", "-g")):
            continue
        out.append(x)
    return best["directory"], out + ["-g0"]


def object_code(cmd, out):
    """Compile with @cmd (compile_command's) into @out: its bytes, or
    None when it does not compile."""
    d, argv = cmd
    p = subprocess.run(argv + ["-o", out], cwd=d, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    if p.returncode != 0 or not os.path.exists(out):
        return None
    data = open(out, "rb").read()
    os.unlink(out)
    return data


def diff_body(diff):
    """The removed and added lines of a unified diff, without its
    headers and line numbers: what a mutant changes, wherever it is."""
    return [ln for ln in diff.split("\n")
            if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]


def relocate(src, path, op, line, diff):
    """The site of @src that makes the change @diff (a mutant of an
    earlier tree: operator @op at @line of @path), the nearest to @line
    of those making it; None when the change is no longer a site (its
    line changed or went)."""
    if not os.path.exists(os.path.join(src, path)):
        return None
    lines, ss = sites(src, path)
    want = diff_body(diff)
    best = None
    for o, i, action in ss:
        if o != op:
            continue
        got = diff_body("".join(difflib.unified_diff(
            [l + "\n" for l in lines],
            [l + "\n" for l in apply(lines, action)], "a", "b", n=0)))
        if got == want and (best is None or
                            abs(i + 1 - line) < abs(best[2] + 1 - line)):
            best = (path, op, i, action)
    return best


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
    return [f for f in files if f]


def digest(work, files):
    h = hashlib.sha1()
    for f in sorted(files):
        h.update(f.encode() + b"\0")
        h.update(open(os.path.join(work, f), "rb").read())
    return h.hexdigest()


def file_digests(work, files):
    return {f: digest(work, [f]) for f in files
            if f.startswith(("model/", "sim/")) and f.endswith(".c")}


def area(path):
    """Words of a mutated file's path that name the tests of its area."""
    parts = path[:-2].split("/")[1:]
    words = set(p.replace("_", "-") for p in parts)
    words.update(w for p in parts for w in re.split(r"[_\-]", p)
                 if len(w) > 2)
    return words - {"model", "fs", "file", "lib", "kernel"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--seed", type=int,
                    default=int(os.environ.get("MUTATE_SEED", "1")))
    ap.add_argument("--n", type=int,
                    default=int(os.environ.get("MUTATE_N", "100")),
                    help="mutants that build, judged in the selection's "
                    "order")
    ap.add_argument("--dirs", default=os.environ.get("MUTATE_DIRS",
                                                     "model,sim"),
                    help="directories mutated (model,sim or model)")
    ap.add_argument("--judge", default=os.environ.get("MUTATE_JUDGE",
                                                      "covered"),
                    choices=["covered", "quick", "ordered"])
    ap.add_argument("--jobs", type=int,
                    default=int(os.environ.get("MUTATE_JOBS", "2")),
                    help="tests run at once")
    ap.add_argument("--only", default=None,
                    help="judge only these mutants of the selection "
                    "(1-based numbers, comma-separated: a rerun of "
                    "survivors)")
    ap.add_argument("--work", default=None)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--times", default=None,
                    help="a meson testlog.json of the unmutated tree: "
                    "each test's time (the ordered judge; no coverage)")
    ap.add_argument("--tier", type=float, default=0,
                    help="first pass: every mutant judged by the tests "
                    "that took at most this many seconds in the times "
                    "given; second pass: the rest of its tests for each "
                    "mutant the first did not kill (0: one pass)")
    ap.add_argument("--scale", type=float, default=4,
                    help="a test's limit: SCALE x its CPU time + 10 s of CPU")
    ap.add_argument("--check-sample", type=int, default=0,
                    help="after the run, give this many judged mutants "
                    "(half survivors) every quick test the fast judge "
                    "did not run, to check its verdict is the quick "
                    "suite's")
    ap.add_argument("--replay", default=None,
                    help="judge the mutants of an earlier run's --results "
                    "file (those whose verdict is in --replay-verdicts) "
                    "on this tree instead of a seeded selection: each is "
                    "found again by its change, wherever its line moved")
    ap.add_argument("--replay-verdicts", default="survived,pending",
                    help="which verdicts of the --replay file to judge")
    ap.add_argument("--tests", default=None,
                    help="judge with these quick tests only (comma-"
                    "separated names): whether a new test kills chosen "
                    "mutants, not the measure")
    ap.add_argument("--ops", default=None,
                    help="only these operators (comma-separated): a "
                    "hunt for one class of survivors, not the measure "
                    "(the selection differs from the seed's)")
    ap.add_argument("--no-tce", action="store_true",
                    help="judge every mutant, also one whose object code "
                    "is the unmutated file's (trivially equivalent)")
    ap.add_argument("--results", default=None,
                    help="write each mutant's verdict here (JSON lines)")
    a = ap.parse_args()
    src = os.path.abspath(a.src)
    dirs = tuple(a.dirs.split(","))

    every = []
    for path in sources(src, dirs):
        lines, ss = sites(src, path)
        for op, i, action in ss:
            every.append((path, op, i, action))
    if a.ops:
        every = [e for e in every if e[1] in a.ops.split(",")]
    rng = random.Random(a.seed)
    # The selection is sequential: its first n are those of a smaller
    # one, and the extra ones stand in for mutants that do not build.
    pick = choose(rng, every, a.n + a.n // 2, dirs)
    if a.replay:
        pick = []
        keep = a.replay_verdicts.split(",")
        for ln in open(a.replay):
            r = json.loads(ln)
            if r.get("verdict") not in keep:
                continue
            got = relocate(src, r["path"], r["op"], r["line"], r["diff"])
            print("mutate: replay: seed %s's %s %s:%d %s is %s" % (
                r.get("seed"), r.get("n"), r["path"], r["line"], r["op"],
                "%d here, at line %d" % (len(pick) + 1, got[2] + 1)
                if got else "no longer a site: not judged"))
            if got:
                pick.append(got)
        a.n = len(pick)
    if a.list:
        for path, op, i, action in pick[:a.n]:
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
    files = copy_tree(src, work)
    marker = os.path.join(work, ".mutant")
    if os.path.exists(marker):
        os.utime(os.path.join(work, open(marker).read().strip()))
        os.unlink(marker)
    # The covered judge's build carries gcov counters: the coverage map
    # is taken in the very build that judges (-O2 as the quick suite's,
    # one build, not a second -O0 one).
    covopt = "-Db_coverage=%s" % ("true" if a.judge == "covered"
                                  else "false")
    # No link-time optimization of wpsim: each mutant would link the
    # whole program again (meson.build, -Dlto).
    ltoopt = "-Dlto=disabled"
    t0 = time.time()
    c0 = children_cpu()
    if not os.path.isdir(os.path.join(work, "build")):
        rc, out, _ = run(["meson", "setup", "build", "-Dtests=enabled",
                          covopt, ltoopt], work, 600)
    else:
        rc, out, _ = run(["meson", "configure", "build", covopt, ltoopt],
                         work, 600)
    if rc != 0:
        print(out)
        return 2
    rc, out, _ = run(["ninja", "-C", "build"], work, 3600)
    print("mutate: the scratch tree built in %.0f s (cpu %.0f s)" % (
        time.time() - t0, children_cpu() - c0))
    sys.stdout.flush()
    if rc != 0:
        print(out)
        return 2
    if a.judge == "quick":
        tests = [{"name": "quick", "cmd": ["meson", "test", "-C", "build",
                                           "--suite", "quick", "--no-rebuild",
                                           "-q"],
                  "env": dict(os.environ), "cwd": work, "tap": False,
                  "need": []}]
    else:
        tests = quick_tests(work, "build")
        if a.tests:
            names = a.tests.split(",")
            missing = set(names) - set(t["name"] for t in tests)
            if missing:
                print("mutate: no such quick test: %s" %
                      ", ".join(sorted(missing)), file=sys.stderr)
                return 2
            tests = [t for t in tests if t["name"] in names]

    # The coverage map, with each test's time.  Kept in the work
    # directory for the next run, valid only for the same tree: the
    # digest of every file copied (a test, a scenario, a model file
    # changed since can change what any test executes).
    cover, cover_files, base, code = None, {}, {}, {}
    digests = file_digests(work, files)
    tree = digest(work, files)
    if a.times:
        for ln in open(a.times):
            r = json.loads(ln)
            if r.get("result") == "OK":
                base[r["name"]] = r["duration"]
    cover_file = os.path.join(work, "cover.json")
    if os.path.exists(cover_file) and a.judge == "covered":
        got = json.load(open(cover_file))
        # A map without the lines that have code (before the sixth
        # session) cannot widen a line without code: measured again.
        if got.get("tree") == tree and "code" in got:
            code = {f: set(ls) for f, ls in got["code"].items()}
            cover_files = got["files"]
            base = got["took"]
            cover = {n: None if m is None else
                     {f: set(ls) for f, ls in m.items()}
                     for n, m in got["tests"].items()}
        else:
            print("mutate: cover.json is of another tree: measured again")
    if a.times:
        # A test the times do not name (added since) gets 10 s.
        for t in tests:
            base.setdefault(t["name"], 10.0)
    new = [t for t in tests if t["name"] not in base]
    if new and a.judge == "covered":
        print("mutate: coverage of %d tests" % len(new))
        sys.stdout.flush()
        t0 = time.time()
        c0 = children_cpu()
        got = coverage_map(work, new, a.jobs, code=code)
        if got is None:
            return 2
        print("mutate: coverage pass %.0f s (cpu %.0f s)" % (
            time.time() - t0, children_cpu() - c0))
        cover_files = digests
        for n, (m, secs) in got.items():
            cover = cover or {}
            cover[n] = m
            base[n] = secs if secs is not None else 0.0
        json.dump({"tree": tree, "files": cover_files, "took": base,
                   "code": {f: sorted(ls) for f, ls in code.items()},
                   "tests": {n: None if m is None else
                             {f: sorted(ls) for f, ls in m.items()}
                             for n, m in cover.items()}},
                  open(cover_file, "w"))
    if a.judge == "covered":
        for t in tests:
            t["env"]["GCOV_PREFIX"] = os.path.join(work, "cov") + JUNK
            t["env"]["GCOV_PREFIX_STRIP"] = "0"
    # A test that fails in the coverage pass (cli-signals: its timing)
    # is run again alone, unmutated: if it passes it judges every
    # mutant (its lines are unknown); if it fails again it cannot judge
    # and is left out, and said so.
    new = [t for t in tests if t["name"] not in base or
           (cover is not None and cover.get(t["name"], 0) is None and
            t["name"] + "@build" not in base)]
    failing = set()
    for t, rc, out, secs in run_tests(new, lambda t: 3600, a.jobs,
                                      stop=False):
        if rc != 0:
            print("mutate: the unmutated tree fails %s (%s): left out "
                  "of the judge\n%s" % (t["name"], rc, out[-2000:]))
            failing.add(t["name"])
        base[t["name"]] = secs
        base[t["name"] + "@build"] = secs
    tests = [t for t in tests if t["name"] not in failing]
    stale = set(f for f in digests if cover_files.get(f) != digests[f])

    def limit(t):
        # A mutant whose test takes SCALE times the CPU time it took on
        # the unmutated tree, plus 10 s, is a hang: killed by timeout.
        return a.scale * base[t["name"]] + 10

    kills_file = os.path.join(work, "kills.json")
    kills = json.load(open(kills_file)) if os.path.exists(kills_file) \
        else {}
    print("mutate: seed %d, %s, %d compiling mutants asked of %d sites, "
          "judge %s (%d tests%s), %d at once" %
          (a.seed, "+".join(dirs), a.n, len(every), a.judge, len(tests),
           ", " + ", ".join(LEFT_OUT) + " left out"
           if a.judge == "covered" else "", a.jobs))
    sys.stdout.flush()
    only = set(int(x) for x in a.only.split(",")) if a.only else None
    killed, survivors, stillborn, by_op, uncovered = 0, [], 0, {}, 0
    trivial, equivalents = 0, []
    killers_seen = {}
    results = open(a.results, "a") if a.results else None
    began_all = time.time()
    cpu_all = [0.0]
    judged_list = []

    build_cpu = [0.0]

    def judge_cpu(*args):
        """judge(), and the CPU time its children took (ninja, the
        compiler, the linker, the tests)."""
        c0 = children_cpu()
        got = judge(*args)
        return got + (children_cpu() - c0,)

    tce_orig = {}

    def judge(k, path, action, judges):
        """Apply mutant @k, build it, run @judges; restore.  Returns
        (verdict, by, tests run, diff)."""
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
        try:
            # Trivial compiler equivalence: the mutated file compiled as
            # the quick suite's build compiles it (no coverage) gives
            # the same object code as the unmutated file.  The programs
            # the tests run are then the same: the mutant is equivalent,
            # not judged, and not in the rate (never a kill).
            cmd = None if a.no_tce else compile_command(work, "build",
                                                         path)
            if cmd is not None:
                c0 = children_cpu()
                tmp = os.path.join(work, ".tce.o")
                if path not in tce_orig:
                    open(full, "w").write(orig)
                    tce_orig[path] = object_code(cmd, tmp)
                    open(full, "w").write("\n".join(new))
                same = tce_orig[path] is not None and \
                    object_code(cmd, tmp) == tce_orig[path]
                build_cpu[0] = children_cpu() - c0
                if same:
                    return "equivalent", "trivially: the same object " \
                        "code", 0, diff
            # The mutated library and the command first: a mutant
            # that does not build is stillborn.
            c0 = children_cpu()
            rc, out, _ = run(["ninja", "-C", "build",
                              "libwpsim-model.a", "wpsim"], work, 900)
            build_cpu[0] = children_cpu() - c0
            if rc != 0:
                verdict = "stillborn"
            elif not judges:
                by = "not covered: no quick test executes it"
            else:
                done = run_tests(judges, limit, a.jobs,
                                 build=(work, "build"))
                ran = len(done)
                for t, rc, out, secs in done:
                    if rc == "build":
                        verdict = "stillborn"
                        break
                    if rc != 0:
                        verdict = "killed"
                        by = t["name"] if rc != "timeout" else \
                            t["name"] + " (timeout)"
                        if "FAIL locking" in out or "lockdep:" in out:
                            by += ", lockdep"
                        kills[t["name"]] = kills.get(t["name"], 0) + 1
                        killers_seen[t["name"]] = \
                            killers_seen.get(t["name"], 0) + 1
                        break
                if verdict == "survived":
                    by = "%d tests execute it" % ran
        finally:
            open(full, "w").write(orig)
            os.unlink(marker)
        return verdict, by, ran, diff

    def record(k, path, i, op, verdict, by, ran, diff, secs, judges,
               cpu=0.0):
        nonlocal killed, stillborn, uncovered, trivial
        cpu_all[0] += cpu
        if verdict in ("killed", "survived"):
            judged_list.append((k, path, op, i, verdict,
                                set(t["name"] for t in judges)))
        if verdict == "survived" and not judges:
            uncovered += 1
        st = by_op.setdefault(op, [0, 0])
        if verdict == "stillborn":
            stillborn += 1
        elif verdict == "equivalent":
            trivial += 1
            equivalents.append((k + 1, path, i + 1, op, diff))
        elif verdict != "pending":
            st[1] += 1
            if verdict == "killed":
                killed += 1
                st[0] += 1
            else:
                survivors.append((k + 1, path, i + 1, op, diff))
        print("%3d %-9s %s:%d %s%s (%.0f s, cpu %.1f s of which the "
              "library and wpsim's build %.1f s, %d tests run, %.0f s "
              "in all)" % (
                  k + 1, verdict, path, i + 1, op,
                  (" by " if verdict == "killed" else ", ") + by if by
                  else "", secs, cpu, build_cpu[0], ran,
                  time.time() - began_all))
        if verdict in ("survived", "pending", "equivalent"):
            print(diff, end="")
        if results:
            results.write(json.dumps({
                "seed": a.seed, "n": k + 1, "path": path, "line": i + 1,
                "op": op, "verdict": verdict, "by": by, "secs": secs,
                "cpu": cpu, "build_cpu": build_cpu[0],
                "tests_run": ran,
                "judges": sorted(t["name"] for t in judges),
                "diff": diff}) + "\n")
            results.flush()
        json.dump(kills, open(kills_file, "w"))
        sys.stdout.flush()

    pending, built = [], 0
    ran_by_path = {}
    for k, (path, op, i, action) in enumerate(pick):
        if only is not None and k + 1 not in only:
            continue
        if only is None and built >= a.n:
            break
        began = time.time()
        judges = tests
        if cover is not None and path not in stale and \
                a.judge == "covered":
            if path not in ran_by_path:
                ran_by_path[path] = set().union(*(
                    m.get(path, ()) for n, m in cover.items()
                    if m is not None and n not in ALWAYS))
            at = judged_lines(open(os.path.join(work, path)).read()
                              .split("\n"), changed_lines(action),
                              code.get(path), ran_by_path[path])
            judges = [t for t in tests
                      if covers(cover, t["name"], path, at)]
        # Likely killers first: kills so far (this run and the work
        # directory's earlier runs), a test of the mutated file's area,
        # then the cheapest.
        words = area(path)

        def score(t):
            # A program other than wpsim to link costs about 5 s.
            near = 3 if any(w in t["name"] for w in words) else 1
            links = len(set(t["need"]) - {"wpsim"})
            return -(1 + kills.get(t["name"], 0)) * near / \
                (base[t["name"]] + 0.5 + 5 * links)
        judges = sorted(judges, key=score)
        # The first pass: fast tests that need no program but wpsim
        # (built with the mutant anyway); every other test program links
        # the mutated library again, a link per mutant.
        first = [t for t in judges if not a.tier or
                 (base[t["name"]] <= a.tier and
                  set(t["need"]) <= {"wpsim"})]
        rest = [t for t in judges if t not in first]
        verdict, by, ran, diff, cpu = judge_cpu(k, path, action, first)
        if verdict != "stillborn":
            built += 1
        if verdict == "survived" and rest:
            verdict, by = "pending", "%d fast tests pass, %d left" % (
                ran, len(rest))
            pending.append((k, path, op, i, action, rest))
        record(k, path, i, op, verdict, by, ran, diff,
               time.time() - began, judges, cpu)
    if pending:
        print("mutate: second pass, %d mutants" % len(pending))
    for k, path, op, i, action, rest in pending:
        began = time.time()
        verdict, by, ran, diff, cpu = judge_cpu(k, path, action, rest)
        record(k, path, i, op, verdict, by, ran, diff,
               time.time() - began, rest, cpu)
    # The coverage argument checked on a sample: the quick tests the fast
    # judge did not run on a mutant (they never execute its lines) run on
    # it now, all of them; with the ones it ran, that is the whole quick
    # suite (but doc-commands).  A failure among them would be a verdict
    # the fast judge got wrong (a survivor) or a test that fails without
    # executing the mutated line (a kill).
    sample = []
    if a.check_sample and judged_list:
        crng = random.Random("check-%d" % a.seed)
        surv = [j for j in judged_list if j[4] == "survived"]
        kil = [j for j in judged_list if j[4] == "killed"]
        crng.shuffle(surv)
        crng.shuffle(kil)
        half = (a.check_sample + 1) // 2
        sample = surv[:half] + kil[:a.check_sample - min(half, len(surv))]
    wrong = 0
    saved = (dict(kills), dict(killers_seen))
    # Tests that link no model code (model_free: the coverage pass's
    # "not run") cannot tell a model mutant from the tree; under load
    # their time-outs (engine-dpor, seeds 62417 and 64153) were printed
    # as kills here.  They are left out of the sample, and said so.
    free = set(t["name"] for t in tests if sample and
               model_free(work, "build", t))
    if free:
        print("mutate: check sample: %d tests that link no model code "
              "left out: %s" % (len(free), ", ".join(sorted(free))))
    for k, path, op, i, verdict, ran_names in sample:
        rest = [t for t in tests if t["name"] not in ran_names and
                t["name"] not in free]
        action = pick[k][3]
        v2, by2, ran2, _ = judge(k, path, action, rest) if rest else \
            ("survived", "", 0, "")
        # judge() stops at the first failure: any failure is a kill.
        bad = v2 == "killed"
        if bad and verdict == "survived":
            wrong += 1
        print("check %d %s:%d %s: fast judge %s (%d tests); the other %d "
              "quick tests: %s" % (
                  k + 1, path, i + 1, op, verdict, len(ran_names), len(rest),
                  "a failure (%s): %s" % (by2, "THE FAST VERDICT IS WRONG"
                                          if verdict == "survived" else
                                          "a test that does not execute "
                                          "the line fails")
                  if bad else ("all pass" if v2 == "survived" else v2)))
        sys.stdout.flush()
    kills.clear()
    kills.update(saved[0])
    killers_seen.clear()
    killers_seen.update(saved[1])
    if sample:
        print("mutate: check of %d mutants against the whole quick suite: "
              "%d verdicts differ" % (len(sample), wrong))
    # Every test that killed a mutant must pass on the unmutated tree:
    # one that does not would have killed any mutant, and its kills
    # are not counted.
    run(["ninja", "-C", "build"], work, 900)
    killers = [t for t in tests if t["name"] in killers_seen]
    false = set()
    for t, rc, out, secs in run_tests(killers, lambda t: 3600, a.jobs,
                                      stop=False):
        if rc != 0:
            print("mutate: %s fails on the unmutated tree: its kills "
                  "are not counted" % t["name"])
            false.add(t["name"])
    if false:
        killed -= sum(killers_seen[f] for f in false)
    print("mutate: %d killing tests pass on the unmutated tree" %
          (len(killers) - len(false)))
    judged = sum(st[1] for st in by_op.values())
    print("mutate: seed %d: %d of %d killed (%.1f%%), %d did not build, "
          "%d trivially equivalent (the same object code: not judged, not "
          "in the rate), "
          "%d survivors executed by no quick test, %.0f s, judging cpu "
          "%.0f s (%.1f s per judged mutant)" %
          (a.seed, killed, judged, 100.0 * killed / max(judged, 1),
           stillborn, trivial, uncovered, time.time() - began_all,
           cpu_all[0], cpu_all[0] / max(judged, 1)))
    for op in sorted(by_op):
        print("  %-9s %d of %d killed" % (op, by_op[op][0], by_op[op][1]))
    for n, path, line, op, diff in survivors:
        print("survivor %d %s:%d %s\n%s" % (n, path, line, op, diff))
    for n, path, line, op, diff in equivalents:
        print("equivalent %d %s:%d %s (the same object code)\n%s" % (
            n, path, line, op, diff))
    return 0


if __name__ == "__main__":
    sys.exit(main())
