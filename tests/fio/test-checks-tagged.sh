#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-checks-tagged.sh WPSIM SOURCE-ROOT - a watch per word
# (sim_check_watch_tag, issue 28, session 20) changes nothing (TAP): each
# run below prints the same bytes with the checks' promises taken (the
# default: a long run logs only stores to tagged words and a round calls
# only the checks that read them) and with WPSIM_CHECKS_TAGGED=0 (every
# store logged, every check in every round): the JSON (every latency
# and count of the timed run) and stderr.  Long runs, as wpsim fio's
# are (a --replayable run is a short one, where the promises are not
# taken).  The runs: buffered writes with
# writeback beside them (the world check's counters, flags, extents and
# held xa_locks), O_DIRECT on ext4 and XFS (the device's counts, the
# i_rwsem), two writers on one file with fsync, io_uring, and a random
# write with reclaim.
wpsim=$1
root=$2
cd "$root" || exit 2
a=$(mktemp)
b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
. tests/lib/tap.sh
tap_diag="$a $b"

same() {
	what=$1
	shift
	if ! "$wpsim" fio "$@" --output-format=json >"$a" 2>&1; then
		not_ok "$what: runs"
		return
	fi
	WPSIM_CHECKS_TAGGED=0 "$wpsim" fio "$@" --output-format=json \
		>"$b" 2>&1
	# the sanitize tier's ASan prints its own line with the process's
	# id (==PID==WARNING: ... swapcontext ...): not wpsim's bytes
	sed -i '/^==[0-9]*==WARNING: ASan /d' "$a" "$b"
	if cmp -s "$a" "$b"; then
		ok "$what: the same bytes with and without the promises"
	else
		not_ok "$what: the same bytes with and without the promises"
	fi
}

same "buffered, writeback beside the writer" --name=a --rw=write \
	--bs=4k --size=16m --dirty_background_bytes=1m --dirty_bytes=4m
same "buffered random, two jobs, fsync" --name=a --rw=randwrite --bs=4k \
	--size=4m --numjobs=2 --filename=f --fsync=8 \
	--dirty_background_bytes=256k --dirty_bytes=1m
same "O_DIRECT ext4" --name=a --rw=randwrite --bs=4k --size=1m \
	--direct=1 --fs=ext4 --number_ios=3000
same "O_DIRECT XFS, libaio" --name=a --rw=randwrite --bs=4k --size=1m \
	--direct=1 --fs=xfs --ioengine=libaio --iodepth=4 --number_ios=3000
same "io_uring" --name=a --rw=write --bs=4k --size=8m \
	--ioengine=io_uring --iodepth=8
same "reclaim" --name=a --rw=randwrite --bs=4k --size=16m --mem 4m
tap_end
