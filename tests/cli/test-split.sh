#!/bin/sh
# tests/cli/test-split.sh WPSIM [SRC] - `wpsim check --jobs N` splits an
# unbounded dpor search into items (docs/architecture.md, "Splitting one
# exploration").  On the quick suite's scenarios that take under a second
# (a subset, to keep the suite short): --jobs 1 and --jobs 2 print byte
# for byte the same report, execution counts included; and against the
# classic run (no --jobs) the same observations, the same final states
# (counts aside: the executions differ) and the same verdicts.  A signal
# gives the partial report; a worker stopped (SIGSTOP) does not stall the
# other, nor change the report; a pair that does not split says nothing
# of a split.  TAP.
wpsim="$1"
here=$(cd "$(dirname "$0")" && pwd)
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
out=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$tmp"' EXIT
cd "$src" || exit 1

. "$here/tap.sh"

# What must not change with the split: the observation words, the final
# states (without their counts) and the verdict lines.
essence() {
	sed -n -e 's/^Observation \([^ ]*\) \([A-Za-z]*\) .*/Observation \1 \2/p' \
		-e 's/^ *[0-9][0-9]* \(.*\)/state \1/p' \
		-e '/^Expected /p' -e '/^Test /p' "$1"
}

split_seen=0
for f in engine/independent-4 ext4/nowait-dio-locked \
	ext4/nowait-dio-overwrite-at-eof io_uring/nowait-vs-writer \
	mm/fsync-eio-per-description mm/nowait-read-uncached \
	mm/nowait-write-locked mm/same-page-create mm/store-beyond-eof \
	mm/unmap-vs-writeback replay/table4-sfr-then-rewrite \
	writethrough/repeating-folio-deadlock xfs/dio-not-sector-aligned \
	xfs/nowait-read-locked xfs/nowait-write-stale-times \
	xfs/read-unwritten-after-punch xfs/write-at-size-limit \
	mm/fault-vs-clear-dirty-for-io mm/store-after-writeback \
	mm/truncate-up-stable-writes mm/write-vs-flusher \
	writethrough/noserial-disjoint ext4/dio-vs-buffered-read \
	xfs/dio-vs-buffered-read xfs/dio-write-into-hole \
	xfs/dio-vs-buffered-write mm/fsync-eio-goes-on \
	mm/truncate-partial-stable-writes mm/fallocate-vs-write-writeback \
	mm/truncate-vs-writeback; do
	file=scenarios/$f.litmus
	"$wpsim" check --exhaustive "$file" >"$tmp/classic" 2>&1
	c0=$?
	"$wpsim" check --exhaustive --jobs 1 "$file" >"$tmp/j1" 2>&1
	c1=$?
	"$wpsim" check --exhaustive --jobs 2 "$file" >"$out" 2>&1
	c2=$?
	asan_quiet "$tmp/classic"
	asan_quiet "$tmp/j1"
	asan_quiet "$out"
	grep -q "^Split: " "$out" && split_seen=$((split_seen + 1))
	check "$f: --jobs 2 prints what --jobs 1 prints (exit $c1, $c2)" \
		sh -c '[ "$1" = "$2" ] && cmp -s "$3" "$4"' sh "$c1" "$c2" \
		"$tmp/j1" "$out"
	essence "$tmp/classic" >"$tmp/e0"
	essence "$out" >"$tmp/e2"
	check "$f: the same observations, final states and verdicts as the classic run (exit $c0, $c2)" \
		sh -c '[ "$1" = "$2" ] && cmp -s "$3" "$4"' sh "$c0" "$c2" \
		"$tmp/e0" "$tmp/e2"
done
check "most of these scenarios split (unbounded dpor): $split_seen" \
	[ "$split_seen" -ge 20 ]

# Sometimes decided early: the items merged so far decide it, the same
# way for every N.
"$wpsim" check --jobs 1 scenarios/mm/unmap-vs-writeback.litmus >"$tmp/j1" 2>&1
asan_quiet "$tmp/j1"
expect "a Sometimes decided by the items stops the split search" 0 \
	"stopped: Sometimes is decided" -- \
	check --jobs 2 scenarios/mm/unmap-vs-writeback.litmus
check "... and --jobs 2 prints what --jobs 1 prints" cmp -s "$out" "$tmp/j1"

# A bounded search does not split: no Split line, same report as without
# --jobs.
"$wpsim" check --preemptions 1 scenarios/mm/unmap-vs-writeback.litmus \
	>"$tmp/j1" 2>&1
asan_quiet "$tmp/j1"
expect "--preemptions: the pair does not split" 3 "^Exploration dpor" -- \
	check --jobs 2 --preemptions 1 scenarios/mm/unmap-vs-writeback.litmus
check "... and prints what it prints without --jobs" cmp -s "$out" "$tmp/j1"

# JSON names the split.
expect "json: the split's items" 0 '"split":{"items":' -- \
	check --format json --jobs 2 scenarios/engine/independent-4.litmus

# --progress: aggregate lines on stderr, one per interval (on a search
# that lasts: noserial-overlap under v3 runs about 10 s on two cores; it
# is stopped once a line has come, at most 60 s on).
n=$((n + 1))
"$wpsim" check --jobs 2 --progress 1 --exhaustive --variant writethrough=v3 \
	scenarios/writethrough/noserial-overlap.litmus >"$out" 2>"$tmp/progress" &
pid=$!
tries=0
pattern="executions (+[0-9]* redundant), [0-9]* failing, .* items done"
while [ $tries -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
	grep -q "$pattern" "$tmp/progress" && break
	sleep 0.1
	tries=$((tries + 1))
done
kill -TERM "$pid" 2>/dev/null
wait "$pid"
if grep -q "$pattern" "$tmp/progress"; then
	echo "ok $n - --progress with --jobs: aggregate lines"
else
	echo "not ok $n - --progress with --jobs: aggregate lines (none in stderr)"
	sed 's/^/# /' "$tmp/progress"
	fail=$((fail + 1))
fi

# A worker stopped for a while (SIGSTOP) does not stall the others: they
# take the units in the shared queue and the item the stopped one kept
# in its box (docs/architecture.md, "Splitting one exploration").  The
# stopped worker still holds the unit it runs (its untried part is given
# away only as it runs).  (1) On a search that lasts (below), the executions of
# the progress lines grow while worker 0 is stopped; then SIGTERM.  (2) A
# worker stopped and continued changes nothing: the report is --jobs
# 1's byte for byte.
# progress_count FILE: the executions (+ redundant) of its last line.
progress_count() {
	sed -n 's/^.*: \([0-9][0-9]*\) executions (+\([0-9]*\) redundant).*/\1 \2/p' \
		"$1" | tail -n 1 | awk '{ print $1 + $2 }'
}
# first_worker PID [FILE]: worker 0's pid once both workers of PID are
# forked and, with FILE, FILE has a progress line counting at least one
# execution (within 60 s), else nothing.  A line of 0 executions is not
# enough: under the sanitizer on a loaded machine (CI, 2026-12-07) the
# first line came before any execution ended, worker 0 was stopped
# holding the only unit, and the other had nothing to take (0 -> 0 in
# all three tries).
first_worker() {
	fw_tries=0
	while [ $fw_tries -lt 1200 ] && kill -0 "$1" 2>/dev/null; do
		fw_kids=$(cat /proc/$1/task/$1/children 2>/dev/null)
		if [ "$(echo $fw_kids | wc -w)" -ge 2 ] &&
		   { [ -z "$2" ] || [ "$(progress_count "$2")" -gt 0 ] 2>/dev/null; }; then
			echo $fw_kids | cut -d' ' -f1
			return
		fi
		sleep 0.05
		fw_tries=$((fw_tries + 1))
	done
}
n=$((n + 1))
# The search is tests/cli/split-long.litmus (three writers: hours
# exhaustively, so the other worker has work all through the window on
# any machine; noserial-overlap's two writers ended in ~5 s on two cores
# here, and CI failed on 2026-12-06 when the other worker had run every
# unit but the stopped one's).  Up to three tries: a worker stopped
# inside the ring's lock (microseconds) holds the other until SIGCONT.
stop_try=0
while :; do
stop_try=$((stop_try + 1))
before= after= running=no
"$wpsim" check --jobs 2 --exhaustive --progress 1 --variant writethrough=v3 \
	"$here/split-long.litmus" >"$out" 2>"$tmp/stop-err" &
pid=$!
victim=$(first_worker "$pid" "$tmp/stop-err")
stop_note="no worker found"
if [ -n "$victim" ] && kill -STOP "$victim" 2>/dev/null; then
	# The first line printed after the stop, the last before SIGCONT.
	sleep 1.2
	before=$(progress_count "$tmp/stop-err")
	sleep 2.2
	after=$(progress_count "$tmp/stop-err")
	running=no
	kill -0 "$pid" 2>/dev/null && running=yes
	kill -CONT "$victim"
	stop_note="executions $before -> $after while worker 0 was stopped, search running: $running; try $stop_try"
fi
kill -TERM "$pid" 2>/dev/null
wait "$pid"
if [ "${after:-0}" -gt "${before:-0}" ] || [ $stop_try -ge 3 ]; then
	break
fi
done
if [ -n "$victim" ] && [ "$running" = yes ] &&
   [ "${after:-0}" -gt "${before:-0}" ]; then
	echo "ok $n - a worker stopped (SIGSTOP): the other's executions go on ($stop_note)"
else
	echo "not ok $n - a worker stopped (SIGSTOP): the other's executions go on ($stop_note)"
	tail -n 8 "$tmp/stop-err" | sed 's/^/# /'
	fail=$((fail + 1))
fi

n=$((n + 1))
sfile=scenarios/ext4/unaligned-zeroing-race.litmus
"$wpsim" check --exhaustive --jobs 1 --variant ext4_dio=unsafe_shared \
	"$sfile" >"$tmp/stop-j1" 2>&1
cs1=$?
"$wpsim" check --exhaustive --jobs 2 --progress 1 \
	--variant ext4_dio=unsafe_shared "$sfile" >"$tmp/stop-j2" \
	2>"$tmp/stop-err" &
pid=$!
victim=$(first_worker "$pid" "$tmp/stop-err")
if [ -n "$victim" ] && kill -STOP "$victim" 2>/dev/null; then
	sleep 1
	kill -CONT "$victim"
fi
wait "$pid"
cs2=$?
asan_quiet "$tmp/stop-j1"
asan_quiet "$tmp/stop-j2"
if [ "$cs1" = "$cs2" ] && cmp -s "$tmp/stop-j1" "$tmp/stop-j2"; then
	echo "ok $n - a worker stopped and continued: the report is --jobs 1's (worker ${victim:-not found, the search ended first})"
else
	echo "not ok $n - a worker stopped and continued: the report is --jobs 1's (exit $cs1, $cs2)"
	diff "$tmp/stop-j1" "$tmp/stop-j2" | head -20 | sed 's/^/# /'
	fail=$((fail + 1))
fi

# SIGTERM during a split search: the partial report.
n=$((n + 1))
"$wpsim" check --jobs 2 --exhaustive --variant writethrough=v3 \
	scenarios/writethrough/noserial-overlap.litmus >"$out" 2>&1 &
pid=$!
tries=0
while [ $tries -lt 100 ]; do
	mask=$(sed -n 's/^SigCgt:\t*//p' "/proc/$pid/status" 2>/dev/null)
	[ -n "$mask" ] && [ $((0x$mask >> 14 & 1)) -eq 1 ] && break
	sleep 0.1
	tries=$((tries + 1))
done
# The search takes about 10 s on two idle cores (587 444 executions;
# ext4 partials-written under patch2, used before, now ends in 1 014).
sleep 0.3
kill -TERM "$pid"
wait "$pid"
got=$?
# The search is stopped, not finished: its report says so.  Its verdict
# is what the executions run decide: v3's Sometimes is decided by a
# witness (exit 0); were none found yet, "not decided" and exit 3.
want=0
grep -q "not decided" "$out" && want=3
if [ "$got" -eq "$want" ] &&
   grep -q "incomplete (stopped by SIGTERM after [0-9]* executions)" "$out"; then
	echo "ok $n - SIGTERM to a split search: the partial report, exit $want"
else
	echo "not ok $n - SIGTERM to a split search: the partial report, exit $want (exit $got)"
	sed 's/^/# /' "$out"
	fail=$((fail + 1))
fi

echo "1..$n"
[ "$fail" -eq 0 ]
