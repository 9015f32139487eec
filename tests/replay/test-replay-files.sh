#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/replay/test-replay-files.sh WPSIM SOURCE-ROOT - `wpsim replay`
# without a bound on files (issue 28), TAP: a generated untar-like strace
# (tools/untar-strace.py) of 48 files on 4 threads, 16 open at once on
# each (64 in all, where the model held 16), every call used (the
# report's used/skipped table), the timed run's 48 model inodes and its
# validation table; unlink and close evict each inode (the timed run
# ends with the world's checks passing); the timed figures of a close that
# evicts a file under writeback, pinned; a trace with more threads than
# the engine's tasks is a clear error, exit 2.  Seconds.
wpsim=$1
root=$2
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
err=$tmp/err
. tests/lib/tap.sh
tap_diag="$out $err"
tap_diag_lines=40

tr=$tmp/untar.strace
python3 tools/untar-strace.py "$tr" --files 48 --threads 4 --batch 16 ||
	exit 2
lines=$(wc -l <"$tr")

"$wpsim" replay "$tr" --summary >"$out" 2>"$err"
rc=$?
records=$(sed -n '1s/.*, \([0-9]*\) records:.*/\1/p' "$out")
used=$(sed -n '1s/.* records: \([0-9]*\) used.*/\1/p' "$out")
skipped=$(sed -n '1s/.* used, \([0-9]*\) skipped.*/\1/p' "$out")
if [ $rc -eq 0 ] && [ "$records" = "$lines" ] && [ "$used" = "$lines" ] &&
   [ "$skipped" = 0 ]; then
	ok "48 files, 4 threads, 64 open at once: all $lines records used, none skipped"
else
	not_ok "used/skipped: rc $rc, $lines lines, records '$records', used '$used', skipped '$skipped'"
fi
# Each syscall's row: read = used, nothing skipped.
for call in openat write close unlink; do
	want=$(grep -c " $call(" "$tr")
	if awk -v s="$call" -v w="$want" '$1 == s && $2 == w && $3 == w &&
	   $4 == 0 { f = 1 } END { exit !f }' "$out"; then
		ok "$call: $want read, $want used, 0 skipped"
	else
		not_ok "$call row (want $want)"
	fi
done

"$wpsim" replay "$tr" >"$out" 2>"$err"
rc=$?
if [ $rc -eq 0 ] && grep -q ': 4 threads, 48 model inodes' "$out" &&
   grep -q '^  write: IOPS=' "$out"; then
	ok "timed replay: 4 threads, 48 model inodes, the writes replayed"
else
	not_ok "timed replay (rc $rc)"
fi
for call in openat write close unlink; do
	if grep -q "^  $call  *[0-9]" "$out"; then
		ok "validation table has a $call row"
	else
		not_ok "validation row $call"
	fi
done

# The last close of an unlinked file whose folios are under writeback
# (sync_file_range WRITE just before): evict's truncate waits for the
# writeback to end.  A timed pin, not a figure checked against a
# kernel: the run's write IOPS and bandwidth (over its virtual span)
# move when evict's steps around that wait move (seed 71206's #95, the
# page cache truncated before the inode lock is taken: the lock's cost
# paid after the wait, the run 10 ns longer; session 17, h17-dc: the
# unwritten conversion reads the blocks beside its run, 21462 -> 21460
# IOPS; session 19, h19-prealloc: the release's post-EOF check, the
# IOLOCK trylock and the blocks from EOF read, 21460 -> 21459; session
# 20, h20-blk: replay's XFS files allow large folios as wpsim fio's do,
# the 8 KiB write is one folio and one bio, 21459 -> 23353).
# Regenerate by hand after
# a timing change of the model and say what moved.
cat >"$tmp/evict.strace" <<'EOT'
20001 12:00:00.001000 openat(AT_FDCWD</tmp/d>, "/tmp/d/f0", O_WRONLY|O_CREAT|O_EXCL, 0644) = 10</tmp/d/f0> <0.000019>
20001 12:00:00.001022 write(10</tmp/d/f0>, "\0\0\0\0"..., 8192) = 8192 <0.000015>
20001 12:00:00.001040 sync_file_range(10</tmp/d/f0>, 0, 8192, SYNC_FILE_RANGE_WRITE) = 0 <0.000010>
20001 12:00:00.001060 unlink("/tmp/d/f0") = 0 <0.000010>
20001 12:00:00.001080 close(10</tmp/d/f0>) = 0 <0.000010>
EOT
"$wpsim" replay "$tmp/evict.strace" >"$out" 2>"$err"
rc=$?
if [ $rc -eq 0 ] &&
   grep -q '^  write: IOPS=23353, BW=186824KiB/s (8.0KiB in 0.043ms)' "$out"; then
	ok "close evicting a file under writeback: the pinned timed figures"
else
	not_ok "close evicting a file under writeback (rc $rc): figures moved"
fi

# More traced threads than the engine's tasks: a clear error.
python3 tools/untar-strace.py "$tmp/many.strace" --files 1000 \
	--threads 1000 --batch 1 || exit 2
"$wpsim" replay "$tmp/many.strace" >"$out" 2>"$err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'the trace has 1000 threads; the engine runs at most' "$err"; then
	ok "1000 threads: a clear error (the engine's task limit), exit 2"
else
	not_ok "too many threads (rc $rc)"
fi

tap_end
