#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/speed.py NEW-WPSIM BASELINE-WPSIM [--quick] [--same-only] -
issue 28's host-speed targets, each as a ratio against a baseline binary
measured in the same invocation, and whether the timed outputs stayed
the same bytes.

Targets (issue 28, "Must show"), all measured in host CPU seconds of the
child (user + system, from wait4's rusage: the machine may be loaded,
so wall time is not used):

(1) buffered 4 KiB sequential writes, psync, one job, the default
    profiles (enterprise-plp, default CPU costs, 8 CPUs, 16 GiB RAM):
    writes per host CPU second (target >= 2 x 10^5) and the simulation
    speed factor that `wpsim fio --speed` prints (virtual seconds per
    host CPU second, target >= 1);
(2) O_DIRECT 4 KiB random writes at QD 1 (ext4 and XFS, psync): I/Os
    per host CPU second (target >= 10^6);
(3) `wpsim replay` of a fio iolog (v2, written here) of 4 KiB random
    writes: replayed write calls per host CPU second (target >= 2 x
    10^5);
(5) issue 29's fio-rand-write.fio shape (fio's examples/: four jobs of
    4 KiB random buffered writes, libaio QD 16, on one 10 GiB file),
    300 virtual ms with dirty limits of 16 and 32 MiB so that writeback
    runs from the start (the whole file's 900 s must fit make deep's
    3600 s per file): I/Os per host CPU second, no target of its own.

Then (4) the same-output set: about fifteen `wpsim fio` jobs (buffered,
direct, libaio, io_uring, uncached, fsync, several jobs, --mem) whose
JSON must be byte-identical between the two binaries (the speed line on
stderr is not compared), five of them --replayable, whose stderr (the
schedule and the event-log hash) must be the same too, and the replay's
stdout.

Never fails on timing; exits 1 only when an output differs.
docs/performance.md has the figures."""
import os
import re
import subprocess
import sys
import tempfile

SPEED_RE = re.compile(r"speed factor ([0-9.e+]+) \(([0-9.e+]+) virtual s")


def run(cmd):
    """(stdout, stderr, host CPU s, peak RSS KiB, exit status)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        out.seek(0)
        err.seek(0)
        return (out.read().decode(), err.read().decode(),
                ru.ru_utime + ru.ru_stime, ru.ru_maxrss,
                os.waitstatus_to_exitcode(status))


def fio(wpsim, args):
    return run([wpsim, "fio", "--output-format=json", "--speed"] + args)


def total_ios(json_text):
    import json
    j = json.loads(json_text)
    return sum(job["write"]["total_ios"] + job["read"]["total_ios"]
               for job in j["jobs"])


def write_iolog(path, n, file_bytes, seed=7):
    """A fio v2 iolog of n 4 KiB random writes over one file."""
    x = seed
    blocks = file_bytes // 4096
    with open(path, "w") as f:
        f.write("fio version 2 iolog\n/tmp/speedfile add\n"
                "/tmp/speedfile open\n")
        for _ in range(n):
            x = (x * 6364136223846793005 + 1442695040888963407) % 2**64
            f.write(f"/tmp/speedfile write {(x >> 33) % blocks * 4096} "
                    "4096\n")
        f.write("/tmp/speedfile close\n")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    same_only = "--same-only" in sys.argv
    if len(args) != 2:
        print(__doc__.split("\n\n")[0])
        return 2
    new, base = args
    bins = [("baseline", base), ("new", new)]
    differ = 0
    print(f"load average {os.getloadavg()[0]:.1f} at start")

    if not same_only:
        size = "256m" if quick else "1g"
        nio = 50000 if quick else 200000
        targets = [
            (f"buffered seq 4k psync, {size}",
             ["--name=s", "--rw=write", "--bs=4k", f"--size={size}",
              "--ioengine=psync"], 2e5),
            (f"O_DIRECT randwrite 4k QD1 ext4, {nio} I/Os",
             ["--name=d", "--rw=randwrite", "--bs=4k", "--size=1g",
              "--direct=1", "--fs=ext4", "--ioengine=psync",
              f"--number_ios={nio}"], 1e6),
            (f"O_DIRECT randwrite 4k QD1 xfs, {nio} I/Os",
             ["--name=d", "--rw=randwrite", "--bs=4k", "--size=1g",
              "--direct=1", "--fs=xfs", "--ioengine=psync",
              f"--number_ios={nio}"], 1e6),
            (f"fio-rand-write.fio shape, {'100' if quick else '300'} ms",
             ["--name=fio-rand-write", "--filename=fio-rand-write",
              "--rw=randwrite", "--bs=4k", "--direct=0", "--numjobs=4",
              "--time_based", f"--runtime={'100' if quick else '300'}ms",
              "--size=10g", "--ioengine=libaio", "--iodepth=16",
              "--dirty_background_bytes=16m", "--dirty_bytes=32m"], 0),
        ]
        print("| run | binary | host CPU s | I/Os per CPU s | speed factor "
              "| peak RSS MiB | target |")
        print("|---|---|---|---|---|---|---|")
        for name, a, target in targets:
            res = {}
            for label, b in bins:
                out, err, cpu, rss, rc = fio(b, a)
                if rc:
                    print(f"| {name} | {label} | failed: {err[:100]} |")
                    continue
                m = SPEED_RE.search(err)
                ios = total_ios(out)
                res[label] = (cpu, out)
                print(f"| {name} | {label} | {cpu:.2f} | {ios / cpu:,.0f} "
                      f"| {float(m.group(2)) / cpu if m else 0:.3f} "
                      f"| {rss / 1024:.0f} | "
                      f"{f'{target:.0e}' if target else '-'} |")
            if len(res) == 2:
                same = res["new"][1] == res["baseline"][1]
                differ += not same
                print(f"| {name} | ratio | "
                      f"{res['baseline'][0] / res['new'][0]:.2f}x faster |"
                      f" | | | JSON {'identical' if same else 'DIFFERS'} |")
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "rand.iolog")
            n = 50000 if quick else 200000
            write_iolog(log, n, 1 << 30)
            res = {}
            for label, b in bins:
                out, err, cpu, rss, rc = run([b, "replay", log])
                if rc:
                    print(f"| replay | {label} | failed: {err[:100]} |")
                    continue
                res[label] = (cpu, out)
                print(f"| replay iolog {n} writes | {label} | {cpu:.2f} | "
                      f"{n / cpu:,.0f} | | {rss / 1024:.0f} | 2e+05 |")
            if len(res) == 2:
                same = res["new"][1] == res["baseline"][1]
                differ += not same
                print(f"| replay | ratio | "
                      f"{res['baseline'][0] / res['new'][0]:.2f}x faster |"
                      f" | | | stdout {'identical' if same else 'DIFFERS'} |")

    jobs = [
        ["--name=a", "--rw=write", "--bs=4k", "--size=64m"],
        ["--name=a", "--rw=randwrite", "--bs=4k", "--size=32m",
         "--fsync=16"],
        ["--name=a", "--rw=write", "--bs=64k", "--size=64m",
         "--end_fsync=1", "--numjobs=4", "--group_reporting"],
        ["--name=a", "--rw=randwrite", "--bs=4k", "--size=16m",
         "--direct=1", "--fs=ext4"],
        ["--name=a", "--rw=randwrite", "--bs=4k", "--size=16m",
         "--direct=1", "--fs=ext4", "--ioengine=libaio", "--iodepth=16"],
        ["--name=a", "--rw=write", "--bs=4k", "--size=16m",
         "--ioengine=io_uring", "--iodepth=8"],
        ["--name=a", "--rw=write", "--bs=4k", "--size=16m", "--uncached=1"],
        ["--name=a", "--rw=randwrite", "--bs=4k", "--size=64m",
         "--mem", "8m", "--numjobs=2"],
        ["--name=a", "--rw=randrw", "--bs=4k", "--size=8m", "--cpus=2",
         "--numjobs=8", "--filename=f", "--fdatasync=8"],
        ["--name=a", "--rw=write", "--bs=4k", "--size=8m", "--sync=dsync",
         "--device=consumer-vwc"],
        ["--name=a", "--rw=randwrite", "--bs=4k", "--size=16m",
         "--runtime=50ms", "--time_based", "--numjobs=3", "--seed", "9"],
        # --replayable: stderr has the schedule and the event-log hash,
        # so these compare every step's choice and every event (the
        # timed fast paths' solo steps against the baseline's pick).
        ["--name=a", "--rw=randwrite", "--bs=4k", "--size=1m",
         "--direct=1", "--fs=ext4", "--number_ios=300", "--replayable"],
        ["--name=a", "--rw=randwrite", "--bs=4k", "--size=1m",
         "--direct=1", "--fs=xfs", "--number_ios=300", "--replayable"],
        ["--name=a", "--rw=randwrite", "--bs=4k", "--size=1m",
         "--direct=1", "--fs=ext4", "--ioengine=libaio", "--iodepth=4",
         "--number_ios=200", "--replayable"],
        ["--name=a", "--rw=write", "--bs=4k", "--size=256k", "--numjobs=2",
         "--fsync=8", "--replayable"],
        # Four jobs on one file's exclusive lock with writeback: solo
        # steps beside a spin group and one-candidate picks (session 14).
        ["--name=a", "--rw=randwrite", "--bs=4k", "--size=256k",
         "--numjobs=4", "--filename=f", "--ioengine=libaio", "--iodepth=4",
         "--number_ios=60", "--dirty_background_bytes=64k",
         "--dirty_bytes=128k", "--replayable"],
    ]
    print("\n| same-output job | result |\n|---|---|")
    for a in jobs:
        outs = []
        for _, b in bins:
            out, err, cpu, rss, rc = fio(b, a)
            # The speed line aside, and the model hash in front of a
            # schedule (it names the sources, which changed).
            err = re.sub(r"wpsim fio: simulation speed.*\n", "", err)
            err = re.sub(r"schedule [0-9a-f]{12}:", "schedule HASH:", err)
            outs.append((rc, out, err))
        same = outs[0] == outs[1]
        differ += not same
        print(f"| {' '.join(a)} | {'identical' if same else 'DIFFERS'} |")
    print(f"\n{differ} different")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
