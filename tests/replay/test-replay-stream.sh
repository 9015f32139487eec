#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/replay/test-replay-stream.sh WPSIM SOURCE-ROOT - a timed replay
# reads its trace as it goes (issue 28, session 19): the same report as
# with the trace held whole (--keep-trace, the code path of before), also
# when the trace is far larger than the read buffer (--read-buffer 64:
# every line a refill); an iolog's records are held one at a time; fio's
# latency log joined to its iolog (--lat-log) gives the validation table
# timed rows and counts what it did not match; a malformed log line is
# file:line:col, expected/found, exit 2.  No timing is asserted.
wpsim=$1
root=$2
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
err=$tmp/err
. tests/lib/tap.sh
tap_diag="$out $err"
tap_diag_lines=30

# Every recorded trace: streamed (1 MiB buffer, and 64 bytes) and held
# whole print the same report (stdout).
for f in traces/strace/*.strace traces/iolog/*.iolog; do
	"$wpsim" replay "$f" --keep-trace >"$tmp/keep" 2>"$err"
	rk=$?
	"$wpsim" replay "$f" >"$tmp/stream" 2>"$err"
	rs=$?
	"$wpsim" replay "$f" --read-buffer 64 >"$out" 2>"$err"
	rb=$?
	if [ "$rk" -eq 0 ] && [ "$rs" -eq 0 ] && [ "$rb" -eq 0 ] &&
	   cmp -s "$tmp/keep" "$tmp/stream" && cmp -s "$tmp/keep" "$out" &&
	   grep -q '^validation' "$out" &&
	   grep -q 'the trace read as it went' "$err"; then
		ok "$f: streamed (1 MiB and 64-byte buffers) = held whole"
	else
		diff "$tmp/keep" "$out" >"$tmp/d" 2>&1
		tap_diag="$tmp/d $err"
		not_ok "$f: streamed report differs (rc $rk $rs $rb)"
		tap_diag="$out $err"
	fi
done

# A two-thread strace: the same with --compare (each run reads again).
f=traces/strace/fio-2threads.strace
"$wpsim" replay "$f" --keep-trace --compare writethrough=v3,v2 \
	>"$tmp/keep" 2>"$err"
"$wpsim" replay "$f" --read-buffer 100 \
	--compare writethrough=v3,v2 >"$out" 2>"$err"
if cmp -s "$tmp/keep" "$out" && grep -q '^side by side' "$out"; then
	ok "$f: --compare streamed (a reading per run) = held whole"
else
	not_ok "$f: --compare streamed differs"
fi

# An iolog holds one record at a time (one thread).
f=traces/iolog/fio-randwrite.iolog
"$wpsim" replay "$f" >"$out" 2>"$err"
held=$(sed -n 's/.*at most \([0-9]*\) records held at once.*/\1/p' "$err")
if [ "$held" = 1 ]; then
	ok "$f: at most 1 record held at once"
else
	not_ok "$f: '$held' records held"
fi

# fio's latency log beside its iolog (fio 3.33, --write_lat_log
# --log_offset=1, recorded here: 256 random 4 KiB writes, fsync=64).
log=tests/replay/data/lat-small.iolog
lat=tests/replay/data/lat-small_clat.log
"$wpsim" replay "$log" --lat-log "$lat" >"$out" 2>"$err"
rc=$?
"$wpsim" replay "$log" --lat-log "$lat" --keep-trace >"$tmp/keep" 2>/dev/null
if [ $rc -eq 0 ] &&
   grep -q 'latency log .*: 256 lines; 256 of 256 I/O records matched' "$out" &&
   grep -Eq '^  write +256 +256 ' "$out" && cmp -s "$out" "$tmp/keep"; then
	ok "--lat-log: 256 of 256 writes matched, 256 timed rows (streamed = held whole)"
else
	not_ok "--lat-log (rc $rc)"
fi
"$wpsim" replay "$log" >"$out" 2>"$err"
if grep -Eq '^  write +256 +0 ' "$out"; then
	ok "without --lat-log: an iolog has no timed row"
else
	not_ok "iolog without --lat-log"
fi
# A log shorter than the iolog: what did not match is counted.
head -200 "$lat" >"$tmp/short.log"
"$wpsim" replay "$log" --lat-log "$tmp/short.log" >"$out" 2>"$err"
if grep -q '200 of 256 I/O records matched (.*); 56 I/O records without a line, 0 lines without a record' "$out" &&
   grep -Eq '^  write +256 +200 ' "$out"; then
	ok "--lat-log shorter than the iolog: 56 writes without a line, counted"
else
	not_ok "short --lat-log"
fi
# A line of another I/O (offset changed): unmatched, counted both ways.
sed '3s/, 1, 4096, [0-9]*,/, 1, 4096, 7,/' "$lat" >"$tmp/moved.log"
"$wpsim" replay "$log" --lat-log "$tmp/moved.log" >"$out" 2>"$err"
if grep -q '255 of 256 I/O records matched (.*); 1 I/O records without a line, 1 lines without a record' "$out"; then
	ok "--lat-log: a line naming another offset is not matched, counted"
else
	not_ok "--lat-log moved line"
fi
# A malformed line: file:line:col, expected/found, exit 2.
sed '5s/, 1, 4096/, x, 4096/' "$lat" >"$tmp/bad.log"
"$wpsim" replay "$log" --lat-log "$tmp/bad.log" >"$out" 2>"$err"
rc=$?
if [ $rc -eq 2 ] &&
   grep -q "bad.log:5:[0-9]*: error: expected DDIR (0, 1 or 2) (digits), found 'x'" "$err"; then
	ok "--lat-log malformed line: file:line:col, expected/found, exit 2"
else
	not_ok "--lat-log malformed line (rc $rc)"
fi
"$wpsim" replay traces/strace/table4.strace --lat-log "$lat" >"$out" 2>"$err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'lat-log joins .* to an fio iolog' "$err"; then
	ok "--lat-log with strace text: an error, exit 2"
else
	not_ok "--lat-log with strace (rc $rc)"
fi

# A file of 1 TiB: its setup costs the pages written, not the file (the
# run is not timed here; it took 4.6 host CPU s before session 19).
printf 'fio version 2 iolog\n/tmp/big add\n/tmp/big open\n/tmp/big write 0 4096\n/tmp/big write 549755813888 4096\n/tmp/big write 1099511619584 4096\n/tmp/big close\n' >"$tmp/tib.iolog"
"$wpsim" replay "$tmp/tib.iolog" >"$out" 2>"$err"
rc=$?
if [ $rc -eq 0 ] && grep -Eq '^  write +3 +3 +0' "$out" &&
   grep -q '1 model inodes (268435455 pages each)' "$out"; then
	ok "three writes over a 1 TiB file: 3 of 3 used, one inode of 2^28 - 1 pages"
else
	not_ok "1 TiB file (rc $rc)"
fi

tap_end
