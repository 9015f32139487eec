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
# write with reclaim; and a broken model (a test-only break= switch)
# caught by its check the same way with and without the promises.
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

# A broken model is caught the same way with the promises taken and
# without (issue 28, session 21): two writers on one 64 KiB file, one
# with seed 000's RWF_WRITETHROUGH (writethrough=v3); break=
# writethrough_stable_end_early (a test-only switch: the stable-writes
# hold ends at submission, include/model/variant.h) lets the buffered
# writer copy into a folio under writethrough I/O, which the
# writethrough check (invariant 1, "stable pages") catches.  A third
# job verifies its own file, as fio runs with break= must have.
# WPSIM_CHECKS_TAGGED=count takes the promises and prints at exit how
# many rounds took them and how often each check was passed over: the
# run must have taken them (rounds > 0).
wt="--name=wt --rw=randwrite --bs=4k --size=64k --number_ios=2000
	--filename=f --ioengine=pvsync2 --writethrough=1
	--name=b --rw=randwrite --bs=4k --size=64k --number_ios=2000
	--filename=f --name=v --rw=write --bs=4k --size=64k --filename=g
	--verify=crc32c --variant writethrough=v3"
# shellcheck disable=SC2086
if "$wpsim" fio $wt --output-format=json >"$a" 2>&1; then
	ok "writethrough, two writers on one file: the model as it is passes"
else
	not_ok "writethrough, two writers on one file: the model as it is passes"
fi
# shellcheck disable=SC2086
WPSIM_CHECKS_TAGGED=count "$wpsim" fio $wt \
	--variant break=writethrough_stable_end_early \
	--output-format=json >"$a" 2>&1
rc_a=$?
# shellcheck disable=SC2086
WPSIM_CHECKS_TAGGED=0 "$wpsim" fio $wt \
	--variant break=writethrough_stable_end_early \
	--output-format=json >"$b" 2>&1
rc_b=$?
rounds=$(sed -n 's/^wpsim: checks by tag: \([0-9]*\) rounds.*/\1/p' "$a")
if [ "${rounds:-0}" -gt 0 ]; then
	ok "break=writethrough_stable_end_early: the promises taken ($rounds rounds by tag)"
else
	not_ok "break=writethrough_stable_end_early: the promises taken"
fi
asan_quiet "$a"
asan_quiet "$b"
sed -i '/^wpsim: checks by tag: /d' "$a"
if [ "$rc_a" = 1 ] && [ "$rc_b" = 1 ] &&
	grep -q 'writethrough invariant 1 (stable pages)' "$a"; then
	ok "break=writethrough_stable_end_early: caught by the check"
else
	not_ok "break=writethrough_stable_end_early: caught by the check (exit $rc_a and $rc_b)"
fi
if cmp -s "$a" "$b"; then
	ok "break=writethrough_stable_end_early: the same failure with and without the promises"
else
	not_ok "break=writethrough_stable_end_early: the same failure with and without the promises"
fi
tap_end
