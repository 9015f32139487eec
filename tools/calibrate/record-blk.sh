#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/calibrate/record-blk.sh OUTDIR NAME CMD... - record a workload's
# strace and, at the same time, its device stream through tracefs's blk
# tracer (kernel/trace/blktrace.c with the blk_classic option: blkparse's
# classic line without its sequence number), for
# `wpsim replay OUTDIR/NAME.strace --blkparse OUTDIR/NAME.blk`
# (docs/traces.md "The device side: blkparse and the blk tracer").  blktrace(8) cannot trace
# in this machine's container (debugfs: "Operation not permitted"); the
# blk tracer of tracefs can.
#
# CMD runs in the loop XFS of tools/calibrate/loopfs.sh (DIR
# /var/tmp/wpsim-loop, its own subdirectory wpsim-blk/, emptied first)
# under strace -f -tt -T -y (its stdout and stderr to /dev/null, so that
# the trace names no path of this machine's); the device traced is the loop device under
# that XFS.  Writes OUTDIR/NAME.strace, OUTDIR/NAME.blk (what trace_pipe
# gave, not edited) and OUTDIR/NAME.txt (kernel, date, device, command).
# Brings the loop filesystems up if they are not, and down again only if
# it brought them up.  Run it under `flock LOCK` so that nobody else
# measures on the loop filesystems at the same time; the tracer is the
# machine's only top-level one: it is set back to nop at the end.
# Not a test: real kernel, root only (exit 77 otherwise).
set -u
[ $# -ge 3 ] || { echo "usage: record-blk.sh OUTDIR NAME CMD..." >&2; exit 2; }
out=$1 name=$2; shift 2
[ "$(id -u)" -eq 0 ] || { echo "record-blk: needs root" >&2; exit 77; }
T=/sys/kernel/tracing
grep -qw blk $T/available_tracers 2>/dev/null ||
	{ echo "record-blk: no blk tracer in $T" >&2; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
dir=/var/tmp/wpsim-loop
broughtup=0
if ! sh "$here/loopfs.sh" status "$dir" >/dev/null; then
	sh "$here/loopfs.sh" up "$dir" >/dev/null || exit 77
	broughtup=1
fi
dev=$(findmnt -n -o SOURCE "$dir/xfs")
bdev=$(basename "$dev")
work=$dir/xfs/wpsim-blk
rm -rf "$work" && mkdir -p "$work" && sync
mkdir -p "$out"
out=$(cd "$out" && pwd)

[ "$(cat $T/current_tracer)" = nop ] ||
	{ echo "record-blk: tracer $(cat $T/current_tracer) in use" >&2; exit 75; }
echo 1 > /sys/block/"$bdev"/trace/enable
echo blk > $T/current_tracer
echo blk_classic > $T/trace_options
echo > $T/trace
cat $T/trace_pipe > "$out/$name.blk" &
reader=$!
sleep 0.5
(cd "$work" && strace -f -tt -T -y -o "$out/$name.strace" "$@" \
	>/dev/null 2>&1)
rc=$?
sleep 1	# no sync(1) here: its own log force would join the stream
kill "$reader"
wait "$reader" 2>/dev/null
echo noblk_classic > $T/trace_options
echo nop > $T/current_tracer
echo 0 > /sys/block/"$bdev"/trace/enable
{
	echo "kernel: $(uname -r)"
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "device: $dev ($bdev, $(cat /sys/block/"$bdev"/dev)), XFS on $dir/xfs, loop --direct-io=on over $dir/xfs.img"
	echo "blk tracer: tracefs current_tracer=blk, trace_options blk_classic, /sys/block/$bdev/trace/enable=1, read from trace_pipe"
	echo "strace: $(strace -V | head -1)"
	echo "command (in $work): $*"
	echo "exit: $rc"
	echo "strace lines: $(wc -l < "$out/$name.strace"), blk lines: $(wc -l < "$out/$name.blk")"
} > "$out/$name.txt"
rm -rf "$work"
[ "$broughtup" = 1 ] && sh "$here/loopfs.sh" down "$dir"
cat "$out/$name.txt"
exit "$rc"
