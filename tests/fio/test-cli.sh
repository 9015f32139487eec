#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-cli.sh FIO-TOOL SOURCE-ROOT - the fio front end as a
# program sees it (TAP): exit codes and error lines, --showcmd, JSON that
# python3 -m json.tool accepts with fio's field names, and output that
# is the same bytes on every run.
tool=$1
root=$2
out=$(mktemp)
out2=$(mktemp)
trap 'rm -f "$out" "$out2"' EXIT
. "$root"/tests/lib/tap.sh
tap_diag="$out"

# expect NAME CODE PATTERN -- ARGS: exit CODE, a line matching PATTERN.
expect() {
	name=$1 code=$2 pattern=$3
	shift 4
	"$tool" "$@" >"$out" 2>&1
	got=$?
	if [ "$got" -ne "$code" ]; then
		not_ok "$name (exit $got, want $code)"
	elif ! grep -q -- "$pattern" "$out"; then
		not_ok "$name (no '$pattern')"
	else
		ok "$name"
	fi
}

expect "seed 000 table 1 line parses" 0 "^job fio .*writethrough=1" -- \
	parse --ioengine=libaio --writethrough=1 --bs=4k --rw=write \
	--iodepth=32 --sync=dsync --file_append=1
expect "unmodelled option: exit 2, named, modelled listed" 2 \
	"^<command line>:2:1: error: expected an option wpsim models (rw, .*found '--gtod_cpu'" -- \
	parse --name=x --gtod_cpu=1
expect "malformed value: exit 2 at its column" 2 \
	"^<command line>:2:7: error: expected an integer for bs .*found 'q'$" -- \
	parse --name=x --bs=4q
printf '[a]\n  rw=trimread\n' >"$out2"
expect "job file error: file:line:col" 2 \
	"^$out2:2:6: error: expected rw value (read, write, rw, readwrite, randread, randwrite, randrw, trim, randtrim, trimwrite, randtrimwrite), found 'trimread'$" -- \
	parse "$out2"
expect "showcmd prints the job file as a command line" 0 \
	"^fio --ioengine=psync --bs=4k --directory=/tmp/wpsim-fio-golden --name=seq --rw=write --size=4m --sync=dsync --name=rand --rw=randwrite --size=4m --fsync=16 $" -- \
	parse --showcmd "$root/tests/fio/jobs/golden-e.fio"

# JSON: valid, and with fio's names where fio tooling reads them.
for fmt in json json+; do
	"$tool" demo --name='q"uote\' --ioengine=libaio --iodepth=4 \
		--rw=randwrite --numjobs=2 --group_reporting --name=r \
		--rw=read --fdatasync=4 --output-format=$fmt >"$out" 2>&1
	if python3 -m json.tool "$out" >/dev/null 2>&1; then
		ok "--output-format=$fmt is valid JSON (python3 -m json.tool)"
	else
		not_ok "--output-format=$fmt is valid JSON (python3 -m json.tool)"
	fi
	if python3 - "$out" "$fmt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
top = ["fio version", "timestamp", "timestamp_ms", "time", "jobs"]
job = ["jobname", "groupid", "error", "job options", "read", "write",
       "trim", "sync", "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf",
       "minf", "iodepth_level", "iodepth_submit", "iodepth_complete",
       "latency_ns", "latency_us", "latency_ms"]
ddir = ["io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime",
        "total_ios", "short_ios", "drop_ios", "slat_ns", "clat_ns",
        "lat_ns", "bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev",
        "bw_samples", "iops_min", "iops_max", "iops_mean", "iops_stddev",
        "iops_samples"]
pct = ["1.000000", "5.000000", "10.000000", "20.000000", "30.000000",
       "40.000000", "50.000000", "60.000000", "70.000000", "80.000000",
       "90.000000", "95.000000", "99.000000", "99.500000", "99.900000",
       "99.950000", "99.990000"]
assert all(k in d for k in top)
assert d["timestamp"] == 0 and d["timestamp_ms"] == 0
assert [j["jobname"] for j in d["jobs"]] == ['q"uote\\', "r"]
for j in d["jobs"]:
    assert all(k in j for k in job), [k for k in job if k not in j]
    for dd in ("read", "write", "trim"):
        assert all(k in j[dd] for k in ddir)
        for lat in ("slat_ns", "clat_ns", "lat_ns"):
            assert set(["min", "max", "mean", "stddev", "N"]) <= \
                set(j[dd][lat])
w = d["jobs"][0]["write"]
assert list(w["clat_ns"]["percentile"]) == pct
assert w["bw"] == w["bw_bytes"] // 1024
assert abs(w["iops"] - 1000.0 * w["total_ios"] / w["runtime"]) < 1e-6
assert ("bins" in w["clat_ns"]) == (sys.argv[2] == "json+")
assert d["jobs"][0]["job options"]["numjobs"] == "2"
PY
	then
		ok "--output-format=$fmt has fio's field names and units"
	else
		not_ok "--output-format=$fmt has fio's field names and units"
	fi
done

"$tool" demo --name=a --rw=randwrite --output-format=json,normal >"$out"
"$tool" demo --name=a --rw=randwrite --output-format=json,normal >"$out2"
if cmp -s "$out" "$out2" && ! grep -q "$(date +%Y)" "$out"; then
	ok "output is the same bytes every run, with no wall-clock date"
else
	not_ok "output is the same bytes every run, with no wall-clock date"
fi

tap_end
