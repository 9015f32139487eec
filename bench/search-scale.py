#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/search-scale.py WPSIM [--mpi MPI-WPSIM] [--base BASE]
[--scenario FILE[:VARIANT]] [--timeout S] [--rows ROW,...]
[--mpi-bind none|core] [--no-scale] [--no-growth]
[--growth-max N] [--cpu-limit S] [--estimate-check PROBES] - issue 34's
figures: one search spread over processes and MPI ranks, the growth of an
exhaustive search with the program, and the estimator against the counts.

(a) Scaling (unless --no-scale), on --scenario (default
scenarios/writethrough/noserial-overlap.litmus:writethrough=v3,
exhaustive), in one run and in this order: the single plain process (no
--jobs); the single process with a CPU-bound process of the same length
beside it (a second single search of the same scenario, started with it
and killed when it ends: the hog); with --mpi (a -Dmpi=enabled build)
`mpirun -np 2` and `-np 4` (--oversubscribe, --bind-to none unless
--mpi-bind core: Open MPI binds each rank of -np 2 to a core, which on a
shared machine keeps a rank on a core another process shares); --jobs 2; --jobs 2 with
the hog beside it.  Each row: wall seconds; CPU seconds (user + system
of every process of the run, mpirun included, the hog's measured apart
with wait4 and left out); that CPU against the single process's; the
cores the run used (CPU / wall); each MPI rank's CPU seconds
(/usr/bin/time around each rank) and mpirun's (the rest); the
coordination's CPU seconds as wpsim counts them (`--progress`'s last
line: the parent's with --jobs, rank 0's outside its own items'
executions with MPI) and their share of the run's CPU; the workers'
idle share (`--progress`: the time a worker had no unit); the hog's CPU
seconds and cores; the wall ratio single / this (measured in the same
run); whether the report is the one of --jobs 2 (without a jobs2 row: of the
first split row) byte for byte (and has
the single process's observations and final states); the load average
(1 min) before and after it.  Then, per hog row, how close the search
came to what a fair scheduler owes it beside one CPU-bound process on 2
cores (1 core for the single process, 4/3 for --jobs 2's two workers),
--rows picks rows (the single process always runs first): single-hog,
np2, np2-noreuse, np2-noask, np4, np4-noask, np4-noslice, np4-nocores,
np2-fifo, np4-fifo, jobs2, jobs2-noreuse, jobs2-hog, jobs2-hog-noslice
(the -noreuse rows with WPSIM_SPLIT_REUSE=0: each unit builds DPOR's
state and formats its setup's names anew, as before issue 34's session
9; the -noask rows with
WPSIM_MPI_ASK_BACK=0: rank 0 does not ask the ranks back for units they
hold and have not started; the -noslice ones with WPSIM_SPLIT_SLICE=0: the workers keep
the kernel's time slice; np4-nocores with WPSIM_MPI_CORES=0: the four
ranks do not share the node's two cores out between them, each runs
its units as the kernel schedules it; the -fifo ones with
WPSIM_MPI_ORDER=fifo: rank 0 hands out the first queued unit, not the
queued unit first in merge order; without --rows, every row);
and the split rows' per-worker lines of `--progress` (units, runs and
the CPU seconds in them: runs per CPU second is the same for every
worker when nothing but the search takes their CPU; busy share, waits,
context switches (involuntary ones: the scheduler took the core), and
for MPI ranks the units given back when rank 0 asked and, where a
node's ranks share its cores out, the time waited for one) and its
coordination line (the units, and how many were run for forwarded
races, made only as the merge reached them).  On a loaded
machine the wall ratios measure the scheduler's share, not the search:
the CPU columns are the ones the load disturbs least.  With the
single-hog row, the ceiling of a two-way split on the machine as it is
then: 2 x the single's CPU / its CPU with a copy of itself beside it
(a 2-vCPU guest whose vCPUs slow each other down cannot give any split
2x, whatever the split does).

(b) Growth (unless --no-growth): bench/search-growth.py WPSIM BASE
(--base, default /work/baseline/wpsim when it exists) with --max
(--growth-max, default 3), --cpu-limit and --dfs 2: write-write-sync
grown by writers on one page and by one writer per folio, executions
before (BASE) and after (WPSIM), the same observation and final states,
the final states DFS within 2 preemptions reaches on the small sizes.

(c) --estimate-check PROBES: `wpsim check FILE --exhaustive --estimate
PROBES --format json` on every file of scenarios/ (every variant; a run
capped at --cpu-limit CPU seconds is "not finished" and left out) and on
the grown write-write-sync programs (writers 1-3 on one page, one writer
per folio 1-3); per pair the estimate, the whole count (executions +
redundant) and their ratio; the worst ratio (max of ratio and 1/ratio)
printed at the end.

Never fails on timing: bench/ only measures (docs/performance.md has the
figures, with the load of each run).
"""
import glob
import importlib.util
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = "scenarios/writethrough/noserial-overlap.litmus:writethrough=v3"


def load():
    return "%.2f" % os.getloadavg()[0]


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, timeout, hog=None, env=None):
    """(stdout or None, stderr, wall s, cpu s, hog cpu s): @cmd's CPU
    (user + system of it and every process it waited for); with @hog
    (a Popen started just before, killed when @cmd ends), the hog's own
    CPU, measured apart (wait4) and not counted in @cmd's."""
    c0, t0 = cpu_children(), time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout,
                           env=dict(os.environ, **env) if env else None)
        out, err = p.stdout, p.stderr
        if p.returncode not in (0, 1):
            out = None
    except subprocess.TimeoutExpired:
        out, err = None, ""
    wall = time.monotonic() - t0
    hog_cpu = None
    if hog:
        hog.kill()
        _, _, ru = os.wait4(hog.pid, 0)
        hog.returncode = -9
        hog_cpu = ru.ru_utime + ru.ru_stime
    cpu = cpu_children() - c0 - (hog_cpu or 0)
    return out, err, wall, cpu, hog_cpu


def summary(out):
    """(executions, redundant, observations and final states) of a JSON
    report."""
    ex = red = 0
    obs = []
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        d = json.loads(line)
        ex += d["executions"]
        red += d["redundant"]
        obs.append((d["observation"], d["ok"],
                    sorted((s["state"], s["holds"]) for s in d["states"])))
    return ex, red, obs


def coordination(err):
    m = re.findall(r"coordination ([0-9.]+) CPU s", err)
    return sum(float(x) for x in m) if m else None


MPI_BIND = "none"


def mpi_cmd(np, wpsim, args, ranks_dir, env=None):
    """mpirun -np NP, each rank under /usr/bin/time writing its CPU
    seconds to RANKS_DIR/rank.N.  --bind-to MPI_BIND (--mpi-bind,
    default none): with -np 2 on 2 cores Open MPI binds each rank to a
    core, and on a shared machine a bound rank cannot leave a core that
    another process shares (the --jobs workers, not bound, can); `core`
    measures Open MPI's default."""
    inner = ('exec /usr/bin/time -f "%%U %%S" -o "%s/rank.$OMPI_COMM_WORLD_'
             'RANK" "$@"' % ranks_dir)
    xs = []
    for k, v in sorted((env or {}).items()):
        xs += ["-x", "%s=%s" % (k, v)]
    return (["mpirun", "--oversubscribe", "--allow-run-as-root",
             "--bind-to", MPI_BIND] + xs + ["-np", str(np), "sh", "-c", inner,
                                            "sh", wpsim] + args)


def rank_cpu(ranks_dir, np):
    cpus = []
    for k in range(np):
        try:
            with open(os.path.join(ranks_dir, "rank.%d" % k)) as f:
                u, s = f.read().split()[-2:]
            cpus.append(float(u) + float(s))
        except (OSError, ValueError):
            cpus.append(None)
    return cpus


def idle(err):
    """The workers' idle share of the last progress line, or None."""
    m = re.findall(r"workers idle ([0-9.]+)%", err)
    return float(m[-1]) if m else None


def busy(err):
    """Per worker or rank (`--progress`'s last lines): the share of the
    split's wall time it spent in its units, the seconds it waited for
    one, how many waits, and the seconds after its last unit."""
    return [(float(b), float(w), int(n), float(a)) for b, w, n, a in
            re.findall(r"busy [0-9.]+ s of [0-9.]+ s wall \(([0-9.]+)%\), "
                       r"waited ([0-9.]+) s in ([0-9]+) waits, ([0-9.]+) s "
                       r"after its last unit", err)]


def scale(wpsim, mpi, name, timeout, only=None):
    f, _, variant = name.partition(":")
    target = [f] + (["--variant", variant] if variant else [])
    check = ["check", "--exhaustive", "--format", "json"]
    rows = []
    tmp = tempfile.mkdtemp(prefix="wpsim-scale-")

    def row(label, cmd, np=0, hog=False, env=None):
        ld = load()
        h = None
        if hog:
            h = subprocess.Popen([wpsim, "check", "--exhaustive", "--quiet"]
                                 + target, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        out, err, wall, cpu, hog_cpu = run(cmd, timeout, h, env)
        ranks = rank_cpu(tmp, np) if np else []
        rows.append(dict(label=label, out=out, err=err, wall=wall, cpu=cpu,
                         hog=hog_cpu, ranks=ranks, load=ld,
                         load_after=load()))

    split = check + ["--progress", "1"]
    want = set(only.split(",")) if only else None

    def pick(key):
        return want is None or key in want

    row("single", [wpsim] + check + target)
    if pick("single-hog"):
        row("single, CPU-bound process beside", [wpsim] + check + target,
            hog=True)
    noask = {"WPSIM_MPI_ASK_BACK": "0"}
    noslice = {"WPSIM_SPLIT_SLICE": "0"}
    nocores = {"WPSIM_MPI_CORES": "0"}
    fifo = {"WPSIM_MPI_ORDER": "fifo"}
    noreuse = {"WPSIM_SPLIT_REUSE": "0"}
    if mpi and pick("np2"):
        row("mpirun -np 2", mpi_cmd(2, mpi, split + target, tmp), 2)
    if mpi and pick("np2-noreuse"):
        row("mpirun -np 2, state built per unit",
            mpi_cmd(2, mpi, split + target, tmp, noreuse), 2)
    if mpi and pick("np2-noask"):
        row("mpirun -np 2, no asking back",
            mpi_cmd(2, mpi, split + target, tmp, noask), 2)
    if mpi and pick("np4"):
        row("mpirun -np 4 --oversubscribe",
            mpi_cmd(4, mpi, split + target, tmp), 4)
    if mpi and pick("np4-noask"):
        row("mpirun -np 4 --oversubscribe, no asking back",
            mpi_cmd(4, mpi, split + target, tmp, noask), 4)
    if mpi and pick("np4-noslice"):
        row("mpirun -np 4 --oversubscribe, kernel's slice",
            mpi_cmd(4, mpi, split + target, tmp, noslice), 4)
    if mpi and pick("np2-fifo"):
        row("mpirun -np 2, first in first out",
            mpi_cmd(2, mpi, split + target, tmp, fifo), 2)
    if mpi and pick("np4-fifo"):
        row("mpirun -np 4 --oversubscribe, first in first out",
            mpi_cmd(4, mpi, split + target, tmp, fifo), 4)
    if mpi and pick("np4-nocores"):
        row("mpirun -np 4 --oversubscribe, no core sharing",
            mpi_cmd(4, mpi, split + target, tmp, nocores), 4)
    if pick("jobs2"):
        row("--jobs 2", [wpsim] + split + ["--jobs", "2"] + target)
    if pick("jobs2-noreuse"):
        row("--jobs 2, state built per unit",
            [wpsim] + split + ["--jobs", "2"] + target, env=noreuse)
    if pick("jobs2-hog"):
        row("--jobs 2, CPU-bound process beside",
            [wpsim] + split + ["--jobs", "2"] + target, hog=True)
    if pick("jobs2-hog-noslice"):
        row("--jobs 2, CPU-bound process beside, kernel's slice",
            [wpsim] + split + ["--jobs", "2"] + target, hog=True,
            env=noslice)
    shutil.rmtree(tmp, ignore_errors=True)

    single = rows[0]
    # The report every split row must print byte for byte: --jobs 2's,
    # else (--rows without jobs2) the first split row's.
    ref = next((r for r in rows if r["label"] == "--jobs 2"), None) or \
        next((r for r in rows if not r["label"].startswith("single")
              and r["out"] is not None), None)
    print("(a) %s, exhaustive" % name)
    print()
    print("| run | executions (+red.) | wall s | CPU s | CPU / single's |"
          " cores used (CPU / wall) | CPU per rank s (mpirun's) |"
          " coordination CPU s (share) | workers idle | hog: CPU s"
          " (cores) | single / this (wall) | same report |"
          " load before, after |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if r["out"] is None:
            print("| %s | not finished (%.0f s) | | | | | | | | | | | %s, "
                  "%s |" % (r["label"], r["wall"], r["load"],
                            r["load_after"]))
            continue
        ex, red, obs = summary(r["out"])
        co = coordination(r["err"])
        cpu, wall = r["cpu"], r["wall"]
        share = ("%.2f (%.1f%%)" % (co, 100 * co / cpu) if co is not None
                 and cpu else "-")
        if r["label"].startswith("single"):
            same = "-" if r is single else (
                "yes" if obs == summary(single["out"])[2] else "NO")
        else:
            same = ("yes" if (ref and ref["out"] == r["out"]) and
                    obs == summary(single["out"])[2] else "NO")
        ranks = ", ".join("%.2f" % c if c is not None else "?"
                          for c in r["ranks"])
        if r["ranks"] and None not in r["ranks"]:
            ranks += " (%.2f)" % (cpu - sum(r["ranks"]))
        iw = idle(r["err"])
        print("| %s | %s (+%s) | %.2f | %.2f | %.2f | %.2f | %s | %s | %s |"
              " %s | %s | %s | %s, %s |" % (
                  r["label"], format(ex, ","), format(red, ","), wall, cpu,
                  cpu / single["cpu"] if single["cpu"] else 0,
                  cpu / wall if wall else 0, ranks or "-", share,
                  "%.0f%%" % iw if iw is not None else "-",
                  "%.2f (%.2f)" % (r["hog"], r["hog"] / wall)
                  if r["hog"] is not None else "-",
                  "%.2f×" % (single["wall"] / wall)
                  if single["out"] and wall else "-",
                  same, r["load"], r["load_after"]))
    print()
    print("Summary (wall and CPU s; ratio: the single process's wall over "
          "this run's, measured in the same invocation; busy: each worker's "
          "or rank's share of the split's wall time inside its units, "
          "idle = 100% - busy):")
    print()
    print("| run | wall s | CPU s | single / this (wall) | CPU / single's |"
          " busy per worker or rank | idle (mean) | load before, after |")
    print("|---|---|---|---|---|---|---|---|")
    walls = {}
    for r in rows:
        if r["out"] is None:
            continue
        walls[r["label"]] = r["wall"]
        b = busy(r["err"])
        print("| %s | %.2f | %.2f | %.2f× | %.2f | %s | %s | %s, %s |" % (
            r["label"], r["wall"], r["cpu"],
            single["wall"] / r["wall"] if r["wall"] else 0,
            r["cpu"] / single["cpu"] if single["cpu"] else 0,
            ", ".join("%.0f%%" % x[0] for x in b) or "-",
            "%.0f%%" % (100 - sum(x[0] for x in b) / len(b)) if b else "-",
            r["load"], r["load_after"]))
    print()
    np2 = walls.get("mpirun -np 2")
    np4 = walls.get("mpirun -np 4 --oversubscribe")
    j2 = walls.get("--jobs 2")
    if np2:
        print("Bar: mpirun -np 2 >= 1.70x the single process: %.2fx (%s)" % (
            single["wall"] / np2, "met" if single["wall"] / np2 >= 1.7
            else "NOT met"))
    if np2 and np4:
        print("Bar: mpirun -np 4 no slower than -np 2: %.2f s against "
              "%.2f s (%s)" % (np4, np2, "met" if np4 <= np2 else
                               "NOT met"))
    if j2:
        print("(--jobs 2: %.2fx the single process)" % (single["wall"] / j2))
    # The machine's own ceiling for a two-way split: two copies of the
    # single search side by side (the single-hog row: the hog is the same
    # search, killed when the measured one ends, so it ran beside it the
    # whole time).  If a copy needs C2 CPU seconds for the work one alone
    # does in C1 (shared caches, memory bandwidth, a
    # host that runs the guest's two vCPUs on shared cores), a perfect
    # split of the work over two processes takes C2 / 2 of wall time:
    # at most 2 * C1 / C2 times faster than the single process.
    sh = next((r for r in rows if r["label"].startswith("single, CPU")
               and r["out"] is not None and r["hog"]), None)
    if sh and single["cpu"]:
        c2 = sh["cpu"]
        print("Ceiling of a two-way split on this machine now: the single "
              "search took %.2f CPU s with a copy of itself running beside "
              "it the whole time (alone: %.2f), so a perfect split into two "
              "processes is at most %.2fx the single process in wall time "
              "(2 x %.2f / %.2f)." % (c2, single["cpu"],
                                       2 * single["cpu"] / c2,
                                       single["cpu"], c2))
    print()
    for r in rows:
        lines = re.findall(r"^.*: (?:(?:worker|rank) [0-9]+:|coordination)"
                           r" .*$", r["err"], re.M)
        if lines:
            print("%s, per worker:" % r["label"])
            for line in lines:
                print("    " + line)
    print()
    for r in rows:
        if r["hog"] is None or r["out"] is None or not r["wall"]:
            continue
        got = r["cpu"] / r["wall"]
        one = r["label"].startswith("single")
        print("%s: the search got %.2f cores, the hog %.2f; beside one "
              "CPU-bound process on 2 cores a fair scheduler gives the "
              "search %s, so this is %.0f%% of that ceiling (wall %.2f s; "
              "at the ceiling, with this run's CPU, %.2f s).  The search's "
              "share of the CPU it and the hog got: %.3f (fair: %s; on a "
              "loaded machine this share, not the cores, is the figure "
              "to read)." % (
                  r["label"], got, r["hog"] / r["wall"],
                  "1 core" if one else
                  "4/3 of a core (2 of its 3 processes' shares)",
                  100 * got / (1.0 if one else 4 / 3.0), r["wall"],
                  r["cpu"] / (1.0 if one else 4 / 3.0),
                  r["cpu"] / (r["cpu"] + r["hog"]) if r["cpu"] + r["hog"]
                  else 0, "1/2" if one else "2/3"))
    print()
    sys.stdout.flush()


def growth(wpsim, base, gmax, limit):
    print("(b) write-write-sync growth, BASE %s, NEW %s" % (base, wpsim))
    print()
    sys.stdout.flush()
    subprocess.run([sys.executable, os.path.join(HERE, "search-growth.py"),
                    wpsim, base, "--max", str(gmax), "--cpu-limit",
                    str(limit), "--dfs", "2"])
    print()


def variant(d):
    v = d.get("variant", {})
    return ",".join("%s=%s" % kv for kv in sorted(v.items())) \
        if isinstance(v, dict) else str(v)


def estimate_check(wpsim, probes, limit):
    spec = importlib.util.spec_from_file_location(
        "growth", os.path.join(HERE, "search-growth.py"))
    g = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(g)
    tmp = tempfile.mkdtemp(prefix="wpsim-estimate-")
    files = sorted(glob.glob("scenarios/**/*.litmus", recursive=True))
    for kind in ("one page", "per folio"):
        for n in (1, 2, 3):
            path = os.path.join(tmp, "wws-%s-%d.litmus" %
                                (kind.replace(" ", "-"), n))
            with open(path, "w") as f:
                f.write(g.program(kind, n))
            files.append(path)
    print("(c) --estimate %d against the exhaustive count, every file of "
          "scenarios/ and the grown write-write-sync (load before %s)" %
          (probes, load()))
    print()
    print("| scenario | variant | whole (executions + redundant) | "
          "estimate | ratio |")
    print("|---|---|---|---|---|")
    worst, worst_at, unfinished, pairs = 1.0, None, [], 0

    def cap():
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))

    for f in files:
        p = subprocess.run([wpsim, "check", f, "--exhaustive", "--estimate",
                            str(probes), "--format", "json", "--quiet"],
                           capture_output=True, text=True, preexec_fn=cap)
        recs = []
        for line in p.stdout.splitlines():
            if line.startswith("{"):
                try:
                    recs.append(json.loads(line))
                except ValueError:
                    pass
        if not recs or p.returncode not in (0, 1):
            unfinished.append(f)
            continue
        for d in recs:
            if not d.get("complete") or "estimate" not in d:
                unfinished.append("%s %s" % (f, variant(d)))
                continue
            whole = d["executions"] + d["redundant"]
            est = d["estimate"].get("executions", 0)
            pairs += 1
            r = est / whole if whole else 1.0
            off = max(r, 1 / r) if r > 0 else float("inf")
            if off > worst:
                worst, worst_at = off, "%s %s" % (f, variant(d))
            if whole > probes:
                print("| %s | %s | %s | %s | %.2f |" % (
                    os.path.relpath(f) if f.startswith(tmp) is False
                    else os.path.basename(f), variant(d),
                    format(whole, ","), format(int(est), ","), r))
                sys.stdout.flush()
    shutil.rmtree(tmp, ignore_errors=True)
    print()
    print("%d pairs finished (those with at most %d executions: the "
          "sample covers them, ratio 1); worst ratio %.2f× (%s); not "
          "finished within %d CPU s: %s" % (pairs, probes, worst, worst_at,
                                            limit, ", ".join(unfinished)
                                            or "none"))
    print("load after: %s" % load())


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    wpsim = argv[1]
    o = {"--mpi": None, "--base": None, "--scenario": DEFAULT,
         "--timeout": "3600", "--growth-max": "3", "--cpu-limit": "600",
         "--estimate-check": None, "--rows": None, "--mpi-bind": "none"}
    flags = {"--no-scale": False, "--no-growth": False}
    i = 2
    while i < len(argv):
        if argv[i] in flags:
            flags[argv[i]] = True
            i += 1
        elif argv[i] in o and i + 1 < len(argv):
            o[argv[i]] = argv[i + 1]
            i += 2
        else:
            print("bench/search-scale.py: unknown argument %s" % argv[i],
                  file=sys.stderr)
            return 2
    global MPI_BIND
    MPI_BIND = o["--mpi-bind"]
    base = o["--base"] or ("/work/baseline/wpsim"
                           if os.path.exists("/work/baseline/wpsim")
                           else None)
    print("load average before: %s; %s" % (
        load(), subprocess.run(["uptime"], capture_output=True,
                               text=True).stdout.strip()))
    print()
    if not flags["--no-scale"]:
        scale(wpsim, o["--mpi"], o["--scenario"], float(o["--timeout"]),
              o["--rows"])
    if not flags["--no-growth"] and base:
        growth(wpsim, base, int(o["--growth-max"]), int(o["--cpu-limit"]))
    if o["--estimate-check"]:
        estimate_check(wpsim, int(o["--estimate-check"]),
                       int(o["--cpu-limit"]))
    print("load average after: %s" % load())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
