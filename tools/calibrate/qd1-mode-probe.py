#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/calibrate/qd1-mode-probe.py - does the device's QD1 write move
between modes, how long does a mode last, and does it show without the
loop device?  (Issue 32, session 18, h18-dio.)

Every PERIOD seconds, under `flock LOCK` (held only while a sample runs,
so other measurements fit between), one sample: fio psync O_DIRECT 4 KiB
random overwrites at QD1 for SECONDS on a written 1 GiB file of its own
on the XFS loop filesystem, the same on the root's ext4 (no loop device),
and a 1 s QD1 read on the XFS file (does a mode touch reads too?); with
PROBE_SPIN=1 in the environment, the two writes again with a CPU spinner
at nice 19 on every vCPU (is the mode the guest's idle?).  Each
sample records the time, /proc/loadavg, and per job p10/p50/p90 clat and
IOPS.  JSON lines to OUT (appended).  Not the grid's job or file (own
files in DIR/h18dio-probe/).  Root; the loop filesystems must be up.

usage: qd1-mode-probe.py OUT [--loop /var/tmp/wpsim-loop] [--minutes 25]
       [--period 20] [--seconds 2] [--lock /work/s18/loop.lock]
       [--max-load L]
"""
import argparse
import json
import os
import subprocess
import sys
import time

PCT = "10:50:90"


def fio_job(rw, path, seconds, cwd):
    args = ["--name=p", "--rw=" + rw, "--bs=4k", "--direct=1",
            "--ioengine=psync", "--time_based", "--runtime=%d" % seconds,
            "--filename=" + path, "--size=1g", "--overwrite=1"]
    r = subprocess.run(["fio", "--output-format=json",
                        "--percentile_list=" + PCT] + args, cwd=cwd,
                       capture_output=True, text=True)
    if r.returncode != 0:
        return {"error": r.stderr[-300:]}
    t = r.stdout
    j = json.loads(t[t.index("{"):])["jobs"][0]
    side = j["read" if "read" in rw else "write"]
    p = side["clat_ns"]["percentile"]
    return {"iops": round(side["iops"], 1),
            "p10": p["10.000000"], "p50": p["50.000000"],
            "p90": p["90.000000"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--loop", default="/var/tmp/wpsim-loop")
    ap.add_argument("--minutes", type=float, default=25)
    ap.add_argument("--period", type=float, default=20)
    ap.add_argument("--seconds", type=int, default=2)
    ap.add_argument("--lock", default="/work/s18/loop.lock")
    ap.add_argument("--max-load", type=float, help="sample only while "
                    "the 1-minute load average is below this (a quiet "
                    "guest: the spinner A/B decides only there)")
    a = ap.parse_args()
    xd = os.path.join(a.loop, "xfs", "h18dio-probe")
    rd = os.path.join(a.loop, "root", "h18dio-probe")
    for d in (xd, rd):
        os.makedirs(d, exist_ok=True)
    xf, rf = os.path.join(xd, "w.dat"), os.path.join(rd, "w.dat")
    # lay the files out once (written blocks), outside the samples
    for d, f in ((xd, xf), (rd, rf)):
        if not os.path.exists(f) or os.path.getsize(f) < (1 << 30):
            subprocess.run(["flock", a.lock, "sh", "-c",
                            "fio --name=l --rw=write --bs=1m --size=1g "
                            "--filename=%s --direct=1 >/dev/null && "
                            "sync -f %s" % (f, d)], check=True)
    end = time.time() + a.minutes * 60
    me = os.path.abspath(__file__)
    while time.time() < end:
        t0 = time.time()
        if a.max_load is not None and os.getloadavg()[0] >= a.max_load:
            time.sleep(a.period)
            continue
        r = subprocess.run(["flock", a.lock, sys.executable, me, "--one",
                            xf, rf, str(a.seconds)],
                           capture_output=True, text=True)
        line = r.stdout.strip() or json.dumps({"error": r.stderr[-300:]})
        with open(a.out, "a") as f:
            f.write(line + "\n")
        print(line, flush=True)
        time.sleep(max(0, a.period - (time.time() - t0)))


def quiet_sitting():
    """The lead's quiet sitting is on (helper rules, session 18): no
    sample then."""
    return os.path.exists("/work/s18/quiet-start") and \
        not os.path.exists("/work/s18/quiet-done")


def one(xf, rf, seconds):
    if quiet_sitting():
        print(json.dumps({"utc": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                               time.gmtime()),
                          "skipped": "quiet sitting"}))
        return
    s = {"utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
         "load": open("/proc/loadavg").read().split()[:3]}
    s["xfs_write"] = fio_job("randwrite", xf, seconds, os.path.dirname(xf))
    s["root_write"] = fio_job("randwrite", rf, seconds, os.path.dirname(rf))
    s["xfs_read"] = fio_job("randread", xf, 1, os.path.dirname(xf))
    if os.environ.get("PROBE_SPIN"):
        # The same two writes with a CPU spinner at nice 19 on each vCPU:
        # does a busy guest (vCPUs that never halt: this guest idles by
        # HLT, cpuidle haltpoll with guest_halt_poll_ns 0) change the
        # mode?
        spin = [subprocess.Popen(["nice", "-n", "19", "sh", "-c",
                                  "while :; do :; done"])
                for _ in range(os.cpu_count() or 1)]
        try:
            time.sleep(0.2)
            s["xfs_write_spin"] = fio_job("randwrite", xf, seconds,
                                          os.path.dirname(xf))
            s["root_write_spin"] = fio_job("randwrite", rf, seconds,
                                           os.path.dirname(rf))
        finally:
            for p in spin:
                p.kill()
                p.wait()
    s["load_end"] = open("/proc/loadavg").read().split()[:3]
    print(json.dumps(s))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        one(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        main()
