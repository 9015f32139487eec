#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/memory-scale.py WPSIM [--sizes 1g,16g,64g] [--runtime 1s]
[--ram 1g,256m] - memory against file size, and host speed, of long timed
runs (issue 28: "memory that follows the cache, not the file").

For each --ram R (the machine's memory; the page cache is limited to it
with --mem R, since --ram alone sets only the dirty limits), each file
size and each of rw=write and rw=randwrite (bs=4k, psync, one job,
time_based for --runtime of virtual time, so that a 64 GiB file does not
take hours): the child's peak RSS (getrusage ru_maxrss), its host CPU
seconds (user + system, both from wait4 for that child alone), the
virtual seconds and I/Os it simulated, and
from them the simulation speed factor (virtual s per host CPU s) and
writes per host CPU second; then fio's bandwidth line, which shows the
throttling once the dirty limits are reached.  Then O_DIRECT 4 KiB QD1
(ext4, randwrite, --fs=ext4 --direct=1) the same way.

Never fails on timing or memory (bench/ only measures; the figures go in
docs/performance.md with the machine, its load and the date).
"""
import os
import re
import subprocess
import sys
import tempfile


def parse_args(argv):
    opts = {"sizes": "1g,16g,64g", "runtime": "1s", "ram": "1g,256m"}
    rest = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--") and a[2:] in opts and i + 1 < len(argv):
            opts[a[2:]] = argv[i + 1]
            i += 2
            continue
        rest.append(a)
        i += 1
    if len(rest) != 1:
        sys.exit(__doc__)
    return rest[0], opts


def run(wpsim, args):
    """(peak RSS MiB, host CPU s, virtual s, I/Os, bandwidth text)."""
    with tempfile.TemporaryFile("w+") as out, \
         tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen([wpsim, "fio"] + args + ["--speed"],
                                 stdout=out, stderr=err, text=True)
        _, status, ru = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        p = subprocess.CompletedProcess(child.args, child.returncode,
                                        out.read(), err.read())
    # This child's own peak RSS and CPU (wait4), not the largest so far.
    cpu = ru.ru_utime + ru.ru_stime
    rss = ru.ru_maxrss / 1024.0
    if p.returncode != 0:
        return rss, cpu, None, None, p.stderr.strip().splitlines()[-1:]
    m = re.search(r"speed factor \S+ \(([0-9.]+) virtual s in .*; "
                  r"([0-9.e+]+) I/Os per host CPU s", p.stderr)
    bw = re.search(r"write: (IOPS=\S+ BW=\S+)", p.stdout)
    virt = float(m.group(1)) if m else None
    ios = None
    if m:
        # I/Os per host CPU s as wpsim measured it, times its own CPU s.
        sp = re.search(r"in ([0-9.]+) host CPU s", p.stderr)
        ios = float(m.group(2)) * float(sp.group(1)) if sp else None
    return rss, cpu, virt, ios, bw.group(1) if bw else "?"


def row(label, r):
    rss, cpu, virt, ios, bw = r
    if virt is None:
        print(f"{label:44s} RSS {rss:7.1f} MiB  failed: {bw}")
        return
    print(f"{label:44s} RSS {rss:7.1f} MiB  CPU {cpu:6.2f} s  "
          f"virtual {virt:5.2f} s  factor {virt / cpu:6.3f}  "
          f"{ios / cpu:9.0f} writes/CPU s  {bw}")


def main():
    wpsim, o = parse_args(sys.argv[1:])
    for ram in o["ram"].split(","):
        for size in o["sizes"].split(","):
            for rw in ("write", "randwrite"):
                args = ["--name=j", "--ioengine=psync", "--bs=4k",
                        f"--rw={rw}", f"--size={size}", "--ram", ram,
                        "--mem", ram, f"--runtime={o['runtime']}",
                        "--time_based"]
                row(f"--ram {ram} --mem {ram} {rw} size={size}",
                    run(wpsim, args))
    args = ["--name=j", "--ioengine=psync", "--bs=4k", "--rw=randwrite",
            "--size=1g", "--direct=1", "--fs=ext4",
            f"--runtime={o['runtime']}", "--time_based"]
    row("O_DIRECT ext4 randwrite QD1 size=1g", run(wpsim, args))


if __name__ == "__main__":
    main()
