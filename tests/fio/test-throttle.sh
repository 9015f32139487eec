#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-throttle.sh WPSIM SOURCE-ROOT - dirty throttling in a
# timed `wpsim fio` run (TAP): the vm.dirty_* options' bad values are
# file:line:col errors (exit 2); a buffered run that stays under the
# background threshold prints nothing about it; one on a slow disk that
# dirties far more than its 20 % of a 16 MiB page cache crosses the
# thresholds: the flusher is kicked, writers pause, and the dirty +
# writeback count writers see is held between the freerun ceiling and
# the limit (mean) and never far past the limit; the same command twice
# prints the same bytes.  No timing is asserted.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
out2=$(mktemp)
err=$(mktemp)
err2=$(mktemp)
trap 'rm -f "$out" "$out2" "$err" "$err2"' EXIT
. tests/lib/tap.sh
tap_diag=$err

# bad NAME PATTERN -- ARGS: exit 2 and a line on stderr matching PATTERN.
bad() {
	name=$1 pattern=$2
	shift 3
	"$wpsim" fio --name=w --rw=write --bs=4k --size=64k "$@" \
		>"$out" 2>"$err"
	got=$?
	if [ "$got" -eq 2 ] && grep -q -e "$pattern" "$err"; then
		ok "$name"
	else
		not_ok "$name (exit $got)"
	fi
}

bad "--dirty_ratio 0 is not modelled" \
	'^<command line>:[0-9]*:1: error: expected --dirty_ratio 1\.\.100' \
	-- --dirty_ratio 0
bad "--dirty_background_ratio=20x points at the x" \
	'^<command line>:[0-9]*:28: error: expected --dirty_background_ratio' \
	-- --dirty_background_ratio=20x
bad "--dirty_bytes under 2 pages" \
	"error: expected --dirty_bytes SIZE, 8k" -- --dirty_bytes 4k
bad "--ram needs a size" "error: expected --ram SIZE" -- --ram 1x
bad "a ratio and its bytes exclude each other" \
	"expected one of them" -- --dirty_ratio 10 --dirty_bytes 1m
bad "the background ones too" "expected one of them" \
	-- --dirty_background_ratio 5 --dirty_background_bytes 1m

# Under the limits: the default machine (16g) and a 64 MiB write.
"$wpsim" fio --name=b --rw=write --bs=4k --size=16m --io_size=64m \
	--output-format=json >"$out" 2>"$err"
if [ $? -eq 0 ] && ! grep -q "dirty throttling" "$err"; then
	ok "under the background threshold: no throttling report"
else
	not_ok "under the background threshold: no throttling report"
fi

# Random writes: sequential 4 KiB writes reach this disk as one bio per
# 16 folios since writeback merges contiguous folios (iomap_add_to_ioend,
# issue 32), and the disk keeps up with them; scattered ones do not.
run() {
	"$wpsim" fio --name=b --rw=randwrite --bs=4k --size=64m --io_size=256m \
		--ioengine=psync --mem 16m --device virtio-vm \
		--cpu-profile virtio-vm --output-format=json "$@"
}
run >"$out" 2>"$err"
rc=$?
line=$(grep "dirty throttling" "$err")
# "thresh T pages, bg_thresh B, freerun F, setpoint S; dirty + writeback
# at most M, mean A over R throttled looks; P pauses, X ms; E -EAGAIN;
# background writeback kicked K times, C chunks"
set -- $(echo "$line" | sed 's/[^0-9 ]//g')
thresh=$1 bg=$2 freerun=$3 setpoint=$4 max=$5 mean=$6 looks=$7
pauses=$8 pause_ms=$9 kicked=${11}
# 16 MiB of dirtyable memory: 4097 pages; 819 * 4097 / 4096 = 819;
# 409 * 4097 / 4096 = 409; freerun (819 + 409) / 2; setpoint (614 +
# 819) / 2 (mm/page-writeback.c, v6.18).
if [ "$rc" -eq 0 ] && [ "$thresh" = 819 ] && [ "$bg" = 409 ] &&
	[ "$freerun" = 614 ] && [ "$setpoint" = 716 ]; then
	ok "the limits of a 16 MiB page cache: 819 / 409 pages"
else
	not_ok "the limits of a 16 MiB page cache (rc $rc: $line)"
fi
# Each pause sleeps at least one jiffy (4 ms at HZ 250: min_pause and
# max_pause are at least 1 in wb_min_pause, wb_max_pause), so the time
# paused is at least 4 ms a pause (seed 60731's mutant that counted each
# pause twice printed half that).
if [ "${kicked:-0}" -gt 0 ] && [ "${pauses:-0}" -gt 0 ] &&
	[ "${looks:-0}" -gt 0 ] &&
	[ "${pause_ms:-0}" -ge $((4 * ${pauses:-0})) ]; then
	ok "past the thresholds: background writeback kicked, writers pause"
else
	not_ok "past the thresholds: kicked $kicked, pauses $pauses ($pause_ms ms)"
fi
# The maximum is over every look, the mean over the throttled ones
# among them: max >= mean (seed 60731's mutant that kept the maximum
# only when a look did not exceed it printed 0).
if [ "${mean:-0}" -ge "$freerun" ] && [ "${mean:-0}" -le "$thresh" ] &&
	[ "${max:-0}" -le $((thresh + thresh / 16)) ] &&
	[ "${max:-0}" -ge "${mean:-0}" ]; then
	ok "dirty held between freerun and the limit (mean $mean, max $max)"
else
	not_ok "dirty held near the setpoint (mean $mean, max $max)"
fi
run >"$out2" 2>"$err2"
asan_quiet "$err"
asan_quiet "$err2"
if cmp -s "$out" "$out2" && cmp -s "$err" "$err2"; then
	ok "the same throttled run twice: the same bytes"
else
	not_ok "the same throttled run twice: the same bytes"
fi
# --dirty_bytes / --dirty_background_bytes replace the ratios.
run --dirty_bytes 2m --dirty_background_bytes 1m >"$out2" 2>"$err"
if grep -q "thresh 512 pages, bg_thresh 256," "$err"; then
	ok "--dirty_bytes 2m --dirty_background_bytes 1m: 512 / 256 pages"
else
	not_ok "--dirty_bytes 2m --dirty_background_bytes 1m"
fi
# io_uring past the limits: the merged form fails the inline attempt
# with -EAGAIN (BDP_ASYNC) and punts; seed 004's v1 records a deadline
# instead, and the task's next writes wait for its timer (12-13/14).
uring() {
	"$wpsim" fio --name=u --ioengine=io_uring --iodepth=1 --rw=randwrite \
		--bs=4k --size=64m --io_size=128m --mem 16m --dirty_bytes 8m \
		--dirty_background_bytes 4m --device virtio-vm \
		--cpu-profile virtio-vm --output-format=json "$@"
}
uring --variant uring=merged >"$out" 2>"$err"
eagain=$(sed -n 's/.* \([0-9]*\) -EAGAIN.*/\1/p' "$err")
if [ "${eagain:-0}" -gt 0 ] && ! grep -q "asynchronous pauses" "$err"; then
	ok "uring=merged past the limits: -EAGAIN ($eagain), no deadline"
else
	not_ok "uring=merged past the limits: $(cat "$err")"
fi
uring --variant uring=v1 >"$out" 2>"$err"
held=$(sed -n 's/.*asynchronous pauses (uring=v1) holding \([0-9]*\).*/\1/p' \
	"$err")
eagain=$(sed -n 's/.* \([0-9]*\) -EAGAIN.*/\1/p' "$err")
if [ "${held:-0}" -gt 0 ] && [ "$eagain" = 0 ] &&
	grep -q '"total_ios" : 32768,' "$out"; then
	ok "uring=v1 past the limits: $held writes held for a deadline, no -EAGAIN, every write done"
else
	not_ok "uring=v1 past the limits: $(cat "$err")"
fi
uring --variant uring=v1 >"$out2" 2>"$err2"
asan_quiet "$err"
asan_quiet "$err2"
if cmp -s "$out" "$out2" && cmp -s "$err" "$err2"; then
	ok "uring=v1 twice: the same bytes"
else
	not_ok "uring=v1 twice: the same bytes"
fi
tap_end
