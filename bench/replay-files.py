#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/replay-files.py WPSIM [--files N] [--threads T] [--batch B]
[--keep DIR] [--real] - `wpsim replay` of traces with thousands of
files, whole (issue 28, "any number of files"):

(a) generated: tools/untar-strace.py, N files (default 4096) on T
    threads (default 4), B open at once per thread (default 64): every
    file created, written in 8 KiB writes, closed, and unlinked at the
    end;
(b) with --real: a real untar recorded here, `strace -f -tt -T -y` of
    GNU tar extracting an archive of N files (1-64 KiB each, made with
    the same seed), then of `rm -r` of the tree (unlinkat).

For each: records, used, skipped (the report's used/skipped table), the
model inodes the timed run made, host CPU seconds of the import alone
(`--summary`: the importer's file lookups, trace_file_find) and of the
timed replay, and its peak RSS (/usr/bin/time), the load average.  Nothing is
asserted about speed; the script exits 1 if a record was skipped."""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "tools", "untar-strace.py")


def replay(wpsim, trace):
    summ = subprocess.run(["/usr/bin/time", "-f", "RUSAGE %M %U %S", wpsim,
                           "replay", trace, "--summary"],
                          capture_output=True, text=True)
    su = re.search(r"RUSAGE (\d+) ([0-9.]+) ([0-9.]+)", summ.stderr)
    import_cpu = float(su.group(2)) + float(su.group(3)) if su else 0.0
    m = re.search(r"(\d+) records: (\d+) used, (\d+) skipped", summ.stdout)
    if summ.returncode != 0 or not m:
        sys.stderr.write(summ.stdout[-2000:] + summ.stderr[-2000:])
        raise SystemExit("wpsim replay --summary failed on " + trace)
    records, used, skipped = (int(x) for x in m.groups())
    t0 = time.time()
    r = subprocess.run(["/usr/bin/time", "-f", "RUSAGE %M %U %S", wpsim,
                        "replay", trace], capture_output=True, text=True)
    wall = time.time() - t0
    ru = re.search(r"RUSAGE (\d+) ([0-9.]+) ([0-9.]+)", r.stderr)
    rss_kib, cpu = (int(ru.group(1)), float(ru.group(2)) +
                    float(ru.group(3))) if ru else (0, 0.0)
    inodes = re.search(r"(\d+) threads, (\d+) model inodes", r.stdout)
    return {
        "records": records, "used": used, "skipped": skipped,
        "rc": r.returncode,
        "threads": int(inodes.group(1)) if inodes else -1,
        "inodes": int(inodes.group(2)) if inodes else -1,
        "cpu": cpu, "wall": wall, "import_cpu": import_cpu,
        "rss_mib": rss_kib / 1024.0,    # /usr/bin/time's %M
        "skips": [l for l in summ.stdout.splitlines()
                  if re.match(r"\s*\S+\s+\d+\s+\d+\s+[1-9]", l)],
        "err": r.stderr[-500:] if r.returncode else "",
    }


def record_untar(d, n, seed):
    src = os.path.join(d, "src")
    os.makedirs(src)
    rng = random.Random(seed)
    for i in range(n):
        with open(os.path.join(src, "f%05d" % i), "wb") as f:
            f.write(os.urandom(rng.randint(1, 64) * 1024))
    tar = os.path.join(d, "t.tar")
    subprocess.run(["tar", "cf", tar, "-C", src, "."], check=True)
    shutil.rmtree(src)
    dst = os.path.join(d, "dst")
    os.makedirs(dst)
    tr = os.path.join(d, "untar.strace")
    subprocess.run(["strace", "-f", "-tt", "-T", "-y", "-o", tr, "sh", "-c",
                    "tar xf %s -C %s && rm -r %s" % (tar, dst, dst)],
                   check=True)
    os.unlink(tar)
    return tr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("wpsim")
    ap.add_argument("--files", type=int, default=4096)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--keep")
    ap.add_argument("--real", action="store_true")
    a = ap.parse_args()
    d = a.keep or tempfile.mkdtemp(prefix="replay-files.")
    os.makedirs(d, exist_ok=True)
    rows = []
    gen = os.path.join(d, "gen.strace")
    subprocess.run([sys.executable, GEN, gen, "--files", str(a.files),
                    "--threads", str(a.threads), "--batch", str(a.batch)],
                   check=True)
    rows.append(("generated, %d files, %d threads, %d open per thread" %
                 (a.files, a.threads, a.batch), replay(a.wpsim, gen)))
    if a.real:
        rows.append(("tar x + rm -r (real, %d files)" % a.files,
                     replay(a.wpsim, record_untar(d, a.files, 1))))
    load = os.getloadavg()
    print("| trace | records | used | skipped | threads | model inodes "
          "| import CPU s | CPU s | wall s | peak RSS MiB | exit |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    bad = False
    for name, r in rows:
        print("| %s | %d | %d | %d | %d | %d | %.2f | %.2f | %.2f | %.1f "
              "| %d |" %
              (name, r["records"], r["used"], r["skipped"], r["threads"],
               r["inodes"], r["import_cpu"], r["cpu"], r["wall"],
               r["rss_mib"], r["rc"]))
        for line in r["skips"]:
            print("  skipped:", line.strip())
        if r["err"]:
            print("  stderr:", r["err"])
        bad |= r["skipped"] > 0 or r["rc"] != 0
    print("load average %.2f %.2f %.2f, %s" %
          (load[0], load[1], load[2],
           time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())))
    if not a.keep:
        shutil.rmtree(d, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
