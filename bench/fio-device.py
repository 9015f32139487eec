#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/fio-device.py WPSIM SOURCE-ROOT [--quick] - wpsim fio against
the device profiles' own arithmetic, seed 004's shape and a scale run.

(a) O_DIRECT 4 KiB randwrite on ext4 (the model's DIO path), queue depth
    QD = numjobs of psync (the model has no asynchronous DIO: libaio is
    an error), QD 1..256, on every profile in profiles/devices, against
    min(QD / L1, P * page / (tPROG * bs), link / bs, 1 / fw_ns) computed
    from the profile file (docs/model/nvme.md "Closed forms"; L1 here is
    the run's measured QD1 latency, host path included); the write cache
    burst (IOPS over the first cache-full of writes vs after); fsync=1
    and sync=dsync paying for flushes (buffered XFS).
(b) seed 004's shape: 4 KiB sequential buffered writes at QD1 through
    io_uring (uring=merged: the inline NOWAIT attempt; uring=punt: every
    write to io-wq) and psync: IOPS, slat, clat.
(c) scale: 32 buffered 4 KiB write jobs sharing one 256 KiB file,
    writeback on, enterprise profile: host seconds, simulated writes per
    host second, peak RSS, for N and 4N writes (bench/scale.py has the
    same runs against a baseline binary, larger files and --mem).

Prints tables; never fails on timing (make bench)."""
import json
import os
import subprocess
import sys
import tempfile
import time

SUFFIX = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "K": 1000,
          "M": 10 ** 6, "G": 10 ** 9}


def load_profile(path):
    prof = {}
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if "=" not in line:
            continue
        key, val = (x.strip() for x in line.split("=", 1))
        for s, mult in sorted(SUFFIX.items(), key=lambda x: -len(x[0])):
            if val.endswith(s) and val[:-len(s)].isdigit():
                val = int(val[:-len(s)]) * mult
                break
        else:
            try:
                val = int(val)
            except ValueError:
                pass
        prof[key] = val
    return prof


def bound(prof, qd, bs, l1_ns):
    caps = [qd / (l1_ns / 1e9)]
    prog = prof["units"] * prof["page_bytes"] / (prof["program_ns"] / 1e9)
    caps.append(prog / bs if prof.get("page_merge", 1) else
                prof["units"] / (prof["program_ns"] / 1e9))
    caps.append(prof["link_write_bytes_per_sec"] / bs)
    if prof.get("fw_ns", 0):
        caps.append(1e9 / prof["fw_ns"])
    return min(caps)


def device_l1(prof, bs):
    p = prof.get("tail_ppm", 0) / 1e6
    jitter = (1 - p) * max(prof.get("jitter_ns", 0) - 1, 0) / 2 + \
        p * prof.get("tail_ns", 0)
    return (prof["cmd_ns"] + prof.get("fw_ns", 0) +
            bs / prof["link_write_bytes_per_sec"] * 1e9 +
            prof.get("cache_ack_ns", 0) + jitter)


LAST_RSS_KIB = [0]


def fio(wpsim, args):
    """Run wpsim fio; (JSON, host seconds, error).  LAST_RSS_KIB gets the
    run's own peak RSS (GNU time's %M, when /usr/bin/time is there)."""
    cmd = [wpsim, "fio", "--output-format=json"] + args
    with tempfile.NamedTemporaryFile("r") as rss:
        if os.path.exists("/usr/bin/time"):
            cmd = ["/usr/bin/time", "-f", "%M", "-o", rss.name] + cmd
        t0 = time.monotonic()
        r = subprocess.run(cmd, capture_output=True, text=True)
        secs = time.monotonic() - t0
        text = rss.read().strip().split()
        LAST_RSS_KIB[0] = int(text[-1]) if text and \
            text[-1].isdigit() else 0
    if r.returncode:
        return None, secs, r.stderr.strip()
    return json.loads(r.stdout), secs, ""


def write_of(j):
    return j["jobs"][0]["write"]


def part_a(wpsim, root, quick):
    print("(a) O_DIRECT 4 KiB randwrite, ext4, numjobs = QD x psync, "
          "8 CPUs; IOPS vs min(QD/L1, program, link, fw)")
    qds = [1, 4, 16, 64, 256] if quick else [1, 2, 4, 8, 16, 32, 64, 128,
                                                256]
    devdir = os.path.join(root, "profiles", "devices")
    for name in sorted(os.listdir(devdir)):
        if not name.endswith(".dev"):
            continue
        dev = name[:-4]
        prof = load_profile(os.path.join(devdir, name))
        tags = prof["queue_depth"] * min(prof["nr_hw_queues"], 8)
        l1 = None
        print(f"  {dev}: device-only L1 {device_l1(prof, 4096) / 1e3:.2f} us,"
              f" cache {prof.get('cache_bytes', 0) >> 20} MiB")
        for qd in qds:
            if qd > tags:
                print(f"    QD {qd:3}: beyond the {tags} tags")
                continue
            # Steady state: time_based, after a ramp that fills the
            # cache (its slots at the excess of the link rate over the
            # program rate, bounded), then 100 ms measured.
            prog = prof["units"] * prof["page_bytes"] / \
                (prof["program_ns"] / 1e9)
            accept = min(prof["link_write_bytes_per_sec"],
                         qd * 4096 / (device_l1(prof, 4096) / 1e9))
            cache = prof.get("cache_bytes", 0)
            fill_s = cache / (accept - prog) if accept > prog else 0
            ramp_ms = min(int(fill_s * 1000 * 1.5) + 5, 4000)
            run_ms = 25 if quick else 100
            args = ["--name=a", "--rw=randwrite", "--bs=4k", "--size=256k",
                    "--direct=1", "--fs=ext4", "--overwrite=1",
                    "--filename=f", f"--numjobs={qd}", "--group_reporting",
                    f"--device={dev}", "--time_based",
                    f"--ramp_time={ramp_ms}ms", f"--runtime={run_ms}ms"]
            j, secs, err = fio(wpsim, args)
            if not j:
                print(f"    QD {qd:3}: failed: {err}")
                continue
            w = write_of(j)
            if qd == 1:
                l1 = w["clat_ns"]["mean"]
            iops = w["iops"]
            burst = ""
            if fill_s > 0.002:
                jb, _, _ = fio(wpsim, args[:11] + [
                    "--time_based", f"--runtime={max(int(fill_s * 500), 2)}ms"])
                if jb:
                    burst = f", first {max(int(fill_s * 500), 2)} ms " \
                        f"{write_of(jb)['iops']:8.0f} (cache burst)"
            b = bound(prof, qd, 4096, l1)
            line = (f"    QD {qd:3}: {iops:9.0f} IOPS, bound {b:9.0f}, "
                    f"{(iops / b - 1) * 100:+6.1f}%{burst}; host "
                    f"{secs:5.1f} s, {w['total_ios'] / secs * (ramp_ms + run_ms) / run_ms:7.0f} I/O per host s")
            print(line)
            continue
            b = bound(prof, qd, 4096, l1)
            line = (f"    QD {qd:3}: {iops:10.0f} IOPS (whole run "
                    f"{w['iops']:10.0f}), bound {b:10.0f}, "
                    f"{(iops / b - 1) * 100:+6.1f}%  host {secs:5.1f} s, "
                    f"{w['total_ios'] / secs:8.0f} I/O per host s")
            print(line)
    print("  flushes (buffered XFS, 4 KiB seq write, 256 KiB x 4):")
    for dev in ("enterprise-plp", "consumer-vwc", "virtio-vm"):
        row = []
        for extra in ([], ["--fsync=1"], ["--sync=dsync"]):
            j, _, err = fio(wpsim, ["--name=f", "--rw=write", "--bs=4k",
                                    "--size=256k", "--io_size=64m",
                                    f"--device={dev}"] + extra)
            row.append(f"{write_of(j)['iops']:9.0f}" if j else "failed")
        print(f"    {dev:15}: none {row[0]} IOPS, fsync=1 {row[1]}, "
              f"sync=dsync {row[2]}")


def part_b(wpsim):
    print("(b) seed 004: 4 KiB sequential buffered writes, QD1, "
          "enterprise-plp (seed: io-wq 82k IOPS clat 9017 ns -> inline "
          "264k IOPS clat 60 ns)")
    base = ["--name=s", "--rw=write", "--bs=4k", "--size=256k",
            "--io_size=256m", "--time_based", "--runtime=200ms"]
    for label, extra in (("io_uring, inline NOWAIT (uring=merged)",
                          ["--ioengine=io_uring"]),
                         ("io_uring, every write to io-wq (uring=punt)",
                          ["--ioengine=io_uring", "--variant",
                           "uring=punt"]),
                         ("psync", ["--ioengine=psync"])):
        j, secs, err = fio(wpsim, base + extra)
        if not j:
            print(f"  {label}: failed: {err}")
            continue
        w = write_of(j)
        print(f"  {label:45}: {w['iops']:10.0f} IOPS, slat "
              f"{w['slat_ns']['mean']:7.0f} ns, clat "
              f"{w['clat_ns']['mean']:7.0f} ns  (host {secs:.1f} s)")


def part_c(wpsim, quick):
    print("(c) scale: 32 jobs, buffered 4 KiB randwrite, one 256 KiB file, "
          "writeback (periodic flusher, fsync every 64), enterprise-plp")
    n = 20000 if quick else 1000000
    for total in (n, 4 * n):
        per_job = total // 32
        args = ["--name=c", "--rw=randwrite", "--bs=4k", "--size=256k",
                f"--io_size={per_job * 4}k", "--numjobs=32",
                "--filename=f", "--fsync=64", "--group_reporting"]
        j, secs, err = fio(wpsim, args)
        rss = LAST_RSS_KIB[0]
        if not j:
            print(f"  {total} writes: failed: {err}")
            continue
        w = write_of(j)
        print(f"  {w['total_ios']:8} writes: host {secs:6.1f} s, "
              f"{w['total_ios'] / secs:9.0f} simulated writes per host s, "
              f"peak RSS {rss / 1024:.0f} MiB, "
              f"virtual {j['jobs'][0]['job_runtime']} ms, "
              f"{w['iops']:.0f} IOPS")


def main():
    wpsim, root = sys.argv[1], sys.argv[2]
    quick = "--quick" in sys.argv
    only = [a for a in sys.argv[3:] if a in ("a", "b", "c")]
    print(f"bench/fio-device.py ({'quick' if quick else 'full'}); "
          f"{os.uname().machine}, {os.cpu_count()} host CPUs")
    if not only or "a" in only:
        part_a(wpsim, root, quick)
    if not only or "b" in only:
        part_b(wpsim)
    if not only or "c" in only:
        part_c(wpsim, quick)


if __name__ == "__main__":
    main()
