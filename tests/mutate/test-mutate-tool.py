#!/usr/bin/env python3
"""tests/mutate/test-mutate-tool.py SRC - the logic of make mutate
(tools/mutate/mutate.py) on small inputs, in seconds: the mutation sites
and their diffs, the seeded selection, a test's verdict (exit status,
TAP), the CPU-time limit (a timeout is a kill; wall time waiting for the
CPU is not counted), the covered judge's choice of tests, and which
programs cannot execute model/ (not run in the coverage pass).  TAP.
"""
import importlib.util
import os
import random
import shutil
import subprocess
import sys
import tempfile

SRC = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
spec = importlib.util.spec_from_file_location(
    "mutate", os.path.join(SRC, "tools", "mutate", "mutate.py"))
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)

n = 0
failed = 0


def ok(cond, what):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    sys.stdout.flush()


C = """/* a model file */
static int f(struct x *x)
{
	sim_spin_lock(&x->lock);
	km_folio_mark_dirty(x->folio);
	sim_word_add(&x->count, 1);
	sim_spin_unlock(&x->lock);
	if (x->a >= x->b)
		return -KM_EAGAIN;
	x->n += 1;
	return 0;
}
"""

tmp = tempfile.mkdtemp(prefix="wpsim-mutate-test-")
try:
    os.makedirs(os.path.join(tmp, "model"))
    with open(os.path.join(tmp, "model", "a.c"), "w") as f:
        f.write(C)
    lines, ss = m.sites(tmp, "model/a.c")
    ops = sorted(set((op, i + 1) for op, i, _ in ss))
    ok(("lock-pair", 4) in ops and ("call", 5) in ops and
       ("counter", 6) in ops and ("negate", 8) in ops and
       ("shift", 8) in ops and ("errret", 9) in ops and
       ("counter", 10) in ops and ("swap", 5) in ops,
       "every operator finds its site: %s" % ops)
    ok(not any(i + 1 == 1 for _, i, _ in ss),
       "no site in a comment")
    act = dict(((op, i + 1), a) for op, i, a in ss)
    new = m.apply(lines, act[("lock-pair", 4)])
    ok(len(new) == len(lines) - 2 and
       not any("sim_spin" in ln for ln in new),
       "lock-pair deletes the lock and its unlock")
    ok(m.changed_lines(act[("lock-pair", 4)]) == [4, 7],
       "the lock-pair's changed lines are the two calls")
    ok(m.apply(lines, act[("shift", 8)])[7] == "\tif (x->a > x->b)",
       "shift turns >= into >")
    ok(m.apply(lines, act[("errret", 9)])[8] == "\t\treturn 0;",
       "errret returns 0")
    ok(m.apply(lines, act[("counter", 6)])[5] ==
       "\tsim_word_add(&x->count, (1) + 1);", "counter adds one more")
    ok(m.changed_lines(act[("swap", 5)]) == [5, 6],
       "a swap changes both lines")

    every = [("model/a.c", op, i, a) for op, i, a in ss]
    p1 = m.choose(random.Random(7), list(every), 5, ("model",))
    p2 = m.choose(random.Random(7), list(every), 5, ("model",))
    p3 = m.choose(random.Random(7), list(every), 3, ("model",))
    ok(p1 == p2 and p1[:3] == p3, "the selection is seeded and sequential")

    ok(m.tap_failed("ok 1\nnot ok 2 - x\n") and
       not m.tap_failed("ok 1\nnot ok 2 # TODO later\n"),
       "TAP: not ok fails, TODO does not")

    def t(name, cmd, tap=False):
        return {"name": name, "cmd": cmd, "env": dict(os.environ),
                "cwd": tmp, "tap": tap, "need": []}
    got = m.run_tests([t("pass", ["true"]), t("skip", ["sh", "-c",
                                                       "exit 77"]),
                       t("fail", ["false"]),
                       t("tap", ["sh", "-c", "echo 'not ok 1'"], True)],
                      lambda t: 30, 1, stop=False)
    ok([r[1] for r in got] == [0, 0, 1, 1],
       "exit 0 and 77 pass, exit 1 and a TAP not ok fail")
    got = m.run_tests([t("spin", ["sh", "-c", "while :; do :; done"])],
                      lambda t: 0.05, 1, stop=False)
    ok(got[0][1] == "timeout" and got[0][3] >= 0.05,
       "a test past its CPU limit is stopped: a timeout (%.2f s CPU)" %
       got[0][3])
    got = m.run_tests([t("sleep", ["sleep", "0.3"])], lambda t: 0.01, 1,
                      stop=False)
    ok(got[0][1] == 0,
       "time without CPU is not counted against the limit")
    got = m.run_tests([t("fail", ["false"]), t("pass", ["true"])],
                      lambda t: 30, 1, stop=True)
    ok(len(got) == 1 and got[0][1] == 1,
       "the first failure stops the mutant's judging")

    # The covered judge: a test judges a mutant when its map has a
    # changed line, or when its map is unknown, or when it is the kept
    # corpus.
    cover = {"a": {"model/a.c": {4}}, "b": {"model/a.c": {9}},
             "c": None, "fidelity-corpus": {}}
    tests = [{"name": x} for x in ("a", "b", "c", "fidelity-corpus")]
    at = m.changed_lines(act[("lock-pair", 4)])
    judges = [x["name"] for x in tests if m.covers(cover, x["name"],
                                                   "model/a.c", at)]
    ok(judges == ["a", "c", "fidelity-corpus"],
       "the covered judge: covering, unknown and the corpus: %s" % judges)

    # A changed line gcov has no record of (at -O2 the constant return
    # of `if (c) return -KM_E...;` is folded into the function's exit)
    # stands for its whole function: a test that runs the line runs
    # the function.  A line with a record is itself.
    judged = m.judged_lines(lines, [9], {2, 4, 5, 6, 7, 8, 10, 11})
    ok(judged == set(range(1, 13)),
       "a changed line without code is judged by its function's tests: "
       "%s" % sorted(judged))
    ok(m.judged_lines(lines, [8], {8}) == {8} and
       m.judged_lines(lines, [9], None) == {9},
       "a line with code, or of a file without a code map, is itself")
    cover = {"a": {"model/a.c": {4}}, "b": {"model/a.c": {20}}}
    judges = [x for x in ("a", "b") if m.covers(
        cover, x, "model/a.c", m.judged_lines(lines, [9], {4, 8}))]
    ok(judges == ["a"], "the widened lines pick the function's tests: "
       "%s" % judges)
    # A line with a record that no test executes (gcov can count a
    # folded return's block under another line) is widened too, when
    # the lines some test runs are given; one that a test runs is
    # itself.
    ok(m.judged_lines(lines, [8], {8}, {4}) == set(range(1, 13)) and
       m.judged_lines(lines, [8], {8}, {8}) == {8},
       "a line with code no test runs is judged by its function's tests")

    # Two initialisations are not swapped (the object is not shared
    # yet: only the engine's ids change).
    with open(os.path.join(tmp, "model", "i.c"), "w") as f:
        f.write("static void g(struct x *x)\n{\n"
                "\tsim_word_init(&x->a, 0, \"a\");\n"
                "\tsim_word_init(&x->b, 0, \"b\");\n"
                "\tsim_word_write(&x->a, 1);\n}\n")
    _, si = m.sites(tmp, "model/i.c")
    swaps = sorted(i + 1 for op, i, _ in si if op == "swap")
    ok(swaps == [4], "no swap of two initialisations; an init and a "
       "write swap: %s" % swaps)

    # --replay: a mutant of an earlier tree found again by its change,
    # wherever its line moved (two lines added above it).
    diff = "".join(m.difflib.unified_diff(
        [ln + "\n" for ln in lines],
        [ln + "\n" for ln in m.apply(lines, act[("errret", 9)])],
        "a/model/a.c", "b/model/a.c", n=0))
    with open(os.path.join(tmp, "model", "a.c"), "w") as f:
        f.write("/* moved */\n/* down */\n" + C)
    got = m.relocate(tmp, "model/a.c", "errret", 9, diff)
    ok(got is not None and got[2] + 1 == 11,
       "replay: the errret of line 9 is found at line 11 now: %s" %
       (got and got[2] + 1))
    ok(m.relocate(tmp, "model/a.c", "negate", 9, diff) is None,
       "replay: a change that is no site of its operator is not found")
    with open(os.path.join(tmp, "model", "a.c"), "w") as f:
        f.write(C)

    # model_free: only a compiled program with no model object and no
    # way to start another program is left out of the coverage pass.
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("ok %d # SKIP no C compiler" % (n + 1))
        n += 1
    else:
        b = os.path.join(tmp, "build")
        os.makedirs(b)
        progs = {"plain": "int main(void) { return 0; }\n",
                 "spawn": "#include <stdlib.h>\n"
                 "int main(void) { return system(\"true\"); }\n",
                 "model_x": "int main(void) { return 0; }\n"}
        built = True
        for name, text in progs.items():
            with open(os.path.join(b, name + ".c"), "w") as f:
                f.write(text)
            r = subprocess.run([cc, "--coverage", "-o",
                                os.path.join(b, name), name + ".c"], cwd=b,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            built = built and r.returncode == 0
        if not built:
            print("ok %d # SKIP cc --coverage fails here" % (n + 1))
            n += 1
        else:
            def prog(name, cmd=None):
                return {"name": name, "cmd": cmd or [os.path.join(b, name)],
                        "need": [name]}
            ok(m.model_free(tmp, "build", prog("plain")) and
               not m.model_free(tmp, "build", prog("spawn")) and
               not m.model_free(tmp, "build", prog("model_x")) and
               not m.model_free(tmp, "build", prog(
                   "py", ["python3", os.path.join(b, "plain")])),
               "model-free: a plain program only (not one that starts "
               "programs, links a model object, or a script)")
    # Trivial compiler equivalence: an error return in a branch the
    # compiler proves dead (a signed overflow test, undefined in C)
    # gives the same object code; a negated condition does not.
    if cc is None:
        print("ok %d # SKIP no C compiler" % (n + 1))
        n += 1
    else:
        b = os.path.join(tmp, "tce")
        os.makedirs(os.path.join(b, "build"))
        os.makedirs(os.path.join(b, "model"))
        T = ("int f(long off, long len)\n{\n"
             "\tif (len <= 0)\n\t\treturn -1;\n"
             "\tif (off + len < off)\n\t\treturn -KM_EFBIG;\n"
             "\treturn 0;\n}\n")
        with open(os.path.join(b, "model", "t.c"), "w") as f:
            f.write("#define KM_EFBIG 27\n" + T)
        import json
        with open(os.path.join(b, "build", "compile_commands.json"),
                  "w") as f:
            json.dump([{"directory": os.path.join(b, "build"),
                        "command": "%s -O2 -g --coverage -MD -MQ t.o "
                        "-MF t.o.d -o t.o -c ../model/t.c" % cc,
                        "file": "../model/t.c", "output": "t.o"}], f)
        cmd = m.compile_command(b, "build", "model/t.c")
        ok(cmd is not None and "--coverage" not in cmd[1] and
           "-g" not in cmd[1] and "-g0" in cmd[1] and "-MD" not in cmd[1]
           and "-o" not in cmd[1],
           "the compile command without coverage, deps, output or -g: %s"
           % (cmd and " ".join(cmd[1])))
        tl, ts = m.sites(b, "model/t.c")
        tact = dict(((op, i + 1), x) for op, i, x in ts)
        orig = m.object_code(cmd, os.path.join(b, "o.o"))

        def obj(action):
            with open(os.path.join(b, "model", "t.c"), "w") as f:
                f.write("\n".join(m.apply(tl, action)))
            return m.object_code(cmd, os.path.join(b, "o.o"))
        same = obj(tact[("errret", 7)])
        other = obj(tact[("negate", 4)])
        ok(orig is not None and same == orig and other != orig,
           "TCE: the dead branch's errret has the same object code, a "
           "negated live test has not")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print("1..%d" % n)
sys.exit(1 if failed else 0)
