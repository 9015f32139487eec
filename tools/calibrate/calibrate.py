#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/calibrate/calibrate.py - `make calibrate`: measure this machine's
kernel with a fixed set of small, named microbenchmarks and write a CPU
profile and a device profile (profiles/calibrated/NAME.cpu and NAME.dev;
`wpsim fio --device DIR/NAME.dev --cpu-profile DIR/NAME.cpu`) in the
format tools/profiles.c reads, every figure with the benchmark that
measured it and the arithmetic that made it.

Usage: calibrate.py --wpsim-build BUILD --loop DIR --name NAME
                    [--reps N] [--out-raw FILE] [--profiles DIR]
       calibrate.py --from-raw FILE [--pool FILE...] [--supplement FILE2]
                    [--without B1,B2] [--wake-preempt[=none]]
                    --name NAME [--profiles DIR]
       calibrate.py --from-raw FILE --check P1,P2 [--wpsim W]
       calibrate.py --compare RAW1 RAW2

--from-raw writes the profiles again from a kept raw file (with
--supplement, the benchmarks it lacks from a later --only run: a figure
made from a difference takes both sides from the file holding the newer
benchmark; with --pool, every benchmark's runs are those of all the
files, so a figure is the median over several sittings); --check runs
the calibration set the model can run (CHECKS) with profiles P1, P2 and
prints each against the raw file's medians.  --compare sets two runs'
figures side by side (docs/validation.md, "Two runs").

The benchmarks (BENCHES below; docs/validation.md lists them with what
each one stands for) run on the XFS loop filesystem of
tools/calibrate/loopfs.sh (the filesystem the validation rows run on),
except `loop.*`, which run on the root's ext4 to state the loop device's
own overhead, and `cpu.micro`, which is tools/calibrate/ubench.c (built
by `make calibrate` as BUILD/calibrate-ubench).  Each runs
--reps times (default 3); a figure is the median of the runs, and the
runs' spread is printed beside it.

What it never reads: experiments/validation/ (the validation grid).  Every
path and argument passes through `guard()`, which refuses one under it,
and tests/calibrate/test-calibrate.sh checks that no profile comment names
a validation row.

Models nothing and leaves out: perf-based splits (the split of the
buffered write's own CPU between the call and the folios is carried from
profiles/cpu/default.cpu's perf measurement on ext4), figures a guest
cannot measure (units, page size, cache size, the guest path in a QD1
latency, and the program time when the raw file has no `dev.flush-empty`
(added 2026-12-05, session 6): carried from the hand-fitted
virtio-vm.dev and tagged [assumption]), the block layer's CPU per bio (carried from
virtio-vm.cpu's perf measurement).
"""

import argparse
import datetime
import json
import mmap
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
VALIDATION = os.path.realpath(os.path.join(REPO, "experiments", "validation"))

PCT = "1:5:10:20:30:40:50:60:70:80:90:95:98:99:99.5:99.9"


def guard(*items):
    """Refuse any path or argument that reaches into the validation grid."""
    for it in items:
        s = str(it)
        if "experiments/validation" in s or \
                os.path.realpath(s).startswith(VALIDATION + os.sep) or \
                os.path.realpath(s) == VALIDATION:
            sys.exit("calibrate: refusing to read the validation grid (%s)"
                     % s)


def xfs_log_stat():
    """/proc/fs/xfs/stat's "log" line (every XFS mount's: the loop XFS is
    the only one here): xs_log_writes (iclog writes) and xs_log_blocks
    (512-byte basic blocks written to the log); None where it cannot be
    read."""
    try:
        with open("/proc/fs/xfs/stat") as f:
            for ln in f:
                if ln.startswith("log "):
                    v = [int(x) for x in ln.split()[1:]]
                    return v[0], v[1]
    except OSError:
        pass
    return None


def fio(args, cwd, probe=None):
    """Run fio with ARGS in CWD; return jobs[] of its json+ output.  With
    PROBE (a function), its values just before and after the measured run
    (not the layout) are kept as jobs[0]["probe"] = (before, after)."""
    guard(cwd, *args)
    # Lay the files out first (fio writes them buffered) and write them
    # back, so that the measured run does not meet a GiB of dirty layout
    # pages (written back 30 s later, or by an O_DIRECT write's range).
    subprocess.run(["fio", "--create_only=1"] + args, cwd=cwd,
                   capture_output=True)
    subprocess.run(["sync", "-f", cwd])
    cmd = ["fio", "--output-format=json+", "--percentile_list=" + PCT] + args
    before = probe() if probe else None
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    after = probe() if probe else None
    if r.returncode != 0:
        sys.exit("calibrate: fio failed: %s\n%s" % (" ".join(cmd),
                                                     r.stderr[-2000:]))
    text = r.stdout
    text = text[text.index("{"):]
    jobs = json.loads(text)["jobs"]
    if probe:
        jobs[0]["probe"] = (before, after)
    return jobs


def pct(lat, p):
    return float(lat["percentile"]["%.6f" % p])


def bins(lat):
    """(value_ns, count) pairs of fio's json+ histogram, sorted."""
    return sorted((int(k), v) for k, v in lat.get("bins", {}).items())


# ---- the benchmarks: each returns a dict of named figures (ns, B/s, ...) --

def lat_figures(d):
    """A buffered benchmark's figures from fio's JSON of one direction:
    the clat p50 and mean, the lat mean and the IOPS (since session 18:
    the CPU profile takes means, cpu_estimator; 1 / IOPS less the lat
    mean is fio's own work between I/Os, fio_io_ns)."""
    return {"clat_p50": pct(d["clat_ns"], 50),
            "clat_mean": d["clat_ns"]["mean"],
            "lat_mean": d["lat_ns"]["mean"], "iops": d["iops"]}


def b_cpu(ctx):
    out = subprocess.run([ctx.ubench], capture_output=True, text=True,
                         check=True).stdout
    return {k: float(v) for k, v in (line.split() for line in
                                     out.splitlines())}


def _layout(path, size):
    """A written file of SIZE bytes (fio overwrite layout), cached or not."""
    return ["--filename=" + path, "--size=" + size, "--overwrite=1"]


def b_buffered_overwrite(ctx):
    j = fio(["--name=bo", "--rw=randwrite", "--bs=4k", "--ioengine=psync",
             "--time_based", "--runtime=2"] +
            _layout(ctx.xfs + "/cal-cached.dat", "16m"), ctx.xfs)[0]
    return lat_figures(j["write"])


def b_buffered_overwrite_cached(ctx):
    """fs.buffered-overwrite without fio's random map (norandommap: each
    offset drawn with replacement), so the job never wraps and fio never
    drops the file's cache (fio 3.33 io_u.c loop_cache_invalidate is
    called from get_next_rand_block only when the map is spent): after
    the first few thousand writes every write finds its folio cached.
    fs.buffered-overwrite wraps every 4096 writes and drops the cache
    with posix_fadvise(DONTNEED), so most of its writes allocate a folio
    again (docs/validation.md, session 14 h14-val2)."""
    j = fio(["--name=bc", "--rw=randwrite", "--bs=4k", "--ioengine=psync",
             "--norandommap", "--time_based", "--runtime=2"] +
            _layout(ctx.xfs + "/cal-cached.dat", "16m"), ctx.xfs)[0]
    return lat_figures(j["write"])


def _buffered_alloc(ctx, bs):
    path = ctx.xfs + "/cal-fresh.dat"
    if os.path.exists(path):
        os.unlink(path)
    j = fio(["--name=ba", "--rw=write", "--bs=" + bs, "--ioengine=psync",
             "--filename=" + path, "--size=128m", "--fallocate=none"],
            ctx.xfs)[0]
    os.unlink(path)
    return lat_figures(j["write"])


def b_buffered_alloc(ctx):
    return _buffered_alloc(ctx, "4k")


def b_buffered_alloc_64k(ctx):
    """fs.buffered-alloc with 64 KiB writes: each write one fresh 64 KiB
    folio (XFS mappings take large folios, iomap_write_begin asks for the
    write's size: fs/iomap/buffered-io.c, v6.18), so against the 4 KiB
    run the same per-write and per-folio work and 60 KiB more copied into
    memory that was not cached."""
    return _buffered_alloc(ctx, "64k")


def _uring(ctx, extra):
    j = fio(["--name=u", "--rw=randwrite", "--bs=4k", "--ioengine=io_uring",
             "--iodepth=1", "--slat_percentiles=1", "--time_based",
             "--runtime=2"] + extra +
            _layout(ctx.xfs + "/cal-cached.dat", "16m"), ctx.xfs)[0]
    w = j["write"]
    return {"slat_clat_p50": pct(w["slat_ns"], 50) + pct(w["clat_ns"], 50),
            "slat_clat_mean": w["slat_ns"]["mean"] + w["clat_ns"]["mean"],
            "lat_mean": w["lat_ns"]["mean"], "iops": w["iops"]}


def b_uring_inline(ctx):
    return _uring(ctx, [])


def b_uring_punt(ctx):
    return _uring(ctx, ["--force_async=1"])


def _dio_qd1(ctx, rw, d):
    j = fio(["--name=d", "--rw=" + rw, "--bs=4k", "--direct=1",
             "--ioengine=psync", "--time_based", "--runtime=2"] +
            _layout(d + "/cal-dio.dat", "1g"), d)[0]
    side = j["read" if "read" in rw else "write"]
    lat = side["clat_ns"]
    hist = bins(lat)
    n = sum(c for _, c in hist)
    p50 = pct(lat, 50)
    tail = [(v, c) for v, c in hist if v > 2 * p50]
    nt = sum(c for _, c in tail)
    ios = side["total_ios"]
    return {"p10": pct(lat, 10), "p50": p50, "p90": pct(lat, 90),
            "tail_ppm": 1e6 * nt / n if n else 0,
            "tail_mean_extra": (sum(v * c for v, c in tail) / nt - p50)
            if nt else 0,
            "sys_ns_per_io": j["sys_cpu"] / 100 * j["job_runtime"] * 1e6 /
            ios if ios else 0}


def b_dio_qd1_write(ctx):
    return _dio_qd1(ctx, "randwrite", ctx.xfs)


def b_dio_qd1_read(ctx):
    return _dio_qd1(ctx, "randread", ctx.xfs)


def b_unwritten_dio(ctx):
    """dio.qd1-write into a fresh 1 GiB XFS file as fio's layout leaves it
    for a write job without overwrite (fallocate=native: one preallocated,
    unwritten extent; fio 3.33 filesetup.c extend_file), 2 s: every write
    lands in an unwritten block, so its completion converts it in the
    writer's own context (a synchronous O_DIRECT write: iomap_dio_complete
    -> xfs_dio_write_end_io -> xfs_iomap_write_unwritten, one transaction
    under the ILOCK that splits the unwritten extent around the block;
    fs/iomap/direct-io.c, fs/xfs/xfs_file.c, fs/xfs/xfs_iomap.c, v6.18).
    The random map never repeats a block in the run (about 20 000 of
    262 144), so the extent list grows as a random fsync job's does.
    Against dio.qd1-write of the same run (a written file: no conversion):
    the conversion's cost (unwritten_convert_ns).  A fresh file every
    run."""
    d = os.path.join(ctx.xfs, "cal-unwritten")
    guard(d)
    subprocess.run(["rm", "-rf", d])
    os.makedirs(d)
    try:
        j = fio(["--name=uw", "--rw=randwrite", "--bs=4k", "--direct=1",
                 "--ioengine=psync", "--time_based", "--runtime=2",
                 "--filename=" + os.path.join(d, "uw.dat"), "--size=1g"],
                ctx.xfs)[0]
    finally:
        subprocess.run(["rm", "-rf", d])
    lat = j["write"]["clat_ns"]
    return {"p10": pct(lat, 10), "p50": pct(lat, 50), "p90": pct(lat, 90)}


def b_unwritten_dio_seq(ctx):
    """fs.unwritten-dio written in order (since session 17, h17-dc): psync
    O_DIRECT 4 KiB sequential writes into a fresh fallocated 1 GiB XFS
    file (one unwritten extent), 2 s, and in the same run the same writes
    over a written 1 GiB file (the reference: no conversion).  Each write
    but the first converts the block after the written ones, so the
    conversion extends the written extent on its left and inserts no
    record (xfs_bmap_add_extent_unwritten_real's LEFT_FILLING |
    LEFT_CONTIG case, fs/xfs/libxfs/xfs_bmap.c, v6.18), where the random
    fs.unwritten-dio splits the unwritten extent (two records inserted).
    A writeback ioend of a file written in order (a DONTCACHE writer, an
    fdatasync after each write) converts the same way.  The difference of
    the two p10s is unwritten_extend_ns.  Fresh files every run.

    Since session 21 (h21-irq) each side also keeps its writer's CPU per
    write (cpu_ns: fio's usr_cpu + sys_cpu of the job's runtime over its
    writes: the thread's own CPU time): a psync O_DIRECT write's
    completion, the conversion included, runs in the writer (iomap's
    __iomap_dio_rw waits and iomap_dio_complete runs in the caller,
    fs/iomap/direct-io.c, v6.18), so the difference of the two is the
    conversion's CPU, which unwritten_extend_ns takes when measured
    (unwritten_extend_lines)."""
    return _fresh_pair(ctx, "cal-unwritten-seq",
                       _dio_cpu_run("us", "write", ctx.xfs), [])


def b_unwritten_dio_ext4(ctx):
    """fs.unwritten-dio's ext4 twin (since session 24, h24-ext4): psync
    O_DIRECT 4 KiB random writes into a fresh fallocated 1 GiB file on
    the ext4 loop filesystem (fio's layout for a write job without
    overwrite: fallocate=native, unwritten extents), 2 s, and in the same
    run the same writes over a written 1 GiB ext4 file (the reference).
    Each write into the unwritten file pays two journal handles around
    ext4_map_blocks with i_data_sem held for write: ext4_iomap_begin ->
    ext4_iomap_alloc splits the unwritten extent around the block at
    submission (EXT4_GET_BLOCKS_IO_CREATE_EXT, PRE_IO), and
    ext4_dio_write_end_io -> ext4_convert_unwritten_extents converts it
    at completion (fs/ext4/inode.c, fs/ext4/extents.c, fs/ext4/file.c,
    v6.18; 2.02 handles a write counted by session 23, h23-ext4); the
    written file's writes pay none.  A psync O_DIRECT write's completion
    runs in the writer (__iomap_dio_rw waits, iomap_dio_complete in the
    caller), so both handles are the writer's CPU: each side keeps p10,
    p50 and the writer's CPU per write (cpu_ns: fio's usr_cpu + sys_cpu
    of the runtime), whose difference is the two handles' CPU
    (ext4_map_handle_lines).  The latency difference also holds the loop
    device's backing file's first touch of blocks the fresh file was
    given (the image's blocks not written since mkfs), which the CPU
    difference does not.  Fresh files every run."""
    return _fresh_pair(ctx, "cal-unwritten-ext4",
                       _dio_cpu_run("ue", "randwrite", ctx.ext4), [],
                       ctx.ext4)


def job_cpu_per_io(j, rw, key=""):
    """The job's own CPU per I/O of fio job @j (json): (usr_cpu +
    sys_cpu) % of job_runtime (ms) over @rw's total_ios, as KEY +
    "cpu_ns"; {} when fio reports none (since session 21, h21-irq)."""
    ios = j.get(rw, {}).get("total_ios", 0)
    rt = j.get("job_runtime", 0)
    if not ios or not rt or "usr_cpu" not in j:
        return {}
    return {key + "cpu_ns": (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * rt *
            1e6 / ios}


def _dio_cpu_run(tag, rw, mount):
    """_fresh_pair's ONE for the unwritten-extent pairs: fio psync O_DIRECT
    4 KiB writes (RW) of a 1 GiB file TAG.dat (KEY-prefixed) on MOUNT, 2 s;
    the write's clat p10 and p50 and the writer's CPU per write
    (job_cpu_per_io), each under KEY."""
    def one(d, key, extra):
        j = fio(["--name=" + tag, "--rw=" + rw, "--bs=4k", "--direct=1",
                 "--ioengine=psync", "--time_based", "--runtime=2",
                 "--filename=" + os.path.join(d, key + tag + ".dat"),
                 "--size=1g"] + extra, mount)[0]
        lat = j["write"]["clat_ns"]
        out = {key + "p10": pct(lat, 10), key + "p50": pct(lat, 50)}
        out.update(job_cpu_per_io(j, "write", key))
        return out
    return one


def _fresh_pair(ctx, name, one, first_extra, mount=None):
    """Two runs in a fresh directory NAME of the XFS mount (or MOUNT),
    removed after: ONE(dir, "", FIRST_EXTRA) for the job under test, then
    ONE(dir, "ref_", ["--overwrite=1"]) over a written file; their
    figures merged."""
    d = os.path.join(mount or ctx.xfs, name)
    guard(d)
    subprocess.run(["rm", "-rf", d])
    os.makedirs(d)
    out = {}
    try:
        for key, extra in (("", first_extra), ("ref_", ["--overwrite=1"])):
            out.update(one(d, key, extra))
    finally:
        subprocess.run(["rm", "-rf", d])
    return out


def b_writeback_alloc(ctx):
    """XFS's delalloc allocation at writeback, in the writer's context
    (since session 18, h18-dc; docs/validation.md): fio psync 4 KiB
    sequential buffered writes with sync_file_range(SYNC_FILE_RANGE_WRITE)
    after each (fio sync_file_range=write:1), 2 s, into a fresh 256 MiB
    XFS file sized by ftruncate (fallocate=truncate: every write inside
    EOF, so xfs_buffered_write_iomap_begin reserves the write's block and
    no speculative preallocation past EOF; the previous write's block was
    allocated by its own kick), and in the same run the same job over a
    written file (overwrite=1: nothing to allocate).  Each kick of the
    first runs xfs_map_blocks -> xfs_bmapi_convert_delalloc (one
    allocation transaction under the ILOCK; fs/xfs/xfs_aops.c,
    fs/xfs/libxfs/xfs_bmap.c, v6.18), which the second does not: the
    difference of the two sync_file_range p10s is the allocation a kick
    pays.  This is what the interleaved DONTCACHE writer at 4-32 threads
    pays at each record's kick (each record's delalloc extent lies between
    holes); the 1-thread writer's speculative preallocation makes one
    allocation cover many records.  Sets writeback_alloc_ns since
    session 19 (writeback_alloc_lines; the model has the preallocation
    since h19-prealloc).  Fresh files every run."""
    def one(d, key, extra):
        j = fio(["--name=wa", "--rw=write", "--bs=4k",
                 "--ioengine=psync", "--sync_file_range=write:1",
                 "--time_based", "--runtime=2",
                 "--filename=" + os.path.join(d, key + "wa.dat"),
                 "--size=256m"] + extra, ctx.xfs)[0]
        lat = j["sync"]["lat_ns"]
        return {key + "sync_p10": pct(lat, 10),
                key + "sync_p50": pct(lat, 50),
                key + "clat_p50": pct(j["write"]["clat_ns"], 50)}
    return _fresh_pair(ctx, "cal-wballoc", one, ["--fallocate=truncate"])


# loop.worker-cpu's request sizes (KiB; a psync O_DIRECT write of fio's
# 4 KiB-page buffer is that many segments / 4) and seconds a run.
LOOP_CPU_KIB = (4, 48, 256)
LOOP_CPU_SECONDS = 2
LOOP_CPU_QD = 32
# The least difference of runs per request, QD1 against LOOP_CPU_QD, that
# splits the worker's figure into a run's and a command's (loop_worker_fit).
LOOP_RUN_SPLIT_MIN = 0.3


def _busy_jiffies():
    """All CPUs' busy time in /proc/stat (user, nice, system, irq,
    softirq, steal: not idle, iowait), in clock ticks."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    return sum(x for i, x in enumerate(v) if i not in (3, 4))


def _kthread_ns():
    """The CPU time of every kworker, ksoftirqd and irq thread
    (/proc/PID/schedstat's time on CPU, ns): where a block request's
    worker and completions run."""
    tot = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/comm" % pid) as f:
                comm = f.read().strip()
            if not comm.startswith(("kworker", "ksoftirqd", "irq/")):
                continue
            with open("/proc/%s/schedstat" % pid) as f:
                tot += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return tot


# The loop worker's own CPU (since session 22, h22-loop): a tracefs
# instance of its own (instances/wpsim-loopcpu: its own buffer and event
# switches, so the global tracer and another user's events stay as they
# are) with workqueue_execute_start/end and the kworkers' sched_switch.
TRACEFS = "/sys/kernel/tracing"
WQ_TRACE = TRACEFS + "/instances/wpsim-loopcpu"
WQ_EVENTS = ("workqueue/workqueue_execute_start",
             "workqueue/workqueue_execute_end", "sched/sched_switch")
# The loop device's work functions (drivers/block/loop.c, v6.18: the root
# cgroup's worker and the per-cgroup ones).
LOOP_WORKFNS = ("loop_rootcg_workfn", "loop_workfn")
WQ_LINE = re.compile(r"^\s*.+?-(\d+)\s+\[\d+\]\s+\S+\s+(\d+)\.(\d+): "
                     r"(workqueue_execute_start|workqueue_execute_end|"
                     r"sched_switch): (.*)$")


def _trace_instance_begin(path, buffer_kb, filters, events, triggers=None):
    """Make the tracefs instance PATH (a stale one removed first), set its
    buffer (KiB a CPU) and FILTERS ({event: filter}), set TRIGGERS
    ({event: trigger}, e.g. a stacktrace on some of its records: since
    session 24, h24-dc), enable EVENTS and start it: True, or False where
    tracefs is not there or not ours to write (the instance then removed
    again; the bench records no trace fields)."""
    def w(rel, text):
        with open(os.path.join(path, rel), "w") as f:
            f.write(text)
    try:
        if os.path.isdir(path):
            os.rmdir(path)
        os.mkdir(path)
        w("buffer_size_kb", str(buffer_kb))
        for e, flt in filters.items():
            w("events/%s/filter" % e, flt)
        for e, trg in (triggers or {}).items():
            w("events/%s/trigger" % e, trg)
        for e in events:
            w("events/%s/enable" % e, "1")
        w("tracing_on", "1")
        return True
    except OSError:
        _trace_instance_end(path, events, triggers)
        return False


KWORKER_SWITCH = 'prev_comm ~ "kworker*" || next_comm ~ "kworker*"'


def _wq_trace_begin():
    """Start WQ_TRACE (_trace_instance_begin): the workqueue events and
    the kworkers' switches."""
    return _trace_instance_begin(WQ_TRACE, 32768,
                                 {"sched/sched_switch": KWORKER_SWITCH},
                                 WQ_EVENTS)


def _trace_instance_end(path, events, triggers=None):
    """Stop and read the tracefs instance PATH, then remove TRIGGERS
    ({event: trigger}, as _trace_instance_begin set them), disable EVENTS
    and remove it: the trace's text, or None if any CPU's buffer overran
    (a count that misses events) or it could not be read.  The removal is
    tried whatever failed before it (an instance is removed with its
    events still enabled), so no instance is left tracing."""
    text = None
    try:
        with open(os.path.join(path, "tracing_on"), "w") as f:
            f.write("0")
        lost = 0
        for c in os.listdir(os.path.join(path, "per_cpu")):
            with open(os.path.join(path, "per_cpu", c, "stats")) as f:
                for ln in f:
                    if ln.startswith("overrun:"):
                        lost += int(ln.split()[1])
        if not lost:
            with open(os.path.join(path, "trace")) as f:
                text = f.read()
    except OSError:
        pass
    for e, trg in (triggers or {}).items():
        try:
            with open(os.path.join(path, "events", e, "trigger"), "w") as f:
                f.write("!" + trg)
        except OSError:
            pass
    for e in events:
        try:
            with open(os.path.join(path, "events", e, "enable"), "w") as f:
                f.write("0")
        except OSError:
            pass
    try:
        os.rmdir(path)
    except OSError:
        pass
    return text


def _wq_trace_end():
    """Stop, read and remove WQ_TRACE (_trace_instance_end)."""
    return _trace_instance_end(WQ_TRACE, WQ_EVENTS)


def wq_work_cpu(text):
    """From a trace of workqueue_execute_start/end and the kworkers'
    sched_switch: per work function, the CPU its executions took (ns:
    start to end, less the time its kworker was switched out in
    between) and how many ran.  Timestamps are the trace's microseconds."""
    cur = {}   # pid -> [function, on-CPU since (us) or None, acc (us)]
    out = {}
    for ln in text.splitlines():
        m = WQ_LINE.match(ln)
        if not m:
            continue
        pid, ev, rest = int(m.group(1)), m.group(4), m.group(5)
        ts = int(m.group(2)) * 1000000 + int(m.group(3))
        if ev == "workqueue_execute_start":
            cur[pid] = [rest.rsplit(" ", 1)[-1], ts, 0]
        elif ev == "workqueue_execute_end":
            c = cur.pop(pid, None)
            if c is not None:
                if c[1] is not None:
                    c[2] += ts - c[1]
                o = out.setdefault(c[0], [0, 0])
                o[0] += c[2] * 1000
                o[1] += 1
        else:
            f = dict(kv.split("=", 1) for kv in rest.split()
                     if "=" in kv)
            p, n = int(f.get("prev_pid", -1)), int(f.get("next_pid", -1))
            if p in cur and cur[p][1] is not None:
                cur[p][2] += ts - cur[p][1]
                cur[p][1] = None
            if n in cur and cur[n][1] is None:
                cur[n][1] = ts
    return out


def _disk_ios(d):
    """Requests completed (reads + writes) of the block device D is on
    (/sys/dev/block/M:m/stat), or None."""
    st = os.stat(d).st_dev
    try:
        with open("/sys/dev/block/%d:%d/stat" % (os.major(st),
                                                 os.minor(st))) as f:
            v = [int(x) for x in f.read().split()]
        return v[0] + v[4]
    except (OSError, ValueError, IndexError):
        return None


def _traced_run(cmd, d, begin, end, bench, env=None):
    """Run CMD in D inside a tracefs instance (BEGIN starts it, False
    where it cannot; END stops, reads and removes it): the fio result, D's
    disk's completed requests before and after, /proc/stat's busy jiffies
    and the I/O threads' schedstat ns before and after, and the trace's
    text (None untraced or overrun, said on stderr for BENCH).  ENV:
    CMD's environment (default: this one's).  The
    instance goes whatever happened in the run (an interrupt, no fio, an
    unreadable counter): never left tracing."""
    traced = begin()
    text = None
    try:
        q0 = _disk_ios(d)
        b0, k0 = _busy_jiffies(), _kthread_ns()
        r = subprocess.run(cmd, cwd=d, capture_output=True, text=True,
                           env=env)
        b1, k1 = _busy_jiffies(), _kthread_ns()
        q1 = _disk_ios(d)
    finally:
        if traced:
            text = end()
    if text is None:
        why = ("the trace overran or could not be read" if traced else
               "no tracefs instance (not root, or no tracefs)")
        print("calibrate: %s: %s: no trace fields in this run"
              % (bench, why), file=sys.stderr)
    return r, q0, q1, b0, b1, k0, k1, text


def _fio_path_cpu(r, ddir, b0, b1, k0, k1, hz):
    """The CPU figures per I/O of one traced fio run R (its JSON on
    stdout, the job's DDIR side): all CPUs' busy time from /proc/stat's
    B0..B1 ticks at HZ (busy_ns), fio's own user and system time
    (fio_ns), and fio's plus the path's kernel threads' schedstat time
    K0..K1 (path_ns); returns (the job's DDIR side, the figures with
    ios)."""
    j = json.loads(r.stdout[r.stdout.index("{"):])["jobs"][0]
    dd = j[ddir]
    ios = dd["total_ios"] or 1
    fio_ns = (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e6
    return dd, {"ios": ios, "busy_ns": (b1 - b0) * 1e9 / hz / ios,
                   "path_ns": (fio_ns + k1 - k0) / ios,
                   "fio_ns": fio_ns / ios}


def _cpu_per_write(d, kib, qd=1):
    """fio psync O_DIRECT random writes of KIB KiB at QD1 (libaio at QD
    when QD > 1, since session 22) over a written
    256 MiB file in D for LOOP_CPU_SECONDS: the CPU per write, two ways:
    busy_ns (/proc/stat's busy time of all CPUs over the run / writes)
    and path_ns (fio's own user and system time plus every kworker's,
    ksoftirqd's and irq thread's schedstat time over the run / writes:
    the I/O path's threads only, so other work on a shared machine does
    not count; hard interrupts that land on other tasks are missed);
    clat p50."""
    eng = ["--ioengine=psync"] if qd == 1 else \
        ["--ioengine=libaio", "--iodepth=%d" % qd]
    args = ["--name=lc", "--rw=randwrite", "--bs=%dk" % kib, "--direct=1",
            "--time_based", "--runtime=%d" % LOOP_CPU_SECONDS] + eng + \
        _layout(d + "/cal-loopcpu.dat", "256m")
    guard(d, *args)
    subprocess.run(["fio", "--create_only=1"] + args, cwd=d,
                   capture_output=True)
    subprocess.run(["sync", "-f", d])
    cmd = ["fio", "--output-format=json+", "--percentile_list=" + PCT] + args
    hz = os.sysconf("SC_CLK_TCK")
    r, q0, q1, b0, b1, k0, k1, text = _traced_run(
        cmd, d, _wq_trace_begin, _wq_trace_end, "loop.worker-cpu")
    if r.returncode != 0:
        sys.exit("calibrate: fio failed: %s\n%s" % (" ".join(cmd),
                                                     r.stderr[-2000:]))
    dd, out = _fio_path_cpu(r, "write", b0, b1, k0, k1, hz)
    del out["fio_ns"]
    out["clat_p50"] = pct(dd["clat_ns"], 50)
    if text is not None and q0 is not None and q1 is not None:
        # Since session 22 (h22-loop): the loop worker's own CPU per
        # request of the disk D is on (its stat's requests: every
        # request of the run, fio's and the filesystem's), the worker's
        # runs per request, and every other work item's CPU per request
        # (the filesystem's completions: iomap_dio_complete_work, ...).
        reqs = max(q1 - q0, 1)
        wq = wq_work_cpu(text)
        lw = [wq.get(fn, [0, 0]) for fn in LOOP_WORKFNS]
        dio = wq.get("iomap_dio_complete_work", [0, 0])
        out.update({
            "reqs": reqs,
            "worker_ns": sum(x[0] for x in lw) / reqs,
            "worker_runs": sum(x[1] for x in lw) / reqs,
            "dio_wq_ns": dio[0] / reqs,
            "wq_other_ns": (sum(v[0] for v in wq.values()) -
                            sum(x[0] for x in lw) - dio[0]) / reqs})
    return out


def b_loop_cpu(ctx):
    """The loop device's worker's CPU (since session 21, h21-loop;
    docs/model/loop.md): dio.qd1-write's job at LOOP_CPU_KIB KiB on the
    loop device's XFS and on a file of the root's ext4 (its virtio disk,
    no loop device), interleaved size by size: CPU per write
    (_cpu_per_write).  Loop minus root is what the loop device adds per
    request (drivers/block/loop.c, v6.18: loop_queue_work, the worker's
    lo_rw_aio into the backing file through ext4's direct I/O and the
    disk, lo_rw_aio_complete), fitted to a part per request and a part
    per segment (loop_worker_fit)."""
    f = {}
    for kib in LOOP_CPU_KIB:
        for side, d in (("loop", ctx.xfs), ("root", ctx.root)):
            try:
                r = _cpu_per_write(d, kib)
            finally:
                subprocess.run(["rm", "-f", d + "/cal-loopcpu.dat"])
            for k, v in r.items():
                f["%s_%s_%dk" % (side, k, kib)] = v
    # Since session 22 (h22-loop): the worker at depth (4 KiB libaio at
    # LOOP_CPU_QD on the loop XFS), where a run drains several commands:
    # its CPU per request and runs per request beside QD1's; and the
    # root's, for loop - root at depth.
    for side, d in (("loop", ctx.xfs), ("root", ctx.root)):
        try:
            r = _cpu_per_write(d, 4, LOOP_CPU_QD)
        finally:
            subprocess.run(["rm", "-f", d + "/cal-loopcpu.dat"])
        for k in ("worker_ns", "worker_runs", "path_ns", "reqs", "ios"):
            if k in r and (side == "loop" or k in ("path_ns", "ios")):
                f["%s_%s_4k_qd%d" % (side, k, LOOP_CPU_QD)] = r[k]
    return f


# loop.depth-cpu (since session 23, h23-loopq): the loop device's CPU at
# each depth of the sweeps, where it runs and how it batches.  A tracefs
# instance of its own (as loop.worker-cpu's) with, besides the work
# items and the kworkers' switches, the virtio request queues' hard
# interrupts (irq_handler_entry/exit, filtered to their irq numbers) and
# the BLOCK softirq (softirq_entry/exit, vec 4).
LOOP_DEPTH_QD = (1, 4, 16, 32, 64, 128)
LOOP_DEPTH_SECONDS = 1
DEPTH_TRACE = TRACEFS + "/instances/wpsim-loopdepth"
DEPTH_EVENTS = WQ_EVENTS + ("irq/irq_handler_entry", "irq/irq_handler_exit",
                            "irq/softirq_entry", "irq/softirq_exit")
DEPTH_LINE = re.compile(r"^\s*.+?-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): "
                        r"(workqueue_execute_start|workqueue_execute_end|"
                        r"sched_switch|irq_handler_entry|irq_handler_exit|"
                        r"softirq_entry|softirq_exit): (.*)$")
# The backing file's direct I/O completion work (fs/iomap/direct-io.c,
# v6.18: iomap_dio_bio_end_io queues an async write's completion on the
# superblock's s_dio_done_wq; for the loop device's backing ext4 file it
# calls lo_rw_aio_complete, for the upper XFS file fio's aio completion).
DIO_WORKFN = "iomap_dio_complete_work"


def _virtio_req_irq_numbers():
    """The irq numbers of the virtio request queues (/proc/interrupts
    lines naming virtioN-req), as a list of ints."""
    out = []
    with open("/proc/interrupts") as f:
        for line in f:
            w = line.split()
            if w and w[0].endswith(":") and "virtio" in line and \
                    "-req" in line:
                try:
                    out.append(int(w[0][:-1]))
                except ValueError:
                    pass
    return out


def _depth_trace_begin(irqs):
    """Start DEPTH_TRACE (_trace_instance_begin): the kworkers' switches,
    the hard interrupts IRQS and the BLOCK softirq (vector 4)."""
    flt = " || ".join("irq == %d" % i for i in irqs) or "irq == -1"
    return _trace_instance_begin(DEPTH_TRACE, 65536, {
        "sched/sched_switch": KWORKER_SWITCH,
        "irq/irq_handler_entry": flt, "irq/irq_handler_exit": flt,
        "irq/softirq_entry": "vec == 4", "irq/softirq_exit": "vec == 4"},
        DEPTH_EVENTS)


def _depth_trace_end():
    """Stop, read and remove DEPTH_TRACE (_trace_instance_end)."""
    return _trace_instance_end(DEPTH_TRACE, DEPTH_EVENTS)


def depth_trace_cpu(text):
    """From a DEPTH_TRACE text: per work function its executions' CPU
    (ns, start to end less the kworker's time switched out and less the
    hard and soft interrupts inside), count, "runs" (executions that
    were the first since their kworker was switched in: the kworker's
    wake-ups that found work), how those runs' kworker was switched in
    (since session 24, h24-preempt: "runs_preempt" over a runnable task,
    prev_state R and not the idle task: the kernel's wake-up preemption
    or a slice's end; "runs_idle" from the idle task, pid 0; "runs_slept"
    after the task before it slept; a run whose switch-in the trace does
    not hold counts in none) and the CPU each ran on (ns per CPU); the
    hard interrupts' and BLOCK softirqs' CPU and count, per CPU.  Returns
    {"work": {fn: {"ns", "n", "runs", "runs_preempt", "runs_idle",
     "runs_slept", "cpu": {c: ns}}},
     "hardirq": {"ns", "n", "cpu": {c: ns}}, "softirq": (same)}."""
    cur = {}    # pid -> [fn, on-CPU since (us) or None, acc (us), cpu]
    fresh = {}  # pid -> switched in since its last execution started
    how = {}    # pid -> how it was last switched in (runs_*)
    irq_at, sirq_at = {}, {}    # cpu -> entry (us)
    work = {}
    irq = {"hardirq": {"ns": 0, "n": 0, "cpu": {}},
           "softirq": {"ns": 0, "n": 0, "cpu": {}}}

    def intr(kind, at, pid, cpu, ts):
        t0 = at.pop(cpu, None)
        if t0 is None:
            return
        d = ts - t0
        o = irq[kind]
        o["ns"] += d * 1000
        o["n"] += 1
        o["cpu"][cpu] = o["cpu"].get(cpu, 0) + d * 1000
        c = cur.get(pid)
        if c is not None and c[1] is not None:
            c[2] -= d   # inside a work execution: not the work's

    for ln in text.splitlines():
        m = DEPTH_LINE.match(ln)
        if not m:
            continue
        pid, cpu, ev = int(m.group(1)), int(m.group(2)), m.group(5)
        rest = m.group(6)
        ts = int(m.group(3)) * 1000000 + int(m.group(4))
        if ev == "workqueue_execute_start":
            fn = rest.rsplit(" ", 1)[-1]
            cur[pid] = [fn, ts, 0, cpu]
            o = work.setdefault(fn, {"ns": 0, "n": 0, "runs": 0,
                                     "runs_preempt": 0, "runs_idle": 0,
                                     "runs_slept": 0, "cpu": {}})
            if fresh.get(pid, True):
                o["runs"] += 1
                if pid in how:
                    o[how[pid]] += 1
            fresh[pid] = False
        elif ev == "workqueue_execute_end":
            c = cur.pop(pid, None)
            if c is not None:
                if c[1] is not None:
                    c[2] += ts - c[1]
                o = work[c[0]]
                ns = max(c[2], 0) * 1000
                o["ns"] += ns
                o["n"] += 1
                o["cpu"][c[3]] = o["cpu"].get(c[3], 0) + ns
        elif ev == "irq_handler_entry":
            irq_at[cpu] = ts
        elif ev == "irq_handler_exit":
            intr("hardirq", irq_at, pid, cpu, ts)
        elif ev == "softirq_entry":
            sirq_at[cpu] = ts
        elif ev == "softirq_exit":
            intr("softirq", sirq_at, pid, cpu, ts)
        else:
            f = dict(kv.split("=", 1) for kv in rest.split()
                     if "=" in kv)
            p, n = int(f.get("prev_pid", -1)), int(f.get("next_pid", -1))
            if p in cur and cur[p][1] is not None:
                cur[p][2] += ts - cur[p][1]
                cur[p][1] = None
            if n in cur and cur[n][1] is None:
                cur[n][1] = ts
            fresh[n] = True
            how[n] = "runs_idle" if p == 0 else \
                "runs_preempt" if f.get("prev_state", "").startswith("R") \
                else "runs_slept"
    return dict(work=work, **irq)


def _depth_cpu(d, rw, qd, irqs):
    """fio libaio O_DIRECT 4 KiB RW at QD over the written file
    cal-loopdepth.dat in D for LOOP_DEPTH_SECONDS, traced: per request
    of D's disk, the I/O path's CPU (path_ns, as _cpu_per_write), all
    CPUs' busy time (busy_ns), fio's own CPU (fio_ns), and from the
    trace the loop worker's CPU and runs, the direct I/O completion
    work's (DIO_WORKFN) CPU, items and runs, the virtio interrupts' and
    BLOCK softirqs' CPU and count, and which CPU each ran on (the share
    on the CPU that took most of the hard interrupts' time)."""
    args = ["--name=ld", "--rw=" + rw, "--bs=4k", "--direct=1",
            "--ioengine=libaio", "--iodepth=%d" % qd, "--time_based",
            "--runtime=%d" % LOOP_DEPTH_SECONDS] + \
        _layout(d + "/cal-loopdepth.dat", "256m")
    guard(d, *args)
    cmd = ["fio", "--output-format=json+", "--percentile_list=" + PCT] + args
    hz = os.sysconf("SC_CLK_TCK")
    r, q0, q1, b0, b1, k0, k1, text = _traced_run(
        cmd, d, lambda: _depth_trace_begin(irqs), _depth_trace_end,
        "loop.depth-cpu")
    if r.returncode != 0:
        sys.exit("calibrate: fio failed: %s\n%s" % (" ".join(cmd),
                                                     r.stderr[-2000:]))
    dd, out = _fio_path_cpu(r, "read" if "read" in rw else "write",
                               b0, b1, k0, k1, hz)
    out["iops"] = dd["iops"]
    if text is None or q0 is None or q1 is None:
        return out
    reqs = max(q1 - q0, 1)
    t = depth_trace_cpu(text)
    hi = t["hardirq"]["cpu"]
    icpu = max(hi, key=hi.get) if hi else None

    def share(cpus):
        tot = sum(cpus.values())
        return cpus.get(icpu, 0) / tot if tot and icpu is not None else 0

    lw = {"ns": 0, "n": 0, "runs": 0, "runs_preempt": 0, "runs_idle": 0,
          "runs_slept": 0, "cpu": {}}
    for fn in LOOP_WORKFNS:
        o = t["work"].get(fn)
        if o:
            for k in ("ns", "n", "runs", "runs_preempt", "runs_idle",
                      "runs_slept"):
                lw[k] += o[k]
            for c, v in o["cpu"].items():
                lw["cpu"][c] = lw["cpu"].get(c, 0) + v
    dio = t["work"].get(DIO_WORKFN, {"ns": 0, "n": 0, "runs": 0, "cpu": {}})
    other = sum(o["ns"] for fn, o in t["work"].items()
                if fn not in LOOP_WORKFNS and fn != DIO_WORKFN)
    out.update({
        "reqs": reqs,
        "worker_ns": lw["ns"] / reqs, "worker_runs": lw["runs"] / reqs,
        "worker_on_irq_cpu": share(lw["cpu"]),
        # How the worker's runs began (h24-preempt): shares of its runs.
        "worker_runs_preempt": lw["runs_preempt"] / max(lw["runs"], 1),
        "worker_runs_idle": lw["runs_idle"] / max(lw["runs"], 1),
        "worker_runs_slept": lw["runs_slept"] / max(lw["runs"], 1),
        "dio_ns": dio["ns"] / reqs, "dio_items": dio["n"] / reqs,
        "dio_runs": dio["runs"] / reqs,
        "dio_on_irq_cpu": share(dio["cpu"]),
        "hardirq_ns": t["hardirq"]["ns"] / reqs,
        "hardirqs": t["hardirq"]["n"] / reqs,
        "softirq_ns": t["softirq"]["ns"] / reqs,
        "softirqs": t["softirq"]["n"] / reqs,
        "softirq_on_irq_cpu": share(t["softirq"]["cpu"]),
        "wq_other_ns": other / reqs})
    return out


def b_loop_depth_cpu(ctx):
    """The loop device's CPU at depth (since session 23, h23-loopq;
    docs/model/loop.md "At depth"): 4 KiB libaio O_DIRECT random writes,
    then reads, at each of LOOP_DEPTH_QD on the loop device's XFS and on
    a file of the root's ext4, interleaved depth by depth
    (_depth_cpu).  What it answers: the loop worker's CPU and runs per
    request (drivers/block/loop.c, v6.18: loop_queue_rq's work list, one
    loop_process_work run draining many commands), the completion side's
    CPU per request and how it batches (lo_rw_aio_complete: for a write
    in the backing ext4's s_dio_done_wq work item, for a read in the
    virtio interrupt), and loop - root at each depth."""
    irqs = _virtio_req_irq_numbers()
    f = {}
    sides = (("loop", ctx.xfs), ("root", ctx.root))
    try:
        for _, d in sides:
            args = ["--name=ld", "--rw=write", "--bs=1m", "--direct=1"] + \
                _layout(d + "/cal-loopdepth.dat", "256m")
            guard(d, *args)
            subprocess.run(["fio", "--create_only=1"] + args, cwd=d,
                           capture_output=True)
            subprocess.run(["sync", "-f", d])
        for rw, tag in (("randwrite", "w"), ("randread", "r")):
            for qd in LOOP_DEPTH_QD:
                for side, d in sides:
                    r = _depth_cpu(d, rw, qd, irqs)
                    for k, v in r.items():
                        f["%s_%s_%s_qd%d" % (side, k, tag, qd)] = v
    finally:
        for _, d in sides:
            subprocess.run(["rm", "-f", d + "/cal-loopdepth.dat"])
    return f


# dc.1t-wait (since session 24, h24-dc): one thread of DONTCACHE writes
# on the loop XFS (tools/dontcache-interleaved-probe.c at one thread,
# RWF_DONTCACHE, a record size no validation row has), traced: where the
# writer's wall time goes.  What it answers (docs/validation.md, session
# 23 h23-dc, "what would settle it"): whether the quiet 1-thread writer
# is CPU-bound, and what it waits for when it is not.  A measurement for
# a mechanism's study: sets no figure, run only when --only names it.
DC_WAIT_REC = 24000
DC_WAIT_RECORDS = 2000
# The idle before each run (validate.py's DC_IDLE_MS, here in calibrate:
# loop0's writeback throttle back at step 0; block/blk-wbt.c, v6.18),
# taken before the trace starts, so that the trace holds the run only.
DC_WAIT_IDLE_S = 2.5
DC_TRACE = TRACEFS + "/instances/wpsim-dcwait"
# The probe's comm as the scheduler's events print it (TASK_COMM_LEN 16:
# the executable's name cut to 15 characters).
DC_COMM = "dontcache-interleaved-probe"[:15]
DC_EVENTS = DEPTH_EVENTS + ("sched/sched_wakeup", "sched/sched_waking")
DC_SWITCH = KWORKER_SWITCH + ' || prev_comm == "%s" || next_comm == "%s"' \
    % (DC_COMM, DC_COMM)
# A kernel stack on each of the writer's switches out (the reason it
# left the CPU): the sched_switch event's stacktrace trigger, recorded in
# the instance's own buffer (kernel/trace/trace_events_trigger.c v6.18
# stacktrace_trigger: __trace_stack(file->tr, ...)).
DC_TRIGGER = 'stacktrace if prev_comm == "%s"' % DC_COMM
DC_LINE = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+(\d+)\.(\d+): "
                     r"(sched_switch|sched_wakeup|sched_waking|"
                     r"irq_handler_entry|"
                     r"irq_handler_exit|softirq_entry|softirq_exit|"
                     r"workqueue_execute_start|"
                     r"<stack trace>):?\s*(.*)$")
# Frames of the scheduler and of the wait primitives: a switch's reason
# is the first frame of its stack that is none of these (a lock
# wrapper, xfs_ilock, is joined with its caller).
DC_SCHED_FRAMES = frozenset((
    "__traceiter_sched_switch", "__schedule", "schedule", "io_schedule",
    "schedule_timeout", "io_schedule_timeout", "schedule_hrtimeout_range",
    "schedule_preempt_disabled", "__wait_for_common",
    "wait_for_completion", "wait_for_completion_io",
    "wait_for_completion_io_timeout", "rq_qos_wait",
    "rwsem_down_write_slowpath", "rwsem_down_read_slowpath",
    "down_write", "down_read", "down_write_nested", "down_read_nested",
    "folio_wait_bit_common", "__folio_lock", "folio_wait_bit",
    "mutex_lock", "__mutex_lock", "__mutex_lock_slowpath",
    "preempt_schedule", "preempt_schedule_common", "preempt_schedule_irq",
    "__cond_resched", "_cond_resched", "futex_wait_queue"))
# The tracer's own frames on top of the stack (the event's and the
# trigger's: trace_event_raw_event_sched_switch, __traceiter_...).
DC_TRACE_FRAMES = ("trace_", "__trace", "event_trigger")
DC_WRAPPERS = frozenset(("xfs_ilock", "xfs_ilock_nowait", "folio_lock"))


def _dc_reason(state, frames):
    """Why a task left the CPU: "preempted" when it was still runnable
    (prev_state R), else the first frame of its stack that is not the
    scheduler's, a wait primitive's or the tracer's (joined with its
    caller for a lock wrapper: "xfs_ilock<-xfs_buffered_write_iomap_
    begin"), else "state S" / "state D" when no stack came with it."""
    if state.startswith("R"):
        return "preempted"
    fr = [f.split("+", 1)[0].strip() for f in frames]
    fr = [f for f in fr if f and f not in DC_SCHED_FRAMES and
          not f.startswith(DC_TRACE_FRAMES)]
    if not fr:
        return "state " + state[:1]
    if fr[0] in DC_WRAPPERS and len(fr) > 1:
        return fr[0] + "<-" + fr[1]
    return fr[0]


def _dc_waker(comm, flags):
    """Who a wake-up came from: "hardirq" / "softirq" by the trace's
    context flags, else the waker's comm without its instance
    ("kworker/1:2" -> "kworker", "ksoftirqd/1" -> "ksoftirqd")."""
    if "h" in flags or "H" in flags:
        return "hardirq"
    if "s" in flags:
        return "softirq"
    return comm.strip().split("/", 1)[0]


def _dc_taker(comm):
    """Who took a preempted writer's CPU, by its comm, when it ran no work
    item first: "ksoftirqd", "kworker" (a kworker that ran no work item
    before it left the CPU), else the comm without its instance."""
    return comm.strip().split("/", 1)[0]


def dc_wait_trace(text, comm=DC_COMM):
    """From a DC_TRACE text: per task named COMM (tid), its time on a CPU
    (us, switch in to switch out) and the hard and soft interrupts' time
    inside it (us), and its switches out by reason (_dc_reason, from the
    stacktrace that follows each): count, time asleep (switch out to its
    wake-up) and time on a run queue (wake-up, or a preemption's switch
    out, to its switch in), us; and who woke it (_dc_waker): count.
    Since session 25 (h25-dc), where it ran and who took its CPU: its time
    on a CPU per CPU ("cpu_us"), and per preemption (a switch out still
    runnable) the task switched in in its place, named by the first work
    function that task ran before it left the CPU (a kworker's
    workqueue_execute_start), else by its comm (_dc_taker): count and
    the writer's time on the run queue, per CPU of the preemption
    ("taken_by": {cpu: {who: [n, runq_us]}}); and the kworkers it woke
    (from task context: the loop worker at its kick's queue_rq), onto its
    own CPU ("here") or another ("there"), and how many of the former
    while another CPU was idle by the trace's switches (the last traced
    switch on it went to pid 0: only switches of kworkers and of the
    writer are traced, so this is a bound).
    Returns {tid: {"on_us", "irq_us", "cpu_us": {c: us}, "reasons": {r:
    [n, sleep_us, runq_us]}, "wakers": {w: n}, "taken_by": {c: {who:
    [n, runq_us]}}, "woke_kw": {"here", "there", "here_other_idle"}}}."""
    out = {}
    on_since, off, running = {}, {}, {}
    irq_at, sirq_at = {}, {}
    stack = None    # [tid, frames] of the stack being read
    taker = {}      # pid switched in over a preempted writer -> its off
    pre = []        # (task, off, runq us) of each preemption closed
    idle = {}       # cpu -> its last traced switch went to the idle task
    waking = {}     # kworker pid -> (writer tid, its cpu, another idle)

    def task(tid):
        return out.setdefault(tid, {"on_us": 0, "irq_us": 0, "cpu_us": {},
                                    "reasons": {}, "wakers": {},
                                    "taken_by": {},
                                    "woke_kw": {"here": 0, "there": 0,
                                                "here_other_idle": 0}})

    def end_stack():
        if stack is not None and stack[0] in off:
            o = off[stack[0]]
            o["reason"] = _dc_reason(o["state"], stack[1])

    for ln in text.splitlines():
        if ln.lstrip().startswith("=>"):
            if stack is not None:
                stack[1].append(ln.lstrip()[2:])
            continue
        m = DC_LINE.match(ln)
        if not m:
            continue
        end_stack()
        stack = None
        who, pid, cpu, flags = m.group(1), int(m.group(2)), \
            int(m.group(3)), m.group(4)
        ts = int(m.group(5)) * 1000000 + int(m.group(6))
        ev, rest = m.group(7), m.group(8)
        if ev == "<stack trace>":
            stack = [pid, []]
        elif ev == "sched_switch":
            f = dict(kv.split("=", 1) for kv in
                     rest.replace(" ==> ", " ").split() if "=" in kv)
            p, n = int(f.get("prev_pid", -1)), int(f.get("next_pid", -1))
            idle[cpu] = n == 0
            wk = waking.pop(n, None)
            if wk is not None:
                k = task(wk[0])["woke_kw"]
                here = wk[1] == cpu
                k["here" if here else "there"] += 1
                if here and wk[2]:
                    k["here_other_idle"] += 1
            # A task that took a preempted writer's CPU leaves it
            # without having run a work item: named by its comm.
            o = taker.pop(p, None)
            if o is not None and o["who"] is None:
                o["who"] = _dc_taker(f.get("prev_comm", "?"))
            if f.get("prev_comm") == comm:
                t = task(p)
                if p in on_since:
                    d = ts - on_since.pop(p)
                    t["on_us"] += d
                    t["cpu_us"][cpu] = t["cpu_us"].get(cpu, 0) + d
                st = f.get("prev_state", "S")
                off[p] = {"out": ts, "state": st, "woke": None,
                          "waker": None, "cpu": cpu, "who": None,
                          "reason": _dc_reason(st, [])}
                if st.startswith("R"):
                    taker[n] = off[p]
                running.pop(cpu, None)
            if f.get("next_comm") == comm:
                t = task(n)
                on_since[n] = ts
                running[cpu] = n
                o = off.pop(n, None)
                if o is not None:
                    r = t["reasons"].setdefault(o["reason"], [0, 0, 0])
                    r[0] += 1
                    woke = o["woke"] if o["woke"] is not None else \
                        (o["out"] if o["reason"] == "preempted" else ts)
                    r[1] += woke - o["out"]
                    r[2] += ts - woke
                    if o["waker"] is not None:
                        t["wakers"][o["waker"]] = \
                            t["wakers"].get(o["waker"], 0) + 1
                    if o["reason"] == "preempted":
                        pre.append((t, o, ts - woke))
        elif ev == "workqueue_execute_start":
            o = taker.pop(int(pid), None)
            if o is not None and o["who"] is None:
                o["who"] = rest.rsplit(" ", 1)[-1]
        elif ev == "sched_wakeup":
            f = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
            tid = int(f.get("pid", -1))
            if f.get("comm") == comm and tid in off and \
                    off[tid]["woke"] is None:
                off[tid]["woke"] = ts
                off[tid]["waker"] = _dc_waker(who, flags)
        elif ev == "sched_waking":
            # The writer wakes a kworker (the loop worker, at its kick's
            # queue_rq; sched_waking fires in the waker's context, before
            # the CPU is chosen): where that kworker next switches in
            # says the CPU chosen, and whether another CPU was idle at
            # the waking (by the traced switches: the last one seen on
            # it went to pid 0).
            f = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
            if who.strip() == comm and not set(flags) & set("hHs") and \
                    f.get("comm", "").startswith("kworker"):
                waking[int(f.get("pid", -1))] = (
                    pid, cpu, any(v for c, v in idle.items() if c != cpu))
        elif ev in ("irq_handler_entry", "softirq_entry"):
            (irq_at if ev[0] == "i" else sirq_at)[cpu] = ts
        else:
            t0 = (irq_at if ev[0] == "i" else sirq_at).pop(cpu, None)
            if t0 is not None and cpu in running:
                task(running[cpu])["irq_us"] += ts - t0
    end_stack()
    for t, o, q in pre:
        x = t["taken_by"].setdefault(o["cpu"], {}).setdefault(
            o["who"] or "?", [0, 0])
        x[0] += 1
        x[1] += q
    return out


def probe_schedstat(stderr):
    """The probe's DC_PROBE_SCHED lines: {thread: {"records", "run_ns",
    "wait_ns", "slices"}}."""
    out = {}
    for ln in stderr.splitlines():
        w = ln.split()
        if len(w) == 11 and w[0] == "schedstat:" and w[1] == "thread":
            out[int(w[2])] = {k: int(v) for k, v in zip(w[3::2], w[4::2])}
    return out


def probe_cpus(stderr):
    """The probe's DC_PROBE_SCHED "cpus:" lines (since session 25,
    h25-dc): {thread: {"records", "cpus": {cpu: returns there}, "moves"}}
    (the CPU each write returned on, and how often it changed)."""
    out = {}
    for ln in stderr.splitlines():
        w = ln.split()
        if len(w) >= 7 and w[0] == "cpus:" and w[1] == "thread" and \
                w[3] == "records" and w[-2] == "moves":
            out[int(w[2])] = {
                "records": int(w[4]), "moves": int(w[-1]),
                "cpus": {int(k[3:]): int(v) for k, v in
                         zip(w[5:-2:2], w[6:-2:2]) if k.startswith("cpu")}}
    return out


def _dc_trace_begin(irqs):
    """Start DC_TRACE (_trace_instance_begin): depth_trace_cpu's events
    (the work items, the virtio interrupts, the BLOCK softirq), the
    probe's and the kworkers' switches with a stack on the probe's, and
    the probe's wake-ups; since session 25 (h25-dc) the kworkers'
    wakings (dc_wait_trace's woke_kw)."""
    flt = " || ".join("irq == %d" % i for i in irqs) or "irq == -1"
    return _trace_instance_begin(DC_TRACE, 32768, {
        "sched/sched_switch": DC_SWITCH,
        "sched/sched_wakeup": 'comm == "%s"' % DC_COMM,
        "sched/sched_waking": 'comm ~ "kworker*"',
        "irq/irq_handler_entry": flt, "irq/irq_handler_exit": flt,
        "irq/softirq_entry": "vec == 4", "irq/softirq_exit": "vec == 4"},
        DC_EVENTS, {"sched/sched_switch": DC_TRIGGER})


def _dc_trace_end():
    """Stop, read and remove DC_TRACE (_trace_instance_end), its trigger
    first."""
    return _trace_instance_end(DC_TRACE, DC_EVENTS,
                               {"sched/sched_switch": DC_TRIGGER})


def dc_wait_figures(probe_out, probe_err, text):
    """dc.1t-wait's figures from the probe's output (its result line and
    DC_PROBE_SCHED lines) and DC_TRACE's text (or None): per record, the
    wall time, the writer's time on a CPU and on a run queue (schedstat),
    and from the trace its time on a CPU, the interrupts inside it, and
    each reason it left the CPU (switches per 1000 records, asleep and
    run-queue us a record), who woke it (per 1000 records), and the
    device side's CPU (depth_trace_cpu: the loop worker, xfs_end_io, the
    backing file's direct I/O completions, other work items, the virtio
    interrupts, the BLOCK softirq); since session 25 (h25-dc) the share
    of the writer's returns on each CPU and its CPU changes per 1000
    records (the probe's "cpus:" line, untraced too), and from the trace
    its time on a CPU per CPU, who took its CPU at each preemption
    (dc_wait_trace's taken_by: per 1000 records and the run-queue ns a
    record, per CPU), where the kworkers it woke started (woke_kworker,
    per 1000 records) and the device side's CPU per CPU."""
    w = probe_out.split()
    writes, mibs = float(w[3]), float(w[5])
    rec = int(w[1])
    out = {"records": writes, "mib_per_s": mibs, "rpw": float(w[4]),
           "wall_ns": rec / (mibs * 2**20) * 1e9 if mibs else 0}
    ss = probe_schedstat(probe_err)
    if ss:
        s0 = ss[min(ss)]
        n = s0["records"] or 1
        out.update({"sched_run_ns": s0["run_ns"] / n,
                    "sched_wait_ns": s0["wait_ns"] / n,
                    "sched_slices": s0["slices"] / n})
    pc = probe_cpus(probe_err)
    if pc:
        # Since session 25 (h25-dc): the share of the writer's returns on
        # each CPU, and its CPU changes per 1000 records (untraced too).
        c0 = pc[min(pc)]
        n = c0["records"] or 1
        out.update({"writer_cpu_share": {str(c): v / n for c, v in
                                         sorted(c0["cpus"].items())},
                    "writer_cpu_moves": c0["moves"] * 1000 / n})
    if text is None:
        return out
    tr = dc_wait_trace(text)
    if tr:
        tid = max(tr, key=lambda k: tr[k]["on_us"])
        t = tr[tid]
        out.update({"on_cpu_ns": t["on_us"] * 1000 / writes,
                    "irq_in_ns": t["irq_us"] * 1000 / writes,
                    "reasons": {r: {"per_1000": v[0] * 1000 / writes,
                                    "sleep_ns": v[1] * 1000 / writes,
                                    "runq_ns": v[2] * 1000 / writes}
                                for r, v in sorted(t["reasons"].items())},
                    "wakers": {k: v * 1000 / writes
                               for k, v in sorted(t["wakers"].items())},
                    # Since session 25 (h25-dc): where the writer ran and
                    # who took its CPU when it was preempted.
                    "on_cpu_by_cpu_ns": {
                        str(c): v * 1000 / writes
                        for c, v in sorted(t["cpu_us"].items())},
                    "taken_by": {
                        str(c): {k: {"per_1000": v[0] * 1000 / writes,
                                     "runq_ns": v[1] * 1000 / writes}
                                 for k, v in sorted(tb.items())}
                        for c, tb in sorted(t["taken_by"].items())},
                    "woke_kworker": {k: v * 1000 / writes
                                     for k, v in t["woke_kw"].items()}})
    d = depth_trace_cpu(text)
    wk = d["work"]
    loop = sum(wk[f]["ns"] for f in LOOP_WORKFNS if f in wk)
    named = set(LOOP_WORKFNS) | {"xfs_end_io", DIO_WORKFN}
    out.update({
        "dev_loop_worker_ns": loop / writes,
        "dev_xfs_end_io_ns": wk.get("xfs_end_io", {"ns": 0})["ns"] / writes,
        "dev_dio_complete_ns": wk.get(DIO_WORKFN, {"ns": 0})["ns"] / writes,
        "dev_wq_other_ns": sum(o["ns"] for f, o in wk.items()
                               if f not in named) / writes,
        "dev_hardirq_ns": d["hardirq"]["ns"] / writes,
        "dev_softirq_ns": d["softirq"]["ns"] / writes})
    # Since session 25 (h25-dc): the device side's CPU per CPU, ns a
    # record (which CPU the loop worker, xfs_end_io and the interrupts
    # ran on, beside the writer's on_cpu_by_cpu_ns).
    def by_cpu(objs):
        acc = {}
        for o in objs:
            for c, ns in o["cpu"].items():
                acc[str(c)] = acc.get(str(c), 0) + ns / writes
        return dict(sorted(acc.items()))
    out["dev_by_cpu_ns"] = {
        "loop_worker": by_cpu(wk[f] for f in LOOP_WORKFNS if f in wk),
        "xfs_end_io": by_cpu(wk[f] for f in ("xfs_end_io",) if f in wk),
        "dio_complete": by_cpu(wk[f] for f in (DIO_WORKFN,) if f in wk),
        "wq_other": by_cpu(o for f, o in wk.items() if f not in named),
        "hardirq": by_cpu([d["hardirq"]]),
        "softirq": by_cpu([d["softirq"]])}
    return out


def b_dc_1t_wait(ctx):
    """One thread of RWF_DONTCACHE writes of DC_WAIT_REC bytes, DC_WAIT_
    RECORDS of them, into a fresh file on the loop XFS
    (tools/dontcache-interleaved-probe.c, built as BUILD/dontcache-
    interleaved-probe) after DC_WAIT_IDLE_S of idle, traced (DC_TRACE):
    dc_wait_figures, and the I/O path's threads' CPU (kworkers,
    ksoftirqd, irq threads: schedstat) and all CPUs' busy time per
    record."""
    probe = ctx.dc_probe
    if not os.access(probe, os.X_OK):
        sys.exit("calibrate: dc.1t-wait needs %s (gcc -O2 -D_GNU_SOURCE "
                 "-pthread -o %s tools/dontcache-interleaved-probe.c; make "
                 "calibrate builds it)" % (probe, probe))
    d = os.path.join(ctx.xfs, "cal-dcwait")
    guard(d)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    irqs = _virtio_req_irq_numbers()
    try:
        subprocess.run(["sync", "-f", ctx.xfs])
        time.sleep(DC_WAIT_IDLE_S)
        cmd = [probe, d, "1", str(DC_WAIT_REC), str(DC_WAIT_RECORDS)]
        env = dict(os.environ, DC_PROBE_SCHED="1", DC_PROBE_IDLE_MS="0")
        hz = os.sysconf("SC_CLK_TCK")
        r, q0, q1, b0, b1, k0, k1, text = _traced_run(
            cmd, d, lambda: _dc_trace_begin(irqs), _dc_trace_end,
            "dc.1t-wait", env)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if r.returncode != 0 or len(r.stdout.split()) < 6:
        sys.exit("calibrate: dc.1t-wait: %s: %s" % (
            " ".join(cmd), (r.stderr.strip().splitlines() or ["failed"])[-1]))
    out = dc_wait_figures(r.stdout, r.stderr, text)
    n = out["records"]
    out.update({"busy_ns": (b1 - b0) * 1e9 / hz / n,
                "kthread_ns": (k1 - k0) / n,
                "reqs": (q1 - q0) / n if q0 is not None and q1 is not None
                else None})
    return out


def b_loop_root_write(ctx):
    return _dio_qd1(ctx, "randwrite", ctx.root)


def b_loop_root_read(ctx):
    return _dio_qd1(ctx, "randread", ctx.root)


SWEEP = (1, 4, 16, 32, 64, 128)


def _sweep(ctx, rw):
    f = {}
    for qd in SWEEP:
        j = fio(["--name=q", "--rw=" + rw, "--bs=4k", "--direct=1",
                 "--ioengine=libaio", "--iodepth=%d" % qd, "--time_based",
                 "--runtime=1"] +
                _layout(ctx.xfs + "/cal-dio.dat", "1g"), ctx.xfs)[0]
        f["iops_qd%d" % qd] = j["read" if "read" in rw else "write"]["iops"]
    f["iops_max"] = max(f.values())
    return f


def b_qd_sweep_read(ctx):
    return _sweep(ctx, "randread")


RANDRW_QD = (1, 4, 16, 64)


def _root_disk():
    """The root filesystem's disk (vda here: the loop device's image
    file lives on it), or None."""
    src = subprocess.run(["findmnt", "-n", "-o", "SOURCE", "/"],
                         capture_output=True, text=True).stdout.strip()
    return os.path.basename(src) if src.startswith("/dev/") else None


def _disk_done(disk):
    """Requests DISK completed so far (reads + writes, /proc/diskstats)."""
    with open("/proc/diskstats") as f:
        for line in f:
            w = line.split()
            if w[2] == disk:
                return int(w[3]) + int(w[7])
    return 0


def _virtio_req_irqs():
    """Interrupts of the virtio request queues so far (/proc/interrupts
    lines naming virtioN-req; 0 when there are none)."""
    n = 0
    with open("/proc/interrupts") as f:
        for line in f:
            if "virtio" in line and "-req" in line:
                n += sum(int(x) for x in line.split()[1:] if x.isdigit())
    return n


def b_qd_sweep_randrw(ctx):
    """Mixed reads and writes at depth, against the pure sweeps (since
    session 18, h18-dio): fio libaio O_DIRECT 4 KiB randrw (rwmixread=50)
    of the 1 GiB XFS file at QD 1/4/16/64, then randread and randwrite at
    the same depth at once (so that the three of a depth meet the same
    state of the machine), 1 s each: IOPS (reads + writes), and per job
    the root disk's requests completed per virtio request interrupt (a
    pass's size: the VMM publishes a pass at once, docs/model/nvme.md).
    Why: on the kernel a write's libaio completion takes a worker hop that
    a read's does not (fs/iomap/direct-io.c iomap_dio_bio_end_io queues a
    write's completion on s_dio_done_wq, a read completes inline, v6.18;
    twice on the loop device: the image's ext4 and the guest's XFS), so in
    a mixed pass the reads come back first and fio resubmits them before
    the writes: a depth's commands may reach the disk as two passes where
    pure reads or pure writes make one.  A check, sets no figure."""
    disk = _root_disk()
    f = {}
    for qd in RANDRW_QD:
        for rw in ("randrw", "randread", "randwrite"):
            d0 = _disk_done(disk) if disk else 0
            i0 = _virtio_req_irqs()
            j = fio(["--name=m", "--rw=" + rw, "--rwmixread=50", "--bs=4k",
                     "--direct=1", "--ioengine=libaio",
                     "--iodepth=%d" % qd, "--time_based", "--runtime=1"] +
                    _layout(ctx.xfs + "/cal-dio.dat", "1g"), ctx.xfs)[0]
            d1 = _disk_done(disk) if disk else 0
            i1 = _virtio_req_irqs()
            tag = {"randrw": "rw", "randread": "r", "randwrite": "w"}[rw]
            f["iops_%s_qd%d" % (tag, qd)] = j["read"]["iops"] + \
                j["write"]["iops"]
            f["req_per_irq_%s_qd%d" % (tag, qd)] = \
                (d1 - d0) / (i1 - i0) if i1 > i0 else 0
    return f


QD1_REPEAT_AT = ("start", "middle", "end")
QD1_REPEAT_SECONDS = 1


def b_qd1_repeat(ctx):
    """The sweeps' QD1 job again, at the calibration's start, middle and
    end (since session 18, h18-dio; run_all places it, QD1_REPEAT_AT):
    libaio O_DIRECT 4 KiB random overwrites, then random reads, of the
    1 GiB XFS file, QD1, QD1_REPEAT_SECONDS each: IOPS.  This guest's
    QD1 write moved by ~1.5x between and within sittings (the sweep's
    three QD1 runs of 23:36: 71 / 69 / 105 us; tools/calibrate/
    qd1-mode-probe.py, docs/validation.md session 18 h18-dio), and the
    sweep's three runs come within a few seconds of each other, so
    alone they say which mode the sweep met, not which the machine is
    in.  With these, QD1's rate is the median over the sweep's runs and
    these (qd1_samples), and a spread beyond MODE_RATIO is refused."""
    f = {}
    for rw in ("randwrite", "randread"):
        j = fio(["--name=q", "--rw=" + rw, "--bs=4k", "--direct=1",
                 "--ioengine=libaio", "--iodepth=1", "--time_based",
                 "--runtime=%d" % QD1_REPEAT_SECONDS] +
                _layout(ctx.xfs + "/cal-dio.dat", "1g"), ctx.xfs)[0]
        side = "read" if "read" in rw else "write"
        f["iops_" + side] = j[side]["iops"]
    f["unix_time"] = time.time()
    return f


def b_qd_sweep_write(ctx):
    return _sweep(ctx, "randwrite")


# QD4 since session 20 (h20-dev): the grid's O_DIRECT writes at QD4 on a
# file just laid out were +15/+27% fast in the model fitted to QD 16 and
# 64 alone (05:50 sitting), while the rested sweep's QD4 was -15% slow:
# the fresh file's QD4 was not measured.  With it, FRESH_FIT's s covers
# QD 4-64 (raw files without it: QD 16 and 64, as before).
LAYOUT_QD = (4, 16, 64)
LAYOUT_SECONDS = 3
LAYOUT_LOG_MS = 500


def _rate_log(prefix):
    """The per-interval IOPS of fio's --write_iops_log=PREFIX (one line a
    LAYOUT_LOG_MS window: msec, IOPS, direction, ...)."""
    with open(prefix + "_iops.1.log") as f:
        return [float(line.split(",")[1]) for line in f if line.strip()]


def b_qd_sweep_write_layout(ctx):
    """dev.qd-sweep-write's job on a file laid out just before it, and
    the same job again at once on the same file, with fio's per-interval
    rate (since session 17, h17-dioq): a 512 MiB XFS file of its own,
    made afresh for each depth by fio's layout (buffered writes of the
    whole file) and syncfs, as fio() does before every benchmark, then
    LAYOUT_SECONDS of libaio O_DIRECT 4 KiB random overwrites at QD 16
    and 64 ("fresh"), then the same again ("again"), the rate logged
    every LAYOUT_LOG_MS.  dev.qd-sweep-write runs each depth 1 s on a
    file laid out long before; the two differ from it in the file's age
    and the run's length, and their first second against the rest says
    whether the write rate falls within a run (docs/validation.md,
    session 17 h17-dioq: on a busy machine a fresh layout's writes ran
    at 55-65% of a rested file's).  Since session 19 (h19-depth,
    FRESH_FIT) the fresh runs' medians set the write's serial time
    (pass_fit); the again runs and the rate log are a check."""
    return _layout_runs(ctx, "randwrite")


# dev.qd-sweep-write-fs (session 22, h22-depth): a check, sets no figure.
# The write sweep's twins run on the XFS loop filesystem with a 512 MiB
# layout; the grid's ext4 O_DIRECT rows on the ext4 loop filesystem
# (loopfs.sh: loop1, its own image on the root disk) with a 1 GiB one,
# and the model runs the two as one job.  On the 11:24 / 11:34 sitting
# the fresh 512 MiB runs gave a write's serial time of 8.8 us, the
# grid's ext4 rows 11.5 us (docs/validation.md, session 22 h22-depth):
# this bench measures the filesystem and the layout's size apart, under
# the calibration's own procedure, so that a quiet sitting says which of
# them moves the write rate at depth.
FS_LAYOUT_SIZES = ("512m", "1g")
FS_LAYOUT_QD = (16, 64)


def b_qd_sweep_write_fs(ctx):
    """dev.qd-sweep-write-layout's fresh run (a file of its own laid out
    by fio and written back just before, then LAYOUT_SECONDS of libaio
    O_DIRECT 4 KiB random overwrites) on the ext4 and on the XFS loop
    filesystem, with a 512 MiB and a 1 GiB file, at QD 16 and 64, the
    two filesystems interleaved at each size and depth: IOPS
    (iops_FS_SIZE_qdQ).  A filesystem that is not a loop mount is left
    out (its figures absent)."""
    f = {}
    mnts = []
    for fs in ("ext4", "xfs"):
        m = getattr(ctx, fs, None)
        src = subprocess.run(["findmnt", "-n", "-o", "SOURCE,FSTYPE", m],
                             capture_output=True, text=True).stdout.split() \
            if m else []
        if len(src) == 2 and src[0].startswith("/dev/loop") and \
                src[1] == fs:
            mnts.append((fs, m))
    for qd in FS_LAYOUT_QD:
        for size in FS_LAYOUT_SIZES:
            for fs, m in mnts:
                d = os.path.join(m, "cal-fs-layout")
                guard(d)
                subprocess.run(["rm", "-rf", d])
                os.makedirs(d)
                j = fio(["--name=qf", "--rw=randwrite", "--bs=4k",
                         "--direct=1", "--ioengine=libaio",
                         "--iodepth=%d" % qd, "--time_based",
                         "--runtime=%d" % LAYOUT_SECONDS] +
                        _layout(os.path.join(d, "l.dat"), size), m)[0]
                f["iops_%s_%s_qd%d" % (fs, size, qd)] = j["write"]["iops"]
                subprocess.run(["rm", "-rf", d])
    return f


def b_qd_sweep_read_layout(ctx):
    """dev.qd-sweep-write-layout's runs with dev.qd-sweep-read's job
    (since session 19, h19-depth): random reads at QD 16 and 64 of a
    512 MiB XFS file laid out (fio's buffered layout and syncfs) just
    before ("fresh"), then again at once, LAYOUT_SECONDS each, the rate
    logged.  The read sweep reads the calibration's rested 1 GiB file;
    whether the host reads a file it has just been written faster is
    what this measures (the writes' side: FRESH_FIT).  Sets fw_ns from
    the fresh runs when the raw file has it (FRESH_FIT)."""
    return _layout_runs(ctx, "randread")


def _layout_runs(ctx, rw):
    """The layout benchmarks' runs (rw randwrite or randread): per depth
    of LAYOUT_QD a fresh 512 MiB file, then the fresh and the again
    run: IOPS, the first second's and the rest's."""
    d = os.path.join(ctx.xfs, "cal-layout")
    guard(d)
    side = "read" if "read" in rw else "write"
    f = {}
    logs = tempfile.mkdtemp(prefix="wpsim-cal-layout-")
    try:
        for qd in LAYOUT_QD:
            subprocess.run(["rm", "-rf", d])
            os.makedirs(d)
            for tag in ("fresh", "again"):
                prefix = os.path.join(logs, "%s-qd%d" % (tag, qd))
                j = fio(["--name=ql", "--rw=" + rw, "--bs=4k",
                         "--direct=1", "--ioengine=libaio",
                         "--iodepth=%d" % qd, "--time_based",
                         "--runtime=%d" % LAYOUT_SECONDS,
                         "--write_iops_log=" + prefix,
                         "--log_avg_msec=%d" % LAYOUT_LOG_MS] +
                        _layout(os.path.join(d, "l.dat"), "512m"),
                        ctx.xfs)[0]
                rates = _rate_log(prefix)
                first = 1000 // LAYOUT_LOG_MS
                f["iops_%s_qd%d" % (tag, qd)] = j[side]["iops"]
                f["iops_%s_first_qd%d" % (tag, qd)] = (
                    statistics.mean(rates[:first]) if rates else 0)
                f["iops_%s_rest_qd%d" % (tag, qd)] = (
                    statistics.mean(rates[first:]) if rates[first:] else 0)
    finally:
        subprocess.run(["rm", "-rf", d, logs])
    return f


SEQ_BYTES = 1 << 20     # dev.seq-write's and dev.seq-read's request
SEQ_QD = 8              # and depth


def _seq(ctx, rw):
    j = fio(["--name=s", "--rw=" + rw, "--bs=%d" % SEQ_BYTES, "--direct=1",
             "--ioengine=libaio", "--iodepth=%d" % SEQ_QD, "--time_based",
             "--runtime=2"] + _layout(ctx.xfs + "/cal-dio.dat", "1g"),
            ctx.xfs)[0]
    return {"bytes_per_sec": j["read" if rw == "read" else "write"]
            ["bw_bytes"]}


def b_seq_write(ctx):
    return _seq(ctx, "write")


def b_seq_read(ctx):
    return _seq(ctx, "read")


# dev.seg-write (since session 21, h21-qd1): the large write's time by
# request size, depth and the pages its data sits in.
SEG_SIZES_KIB = (64, 256, 1024)
SEG_QD = (1, 2, 4, 8)
SEG_MEM = ("malloc", "shmhuge")
SEG_SECONDS = 1
SEG_HUGEPAGES = 16      # 32 MiB of 2 MiB pages: fio's buffers at 1 MiB x QD8


def _hugepages(n):
    """Set vm.nr_hugepages to N; return the old value, or None when it
    cannot (not root)."""
    path = "/proc/sys/vm/nr_hugepages"
    try:
        with open(path) as f:
            old = int(f.read())
        with open(path, "w") as f:
            f.write("%d" % n)
    except OSError:
        return None
    return old


def b_seg_write(ctx):
    """A direct write's latency by its size, depth and the pages its
    buffer sits in (since session 21, h21-qd1): fio libaio O_DIRECT
    sequential overwrites of the written 1 GiB XFS file, SEG_SIZES_KIB
    at QD SEG_QD, SEG_SECONDS s each, from 4 KiB user pages
    (mem=malloc: one scatterlist segment a page) and from huge pages
    (mem=shmhuge: pieces of the loop device's max_segment_size), the two
    interleaved at each size and depth: clat p50 and bytes/s.
    vm.nr_hugepages is raised to SEG_HUGEPAGES for the run and set back
    after; without root, the huge-page figures are left out.  QD8 at
    1 MiB from user pages is dev.seq-write's job."""
    f = {}
    old = _hugepages(SEG_HUGEPAGES)
    mems = SEG_MEM if old is not None else SEG_MEM[:1]
    try:
        for kib in SEG_SIZES_KIB:
            for qd in SEG_QD:
                for mem in mems:
                    j = fio(["--name=g", "--rw=write", "--bs=%dk" % kib,
                             "--direct=1", "--ioengine=libaio",
                             "--iodepth=%d" % qd, "--mem=" + mem,
                             "--time_based",
                             "--runtime=%d" % SEG_SECONDS] +
                            _layout(ctx.xfs + "/cal-dio.dat", "1g"),
                            ctx.xfs)[0]
                    w = j["write"]
                    tag = "%dk_%s_qd%d" % (kib, mem, qd)
                    f["clat_p50_" + tag] = pct(w["clat_ns"], 50)
                    f["bytes_per_sec_" + tag] = w["bw_bytes"]
    finally:
        if old is not None:
            _hugepages(old)
    return f


SEQ_SMALL_QD = (8, 32)


def b_seq_small_write(ctx):
    """Small sequential writes at a shallow depth, against random ones of
    the same size and depth in the same run: fio libaio O_DIRECT 8 KiB
    overwrites of the written 1 GiB XFS file, sequential and random, at
    QD 8 and 32, 1 s each (the order sequential then random at each
    depth).  A stream of one- and two-page writes, each ending where the
    next begins, at the depths blk-wbt allows buffered writeback (8 at
    its step 0, up to 48 scaled up on a 128-tag queue: block/blk-wbt.c
    calc_wb_limits, v6.18): what a writer kicking writeback after each
    write sends the device, without the page cache.  A check, sets no
    figure: whether the device serves such a stream faster than the
    random sweep says (docs/validation.md, session 16 h16-dev)."""
    f = {}
    for qd in SEQ_SMALL_QD:
        for rw, tag in (("write", "seq"), ("randwrite", "rand")):
            j = fio(["--name=ss", "--rw=" + rw, "--bs=8k", "--direct=1",
                     "--ioengine=libaio", "--iodepth=%d" % qd,
                     "--time_based", "--runtime=1"] +
                    _layout(ctx.xfs + "/cal-dio.dat", "1g"), ctx.xfs)[0]
            f["iops_%s_qd%d" % (tag, qd)] = j["write"]["iops"]
    return f
WRITEBACK_BYTES = 1 << 30
WRITEBACK_CHUNK = 1 << 20


def b_writeback(ctx):
    """The device's write bandwidth as buffered writeback drives it (since
    session 16, h16-sync): a written 1 GiB XFS file rewritten through the
    page cache (1 MiB writes: all of it dirty, below the background
    threshold, so nothing is written back yet), then
    posix_fadvise(POSIX_FADV_DONTNEED), which submits writeback of the
    whole file in the caller's context (mm/fadvise.c generic_fadvise:
    __filemap_fdatawrite_range with WB_SYNC_NONE, v6.18: iomap_writepages'
    bios, the loop device's requests of up to max_sectors_kb, its tags and
    blk-wbt's depth), and fdatasync, which waits for it and flushes: 1 GiB
    over the time from the fadvise to the fdatasync's return.  dev.seq-write
    (O_DIRECT 1 MiB at QD 8) is a second look at the same link, at one
    depth and request size: 2.0-2.3 GB/s at 19:15 on 2026-12-06 against
    4.5-6.8 at 16:12 on the same guest."""
    path = os.path.join(ctx.xfs, "cal-writeback.dat")
    guard(path)
    buf = b"\0" * WRITEBACK_CHUNK
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        for off in range(0, WRITEBACK_BYTES, WRITEBACK_CHUNK):
            os.pwrite(fd, buf, off)     # the layout: written blocks
        os.fdatasync(fd)
        for off in range(0, WRITEBACK_BYTES, WRITEBACK_CHUNK):
            os.pwrite(fd, buf, off)     # every folio dirty again
        t0 = time.perf_counter_ns()
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        t1 = time.perf_counter_ns()
        os.fdatasync(fd)
        t2 = time.perf_counter_ns()
    finally:
        os.close(fd)
        os.unlink(path)
    return {"bytes_per_sec": WRITEBACK_BYTES * 1e9 / (t2 - t0),
            "fadvise_ns": t1 - t0}


def b_writeback_unwritten(ctx):
    """dev.writeback's shape over unwritten extents (a check since session
    22, h22-host): the 1 GiB XFS file fallocated (posix_fallocate: unwritten
    extents, as fio lays out the validation grid's buffered files), made
    dirty with 1 MiB writes, written back by posix_fadvise(DONTNEED) and
    fdatasync; bytes/s from the fadvise to the fdatasync's return.  Each
    ioend then ends in xfs_end_ioend -> xfs_iomap_write_unwritten (a
    transaction per ioend, fs/xfs/xfs_aops.c v6.18) before its folios'
    writeback ends.  h22-host (2026-12-07, 1.5 GiB, interleaved twice):
    1.63-2.47 GB/s against 3.92-3.97 over written extents at 13:23 (load
    12), 2.46-2.74 against 2.44-2.50 at 13:33 (load 17): not decided at
    that load; the quiet sitting's runs say.  Sets no figure (link_write_bytes_per_sec stays
    dev.writeback's): the model charges the conversion itself
    (unwritten_convert_ns)."""
    path = os.path.join(ctx.xfs, "cal-writeback-unwritten.dat")
    guard(path)
    buf = b"\0" * WRITEBACK_CHUNK
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.posix_fallocate(fd, 0, WRITEBACK_BYTES)
        os.fsync(fd)
        for off in range(0, WRITEBACK_BYTES, WRITEBACK_CHUNK):
            os.pwrite(fd, buf, off)     # every folio dirty, unwritten below
        t0 = time.perf_counter_ns()
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.fdatasync(fd)
        t2 = time.perf_counter_ns()
    finally:
        os.close(fd)
        os.unlink(path)
    return {"bytes_per_sec": WRITEBACK_BYTES * 1e9 / (t2 - t0)}


COLD_FILE_BYTES = 512 << 20
COLD_FILES_MAX = 4
COLD_CHUNK = 1 << 20


def b_cold_copy(ctx):
    """The buffered writer's copy into fresh page-cache folios as the cache
    grows (since session 17, h17-buf): up to COLD_FILES_MAX fresh 512 MiB
    XFS files written in turn with 1 MiB writes, each kept cached (their
    sum below 80% of the background threshold, so nothing is written back),
    each write timed alone: per file, the median and the 90th percentile
    ns per 4 KiB.  On this guest (virtio-balloon free page reporting
    negotiated, mm/page_reporting.c v6.18: free memory is reported to the
    host after 2 s) a writer whose cache outgrows the memory freed a
    moment ago pays ~9 us per 4 KiB inside copy_folio_from_iter_atomic
    (perf, 2026-12-06 22:34 UTC) against ~0.5 us: our reading, the host
    faulting back in pages the guest reported.  A check, sets no figure:
    which state of the guest's memory the sitting met (docs/validation.md,
    session 17 h17-buf).  No grid job: Python's pwrite, 1 MiB writes."""
    vm = {}
    with open("/proc/vmstat") as f:
        for line in f:
            k, v = line.split()
            vm[k] = int(v)
    room = vm.get("nr_dirty_background_threshold", 0) * 4096 * 8 // 10
    n = max(1, min(COLD_FILES_MAX, room // COLD_FILE_BYTES))
    buf = b"\0" * COLD_CHUNK
    out = {"files": n}
    paths = []
    try:
        for i in range(n):
            path = os.path.join(ctx.xfs, "cal-cold-%d.dat" % i)
            guard(path)
            paths.append(path)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            ns = []
            try:
                for off in range(0, COLD_FILE_BYTES, COLD_CHUNK):
                    t0 = time.perf_counter_ns()
                    os.pwrite(fd, buf, off)
                    ns.append(time.perf_counter_ns() - t0)
            finally:
                os.close(fd)
            ns.sort()
            pages = COLD_CHUNK // 4096
            out["p50_ns_per_4k_file%d" % i] = ns[len(ns) // 2] / pages
            out["p90_ns_per_4k_file%d" % i] = ns[len(ns) * 9 // 10] / pages
    finally:
        for path in paths:
            os.unlink(path)
    return out


def b_flush(ctx):
    j = fio(["--name=f", "--rw=randwrite", "--bs=4k", "--ioengine=psync",
             "--fdatasync=1", "--time_based", "--runtime=2"] +
            _layout(ctx.xfs + "/cal-flush.dat", "16m"), ctx.xfs)[0]
    return {"sync_p50": pct(j["sync"]["lat_ns"], 50),
            "sync_p10": pct(j["sync"]["lat_ns"], 10)}


# One coarse-clock tick of the loop device's backing filesystem (a jiffy,
# CONFIG_HZ=250) and a margin: a think time this long between two writes
# puts every write in a new tick.
COMMIT_THINK_US = 5000


def b_flush_commit(ctx):
    """dev.flush with COMMIT_THINK_US of think time (a sleep: fio's
    thinktime_spin hung fio 3.33 here at load 16) after each write: every
    write through the loop device
    then lands in a new tick of the backing filesystem's coarse clock and
    moves the image file's mtime, so every flush (an fsync of the image)
    commits the root's journal (drivers/block/loop.c lo_req_flush,
    fs/inode.c inode_needs_update_time, fs/ext4/fsync.c, v6.18).  Against
    dev.flush (a write every ~0.2 ms: most flushes in a tick that already
    moved the mtime): the commit's cost."""
    j = fio(["--name=fc", "--rw=randwrite", "--bs=4k", "--ioengine=psync",
             "--fdatasync=1", "--thinktime=%d" % COMMIT_THINK_US,
             "--time_based",
             "--runtime=2"] +
            _layout(ctx.xfs + "/cal-flush.dat", "16m"), ctx.xfs)[0]
    return {"sync_p50": pct(j["sync"]["lat_ns"], 50),
            "sync_p10": pct(j["sync"]["lat_ns"], 10)}


def _sync_jobs(ctx, tag, jobs, written, every=1, size="16m"):
    """JOBS psync jobs, each 4 KiB random writes to its own 16 MiB (SIZE)
    XFS file with fdatasync after each (after every EVERY: fs.log-force-8),
    2 s: written=True lays the files out
    written (overwrite=1: an fdatasync writes back one page and, with
    nothing to log, flushes the cache: blkdev_issue_flush); False leaves
    them as fio's fallocate makes them (unwritten: each writeback ends in
    an unwritten conversion, so the fdatasync forces the XFS log: an
    iclog write with PREFLUSH|FUA).  Fresh files every run.
    fio's random map writes each block of a file once before any twice,
    and a time_based job starts a new pass when a file is done: from the
    second pass on a fallocated file is written, an fdatasync converts
    nothing and forces no log (a cache flush only).  "passes" (since
    session 22, h22-fdsync) is the writes per job over the file's blocks:
    above 1 the run is not all log forces.  "log_writes" and "log_bytes"
    (since session 23, h23-fdsync) are the XFS log's iclog writes and
    bytes (/proc/fs/xfs/stat's xs_log_writes, xs_log_blocks x 512) per
    fdatasync of the run, where the file can be read."""
    d = os.path.join(ctx.xfs, "cal-" + tag)
    guard(d)
    subprocess.run(["rm", "-rf", d])
    os.makedirs(d)
    try:
        j = fio(["--name=" + tag, "--directory=" + d, "--rw=randwrite",
                 "--bs=4k", "--ioengine=psync", "--fdatasync=%d" % every,
                 "--size=" + size, "--numjobs=%d" % jobs,
                 "--group_reporting",
                 "--time_based", "--runtime=2"] +
                (["--overwrite=1"] if written else []), ctx.xfs,
                xfs_log_stat)[0]
    finally:
        subprocess.run(["rm", "-rf", d])
    blocks = int(size[:-1]) * (1 << 20) // 4096
    out = {"sync_p50": pct(j["sync"]["lat_ns"], 50),
           "sync_p90": pct(j["sync"]["lat_ns"], 90),
           "iops": j["write"]["iops"],
           "passes": j["write"]["total_ios"] / (jobs * blocks)}
    out.update(log_per_sync(j))
    return out


def log_per_sync(j):
    """The log's iclog writes and bytes per fdatasync from a job's probe
    (xfs_log_stat before and after the run) and its fdatasync count;
    nothing without both."""
    b, a = j.get("probe", (None, None))
    n = j.get("sync", {}).get("lat_ns", {}).get("N", 0)
    if b is None or a is None or not n:
        return {}
    return {"log_writes": (a[0] - b[0]) / n,
            "log_bytes": (a[1] - b[1]) * 512 / n}


def b_flush_4j(ctx):
    return _sync_jobs(ctx, "flush4j", 4, True)


def b_log_force(ctx):
    return _sync_jobs(ctx, "logforce", 1, False)


def b_log_force_64m(ctx):
    """fs.log-force with a 64 MiB file (since session 22, the lead, after
    h22-fdsync's finding): fs.log-force's 16 MiB file (4 096 blocks) is
    written over about twice in its 2 s (1.9 passes at the 11:24
    sitting's 3 846 IOPS), so half its fdatasyncs convert nothing and
    force no log; 16 384 blocks keep one job in its first pass below
    ~8 000 IOPS: every fdatasync converts one extent and forces the log.
    log_write_ns is taken from this one when the raw file has it."""
    return _sync_jobs(ctx, "logforce64m", 1, False, 1, "64m")


def b_log_force_4j(ctx):
    return _sync_jobs(ctx, "logforce4j", 4, False)


def b_log_force_8(ctx):
    """fs.log-force with an fdatasync after every 8 writes (since session
    21, h21-qd1): each fdatasync writes back 8 random pages (8 requests)
    and converts 8 unwritten extents before its one log force."""
    return _sync_jobs(ctx, "logforce8", 1, False, 8)


def b_log_force_8_64m(ctx):
    """fs.log-force-8 with a 64 MiB file (since session 23, h23-fdsync):
    in its first pass every fdatasync writes back 8 pages, converts 8
    extents and forces the log (a quiet run goes past it: 1.3-2.1 passes
    at the 17:49 supplement; a later pass converts nothing): its log
    bytes per fdatasync, scaled by its passes, over 8 set
    log_convert_bytes (the checkpoint's size, log_convert_lines), which
    fs.log-force-8-4j-64m (four such jobs) checks."""
    return _sync_jobs(ctx, "logforce864m", 1, False, 8, "64m")


def b_log_force_8_4j(ctx):
    return _sync_jobs(ctx, "logforce84j", 4, False, 8)


def b_log_force_8_4j_64m(ctx):
    """fs.log-force-8-4j with 64 MiB files (since session 22, h22-fdsync):
    fs.log-force-8-4j's 16 MiB files (4 096 blocks) are written over
    several times in its 2 s (7.5 passes at the 11:24 sitting's 61 568
    IOPS), so most of its fdatasyncs convert nothing and force no log;
    16 384 blocks a job keep the run in its first pass (below 1 pass up
    to ~32 000 IOPS): every fdatasync writes back 8 pages, converts 8
    extents and forces the log."""
    return _sync_jobs(ctx, "logforce84j64m", 4, False, 8, "64m")


# fs.log-force-cmds (since session 25, h25-log): fs.log-force-64m's job
# traced command by command on the loop device, so the time of each of
# the four commands an fdatasync into unwritten blocks issues (the data
# write, the record's PREFLUSH, the record, its POSTFLUSH: v6.18's
# xlog_write_iclog REQ_PREFLUSH | REQ_FUA on a queue without FUA,
# block/blk-flush.c) is measured inside the chain rather than taken from
# the one-command benches (dev.flush-empty, dev.flush, dio.qd1-write)
# that set the device profile.  A tracefs instance of its own with
# block_rq_issue/complete (every disk: a loop FLUSH that made the disk
# below write journals the image's mtime, the flush_commit_ns case) and
# the fdatasync syscall's entry and return.  A measurement, sets no
# figure (ON_ASK).
CMDS_TRACE = TRACEFS + "/instances/wpsim-logcmds"
CMDS_EVENTS = ("block/block_rq_issue", "block/block_rq_complete",
               "syscalls/sys_enter_fdatasync", "syscalls/sys_exit_fdatasync")
CMDS_LINE = re.compile(r"^\s*.+?-(\d+)\s+\[\d+\]\s+\S+\s+(\d+)\.(\d+): "
                       r"(block_rq_issue|block_rq_complete|sys_fdatasync)"
                       r"(?::|\(| ->)\s*(.*)$")
# The loop device's commands of one fdatasync into an unwritten block,
# in order: the data write, the record's PREFLUSH, the record (REQ_META
# from xlog_write_iclog), its POSTFLUSH.
LOG_FORCE_SHAPE = ("W", "F", "WM", "F")
# An overwrite's fdatasync (dev.flush's job): the data write, then
# blkdev_issue_flush (nothing logged: xfs_file_fsync, v6.18).
DEV_FLUSH_SHAPE = ("W", "F")


def _rwbs_kind(rwbs):
    """A block event's rwbs as LOG_FORCE_SHAPE names it: F (a flush), WM
    (a metadata write), W (a write), or None."""
    if rwbs.startswith("F"):
        return "F"
    if rwbs.startswith("W"):
        return "WM" if "M" in rwbs else "W"
    return None


def loop_cmd_times(text, loopdev, shape=LOG_FORCE_SHAPE,
                   names=("W", "F1", "WM", "F2")):
    """From a trace of block_rq_issue/complete and the fdatasync syscall
    (CMDS_EVENTS), per fdatasync whose commands on LOOPDEV ("7,0") were
    SHAPE (LOG_FORCE_SHAPE, or DEV_FLUSH_SHAPE): each command's issue to
    completion (ns, under NAMES), the gaps before, between and after
    them (the CPU and the hand-offs: len(SHAPE) + 1 of them), and for
    each FLUSH whether a write of another disk was issued inside it (the
    backing file's journal commit).  A request's second completion (the
    flush machinery ends a PREFLUSH | FUA write's request after its
    POSTFLUSH) is not a command.  Returns {"n", "other" (fdatasyncs of
    another shape), "sync" [ns], "cmd": {name: [ns]}, "gap": [[ns]],
    "commit": {name of a FLUSH: count}, "bare": [ns of FLUSHes with no
    commit]}."""
    flushes = [n for n, k in zip(names, shape) if k == "F"]
    out = {"n": 0, "other": 0, "sync": [],
           "gap": [[] for _ in range(len(shape) + 1)],
           "cmd": {k: [] for k in names}, "commit": {k: 0 for k in flushes},
           "bare": []}
    cur = None
    for ln in text.splitlines():
        m = CMDS_LINE.match(ln)
        if not m:
            continue
        pid, ev, rest = int(m.group(1)), m.group(4), m.group(5)
        ts = (int(m.group(2)) * 1000000 + int(m.group(3))) * 1000
        if ev == "sys_fdatasync":
            if not rest.startswith("0x") and not rest.startswith("-"):
                cur = {"pid": pid, "t0": ts, "cmds": [], "open": None}
                continue
            if cur is None or pid != cur["pid"]:
                continue
            c = cur["cmds"]
            if tuple(k for k, _, _, _ in c) != tuple(shape) or \
                    any(e is None for _, _, e, _ in c):
                out["other"] += 1
            else:
                out["n"] += 1
                out["sync"].append(ts - cur["t0"])
                edges = [cur["t0"]]
                for name, (kind, s, e, com) in zip(names, c):
                    out["cmd"][name].append(e - s)
                    edges += [s, e]
                    if kind == "F":
                        if com:
                            out["commit"][name] += 1
                        else:
                            out["bare"].append(e - s)
                edges.append(ts)
                for i in range(len(shape) + 1):
                    out["gap"][i].append(edges[2 * i + 1] - edges[2 * i])
            cur = None
            continue
        if cur is None:
            continue
        w = rest.split()
        if len(w) < 2:
            continue
        dev, kind = w[0], _rwbs_kind(w[1])
        if dev != loopdev:
            # Another disk's write while a loop FLUSH is out: its commit.
            if ev == "block_rq_issue" and kind in ("W", "WM") and \
                    cur["open"] is not None:
                cur["cmds"][cur["open"]][3] = True
            continue
        if kind is None:
            continue
        if ev == "block_rq_issue":
            cur["cmds"].append([kind, ts, None, False])
            if kind == "F":
                cur["open"] = len(cur["cmds"]) - 1
        else:
            for c in cur["cmds"]:
                if c[0] == kind and c[2] is None:
                    c[2] = ts
                    break
            if kind == "F":
                cur["open"] = None
    return out


def _cmds_run(d, tag, args, loopdev, shape, names):
    """One traced fio run of ARGS in D (CMDS_TRACE) and its
    loop_cmd_times under SHAPE: the figures, keys prefixed TAG."""
    subprocess.run(["fio", "--create_only=1"] + args, cwd=d,
                   capture_output=True)
    subprocess.run(["sync", "-f", d])
    cmd = ["fio", "--output-format=json+", "--percentile_list=" + PCT] + args
    r, _, _, _, _, _, _, text = _traced_run(
        cmd, d, lambda: _trace_instance_begin(CMDS_TRACE, 16384, {},
                                              CMDS_EVENTS),
        lambda: _trace_instance_end(CMDS_TRACE, CMDS_EVENTS),
        "fs.log-force-cmds")
    if r.returncode != 0:
        sys.exit("calibrate: fio failed: %s\n%s" % (" ".join(cmd),
                                                     r.stderr[-2000:]))
    j = json.loads(r.stdout[r.stdout.index("{"):])["jobs"][0]
    out = {tag + "sync_p50": pct(j["sync"]["lat_ns"], 50),
           tag + "iops": j["write"]["iops"]}
    if text is None:
        return out
    t = loop_cmd_times(text, loopdev, shape, names)

    def med(v):
        return float(statistics.median(v)) if v else 0.0
    out.update({tag + "traced": t["n"], tag + "other": t["other"],
                tag + "traced_sync_p50": med(t["sync"]),
                tag + "bare_flush_p50": med(t["bare"])})
    for k, v in t["commit"].items():
        out[tag + "commit_" + k] = v / max(t["n"], 1)
    for k, v in t["cmd"].items():
        out[tag + "cmd_%s_p50" % k] = med(v)
    for i, v in enumerate(t["gap"]):
        out[tag + "gap%d_p50" % i] = med(v)
    return out


def b_log_force_cmds(ctx):
    """fs.log-force-64m's job (one psync job, 4 KiB random writes into a
    fallocated 64 MiB XFS file, fdatasync after each, 2 s: keys lf_),
    then dev.flush's (the same into a written 16 MiB file: keys fl_),
    each traced (CMDS_TRACE): per fdatasync of the job's shape the p50 of
    each loop command and of the gaps between them, the share of each
    FLUSH that committed the backing file's journal, the bare FLUSH's
    p50.  The two in one run say whether the chain's commands cost what
    the one-command benches that set the device profile say."""
    d = os.path.join(ctx.xfs, "cal-logcmds")
    guard(d)
    st = os.stat(ctx.xfs).st_dev
    loopdev = "%d,%d" % (os.major(st), os.minor(st))
    out = {}
    for tag, shape, names, extra in (
            ("lf_", LOG_FORCE_SHAPE, ("W", "F1", "WM", "F2"),
             ["--size=64m"]),
            ("fl_", DEV_FLUSH_SHAPE, ("W", "F"),
             ["--size=16m", "--overwrite=1"])):
        subprocess.run(["rm", "-rf", d])
        os.makedirs(d)
        try:
            out.update(_cmds_run(d, tag, [
                "--name=lcmd", "--directory=" + d, "--rw=randwrite",
                "--bs=4k", "--ioengine=psync", "--fdatasync=1",
                "--time_based", "--runtime=2"] + extra, loopdev, shape,
                names))
        finally:
            subprocess.run(["rm", "-rf", d])
    return out


FLUSH_EMPTY_N = 200


def b_flush_empty(ctx):
    """fdatasync of a clean, allocated XFS file, FLUSH_EMPTY_N times: with
    nothing to write back and the inode unpinned, v6.18's xfs_file_fsync
    forces no log (log_flushed stays 0) and issues blkdev_issue_flush: a
    bare cache flush of the device, nothing to program before it."""
    path = os.path.join(ctx.xfs, "cal-flush-empty.dat")
    guard(path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, b"\0" * 16384)
        os.fsync(fd)
        os.fsync(fd)
        lat = []
        for _ in range(FLUSH_EMPTY_N):
            t0 = time.perf_counter_ns()
            os.fdatasync(fd)
            lat.append(time.perf_counter_ns() - t0)
    finally:
        os.close(fd)
        os.unlink(path)
    lat.sort()
    return {"p10": lat[len(lat) // 10], "p50": lat[len(lat) // 2],
            "p90": lat[len(lat) * 9 // 10]}


# dev.flush-paired (since session 25, h25-stab): rounds of the three
# sides of program_ns's difference, back to back.  A round is in the fast
# mode when each of its sides is within PAIRED_FAST x that side's p10 in
# the run (the loop device's QD1 latency is bimodal: ~0.1 ms, and
# milliseconds when the loop worker waits for a CPU, as the device's
# body takes the fast mode: dev_profile); a run sets program_ns when at
# least PAIRED_MIN_FAST of its rounds are.
FLUSH_PAIRED_N = 300
PAIRED_FAST = 2.0
PAIRED_MIN_FAST = 30


def paired_program(rounds):
    """dev.flush-paired's rounds [(write, sync, empty), ...] (ns): the
    median over the fast-mode rounds of sync - empty - write, and how many
    rounds were fast; (None, n) below PAIRED_MIN_FAST."""
    if not rounds:
        return None, 0
    p10 = []
    for k in range(3):
        v = sorted(r[k] for r in rounds)
        p10.append(v[len(v) // 10])
    fast = [r[1] - r[2] - r[0] for r in rounds
            if all(r[k] <= PAIRED_FAST * p10[k] for k in range(3))]
    if len(fast) < PAIRED_MIN_FAST:
        return None, len(fast)
    return statistics.median(fast), len(fast)


def _sides_p10_p50(sides):
    """The paired benchmarks' sides [(KEY, times), ...]: KEY_p10 and
    KEY_p50 of each side's times (ns), as one dict."""
    out = {}
    for key, lat in sides:
        lat = sorted(lat)
        out[key + "_p10"] = lat[len(lat) // 10]
        out[key + "_p50"] = lat[len(lat) // 2]
    return out


def b_flush_paired(ctx):
    """program_ns's three sides, taken back to back in one loop of
    FLUSH_PAIRED_N rounds (since session 25, h25-stab): an O_DIRECT 4 KiB
    overwrite of a random block of a written 16 MiB XFS file (the write
    dio.qd1-write times, there over a written 1 GiB file: the device's
    speed depends on a file's history, docs/validation.md), a buffered 4 KiB overwrite of a random block of
    a second written 16 MiB file and its fdatasync, timed (what dev.flush
    times: the page's writeback and a cache flush, XFS logging nothing),
    and an fdatasync of a clean, written 16 KiB file (what
    dev.flush-empty times: blkdev_issue_flush alone).  The order turns
    round by round (the three orders of a rotation).  Each round's
    sync - empty - write is a difference taken within a few milliseconds,
    so the machine's drift between benchmarks does not enter it as it
    does the difference of three benchmarks' medians (8 rounds of this
    boot: 1 to 59 767 ns, docs/validation.md session 25 h25-stab).  Its
    figures: each side's p10/p50, the rounds' median difference
    ("prog_p50"), the fast-mode rounds' (paired_program: "prog_fast",
    "fast_rounds") and every round's three times ("rounds")."""
    paths = [os.path.join(ctx.xfs, "cal-flush-paired-%s.dat" % t)
             for t in ("dio", "buf", "empty")]
    for path in paths:
        guard(path)
    blocks = (16 << 20) // 4096
    buf = mmap.mmap(-1, 4096)
    buf.write(b"\x5a" * 4096)
    fds = []
    try:
        for path, size in zip(paths, (16 << 20, 16 << 20, 16384)):
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
            fds.append(fd)
            chunk = b"\0" * (1 << 20)
            for off in range(0, size, len(chunk)):
                os.pwrite(fd, chunk[:min(len(chunk), size - off)], off)
            os.fsync(fd)
        os.fsync(fds[2])
        dfd = os.open(paths[0], os.O_RDWR | os.O_DIRECT)
        fds.append(dfd)
        rng = random.Random(25)
        w, s, e = [], [], []

        def one(k):
            if k == 0:
                off = rng.randrange(blocks) * 4096
                t0 = time.perf_counter_ns()
                os.pwrite(dfd, buf, off)
                w.append(time.perf_counter_ns() - t0)
            elif k == 1:
                os.pwrite(fds[1], b"\x5a" * 4096,
                          rng.randrange(blocks) * 4096)
                t0 = time.perf_counter_ns()
                os.fdatasync(fds[1])
                s.append(time.perf_counter_ns() - t0)
            else:
                t0 = time.perf_counter_ns()
                os.fdatasync(fds[2])
                e.append(time.perf_counter_ns() - t0)
        for i in range(FLUSH_PAIRED_N):
            for k in range(3):
                one((i + k) % 3)
    finally:
        for fd in fds:
            os.close(fd)
        for path in paths:
            if os.path.exists(path):	# not made if the first open failed
                os.unlink(path)
        buf.close()
    rounds = [list(r) for r in zip(w, s, e)]
    d = sorted(b - c - a for a, b, c in rounds)
    out = _sides_p10_p50((("write", w), ("sync", s), ("empty", e)))
    out["prog_p50"] = d[len(d) // 2]
    fast, n = paired_program(rounds)
    out["fast_rounds"] = n
    if fast is not None:
        out["prog_fast"] = fast
    out["rounds"] = rounds
    return out


# dev.flush-commit-paired (since session 25, h25-stab): flush_commit_ns's
# two sides in one loop.
COMMIT_PAIRED_N = 150


def paired_commit(pairs):
    """dev.flush-commit-paired's pairs [(commit, plain), ...] (ns): the
    median over the fast-mode pairs (each side within PAIRED_FAST x its
    p10 in the run) of commit - plain, and how many pairs were fast;
    (None, n) below PAIRED_MIN_FAST."""
    if not pairs:
        return None, 0
    p10 = []
    for k in range(2):
        v = sorted(r[k] for r in pairs)
        p10.append(v[len(v) // 10])
    fast = [r[0] - r[1] for r in pairs
            if all(r[k] <= PAIRED_FAST * p10[k] for k in range(2))]
    if len(fast) < PAIRED_MIN_FAST:
        return None, len(fast)
    return statistics.median(fast), len(fast)


def b_flush_commit_paired(ctx):
    """flush_commit_ns's two sides back to back (since session 25,
    h25-stab): COMMIT_PAIRED_N pairs, each of a buffered 4 KiB overwrite
    of a random block of a written 16 MiB XFS file after COMMIT_THINK_US
    of sleep and its timed fdatasync (dev.flush-commit's: the write lands
    in a new tick of the backing filesystem's coarse clock, moves the
    image's mtime, and the flush commits the root's journal), and at once
    another such write and its timed fdatasync (dev.flush's: within the
    same tick, most often no mtime to move).  Each pair's commit - plain
    is a difference taken within milliseconds, not between two
    benchmarks run apart.  Its figures: each side's p10/p50, every pair
    ("pairs") and the fast-mode pairs' median difference (paired_commit:
    "commit_fast", "fast_pairs").  Sets no figure yet (ON_ASK): at load
    27 (23:19 UTC) none of its three runs had PAIRED_MIN_FAST fast pairs
    (docs/validation.md session 25 h25-stab); a quiet sitting is to show
    whether it can replace dev.flush-commit p10 - dev.flush p10."""
    path = os.path.join(ctx.xfs, "cal-flush-commit-paired.dat")
    guard(path)
    blocks = (16 << 20) // 4096
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    pairs = []
    try:
        chunk = b"\0" * (1 << 20)
        for off in range(0, 16 << 20, len(chunk)):
            os.pwrite(fd, chunk, off)
        os.fsync(fd)
        rng = random.Random(25)
        data = b"\x5a" * 4096
        for _ in range(COMMIT_PAIRED_N):
            pair = []
            for think in (True, False):
                if think:
                    time.sleep(COMMIT_THINK_US / 1e6)
                os.pwrite(fd, data, rng.randrange(blocks) * 4096)
                t0 = time.perf_counter_ns()
                os.fdatasync(fd)
                pair.append(time.perf_counter_ns() - t0)
            pairs.append(pair)
    finally:
        os.close(fd)
        os.unlink(path)
    out = _sides_p10_p50((key, [p[k] for p in pairs])
                         for k, key in enumerate(("commit", "plain")))
    fast, n = paired_commit(pairs)
    out["fast_pairs"] = n
    if fast is not None:
        out["commit_fast"] = fast
    out["pairs"] = pairs
    return out


# fs.alloc-paired (since session 25, h25-stab): delalloc_reserve_ns's two
# sides in one loop.
ALLOC_PAIRED_N = 2000


def b_alloc_paired(ctx):
    """delalloc_reserve_ns's two sides back to back (since session 25,
    h25-stab): ALLOC_PAIRED_N pairs of a buffered 4 KiB append to a fresh
    XFS file (fs.buffered-alloc's write: a folio, the copy, the delalloc
    reservation, i_size) and a buffered 4 KiB overwrite of a random,
    not yet rewritten block of a written XFS file of 4 x ALLOC_PAIRED_N
    blocks whose pages were written back and dropped
    (posix_fadvise(DONTNEED)) before the loop (fs.buffered-overwrite's
    allocating overwrite: a folio and the copy over a written extent, no
    read: the write covers the folio), the order turning pair by pair;
    Python's own cost per call is on both sides.  Its figures: each
    side's p50 and mean, the pairs' append - overwrite median and mean.
    A measurement, sets no figure (ON_ASK): docs/validation.md session
    25 h25-stab."""
    paths = [os.path.join(ctx.xfs, "cal-alloc-paired-%s.dat" % t)
             for t in ("fresh", "over")]
    for path in paths:
        guard(path)
    n = ALLOC_PAIRED_N
    data = b"\x5a" * 4096
    fds = []
    try:
        fds.append(os.open(paths[1], os.O_RDWR | os.O_CREAT | os.O_TRUNC,
                           0o644))
        for off in range(0, n * 4 * 4096, 1 << 20):
            os.pwrite(fds[0], b"\0" * (1 << 20), off)
        os.fsync(fds[0])
        os.posix_fadvise(fds[0], 0, 0, os.POSIX_FADV_DONTNEED)
        fds.append(os.open(paths[0], os.O_RDWR | os.O_CREAT | os.O_TRUNC,
                           0o644))
        over_fd, fresh_fd = fds
        blocks = random.Random(25).sample(range(n * 4), n)
        app, ovw = [], []
        for i in range(n):
            for k in ((0, 1) if i % 2 else (1, 0)):
                if k == 0:
                    t0 = time.perf_counter_ns()
                    os.write(fresh_fd, data)
                    app.append(time.perf_counter_ns() - t0)
                else:
                    t0 = time.perf_counter_ns()
                    os.pwrite(over_fd, data, blocks[i] * 4096)
                    ovw.append(time.perf_counter_ns() - t0)
    finally:
        for fd in fds:
            os.close(fd)
        for path in paths:
            if os.path.exists(path):
                os.unlink(path)
    d = [x - y for x, y in zip(app, ovw)]
    return {"append_p50": statistics.median(app),
            "append_mean": statistics.mean(app),
            "over_p50": statistics.median(ovw),
            "over_mean": statistics.mean(ovw),
            "pair_p50": statistics.median(d), "pair_mean": statistics.mean(d)}


# name, what it measures (printed into the profiles and the raw file), fn
BENCHES = [
    ("cpu.micro", "tools/calibrate/ubench.c: getppid syscall, memcpy "
     "4 KiB hot, memcpy/memset 4 KiB through 256 MiB; each the fastest "
     "of 400 batches of ~50 us", b_cpu),
    ("fs.buffered-overwrite", "fio psync 4 KiB random overwrites of a "
     "cached 16 MiB XFS file, 2 s: clat p50", b_buffered_overwrite),
    ("fs.buffered-overwrite-cached", "fs.buffered-overwrite with "
     "norandommap (no wrap, so fio never drops the file's cache: every "
     "write but the first few thousand overwrites a cached folio): clat "
     "p50", b_buffered_overwrite_cached),
    ("fs.buffered-alloc", "fio psync 4 KiB sequential writes into a "
     "fresh 128 MiB XFS file (fallocate=none: every write allocates a "
     "folio and reserves delalloc blocks): clat p50", b_buffered_alloc),
    ("fs.buffered-alloc-64k", "the same with 64 KiB writes (one fresh "
     "64 KiB folio each): clat p50", b_buffered_alloc_64k),
    ("uring.inline", "fio io_uring QD1 4 KiB random overwrites of the "
     "cached 16 MiB XFS file, 2 s (XFS writes inline): slat+clat p50",
     b_uring_inline),
    ("uring.punt", "the same with force_async=1 (IOSQE_ASYNC: every "
     "write punted to an io-wq worker): slat+clat p50", b_uring_punt),
    ("dio.qd1-write", "fio psync O_DIRECT 4 KiB random overwrites of a "
     "written 1 GiB XFS file, 2 s: clat p10/p50/p90, the json+ histogram's "
     "share beyond 2 x p50, fio's sys CPU per I/O", b_dio_qd1_write),
    ("dio.qd1-read", "the same, random reads", b_dio_qd1_read),
    ("fs.unwritten-dio", "dio.qd1-write into a fresh fallocated "
     "(unwritten) 1 GiB XFS file: every write's completion converts its "
     "block (xfs_iomap_write_unwritten, one transaction): clat "
     "p10/p50/p90", b_unwritten_dio),
    ("fs.unwritten-dio-seq", "fs.unwritten-dio written in order (each "
     "conversion extends the written extent: no record inserted), and "
     "the same sequential writes over a written 1 GiB file: clat p10/p50 "
     "of each", b_unwritten_dio_seq),
    ("fs.unwritten-dio-ext4", "fs.unwritten-dio on the ext4 loop "
     "filesystem (each write splits its unwritten extent at submission "
     "and converts it at completion: two journal handles), and the same "
     "random writes over a written 1 GiB ext4 file: clat p10/p50 and the "
     "writer's CPU per write of each", b_unwritten_dio_ext4),
    ("fs.writeback-alloc", "fio psync 4 KiB sequential buffered writes "
     "with sync_file_range(WRITE) after each into a fresh ftruncated "
     "256 MiB XFS file (each kick allocates its block: "
     "xfs_bmapi_convert_delalloc), and the same over a written file, 2 s "
     "each: sync_file_range p10/p50; sets writeback_alloc_ns (the p10s' "
     "difference)",
     b_writeback_alloc),
    ("dev.qd-sweep-read", "fio libaio O_DIRECT 4 KiB random reads of the "
     "1 GiB XFS file at QD 1/4/16/32/64/128, 1 s each: IOPS",
     b_qd_sweep_read),
    ("dev.qd-sweep-write", "the same, random overwrites",
     b_qd_sweep_write),
    ("dev.qd-sweep-randrw", "fio libaio O_DIRECT 4 KiB randrw "
     "(rwmixread=50) of the 1 GiB XFS file at QD %s, each depth's "
     "randread and randwrite right after it, 1 s each: IOPS, and the root "
     "disk's requests per virtio request interrupt; a check, sets no "
     "figure" % "/".join(str(q) for q in RANDRW_QD), b_qd_sweep_randrw),
    ("dev.qd1-repeat", "the sweeps' QD1 jobs (libaio O_DIRECT 4 KiB "
     "random overwrites, then reads, of the 1 GiB XFS file, %d s each) "
     "once at each of the calibration's %s: IOPS; with the sweeps' own "
     "QD1 runs, the samples whose median is QD1's rate and whose spread "
     "is the mode check" % (QD1_REPEAT_SECONDS, ", ".join(QD1_REPEAT_AT)),
     b_qd1_repeat),
    ("dev.qd-sweep-write-layout", "dev.qd-sweep-write's job at QD %s, "
     "%d s, on a 512 MiB XFS file laid out just before it, then "
     "again at once on the same file: IOPS, and the first second's and "
     "the rest's from fio's per-%d ms rate log; the fresh runs set "
     "fw_write_ns (FRESH_FIT, since session 19), the rest is a check"
     % ("/".join(str(q) for q in LAYOUT_QD), LAYOUT_SECONDS,
        LAYOUT_LOG_MS), b_qd_sweep_write_layout),
    ("dev.qd-sweep-write-fs", "dev.qd-sweep-write-layout's fresh run "
     "(%d s) on the ext4 and on the XFS loop filesystem, with a %s file, "
     "at QD %s: IOPS; a check, sets no figure" % (
         LAYOUT_SECONDS, " and a ".join(FS_LAYOUT_SIZES),
         "/".join(str(q) for q in FS_LAYOUT_QD)), b_qd_sweep_write_fs),
    ("dev.qd-sweep-read-layout", "dev.qd-sweep-read's job at QD %s, "
     "%d s, on a 512 MiB XFS file laid out just before it, then again "
     "at once on the same file: IOPS, and the first second's and the "
     "rest's from fio's per-%d ms rate log; the fresh runs set fw_ns "
     "(FRESH_FIT, since session 19), the rest is a check"
     % ("/".join(str(q) for q in LAYOUT_QD), LAYOUT_SECONDS,
        LAYOUT_LOG_MS), b_qd_sweep_read_layout),
    ("dev.seq-write", "fio libaio O_DIRECT 1 MiB sequential writes, QD 8, "
     "2 s: bytes/s", b_seq_write),
    ("dev.seq-read", "the same, reads", b_seq_read),
    ("dev.seg-write", "fio libaio O_DIRECT sequential overwrites of the "
     "1 GiB XFS file, %s KiB at QD %s, %d s each, from 4 KiB user pages "
     "and from huge pages (mem=malloc / shmhuge, interleaved): clat p50 "
     "and bytes/s; the write's time per segment at QD1 (seg_write_ns)"
     % ("/".join(str(k) for k in SEG_SIZES_KIB),
        "/".join(str(q) for q in SEG_QD), SEG_SECONDS), b_seg_write),
    ("dev.seq-small-write", "fio libaio O_DIRECT 8 KiB overwrites of the "
     "1 GiB XFS file, sequential and random, at QD 8 and 32, 1 s each: "
     "IOPS; a check, sets no figure", b_seq_small_write),
    ("dev.writeback", "a dirty, cached 1 GiB XFS file (rewritten over a "
     "written layout) written back by posix_fadvise(DONTNEED) and "
     "fdatasync: bytes/s from the fadvise to the fdatasync's return",
     b_writeback),
    ("mem.cold-copy", "up to %d fresh 512 MiB XFS files written in turn "
     "with 1 MiB pwrite()s, each kept cached (below the background "
     "threshold): per file, ns per 4 KiB of a write, p50 and p90; a check, "
     "sets no figure" % COLD_FILES_MAX, b_cold_copy),
    # After mem.cold-copy, whose first file meets the memory that
    # dev.writeback freed: this one frees another 1 GiB.
    ("dev.writeback-unwritten", "dev.writeback over a fallocated "
     "(unwritten) 1 GiB XFS file: bytes/s from the fadvise to the "
     "fdatasync's return; a check, sets no figure", b_writeback_unwritten),
    ("dev.flush", "fio psync 4 KiB random overwrites of a written 16 MiB "
     "XFS file with fdatasync after each (XFS: no metadata, so a cache "
     "flush): sync p50", b_flush),
    ("dev.flush-commit", "dev.flush with %d us of think time after "
     "each write, so that every write moves the loop device's backing "
     "file's mtime (a new jiffy) and every flush commits the root's "
     "journal: sync p10/p50" % COMMIT_THINK_US, b_flush_commit),
    ("dev.flush-empty", "fdatasync of a clean, written 16 KiB XFS file, "
     "%d times (XFS: nothing to write back, no log force, so "
     "blkdev_issue_flush alone): p10/p50/p90" % FLUSH_EMPTY_N,
     b_flush_empty),
    ("dev.flush-4j", "dev.flush with 4 jobs, each its own written 16 MiB "
     "XFS file (flushes under concurrency: blk-flush's one flush in "
     "flight): sync p50/p90, IOPS; a check, sets no figure", b_flush_4j),
    ("fs.log-force", "fio psync 4 KiB random writes into a fallocated "
     "(unwritten) 16 MiB XFS file with fdatasync after each (an unwritten "
     "conversion, so an XFS log force: an iclog write with "
     "PREFLUSH|FUA): sync p50/p90, IOPS; a check, sets no figure",
     b_log_force),
    ("fs.log-force-64m", "fs.log-force with a 64 MiB file (in its first "
     "pass: every fdatasync converts an extent and forces the log): sync "
     "p50/p90, IOPS, passes; its sync p50 sets log_write_ns (else "
     "fs.log-force's)", b_log_force_64m),
    ("fs.log-force-4j", "fs.log-force with 4 jobs, each its own file "
     "(log forces and flushes under concurrency): sync p50/p90, IOPS; a "
     "check, sets no figure", b_log_force_4j),
    ("fs.log-force-8", "fs.log-force with an fdatasync after every 8 "
     "writes (8 pages written back and 8 extents converted a log force): "
     "sync p50/p90, IOPS; a check, sets no figure", b_log_force_8),
    ("fs.log-force-8-64m", "fs.log-force-8 with a 64 MiB file (in its "
     "first pass: every fdatasync converts 8 extents and forces the "
     "log): sync p50/p90, IOPS, passes, the log's iclog writes and bytes "
     "per fdatasync; its log bytes set log_convert_bytes",
     b_log_force_8_64m),
    ("fs.log-force-8-4j", "fs.log-force-8 with 4 jobs, each its own file: "
     "sync p50/p90, IOPS; a check, sets no figure", b_log_force_8_4j),
    ("fs.log-force-8-4j-64m", "fs.log-force-8-4j with 64 MiB files (in "
     "its first pass: every fdatasync converts 8 extents and forces the "
     "log): sync p50/p90, IOPS, passes; a check, sets no figure",
     b_log_force_8_4j_64m),
    ("loop.root-write", "dio.qd1-write on the root's ext4 (no loop "
     "device): the loop device's own overhead, not a profile figure",
     b_loop_root_write),
    ("loop.root-read", "dio.qd1-read on the root's ext4", b_loop_root_read),
    ("loop.worker-cpu", "fio psync O_DIRECT random writes of %s KiB at "
     "QD1, %d s each, on the loop device's XFS and on the root's ext4 "
     "(no loop device), interleaved: CPU per write from /proc/stat's busy "
     "time and from the I/O path's threads (fio, kworkers, ksoftirqd: "
     "schedstat); loop minus root sets loop_worker_ns and loop_seg_ns "
     "(since session 21, h21-loop); the worker's own CPU and runs per "
     "request (tracefs) and a 4 KiB QD32 pair split it into "
     "loop_worker_ns, loop_run_ns and loop_complete_ns (since session 22, "
     "h22-loop)" % ("/".join(str(k) for k in
                                            LOOP_CPU_KIB),
                                       LOOP_CPU_SECONDS), b_loop_cpu),
    ("loop.depth-cpu", "fio libaio O_DIRECT 4 KiB random writes, then "
     "reads, at QD %s, %d s each, on the loop device's XFS and on the "
     "root's ext4, interleaved: per request the I/O path's CPU, and "
     "from a tracefs instance the loop worker's CPU and runs, the direct "
     "I/O completion work's CPU, items and runs, the virtio interrupts' "
     "and BLOCK softirqs' CPU and count, and on which CPU (since session "
     "23, h23-loopq); a measurement, sets no figure, run only when --only "
     "names it (ON_ASK)"
     % ("/".join(str(q) for q in LOOP_DEPTH_QD), LOOP_DEPTH_SECONDS),
     b_loop_depth_cpu),
    ("dc.1t-wait", "tools/dontcache-interleaved-probe.c at one thread: "
     "%d RWF_DONTCACHE writes of %d B into a fresh loop XFS file after "
     "%.1f s of idle, traced (a tracefs instance: the writer's switches "
     "with a kernel stack each, its wake-ups, the work items, the virtio "
     "interrupts, the BLOCK softirq): per record the wall time, the "
     "writer's CPU and run-queue time (its own schedstat), its switches "
     "out by reason with the time asleep and queued, who woke it, and "
     "the device side's CPU (since session 24, h24-dc); a measurement, "
     "sets no figure, run only when --only names it (ON_ASK)"
     % (DC_WAIT_RECORDS, DC_WAIT_REC, DC_WAIT_IDLE_S), b_dc_1t_wait),
    ("fs.log-force-cmds", "fs.log-force-64m's job, then dev.flush's, "
     "traced on the loop device (a tracefs instance: "
     "block_rq_issue/complete, the fdatasync syscall): per fdatasync of "
     "the log force's four commands (data write, PREFLUSH, record, "
     "POSTFLUSH), and of dev.flush's two, the p50 of each command "
     "and of the gaps between them, the share of FLUSHes that committed "
     "the backing file's journal, the bare FLUSH's p50 (since session "
     "25, h25-log); a measurement, sets no figure, run only when --only "
     "names it (ON_ASK)", b_log_force_cmds),
    ("dev.flush-paired", "%d rounds, back to back, of an O_DIRECT 4 KiB "
     "overwrite of a written 16 MiB XFS file, a buffered one of another "
     "and its fdatasync, and an fdatasync of a clean 16 KiB file (the "
     "order turning): each side's p10/p50, every round's three times, and "
     "the median of sync - empty - write over the rounds in the fast mode, "
     "which sets program_ns (since session 25, h25-stab)"
     % FLUSH_PAIRED_N, b_flush_paired),
    ("dev.flush-commit-paired", "%d pairs, back to back, of a buffered "
     "4 KiB overwrite of a written 16 MiB XFS file after %d us of sleep "
     "and its fdatasync (a commit of the root's journal), then another at "
     "once and its fdatasync: each side's p10/p50, every pair, and the "
     "median of commit - plain over the pairs in the fast mode (since "
     "session 25, h25-stab); a measurement, sets no figure yet, run only "
     "when --only names it (ON_ASK)"
     % (COMMIT_PAIRED_N, COMMIT_THINK_US), b_flush_commit_paired),
    ("fs.alloc-paired", "%d pairs, back to back, of a buffered 4 KiB "
     "append to a fresh XFS file and a buffered 4 KiB overwrite of a "
     "dropped block of a written one: each side's p50 and mean, the pairs' "
     "append - overwrite median and mean (since session 25, h25-stab); a "
     "measurement, sets no figure, run only when --only names it (ON_ASK)"
     % ALLOC_PAIRED_N, b_alloc_paired),
]


# Benchmarks run once at each of QD1_REPEAT_AT (the calibration's first
# benchmark, the one halfway through BENCHES, and after the last), not
# reps times in a row: each run is tagged with where it ran ("at").
SPREAD = ("dev.qd1-repeat",)

# Benchmarks run only when --only names them (since session 23,
# h23-loopq): measurements for a mechanism's study that set no figure
# and would lengthen every sitting (loop.depth-cpu: ~70 s a round;
# dc.1t-wait, since session 24: a study of the 1-thread DONTCACHE
# writer's waits, ~3 s a round).
ON_ASK = ("loop.depth-cpu", "dc.1t-wait", "fs.log-force-cmds",
          "dev.flush-commit-paired", "fs.alloc-paired")


def only_names(only):
    """--only's list: None for a whole calibration, the names given, or
    for 'default' every benchmark a whole calibration runs (not ON_ASK):
    a round of tools/calibrate/sitting.sh, whose rounds are pooled
    (--pool) into one calibration.  An unknown name is refused."""
    if not only:
        return None
    if only == "default":
        return [b[0] for b in BENCHES if b[0] not in ON_ASK]
    names = only.split(",")
    known = [b[0] for b in BENCHES]
    for n in names:
        if n not in known:
            print("calibrate: --only %s: no such benchmark (expected one "
                  "of calibrate.py's BENCHES or 'default')" % n,
                  file=sys.stderr)
            sys.exit(2)
    return names


def run_all(ctx, reps, only=None):
    raw = {}
    todo = [b for b in BENCHES if (b[0] in only if only else
                                   b[0] not in ON_ASK)]
    spread = [b for b in todo if b[0] in SPREAD]
    body = [b for b in todo if b[0] not in SPREAD]

    def run_spread(at):
        for name, what, fn in spread:
            print("calibrate: %s (%s)" % (name, at), file=sys.stderr,
                  flush=True)
            r = fn(ctx)
            r["at"] = at
            r["loadavg"] = os.getloadavg()[0]
            raw.setdefault(name, {"what": what, "runs": []})["runs"] \
                .append(r)

    for k, (name, what, fn) in enumerate(body):
        if k in (0, len(body) // 2):
            run_spread(QD1_REPEAT_AT[0 if k == 0 else 1])
        runs = []
        for i in range(reps):
            print("calibrate: %s (%d/%d)" % (name, i + 1, reps),
                  file=sys.stderr, flush=True)
            runs.append(fn(ctx))
            runs[-1]["loadavg"] = os.getloadavg()[0]
        raw[name] = {"what": what, "runs": runs}
    run_spread(QD1_REPEAT_AT[-1] if body else QD1_REPEAT_AT[0])
    return raw


# ---- from the figures to the profiles ----------------------------------------

class Fig:
    def __init__(self, raw, sup=None):
        self.raw = raw
        # A supplementary raw file (--supplement): a later run of
        # benchmarks the main file predates, with its own meta.
        self.sup = Fig(sup["raw"]) if sup else None
        self.sup_meta = sup["meta"] if sup else None

    def holding(self, bench, *refs):
        """The Fig whose raw file has BENCH (this one, else the
        supplement), which must also have REFS: a figure derived from a
        difference takes both sides from the same run.  None if
        neither has them."""
        for f in (self, self.sup):
            if f is not None and bench in f.raw:
                return f if all(r in f.raw for r in refs) else None
        return None

    def runs(self, bench, key):
        return [r[key] for r in self.raw[bench]["runs"]]

    def med(self, bench, key):
        return statistics.median(self.runs(bench, key))

    def med_some(self, bench, key):
        """The median over the runs that have KEY, and how many did (a
        run may lack a figure its measurement could not take: a tracefs
        trace that was not kept); (None, 0) if none has it."""
        v = [r[key] for r in self.raw[bench]["runs"] if key in r]
        return (statistics.median(v) if v else None), len(v)

    def show(self, bench, key, fmt="%.0f"):
        v = self.runs(bench, key)
        return " / ".join(fmt % x for x in v)


# Carried, not measured here (tagged [assumption] in the device profile).
GUEST_PATH_NS = 5000     # the guest kernel's own path in a QD1 clat
CMD_NS = 6000            # virtqueue kick and interrupt injection
MODEL_PUNT_OWN_NS = 1520  # the model's own punted-write path, virtio-vm.cpu
SPLIT_CALL = 0.38        # perf split of the buffered write's own CPU
DELALLOC_RESERVE_NS = 910  # default.cpu delalloc_reserve_ns (perf, ext4)


def supplement_lines(meta):
    """The profile header's lines naming the pooled raw files (--pool)
    and the supplementary raw file."""
    L = []
    if meta.get("without"):
        L.append("# Without: %s (left out of every fit with --without: "
                 "the calibration-set check's choice, docs/validation.md "
                 "\"How a mechanism's figure is kept or left out\")"
                 % ", ".join(meta["without"]))
    for p in meta.get("pool", []):
        L.append("# Pooled: %s (measured %s, load average %s; its runs "
                 "of %s added to every figure's runs)" % (
                     p["raw_file"], p["date"], p["load"],
                     ", ".join(p["benches"])))
    sup = meta.get("supplement")
    if not sup:
        return L
    return L + ["# Supplement: %s" % sup["raw_file"],
            "# (a later run of %s: measured %s, load average %s; a figure "
            "from a difference takes both sides from one file)" % (
                ", ".join(sorted(sup.get("benches", []))) or "-",
                sup["date"], sup["load"])]


def buffered_write_split(over, cached_ratio, sysc, copy, copy_fresh,
                         fresh):
    """The buffered write's figures when the raw file has
    fs.buffered-overwrite-cached (since session 14, h14-val2).

    fs.buffered-overwrite's job wraps fio's random map every 4096 writes
    and fio then drops the file's cache (fio 3.33 io_u.c
    loop_cache_invalidate: posix_fadvise(DONTNEED), which writes the
    range back and evicts every clean folio: mm/fadvise.c
    generic_fadvise, v6.18).  So its writes allocate a folio again: in
    the model every one of them (model/mm/fadvise.c), in the kernel most
    (a fincore count after each pass and its fadvise, 13:57 UTC: 55-94%
    of the 16 MiB evicted).  Its p50 is an allocating overwrite, not the
    cached one the old rule took it for; the old rule charged the
    model's folio_alloc_ns (1800 ns, default.cpu's tmpfs figure) and the
    copy into a fresh folio on top of a p50 that already held them.

    The cached overwrite: fs.buffered-overwrite-cached (norandommap: no
    wrap, no fadvise), taken as a ratio to fs.buffered-overwrite of the
    same run (CACHED_RATIO), times OVER (the main file's): a figure from
    a difference or ratio takes both sides from one run, and the ratio
    carries over a run at another load.  Then:
      call  = cached - syscall - copy_hot            (write_call + folio_write)
      alloc = over - cached - (copy_fresh - copy_hot)   (folio_alloc_ns;
              the allocating overwrite less the cached one less the copy
              into a fresh folio the model charges apart; 0 when below)
      delalloc = fresh - over                        (delalloc_reserve_ns:
              fs.buffered-alloc, sequential into a fresh file, against
              the allocating overwrite: the reservation, i_size)
    Returns (cached, call, alloc, alloc_unclamped, delalloc)."""
    cached = cached_ratio * over
    call = max(cached - sysc - copy, 0)
    cf = copy_fresh if copy_fresh is not None and copy_fresh > 0 else copy
    alloc_raw = over - cached - (cf - copy)
    delalloc = max(fresh - over, 0)
    return cached, call, max(alloc_raw, 0), alloc_raw, delalloc


# The benchmarks whose latencies set the CPU profile's buffered and
# io_uring figures; every run of each must hold the mean for the mean to
# be taken (raw files before session 18 hold only p50s).
CPU_BENCHES = (("fs.buffered-overwrite", "clat"),
               ("fs.buffered-overwrite-cached", "clat"),
               ("fs.buffered-alloc", "clat"),
               ("fs.buffered-alloc-64k", "clat"),
               ("uring.inline", "slat_clat"), ("uring.punt", "slat_clat"))

ESTIMATOR_NOTE = {
    "mean": "each run's mean latency (fio's clat mean; slat + clat mean "
            "for io_uring), the median over runs.  The model charges one "
            "figure per operation and predicts rates, so the kernel's "
            "occasional work inside a write (LRU batch drains, the dirty "
            "ratelimit's calls, ticks, the allocator's slow path) belongs "
            "in the figure; a p50 leaves it out (docs/validation.md, "
            "session 18).",
    "p50": "each run's p50 latency, the median over runs (the raw file "
           "predates session 18: it holds no means).",
}


def cpu_estimator(F):
    """"mean" when every run of every benchmark of CPU_BENCHES that the
    raw file (or its supplement) holds has its mean, else "p50"."""
    for bench, key in CPU_BENCHES:
        for f in (F, F.sup):
            if f is not None and bench in f.raw:
                if any(key + "_mean" not in r
                       for r in f.raw[bench]["runs"]):
                    return "p50"
    return "mean"


def fio_io_lines(F):
    """fio_io_ns: fio's own work per I/O between one I/O's end and the
    next one's issue, fs.buffered-overwrite-cached's 1 / IOPS less its
    lat mean (the median over runs); none when the raw file predates
    it."""
    H = F.holding("fs.buffered-overwrite-cached")
    if H is None or any("iops" not in r or "lat_mean" not in r
                        for r in H.raw["fs.buffered-overwrite-cached"]
                        ["runs"]):
        return ["# fio_io_ns: not measured (the raw file predates it): "
                "fio's own work per I/O is not charged"]
    per = [max(1e9 / r["iops"] - r["lat_mean"], 0)
           for r in H.raw["fs.buffered-overwrite-cached"]["runs"]]
    return ["# fio's own work per I/O (not the kernel's): "
            "fs.buffered-overwrite-cached's 1 / IOPS less its lat mean, "
            "each run: %s ns." % " / ".join("%.0f" % x for x in per),
            "fio_io_ns = %.0f\t# [derived] the median of those" %
            statistics.median(per)]


def cpu_profile(F, name, meta):
    est = cpu_estimator(F)
    K, U = "clat_" + est, "slat_clat_" + est
    sysc = F.med("cpu.micro", "syscall")
    copy = F.med("cpu.micro", "copy_hot")
    over = F.med("fs.buffered-overwrite", K)
    rest = max(over - sysc - copy, 0)
    fresh = F.med("fs.buffered-alloc", K)
    # The copy into a fresh folio (fs.buffered-alloc-64k against the 4 KiB
    # run of the same file): the same write call, folio and reservation,
    # 15 x 4 KiB more copied into memory that was not cached.
    G = F.holding("fs.buffered-alloc-64k", "fs.buffered-alloc")
    copy_fresh = None
    if G is not None:
        f64 = G.med("fs.buffered-alloc-64k", K)
        f4 = G.med("fs.buffered-alloc", K)
        copy_fresh = (f64 - f4) / 15
    # The fresh 4 KiB write's copy is charged at the fresh rate when there
    # is one, so the allocation is what is left beside it.
    alloc = fresh - over - DELALLOC_RESERVE_NS - \
        (copy_fresh - copy if copy_fresh is not None and copy_fresh > 0
         else 0)
    inline = F.med("uring.inline", U)
    punt = F.med("uring.punt", U)
    wake = max((punt - inline - MODEL_PUNT_OWN_NS) / 2, 0)
    dio_sys = F.med("dio.qd1-write", "sys_ns_per_io")
    # default.cpu's O_DIRECT figures above the bio (ext4, measured by perf)
    above_bio = 1050 + 1070 + 170
    bio = max(dio_sys - sysc - above_bio, 0)
    L = []
    L.append("# profiles/calibrated/%s.cpu - written by `make calibrate` "
             "(tools/calibrate/calibrate.py); do not edit by hand." % name)
    L.append("# Machine: %s.  Measured %s, %d runs of each benchmark, "
             "load average %s (the machine is shared)." % (
                 meta["machine"], meta["date"], meta["reps"],
                 meta["load"]))
    L.append("# Measurements: %s" % meta["raw_file"])
    L.extend(supplement_lines(meta))
    L.append("# Every figure: [here] = the median of the runs of the named "
             "benchmark (runs listed), [derived] = arithmetic on them, "
             "[carried] = from profiles/cpu/default.cpu.  Fields not named "
             "keep default.cpu's.")
    L.append("# Estimator: %s" % ESTIMATOR_NOTE[est])
    L.append("# cpu.micro: " + F.raw["cpu.micro"]["what"])
    L.append("syscall_ns = %.0f\t# [here] cpu.micro getppid: %s" % (
        sysc, F.show("cpu.micro", "syscall")))
    L.append("copy_hot_ns_per_4k = %.0f\t# [here] cpu.micro memcpy hot: %s"
             % (copy, F.show("cpu.micro", "copy_hot")))
    L.append("copy_dram_ns_per_4k = %.0f\t# [here] cpu.micro memcpy "
             "through 256 MiB: %s" % (F.med("cpu.micro", "copy_dram"),
                                      F.show("cpu.micro", "copy_dram")))
    L.append("zero_ns_per_4k = %.0f\t# [here] cpu.micro memset through "
             "256 MiB: %s" % (F.med("cpu.micro", "zero_dram"),
                              F.show("cpu.micro", "zero_dram")))
    H = F.holding("fs.buffered-overwrite-cached", "fs.buffered-overwrite")
    if H is not None:
        ratio = H.med("fs.buffered-overwrite-cached", K) / \
            H.med("fs.buffered-overwrite", K)
        cached, call, alloc, alloc_raw, delalloc = buffered_write_split(
            over, ratio, sysc, copy, copy_fresh, fresh)
        L.append("# fs.buffered-overwrite: %s: %s ns: most of its writes "
                 "allocate a folio (fio drops the file's cache each time "
                 "its random map wraps: tools/calibrate/calibrate.py "
                 "buffered_write_split)." % (
                     F.raw["fs.buffered-overwrite"]["what"],
                     F.show("fs.buffered-overwrite", K)))
        L.append("# fs.buffered-overwrite-cached: %s: %s ns; "
                 "fs.buffered-overwrite in the same run %s ns%s: ratio "
                 "%.3f, so the cached overwrite here %.0f x %.3f = %.0f ns;"
                 " less syscall and copy: %.0f ns, split %.0f%% / %.0f%% "
                 "as perf split it on ext4 [carried: default.cpu]." % (
                     H.raw["fs.buffered-overwrite-cached"]["what"],
                     H.show("fs.buffered-overwrite-cached", K),
                     H.show("fs.buffered-overwrite", K),
                     "" if H is F else " (the supplement: %s)" %
                     F.sup_meta["raw_file"], ratio, over, ratio, cached,
                     call, 100 * SPLIT_CALL, 100 * (1 - SPLIT_CALL)))
        L.append("write_call_ns = %.0f\t# [derived] %.0f x %.2f" % (
            call * SPLIT_CALL, call, SPLIT_CALL))
        L.append("folio_write_ns = %.0f\t# [derived] %.0f x %.2f" % (
            call * (1 - SPLIT_CALL), call, 1 - SPLIT_CALL))
        cf = copy_fresh if copy_fresh is not None and copy_fresh > 0 \
            else copy
        if alloc_raw > 0:
            L.append("folio_alloc_ns = %.0f\t# [derived] the allocating "
                     "overwrite less the cached one less the copy into a "
                     "fresh folio: %.0f - %.0f - (%.0f - %.0f)" % (
                         alloc, over, cached, cf, copy))
        else:
            L.append("folio_alloc_ns = 0\t# [derived] the allocating "
                     "overwrite less the cached one less the copy into a "
                     "fresh folio: %.0f - %.0f - (%.0f - %.0f) = %.0f, "
                     "below zero: the model's copy into a fresh folio "
                     "(fs.buffered-alloc-64k's rate, into memory not "
                     "cached) already charges more than the kernel's "
                     "allocating overwrite costs beyond a cached one "
                     "(its folios come back from the free lists hot)" % (
                         over, cached, cf, copy, alloc_raw))
        L.append("# fs.buffered-alloc: %s: %s ns; less the allocating "
                 "overwrite's %s: the delalloc reservation (and i_size)." %
                 (F.raw["fs.buffered-alloc"]["what"],
                  F.show("fs.buffered-alloc", K), est))
        L.append("delalloc_reserve_ns = %.0f\t# [derived] %.0f - %.0f" % (
            delalloc, fresh, over))
    else:
        L.append("# fs.buffered-overwrite: %s: %s ns.  Less syscall and copy: "
                 "%.0f ns, split %.0f%% / %.0f%% as perf split it on ext4 "
                 "[carried: default.cpu]." % (
                     F.raw["fs.buffered-overwrite"]["what"],
                     F.show("fs.buffered-overwrite", K), rest,
                     100 * SPLIT_CALL, 100 * (1 - SPLIT_CALL)))
        L.append("write_call_ns = %.0f\t# [derived] %.0f x %.2f" % (
            rest * SPLIT_CALL, rest, SPLIT_CALL))
        L.append("folio_write_ns = %.0f\t# [derived] %.0f x %.2f" % (
            rest * (1 - SPLIT_CALL), rest, 1 - SPLIT_CALL))
        L.append("# fs.buffered-alloc: %s: %s ns; less the overwrite's %s and "
                 "the delalloc reservation the model charges apart "
                 "(delalloc_reserve_ns %d [carried: default.cpu])." % (
                     F.raw["fs.buffered-alloc"]["what"],
                     F.show("fs.buffered-alloc", K), est,
                     DELALLOC_RESERVE_NS))
        if alloc > 0 and copy_fresh is not None and copy_fresh > 0:
            L.append("folio_alloc_ns = %.0f\t# [derived] %.0f - %.0f - %d - "
                     "(copy_fresh %.0f - copy_hot %.0f)" % (
                         alloc, fresh, over, DELALLOC_RESERVE_NS, copy_fresh,
                         copy))
        elif alloc > 0:
            L.append("folio_alloc_ns = %.0f\t# [derived] %.0f - %.0f - %d" % (
                alloc, fresh, over, DELALLOC_RESERVE_NS))
        else:
            L.append("# folio_alloc_ns: not set, the difference is %.0f ns "
                     "(noise): default.cpu's stands" % alloc)
    if copy_fresh is not None:
        L.append("# fs.buffered-alloc-64k: %s: %s ns; fs.buffered-alloc "
                 "in the same run %s ns%s." % (
                     G.raw["fs.buffered-alloc-64k"]["what"],
                     G.show("fs.buffered-alloc-64k", K),
                     G.show("fs.buffered-alloc", K),
                     "" if G is F else " (the supplement: %s)" %
                     F.sup_meta["raw_file"]))
        if copy_fresh > 0:
            L.append("copy_fresh_ns_per_4k = %.0f\t# [derived] (%.0f - "
                     "%.0f) / 15" % (copy_fresh, f64, f4))
        else:
            L.append("# copy_fresh_ns_per_4k: not set, the difference is "
                     "%.0f ns (noise): the copy is charged as any other"
                     % copy_fresh)
    L.append("# uring.inline: %s: %s ns; fs.buffered-overwrite's %s %.0f."
             % (F.raw["uring.inline"]["what"],
                F.show("uring.inline", U), est, over))
    L.append("uring_req_ns = %.0f\t# [derived] %.0f - %.0f" % (
        max(inline - over, 0), inline, over))
    L.append("# uring.punt: %s: %s ns.  Two wake-ups (the worker's, the "
             "submitter's) beside the model's own punted path (%d ns "
             "[carried: virtio-vm.cpu's derivation])." % (
                 F.raw["uring.punt"]["what"],
                 F.show("uring.punt", U), MODEL_PUNT_OWN_NS))
    L.append("wake_idle_ns = %.0f\t# [derived] (%.0f - %.0f - %d) / 2" % (
        wake, punt, inline, MODEL_PUNT_OWN_NS))
    # Not set from fio's sys CPU: on a shared machine it is no measure of
    # the block layer's CPU (it swings by 7x between runs); perf is.
    L.append("# dio.qd1-write: fio's sys CPU per O_DIRECT write %s ns "
             "(less the syscall and the O_DIRECT path above the bio: %.0f "
             "ns): not a figure, it swings with the load." % (
                 F.show("dio.qd1-write", "sys_ns_per_io"), bio))
    L.extend(unwritten_convert_lines(F))
    L.extend(cold_copy_lines(F))
    L.extend(unwritten_extend_lines(F))
    L.extend(ext4_map_handle_lines(F))
    L.extend(fio_io_lines(F))
    L.extend(writeback_alloc_lines(F))
    L.extend(log_write_lines(F))
    L.extend(log_convert_lines(F))
    L.extend(wrap_writeback_lines(F))
    L.extend(wake_preempt_lines(meta))
    L.append("bio_submit_ns = 2200\t# [carried] profiles/cpu/virtio-vm.cpu "
             "(perf, 2026-12-01); not measured by make calibrate")
    L.append("bio_complete_ns = 1700\t# [carried] as bio_submit_ns")
    return "\n".join(L) + "\n"


def wake_preempt_lines(meta):
    """wake_preempt_ns with --wake-preempt (since session 24,
    h24-preempt): the timed strategy's wake-up preemption on, at once (1
    ns).  Not measured: the rule is the kernel source's.  v6.18's EEVDF
    (kernel/sched/fair.c check_preempt_wakeup_fair) lets a woken task
    with positive lag preempt the running task of the same slice at once
    (the running one is then not eligible, and RUN_TO_PARITY protects
    only an eligible one), and one with zero lag not before the running
    task's slice ends; the engine has no lag and treats every wake-up as
    the first kind (docs/timed-mode.md "Wake-up preemption").  Without
    the flag nothing is written: default.cpu's 0 (off) stands."""
    if not meta.get("wake_preempt"):
        return []
    L = ["wake_preempt_ns = 1\t# [source] kernel/sched/fair.c "
         "check_preempt_wakeup_fair, v6.18: a woken task with positive "
         "lag preempts the running one at once (--wake-preempt; the "
         "engine treats every wake-up so: docs/timed-mode.md "
         "\"Wake-up preemption\")"]
    if meta.get("wake_preempt_mode") == "none":
        # Since session 25 (h25-preempt): where the running task yields.
        # Not measured: the kernel's configuration, read on this machine
        # from /proc/config.gz (CONFIG_PREEMPT_NONE=y, PREEMPT_DYNAMIC, no
        # preempt= on the command line), and v6.18's rule for it.
        L.append("wake_preempt_mode = 1\t# [source] preempt=none "
                 "(--wake-preempt=none; CONFIG_PREEMPT_NONE=y with "
                 "PREEMPT_DYNAMIC, no preempt= on the command line: "
                 "kernel/sched/core.c sched_dynamic_update, v6.18): the "
                 "running task yields at its return to user space "
                 "(kernel/entry/common.c exit_to_user_mode_loop), a "
                 "cond_resched() or a sleep, not in between")
    return L


def unwritten_convert_lines(F):
    """unwritten_convert_ns from fs.unwritten-dio against dio.qd1-write of
    the same raw file (since session 15, h15-dev; docs/validation.md): the
    two jobs differ only in the file's blocks being unwritten, so the
    difference of their fast modes (p10, as flush_commit_ns takes the
    commit's) is the conversion a completed write runs in the writer's
    context (xfs_iomap_write_unwritten: the transaction, the extent split,
    the commit into the CIL).  The model charges the same figure for each
    writeback ioend that had unwritten blocks (model/fs/xfs/xfs_iomap.c
    m_xfs_end_ioend_convert), the same kernel function.  Without the
    benchmark (a raw file from before session 15) nothing is written:
    default.cpu's figure stands (1 750 ns, from ext4's conversion of a
    fresh file written in order, where each conversion extends its
    neighbour: profiles/cpu/default.cpu)."""
    G = F.holding("fs.unwritten-dio", "dio.qd1-write")
    if G is None:
        return []
    u10, w10 = G.med("fs.unwritten-dio", "p10"), G.med("dio.qd1-write", "p10")
    u50, w50 = G.med("fs.unwritten-dio", "p50"), G.med("dio.qd1-write", "p50")
    conv = u10 - w10
    L = ["# fs.unwritten-dio: %s: p10 %s, p50 %s ns; dio.qd1-write in the "
         "same run p10 %s, p50 %s ns%s (the p50s differ by %.0f ns)." % (
             G.raw["fs.unwritten-dio"]["what"],
             G.show("fs.unwritten-dio", "p10"),
             G.show("fs.unwritten-dio", "p50"),
             G.show("dio.qd1-write", "p10"), G.show("dio.qd1-write", "p50"),
             "" if G is F else " (the supplement: %s)" %
             F.sup_meta["raw_file"], u50 - w50)]
    if conv >= 1:
        L.append("unwritten_convert_ns = %.0f\t# [derived] fs.unwritten-dio "
                 "p10 %.0f - dio.qd1-write p10 %.0f" % (conv, u10, w10))
    else:
        L.append("# unwritten_convert_ns: not set, the difference is %.0f "
                 "ns (noise): default.cpu's stands" % conv)
    return L


def log_write_lines(F):
    """log_write_ns (since session 19, h19-sync; docs/validation.md): what
    fs.log-force's fdatasync takes beyond the device commands and the
    conversion the model issues for it, each taken from its own benchmark
    in the same raw file: a DIO write with its unwritten conversion
    (fs.unwritten-dio p50), two flushes each after a write (dev.flush sync
    p50 less dio.qd1-write p50, twice: the log record's PREFLUSH and its
    FUA's POSTFLUSH on a device without FUA) and the log record's write
    as a 4 KiB data write (dio.qd1-write p50).  The rest is the log
    record's own time (written at the log's 512-byte sector granularity,
    across pages of the backing file) and the log's work-queue hand-offs,
    which the model runs inline (model/fs/xfs/xfs_log.c xlog_write_iclog
    waits it).  The one-job p50 (fs.log-force-64m's when the raw has
    it, since session 22: one pass, every fdatasync a log force; else
    fs.log-force's) is then the model's by construction; the four-job
    figures are the check.  Without the four
    benchmarks nothing is written (default.cpu's 0: not charged)."""
    lfb = "fs.log-force"
    G = None
    # Since session 22: the one-pass bench when the raw file (or its
    # supplement) has it, with the other three from the same file.
    if F.holding("fs.log-force-64m") is not None:
        G = F.holding("fs.log-force-64m", "fs.unwritten-dio", "dev.flush",
                      "dio.qd1-write")
        lfb = "fs.log-force-64m"
    if G is None:
        lfb = "fs.log-force"
        G = F.holding("fs.log-force", "fs.unwritten-dio", "dev.flush",
                      "dio.qd1-write")
    if G is None:
        return []
    lf = G.med(lfb, "sync_p50")
    uw = G.med("fs.unwritten-dio", "p50")
    fl = G.med("dev.flush", "sync_p50")
    w = G.med("dio.qd1-write", "p50")
    rest = lf - uw - 2 * (fl - w) - w
    L = ["# %s sync p50 %s ns; fs.unwritten-dio p50 %s, dev.flush "
         "sync p50 %s, dio.qd1-write p50 %s ns%s." % (
             lfb, G.show(lfb, "sync_p50"),
             G.show("fs.unwritten-dio", "p50"),
             G.show("dev.flush", "sync_p50"),
             G.show("dio.qd1-write", "p50"),
             "" if G is F else " (the supplement: %s)" %
             F.sup_meta["raw_file"])]
    if rest >= 1:
        L.append("log_write_ns = %.0f\t# [derived] %s %.0f - "
                 "fs.unwritten-dio %.0f - 2 x (dev.flush %.0f - "
                 "dio.qd1-write %.0f) - dio.qd1-write %.0f: the log "
                 "record's time beyond a 4 KiB write and its flushes, a "
                 "wait" % (rest, lfb, lf, uw, fl, w, w))
    else:
        L.append("# log_write_ns: not set, the rest is %.0f ns: "
                 "default.cpu's 0 stands" % rest)
    return L


LOG_CONVERT_EVERY = 8   # fs.log-force-8-64m: conversions an fdatasync


def log_convert_lines(F):
    """log_convert_bytes (since session 23, h23-fdsync; docs/validation.md):
    the log's bytes per fdatasync of fs.log-force-8-64m (one job: 8
    random writes into unwritten extents, each conversion a split, then
    one log force; /proc/fs/xfs/stat's log blocks around the run), over
    its 8 conversions: the bytes one splitting conversion adds to its
    checkpoint's record, headers included.  Each run's figure is scaled
    by its passes over the file when above one (the session 23 lead's
    quiet supplement: 0.45, 1.26 and 2.09 passes): fio's random map
    writes each block once a pass, so only the first pass converts, and
    a later pass's fdatasync of an overwrite forces no log (fs/xfs/
    xfs_file.c xfs_fsync_flush_log forces to ili_datasync_seq, which
    fs/xfs/xfs_inode_item.c xfs_inode_item_committing sets only for a
    change beyond the timestamps and i_version, v6.18); the share of
    fdatasyncs that converted is
    1 / passes.  Quiet, the three runs then agree within 1% (3 648, 3 626,
    3 616 bytes) where unscaled they were 3 648, 2 872, 1 729.  The model
    writes a checkpoint larger than an iclog (32 KiB) as several iclogs, in order
    (model/fs/xfs/xfs_log.c m_xlog_write); fs.log-force-8-4j-64m, four
    such jobs whose checkpoints hold several jobs' conversions, is the
    check.  Nothing without the bench or its log figures (default.cpu's
    0: every checkpoint fits one iclog)."""
    G = F.holding("fs.log-force-8-64m")
    if G is None:
        return []
    runs = [r for r in G.raw["fs.log-force-8-64m"]["runs"]
            if "log_bytes" in r and "passes" in r]
    if not runs:
        return ["# log_convert_bytes: fs.log-force-8-64m has no log "
                "figures (/proc/fs/xfs/stat not read): default.cpu's 0 "
                "stands"]
    per_split = [r["log_bytes"] * max(1.0, r["passes"]) / LOG_CONVERT_EVERY
                 for r in runs]
    b, n = statistics.median(per_split), len(runs)
    return ["# fs.log-force-8-64m log bytes per fdatasync %s, iclog writes "
            "per fdatasync %s, passes %s%s." % (
                " / ".join("%.0f" % r["log_bytes"] for r in runs),
                " / ".join("%.2f" % r["log_writes"] for r in runs),
                " / ".join("%.2f" % r["passes"] for r in runs),
                "" if G is F else " (the supplement: %s)" %
                F.sup_meta["raw_file"]),
            "log_convert_bytes = %.0f\t# [derived] fs.log-force-8-64m's "
            "log bytes per fdatasync x max(1, passes) / %d conversions, "
            "the median of %d runs (%s): a split's share of its "
            "checkpoint's record" % (
                b, LOG_CONVERT_EVERY, n,
                " / ".join("%.0f" % v for v in per_split))]


def cold_copy_lines(F):
    """mem.cold-copy (a check, since session 17 h17-buf): one comment
    line, no figure; nothing without the benchmark in the raw file or its
    supplement.  Every run is shown: the first run of a sitting is the one
    that meets the guest's cold memory (the later ones reuse what the
    first freed)."""
    G = F.holding("mem.cold-copy")
    if G is None:
        return []
    n = int(min(G.runs("mem.cold-copy", "files")))
    return ["# mem.cold-copy (a check) ns per 4 KiB of a 1 MiB write into "
            "fresh folios, file by file as the cache grows by 512 MiB, "
            "p50 (each run): %s; p90: %s." % tuple(
                "; ".join("file %d %s" % (i + 1, G.show(
                    "mem.cold-copy", "%s_ns_per_4k_file%d" % (q, i)))
                          for i in range(n)) for q in ("p50", "p90"))]


def p10_difference_lines(F, G, bench, prefix, figure, head):
    """The profile's lines of a figure that is @bench's p10 less its own
    reference's (the same writes over a written file, the same run;
    keys PREFIX + p10 / p50 and ref_ + PREFIX + p10 / p50), from @G (@F
    or its supplement): a comment line with both p10s and p50s, then the
    figure, or a comment that says it is not set (a difference under
    1 ns is noise: default.cpu's figure stands).  unwritten_extend_lines
    and writeback_alloc_lines."""
    b10 = G.med(bench, prefix + "p10")
    r10 = G.med(bench, "ref_" + prefix + "p10")
    L = ["# %s: %sp10 %s, p50 %s ns; over a written file p10 %s, "
         "p50 %s ns%s." % (
             bench, head,
             G.show(bench, prefix + "p10"),
             G.show(bench, prefix + "p50"),
             G.show(bench, "ref_" + prefix + "p10"),
             G.show(bench, "ref_" + prefix + "p50"),
             "" if G is F else " (the supplement: %s)" %
             F.sup_meta["raw_file"])]
    if b10 - r10 >= 1:
        L.append("%s = %.0f\t# [derived] %s p10 %.0f - its written "
                 "file's p10 %.0f" % (figure, b10 - r10, bench, b10, r10))
    else:
        L.append("# %s: not set, the difference is %.0f ns (noise): "
                 "default.cpu's stands" % (figure, b10 - r10))
    return L


def unwritten_extend_cpu_lines(G):
    """unwritten_extend_ns from the CPU the writer spends per write in
    fs.unwritten-dio-seq, less the same over a written file (both sides of
    every run: cpu_ns and ref_cpu_ns); [] when a run lacks them."""
    b = "fs.unwritten-dio-seq"
    runs = G.raw[b]["runs"]
    if not runs or not all("cpu_ns" in r and "ref_cpu_ns" in r
                           for r in runs):
        return []
    diff = statistics.median(r["cpu_ns"] - r["ref_cpu_ns"] for r in runs)
    lat = G.med(b, "p10") - G.med(b, "ref_p10")
    L = ["# %s: the writer's CPU per write %s ns; over a written file %s "
         "ns (fio usr_cpu + sys_cpu of the runtime, per write); the p10 "
         "latency difference %.0f ns (p10 %s / written %s), not used." % (
             b, G.show(b, "cpu_ns"), G.show(b, "ref_cpu_ns"), lat,
             G.show(b, "p10"), G.show(b, "ref_p10"))]
    if diff >= 1:
        L.append("unwritten_extend_ns = %.0f\t# [derived] %s: median of "
                 "the runs' CPU per write less its written file's (the "
                 "conversion's CPU)" % (diff, b))
    else:
        L.append("# unwritten_extend_ns: not set, the CPU difference is "
                 "%.0f ns (noise): default.cpu's stands" % diff)
    return L


def unwritten_extend_lines(F):
    """unwritten_extend_ns from fs.unwritten-dio-seq (since session 17,
    h17-dc; docs/validation.md): its p10 less its own reference's (the
    same sequential writes over a written file, the same run): the
    conversion that extends the written extent on its left, which the
    model charges for an unwritten run whose conversion inserts no record
    (model/fs/xfs/xfs_iomap.c m_xfs_end_ioend_convert).  Without the
    benchmark nothing is written: default.cpu's figure stands (1 750 ns,
    ext4's conversions of a file written in order).

    Since session 21 (h21-irq): when the runs also hold the writer's CPU
    per write on both sides (cpu_ns, ref_cpu_ns: b_unwritten_dio_seq),
    the figure is their difference, a CPU measurement (the model charges
    it as CPU, to the task that converts: the DONTCACHE writer's ioend
    completion in kworker/xfs-conv); the latency difference is kept as a
    comment.  Raw files without them give the p10 difference as before."""
    G = F.holding("fs.unwritten-dio-seq")
    if G is None:
        return []
    cpu = unwritten_extend_cpu_lines(G)
    if cpu:
        return cpu
    return p10_difference_lines(
        F, G, "fs.unwritten-dio-seq", "", "unwritten_extend_ns",
        "%s: " % G.raw["fs.unwritten-dio-seq"]["what"])


def ext4_map_handle_lines(F):
    """ext4_map_handle_ns from fs.unwritten-dio-ext4 (since session 24,
    h24-ext4; docs/validation.md): the median over its runs of the
    writer's CPU per write less the written file's, halved: a write into
    an unwritten block pays two journal handles around ext4_map_blocks
    with i_data_sem held for write (the split in ext4_iomap_alloc, the
    conversion in ext4_convert_unwritten_extents), which the model
    charges one ext4_map_handle_ns each (model/fs/ext4/inode.c
    km_ext4_iomap_alloc, model/fs/ext4/extents.c
    km_ext4_convert_unwritten_extents).  That the two cost the same is an
    assumption (not measured apart).  The p10 latency difference is kept
    as a comment.  Without the benchmark, or with a run that lacks the
    CPU figures, nothing is written: default.cpu's 1 750 ns stands (perf
    of ext4's conversion, ext4_convert_unwritten_io_end_vec)."""
    b = "fs.unwritten-dio-ext4"
    G = F.holding(b)
    if G is None:
        return []
    runs = G.raw[b]["runs"]
    if not runs or not all("cpu_ns" in r and "ref_cpu_ns" in r
                           for r in runs):
        return []
    diff = statistics.median(r["cpu_ns"] - r["ref_cpu_ns"] for r in runs)
    lat = G.med(b, "p10") - G.med(b, "ref_p10")
    L = ["# %s: the writer's CPU per write %s ns; over a written file %s "
         "ns (fio usr_cpu + sys_cpu of the runtime, per write); the p10 "
         "latency difference %.0f ns (p10 %s / written %s), p50 %s / "
         "written %s, not used%s." % (
             b, G.show(b, "cpu_ns"), G.show(b, "ref_cpu_ns"), lat,
             G.show(b, "p10"), G.show(b, "ref_p10"), G.show(b, "p50"),
             G.show(b, "ref_p50"),
             "" if G is F else " (the supplement: %s)" %
             F.sup_meta["raw_file"])]
    if diff / 2 >= 1:
        L.append("ext4_map_handle_ns = %.0f\t# [derived] %s: median of "
                 "the runs' CPU per write less its written file's (%.0f), "
                 "over the write's two journal handles (the split at "
                 "submission, the conversion at completion)" % (
                     diff / 2, b, diff))
    else:
        L.append("# ext4_map_handle_ns: not set, the CPU difference is "
                 "%.0f ns (noise): default.cpu's stands" % diff)
    return L


# default.cpu's per-folio figures of the wrap's writeback and invalidate
# (perf on ext4, 2026-12-01, another machine): their proportions split
# the measured figure (wrap_writeback_split); writeback_end_ns (the
# folio's end of writeback at the bio's completion) stays carried.
WRAP_SPLIT = (("writeback_folio_ns", 1050), ("writepage_map_ns", 810),
              ("folio_drop_ns", 770))
WRITEBACK_END_NS = 425   # default.cpu writeback_end_ns (carried)


def _wrap_outside(runs):
    """Each run's time per I/O outside the write: 1 / IOPS less its lat
    mean (ns); None when a run lacks either."""
    if any("iops" not in r or "lat_mean" not in r for r in runs):
        return None
    return [1e9 / r["iops"] - r["lat_mean"] for r in runs]


def wrap_writeback_split(outside, fio_io, end_ns=WRITEBACK_END_NS):
    """The per-folio cost of fio's wrap in fs.buffered-overwrite (session
    19, h19-wrap).

    Its job (fio's random map over 16 MiB, time_based) wraps every 4096
    writes and fio drops the file's cache then (fio 3.33 io_u.c
    loop_cache_invalidate: posix_fadvise(DONTNEED), mm/fadvise.c
    generic_fadvise, v6.18): the 4096 dirty folios are written back
    (WB_SYNC_NONE, the caller submitting every bio, waiting in wbt_wait
    when the queue's writeback depth is full) and the clean ones
    evicted.  All of it happens between two writes, so it is in the
    job's 1 / IOPS and not in its lat: OUTSIDE (each run's 1 / IOPS less
    its lat mean) less fio's own work per I/O (FIO_IO, fio_io_ns) is the
    wrap's cost per written folio (one 4 KiB folio per write).

    The model charges it as writeback_folio_ns + writepage_map_ns per
    folio submitted, writeback_end_ns per folio completed and
    folio_drop_ns per folio evicted; writeback_end_ns stays carried
    (END_NS), the rest is split among the three in default.cpu's
    proportions (WRAP_SPLIT; perf on ext4: not measured apart here).
    Returns (wrap, [(name, figure)...]) with wrap the median over runs;
    the figures are None when wrap - END_NS is not above zero."""
    wrap = statistics.median(outside) - fio_io
    rest = wrap - end_ns
    if rest <= 0:
        return wrap, None
    tot = sum(w for _, w in WRAP_SPLIT)
    return wrap, [(n, rest * w / tot) for n, w in WRAP_SPLIT]


def wrap_writeback_lines(F):
    """writeback_folio_ns, writepage_map_ns, folio_drop_ns from
    fs.buffered-overwrite's runs (wrap_writeback_split); nothing when
    the raw file's runs of it or of fs.buffered-overwrite-cached (fio_io_ns)
    lack IOPS or lat mean: default.cpu's stand."""
    H = F.holding("fs.buffered-overwrite-cached", "fs.buffered-overwrite")
    if H is None:
        return ["# writeback_folio_ns, writepage_map_ns, folio_drop_ns: "
                "not measured (no fs.buffered-overwrite-cached in the "
                "same run): default.cpu's stand [carried]"]
    out = _wrap_outside(H.raw["fs.buffered-overwrite"]["runs"])
    cached = _wrap_outside(H.raw["fs.buffered-overwrite-cached"]["runs"])
    if out is None or cached is None:
        return ["# writeback_folio_ns, writepage_map_ns, folio_drop_ns: "
                "not measured (the raw file's runs hold no IOPS and lat "
                "mean): default.cpu's stand [carried]"]
    fio_io = statistics.median([max(x, 0) for x in cached])
    wrap, figs = wrap_writeback_split(out, fio_io)
    L = ["# The wrap's writeback and invalidate (fio drops the file's "
         "cache each time fs.buffered-overwrite's random map wraps: "
         "tools/calibrate/calibrate.py wrap_writeback_split): 1 / IOPS "
         "less lat mean, each run: %s ns; less fio_io_ns %.0f: %.0f ns "
         "per written folio (the median)%s." % (
             " / ".join("%.0f" % x for x in out), fio_io, wrap,
             "" if H is F else " (the supplement: %s)" %
             F.sup_meta["raw_file"])]
    if figs is None:
        return L + ["# writeback_folio_ns, writepage_map_ns, folio_drop_ns:"
                    " not set, %.0f ns is not above writeback_end_ns %d "
                    "(noise): default.cpu's stand" % (wrap,
                                                      WRITEBACK_END_NS)]
    tot = sum(w for _, w in WRAP_SPLIT)
    L.append("# Less writeback_end_ns %d [carried: default.cpu]: %.0f ns, "
             "split %s as default.cpu's (perf, ext4) [carried]." % (
                 WRITEBACK_END_NS, wrap - WRITEBACK_END_NS,
                 " / ".join("%.0f%%" % (100 * w / tot)
                            for _, w in WRAP_SPLIT)))
    for (n, v), (_, w) in zip(figs, WRAP_SPLIT):
        L.append("%s = %.0f\t# [derived] %.0f x %d / %d" % (
            n, v, wrap - WRITEBACK_END_NS, w, tot))
    return L


def writeback_alloc_lines(F):
    """writeback_alloc_ns from fs.writeback-alloc (a check since session
    18, h18-dc; a figure since session 19, h19-prealloc, by the rule
    written before any quiet run: once the model has XFS's speculative
    preallocation, writeback_alloc_ns = the benchmark's difference): its
    sync_file_range p10 less its written file's p10, the allocation a
    writeback kick pays on XFS (xfs_bmapi_convert_delalloc), which the
    model charges once per delalloc extent at writeback
    (model/fs/xfs/xfs_iomap.c m_xfs_writeback_allocate).  A difference
    under 1 ns is noise: nothing is set and default.cpu's figure stands
    (2 950 ns, ext4's ext4_map_blocks, carried), as for
    unwritten_extend_ns.  Nothing without the benchmark in the raw file
    or its supplement."""
    G = F.holding("fs.writeback-alloc")
    if G is None:
        return []
    return p10_difference_lines(
        F, G, "fs.writeback-alloc", "sync_", "writeback_alloc_ns",
        "sync_file_range(WRITE) after each 4 KiB write, each kick "
        "allocating its block: ")


SYSFS = ("size", "queue/write_cache", "queue/fua", "mq/0/nr_tags",
         "queue/rotational", "queue/physical_block_size",
         "queue/wbt_lat_usec", "queue/scheduler",
         "queue/atomic_write_max_bytes", "queue/max_hw_sectors_kb",
         "queue/max_sectors_kb", "queue/max_segments",
         "queue/max_segment_size", "queue/virt_boundary_mask")

# The queue limits bios are split at (model/block/blk-merge.c): the
# profile keys and their sysfs files.  A loop device's, when a raw file
# kept before they were read has none: the driver's (drivers/block/
# loop.c loop_add: max_hw_sectors 2560) with blk_validate_limits'
# defaults (BLK_MAX_SEGMENTS, BLK_MAX_SEGMENT_SIZE, no virtual
# boundary), v6.18; /sys/block/loop*/queue shows 1280 / 1280 / 128 /
# 65536 / 0 on this machine's 6.18.44 (docs/model/bio.md "Bio size").
QUEUE_LIMITS = (("max_hw_sectors_kb", "queue/max_hw_sectors_kb", "1280"),
                ("max_sectors_kb", "queue/max_sectors_kb", "1280"),
                ("max_segments", "queue/max_segments", "128"),
                ("max_segment_size", "queue/max_segment_size", "65536"))


def read_sysfs(dev):
    """The device's sysfs figures, kept in the raw file."""
    out = {}
    for rel in SYSFS:
        try:
            with open("/sys/block/%s/%s" % (dev, rel)) as f:
                out[rel] = f.read().strip()
        except OSError:
            pass
    mq = "/sys/block/%s/mq" % dev
    out["nr_hw_queues"] = str(len(os.listdir(mq))) if os.path.isdir(mq) \
        else "1"
    disk = irq_disk(dev)
    out.update(read_below(dev, disk))
    vectors = read_irq(disk)
    if vectors:
        out["irq/disk"] = disk
        out["irq/vectors"] = vectors
    return out


def read_below(dev, disk, sys_root="/sys"):
    """The virtio disk under a loop device's backing file (since session
    24, h24-merge; docs/model/blk-mq.md "The virtio ring"): its driver
    ("below/driver", the name of /sys/block/DISK/device/driver), its
    hardware queue's tags (mq/0/nr_tags), its feature bits
    (device/features: bit 28 is VIRTIO_RING_F_INDIRECT_DESC), virtio_blk's
    queue_depth module parameter, and its queue's max_sectors_kb and
    max_segments.  Empty for a disk that is not under a loop device or
    not a virtio disk."""
    if disk == dev:
        return {}
    base = os.path.join(sys_root, "block", disk)
    out = {}
    try:
        out["below/driver"] = os.path.basename(os.path.realpath(
            os.path.join(base, "device", "driver")))
    except OSError:
        return {}
    if out["below/driver"] != "virtio_blk":
        return {}
    out["below/disk"] = disk
    for key, rel in (("below/nr_tags", "mq/0/nr_tags"),
                     ("below/features", "device/features"),
                     ("below/max_sectors_kb", "queue/max_sectors_kb"),
                     ("below/max_segments", "queue/max_segments"),
                     ("below/scheduler", "queue/scheduler")):
        try:
            with open(os.path.join(base, rel)) as f:
                out[key] = f.read().strip()
        except OSError:
            pass
    try:
        with open(os.path.join(sys_root, "module", "virtio_blk",
                               "parameters", "queue_depth")) as f:
            out["below/queue_depth_param"] = f.read().strip()
    except OSError:
        pass
    return out


VIRTIO_RING_F_INDIRECT_DESC = 28
# The name --without takes for read_below's figures.
VIRTIO_RING_NAME = "virtio.ring"


def virtio_ring(sf):
    """The ring of the virtio disk below a loop device, from read_below's
    figures: (descriptors, max_sectors_kb, max_segments), or None.  v6.18
    drivers/block/virtio_blk.c virtblk_probe sizes the queue to the ring
    (queue_depth = vq->num_free) and halves it without indirect
    descriptors (two a request at the least), so the ring is twice the
    tags then; with indirect descriptors a request takes one and the tags
    bind first (None), as they do when the queue_depth parameter set
    them."""
    try:
        tags = int(sf["below/nr_tags"])
        feats = sf["below/features"]
        msk = int(sf["below/max_sectors_kb"])
        mseg = int(sf["below/max_segments"])
    except (KeyError, ValueError):
        return None
    if sf.get("below/queue_depth_param", "0") not in ("0", ""):
        return None
    if len(feats) > VIRTIO_RING_F_INDIRECT_DESC and \
            feats[VIRTIO_RING_F_INDIRECT_DESC] == "1":
        return None
    return 2 * tags, msk, mseg


def irq_disk(dev):
    """The disk whose interrupt completes @dev's requests: @dev itself, or
    for a loop device the disk under its backing file (the loop request
    completes from the backing request's completion:
    drivers/block/loop.c lo_rw_aio_complete, v6.18)."""
    try:
        with open("/sys/block/%s/loop/backing_file" % dev) as f:
            st = os.stat(f.read().strip())
    except OSError:
        return dev
    path = os.path.realpath("/sys/dev/block/%d:%d" % (
        os.major(st.st_dev), os.minor(st.st_dev)))
    if os.path.exists(os.path.join(path, "partition")):
        path = os.path.dirname(path)
    return os.path.basename(path)


def read_irq(disk, interrupts="/proc/interrupts", irq_dir="/proc/irq"):
    """The disk's request interrupt vectors and the CPUs each is routed
    to (since session 21, h21-irq): "N:NAME:CPUS" joined by ";", NAME a
    /proc/interrupts line of the disk's device (virtio-blk:
    virtioK-req.Q; NVMe: nvmeKqQ, Q > 0, the admin queue left out), CPUS
    /proc/irq/N/effective_affinity_list; None when none is found."""
    try:
        drv = os.path.basename(os.path.realpath(
            "/sys/block/%s/device" % disk))
        with open(interrupts) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    pat = re.compile(r"^%s(-req\.\d+|q[1-9]\d*)$" % re.escape(drv))
    out = []
    for line in lines[1:]:
        w = line.split()
        if not w or not w[0].rstrip(":").isdigit() or not pat.match(w[-1]):
            continue
        n = w[0].rstrip(":")
        try:
            with open(os.path.join(irq_dir, n,
                                   "effective_affinity_list")) as f:
                cpus = f.read().strip()
        except OSError:
            continue
        out.append("%s:%s:%s" % (n, w[-1], cpus))
    return ";".join(out) or None


def irq_cpu_line(vectors, disk):
    """The profile's irq_cpu line from read_irq's vectors: the one CPU
    when every request vector is routed to that CPU alone; else a comment
    saying why it is not set (completions then interrupt the submitter's
    CPU, the model's rule before session 21)."""
    if not vectors:
        return ("# irq_cpu: not set: the raw file has no interrupt "
                "vectors of the disk (kept since session 21)")
    cpus = {v.rsplit(":", 1)[1] for v in vectors.split(";")}
    one = cpus.pop() if len(cpus) == 1 else None
    if one is None or not one.isdigit():
        return ("# irq_cpu: not set: the request vectors of %s are "
                "routed to more than one CPU (%s)" % (disk, vectors))
    return ("irq_cpu = %s\t# [sysfs] /proc/irq/N/effective_affinity_list "
            "of %s's request vector(s) %s: the device's completions, and "
            "the work they queue on a per-CPU workqueue, run there "
            "(docs/model/nvme.md \"irq_cpu\")" % (one, disk, vectors))


def clamp(v):
    """The note for a derived figure that came out below 1 ns (a profile's
    times must be > 0)."""
    return " = %.0f, below 1: 1" % v if v < 1 else ""


# Until session 17: pass_complete when, in both sweeps, the QD16 rate was
# below this share of what 16 overlapping commands would give, capped by
# the plateau (min(16 x QD1, QD128)).  Now only printed: the choice is
# the closed form that fits the sweeps better (pass_fit).  The share
# flipped on a 3% margin between two sittings of one machine (23:36: the
# reads' 0.82; 21:11: 0.59), and in every one of the 18 kept raw files
# of four guests the pass form fits the sweeps better (mean |error| over
# QD 4-64: 3-40% against 18-93% for the overlapping form), the ratio
# rule's "no pass" files (01:45, 04:11, 04:28, 13:21, 16:31, 23:36)
# included (docs/validation.md, session 17, the lead).
PASS_RATIO = 0.8

# The deepest sweep point pass_slope fits s to (since session 17,
# h17-dioq).  On this machine (6.18.44-fc-v1300, AMD EPYC guest, five
# calibrations 2026-12-06 16:12-21:11) the step from QD64 to QD128 adds
# 6-11 us a command to the cycle q / X(q) against 12-24 us between the
# depths below it, in every one of the ten write and read sweeps: QD128
# lies off the line X(q) = q / (L + q s) the others follow, and a fit
# through it set s 7-17% low: the model ran the 21:11 write sweep's own
# job 20 / 9 / 11% fast at QD 16 / 32 / 64 (docs/validation.md, session
# 17 h17-dioq).  What makes QD128 cheaper is not known (it is the loop
# device's and vda's whole tag set; not traced).  QD128 is still
# measured and its misfit printed in the profile.
PASS_FIT_QD_MAX = 64


def pass_slope(pts):
    """The serial time s (ns) of X(q) = q / (L + q s) through the sweep's
    points pts = [(q, X(q))], QD1 held exact (L + s = 1 / X(1): the
    profile's body is the QD1 latency), by least squares in relative
    error over the other depths: the model's time per cycle at depth q is
    T1 + (q - 1) s against the measured q / X(q), each residual divided
    by the measured, so s = sum(a b) / sum(a a) with a = (q - 1) / T(q),
    b = (T(q) - T1) / T(q).  Since session 14 (h14-val); session 13's
    line through QD1 and QD128 alone lay above the sweep's middle
    (docs/model/nvme.md "Completion by pass")."""
    t1 = 1 / dict(pts)[1]
    a = [(q - 1) * x / q for q, x in pts if q != 1]
    b = [(q / x - t1) * x / q for q, x in pts if q != 1]
    return sum(i * j for i, j in zip(a, b)) / sum(i * i for i in a) * 1e9


# The QD1 samples of one direction may differ by this factor at most
# (the largest 1 / IOPS over the smallest) before the calibration calls
# it a change of the device's mode and refuses the figure (since session
# 18, h18-dio).  From the calibration's own raw files of this guest
# (6.18.44-fc-v1300, six calibrations 2026-12-06 16:12-23:36): within a
# sitting whose QD1 runs agree with its psync dio.qd1-write, the sweeps'
# three QD1 runs span up to 1.28 (writes, 19:15) and 1.30 (reads, 19:15);
# the one sitting whose write mode changed within its sweep spans 1.54
# (23:36: 71 / 69 / 105 us; its psync writes ran at 52-59 us p50
# against 82-102 in the five others).  No grid figure set it.
MODE_RATIO = 1.4


def qd1_samples(F, d):
    """The QD1 rates of direction D ("read" or "write"): the sweep's QD1
    runs and, when the raw file has it, dev.qd1-repeat's (at the
    calibration's start, middle and end).  [(where, IOPS)]."""
    b = "dev.qd-sweep-" + d
    out = [("sweep", r["iops_qd1"]) for r in F.raw[b]["runs"]]
    G = F.holding("dev.qd1-repeat")
    if G is not None:
        out += [(r.get("at", "?"), r["iops_" + d])
                for r in G.raw["dev.qd1-repeat"]["runs"]]
    return out


def qd1_rate(F, d):
    """QD1's rate: the median over qd1_samples (the sweep's median alone
    when the raw file predates dev.qd1-repeat)."""
    return statistics.median(x for _, x in qd1_samples(F, d))


def qd1_spread(F, d):
    """(largest / smallest 1 / IOPS, a line naming every sample in us)."""
    xs = qd1_samples(F, d)
    t = [1e6 / x for _, x in xs]
    return max(t) / min(t), ", ".join("%s %.0f" % (w, 1e6 / x)
                                       for w, x in xs)


def mode_check(F):
    """The directions whose QD1 samples span more than MODE_RATIO: a
    message each, naming the samples (empty when they agree)."""
    msgs = []
    for d in ("write", "read"):
        if "dev.qd-sweep-" + d not in F.raw or \
                "iops_qd1" not in F.raw["dev.qd-sweep-" + d]["runs"][0]:
            continue
        ratio, line = qd1_spread(F, d)
        if ratio > MODE_RATIO:
            xs = [1e6 / x for _, x in qd1_samples(F, d)]
            msgs.append("the device changed mode during calibration: "
                        "QD1 %ss took from %.0f us to %.0f us (%.2fx, beyond "
                        "MODE_RATIO %.2f; us per I/O: %s)" % (
                            d, min(xs), max(xs), ratio, MODE_RATIO, line))
    return msgs


# Since session 19 (h19-depth): a direction's serial time s is fitted to
# dev.qd-sweep-{write,read}-layout's "fresh" runs (the sweep's job at QD
# 16 and 64 on a file laid out and written back just before, 3 s) when
# the raw file (or its supplement) has them, not to the sweep's runs on
# the calibration's rested 1 GiB file.  Why (from the calibration's own
# raw files, no grid figure): the two quiet calibrations that ran both
# for the writes (2026-12-06 23:36, 2026-12-07 02:41) measured the device
# 0.64x and 0.58x as fast at QD64 after a layout as on the rested file,
# 0.98x / 0.85x at QD16, and the
# "again" runs, seconds after, as slow: the state a GiB written through
# the loop device and vda leaves the host in lasts longer than a run
# (docs/validation.md, session 19 h19-depth).  Every job the model runs
# (wpsim fio, a scenario) starts on a file it has just laid out, so that
# state, not the rested file's, is the one a job meets.  The rested
# sweeps still decide the form (pass_fit) and are printed with their
# fit.  No quiet calibration has the read runs yet (added session 19).
FRESH_FIT = True


def fresh_points(F, d):
    """[(q, X(q))] of dev.qd-sweep-D-layout's fresh runs (medians) for
    direction D ("write" or "read") when FRESH_FIT and the raw file
    has them, else []."""
    b = "dev.qd-sweep-%s-layout" % d
    G = F.holding(b) if FRESH_FIT else None
    if G is None:
        return []
    runs = G.raw[b]["runs"]
    return [(q, G.med(b, "iops_fresh_qd%d" % q)) for q in LAYOUT_QD
            if "iops_fresh_qd%d" % q in runs[0]]


def pass_fit(F):
    """The QD sweeps against completion by pass: per direction the rate
    at every depth of SWEEP, the QD16 share of min(16 x QD1, QD128)
    (printed, no longer a rule), and the serial time s of
    X(q) = q / (L + q s) fitted to those up to PASS_FIT_QD_MAX
    (pass_slope; the fit's error printed at every depth).  None when a
    sweep lacks a point, s is not positive, or the overlapping form
    X(q) = min(q X(1), the sweep's plateau) (docs/model/nvme.md, closed
    forms) fits both sweeps' points at QD 4..PASS_FIT_QD_MAX as well or
    better (mean |relative error| over both sweeps): the profile then has
    no pass.  Since session 17 (the lead); before it, the QD16 share
    below PASS_RATIO in both sweeps."""
    out = {}
    err_pass, err_over = [], []
    for d in ("read", "write"):
        b = "dev.qd-sweep-" + d
        if b not in F.raw or any("iops_qd%d" % q not in F.raw[b]["runs"][0]
                                 for q in SWEEP):
            return None
        # QD1 is the median over every QD1 sample of the calibration
        # (since session 18: qd1_rate), not the sweep's three alone.
        pts = [(q, qd1_rate(F, d) if q == 1 else F.med(b, "iops_qd%d" % q))
               for q in SWEEP]
        x1, x16, x128 = (dict(pts)[q] for q in (1, 16, 128))
        ratio = x16 / min(16 * x1, x128)
        s = pass_slope([p for p in pts if p[0] <= PASS_FIT_QD_MAX])
        fresh = fresh_points(F, d)
        s_rested = s
        if fresh:
            # The serial time from the device as a job that has just
            # laid its file out meets it (FRESH_FIT, since session 19),
            # QD1 the same samples; the rested sweep's fit printed.
            s = pass_slope([(1, x1)] + fresh)
        if s <= 0:
            return None
        plateau = F.med(b, "iops_max")
        for q, x in pts:
            if 1 < q <= PASS_FIT_QD_MAX:
                err_pass.append(abs(q / (1 / x1 + (q - 1) * s_rested *
                                         1e-9) - x)
                                / x)
                err_over.append(abs(min(q * x1, plateau) - x) / x)
        fit = ["%+.0f%%" % (100 * (q / (1 / x1 + (q - 1) * s * 1e-9) - x)
                            / x) for q, x in pts]
        out[d] = {"x1": x1, "x128": x128, "ratio": ratio, "s": s,
                  "fit": fit, "s_rested": s_rested,
                  "fresh": ["QD%d %.0f %+.0f%%" % (
                      q, x, 100 * (q / (1 / x1 + (q - 1) * s * 1e-9) - x)
                      / x) for q, x in fresh]}
    ep, eo = (sum(e) / len(e) for e in (err_pass, err_over))
    if ep >= eo:
        return None
    out["err_pass"], out["err_over"] = ep, eo
    return out


# The pages of a direct write's user buffer: fio's buffers are 4 KiB
# pages on this guest (transparent huge pages "madvise", which fio does
# not ask for), so each page of dev.seq-write's 1 MiB is a segment of its
# own (model/block/bio.c bio_note_segs counts them so).
SEG_PAGE_BYTES = 4096


def seg_write_fit(F, passes, fw_w, lw):
    """A WRITE's serial time per data segment (seg_write_ns, since session
    20, h20-dev): dev.seq-write (fio libaio O_DIRECT, SEQ_BYTES at
    SEQ_QD, from 4 KiB user pages: SEQ_BYTES / SEG_PAGE_BYTES segments)
    in the pass form X(q) = q / (L + q s), where s is the command's serial
    time fw_write_ns + (segs - 1) seg and L its time outside it: the QD1
    write's 1 / X(1) less its serial time and its 4 KiB transfer, plus
    the request's own transfer at the link (SEQ_BYTES / link_write).  So
    s = (SEQ_QD SEQ_BYTES / bw - L) / SEQ_QD and seg = (s - fw_write_ns)
    / (segs - 1), at least 0.  The link is the higher of dev.writeback
    and dev.seq-write (dev_profile): writeback's requests are a few large
    folios, so with it the segments are what dev.seq-write pays beyond
    the link.  None without completion by pass or dev.seq-write.
    Returns (seg, line) with the arithmetic for the profile's comment."""
    if not passes or "dev.seq-write" not in F.raw:
        return None
    bw = F.med("dev.seq-write", "bytes_per_sec")
    segs = SEQ_BYTES // SEG_PAGE_BYTES
    x1 = passes["write"]["x1"]
    out = 1e9 / x1 - fw_w - 4096e9 / lw + SEQ_BYTES * 1e9 / lw
    cycle = SEQ_QD * SEQ_BYTES * 1e9 / bw
    s = (cycle - out) / SEQ_QD
    seg = max((s - fw_w) / (segs - 1), 0)
    line = ("dev.seq-write %s B/s (%d KiB at QD %d, %d segments of 4 KiB "
            "user pages): a cycle of %d commands %.0f ns; L = 1 / %.0f "
            "IOPS (QD1) - fw_write %.0f - 4096 B / link + %d B / link = "
            "%.0f ns; s = (cycle - L) / %d = %.0f ns; (s - fw_write) / %d"
            % (F.show("dev.seq-write", "bytes_per_sec"), SEQ_BYTES >> 10,
               SEQ_QD, segs, SEQ_QD, cycle, x1, fw_w, SEQ_BYTES, out,
               SEQ_QD, s, segs - 1))
    return seg, line


def _seg_requests(pages, max_segs):
    """The requests a direct write of PAGES user pages becomes at a
    queue of MAX_SEGS segments (block/blk-merge.c bio_split_rw_at: a
    page a segment, max_segments a request; the 1 MiB and smaller sizes
    of dev.seg-write are under max_sectors_kb)."""
    return -(-pages // max_segs)


def _ring_trips(pages, max_segs, ring):
    """How many times a direct write of PAGES user pages fills the virtio
    ring below (model/drivers/block/virtio_blk.c): its requests
    (_seg_requests) in order, each 2 + its segments descriptors, as many
    at a time as the ring holds; 1 without a ring (RING None)."""
    if not ring:
        return 1
    trips, used, left = 1, 0, pages
    while left > 0:
        d = 2 + min(left, max_segs)
        if used and used + d > ring:
            trips, used = trips + 1, 0
        used += d
        left -= min(left, max_segs)
    return trips


def seg_write_qd1_fit(F, fw_w, lw, max_segs, ring=None, trip_ns=None):
    """seg_write_ns and seg_write_overlap from dev.seg-write (since
    session 21, h21-qd1): the QD1 clat p50 of a 1 MiB direct write from
    4 KiB user pages less the 64 KiB one's, in the same run (a median
    of the runs' differences: the guest's own path, the mode and the
    link's setup cancel), is the server's time for the segments the
    larger write adds: with the link overlapping the segments
    (seg_write_overlap: the time after the setup is the longer of the
    two, here the segments) the difference is (n1 - n0) fw_write_ns +
    ((P1 - n1) - (P0 - n0)) seg, P the pages and n the requests the loop
    device's max_segments makes of them (_seg_requests).  Returns (seg,
    line), the line with the huge-page runs' rate per byte at QD1 (the
    link's, against link_write) and what each depth of the 1 MiB
    user-page runs gives per command, (p50(q) - p50(1)) / (q - 1),
    against the model's; None without dev.seg-write.  With the virtio
    ring below (RING descriptors, since session 24), the requests of a
    write that do not fit the ring together go one fill after another,
    each fill beyond the first adding the time a request spends outside
    the server (TRIP_NS: the QD1 write's 1 / X(1) less fw_write_ns), so
    that is taken off the difference too."""
    G = F.holding("dev.seg-write")
    if G is None:
        return None
    runs = G.raw["dev.seg-write"]["runs"]
    big, small = max(SEG_SIZES_KIB), min(SEG_SIZES_KIB)

    def key(kib, mem, q):
        return "clat_p50_%dk_%s_qd%d" % (kib, mem, q)

    def diff(mem, q0, q1, k0, k1):
        v = [r[key(k1, mem, q1)] - r[key(k0, mem, q0)] for r in runs
             if key(k1, mem, q1) in r and key(k0, mem, q0) in r]
        return statistics.median(v) if v else None

    p1, p0 = big * 1024 // SEG_PAGE_BYTES, small * 1024 // SEG_PAGE_BYTES
    n1, n0 = _seg_requests(p1, max_segs), _seg_requests(p0, max_segs)
    d = diff("malloc", 1, 1, small, big)
    t1 = _ring_trips(p1, max_segs, ring)
    t0 = _ring_trips(p0, max_segs, ring)
    trips = (t1 - t0) * (trip_ns or 0) if ring else 0
    seg = max((d - (n1 - n0) * fw_w - trips) / ((p1 - n1) - (p0 - n0)),
              0)
    model_cmd = n1 * fw_w + (p1 - n1) * seg
    line = ("dev.seg-write QD1 clat p50, %d KiB less %d KiB from 4 KiB "
            "user pages: %.0f ns (runs: %s); %d / %d pages in %d / %d "
            "requests (max_segments %d): (%.0f - %d fw_write %.0f%s) / %d"
            % (big, small, d, " / ".join(
                "%.0f" % (r[key(big, "malloc", 1)] -
                          r[key(small, "malloc", 1)]) for r in runs),
               p1, p0, n1, n0, max_segs, d, n1 - n0, fw_w,
               " - %d ring fill(s) of %.0f ns (the virtio ring of %d "
               "descriptors below: %d / %d fills)" % (
                   t1 - t0, trip_ns or 0, ring, t1, t0) if ring else "",
               (p1 - n1) - (p0 - n0)))
    dh = diff("shmhuge", 1, 1, small, big)
    if dh:
        line += ("; from huge pages the same difference %.0f ns, %.2f GB/s "
                 "(link_write %.2f GB/s)" % (
                     dh, (big - small) * 1024 / dh, lw / 1e9))
    per = []
    for q in SEG_QD[1:]:
        dq = diff("malloc", 1, q, big, big)
        if dq is not None:
            per.append("QD%d %.0f" % (q, dq / (q - 1)))
    if per:
        line += ("; %d KiB at depth, per command (p50(q) - p50(1)) / (q - "
                 "1): %s ns against the model's %.0f (docs/validation.md "
                 "session 21 h21-qd1)" % (big, ", ".join(per), model_cmd))
    return seg, line


def read_jitter_figures(F):
    """A read's own jitter from the raw file, or None when it lacks the
    read benchmark's tail figures: the uniform body (dio.qd1-read p90 -
    p10: the read's spread on the path the sweeps measure, through the
    loop device), the tail's share and mean (dio.qd1-read's share beyond
    2 x p50 and its mean beyond p50), and E = (1 - p)(J - 1) / 2 + p tail
    (docs/model/nvme.md "Closed forms").  Not loop.root-read's spread
    (the root's, as jitter_ns takes the writes'): its p90 swung 67-99 us
    between the runs of two quiet calibrations, giving read bodies 27.6
    and 40.2 us; the loop read's gives 31.2 and 32.4 us (docs/validation.md
    session 14 h14-val2)."""
    if "dio.qd1-read" not in F.raw:
        return None
    if "tail_ppm" not in F.raw["dio.qd1-read"]["runs"][0]:
        return None
    j = max(F.med("dio.qd1-read", "p90") - F.med("dio.qd1-read", "p10"), 0)
    ppm = F.med("dio.qd1-read", "tail_ppm")
    tail = F.med("dio.qd1-read", "tail_mean_extra")
    if not ppm or not tail:
        ppm, tail = 0, 0
    p = ppm / 1e6
    return {"jitter_ns": j, "tail_ppm": ppm, "tail_ns": tail,
            "mean": (1 - p) * max(j - 1, 0) / 2 + p * tail}


def _line(xs, ys):
    """Least squares y = a + b x, each at least 0 (b first)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0
    b = max(b, 0)
    return max(my - b * mx, 0), b


def loop_worker_fit(F):
    """loop.worker-cpu's fit (since session 21, h21-loop): per size, the
    CPU per write of the I/O path's threads on the loop device less the
    root's (path_ns medians), by least squares on the segments beyond
    the first (KiB / 4 - 1).  None without the benchmark.

    Since session 22 (h22-loop), when the raw file has the worker's own
    CPU (loop_worker_ns_*: the loop work function's executions in a
    tracefs instance, per request of the loop disk): the line through
    the worker's figures is loop_worker_ns (intercept) and loop_seg_ns
    (slope), the serial submission (drivers/block/loop.c, v6.18:
    lo_rw_aio returns -EIOCBQUEUED once the backing file's direct I/O is
    submitted); the rest of loop minus root, per size, is the completion
    side (lo_rw_aio_complete from the backing bio's end_io: the loop
    request's completion and the upper filesystem's, on the interrupt's
    CPU, not serial with the next submission), whose line's intercept is
    loop_complete_ns and whose slope is reported, not charged (the model
    has no per-segment completion key).  A raw file without them: the
    whole difference is the worker's (loop_complete_ns absent), as
    session 21 wrote it."""
    G = F.holding("loop.worker-cpu")
    if G is None:
        return None
    split = "loop_worker_ns_4k" in G.raw["loop.worker-cpu"]["runs"][0]
    xs, ys, ws, rows = [], [], [], []
    for kib in LOOP_CPU_KIB:
        lp = G.med("loop.worker-cpu", "loop_path_ns_%dk" % kib)
        rp = G.med("loop.worker-cpu", "root_path_ns_%dk" % kib)
        lb = G.med("loop.worker-cpu", "loop_busy_ns_%dk" % kib)
        rb = G.med("loop.worker-cpu", "root_busy_ns_%dk" % kib)
        xs.append(kib // 4 - 1)
        ys.append(lp - rp)
        row = ("%d KiB %.0f - %.0f = %.0f (busy %.0f - %.0f = %.0f)"
               % (kib, lp, rp, lp - rp, lb, rb, lb - rb))
        if split:
            w = G.med("loop.worker-cpu", "loop_worker_ns_%dk" % kib)
            ws.append(w)
            row += "; the worker %.0f, the rest %.0f" % (w, lp - rp - w)
        rows.append(row)
    if not split:
        a, b = _line(xs, ys)
        return {"worker_ns": a, "seg_ns": b, "complete_ns": 0,
                "rows": rows}
    a, b = _line(xs, ws)
    ca, cb = _line(xs, [y - w for y, w in zip(ys, ws)])
    out = {"worker_ns": a, "seg_ns": b, "complete_ns": ca,
           "complete_seg_ns": cb, "run_ns": 0, "rows": rows}
    # The worker at depth (LOOP_CPU_QD): a run drains several commands,
    # so the worker's CPU per request is w = r R + C (r its runs per
    # request, R a run's own cost, C a command's); QD1's line at one
    # segment (a, r1 runs a request, 1 when every request wakes the
    # worker) and the depth run's (w, r) give R and C.  A depth run
    # whose runs per request are not clearly below QD1's (by
    # LOOP_RUN_SPLIT_MIN) splits nothing: the whole figure is a
    # command's.
    # Since session 22 (the lead): a run whose depth figures are missing
    # (its trace was not kept: an overrun or an I/O error, the raw does
    # not say which; the 14:18 sitting's third run) is left
    # out of them, and the row says how many runs they are from.
    kq = "loop_worker_ns_4k_qd%d" % LOOP_CPU_QD
    kr = "loop_worker_runs_4k_qd%d" % LOOP_CPU_QD
    nruns = len(G.raw["loop.worker-cpu"]["runs"])
    wq, nq = G.med_some("loop.worker-cpu", kq)
    rq, nr = G.med_some("loop.worker-cpu", kr)
    if wq is not None and rq is not None:
        r1 = G.med("loop.worker-cpu", "loop_worker_runs_4k")
        row = ("at QD%d, 4 KiB: the worker %.0f a request, %.2f runs "
               "a request (QD1: %.2f)%s" % (
                   LOOP_CPU_QD, wq, rq, r1,
                   "" if min(nq, nr) == nruns else
                   " (from %d of %d runs: the others lack them)" %
                   (min(nq, nr), nruns)))
        kr = "root_path_ns_4k_qd%d" % LOOP_CPU_QD
        if kr in G.raw["loop.worker-cpu"]["runs"][0]:
            # A report (not charged): loop - root at depth, less the
            # worker, the completion side's CPU per request there.
            lq = G.med("loop.worker-cpu",
                       "loop_path_ns_4k_qd%d" % LOOP_CPU_QD)
            rq_ = G.med("loop.worker-cpu", kr)
            row += ("; loop - root %.0f - %.0f = %.0f, the rest %.0f" %
                    (lq, rq_, lq - rq_, lq - rq_ - wq))
        rows.append(row)
        if r1 - rq >= LOOP_RUN_SPLIT_MIN:
            c = min(max((wq * r1 - a * rq) / (r1 - rq), 0), a)
            out["worker_ns"] = c
            out["run_ns"] = (a - c) / r1
    return out


def flush_paired_figures(F):
    """program_ns from dev.flush-paired (the raw file's or its
    supplement's; since session 25, h25-stab): paired_program of each
    run's rounds, the median over the runs that give one; with the lines
    the profile shows ("program" None when no run had PAIRED_MIN_FAST
    fast rounds).  None without the benchmark."""
    G = F.holding("dev.flush-paired")
    if G is None:
        return None
    runs = G.raw["dev.flush-paired"]["runs"]
    got = [paired_program(r["rounds"]) for r in runs]
    vals = [v for v, _ in got if v is not None]
    return {"program": statistics.median(vals) if vals else None,
            "runs": " / ".join("%s (%d)" % ("-" if v is None else
                                            "%.0f" % v, n)
                               for v, n in got),
            "sides": " / ".join("%d / %d / %d" % (r["sync_p50"],
                                                   r["empty_p50"],
                                                   r["write_p50"])
                                for r in runs)}


def dev_profile(F, name, meta, dev):
    sf = meta["sysfs"]

    def sysfs(_dev, rel, default=None):
        return sf.get(rel, default)

    iops_r = F.med("dev.qd-sweep-read", "iops_max")
    iops_w = F.med("dev.qd-sweep-write", "iops_max")
    fw = 1e9 / max(iops_r, iops_w)
    fw_w = None
    passes = pass_fit(F)
    if passes:
        # Completion by pass (docs/model/nvme.md "pass_complete"): at
        # depth q, X(q) = q / (L + q s), s the serial time of a command
        # of that direction: s from QD1 and QD128 of the same sweep.
        fw, fw_w = passes["read"]["s"], passes["write"]["s"]
    lw = F.med("dev.seq-write", "bytes_per_sec")
    # The link's write bandwidth: the higher of the two looks at it
    # (dev.writeback since session 16: writeback's own depth and request
    # size; a raw file without it keeps dev.seq-write's).
    Fwb = F.holding("dev.writeback")
    lw_wb = Fwb.med("dev.writeback", "bytes_per_sec") if Fwb else None
    lw_from_wb = lw_wb is not None and lw_wb > lw
    if lw_from_wb:
        lw = lw_wb
    lr = F.med("dev.seq-read", "bytes_per_sec")
    w10 = F.med("dio.qd1-write", "p10")
    r10 = F.med("dio.qd1-read", "p10")
    # The loop device's QD1 latency is bimodal on a loaded machine: a fast
    # mode near the root's (~60-90 us) and a slow one of milliseconds
    # (the loop worker waiting for a CPU).  The model's device has a
    # uniform body and a tail: the body is the fast mode, from p10 up by
    # the root device's own spread (p90 - p10 of loop.root-write, no loop
    # device), and the slow mode is the tail.
    jitter = max(F.med("loop.root-write", "p90") -
                 F.med("loop.root-write", "p10"), 0)
    read_ns = r10 - GUEST_PATH_NS - CMD_NS - fw - 4096e9 / lr
    ack = w10 - GUEST_PATH_NS - CMD_NS - (fw_w or fw) - 4096e9 / lw
    tail_ppm = F.med("dio.qd1-write", "tail_ppm")
    tail_ns = F.med("dio.qd1-write", "tail_mean_extra")
    rj = None
    if passes:
        # Completion by pass publishes a pass at once with the pass's
        # jitter (docs/model/nvme.md), so the time of a pass of one is
        # its mean: L + s = 1 / X(1) of each sweep (what pass_slope
        # holds exact) less the jitter's mean (E = (1 - p)(jitter - 1)/2
        # + p tail, docs/model/nvme.md "Closed forms").  Since session 14
        # (h14-val): the fast mode's p10 with the jitter on top made a
        # read's QD1 31% slow, which passes in lockstep carry to every
        # depth.
        p = tail_ppm / 1e6
        ejit = (1 - p) * max(jitter - 1, 0) / 2 + p * tail_ns
        read_ns = (1e9 / passes["read"]["x1"] - ejit - GUEST_PATH_NS -
                   CMD_NS - fw - 4096e9 / lr)
        # A read's own jitter (since session 14, h14-val2; model/hw/nvme.c
        # read_jitter_ns): the writes' jitter has a tail of the write
        # QD1's share (2-6% in two quiet runs) where a read's is its own
        # (1.4-2.8%), and subtracting the writes' mean left a read body
        # of 3.5 against 18.2 us.  The read's: dio.qd1-read's spread and
        # tail (read_jitter_figures).
        rj = read_jitter_figures(F)
        if rj is not None:
            read_ns = (1e9 / passes["read"]["x1"] - rj["mean"] -
                       GUEST_PATH_NS - CMD_NS - fw - 4096e9 / lr)
        ack = (1e9 / passes["write"]["x1"] - ejit - GUEST_PATH_NS -
               CMD_NS - fw_w - 4096e9 / lw)
    # The loop device's worker (since session 21, h21-loop): the model
    # charges its CPU per command on a simulated CPU before the device's
    # delays start (model/drivers/block/loop.c), and the QD1 latencies
    # the bodies above come from hold it already: each body, and the
    # bare flush's below, is what is left after it, so it is not counted
    # twice.  (A 4 KiB command is one segment: loop_seg_ns adds nothing
    # to it.)  The serial times of the sweeps' fit (fw_ns, fw_write_ns)
    # and seg_write_ns keep it: the model's worker is serial too but
    # overlaps the device's server, so at depth the slower of the two
    # sets the rate.  Since session 22 (h22-loop), with the worker's own
    # CPU in the raw file, the difference is split (loop_worker_fit): the
    # worker's serial submission and the completion (loop_complete_ns,
    # charged in the device's completion event before the request ends).
    # Both lie on a QD1 request's path, so what is subtracted is still
    # their sum, the whole 4 KiB difference less the completion's
    # per-segment slope; only the worker's part is serial at depth.
    lwf = loop_worker_fit(F)
    lw_ns = lwf["worker_ns"] + lwf["complete_ns"] + lwf.get("run_ns", 0) \
        if lwf else 0
    read_ns -= lw_ns
    ack -= lw_ns
    # With a bare flush measured (dev.flush-empty, since 2026-12-05
    # session 6): flush_ns is the bare flush less the command's costs, and
    # program_ns what a flush after one 4 KiB write costs beyond the
    # write itself (dio.qd1-write p50) and the bare flush: the model
    # programs the open page before it flushes (model/hw/nvme.c
    # do_flush).  Without it (older raw files), program_ns stays the
    # hand-fitted profile's and flush_ns is the sync less it.
    # A flush's own jitter (since session 14, h14-sync): dev.flush-empty's
    # p90 - p10, drawn uniform by every FLUSH (flush_jitter_ns), so the
    # flush body is the p50 less the command, the firmware and the
    # uniform's median (half of it).  Before, the body was the p50 less
    # the command and firmware and every flush drew the QD1 write's jitter
    # on top (mean 45 us with its tail): the bare flush's spread counted
    # twice (docs/validation.md, session 14 h14-sync).
    empty = "dev.flush-empty" in F.raw
    fj = 0
    if empty:
        e50 = F.med("dev.flush-empty", "p50")
        fj = max(F.med("dev.flush-empty", "p90") -
                 F.med("dev.flush-empty", "p10"), 0)
        flush = e50 - CMD_NS - fw - fj / 2 - lw_ns
        program = F.med("dev.flush", "sync_p50") - e50 - \
            F.med("dio.qd1-write", "p50")
        program_ns = max(program, 1)
    else:
        program_ns = 160000
        flush = F.med("dev.flush", "sync_p50") - CMD_NS - fw - program_ns \
            - lw_ns
    # Since session 25 (h25-stab): with dev.flush-paired, program_ns is
    # the same difference taken round by round within one run, in the
    # fast mode (paired_program); the difference of the three benchmarks'
    # medians, each taken minutes apart, carried the machine's drift (1 to
    # 59 767 ns over the 8 rounds of this boot).
    paired = flush_paired_figures(F) if empty else None
    if paired is not None and paired["program"] is not None:
        program = paired["program"]
        program_ns = max(program, 1)
    sectors = int(sysfs(dev, "size", "0"))
    wc = sysfs(dev, "queue/write_cache", "write back")
    L = []
    L.append("# profiles/calibrated/%s.dev - written by `make calibrate` "
             "(tools/calibrate/calibrate.py); do not edit by hand." % name)
    L.append("# The device the validation rows run on: /dev/%s, a loop "
             "device (direct I/O) over an image file on this machine's "
             "root ext4 on its virtio disk (tools/calibrate/loopfs.sh)." %
             dev)
    L.append("# Machine: %s.  Measured %s, %d runs of each benchmark, "
             "load average %s (shared machine)." % (
                 meta["machine"], meta["date"], meta["reps"], meta["load"]))
    L.append("# Measurements: %s" % meta["raw_file"])
    L.extend(supplement_lines(meta))
    L.append("# [here] = median of the named benchmark's runs (listed), "
             "[sysfs] = /sys/block/%s, [derived] = arithmetic, "
             "[assumption] = not measurable from the guest (carried from "
             "the hand-fitted virtio-vm.dev of 2026-12-01; "
             "docs/model/nvme.md)." % dev)
    L.append("# Loop overhead: QD1 4 KiB O_DIRECT p50 on the root's ext4 "
             "without a loop device: write %s ns, read %s ns; through the "
             "loop device (XFS): write %s, read %s (loop.root-*, "
             "dio.qd1-*)." % (F.show("loop.root-write", "p50"),
                              F.show("loop.root-read", "p50"),
                              F.show("dio.qd1-write", "p50"),
                              F.show("dio.qd1-read", "p50")))
    L.append("")
    L.append("name = %s" % name)
    L.append("description = this machine's virtio disk through a loop "
             "device (make calibrate, %s)" % meta["date"][:10])
    L.append("capacity_bytes = %d\t# [sysfs] %d sectors" % (sectors * 512,
                                                              sectors))
    L.append("cmd_ns = %d\t# [assumption] virtqueue kick and interrupt" %
             CMD_NS)
    L.append("# dev.qd-sweep-read IOPS max: %s; dev.qd-sweep-write: %s." % (
        F.show("dev.qd-sweep-read", "iops_max"),
        F.show("dev.qd-sweep-write", "iops_max")))
    if passes:
        for d in ("read", "write"):
            L.append("# dev.qd-sweep-%s IOPS at QD %s: %s." % (
                d, "/".join(str(q) for q in SWEEP), " / ".join(
                    "%.0f" % F.med("dev.qd-sweep-" + d, "iops_qd%d" % q)
                    for q in SWEEP)))
        G = F.holding("dev.qd-sweep-randrw")
        if G is not None:
            # A check (since session 18, h18-dio): no figure is set.
            def rr(k):
                return " / ".join("%.0f" % G.med("dev.qd-sweep-randrw",
                                                  k % q) for q in RANDRW_QD)

            def rq(k):
                return " / ".join("%.1f" % G.med("dev.qd-sweep-randrw",
                                                  k % q) for q in RANDRW_QD)
            L.append("# dev.qd-sweep-randrw (a check) IOPS at QD %s: randrw "
                     "%s; randread %s; randwrite %s; the disk's requests "
                     "per interrupt: %s; %s; %s." % (
                         "/".join(str(q) for q in RANDRW_QD),
                         rr("iops_rw_qd%d"), rr("iops_r_qd%d"),
                         rr("iops_w_qd%d"), rq("req_per_irq_rw_qd%d"),
                         rq("req_per_irq_r_qd%d"), rq("req_per_irq_w_qd%d")))
        for d in ("write", "read"):
            ratio, line = qd1_spread(F, d)
            L.append("# QD1 %ss, us per I/O (1 / IOPS) of every sample: "
                     "%s; spread %.2fx (MODE_RATIO %.2f); X(1) = the "
                     "median, %.0f IOPS." % (d, line, ratio, MODE_RATIO,
                                             passes[d]["x1"]))
        for m in meta.get("mode_accepted", []):
            L.append("# Accepted (--accept-mode-change): %s." % m)
        G = F.holding("dev.seq-small-write")
        if G is not None:
            # A check (since session 16, h16-dev): no figure is set.
            L.append("# dev.seq-small-write (a check) 8 KiB IOPS at QD %s, "
                     "sequential: %s; random: %s." % (
                         "/".join(str(q) for q in SEQ_SMALL_QD),
                         " / ".join("%.0f" % G.med("dev.seq-small-write",
                                                   "iops_seq_qd%d" % q)
                                    for q in SEQ_SMALL_QD),
                         " / ".join("%.0f" % G.med("dev.seq-small-write",
                                                   "iops_rand_qd%d" % q)
                                    for q in SEQ_SMALL_QD)))
        G = F.holding("dev.writeback-unwritten")
        if G is not None:
            # A check (since session 22, h22-host): no figure is set.
            H = G if "dev.writeback" in G.raw else F.holding("dev.writeback")
            L.append("# dev.writeback-unwritten (a check) bytes/s over "
                     "unwritten extents (each run): %s; dev.writeback's over "
                     "written extents: %s." % (
                         G.show("dev.writeback-unwritten", "bytes_per_sec"),
                         H.show("dev.writeback", "bytes_per_sec")
                         if H is not None else "not measured"))
        L.append("# The commands do not overlap their serial part: over "
                 "QD 4-%d of both sweeps X(q) = q / (L + q s) is off by a "
                 "mean %.1f%%, the overlapping min(q X(1), plateau) by "
                 "%.1f%% (pass_fit: the better form; at QD16 the reads "
                 "reach %.2f and the writes %.2f of min(16 x QD1, QD128), "
                 "the rule before session 17 being below %.2f in both).  "
                 "L + s = 1 / X(1); s by least squares in relative error "
                 "over QD 4-%d (QD128 lies off the line: "
                 "tools/calibrate/calibrate.py pass_slope, "
                 "PASS_FIT_QD_MAX)." % (
                     PASS_FIT_QD_MAX, 100 * passes["err_pass"],
                     100 * passes["err_over"],
                     passes["read"]["ratio"], passes["write"]["ratio"],
                     PASS_RATIO, PASS_FIT_QD_MAX))
        for key, d, v in (("fw_ns", "read", fw), ("fw_write_ns", "write",
                                                  fw_w)):
            if passes[d]["fresh"]:
                L.append("%s = %.0f\t# [derived] dev.qd-sweep-%s-layout's "
                         "fresh runs (a file laid out just before: "
                         "FRESH_FIT), QD1 as below: s of the fit, its error "
                         "there: %s; against dev.qd-sweep-%s (the rested "
                         "file, whose own fit gives s = %.0f) at QD %s: %s"
                         % (key, v, d, " / ".join(passes[d]["fresh"]), d,
                            passes[d]["s_rested"],
                            "/".join(str(q) for q in SWEEP),
                            " / ".join(passes[d]["fit"])))
            else:
                L.append("%s = %.0f\t# [derived] dev.qd-sweep-%s: s of the "
                         "fit; its error at QD %s: %s" % (
                             key, v, d, "/".join(str(q) for q in SWEEP),
                             " / ".join(passes[d]["fit"])))
        L.append("pass_complete = 1\t# [derived] the sweeps' shape (above): "
                 "the disk below the loop device completes the commands "
                 "it serves back to back together (a virtio-blk device "
                 "whose VMM executes a notification's requests in turn "
                 "and publishes them at once: docs/model/nvme.md)")
    else:
        L.append("fw_ns = %.0f\t# [derived] 1 / %.0f IOPS (the higher "
                 "plateau)" % (fw, max(iops_r, iops_w)))
    if lw_from_wb:
        L.append("link_write_bytes_per_sec = %.0f\t# [here] dev.writeback: "
                 "%s (the higher look at the link; dev.seq-write: %s)" % (
                     lw, Fwb.show("dev.writeback", "bytes_per_sec"),
                     F.show("dev.seq-write", "bytes_per_sec")))
    elif lw_wb is not None:
        L.append("link_write_bytes_per_sec = %.0f\t# [here] dev.seq-write: "
                 "%s (the higher look at the link; dev.writeback: %s)" % (
                     lw, F.show("dev.seq-write", "bytes_per_sec"),
                     Fwb.show("dev.writeback", "bytes_per_sec")))
    else:
        L.append("link_write_bytes_per_sec = %.0f\t# [here] dev.seq-write: "
                 "%s" % (lw, F.show("dev.seq-write", "bytes_per_sec")))
    sw = seg_write_fit(F, passes, fw_w, lw) if passes else None
    ring = virtio_ring(sf)
    sq = (seg_write_qd1_fit(F, fw_w, lw,
                            int(sf.get("queue/max_segments", 128)),
                            ring[0] if ring else None,
                            1e9 / passes["write"]["x1"] - fw_w
                            if ring else None)
          if sw is not None else None)
    if sq is not None:
        # Since session 21 (h21-qd1): the segments at QD1, the link
        # overlapping them; dev.seq-write's QD8 fit (the link after the
        # segments) printed beside it.
        L.append("seg_write_ns = %.0f\t# [derived] %s; dev.seq-write's "
                 "QD8 fit (the link after the segments) %.0f (docs/model/"
                 "nvme.md \"The segments of a write\")" % (
                     sq[0], sq[1], sw[0]))
        L.append("seg_write_overlap = 1\t# [derived] dev.seg-write: a "
                 "write's link transfer overlaps its segments (the QD1 "
                 "runs above; docs/model/nvme.md)")
    elif sw is not None:
        L.append("seg_write_ns = %.0f\t# [derived] %s (docs/model/nvme.md "
                 "\"The segments of a write\")" % sw)
    L.append("link_read_bytes_per_sec = %.0f\t# [here] dev.seq-read: %s" % (
        lr, F.show("dev.seq-read", "bytes_per_sec")))
    L.append("units = 4\t# [assumption]")
    L.append("page_bytes = 128Ki\t# [assumption]")
    L.append("page_merge = 1\t# [assumption]")
    # With a read's own jitter the read body is large (~31 us of a ~70 us
    # QD1 read), and as read_ns it would be a media unit's time: four
    # units [assumption] would cap reads near 4 / read_ns and a pass's
    # lockstep lower still (the read sweep in the model at QD 4-128:
    # -15 / -23 / -28 / -24 / -33%).  This disk's read time is the
    # host's path (the loop device's backing file on the root's ext4, the
    # virtio disk, the host), whose parallelism the units do not
    # describe, so the body is a pure delay (read_delay_ns) and the
    # media's own time is inside it (read_ns 1): the closed form the
    # sweep fit assumes, X(q) = q / (L + q s).
    read_as_delay = bool(passes) and rj is not None
    if read_as_delay:
        L.append("read_delay_ns = %.0f\t# [derived] the read body below, "
                 "less read_ns: the host's path, a pure delay" %
                 max(read_ns - 1, 0))
    else:
        L.append("read_delay_ns = 0\t# [assumption]")
    L.append("# dio.qd1-read p50 %s ns; dio.qd1-write p10 %s, p50 %s, "
             "p90 %s ns." % (F.show("dio.qd1-read", "p50"),
                           F.show("dio.qd1-write", "p10"),
                           F.show("dio.qd1-write", "p50"),
                           F.show("dio.qd1-write", "p90")))
    L.append("# The QD1 latency through the loop device is bimodal (a fast "
             "mode, and milliseconds when the loop worker waits for a CPU):"
             " %s, the slow mode the tail." % (
                 "the body is the sweeps' QD1 mean less the jitter's mean"
                 if passes else "the body is the fast mode from its p10"))
    if passes:
        L.append("# E[jitter] = %.0f ns: (1 - tail_ppm / 1e6) (jitter_ns - "
                 "1) / 2 + tail_ppm / 1e6 tail_ns (with pass_complete the "
                 "jitter is a pass's, and a pass of one has the QD1 mean)."
                 % ejit)
        if rj is not None:
            L.append("# E[read jitter] = %.0f ns: the same with read_jitter_ns,"
                     " read_tail_ppm, read_tail_ns (below): a read's own."
                     % rj["mean"])
            L.append("# The read body: dev.qd-sweep-read 1 / %.0f IOPS - "
                     "E[read jitter] - %d guest [assumption] - cmd - fw - "
                     "4096 B / link_read = %.0f ns%s." % (
                         passes["read"]["x1"], GUEST_PATH_NS, read_ns,
                         clamp(read_ns)))
            L.append("read_ns = 1\t# [assumption] the media's own time, "
                     "inside the host's path (read_delay_ns)")
        else:
            L.append("read_ns = %.0f\t# [derived] dev.qd-sweep-read 1 / "
                     "%.0f IOPS - E[jitter] - %d guest [assumption] - cmd "
                     "- fw - 4096 B / link_read%s" % (
                         max(read_ns, 1), passes["read"]["x1"],
                         GUEST_PATH_NS, clamp(read_ns)))
    else:
        L.append("read_ns = %.0f\t# [derived] dio.qd1-read p10 %.0f - %d "
                 "guest [assumption] - cmd - fw - 4096 B / link_read%s" % (
                     max(read_ns, 1), r10, GUEST_PATH_NS, clamp(read_ns)))
    if paired is not None and paired["program"] is None:
        L.append("# dev.flush-paired: no run has %d fast-mode rounds "
                 "(each run's: %s): program_ns from the benchmarks' "
                 "medians." % (PAIRED_MIN_FAST, paired["runs"]))
    if paired is not None and paired["program"] is not None:
        L.append("# dev.flush-paired, each run's median of sync - empty - "
                 "write over its fast-mode rounds (rounds fast): %s; the "
                 "sides' p50s (sync / empty / write): %s." % (
                     paired["runs"], paired["sides"]))
        L.append("program_ns = %.0f\t# [derived] dev.flush-paired: the "
                 "median over runs of the fast-mode rounds' median "
                 "fdatasync after a 4 KiB write - bare fdatasync - O_DIRECT "
                 "4 KiB write, each round's three back to back%s" % (
                     program_ns, clamp(program)))
    elif empty:
        L.append("program_ns = %.0f\t# [derived] dev.flush sync p50 %.0f - "
                 "dev.flush-empty p50 %.0f - dio.qd1-write p50 %.0f%s" % (
                     program_ns, F.med("dev.flush", "sync_p50"), e50,
                     F.med("dio.qd1-write", "p50"), clamp(program)))
    else:
        L.append("program_ns = %d\t# [assumption]" % program_ns)
    L.append("seek_ns = 0\t# [assumption]")
    L.append("cache_bytes = 64Mi\t# [assumption]")
    if passes:
        L.append("cache_ack_ns = %.0f\t# [derived] dev.qd-sweep-write 1 / "
                 "%.0f IOPS - E[jitter] - %d guest - cmd - fw_write - "
                 "4096 B / link_write%s" % (
                     max(ack, 1), passes["write"]["x1"], GUEST_PATH_NS,
                     clamp(ack)))
    else:
        L.append("cache_ack_ns = %.0f\t# [derived] dio.qd1-write p10 %.0f "
                 "- %d guest - cmd - %s - 4096 B / link_write%s" % (
                     max(ack, 1), w10, GUEST_PATH_NS,
                     "fw_write" if fw_w else "fw", clamp(ack)))
    L.append("plp = %d\t# [sysfs] queue/write_cache \"%s\"" % (
        0 if wc == "write back" else 1, wc))
    L.append("# dev.flush sync p50: %s ns." % F.show("dev.flush",
                                                     "sync_p50"))
    if empty:
        L.append("# dev.flush-empty p50: %s ns (p10 %s, p90 %s)." % (
            F.show("dev.flush-empty", "p50"),
            F.show("dev.flush-empty", "p10"),
            F.show("dev.flush-empty", "p90")))
        L.append("flush_ns = %.0f\t# [derived] dev.flush-empty p50 - cmd - "
                 "fw - flush_jitter_ns / 2%s" % (max(flush, 1), clamp(flush)))
        if fj:
            L.append("flush_jitter_ns = %.0f\t# [derived] dev.flush-empty "
                     "p90 - p10: a flush's own spread (a FLUSH draws it, "
                     "not the writes' jitter below)" % fj)
    else:
        L.append("flush_ns = %.0f\t# [derived] sync p50 - cmd - fw - "
                 "program_ns%s" % (max(flush, 1), clamp(flush)))
    L.append("fua = %s\t# [sysfs] queue/fua" % sysfs(dev, "queue/fua", "0"))
    L.append("nr_hw_queues = %s\t# [sysfs] mq/*" % sysfs(
        dev, "nr_hw_queues", "1"))
    L.append("queue_depth = %s\t# [sysfs] mq/0/nr_tags" % sysfs(
        dev, "mq/0/nr_tags", "128"))
    L.append("rotational = %s\t# [sysfs] queue/rotational" % sysfs(
        dev, "queue/rotational", "0"))
    L.append("# loop.root-write p10 %s, p90 %s ns." % (
        F.show("loop.root-write", "p10"), F.show("loop.root-write", "p90")))
    L.append("jitter_ns = %.0f\t# [derived] loop.root-write p90 - p10: the "
             "device's own spread" % jitter)
    L.append("tail_ppm = %.0f\t# [here] dio.qd1-write share beyond 2 x p50:"
             " %s" % (tail_ppm, F.show("dio.qd1-write", "tail_ppm")))
    L.append("tail_ns = %.0f\t# [here] their mean beyond p50: %s" % (
        tail_ns, F.show("dio.qd1-write", "tail_mean_extra")))
    if passes and rj is not None:
        L.append("# dio.qd1-read p10 %s, p90 %s ns; its tail share %s ppm, "
                 "mean beyond p50 %s ns." % (
                     F.show("dio.qd1-read", "p10"),
                     F.show("dio.qd1-read", "p90"),
                     F.show("dio.qd1-read", "tail_ppm"),
                     F.show("dio.qd1-read", "tail_mean_extra")))
        L.append("read_jitter_ns = %.0f\t# [derived] dio.qd1-read p90 - "
                 "p10: a read's spread through the loop device" %
                 rj["jitter_ns"])
        if rj["tail_ppm"]:
            L.append("read_tail_ppm = %.0f\t# [here] dio.qd1-read share "
                     "beyond 2 x p50" % rj["tail_ppm"])
            L.append("read_tail_ns = %.0f\t# [here] their mean beyond p50"
                     % rj["tail_ns"])
    L.append("physical_sector_bytes = %s\t# [sysfs] "
             "queue/physical_block_size" % sysfs(
                 dev, "queue/physical_block_size", "4096"))
    # Atomic writes (docs/model/atomic-write.md): a queue without them
    # (atomic_write_max_bytes 0, as virtio-blk and loop) has none in the
    # model either; one with them keeps the profile's NVMe default.
    if sysfs(dev, "queue/atomic_write_max_bytes", "0") == "0":
        L.append("no_atomic_writes = 1\t# [sysfs] "
                 "queue/atomic_write_max_bytes: 0")
    # The queue's writeback throttling (model/block/blk-wbt.c) and its
    # scheduler; a raw file kept before they were read has neither, and
    # its profile states no throttling (the key is optional, 0 = off).
    if sysfs(dev, "queue/scheduler") is not None:
        L.append("# I/O scheduler [sysfs] queue/scheduler: %s (the model "
                 "issues as \"none\")" % sysfs(dev, "queue/scheduler"))
    if sysfs(dev, "queue/wbt_lat_usec") is not None:
        L.append("wbt_lat_usec = %s\t# [sysfs] queue/wbt_lat_usec" % sysfs(
            dev, "queue/wbt_lat_usec"))
    # A loop device's worker takes its commands one at a time and runs a
    # flush as a synchronous fsync of the backing file, so the commands
    # behind a flush wait for it (drivers/block/loop.c loop_process_work,
    # lo_req_flush, v6.18): a fact of the driver, not a fitted figure;
    # dev.flush-4j and fs.log-force-4j check it (docs/validation.md).
    # The flush that commits the backing filesystem's journal: every
    # write of dev.flush-commit moves the image's mtime, few of
    # dev.flush's do (a write every ~0.2 ms, a tick of 4 ms), so the
    # difference of their p10s in one run is the commit: the fast mode,
    # as the device's body above (cache_ack_ns, read_ns from p10s); on a
    # loaded machine the p50s fall in the loop worker's slow mode.
    G = F.holding("dev.flush-commit", "dev.flush")
    if G is not None and wc == "write back" and \
            "sync_p10" in G.raw["dev.flush"]["runs"][0]:
        c50 = G.med("dev.flush-commit", "sync_p10")
        f50 = G.med("dev.flush", "sync_p10")
        L.append("# dev.flush-commit sync p50: %s ns (p10 %s); dev.flush "
                 "in the same run p50 %s ns (p10 %s)%s." % (
                     G.show("dev.flush-commit", "sync_p50"),
                     G.show("dev.flush-commit", "sync_p10"),
                     G.show("dev.flush", "sync_p50"),
                     G.show("dev.flush", "sync_p10"),
                     "" if G is F else "; the supplement: %s, measured %s, "
                     "load average %s" % (F.sup_meta["raw_file"],
                                          F.sup_meta["date"],
                                          F.sup_meta["load"])))
        if c50 > f50:
            L.append("flush_commit_ns = %.0f\t# [derived] dev.flush-commit "
                     "p10 %.0f - dev.flush p10 %.0f" % (c50 - f50, c50,
                                                        f50))
        else:
            L.append("# flush_commit_ns: not set, the difference is %.0f "
                     "ns (noise)" % (c50 - f50))
    for key, rel, loop in QUEUE_LIMITS:
        if sysfs(dev, rel) is not None:
            L.append("%s = %s\t# [sysfs] %s" % (key, sysfs(dev, rel), rel))
        elif dev.startswith("loop"):
            L.append("%s = %s\t# [driver] %s is a loop device: "
                     "drivers/block/loop.c loop_add and "
                     "blk_validate_limits (v6.18); the raw file has no "
                     "%s" % (key, loop, dev, rel))
    vb = sysfs(dev, "queue/virt_boundary_mask")
    if vb == "0" or (vb is None and dev.startswith("loop")):
        L.append("no_virt_boundary = 1\t# [%s] queue/virt_boundary_mask: "
                 "0" % ("sysfs" if vb is not None else "driver"))
    L.append(irq_cpu_line(sysfs(dev, "irq/vectors"),
                          sysfs(dev, "irq/disk", dev)))
    ring = virtio_ring(sf)
    if ring and dev.startswith("loop"):
        L.append("# The virtio disk below %s: %s, %s tags, feature bits "
                 "%s (bit %d, indirect descriptors, clear), scheduler %s "
                 "(docs/model/blk-mq.md \"The virtio ring\")." % (
                     dev, sf["below/disk"], sf["below/nr_tags"],
                     sf["below/features"].rstrip("0") or "0",
                     VIRTIO_RING_F_INDIRECT_DESC,
                     sf.get("below/scheduler", "not read")))
        L.append("virtio_ring_descs = %d\t# [sysfs] 2 x %s's mq/0/nr_tags:"
                 " drivers/block/virtio_blk.c virtblk_probe halves the ring "
                 "for the tags without indirect descriptors (v6.18)" % (
                     ring[0], sf["below/disk"]))
        L.append("virtio_max_sectors_kb = %d\t# [sysfs] %s's "
                 "queue/max_sectors_kb" % (ring[1], sf["below/disk"]))
        L.append("virtio_max_segments = %d\t# [sysfs] %s's "
                 "queue/max_segments" % (ring[2], sf["below/disk"]))
    if dev.startswith("loop"):
        L.append("flush_serial = 1\t# [driver] %s is a loop device: "
                 "drivers/block/loop.c runs a flush as a synchronous "
                 "vfs_fsync in the worker that takes every command in "
                 "turn (v6.18)" % dev)
    if lwf is not None and dev.startswith("loop") and lwf["worker_ns"]:
        split = "complete_seg_ns" in lwf
        L.append("# loop.worker-cpu, CPU per write of the I/O path's "
                 "threads, loop - root (ns): %s." % "; ".join(lwf["rows"]))
        if not split:
            L.append("loop_worker_ns = %.0f\t# [derived] loop.worker-cpu: "
                     "the intercept of loop - root over the segments beyond "
                     "the first (loop_worker_fit); subtracted from "
                     "cache_ack_ns, the read body and flush_ns above (their "
                     "QD1 latencies hold it)" % lwf["worker_ns"])
        elif not lwf["run_ns"]:
            # Since session 22 (h22-loop): the worker's own CPU.
            L.append("loop_worker_ns = %.0f\t# [derived] loop.worker-cpu: "
                     "the intercept of the loop worker's own CPU per request "
                     "(its work function's executions, tracefs) over the "
                     "segments beyond the first (loop_worker_fit): the "
                     "serial submission" % lwf["worker_ns"])
        else:
            L.append("loop_worker_ns = %.0f\t# [derived] loop.worker-cpu: "
                     "a command's part of the loop worker's own CPU (its "
                     "work function's executions, tracefs), from QD1's "
                     "intercept over the segments beyond the first and "
                     "QD%d's CPU and runs per request (loop_worker_fit): "
                     "the serial submission" % (lwf["worker_ns"],
                                                LOOP_CPU_QD))
            L.append("loop_run_ns = %.0f\t# [derived] loop.worker-cpu: a "
                     "run's own part (QD1: one run a request)" %
                     lwf["run_ns"])
        if lwf["seg_ns"]:
            L.append("loop_seg_ns = %.0f\t# [derived] loop.worker-cpu: the "
                     "%sslope per segment (a 4 KiB page of fio's buffer)" %
                     (lwf["seg_ns"], "worker's " if split else ""))
        if split and lwf["complete_ns"]:
            L.append("loop_complete_ns = %.0f\t# [derived] "
                     "loop.worker-cpu: the intercept of loop - root less "
                     "the worker (the completion side, on the completion's "
                     "CPU; its slope per segment, %.0f ns, not charged); "
                     "the worker and this together subtracted from "
                     "cache_ack_ns, the read body and flush_ns above" %
                     (lwf["complete_ns"], lwf["complete_seg_ns"]))
    return "\n".join(L) + "\n"


class Ctx:
    pass


# ---- two runs against each other ---------------------------------------------

# The figures `--compare` sets side by side: every figure a profile takes
# from a measurement (or derives from one), with the benchmark it comes from.
AGREE = (("cpu.micro", "syscall"), ("cpu.micro", "copy_hot"),
         ("cpu.micro", "copy_dram"), ("cpu.micro", "zero_dram"),
         ("fs.buffered-overwrite", "clat_p50"),
         ("fs.buffered-alloc", "clat_p50"),
         ("uring.inline", "slat_clat_p50"), ("uring.punt", "slat_clat_p50"),
         ("dio.qd1-write", "p10"), ("dio.qd1-write", "p50"),
         ("dio.qd1-read", "p10"), ("dio.qd1-read", "p50"),
         ("dio.qd1-write", "tail_ppm"), ("dev.qd-sweep-read", "iops_max"),
         ("dev.qd-sweep-write", "iops_max"),
         ("dev.seq-write", "bytes_per_sec"),
         ("dev.writeback", "bytes_per_sec"),
         ("dev.seq-read", "bytes_per_sec"),
         ("dev.seq-small-write", "iops_seq_qd8"),
         ("dev.seq-small-write", "iops_seq_qd32"),
         ("dev.flush", "sync_p50"),
         ("dev.flush-empty", "p50"), ("dev.flush-commit", "sync_p50"),
         ("fs.buffered-alloc-64k", "clat_p50"),
         ("fs.unwritten-dio", "p10"), ("fs.unwritten-dio", "p50"),
         ("fs.unwritten-dio-seq", "p10"),
         ("fs.unwritten-dio-seq", "ref_p10"),
         ("dev.flush-4j", "sync_p50"),
         ("fs.log-force", "sync_p50"), ("fs.log-force-4j", "sync_p50"),
         ("loop.root-write", "p50"), ("loop.root-read", "p50"))


def compare(f1, f2, out):
    """Two kept raw files: per figure each run's median and range, run 2
    against run 1, and "within the noise": run 2's median lies within the
    range of either run's own measurements."""
    docs = []
    for f in (f1, f2):
        guard(f)
        with open(f) as fh:
            docs.append(json.load(fh))
    F1, F2 = Fig(docs[0]["raw"]), Fig(docs[1]["raw"])
    out.write("| benchmark, figure | run 1: median (runs' range) | "
              "run 2: median (range) | run 2 vs 1 | within the noise |\n"
              "|---|---|---|---|---|\n")
    n = ok = 0
    for bench, key in AGREE:
        if bench not in F1.raw or bench not in F2.raw:
            continue        # a benchmark added after one of the runs
        r1, r2 = F1.runs(bench, key), F2.runs(bench, key)
        m1, m2 = statistics.median(r1), statistics.median(r2)
        inside = min(r1) <= m2 <= max(r1) or min(r2) <= m1 <= max(r2)
        n += 1
        ok += inside
        out.write("| `%s` %s | %.4g (%.4g–%.4g) | %.4g (%.4g–%.4g) | "
                  "%+.0f%% | %s |\n" % (
                      bench, key, m1, min(r1), max(r1), m2, min(r2),
                      max(r2), (m2 / m1 - 1) * 100 if m1 else 0,
                      "yes" if inside else "**no**"))
    out.write("\n%d of %d figures: run 2's median within the range of "
              "either run's own measurements (or run 1's within run 2's)."
              "\n" % (ok, n))


# ---- the calibration set in the model -----------------------------------
# The benchmarks the model can run (O_DIRECT on its ext4 path: the device
# is the same; no O_DIRECT reads, no 1 MiB transfers, no force_async),
# each with the figure it is compared on; `--check P1,P2` prints the
# measured median beside each profile's model figure.
CHECKS = [
    ("fs.buffered-overwrite", "clat_p50", ["--name=bo", "--rw=randwrite",
     "--bs=4k", "--ioengine=psync", "--size=16m", "--overwrite=1",
     "--time_based", "--runtime=200ms"], ("write", "clat")),
    # The rate too (session 19, h19-wrap): the wrap's writeback and
    # invalidate are between writes, in 1 / IOPS and not in a latency.
    ("fs.buffered-overwrite", "iops", ["--name=bo", "--rw=randwrite",
     "--bs=4k", "--ioengine=psync", "--size=16m", "--overwrite=1",
     "--time_based", "--runtime=200ms"], ("write", "iops")),
    ("uring.inline", "slat_clat_p50", ["--name=u", "--rw=randwrite",
     "--bs=4k", "--ioengine=io_uring", "--iodepth=1", "--size=16m",
     "--overwrite=1", "--time_based", "--runtime=200ms"],
     ("write", "slat+clat")),
    ("uring.inline", "iops", ["--name=u", "--rw=randwrite",
     "--bs=4k", "--ioengine=io_uring", "--iodepth=1", "--size=16m",
     "--overwrite=1", "--time_based", "--runtime=200ms"],
     ("write", "iops")),
    ("dio.qd1-write", "p50", ["--fs=ext4", "--name=d", "--rw=randwrite",
     "--bs=4k", "--direct=1", "--ioengine=psync", "--size=1g",
     "--overwrite=1", "--time_based", "--runtime=500ms"],
     ("write", "clat")),
    ("fs.unwritten-dio", "p50", ["--name=uw", "--rw=randwrite",
     "--bs=4k", "--direct=1", "--ioengine=psync", "--size=1g",
     "--time_based", "--runtime=500ms"], ("write", "clat")),
    ("fs.unwritten-dio-seq", "p50", ["--name=us", "--rw=write",
     "--bs=4k", "--direct=1", "--ioengine=psync", "--size=1g",
     "--time_based", "--runtime=500ms"], ("write", "clat")),
    # The ext4 twin (since session 24, h24-ext4): the model's ext4 splits
    # at submission and converts at completion.
    ("fs.unwritten-dio-ext4", "p50", ["--fs=ext4", "--name=ue",
     "--rw=randwrite", "--bs=4k", "--direct=1", "--ioengine=psync",
     "--size=1g", "--time_based", "--runtime=500ms"], ("write", "clat")),
    ("fs.unwritten-dio-ext4", "ref_p50", ["--fs=ext4", "--name=ue",
     "--rw=randwrite", "--bs=4k", "--direct=1", "--ioengine=psync",
     "--size=1g", "--overwrite=1", "--time_based", "--runtime=500ms"],
     ("write", "clat")),
    ("dev.flush", "sync_p50", ["--name=f", "--rw=randwrite", "--bs=4k",
     "--ioengine=psync", "--fdatasync=1", "--size=16m", "--overwrite=1",
     "--time_based", "--runtime=500ms"], ("sync", "lat")),
] + [(bench, key, ["--name=s", "--rw=randwrite", "--bs=4k",
      "--ioengine=psync", "--fdatasync=%d" % every, "--size=" + size,
      "--numjobs=%d" % jobs, "--group_reporting", "--time_based",
      "--runtime=" + rt] + (["--overwrite=1"] if written else []), how)
     # The fallocated files' runs are the kernel's 2 s (since session 22,
     # h22-fdsync): a pass over a file converts, the next ones do not, so
     # a shorter run in the model is another mix (_sync_jobs).
     for bench, jobs, written, every, size, rt in (
         ("dev.flush-4j", 4, True, 1, "16m", "500ms"),
         ("fs.log-force", 1, False, 1, "16m", "2"),
         ("fs.log-force-64m", 1, False, 1, "64m", "2"),
         ("fs.log-force-4j", 4, False, 1, "16m", "2"),
         ("fs.log-force-8", 1, False, 8, "16m", "2"),
         ("fs.log-force-8-64m", 1, False, 8, "64m", "2"),
         ("fs.log-force-8-4j", 4, False, 8, "16m", "2"),
         ("fs.log-force-8-4j-64m", 4, False, 8, "64m", "2"))
     for key, how in (("sync_p50", ("sync", "lat")),
                      ("iops", ("write", "iops")))
] + [
    # The rate of a large direct write (since session 20, h20-dev: it
    # sets seg_write_ns): the job of dev.seq-write.
    ("dev.seq-write", "bytes_per_sec", ["--name=s", "--rw=write",
     "--bs=%d" % SEQ_BYTES, "--direct=1", "--ioengine=libaio",
     "--iodepth=%d" % SEQ_QD, "--size=1g", "--overwrite=1", "--time_based",
     "--runtime=300ms"], ("write", "bw")),
] + [
    # dev.seg-write's user-page runs (session 21, h21-qd1; the model's
    # direct writes are from 4 KiB pages, so not the huge-page runs).
    ("dev.seg-write", "clat_p50_%dk_malloc_qd%d" % (kib, qd), ["--name=g",
     "--rw=write", "--bs=%dk" % kib, "--direct=1", "--ioengine=libaio",
     "--iodepth=%d" % qd, "--size=1g", "--overwrite=1", "--time_based",
     "--runtime=300ms"], ("write", "clat"))
    for kib in SEG_SIZES_KIB for qd in SEG_QD
] + [("dev.qd-sweep-write", "iops_qd%d" % qd, ["--fs=ext4", "--name=q",
      "--rw=randwrite", "--bs=4k", "--direct=1", "--ioengine=libaio",
      "--iodepth=%d" % qd, "--size=1g", "--overwrite=1", "--time_based",
      "--runtime=300ms"], ("write", "iops")) for qd in SWEEP
] + [("dev.qd-sweep-write-layout", "iops_%s_qd%d" % (tag, qd), [
      "--fs=ext4", "--name=ql", "--rw=randwrite", "--bs=4k", "--direct=1",
      "--ioengine=libaio", "--iodepth=%d" % qd, "--size=512m",
      "--overwrite=1", "--time_based", "--runtime=300ms"],
      ("write", "iops"))
     # The model's layout is instant: its fresh and again runs are one
     # job (since session 19: the fresh runs set fw_write_ns, FRESH_FIT).
     for qd in LAYOUT_QD for tag in ("fresh", "again")
] + [("dev.qd-sweep-write-fs", "iops_%s_%s_qd%d" % (fs, size, qd),
      ["--fs=" + fs, "--name=qf", "--rw=randwrite", "--bs=4k", "--direct=1",
       "--ioengine=libaio", "--iodepth=%d" % qd, "--size=" + size,
       "--overwrite=1", "--time_based", "--runtime=300ms"],
      ("write", "iops"))
     for qd in FS_LAYOUT_QD for size in FS_LAYOUT_SIZES
     for fs in ("ext4", "xfs")
] + [("dev.qd-sweep-read-layout", "iops_%s_qd%d" % (tag, qd), [
      "--name=ql", "--rw=randread", "--bs=4k", "--direct=1",
      "--ioengine=libaio", "--iodepth=%d" % qd, "--size=512m",
      "--overwrite=1", "--time_based", "--runtime=300ms"],
      ("read", "iops"))
     for qd in LAYOUT_QD for tag in ("fresh", "again")
] + [("dev.seq-small-write", "iops_%s_qd%d" % (tag, qd), ["--fs=ext4",
      "--name=ss", "--rw=" + rw, "--bs=8k", "--direct=1",
      "--ioengine=libaio", "--iodepth=%d" % qd, "--size=1g",
      "--overwrite=1", "--time_based", "--runtime=300ms"], ("write", "iops"))
     for qd in SEQ_SMALL_QD
     for rw, tag in (("write", "seq"), ("randwrite", "rand"))
] + [("dev.qd-sweep-randrw", "iops_%s_qd%d" % (tag, qd), ["--name=m",
      "--rw=" + rw, "--rwmixread=50", "--bs=4k", "--direct=1",
      "--ioengine=libaio", "--iodepth=%d" % qd, "--size=1g", "--overwrite=1",
      "--time_based", "--runtime=300ms"], ("both", "iops"))
     for qd in RANDRW_QD
     for rw, tag in (("randrw", "rw"), ("randread", "r"), ("randwrite", "w"))
] + [("loop.worker-cpu", "loop_clat_p50_%dk" % kib, ["--name=lc",
      "--rw=randwrite", "--bs=%dk" % kib, "--direct=1", "--ioengine=psync",
      "--size=256m", "--overwrite=1", "--time_based", "--runtime=500ms"],
      ("write", "clat")) for kib in LOOP_CPU_KIB
     # The model's random direct I/O takes a power-of-two bs only.
     if not kib & (kib - 1)
] + [("dev.qd-sweep-read", "iops_qd%d" % qd, ["--name=q",
      "--rw=randread", "--bs=4k", "--direct=1", "--ioengine=libaio",
      "--iodepth=%d" % qd, "--size=1g", "--overwrite=1", "--time_based",
      "--runtime=300ms"], ("read", "iops")) for qd in SWEEP]


def profile_args(prof):
    """wpsim's options for a profile: a name in profiles/, else
    profiles/calibrated/NAME.*."""
    if os.path.exists(os.path.join(REPO, "profiles", "devices",
                                   prof + ".dev")):
        return ["--device=" + prof, "--cpu-profile=" + prof]
    base = os.path.join(REPO, "profiles", "calibrated", prof)
    return ["--device=" + base + ".dev", "--cpu-profile=" + base + ".cpu"]


def model_figure(wpsim, prof, args, how):
    r = subprocess.run([wpsim, "fio"] + profile_args(prof) + ["--cpus=%d" %
                        os.cpu_count()] + args + ["--output-format=json"],
                       capture_output=True, text=True, cwd=REPO)
    if r.returncode != 0:
        return None
    j = json.loads(r.stdout)["jobs"][0]
    side, what = how
    if what == "iops" and side == "both":
        return j["read"]["iops"] + j["write"]["iops"]
    if what == "iops":
        return j[side]["iops"]
    if what == "bw":
        return j[side]["bw_bytes"]
    if side == "sync":
        return pct(j["sync"]["lat_ns"], 50)
    v = pct(j[side]["clat_ns"], 50)
    if what == "slat+clat":
        v += j[side]["slat_ns"]["mean"]
    return v


def check(F, wpsim, profiles, out):
    print("%-32s %11s  %s" % ("benchmark (calibration set)", "measured",
                              "  ".join("%22s" % p for p in profiles)),
          file=out)
    errs = {p: [] for p in profiles}
    for bench, key, args, how in CHECKS:
        G = F.holding(bench)    # the raw file or its --supplement
        if G is None or any(key not in r for r in G.raw[bench]["runs"]):
            continue        # a benchmark (or figure) the raw file predates
        real = G.med(bench, key)
        cells = []
        for p in profiles:
            m = model_figure(wpsim, p, args, how)
            if m is None:
                cells.append("%22s" % "fails")
                continue
            e = (m - real) / real
            errs[p].append(abs(e))
            cells.append("%13.0f %+7.0f%%" % (m, 100 * e))
        print("%-32s %11.0f  %s" % (bench + " " + key, real,
                                    "  ".join(cells)), file=out)
    for p in profiles:
        if errs[p]:
            print("# %s: median |error| %.0f%% over %d figures" % (
                p, 100 * statistics.median(errs[p]), len(errs[p])),
                file=out)


def pool_into(doc, path):
    """--pool: add the runs of the kept raw file PATH to DOC's, benchmark
    by benchmark (a benchmark DOC lacks is taken whole).  The files must
    come from the same machine (kernel, CPUs, CPU model) and the same
    device; anything else is refused, not mixed."""
    guard(path)
    with open(path) as f:
        other = json.load(f)
    m0, m1 = doc["meta"], other["meta"]
    for key in ("machine", "device"):
        if m0.get(key) != m1.get(key):
            sys.exit("calibrate: %s: %s %r is not the first file's %r: "
                     "not pooled" % (path, key, m1.get(key), m0.get(key)))
    for bench, val in other["raw"].items():
        if bench in doc["raw"]:
            doc["raw"][bench]["runs"].extend(val["runs"])
        else:
            doc["raw"][bench] = dict(val, runs=list(val["runs"]))
    m0.setdefault("pool", []).append({
        "raw_file": os.path.relpath(os.path.abspath(path), REPO),
        "date": m1["date"], "load": m1["load"],
        "benches": sorted(other["raw"])})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wpsim-build", default="build")
    ap.add_argument("--loop", default="/var/tmp/wpsim-loop")
    ap.add_argument("--name", default="virtio-vm-cal")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--profiles", default=os.path.join(REPO, "profiles",
                                                        "calibrated"))
    ap.add_argument("--out-raw")
    ap.add_argument("--from-raw")
    ap.add_argument("--check", help="profiles to run the calibration set "
                    "in (with --from-raw): P1,P2")
    ap.add_argument("--wpsim", default="build/wpsim")
    ap.add_argument("--only", help="run these benchmarks only (B1,B2) "
                    "and keep the raw file (--out-raw); no profiles are "
                    "written from a partial run; 'default' names every "
                    "benchmark a whole calibration runs (one round of a "
                    "sitting, tools/calibrate/sitting.sh)")
    ap.add_argument("--supplement", help="with --from-raw: a later raw "
                    "file (an --only run) whose benchmarks the first one "
                    "lacks; a difference of two figures takes both from "
                    "the file holding the newer benchmark")
    ap.add_argument("--pool", nargs="+", metavar="RAW", default=[],
                    help="with --from-raw: more kept raw files of the same "
                    "machine; every benchmark's runs are the runs of all "
                    "of them (a figure is the median over the pooled runs)")
    ap.add_argument("--without", help="with --from-raw: leave these "
                    "benchmarks (B1,B2) out of every fit, as if the raw "
                    "file lacked them; the profile's header names them")
    ap.add_argument("--wake-preempt", nargs="?", const="full",
                    choices=("full", "none"),
                    help="turn the timed strategy's wake-up preemption on "
                    "in the CPU profile (wake_preempt_ns = 1, from the "
                    "kernel source; docs/timed-mode.md); =none also "
                    "writes wake_preempt_mode = 1: the holder yields "
                    "only at its return to user space, a cond_resched() "
                    "or a sleep (preempt=none, this machine's kernel)")
    ap.add_argument("--accept-mode-change", action="store_true",
                    help="write the profiles even when the device's QD1 "
                    "samples span more than MODE_RATIO (the median is "
                    "taken; the profile says so)")
    ap.add_argument("--compare", nargs=2, metavar="RAW",
                    help="two kept raw files: the figures side by side")
    a = ap.parse_args()
    guard(a.profiles, a.loop)
    if a.compare:
        compare(a.compare[0], a.compare[1], sys.stdout)
        return
    if a.from_raw:
        guard(a.from_raw)
        with open(a.from_raw) as f:
            doc = json.load(f)
    else:
        ctx = Ctx()
        ctx.xfs = os.path.join(a.loop, "xfs")
        ctx.ext4 = os.path.join(a.loop, "ext4")
        ctx.root = os.path.join(a.loop, "root")
        os.makedirs(ctx.root, exist_ok=True)
        ctx.ubench = os.path.join(a.wpsim_build, "calibrate-ubench")
        ctx.dc_probe = os.path.abspath(os.path.join(
            a.wpsim_build, "dontcache-interleaved-probe"))
        src = subprocess.run(["findmnt", "-n", "-o", "SOURCE", ctx.xfs],
                             capture_output=True, text=True).stdout.strip()
        if not src.startswith("/dev/loop"):
            sys.exit("calibrate: %s is not a loop mount "
                     "(tools/calibrate/loopfs.sh up)" % ctx.xfs)
        load0 = os.getloadavg()
        raw = run_all(ctx, a.reps, only_names(a.only))
        load1 = os.getloadavg()
        doc = {"meta": {
            "date": datetime.datetime.now(datetime.timezone.utc)
            .strftime("%Y-%m-%dT%H:%MZ"),
            "machine": "%s, %d CPUs, %s, fio %s" % (
                platform.release(), os.cpu_count(),
                cpu_model(), subprocess.run(["fio", "--version"],
                                            capture_output=True,
                                            text=True).stdout.strip()),
            "reps": a.reps,
            "load": "%.1f at the start, %.1f at the end" % (load0[0],
                                                            load1[0]),
            "device": os.path.basename(src),
            "sysfs": read_sysfs(os.path.basename(src))},
            "raw": raw}
        if a.out_raw:
            guard(a.out_raw)
            with open(a.out_raw, "w") as f:
                json.dump(doc, f, indent=1, sort_keys=True)
    doc["meta"]["raw_file"] = os.path.relpath(
        os.path.abspath(a.from_raw or a.out_raw or "(not kept)"), REPO)
    if a.pool and not a.from_raw:
        sys.exit("calibrate: --pool needs --from-raw")
    # The pooled files first, then --without over all of them and the
    # supplement (session 24's review: a name left out of the first file
    # only came back with a pooled or supplementary file that had it).
    for path in a.pool:
        pool_into(doc, path)
    if a.wake_preempt:
        doc["meta"]["wake_preempt"] = True
        if a.wake_preempt == "none":
            doc["meta"]["wake_preempt_mode"] = "none"
    sup = None
    if a.supplement:
        guard(a.supplement)
        with open(a.supplement) as f:
            sup = json.load(f)
        sup["meta"]["raw_file"] = os.path.relpath(
            os.path.abspath(a.supplement), REPO)
        sup["meta"]["benches"] = sorted(sup["raw"])
        doc["meta"]["supplement"] = sup["meta"]
    if a.without:
        if not a.from_raw:
            sys.exit("calibrate: --without needs --from-raw")
        names = a.without.split(",")
        for b in names:
            # virtio.ring (since session 24, h24-merge): the disk below's
            # sysfs figures (read_below), not a benchmark; without them
            # the profile has no ring and seg_write_ns no ring fill.
            below = [k for k in doc["meta"].get("sysfs", {})
                     if k.startswith("below/")]
            if b == VIRTIO_RING_NAME and below:
                for k in below:
                    del doc["meta"]["sysfs"][k]
                continue
            if b not in doc["raw"] and not (sup and b in sup["raw"]):
                sys.exit("calibrate: --without %s: the raw file %s has no "
                         "such benchmark" % (b, doc["meta"]["raw_file"]))
            doc["raw"].pop(b, None)
            if sup:
                sup["raw"].pop(b, None)
                sup["meta"]["benches"] = sorted(sup["raw"])
        doc["meta"]["without"] = names
    F = Fig(doc["raw"], sup)
    if not a.check and not a.only:
        # The device's QD1 samples (the sweeps' and dev.qd1-repeat's)
        # must agree within MODE_RATIO (since session 18, h18-dio);
        # the raw file is kept either way.
        msgs = mode_check(F)
        if msgs and not a.accept_mode_change:
            sys.exit("calibrate: %s.\ncalibrate: no profile written; "
                     "calibrate again on a quiet machine (nothing else "
                     "running: docs/validation.md, session 18 h18-dio), "
                     "or take the median anyway: calibrate.py --from-raw "
                     "%s --accept-mode-change" % (
                         ";\ncalibrate: ".join(msgs),
                         doc["meta"]["raw_file"]))
        doc["meta"]["mode_accepted"] = msgs
    if a.check:
        check(F, os.path.abspath(a.wpsim), a.check.split(","), sys.stdout)
        return
    if a.only:
        return      # a partial run: its raw file only
    cpu = cpu_profile(F, a.name, doc["meta"])
    dev = dev_profile(F, a.name, doc["meta"], doc["meta"]["device"])
    os.makedirs(a.profiles, exist_ok=True)
    for ext, text in (("cpu", cpu), ("dev", dev)):
        path = os.path.join(a.profiles, "%s.%s" % (a.name, ext))
        with open(path, "w") as f:
            f.write(text)
        print("calibrate: wrote %s" % path)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    main()
