#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-depth.sh WPSIM SOURCE-ROOT - the depth fio keeps in flight
# (TAP; issue 29, sixth part): ioengine=posixaio with iodepth > 1 (glibc's
# one helper thread per file, running the queued requests in order:
# tools/wpsim/fio-engines.c) and latency_target, latency_window,
# latency_percentile, latency_run (fio 3.33 io_u.c lat_target_*:
# tools/wpsim/fio-rate.c); and blockalign (random offsets b * ba).  Every figure is virtual time, exact by
# construction: no wall time is measured.  Seconds.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
scratch=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$scratch"' EXIT
. tests/lib/tap.sh
tap_diag="$out"
tap_diag_lines=30
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

. tests/lib/fio-expect.sh

# json FILE EXPR: EXPR of the first job's JSON (j), printed.
json() {
	$py -c "import json,sys; d=json.load(open(sys.argv[1])); \
j=d['jobs'][0]; print($2)" "$1"
}

# run OUT -- ARGS: wpsim fio's JSON into OUT (stderr into $out); the exit.
run() {
	o=$1
	shift 2
	(cd "$scratch" && "$wpsim" fio --output-format=json "$@") >"$o" \
		2>"$out"
}

# --- posixaio with iodepth > 1 --------------------------------------------
# fio's t/jobs/t0017.fio: 1 MiB read at iodepth 16; fio 3.33 reads 256
# blocks, and its test checks mean(slat) + mean(clat) = mean(lat).
if run "$scratch/p16.json" -- --name=test --ioengine=posixaio --size=1M \
	--iodepth=16 &&
   [ "$(json "$scratch/p16.json" "j['read']['total_ios']")" = 256 ] &&
   [ "$(json "$scratch/p16.json" "abs(j['read']['slat_ns']['mean'] + \
j['read']['clat_ns']['mean'] - j['read']['lat_ns']['mean']) < 1")" = True ]
then
	ok "posixaio iodepth=16 (t0017): 256 reads, slat + clat = lat"
else
	not_ok "posixaio iodepth=16 (t0017)"
fi
# The queue changes when each request runs, not which: the offsets in
# the iolog are the same at depth 8 as at depth 1.
for d in 1 8; do
	rm -f "$scratch/io$d.log"
	run "$scratch/w$d.json" -- --name=w --ioengine=posixaio \
		--rw=randwrite --size=256k --iodepth=$d \
		--write_iolog="io$d.log"
	awk '$3 == "write" { print $4, $5 }' "$scratch/io$d.log" \
		>"$scratch/off$d"
done
if [ -s "$scratch/off1" ] && cmp -s "$scratch/off1" "$scratch/off8"; then
	ok "posixaio: depth 8 writes the offsets of depth 1, in their order"
else
	not_ok "posixaio: depth 8 and depth 1 offsets differ"
fi
# glibc's helper runs one request at a time: at depth 8 a request waits
# behind the seven queued before it, so clat is about eight times depth
# 1's.
c1=$(json "$scratch/w1.json" "j['write']['clat_ns']['mean']")
c8=$(json "$scratch/w8.json" "j['write']['clat_ns']['mean']")
if $py -c "import sys; sys.exit(not (6 < $c8 / $c1 < 10))"; then
	ok "posixaio: clat at depth 8 is 6-10x depth 1's ($c8 / $c1 ns)"
else
	not_ok "posixaio: clat at depth 8 / depth 1 = $c8 / $c1 ns"
fi
expect "posixaio iodepth > 1 on two files: an error naming it" 2 \
	"error: job 't': ioengine=posixaio with iodepth > 1 is modelled for one file" \
	-- --name=t --ioengine=posixaio --iodepth=4 --rw=write --size=64k \
	--filename=a:b
expect "posixaio iodepth > 1 with fsync=: an error (aio_fsync)" 2 \
	"error: job 't': ioengine=posixaio with iodepth > 1" \
	-- --name=t --ioengine=posixaio --iodepth=4 --rw=write --size=64k \
	--fsync=4

# --- latency_target -------------------------------------------------------
expect "latency_percentile=101: an error" 2 \
	"error: expected a percentage in 0..100 for latency_percentile" \
	-- --name=t --ioengine=null --size=64k --latency_percentile=101
expect "latency_target=5q: an error at the q" 2 \
	"^<command line>:[0-9]*:19: error: expected a time for latency_target" \
	-- --name=t --ioengine=null --size=64k --latency_target=5q
expect "latency_target with io_uring: an error naming it" 2 \
	"error: job 't': latency_target with ioengine=io_uring is not modelled" \
	-- --name=t --ioengine=io_uring --size=64k --latency_target=1s
# A target every I/O meets: the depth doubles each window from 1 to the
# iodepth (1, 2, 4, 8, 16), the success step that leaves it at 16 starts
# the final run (the statistics reset), the next one ends the job, well
# before its 64 MiB; fio prints the target in ns, the window in us.
if run "$scratch/lt.json" -- --name=lt --ioengine=libaio --direct=1 \
	--rw=randread --size=64m --iodepth=16 --latency_target=1s \
	--latency_window=2ms &&
   [ "$(json "$scratch/lt.json" "j['latency_depth'], j['latency_target'], \
j['latency_window'], j['latency_percentile']")" = \
     "16 1000000000 2000 100.0" ] &&
   [ "$(json "$scratch/lt.json" "0 < j['read']['total_ios'] < 16384")" = True ]
then
	ok "latency_target met: the depth ramps 1 to 16, the job ends early"
else
	not_ok "latency_target met: $(json "$scratch/lt.json" \
		"j['latency_depth'], j['read']['total_ios']" 2>&1)"
fi
# latency_run: the depth keeps adjusting, so the job runs its size.
if run "$scratch/lr.json" -- --name=lt --ioengine=libaio --direct=1 \
	--rw=randread --size=4m --iodepth=16 --latency_target=1s \
	--latency_window=2ms --latency_run=1 &&
   [ "$(json "$scratch/lr.json" "j['read']['total_ios']")" = 1024 ]; then
	ok "latency_run=1: the job runs its whole size"
else
	not_ok "latency_run=1"
fi
# A target no I/O meets, at latency_percentile 100 (the default): the
# first completion over it at depth 1 fails the job as fio's lat_fatal.
expect "latency_target no I/O meets: ETIMEDOUT at depth 1 (lat_fatal)" 1 \
	"fio: latency of [0-9]+ nsec exceeds specified max \(1000 nsec\): read" \
	-- --name=t --ioengine=libaio --direct=1 --rw=randread --size=1m \
	--iodepth=8 --latency_target=1us
# Without latency_target the JSON says what fio 3.33 says then.
if run "$scratch/no.json" -- --name=n --ioengine=libaio --direct=1 \
	--rw=randread --size=64k --iodepth=4 &&
   [ "$(json "$scratch/no.json" "j['latency_depth'], j['latency_target'], \
j['latency_window'], j['latency_percentile']")" = "4 0 0 100.0" ]; then
	ok "no latency_target: depth 4, target 0, window 0, 100%"
else
	not_ok "no latency_target: latency keys"
fi

# fio's examples/jesd219.fio: 4 jobs at iodepth 256 keep 1024 O_DIRECT
# I/Os in flight, each an engine event (SIM_IDS_LIMIT, 16384 tasks and
# events, include/sim/engine.h; before issue 29 the bound was 1024).
# 4 MiB of 4 KiB reads per job: 4096 reads, all of them issued.
if run "$scratch/j256.json" -- --name=j --ioengine=libaio --direct=1 \
	--rw=randread --size=4m --iodepth=256 --numjobs=4 \
	--group_reporting &&
   [ "$(json "$scratch/j256.json" "j['read']['total_ios'], \
j['iodepth_level']['>=64']")" = "4096 100.0" ]; then
	ok "4 x 256 O_DIRECT I/Os in flight run: 4096 reads at depth >= 64"
else
	not_ok "4 x 256 O_DIRECT I/Os in flight"
	cat "$out"
fi
# Past the engine's bound: an error before the run that names it.
expect "64 x 256 O_DIRECT I/Os in flight: the engine's bound, named" 2 \
	"error: jobs that run at once keep 16384 O_DIRECT I/Os in flight .*SIM_IDS_LIMIT" \
	-- --name=j --ioengine=libaio --direct=1 --rw=randread --size=1m \
	--iodepth=256 --numjobs=64

# --- iodepth_batch (fio 3.33 td_io_queue/td_io_commit, engines/null.c) ---
# Every figure below is fio 3.33's on this machine for the same command
# (issue 29, session 9): on ioengine=null a batch of N is one submission
# and one reap of N at depth N; the rest at the job's end is submitted
# and reaped with no depth mark (cleanup_pending_aio).
# dist OUT KEY: the nonzero buckets of j[KEY], "k=v ..." rounded to 0.01.
dist() {
	$py -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]; \
print(' '.join('%s=%.2f' % (k, v) for k, v in j[sys.argv[2]].items() if v))" \
		"$1" "$2"
}
batch() {
	name=$1 want=$2
	shift 2
	if run "$scratch/b.json" -- --name=b --ioengine=null --size=1m \
		--bs=4k --rw=write "$@"; then
		got="$(dist "$scratch/b.json" iodepth_level) /\
 $(dist "$scratch/b.json" iodepth_submit) /\
 $(dist "$scratch/b.json" iodepth_complete)"
		if [ "$got" = "$want" ]; then
			ok "$name"
		else
			echo "got: $got" >>"$out"
			echo "want: $want" >>"$out"
			not_ok "$name"
		fi
	else
		not_ok "$name (exit)"
	fi
}
batch "null, iodepth 170, no batch: depth 1, one I/O per submit" \
	"1=100.00 / 4=100.00 / 4=100.00" --iodepth=170
batch "null, iodepth_batch=4 (t0009's): depth 4" \
	"4=100.00 / 4=100.00 / 4=100.00" --iodepth=170 --iodepth_batch=4 \
	--iodepth_batch_complete=4
batch "null, iodepth_batch=0: the batch is iodepth (16)" \
	"16=100.00 / 16=100.00 / 16=100.00" --iodepth=16 --iodepth_batch=0
batch "null, iodepth_batch=6: 42 of 6, the last 4 with no depth mark" \
	"4=98.44 / 4=2.33 8=97.67 / 4=2.33 8=97.67" --iodepth=16 \
	--iodepth_batch=6
batch "null, iodepth_batch=40: 6 of 40 at depth 32-63, the last 16" \
	"32=93.75 / 16=14.29 64=85.71 / 16=14.29 64=85.71" --iodepth=100 \
	--iodepth_batch=40
batch "null: reap min/max and iodepth_low change nothing (null's getevents)" \
	"16=100.00 / 16=100.00 / 16=100.00" --iodepth=16 --iodepth_batch=16 \
	--iodepth_batch_complete_min=2 --iodepth_batch_complete_max=8 \
	--iodepth_low=2
expect "iodepth_batch on libaio: an error naming the engine" 2 \
	"iodepth_batch, iodepth_batch_complete_min/max and iodepth_low are modelled on ioengine=null; with ioengine=libaio not" \
	-- --name=b --ioengine=libaio --iodepth=8 --iodepth_batch=4 --size=1m
expect "iodepth_batch on null with fsync: an error naming what" 2 \
	"iodepth_batch on ioengine=null is modelled without syncs" \
	-- --name=b --ioengine=null --iodepth=8 --iodepth_batch=4 --size=1m \
	--fsync=4
# A sync engine runs one I/O at a time (fio's FIO_SYNCIO): no effect.
if run "$scratch/ps.json" -- --name=b --ioengine=psync --iodepth=8 \
	--iodepth_batch=4 --size=64k &&
   [ "$(dist "$scratch/ps.json" iodepth_level)" = "1=100.00" ]; then
	ok "psync with iodepth_batch: depth 1, as fio"
else
	not_ok "psync with iodepth_batch"
fi

# --- blockalign ------------------------------------------------------------
# fio 3.33: random offsets are b * ba (get_next_block); sizes from bssplit.
rm -f "$scratch/ba.log"
if run "$scratch/ba.json" -- --name=b --ioengine=null --rw=randread \
	--size=1m --bssplit=512/50:4k/50 --blockalign=4k --norandommap \
	--write_iolog=ba.log &&
   awk '$3 == "read" { n++; if ($4 % 4096) bad++; if ($5 != 4096) small++;
	off[$4] = 1 } END { for (o in off) u++;
	exit !(n > 0 && !bad && small > 0 && u > 64) }' "$scratch/ba.log"
then
	ok "blockalign=4k: every offset a multiple of 4 KiB, 512-byte I/Os among them"
else
	not_ok "blockalign=4k offsets"
fi
expect "blockalign without norandommap: fio's message, the map off" 0 \
	"^fio: Any use of blockalign= turns off randommap" \
	-- --name=b --ioengine=null --rw=randread --size=64k --bs=512 \
	--blockalign=4k
# blockalign=4k,8k on randrw: each direction in its own ba (fio 3.33
# io_u.c get_next_block: b * ba[ddir], b below the direction's
# last_block); an error before issue 29's h29-misc part.
if (cd "$scratch" && rm -f ba2.log && "$wpsim" fio --name=b \
	--ioengine=null --rw=randrw --size=64k --bs=512 \
	--blockalign=4k,8k --write_iolog=ba2.log >/dev/null 2>&1) &&
   awk '$3 == "read" { r++; if ($4 % 4096) bad++; if ($4 % 8192) odd++ }
	$3 == "write" { w++; if ($4 % 8192) bad++ }
	END { exit !(r > 0 && w > 0 && !bad && odd > 0) }' "$scratch/ba2.log"
then
	ok "blockalign=4k,8k on randrw: reads at 4 KiB multiples, writes at 8 KiB"
else
	not_ok "blockalign=4k,8k on randrw: reads at 4 KiB multiples, writes at 8 KiB"
fi

tap_end
