#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-nullv.sh WPSIM SOURCE-ROOT - ioengine=null with verify
# and verify_backlog, time_based or iodepth_batch (tools/wpsim/fio-nullv.c:
# fio 3.33's io_u life cycle; t/jobs/t0009-f8b0bd10.fio's combination)
# against fio 3.33's runs on this machine, recorded by
# tools/fio/record-nullv.sh in tests/fio/nullv/NAME.fio333 (TAP).
#
# Each case of tests/fio/nullv/cases runs under wpsim fio with the same
# options and is kept as tests/fio/nullv-digest.py keeps fio's run; then:
#   exact    the issued reads and writes, the IO depth, submit and
#            complete distributions and the write_iolog (every line:
#            action, offset, length; its sha256 and runs of actions)
#            are fio's
#   actions  the same, the iolog's actions without offsets (a random
#            job's offsets are the model's generator's, not fio's)
#   prefix   a time_based run: its first 4000 I/O lines in the iolog
#            (the runtime ends fio's run and the model's at different
#            I/Os: fio spends 3-13 us of this machine's time per I/O,
#            the model 120 ns of virtual time)
#   count    a random job without fio's random map: writes fio's, and
#            verify reads within 1 % of fio's (which blocks a write
#            overwrites in fio's rbtree follows the offsets)
wpsim=$1
root=$2
cd "$root" || exit 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. tests/lib/tap.sh
tap_diag="$dir/diff $dir/err"
tap_diag_lines=30
w=$(cd "$(dirname "$wpsim")" && pwd)/$(basename "$wpsim")
data=$root/tests/fio/nullv
digest=$root/tests/fio/nullv-digest.py

grep -v '^#' "$data/cases" >"$dir/cases"
while read -r name mode args; do
	rm -f "$dir/log"
	# shellcheck disable=SC2086
	(cd "$dir" && "$w" fio --name=j --ioengine=null --bs=4096 \
		--verify=crc32c --do_verify=1 --thread $args \
		--output-format=json --write_iolog=log >json 2>err)
	got=$?
	tail -n +2 "$data/$name.fio333" >"$dir/want"
	if [ "$got" != 0 ] ||
	   ! "$digest" "$dir/json" "$dir/log" "$mode" >"$dir/have" 2>>"$dir/err"; then
		: >"$dir/diff"
		not_ok "$name ($mode): wpsim fio exit $got"
		continue
	fi
	if [ "$mode" = count ]; then
		# shellcheck disable=SC2046 # the words of both files
		set -- $(cat "$dir/want") $(cat "$dir/have")
		# issued R W issued R W
		if [ "$3" = "$6" ] &&
		   [ $(( ($2 - $5) * ($2 - $5) * 10000 )) -le $(( $2 * $2 )) ]; then
			ok "$name ($mode): $6 writes as fio 3.33, $5 verify reads (fio: $2)"
		else
			echo "fio: $*" >"$dir/diff"
			not_ok "$name ($mode): fio 3.33's writes, reads within 1 %"
		fi
		continue
	fi
	# prefix: the counts differ (the runtime ends each run elsewhere)
	if [ "$mode" = prefix ]; then
		sed -i '/^issued /d' "$dir/want"
		sed -i '/^issued /d' "$dir/have"
	fi
	if diff "$dir/want" "$dir/have" >"$dir/diff"; then
		ok "$name ($mode): $(grep -h '^issued' "$dir/have" | sed 's/$/, /')$(grep '^iolog' "$dir/have" | cut -d, -f1) as fio 3.33's"
	else
		not_ok "$name ($mode): against fio 3.33 ($args)"
	fi
done <"$dir/cases"

tap_end
