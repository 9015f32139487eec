#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/fio-files.py WPSIM [--files N ...] - `wpsim fio` with many files
(issue 28, "wpsim fio beyond 16 files"): for each N (default 1024 4096
16384), one job of N files of 16 KiB written in 4 KiB writes with an
end_fsync of each (`--nrfiles=N --size=16k*N --end_fsync=1`), then a
job of 256 clones each with its own file (`--numjobs=256`, randwrite,
fsync every 4 writes) and 1024 files on io_uring at depth 8.  Prints per
run the I/Os and syncs fio's JSON counts, the job's error, host CPU
seconds (user + system) and peak RSS from /usr/bin/time, and the load
average.  Nothing is asserted about speed; exits 1 if a run failed or
its counts are not the job's."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time


def run(wpsim, args, d):
    r = subprocess.run(["/usr/bin/time", "-f", "RUSAGE %M %U %S", wpsim,
                        "fio", "--output-format=json"] + args,
                       capture_output=True, text=True, cwd=d)
    ru = re.search(r"RUSAGE (\d+) ([0-9.]+) ([0-9.]+)", r.stderr)
    cpu = float(ru.group(2)) + float(ru.group(3)) if ru else 0.0
    rss = int(ru.group(1)) / 1024.0 if ru else 0.0
    try:
        jobs = json.loads(r.stdout)["jobs"]
    except (ValueError, KeyError):
        return r.returncode, None, cpu, rss, r.stderr[-400:]
    writes = sum(j["write"]["total_ios"] for j in jobs)
    syncs = sum(j.get("sync", {}).get("total_ios", 0) for j in jobs)
    errors = sorted(set(j["error"] for j in jobs))
    return r.returncode, (len(jobs), writes, syncs, errors), cpu, rss, ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("wpsim")
    ap.add_argument("--files", type=int, nargs="*",
                    default=[1024, 4096, 16384])
    a = ap.parse_args()
    wpsim = os.path.abspath(a.wpsim)
    rows = []
    for n in a.files:
        rows.append(("nrfiles=%d, 16 KiB each, end_fsync" % n,
                     ["--name=c", "--rw=write", "--bs=4k",
                      "--size=%dk" % (16 * n), "--nrfiles=%d" % n,
                      "--end_fsync=1"], (1, 4 * n)))
    rows.append(("numjobs=256, a file each, randwrite 64 KiB, fsync=4",
                 ["--name=j", "--rw=randwrite", "--bs=4k", "--size=64k",
                  "--numjobs=256", "--fsync=4"], (256, 256 * 16)))
    rows.append(("nrfiles=1024, io_uring iodepth=8",
                 ["--name=u", "--rw=write", "--bs=4k", "--size=16m",
                  "--nrfiles=1024", "--ioengine=io_uring", "--iodepth=8"],
                 (1, 4096)))
    print("| run | jobs | writes | syncs | error | CPU s | peak RSS MiB |")
    print("|---|---|---|---|---|---|---|")
    bad = False
    with tempfile.TemporaryDirectory(prefix="fio-files.") as d:
        for name, args, want in rows:
            rc, counts, cpu, rss, err = run(wpsim, args, d)
            if counts is None:
                print("| %s | - | - | - | exit %d | %.2f | %.1f |" %
                      (name, rc, cpu, rss))
                print("  stderr:", err)
                bad = True
                continue
            jobs, writes, syncs, errors = counts
            print("| %s | %d | %d | %d | %s | %.2f | %.1f |" %
                  (name, jobs, writes, syncs,
                   ",".join(str(e) for e in errors), cpu, rss))
            bad |= rc != 0 or (jobs, writes) != want or errors != [0]
    load = os.getloadavg()
    print("load average %.2f %.2f %.2f, %s" %
          (load[0], load[1], load[2],
           time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
