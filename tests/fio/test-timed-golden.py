#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/fio/test-timed-golden.py WPSIM SOURCE-ROOT [--regen] - timed
figures of a few small `wpsim fio` runs, pinned (TAP).

A regression pin, not evidence that a figure is right: each case in
tests/fio/timed-golden/ is a `NAME.args` line (wpsim fio's arguments)
and a `NAME.json` with the figures the run printed when it was pinned
(per job and direction: I/Os, bytes, bandwidth, IOPS, clat and lat
min/max/mean/stddev; the sync count and latency).  Timed runs are
deterministic, so the test compares them exactly.  The cases are runs
where tasks wait on each other's locks or folios, where moving a lock
release or an access by one step changes a figure by a few nanoseconds
and nothing else: seed 65519's #75, #96 and #111 (docs/reliability.md)
survived the mutation run because no test looked at timed figures
under contention.  The cases: two BLKDISCARDs on one device; on one
XFS file two jobs fsyncing, fdatasyncing (writeback tagging under
xa_lock), writing buffered (the IOLOCK), with RWF_DONTCACHE (the drop
after writeback), throttled by balance_dirty_pages (`--ram=2m`), and
io_uring buffered writes at QD4 (IOLOCK trylock, punt to io-wq); XFS
O_DIRECT unaligned writes (IOLOCK exclusive) and extending ones
(i_flags_lock at completion) from two jobs; ext4 O_DIRECT writes
extending a file (`i_data_sem`) and libaio QD4 from two jobs (the
unwritten conversion in the dio kworkers); and on a device whose
profile sets `wbt_lat_usec` (wbt.dev here: enterprise-plp with blk-wbt
on, as the calibrated virtio-vm-cal.dev has it) one job fsyncing every
16 writes and two throttled by balance_dirty_pages (seed 66206's #9:
blk-wbt not set up for such a device changed no test); two jobs' random
writes to their own files under `--mem=16m`, each reclaiming while the
other reads NR_FILE_PAGES for its own limit test (seed 66206's #8: the
page cache's two counters updated in the other order); io_uring writes
under `--variant uring=v1` past the dirty limits, 7 held for a deadline
and re-issued by its timer (seed 66206's #45: the timer's task_lock pair
deleted).  A `NAME.run`
case replays a scenario on one schedule (`wpsim run`, one CPU) and pins
its virtual end time and each call's return time: truncate-to-0 (a
dirty page truncated away, then the file grown and read back; seed
66206's #23: truncate_inode_pages_range's first pass leaving every
folio to the second changed no answer, only the truncate's time) and
munmap-then-store (scenarios/mm/unmap-vs-writeback.litmus on schedule 0:
munmap, then a store and a writeback; seed 66206's #29: munmap's write
of `mmapped`, a word nothing reads, deleted: 1 ns less) and
uring-nowait-vs-store (uring-nowait-vs-store.litmus here: a store
sleeping on the folio lock an io_uring NOWAIT write's failed
write_begin holds; seed 66206's #40: the folio put before the unlock).
ext4-truncate-then-read (scenarios/review/ext4-read-rereads-i-size.litmus
on schedule 0: an ext4 truncate to 0, then a buffered read; seed 66206's
#68: the truncate's invalidate_lock pair deleted, 15 ns less) and
short-write-scan-vs-store (short-write-scan-vs-store.litmus here: a
store sleeping on the folio a short write's delalloc scan holds; seed
66206's #71: the put before the unlock) and uring-nowait-vs-two-stores
(a second store sleeping on the folio the first store's fault holds
while it finds it not uptodate; seed 66206's #75) and
punch-end-folio-vs-store (a store sleeping on a punch's partial end
folio; seed 66206's #83) and truncate-remove-vs-flusher (a flusher
spinning on the i_lock a truncate's folio removal holds; seed 66206's
#92: i_lock released before xa_lock).  The wake-ups are
pinned too: who wakes whom, when.  bdev-randwrite-verify: random
buffered writes to the block device read back by verify, whose reads
hit PG_readahead folios off the expected index (page_cache_async_ra's
interleaved-stream path; seed 71206's #53: its test negated).
docs/reliability.md lists the mutant each case was shown to kill.

A change to the model's timing changes these figures on purpose:
regenerate them with `--regen` (tools/regen-witness.sh does) and say
in the commit what moved.
"""
import json
import os
import subprocess
import sys
import tempfile

wpsim, root = os.path.abspath(sys.argv[1]), sys.argv[2]
regen = "--regen" in sys.argv[3:]
cases = os.path.join(root, "tests", "fio", "timed-golden")


def figures(doc):
    out = []
    for j in doc["jobs"]:
        job = {"jobname": j["jobname"]}
        for d in ("read", "write", "trim"):
            r = j[d]
            if not r["total_ios"]:
                continue
            job[d] = {
                "total_ios": r["total_ios"], "io_bytes": r["io_bytes"],
                "bw_bytes": r["bw_bytes"], "iops": r["iops"],
                "clat_ns": {k: r["clat_ns"][k]
                            for k in ("min", "max", "mean", "stddev")},
                "lat_ns": {k: r["lat_ns"][k]
                           for k in ("min", "max", "mean", "stddev")},
            }
        s = j.get("sync", {})
        if s.get("total_ios"):
            job["sync"] = {"total_ios": s["total_ios"],
                           "lat_ns": {k: s["lat_ns"][k] for k in
                                      ("min", "max", "mean", "stddev")}}
        out.append(job)
    return out


def run_figures(text):
    """A `wpsim run --schedule S` replay's times: when the execution
    ends in virtual time and when each call returns."""
    return [" ".join(l.split()) for l in text.splitlines()
            if l.startswith("Virtual time:") or " returns from " in l
            or " wake " in l]


names = sorted(f[:-5] for f in os.listdir(cases) if f.endswith(".args"))
names += sorted(f[:-4] for f in os.listdir(cases) if f.endswith(".run"))
print("1..%d" % len(names))
failed = 0
for i, name in enumerate(names, 1):
    # NAME.args: `wpsim fio` arguments; NAME.run: `wpsim run` arguments
    # (a scenario replayed on one schedule: its calls' return times).
    # @CASES@: this directory (a case's own device profile, wbt.dev);
    # @ROOT@: the source tree (a scenario).
    kind = "fio" if os.path.exists(os.path.join(cases, name + ".args")) \
        else "run"
    args = [a.replace("@CASES@", os.path.abspath(cases))
            .replace("@ROOT@", os.path.abspath(root)) for a in
            open(os.path.join(cases, name + (".args" if kind == "fio" else
                                             ".run"))).read().split()]
    extra = ["--output-format=json"] if kind == "fio" else []
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([wpsim, kind] + args + extra,
                           cwd=tmp, capture_output=True, text=True)
    if r.returncode != 0:
        print("not ok %d - %s: wpsim %s exit %d" % (i, name, kind,
                                                    r.returncode))
        for l in r.stderr.splitlines()[-5:]:
            print("# " + l)
        failed += 1
        continue
    got = figures(json.loads(r.stdout)) if kind == "fio" else \
        run_figures(r.stdout)
    path = os.path.join(cases, name + ".json")
    if regen:
        with open(path, "w") as f:
            json.dump(got, f, indent=1, sort_keys=True)
            f.write("\n")
        print("ok %d - %s: regenerated" % (i, name))
        continue
    want = json.load(open(path))
    if got == want:
        print("ok %d - %s: the pinned figures" % (i, name))
        continue
    failed += 1
    print("not ok %d - %s: figures differ from the pinned ones "
          "(a timing change? regenerate with --regen and say why)" % (i, name))
    gj, wj = json.dumps(got, sort_keys=True), json.dumps(want, sort_keys=True)
    print("# got:  " + gj[:400])
    print("# want: " + wj[:400])
sys.exit(1 if failed else 0)
