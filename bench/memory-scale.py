#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/memory-scale.py WPSIM [--sizes 1g,16g,64g] [--runtime 1s]
[--ram 1g] [--throttle-ram 16g,256m] [--per-page-repeat 3]
[--rw write,randwrite] [--only per-page|sizes|one-writer]
[--extra 'FIO-OPTIONS']
- memory against file
size, host speed, and dirty
throttling of long timed runs (issue 28: "memory that follows the cache,
not the file").

First the bytes of model state per cached 4 KiB page (issue 28: at most
256): the growth of peak RSS from a 64 MiB to a 1 GiB sequential
buffered 4 KiB write at the default --ram (every page stays cached:
245 760 more folios), each run --per-page-repeat times and the median
taken (the peak RSS moves by a few hundred KiB from run to run with the
host's huge pages).  --only per-page stops there.  --per-page-repeat 0
leaves it out.

For each --ram R (the machine's memory; the page cache is limited to it
with --mem R, since --ram alone sets only the dirty limits), each file
size and each of rw=write and rw=randwrite (bs=4k, psync, one job,
time_based for --runtime of virtual time, so that a 64 GiB file does not
take hours): the child's peak RSS and its host CPU seconds (user +
system), both from /usr/bin/time -v, the virtual seconds and I/Os it
simulated (wpsim fio --speed), and from them the simulation speed factor
(virtual s per host CPU s) and writes per host CPU second; then fio's
bandwidth line, and wpsim's dirty-throttling line when it printed one
(pauses, clean pages reclaimed).  --rw names the directions (default
both); --extra adds fio options to these rows (space-separated, e.g.
'--norandommap': fio's random map left out, in wpsim as in fio);
--only sizes stops after these rows.

Then throttling: four sequential buffered 4 KiB writers (numjobs=4,
group_reporting; one writer of the model is no faster than the default
device, so its dirty pages never pass the background threshold) for
--runtime at each --throttle-ram R (--ram R --mem R): fio's aggregate
bandwidth, and wpsim's dirty-throttling line (pauses, dirty pages at most,
clean pages reclaimed).  At 256m the writers are held to the device's
rate by balance_dirty_pages' pauses.

Then one writer held to its device's rate (one_writer(): 1 MiB writes
on the default device, 4 KiB writes on a device with a 400 MB/s link),
at each --throttle-ram R.  --only one-writer runs these rows alone.

Then O_DIRECT 4 KiB QD1 (ext4, randwrite, --fs=ext4 --direct=1) the same
way.

Never fails on timing or memory (bench/ only measures; the figures go in
docs/performance.md with the machine, its load and the date).
"""
import re
import subprocess
import sys


def parse_args(argv):
    opts = {"sizes": "1g,16g,64g", "runtime": "1s", "ram": "1g",
            "throttle-ram": "16g,256m", "per-page-repeat": "3",
            "only": "", "rw": "write,randwrite", "extra": ""}
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
    """(peak RSS MiB, host CPU s, virtual s, I/Os, bandwidth text,
    dirty-throttling line)."""
    p = subprocess.run(["/usr/bin/time", "-v", wpsim, "fio"] + args +
                       ["--speed"], capture_output=True, text=True)
    # /usr/bin/time -v: this child's own peak RSS and CPU time.
    rss_m = re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                      p.stderr)
    usr = re.search(r"User time \(seconds\): ([0-9.]+)", p.stderr)
    sys_ = re.search(r"System time \(seconds\): ([0-9.]+)", p.stderr)
    rss = int(rss_m.group(1)) / 1024.0 if rss_m else 0.0
    cpu = (float(usr.group(1)) if usr else 0.0) + \
        (float(sys_.group(1)) if sys_ else 0.0)
    thr = re.search(r"dirty throttling: .*", p.stderr)
    thr = thr.group(0) if thr else ""
    if p.returncode != 0:
        lines = [ln for ln in p.stderr.splitlines() if "wpsim" in ln]
        return rss, cpu, None, None, lines[-1:], thr
    m = re.search(r"speed factor \S+ \(([0-9.]+) virtual s in "
                  r"([0-9.]+) host CPU s.*; ([0-9.e+]+) I/Os per host CPU s",
                  p.stderr)
    bw = re.search(r"write: (IOPS=\S+ BW=\S+)", p.stdout)
    virt = float(m.group(1)) if m else None
    # I/Os per host CPU s as wpsim measured it, times its own CPU s.
    ios = float(m.group(3)) * float(m.group(2)) if m else None
    return rss, cpu, virt, ios, bw.group(1) if bw else "?", thr


def row(label, r):
    rss, cpu, virt, ios, bw, thr = r
    if virt is None:
        print(f"{label:44s} RSS {rss:7.1f} MiB  failed: {bw}")
        return
    print(f"{label:44s} RSS {rss:7.1f} MiB  CPU {cpu:6.2f} s  "
          f"virtual {virt:5.2f} s  factor {virt / cpu:6.3f}  "
          f"{ios / cpu:9.0f} writes/CPU s  {bw}")


def peak_rss_kb(wpsim, args):
    """This child's own peak RSS (KiB) from /usr/bin/time -v."""
    p = subprocess.run(["/usr/bin/time", "-v", wpsim, "fio"] + args,
                       capture_output=True, text=True)
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    return int(m.group(1)) if m and p.returncode == 0 else None


def per_page(wpsim, repeat):
    """Bytes of peak RSS per cached page: 64 MiB against 1 GiB."""
    rss = {}
    for size in ("64m", "1g"):
        got = sorted(x for x in (peak_rss_kb(wpsim, [
            "--name=w", "--rw=write", "--bs=4k", f"--size={size}"])
            for _ in range(repeat)) if x is not None)
        rss[size] = got[len(got) // 2] if got else None
        print(f"sequential 4k write size={size:4s} default --ram: peak RSS "
              f"{', '.join(str(x) for x in got)} KiB (median "
              f"{rss[size]})")
    if rss["64m"] and rss["1g"]:
        pages = (1 << 18) - (1 << 14)
        print(f"bytes per cached page: "
              f"{(rss['1g'] - rss['64m']) * 1024 / pages:.1f} "
              f"({pages} more folios; issue 28's bound: 256)")


SLOW_LINK = 400000000	# bytes/s: the made-up device's link (one_writer)


def throttle_line(line):
    """The dirty-throttling line's pauses, peak and reclaim, short."""
    pauses = re.search(r"(\d+) pauses, (\d+) ms", line)
    most = re.search(r"dirty \+ writeback at most (\d+)", line)
    thresh = re.search(r"thresh (\d+) pages", line)
    recl = re.search(r"(\d+) clean pages reclaimed", line)
    return (f"thresh {thresh.group(1) if thresh else '?'}"
            f" pages, dirty + writeback at most "
            f"{most.group(1) if most else '?'}, "
            f"{pauses.group(1) if pauses else 0} pauses "
            f"({pauses.group(2) if pauses else 0} ms), "
            f"{recl.group(1) if recl else 0} clean pages reclaimed")


def one_writer(wpsim, o):
    """One sequential buffered writer held to the device's rate.

    A 4 KiB psync writer of the model runs at ~1.1 GB/s, below every
    named device's sequential write rate, so it never passes the dirty
    limits (the kernel's writer would not either).  Two ways to have one
    writer faster than its device: (a) 1 MiB writes (~4.4 GB/s in the
    model) on the default device, enterprise-plp, whose programs take
    3.8 GB/s [spec]; (b) 4 KiB writes on a device that is enterprise-plp
    with its link's write rate lowered to SLOW_LINK (a made-up device,
    written to a scratch file here, so that the device's rate is one
    figure: the link).  Each at every --throttle-ram R (--ram R --mem R),
    2 GiB (4 GiB for (a)) written once, not time_based: fio's bandwidth
    over the whole write, and the throttling line."""
    import os
    import tempfile
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                       "profiles", "devices", "enterprise-plp.dev")
    text = open(src).read()
    text = re.sub(r"(?m)^name = .*$", "name = slowlink", text)
    text = re.sub(r"(?m)^link_write_bytes_per_sec = .*$",
                  f"link_write_bytes_per_sec = {SLOW_LINK}", text)
    tmp = tempfile.mkdtemp()
    dev = os.path.join(tmp, "slowlink.dev")
    with open(dev, "w") as f:
        f.write(text)
    cases = [("enterprise-plp (programs 3.8 GB/s [spec])", "enterprise-plp",
              "1m", "4g"),
             (f"slowlink (link {SLOW_LINK / 1e6:.0f} MB/s)", dev, "4k",
              "2g")]
    for label, device, bs, size in cases:
        for ram in o["throttle-ram"].split(","):
            args = ["--name=j", "--ioengine=psync", f"--bs={bs}",
                    "--rw=write", f"--size={size}", "--device", device,
                    "--ram", ram, "--mem", ram]
            r = run(wpsim, args)
            row(f"one writer bs={bs} --ram {ram} on {label}", r)
            print(f"    throttling: {throttle_line(r[5])}")
    os.unlink(dev)
    os.rmdir(tmp)


def main():
    wpsim, o = parse_args(sys.argv[1:])
    if int(o["per-page-repeat"]) > 0:
        per_page(wpsim, int(o["per-page-repeat"]))
    if o["only"] == "per-page":
        return
    if o["only"] == "one-writer":
        one_writer(wpsim, o)
        return
    for ram in o["ram"].split(","):
        for size in o["sizes"].split(","):
            for rw in o["rw"].split(","):
                args = ["--name=j", "--ioengine=psync", "--bs=4k",
                        f"--rw={rw}", f"--size={size}", "--ram", ram,
                        "--mem", ram, f"--runtime={o['runtime']}",
                        "--time_based"] + o["extra"].split()
                r = run(wpsim, args)
                row(f"--ram {ram} --mem {ram} {rw} size={size}", r)
                if r[5]:
                    print(f"    {r[5]}")
    if o["only"] == "sizes":
        return
    for ram in o["throttle-ram"].split(","):
        args = ["--name=j", "--ioengine=psync", "--bs=4k", "--rw=write",
                "--size=2g", "--numjobs=4", "--group_reporting",
                "--ram", ram, "--mem", ram, f"--runtime={o['runtime']}",
                "--time_based"]
        r = run(wpsim, args)
        row(f"--ram {ram} --mem {ram} write numjobs=4", r)
        print(f"    throttling: {throttle_line(r[5])}")
    one_writer(wpsim, o)
    args = ["--name=j", "--ioengine=psync", "--bs=4k", "--rw=randwrite",
            "--size=1g", "--direct=1", "--fs=ext4",
            f"--runtime={o['runtime']}", "--time_based"]
    row("O_DIRECT ext4 randwrite QD1 size=1g", run(wpsim, args))


if __name__ == "__main__":
    main()
