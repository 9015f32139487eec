#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-newer.sh WPSIM SOURCE-ROOT - the options of fio after
# 3.33 that fio's own job files use (issue 29; the corpus is fio 3.42):
# log_window_value (avg, max, both; log_max_value its alias) and
# log_issue_time in the statistics logs' format (fio 3.42 iolog.c
# flush_samples: "time, value[, value1], ddir, bs[, offset], prio[,
# issue]"; the line patterns are those fio's t/run-fio-tests.py checks for
# its t0033 and t0034), and random_distribution=sequence with
# random_sequence_stride (fio 3.42 io_u.c
# __get_next_rand_offset_sequence: the offsets in write_iolog).  TAP.
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

# lines NAME FILE REGEX [MIN]: FILE has at least MIN (1) lines, each
# matching REGEX (grep -E, whole line).
lines() {
	name=$1 file=$scratch/$2 re=$3 min=${4:-1}
	if [ ! -f "$file" ]; then
		ls "$scratch" >"$out"
		not_ok "$name (no $2)"
		return
	fi
	total=$(wc -l <"$file")
	bad=$(grep -Evc -- "^$re\$" "$file")
	if [ "$total" -ge "$min" ] && [ "$bad" -eq 0 ]; then
		ok "$name ($total lines)"
	else
		{ echo "want: $re"; head -5 "$file"; } >"$out"
		not_ok "$name ($total lines, $bad not matching)"
	fi
}

run() {
	rm -f "$scratch"/*.log
	(cd "$scratch" && "$wpsim" fio "$@") >"$out" 2>&1
	rc=$?
	# ASan's swapcontext warning (`make sanitize`) names the pid.
	asan_quiet "$out"
	return $rc
}

d='[0-9]+'
# A small libaio read job, time_based: entries per I/O and per 10 ms.
base="--rw=read --filename=f --size=8k --time_based --runtime=50ms
--ioengine=libaio --iodepth=1"

# --- log_window_value ---------------------------------------------------
# both: "time, avg, max, ddir, 0, prio" (t0033's log_clat.2.log pattern).
# shellcheck disable=SC2086 # $base is a list of options
run --name=j $base --write_lat_log=log --log_avg_msec=10 \
	--log_window_value=both
lines "log_window_value=both: a value1 column in the window's entries" \
	log_clat.1.log "$d, $d, $d, $d, 0, $d" 3
# The window's mean (value) is never above its max (value1).
if awk -F', ' '$2 > $3 { bad = 1 } END { exit bad }' \
	"$scratch/log_clat.1.log" 2>/dev/null; then
	ok "log_window_value=both: value (mean) <= value1 (max)"
else
	head -5 "$scratch/log_clat.1.log" >"$out"
	not_ok "log_window_value=both: value (mean) <= value1 (max)"
fi
# both on a per-I/O log too (fio sets the bit for every log of the job):
# value1 0; with offsets, "time, v, 0, ddir, bs, offset, prio".
# shellcheck disable=SC2086
run --name=j $base --write_iops_log=log --log_window_value=both \
	--log_offset=1
lines "log_window_value=both, per I/O with log_offset: value1 0" \
	log_iops.1.log "$d, 1, 0, 0, 4096, (0|4096), 0" 3
# max and its alias log_max_value=1 give the same file; avg differs.
# shellcheck disable=SC2086
run --name=j $base --write_lat_log=log --log_avg_msec=10 \
	--log_window_value=max
cp "$scratch/log_clat.1.log" "$scratch/max.txt"
# shellcheck disable=SC2086
run --name=j $base --write_lat_log=log --log_avg_msec=10 --log_max_value=1
if cmp -s "$scratch/max.txt" "$scratch/log_clat.1.log"; then
	ok "log_max_value=1 is log_window_value=max"
else
	diff "$scratch/max.txt" "$scratch/log_clat.1.log" >"$out"
	not_ok "log_max_value=1 is log_window_value=max"
fi
lines "log_window_value=max: no value1 column" log_clat.1.log \
	"$d, $d, $d, 0, 0" 3
expect "log_window_value=foo: an error naming its values" 2 \
	"error: expected log_window_value value \(avg, max, both, 0, 1\), found 'foo'" \
	-- --name=j --filename=f --size=8k --log_window_value=foo

# --- log_issue_time ---------------------------------------------------------
# t0034's patterns: per-I/O clat and slat with offset and issue time, the
# lat log's issue time 0; bw and iops logs get the column, 0.
# shellcheck disable=SC2086
run --name=j $base --write_lat_log=log --write_bw_log=log \
	--write_iops_log=log --log_offset=1 --log_issue_time=1
lines "log_issue_time: clat's issue time" log_clat.1.log \
	"$d, $d, $d, $d, $d, $d, $d" 3
lines "log_issue_time: slat's issue time" log_slat.1.log \
	"$d, $d, $d, $d, $d, $d, $d" 3
lines "log_issue_time: lat's column is 0" log_lat.1.log \
	"$d, $d, $d, $d, $d, $d, 0" 3
lines "log_issue_time: bw's column is 0" log_bw.1.log \
	"$d, $d, $d, $d, $d, $d, 0" 3
lines "log_issue_time: iops's column is 0" log_iops.1.log \
	"$d, $d, $d, $d, $d, $d, 0" 3
# The issue time (ns since the job's epoch) is the completion's time
# (ms) less clat (ns), to the ms: issue + clat = completion.
if awk -F', ' '{ c = int(($7 + $2) / 1000000); if (c != $1) bad = 1 }
	END { exit bad }' "$scratch/log_clat.1.log"; then
	ok "log_issue_time: issue time + clat is the entry's time (ms)"
else
	head -5 "$scratch/log_clat.1.log" >"$out"
	not_ok "log_issue_time: issue time + clat is the entry's time (ms)"
fi
# A window's entry: "time, avg, max, ddir, 0, 0, prio, 0" (t0034 job 2).
# shellcheck disable=SC2086
run --name=j $base --write_lat_log=log --log_offset=1 --log_issue_time=1 \
	--log_avg_msec=10 --log_window_value=both
lines "log_issue_time in a window: bs, offset and issue time 0" \
	log_clat.1.log "$d, $d, $d, $d, 0, 0, $d, 0" 3
# shellcheck disable=SC2086
expect "log_issue_time without log_offset: fio's refusal" 2 \
	"log_issue_time option requires write_lat_log and log_offset" \
	-- --name=j $base --write_lat_log=log --log_issue_time=1
# shellcheck disable=SC2086
expect "log_issue_time without write_lat_log: fio's refusal" 2 \
	"log_issue_time option requires write_lat_log and log_offset" \
	-- --name=j $base --write_bw_log=log --log_offset=1 --log_issue_time=1

# --- random_distribution=sequence ---------------------------------------
# iolog NAME WANT -- ARGS: the write_iolog's read/write offsets.
iolog() {
	name=$1 want=$2
	shift 3
	rm -f "$scratch/io.log"
	(cd "$scratch" && "$wpsim" fio --write_iolog=io.log "$@") >"$out" 2>&1
	rc=$?
	got=$(awk '$3 == "read" || $3 == "write" { printf "%s ", $4 }' \
		"$scratch/io.log" 2>/dev/null)
	if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then
		ok "$name"
	else
		echo "exit $rc; got: $got; want: $want" >>"$out"
		not_ok "$name"
	fi
}
seq="--name=s --ioengine=null --rw=randread --bs=4k --size=48k --io_size=24k"
# The fixed pattern, repeated: blocks 2 0 1 2 0 1 (fio's HOWTO and
# examples/sequence-distribution.fio).
# shellcheck disable=SC2086
iolog "sequence:2,0,1 repeats the blocks" \
	"8192 0 4096 8192 0 4096 " -- $seq --random_distribution=sequence:2,0,1
# random_sequence_stride=1: the group moves by 3 each cycle: 2 0 1 5 3 4.
# shellcheck disable=SC2086
iolog "random_sequence_stride=1: a moving block group" \
	"8192 0 4096 20480 12288 16384 " -- $seq \
	--random_distribution=sequence:2,0,1 --random_sequence_stride=1
# Blanks around an element are stripped (fio's strip_blank_*).
# shellcheck disable=SC2086
iolog "sequence with blanks and 8k blocks" "16384 8192 16384 8192 " -- \
	--name=s --ioengine=null --rw=randwrite --bs=8k --size=48k \
	--io_size=32k "--random_distribution=sequence: 2 , 1"
# Past the file with the stride: the file is done (4 blocks of 16k: 4
# I/Os, not io_size's 8).
# shellcheck disable=SC2086
iolog "a strided sequence past the file ends it" "0 4096 8192 12288 " -- \
	--name=s --ioengine=null --rw=randread --bs=4k --size=16k \
	--io_size=32k --random_distribution=sequence:0,1 \
	--random_sequence_stride=1
# time_based with the stride: fio spins past the file's end; refused.
expect "random_sequence_stride with time_based: an error naming it" 2 \
	"random_sequence_stride=1 with time_based is not modelled" \
	-- --name=s --ioengine=null --rw=randread --bs=4k --size=16k \
	--random_distribution=sequence:0,1 --random_sequence_stride=1 \
	--time_based --runtime=1s
# A pattern element past the file: fio's EINVAL and message.
expect "a pattern block past the file: fio's error" 1 \
	"sequence access block 12 in base pattern out of bounds \(max 12\)" \
	-- --name=s --ioengine=null --rw=randread --bs=4k --size=48k \
	--random_distribution=sequence:1,12
expect "sequence: without blocks: an error" 2 \
	"expected block indices after sequence:" \
	-- --name=s --ioengine=null --rw=randread --size=48k \
	--random_distribution=sequence:
expect "sequence with a bad element: an error at it" 2 \
	":5:34: error: expected a block index .* found '-1'" \
	-- --name=s --ioengine=null --rw=randread --size=48k \
	--random_distribution=sequence:1,-1
many=$(seq -s, 0 64)
expect "sequence with 65 elements: fio's FIO_SEQ_MAX" 2 \
	"expected at most 64 elements" \
	-- --name=s --ioengine=null --rw=randread --size=48k \
	"--random_distribution=sequence:$many"
# Deterministic: two runs give the same bytes.
# shellcheck disable=SC2086
run $seq --random_distribution=sequence:2,0,1 --output-format=json
cp "$out" "$scratch/a.txt"
# shellcheck disable=SC2086
run $seq --random_distribution=sequence:2,0,1 --output-format=json
if cmp -s "$out" "$scratch/a.txt"; then
	ok "a sequence run twice: the same output"
else
	not_ok "a sequence run twice: the same output"
fi

# --- read_iolog with ioengine=null ------------------------------------------
# fio 3.42's replay issues a v3 log's trims and writes through the null
# engine (t/jobs/t0038: trims of 2 GiB beside 4 KiB writes); nothing
# reaches the model, each I/O is fio's own work.
cat >"$scratch/t.iolog" <<'LOG'
fio version 3 iolog
0 /dev/null add
1 /dev/null open
2 /dev/null trim 0 1048576
3 /dev/null write 0 4096
4 /dev/null trim 4096 1048576
5 /dev/null write 4096 4096
6 /dev/null close
LOG
(cd "$scratch" && "$wpsim" fio --name=r --ioengine=null --read_iolog=t.iolog \
	--iodepth=16 --output-format=json) >"$scratch/j.json" 2>"$out"
got=$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["write"]["total_ios"], j["write"]["io_bytes"],
      j["trim"]["total_ios"], j["trim"]["io_bytes"], j["read"]["total_ios"])
' "$scratch/j.json" 2>&1)
if [ "$got" = "2 8192 2 2097152 0" ]; then
	ok "read_iolog on ioengine=null: the log's writes and trims, counted"
else
	echo "got: $got" >>"$out"
	not_ok "read_iolog on ioengine=null: the log's writes and trims, counted"
fi
# The sync engines still drop a trim (fio's BLKDISCARD on a regular file).
(cd "$scratch" && "$wpsim" fio --name=r --read_iolog=t.iolog \
	--output-format=json) >"$out" 2>&1
if grep -Eq "trim +2 +0 +2 +fio's trim is the BLKDISCARD" "$out"; then
	ok "read_iolog on psync: the trims dropped, said"
else
	not_ok "read_iolog on psync: the trims dropped, said"
fi

# A statistics log with read_iolog: refused, never a run without its
# files (t0031's write_lat_log was accepted and no log written).
(cd "$scratch" && "$wpsim" fio --name=r --read_iolog=t.iolog \
	--write_lat_log=lat) >"$out" 2>&1
if [ $? -eq 2 ] && grep -q "with read_iolog the statistics logs" "$out"; then
	ok "read_iolog with write_lat_log: a clear error"
else
	not_ok "read_iolog with write_lat_log: a clear error"
fi

# --- options of a fio later than 3.33 (issue 29, session 9) ---------------
# examples/sprandom.fio (fio
# 3.41's sprandom, spr_op, spr_num_regions), refused here before, runs
# since session 11 as fio 3.42 runs it (tests/fio/test-async.sh compares
# its offsets with fio 3.42's); a file in its shape runs.
printf '[global]\nioengine=libaio\nrw=randwrite\nbs=${FIO_BS}\n[p]\nsize=1m\nsprandom=1\nspr_op=0.15\n' \
	>"$scratch/spr.fio"
(cd "$scratch" && FIO_BS=4096 "$wpsim" fio spr.fio) >"$out" 2>&1
got=$?
if [ "$got" -eq 0 ] && grep -q '^fio: sprandom sets norandommap=1$' "$out" &&
   grep -q 'issued rwts: total=0,' "$out"; then
	ok "sprandom (fio 3.41): runs, with fio's notes"
else
	not_ok "sprandom (fio 3.41): runs (exit $got)"
fi
# verify_write_sequence and atomic: tests/fio/test-atomic.sh.

tap_end
