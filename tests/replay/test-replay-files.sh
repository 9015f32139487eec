#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/replay/test-replay-files.sh WPSIM SOURCE-ROOT - `wpsim replay`
# without a bound on files (issue 28), TAP: a generated untar-like strace
# (tools/untar-strace.py) of 48 files on 4 threads, 16 open at once on
# each (64 in all, where the model held 16), every call used (the
# report's used/skipped table), the timed run's 48 model inodes and its
# validation table; unlink and close evict each inode (the timed run
# ends with the world's checks passing); a trace with more threads than
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
