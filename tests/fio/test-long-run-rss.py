#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/fio/test-long-run-rss.py WPSIM - a long timed run's peak RSS
follows what it holds, not its length (TAP; issue 28 B1.5, session 22).

Session 20's leak (docs/performance.md, "where the instructions go, a
regression found": every writeback bio's 6 KiB bvec table left to the
arena's bump, 7.37 GB peak RSS on the 4 GiB iolog) was caught by no
test.  This one runs the same random buffered 4 KiB psync writes twice,
over a 256 MiB file with the page cache limited to 32 MiB (`--mem 32m
--ram 1g`: background writeback and reclaim from the first few thousand
writes, about a writeback bio and an ioend a write), SHORT and LONG
writes long, each wpsim its own child, and reads each child's own peak
RSS from wait4's rusage (no /usr/bin/time needed).  What the model
holds (folios up to --mem, the block map and the device's ids of the
blocks written, at most the file's 65 536) is about the same at both
lengths: 13.7 MiB at both on main (session 22).  It fails when:

  - either run fails;
  - the long run's peak RSS is past 256 MiB (issue 28's bound at
    `--ram 1g`);
  - the long run's peak RSS is more than RATIO times the short run's.

On the leaky arena (sim/arena.c without session 21's recycling of
blocks of 4-16 KiB: BIG_MAX set to SIM_ARENA_RECYCLE_MAX) the two runs
held 158.2 and 483.1 MiB (3.05 times): checks 2 and 3 fail.

Both lengths together: 0.8 host CPU s, 2.5 s of wall time at load 12."""
import os
import subprocess
import sys
import tempfile

SHORT, LONG = 20000, 160000
RATIO = 1.25
CAP_KIB = 256 * 1024


def run(wpsim, n):
    """(exit code, peak RSS KiB, host CPU s, stderr tail) of one run."""
    cmd = [wpsim, "fio", "--name=r", "--rw=randwrite", "--bs=4k",
           "--ioengine=psync", "--size=256m", "--mem", "32m",
           "--ram", "1g", f"--number_ios={n}", "--output-format=json"]
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        err.seek(0)
        tail = err.read().decode(errors="replace").strip().splitlines()
    return (os.waitstatus_to_exitcode(status), ru.ru_maxrss,
            ru.ru_utime + ru.ru_stime, tail[-1:] if tail else [])


def main():
    if len(sys.argv) < 2:
        print("usage: test-long-run-rss.py WPSIM", file=sys.stderr)
        return 2
    wpsim = sys.argv[1]
    print("1..3")
    short = run(wpsim, SHORT)
    long_ = run(wpsim, LONG)
    ok = short[0] == 0 and long_[0] == 0
    print(f"{'ok' if ok else 'not ok'} 1 - both runs succeed "
          f"({SHORT} writes: exit {short[0]}, {LONG}: exit {long_[0]})")
    if not ok:
        for r in (short, long_):
            for line in r[3]:
                print(f"# {line}")
    for n, r in ((SHORT, short), (LONG, long_)):
        print(f"# {n} writes: peak RSS {r[1] / 1024:.1f} MiB, "
              f"{r[2]:.2f} host CPU s")
    ok = long_[1] <= CAP_KIB
    print(f"{'ok' if ok else 'not ok'} 2 - {LONG} writes' peak RSS "
          f"{long_[1] / 1024:.1f} MiB <= 256 MiB")
    ratio = long_[1] / short[1] if short[1] else float("inf")
    ok = ratio <= RATIO
    print(f"{'ok' if ok else 'not ok'} 3 - peak RSS at {LONG} writes "
          f"is {ratio:.2f} times {SHORT}'s (at most {RATIO})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
