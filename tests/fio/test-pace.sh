#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-pace.sh WPSIM SOURCE-ROOT - fio's pacing, flows and
# random distributions in `wpsim fio` (TAP; tools/wpsim/fio-rate.c):
# bad values are file:line:col errors (exit 2) and fio's own refusals
# errors; rate and rate_iops (linear, poisson) set the job's IOPS and
# bandwidth on the virtual clock; thinktime and thinktime_blocks add
# their time; a flow keeps its jobs' I/O in their weights' ratio; a
# rate_min that is not met fails the job as fio does; zoned and
# zoned_abs keep every offset in their zones and zipf concentrates
# them; the options with no effect print their note; the same command
# twice prints the same bytes.  Every figure is virtual time, exact by
# construction: no wall time is measured.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
out2=$(mktemp)
err=$(mktemp)
log=$(mktemp -u)
trap 'rm -f "$out" "$out2" "$err" "$log"' EXIT
. tests/lib/tap.sh
tap_diag="$err $out"
# The system's python3 (a version manager's shim costs seconds a call).
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

# bad NAME EXIT PATTERN -- ARGS: exit EXIT and stderr matching PATTERN.
bad() {
	name=$1 want=$2 pattern=$3
	shift 4
	"$wpsim" fio --name=p --ioengine=null --rw=read --bs=4k --size=64k \
		"$@" >"$out" 2>"$err"
	got=$?
	if [ "$got" -eq "$want" ] && grep -q -e "$pattern" "$err"; then
		ok "$name"
	else
		not_ok "$name (exit $got)"
	fi
}

bad "rate=1q points at the q" 2 \
	'^<command line>:[0-9]*:9: error: expected an integer for rate' \
	-- --rate=1q
bad "rate: at most read,write,trim" 2 \
	'error: expected at most 3 values (read,write,trim) for rate' \
	-- --rate=1k,1k,1k,1k
bad "rate_process=bursty" 2 \
	'error: expected rate_process value (linear, poisson)' \
	-- --rate_process=bursty
bad "thinktime=5q" 2 'error: expected a time for thinktime' \
	-- --thinktime=5q
bad "flow above fio's FLOW_MAX_WEIGHT" 2 \
	'error: expected flow in 0..1000, found 1001' -- --flow=1001
bad "zipf's theta 1" 2 "error: expected zipf's theta other than 1" \
	-- --rw=randread --random_distribution=zipf:1
bad "pareto's h 1.5" 2 "error: expected pareto's h in (0, 1)" \
	-- --rw=randread --random_distribution=pareto:1.5
bad "zones that add up to 80%" 2 \
	'error: expected zones whose access percentages add up to 100' \
	-- --rw=randread --random_distribution=zoned:50/5:30/15
bad "an unknown distribution" 2 \
	'error: expected random_distribution value (random, zipf' \
	-- --random_distribution=uniform
bad "numa_mem_policy=bind without nodes" 2 \
	'error: expected default, local, prefer:N, bind:LIST' \
	-- --numa_mem_policy=bind
bad "rate and rate_iops exclude each other (fio's fixup_options)" 2 \
	"rate and rate_iops (rate_min and rate_iops_min) are mutually" \
	-- --rate=1m --rate_iops=10
bad "rate_min above rate" 2 "rate_min (rate_iops_min) above rate" \
	-- --rate=1m --rate_min=2m

# json FIELD... -- ARGS: run, then print jobs[0]'s FIELDs (read.iops ...)
json() {
	fields=
	while [ "$1" != "--" ]; do fields="$fields $1"; shift; done
	shift
	"$wpsim" fio --output-format=json "$@" >"$out" 2>"$err" || return 1
	"$py" - "$out" $fields <<'EOF'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
vals = []
for f in sys.argv[2:]:
    j, path = (int(f.split(":")[0]), f.split(":")[1]) if ":" in f else (0, f)
    v = jobs[j]
    for k in path.split("."):
        v = v[k]
    vals.append(str(v))
print(" ".join(vals))
EOF
}

# check NAME EXPR VALUES: EXPR (awk, over v[0], v[1] ...) holds.
check() {
	if [ -n "$3" ] && awk -v s="$3" "BEGIN { n = split(s, a, \" \");
		for (i = 1; i <= n; i++) v[i - 1] = a[i] + 0;
		exit !($2) }"; then
		ok "$1"
	else
		not_ok "$1 (got '$3')"
	fi
}

# ioengine=null time_based, no pacing: fio's own work (FIO_NULL_IO_NS,
# 120 ns per I/O, user time) lets the runtime pass: 100 ms / 120 ns.
v=$(json read.total_ios read.runtime usr_cpu sys_cpu -- --name=n \
	--ioengine=null --rw=read --bs=4k --size=1g --time_based \
	--runtime=100ms)
check "null time_based: 833334 I/Os of 120 ns in 100 ms, all usr" \
	"v[0] == 833334 && v[1] == 100 && v[2] == 100 && v[3] == 0" "$v"

# rate_iops=1000: 1024 null reads, one each virtual ms from 0.
v=$(json read.total_ios read.runtime read.iops -- --name=r --ioengine=null \
	--rw=read --bs=4k --size=4m --rate_iops=1000)
check "rate_iops=1000: 1024 I/Os over 1023 ms" \
	"v[0] == 1024 && v[1] == 1023" "$v"
check "rate_iops=1000: IOPS 1001 (fio's ios / runtime)" \
	"1000 <= v[2] && v[2] <= 1002" "$v"

# rate=1m, psync writes: 256 of 4 KiB in one virtual second.
v=$(json write.total_ios write.bw write.runtime -- --name=w --rw=write \
	--bs=4k --size=1m --rate=1m)
check "rate=1m: 256 writes, bandwidth 1024 KiB/s (±1%)" \
	"v[0] == 256 && 1014 <= v[1] && v[1] <= 1034" "$v"

# rate_process=poisson: the same mean rate, other gaps.
v=$(json read.runtime -- --name=r --ioengine=null --rw=read --bs=4k \
	--size=4m --rate_iops=1000 --rate_process=poisson)
check "poisson at 1000 IOPS: 1024 I/Os in 1024 ms ± 10%, not 1023" \
	"920 <= v[0] && v[0] <= 1130 && v[0] != 1023" "$v"

# rate=R,W on a mixed job: each direction at its own rate.
v=$(json read.iops write.iops -- --name=m --ioengine=null --rw=randrw \
	--bs=4k --size=4m --runtime=2s --rate_iops=200,100)
check "rate_iops=200,100 on randrw: reads 200, writes 100 IOPS (±2%)" \
	"196 <= v[0] && v[0] <= 204 && 98 <= v[1] && v[1] <= 102" "$v"

# thinktime: 1 ms after each I/O; thinktime_blocks=10: after every 10.
v=$(json read.runtime -- --name=t --ioengine=null --rw=read --bs=4k \
	--size=400k --thinktime=1ms)
check "thinktime=1ms: 100 I/Os in 100 ms" "v[0] == 100" "$v"
v=$(json read.runtime -- --name=t --ioengine=null --rw=read --bs=4k \
	--size=400k --thinktime=1ms --thinktime_blocks=10)
check "thinktime_blocks=10: 10 ms" "v[0] == 10" "$v"
v=$(json read.runtime -- --name=t --ioengine=null --rw=read --bs=4k \
	--size=400k --thinktime=2ms --thinktime_spin=1ms)
check "thinktime_spin is part of thinktime: 200 ms" "v[0] == 200" "$v"
v=$(json read.total_ios -- --name=t --ioengine=null --rw=read --bs=4k \
	--size=4m --thinktime=10ms --runtime=100ms)
check "thinktime stops at the runtime: 10 I/Os in 100 ms" \
	"v[0] == 10" "$v"

# A flow: weights 1 and 3, the first paced at 1000 IOPS.
v=$(json 0:read.total_ios 1:read.total_ios -- --runtime=1s \
	--ioengine=null --rw=read --bs=4k --size=1g --flow_id=7 \
	--name=a --flow=1 --rate_iops=1000 --name=b --flow=3)
check "flow=1 and flow=3: the second issues 3x the first" \
	"990 <= v[0] && v[0] <= 1001 && 2.9 <= v[1] / v[0] && v[1] / v[0] <= 3.1" "$v"
# flow_sleep lets a null job run time_based.
v=$(json 0:read.total_ios 1:read.total_ios -- --runtime=10ms --time_based \
	--ioengine=null --rw=read --bs=4k --size=1g --flow_id=1 \
	--flow_sleep=100 --name=a --flow=1 --name=b --flow=2)
check "flow_sleep=100 with time_based null jobs: shares 1:2" \
	"v[0] > 0 && 1.8 <= v[1] / v[0] && v[1] / v[0] <= 2.2" "$v"

# rate_min: a 1 s think time every I/O is far below 1 MiB/s.
"$wpsim" fio --name=slow --rw=write --bs=4k --size=1m --thinktime=1s \
	--rate_min=1m --output-format=json >"$out" 2>"$err"
got=$?
if [ "$got" -ne 0 ] && grep -q "slow: rate_min=1048576B/s not met" "$err" &&
	"$py" -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["jobs"][0]["error"] == 5 else 1)' "$out"; then
	ok "rate_min not met: fio's message, err=5 (EIO)"
else
	not_ok "rate_min not met: fio's message, err=5 (EIO) (exit $got)"
fi

# Offsets of 2048 null reads over 256 blocks (write_iolog v3: time
# file action offset length).  Real fio 3.33 on the same commands
# (2026-12-05, measured once; its draws are its own, so only the shape
# is compared): zoned:100/25 all below 256 KiB; zoned_abs 1864 of 2048
# in the first 64 KiB; zipf:1.2 the 10 hottest blocks 1325 reads;
# random 80 (the random map: each block 8 times).
offsets() {
	rm -f "$log"
	"$wpsim" fio --name=z --ioengine=null --rw=randread --bs=4k \
		--size=1m --io_size=8m --write_iolog="$log" "$@" \
		>"$out" 2>"$err" || return 1
	awk '$3 == "read" { print $4 }' "$log"
}
hot10() {
	sort | uniq -c | sort -rn | awk 'NR <= 10 { t += $1 } END{print t}'
}
v=$(offsets --random_distribution=zoned:100/25 |
	awk 'BEGIN{m=0;n=0}{n++; if ($1 > m) m = $1} END{print n, m}')
check "zoned:100/25: 2048 reads, all in the first 256 KiB" \
	"v[0] == 2048 && v[1] < 262144" "$v"
v=$(offsets --random_distribution=zoned_abs:90/64k:10/960k |
	awk '{n++; if ($1 < 65536) lo++} END{print n, lo}')
check "zoned_abs:90/64k:10/960k: about 90% in the first 64 KiB" \
	"v[0] == 2048 && 1750 <= v[1] && v[1] <= 1930" "$v"
bad "zoned_abs needs each zone's size (fio: split conversion failed)" 2 \
	"expected A/SIZE in random_distribution" \
	-- --rw=randread --random_distribution=zoned_abs:90/64k:10/
v=$(offsets --random_distribution=zipf:1.2 | hot10)
check "zipf:1.2: the 10 hottest of 256 blocks take over half the reads" \
	"1100 <= v[0] && v[0] <= 1550" "$v"
v=$(offsets --random_distribution=random | hot10)
check "random: the random map, every block 8 times (fio: 80 too)" \
	"v[0] == 80" "$v"

# log_prio=1: the prio column as fio 3.33 prints it then.
rm -f "$log"_clat.1.log
"$wpsim" fio --name=l --rw=write --bs=4k --size=16k \
	--write_lat_log="$log" --log_prio=1 >"$out" 2>"$err"
if [ "$(awk -F', ' '{print $5}' "$log"_clat.1.log | sort -u)" = 0x0000 ]; then
	ok "log_prio=1: the prio column is 0x0000"
else
	not_ok "log_prio=1: the prio column is 0x0000"
fi
rm -f "$log"_*.log

# exitall: the first job's end (10 I/Os, 1 ms apart) ends the other.
v=$(json 0:read.total_ios 1:read.total_ios -- --ioengine=null --rw=read \
	--bs=4k --size=1g --exitall --name=a --number_ios=10 \
	--thinktime=1ms --name=b --rate_iops=1000 --runtime=1s)
check "exitall: the paced job ends with the first (10 ms: 10 or 11 I/Os)" \
	"v[0] == 10 && 10 <= v[1] && v[1] <= 11" "$v"

# Options with no effect: accepted, and a note says so.
"$wpsim" fio --name=n --ioengine=null --rw=read --bs=4k --size=64k \
	--numa_cpu_nodes=0-1 --numa_mem_policy=interleave:0-1 --threads=4 \
	>"$out" 2>"$err"
if [ $? -eq 0 ] &&
	grep -q "note: job 'n': numa_cpu_nodes has no effect: the model has no NUMA" "$err" &&
	grep -q "note: job 'n': numa_mem_policy has no effect" "$err" &&
	grep -q "note: job 'n': threads has no effect: it is fio's tiobench" "$err"; then
	ok "numa_cpu_nodes, numa_mem_policy, threads: a note each"
else
	not_ok "numa_cpu_nodes, numa_mem_policy, threads: a note each"
fi

# Deterministic: a paced, distributed, flowing run twice (stdout compared:
# stderr may carry ASan's warning with its pid in the sanitizer tier).
set -- --output-format=json --ioengine=null --rw=randrw --bs=4k \
	--size=1m --runtime=50ms --flow_id=1 --rate_process=poisson \
	--random_distribution=pareto:0.3 --name=a --flow=2 --rate_iops=3000 \
	--name=b --flow=1 --thinktime=100us
"$wpsim" fio "$@" >"$out" 2>"$err"
"$wpsim" fio "$@" >"$out2" 2>"$err"
if cmp -s "$out" "$out2" && grep -q '"total_ios"' "$out"; then
	ok "the same paced run twice: the same bytes"
else
	not_ok "the same paced run twice: the same bytes"
fi

tap_end
