#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/fio/test-golden.py FIO-TOOL SOURCE-ROOT - wpsim's fio printers
against real fio 3.33 output (TAP).

For each case in tests/fio/golden/ (recorded by make-golden.sh): the
JSON+ object fio printed is turned into a results file (the job's I/O
counts, latency summaries, histogram bins, samples, CPU, depth and
latency distributions), fio-tool prints it with the same fio arguments,
and

  1. the normal text must equal fio's, line for line, after these
     documented normalisations (docs/fio.md): the version line, the pid
     and the date (virtual), "Laying out IO file" progress lines and the
     disk stats block (not printed by wpsim), and the fourth "issued
     rwts" total, which fio 3.33 prints as 0 and wpsim as the sync count;
  2. the JSON must have every field fio's has, with the same value
     (floats to 1e-6 relative), except the wall-clock fields, the
     version, disk_util and sync.total_ios (same fio 3.33 count); and
     nothing more than fio's, except "job options" entries with an empty
     value (fio 3.33 drops those, e.g. a bare group_reporting).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

tool, root = sys.argv[1], sys.argv[2]
golden = os.path.join(root, "tests", "fio", "golden")
VERSION = "wpsim-fio (fio-3.33 output format)"
DATE = "Thu Jan  1 00:00:00 1970"

n = 0
failed = 0


def report(ok, name, detail=""):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, name))
    if not ok:
        failed += 1
        for line in detail.splitlines():
            print("# " + line)


def split_output(text):
    """fio prints the JSON object between the header and the normal text."""
    lines = text.split("\n")
    start = lines.index("{")
    end = start + lines[start:].index("}")
    obj = json.loads("\n".join(lines[start:end + 1]))
    normal = lines[:start] + lines[end + 1:]
    return obj, normal


def counts(pcts, total, keys, floor):
    """Counts behind fio's percentages; fio raises a non-zero share
    below @floor to @floor, so a share printed as @floor may be 1."""
    out = []
    for k in keys:
        c = round(pcts[k] * total / 100.0)
        if pcts[k] == floor and total and 100.0 / total < floor:
            c = 1
        out.append(c)
    return out


def lat_lines(kind_dir, kind, obj):
    out = ["lat %s %s %d %d %d %.9f %.9f" % (
        kind_dir, kind, obj["N"], obj["min"], obj["max"], obj["mean"],
        obj["stddev"])]
    if "bins" in obj:
        out.append("bins %s %s %s" % (kind_dir, kind, " ".join(
            "%s:%d" % (k, v) for k, v in obj["bins"].items())))
    return out


def results_file(obj, normal):
    members = {}
    for line in normal:
        m = re.match(r"^(\S+): \(groupid=\d+, jobs=(\d+)\)", line)
        if m:
            members[m.group(1)] = int(m.group(2))
    out = []
    depth_keys = ["1", "2", "4", "8", "16", "32", ">=64"]
    sub_keys = ["0", "4", "8", "16", "32", "64", ">=64"]
    for job in obj["jobs"]:
        out.append("job %s %d %d 0 -1" % (job["jobname"], job["groupid"],
                                          members[job["jobname"]]))
        total = 0
        for d in ("read", "write", "trim"):
            o = job[d]
            total += o["total_ios"]
            out.append("ddir %s %d %d %d %d %d" % (
                d, o["io_bytes"], o["total_ios"], o["short_ios"],
                o["drop_ios"], o["runtime"]))
            for kind in ("slat", "clat", "lat"):
                out += lat_lines(d, kind, o[kind + "_ns"])
            out.append("stat %s bw %d %d %d %.9f %.9f" % (
                d, o["bw_samples"], o["bw_min"], o["bw_max"],
                o["bw_mean"], o["bw_dev"]))
            out.append("stat %s iops %d %d %d %.9f %.9f" % (
                d, o["iops_samples"], o["iops_min"], o["iops_max"],
                o["iops_mean"], o["iops_stddev"]))
        out += lat_lines("sync", "lat", job["sync"]["lat_ns"])
        out.append("sync_ios %d" % job["sync"]["lat_ns"]["N"])
        run = job["job_runtime"]
        # usr_cpu = usr_ms * 100 / job_runtime, back to ms.
        out.append("cpu %d %d %d %d %d %d %d" % (
            run, round(job["usr_cpu"] * run / 100.0),
            round(job["sys_cpu"] * run / 100.0), job["ctx"], job["majf"],
            job["minf"], job["elapsed"]))
        out.append("depth %d" % job.get("latency_depth", 0))
        out.append("map " + " ".join(
            str(c) for c in counts(job["iodepth_level"], total,
                                   depth_keys, 0.1)))
        # Any total gives the same percentages; 10^6 keeps 4 digits.
        for key, word in (("iodepth_submit", "submit"),
                          ("iodepth_complete", "complete")):
            out.append("%s 1000000 %s" % (word, " ".join(
                str(c) for c in counts(job[key], 1000000, sub_keys, 0.1))))
        for key, word in (("latency_ns", "latn"), ("latency_us", "latu"),
                          ("latency_ms", "latm")):
            pct = job[key]
            out.append("%s %s" % (word, " ".join(
                str(c) for c in counts(pct, total, list(pct.keys()), 0.01))))
    return "\n".join(out) + "\n"


def normalise_fio(normal, obj):
    sync_n = {j["jobname"]: j["sync"]["lat_ns"]["N"] for j in obj["jobs"]}
    out, name, skip = [], None, False
    for line in normal:
        if line == "fio-3.33":
            line = VERSION
        if "Laying out IO file" in line:
            continue
        if line.startswith("Disk stats (read/write):"):
            skip = True
        if skip:
            continue
        m = re.match(r"^(\S+): \(groupid=\d+, jobs=\d+\): err=(..): pid=\d+:",
                     line)
        if m:
            name = m.group(1)
            line = re.sub(r" pid=\d+: .*$", " pid=0: " + DATE, line)
        m = re.match(r"^(     issued rwts: total=\d+,\d+,\d+,)\d+( .*)$", line)
        if m:
            line = "%s%d%s" % (m.group(1), sync_n[name], m.group(2))
        out.append(line)
    while out and out[-1] == "":
        out.pop()
    return out


def compare_json(fio, ours, path=""):
    """Every field of fio's in ours, same value; nothing extra."""
    errors = []
    skip = {"/fio version", "/timestamp", "/timestamp_ms", "/time",
            "/disk_util"}
    if isinstance(fio, dict):
        if not isinstance(ours, dict):
            return ["%s: object expected" % path]
        for k, v in fio.items():
            p = path + "/" + k
            if p in skip or re.match(r"^/jobs/\d+/(eta|elapsed)$", p):
                continue
            if re.match(r"^/jobs/\d+/sync/total_ios$", p):
                continue
            if k not in ours:
                errors.append("%s: missing" % p)
                continue
            errors += compare_json(v, ours[k], p)
        for k, v in ours.items():
            p = path + "/" + k
            if k in fio:
                continue
            if re.search(r"options$", path) and v == "":
                continue
            errors.append("%s: not in fio's output" % p)
        return errors
    if isinstance(fio, list):
        if not isinstance(ours, list) or len(ours) != len(fio):
            return ["%s: list of %d expected" % (path, len(fio))]
        for i, (a, b) in enumerate(zip(fio, ours)):
            errors += compare_json(a, b, "%s/%d" % (path, i))
        return errors
    if isinstance(fio, float) or isinstance(ours, float):
        if abs(fio - ours) > 1e-6 * max(1.0, abs(fio)):
            errors.append("%s: %r, fio %r" % (path, ours, fio))
        return errors
    if fio != ours:
        errors.append("%s: %r, fio %r" % (path, ours, fio))
    return errors


cases = sorted(f[:-5] for f in os.listdir(golden) if f.endswith(".args"))
for case in cases:
    with open(os.path.join(golden, case + ".args")) as f:
        args = [a for a in f.read().split("\n") if a]
    with open(os.path.join(golden, case + ".out")) as f:
        obj, normal = split_output(f.read())
    with tempfile.NamedTemporaryFile("w", suffix=".results",
                                     delete=False) as f:
        f.write(results_file(obj, normal))
        results = f.name
    try:
        text = subprocess.run(
            [tool, "print", results] + args + ["--output-format=normal"],
            cwd=root, capture_output=True, text=True)
        ours = text.stdout.rstrip("\n").split("\n")
        want = normalise_fio(normal, obj)
        diff = ""
        for i in range(max(len(ours), len(want))):
            a = ours[i] if i < len(ours) else "<none>"
            b = want[i] if i < len(want) else "<none>"
            if a != b:
                diff += "line %d\n  wpsim: %s\n  fio:   %s\n" % (i + 1, a, b)
        report(text.returncode == 0 and not diff,
               "case %s: normal text equals fio 3.33's" % case,
               diff + text.stderr)

        js = subprocess.run(
            [tool, "print", results] + args + ["--output-format=json+"],
            cwd=root, capture_output=True, text=True)
        try:
            errors = compare_json(obj, json.loads(js.stdout))
        except json.JSONDecodeError as e:
            errors = ["invalid JSON: %s" % e]
        report(js.returncode == 0 and not errors,
               "case %s: JSON+ has fio 3.33's fields and values" % case,
               "\n".join(errors[:40]) + js.stderr)
    finally:
        os.unlink(results)

print("1..%d" % n)
sys.exit(1 if failed else 0)
