#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/fio-vs-real.py - `wpsim fio` against real fio on the same job files.

Each job file runs twice in a scratch directory on this machine's file
system: with the installed fio (3.33 here) and with `wpsim fio`, both with
--output-format=json and a write_iolog.  Compared, per job:

  keys     the JSON's key paths and value types (wpsim's documented
           omissions left out: disk_util, and the keys docs/fio.md lists)
  issued   read/write total_ios ("issued rwts" totals; not for
           time_based jobs, whose counts are their speed)
  syncs    sync.total_ios, sync.lat_ns.N, read/write short_ios (where fio
           3.33 counts fdatasync and sync_file_range)
  offsets  the iolog's (action, offset) sequence, for job files whose
           offsets are deterministic (no random offsets, no mixed
           direction, not time_based)
  logs     the statistics logs (write_bw_log, write_lat_log,
           write_iops_log): the same file names, the same number of
           columns, the same number of lines for a log with an entry
           per I/O (no log_avg_msec, not time_based), and the same
           offset column for deterministic jobs

--substitute applies tools/fio/corpus.py's substitutions (a /dev/ path
becomes a regular file, a directory= that does not exist is dropped, a
device's size given) to a copy of each job file, run by both; each one
is listed after the result.

Timing is not compared (virtual time).  Not run by `make test` (the
machine's fio and file system are not CI's); results go to
traces/real-kernel/ with the fio version, kernel and date:

  bench/fio-vs-real.py --wpsim build/wpsim [--substitute] [--out FILE]
                       JOBFILE...
"""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

# Keys wpsim leaves out by design (docs/fio.md "Output").
OMITTED = {"disk_util"}


def key_types(obj, prefix=""):
    out = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in OMITTED:
                continue
            # Percentile and bin keys depend on the samples.
            if prefix.endswith(("percentile", "bins")):
                continue
            p = prefix + "/" + k
            out[p] = type(v).__name__
            out.update(key_types(v, p))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:1]):
            out.update(key_types(v, prefix + "[]"))
    return out


def deterministic(text):
    body = "\n".join(re.split(r"[;#]", l, 1)[0] for l in text.splitlines())
    return not re.search(r"^\s*(rw|readwrite)\s*=\s*(rand|rw|readwrite)",
                         body, re.M) and \
        not re.search(r"^\s*time_based", body, re.M) and \
        not re.search(r"^\s*ioengine\s*=\s*(libaio|io_uring)", body, re.M)


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                       timeout=600)
    out = p.stdout
    i = out.find("{")
    try:
        doc = json.loads(out[i:]) if i >= 0 else None
    except json.JSONDecodeError:
        doc = None
    return p.returncode, doc, p.stderr


def iolog(path):
    seq = []
    if not os.path.exists(path):
        return seq
    for line in open(path):
        f = line.split()
        # Several jobs of real fio share one --write_iolog file and its
        # lines can interleave mid-line: such a line is left out.
        if len(f) >= 4 and f[2] in ("read", "write", "sync", "datasync",
                                    "sync_file_range") and f[3].isdigit():
            seq.append((f[1], f[2], int(f[3])))
    return seq


def summary(doc):
    jobs = []
    for j in doc.get("jobs", []):
        jobs.append({
            "job": j["jobname"],
            "issued": (j["read"]["total_ios"], j["write"]["total_ios"]),
            "syncs": (j["sync"]["total_ios"], j["sync"]["lat_ns"]["N"],
                      j["read"]["short_ios"], j["write"]["short_ios"]),
            "error": j["error"],
        })
    return jobs


def stat_logs(tmp):
    """{name: (lines, columns, [offsets])} of the statistics logs."""
    out = {}
    for n in sorted(os.listdir(tmp)):
        if not re.search(r"_(bw|lat|slat|clat|iops)(\.\d+)?\.log$", n):
            continue
        rows = [l.split(", ") for l in open(os.path.join(tmp, n))
                if l.strip()]
        cols = sorted({len(r) for r in rows})
        offs = [r[4] for r in rows if len(r) == 6]
        out[n] = (len(rows), cols, offs)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wpsim", required=True)
    ap.add_argument("--fio", default="fio")
    ap.add_argument("--out")
    ap.add_argument("--substitute", action="store_true")
    ap.add_argument("jobs", nargs="+")
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", "tools", "fio"))
    import corpus
    wpsim = os.path.abspath(a.wpsim)
    ver = subprocess.run([a.fio, "--version"], capture_output=True,
                         text=True).stdout.strip()
    lines = ["# bench/fio-vs-real.py: wpsim fio against %s" % ver,
             "# kernel %s, %s, %s" % (platform.release(),
                                      platform.machine(),
                                      datetime.datetime.now(
                                          datetime.timezone.utc)
                                      .strftime("%Y-%m-%d %H:%M UTC")),
             "# job file: keys issued syncs offsets (same / DIFF / -)"]
    same_all = 0
    for job in a.jobs:
        text = open(job).read()
        subs = []
        jobdir = None
        if a.substitute:
            text, subs = corpus.substitute(text, "1g")
            jobdir = tempfile.mkdtemp(prefix="fio-vs-real-job-")
            job = os.path.join(jobdir, os.path.basename(job))
            with open(job, "w") as f:
                f.write(text)
        res = {}
        logs = {}
        for who in ("fio", "wpsim"):
            tmp = tempfile.mkdtemp(prefix="fio-vs-real-")
            log = os.path.join(tmp, "iolog")
            cmd = ([a.fio] if who == "fio" else [wpsim, "fio"]) + [
                "--output-format=json", "--write_iolog=" + log,
                os.path.abspath(job)]
            rc, doc, err = run(cmd, tmp)
            res[who] = (rc, doc, iolog(log), err)
            logs[who] = stat_logs(tmp)
            subprocess.run(["rm", "-rf", tmp])
        if jobdir:
            subprocess.run(["rm", "-rf", jobdir])
        (frc, fdoc, flog, ferr), (wrc, wdoc, wlog, werr) = \
            res["fio"], res["wpsim"]
        name = os.path.basename(job)
        if fdoc is None or wdoc is None:
            lines.append("%s: no JSON (fio exit %d, wpsim exit %d: %s)" % (
                name, frc, wrc, (werr or ferr).strip().splitlines()[-1:]))
            continue
        fk, wk = key_types(fdoc), key_types(wdoc)
        missing = sorted(k for k in fk if k not in wk)
        extra = sorted(k for k in wk if k not in fk)
        typed = sorted(k for k in fk if k in wk and fk[k] != wk[k] and
                       {fk[k], wk[k]} != {"int", "float"})
        keys = "same" if not (missing or extra or typed) else "DIFF"
        fs, ws = summary(fdoc), summary(wdoc)
        # A time_based job's count is its speed: not compared.
        timed = re.search(r"^\s*time_based", text, re.M)
        issued = "-" if timed else "same" if [j["issued"] for j in fs] == \
            [j["issued"] for j in ws] else "DIFF"
        syncs = "same" if [j["syncs"] for j in fs] == \
            [j["syncs"] for j in ws] else "DIFF"
        if deterministic(text):
            offsets = "same" if [(x, y) for _, x, y in flog] == \
                [(x, y) for _, x, y in wlog] else "DIFF"
        else:
            offsets = "-"
        fl, wl = logs["fio"], logs["wpsim"]
        if not fl and not wl:
            slogs = "-"
        else:
            per_io = not timed and not re.search(
                r"^\s*log_avg_msec\s*=\s*[1-9]", text, re.M)
            same = sorted(fl) == sorted(wl) and all(
                fl[n][1] == wl[n][1] and
                (not per_io or fl[n][0] == wl[n][0]) and
                (not deterministic(text) or fl[n][2] == wl[n][2])
                for n in fl)
            slogs = "same" if same else "DIFF"
        ok = "DIFF" not in (keys, issued, syncs, offsets, slogs)
        same_all += ok
        lines.append("%s: keys %s, issued %s, syncs %s, offsets %s, "
                     "logs %s" % (name, keys, issued, syncs, offsets,
                                  slogs))
        if subs:
            lines.append("    substituted: %s" % "; ".join(subs))
        if slogs == "DIFF":
            lines.append("    fio   logs %s" % {n: v[:2] for n, v in
                                                fl.items()})
            lines.append("    wpsim logs %s" % {n: v[:2] for n, v in
                                                wl.items()})
        for k in missing[:5]:
            lines.append("    key only in fio: %s" % k)
        for k in extra[:5]:
            lines.append("    key only in wpsim: %s" % k)
        for k in typed[:5]:
            lines.append("    type differs: %s (%s vs %s)" % (k, fk[k], wk[k]))
        if issued == "DIFF" or syncs == "DIFF":
            lines.append("    fio   %s" % fs)
            lines.append("    wpsim %s" % ws)
        if offsets == "DIFF":
            lines.append("    fio   %s" % flog[:12])
            lines.append("    wpsim %s" % wlog[:12])
    lines.append("# %d of %d job files the same in every compared field" %
                 (same_all, len(a.jobs)))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
