#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/diff-kernel/ilock-probe.py - RWF_NOWAIT against a held XFS ILOCK
on the running kernel (issue 30 item 6, Build item 3; root, not CI).

The question: does an XFS RWF_NOWAIT O_DIRECT request that finds the
inode's ILOCK held return -EAGAIN (v6.18 xfs_ilock_for_iomap:
xfs_ilock_nowait under IOMAP_NOWAIT) rather than wait?  The model's
answer (tests/fidelity/item06-nowait-ilock.litmus) is Sometimes.

Forcing the interleaving: the ILOCK must be held for long, by a task
that does not hold the IOLOCK (else the request fails at the IOLOCK,
for another reason).  Writeback of delayed allocations does exactly
that: xfs_bmapi_convert_delalloc takes the ILOCK exclusive and, for the
first allocation in an allocation group after a fresh mount, reads the
AGF and the free-space btree blocks from the device with it held.  The
writeback runs in the context of the task that calls fsync, so putting
that task (T) in a blkio cgroup whose reads and writes of the loop
device are throttled to a few per second makes each of those reads
slow while T holds the ILOCK.  Meanwhile another task (W, not
throttled) sends RWF_NOWAIT O_DIRECT requests for blocks of the same
file that are already written:

  reads  (preadv2): no timestamp update, the IOLOCK shared (free), no
         cached pages in the range: the only source of -EAGAIN left is
         the ILOCK (xfs_read_iomap_begin -> xfs_ilock_for_iomap);
  writes (pwritev2, an overwrite, after futimens): also the IOLOCK
         shared for an aligned overwrite; the timestamps are made
         current first (futimens, which itself needs the ILOCK), so a
         write's -EAGAIN may also be a tick of the clock between the
         two calls: the control run measures that.

A control phase runs the same requests for the same time with T idle.
Output: counts of each phase and the longest blocking O_DIRECT read
while T syncs (how long the lock was held, seen from outside).

  ilock-probe.py [--seconds S] [--iops N] [--out FILE]
"""

import argparse
import ctypes
import mmap
import os
import subprocess
import sys
import tempfile
import time

CG = "/sys/fs/cgroup/blkio/wpsim-ilock-probe"
MB = 1 << 20
BS = 4096


def sh(*cmd):
    subprocess.run(cmd, check=True)


def setup(tmp):
    img = os.path.join("/dev/shm", "wpsim-ilock-probe.img")
    with open(img, "wb") as f:
        f.truncate(1 << 30)
    # No per-AG reservations (reflink, rmapbt, finobt): else the mount
    # reads every AGF and its btrees (xfs_ag_resv_init) and they stay hot.
    sh("mkfs.xfs", "-q", "-f", "-b", "size=4096", "-d", "agcount=4",
       "-m", "reflink=0,rmapbt=0,finobt=0", img)
    mnt = os.path.join(tmp, "mnt")
    os.makedirs(mnt)
    sh("mount", "-o", "loop,noatime", img, mnt)
    return img, mnt


def loopdev(img):
    out = subprocess.run(["losetup", "-j", img], capture_output=True,
                         text=True, check=True).stdout
    dev = out.split(":")[0]
    st = os.stat(dev)
    return dev, "%d:%d" % (os.major(st.st_rdev), os.minor(st.st_rdev))


def aligned(n):
    return mmap.mmap(-1, n)


def phase(path, seconds, fsync_child=None):
    """NOWAIT O_DIRECT reads and writes of the written first 4 MiB for
    @seconds (or until the child's fsync ends): counts."""
    fd = os.open(path, os.O_RDWR | os.O_DIRECT)
    buf = aligned(BS)
    c = {"read_ok": 0, "read_eagain": 0, "write_ok": 0, "write_eagain": 0,
         "other": 0, "block_read_max_ms": 0.0}
    end = time.time() + seconds
    i = 0
    while time.time() < end:
        if fsync_child is not None and fsync_child.poll() is not None:
            break
        off = (i * 7 % 1024) * BS
        i += 1
        try:
            os.preadv(fd, [buf], off, os.RWF_NOWAIT)
            c["read_ok"] += 1
        except BlockingIOError:
            c["read_eagain"] += 1
        except OSError:
            c["other"] += 1
        os.utime(fd)            # futimens(fd, NULL): times current
        try:
            os.pwritev(fd, [buf], off, os.RWF_NOWAIT)
            c["write_ok"] += 1
        except BlockingIOError:
            c["write_eagain"] += 1
        except OSError:
            c["other"] += 1
        if i % 5 == 0:
            t = time.time()
            os.preadv(fd, [buf], off, 0)
            c["block_read_max_ms"] = max(c["block_read_max_ms"],
                                         (time.time() - t) * 1000)
    os.close(fd)
    return c


CHILD = r'''
import os, sys
open(sys.argv[1] + "/cgroup.procs", "w").write(str(os.getpid()))
fd = os.open(sys.argv[2], os.O_RDWR)
buf = b"x" * (1 << 20)
for k in range(int(sys.argv[3])):
    os.pwrite(fd, buf, (64 << 20) + (k << 21))   # one delalloc extent each
sys.stdout.write("written\n"); sys.stdout.flush()
sys.stdin.readline()
os.fsync(fd)
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--iops", type=int, default=4)
    ap.add_argument("--extents", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out")
    args = ap.parse_args()
    if os.geteuid() != 0 or not os.path.isdir("/sys/fs/cgroup/blkio"):
        print("ilock-probe: needs root and the cgroup v1 blkio controller")
        return 77
    tmp = tempfile.mkdtemp(prefix="wpsim-ilock-probe-")
    img, mnt = setup(tmp)
    out = open(args.out, "a") if args.out else sys.stdout
    path = os.path.join(mnt, "b")
    try:
        os.makedirs(CG, exist_ok=True)
        dev, mm = loopdev(img)
        print("# ilock-probe: kernel %s, %s, XFS 4 KiB (reflink=0,rmapbt=0,finobt=0) on %s (%s), "
              "T throttled to %d reads and writes/s" %
              (os.uname().release,
               time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), dev, mm,
               args.iops), file=out)
        for rnd in range(args.rounds):
            # A written 4 MiB file; a fresh mount: the AG headers cold.
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_DIRECT, 0o600)
            big = aligned(4 * MB)
            os.pwrite(fd, big, 0)
            os.fsync(fd)
            os.close(fd)
            sh("umount", mnt)
            with open("/proc/sys/vm/drop_caches", "w") as f:
                f.write("3\n")
            sh("mount", "-o", "loop,noatime", img, mnt)
            dev, mm = loopdev(img)
            for knob in ("read_iops_device", "write_iops_device"):
                with open(os.path.join(CG, "blkio.throttle." + knob),
                          "w") as f:
                    f.write("%s %d\n" % (mm, args.iops))
            # Load the inode and its extents unthrottled (W's open).
            fd = os.open(path, os.O_RDWR | os.O_DIRECT)
            os.preadv(fd, [aligned(BS)], 0, 0)
            os.close(fd)
            ctl = phase(path, args.seconds / 2)
            child = subprocess.Popen([sys.executable, "-c", CHILD, CG, path,
                                      str(args.extents)],
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
            child.stdout.readline()
            child.stdin.write("go\n")
            child.stdin.flush()
            t0 = time.time()
            held = phase(path, args.seconds, child)
            child.wait()
            dt = time.time() - t0
            print("round %d control (T idle, %.0f s): %s" %
                  (rnd, args.seconds / 2, ctl), file=out)
            print("round %d T fsync (%.1f s): %s" % (rnd, dt, held),
                  file=out)
            out.flush()
            os.unlink(path)
    finally:
        subprocess.run(["umount", mnt])
        try:
            os.rmdir(CG)
        except OSError:
            pass
        os.unlink(img)
        os.rmdir(os.path.join(tmp, "mnt"))
        os.rmdir(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
