#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/calibrate/randrw-probe.py - where does mixed read/write at depth
lose its time?  (Issue 32, session 18, h18-dio.)

Rounds of fio libaio O_DIRECT 4 KiB jobs, 1 s each, at QD 1/4/16/64:
randread, randwrite and randrw (rwmixread=50) interleaved, on a written
1 GiB file of its own on the XFS loop filesystem and on the root's ext4
(no loop device).  Per job: IOPS of each direction, clat p50 of each,
and /proc/diskstats deltas of the loop device and of vda (requests,
merges, ms busy) and the virtio request interrupts (requests completed
per interrupt: a pass's size, docs/model/nvme.md).  Each round under
`flock LOCK`; the load average with every job.  JSON lines to OUT.  Not
the grid's job file or file.  Root; the loop filesystems must be up.

usage: randrw-probe.py OUT [--loop DIR] [--rounds 3] [--qd 1,4,16,64]
       [--where xfs,root] [--lock /work/s18/loop.lock]
"""
import argparse
import json
import os
import subprocess
import sys
import time


def diskstats():
    d = {}
    for line in open("/proc/diskstats"):
        f = line.split()
        if f[2] in ("vda", "loop0"):
            # reads, read merges, writes, write merges, io_ticks ms
            d[f[2]] = [int(f[3]), int(f[4]), int(f[7]), int(f[8]),
                       int(f[12])]
    return d


def virtio_irqs():
    n = 0
    for line in open("/proc/interrupts"):
        if "virtio" in line and "req" in line:
            n += sum(int(x) for x in line.split()[1:] if x.isdigit())
    return n


def job(rw, qd, path):
    args = ["fio", "--output-format=json", "--percentile_list=50",
            "--name=m", "--rw=" + rw, "--rwmixread=50", "--bs=4k",
            "--direct=1", "--ioengine=libaio", "--iodepth=%d" % qd,
            "--time_based", "--runtime=1", "--filename=" + path,
            "--size=1g", "--overwrite=1"]
    d0, i0, l0 = diskstats(), virtio_irqs(), os.getloadavg()[0]
    r = subprocess.run(args, capture_output=True, text=True)
    d1, i1 = diskstats(), virtio_irqs()
    if r.returncode:
        return {"error": r.stderr[-300:]}
    t = r.stdout
    j = json.loads(t[t.index("{"):])["jobs"][0]
    out = {"rw": rw, "qd": qd, "load": round(l0, 2)}
    for side in ("read", "write"):
        s = j[side]
        if s["total_ios"]:
            out[side + "_iops"] = round(s["iops"])
            out[side + "_p50"] = s["clat_ns"]["percentile"]["50.000000"]
    out["iops"] = out.get("read_iops", 0) + out.get("write_iops", 0)
    out["disk"] = {k: [b - a for a, b in zip(d0[k], d1[k])] for k in d1}
    vda = out["disk"].get("vda", [0] * 5)
    irq = i1 - i0
    out["vda_req_per_irq"] = round((vda[0] + vda[2]) / irq, 2) if irq else 0
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--loop", default="/var/tmp/wpsim-loop")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--qd", default="1,4,16,64")
    ap.add_argument("--where", default="xfs,root")
    ap.add_argument("--lock", default="/work/s18/loop.lock")
    a = ap.parse_args()
    if a.rounds == 0:      # one round, already under the lock
        where = a.where.split(",")
        for w in where:
            path = os.path.join(a.loop, w, "h18dio-probe", "w.dat")
            for qd in (int(q) for q in a.qd.split(",")):
                for rw in ("randread", "randwrite", "randrw"):
                    o = job(rw, qd, path)
                    o["where"] = w
                    o["utc"] = time.strftime("%H:%M:%S", time.gmtime())
                    print(json.dumps(o), flush=True)
        return
    for _ in range(a.rounds):
        r = subprocess.run(["flock", a.lock, sys.executable,
                            os.path.abspath(__file__), "/dev/null",
                            "--rounds", "0", "--loop", a.loop,
                            "--qd", a.qd, "--where", a.where],
                           capture_output=True, text=True)
        with open(a.out, "a") as f:
            f.write(r.stdout)
        sys.stdout.write(r.stdout)
        time.sleep(40)


if __name__ == "__main__":
    main()
