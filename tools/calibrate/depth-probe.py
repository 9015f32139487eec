#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/calibrate/depth-probe.py - why do the grid's O_DIRECT rows at
depth run away from the calibration's sweep?  (Issue 32, session 19,
h19-depth.)

The two jobs are the same fio libaio O_DIRECT 4 KiB random job over a
written 1 GiB file; they differ in the filesystem (the sweep: XFS on
loop0 only), the file's age (the sweep's file is laid out once and
rests; a grid row lays a fresh one out and syncs just before its run),
and the run's length (1 s against 2 s).  Rounds of A/B jobs, each kind
once a round, in an order that rotates with the round, on files of its
own (DIR/{xfs,ext4}/h19depth/, never the grid's):

  old-1s    the rested file, 1 s (the sweep's job)
  old-2s    the rested file, 2 s
  fresh-2s  a file laid out (fio create_only, buffered) and synced just
            before, 2 s (the grid's row)

for randwrite at QD --wqd and randread at QD --rqd, on each filesystem.
Per job: IOPS, the rate every 250 ms (fio's iops log), /proc/diskstats
deltas of the loop device and vda and the virtio request interrupts.
Each round under `flock LOCK`; the load average with every job.  JSON
lines to OUT.  Root; the loop filesystems must be up.

usage: depth-probe.py OUT [--loop DIR] [--rounds 4] [--wqd 16] [--rqd 64]
       [--fs xfs,ext4] [--lock /work/s19/loop.lock]
"""
import argparse
import fcntl
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile


def diskstats():
    d = {}
    for line in open("/proc/diskstats"):
        f = line.split()
        if f[2] == "vda" or f[2].startswith("loop"):
            d[f[2]] = [int(f[3]), int(f[7]), int(f[12])]
    return d


def virtio_irqs():
    n = 0
    for line in open("/proc/interrupts"):
        if "virtio" in line and "req" in line:
            n += sum(int(x) for x in line.split()[1:] if x.isdigit())
    return n


def base(rw, qd, path, runtime):
    return ["--name=p", "--rw=" + rw, "--bs=4k", "--direct=1",
            "--ioengine=libaio", "--iodepth=%d" % qd, "--time_based",
            "--runtime=%d" % runtime, "--filename=" + path, "--size=1g",
            "--overwrite=1"]


def lay_out(path, mnt, fresh):
    if fresh and os.path.exists(path):
        os.unlink(path)
    subprocess.run(["fio", "--create_only=1"] +
                   base("randwrite", 1, path, 1), capture_output=True)
    subprocess.run(["sync", "-f", mnt])


def job(rw, qd, path, runtime, dev):
    logs = tempfile.mkdtemp(prefix="h19depth-")
    args = ["fio", "--output-format=json"] + base(rw, qd, path, runtime) + [
        "--write_iops_log=" + logs + "/r", "--log_avg_msec=250"]
    d0, i0, l0 = diskstats(), virtio_irqs(), os.getloadavg()[0]
    r = subprocess.run(args, capture_output=True, text=True)
    d1, i1 = diskstats(), virtio_irqs()
    rates = []
    try:
        with open(logs + "/r_iops.1.log") as f:
            rates = [float(x.split(",")[1]) for x in f if x.strip()]
    except OSError:
        pass
    shutil.rmtree(logs, ignore_errors=True)
    if r.returncode:
        return {"error": r.stderr[-300:]}
    t = r.stdout
    j = json.loads(t[t.index("{"):])["jobs"][0]
    side = "read" if "read" in rw else "write"
    vda = [b - a for a, b in zip(d0.get("vda", [0] * 3),
                                 d1.get("vda", [0] * 3))]
    lo = [b - a for a, b in zip(d0.get(dev, [0] * 3), d1.get(dev, [0] * 3))]
    return {"iops": round(j[side]["iops"]), "rates": [round(x) for x in
                                                        rates],
            "load": round(l0, 2), "vda_rd_wr_ms": vda, "loop_rd_wr_ms": lo,
            "vda_req_per_irq": round((vda[0] + vda[1]) / (i1 - i0), 2)
            if i1 > i0 else 0}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--loop", default="/var/tmp/wpsim-loop")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--wqd", type=int, default=16)
    p.add_argument("--rqd", type=int, default=64)
    p.add_argument("--fs", default="xfs,ext4")
    p.add_argument("--lock", default="/work/s19/loop.lock")
    a = p.parse_args()
    kinds = ("old-1s", "old-2s", "fresh-2s")
    fss = a.fs.split(",")
    for rnd in range(a.rounds):
        lk = open(a.lock, "a")
        fcntl.flock(lk, fcntl.LOCK_EX)
        try:
            order = list(itertools.product(fss, kinds,
                                           (("randwrite", a.wqd),
                                            ("randread", a.rqd))))
            k = rnd % len(order)
            order = order[k:] + order[:k]
            for fs, kind, (rw, qd) in order:
                mnt = os.path.join(a.loop, fs)
                dev = os.path.basename(subprocess.run(
                    ["findmnt", "-n", "-o", "SOURCE", mnt],
                    capture_output=True, text=True).stdout.strip())
                d = os.path.join(mnt, "h19depth")
                os.makedirs(d, exist_ok=True)
                fresh = kind.startswith("fresh")
                path = os.path.join(d, "fresh.dat" if fresh else "old.dat")
                lay_out(path, mnt, fresh)
                res = job(rw, qd, path, int(kind[-2]), dev)
                res.update({"round": rnd, "fs": fs, "kind": kind, "rw": rw,
                            "qd": qd})
                with open(a.out, "a") as f:
                    f.write(json.dumps(res) + "\n")
                print(json.dumps(res), flush=True)
        finally:
            fcntl.flock(lk, fcntl.LOCK_UN)
            lk.close()


if __name__ == "__main__":
    sys.exit(main())
