#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/calibrate/test-calibrate.sh WPSIM SOURCE-ROOT - issue 32's tools
# without the real kernel (TAP; the real runs are make calibrate and make
# validate, never CI): every job file of the validation grid parses in
# `wpsim fio` with its row's variables and the grid's rows are well
# formed; calibrate.py regenerates the committed calibrated profiles
# byte for byte from the kept raw measurements (they are its output, not
# hand-edited), they load in the model, and it refuses to read the
# validation grid; no profile comment names a validation row or file;
# validate.py's report on a kept result file prints the table and the
# summary it must.
wpsim=$1
root=$2
cd "$root" || exit 2
. tests/lib/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_diag="$tmp/out"
grid=experiments/validation/grid.txt
name=virtio-vm-cal
# A committed profile made from a raw file whose QD1 samples span more
# than MODE_RATIO says so ("# Accepted (--accept-mode-change)": session
# 18, h18-dio); the regenerations from that raw file take the flag too.
acc=
grep -q '^# Accepted (--accept-mode-change)' "profiles/calibrated/$name.dev" &&
	acc=--accept-mode-change

# with_supplement MAIN SUP DIR: the profiles from raw file MAIN and the
# supplement SUP, written to DIR (calibrate.py's output added to $tmp/out).
with_supplement() {
	mkdir -p "$3"
	python3 tools/calibrate/calibrate.py $acc --from-raw "$1" --supplement "$2" \
		--name "$name" --profiles "$3" >>"$tmp/out" 2>&1
}

# Each row's job file parses with the row's variables (the model's
# RUNTIME where the row has one).
grep -v '^#' "$grid" | grep . | while IFS='|' read -r row kind job env fs wargs; do
	row=$(echo $row) job=$(echo $job)
	# shellcheck disable=SC2086 # env is words
	if [ "$kind" != "${kind#*dontcache}" ]; then
		env REC=6000 SKIP=6000 SYNC=none SIZE=12000 IOSIZE=6000 \
			THREADS=2 "$wpsim" fio --parse-only \
			"experiments/validation/$job" >"$tmp/out" 2>&1
	else
		env $env "$wpsim" fio --parse-only \
			"experiments/validation/$job" >"$tmp/out" 2>&1
	fi && echo "ok - $row: $job parses" || echo "not ok - $row: $job: $(tail -1 "$tmp/out")"
done >"$tmp/rows"
bad=$(grep -c '^not ok' "$tmp/rows")
rows=$(grep -c . "$tmp/rows")
if [ "$bad" -eq 0 ] && [ "$rows" -ge 30 ]; then
	ok "every validation row's job file parses in wpsim fio ($rows rows)"
else
	cp "$tmp/rows" "$tmp/out"
	not_ok "validation job files: $bad of $rows do not parse"
fi

# The raw file the committed profiles came from, and the regeneration.
cal=profiles/calibrated
raw=$(sed -n 's/^# Measurements: //p' "$cal/$name.cpu")
sup=$(sed -n 's/^# Supplement: //p' "$cal/$name.cpu")
# Benchmarks left out of the fits (--without: the calibration-set check's
# choice, session 21).
wo=$(sed -n 's/^# Without: \([^ ]*\) (.*/\1/p' "$cal/$name.cpu" | tr -d ' ')
# Wake-up preemption on (--wake-preempt: session 24, h24-preempt).
wp=
grep -q '^wake_preempt_ns = ' "$cal/$name.cpu" && wp=--wake-preempt
# Its preempt=none mode (--wake-preempt=none: session 25, h25-preempt).
grep -q '^wake_preempt_mode = 1' "$cal/$name.cpu" && wp=--wake-preempt=none
mkdir -p "$tmp/p"
if [ -n "$raw" ] && python3 tools/calibrate/calibrate.py $acc --from-raw "$raw" \
	${sup:+--supplement "$sup"} ${wo:+--without "$wo"} $wp \
	--name "$name" --profiles "$tmp/p" >"$tmp/out" 2>&1 &&
   cmp -s "$tmp/p/$name.cpu" "$cal/$name.cpu" &&
   cmp -s "$tmp/p/$name.dev" "$cal/$name.dev"; then
	ok "calibrate.py regenerates $cal/$name.* from $raw${sup:+ and $sup}${wo:+ without $wo}${wp:+ with $wp}"
else
	diff "$tmp/p/$name.cpu" "$cal/$name.cpu" >>"$tmp/out" 2>&1
	diff "$tmp/p/$name.dev" "$cal/$name.dev" >>"$tmp/out" 2>&1
	not_ok "calibrate.py --from-raw does not give the committed profiles"
fi

if "$wpsim" fio --device="$cal/$name.dev" --cpu-profile="$cal/$name.cpu" \
	--name=w \
	--rw=randwrite --bs=4k --size=64k --io_size=256k --fsync=16 \
	>"$tmp/out" 2>&1; then
	ok "the calibrated profiles load and run (--device and --cpu-profile by path)"
else
	not_ok "the calibrated profiles do not run"
fi

if python3 tools/calibrate/calibrate.py $acc --from-raw "$grid" --name x \
	--profiles "$tmp/p" >"$tmp/out" 2>&1; then
	not_ok "calibrate.py read the validation grid"
elif grep -q "refusing to read the validation grid" "$tmp/out"; then
	ok "calibrate.py refuses to read experiments/validation/"
else
	not_ok "calibrate.py failed without the refusal"
fi

# A raw file with the bare flush (dev.flush-empty, 2026-12-05 session 6):
# flush_ns is the bare flush less the command's costs and half its own
# spread (flush_jitter_ns = the medians' p90 - p10: 210000 - 95000; since
# session 14, h14-sync) and program_ns is derived, not carried.  The runs added here are a test of the arithmetic
# only (made-up figures, never a profile's).
if python3 - "$raw" "$tmp/raw-empty.json" >"$tmp/out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["raw"]["dev.flush-empty"] = {"what": "test", "runs": [
    {"p10": 90000, "p50": 100000, "p90": 200000, "loadavg": 0},
    {"p10": 95000, "p50": 110000, "p90": 210000, "loadavg": 0},
    {"p10": 99000, "p50": 120000, "p90": 220000, "loadavg": 0}]}
json.dump(d, open(sys.argv[2], "w"))
PY
then
	mkdir -p "$tmp/pe"
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/raw-empty.json" \
		${wo:+--without "$wo"} \
		--name "$name" --profiles "$tmp/pe" >"$tmp/out" 2>&1
fi
fw=$(sed -n 's/^fw_ns = \([0-9]*\).*/\1/p' "$tmp/pe/$name.dev" 2>/dev/null)
if [ -n "$fw" ] &&
   grep -q "^flush_ns = $((110000 - 6000 - fw - 115000 / 2))	# \[derived\] dev.flush-empty p50" "$tmp/pe/$name.dev" &&
   grep -q "^flush_jitter_ns = 115000	# \[derived\] dev.flush-empty p90 - p10" "$tmp/pe/$name.dev" &&
   grep -q '^program_ns = [0-9]*	# \[derived\] dev.flush sync p50' "$tmp/pe/$name.dev" &&
   "$wpsim" fio --device="$tmp/pe/$name.dev" --cpu-profile="$tmp/pe/$name.cpu" \
	--name=w --rw=randwrite --bs=4k --size=64k --io_size=64k \
	--fdatasync=4 >>"$tmp/out" 2>&1; then
	ok "with dev.flush-empty, flush_ns is the bare flush less half its spread, flush_jitter_ns the spread, program_ns derived"
else
	cat "$tmp/pe/$name.dev" >>"$tmp/out" 2>/dev/null
	not_ok "dev.flush-empty's derivation"
fi

# A supplement (a later --only run) with the commit flush and the 64 KiB
# fresh writes: flush_commit_ns is dev.flush-commit's p10 less dev.flush's
# of the same run, copy_fresh_ns_per_4k the 64 KiB write's p50 less the
# 4 KiB one's over 15, both from the supplement, not the main file (made-up
# figures, a test of the arithmetic only, never a profile's).
# The committed raw file may have the two newer benchmarks itself (a run
# made after they existed): the test leaves them out of a copy of it, as
# session 10's quiet run lacked them, so that the supplement gives them.
if python3 - "$tmp/sup.json" "$raw" "$tmp/main.json" >"$tmp/out" 2>&1 <<'PY'
import json, sys
main = json.load(open(sys.argv[2]))
for k in ("dev.flush-commit", "fs.buffered-alloc-64k"):
    main["raw"].pop(k, None)
json.dump(main, open(sys.argv[3], "w"))
def runs(key, vals):
    return [{key: v, "loadavg": 0} for v in vals]
fc = [{"sync_p50": v, "sync_p10": v - 100000, "loadavg": 0}
      for v in (400000, 410000, 420000)]
fl = [{"sync_p50": v, "sync_p10": v - 1000, "loadavg": 0}
      for v in (200000, 190000, 210000)]
json.dump({"meta": {"date": "test", "load": "0"}, "raw": {
    "dev.flush-commit": {"what": "test", "runs": fc},
    "dev.flush": {"what": "test", "runs": fl},
    "fs.buffered-alloc-64k": {"what": "test",
                              "runs": runs("clat_p50", (9000, 9500, 9100))},
    "fs.buffered-alloc": {"what": "test",
                          "runs": runs("clat_p50", (3000, 3100, 2900))}}},
    open(sys.argv[1], "w"))
PY
then
	mkdir -p "$tmp/ps"
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/main.json" \
		--supplement "$tmp/sup.json" --name "$name" \
		--profiles "$tmp/ps" >"$tmp/out" 2>&1
fi
if grep -q "^flush_commit_ns = $((310000 - 199000))	# \[derived\] dev.flush-commit p10" "$tmp/ps/$name.dev" 2>/dev/null &&
   grep -q "^copy_fresh_ns_per_4k = 407	# \[derived\] (9100 - 3000) / 15" "$tmp/ps/$name.cpu" &&
   grep -q "^# Supplement: " "$tmp/ps/$name.cpu" &&
   "$wpsim" fio --device="$tmp/ps/$name.dev" --cpu-profile="$tmp/ps/$name.cpu" \
	--name=w --rw=write --bs=64k --size=1m --fdatasync=4 >>"$tmp/out" 2>&1; then
	ok "a supplement gives flush_commit_ns and copy_fresh_ns_per_4k, each from one run"
else
	cat "$tmp/ps/$name.dev" "$tmp/ps/$name.cpu" >>"$tmp/out" 2>/dev/null
	not_ok "the supplement's derivations"
fi

# The CPU profile's estimator (session 18): a raw file whose buffered and
# io_uring benchmarks hold each run's mean gives figures from means, and
# fio_io_ns from fs.buffered-overwrite-cached's 1 / IOPS less its lat mean
# (made-up figures: every mean 1.5 x its p50; the cached overwrite's runs
# at 500 000 IOPS with lat means 1 600 / 1 500 / 1 400 ns, so fio's work
# 400 / 500 / 600 ns, median 500); one run without its mean gives p50s.
if python3 - "$raw" "$tmp/mean.json" "$tmp/half.json" "$tmp/p50.json" >"$tmp/out" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for b, k in (("fs.buffered-overwrite", "clat"),
             ("fs.buffered-overwrite-cached", "clat"),
             ("fs.buffered-alloc", "clat"), ("fs.buffered-alloc-64k", "clat"),
             ("uring.inline", "slat_clat"), ("uring.punt", "slat_clat")):
    for r in doc["raw"][b]["runs"]:
        r[k + "_mean"] = 1.5 * r[k + "_p50"]
for r, lat in zip(doc["raw"]["fs.buffered-overwrite-cached"]["runs"],
                  (1600, 1500, 1400)):
    r["iops"], r["lat_mean"] = 500000, lat
json.dump(doc, open(sys.argv[2], "w"))
del doc["raw"]["uring.punt"]["runs"][0]["slat_clat_mean"]
json.dump(doc, open(sys.argv[3], "w"))
# The p50 baseline: the same raw file with every mean taken out (the
# committed raw file may hold them, since session 18).
for b in doc["raw"]:
    for r in doc["raw"][b].get("runs", []):
        if isinstance(r, dict) and (b.startswith("fs.buffered") or
                                    b.startswith("uring.")):
            for k in ("clat_mean", "slat_clat_mean", "lat_mean", "iops"):
                r.pop(k, None)
json.dump(doc, open(sys.argv[4], "w"))
PY
then
	mkdir -p "$tmp/pm" "$tmp/ph" "$tmp/p0"
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/mean.json" \
		--name "$name" --profiles "$tmp/pm" >>"$tmp/out" 2>&1
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/half.json" \
		--name "$name" --profiles "$tmp/ph" >>"$tmp/out" 2>&1
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/p50.json" \
		--name "$name" --profiles "$tmp/p0" >>"$tmp/out" 2>&1
fi
fig() {	# a figure's value in a profile
	sed -n "s/^$1 = \([0-9]*\).*/\1/p" "$2"
}
w0=$(fig write_call_ns "$tmp/p0/$name.cpu") wm=$(fig write_call_ns "$tmp/pm/$name.cpu")
if grep -q "^# Estimator: each run's mean latency" "$tmp/pm/$name.cpu" 2>/dev/null &&
   grep -q "^fio_io_ns = 500	# \[derived\]" "$tmp/pm/$name.cpu" &&
   grep -q "^# Estimator: each run's p50 latency" "$tmp/ph/$name.cpu" &&
   grep -q "^fio_io_ns = 500	" "$tmp/ph/$name.cpu" &&
   ! grep -q "^fio_io_ns" "$tmp/p0/$name.cpu" &&
   [ -n "$w0" ] && [ -n "$wm" ] && [ "$wm" -gt "$w0" ] &&
   [ "$(fig write_call_ns "$tmp/ph/$name.cpu")" = "$w0" ]; then
	ok "means in every run give the CPU figures from means (write_call_ns $w0 -> $wm) and fio_io_ns; one run without its mean gives p50s"
else
	cat "$tmp/pm/$name.cpu" >>"$tmp/out" 2>/dev/null
	not_ok "the CPU profile's estimator"
fi

# The unwritten conversion (session 15, h15-dev): unwritten_convert_ns is
# fs.unwritten-dio's p10 less dio.qd1-write's of the same run (here a
# supplement holding both; made-up figures, a test of the arithmetic
# only); a supplement with fs.unwritten-dio but not dio.qd1-write gives
# no figure (a difference takes both sides from one run), and a
# difference below 1 ns none either (default.cpu's stands).
# The main file is a copy of the committed one without fs.unwritten-dio
# (a run made after it existed has it), as session 15's quiet run lacked it.
for case in pair lone noise; do
	python3 - "$tmp/uw-$case.json" "$case" "$raw" "$tmp/uw-main.json" \
		>"$tmp/out" 2>&1 <<'PY'
import json, sys
case = sys.argv[2]
main = json.load(open(sys.argv[3]))
main["raw"].pop("fs.unwritten-dio", None)
main["raw"].pop("fs.unwritten-dio-seq", None)	# its own test: below
json.dump(main, open(sys.argv[4], "w"))
uw = [{"p10": v, "p50": v + 20000, "p90": v + 50000, "loadavg": 0}
      for v in (80000, 84000, 81000)]
dw = [{"p10": v, "p50": v + 24000, "p90": v + 50000, "loadavg": 0}
      for v in ((61000, 60000, 59000) if case != "noise" else
                (90000, 91000, 89000))]
raw = {"fs.unwritten-dio": {"what": "test", "runs": uw}}
if case != "lone":
    raw["dio.qd1-write"] = {"what": "test", "runs": dw}
json.dump({"meta": {"date": "test", "load": "0"}, "raw": raw},
          open(sys.argv[1], "w"))
PY
	with_supplement "$tmp/uw-main.json" "$tmp/uw-$case.json" "$tmp/uw-$case"
done
if grep -q "^unwritten_convert_ns = 21000	# \[derived\] fs.unwritten-dio p10 81000 - dio.qd1-write p10 60000" "$tmp/uw-pair/$name.cpu" 2>/dev/null &&
   ! grep -q "^unwritten_convert_ns\|^# fs.unwritten-dio" "$tmp/uw-lone/$name.cpu" &&
   grep -q "^# unwritten_convert_ns: not set, the difference is -9000 ns" "$tmp/uw-noise/$name.cpu" &&
   ! grep -q "^unwritten_convert_ns" "$tmp/uw-noise/$name.cpu" &&
   "$wpsim" fio --device="$tmp/uw-pair/$name.dev" \
	--cpu-profile="$tmp/uw-pair/$name.cpu" --name=w --rw=randwrite \
	--bs=4k --direct=1 --size=1m --io_size=64k >>"$tmp/out" 2>&1; then
	ok "fs.unwritten-dio gives unwritten_convert_ns against dio.qd1-write of one run, else nothing"
else
	cat "$tmp/uw-pair/$name.cpu" "$tmp/uw-noise/$name.cpu" >>"$tmp/out" 2>/dev/null
	not_ok "unwritten_convert_ns's derivation"
fi

# The conversion of a file written in order (session 17, h17-dc):
# unwritten_extend_ns is fs.unwritten-dio-seq's p10 less its own written
# file's p10 (made-up figures, a test of the arithmetic only); a
# difference below 1 ns sets nothing (default.cpu's stands), and the
# model runs a sequential O_DIRECT job into an unwritten file with it.
# The main file is a copy of the committed one without the benchmark (a
# run made after it existed has it).
python3 - "$raw" "$tmp/us-main.json" >"$tmp/out" 2>&1 <<'PY'
import json, sys
main = json.load(open(sys.argv[1]))
main["raw"].pop("fs.unwritten-dio-seq", None)
json.dump(main, open(sys.argv[2], "w"))
PY
for case in pair noise; do
	python3 - "$tmp/us-$case.json" "$case" >"$tmp/out" 2>&1 <<'PY'
import json, sys
case = sys.argv[2]
ref = (60000, 61000, 59000) if case == "pair" else (70000, 71000, 69000)
runs = [{"p10": u, "p50": u + 9000, "ref_p10": r, "ref_p50": r + 9000,
         "loadavg": 0} for u, r in zip((64000, 65000, 63000), ref)]
json.dump({"meta": {"date": "test", "load": "0"},
           "raw": {"fs.unwritten-dio-seq": {"what": "test", "runs": runs}}},
          open(sys.argv[1], "w"))
PY
	with_supplement "$tmp/us-main.json" "$tmp/us-$case.json" "$tmp/us-$case"
done
if grep -q "^unwritten_extend_ns = 4000	# \[derived\] fs.unwritten-dio-seq p10 64000 - its written file's p10 60000" "$tmp/us-pair/$name.cpu" 2>/dev/null &&
   grep -q "^# unwritten_extend_ns: not set, the difference is -6000 ns" "$tmp/us-noise/$name.cpu" &&
   ! grep -q "^unwritten_extend_ns" "$tmp/us-noise/$name.cpu" &&
   "$wpsim" fio --device="$tmp/us-pair/$name.dev" \
	--cpu-profile="$tmp/us-pair/$name.cpu" --name=w --rw=write \
	--bs=4k --direct=1 --size=1m --io_size=64k >>"$tmp/out" 2>&1; then
	ok "fs.unwritten-dio-seq gives unwritten_extend_ns against its own written file, else nothing"
else
	cat "$tmp/us-pair/$name.cpu" "$tmp/us-noise/$name.cpu" >>"$tmp/out" 2>/dev/null
	not_ok "unwritten_extend_ns's derivation"
fi

# The conversion's CPU (session 21, h21-irq): runs that also hold the
# writer's CPU per write on both sides (cpu_ns, ref_cpu_ns) set
# unwritten_extend_ns to the median of their differences in place of the
# p10 difference (made-up figures: the arithmetic only); a CPU difference
# below 1 ns sets nothing.
for case in cpu cpunoise; do
	python3 - "$tmp/us-$case.json" "$case" >"$tmp/out" 2>&1 <<'PY'
import json, sys
case = sys.argv[2]
ref = (9000, 9500, 8000) if case == "cpu" else (13000, 12500, 14000)
runs = [{"p10": 64000, "p50": 73000, "ref_p10": 60000, "ref_p50": 69000,
         "cpu_ns": c, "ref_cpu_ns": r, "loadavg": 0}
        for c, r in zip((12000, 12500, 12600), ref)]
json.dump({"meta": {"date": "test", "load": "0"},
           "raw": {"fs.unwritten-dio-seq": {"what": "test", "runs": runs}}},
          open(sys.argv[1], "w"))
PY
	with_supplement "$tmp/us-main.json" "$tmp/us-$case.json" "$tmp/us-$case"
done
if grep -q "^unwritten_extend_ns = 3000	# \[derived\] fs.unwritten-dio-seq: median of the runs' CPU per write less its written file's" "$tmp/us-cpu/$name.cpu" 2>/dev/null &&
   grep -q "^# fs.unwritten-dio-seq: the writer's CPU per write 12000 / 12500 / 12600 ns; over a written file 9000 / 9500 / 8000 ns .*the p10 latency difference 4000 ns" "$tmp/us-cpu/$name.cpu" &&
   grep -q "^# unwritten_extend_ns: not set, the CPU difference is -1000 ns" "$tmp/us-cpunoise/$name.cpu" &&
   ! grep -q "^unwritten_extend_ns" "$tmp/us-cpunoise/$name.cpu"; then
	ok "fs.unwritten-dio-seq's CPU per write, when measured, gives unwritten_extend_ns in place of the latency difference"
else
	cat "$tmp/us-cpu/$name.cpu" "$tmp/us-cpunoise/$name.cpu" >>"$tmp/out" 2>/dev/null
	not_ok "unwritten_extend_ns from the CPU per write"
fi

# ext4's unwritten write (session 24, h24-ext4): fs.unwritten-dio-ext4's
# runs hold the writer's CPU per write over the fallocated file and over a
# written one; ext4_map_handle_ns is the median of their differences
# halved (two journal handles a write: the split at submission, the
# conversion at completion).  Made-up figures, the arithmetic only; a
# difference below 2 ns sets nothing, a run without the CPU figures
# nothing at all; the model runs the benchmark's ext4 job (the calibration
# set's row) with the figure.
python3 - "$raw" "$tmp/ue-main.json" >"$tmp/out" 2>&1 <<'PY'
import json, sys
main = json.load(open(sys.argv[1]))
main["raw"].pop("fs.unwritten-dio-ext4", None)
json.dump(main, open(sys.argv[2], "w"))
PY
for case in pair noise nocpu; do
	python3 - "$tmp/ue-$case.json" "$case" >"$tmp/out" 2>&1 <<'PY'
import json, sys
case = sys.argv[2]
ref = (9000, 9500, 8000) if case != "noise" else (13000, 12500, 14000)
runs = [{"p10": 70000, "p50": 90000, "ref_p10": 60000, "ref_p50": 80000,
         "cpu_ns": c, "ref_cpu_ns": r, "loadavg": 0}
        for c, r in zip((13000, 13500, 12600), ref)]
if case == "nocpu":
    for r in runs:
        del r["cpu_ns"], r["ref_cpu_ns"]
json.dump({"meta": {"date": "test", "load": "0"},
           "raw": {"fs.unwritten-dio-ext4": {"what": "test", "runs": runs}}},
          open(sys.argv[1], "w"))
PY
	with_supplement "$tmp/ue-main.json" "$tmp/ue-$case.json" "$tmp/ue-$case"
done
if grep -q "^ext4_map_handle_ns = 2000	# \[derived\] fs.unwritten-dio-ext4: median of the runs' CPU per write less its written file's (4000), over the write's two journal handles" "$tmp/ue-pair/$name.cpu" 2>/dev/null &&
   grep -q "^# fs.unwritten-dio-ext4: the writer's CPU per write 13000 / 13500 / 12600 ns; over a written file 9000 / 9500 / 8000 ns .*the p10 latency difference 10000 ns" "$tmp/ue-pair/$name.cpu" &&
   grep -q "^# ext4_map_handle_ns: not set, the CPU difference is 0 ns" "$tmp/ue-noise/$name.cpu" &&
   ! grep -q "^ext4_map_handle_ns" "$tmp/ue-noise/$name.cpu" &&
   ! grep -q "ext4_map_handle_ns\|^# fs.unwritten-dio-ext4:" "$tmp/ue-nocpu/$name.cpu" &&
   "$wpsim" fio --fs=ext4 --device="$tmp/ue-pair/$name.dev" \
	--cpu-profile="$tmp/ue-pair/$name.cpu" --name=ue --rw=randwrite \
	--bs=4k --direct=1 --ioengine=psync --size=1g --io_size=64k \
	>>"$tmp/out" 2>&1; then
	ok "fs.unwritten-dio-ext4's CPU per write gives ext4_map_handle_ns (halved: two handles a write), else nothing"
else
	cat "$tmp/ue-pair/$name.cpu" "$tmp/ue-noise/$name.cpu" >>"$tmp/out" 2>/dev/null
	not_ok "ext4_map_handle_ns's derivation"
fi

# The interrupt's CPU (session 21, h21-irq): read_irq finds the disk's
# request vectors in /proc/interrupts (virtio-blk's virtioK-req.Q,
# NVMe's I/O queues, not the config or admin vectors) and their
# effective affinity; a raw file holding them gives irq_cpu when every
# vector is routed to one CPU, a comment otherwise, and the profile
# loads in the model.
mkdir -p "$tmp/irq/36" "$tmp/irq/37" "$tmp/irq/35"
echo 1 >"$tmp/irq/36/effective_affinity_list"
echo 0 >"$tmp/irq/37/effective_affinity_list"
echo 0 >"$tmp/irq/35/effective_affinity_list"
printf '%s\n' '           CPU0       CPU1' \
	' 35:          0          1 PCI-MSIX-0000:00:02.0   0-edge      virtio1-config' \
	' 36:          0   32539970 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0' \
	' 37:        100          0 PCI-MSIX-0000:00:03.0   1-edge      virtio2-req.0' \
	'NMI:          0          0   Non-maskable interrupts' >"$tmp/interrupts"
if python3 - "$tmp" >"$tmp/irq.out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as C
t = sys.argv[1]
real = C.os.path.realpath
C.os.path.realpath = lambda p: "/sys/devices/pci0000:00/0000:00:02.0/virtio1" if p.endswith("/device") else real(p)
v = C.read_irq("vda", t + "/interrupts", t + "/irq")
assert v == "36:virtio1-req.0:1", v
assert C.irq_cpu_line(v, "vda").startswith("irq_cpu = 1\t# [sysfs] ")
assert C.irq_cpu_line("36:a-req.0:1;38:a-req.1:0", "vda").startswith(
    "# irq_cpu: not set: the request vectors of vda are routed to more than one CPU")
assert C.irq_cpu_line("36:a-req.0:0-1", "vda").startswith("# irq_cpu: not set")
assert C.irq_cpu_line(None, "vda").startswith("# irq_cpu: not set: the raw file has no")
print("read_irq ok")
PY
   python3 - "$raw" "$tmp/irq-raw.json" >>"$tmp/out" 2>&1 <<'PY' &&
import json, sys
d = json.load(open(sys.argv[1]))
d["meta"]["sysfs"]["irq/disk"] = "vda"
d["meta"]["sysfs"]["irq/vectors"] = "36:virtio1-req.0:1"
json.dump(d, open(sys.argv[2], "w"))
PY
   mkdir -p "$tmp/pirq" &&
   python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/irq-raw.json" \
	--name "$name" --profiles "$tmp/pirq" >>"$tmp/out" 2>&1 &&
   grep -q "^irq_cpu = 1	# \[sysfs\] /proc/irq/N/effective_affinity_list of vda's request vector(s) 36:virtio1-req.0:1" "$tmp/pirq/$name.dev" &&
   grep -q "^irq_cpu = [0-9]*	# \[sysfs\] \|^# irq_cpu: not set: " "profiles/calibrated/$name.dev" &&
   "$wpsim" fio --device="$tmp/pirq/$name.dev" --cpu-profile="$tmp/pirq/$name.cpu" \
	--cpus=2 --name=w --rw=randwrite --bs=4k --size=64k --io_size=256k \
	--fsync=16 >>"$tmp/out" 2>&1; then
	ok "the disk's interrupt vectors give irq_cpu when they are routed to one CPU, and the profile runs"
else
	cat "$tmp/irq.out" >>"$tmp/out"
	not_ok "irq_cpu from the interrupt vectors"
fi

# dev.seq-small-write (session 16, h16-dev) is a check: a supplement
# holding it (its kept run, 19:49 UTC, loaded) adds one comment line to
# the device profile and sets no figure (every other line is the main
# file's), and `--check` runs its four jobs in the model.
# The tests of the newer benchmarks below take a copy of the committed raw
# file without them (a run made after they existed has them), as the
# supplement tests above do, and its profiles in $tmp/pb.
python3 - "$raw" "$tmp/raw-base.json" >/dev/null 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("dev.seq-small-write", "dev.writeback", "mem.cold-copy",
          "fs.writeback-alloc", "dev.qd-sweep-randrw", "loop.worker-cpu",
          "dev.writeback-unwritten"):
    d["raw"].pop(k, None)
json.dump(d, open(sys.argv[2], "w"))
PY
mkdir -p "$tmp/pb"
python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/raw-base.json" \
	--name "$name" --profiles "$tmp/pb" >/dev/null 2>&1
# sup_diff SUPPLEMENT DIR EXT: the profiles of raw-base with SUPPLEMENT in
# $tmp/DIR, and the lines of its EXT profile that differ from $tmp/pb's,
# less the supplement's own header lines, in $tmp/DIR.diff.
sup_diff() {
	mkdir -p "$tmp/$2" &&
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/raw-base.json" \
		--supplement "$1" --name "$name" --profiles "$tmp/$2" \
		>>"$tmp/out" 2>&1 &&
	diff "$tmp/pb/$name.$3" "$tmp/$2/$name.$3" | grep '^[<>]' |
		grep -v '^> # Supplement: \|^> # (a later run of ' >"$tmp/$2.diff"
}
seqsup=traces/real-kernel/calibrate-supplement-6.18.44-fc-v1300-2026-12-06T1949-h16dev.json
: >"$tmp/out"
if sup_diff "$seqsup" ss dev &&
   [ "$(wc -l <"$tmp/ss.diff")" -eq 1 ] &&
   grep -q '^> # dev.seq-small-write (a check) 8 KiB IOPS at QD 8/32, sequential: 14328 / 16964; random: 6738 / 20245\.$' "$tmp/ss.diff" &&
   python3 tools/calibrate/calibrate.py $acc --from-raw "$seqsup" \
	--check "$name" --wpsim "$wpsim" >"$tmp/sscheck" 2>&1 &&
   [ "$(grep -c '^dev.seq-small-write iops_\(seq\|rand\)_qd\(8\|32\) .*%$' "$tmp/sscheck")" -eq 4 ]; then
	ok "dev.seq-small-write adds a comment and no figure; --check runs its jobs in the model"
else
	cat "$tmp/ss.diff" "$tmp/sscheck" >>"$tmp/out" 2>/dev/null
	not_ok "dev.seq-small-write as a check"
fi

# mem.cold-copy (session 17, h17-buf) is a check: a supplement holding it
# (its kept run, 22:38 UTC, loaded) adds one comment line to the CPU
# profile, every run's figure in it, and sets no figure; the device
# profile gains the supplement's header lines only.
coldsup=traces/real-kernel/calibrate-supplement-6.18.44-fc-v1300-2026-12-06T2238-h17buf.json
: >"$tmp/out"
if sup_diff "$coldsup" cold cpu &&
   [ "$(wc -l <"$tmp/cold.diff")" -eq 1 ] &&
   grep -q '^> # mem.cold-copy (a check) ns per 4 KiB .* p50 (each run): file 1 348 / 342 / 221; file 2 11811 / 340 / 227; file 3 30837 / 348 / 222; p90: ' "$tmp/cold.diff" &&
   [ "$(diff "$tmp/pb/$name.dev" "$tmp/cold/$name.dev" | grep '^[<>]' |
	grep -vc '^> # Supplement: \|^> # (a later run of ')" -eq 0 ]; then
	ok "mem.cold-copy adds a comment with every run and no figure"
else
	cat "$tmp/cold.diff" >>"$tmp/out" 2>/dev/null
	not_ok "mem.cold-copy as a check"
fi

# dev.writeback-unwritten (session 22, h22-host) is a check: its kept
# run (loaded), taken without dev.writeback, as a supplement to the
# committed raw file adds one comment line to the device profile (every
# run of it and the main file's dev.writeback runs) and sets no figure;
# the CPU profile gains the supplement's header lines only.
wusup=traces/real-kernel/calibrate-supplement-6.18.44-fc-v1300-2026-12-07T1330-h22host.json
# Since session 22's 14:18 sitting the committed raw has the bench too:
# it is taken out of a copy of the raw, and the expected line is made
# from the two files (each run's bytes/s as calibrate.py prints them).
python3 - "$wusup" "$tmp/wu-sup.json" "$raw" "$tmp/wu-raw.json" "$tmp/wu-exp" >/dev/null 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["raw"] = {k: v for k, v in d["raw"].items() if k == "dev.writeback-unwritten"}
json.dump(d, open(sys.argv[2], "w"))
m = json.load(open(sys.argv[3]))
m["raw"].pop("dev.writeback-unwritten", None)
json.dump(m, open(sys.argv[4], "w"))
show = lambda runs: " / ".join("%.0f" % r["bytes_per_sec"] for r in runs)
open(sys.argv[5], "w").write(
    "> # dev.writeback-unwritten (a check) bytes/s over unwritten extents "
    "(each run): %s; dev.writeback's over written extents: %s.\n" % (
        show(d["raw"]["dev.writeback-unwritten"]["runs"]),
        show(m["raw"]["dev.writeback"]["runs"])))
PY
: >"$tmp/out"
mkdir -p "$tmp/wu0"
python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/wu-raw.json" --name "$name" \
	--profiles "$tmp/wu0" >>"$tmp/out" 2>&1
if with_supplement "$tmp/wu-raw.json" "$tmp/wu-sup.json" "$tmp/wu" &&
   diff "$tmp/wu0/$name.dev" "$tmp/wu/$name.dev" | grep '^[<>]' |
	grep -v '^> # Supplement: \|^> # (a later run of ' >"$tmp/wu.diff";
   [ "$(wc -l <"$tmp/wu.diff")" -eq 1 ] &&
   diff -q "$tmp/wu-exp" "$tmp/wu.diff" >/dev/null &&
   [ "$(diff "$tmp/wu0/$name.cpu" "$tmp/wu/$name.cpu" | grep '^[<>]' |
	grep -vc '^> # Supplement: \|^> # (a later run of ')" -eq 0 ]; then
	ok "dev.writeback-unwritten adds a comment and no figure"
else
	cat "$tmp/wu.diff" >>"$tmp/out" 2>/dev/null
	not_ok "dev.writeback-unwritten as a check"
fi

# fs.writeback-alloc (session 18, h18-dc; a figure since session 19,
# h19-prealloc): a supplement holding it (its kept run, 2026-12-07 01:33
# UTC, load 12) adds a comment line to the CPU profile, every run's
# sync_file_range p10/p50, and writeback_alloc_ns = the p10s' difference
# (9664 - 2928 = 6736); the device profile gains the supplement's header
# lines only.  With the two p10s equal (a copy of the raw with the
# written file's p10 set to the allocating one's) nothing is set: a
# comment says the difference is noise.
wasup=traces/real-kernel/calibrate-supplement-6.18.44-fc-v1300-2026-12-07T0133-h18dc.json
python3 - "$wasup" "$tmp/wa-noise.json" >/dev/null 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for run in d["raw"]["fs.writeback-alloc"]["runs"]:
    run["ref_sync_p10"] = run["sync_p10"]
json.dump(d, open(sys.argv[2], "w"))
PY
: >"$tmp/out"
if sup_diff "$wasup" wa cpu &&
   [ "$(wc -l <"$tmp/wa.diff")" -eq 2 ] &&
   grep -q '^> # fs.writeback-alloc: .* p10 9664 / 10048 / 9664, p50 9920 / 12992 / 9792 ns; over a written file p10 3184 / 2832 / 2928, p50 3280 / 2992 / 3024 ns .*\.$' "$tmp/wa.diff" &&
   grep -q "^writeback_alloc_ns = 6736	# \[derived\] fs.writeback-alloc p10 9664 - its written file's p10 2928$" "$tmp/wa/$name.cpu" &&
   [ "$(diff "$tmp/pb/$name.dev" "$tmp/wa/$name.dev" | grep '^[<>]' |
	grep -vc '^> # Supplement: \|^> # (a later run of ')" -eq 0 ] &&
   sup_diff "$tmp/wa-noise.json" wan cpu &&
   grep -q '^> # writeback_alloc_ns: not set, the difference is 0 ns (noise): default.cpu.s stands$' "$tmp/wan.diff" &&
   ! grep -q '^writeback_alloc_ns' "$tmp/wan/$name.cpu"; then
	ok "fs.writeback-alloc sets writeback_alloc_ns from the p10s' difference, nothing when it is noise"
else
	cat "$tmp/wa.diff" "$tmp/wan.diff" >>"$tmp/out" 2>/dev/null
	not_ok "fs.writeback-alloc's writeback_alloc_ns"
fi

# loop.worker-cpu (session 21, h21-loop): a supplement holding it (its
# kept run, 10:15 UTC, load 10-12) adds a comment line and sets
# loop_worker_ns and loop_seg_ns from the loop device's CPU per write less
# the root's (medians at 4 / 48 / 256 KiB: 12735 / 15473 / 25340 ns, a
# least-squares line over 0 / 11 / 63 segments beyond the first), and takes
# loop_worker_ns off cache_ack_ns, the read body and flush_ns (their QD1
# latencies hold it: not counted twice); the CPU profile is unchanged; a
# raw file without it writes neither key.
lwsup=traces/real-kernel/calibrate-supplement-6.18.44-fc-v1300-2026-12-07T1015-h21loop.json
: >"$tmp/out"
lw_fig() {	# lw_fig FILE KEY: KEY's value in profile FILE
	sed -n "s/^$2 = \([0-9]*\).*/\1/p" "$1"
}
# took_off KEY NEWDIR SUB: KEY in NEWDIR's profile is the base profile's
# ($tmp/pb, from the committed raw) less SUB (within 1 ns), or, where the
# base is SUB or less, clamped (calibrate.py keeps a body at 1 ns or 0):
# so the test does not depend on the sitting whose raw is committed.
took_off() {
	_b=$(lw_fig "$tmp/pb/$name.dev" "$1") _n=$(lw_fig "$2/$name.dev" "$1")
	[ -n "$_b" ] && [ -n "$_n" ] || return 1
	_d=$((_b - _n))
	if [ "$_b" -gt $(($3 + 1)) ]; then
		[ $((_d - $3)) -ge -1 ] && [ $((_d - $3)) -le 1 ]
	else
		[ "$_n" -le 1 ]
	fi
}
if sup_diff "$lwsup" lw dev &&
   grep -q '^> # loop.worker-cpu, CPU per write of .* 4 KiB 32107 - 19372 = 12735 .*; 48 KiB 38452 - 22980 = 15473 .*; 256 KiB 60910 - 35570 = 25340 ' "$tmp/lw.diff" &&
   [ "$(lw_fig "$tmp/lw/$name.dev" loop_worker_ns)" = 12994 ] &&
   [ "$(lw_fig "$tmp/lw/$name.dev" loop_seg_ns)" = 197 ] &&
   took_off cache_ack_ns "$tmp/lw" 12994 &&
   took_off flush_ns "$tmp/lw" 12994 &&
   took_off read_delay_ns "$tmp/lw" 12994 &&
   ! grep -q '^loop_' "$tmp/pb/$name.dev" &&
   diff "$tmp/pb/$name.cpu" "$tmp/lw/$name.cpu" | grep '^[<>]' |
	grep -vq '^> # Supplement: \|^> # (a later run of ' ;
   [ $? -eq 1 ] &&
   "$wpsim" fio --device "$tmp/lw/$name.dev" --cpu-profile "$tmp/lw/$name.cpu" \
	--parse-only --name=x --rw=write --size=1m >>"$tmp/out" 2>&1; then
	ok "loop.worker-cpu sets loop_worker_ns and loop_seg_ns and takes the worker off the QD1 bodies"
else
	cat "$tmp/lw.diff" >>"$tmp/out" 2>/dev/null
	not_ok "loop.worker-cpu's loop_worker_ns and loop_seg_ns"
fi

# loop.worker-cpu with the worker's own CPU (session 22, h22-loop): a
# supplement whose runs hold loop_worker_ns_* (the loop work function's
# CPU per request, tracefs) and the QD32 run splits the worker into a
# command's part (loop_worker_ns 2439), a run's (loop_run_ns 14041) and
# the segments' (loop_seg_ns 70); the rest of loop - root is the
# completion (loop_complete_ns 12863); the three per-request parts
# together come off cache_ack_ns and flush_ns (both on a QD1 request's
# path; the read body clamps at 1).  The session-21 supplement above,
# without these fields, still gives its figures and no loop_run_ns /
# loop_complete_ns.
lwsup2=traces/real-kernel/calibrate-supplement-6.18.44-fc-v1300-2026-12-07T1314-h22loop.json
: >"$tmp/out"
lw_sum=$((2439 + 14041 + 12863))
if sup_diff "$lwsup2" lw2 dev &&
   grep -q '^> # loop.worker-cpu, .* 4 KiB 41283 - 18536 = 22747 .*; the worker 15328, the rest 7419; .* at QD32, 4 KiB: the worker 3963 a request, 0.11 runs a request (QD1: 1.00)\.$' "$tmp/lw2.diff" &&
   [ "$(lw_fig "$tmp/lw2/$name.dev" loop_worker_ns)" = 2439 ] &&
   [ "$(lw_fig "$tmp/lw2/$name.dev" loop_run_ns)" = 14041 ] &&
   [ "$(lw_fig "$tmp/lw2/$name.dev" loop_seg_ns)" = 70 ] &&
   [ "$(lw_fig "$tmp/lw2/$name.dev" loop_complete_ns)" = 12863 ] &&
   took_off cache_ack_ns "$tmp/lw2" "$lw_sum" &&
   took_off flush_ns "$tmp/lw2" "$lw_sum" &&
   ! grep -q '^loop_run_ns\|^loop_complete_ns' "$tmp/lw/$name.dev" &&
   "$wpsim" fio --device "$tmp/lw2/$name.dev" --cpu-profile "$tmp/lw2/$name.cpu" \
	--parse-only --name=x --rw=write --size=1m >>"$tmp/out" 2>&1; then
	ok "loop.worker-cpu with the worker's own CPU splits submission, run and completion"
else
	cat "$tmp/lw2.diff" >>"$tmp/out" 2>/dev/null
	not_ok "loop.worker-cpu's split (loop_worker_ns, loop_run_ns, loop_complete_ns)"
fi

# The grid once with the split profile (docs/validation.md, session 22
# h22-loop): the command the page prints runs and gives its figures.
h22g=traces/real-kernel/validate-6.18.44-fc-v1300-2026-12-07T1134-h22loop.json
if python3 tools/calibrate/validate.py report "$h22g" >"$tmp/out" 2>&1 &&
   grep -q 'median |error| 13.9%; within +-10%: 14/34 (41%); within +-20%: 20/34 (59%)' "$tmp/out" &&
   grep -q 'DONTCACHE reads per write within +-0.05: 7/11' "$tmp/out"; then
	ok "validate.py report of the h22-loop grid"
else
	not_ok "validate.py report on $h22g"
fi

# The 14:31 sitting (docs/validation.md, session 22, the lead): the
# command the page prints, the committed profile's summary; the
# session-start model's and the full profile's kept beside it.
s22=traces/real-kernel/validate-6.18.44-fc-v1300-2026-12-07T1431
if python3 tools/calibrate/validate.py report "$s22.json" >"$tmp/out" 2>&1 &&
   grep -q 'median |error| 35.1%; within +-10%: 8/33 (24%); within +-20%: 15/33 (45%)' "$tmp/out" &&
   grep -q 'DONTCACHE reads per write within +-0.05: 6/11' "$tmp/out" &&
   python3 tools/calibrate/validate.py report "$s22-s22start.json" 2>&1 |
	grep -q 'median |error| 23.3%; within +-10%: 8/33 (24%); within +-20%: 15/33 (45%)' &&
   python3 tools/calibrate/validate.py report "$s22-fullprofile.json" 2>&1 |
	grep -q 'median |error| 26.7%; within +-10%: 8/33 (24%); within +-20%: 14/33 (42%)'; then
	ok "validate.py report of the 14:31 sitting (committed, session start, full profile)"
else
	not_ok "validate.py report on $s22.json"
fi

# The 16:40 sitting on a fresh VM (docs/validation.md, session 23, the
# lead): the command the page prints gives the committed profile's
# summary (the 16:26 raw with the 17:49 supplement); the session-start
# profile's, the full profile's and the previous VM's files beside it.
s23=traces/real-kernel/validate-6.18.44-fc-v1300-2026-12-07T1640
if python3 tools/calibrate/validate.py report "$s23.json" >"$tmp/out" 2>&1 &&
   grep -q 'median |error| 12.2%; within +-10%: 11/29 (38%); within +-20%: 21/29 (72%)' "$tmp/out" &&
   grep -q 'DONTCACHE reads per write within +-0.05: 7/11' "$tmp/out" &&
   python3 tools/calibrate/validate.py report "$s23-s23start.json" 2>&1 |
	grep -q 'median |error| 12.9%; within +-10%: 10/29 (34%); within +-20%: 19/29 (66%)' &&
   python3 tools/calibrate/validate.py report "$s23-fullprofile.json" 2>&1 |
	grep -q 'median |error| 10.1%; within +-10%: 14/29 (48%); within +-20%: 21/29 (72%)' &&
   python3 tools/calibrate/validate.py report "$s23-sitting.json" 2>&1 |
	grep -q 'median |error| 50.1%; within +-10%: 3/29 (10%); within +-20%: 7/29 (24%)'; then
	ok "validate.py report of the 16:40 sitting (committed, session start, full profile, previous VM's profile)"
else
	not_ok "validate.py report on $s23.json"
fi

# The 18:00 real side, held out in time (docs/validation.md, session 23,
# the lead): the page's report command, the committed profile's summary;
# the session start's profile beside it.
s23b=traces/real-kernel/validate-6.18.44-fc-v1300-2026-12-07T1800
if python3 tools/calibrate/validate.py report "$s23b.json" >"$tmp/out" 2>&1 &&
   grep -q 'median |error| 11.7%; within +-10%: 14/34 (41%); within +-20%: 26/34 (76%)' "$tmp/out" &&
   grep -q 'DONTCACHE reads per write within +-0.05: 7/11' "$tmp/out" &&
   python3 tools/calibrate/validate.py report "$s23b-s23start.json" 2>&1 |
	grep -q 'median |error| 12.7%; within +-10%: 13/34 (38%); within +-20%: 26/34 (76%)'; then
	ok "validate.py report of the 18:00 real side (committed, session start)"
else
	not_ok "validate.py report on $s23b.json"
fi

# The 23:43 real side with two model sides (docs/validation.md, session
# 18 h18-dc): the 23:36 profile, and the same with the 21:11 raw file's
# two device write figures (cache_ack_ns, fw_write_ns; a diagnostic, not a
# profile): its report gives the page's summary lines for both.
h18=traces/real-kernel/validate-6.18.44-fc-v1300-2026-12-06T2343-h18dc.json
if python3 tools/calibrate/validate.py report "$h18" >"$tmp/out" 2>&1 &&
   grep -q '^## profile /tmp/h18dc/p2336w2111/virtio-vm-cal$' "$tmp/out" &&
   grep -q '^#   median |error| 17.5%; within +-10%: 9/30 (30%); within +-20%: 20/30 (67%)$' "$tmp/out" &&
   grep -q '^#   median |error| 9.9%; within +-10%: 15/30 (50%); within +-20%: 25/30 (83%)$' "$tmp/out" &&
   grep -q '^dc-4t-47008 .* 355.5 *+70.7%' "$tmp/out"; then
	ok "the report of $h18 has the two profiles' summaries the page gives"
else
	not_ok "the report of $h18"
fi

# The model side of the 19:26 real side after blk-wbt's read stamps
# (docs/validation.md, session 16 h16-dev): its report shows the two
# 1-thread rows at the figures the page gives.
h16=traces/real-kernel/validate-6.18.44-fc-v1300-2026-12-06T1926-h16dev.json
if python3 tools/calibrate/validate.py report "$h16" >"$tmp/out" 2>&1 &&
   grep -q '^dc-1t-6000 .* 185\.7 *-40\.9%' "$tmp/out" &&
   grep -q '^dc-1t-47008 .* 934\.3 *-28\.4%' "$tmp/out" &&
   grep -q 'median |error| 13\.0%; within +-10%: 11/27 (41%); within +-20%: 22/27 (81%)' "$tmp/out"; then
	ok "the report of $h16 has the 1-thread DONTCACHE rows the page gives"
else
	not_ok "the report of $h16"
fi

# The link's write bandwidth (session 16, h16-sync): dev.writeback (buffered
# writeback of a dirty GiB through fadvise(DONTNEED) and fdatasync) and
# dev.seq-write (O_DIRECT 1 MiB at QD 8) both look at it; the profile takes
# the higher, naming both (made-up figures, a test of the rule only); a raw
# file without dev.writeback keeps dev.seq-write's (the committed profiles'
# regeneration above).
for case in higher lower; do
	python3 - "$tmp/wb-$case.json" "$case" >"$tmp/out" 2>&1 <<'PY'
import json, sys
v = (4.0e9, 3.5e9, 3.0e9) if sys.argv[2] == "higher" else (1.0e9, 1.1e9, 0.9e9)
raw = {"dev.writeback": {"what": "test", "runs": [
    {"bytes_per_sec": x, "fadvise_ns": 1, "loadavg": 0} for x in v]}}
json.dump({"meta": {"date": "test", "load": "0"}, "raw": raw},
          open(sys.argv[1], "w"))
PY
	with_supplement "$tmp/raw-base.json" "$tmp/wb-$case.json" "$tmp/wb-$case"
done
sw=$(python3 -c 'import json,statistics,sys; print("%.0f" % statistics.median(r["bytes_per_sec"] for r in json.load(open(sys.argv[1]))["raw"]["dev.seq-write"]["runs"]))' "$raw")
if grep -q "^link_write_bytes_per_sec = 3500000000	# \[here\] dev.writeback: 4000000000 / 3500000000 / 3000000000 (the higher look at the link; dev.seq-write: " "$tmp/wb-higher/$name.dev" 2>/dev/null &&
   grep -q "^link_write_bytes_per_sec = $sw	# \[here\] dev.seq-write: .* (the higher look at the link; dev.writeback: 1000000000 / 1100000000 / 900000000)" "$tmp/wb-lower/$name.dev" &&
   "$wpsim" fio --device="$tmp/wb-higher/$name.dev" \
	--cpu-profile="$tmp/wb-higher/$name.cpu" --name=w --rw=write \
	--bs=64k --size=1m >>"$tmp/out" 2>&1; then
	ok "link_write_bytes_per_sec is the higher of dev.writeback and dev.seq-write, naming both"
else
	cat "$tmp/wb-higher/$name.dev" "$tmp/wb-lower/$name.dev" >>"$tmp/out" 2>/dev/null
	not_ok "link_write_bytes_per_sec from dev.writeback"
fi

# Completion by pass (session 13, docs/model/nvme.md): the Intel guest's
# sweeps (10:52) rise to QD128 in both directions, so the profile has
# pass_complete and a firmware time per direction fitted to the sweep's
# points (since session 14: least squares in relative error, QD1 exact;
# since session 17 over QD 1-64, PASS_FIT_QD_MAX)
# and the body (read_ns, cache_ack_ns) from each sweep's QD1 mean less the
# jitter's mean (a pass's jitter, session 14; a read's own since h14-val2,
# read_jitter_ns from dio.qd1-read, and the read body a pure delay,
# read_delay_ns).  The AMD guest's 01:45 sweeps had no pass under the
# rule before session 17 (the reads' QD16 share 0.91 of min(16 x QD1,
# QD128)); the pass form fits them better (a mean 4.5% over QD 4-64
# against the overlapping form's 33.2%), so since session 17 they have
# pass_complete too; the overlapping form's own case is the next test.
# (The 01:45 sweeps' QD1 writes span 2.51x, 75 / 188 / 115 us: since
# session 18 that is refused as a change of the device's mode, so the
# test takes it with --accept-mode-change.)
mkdir -p "$tmp/pp" "$tmp/pa"
if python3 tools/calibrate/calibrate.py $acc --from-raw \
	traces/real-kernel/calibrate-6.18.44-fc-v1252-2026-12-06T1052.json \
	--name "$name" --profiles "$tmp/pp" >"$tmp/out" 2>&1 &&
   grep -q '^pass_complete = 1	# \[derived\]' "$tmp/pp/$name.dev" &&
   grep -q '^fw_ns = 8025	# \[derived\] dev.qd-sweep-read: s of the fit; its error at QD 1/4/16/32/64/128: +0% / +2% / +1% / -1% / -1% / -13%' "$tmp/pp/$name.dev" &&
   grep -q '^fw_write_ns = 15125	# \[derived\] dev.qd-sweep-write: s of the fit' "$tmp/pp/$name.dev" &&
   grep -q '^read_delay_ns = 30711	# \[derived\] the read body below' "$tmp/pp/$name.dev" &&
   grep -q '^# The read body: dev.qd-sweep-read 1 / 14454 IOPS - E\[read jitter\].* = 30712 ns' "$tmp/pp/$name.dev" &&
   grep -q '^read_ns = 1	# \[assumption\]' "$tmp/pp/$name.dev" &&
   grep -q '^read_jitter_ns = 23808	# \[derived\] dio.qd1-read p90 - p10' "$tmp/pp/$name.dev" &&
   grep -q '^cache_ack_ns = 62875	# \[derived\] dev.qd-sweep-write 1 / 7364 IOPS - E\[jitter\]' "$tmp/pp/$name.dev" &&
   python3 tools/calibrate/calibrate.py --accept-mode-change --from-raw \
	traces/real-kernel/calibrate-6.18.44-fc-v1294-2026-12-06T0145.json \
	--name "$name" --profiles "$tmp/pa" >>"$tmp/out" 2>&1 &&
   grep -q '^pass_complete = 1	# \[derived\]' "$tmp/pa/$name.dev" &&
   grep -q '^# The commands do not overlap their serial part: over QD 4-64 of both sweeps X(q) = q / (L + q s) is off by a mean 4.5%, the overlapping min(q X(1), plateau) by 33.2%' "$tmp/pa/$name.dev"; then
	ok "pass_complete and fw_write_ns where the pass form fits the QD sweeps better (10:52, 01:45)"
else
	cat "$tmp/pp/$name.dev" "$tmp/pa/$name.dev" >>"$tmp/out" 2>/dev/null
	not_ok "the QD sweeps' pass fit"
fi

# loop.depth-cpu's trace parser (session 23, h23-loopq): a made-up
# trace of a loop worker run on CPU 0 with a virtio interrupt inside it
# (3 us, not the work's), a kworker on CPU 1 running three direct I/O
# completion items in two wake-ups (2 + 2 + 3 us), and a BLOCK softirq
# on the idle CPU 1 (5 us): each figure comes back.
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
T = """\
 fio-5 [000] d..2. 100.000000: sched_switch: prev_comm=fio prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=kworker/u4:1 next_pid=10 next_prio=120
 kworker/u4:1-10 [000] ...1. 100.000010: workqueue_execute_start: work struct 00000000deadbeef: function loop_rootcg_workfn
 kworker/u4:1-10 [000] d.h1. 100.000020: irq_handler_entry: irq=36 name=virtio1-req.0
 kworker/u4:1-10 [000] d.h1. 100.000023: irq_handler_exit: irq=36 ret=handled
 kworker/u4:1-10 [000] ...1. 100.000040: workqueue_execute_end: work struct 00000000deadbeef: function loop_rootcg_workfn
 <idle>-0 [001] d..2. 100.000050: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker/1:1 next_pid=20 next_prio=120
 kworker/1:1-20 [001] ...1. 100.000051: workqueue_execute_start: work struct 0000000011111111: function iomap_dio_complete_work
 kworker/1:1-20 [001] ...1. 100.000053: workqueue_execute_end: work struct 0000000011111111: function iomap_dio_complete_work
 kworker/1:1-20 [001] ...1. 100.000054: workqueue_execute_start: work struct 0000000022222222: function iomap_dio_complete_work
 kworker/1:1-20 [001] ...1. 100.000056: workqueue_execute_end: work struct 0000000022222222: function iomap_dio_complete_work
 kworker/1:1-20 [001] d..2. 100.000057: sched_switch: prev_comm=kworker/1:1 prev_pid=20 prev_prio=120 prev_state=I ==> next_comm=swapper/1 next_pid=0 next_prio=120
 <idle>-0 [001] ..s1. 100.000060: softirq_entry: vec=4 [action=BLOCK]
 <idle>-0 [001] ..s1. 100.000065: softirq_exit: vec=4 [action=BLOCK]
 <idle>-0 [001] d..2. 100.000100: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker/1:1 next_pid=20 next_prio=120
 kworker/1:1-20 [001] ...1. 100.000101: workqueue_execute_start: work struct 0000000033333333: function iomap_dio_complete_work
 kworker/1:1-20 [001] ...1. 100.000104: workqueue_execute_end: work struct 0000000033333333: function iomap_dio_complete_work
"""
t = c.depth_trace_cpu(T)
lw = t["work"]["loop_rootcg_workfn"]
assert (lw["ns"], lw["n"], lw["runs"], lw["cpu"]) == (27000, 1, 1, {0: 27000}), lw
d = t["work"]["iomap_dio_complete_work"]
assert (d["ns"], d["n"], d["runs"], d["cpu"]) == (7000, 3, 2, {1: 7000}), d
assert t["hardirq"] == {"ns": 3000, "n": 1, "cpu": {0: 3000}}, t["hardirq"]
assert t["softirq"] == {"ns": 5000, "n": 1, "cpu": {1: 5000}}, t["softirq"]
# How each run began (session 24, h24-preempt): the loop worker after fio
# slept, the completion work twice from the idle task (whose prev_state
# reads R: it is told by pid 0); then the loop worker switched in over a
# runnable fio (prev_state R: preempted) for a second run.
assert (lw["runs_slept"], lw["runs_preempt"], lw["runs_idle"]) == (1, 0, 0), lw
assert (d["runs_idle"], d["runs_preempt"], d["runs_slept"]) == (2, 0, 0), d
T2 = T + """\
 kworker/u4:1-10 [000] d..2. 100.000200: sched_switch: prev_comm=kworker/u4:1 prev_pid=10 prev_prio=120 prev_state=I ==> next_comm=fio next_pid=5 next_prio=120
 fio-5 [000] d..2. 100.000300: sched_switch: prev_comm=fio prev_pid=5 prev_prio=120 prev_state=R+ ==> next_comm=kworker/u4:1 next_pid=10 next_prio=120
 kworker/u4:1-10 [000] ...1. 100.000301: workqueue_execute_start: work struct 00000000deadbeef: function loop_rootcg_workfn
 kworker/u4:1-10 [000] ...1. 100.000305: workqueue_execute_end: work struct 00000000deadbeef: function loop_rootcg_workfn
"""
lw2 = c.depth_trace_cpu(T2)["work"]["loop_rootcg_workfn"]
assert (lw2["runs"], lw2["runs_slept"], lw2["runs_preempt"]) == (2, 1, 1), lw2
PY
then
	ok "loop.depth-cpu's trace: work items, their wake-ups and how each began (over a runnable task, from idle, after a sleep), interrupts inside them, softirqs"
else
	cat "$tmp/out"
	not_ok "loop.depth-cpu's trace parser (depth_trace_cpu)"
fi

# loop.depth-cpu runs only when --only names it (ON_ASK, session 23,
# h23-loopq): run_all over made-up benchmarks runs it with --only and
# leaves it out of a whole calibration.
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
assert "loop.depth-cpu" in [b[0] for b in c.BENCHES], "not a benchmark"
assert c.ON_ASK == ("loop.depth-cpu", "dc.1t-wait", "fs.log-force-cmds",
                    "dev.flush-commit-paired", "fs.alloc-paired"), c.ON_ASK
ran = []
def bench(name):
    return lambda ctx: ran.append(name) or {"x": 1}
c.BENCHES = [("a.one", "", bench("a.one")),
             ("loop.depth-cpu", "", bench("loop.depth-cpu"))]
raw = c.run_all(None, 1)
assert ran == ["a.one"] and sorted(raw) == ["a.one"], (ran, raw)
ran.clear()
raw = c.run_all(None, 1, ["loop.depth-cpu"])
assert ran == ["loop.depth-cpu"] and sorted(raw) == ["loop.depth-cpu"], ran
PY
then
	ok "loop.depth-cpu only on --only (ON_ASK)"
else
	cat "$tmp/out"
	not_ok "ON_ASK: loop.depth-cpu left out of a whole calibration"
fi

# dc.1t-wait's trace parser (session 24, h24-dc): a made-up trace of the
# probe's writer (pid 501) on CPU 0: 30 us on the CPU with a 4 us virtio
# interrupt inside, a switch out in wbt_wait (its stack follows), woken
# 70 us later from a softirq and switched in 10 us after that; preempted
# by a kworker running xfs_end_io (8 us) and back 10 us later; a switch
# out in the ILOCK (xfs_ilock, its caller named), woken by a kworker 40
# us later, in 5 us after on CPU 1, 20 us there, preempted by ksoftirqd
# (no work item: named by its comm) and back 4 us later; a last switch
# out (the exit: never closed, not counted).  The loop worker runs 20 us
# on CPU 1 and a BLOCK softirq 5 us there.  Each figure comes back, per
# record over the probe's two records, beside its schedstat line; since
# session 25 (h25-dc) the writer's CPU per CPU, who took its CPU at each
# preemption, the device side per CPU, and the kworkers the writer woke:
# the loop worker onto CPU 1 (the other CPU's state unknown), xfs_end_io's
# kworker onto the writer's CPU 0 while CPU 1 was idle (its last traced
# switch went to pid 0).
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
assert c.DC_COMM == "dontcache-inter", c.DC_COMM
T = """\
 <idle>-0 [000] d..2. 100.000100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=dontcache-inter next_pid=501 next_prio=120
 dontcache-inter-501 [000] d.h1. 100.000110: irq_handler_entry: irq=36 name=virtio1-req.0
 dontcache-inter-501 [000] d.h1. 100.000114: irq_handler_exit: irq=36 ret=handled
 dontcache-inter-501 [000] d..2. 100.000125: sched_waking: comm=kworker/u4:1 pid=10 prio=120 target_cpu=001
 dontcache-inter-501 [000] d..2. 100.000130: sched_switch: prev_comm=dontcache-inter prev_pid=501 prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120
 dontcache-inter-501 [000] d..2. 100.000131: <stack trace>
 => trace_event_raw_event_sched_switch
 => __traceiter_sched_switch
 => __schedule
 => schedule
 => io_schedule
 => rq_qos_wait
 => wbt_wait
 => __rq_qos_throttle
 => blk_mq_submit_bio
 <idle>-0 [001] d..2. 100.000138: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker/u4:1 next_pid=10 next_prio=120
 kworker/u4:1-10 [001] ...1. 100.000140: workqueue_execute_start: work struct 00000000deadbeef: function loop_rootcg_workfn
 kworker/u4:1-10 [001] ...1. 100.000160: workqueue_execute_end: work struct 00000000deadbeef: function loop_rootcg_workfn
 kworker/u4:1-10 [001] d..2. 100.000161: sched_switch: prev_comm=kworker/u4:1 prev_pid=10 prev_prio=120 prev_state=I ==> next_comm=swapper/1 next_pid=0 next_prio=120
 <idle>-0 [001] ..s1. 100.000190: softirq_entry: vec=4 [action=BLOCK]
 <idle>-0 [001] ..s1. 100.000195: softirq_exit: vec=4 [action=BLOCK]
 <idle>-0 [001] ..s1. 100.000200: sched_wakeup: comm=dontcache-inter pid=501 prio=120 target_cpu=000
 <idle>-0 [000] d..2. 100.000210: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=dontcache-inter next_pid=501 next_prio=120
 dontcache-inter-501 [000] d..2. 100.000245: sched_waking: comm=kworker/0:1 pid=30 prio=120 target_cpu=000
 dontcache-inter-501 [000] d..2. 100.000250: sched_switch: prev_comm=dontcache-inter prev_pid=501 prev_prio=120 prev_state=R+ ==> next_comm=kworker/0:1 next_pid=30 next_prio=120
 dontcache-inter-501 [000] d..2. 100.000250: <stack trace>
 => __traceiter_sched_switch
 => __schedule
 => preempt_schedule_irq
 => iomap_write_iter
 kworker/0:1-30 [000] ...1. 100.000251: workqueue_execute_start: work struct 0000000011111111: function xfs_end_io
 kworker/0:1-30 [000] ...1. 100.000259: workqueue_execute_end: work struct 0000000011111111: function xfs_end_io
 kworker/0:1-30 [000] d..2. 100.000260: sched_switch: prev_comm=kworker/0:1 prev_pid=30 prev_prio=120 prev_state=I ==> next_comm=dontcache-inter next_pid=501 next_prio=120
 dontcache-inter-501 [000] d..2. 100.000300: sched_switch: prev_comm=dontcache-inter prev_pid=501 prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120
 dontcache-inter-501 [000] d..2. 100.000301: <stack trace>
 => __traceiter_sched_switch
 => __schedule
 => schedule
 => rwsem_down_read_slowpath
 => down_read
 => xfs_ilock
 => xfs_buffered_write_iomap_begin
 => iomap_iter
 kworker/1:2-40 [001] d..3. 100.000340: sched_wakeup: comm=dontcache-inter pid=501 prio=120 target_cpu=001
 <idle>-0 [001] d..2. 100.000345: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=dontcache-inter next_pid=501 next_prio=120
 dontcache-inter-501 [001] d..2. 100.000365: sched_switch: prev_comm=dontcache-inter prev_pid=501 prev_prio=120 prev_state=R ==> next_comm=ksoftirqd/1 next_pid=22 next_prio=120
 ksoftirqd/1-22 [001] d..2. 100.000369: sched_switch: prev_comm=ksoftirqd/1 prev_pid=22 prev_prio=120 prev_state=S ==> next_comm=dontcache-inter next_pid=501 next_prio=120
 dontcache-inter-501 [001] d..2. 100.000375: sched_switch: prev_comm=dontcache-inter prev_pid=501 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
"""
t = c.dc_wait_trace(T)
assert sorted(t) == [501], t
w = t[501]
assert (w["on_us"], w["irq_us"]) == (136, 4), w
assert w["cpu_us"] == {0: 110, 1: 26}, w
assert w["reasons"] == {"wbt_wait": [1, 70, 10], "preempted": [2, 0, 14],
                        "xfs_ilock<-xfs_buffered_write_iomap_begin": [1, 40, 5]}, w
assert w["wakers"] == {"softirq": 1, "kworker": 1}, w
assert w["taken_by"] == {0: {"xfs_end_io": [1, 10]},
                         1: {"ksoftirqd": [1, 4]}}, w
assert w["woke_kw"] == {"here": 1, "there": 1, "here_other_idle": 1}, w
out = "      1        24000 DONTCACHE              2          0.0000      100.0\n"
err = "schedstat: thread 0 records 2 run_ns 260000 wait_ns 20000 slices 4\n" \
      "cpus: thread 0 records 2 cpu0 1 cpu1 1 moves 1\n"
assert c.probe_cpus(err) == {0: {"records": 2, "moves": 1, "cpus": {0: 1, 1: 1}}}
assert c.probe_schedstat(err) == {0: {"records": 2, "run_ns": 260000,
                                      "wait_ns": 20000, "slices": 4}}
f = c.dc_wait_figures(out, err, T)
assert (f["records"], f["mib_per_s"], f["rpw"]) == (2, 100, 0), f
assert abs(f["wall_ns"] - 24000 / (100 * 2**20) * 1e9) < 1e-6, f
assert (f["sched_run_ns"], f["sched_wait_ns"], f["sched_slices"]) == (130000, 10000, 2), f
assert f["writer_cpu_share"] == {"0": 0.5, "1": 0.5} and f["writer_cpu_moves"] == 500, f
assert (f["on_cpu_ns"], f["irq_in_ns"]) == (68000, 2000), f
assert f["on_cpu_by_cpu_ns"] == {"0": 55000, "1": 13000}, f
assert f["reasons"]["wbt_wait"] == {"per_1000": 500, "sleep_ns": 35000, "runq_ns": 5000}, f
assert f["reasons"]["preempted"] == {"per_1000": 1000, "sleep_ns": 0, "runq_ns": 7000}, f
assert f["taken_by"] == {"0": {"xfs_end_io": {"per_1000": 500, "runq_ns": 5000}},
                         "1": {"ksoftirqd": {"per_1000": 500, "runq_ns": 2000}}}, f
assert f["woke_kworker"] == {"here": 500, "there": 500, "here_other_idle": 500}, f
assert f["wakers"] == {"kworker": 500, "softirq": 500}, f
assert (f["dev_loop_worker_ns"], f["dev_xfs_end_io_ns"], f["dev_dio_complete_ns"],
        f["dev_wq_other_ns"], f["dev_hardirq_ns"], f["dev_softirq_ns"]) == \
    (10000, 4000, 0, 0, 2000, 2500), f
assert f["dev_by_cpu_ns"] == {"loop_worker": {"1": 10000}, "xfs_end_io": {"0": 4000},
                              "dio_complete": {}, "wq_other": {},
                              "hardirq": {"0": 2000}, "softirq": {"1": 2500}}, f
f = c.dc_wait_figures(out, "", None)
assert "on_cpu_ns" not in f and "sched_run_ns" not in f, f
PY
then
	ok "dc.1t-wait's trace: the writer's CPU (per CPU), its switches by reason, asleep and queued, its wakers, who took its CPU, the device side per CPU"
else
	cat "$tmp/out"
	not_ok "dc.1t-wait's trace parser (dc_wait_trace, dc_wait_figures)"
fi

# A tracefs instance's triggers (dc.1t-wait's stacktrace, session 24) are
# set before its events are enabled and removed ("!" + the trigger) before
# its events are disabled: the writes to a made-up instance directory, in
# order.
if python3 - >"$tmp/out" 2>&1 <<'PY'
import os, shutil, sys, tempfile
sys.path.insert(0, "tools/calibrate")
import calibrate as c
d = tempfile.mkdtemp()
inst = os.path.join(d, "inst")
log = []
real_open = open
def fake_open(p, mode="r", *a, **k):
    if p.startswith(inst + "/"):
        rel = os.path.relpath(p, inst)
        if "w" in mode:
            log.append(rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
        elif rel == "trace":
            return real_open(os.path.join(d, "trace"))
    return real_open(p, mode, *a, **k)
c.open = fake_open
real_open(os.path.join(d, "trace"), "w").write("T\n")
trg = {"e/f": "stacktrace if x == 1"}
assert c._trace_instance_begin(inst, 64, {}, ("e/f",), trg)
assert log == ["buffer_size_kb", "events/e/f/trigger", "events/e/f/enable",
               "tracing_on"], log
assert real_open(os.path.join(inst, "events/e/f/trigger")).read() == trg["e/f"]
os.makedirs(os.path.join(inst, "per_cpu"))
del log[:]
assert c._trace_instance_end(inst, ("e/f",), trg) == "T\n"
assert log == ["tracing_on", "events/e/f/trigger", "events/e/f/enable"], log
assert real_open(os.path.join(inst, "events/e/f/trigger")).read() == "!" + trg["e/f"]
shutil.rmtree(d)
PY
then
	ok "a tracefs instance's triggers: set before its events, removed before they are disabled"
else
	cat "$tmp/out"
	not_ok "_trace_instance_begin/_end with triggers"
fi

# A traced run's tracefs instance is removed whatever the run does
# (_traced_run, the session 23 review): the end is called after a run
# that raises, a run without an instance says so on stderr and has no
# trace text, and an instance that cannot be read leaves nothing behind
# (_trace_instance_end on a missing directory returns None, no error).
if python3 - >"$tmp/out" 2>"$tmp/err" <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
ended = []
r = c._traced_run(["true"], "/tmp", lambda: True,
                  lambda: ended.append(1) or "text", "t.one")
assert r[0].returncode == 0 and r[-1] == "text" and ended == [1], r
try:
    c._traced_run(["/nonexistent/fio"], "/tmp", lambda: True,
                  lambda: ended.append(2) or "text", "t.two")
    raise SystemExit("no exception")
except FileNotFoundError:
    pass
assert ended == [1, 2], ended
r = c._traced_run(["true"], "/tmp", lambda: False,
                  lambda: ended.append(3), "t.three")
assert r[-1] is None and ended == [1, 2], (r, ended)
assert c._trace_instance_end("/nonexistent/instance", ("a/b",)) is None
PY
then
	if grep -q "calibrate: t.three: no tracefs instance" "$tmp/err"; then
		ok "a traced run removes its tracefs instance whatever the run does"
	else
		cat "$tmp/err" >>"$tmp/out"
		not_ok "_traced_run's note on stderr for an untraced run"
	fi
else
	cat "$tmp/out" "$tmp/err"
	not_ok "_traced_run: the instance's end after a failed run"
fi

# Sweeps on the overlapping form X(q) = min(q X(1), plateau) (made-up
# figures: QD1 10 000 IOPS, plateau 60 000) give no pass: pass_fit is
# None, and the profile takes one firmware time from the plateau.
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
def sweep(x1, top):
    f = {"iops_qd%d" % d: min(d * x1, top) for d in c.SWEEP}
    f["iops_max"] = top
    return {"runs": [f]}
F = c.Fig({"dev.qd-sweep-write": sweep(10000, 60000),
           "dev.qd-sweep-read": sweep(12000, 70000)})
assert c.pass_fit(F) is None, c.pass_fit(F)
PY
then
	ok "pass_fit: no pass where the sweeps follow the overlapping form"
else
	cat "$tmp/out"
	not_ok "pass_fit on overlapping sweeps"
fi

# The fit itself (pass_slope): points on X(q) = q / (L + q s) give s
# back (L = 100 us, s = 10 us); points off the line give the s that
# minimises the summed squared relative error (no other s on a fine
# grid around it does better).
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
q = c.SWEEP
on = [(d, d / (100e-6 + d * 10e-6)) for d in q]
assert abs(c.pass_slope(on) - 10000) < 1e-6, c.pass_slope(on)
off = [(1, 7364), (4, 20148), (16, 43740), (32, 50471), (64, 62542),
       (128, 81390)]
s = c.pass_slope(off)
def cost(s):
    t1 = 1 / off[0][1]
    return sum(((t1 + (d - 1) * s * 1e-9) - d / x) ** 2 / (d / x) ** 2
               for d, x in off[1:])
assert all(cost(s) <= cost(s + k) for k in range(-2000, 2001, 10)), s
print("s", s)
PY
then
	ok "pass_slope: exact on the line, least squares in relative error off it"
else
	cat "$tmp/out"
	not_ok "pass_slope"
fi

# The fit's depths (PASS_FIT_QD_MAX, session 17 h17-dioq): pass_fit
# fits s to the sweep up to QD64 only, so a QD128 point off the line
# (made-up figures: the rest on L = 100 us, s = 10 us; QD128 twice as
# fast) leaves s exact, and its misfit is still printed.
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
assert c.PASS_FIT_QD_MAX == 64, c.PASS_FIT_QD_MAX
def sweep(s):
    f = {"iops_qd%d" % d: d / (100e-6 + d * s) for d in c.SWEEP}
    f["iops_qd128"] *= 2
    f["iops_max"] = max(f.values())
    return {"runs": [f]}
F = c.Fig({"dev.qd-sweep-write": sweep(10e-6),
           "dev.qd-sweep-read": sweep(8e-6)})
p = c.pass_fit(F)
assert abs(p["write"]["s"] - 10000) < 1e-6, p["write"]["s"]
assert abs(p["read"]["s"] - 8000) < 1e-6, p["read"]["s"]
assert all(abs(float(e[:-1])) < 1 for e in p["write"]["fit"][:5]), p
assert p["write"]["fit"][5] == "-50%", p["write"]["fit"]
print(p)
PY
then
	ok "pass_fit: s from the sweep up to QD64, QD128's misfit printed"
else
	cat "$tmp/out"
	not_ok "pass_fit's depths"
fi

# The write's serial time from a freshly laid-out file (FRESH_FIT,
# session 19 h19-depth): with dev.qd-sweep-write-layout's fresh runs in
# the raw file (made-up: on L = 100 us, s = 20 us at QD 16 and 64), the
# write's s is theirs and QD1 the sweep's, the rested sweep (s = 10 us)
# still decides the form and its own s is kept beside; the reads keep
# the sweep's s until dev.qd-sweep-read-layout's fresh runs (on s = 5 us)
# are there, here from a supplement; without the layout runs the
# write's s is the sweep's.
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
assert c.FRESH_FIT
def sweep(s):
    f = {"iops_qd%d" % d: d / (100e-6 + d * s) for d in c.SWEEP}
    f["iops_max"] = max(f.values())
    return {"runs": [f]}
raw = {"dev.qd-sweep-write": sweep(10e-6), "dev.qd-sweep-read": sweep(8e-6)}
p = c.pass_fit(c.Fig(dict(raw)))
assert abs(p["write"]["s"] - 10000) < 1e-6 and not p["write"]["fresh"], p
x1 = 1 / 110e-6
raw["dev.qd-sweep-write-layout"] = {"runs": [dict(
    ("iops_fresh_qd%d" % q, q / (110e-6 + (q - 1) * 20e-6))
    for q in c.LAYOUT_QD)]}
p = c.pass_fit(c.Fig(raw))
assert abs(p["write"]["s"] - 20000) < 1e-6, p["write"]["s"]
assert abs(p["write"]["s_rested"] - 10000) < 1e-6, p
assert abs(p["read"]["s"] - 8000) < 1e-6 and not p["read"]["fresh"], p
assert [f.rsplit(" ", 1)[0] for f in p["write"]["fresh"]] == [
    "QD%d %.0f" % (q, q / (110e-6 + (q - 1) * 20e-6)) for q in c.LAYOUT_QD], p
assert c.LAYOUT_QD == (4, 16, 64), c.LAYOUT_QD
assert all(f.endswith("0%") for f in p["write"]["fresh"]), p
assert p["err_pass"] < 1e-9, p
# The reads' layout runs (dev.qd-sweep-read-layout), from a supplement
# (--supplement: a later --only run), set the read's s the same way.
sup = {"raw": {"dev.qd-sweep-read-layout": {"runs": [dict(
    ("iops_fresh_qd%d" % q, q / (108e-6 + (q - 1) * 5e-6))
    for q in c.LAYOUT_QD)]}}, "meta": {}}
p = c.pass_fit(c.Fig(raw, sup))
assert abs(p["read"]["s"] - 5000) < 1e-6, p["read"]["s"]
assert abs(p["read"]["s_rested"] - 8000) < 1e-6, p
assert abs(p["write"]["s"] - 20000) < 1e-6, p["write"]["s"]
print(p)
PY
then
	ok "pass_fit: each direction's s from the freshly laid-out runs when the raw files have them"
else
	cat "$tmp/out"
	not_ok "pass_fit's fresh write fit"
fi

# A write's serial time per data segment (seg_write_fit, session 20
# h20-dev): a made-up dev.seq-write on s = fw_write 10 us + 255 x 2 us
# (1 MiB of 4 KiB user pages at QD 8), L = the QD1 write's 100 us less
# its serial 10 us and 4 KiB at the link, plus 1 MiB at the link (4 GB/s),
# gives seg 2000 ns back; a dev.seq-write too fast for the form (its s
# below fw_write_ns) gives 0, not negative; no pass or no dev.seq-write
# gives None.
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
passes = {"write": {"x1": 1 / 100e-6}}
lw, fw_w = 4e9, 10000
L = 100000 - fw_w - 4096e9 / lw + c.SEQ_BYTES * 1e9 / lw
s = fw_w + (c.SEQ_BYTES // c.SEG_PAGE_BYTES - 1) * 2000
bw = c.SEQ_QD * c.SEQ_BYTES * 1e9 / (L + c.SEQ_QD * s)
raw = {"dev.seq-write": {"runs": [{"bytes_per_sec": bw}]}}
seg, line = c.seg_write_fit(c.Fig(raw), passes, fw_w, lw)
assert abs(seg - 2000) < 1e-6, seg
assert "256 segments" in line and "s = (cycle - L) / 8 = %.0f" % s in line, line
raw = {"dev.seq-write": {"runs": [{"bytes_per_sec": 100 * lw}]}}
assert c.seg_write_fit(c.Fig(raw), passes, fw_w, lw)[0] == 0
assert c.seg_write_fit(c.Fig(raw), None, fw_w, lw) is None
assert c.seg_write_fit(c.Fig({}), passes, fw_w, lw) is None
print(seg, line)
PY
then
	ok "seg_write_fit: the time per segment from dev.seq-write in the pass form"
else
	cat "$tmp/out"
	not_ok "seg_write_fit"
fi

# The segments at QD1 (seg_write_qd1_fit, session 21 h21-qd1): a
# made-up dev.seg-write whose 1 MiB QD1 p50 is the 64 KiB one's plus one
# more request's fw_write (the loop's 128 segments make two requests of
# 256 pages) and 239 segments of 1300 ns gives 1300 back, the per-command
# time at depth in its line; without dev.seg-write, None.  A supplement
# holding it (the kept run, 2026-12-07 10:06-10:14 UTC, load 4-19) on
# the committed raw changes the device profile's seg_write_ns line and
# adds seg_write_overlap = 1, nothing else; --check runs the benchmark's
# user-page jobs in the model.
segsup=traces/real-kernel/calibrate-supplement-6.18.44-fc-v1300-2026-12-07T1006-h21qd1.json
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
fw_w, lw = 10000, 4e9
run = {}
for q in c.SEG_QD:
    run["clat_p50_64k_malloc_qd%d" % q] = 60000 + q * 30000
    run["clat_p50_1024k_malloc_qd%d" % q] = (90000 + fw_w + 239 * 1300
                                             + (q - 1) * 340000)
raw = {"dev.seg-write": {"runs": [run, run, run]}}
seg, line = c.seg_write_qd1_fit(c.Fig(raw), fw_w, lw, 128)
assert abs(seg - 1300) < 1e-6, seg
assert "in 2 / 1 requests (max_segments 128)" in line, line
assert "QD2 340000, QD4 340000, QD8 340000 ns" in line, line
assert "huge pages" not in line, line
assert c.seg_write_qd1_fit(c.Fig({}), fw_w, lw, 128) is None
print(seg, line)
PY
then
	ok "seg_write_qd1_fit: the time per segment from dev.seg-write's QD1 runs"
else
	cat "$tmp/out"
	not_ok "seg_write_qd1_fit"
fi
mkdir -p "$tmp/seg" "$tmp/seg0"
# The committed raw may hold dev.seg-write itself (since the 11:24 sitting
# of session 21): the base here is a copy without it.
python3 - "$raw" "$tmp/raw-noseg.json" <<'PY' 2>>"$tmp/out"
import json, sys
d = json.load(open(sys.argv[1]))
d["raw"].pop("dev.seg-write", None)
json.dump(d, open(sys.argv[2], "w"))
PY
if python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/raw-noseg.json" \
	--name "$name" --profiles "$tmp/seg0" >"$tmp/out" 2>&1 &&
   python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/raw-noseg.json" \
	--supplement "$segsup" --name "$name" --profiles "$tmp/seg" \
	>>"$tmp/out" 2>&1 &&
   { diff "$tmp/seg0/$name.dev" "$tmp/seg/$name.dev" | grep '^[<>]' |
	grep -v '^> # Supplement: \|^> # (a later run of ' >"$tmp/seg.diff"
	true; } &&
   [ "$(grep -c '^< seg_write_ns = ' "$tmp/seg.diff")" -eq 1 ] &&
   grep -q '^> seg_write_ns = [0-9]*	# \[derived\] dev.seg-write QD1 clat p50, 1024 KiB less 64 KiB' "$tmp/seg.diff" &&
   grep -q '^> seg_write_overlap = 1	' "$tmp/seg.diff" &&
   [ "$(wc -l <"$tmp/seg.diff")" -eq 3 ] &&
   ! grep -q seg_write_overlap "$tmp/seg0/$name.dev" &&
   python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/raw-noseg.json" \
	--supplement "$segsup" --profiles "$tmp/seg" --check "$name" \
	--wpsim "$wpsim" >"$tmp/segcheck" 2>&1 &&
   [ "$(grep -c '^dev.seg-write clat_p50_[0-9]*k_malloc_qd[1248] .*%$' "$tmp/segcheck")" -eq 12 ]; then
	ok "dev.seg-write sets seg_write_ns at QD1 and seg_write_overlap; without it the profile has neither; --check runs its jobs"
else
	cat "$tmp/seg.diff" "$tmp/segcheck" >>"$tmp/out" 2>/dev/null
	not_ok "dev.seg-write's fit"
fi

# fs.log-force-8 and fs.log-force-8-4j (session 21, h21-qd1) are checks:
# a raw file holding them (made up here: the loaded runs of the session
# were not kept) gets its four figures run in the model by --check.
python3 - "$tmp/lf8.json" <<'PY'
import json, sys
run = {"sync_p50": 300000, "sync_p90": 400000, "iops": 20000}
json.dump({"meta": {"sysfs": {}}, "raw": {
    b: {"what": "made up", "runs": [run]}
    for b in ("fs.log-force-8", "fs.log-force-8-4j",
              "fs.log-force-8-4j-64m")}}, open(sys.argv[1], "w"))
PY
# fs.log-force-8-4j-64m (session 22, h22-fdsync): the 4-job run in 64 MiB
# files, checked like the others.
if python3 tools/calibrate/calibrate.py --from-raw "$tmp/lf8.json" \
	--check "$name" --wpsim "$wpsim" >"$tmp/lf8check" 2>&1 &&
   [ "$(grep -c '^fs.log-force-8\(-4j\(-64m\)\?\)\? \(sync_p50\|iops\) .*%$' "$tmp/lf8check")" -eq 6 ]; then
	ok "fs.log-force-8, -8-4j and -8-4j-64m are checks: --check runs their jobs in the model"
else
	cat "$tmp/lf8check" >"$tmp/out" 2>/dev/null
	not_ok "fs.log-force-8's check"
fi

# The buffered write's split (buffered_write_split, session 14
# h14-val2): the cached overwrite is the allocating one times the ratio
# of one run; the model's allocating overwrite (syscall + call + alloc +
# the copy into a fresh folio) gives the allocating p50 back; the
# allocation clamps at 0 when the fresh copy already covers it; the
# reservation is the fresh-file write less the allocating overwrite.
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
cached, call, alloc, raw, dl = c.buffered_write_split(
    over=2000, cached_ratio=0.6, sysc=60, copy=20, copy_fresh=300,
    fresh=2500)
assert abs(cached - 1200) < 1e-9 and abs(call - 1120) < 1e-9, (cached, call)
assert abs(alloc - 520) < 1e-9 and raw == alloc, alloc
assert abs(60 + call + alloc + 300 - 2000) < 1e-9
assert dl == 500, dl
cached, call, alloc, raw, dl = c.buffered_write_split(
    over=836, cached_ratio=0.829, sysc=63, copy=18, copy_fresh=441,
    fresh=1352)
assert alloc == 0 and raw < 0 and dl == 516, (alloc, raw, dl)
# no fresh copy figure: the copy is the hot one, the allocation the rest
cached, call, alloc, raw, dl = c.buffered_write_split(
    over=1000, cached_ratio=0.5, sysc=60, copy=20, copy_fresh=None,
    fresh=900)
assert alloc == 500 and dl == 0, (alloc, dl)
PY
then
	ok "buffered_write_split: the allocating overwrite given back, the allocation clamped at 0, the reservation"
else
	cat "$tmp/out"
	not_ok "buffered_write_split"
fi

# A read's own jitter (read_jitter_figures, session 14 h14-val2): the
# body is dio.qd1-read's p90 - p10 (medians), the tail its share and
# mean, the mean (1 - p)(J - 1)/2 + p tail; none without the tail keys.
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
runs = [{"p10": 50000, "p90": 70000, "tail_ppm": 20000,
         "tail_mean_extra": 250000}] * 3
F = c.Fig({"dio.qd1-read": {"what": "", "runs": runs}})
r = c.read_jitter_figures(F)
assert r["jitter_ns"] == 20000 and r["tail_ppm"] == 20000, r
assert abs(r["mean"] - (0.98 * 19999 / 2 + 0.02 * 250000)) < 1e-6, r
F = c.Fig({"dio.qd1-read": {"what": "", "runs": [{"p10": 1, "p90": 2}]}})
assert c.read_jitter_figures(F) is None
PY
then
	ok "read_jitter_figures: the read's spread and tail, and their mean"
else
	cat "$tmp/out"
	not_ok "read_jitter_figures"
fi

# The dc rows: the model's side writes as many records per thread as the
# real side (validate.py dc_rounds), and the model holds the 4-thread
# row at that size (before session 6 it ran one round: 0 reads).
if python3 - "$grid" >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import validate
n = 0
for row in validate.parse_grid(sys.argv[1]):
    if row["kind"] != "dontcache":
        continue
    env = validate.dc_model_env(row)
    per_job = int(env["IOSIZE"]) // int(env["REC"])
    assert per_job == validate.dc_rounds(row), (row["name"], per_job)
    n += 1
assert n >= 10, n
print(n)
PY
then
	ok "dc rows: the model writes the real side's rounds ($(cat "$tmp/out") rows)"
else
	not_ok "dc rows: the model's rounds differ from the real side's"
fi
if env REC=47008 SKIP=141024 SYNC=none SIZE=94016000 IOSIZE=23504000 \
	THREADS=4 "$wpsim" fio --device="$cal/$name.dev" \
	--cpu-profile="$cal/$name.cpu" --cpus=2 --variant dontcache=v6_18 \
	experiments/validation/dontcache-interleaved.fio --group-spans \
	--output-format=json >/dev/null 2>"$tmp/out" &&
   grep -q '^wpsim fio: group 0 (records): 2000 I/Os' "$tmp/out" &&
   reads=$(sed -n 's/^wpsim fio: device page reads //p' "$tmp/out") &&
   [ "$reads" -gt 0 ]; then
	ok "dc-4t-47008 at the real side's 500 rounds runs in the model ($reads device page reads)"
else
	not_ok "dc-4t-47008 at 500 rounds did not run or read nothing"
fi

# No profile figure cites a validation row or file.
: >"$tmp/out"
for r in $(grep -v "^#" "$grid" | cut -d"|" -f1) experiments/validation; do
	grep -n -w -- "$r" profiles/cpu/*.cpu profiles/devices/*.dev $cal/* \
		>>"$tmp/out" 2>/dev/null
done
if [ -s "$tmp/out" ]; then
	not_ok "a profile names a validation row"
else
	ok "no profile names a validation row or the grid"
fi

# The report on a kept result file.
kept=tests/calibrate/validate-kept.json
python3 tools/calibrate/validate.py report "$kept" >"$tmp/out" 2>&1
if grep -q '^## profile virtio-vm$' "$tmp/out" &&
   grep -q 'median |error|' "$tmp/out" &&
   grep -q 'within +-20%' "$tmp/out" &&
   grep -q 'not modelled yet' "$tmp/out" &&
   grep -q 'noisy (real spread > 20%)' "$tmp/out" &&
   grep -q 'reads per write within +-0.05' "$tmp/out"; then
	ok "validate.py report prints rows, the distribution, noisy and unmodelled rows"
else
	not_ok "validate.py report on $kept"
fi
if python3 tools/calibrate/validate.py report "$kept" | cmp -s - \
	tests/calibrate/validate-kept.txt; then
	ok "the report of $kept is the kept text"
else
	python3 tools/calibrate/validate.py report "$kept" |
		diff - tests/calibrate/validate-kept.txt >"$tmp/out" 2>&1
	not_ok "the report of $kept differs from the kept text"
fi
# --pool (session 16): the runs of two raw files of one machine pooled,
# a figure the median over all of them; a file of another machine is
# refused.  The second file is the committed one with every run's
# dev.seq-write scaled (made-up figures, a test of the arithmetic only).
if python3 - "$tmp/raw-base.json" "$tmp/pool-b.json" "$tmp/pool-x.json" >"$tmp/out" 2>&1 <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
b = json.loads(json.dumps(d))
for i, r in enumerate(b["raw"]["dev.seq-write"]["runs"]):
    r["bytes_per_sec"] = 1000000000 + i
json.dump(b, open(sys.argv[2], "w"))
b["meta"]["machine"] = "another machine"
json.dump(b, open(sys.argv[3], "w"))
runs = [r["bytes_per_sec"] for r in d["raw"]["dev.seq-write"]["runs"]] + \
    [1000000000 + i for i in range(len(d["raw"]["dev.seq-write"]["runs"]))]
print("%.0f" % statistics.median(runs))
PY
then
	want=$(tail -1 "$tmp/out")
	mkdir -p "$tmp/pool"
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/raw-base.json" \
		--pool "$tmp/pool-b.json" --name "$name" \
		--profiles "$tmp/pool" >"$tmp/out" 2>&1
fi
if grep -q "^link_write_bytes_per_sec = $want	# \[here\] dev.seq-write: " "$tmp/pool/$name.dev" 2>/dev/null &&
   grep -q "^# Pooled: .*pool-b.json" "$tmp/pool/$name.dev" &&
   ! python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/raw-base.json" \
	--pool "$tmp/pool-x.json" --name "$name" --profiles "$tmp/pool" \
	>>"$tmp/out" 2>&1 &&
   grep -q "not pooled" "$tmp/out"; then
	ok "--pool: a figure is the median over both files' runs; another machine's file is refused"
else
	cat "$tmp/pool/$name.dev" >>"$tmp/out" 2>/dev/null
	not_ok "calibrate.py --pool"
fi

# validate.py pool: two results files (the kept one twice, the second's
# runs scaled by 1.5) make one with six runs a row; a row is noisy when a
# sitting's median is over 20% from the pooled median.
if python3 - tests/calibrate/validate-kept.json "$tmp/vk2.json" >"$tmp/out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    for x in r["real"]:
        if "value" in x:
            x["value"] *= 1.5
json.dump(d, open(sys.argv[2], "w"))
PY
then
	python3 tools/calibrate/validate.py pool "$tmp/vpool.json" \
		tests/calibrate/validate-kept.json "$tmp/vk2.json" >>"$tmp/out" 2>&1
fi
if python3 - "$tmp/vpool.json" tests/calibrate/validate-kept.json >>"$tmp/out" 2>&1 <<'PY'
import json, sys
p, k = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert len(p["meta"]["pooled"]) == 2 and p["meta"]["profiles"] == []
for a, b in zip(p["rows"], k["rows"]):
    assert a["name"] == b["name"]
    assert len(a["real"]) == 2 * len(b["real"])
    assert {x["sitting"] for x in a["real"]} == {0, 1}
# A row's spread is over the sittings' medians, not over single runs:
# runs 90/100/110 and 200/200/200 pooled give the median 155 and the
# spread max(|100 - 155|, |200 - 155|) / 155, where the runs' own
# extreme (90) would give 65 / 155.
sys.path.insert(0, "tools/calibrate")
import validate
row = {"real": [dict(value=v, sitting=i) for i, vs in
                enumerate(((90, 100, 110), (200, 200, 200))) for v in vs]}
s = validate.summarise(row)
assert s["median"] == 155 and abs(s["spread"] - 55 / 155) < 1e-12, s
PY
then
	ok "validate.py pool: every row holds both sittings' runs, tagged, the model's side dropped; a row's spread is its sittings' medians'"
else
	not_ok "validate.py pool"
fi

# Drift anchors (session 24, h24-drift): validate.py measures a few
# calibration-set benchmarks at a sitting's start and end and sets them
# against the raw calibration file the profile names.  Canned figures (a
# test of the arithmetic and the wording, no kernel): a profile made by
# calibrate.py names its raw file and the baseline takes the anchors'
# runs from it; the verdict "moved" and "within the noise"; an old file
# says "no anchors recorded"; a profile whose raw file is missing is not
# compared; the anchors change no line of the model's table; a failing
# anchor is kept as its error.
if grep -q "^# Measurements: $raw\$" "$tmp/p/$name.cpu" &&
   grep -q "^# Measurements: $raw\$" "$tmp/p/$name.dev" &&
   python3 - "$raw" "$tmp/p/$name" "$tmp/anc" >"$tmp/out" 2>&1 <<'PY'
import io, json, os, statistics, sys
sys.path.insert(0, "tools/calibrate")
import calibrate
import validate as v
raw, prof, d = sys.argv[1:4]
os.makedirs(d)
names = {b for b, _, _ in calibrate.BENCHES}
grid = open("experiments/validation/grid.txt").read()
for bench, key in v.ANCHORS:
    assert bench in names and bench not in grid, bench
# The committed profile's raw file, as calibrate.py wrote its name.
base = v.calibration_baseline(prof)
assert base["raw_file"] == raw, base
r = json.load(open(raw))["raw"]
for bench, key in v.ANCHORS:
    assert base["figures"][bench + " " + key]["runs"] == \
        [x[key] for x in r[bench]["runs"]], bench

# A canned raw file: every anchor's runs 100 / 104 / 96 (noise 4%), and
# a profile naming it; another naming a file that is not there.
canned = {"meta": {"date": "2026-12-07T00:00Z", "load": "0.1"},
          "raw": {b: {"runs": []} for b, _ in v.ANCHORS}}
for bench, key in v.ANCHORS:
    for x in (100.0, 104.0, 96.0):
        canned["raw"][bench]["runs"].append({key: x})
json.dump(canned, open(d + "/raw.json", "w"))
open(d + "/p.cpu", "w").write("# Measurements: %s/raw.json\nx = 1\n" % d)
open(d + "/gone.cpu", "w").write("# Measurements: %s/gone.json\n" % d)


class Ctx:
    xfs = d


def with_anchors(scale_start, scale_end, fail=None):
    doc = json.load(open("tests/calibrate/validate-kept.json"))
    doc["anchors"] = v.new_anchors(Ctx, 3)
    for at, scale in (("start", scale_start), ("end", scale_end)):
        fns = {}
        for bench, key in v.ANCHORS:
            fns[bench] = (lambda c, k=key, s=scale.get(bench, 1.0):
                          {k: 100.0 * s})
        if fail and at == "end":
            def boom(c):
                sys.exit("calibrate: fio failed: canned")
            fns[fail] = boom
        doc["anchors"]["ends"].append(v.run_anchors(Ctx, at, 3, fns))
    v.add_baselines(doc, [d + "/p", d + "/gone"])
    return doc


def text(doc):
    out = io.StringIO()
    v.report(doc, out)
    return out.getvalue()


def block(doc):
    out = io.StringIO()
    v.anchor_report(doc, out)
    return out.getvalue()


# Moved: the device's QD1 write 30% faster at both ends, the flush 25%
# slower at the end only (beyond the 4% noise), the rest within 2%.
moved = with_anchors({"dio.qd1-write": 0.7, "cpu.micro": 1.02},
                     {"dio.qd1-write": 0.7, "dev.flush": 1.25})
t = block(moved)
assert "# verdict: moved: dio.qd1-write p50 -30%/-30% (+-4%); " \
    "dev.flush sync_p50 +0%/+25% (+-4%) beyond the noise" in t, t
assert "# the machine since calibration: cpu.micro syscall +2%/+0%, " in t, t
assert "the calibration's own noise +-4%, +-4%, +-4%, +-4%, +-4%" in t, t
assert "# during the sitting: dev.flush sync_p50 start->end +25% " \
    "(+-4%)" in t, t
assert "anchors not compared: profile %s/gone names the raw file " \
    "%s/gone.json, which is missing" % (d, d) in t, t
assert "verdict" not in t.split("/gone names")[1], t
# Within the noise: every anchor within 3%.
t = block(with_anchors({"dev.flush": 1.03}, {"dio.qd1-read": 0.97}))
assert "# verdict: within the noise: no anchor moved" in t, t
assert "during the sitting" not in t, t
# A failing anchor is its error, never a figure.
doc = with_anchors({}, {}, fail="dev.flush")
run = doc["anchors"]["ends"][1]["runs"]["dev.flush"][0]
assert "sync_p50" not in run and "fio failed: canned" in run["error"], run
t = block(doc)
assert "#     dev.flush sync_p50 end: calibrate: fio failed: canned" in t, t
assert "dev.flush sync_p50 +0%/-" in t, t
# The anchors change nothing else: the report less their block is the
# report of the file without them; an old file says so and no more.
old = json.load(open("tests/calibrate/validate-kept.json"))
assert text(moved).replace(block(moved), "") == \
    text(old).replace(block(old), ""), "the anchors changed the table"
assert block(old) == "# the machine since calibration: no anchors " \
    "recorded\n", block(old)
PY
then
	ok "drift anchors: the profile's raw file, the verdict both ways, an old file, a missing raw, a failing anchor, the table unchanged"
else
	not_ok "validate.py's drift anchors"
fi
if ! python3 tools/calibrate/validate.py anchors --anchor-reps 0 \
	--out "$tmp/x.json" >"$tmp/out" 2>&1 &&
   grep -q -- '--anchor-reps must be 1 or more' "$tmp/out" &&
   ! python3 tools/calibrate/validate.py anchors --loop "$tmp/no-loop" \
	--out "$tmp/x.json" >"$tmp/out" 2>&1 &&
   grep -q "$tmp/no-loop/xfs is not a loop-mounted xfs" "$tmp/out" &&
   [ ! -e "$tmp/x.json" ] &&
   python3 tools/calibrate/validate.py run --help | grep -q -- '--anchor-reps'; then
	ok "validate.py anchors refuses no runs and a directory that is not the loop XFS; run takes --anchor-reps"
else
	not_ok "validate.py anchors --anchor-reps 0"
fi

# The anchors measured once at 19:36 (docs/validation.md, session 24
# h24-drift, loaded): the page's report command gives its lines.
anc=traces/real-kernel/anchors-6.18.44-fc-v1300-2026-12-07T1936-h24drift.json
if python3 tools/calibrate/validate.py report "$anc" >"$tmp/out" 2>&1 &&
   grep -q '^# the machine since calibration: cpu.micro syscall -15%, fs.buffered-overwrite-cached clat_p50 -20%, dio.qd1-write p50 -38%, dio.qd1-read p10 +20%, dev.flush sync_p50 -55% (now); the calibration.s own noise +-15%, +-6%, +-21%, +-8%, +-11%$' "$tmp/out" &&
   grep -q '^# verdict: moved: fs.buffered-overwrite-cached clat_p50 -20% (+-6%); dio.qd1-write p50 -38% (+-21%); dev.flush sync_p50 -55% (+-12%) beyond the noise' "$tmp/out" &&
   ! grep -q '^## profile' "$tmp/out"; then
	ok "validate.py report of the 19:36 anchors"
else
	not_ok "validate.py report on $anc"
fi

# The page's comparison of session 23's two real sides with the 16:26
# calibration (docs/validation.md, session 24 h24-drift): the grid rows
# that repeat a calibration benchmark's job.
r23=traces/real-kernel/calibrate-6.18.44-fc-v1300-2026-12-07T1626.json
v23=traces/real-kernel/validate-6.18.44-fc-v1300-2026-12-07T
if python3 tools/calibrate/validate.py since "$r23" "${v23}1640.json" \
	"${v23}1800.json" >"$tmp/out" 2>&1 &&
   grep -q '^# 2026-12-07T16:40Z: median ratio 0.92 over 10 rows (1 above 1.10, 4 below 0.90)$' "$tmp/out" &&
   grep -q '^# 2026-12-07T18:00Z: median ratio 1.14 over 10 rows (6 above 1.10, 1 below 0.90)$' "$tmp/out" &&
   grep -q '^dio-xfs-randread-qd1 .* 12227 .* 12965  1.06 .* 15546  1.27\*' "$tmp/out"; then
	ok "validate.py since: session 23's two real sides against the 16:26 calibration"
else
	not_ok "validate.py since on $r23"
fi

# validate.py's warm-up run (session 17, h17-buf's finding: a first run
# over GiBs of memory freed a while before meets the host refaulting
# it): run's default warms the GiB buffered rows' job files; a row's
# warm-up figure is printed beside it, not counted in its median.
if python3 - tests/calibrate/validate-kept.json >"$tmp/out" 2>&1 <<'PY'
import io, json, subprocess, sys
sys.path.insert(0, "tools/calibrate")
import validate
doc = json.load(open(sys.argv[1]))
row = next(r for r in doc["rows"] if validate.summarise(r) and
           any("value" in m for m in r["model"].values()))
before = validate.summarise(row)
row["warmup"] = {"value": 1.25, "load": 0.5}
assert validate.summarise(row) == before
out = io.StringIO()
validate.report(doc, out)
line = next(l for l in out.getvalue().splitlines()
            if l.startswith(row["name"] + " "))
assert "warm-up 1.2 (not counted)" in line, line
h = subprocess.run([sys.executable, "tools/calibrate/validate.py", "run",
                    "--help"], capture_output=True, text=True).stdout
assert "--warmup" in h, h
import argparse
src = open("tools/calibrate/validate.py").read()
assert 'default="buffered-seq-big.fio,buffered-rand-big.fio"' in src
PY
then
	ok "validate.py: a warm-up run is printed beside its row and not counted"
else
	not_ok "validate.py warm-up"
fi

# The device's QD1 samples (session 18, h18-dio): dev.qd1-repeat's runs
# at the calibration's start, middle and end join the sweeps' QD1 runs;
# X(1) is the median of all of them, every sample is in the profile's
# comments, and a spread beyond MODE_RATIO is refused with the message
# that names both times, no profile written, unless
# --accept-mode-change (then the profile says so).  Made-up figures on a
# copy of the committed raw file (a test of the rule only, never a
# profile's): the sweeps' QD1 write runs set to 10 000 IOPS (100 us),
# the repeats to 9 000 / 9 500 / 11 000 (median of the six: 10 000);
# then one repeat at 5 000 (200 us: 2.0x).
if python3 - "$raw" "$tmp/qd1-ok.json" "$tmp/qd1-mode.json" >"$tmp/out" 2>&1 <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
for r in d["raw"]["dev.qd-sweep-write"]["runs"]:
    r["iops_qd1"] = 10000.0
rd = [r["iops_qd1"] for r in d["raw"]["dev.qd-sweep-read"]["runs"]]
d["raw"]["dev.qd1-repeat"] = {"what": "test", "runs": [
    {"at": at, "iops_write": w, "iops_read": rd[1], "unix_time": 0,
     "loadavg": 0} for at, w in (("start", 9000.0), ("middle", 9500.0),
                                 ("end", 11000.0))]}
json.dump(d, open(sys.argv[2], "w"))
m = copy.deepcopy(d)
m["raw"]["dev.qd1-repeat"]["runs"][1]["iops_write"] = 5000.0
json.dump(m, open(sys.argv[3], "w"))
PY
   mkdir -p "$tmp/q1" "$tmp/q2" "$tmp/q3" &&
   python3 tools/calibrate/calibrate.py --from-raw "$tmp/qd1-ok.json" \
	--name "$name" --profiles "$tmp/q1" >>"$tmp/out" 2>&1 &&
   grep -q '^# QD1 writes, us per I/O (1 / IOPS) of every sample: sweep 100, sweep 100, sweep 100, start 111, middle 105, end 91; spread 1\.22x (MODE_RATIO 1\.40); X(1) = the median, 10000 IOPS\.$' "$tmp/q1/$name.dev" &&
   grep -q '^fw_write_ns = .*' "$tmp/q1/$name.dev" &&
   ! grep -q '^# Accepted' "$tmp/q1/$name.dev" &&
   ! python3 tools/calibrate/calibrate.py --from-raw "$tmp/qd1-mode.json" \
	--name "$name" --profiles "$tmp/q2" >"$tmp/q2.out" 2>&1 &&
   grep -q '^calibrate: the device changed mode during calibration: QD1 writes took from 91 us to 200 us (2\.20x, beyond MODE_RATIO 1\.40; us per I/O: sweep 100, sweep 100, sweep 100, start 111, middle 200, end 91)\.$' "$tmp/q2.out" &&
   [ ! -e "$tmp/q2/$name.dev" ] &&
   python3 tools/calibrate/calibrate.py --from-raw "$tmp/qd1-mode.json" \
	--accept-mode-change --name "$name" --profiles "$tmp/q3" >>"$tmp/out" 2>&1 &&
   grep -q '^# Accepted (--accept-mode-change): the device changed mode during calibration: QD1 writes took from 91 us to 200 us' "$tmp/q3/$name.dev" &&
   grep -q 'X(1) = the median, 10000 IOPS\.$' "$tmp/q3/$name.dev"; then
	ok "QD1 samples through the calibration: X(1) their median, each in the profile; a mode change refused unless accepted"
else
	cat "$tmp/q2.out" >>"$tmp/out" 2>/dev/null
	grep '^# QD1\|^# Accepted' "$tmp/q1/$name.dev" "$tmp/q3/$name.dev" >>"$tmp/out" 2>&1
	not_ok "QD1 samples and the mode check"
fi

# run_all places dev.qd1-repeat once before the first benchmark, once
# before the one halfway through, and once after the last, each run
# tagged with where it ran; the other benchmarks run reps times in a row
# (stub benchmarks: no fio).
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate
order = []
def stub(name):
    def fn(ctx):
        order.append(name)
        return {"x": 1}
    return fn
calibrate.BENCHES = [(n, "stub", stub(n)) for n in
                     ("a", "b", "dev.qd1-repeat", "c", "d")]
raw = calibrate.run_all(None, 2)
assert order == ["dev.qd1-repeat", "a", "a", "b", "b", "dev.qd1-repeat",
                 "c", "c", "d", "d", "dev.qd1-repeat"], order
assert [r["at"] for r in raw["dev.qd1-repeat"]["runs"]] == \
    ["start", "middle", "end"]
assert len(raw["a"]["runs"]) == 2
PY
then
	ok "run_all: dev.qd1-repeat at the calibration's start, middle and end"
else
	not_ok "run_all's placement of dev.qd1-repeat"
fi

# dev.qd-sweep-randrw (session 18, h18-dio) is a check: a supplement
# holding it adds one comment line to the device profile (every figure's
# median at each depth, and the disk's requests per interrupt) and sets
# no figure, and `--check` runs its twelve jobs in the model (made-up
# figures, a test of the arithmetic and the wiring only).
if python3 - "$tmp/rrsup.json" >"$tmp/out" 2>&1 <<'PY'
import json, sys
runs = []
for k in range(3):
    r = {"loadavg": 0}
    for qd in (1, 4, 16, 64):
        for tag, base in (("rw", 100), ("r", 200), ("w", 300)):
            r["iops_%s_qd%d" % (tag, qd)] = base * qd + k
            r["req_per_irq_%s_qd%d" % (tag, qd)] = qd / 2 + k
    runs.append(r)
json.dump({"meta": {"date": "test", "load": "0", "machine": "test"},
           "raw": {"dev.qd-sweep-randrw": {"what": "test", "runs": runs}}},
          open(sys.argv[1], "w"))
PY
   sup_diff "$tmp/rrsup.json" rr dev &&
   [ "$(wc -l <"$tmp/rr.diff")" -eq 1 ] &&
   grep -q '^> # dev.qd-sweep-randrw (a check) IOPS at QD 1/4/16/64: randrw 101 / 401 / 1601 / 6401; randread 201 / 801 / 3201 / 12801; randwrite 301 / 1201 / 4801 / 19201; the disk.s requests per interrupt: 1.5 / 3.0 / 9.0 / 33.0; 1.5 / 3.0 / 9.0 / 33.0; 1.5 / 3.0 / 9.0 / 33.0\.$' "$tmp/rr.diff" &&
   python3 tools/calibrate/calibrate.py --from-raw "$tmp/rrsup.json" \
	--check "$name" --wpsim "$wpsim" >"$tmp/rrcheck" 2>&1 &&
   [ "$(grep -c '^dev.qd-sweep-randrw iops_\(rw\|r\|w\)_qd\(1\|4\|16\|64\) .*%$' "$tmp/rrcheck")" -eq 12 ]; then
	ok "dev.qd-sweep-randrw adds a comment and no figure; --check runs its jobs in the model"
else
	cat "$tmp/rr.diff" "$tmp/rrcheck" >>"$tmp/out" 2>/dev/null
	not_ok "dev.qd-sweep-randrw as a check"
fi

# dev.qd-sweep-write-fs (session 22, h22-depth) is a check: a supplement
# holding it changes no line of the device profile, and `--check` runs
# its eight jobs (ext4 and XFS, 512 MiB and 1 GiB, QD 16 and 64) in the
# model (made-up figures: the wiring only).
if python3 - "$tmp/fssup.json" >"$tmp/out" 2>&1 <<'PY'
import json, sys
runs = [{"loadavg": 0, **{"iops_%s_%s_qd%d" % (fs, size, qd): 1000 * qd + k
                          for fs in ("ext4", "xfs") for size in ("512m", "1g")
                          for qd in (16, 64)}} for k in range(3)]
json.dump({"meta": {"date": "test", "load": "0", "machine": "test"},
           "raw": {"dev.qd-sweep-write-fs": {"what": "test", "runs": runs}}},
          open(sys.argv[1], "w"))
PY
   { sup_diff "$tmp/fssup.json" fs dev; [ -f "$tmp/fs.diff" ]; } &&
   [ "$(wc -l <"$tmp/fs.diff")" -eq 0 ] &&
   python3 tools/calibrate/calibrate.py --from-raw "$tmp/fssup.json" \
	--check "$name" --wpsim "$wpsim" >"$tmp/fscheck" 2>&1 &&
   [ "$(grep -c '^dev.qd-sweep-write-fs iops_\(ext4\|xfs\)_\(512m\|1g\)_qd\(16\|64\) .*%$' "$tmp/fscheck")" -eq 8 ]; then
	ok "dev.qd-sweep-write-fs sets no figure; --check runs its jobs in the model"
else
	cat "$tmp/fs.diff" "$tmp/fscheck" >>"$tmp/out" 2>/dev/null
	not_ok "dev.qd-sweep-write-fs as a check"
fi

# The log record's time (session 19, h19-sync): log_write_ns is
# fs.log-force's sync p50 less fs.unwritten-dio's p50, twice dev.flush's
# sync p50 less dio.qd1-write's, and dio.qd1-write's p50 (each the median
# of its runs, recomputed here from the raw file); a raw file without
# fs.log-force gives no figure; a rest below 1 ns says "not set".
if python3 - "$raw" "$tmp/nolf.json" "$tmp/lowlf.json" "$tmp/highlf.json" "$tmp/lf64.json" >"$tmp/lwexp" 2>>"$tmp/out" <<'PY'
import copy, json, statistics, sys
doc = json.load(open(sys.argv[1]))
def med(b, k):
    return statistics.median(r[k] for r in doc["raw"][b]["runs"])
w = med("dio.qd1-write", "p50")
# since session 22 the one-pass fs.log-force-64m when the raw has it
lfb = "fs.log-force-64m" if "fs.log-force-64m" in doc["raw"] else "fs.log-force"
print("%.0f" % (med(lfb, "sync_p50") - med("fs.unwritten-dio", "p50")
                - 2 * (med("dev.flush", "sync_p50") - w) - w))
print(lfb)
rest = lambda v: (v + med("fs.unwritten-dio", "p50")
                  + 2 * (med("dev.flush", "sync_p50") - w) + w)
# a raw with fs.log-force-64m (a copy of fs.log-force's runs, rest 60 000)
d64 = copy.deepcopy(doc)
d64["raw"]["fs.log-force-64m"] = copy.deepcopy(doc["raw"]["fs.log-force"])
for r in d64["raw"]["fs.log-force-64m"]["runs"]:
    r["sync_p50"] = rest(60000)
json.dump(d64, open(sys.argv[5], "w"))
doc["raw"].pop("fs.log-force-64m", None)
lf = doc["raw"].pop("fs.log-force")
json.dump(doc, open(sys.argv[2], "w"))
for r in lf["runs"]:
    r["sync_p50"] = 1000
doc["raw"]["fs.log-force"] = lf
json.dump(doc, open(sys.argv[3], "w"))
# a rest of 50 000 ns whatever the committed raw's is (a quiet sitting's
# rest may fall below 1 ns: session 20's 08:36 raw, -55 296)
for r in lf["runs"]:
    r["sync_p50"] = rest(50000)
json.dump(doc, open(sys.argv[4], "w"))
PY
then
	mkdir -p "$tmp/lw0" "$tmp/lw1" "$tmp/lw5"
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/nolf.json" \
		--name "$name" --profiles "$tmp/lw0" >>"$tmp/out" 2>&1
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/lowlf.json" \
		--name "$name" --profiles "$tmp/lw1" >>"$tmp/out" 2>&1
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/highlf.json" \
		--name "$name" --profiles "$tmp/lw5" >>"$tmp/out" 2>&1
	mkdir -p "$tmp/lw6"
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/lf64.json" \
		--name "$name" --profiles "$tmp/lw6" >>"$tmp/out" 2>&1
fi
lw=$(sed -n 1p "$tmp/lwexp" 2>/dev/null)
lfb=$(sed -n 2p "$tmp/lwexp" 2>/dev/null)
# the committed profile: the figure where its raw's rest is 1 ns or more,
# else "not set" with the rest
if [ -n "$lw" ] && [ "$lw" -ge 1 ]; then
	grep -q "^log_write_ns = $lw	# \[derived\] $lfb " "$cal/$name.cpu"
else
	grep -q "^# log_write_ns: not set, the rest is $lw ns" "$cal/$name.cpu" &&
	! grep -q "^log_write_ns" "$cal/$name.cpu"
fi
lw_committed=$?
if [ -n "$lw" ] && [ "$lw_committed" -eq 0 ] &&
   [ "$(fig log_write_ns "$tmp/lw5/$name.cpu")" = "50000" ] &&
   grep -q "^log_write_ns = 50000	# \[derived\] fs.log-force " "$tmp/lw5/$name.cpu" &&
   [ -f "$tmp/lw0/$name.cpu" ] && ! grep -q "log_write_ns" "$tmp/lw0/$name.cpu" &&
   grep -q "^# log_write_ns: not set, the rest is -" "$tmp/lw1/$name.cpu" &&
   ! grep -q "^log_write_ns" "$tmp/lw1/$name.cpu"; then
	ok "log_write_ns is fs.log-force's rest beyond its commands (the committed raw's: $lw ns; a made-up 50000); none without fs.log-force; not set below 1 ns"
else
	cat "$tmp/lw0/$name.cpu" "$tmp/lw1/$name.cpu" >>"$tmp/out" 2>/dev/null
	not_ok "log_write_ns from fs.log-force"
fi
# fs.log-force-64m (session 22, the lead): one pass over its file, so every
# fdatasync forces the log; when the raw has it, log_write_ns is its rest.
if [ "$(fig log_write_ns "$tmp/lw6/$name.cpu" 2>/dev/null)" = "60000" ] &&
   grep -q "^log_write_ns = 60000	# \[derived\] fs.log-force-64m " "$tmp/lw6/$name.cpu" &&
   grep -q "^# fs.log-force-64m sync p50 " "$tmp/lw6/$name.cpu"; then
	ok "log_write_ns is fs.log-force-64m's rest when the raw has it"
else
	cat "$tmp/lw6/$name.cpu" >>"$tmp/out" 2>/dev/null
	not_ok "log_write_ns from fs.log-force-64m"
fi

# The checkpoint's size (session 23, h23-fdsync): log_convert_bytes is
# fs.log-force-8-64m's log bytes per fdatasync (from /proc/fs/xfs/stat's
# log blocks around the run: log_per_sync), times the run's passes when
# above one, over its 8 conversions, the median of the runs; a run
# without the log figures gives a comment and no figure; the committed
# profile has it from its supplement.
if python3 - "$raw" "$tmp/lc.json" "$tmp/lcno.json" >"$tmp/lcexp" 2>>"$tmp/out" <<'PY'
import copy, json, os, sys
sys.path.insert(0, os.path.join("tools", "calibrate"))
import calibrate
doc = json.load(open(sys.argv[1]))
# log_per_sync: 10 iclog writes and 200 blocks over 50 fdatasyncs
j = {"probe": ((5, 100), (15, 300)), "sync": {"lat_ns": {"N": 50}}}
f = calibrate.log_per_sync(j)
print("%.2f %.0f" % (f["log_writes"], f["log_bytes"]))
print(len(calibrate.log_per_sync({"sync": {"lat_ns": {"N": 50}}})))
doc["raw"].pop("fs.log-force-8-64m", None)
# per split: 24000 x 1 / 8, 13000 x 2 / 8, 25000 x 1 / 8 (a run past one
# pass: only its first pass converted)
runs = [{"iops": 9000, "passes": p, "sync_p50": 500000,
         "sync_p90": 900000, "log_writes": 1.3, "log_bytes": b}
        for b, p in ((24000, 0.5), (13000, 2.0), (25000, 1.0))]
d = copy.deepcopy(doc)
d["raw"]["fs.log-force-8-64m"] = {"runs": runs, "what": "made up"}
json.dump(d, open(sys.argv[2], "w"))
for r in runs:
    del r["log_bytes"], r["log_writes"]
json.dump(d, open(sys.argv[3], "w"))
PY
then
	mkdir -p "$tmp/lc" "$tmp/lcno"
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/lc.json" \
		--name "$name" --profiles "$tmp/lc" >>"$tmp/out" 2>&1
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/lcno.json" \
		--name "$name" --profiles "$tmp/lcno" >>"$tmp/out" 2>&1
fi
if [ "$(sed -n 1p "$tmp/lcexp" 2>/dev/null)" = "0.20 2048" ] &&
   [ "$(sed -n 2p "$tmp/lcexp" 2>/dev/null)" = "0" ] &&
   [ "$(fig log_convert_bytes "$tmp/lc/$name.cpu" 2>/dev/null)" = "3125" ] &&
   grep -q "^log_convert_bytes = 3125	# \[derived\] fs.log-force-8-64m's log bytes per fdatasync x max(1, passes) / 8 conversions, the median of 3 runs (3000 / 3250 / 3125)" "$tmp/lc/$name.cpu" &&
   grep -q "^# fs.log-force-8-64m log bytes per fdatasync 24000 / 13000 / 25000, iclog writes per fdatasync 1.30 / 1.30 / 1.30, passes 0.50 / 2.00 / 1.00" "$tmp/lc/$name.cpu" &&
   [ -f "$tmp/lcno/$name.cpu" ] && ! grep -q "^log_convert_bytes" "$tmp/lcno/$name.cpu" &&
   grep -q "^# log_convert_bytes: fs.log-force-8-64m has no log figures" "$tmp/lcno/$name.cpu" &&
   grep -q "^log_convert_bytes = [0-9]" "$cal/$name.cpu" &&
   grep -q "^# Supplement: .*calibrate-supplement-" "$cal/$name.cpu"; then
	ok "log_convert_bytes is fs.log-force-8-64m's log bytes per fdatasync x max(1, passes) over 8, the median (made up: 3125); a comment without its log figures; the committed profile's from its supplement"
else
	cat "$tmp/lcexp" "$tmp/lc/$name.cpu" >>"$tmp/out" 2>/dev/null
	not_ok "log_convert_bytes from fs.log-force-8-64m"
fi

# The wrap's writeback and invalidate (session 19, h19-wrap):
# writeback_folio_ns, writepage_map_ns and folio_drop_ns from
# fs.buffered-overwrite's 1 / IOPS less its lat mean, less fio_io_ns and
# the carried writeback_end_ns (425), split 1050 : 810 : 770 (made-up
# figures: 250 000 IOPS with lat means 2 000 / 2 200 / 2 400 ns, so
# 2 000 / 1 800 / 1 600 outside, median 1 800; fio_io_ns 500 as above:
# 1 300 per folio, 875 to split: 349 / 269 / 256).  A run without its
# IOPS sets none (default.cpu's stand), nor a figure at or below
# writeback_end_ns; --check compares the two benchmarks' IOPS too.
if python3 - "$raw" "$tmp/wrap.json" "$tmp/wrap-noiops.json" "$tmp/wrap-low.json" "$tmp/wrap-check.json" >"$tmp/out" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
R = doc["raw"]
for r, lat in zip(R["fs.buffered-overwrite-cached"]["runs"],
                  (1600, 1500, 1400)):
    r["iops"], r["lat_mean"] = 500000, lat
for b, k in (("fs.buffered-overwrite", "clat"),
             ("fs.buffered-overwrite-cached", "clat"),
             ("fs.buffered-alloc", "clat"), ("fs.buffered-alloc-64k", "clat"),
             ("uring.inline", "slat_clat"), ("uring.punt", "slat_clat")):
    for r in R[b]["runs"]:
        r[k + "_mean"] = 1.5 * r[k + "_p50"]
for r, lat in zip(R["fs.buffered-overwrite"]["runs"], (2000, 2200, 2400)):
    r["iops"], r["lat_mean"] = 250000, lat
json.dump(doc, open(sys.argv[2], "w"))
del R["fs.buffered-overwrite"]["runs"][1]["iops"]
json.dump(doc, open(sys.argv[3], "w"))
for r in R["fs.buffered-overwrite"]["runs"]:
    r["iops"], r["lat_mean"] = 1e9 / 2800, 2000
json.dump(doc, open(sys.argv[4], "w"))
json.dump({"meta": doc["meta"], "raw": {
    "fs.buffered-overwrite": {"what": "test", "runs": [
        {"clat_p50": 3000, "iops": 200000 + k} for k in range(3)]},
    "uring.inline": {"what": "test", "runs": [
        {"slat_clat_p50": 3500, "iops": 180000 + k} for k in range(3)]}}},
    open(sys.argv[5], "w"))
PY
then
	mkdir -p "$tmp/pw" "$tmp/pw0" "$tmp/pwl"
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/wrap.json" \
		--name "$name" --profiles "$tmp/pw" >>"$tmp/out" 2>&1
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/wrap-noiops.json" \
		--name "$name" --profiles "$tmp/pw0" >>"$tmp/out" 2>&1
	python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/wrap-low.json" \
		--name "$name" --profiles "$tmp/pwl" >>"$tmp/out" 2>&1
	python3 tools/calibrate/calibrate.py --from-raw "$tmp/wrap-check.json" \
		--check "$name" --wpsim "$wpsim" >"$tmp/wrapcheck" 2>>"$tmp/out"
fi
if grep -q "^writeback_folio_ns = 349	# \[derived\] 875 x 1050 / 2630$" "$tmp/pw/$name.cpu" 2>/dev/null &&
   grep -q "^writepage_map_ns = 269	# \[derived\] 875 x 810 / 2630$" "$tmp/pw/$name.cpu" &&
   grep -q "^folio_drop_ns = 256	# \[derived\] 875 x 770 / 2630$" "$tmp/pw/$name.cpu" &&
   grep -q "each run: 2000 / 1800 / 1600 ns; less fio_io_ns 500: 1300 ns per written folio" "$tmp/pw/$name.cpu" &&
   ! grep -q "^writeback_folio_ns\|^writepage_map_ns\|^folio_drop_ns" "$tmp/pw0/$name.cpu" &&
   grep -q "^# writeback_folio_ns, writepage_map_ns, folio_drop_ns: not measured" "$tmp/pw0/$name.cpu" &&
   ! grep -q "^writeback_folio_ns\|^writepage_map_ns\|^folio_drop_ns" "$tmp/pwl/$name.cpu" &&
   grep -q "^# writeback_folio_ns, writepage_map_ns, folio_drop_ns: not set, 300 ns is not above writeback_end_ns 425" "$tmp/pwl/$name.cpu" &&
   grep -q '^fs.buffered-overwrite iops  *200001  *[0-9]*  *[-+][0-9]*%$' "$tmp/wrapcheck" &&
   grep -q '^uring.inline iops  *180001  *[0-9]*  *[-+][0-9]*%$' "$tmp/wrapcheck" &&
   [ "$(grep -c '%$' "$tmp/wrapcheck")" -eq 4 ]; then
	ok "the wrap's per-folio figures from fs.buffered-overwrite's 1 / IOPS less lat mean; none without IOPS or below writeback_end_ns; --check compares IOPS"
else
	cat "$tmp/pw/$name.cpu" "$tmp/pwl/$name.cpu" "$tmp/wrapcheck" >>"$tmp/out" 2>/dev/null
	not_ok "the wrap's per-folio figures"
fi

# validate.py's real side of a DONTCACHE row runs the probe with
# DC_PROBE_IDLE_MS = DC_IDLE_MS (each repetition starts on an idle queue:
# session 20, h20-dc); a stand-in probe prints what it was given.  Since
# session 25 (h25-dc) with DC_PROBE_SCHED=1 too: the writers' CPUs (its
# "cpus:" line) come back with the row's figures.
cat >"$tmp/fake-probe" <<'SH'
#!/bin/sh
echo "$2 $3 DONTCACHE 2000 0.0000 ${DC_PROBE_IDLE_MS:-none}"
[ "$DC_PROBE_SCHED" = 1 ] &&
	echo "cpus: thread 0 records 2000 cpu0 500 cpu1 1500 moves 3" >&2
exit 0
SH
chmod +x "$tmp/fake-probe"
mkdir -p "$tmp/mnt"
if python3 - "$tmp/fake-probe" "$tmp/mnt" >"$tmp/idle" 2>>"$tmp/out" <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import validate
row = {"env": {"THREADS": "1", "REC": "6000", "SYNC": "none"}}
r = validate.real_dontcache(row, sys.argv[2], sys.argv[1])
assert r.get("writer_cpus") == {"0": 500, "1": 1500} and r.get("cpu_moves") == 3, r
print(validate.DC_IDLE_MS, r.get("value"))
PY
then :; fi
if [ "$(cat "$tmp/idle" 2>/dev/null)" = "2500 2500.0" ]; then
	ok "validate.py runs each DONTCACHE repetition's probe with DC_PROBE_IDLE_MS=2500 and DC_PROBE_SCHED=1 (the writers' CPUs kept)"
else
	cat "$tmp/idle" >>"$tmp/out" 2>/dev/null
	not_ok "validate.py's DONTCACHE probe idle"
fi

# --without B (session 21): the profiles are those of the raw file with B
# deleted, and the header names B; an unknown name is refused.
python3 - "$raw" "$tmp/wo-raw.json" <<'PY' 2>>"$tmp/out"
import json, sys
d = json.load(open(sys.argv[1]))
d["raw"].pop("loop.worker-cpu", None)
json.dump(d, open(sys.argv[2], "w"))
PY
if grep -q '"loop.worker-cpu"' "$raw" &&
   python3 tools/calibrate/calibrate.py $acc --from-raw "$raw" --without loop.worker-cpu \
	--name "$name" --profiles "$tmp/wo-a" >>"$tmp/out" 2>&1 &&
   python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/wo-raw.json" \
	--name "$name" --profiles "$tmp/wo-b" >>"$tmp/out" 2>&1 &&
   grep -v '^#' "$tmp/wo-a/$name.dev" >"$tmp/wo-a.dev" &&
   grep -v '^#' "$tmp/wo-b/$name.dev" >"$tmp/wo-b.dev" &&
   [ -s "$tmp/wo-a.dev" ] && cmp -s "$tmp/wo-a.dev" "$tmp/wo-b.dev" &&
   grep -q '^# Without: loop.worker-cpu ' "$tmp/wo-a/$name.dev" &&
   ! grep -q '^loop_worker_ns' "$tmp/wo-a/$name.dev" &&
   ! python3 tools/calibrate/calibrate.py --from-raw "$raw" --without no.such-bench \
	--profiles "$tmp/wo-c" >"$tmp/wo-err" 2>&1 &&
   grep -q 'no such benchmark' "$tmp/wo-err"; then
	ok "calibrate.py --without leaves a benchmark out of every fit and names it"
else
	cat "$tmp/wo-err" >>"$tmp/out" 2>/dev/null
	not_ok "calibrate.py --without"
fi

# --without holds for the pooled files too (session 24's review: it was
# applied to the first file before --pool, so a pooled round brought the
# benchmark back): the raw file pooled with itself, without the loop
# worker, gives the single file's figures (the same medians) and no
# loop_worker line.
if grep -q '"loop.worker-cpu"' "$raw" &&
   python3 tools/calibrate/calibrate.py $acc --from-raw "$raw" --pool "$raw" \
	--without loop.worker-cpu --name "$name" --profiles "$tmp/wo-p" \
	>>"$tmp/out" 2>&1 &&
   for f in wo-a/$name.dev wo-a/$name.cpu wo-p/$name.dev wo-p/$name.cpu; do
	grep -v '^#' "$tmp/$f" | sed 's/[[:space:]]*#.*//' \
		>"$tmp/$(echo "$f" | tr / -).v" || exit 1
   done &&
   [ -s "$tmp/wo-a-$name.dev.v" ] &&
   cmp -s "$tmp/wo-a-$name.dev.v" "$tmp/wo-p-$name.dev.v" &&
   cmp -s "$tmp/wo-a-$name.cpu.v" "$tmp/wo-p-$name.cpu.v" &&
   ! grep -q '^loop_' "$tmp/wo-p/$name.dev"; then
	ok "calibrate.py --without holds for --pool's files"
else
	diff "$tmp/wo-a-$name.dev.v" "$tmp/wo-p-$name.dev.v" >>"$tmp/out" 2>&1
	not_ok "calibrate.py --without with --pool"
fi

# The CPU figures of a traced fio run (_fio_path_cpu, shared by
# loop.worker-cpu and loop.depth-cpu since session 24): per I/O, the
# CPUs' busy ticks, fio's own CPU and the path's threads' schedstat time,
# from a made-up run of 1 000 writes (fio's header line before the JSON).
if python3 - >"$tmp/out" 2>&1 <<'PY'
import json, sys, types
sys.path.insert(0, "tools/calibrate")
import calibrate as c
job = {"usr_cpu": 10.0, "sys_cpu": 30.0, "job_runtime": 2000,
       "write": {"total_ios": 1000, "iops": 500.0},
       "read": {"total_ios": 0, "iops": 0.0}}
r = types.SimpleNamespace(stdout="note: x\n" + json.dumps({"jobs": [job]}))
dd, out = c._fio_path_cpu(r, "write", 100, 300, 5e8, 9e8, 100)
# fio: 40% of 2 000 ms = 800 ms over 1 000 writes; busy 200 ticks at 100 Hz.
assert dd["iops"] == 500.0, dd
assert out == {"ios": 1000, "busy_ns": 2e6, "fio_ns": 8e5,
               "path_ns": 1.2e6}, out
dd, out = c._fio_path_cpu(r, "read", 0, 0, 0, 0, 100)
assert out["ios"] == 1 and out["fio_ns"] == 8e8, out   # no I/O: one
PY
then
	ok "_fio_path_cpu: a traced run's CPU per I/O"
else
	cat "$tmp/out"
	not_ok "_fio_path_cpu"
fi

# tools/calibrate/sitting.sh (session 24): the calibration set and the grid
# alternate round by round, each round's files pooled, the profile from
# the calibration rounds alone, the pooled grid modelled with it; with a
# failed pooled calibration no model run and exit 1; a bad count exit 2.
# The two scripts are stand-ins that log their arguments and write the
# files they are asked for.
mkdir -p "$tmp/sit"
cat >"$tmp/sit/fake" <<'SH'
#!/bin/sh
echo "$(basename "$0") $*" >>"$SIT_LOG"
prev=
for x in "$@"; do
	case $prev in --out-raw|--out) echo '{}' >"$x" ;; esac
	[ "$prev" = pool ] && echo '{}' >"$x"
	prev=$x
done
# validate.py pool refuses fewer than two files
case " $* " in *" pool "*) [ $# -ge 4 ] || exit 1 ;; esac
case " $* " in *" --from-raw "*) [ -z "${SIT_FAIL:-}" ] || exit 1 ;; esac
exit 0
SH
chmod +x "$tmp/sit/fake"
ln -sf fake "$tmp/sit/cal"
ln -sf fake "$tmp/sit/val"
SIT_LOG=$tmp/sit/log; export SIT_LOG
if CALIBRATE_PY=$tmp/sit/cal VALIDATE_PY=$tmp/sit/val \
	sh tools/calibrate/sitting.sh --rounds 2 --name sitx \
	--without loop.worker-cpu --out "$tmp/sit/o" >"$tmp/out" 2>&1 &&
   awk '{print $1}' "$tmp/sit/log" | tr '\n' ' ' |
	grep -qx 'cal val cal val val cal val ' &&
   sed -n 1p "$tmp/sit/log" | grep -q -- '--only default --reps 1 --out-raw .*-r1\.json$' &&
   sed -n 2p "$tmp/sit/log" | grep -q -- 'run .*--reps 1 --profiles none --anchor-reps 0 --out .*-r1\.json$' &&
   sed -n 5p "$tmp/sit/log" | grep -q -- 'pool .*[0-9]\.json .*-r1\.json .*-r2\.json$' &&
   sed -n 6p "$tmp/sit/log" | grep -q -- '--from-raw .*-r1\.json --name sitx --profiles profiles/calibrated --pool .*-r2\.json --without loop.worker-cpu$' &&
   sed -n 7p "$tmp/sit/log" | grep -q -- 'remodel .*[0-9]\.json .*--profiles sitx$' &&
   : >"$tmp/sit/log" &&
   ! SIT_FAIL=1 CALIBRATE_PY=$tmp/sit/cal VALIDATE_PY=$tmp/sit/val \
	sh tools/calibrate/sitting.sh --rounds 1 --out "$tmp/sit/o" \
	>"$tmp/out2" 2>&1 &&
   ! grep -q remodel "$tmp/sit/log" &&
   grep -q 'wrote no profile from the calibration rounds' "$tmp/out2" &&
   : >"$tmp/sit/log" && rm -rf "$tmp/sit/o" &&
   CALIBRATE_PY=$tmp/sit/cal VALIDATE_PY=$tmp/sit/val \
	sh tools/calibrate/sitting.sh --rounds 1 --out "$tmp/sit/o" \
	>"$tmp/out2" 2>&1 &&
   ! grep -q ' pool ' "$tmp/sit/log" &&
   grep -q -- 'remodel .*[0-9]\.json ' "$tmp/sit/log" &&
   [ "$(ls "$tmp/sit/o" | grep -c 'T[0-9]*\.json$')" -eq 1 ] &&
   { sh tools/calibrate/sitting.sh --rounds x >"$tmp/out3" 2>&1; [ $? -eq 2 ]; } &&
   grep -q "expected a positive count, found 'x'" "$tmp/out3" &&
   { sh tools/calibrate/sitting.sh --rounds 00 >"$tmp/out3" 2>&1; [ $? -eq 2 ]; } &&
   { sh tools/calibrate/sitting.sh --out "$tmp/a b" >"$tmp/out3" 2>&1; [ $? -eq 2 ]; } &&
   grep -q "without spaces" "$tmp/out3"; then
	ok "sitting.sh: calibration and grid rounds alternate, pooled, then modelled"
else
	cat "$tmp/out" "$tmp/sit/log" "$tmp/out2" "$tmp/out3" 2>/dev/null
	not_ok "sitting.sh"
fi

# --only default: every benchmark of a whole calibration (not ON_ASK); an
# unknown name is refused (before session 24 it ran nothing, silently).
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
names = c.only_names("default")
assert names == [b[0] for b in c.BENCHES if b[0] not in c.ON_ASK], names
assert not set(names) & set(c.ON_ASK) and len(names) > 10, names
assert c.only_names(None) is None and c.only_names("") is None
assert c.only_names("dio.qd1-write") == ["dio.qd1-write"]
try:
    c.only_names("no.such-bench")
    raise AssertionError("an unknown name was accepted")
except SystemExit as e:
    assert e.code == 2, e.code     # bad input: exit 2, said on stderr
PY
then
	ok "calibrate.py --only default names a whole calibration's benchmarks"
else
	cat "$tmp/out"
	not_ok "calibrate.py --only default"
fi

# --wake-preempt (session 24, h24-preempt): the CPU profile gets
# wake_preempt_ns = 1 with its source and nothing else changes; without
# it no line (default.cpu's 0, off); the profile runs, and the figure
# reaches the engine: a QD32 O_DIRECT job (the worker of the loop device,
# the job's wake-ups by its completions) runs another schedule with it.
qd32="--name=q --rw=randwrite --bs=4k --direct=1 --ioengine=libaio --iodepth=32 --size=64m --overwrite=1 --time_based --runtime=20ms"
if python3 tools/calibrate/calibrate.py $acc --from-raw "$raw" \
	${sup:+--supplement "$sup"} --wake-preempt \
	--name "$name" --profiles "$tmp/wp-on" >>"$tmp/out" 2>&1 &&
   python3 tools/calibrate/calibrate.py $acc --from-raw "$raw" \
	${sup:+--supplement "$sup"} \
	--name "$name" --profiles "$tmp/wp-off" >>"$tmp/out" 2>&1 &&
   grep -q '^wake_preempt_ns = 1	# \[source\] kernel/sched/fair.c check_preempt_wakeup_fair, v6.18' "$tmp/wp-on/$name.cpu" &&
   ! grep -q '^wake_preempt_ns' "$tmp/wp-off/$name.cpu" &&
   grep -v '^wake_preempt_ns' "$tmp/wp-on/$name.cpu" | cmp -s - "$tmp/wp-off/$name.cpu" &&
   cmp -s "$tmp/wp-on/$name.dev" "$tmp/wp-off/$name.dev" &&
   # shellcheck disable=SC2086 # qd32 is words
   "$wpsim" fio --device="$tmp/wp-on/$name.dev" --cpu-profile="$tmp/wp-on/$name.cpu" \
	--cpus=2 $qd32 --output-format=json >"$tmp/wp-on.json" 2>>"$tmp/out" &&
   # shellcheck disable=SC2086
   "$wpsim" fio --device="$tmp/wp-off/$name.dev" --cpu-profile="$tmp/wp-off/$name.cpu" \
	--cpus=2 $qd32 --output-format=json >"$tmp/wp-off.json" 2>>"$tmp/out" &&
   ! cmp -s "$tmp/wp-on.json" "$tmp/wp-off.json"; then
	ok "calibrate.py --wake-preempt writes wake_preempt_ns = 1 with its source, nothing else; the model runs another schedule with it"
else
	not_ok "calibrate.py --wake-preempt"
fi

# --wake-preempt=none (session 25, h25-preempt): wake_preempt_ns = 1 and
# wake_preempt_mode = 1, each with its source, nothing else; the mode
# reaches the engine: the same QD32 job runs another schedule than with
# --wake-preempt (full: the holder yields at its next point).
if python3 tools/calibrate/calibrate.py $acc --from-raw "$raw" \
	${sup:+--supplement "$sup"} --wake-preempt=none \
	--name "$name" --profiles "$tmp/wp-none" >>"$tmp/out" 2>&1 &&
   grep -q '^wake_preempt_ns = 1	# \[source\] kernel/sched/fair.c check_preempt_wakeup_fair, v6.18' "$tmp/wp-none/$name.cpu" &&
   grep -q '^wake_preempt_mode = 1	# \[source\] preempt=none (--wake-preempt=none; CONFIG_PREEMPT_NONE=y' "$tmp/wp-none/$name.cpu" &&
   grep -v '^wake_preempt_mode' "$tmp/wp-none/$name.cpu" | cmp -s - "$tmp/wp-on/$name.cpu" &&
   cmp -s "$tmp/wp-none/$name.dev" "$tmp/wp-on/$name.dev" &&
   # shellcheck disable=SC2086 # qd32 is words
   "$wpsim" fio --device="$tmp/wp-none/$name.dev" --cpu-profile="$tmp/wp-none/$name.cpu" \
	--cpus=2 $qd32 --output-format=json >"$tmp/wp-none.json" 2>>"$tmp/out" &&
   ! cmp -s "$tmp/wp-none.json" "$tmp/wp-on.json"; then
	ok "calibrate.py --wake-preempt=none writes wake_preempt_mode = 1 with its source beside wake_preempt_ns = 1, nothing else; the model runs another schedule with it"
else
	not_ok "calibrate.py --wake-preempt=none"
fi

# `make sitting` passes its variables to sitting.sh (session 24's review):
# the recipe as make would run it (make -n), joined.
line=$(make -n -C . sitting BUILD=b SIT_ACCEPT=1 VAL_ROWS=ext4 2>/dev/null |
	tr -d '\\\n' | tr -s ' \t' ' ' | grep -o 'tools/calibrate/sitting.sh.*')
if echo "$line" | grep -q -- '--build b ' &&
   echo "$line" | grep -q -- '--without loop.worker-cpu' &&
   echo "$line" | grep -q -- '--accept-mode-change' &&
   echo "$line" | grep -q -- "--rows 'ext4'" &&
   echo "$line" | grep -q -- '--rounds 3'; then
	ok "make sitting: the variables reach sitting.sh"
else
	echo "# $line"
	not_ok "make sitting's recipe"
fi

# The virtio ring below the loop device (session 24, h24-merge):
# read_below reads the disk under the backing file's sysfs (a tree made
# here), virtio_ring gives twice its tags without indirect descriptors
# (feature bit 28) and nothing with them or with virtio_blk's
# queue_depth parameter set; _ring_trips packs a write's requests into
# ring fills; a raw file holding the figures gives the profile the
# three keys and a seg_write_ns less the extra fill, and the profile
# runs in the model.
mkdir -p "$tmp/below/block/vda/mq/0" "$tmp/below/block/vda/queue" "$tmp/below/block/vda/dev" \
	"$tmp/below/module/virtio_blk/parameters"
echo 128 >"$tmp/below/block/vda/mq/0/nr_tags"
echo 4096 >"$tmp/below/block/vda/queue/max_sectors_kb"
echo 254 >"$tmp/below/block/vda/queue/max_segments"
echo 'none [mq-deadline] kyber' >"$tmp/below/block/vda/queue/scheduler"
echo 0010001001100100000000000000010010000000 >"$tmp/below/block/vda/dev/features"
echo 0 >"$tmp/below/module/virtio_blk/parameters/queue_depth"
ln -s dev "$tmp/below/block/vda/device"
if python3 - "$tmp/below" >>"$tmp/out" 2>&1 <<'PY' &&
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as C
root = sys.argv[1]
real = C.os.path.realpath
C.os.path.realpath = lambda p: root + "/x/virtio_blk" if p.endswith("/device/driver") else real(p)
sf = C.read_below("loop0", "vda", root)
assert sf["below/driver"] == "virtio_blk" and sf["below/nr_tags"] == "128", sf
assert C.read_below("vda", "vda", root) == {}
assert C.virtio_ring(sf) == (256, 4096, 254), C.virtio_ring(sf)
ind = dict(sf, **{"below/features": sf["below/features"][:28] + "1" + sf["below/features"][29:]})
assert C.virtio_ring(ind) is None
assert C.virtio_ring(dict(sf, **{"below/queue_depth_param": "64"})) is None
assert [C._ring_trips(p, 128, 256) for p in (256, 16, 128, 129, 384)] == [2, 1, 1, 1, 3]
assert C._ring_trips(256, 128, None) == 1 and C._ring_trips(256, 32, 256) == 2
print("read_below ok")
PY
   python3 - "$raw" "$tmp/ring-raw.json" >>"$tmp/out" 2>&1 <<'PY' &&
import json, sys
d = json.load(open(sys.argv[1]))
d["meta"]["sysfs"].update({"below/driver": "virtio_blk", "below/disk": "vda",
    "below/nr_tags": "128", "below/max_sectors_kb": "4096",
    "below/max_segments": "254", "below/scheduler": "none [mq-deadline] kyber",
    "below/queue_depth_param": "0",
    "below/features": "0010001001100100000000000000010010000000"})
json.dump(d, open(sys.argv[2], "w"))
PY
   mkdir -p "$tmp/pring" &&
   python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/ring-raw.json" \
	${sup:+--supplement "$sup"} ${wo:+--without "$wo"} \
	--name "$name" --profiles "$tmp/pring" >>"$tmp/out" 2>&1 &&
   grep -q "^virtio_ring_descs = 256	# \[sysfs\] 2 x vda's mq/0/nr_tags" "$tmp/pring/$name.dev" &&
   grep -q "^virtio_max_sectors_kb = 4096	" "$tmp/pring/$name.dev" &&
   grep -q "^virtio_max_segments = 254	" "$tmp/pring/$name.dev" &&
   grep -q "^seg_write_ns = [0-9]*	.* - 1 ring fill(s) of [0-9]* ns (the virtio ring of 256 descriptors below: 2 / 1 fills)" "$tmp/pring/$name.dev" &&
   ! grep -q "^virtio_ring_descs" "$cal/$name.dev" &&
   s0=$(sed -n 's/^seg_write_ns = \([0-9]*\).*/\1/p' "$cal/$name.dev") &&
   s1=$(sed -n 's/^seg_write_ns = \([0-9]*\).*/\1/p' "$tmp/pring/$name.dev") &&
   [ "$s1" -lt "$s0" ] &&
   "$wpsim" fio --device="$tmp/pring/$name.dev" --cpu-profile="$tmp/pring/$name.cpu" \
	--cpus=2 --name=w --rw=write --bs=1m --direct=1 --ioengine=libaio \
	--iodepth=4 --size=64m --io_size=16m >>"$tmp/out" 2>&1 &&
   python3 tools/calibrate/calibrate.py $acc --from-raw "$tmp/ring-raw.json" \
	${sup:+--supplement "$sup"} --without "${wo:+$wo,}virtio.ring" \
	--name "$name" --profiles "$tmp/pnoring" >>"$tmp/out" 2>&1 &&
   ! grep -q "^virtio_ring_descs" "$tmp/pnoring/$name.dev" &&
   grep -q "^# Without: ${wo:+$wo, }virtio.ring " "$tmp/pnoring/$name.dev" &&
   [ "$(sed -n 's/^seg_write_ns = \([0-9]*\).*/\1/p' "$tmp/pnoring/$name.dev")" = "$s0" ]; then
	ok "the virtio disk below gives virtio_ring_descs and the disk's limits, seg_write_ns less a ring fill ($s0 -> $s1 ns), the profile runs, and --without virtio.ring leaves it out"
else
	not_ok "the virtio ring below the loop device"
fi

# fs.log-force-cmds (since session 25, h25-log): the loop device's four
# commands of a log force timed from a made-up trace in tracefs's text:
# one fdatasync of the log force's shape whose PREFLUSH made the disk
# below write (a journal commit), one whose FLUSHes are bare, and one of
# another shape (an overwrite's: write, FLUSH) that is counted apart.
if python3 - >"$tmp/out" 2>&1 <<'PY'
import sys
sys.path.insert(0, "tools/calibrate")
import calibrate as c
def ev(t_us, what, pid=100, comm="fio"):
    return "%16s-%-5d [000] ..... %d.%06d: %s" % (
        comm, pid, t_us // 1000000, t_us % 1000000, what)
L, V = "7,0", "254,0"
def cmds(t, commit):
    out = [ev(t, "sys_fdatasync(fd: 7)"),
           ev(t + 5, "block_rq_issue: %s WS 4096 () 8 + 8 be,0,4 [fio]" % L),
           ev(t + 75, "block_rq_complete: %s WS () 8 + 8 be,0,4 [0]" % L),
           ev(t + 100, "block_rq_issue: %s FF 0 () 0 + 0 be,0,4 [fio]" % L)]
    if commit:
        out.append(ev(t + 110, "block_rq_issue: %s WSM 8192 () 64 + 16 be,0,4 [w]" % V, 9))
    out += [ev(t + 150, "block_rq_complete: %s FF () 0 + 0 be,0,4 [0]" % L),
            ev(t + 154, "block_rq_issue: %s WSM 1024 () 96 + 2 be,0,4 [k]" % L),
            ev(t + 214, "block_rq_complete: %s WSM () 96 + 2 be,0,4 [0]" % L),
            ev(t + 218, "block_rq_issue: %s FF 0 () 0 + 0 be,0,4 [k]" % L),
            ev(t + 258, "block_rq_complete: %s FF () 0 + 0 be,0,4 [0]" % L),
            # the flush machinery ends the record's request after its
            # POSTFLUSH: a second completion, not a command
            ev(t + 259, "block_rq_complete: %s WSM () 96 + 2 be,0,4 [0]" % L),
            ev(t + 270, "sys_fdatasync -> 0x0")]
    return out
text = "\n".join(["# tracer: nop"] + cmds(1000000, True) + cmds(2000000, False) + [
    ev(3000000, "sys_fdatasync(fd: 7)"),
    ev(3000005, "block_rq_issue: %s WS 4096 () 8 + 8 be,0,4 [fio]" % L),
    ev(3000075, "block_rq_complete: %s WS () 8 + 8 be,0,4 [0]" % L),
    ev(3000100, "block_rq_issue: %s FF 0 () 0 + 0 be,0,4 [fio]" % L),
    ev(3000150, "block_rq_complete: %s FF () 0 + 0 be,0,4 [0]" % L),
    ev(3000160, "sys_fdatasync -> 0x0")])
t = c.loop_cmd_times(text, L)
assert t["n"] == 2 and t["other"] == 1, t
assert t["cmd"] == {"W": [70000] * 2, "F1": [50000] * 2, "WM": [60000] * 2,
                    "F2": [40000] * 2}, t["cmd"]
assert t["gap"] == [[5000] * 2, [25000] * 2, [4000] * 2, [4000] * 2,
                    [12000] * 2], t["gap"]
assert t["commit"] == {"F1": 1, "F2": 0}, t["commit"]
assert sorted(t["bare"]) == [40000, 40000, 50000], t["bare"]
assert t["sync"] == [270000] * 2, t["sync"]
# The same trace under dev.flush's shape: only the overwrite's call.
t = c.loop_cmd_times(text, L, c.DEV_FLUSH_SHAPE, ("W", "F"))
assert t["n"] == 1 and t["other"] == 2, t
assert t["cmd"] == {"W": [70000], "F": [50000]}, t["cmd"]
assert t["gap"] == [[5000], [25000], [10000]], t["gap"]
assert t["commit"] == {"F": 0} and t["bare"] == [50000], t
assert "fs.log-force-cmds" in c.ON_ASK
PY
then
	ok "loop_cmd_times: a log force's four loop commands and an overwrite's two, and their gaps, from a trace; the FLUSH that committed the backing file's journal told apart"
else
	cat "$tmp/out"
	not_ok "loop_cmd_times"
fi

# dev.flush-paired (session 25, h25-stab): program_ns is each run's median
# of sync - empty - write over its fast-mode rounds (every side within
# PAIRED_FAST x its p10), the median over the runs with PAIRED_MIN_FAST
# such rounds; a run short of them gives none, and a supplement whose runs
# all are falls back to the three benchmarks' medians.  Made-up rounds (a
# test of the arithmetic only, never a profile's): 60 fast rounds with
# differences 10000 + 100 i (median 12950; run C 22950) and 40 with one
# side slow (write 3 ms, sync 9 ms or empty 1 ms in turn), whose
# differences, kept, move the median (the mutation check below: with
# PAIRED_FAST unbounded the figure changes).
if python3 - "$tmp/paired.json" "$tmp/paired-none.json" >"$tmp/out" 2>&1 <<'PY'
import json, sys
sys.path.insert(0, "tools/calibrate")
import calibrate as C
def run(base, fast):
    r = [[80000, 190000 + base + 100 * i, 100000] for i in range(fast)]
    for j in range(40):
        r.append([[3000000, 190000, 100000], [80000, 9000000, 100000],
                  [80000, 190000, 1000000]][j % 3])
    return {"rounds": r, "sync_p50": 1, "empty_p50": 2, "write_p50": 3,
            "loadavg": 0}
a, b, c = run(0, 60), run(0, 20), run(10000, 60)
assert C.paired_program(a["rounds"]) == (12950, 60), C.paired_program(a["rounds"])
assert C.paired_program(b["rounds"]) == (None, 20)
assert C.paired_program(c["rounds"]) == (22950, 60)
pairs = [[300000 + 1000 * i, 200000] for i in range(40)] + \
    [[5000000, 200000]] * 10
assert C.paired_commit(pairs) == (119500, 40), C.paired_commit(pairs)
assert C.paired_commit(pairs[:29]) == (None, 29)
assert "dev.flush-commit-paired" in C.ON_ASK and "fs.alloc-paired" in C.ON_ASK
C.PAIRED_FAST = 1e9     # the mutation: no fast-mode filter
assert C.paired_program(a["rounds"])[0] != 12950, "the filter is untested"
assert C.paired_commit(pairs)[0] != 119500, "the filter is untested"
meta = {"date": "test", "load": "0"}
json.dump({"meta": meta, "raw": {"dev.flush-paired": {"what": "test",
           "runs": [a, b, c]}}}, open(sys.argv[1], "w"))
json.dump({"meta": meta, "raw": {"dev.flush-paired": {"what": "test",
           "runs": [b]}}}, open(sys.argv[2], "w"))
PY
   with_supplement "$raw" "$tmp/paired.json" "$tmp/pp" &&
   grep -q "^program_ns = 17950	# \[derived\] dev.flush-paired: the median over runs of the fast-mode rounds' median" "$tmp/pp/$name.dev" &&
   grep -q "^# dev.flush-paired, each run's median .*: 12950 (60) / - (20) / 22950 (60); " "$tmp/pp/$name.dev" &&
   with_supplement "$raw" "$tmp/paired-none.json" "$tmp/pn" &&
   grep -q "^program_ns = [0-9]*	# \[derived\] dev.flush sync p50" "$tmp/pn/$name.dev" &&
   grep -q "^# dev.flush-paired: no run has 30 fast-mode rounds (each run's: - (20)): program_ns from the benchmarks' medians" "$tmp/pn/$name.dev" &&
   "$wpsim" fio --device="$tmp/pp/$name.dev" --cpu-profile="$tmp/pp/$name.cpu" \
	--name=w --rw=randwrite --bs=4k --size=64k --io_size=64k \
	--fdatasync=4 >>"$tmp/out" 2>&1; then
	ok "dev.flush-paired sets program_ns from the fast-mode rounds of each run (17950 ns), a run short of them gives none, and without one the medians' difference stands; dev.flush-commit-paired's fast pairs (on ask, no figure)"
else
	cat "$tmp/pp/$name.dev" >>"$tmp/out" 2>/dev/null
	not_ok "dev.flush-paired's program_ns"
fi

tap_end
