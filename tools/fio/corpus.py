#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/fio/corpus.py - run fio's own job files through `wpsim fio`.

fio's examples/*.fio and t/jobs/*.fio (a copy of fio's repository outside
the project: `fetch github:axboe/fio` or `git clone
https://github.com/axboe/fio`; never committed here) are each run as
they are, in a scratch directory, and classified:

  runs     exit 0
  error    exit 2 with one line "...: error: ..." naming what is missing
  long     still running at --timeout (a long job: `make deep` runs it
           with a long time-out, where it must run)
  other    anything else (a crash, several lines, exit 1)

A job file whose engines are all among the in-scope ones (sync, psync,
vsync, pvsync, pvsync2, libaio, io_uring, posixaio, mmap, null; none
given is psync; an engine its own comments pass on the command line,
`--ioengine=X`, counts) must run; any other, and one on a zoned block
device (`zonemode=zbd`: issue 29's "Not in scope", marked "no (zoned)"),
must give a clear error.  The only
substitutions (each listed in the output): a directory= that does not
exist is dropped, a job file with a /dev/ block device (which runs as it
is, on the model's raw block device; /dev/null and /dev/zero on its
memory devices) and no size (or filesize; io_size is not a size) runs
with the size the device would give, wpsim fio's --dev-size (default
1g; the drive a file's own comments assume, DEV_SIZES), and a job file
with fill_device=1 runs with --fs-size of that size (the filesystem it
fills).

  corpus.py --wpsim BIN --corpus FIO_REPO [--timeout S] [--list]
            [--markdown FILE] [--files PATH...] [--check]
            [--expect TABLE [--skip-long | --only-long --long-must-run]]

--markdown writes the table docs/fio.md includes (docs/fio-corpus.md;
with --files, the table's other rows are kept as they are);
--list prints one "path result" line per file.  Exit 1 when an
in-scope file does not run or an out-of-scope one has no clear error,
with --check.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

IN_SCOPE = {"sync", "psync", "vsync", "pvsync", "pvsync2", "libaio",
            "io_uring", "posixaio", "mmap", "null"}

# Job files whose full run is too long for the quick suite: decided by
# the time a run takes (--max-seconds), not listed by hand.


def engines(text):
    found = set()
    for line in text.splitlines():
        # A file run with an engine its own comments give on the
        # command line (`; fio --ioengine=xnvme ... FILE`, fio's xnvme
        # examples) is that engine's: the engine counts for the scope.
        for m in re.finditer(r"--ioengine[= ](\w[\w-]*)", line):
            if re.match(r"\s*[;#]", line):
                found.add(m.group(1))
        line = re.split(r"[;#]", line, 1)[0].strip()
        m = re.match(r"ioengine\s*=\s*(\S+)", line)
        if m:
            found.add(m.group(1).split(":")[0])
    return found or {"psync"}


def out_of_scope_reason(text):
    """Issue 29's "Not in scope": zoned block devices (zonemode=zbd)."""
    for line in text.splitlines():
        line = re.split(r"[;#]", line, 1)[0].strip()
        if re.match(r"zonemode\s*=\s*zbd\b", line):
            return "zoned"
    return None


# The device a job file's own comments say it assumes, where that is
# not --dev-size: cross-stripe-verify.fio "assumes the drive is at
# around 30 * 124G in size" (its 30 jobs start 124 GiB apart).
DEV_SIZES = {
    "cross-stripe-verify.fio": ("3720g", "the drive its comment assumes, "
                                "30 x 124G"),
}


def substitute(text, dev_size, name=""):
    """The listed substitutions; returns (text, [what was changed],
    [wpsim options])."""
    subs = []
    out = []
    devs = []
    # io_size is how much I/O, not a size: a device job without size or
    # filesize takes its size from the device (fio's setup_files).
    has_size = re.search(r"^\s*(size|filesize)\s*=", text, re.M)
    why = "the device's size"
    if name in DEV_SIZES:
        dev_size, why = DEV_SIZES[name]
    for line in text.splitlines():
        body = re.split(r"[;#]", line, 1)[0]
        # A /dev/ name is the model's block device (or /dev/null,
        # /dev/zero: its memory devices), as it is: nothing changed.
        m = re.match(r"(\s*filename\s*=\s*)(\S.*?)\s*$", body)
        if m:
            devs += [n for n in m.group(2).split(":")
                     if n.startswith("/dev/") and
                     n not in ("/dev/null", "/dev/zero")]
        m = re.match(r"\s*directory\s*=\s*(\S+)", body)
        if m and not os.path.isdir(m.group(1)):
            subs.append("directory=%s dropped (does not exist)" %
                        m.group(1))
            line = ""
        out.append(line)
    text = "\n".join(out) + "\n"
    extra = []
    if devs and not has_size:
        # The size a block device gives (fio's BLKGETSIZE64): the
        # model's device that large.
        extra.append("--dev-size=" + dev_size)
        subs.append("--dev-size=%s (%s, %s)" % (dev_size, devs[0], why))
    return text, subs, extra


# What fio's own test harness (t/run-fio-tests.py, FioJobFileTest_*
# setup) puts beside a job file before it runs it: t0027 reads its
# pattern from a 16 KiB file the harness writes (os.urandom there; here
# fixed bytes, so that every run is the same), t0038 replays an iolog the
# harness copies from t/jobs/.  Each is listed among the substitutions.
def harness_setup(path, tmp):
    name = os.path.basename(path)
    done = []
    if name == "t0027.fio":
        pat = bytes((i * 131 + (i >> 8) * 7 + 27) & 0xff
                    for i in range(16 << 10))
        with open(os.path.join(tmp, "t0027.pattern"), "wb") as f:
            f.write(pat)
        done.append("t0027.pattern written first (16 KiB, as fio's "
                    "t/run-fio-tests.py does; fixed bytes, not urandom)")
    if name.startswith("t0038"):
        src = os.path.join(os.path.dirname(path), "t0038.iolog")
        if os.path.exists(src):
            shutil.copy(src, tmp)
            done.append("t0038.iolog copied beside it (as fio's "
                        "t/run-fio-tests.py does)")
    return done


# fio's harness (t/run-fio-tests.py TEST_LIST, t/fiotestlib.py
# FioJobFileTest.run_pre_job) runs a post-job's pre-job first, in the same
# directory, and the post-job then reads what the pre-job left: post-job
# -> (pre-job, whether the harness expects the post-job to exit nonzero).
# The pre-job must succeed as the harness wants it (t0002's pre_success
# None: the post-job's, SUCCESS_DEFAULT).  Here the pre-job runs first in
# the scratch directory too, and the post-job starts from the model's
# files the pre-job left: wpsim fio's --files-from with the verify state
# files the pre-job's write jobs wrote (local-NAME-N-verify.state, fio's
# verify_state_save, default 1).  Each is listed among the substitutions.
PRE_JOBS = {
    "t0002-13af05ae-post.fio": ("t0002-13af05ae-pre.fio", False),
    "t0003-0ae2c6e1-post.fio": ("t0003-0ae2c6e1-pre.fio", True),
    "t0031.fio": ("t0031-pre.fio", False),
    "t0036-post.fio": ("t0036-pre.fio", False),
    "t0037-post.fio": ("t0037-pre.fio", False),
}

# Job files whose every job fails under fio itself on this machine, as
# measured (so they run as they are when they fail the same way): file
# -> what fio did.  The exit code differs (fio's is the number of failed
# jobs; wpsim's 1), so it is not compared.
FAILS_UNDER_FIO = {
    # loops=2 with io_size (120g) below each job's region: fio 3.33's one
    # do_io writes io_size x loops (backend.c io_bytes_exceeded), 240g at
    # a 128k stride, far past the next job's offset (124g on), so the 30
    # jobs overwrite each other's blocks before their verify reads.  A
    # scaled copy under fio 3.33 on a loop device (2026-12-06, 8 jobs,
    # 64m apart: traces/real-kernel/fio-xstripe-scaled-*) fails 5 jobs
    # with "verify: bad header"; wpsim's whole run fails the same way.
    "cross-stripe-verify.fio": "its jobs overwrite each other's blocks "
                               "(io_size x loops past the next job's "
                               "offset): fio 3.33 fails a scaled copy "
                               "with bad headers too",
    # 10 jobs write one file with RWF_ATOMIC and verify: fio 3.42 on
    # 6.18.44 (2026-12-06, tests/fio/test-atomic.sh, docs/fio.md) failed
    # every job: on XFS -m reflink=0 "err=95 ... func=io commit" (no
    # atomic unit), on XFS with reflink "verify: bad header rand_seed"
    # (the jobs overwrite each other's blocks).
    "atomic-verify.fio": "every job fails under fio 3.42 here too (io "
                         "commit EOPNOTSUPP without an atomic unit; "
                         "verify across jobs with one)",
    # Its randtrim job trims a regular file: fio's ioctl(BLKDISCARD) is
    # ENOTTY there, and exitall ends the other two.  fio 3.33 on 6.18.44
    # on a loop XFS (2026-12-06, traces/real-kernel/fio-bdev-*): err=25
    # at once, the others stopped while laying out their 128 GiB files
    # (only the trim job reports); wpsim lays out at once, so they report
    # the 1-3 I/Os they issued before exitall.
    "enospc-pressure.fio": "the randtrim job fails under fio 3.33 here too "
                           "(err=25, BLKDISCARD on a regular file; exitall "
                           "ends the others)",
}


def comment_env(text):
    """The environment a job file's own comments run it with ("; env
    FIO_BS=4096 \\", examples/sprandom.fio) for the ${NAME}s it uses:
    (dict, [what was set])."""
    env, done = {}, []
    used = set(re.findall(r"\$\{(\w+)\}", text))
    for line in text.splitlines():
        m = re.match(r"\s*[;#]\s*env\s+(.*)", line)
        if not m:
            continue
        for name, value in re.findall(r"(\w+)=(\S+)", m.group(1)):
            if name in used and name not in env:
                env[name] = value
                done.append("%s=%s in the environment (as the file's own "
                            "comments run it)" % (name, value))
    return env, done


def comment_cmdline(text, name, dev_size):
    """The command-line options a job file's own comments run it with
    ("; fio --filename=/dev/nvme0n1 --ioengine=io_uring
    examples/sprandom.fio": the first such line that names the file), for
    a file that gives no filename= of its own: options before a job file
    are fio's defaults, which the file's own options override (fio 3.42
    runs sprandom.fio with its ioengine=libaio, not io_uring), and wpsim
    reads them the same way.  A /dev/ name is the model's block device,
    with the device's size when the file gives none, as substitute() does.
    Returns ([options], [what was passed])."""
    if re.search(r"^\s*filename\s*=", text, re.M):
        return [], []
    for line in text.splitlines():
        m = re.match(r"\s*[;#]\s*(?:\S*/)?fio\s+(.*\S)\s+(\S+)\s*$", line)
        if not m or os.path.basename(m.group(2)) != name:
            continue
        opts = m.group(1).split()
        if not opts or not all(o.startswith("--") for o in opts):
            continue
        out, done = [], []
        for o in opts:
            k, _, v = o.partition("=")
            if (k == "--filename" and v.startswith("/dev/") and
                    v not in ("/dev/null", "/dev/zero")):
                # The model's block device, as it is (substitute()):
                # the device's size when the file gives none.
                out.append(o)
                done.append(o)
                if not re.search(r"^\s*(size|filesize)\s*=", text, re.M):
                    out.append("--dev-size=" + dev_size)
                    done.append("--dev-size=%s (the device's size)"
                                % dev_size)
            else:
                out.append(o)
                done.append(o)
        return out, ["%s on the command line (as the file's own comments "
                     "run it; its own options override them, as in fio)"
                     % " ".join(done)]
    return [], []


def short(msg):
    """An unmodelled-option error is long (it lists every option): keep
    its position and the option found."""
    m = re.match(r"(.*?error: )expected an option wpsim models .*(found .*?)"
                 r" \(wpsim never ignores an option\)$", msg)
    if m:
        return m.group(1) + "option not modelled: " + m.group(2)
    return msg


def classify(rc, err, nonzero=False):
    lines = [l for l in err.splitlines() if l.strip()]
    errs = [l for l in lines if ": error: " in l]
    # A post-job the harness expects to fail (SUCCESS_NONZERO: t0003's
    # verify failure) runs as it should when it exits nonzero with no
    # error line (fio 3.33 exits with the number of jobs that failed).
    if nonzero and rc > 0 and not errs:
        return "runs"
    if rc == 0 and not nonzero:
        return "runs"
    if rc == -1 and err.startswith("time-out after"):
        return "long"
    if rc == 2 and len(errs) == 1:
        return "error"
    return "other"


def run_one(wpsim, path, timeout, dev_size):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    eng = engines(text)
    reason = out_of_scope_reason(text)
    scope = eng <= IN_SCOPE and not reason
    text, subs, dev_extra = substitute(text, dev_size,
                                       os.path.basename(path))
    tmp = tempfile.mkdtemp(prefix="wpsim-corpus-")
    try:
        job = os.path.join(tmp, os.path.basename(path))
        with open(job, "w") as f:
            f.write(text)
        subs = subs + harness_setup(path, tmp)
        env, env_subs = comment_env(text)
        subs = subs + env_subs
        cmdline, cmd_subs = comment_cmdline(text, os.path.basename(path),
                                            dev_size)
        subs = subs + cmd_subs
        # fio reads include files relative to the job file.
        for inc in re.findall(r"^\s*include\s+(\S+)", text, re.M):
            src = os.path.join(os.path.dirname(path), inc)
            if os.path.exists(src):
                shutil.copy(src, os.path.join(tmp, os.path.basename(inc)))
        t0 = time.monotonic()
        pre = PRE_JOBS.get(os.path.basename(path))
        nonzero = bool(pre and pre[1])
        fails = FAILS_UNDER_FIO.get(os.path.basename(path))
        if fails:
            nonzero = True
        extra = list(dev_extra)
        rc, err = 0, ""
        if pre:
            pre_path = os.path.join(os.path.dirname(path), pre[0])
            with open(pre_path, encoding="utf-8", errors="replace") as f:
                pre_text, pre_subs, _ = substitute(f.read(), dev_size)
            with open(os.path.join(tmp, pre[0]), "w") as f:
                f.write(pre_text)
            try:
                p = subprocess.run([wpsim, "fio", "--output-format=json",
                                    pre[0]], cwd=tmp,
                                   env=dict(os.environ, **env),
                                   capture_output=True, text=True,
                                   timeout=timeout)
                rc, err = p.returncode, p.stderr
            except subprocess.TimeoutExpired:
                rc, err = -1, "time-out after %ds" % timeout
            if rc:
                nonzero = False     # the pre-job's failure is the result
                err = "\n".join("pre-job %s: %s" % (pre[0], l)
                                for l in err.splitlines())
            states = sorted(n for n in os.listdir(tmp)
                            if re.match(r"local-.*-verify\.state$", n))
            subs = subs + ["%s run first in the same directory (as "
                           "fio's t/run-fio-tests.py does)%s" % (
                               pre[0], "; " + "; ".join(pre_subs)
                               if pre_subs else "")]
            if states:
                extra = ["--files-from=" + ",".join(states)]
                subs = subs + ["--files-from=%s (the model's files as the "
                               "pre-job left them)" % ",".join(states)]
        # fill_device writes until the filesystem is full: the model's
        # filesystem has the device's size (--fs-size, listed).
        if re.search(r"^\s*(fill_device|fill_fs)\s*=\s*1", text, re.M):
            extra = extra + ["--fs-size=" + dev_size]
            subs = subs + ["--fs-size=%s (fill_device: the filesystem "
                           "the device's size)" % dev_size]
        if not rc:
            try:
                p = subprocess.run([wpsim, "fio", "--output-format=json"] +
                                   extra + cmdline + [os.path.basename(job)],
                                   cwd=tmp, env=dict(os.environ, **env),
                                   capture_output=True, text=True,
                                   timeout=timeout)
                rc, err = p.returncode, p.stderr
            except subprocess.TimeoutExpired:
                rc, err = -1, "time-out after %ds" % timeout
        secs = time.monotonic() - t0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    result = classify(rc, err, nonzero)
    if nonzero and result == "runs" and fails:
        subs = subs + ["exits %d: %s" % (rc, fails)]
    elif nonzero and result == "runs":
        subs = subs + ["exits %d as fio's harness expects of it "
                       "(SUCCESS_NONZERO)" % rc]
    msg = ""
    if result != "runs":
        lines = [l for l in err.splitlines() if l.strip()]
        msg = next((l for l in lines if ": error: " in l),
                   lines[0] if lines else "exit %d" % rc)
        msg = msg.replace(tmp + "/", "")
    return {"scope": scope, "reason": reason, "engines": sorted(eng),
            "result": result,
            "rc": rc, "message": msg, "subs": subs, "seconds": secs}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wpsim", required=True)
    ap.add_argument("--corpus", required=True,
                    help="a copy of fio's repository")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--dev-size", default="1g")
    ap.add_argument("--markdown")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--expect",
                    help="a table written by --markdown: every file's "
                    "result must be the same (exit 1 otherwise)")
    ap.add_argument("--skip-long", action="store_true",
                    help="with --expect: leave out the files the table "
                    "lists as long (the quick suite; make deep runs them)")
    ap.add_argument("--only-long", action="store_true",
                    help="with --expect: only the files the table lists "
                    "as long (make deep; the quick suite runs the rest)")
    ap.add_argument("--long-must-run", action="store_true",
                    help="with --expect: a file the table lists as long "
                    "must run within --timeout (make deep); without it "
                    "a long file may also be long again")
    ap.add_argument("--files", nargs="*",
                    help="only these (paths relative to the corpus)")
    a = ap.parse_args()
    # Each job runs in its scratch directory: a relative path to wpsim
    # would be looked up there.
    if os.sep in a.wpsim:
        a.wpsim = os.path.abspath(a.wpsim)
    files = []
    for d in ("examples", "t/jobs"):
        dd = os.path.join(a.corpus, d)
        if os.path.isdir(dd):
            files += sorted(os.path.join(d, n) for n in os.listdir(dd)
                            if n.endswith(".fio"))
    if a.files:
        files = [f for f in files if f in a.files]
    want = {}
    if a.expect:
        with open(a.expect) as f:
            for line in f:
                m = re.match(r"\| `([^`]+)` \| [^|]* \| [^|]* \| "
                             r"(runs|error|long|other)", line)
                if m:
                    want[m.group(1)] = m.group(2)
        if a.skip_long:
            files = [f for f in files if want.get(f) != "long"]
        if a.only_long:
            files = [f for f in files if want.get(f) == "long"]
    if not files:
        print("corpus.py: no job files under %s (examples/, t/jobs/)"
              % a.corpus, file=sys.stderr)
        return 2
    rows = []
    for rel in files:
        r = run_one(a.wpsim, os.path.join(a.corpus, rel), a.timeout,
                    a.dev_size)
        r["file"] = rel
        rows.append(r)
        if a.list:
            print("%-40s %-5s %-6s %5.1fs %s%s" % (
                rel, "in" if r["scope"] else "out", r["result"],
                r["seconds"], short(r["message"]),
                ("  [" + "; ".join(r["subs"]) + "]") if r["subs"] else ""),
                flush=True)
    counts = {}
    bad = 0
    for r in rows:
        k = ("in" if r["scope"] else "out", r["result"])
        counts[k] = counts.get(k, 0) + 1
        if r["scope"] and r["result"] != "runs":
            bad += 1
        if not r["scope"] and r["result"] != "error":
            bad += 1
    total = {x: sum(v for (s, y), v in counts.items() if y == x)
             for x in ("runs", "error", "long", "other")}
    print("corpus: %d job files: %d run as they are, %d clear error, "
          "%d long (past --timeout), %d other (in scope: %s; out of "
          "scope: %s)" % (
              len(rows), total["runs"], total["error"], total["long"],
              total["other"],
              ", ".join("%s %d" % (y, v) for (s, y), v in
                        sorted(counts.items()) if s == "in"),
              ", ".join("%s %d" % (y, v) for (s, y), v in
                        sorted(counts.items()) if s == "out")))
    if a.markdown:
        # With --files, the other files' rows of the table are kept.
        kept = {}
        if a.files and os.path.exists(a.markdown):
            with open(a.markdown) as f:
                for line in f:
                    m = re.match(r"\| `([^`]+)` \|", line)
                    if m:
                        kept[m.group(1)] = line
        with open(a.markdown, "w") as f:
            f.write("<!-- generated by tools/fio/corpus.py; do not edit -->\n")
            f.write("| job file | engines | in scope | result | "
                    "substitutions |\n")
            f.write("|---|---|---|---|---|\n")
            ran = {r["file"] for r in rows}
            table = rows + [{"file": name, "kept": kept[name]}
                            for name in sorted(kept) if name not in ran]
            table.sort(key=lambda r: r["file"])
            for r in table:
                if "kept" in r:
                    f.write(r["kept"])
                    continue
                res = r["result"]
                if r["message"]:
                    m = short(r["message"])
                    m = re.sub(r"^[^:]*\.fio:", "", m)
                    res += ": `" + m.replace("`", "'").replace("|", "\\|") + "`"
                f.write("| `%s` | %s | %s | %s | %s |\n" % (
                    r["file"], " ".join(r["engines"]),
                    "yes" if r["scope"] else
                    ("no (%s)" % r["reason"] if r["reason"] else "no"), res,
                    "; ".join(r["subs"]) or ""))
    if a.expect:
        diff = 0
        for r in rows:
            w = want.get(r["file"])
            # A long file must run when given the time (make deep,
            # --long-must-run); else it may be long again.
            if w == "long" and r["result"] == "runs":
                continue
            if w == "long" and a.long_must_run:
                w = "runs (the table's long file, given %ds)" % a.timeout
            if w != r["result"]:
                diff += 1
                print("corpus: %s: %s, the table says %s%s" % (
                    r["file"], r["result"], w or "nothing",
                    (" (" + short(r["message"]) + ")") if r["message"]
                    else ""))
        others = sum(1 for r in rows if r["result"] == "other")
        if diff or others:
            return 1
    return 1 if (a.check and bad) else 0


if __name__ == "__main__":
    sys.exit(main())
