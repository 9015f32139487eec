#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/engine/test-dpor-sections.sh WPSIM SRCDIR - DPOR's analysis keeps
# the last execution's list of steps with a lock's event and of spawns
# for the steps the next execution replays, and scans only the log after
# them (sim/dpor.c sec_steps).  With WPSIM_DPOR_VERIFY_SECTIONS=1 every
# analysis also builds both lists from the whole log and exits 2 when the
# kept ones differ; here, on scenarios with spinlocks, bit locks, rwsems,
# mutexes, nested sections and spawned workers, the verified search must
# print byte for byte what the plain one prints.  TAP.
set -u
wpsim="$1"
src="$2"
. "$src/tests/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_diag="$tmp/diff"

for s in writethrough/noserial-overlap mm/fsync-vs-punch-hole \
	 xfs/dio-vs-buffered-write xfs/dio-read-flushes-dirty \
	 io_uring/nowait-vs-writeback dontcache/adjacent-records-two-writers; do
	f="$src/scenarios/$s.litmus"
	if [ ! -f "$f" ]; then
		not_ok "$s: no such scenario"
		echo "# $f" >"$tmp/diff"
		continue
	fi
	"$wpsim" check "$f" --executions 400 --format json \
		>"$tmp/plain" 2>&1
	rc1=$?
	WPSIM_DPOR_VERIFY_SECTIONS=1 "$wpsim" check "$f" --executions 400 \
		--format json >"$tmp/verified" 2>&1
	rc2=$?
	asan_quiet "$tmp/plain"
	asan_quiet "$tmp/verified"
	diff "$tmp/plain" "$tmp/verified" >"$tmp/diff" 2>&1
	same=$?
	if [ "$rc2" -ne 2 ] && [ "$rc1" -eq "$rc2" ] && [ "$same" -eq 0 ]; then
		ok "$s: the kept lists are a whole scan's (exit $rc1)"
	else
		echo "# exit $rc1 plain, $rc2 verified" >>"$tmp/diff"
		not_ok "$s: verified search differs"
	fi
done
tap_end
