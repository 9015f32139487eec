#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-iolog-cpus-map.sh WPSIM SOURCE-ROOT - issue 29's
# h29-misc part: read_iolog on ioengine=libaio and io_uring through the
# job runner (tools/wpsim/fio-iolog.c, after fio 3.33 iolog.c: every
# entry in order, its delay, the job's depth and statistics logs), the
# CPU-affinity options (no effect, said; fio's CPU check against the
# modelled --cpus), and fio's random map with directions of different
# block sizes (fio 3.33 filesetup.c init_random_map: rw_min_bs blocks;
# io_u.c last_block, mark_random_map per direction).  TAP.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
scratch=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$scratch"' EXIT
. tests/lib/tap.sh
tap_diag="$out"
tap_diag_lines=30
. tests/lib/fio-expect.sh

# json_get FILE EXPR: a Python expression over the JSON's job 0 (j).
json_get() {
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null
}

# check NAME GOT WANT
check() {
	if [ "$2" = "$3" ]; then
		ok "$1 ($2)"
	else
		echo "got '$2', want '$3'" >>"$out"
		not_ok "$1 (got '$2', want '$3')"
	fi
}

# --- read_iolog on libaio ----------------------------------------------
# A v3 log: 10 writes and 5 reads of 4 KiB on one file; the last entry
# 200 ms after the first I/O (fio's delays: timestamp differences).
{
	echo "fio version 3 iolog"
	echo "0 f add"
	echo "0 f open"
	t=1000
	for k in 0 1 2 3 4 5 6 7 8 9; do
		echo "$t f write $((k * 4096)) 4096"
		t=$((t + 1000))
	done
	for k in 0 1 2 3 4; do
		echo "$t f read $((k * 8192)) 4096"
		t=$((t + 1000))
	done
	echo "201000 f write 0 4096"
	echo "201000 f close"
} >"$scratch/log"
# fio 3.33 on this log (measured, 2026-12-06): at iodepth 4, 11 writes
# and 5 reads issued, 13 completed (40960 and 12288 bytes, 13 clat and
# lat lines, 16 slat lines): fio reaps one event when its queue is full,
# and the 3 still in flight when the log is spent are never reaped
# (read_iolog_get sets td->done, and td_io_getevents returns nothing
# then); at iodepth 128 none is reaped (16 slat lines, no clat line).
aio="--name=job --rw=read --ioengine=libaio --iodepth=4 --read_iolog=log"
# shellcheck disable=SC2086 # $aio is a list of options
(cd "$scratch" && rm -f lat_*.log && "$wpsim" fio $aio \
	--write_lat_log=lat --output-format=json >j.json 2>"$out")
rc=$?
check "read_iolog, libaio: exit" "$rc" 0
check "read_iolog, libaio: the log's writes issued" \
	"$(json_get "$scratch/j.json" 'j["write"]["total_ios"]')" 11
check "read_iolog, libaio: the log's reads issued" \
	"$(json_get "$scratch/j.json" 'j["read"]["total_ios"]')" 5
check "read_iolog, libaio: bytes of the I/Os fio reaps (fio 3.33's)" \
	"$(json_get "$scratch/j.json" '(j["write"]["io_bytes"], j["read"]["io_bytes"])')" \
	"(40960, 12288)"
check "read_iolog, libaio: a clat line per reaped I/O (fio 3.33: 13)" \
	"$(wc -l <"$scratch/lat_clat.1.log" | tr -d ' ')" 13
check "read_iolog, libaio: a slat line per issued I/O (fio 3.33: 16)" \
	"$(wc -l <"$scratch/lat_slat.1.log" | tr -d ' ')" 16
check "read_iolog, libaio: the writes' slat lines (direction 1)" \
	"$(grep -c '^[0-9]*, [0-9]*, 1, 4096, ' "$scratch/lat_slat.1.log")" 11
# fio's delay: the last entry waits until 200 ms after the first I/O.
check "read_iolog, libaio: the log's delays kept (job_runtime >= 200)" \
	"$(json_get "$scratch/j.json" 'j["job_runtime"] >= 200')" True
# shellcheck disable=SC2086
(cd "$scratch" && rm -f lat_*.log && "$wpsim" fio $aio --iodepth=128 \
	--write_lat_log=lat --output-format=json >j1.json 2>"$out")
check "read_iolog, libaio, iodepth 128: none reaped (fio 3.33: 0 clat, 16 slat)" \
	"$(json_get "$scratch/j1.json" 'j["write"]["clat_ns"]["N"] + j["read"]["clat_ns"]["N"]') $(wc -l <"$scratch/lat_slat.1.log" | tr -d ' ')" \
	"0 16"
# shellcheck disable=SC2086
(cd "$scratch" && "$wpsim" fio $aio --replay_no_stall=1 \
	--output-format=json >j2.json 2>"$out")
check "read_iolog, libaio, replay_no_stall: no delay (job_runtime < 200)" \
	"$(json_get "$scratch/j2.json" 'j["job_runtime"] < 200')" True
# io_uring takes the same path.
(cd "$scratch" && "$wpsim" fio --name=job --rw=read --ioengine=io_uring \
	--iodepth=8 --read_iolog=log --output-format=json >j3.json 2>"$out")
check "read_iolog, io_uring: the log's I/Os issued" \
	"$(json_get "$scratch/j3.json" 'j["write"]["total_ios"] + j["read"]["total_ios"]')" 16
# write_iolog of a libaio job, then its replay on libaio: the same count.
(cd "$scratch" && rm -f w.log && "$wpsim" fio --name=pre --rw=write \
	--ioengine=libaio --size=256k --filename=g --write_iolog=w.log \
	>/dev/null 2>"$out" && "$wpsim" fio --name=job --rw=read \
	--ioengine=libaio --iodepth=16 --read_iolog=w.log \
	--output-format=json >j4.json 2>"$out")
check "write_iolog then read_iolog on libaio: 64 writes issued" \
	"$(json_get "$scratch/j4.json" 'j["write"]["total_ios"]')" 64
printf 'fio version 3 iolog\n0 f add\n0 f open\n5 f trim 0 4096\n' \
	>"$scratch/trim.log"
expect "read_iolog, libaio: a trim entry is an error naming it" 2 \
	"trim.log:4:1: error: a trim entry on ioengine=libaio is not modelled" \
	-- --name=job --ioengine=libaio --read_iolog=trim.log
expect "read_iolog, libaio: loops is an error naming it" 2 \
	"with read_iolog on libaio or io_uring the options loops" \
	-- --name=job --ioengine=libaio --read_iolog=log --loops=2

# --- cpus_allowed and the other CPU options ----------------------------
cpu="--name=c --rw=randwrite --size=1m --filename=c --ioengine=libaio
--iodepth=4 --output-format=json"
# shellcheck disable=SC2086
(cd "$scratch" && "$wpsim" fio $cpu >c1.json 2>/dev/null &&
	"$wpsim" fio $cpu --cpus_allowed=0-3 --cpus_allowed_policy=split \
	--cpumask=3 >c2.json 2>"$scratch/c2.err")
# The same output but the "job options" echo (fio lists them there).
if python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for x in (a, b):
    x.pop("time", None); x.pop("timestamp", None)
    x.pop("timestamp_ms", None)
    for j in x["jobs"]:
        j.pop("job options")
sys.exit(a != b)' "$scratch/c1.json" "$scratch/c2.json"; then
	ok "cpus_allowed, cpus_allowed_policy, cpumask: the same output (but the job options' echo)"
else
	diff "$scratch/c1.json" "$scratch/c2.json" | head -20 >"$out"
	not_ok "cpus_allowed, cpus_allowed_policy, cpumask: the same output (but the job options' echo)"
fi
if grep -q "note: job 'c': cpus_allowed has no effect" "$scratch/c2.err"
then
	ok "cpus_allowed: the note says it has no effect"
else
	cp "$scratch/c2.err" "$out"
	not_ok "cpus_allowed: the note says it has no effect"
fi
# shellcheck disable=SC2086
expect "cpus_allowed=0-3 on 2 modelled CPUs: fio 3.33's words" 2 \
	"fio: CPU 2 too large \\(max=1\\), fio: failed parsing cpus_allowed=0-3" \
	-- $cpu --cpus 2 --cpus_allowed=0-3
# shellcheck disable=SC2086
expect "cpumask=4 on 2 modelled CPUs: fio 3.33's words" 2 \
	"fio: CPU 2 too large \\(max=1\\), fio: failed parsing cpumask=4" \
	-- $cpu --cpus 2 --cpumask=4
# shellcheck disable=SC2086
expect "cpus_allowed: a bad list is an error" 2 \
	"expected a CPU list \\(N, N-M, a,b\\) for cpus_allowed" \
	-- $cpu --cpus_allowed=0-x

# --- the random map with bssplit on randrw ------------------------------
# examples/cmdprio-bssplit.fio's split on a 16 MiB file.  fio 3.33
# (measured, 2026-12-06, randseed 101..140, libaio, iodepth 16): 10 to
# 29 I/Os, median 20.5: the byte budget, or an earlier end when a write
# (1 MiB, last_block 16) draws a block a read's 64 KiB bits covered and
# the next free bit is past the writes' last block (fio's map holds
# size / rw_min_bs = 256 bits; get_next_offset: offset past io_size, the
# file done).  Before, the model's map counted the writes' 16 blocks and
# a 1 MiB read marked 16 of them: every seed ended after 3 I/Os.  The
# offsets come from splitmix64, not fio's tausworthe, so the counts are
# compared as a spread: the median within fio's range, none above it.
counts=$(cd "$scratch" && for s in $(seq 101 140); do
	"$wpsim" fio --name=m --rw=randrw --ioengine=libaio --iodepth=16 \
		--size=16m --filename=m --bssplit=64k/40:1024k/60,1024k/100 \
		--randseed="$s" --output-format=json 2>/dev/null |
	python3 -c 'import json, sys
j = json.load(sys.stdin)["jobs"][0]
print(j["read"]["total_ios"] + j["write"]["total_ios"])'
done | sort -n | tr '\n' ' ')
median=$(echo "$counts" | awk '{ print ($20 + $21) / 2 }')
most=$(echo "$counts" | awk '{ print $NF }')
echo "$counts" >"$out"
if awk -v m="$median" -v x="$most" 'BEGIN { exit !(m >= 16 && m <= 24 && x <= 29) }'
then
	ok "randrw with bssplit on 16 MiB, 40 seeds: median $median, most $most (fio 3.33: 20.5, 29)"
else
	not_ok "randrw with bssplit on 16 MiB, 40 seeds: median $median, most $most (fio 3.33: 20.5, 29)"
fi
tap_end
