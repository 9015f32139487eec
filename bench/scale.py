#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/scale.py WPSIM [BASELINE-WPSIM] [--quick] - long timed runs of
`wpsim fio`: host cost per simulated write and peak RSS.

(1) 32 jobs of buffered 4 KiB random writes sharing one 256 KiB file
    (the model's page-cache bounds), writeback on (the periodic flusher
    and fsync every 64 writes), enterprise-plp, 8 CPUs: N and 4N writes
    in all (N = 10^6; --quick: 2 * 10^4).
(2) the same on a 256 MiB file through a 16 MiB page cache (--mem 16m:
    clean folios are reclaimed), N and 4N writes.
(3) O_DIRECT 4 KiB random writes on ext4 at QD 1 and 32 (psync jobs),
    enterprise-plp, a fixed number of I/Os.

For each run: host seconds (wall and user CPU), simulated I/Os per host
second of user CPU, peak RSS (GNU time's %M).  With a baseline binary
(e.g. a build of an earlier commit) every run is made with both, in the
same invocation, and the ratio printed, and whether the two fio JSON
outputs are byte-identical (a baseline without --mem fails the --mem
runs, which is said).  Never fails on timing
(docs/performance.md has the figures)."""
import json
import os
import subprocess
import sys
import tempfile
import time


def run(wpsim, args):
    """(total I/Os, wall s, user s, peak RSS KiB, JSON text) or an error
    string."""
    cmd = [wpsim, "fio", "--output-format=json"] + args
    with tempfile.NamedTemporaryFile("r") as out:
        cmd = ["/usr/bin/time", "-f", "%U %M", "-o", out.name] + cmd
        t0 = time.monotonic()
        r = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.monotonic() - t0
        fields = out.read().split()
    if r.returncode:
        return r.stderr.strip()[:200]
    j = json.loads(r.stdout)
    w = j["jobs"][0]["write"]
    return (w["total_ios"], wall, float(fields[-2]), int(fields[-1]),
            r.stdout)


def buffered(total):
    return ["--name=c", "--rw=randwrite", "--bs=4k", "--size=256k",
            f"--io_size={total // 32 * 4}k", "--numjobs=32", "--filename=f",
            "--fsync=64", "--group_reporting", "--device=enterprise-plp",
            "--cpus=8"]


def reclaim(total):
    return ["--name=m", "--rw=randwrite", "--bs=4k", "--size=256m",
            f"--io_size={total // 32 * 4}k", "--numjobs=32", "--filename=f",
            "--fsync=64", "--group_reporting", "--device=enterprise-plp",
            "--cpus=8", "--mem", "16m"]


def direct(total, qd):
    return ["--name=d", "--rw=randwrite", "--bs=4k", "--size=256k",
            "--direct=1", "--fs=ext4", "--overwrite=1", "--filename=f",
            f"--numjobs={qd}", f"--io_size={total // qd * 4}k",
            "--group_reporting", "--device=enterprise-plp", "--cpus=8"]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    if not args or not os.path.exists("/usr/bin/time"):
        print("usage: bench/scale.py WPSIM [BASELINE-WPSIM] [--quick] "
              "(needs /usr/bin/time)")
        return
    bins = [("new", args[0])] + ([("baseline", args[1])] if len(args) > 1
                                  else [])
    n = 20000 if quick else 1000000
    runs = [(f"buffered, 32 jobs, {n} writes", buffered(n)),
            (f"buffered, 32 jobs, {4 * n} writes", buffered(4 * n)),
            (f"buffered, 32 jobs, 256 MiB file, --mem 16m, {n} writes",
             reclaim(n)),
            (f"buffered, 32 jobs, 256 MiB file, --mem 16m, {4 * n} writes",
             reclaim(4 * n)),
            (f"O_DIRECT, QD 1, {n // 4} writes", direct(n // 4, 1)),
            (f"O_DIRECT, QD 32, {n // 4} writes", direct(n // 4, 32))]
    print(f"bench/scale.py ({'quick' if quick else 'full'}); "
          f"{os.uname().machine}, {os.cpu_count()} host CPUs")
    for label, fio_args in runs:
        user = {}
        out = {}
        for name, wpsim in bins:
            r = run(wpsim, fio_args)
            if isinstance(r, str):
                print(f"  {label} [{name}]: failed: {r}")
                continue
            ios, wall, usr, rss, text = r
            user[name] = usr
            out[name] = text
            print(f"  {label} [{name}]: {ios} I/Os, wall {wall:.1f} s, "
                  f"user {usr:.2f} s, {ios / max(usr, 0.01):.0f} I/Os "
                  f"per user s, peak RSS {rss / 1024:.1f} MiB")
        if len(user) == 2:
            print(f"    baseline / new user time: "
                  f"{user['baseline'] / max(user['new'], 0.01):.2f}x; "
                  f"fio JSON "
                  f"{'identical' if out['new'] == out['baseline'] else 'DIFFERS'}")


if __name__ == "__main__":
    main()
