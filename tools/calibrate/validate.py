#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/calibrate/validate.py - `make validate`: run the validation grid
(experiments/validation/grid.txt) on this machine's kernel and in the
model, and print the error distribution.

Usage:
  validate.py run --wpsim BUILD/wpsim --loop DIR --out FILE
              [--reps N] [--profiles P1,P2] [--rows RE] [--into]
              [--warmup JOBS]
  validate.py remodel FILE --profiles P1,P2 [--wpsim W] [--rows RE]
  validate.py report FILE [FILE...]
  validate.py pool OUT FILE FILE [FILE...]
  validate.py anchors --wpsim BUILD/wpsim --loop DIR --out FILE
              [--profiles P1,P2] [--anchor-dir DIR] [--anchor-reps N]
  validate.py since RAW FILE [FILE...]

`run`: each row's real side runs --reps times (default 3) on the loop
filesystem its row names (tools/calibrate/loopfs.sh: XFS or ext4 on a
loop device), in a fresh directory (its files deleted, laid out by
`fio --create_only=1` and written back with syncfs before each run); the
model's side runs once per
profile (deterministic), `wpsim fio --device P --cpu-profile P --cpus N
--ram R` where N is this machine's CPU count and R its dirtyable memory
(nr_dirty_threshold x 100 / vm.dirty_ratio, read from /proc), so that the
model's dirty limits are the kernel's.  A row the model refuses (exit 2)
is kept as "not modelled yet" with wpsim's reason.  Everything goes to
FILE (JSON; traces/real-kernel/validate-KERNEL-DATE.json), then the
report is printed.

A row whose job file --warmup names (comma-separated; default
buffered-seq-big.fio,buffered-rand-big.fio, the rows that grow the page
cache by GiBs; "none" for no warm-up) first runs once more, not counted:
on this guest a first run that touches GiBs of memory freed a while
before copies at 1/20-1/100 of the speed of the runs after it (the host
faults back the pages the guest reported free: virtio-balloon free page
reporting; docs/validation.md, session 17, h17-buf), a cost of the host
the model does not have.  Its figure is kept in FILE ("warmup") and
printed beside the row.

`remodel`: the model's side of FILE again for the profiles named (after
a profile was regenerated), the real runs kept.

`pool`: one results file OUT from the real sides of several sittings on
one machine (same kernel and CPUs; the model's sides are dropped: run
`remodel` on OUT).  A row's real runs are all the sittings' runs, each
tagged with its sitting; its median is over all of them and its spread is
the largest distance of one *sitting's* median from that median (a row
is noisy when the machine's sittings disagree on it by more than 20%,
not when one run of twenty-one does).  The model's common options are
the first file's (its --ram: the dirtyable memory differs between
sittings by under 2%; the grid's rows stay far below it or far above).

Drift anchors (since session 24, h24-drift): `run` measures a few
calibration-set benchmarks (ANCHORS: calibrate.py's own benchmark
functions, the same jobs) at the sitting's start and again at its end,
keeps them in FILE ("anchors") beside the same figures of the raw
calibration file each profile names ("# Measurements:", its
"# Supplement:" and "# Pooled:" files), and `report` prints how far the
machine moved since that calibration, against the noise (the larger of
the calibration's own spread and this sitting's), and a verdict line.
They change no model figure and choose nothing: a report, so that a
reader of the table can tell a miss of the model from a machine that
moved.  `anchors` runs them alone (one set, "now") into FILE; `since`
sets the grid rows that repeat a calibration benchmark's job
(COMPARABLE) against that benchmark's runs in RAW.

`report`: the table from a results file: per row the real median, its
spread (the largest run's distance from the median, relative), the
load average during the runs, the model's figure and the error (model -
real) / real; then over the rows whose spread is within +-20% the median
|error| and the share within +-10% and +-20%; the noisy rows apart; the
DONTCACHE rows' reads per write against +-0.05.

Models nothing.  Leaves out: fio's latency figures (the grid's metric is
throughput), rows the model cannot run (listed, not scored).
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GRID_DIR = os.path.join(REPO, "experiments", "validation")
NOISY = 0.20


def parse_grid(path):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.rstrip("\n").split("|")]
            if len(parts) != 6:
                sys.exit("%s:%d:1: error: expected 6 fields separated by "
                         "'|', found %d" % (path, n, len(parts)))
            name, kind, job, env, fs, wargs = parts
            if kind not in ("fio", "dontcache"):
                sys.exit("%s:%d:1: error: expected kind fio or dontcache, "
                         "found %s" % (path, n, kind))
            if fs not in ("xfs", "ext4"):
                sys.exit("%s:%d:1: error: expected fs xfs or ext4, found %s"
                         % (path, n, fs))
            rows.append({"name": name, "kind": kind, "job": job,
                         "env": dict(kv.split("=", 1) for kv in env.split()),
                         "fs": fs, "wpsim": wargs.split()})
    return rows


def iops(doc):
    return sum(j["read"]["iops"] + j["write"]["iops"] for j in doc["jobs"])


def fio_json(text):
    return json.loads(text[text.index("{"):])


# ---- the real side -------------------------------------------------------

def real_fio(row, mnt):
    d = os.path.join(mnt, "val")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    env = dict(os.environ, **{k: v for k, v in row["env"].items()
                              if k != "MODEL_RUNTIME"})
    job = os.path.join(GRID_DIR, row["job"])
    # fio lays a file out (overwrite=1) with buffered writes: write them
    # back before the run, so that it does not meet them dirty (the
    # model's layout is instant and clean).
    subprocess.run(["fio", "--create_only=1", "--directory=" + d, job],
                   capture_output=True, env=env)
    subprocess.run(["sync", "-f", mnt])
    r = subprocess.run(["fio", "--output-format=json", "--directory=" + d,
                        job], capture_output=True, text=True, env=env)
    shutil.rmtree(d, ignore_errors=True)
    if r.returncode != 0:
        return {"error": (r.stderr.strip().splitlines() or ["fio failed"])
                [-1]}
    return {"value": iops(fio_json(r.stdout))}


def dc_args(row):
    t = int(row["env"]["THREADS"])
    rec = int(row["env"]["REC"])
    return t, rec, row["env"]["SYNC"] == "dsync"


def dc_rounds(row):
    """Rounds of records per thread, the same on both sides: 2000 writes
    (3 rounds with DSYNC, each write waits for the device)."""
    t, _, dsync = dc_args(row)
    return 3 if dsync else max(2000 // t, 1)


# Each DONTCACHE repetition starts after this idle time (the probe's
# DC_PROBE_IDLE_MS): loop0's writeback throttle goes back to step 0, the
# state the model's queue starts in (m_wbt_init), one step per five idle
# 100 ms windows (block/blk-wbt.c wb_timer_fn, v6.18).  Without it a
# repetition started at whatever step the rows before it left (-3 after
# a run of writes on this machine), which the 1-thread rows' MiB/s turn
# on and which was not recorded (docs/validation.md, session 20 h20-dc).
DC_IDLE_MS = 2500


def real_dontcache(row, mnt, probe):
    t, rec, dsync = dc_args(row)
    d = os.path.join(mnt, "val")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    subprocess.run(["sync", "-f", mnt])
    rounds = dc_rounds(row)
    # DC_PROBE_SCHED (since session 25, h25-dc): the CPU each writer's
    # writes returned on, kept beside the row's figures ("writer_cpus",
    # summed over the threads; "cpu_moves"): a 1-thread writer on the
    # disk interrupt's CPU shares it with the loop worker and the
    # completions, on the other it does not (docs/validation.md, session
    # 25 h25-dc).  Two reads of /proc a thread, outside the writes.
    r = subprocess.run([probe, d, str(t), str(rec), str(rounds)] +
                       (["dsync"] if dsync else []),
                       capture_output=True, text=True,
                       env=dict(os.environ, DC_PROBE_IDLE_MS=str(DC_IDLE_MS),
                                DC_PROBE_SCHED="1"))
    shutil.rmtree(d, ignore_errors=True)
    w = r.stdout.split()
    if r.returncode != 0 or len(w) < 6:
        return {"error": (r.stderr.strip().splitlines() or
                          ["probe failed"])[-1]}
    res = {"value": float(w[5]), "rpw": float(w[4])}
    import calibrate
    pc = calibrate.probe_cpus(r.stderr)
    if pc:
        cpus = {}
        for o in pc.values():
            for c, n in o["cpus"].items():
                cpus[str(c)] = cpus.get(str(c), 0) + n
        res["writer_cpus"] = dict(sorted(cpus.items()))
        res["cpu_moves"] = sum(o["moves"] for o in pc.values())
    return res


# ---- the model -----------------------------------------------------------

def profile_args(prof):
    """wpsim's options for a profile: a name in profiles/, else
    profiles/calibrated/NAME.* (make calibrate's), or DIR/NAME.* when
    the profile is given as a path (a profile written elsewhere by
    calibrate.py --profiles DIR, e.g. a pooled one)."""
    if os.sep in prof:
        return ["--device=" + prof + ".dev", "--cpu-profile=" + prof + ".cpu"]
    if os.path.exists(os.path.join(REPO, "profiles", "devices",
                                   prof + ".dev")):
        return ["--device=" + prof, "--cpu-profile=" + prof]
    base = os.path.join(REPO, "profiles", "calibrated", prof)
    return ["--device=" + base + ".dev", "--cpu-profile=" + base + ".cpu"]


# The model's rw_semaphore for every row (--variant rwsem=...; --rwsem
# overrides it).  The grid's choice, made from the kernel's source
# (kernel/locking/rwsem.c, v6.18) and its measured hand-over order, never
# from the rows' errors: docs/validation.md, session 19 (h19-dsync).
MODEL_RWSEM = "clock"


def rwsem_args(common):
    """--variant rwsem=... unless the common options name one."""
    if any(a.startswith("--variant=rwsem=") for a in common):
        return []
    return ["--variant=rwsem=" + MODEL_RWSEM]


def model_fio(row, wpsim, prof, common):
    env = dict(os.environ, **row["env"])
    if "MODEL_RUNTIME" in env:
        env["RUNTIME"] = env["MODEL_RUNTIME"]
    cmd = [wpsim, "fio"] + profile_args(prof) + \
        common + rwsem_args(common) + row["wpsim"] + \
        [row["job"], "--output-format=json"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       cwd=GRID_DIR)
    last = (r.stderr.strip().splitlines() or [""])[-1]
    if r.returncode == 2:
        return {"not_modelled": last}
    if r.returncode != 0:
        return {"error": last}
    return {"value": iops(fio_json(r.stdout))}


def dc_model_env(row):
    """The job file's variables for a dc row's model side: the real
    side's rounds (dc_rounds).  Until 2026-12-05 (session 6) the model ran
    as many rounds as 256 KiB of records held: one round at 4-32 threads
    of 47008 B, 4-32 writes whose neighbours' pages were all still
    cached, so 0 reads.  That bound (the model's 64 pages a file) is
    gone: the sparse page cache and block map hold files up to 1 TiB."""
    t, rec, _ = dc_args(row)
    mr = dc_rounds(row)
    return dict(REC=str(rec), SKIP=str((t - 1) * rec),
                SYNC=row["env"]["SYNC"], SIZE=str((mr - 1) * t * rec + rec),
                IOSIZE=str(mr * rec), THREADS=str(t))


def model_dontcache(row, wpsim, prof, common):
    env = dict(os.environ, **dc_model_env(row))
    cmd = [wpsim, "fio"] + profile_args(prof) + \
        common + rwsem_args(common) + row["wpsim"] + \
        [row["job"], "--group-spans", "--output-format=json"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       cwd=GRID_DIR)
    last = (r.stderr.strip().splitlines() or [""])[-1]
    if r.returncode == 2:
        return {"not_modelled": last}
    ios = nbytes = span = reads = grants = None
    for line in r.stderr.splitlines():
        w = line.split()
        if line.startswith("wpsim fio: group "):
            ios, nbytes, span = int(w[5]), int(w[7]), int(w[10])
        elif line.startswith("wpsim fio: device page reads "):
            reads = int(w[-1])
        elif line.startswith("wpsim fio: i_rwsem write grants "):
            grants = [int(x) for x in re.findall(r"\d+", line)]
    if r.returncode != 0 or not ios or not span or reads is None:
        return {"error": last}
    res = {"value": nbytes / span * 1e9 / 2**20, "rpw": reads / ios}
    if grants and len(grants) == 6:
        for k, v in zip(("contended", "passed", "handoffs", "spins",
                         "spin_takes", "spin_polls"), grants):
            res["grants_" + k] = v
    return res


def dirtyable_bytes():
    vm = {}
    with open("/proc/vmstat") as f:
        for line in f:
            k, v = line.split()
            vm[k] = int(v)
    with open("/proc/sys/vm/dirty_ratio") as f:
        ratio = int(f.read())
    with open("/proc/sys/vm/dirty_bytes") as f:
        dbytes = int(f.read())
    if dbytes or not ratio:
        sys.exit("validate: vm.dirty_bytes is set: give the model "
                 "--dirty_bytes (not done here)")
    return vm["nr_dirty_threshold"] * 4096 * 100 // ratio


def run(a):
    rows = parse_grid(os.path.join(GRID_DIR, "grid.txt"))
    if a.rows:
        rows = [r for r in rows if re.search(a.rows, r["name"])]
    mnts = {fs: os.path.join(a.loop, fs) for fs in ("xfs", "ext4")}
    for fs, m in mnts.items():
        src = subprocess.run(["findmnt", "-n", "-o", "SOURCE,FSTYPE", m],
                             capture_output=True, text=True).stdout.split()
        if len(src) != 2 or not src[0].startswith("/dev/loop") or \
                src[1] != fs:
            sys.exit("validate: %s is not a loop-mounted %s "
                     "(tools/calibrate/loopfs.sh up)" % (m, fs))
    ram = dirtyable_bytes()
    common = ["--cpus=%d" % os.cpu_count(), "--ram=%dk" % (ram // 1024)]
    probe = os.path.join(os.path.dirname(a.wpsim),
                         "dontcache-interleaved-probe")
    # "none": the real side only (a round of tools/calibrate/sitting.sh;
    # the pooled rounds are modelled once, `remodel`).
    profiles = [] if a.profiles == "none" else a.profiles.split(",")
    out = {"meta": {
        **machine_meta(),
        "model_common": common, "model_rwsem": MODEL_RWSEM,
        "dc_idle_ms": DC_IDLE_MS,
        "profiles": profiles, "reps": a.reps,
        "wpsim": a.wpsim}, "rows": []}
    if a.into:
        # Add the rows run now to an earlier result file (same machine).
        with open(a.out) as f:
            out = json.load(f)
        out["meta"].setdefault("added", []).append(
            datetime.datetime.now(datetime.timezone.utc)
            .strftime("%Y-%m-%dT%H:%MZ"))
    warm = set() if a.warmup == "none" else set(a.warmup.split(","))
    out["meta"]["warmup"] = sorted(warm)
    ctx = anchor_ctx(a)
    tag = " (added %s)" % out["meta"]["added"][-1] if a.into else ""
    if a.anchor_reps:
        if "anchors" not in out:
            out["anchors"] = new_anchors(ctx, a.anchor_reps)
        out["anchors"]["ends"].append(run_anchors(ctx, "start" + tag,
                                                  a.anchor_reps))
        add_baselines(out, profiles)
        with open(a.out, "w") as f:
            json.dump(out, f, indent=1)
    for row in rows:
        res = {"name": row["name"], "kind": row["kind"], "fs": row["fs"],
               "real": [], "load": [], "model": {}}
        if row["kind"] == "fio" and row["job"] in warm:
            print("validate: %s real warm-up (not counted)" % row["name"],
                  file=sys.stderr, flush=True)
            w = real_fio(row, mnts[row["fs"]])
            w["load"] = os.getloadavg()[0]
            res["warmup"] = w
        for i in range(a.reps):
            print("validate: %s real %d/%d" % (row["name"], i + 1, a.reps),
                  file=sys.stderr, flush=True)
            res["load"].append(os.getloadavg()[0])
            if row["kind"] == "fio":
                res["real"].append(real_fio(row, mnts[row["fs"]]))
            else:
                res["real"].append(real_dontcache(row, mnts[row["fs"]],
                                                  probe))
        for p in profiles:
            print("validate: %s model %s" % (row["name"], p),
                  file=sys.stderr, flush=True)
            fn = model_fio if row["kind"] == "fio" else model_dontcache
            res["model"][p] = fn(row, a.wpsim, p, common)
        out["rows"] = [r for r in out["rows"] if r["name"] != res["name"]]
        out["rows"].append(res)
        order = [r["name"] for r in parse_grid(os.path.join(GRID_DIR,
                                                            "grid.txt"))]
        out["rows"].sort(key=lambda r: order.index(r["name"])
                         if r["name"] in order else len(order))
        with open(a.out, "w") as f:
            json.dump(out, f, indent=1)
    if a.anchor_reps:
        out["anchors"]["ends"].append(run_anchors(ctx, "end" + tag,
                                                  a.anchor_reps))
        with open(a.out, "w") as f:
            json.dump(out, f, indent=1)
    anchor_done(ctx)
    report(out, sys.stdout)


def remodel(a):
    """The model's side again (a profile regenerated), the real runs kept."""
    with open(a.file) as f:
        doc = json.load(f)
    grid = {r["name"]: r for r in parse_grid(os.path.join(GRID_DIR,
                                                          "grid.txt"))}
    common = doc["meta"]["model_common"]
    doc["meta"]["model_rwsem"] = MODEL_RWSEM
    profiles = a.profiles.split(",")
    for p in profiles:
        if p not in doc["meta"]["profiles"]:
            doc["meta"]["profiles"].append(p)
    if "anchors" in doc:
        # The new profiles' calibration (a regenerated profile: its raw
        # file as it names it now); the anchors' own runs are kept.
        for p in profiles:
            doc["anchors"].get("calibration", {}).pop(p, None)
        add_baselines(doc, profiles)
    for res in doc["rows"]:
        if a.rows and not re.search(a.rows, res["name"]):
            continue
        row = grid[res["name"]]
        for p in profiles:
            print("validate: %s model %s" % (row["name"], p),
                  file=sys.stderr, flush=True)
            fn = model_fio if row["kind"] == "fio" else model_dontcache
            res["model"][p] = fn(row, a.wpsim, p, common)
        with open(a.file, "w") as f:
            json.dump(doc, f, indent=1)
    report(doc, sys.stdout)


# ---- drift anchors -------------------------------------------------------
# A profile is compared with a real side taken later, and this guest
# moves (the host's load, the hypervisor: session 23 found the kernel a
# median 1.20x faster at 18:00 than at 16:40 on one boot).  The anchors
# are calibration-set benchmarks run at the sitting's start and end with
# calibrate.py's own functions (the same jobs, the same figures), set
# against the runs of the raw calibration file the profile was made
# from.  Chosen for a low spread within a calibration sitting (the
# largest run's distance from the median, over the twelve full raw files
# of fc-v1300, 2026-12-06/07: docs/validation.md "Drift anchors")
# and for a short run (each ~2 s; the set 43 s an end at 3 runs with
# its 1 GiB layout, 2026-12-07 19:36):
# - cpu.micro syscall: the CPU alone (getppid, the fastest of 400
#   batches): 0-2% in 10 of 12 sittings, 15% and 31% in two;
# - fs.buffered-overwrite-cached clat_p50: a cached 4 KiB buffered
#   overwrite, the write path's CPU: 1-6% (fs.buffered-overwrite's,
#   whose file fio drops on each wrap, 1-29%);
# - dio.qd1-write p50: the device's QD1 write: 2-21%, median 6.5%;
# - dio.qd1-read p10: the device's QD1 read: 0-8% (its p50 1-13%);
# - dev.flush sync_p50: a 4 KiB overwrite's fdatasync, a cache flush
#   through the loop device: 1-20%, median 7.5% (the fsync rows moved
#   most between 16:40 and 18:00).
# Every figure is a time (ns): a positive change is the kernel slower.
ANCHORS = (("cpu.micro", "syscall"),
           ("fs.buffered-overwrite-cached", "clat_p50"),
           ("dio.qd1-write", "p50"),
           ("dio.qd1-read", "p10"),
           ("dev.flush", "sync_p50"))
ANCHOR_REPS = 3


def anchor_name(bench, key):
    return bench + " " + key


def run_anchors(ctx, at, reps, benches=None):
    """One end of the anchors: each of ANCHORS' benchmarks REPS times in
    a row (calibrate.py's function; BENCHES maps a name to another for
    the tests), the load before each run.  A benchmark that fails is
    kept as its error, never as a figure."""
    import calibrate
    fns = benches or {name: fn for name, _, fn in calibrate.BENCHES}
    end = {"at": at, "date": datetime.datetime.now(datetime.timezone.utc)
           .strftime("%Y-%m-%dT%H:%M:%SZ"), "reps": reps, "runs": {}}
    for bench in dict.fromkeys(b for b, _ in ANCHORS):
        runs = []
        for i in range(reps):
            print("validate: anchor %s (%s, %d/%d)" % (bench, at, i + 1,
                                                      reps),
                  file=sys.stderr, flush=True)
            load = os.getloadavg()[0]
            try:
                r = dict(fns[bench](ctx))
            except (Exception, SystemExit) as e:
                r = {"error": str(e) or type(e).__name__}
            r["loadavg"] = load
            runs.append(r)
        end["runs"][bench] = runs
    return end


def profile_cpu_file(prof):
    """The .cpu file of a profile as profile_args names it."""
    if os.sep in prof:
        return prof + ".cpu"
    if os.path.exists(os.path.join(REPO, "profiles", "devices",
                                   prof + ".dev")):
        return os.path.join(REPO, "profiles", "cpu", prof + ".cpu")
    return os.path.join(REPO, "profiles", "calibrated", prof + ".cpu")


def calibration_baseline(prof):
    """The anchors' figures in the raw calibration file(s) PROF was made
    from (its header: "# Measurements: RAW", "# Supplement: RAW2",
    "# Pooled: RAW3 (...)"; paths from the repository's root), as
    calibrate.py takes them: the main file's runs with the pooled files'
    added, else the supplement's.  {"error": why} when the profile names
    no raw file or a file is missing: then nothing is compared."""
    path = profile_cpu_file(prof)
    try:
        with open(path) as f:
            head = [ln.rstrip("\n") for ln in f if ln.startswith("#")]
    except OSError as e:
        return {"error": "profile %s: %s" % (prof, e.strerror)}
    main = [ln[len("# Measurements: "):] for ln in head
            if ln.startswith("# Measurements: ")]
    if not main:
        return {"error": "profile %s names no raw calibration file (not "
                "written by calibrate.py)" % prof}
    sup = [ln[len("# Supplement: "):] for ln in head
           if ln.startswith("# Supplement: ")]
    pooled = [ln[len("# Pooled: "):].split(" (")[0] for ln in head
              if ln.startswith("# Pooled: ")]
    docs = {}
    for raw in main + pooled + sup:
        try:
            with open(os.path.join(REPO, raw)) as f:
                docs[raw] = json.load(f)
        except OSError:
            return {"error": "profile %s names the raw file %s, which is "
                    "missing" % (prof, raw)}
        except ValueError:
            return {"error": "profile %s: the raw file %s is not JSON"
                    % (prof, raw)}
    m = docs[main[0]]["meta"]
    base = {"raw_file": main[0], "date": m.get("date", "?"),
            "load": m.get("load", "?"), "figures": {}}
    if pooled:
        base["pooled"] = pooled
    if sup:
        base["supplement"] = sup[0]
    for bench, key in ANCHORS:
        files = [r for r in main + pooled if bench in docs[r]["raw"]]
        if not files and sup and bench in docs[sup[0]]["raw"]:
            files = sup
        runs = [run[key] for r in files for run in docs[r]["raw"][bench]
                ["runs"] if key in run]
        if runs:
            base["figures"][anchor_name(bench, key)] = {
                "runs": runs, "file": files[0]}
    return base


def add_baselines(doc, profiles):
    """doc["anchors"]["calibration"][P] for each profile P it lacks."""
    cal = doc["anchors"].setdefault("calibration", {})
    for p in profiles:
        if p not in cal:
            cal[p] = calibration_baseline(p)


def spread(vals):
    """The largest distance of one value from the median, relative."""
    med = statistics.median(vals)
    return max(abs(v - med) for v in vals) / med if med else float("inf")


def end_figure(end, bench, key):
    """(median, spread, n) of one end's runs of an anchor, or (None,
    error, 0) when no run has the figure."""
    runs = end["runs"].get(bench, [])
    vals = [r[key] for r in runs if key in r]
    if not vals:
        errs = [r["error"] for r in runs if "error" in r]
        return None, errs[0] if errs else "not run", 0
    return statistics.median(vals), spread(vals), len(vals)


def anchor_compare(anchors, base):
    """Per anchor: the calibration's median and spread, each end's median
    and change, the sitting's spread, the noise (the larger spread) and
    whether it moved; (rows, ends' names)."""
    rows = []
    ends = anchors.get("ends", [])
    for bench, key in [tuple(a) for a in anchors.get("figures", ANCHORS)]:
        name = anchor_name(bench, key)
        c = base["figures"].get(name)
        row = {"name": name, "ends": []}
        if c is None:
            row["why"] = "not in the raw calibration file"
            rows.append(row)
            continue
        row["cal"] = statistics.median(c["runs"])
        row["cal_spread"] = spread(c["runs"])
        now = []
        for e in ends:
            med, sp, n = end_figure(e, bench, key)
            if med is None:
                row["ends"].append({"at": e["at"], "why": sp})
                continue
            now.append(sp)
            row["ends"].append({"at": e["at"], "median": med, "spread": sp,
                                "change": med / row["cal"] - 1})
        row["sitting_spread"] = max(now) if now else None
        row["noise"] = max([row["cal_spread"]] + now)
        row["moved"] = [e["at"] for e in row["ends"]
                        if "change" in e and abs(e["change"]) > row["noise"]]
        rows.append(row)
    return rows


def load_range(end):
    """The load averages before an end's runs: "lo-hi"."""
    v = [r["loadavg"] for runs in end["runs"].values() for r in runs]
    if not v:
        return "-"
    return "%.1f-%.1f" % (min(v), max(v))


def pct_signed(x):
    """A signed percentage; one that rounds to 0 is "+0%", never "-0%"."""
    return "%+.0f%%" % (round(100 * x) or 0)


def anchor_report(doc, f):
    """The anchors' lines of `report` (docstring at the top)."""
    a = doc.get("anchors")
    if not a:
        print("# the machine since calibration: no anchors recorded",
              file=f)
        return
    ends = a.get("ends", [])
    print("# drift anchors (docs/validation.md \"Drift anchors\"): %s; "
          "each %d runs, %s" % (
              ", ".join(anchor_name(*x) for x in a["figures"]), a["reps"],
              "; ".join("%s %s load %s" % (
                  e["at"], e["date"], load_range(e)) for e in ends) or
              "no end run"), file=f)
    if not a.get("calibration"):
        print("# the machine since calibration: no profile named, the "
              "anchors not compared", file=f)
    seen = {}
    for p, base in a.get("calibration", {}).items():
        if "error" in base:
            print("# profile %s: anchors not compared: %s" % (
                p, base["error"]), file=f)
            continue
        key = (base["raw_file"], base.get("supplement"),
               tuple(base.get("pooled", [])))
        if key in seen:
            print("# profile %s: the same calibration as %s" % (
                p, seen[key]), file=f)
            continue
        seen[key] = p
        print("# profile %s: calibration %s (measured %s, load %s%s%s)" % (
            p, base["raw_file"], base["date"], base["load"],
            "; pooled with " + ", ".join(base["pooled"])
            if base.get("pooled") else "",
            "; supplement " + base["supplement"]
            if base.get("supplement") else ""), file=f)
        rows = anchor_compare(a, base)
        print("#   %-38s %11s %6s  %s  %7s" % (
            "anchor (ns)", "calibration", "noise", "  ".join(
                "%17s" % e["at"] for e in ends), "sitting"), file=f)
        for r in rows:
            if "cal" not in r:
                print("#   %-38s %s" % (r["name"], r["why"]), file=f)
                continue
            cells = []
            for e in r["ends"]:
                if "change" in e:
                    cells.append("%10.0f %6s" % (e["median"],
                                                 pct_signed(e["change"])))
                else:
                    cells.append("%17s" % ("failed" if e["why"] !=
                                           "not run" else "not run"))
            print("#   %-38s %11.0f %5.0f%%  %s  %6s" % (
                r["name"], r["cal"], 100 * r["cal_spread"], "  ".join(cells),
                "%.0f%%" % (100 * r["sitting_spread"])
                if r["sitting_spread"] is not None else "-"), file=f)
            for e in r["ends"]:
                if "why" in e and e["why"] != "not run":
                    print("#     %s %s: %s" % (r["name"], e["at"], e["why"]),
                          file=f)
        cmp_ = [r for r in rows if "cal" in r and
                any("change" in e for e in r["ends"])]
        names = "/".join(e["at"] for e in ends)
        print("# the machine since calibration: %s (%s); the calibration's "
              "own noise %s" % (
                  ", ".join("%s %s" % (r["name"], "/".join(
                      pct_signed(e["change"]) if "change" in e else "-"
                      for e in r["ends"])) for r in cmp_) or "-",
                  names, ", ".join("+-%.0f%%" % (100 * r["cal_spread"])
                                  for r in cmp_) or "-"), file=f)
        moved = [r for r in cmp_ if r["moved"]]
        if not cmp_:
            print("# verdict: not compared (no anchor measured on both "
                  "sides)", file=f)
        elif moved:
            print("# verdict: moved: %s beyond the noise (the larger of the "
                  "calibration's and this sitting's spread): a miss of "
                  "the grid may be the machine, not the model" % "; ".join(
                      "%s %s (+-%.0f%%)" % (r["name"], "/".join(
                          pct_signed(e["change"]) if "change" in e else "-"
                          for e in r["ends"]), 100 * r["noise"])
                      for r in moved), file=f)
        else:
            print("# verdict: within the noise: no anchor moved beyond the "
                  "larger of the calibration's and this sitting's spread",
                  file=f)
        during = []
        for r in cmp_:
            ch = [e for e in r["ends"] if "change" in e]
            if len(ch) >= 2:
                d = (1 + ch[-1]["change"]) / (1 + ch[0]["change"]) - 1
                if abs(d) > r["noise"]:
                    during.append("%s %s %s (+-%.0f%%)" % (
                        r["name"], "->".join((ch[0]["at"], ch[-1]["at"])),
                        pct_signed(d), 100 * r["noise"]))
        if during:
            print("# during the sitting: %s" % "; ".join(during), file=f)


def machine_meta():
    """A results file's first keys: when (UTC, to the minute), the kernel,
    the CPU count and fio's version."""
    return {"date": datetime.datetime.now(datetime.timezone.utc)
            .strftime("%Y-%m-%dT%H:%MZ"),
            "kernel": platform.release(), "cpus": os.cpu_count(),
            "fio": subprocess.run(["fio", "--version"], capture_output=True,
                                  text=True).stdout.strip()}


def anchors_cmd(a):
    """`anchors`: one set of the anchors now, compared (docstring at the
    top); FILE holds them as a results file without rows."""
    ctx = anchor_ctx(a)
    profiles = a.profiles.split(",")
    doc = {"meta": {
        **machine_meta(),
        "model_common": [], "profiles": profiles, "reps": 0,
        "wpsim": a.wpsim, "anchors_only": True},
        "rows": [], "anchors": new_anchors(ctx, a.anchor_reps)}
    doc["anchors"]["ends"].append(run_anchors(ctx, "now", a.anchor_reps))
    anchor_done(ctx)
    add_baselines(doc, profiles)
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1)
    report(doc, sys.stdout)


def anchor_ctx(a):
    """calibrate.py's context for the anchors: the XFS loop filesystem
    (or --anchor-dir, a directory made for them and removed after), the
    micro-benchmark next to wpsim (make validate builds it)."""
    import calibrate
    mnt = os.path.join(a.loop, "xfs")
    src = subprocess.run(["findmnt", "-n", "-o", "SOURCE,FSTYPE", mnt],
                         capture_output=True, text=True).stdout.split()
    if len(src) != 2 or not src[0].startswith("/dev/loop") or \
            src[1] != "xfs":
        sys.exit("validate: %s is not a loop-mounted xfs "
                 "(tools/calibrate/loopfs.sh up)" % mnt)
    if a.anchor_dir and not os.path.realpath(a.anchor_dir).startswith(
            os.path.realpath(mnt) + os.sep):
        sys.exit("validate: --anchor-dir %s is not under %s: the "
                 "anchors run on the calibration's filesystem" % (
                     a.anchor_dir, mnt))
    ctx = calibrate.Ctx()
    ctx.xfs = a.anchor_dir or mnt
    ctx.made = False
    if a.anchor_dir and not os.path.isdir(a.anchor_dir):
        os.makedirs(a.anchor_dir)
        ctx.made = True
    ctx.ubench = os.path.join(os.path.dirname(a.wpsim), "calibrate-ubench")
    return ctx


def anchor_done(ctx):
    if ctx.made:
        shutil.rmtree(ctx.xfs, ignore_errors=True)


def new_anchors(ctx, reps):
    return {"figures": [list(x) for x in ANCHORS], "reps": reps,
            "dir": ctx.xfs, "ends": []}


# The grid's rows whose real side is the job of a calibration benchmark
# (`since`): row -> (benchmark, figure).  Both are IOPS.  What differs:
# the grid's runs are 2 s and lay their file out afresh before each run,
# the sweeps' 1 s on the calibration's one 1 GiB file (a fresh file's
# first writes are slower: dev.qd-sweep-write-layout); dev.qd-sweep-
# write-fs's runs are 3 s on a fresh file, as the grid's.  Left out:
# uring-qd1-rand against uring.inline (a 64 MiB file against 16 MiB: fio
# drops the file's cache each time its random map wraps, so the share of
# writes that allocate a folio differs; 0.64 of it 14 minutes after the
# calibration of 16:26), the buffered and fsync rows (no calibration
# benchmark runs their jobs).
COMPARABLE = (
    ("dio-ext4-randwrite-qd16", "dev.qd-sweep-write-fs", "iops_ext4_1g_qd16"),
    ("dio-ext4-randwrite-qd64", "dev.qd-sweep-write-fs", "iops_ext4_1g_qd64"),
    ("dio-xfs-randwrite-qd1", "dev.qd-sweep-write", "iops_qd1"),
    ("dio-xfs-randwrite-qd4", "dev.qd-sweep-write", "iops_qd4"),
    ("dio-xfs-randwrite-qd16", "dev.qd-sweep-write", "iops_qd16"),
    ("dio-xfs-randwrite-qd64", "dev.qd-sweep-write", "iops_qd64"),
    ("dio-xfs-randread-qd1", "dev.qd-sweep-read", "iops_qd1"),
    ("dio-xfs-randread-qd16", "dev.qd-sweep-read", "iops_qd16"),
    ("dio-xfs-randread-qd64", "dev.qd-sweep-read", "iops_qd64"),
    ("dio-xfs-randrw-qd16", "dev.qd-sweep-randrw", "iops_rw_qd16"))


def since(raw_path, paths, f):
    """`since`: the COMPARABLE rows of results files PATHS against the
    raw calibration file RAW_PATH: per row the calibration's median and
    spread, each file's real median, its ratio (above 1: the kernel
    faster than at the calibration) and whether the ratio is beyond the
    noise (the larger of the calibration's and the row's real spread);
    then per file the median ratio."""
    with open(raw_path) as fh:
        raw = json.load(fh)
    docs = []
    for p in paths:
        with open(p) as fh:
            docs.append(json.load(fh))
    print("# the grid's real side against the calibration's runs of the "
          "same jobs: %s (measured %s, load %s); ratio = real / "
          "calibration, above 1 the kernel faster; * beyond the noise" % (
              os.path.relpath(os.path.abspath(raw_path), REPO),
              raw["meta"].get("date", "?"), raw["meta"].get("load", "?")),
          file=f)
    print("%-24s %-44s %9s %6s  %s" % (
        "row", "calibration benchmark", "median", "spread", "  ".join(
            "%19s" % d["meta"]["date"] for d in docs)), file=f)
    ratios = [[] for _ in docs]
    for row, bench, key in COMPARABLE:
        runs = [r[key] for r in raw["raw"].get(bench, {}).get("runs", [])
                if key in r]
        if not runs:
            continue
        cal, csp = statistics.median(runs), spread(runs)
        cells = []
        for i, d in enumerate(docs):
            res = next((r for r in d["rows"] if r["name"] == row), None)
            s = summarise(res) if res else None
            if s is None:
                cells.append("%19s" % "-")
                continue
            q = s["median"] / cal
            ratios[i].append(q)
            cells.append("%10.0f %5.2f%s  " % (
                s["median"], q, "*" if abs(q - 1) > max(csp, s["spread"])
                else " "))
        print("%-24s %-44s %9.0f %5.0f%%  %s" % (
            row, bench + " " + key, cal, 100 * csp, "  ".join(cells)),
            file=f)
    for d, q in zip(docs, ratios):
        if q:
            print("# %s: median ratio %.2f over %d rows (%d above 1.10, %d "
                  "below 0.90)" % (
                      d["meta"]["date"], statistics.median(q), len(q),
                      sum(x > 1.10 for x in q), sum(x < 0.90 for x in q)),
                  file=f)
        else:
            print("# %s: no comparable row" % d["meta"]["date"], file=f)


# ---- the report ----------------------------------------------------------

def summarise(res):
    vals = [r["value"] for r in res["real"] if "value" in r]
    if not vals:
        return None
    med = statistics.median(vals)
    by = {}
    for r in res["real"]:
        if "value" in r and "sitting" in r:
            by.setdefault(r["sitting"], []).append(r["value"])
    pts = [statistics.median(v) for v in by.values()] if by else vals
    spread = max(abs(v - med) for v in pts) / med if med else float("inf")
    s = {"median": med, "spread": spread, "n": len(vals)}
    rpw = [r["rpw"] for r in res["real"] if "rpw" in r]
    if rpw:
        s["rpw"] = statistics.median(rpw)
    return s


def report(doc, f):
    m = doc["meta"]
    print("# validate: %s, %s, %d CPUs, %s, real runs per row %d; model %s"
          % (m["kernel"], m["date"], m["cpus"], m["fio"], m["reps"],
             " ".join(m["model_common"] + (
                 ["--variant=rwsem=" + m["model_rwsem"]]
                 if "model_rwsem" in m else []))), file=f)
    anchor_report(doc, f)
    if m.get("anchors_only"):
        return
    for p in m["profiles"]:
        print("\n## profile %s" % p, file=f)
        print("%-24s %4s %11s %7s %5s %11s %8s  %s" % (
            "row", "fs", "real", "spread", "load", "model", "error",
            "note"), file=f)
        scored, noisy, notm, rpw = [], [], [], []
        for res in doc["rows"]:
            s = summarise(res)
            mo = res["model"].get(p, {})
            load = statistics.median(res["load"]) if res["load"] else 0
            if s is None:
                note = "real side failed: " + res["real"][0].get("error", "")
                print("%-24s %4s %11s %7s %5.1f %11s %8s  %s" % (
                    res["name"], res["fs"], "-", "-", load, "-", "-", note),
                    file=f)
                continue
            if "value" not in mo:
                why = mo.get("not_modelled") or mo.get("error", "")
                tag = "not modelled yet" if "not_modelled" in mo else \
                    "model failed"
                notm.append(res["name"])
                print("%-24s %4s %11.1f %6.0f%% %5.1f %11s %8s  %s: %s" % (
                    res["name"], res["fs"], s["median"], 100 * s["spread"],
                    load, "-", "-", tag, why), file=f)
                continue
            err = (mo["value"] - s["median"]) / s["median"]
            note = ""
            if s["spread"] > NOISY:
                note = "noisy (real spread > 20%)"
                noisy.append(err)
            else:
                scored.append(err)
            if "rpw" in s and "rpw" in mo:
                d = mo["rpw"] - s["rpw"]
                rpw.append(d)
                note = ("r/w real %.3f model %.3f (%+.3f) " % (
                    s["rpw"], mo["rpw"], d)) + note
            if "value" in res.get("warmup", {}):
                note += "%swarm-up %.1f (not counted)" % (
                    "; " if note else "", res["warmup"]["value"])
            print("%-24s %4s %11.1f %6.0f%% %5.1f %11.1f %+7.1f%%  %s" % (
                res["name"], res["fs"], s["median"], 100 * s["spread"], load,
                mo["value"], 100 * err, note), file=f)
        print("# scored rows (real spread <= 20%%): %d" % len(scored), file=f)
        if scored:
            ab = sorted(abs(e) for e in scored)
            print("#   median |error| %.1f%%; within +-10%%: %d/%d (%.0f%%); "
                  "within +-20%%: %d/%d (%.0f%%)" % (
                      100 * statistics.median(ab),
                      sum(e <= .10 for e in ab), len(ab),
                      100 * sum(e <= .10 for e in ab) / len(ab),
                      sum(e <= .20 for e in ab), len(ab),
                      100 * sum(e <= .20 for e in ab) / len(ab)), file=f)
        if noisy:
            ab = sorted(abs(e) for e in noisy)
            print("# noisy rows (reported apart): %d, median |error| %.1f%%, "
                  "within +-20%%: %d" % (len(ab), 100 * statistics.median(ab),
                                          sum(e <= .20 for e in ab)), file=f)
        if rpw:
            print("# DONTCACHE reads per write within +-0.05: %d/%d" % (
                sum(abs(d) <= .05 for d in rpw), len(rpw)), file=f)
        if notm:
            print("# not modelled yet or failed in the model (not scored): "
                  "%d: %s" % (len(notm), " ".join(notm)), file=f)


def pool(out, paths):
    """`pool`: the real sides of several results files in one (docstring
    at the top)."""
    docs = []
    for path in paths:
        with open(path) as f:
            docs.append(json.load(f))
    m0 = docs[0]["meta"]
    for path, d in zip(paths, docs):
        for key in ("kernel", "cpus", "fio"):
            if d["meta"][key] != m0[key]:
                sys.exit("validate: %s: %s %r is not %s's %r: not pooled" % (
                    path, key, d["meta"][key], paths[0], m0[key]))
    meta = dict(m0, date=" ".join(d["meta"]["date"] for d in docs),
                reps=sum(d["meta"]["reps"] for d in docs), profiles=[],
                pooled=[os.path.relpath(os.path.abspath(p), REPO)
                        for p in paths])
    rows = []
    for r0 in docs[0]["rows"]:
        real, load = [], []
        for i, d in enumerate(docs):
            for r in d["rows"]:
                if r["name"] == r0["name"]:
                    real.extend(dict(x, sitting=i) for x in r["real"])
                    load.extend(r["load"])
        rows.append({"name": r0["name"], "kind": r0["kind"],
                     "fs": r0["fs"], "real": real, "load": load,
                     "model": {}})
    with open(out, "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    print("validate: %s: %d rows, %d sittings" % (out, len(rows),
                                                  len(docs)))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--wpsim", default="build/wpsim")
    r.add_argument("--loop", default="/var/tmp/wpsim-loop")
    r.add_argument("--out", required=True)
    r.add_argument("--reps", type=int, default=3)
    r.add_argument("--profiles", default="virtio-vm")
    r.add_argument("--rows")
    r.add_argument("--into", action="store_true",
                   help="add the rows to the existing --out file")
    r.add_argument("--warmup",
                   default="buffered-seq-big.fio,buffered-rand-big.fio",
                   help="job files whose rows run once first, not counted "
                   "(comma-separated, or none)")
    m = sub.add_parser("remodel")
    m.add_argument("file")
    m.add_argument("--wpsim", default="build/wpsim")
    m.add_argument("--profiles", required=True)
    m.add_argument("--rows")
    m.add_argument("--rwsem", help="the model's --variant rwsem= for "
                   "this remodel (default: MODEL_RWSEM, the grid's)")
    for p in (r, sub.add_parser("anchors")):
        p.add_argument("--anchor-dir", help="the anchors' directory "
                       "(made, then removed); default: the XFS loop "
                       "filesystem itself, the calibration's files")
        p.add_argument("--anchor-reps", type=int, default=ANCHOR_REPS,
                       help="runs of each anchor at each end (0: none)")
    an = sub.choices["anchors"]
    an.add_argument("--wpsim", default="build/wpsim")
    an.add_argument("--loop", default="/var/tmp/wpsim-loop")
    an.add_argument("--out", required=True)
    an.add_argument("--profiles", default="virtio-vm-cal")
    sn = sub.add_parser("since")
    sn.add_argument("raw")
    sn.add_argument("files", nargs="+")
    rp = sub.add_parser("report")
    rp.add_argument("files", nargs="+")
    po = sub.add_parser("pool")
    po.add_argument("out")
    po.add_argument("files", nargs="+")
    a = ap.parse_args()
    if a.cmd == "pool":
        if len(a.files) < 2:
            sys.exit("validate: pool needs two results files or more")
        pool(a.out, a.files)
        return
    if a.cmd == "since":
        since(a.raw, a.files, sys.stdout)
        return
    if a.cmd == "anchors":
        if a.anchor_reps < 1:
            sys.exit("validate: anchors: --anchor-reps must be 1 or more")
        a.wpsim = os.path.abspath(a.wpsim)
        anchors_cmd(a)
        return
    if a.cmd == "run":
        a.wpsim = os.path.abspath(a.wpsim)
        run(a)
    elif a.cmd == "remodel":
        global MODEL_RWSEM
        a.wpsim = os.path.abspath(a.wpsim)
        if a.rwsem:
            MODEL_RWSEM = a.rwsem
        remodel(a)
    else:
        for path in a.files:
            with open(path) as f:
                report(json.load(f), sys.stdout)


if __name__ == "__main__":
    main()
