#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/replay/test-replay.sh WPSIM SOURCE-ROOT - trace import and replay
# (TAP), on the traces recorded on this machine (traces/strace,
# traces/iolog): every record is counted once, used or skipped with a
# reason (the counts add up and match what grep finds in the file);
# malformed lines are file:line:col errors (exit 2) or counted with
# --skip-bad; fio's --write_iolog output (real, and from a model run)
# replays through wpsim fio --read_iolog with nothing dropped; timed
# replay prints the validation table; an explored window of a real trace
# finds the data loss of break=no_redirty_under_writeback and is clean
# without it, and the emitted scenario runs under wpsim check.  No
# timing is asserted: the model's durations are virtual.
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

# The summary line: "...: L lines, R records: U used, S skipped; ..."
summary_field() {
	sed -n "1s/.* \([0-9][0-9]*\) $1.*/\1/p" "$out"
}

# A syscall's used count from the summary table.
used_of() {
	awk -v s="$1" '$1 == s { print $3; exit }' "$out"
}

for f in traces/strace/*.strace traces/iolog/*.iolog; do
	"$wpsim" replay "$f" --summary >"$out" 2>"$err"
	rc=$?
	records=$(sed -n '1s/.*, \([0-9]*\) records:.*/\1/p' "$out")
	used=$(sed -n '1s/.* records: \([0-9]*\) used.*/\1/p' "$out")
	skipped=$(sed -n '1s/.* used, \([0-9]*\) skipped.*/\1/p' "$out")
	# The read column over every syscall row adds up to the records.
	sum=$(awk 'NR > 2 && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ { s += $2 }
		END { print s + 0 }' "$out")
	if [ "$rc" -eq 0 ] && [ -n "$records" ] &&
	   [ $((used + skipped)) -eq "$records" ] && [ "$sum" -eq "$records" ]
	then
		ok "$f: $records records, $used used, $skipped skipped, each counted once"
	else
		not_ok "$f: counts (rc $rc, records '$records', used '$used', skipped '$skipped', rows $sum)"
	fi
done

# strace records: one per line but the <unfinished ...> entries, which
# their resumed line completes.
f=traces/strace/fio-2threads.strace
"$wpsim" replay "$f" --summary >"$out" 2>"$err"
lines=$(wc -l <"$f")
unfinished=$(grep -c '<unfinished \.\.\.>$' "$f")
records=$(sed -n '1s/.*, \([0-9]*\) records:.*/\1/p' "$out")
if [ "$records" -eq $((lines - unfinished)) ] && [ "$unfinished" -gt 0 ]; then
	ok "$f: $unfinished unfinished calls stitched to their resumed lines"
else
	not_ok "$f: $records records, $lines lines, $unfinished unfinished"
fi
# The data file's writes, as grep counts them, are all used.
want=$(grep -c 'pwrite64([0-9]*</tmp/rec/m.dat>' "$f")
got=$(used_of pwrite64)
if [ "$got" = "$want" ] && [ "$want" -gt 0 ]; then
	ok "$f: the $want pwrite64 calls on m.dat are used"
else
	not_ok "$f: pwrite64 used '$got', grep finds $want"
fi
# Two traced threads issue I/O.
"$wpsim" replay "$f" --calls >"$out" 2>"$err"
threads=$(awk '$4 == "pwrite64" { print $2 }' "$out" | sort -u | wc -l)
if [ "$threads" -eq 2 ]; then
	ok "$f: the writes come from 2 traced threads"
else
	not_ok "$f: writes from $threads threads"
fi

f=traces/strace/fio-uring.strace
"$wpsim" replay "$f" --summary >"$out" 2>"$err"
want=$(grep -c 'io_uring_enter(' "$f")
if grep -q "io_uring_enter  *$want  *0  *$want  io_uring: the SQEs .* are invisible to strace" "$out"; then
	ok "$f: $want io_uring_enter calls skipped: SQEs are invisible to strace"
else
	not_ok "$f: io_uring_enter not counted as invisible ($want)"
fi

f=traces/strace/fio-stderr.strace
"$wpsim" replay "$f" --summary >"$out" 2>"$err"
rc=$?
want=$(grep -c 'strace: Process [0-9]* attached' "$f")
if [ $rc -eq 0 ] && grep -q "(strace)  *$want  *0  *$want" "$out" &&
   [ "$(used_of pwrite64)" = "$(grep -c 'pwrite64(' "$f")" ]; then
	ok "$f (stderr): $want 'Process N attached' messages cut out, lines joined"
else
	not_ok "$f: stderr shapes (rc $rc)"
fi

f=traces/strace/sqlite-wal.strace
"$wpsim" replay "$f" --summary >"$out" 2>"$err"
want=$(grep -c 'pwrite64(' "$f")
if [ "$(used_of pwrite64)" = "$want" ] &&
   grep -q 'fdatasync .*a file the trace never writes' "$out"; then
	ok "$f (-ttt): $want pwrite64 used; fdatasync of the directory skipped"
else
	not_ok "$f: pwrite64 used $(used_of pwrite64) of $want"
fi

f=traces/strace/dontcache-probe.strace
"$wpsim" replay "$f" --summary >"$out" 2>"$err"
if [ "$(used_of pwritev2)" = "$(grep -c 'pwritev2(' "$f")" ] &&
   [ "$(used_of sync_file_range)" = "$(grep -c 'sync_file_range(' "$f")" ]; then
	ok "$f: RWF_DONTCACHE (0x80 /* RWF_??? */) read; every pwritev2 used, the files sized to them"
else
	not_ok "$f: dontcache probe counts"
fi

f=traces/strace/ext4-dio-nowait-probe.strace
"$wpsim" replay "$f" --summary >"$out" 2>"$err"
want=$(grep -c 'pwritev2(' "$f")
if grep -q "pwritev2  *$want  *0  *$want  O_DIRECT I/O" "$out"; then
	ok "$f: the $want O_DIRECT pwritev2(RWF_NOWAIT) counted as O_DIRECT, not replayed"
else
	not_ok "$f: O_DIRECT counts"
fi

# Malformed lines: file:line:col, exit 2; --skip-bad counts them.
{ sed -n 1,3p traces/strace/sqlite-nof.strace
  echo '12:00:00.000001 pwrite64(3</x>, "a"..., 4096, 0 = 4096 <0.000010>'
} >"$tmp/bad.strace"
"$wpsim" replay "$tmp/bad.strace" --summary >"$out" 2>"$err"
rc=$?
if [ $rc -eq 2 ] && grep -q "^$tmp/bad.strace:4:[0-9]*: error: expected .*, found" "$err"; then
	ok "a malformed strace line: file:line:col error, exit 2"
else
	not_ok "malformed strace line: rc $rc"
fi
"$wpsim" replay "$tmp/bad.strace" --summary --skip-bad >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q '(malformed) *1 *0 *1  malformed line (--skip-bad)' "$out"; then
	ok "--skip-bad counts the malformed line"
else
	not_ok "--skip-bad"
fi
printf 'fio version 3 iolog\n0 /f add\n1 /f open\n2 /f write 0 x\n' >"$tmp/bad.iolog"
"$wpsim" replay "$tmp/bad.iolog" --summary >"$out" 2>"$err"
if [ $? -eq 2 ] && grep -q "bad.iolog:4:14: error: expected a length below 2^32 (digits; fio reads %u), found 'x'" "$err"; then
	ok "a malformed iolog line: file:line:col error, exit 2"
else
	not_ok "malformed iolog line"
fi
printf 'fio version 3 iolog\n0 /f write 0 4096\n' >"$tmp/noadd.iolog"
"$wpsim" replay "$tmp/noadd.iolog" --summary >"$out" 2>"$err"
if [ $? -eq 2 ] && grep -q "noadd.iolog:2:3: error: expected a file named by an 'add' line before" "$err"; then
	ok "an iolog I/O on a file never added is an error"
else
	not_ok "iolog without add"
fi

# Recorded results are kept: -1 EAGAIN is -11, in a stitched call too;
# ns timestamps (--timestamps=unix,ns) and RWF_ numbers read.
cat >"$tmp/eagain.strace" <<'TRACE'
100 1700000000.000000100 openat(AT_FDCWD</d>, "f", O_RDWR|O_CREAT|O_TRUNC, 0644) = 3</d/f> <0.000010>
100 1700000000.000100000 pwrite64(3</d/f>, "a"..., 4096, 0) = 4096 <0.000005>
100 1700000000.000200000 pwritev2(3</d/f>, [{iov_base="a"..., iov_len=4096}], 1, 0, RWF_NOWAIT|0x2 <unfinished ...>
101 1700000000.000250000 fdatasync(3</d/f>) = 0 <0.000100>
100 1700000000.000300000 <... pwritev2 resumed>) = -1 EAGAIN (Resource temporarily unavailable) <0.000101>
TRACE
"$wpsim" replay "$tmp/eagain.strace" --calls >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q 'pwritev2 .*= -11 ' "$out" &&
   grep -q '^  pwritev2  *1  *1 ' "$out"; then
	ok "recorded -1 EAGAIN kept as -11 (stitched call, ns timestamps, RWF_NOWAIT|0x2)"
else
	not_ok "EAGAIN kept"
fi

# iolog v2: wait is absolute ms after the start (fio's code).
printf 'fio version 2 iolog\n/f add\n/f open\n/f write 0 4096\n/f wait 200 0\n/f write 4096 4096\n/f close\n' >"$tmp/v2.iolog"
"$wpsim" fio --name=v2 --read_iolog="$tmp/v2.iolog" >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q 'wait  *1  *1  *0' "$err" &&
   grep -q 'issued rwts: total=0,2,0,0' "$out" &&
   grep -q 'WRITE: .*run=200-200msec' "$out"; then
	ok "iolog v2: 2 writes, the wait makes the job 200 ms"
else
	not_ok "iolog v2 wait"
fi
"$wpsim" fio --name=v2 --read_iolog="$tmp/v2.iolog" --replay_no_stall=1 >"$out" 2>"$err"
if grep -q 'WRITE: .*run=1-1msec' "$out"; then
	ok "replay_no_stall: no wait"
else
	not_ok "replay_no_stall"
fi

# iolog v3: a 100 ms gap; replay_time_scale=200 halves it.
printf 'fio version 3 iolog\n0 /f add\n1 /f open\n2 /f write 0 4096\n100002 /f write 4096 4096\n100003 /f close\n' >"$tmp/v3.iolog"
"$wpsim" fio --name=v3 --read_iolog="$tmp/v3.iolog" >"$out" 2>"$err"
a=$(grep -c 'WRITE: .*run=100-100msec' "$out")
"$wpsim" fio --name=v3 --read_iolog="$tmp/v3.iolog" --replay_time_scale=200 \
	>"$out" 2>"$err"
b=$(grep -c 'WRITE: .*run=50-50msec' "$out")
if [ "$a" -eq 1 ] && [ "$b" -eq 1 ]; then
	ok "iolog v3: the 100 ms gap is kept; replay_time_scale=200 makes it 50 ms"
else
	not_ok "iolog v3 delays ($a, $b)"
fi

# Round trip, real kernel: fio --write_iolog -> wpsim fio --read_iolog.
for f in traces/iolog/*.iolog; do
	"$wpsim" fio --name=rt --read_iolog="$f" >"$out" 2>"$err"
	rc=$?
	w=$(grep -c ' write ' "$f")
	r=$(grep -c ' read ' "$f")
	# fio 3.33 counts fsyncs in the fourth total (fdatasyncs land in
	# short=, docs/fio.md "Output").
	s=$(grep -c ' sync ' "$f")
	lines=$(($(wc -l <"$f") - 1))
	if [ $rc -eq 0 ] &&
	   grep -q "$lines records: $lines used, 0 skipped" "$err" &&
	   grep -q "issued rwts: total=$r,$w,0,$s " "$out"; then
		ok "$f: $lines entries, all used; $r reads, $w writes, $s syncs issued"
	else
		not_ok "$f: round trip (rc $rc; want $r,$w,0,$s)"
	fi
done

# Round trip, model: wpsim fio --write_iolog -> wpsim fio --read_iolog.
log=$tmp/model.iolog
# fio 3.33 issues one sync per check, fdatasync before sync_file_range:
# datasync after writes 4, 8, 12, sync_file_range after 3, 6, 9, 15.
"$wpsim" fio --name=w --rw=randwrite --bs=4k --size=64k --fdatasync=4 \
	--sync_file_range=write:3 --filename=w.dat --write_iolog="$log" \
	>"$out" 2>"$err"
orig=$(sed -n 's/.*issued rwts: \(total=[0-9,]*\).*/\1/p' "$out")
"$wpsim" fio --name=r --read_iolog="$log" >"$out" 2>"$err"
again=$(sed -n 's/.*issued rwts: \(total=[0-9,]*\).*/\1/p' "$out")
if [ -n "$orig" ] && [ "$orig" = "$again" ] &&
   [ "$(head -1 "$log")" = "fio version 3 iolog" ] &&
   grep -q 'sync_file_range  *4  *4  *0' "$err"; then
	ok "model write_iolog -> read_iolog: the same I/O ($orig), sync_file_range lines read"
else
	not_ok "model round trip ('$orig' vs '$again')"
fi
"$wpsim" fio --name=r --read_iolog="$log" --fsync=2 >"$out" 2>"$err"
if [ $? -eq 2 ] && grep -q "with read_iolog the options direct, sync, fsync" "$err"; then
	ok "read_iolog with a job option that would change the replay: an error"
else
	not_ok "read_iolog --fsync=2 accepted"
fi

# Timed replay: the validation table on three recorded traces.
for f in traces/strace/fio-randwrite.strace traces/strace/table4.strace \
	 traces/strace/sqlite-wal.strace; do
	"$wpsim" replay "$f" >"$out" 2>"$err"
	if [ $? -eq 0 ] && grep -q '^validation' "$out" &&
	   grep -q '^  pwrite64 ' "$out" && grep -q '^  write: IOPS=' "$out"; then
		ok "$f: timed replay, fio-style totals and the validation table"
	else
		not_ok "$f: timed replay"
	fi
done
"$wpsim" replay traces/strace/fio-randwrite.strace \
	--compare writethrough=v3,v2 >"$out" 2>"$err"
if [ $? -eq 0 ] && [ "$(grep -c '^writethrough=' "$out")" -eq 2 ] &&
   grep -q '^side by side' "$out"; then
	ok "--compare: one run per variant"
else
	not_ok "--compare"
fi

# Explore: calls 58..61 of the table-4 trace (sync_file_range, close,
# open, pwrite64), without the flusher.
f=traces/strace/table4.strace
"$wpsim" replay "$f" --from 58 --to 61 --no-flusher >"$out" 2>"$err"
rc=$?
if [ $rc -eq 0 ] && grep -q 'Observation replay-table4-strace-58-61 Never 0 ' "$out"; then
	ok "explore $f 58..61: no lost data, no violation, the kernel's results"
else
	not_ok "explore clean (rc $rc)"
fi
"$wpsim" replay "$f" --from 58 --to 61 --no-flusher \
	--variant break=no_redirty_under_writeback >"$out" 2>"$err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'Observation replay-table4-strace-58-61 Sometimes ' "$out" &&
   grep -q 'f.lost_sectors=8' "$out"; then
	ok "explore 58..61 under break=no_redirty_under_writeback: lost data found"
else
	not_ok "explore with break (rc $rc)"
fi
"$wpsim" replay "$f" --from 58 --to 61 --no-flusher \
	--emit-scenario "$tmp/w.litmus" >"$out" 2>"$err"
"$wpsim" check "$tmp/w.litmus" >"$out" 2>"$err"
rc=$?
"$wpsim" check "$tmp/w.litmus" --variant break=no_redirty_under_writeback \
	>"$tmp/out2" 2>&1
rc2=$?
if [ $rc -eq 0 ] && [ $rc2 -eq 1 ] && grep -q 'pwrite(f, 0, 4096)' "$tmp/w.litmus" &&
   grep -q "the start state is the model's where a timed replay" "$tmp/w.litmus"; then
	ok "the emitted scenario (start state: the timed replay's at call 58) runs under wpsim check (ok; NOT OK broken)"
else
	not_ok "emitted scenario (rc $rc, $rc2)"
fi
"$wpsim" replay "$f" --from 58 --to 61 --no-flusher --trace-state \
	--emit-scenario "$tmp/t.litmus" >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q "the start state is what the trace's" "$tmp/t.litmus" &&
   grep -q 'layout=W, cached=0-0, dirty=0-0' "$tmp/t.litmus"; then
	ok "--trace-state: the start state the trace's calls imply"
else
	not_ok "--trace-state"
fi
"$wpsim" replay "$f" --window 1 --no-flusher >"$out" 2>"$err"
rc=$?
windows=$(grep -c '^Test replay-table4-strace-' "$out")
syncs=$(grep -c 'fsync(\|sync_file_range(' "$f")
if [ $rc -eq 0 ] && [ "$windows" -eq "$syncs" ]; then
	ok "--window 1: one window per sync point ($windows), all clean"
else
	not_ok "--window 1 (rc $rc, $windows windows, $syncs syncs)"
fi

# Whole traces (issue 28): a dd-like trace of 2000 4 KiB writes (8 MB,
# far past the old 256 KiB bound) and an fsync: every write replayed.
awk 'BEGIN {
	print "100 10:00:00.000000 openat(AT_FDCWD, \"/t/x\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</t/x> <0.000050>"
	for (i = 0; i < 2000; i++)
		printf "100 10:00:%02d.%06d write(3</t/x>, \"\\0\"..., 4096) = 4096 <0.000015>\n", 1 + int(i / 100000), (i * 10) % 1000000
	print "100 10:00:02.000000 fsync(3</t/x>) = 0 <0.020000>"
	print "100 10:00:02.100000 close(3</t/x>) = 0 <0.000010>"
}' >"$tmp/dd.strace"
"$wpsim" replay "$tmp/dd.strace" >"$out" 2>"$err"
if [ $? -eq 0 ] && [ "$(used_of write)" = 2000 ] &&
   grep -q '^  write  *2000  *2000 ' "$out" &&
   grep -q '^  fsync  *1  *1 ' "$out" &&
   grep -q '^recorded time in calls: ' "$out"; then
	ok "dd-like trace: all 2000 writes (8 MB) and the fsync replayed, the time share printed"
else
	not_ok "dd-like trace: $(used_of write) writes used"
fi

# Unlink and rename: 20 journals created, written, synced, closed and
# unlinked in turn (each a model inode of its own, added at its create,
# evicted at its unlink), and a file renamed over another.
awk 'BEGIN {
	t = 0
	for (i = 0; i < 20; i++) {
		printf "7 10:00:%02d.%06d openat(AT_FDCWD, \"/d/j\", O_RDWR|O_CREAT|O_CLOEXEC, 0644) = 4</d/j> <0.000040>\n", int(t / 1000000), t % 1000000; t += 100
		printf "7 10:00:%02d.%06d pwrite64(4</d/j>, \"x\"..., 8192, 0) = 8192 <0.000020>\n", int(t / 1000000), t % 1000000; t += 100
		printf "7 10:00:%02d.%06d fdatasync(4</d/j>) = 0 <0.000500>\n", int(t / 1000000), t % 1000000; t += 1000
		printf "7 10:00:%02d.%06d close(4</d/j>) = 0 <0.000010>\n", int(t / 1000000), t % 1000000; t += 100
		printf "7 10:00:%02d.%06d unlink(\"/d/j\") = 0 <0.000300>\n", int(t / 1000000), t % 1000000; t += 100
	}
	print "7 10:00:01.000000 openat(AT_FDCWD, \"/d/new\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 5</d/new> <0.000040>"
	print "7 10:00:01.000100 pwrite64(5</d/new>, \"y\"..., 4096, 0) = 4096 <0.000020>"
	print "7 10:00:01.000200 fsync(5</d/new>) = 0 <0.000500>"
	print "7 10:00:01.000800 rename(\"/d/new\", \"/d/old\") = 0 <0.000100>"
	print "7 10:00:01.000900 pwrite64(5</d/old>, \"y\"..., 4096, 4096) = 4096 <0.000020>"
	print "7 10:00:01.001000 close(5</d/old>) = 0 <0.000010>"
}' >"$tmp/journal.strace"
"$wpsim" replay "$tmp/journal.strace" >"$out" 2>"$err"
if [ $? -eq 0 ] && [ "$(used_of unlink)" = 20 ] &&
   [ "$(used_of pwrite64)" = 22 ] && [ "$(used_of rename)" = 1 ] &&
   grep -q '^  unlink  *20  *20 .* same$' "$out" &&
   grep -q '^  rename  *1  *1 .* same$' "$out" &&
   grep -q '^replay: 1 threads, 21 model inodes' "$out"; then
	ok "unlink and rename replayed: 21 files the trace creates, 21 model inodes, the renamed file keeps its writes"
else
	not_ok "unlink/rename: $(used_of unlink) unlink, $(used_of pwrite64) pwrite64 used"
fi

# --explore over more than 32 calls of one thread: the scenario parses
# (r0..r31, then calls whose results are not compared).
awk 'BEGIN {
	print "9 10:00:00.000000 openat(AT_FDCWD, \"/e/f\", O_RDWR|O_CREAT|O_TRUNC, 0644) = 3</e/f> <0.000040>"
	for (i = 0; i < 40; i++)
		printf "9 10:00:00.%06d pwrite64(3</e/f>, \"z\"..., 512, %d) = 512 <0.000010>\n", 100 + i * 10, (i % 8) * 512
	print "9 10:00:00.100000 fdatasync(3</e/f>) = 0 <0.000500>"
}' >"$tmp/many.strace"
"$wpsim" replay "$tmp/many.strace" --from 2 --to 42 --no-flusher \
	--emit-scenario "$tmp/many.litmus" >"$out" 2>"$err"
rc=$?
if [ $rc -eq 0 ] && grep -q 'r31 = ' "$tmp/many.litmus" &&
   ! grep -q 'r32' "$tmp/many.litmus" &&
   grep -q 'result not compared' "$tmp/many.litmus" &&
   "$wpsim" check "$tmp/many.litmus" >"$tmp/out2" 2>&1; then
	ok "--explore over 41 calls of one thread: the scenario parses (r0..r31)"
else
	not_ok "--explore past r31 (rc $rc)"
fi

# blkparse: the recorded device stream beside the model's; bad input.
"$wpsim" replay traces/strace/table4.strace \
	--blkparse tests/replay/sample.blkparse >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q '^device stream: recorded' "$out" &&
   grep -q '^  bios  *11  *[0-9]' "$out" &&
   grep -q '^  preflush (REQ_PREFLUSH)  *1 ' "$out" &&
   grep -q '^  FUA (REQ_FUA)  *1 ' "$out" &&
   grep -q '^  writes of 512k  *8 ' "$out"; then
	ok "--blkparse: 11 Q events (8 of 512k, a preflush, a FUA write) beside the model's bios"
else
	not_ok "--blkparse side by side"
fi
printf '  8,16   0        1     0.00005  4242  Q   W 2048 + 8 [dd]\n' >"$tmp/bad.blkparse"
"$wpsim" replay traces/strace/table4.strace --blkparse "$tmp/bad.blkparse" \
	>"$out" 2>"$err"
if [ $? -eq 2 ] && grep -q "bad.blkparse:1:[0-9]*: error: expected nine digits of nanoseconds, found '00005'" "$err"; then
	ok "a malformed blkparse line: file:line:col error, exit 2"
else
	not_ok "malformed blkparse line"
fi

# A recorded pair (traces/blk/, tools/calibrate/record-blk.sh): the
# strace of dd conv=fsync and the device stream of tracefs's blk tracer
# (blk_classic: no sequence number), read as recorded.
"$wpsim" replay traces/blk/dd-fsync-loopxfs.strace \
	--blkparse traces/blk/dd-fsync-loopxfs.blk >"$out" 2>"$err"
if [ $? -eq 0 ] &&
   grep -q '^  read as tracefs blk tracer, blk_classic: 76 lines, 76 events, 0 skipped' "$out" &&
   grep -q '^  bios  *8  *[0-9]' "$out" &&
   grep -q '^  reads  *3 ' "$out" &&
   grep -q '^  preflush (REQ_PREFLUSH)  *1  *1$' "$out" &&
   grep -q '^  FUA (REQ_FUA)  *1  *1$' "$out" &&
   grep -q '^  writes of >512k  *4 ' "$out"; then
	ok "--blkparse on a recorded blk_classic stream: 8 Q events (4 over 512k, 3 reads, a log write with PREFLUSH|FUA)"
else
	not_ok "--blkparse on traces/blk/dd-fsync-loopxfs.blk"
fi
# fio unlinks its file first (ENOENT): the file did not exist, so its
# fallocate makes unwritten extents and each fdatasync forces the log
# (PREFLUSH|FUA log writes, as recorded), not an empty flush.
"$wpsim" replay traces/blk/fio-fdatasync-loopxfs.strace \
	--blkparse traces/blk/fio-fdatasync-loopxfs.blk >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q '^  preflush (REQ_PREFLUSH)  *15  *15$' "$out" &&
   grep -q '^    of them empty flushes  *0  *0$' "$out" &&
   grep -q '^  FUA (REQ_FUA)  *15  *15$' "$out"; then
	ok "an unlink's ENOENT: the file was absent; fdatasync forces the log as recorded (15 PREFLUSH|FUA)"
else
	not_ok "fio's unlink ENOENT and the fdatasync log forces"
fi
# syncfs replayed (sync -f), the device stream beside it.
"$wpsim" replay traces/blk/syncfs-loopxfs.strace \
	--blkparse traces/blk/syncfs-loopxfs.blk >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q '^  syncfs  *1  *1  *0 *$' "$out" &&
   grep -q '^  syncfs  *1  *1  .*same$' "$out" &&
   grep -q '^  preflush (REQ_PREFLUSH)  *1  *1$' "$out" &&
   grep -q '^  FUA (REQ_FUA)  *1  *1$' "$out"; then
	ok "syncfs (sync -f) replayed: used, in the validation table, its log force beside the recorded one"
else
	not_ok "syncfs replayed"
fi
# Two files written, syncfs through the first: both written back
# (fs/sync.c sync_filesystem walks the superblock's inodes) and the log
# forced; fsync of the first alone writes only the first.
cat >"$tmp/syncfs.strace" <<'EOT'
20001 12:00:00.001000 openat(AT_FDCWD</tmp/d>, "/tmp/d/a", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 10</tmp/d/a> <0.000019>
20001 12:00:00.001022 write(10</tmp/d/a>, "\0\0\0\0"..., 65536) = 65536 <0.000015>
20001 12:00:00.001040 openat(AT_FDCWD</tmp/d>, "/tmp/d/b", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 11</tmp/d/b> <0.000019>
20001 12:00:00.001060 write(11</tmp/d/b>, "\0\0\0\0"..., 65536) = 65536 <0.000015>
20001 12:00:00.001080 SYNC(10</tmp/d/a>) = 0 <0.000900>
EOT
sed 's/SYNC/syncfs/' "$tmp/syncfs.strace" >"$tmp/s1.strace"
sed 's/SYNC/fsync/' "$tmp/syncfs.strace" >"$tmp/s2.strace"
"$wpsim" replay "$tmp/s1.strace" >"$out" 2>"$err"
rc1=$?
bios1=$(sed -n 's/^  device: \([0-9]*\) bios, .* \([0-9]*\) log writes$/\1 \2/p' "$out")
"$wpsim" replay "$tmp/s2.strace" >"$out" 2>"$err"
rc2=$?
bios2=$(sed -n 's/^  device: \([0-9]*\) bios, .* \([0-9]*\) log writes$/\1 \2/p' "$out")
# 64 KiB a file: one data bio each, and one log write.
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$bios1" = "3 1" ] &&
   [ "$bios2" = "2 1" ]; then
	ok "syncfs writes back every file of the file system (3 bios, 1 log write), fsync only its own (2, 1)"
else
	not_ok "syncfs against fsync: '$bios1' '$bios2' (rc $rc1 $rc2)"
fi
# The blk tracer's text: the two formats not mixed, lost events said,
# the default (non-classic) text named, --skip-bad counted.
cl='  7,0    1 53908.391327636  8737  Q  WS 4260032 + 2120 [dd]'
bp='  8,16   0        1     0.000050000  4242  Q   W 2048 + 8 [dd]'
printf '%s\n%s\n' "$cl" "$bp" >"$tmp/mixed.blk"
"$wpsim" replay traces/strace/table4.strace --blkparse "$tmp/mixed.blk" \
	>"$out" 2>"$err"
if [ $? -eq 2 ] && grep -q "mixed.blk:2:19: error: expected a time SECONDS.NANOSECONDS (the tracefs blk_classic text of the first event line), found '1'" "$err"; then
	ok "a blkparse line after a blk_classic one: FILE:LINE:COL error, exit 2"
else
	not_ok "mixed blk formats"
fi
printf '%s\nCPU:1 [LOST 12 EVENTS]\n%s\n' "$cl" "$cl" >"$tmp/lost.blk"
"$wpsim" replay traces/strace/table4.strace --blkparse "$tmp/lost.blk" \
	>"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q '^  bios  *2 ' "$out" &&
   grep -q "^  the recording lost 12 events (trace_pipe's \[LOST\] lines: 1)" "$out"; then
	ok "trace_pipe's [LOST] line: counted and said"
else
	not_ok "lost events"
fi
printf '              dd-8737    [001] ..... 53908.385696: 7,0    Q  RM 3 + 1 [dd]\n' >"$tmp/ctx.blk"
"$wpsim" replay traces/strace/table4.strace --blkparse "$tmp/ctx.blk" \
	>"$out" 2>"$err"
if [ $? -eq 2 ] && grep -q "ctx.blk:1:15: error: expected a device MAJOR,MINOR (the blk tracer's default text is not read: set its blk_classic option), found 'dd-8737'" "$err"; then
	ok "the blk tracer's default text: an error that names blk_classic"
else
	not_ok "blk tracer default text"
fi
printf '# tracer: blk\n%s\n%s\n%s\n' "$cl" "$bp" "$cl" >"$tmp/skip.blk"
"$wpsim" replay traces/strace/table4.strace --skip-bad \
	--blkparse "$tmp/skip.blk" >"$out" 2>"$err"
if [ $? -eq 0 ] && grep -q '^  read as tracefs blk tracer, blk_classic: 4 lines, 2 events, 1 skipped (--skip-bad), 1 header lines' "$out" &&
   grep -q '^  bios  *2 ' "$out"; then
	ok "--skip-bad: the line of the other format skipped and counted; the '#' header"
else
	not_ok "--skip-bad on a blk file"
fi

"$wpsim" replay "$f" --bogus >"$out" 2>"$err"
if [ $? -eq 2 ] && grep -q "'--bogus' is not an option of wpsim replay" "$err"; then
	ok "an unknown option is an error"
else
	not_ok "unknown option"
fi

tap_end
