#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/replay-whole.py WPSIM [--quick] [--keep DIR] - real workloads
replayed whole by `wpsim replay` (issue 28), recorded here on the real
kernel each run:

(a) dd: `strace -f -tt -T -y -o dd.strace dd if=/dev/zero of=x bs=4k
    count=4000 conv=fsync` (16 MB);
(b) sqlite3: 1000 transactions, each one INSERT of a 100 KiB blob, in
    the default journal mode (a -journal created, written, synced and
    unlinked per transaction; about 103 MB of database), under strace;
(c) fio's own --write_iolog of a 4 GiB 4 KiB random-write job (psync,
    buffered) on a file in the work directory, replayed with --mem 1g
    (the model's page cache limited to 1 GiB: clean pages reclaimed),
    with fio's completion-latency log of the same run (--write_lat_log
    --log_offset=1) given as --lat-log (session 19): the validation
    table's timed write row, and the matched count printed.

For each: the records used and skipped, the writes replayed against the
writes in the trace, host CPU seconds, replayed write calls per host
CPU second (the replay's own stderr line), peak RSS (/usr/bin/time), and
wpsim's exit code.  --quick: (c) with a 256 MiB job.  Prints a table;
never fails on timing (speed is measured, not asserted)."""
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def record_dd(d):
    x = os.path.join(d, "x")
    tr = os.path.join(d, "dd.strace")
    run(["strace", "-f", "-tt", "-T", "-y", "-o", tr, "dd", "if=/dev/zero",
         "of=" + x, "bs=4k", "count=4000", "conv=fsync"], check=True)
    os.unlink(x)
    return tr, ["write"]


def record_sqlite(d):
    sql = os.path.join(d, "load.sql")
    db = os.path.join(d, "db.sqlite")
    tr = os.path.join(d, "sqlite.strace")
    with open(sql, "w") as f:
        f.write("PRAGMA page_size=4096;\n")
        f.write("CREATE TABLE t(id INTEGER PRIMARY KEY, x BLOB);\n")
        for _ in range(1000):
            f.write("BEGIN; INSERT INTO t(x) VALUES(randomblob(102400)); "
                    "COMMIT;\n")
    with open(sql) as f:
        subprocess.run(["strace", "-f", "-tt", "-T", "-y", "-o", tr,
                        "sqlite3", db], stdin=f, check=True,
                       capture_output=True)
    size = os.path.getsize(db)
    os.unlink(db)
    return tr, ["pwrite64"], size


def record_fio(d, size):
    dat = os.path.join(d, "fio.dat")
    log = os.path.join(d, "rand.iolog")
    lat = os.path.join(d, "rand")
    run(["fio", "--name=rand", "--filename=" + dat, "--rw=randwrite",
         "--bs=4k", "--size=" + size, "--ioengine=psync",
         "--write_iolog=" + log, "--write_lat_log=" + lat,
         "--log_offset=1"], check=True)
    # Removed after the replays: on a file system mounted with discard,
    # freeing 4 GiB of randomly rewritten blocks takes minutes.
    return log, ["write"], dat, lat + "_clat.1.log"


def replay(wpsim, trace, extra):
    t0 = time.time()
    r = run(["/usr/bin/time", "-f", "RSS %M", wpsim, "replay", trace] +
            extra)
    wall = time.time() - t0
    out, err = r.stdout, r.stderr
    m = re.search(r"(\d+) records: (\d+) used, (\d+) skipped", out)
    used = skipped = 0
    if m:
        used, skipped = int(m.group(2)), int(m.group(3))
    sp = re.search(r"in ([\d.]+) s of host CPU: \d+ records, (\d+) writes "
                   r"per CPU second", err)
    # The simulation speed factor (timed_run_print_speed): virtual
    # seconds per host CPU second of the whole process, import included.
    vf = re.search(r"simulation speed factor (\S+) ", err)
    rss = re.search(r"RSS (\d+)", err)
    return {
        "rc": r.returncode, "used": used, "skipped": skipped,
        "cpu": float(sp.group(1)) if sp else None,
        "wps": int(sp.group(2)) if sp else None,
        "vf": float(vf.group(1)) if vf else None,
        "rss_mb": int(rss.group(1)) / 1024 if rss else None,
        "wall": wall, "out": out, "err": err,
    }


def writes_in(out, names):
    """(read, used) of the syscalls @names in the summary table."""
    read = used = 0
    for line in out.splitlines():
        if line.startswith("replay:"):
            break
        f = line.split()
        if len(f) >= 3 and f[0] in names and f[1].isdigit():
            read += int(f[1])
            used += int(f[2])
    return read, used


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    wpsim = os.path.abspath(args[0])
    quick = "--quick" in args
    keep = args[args.index("--keep") + 1] if "--keep" in args else None
    for tool in ("strace", "dd", "sqlite3", "fio"):
        if not shutil.which(tool):
            print("bench/replay-whole.py: %s is not installed" % tool)
            return 2
    d = keep or tempfile.mkdtemp(prefix="wpsim-replay-whole-")
    os.makedirs(d, exist_ok=True)
    load = os.getloadavg()
    sys.stdout.reconfigure(line_buffering=True)
    print("replay-whole: %s, load %.2f %.2f %.2f, %s" % (
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), *load,
        os.uname().release))
    rows = []
    tr, names = record_dd(d)
    rows.append(("dd 4k x 4000, conv=fsync", tr, names, []))
    tr, names, size = record_sqlite(d)
    rows.append(("sqlite3 1000 x 100 KiB (%.0f MB)" % (size / 1e6), tr,
                 names, []))
    fsize = "256m" if quick else "4g"
    tr, names, dat, lat = record_fio(d, fsize)
    rows.append(("fio iolog randwrite %s" % fsize, tr, names,
                 ["--mem", "1g", "--lat-log", lat]))
    print("%-34s %9s %9s %9s %8s %10s %8s %8s %3s" % (
        "trace", "records", "skipped", "writes", "CPU s", "writes/CPU s",
        "virt/CPU", "RSS MB", "rc"))
    for label, tr, names, extra in rows:
        r = replay(wpsim, tr, extra)
        read, used = writes_in(r["out"], names)
        print("%-34s %9d %9d %4d/%-4d %8s %10s %8s %8s %3d" % (
            label, r["used"] + r["skipped"], r["skipped"], used, read,
            "%.2f" % r["cpu"] if r["cpu"] is not None else "-",
            r["wps"] if r["wps"] is not None else "-",
            "%.2f" % r["vf"] if r["vf"] is not None else "-",
            "%.0f" % r["rss_mb"] if r["rss_mb"] is not None else "-",
            r["rc"]))
        for line in r["out"].splitlines():
            if line.startswith("latency log "):
                print("  " + line)
            if line.startswith("  write ") and "--lat-log" in extra:
                print("  validation:" + line)
        if keep:
            base = os.path.join(d, os.path.basename(tr))
            with open(base + ".replay", "w") as f:
                f.write(r["out"])
    os.unlink(dat)
    if not keep:
        shutil.rmtree(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
