#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/untar-strace.py OUT [--files N] [--threads T] [--batch B]
[--dir D] [--seed S] - write a generated strace (strace -f -tt -T -y
text) of an untar-like workload, for `wpsim replay` at scale (issue 28):

T threads (pids 20001..) share N files round-robin.  Each thread, in
batches of B of its files: opens each with O_CREAT|O_EXCL (B open at
once on that thread, T * B in all), writes it whole in 8 KiB write(2)
calls (1 to 64 KiB, from a seeded generator; the last write partial),
closes them; after its last batch it unlinks its files (an rm -r).
Every call succeeds and lasts 8-30 us; the threads' calls interleave in
time.  No fsync: tar does not sync.

The calls are the ones `wpsim replay` models (openat, write, close,
unlink), so every record is used: tests/replay/test-replay-files.sh and
bench/replay-files.py check that the report's used/skipped table says
so."""
import argparse
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=4096)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--dir", default="/tmp/untar/d")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.files < 1 or a.threads < 1 or a.batch < 1:
        ap.error("--files, --threads and --batch must be at least 1")
    if 10 + a.threads * a.batch >= 4096:
        ap.error("threads * batch too large for fds below 4096")
    rng = random.Random(a.seed)
    events = []  # (start_us, seq, pid, text)
    seq = 0
    for k in range(a.threads):
        pid = 20001 + k
        mine = list(range(k, a.files, a.threads))
        fd0 = 10 + k * a.batch
        t = 1000 + k * 7  # us after the start
        for b in range(0, len(mine), a.batch):
            batch = mine[b:b + a.batch]
            fds = {}
            for j, i in enumerate(batch):
                path = "%s/f%05d" % (a.dir, i)
                fd = fd0 + j
                fds[i] = fd
                dur = rng.randint(15, 30)
                events.append((t, seq, pid,
                               'openat(AT_FDCWD<%s>, "%s", O_WRONLY|O_CREAT|'
                               'O_EXCL|O_NOCTTY|O_NONBLOCK|O_CLOEXEC, 0644) '
                               '= %d<%s> <%s>' % (a.dir, path, fd, path,
                                                  "%.6f" % (dur / 1e6))))
                seq += 1
                t += dur + rng.randint(2, 9)
                size = rng.randint(1, 16) * 4096 - rng.randint(0, 4095)
                left = size
                while left > 0:
                    n = min(8192, left)
                    dur = rng.randint(8, 20)
                    events.append((t, seq, pid,
                                   'write(%d<%s>, "\\0\\0\\0\\0"..., %d) = %d '
                                   '<%s>' % (fd, path, n, n,
                                             "%.6f" % (dur / 1e6))))
                    seq += 1
                    t += dur + rng.randint(1, 5)
                    left -= n
            for i in batch:
                path = "%s/f%05d" % (a.dir, i)
                dur = rng.randint(8, 14)
                events.append((t, seq, pid, 'close(%d<%s>) = 0 <%s>' %
                               (fds[i], path, "%.6f" % (dur / 1e6))))
                seq += 1
                t += dur + rng.randint(1, 5)
        for i in mine:
            path = "%s/f%05d" % (a.dir, i)
            dur = rng.randint(10, 25)
            events.append((t, seq, pid, 'unlink("%s") = 0 <%s>' %
                           (path, "%.6f" % (dur / 1e6))))
            seq += 1
            t += dur + rng.randint(1, 5)
    events.sort()
    with open(a.out, "w") as f:
        for t, _, pid, text in events:
            s, us = divmod(t, 1000000)
            f.write("%d 12:%02d:%02d.%06d %s\n" % (pid, s // 60 % 60,
                                                   s % 60, us, text))


if __name__ == "__main__":
    main()
